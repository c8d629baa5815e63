//! Completion-latency percentiles of one workload, p50 to p99.99, one line
//! per config. x is in "nines" (-log10 of the fraction above), so p90,
//! p99, p99.9 and p99.99 are evenly spaced; y is logarithmic.

use super::figure::{Body, Figure};
use super::frame::Frame;
use super::lines::{Line, LinePlot, Range, Stroke, log_tick_labels};
use super::palette;
use super::scale::{latency, tick};
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
    super::workloads_where(cmp, |w| {
        super::gets_distribution_charts(cmp, w)
            && w.percentiles.values().any(|p| !points(p).is_empty())
    })
    .into_iter()
    .map(|workload| Percentiles { workload })
    .collect()
}

impl Percentiles {
    pub fn stem(&self, cmp: &Comparison) -> String {
        format!(
            "percentiles_{}",
            super::workload_point_slug(cmp, &cmp.workloads[self.workload])
        )
    }

    pub fn figure(&self, cmp: &Comparison) -> Figure {
        let w = &cmp.workloads[self.workload];
        let lines = super::config_lines(cmp, |c| Some(points(w.percentiles.get(c)?)));
        let lat = || lines.iter().flat_map(|(_, p)| p.iter().map(|x| x.1));
        let max_ns = lat().fold(0.0, f64::max);
        let min_ns = lat().fold(f64::INFINITY, f64::min);
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
                super::workload_point_label(cmp, w),
                w.direction
            ),
            subtitle: Some("Lower is better".into()),
            legend: super::legend_of(cmp, lines.iter().map(|(i, _)| *i)),
            footnotes: vec!["Completion latency (fio clat) as reported per percentile.".into()],
            ..Default::default()
        };
        let x_hi = ticks.last().map(|p| nines(*p)).unwrap_or(4.0) + 0.25;
        let y_lo = scale.to_display(min_ns) / 1.3;
        let y_hi = scale.to_display(max_ns) * 1.3;
        let plot = LinePlot {
            heading: None,
            x: Range::Linear(0.1, x_hi),
            y: Range::Log(y_lo, y_hi),
            y_label_width: 6.0,
            x_ticks: labelled
                .iter()
                .map(|p| (nines(*p), format!("p{}", tick(*p))))
                .collect(),
            y_ticks: log_tick_labels(y_lo, y_hi),
            x_title: "Percentile".into(),
            y_title: format!("Completion latency ({}, log scale)", scale.unit),
            lines: lines
                .iter()
                .map(|(i, pts)| Line {
                    color: palette::color(*i),
                    points: pts
                        .iter()
                        .map(|(p, ns)| (nines(*p), scale.to_display(*ns)))
                        .collect(),
                    dots: true,
                    stroke: Stroke::Solid,
                })
                .collect(),
            markers: Vec::new(),
            rules: Vec::new(),
            labels: Vec::new(),
            whiskers: Vec::new(),
            bands: Vec::new(),
        };
        Figure {
            frame,
            body: Body::Lines(plot),
        }
    }
}
