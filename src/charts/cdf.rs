//! Latency distribution of one workload from fio's json+ completion-latency
//! bins: the cumulative share of I/Os completed within each latency, one
//! line per config, latency on a log axis.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axis::{Axes, log_decimals, log_ticks};
use super::frame::{Frame, Sizes};
use super::palette;
use super::scale::{latency, number};
use crate::compare::Comparison;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cdf {
    pub workload: usize,
}

/// (latency ns, cumulative percent) from bins, skipping empty bins.
fn cumulative(bins: &[(u64, u64)]) -> Vec<(f64, f64)> {
    let mut bins: Vec<(u64, u64)> = bins
        .iter()
        .copied()
        .filter(|(ns, n)| *n > 0 && *ns > 0)
        .collect();
    bins.sort_unstable();
    let total: u64 = bins.iter().map(|b| b.1).sum();
    let mut acc = 0u64;
    bins.iter()
        .map(|(ns, n)| {
            acc += n;
            (*ns as f64, acc as f64 * 100.0 / total as f64)
        })
        .collect()
}

pub(crate) fn plan(cmp: &Comparison) -> Vec<Cdf> {
    cmp.workloads
        .iter()
        .enumerate()
        .filter(|(_, w)| w.clat_bins.values().any(|b| !cumulative(b).is_empty()))
        .map(|(workload, _)| Cdf { workload })
        .collect()
}

impl Cdf {
    pub fn stem(&self, cmp: &Comparison) -> String {
        format!(
            "latency_cdf_{}",
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
            .filter_map(|(i, c)| Some((i, cumulative(w.clat_bins.get(c)?))))
            .filter(|(_, p)| !p.is_empty())
            .collect();
        let lat = || lines.iter().flat_map(|(_, p)| p.iter().map(|x| x.0));
        let max_ns = lat().fold(0.0, f64::max);
        let min_ns = lat().fold(f64::INFINITY, f64::min);
        let scale = latency(max_ns);
        let total: Vec<String> = lines
            .iter()
            .map(|(i, _)| {
                let n: u64 = w.clat_bins[&cmp.configs[*i]].iter().map(|b| b.1).sum();
                format!("{}: {}", cmp.configs[*i], number(n as f64, 0, false))
            })
            .collect();
        let frame = Frame {
            title: format!(
                "{} ({}): completion latency distribution",
                super::workload_label(w),
                w.direction
            ),
            subtitle: Some(
                "Share of I/Os completed within a latency; further left is better".into(),
            ),
            legend: lines
                .iter()
                .map(|(i, _)| (cmp.configs[*i].clone(), palette::color(*i)))
                .collect(),
            footnotes: vec![format!(
                "From fio's json+ clat histogram (bins are ~1.5 % wide). I/Os counted: {}.",
                total.join(", ")
            )],
        };
        let plot = frame.draw(root)?;
        let sz = Sizes::of(root);
        let x_lo = scale.to_display(min_ns) / 1.2;
        let x_hi = scale.to_display(max_ns) * 1.2;
        let mut chart = ChartBuilder::on(&plot)
            .margin(sz.pad as u32)
            .x_label_area_size((sz.text * 3.4) as u32)
            .y_label_area_size((sz.text * 5.0) as u32)
            .build_cartesian_2d((x_lo..x_hi).log_scale(), 0f64..100.0)?;
        let base = plot.get_base_pixel();
        let to_px = |x: f64, y: f64| {
            let (a, b) = chart.backend_coord(&(x, y));
            (a - base.0, b - base.1)
        };
        let axes = Axes {
            x: (x_lo, x_hi),
            y: (0.0, 100.0),
            px: &to_px,
            sz,
        };
        let y_ticks: Vec<(f64, String)> = (0..=10)
            .map(|i| (i as f64 * 10.0, format!("{}", i * 10)))
            .collect();
        axes.y(&plot, &y_ticks, "I/Os completed (%)")?;
        let x_ticks: Vec<(f64, String)> = log_ticks(x_lo, x_hi)
            .into_iter()
            .map(|t| (t, number(t, log_decimals(t), false)))
            .collect();
        axes.x(
            &plot,
            &x_ticks,
            true,
            Some(&format!("Completion latency ({}, log scale)", scale.unit)),
        )?;
        for (i, pts) in &lines {
            let color = palette::color(*i);
            // A step per bin: the share is reached at the bin's latency.
            let mut data = Vec::with_capacity(pts.len() * 2);
            let mut prev = 0.0;
            for (ns, pct) in pts {
                let x = scale.to_display(*ns);
                data.push((x, prev));
                data.push((x, *pct));
                prev = *pct;
            }
            chart.draw_series(LineSeries::new(data, color.stroke_width(3)))?;
        }
        Ok(())
    }
}
