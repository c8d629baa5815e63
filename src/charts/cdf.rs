//! Latency distribution of one workload from fio's json+ completion-latency
//! bins: the cumulative share of I/Os completed within each latency, one
//! line per config, latency on a log axis.

use super::figure::{Body, Figure};
use super::frame::Frame;
use super::lines::{Line, LinePlot, Range, Stroke, log_tick_labels};
use super::palette;
use super::scale::latency;
use crate::compare::Comparison;
use crate::format;

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
    super::workloads_where(cmp, |w| {
        super::gets_distribution_charts(cmp, w)
            && w.clat_bins.values().any(|b| !cumulative(b).is_empty())
    })
    .into_iter()
    .map(|workload| Cdf { workload })
    .collect()
}

impl Cdf {
    pub fn stem(&self, cmp: &Comparison) -> String {
        format!(
            "latency_cdf_{}",
            super::workload_point_slug(cmp, &cmp.workloads[self.workload])
        )
    }

    pub fn figure(&self, cmp: &Comparison) -> Figure {
        let w = &cmp.workloads[self.workload];
        let lines = super::config_lines(cmp, |c| Some(cumulative(w.clat_bins.get(c)?)));
        let lat = || lines.iter().flat_map(|(_, p)| p.iter().map(|x| x.0));
        let max_ns = lat().fold(0.0, f64::max);
        let min_ns = lat().fold(f64::INFINITY, f64::min);
        let scale = latency(max_ns);
        let total: Vec<String> = lines
            .iter()
            .map(|(i, _)| {
                let n: u64 = w.clat_bins[&cmp.configs[*i]].iter().map(|b| b.1).sum();
                format!("{}: {}", cmp.configs[*i], format::fixed(n as f64, 0))
            })
            .collect();
        let frame = Frame {
            title: format!(
                "{} ({}): completion latency distribution",
                super::workload_point_label(cmp, w),
                w.direction
            ),
            subtitle: Some(
                "Share of I/Os completed within a latency; further left is better".into(),
            ),
            legend: super::legend_of(cmp, lines.iter().map(|(i, _)| *i)),
            footnotes: vec![format!(
                "From fio's json+ clat histogram (bins are ~1.5 % wide). I/Os counted: {}.",
                total.join(", ")
            )],
            ..Default::default()
        };
        let x_lo = scale.to_display(min_ns) / 1.2;
        let x_hi = scale.to_display(max_ns) * 1.2;
        let plot = LinePlot {
            heading: None,
            x: Range::Log(x_lo, x_hi),
            y: Range::Linear(0.0, 100.0),
            y_label_width: 5.0,
            x_ticks: log_tick_labels(x_lo, x_hi),
            y_ticks: (0..=10)
                .map(|i| (i as f64 * 10.0, format!("{}", i * 10)))
                .collect(),
            x_title: format!("Completion latency ({}, log scale)", scale.unit),
            y_title: "I/Os completed (%)".into(),
            lines: lines
                .iter()
                .map(|(i, pts)| {
                    // A step per bin: the share is reached at the bin's latency.
                    let mut points = Vec::with_capacity(pts.len() * 2);
                    let mut prev = 0.0;
                    for (ns, pct) in pts {
                        let x = scale.to_display(*ns);
                        points.push((x, prev));
                        points.push((x, *pct));
                        prev = *pct;
                    }
                    Line {
                        color: palette::color(*i),
                        points,
                        dots: false,
                        stroke: Stroke::Solid,
                    }
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
