//! Completion-latency percentiles of one workload, p50 to p99.99, one line
//! per config. x is in "nines" (-log10 of the fraction above), so p90,
//! p99, p99.9 and p99.99 are evenly spaced; y is logarithmic.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axis::{Axes, log_decimals, log_ticks};
use super::frame::{Frame, Sizes};
use super::palette;
use super::scale::{latency, number, tick};
use crate::compare::Comparison;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Percentiles {
    /// Index into `cmp.workloads`.
    pub workload: usize,
}

/// Percentiles drawn: p50 and above (below the median nobody asks).
fn points(p: &[(f64, f64)]) -> Vec<(f64, f64)> {
    p.iter()
        .copied()
        .filter(|(pct, ns)| (50.0..100.0).contains(pct) && ns.is_finite() && *ns > 0.0)
        .collect()
}

fn nines(pct: f64) -> f64 {
    -(1.0 - pct / 100.0).log10()
}

pub(crate) fn plan(cmp: &Comparison) -> Vec<Percentiles> {
    cmp.workloads
        .iter()
        .enumerate()
        .filter(|(_, w)| w.percentiles.values().any(|p| !points(p).is_empty()))
        .map(|(workload, _)| Percentiles { workload })
        .collect()
}

impl Percentiles {
    pub fn stem(&self, cmp: &Comparison) -> String {
        format!(
            "percentiles_{}",
            super::workload_slug(&cmp.workloads[self.workload])
        )
    }

    pub fn draw<DB: DrawingBackend>(
        &self,
        cmp: &Comparison,
        root: &DrawingArea<DB, Shift>,
    ) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let w = &cmp.workloads[self.workload];
        let lines: Vec<(usize, Vec<(f64, f64)>)> = cmp
            .configs
            .iter()
            .enumerate()
            .filter_map(|(i, c)| Some((i, points(w.percentiles.get(c)?))))
            .filter(|(_, p)| !p.is_empty())
            .collect();
        let max_ns = lines
            .iter()
            .flat_map(|(_, p)| p.iter().map(|x| x.1))
            .fold(0.0, f64::max);
        let min_ns = lines
            .iter()
            .flat_map(|(_, p)| p.iter().map(|x| x.1))
            .fold(f64::INFINITY, f64::min);
        let scale = latency(max_ns);
        let mut ticks: Vec<f64> = lines
            .iter()
            .flat_map(|(_, p)| p.iter().map(|x| x.0))
            .collect();
        ticks.sort_by(f64::total_cmp);
        ticks.dedup();
        // Only the round percentiles get a tick label; others still plot.
        let labelled: Vec<f64> = ticks
            .iter()
            .copied()
            .filter(|p| [50.0, 90.0, 99.0, 99.9, 99.99, 99.999].contains(p))
            .collect();

        let frame = Frame {
            title: format!(
                "{} ({}): completion latency percentiles",
                super::workload_label(w),
                w.direction
            ),
            subtitle: Some("Lower is better".into()),
            legend: lines
                .iter()
                .map(|(i, _)| (cmp.configs[*i].clone(), palette::color(*i)))
                .collect(),
            footnotes: vec!["Completion latency (fio clat) as reported per percentile.".into()],
        };
        let plot = frame.draw(root)?;
        let sz = Sizes::of(root);
        let x_hi = ticks.last().map(|p| nines(*p)).unwrap_or(4.0) + 0.25;
        let y_lo = scale.to_display(min_ns) / 1.3;
        let y_hi = scale.to_display(max_ns) * 1.3;
        let mut chart = ChartBuilder::on(&plot)
            .margin(sz.pad as u32)
            .x_label_area_size((sz.text * 3.4) as u32)
            .y_label_area_size((sz.text * 6.0) as u32)
            .build_cartesian_2d(0.1f64..x_hi, (y_lo..y_hi).log_scale())?;
        let base = plot.get_base_pixel();
        let to_px = |x: f64, y: f64| {
            let (a, b) = chart.backend_coord(&(x, y));
            (a - base.0, b - base.1)
        };
        let axes = Axes {
            x: (0.1, x_hi),
            y: (y_lo, y_hi),
            px: &to_px,
            sz,
        };
        let y_ticks: Vec<(f64, String)> = log_ticks(y_lo, y_hi)
            .into_iter()
            .map(|t| (t, number(t, log_decimals(t), false)))
            .collect();
        axes.y(
            &plot,
            &y_ticks,
            &format!("Completion latency ({}, log scale)", scale.unit),
        )?;
        let x_ticks: Vec<(f64, String)> = labelled
            .iter()
            .map(|p| (nines(*p), format!("p{}", tick(*p))))
            .collect();
        axes.x(&plot, &x_ticks, true, Some("Percentile"))?;
        for (i, pts) in &lines {
            let color = palette::color(*i);
            let data: Vec<(f64, f64)> = pts
                .iter()
                .map(|(p, ns)| (nines(*p), scale.to_display(*ns)))
                .collect();
            chart.draw_series(LineSeries::new(data.clone(), color.stroke_width(3)))?;
            chart.draw_series(
                data.iter()
                    .map(|(x, y)| Circle::new((*x, *y), 5, color.filled())),
            )?;
        }
        Ok(())
    }
}
