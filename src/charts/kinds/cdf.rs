//! Latency distribution of one workload from fio's json+ completion-latency
//! bins: the cumulative share of I/Os completed within each latency, one
//! line per config, latency on a log axis.

use crate::charts::Plot;
use crate::charts::distribution;
use crate::charts::figure::Figure;
use crate::charts::frame::Frame;
use crate::charts::lines::{ConfigLine, LinePlot, Range, latency_log_ticks};
use crate::charts::palette;
use crate::charts::scale::latency_span;
use crate::compare::{Comparison, Workload};
use crate::numbers;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cdf {
    pub workload: usize,
}

/// (latency ns, cumulative percent) from bins, skipping empty bins.
fn cumulative(bins: &[(u64, u64)]) -> Vec<(f64, f64)> {
    let mut bins: Vec<(u64, u64)> = bins
        .iter()
        .copied()
        .filter(|(ns, n)| *n > 0 && *ns > 0 && numbers::is_plausible(*ns as f64))
        .collect();
    bins.sort_unstable();
    // Counts as f64: hostile counts near u64::MAX would overflow a sum.
    let total: f64 = bins.iter().map(|b| b.1 as f64).sum();
    let mut acc = 0.0;
    bins.iter()
        .map(|(ns, n)| {
            acc += *n as f64;
            (*ns as f64, acc * 100.0 / total)
        })
        .collect()
}

/// `config`'s line in `w`.
fn line(w: &Workload, config: &str) -> Option<Vec<(f64, f64)>> {
    Some(cumulative(w.clat_bins.get(config)?))
}

pub(crate) fn plan(cmp: &Comparison) -> Vec<Cdf> {
    distribution::plan(cmp, line)
        .into_iter()
        .map(|workload| Cdf { workload })
        .collect()
}

impl Plot for Cdf {
    type Source = Comparison;

    fn stem(&self, cmp: &Comparison) -> String {
        crate::charts::names::workload_stem(cmp, "latency_cdf", self.workload)
    }

    fn footer(&self, cmp: &Comparison) -> Option<String> {
        crate::charts::footer::of_workload(cmp, self.workload)
    }

    fn figure(&self, cmp: &Comparison) -> Figure {
        let w = &cmp.workloads[self.workload];
        let lines = distribution::lines(cmp, w, line);
        let (scale, lo, hi) = latency_span(
            &cmp.units,
            lines.iter().flat_map(|(_, p)| p.iter().map(|x| x.0)),
        );
        let total: Vec<String> = lines
            .iter()
            .map(|(i, _)| {
                let n: f64 = w.clat_bins[&cmp.configs[*i]]
                    .iter()
                    .map(|b| b.1 as f64)
                    .sum();
                format!("{}: {}", cmp.configs[*i], numbers::fixed(n, 0))
            })
            .collect();
        let frame = Frame {
            subtitle: Some(
                "Share of I/Os completed within a latency; further left is better".into(),
            ),
            footnotes: std::iter::once(format!(
                "From fio's json+ clat histogram (bins are ~1.5 % wide). I/Os counted: {}.",
                total.join(", ")
            ))
            .chain(distribution::exclusion_notes(cmp, w))
            .collect(),
            ..distribution::frame(cmp, w, "completion latency distribution", &lines)
        };
        let (x_lo, x_hi) = (lo / 1.2, hi * 1.2);
        let steps = lines.iter().map(|(i, pts)| {
            ConfigLine::solid(
                palette::color(*i),
                steps(pts, |ns| scale.to_display(ns)),
                false,
            )
        });
        let mut plot = LinePlot::new(
            Range::Log(x_lo, x_hi),
            Range::Linear(0.0, 100.0),
            steps.collect(),
        );
        plot.y_label_width = 5.0;
        plot.x_ticks = latency_log_ticks(x_lo, x_hi, scale);
        plot.y_ticks = (0..=10)
            .map(|i| (i as f64 * 10.0, format!("{}", i * 10)))
            .collect();
        plot.x_title = "Completion latency (log scale)".to_string();
        plot.y_title = "I/Os completed (%)".into();
        Figure::lines(frame, plot)
    }
}

/// A step per bin: the share is reached at the bin's latency (`x` turns
/// ns into display units).
fn steps(pts: &[(f64, f64)], x: impl Fn(f64) -> f64) -> Vec<(f64, f64)> {
    let mut points = Vec::with_capacity(pts.len() * 2);
    let mut prev = 0.0;
    for (ns, pct) in pts {
        points.push((x(*ns), prev));
        points.push((x(*ns), *pct));
        prev = *pct;
    }
    points
}
