//! Completion-latency percentiles of one workload, p50 to p99.99, one line
//! per config. x is in "nines" (-log10 of the fraction above), so p90,
//! p99, p99.9 and p99.99 are evenly spaced; y is logarithmic.

use crate::charts::Plot;
use crate::charts::distribution;
use crate::charts::figure::Figure;
use crate::charts::frame::Frame;
use crate::charts::lines::{ConfigLine, LinePlot, Range, latency_log_ticks};
use crate::charts::palette;
use crate::charts::scale::{latency_span, tick};
use crate::compare::{Comparison, Workload};
use crate::numbers;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PercentilesChart {
    /// Index into `cmp.workloads`.
    pub workload: usize,
}

/// PercentilesChart drawn: p50 and above (below the median nobody asks).
fn points(p: &[(f64, f64)]) -> Vec<(f64, f64)> {
    p.iter()
        .copied()
        .filter(|(pct, ns)| (50.0..100.0).contains(pct) && is_latency(*ns))
        .collect()
}

/// Whether `ns` can be a latency: positive and plausible
/// ([`numbers::is_plausible`]); a denormal or infinite one is not drawn.
fn is_latency(ns: f64) -> bool {
    ns > 0.0 && numbers::is_plausible(ns)
}

/// "Not drawn: p50 of b (1e-320 ns is no latency).": the percentiles of
/// `w` left out as no latency, per config, said in a footnote.
fn dropped_note(cmp: &Comparison, w: &Workload) -> Option<String> {
    let dropped: Vec<String> = cmp
        .configs
        .iter()
        .filter_map(|c| Some((c, w.percentiles.get(c)?)))
        .flat_map(|(c, p)| {
            p.iter()
                .filter(|(pct, ns)| (50.0..100.0).contains(pct) && *ns != 0.0 && !is_latency(*ns))
                .map(move |(pct, ns)| format!("p{} of {c} ({ns:e} ns)", tick(*pct)))
        })
        .collect();
    (!dropped.is_empty()).then(|| format!("Not drawn, no latency: {}.", dropped.join(", ")))
}

fn nines(pct: f64) -> f64 {
    -(1.0 - pct / 100.0).log10()
}

/// Closest two labelled percentiles may sit, in nines (a tenth of the
/// span p90 to p99 on the axis).
const MIN_LABEL_GAP: f64 = 0.1;

/// The percentiles to label: the round ones (p50, p90, p99, p99.9, ...),
/// then each other drawn one that keeps [`MIN_LABEL_GAP`] from those
/// already labelled.
fn label_ticks(drawn: &[f64]) -> Vec<f64> {
    const ROUND: [f64; 6] = [50.0, 90.0, 99.0, 99.9, 99.99, 99.999];
    let mut out: Vec<f64> = drawn
        .iter()
        .copied()
        .filter(|p| ROUND.contains(p))
        .collect();
    for &p in drawn.iter().filter(|p| !ROUND.contains(p)) {
        if out
            .iter()
            .all(|q| (nines(p) - nines(*q)).abs() >= MIN_LABEL_GAP)
        {
            out.push(p);
        }
    }
    out.sort_by(f64::total_cmp);
    out
}

/// `config`'s line in `w`.
fn line(w: &Workload, config: &str) -> Option<Vec<(f64, f64)>> {
    Some(points(w.percentiles.get(config)?))
}

pub(crate) fn plan(cmp: &Comparison) -> Vec<PercentilesChart> {
    distribution::plan(cmp, line)
        .into_iter()
        .map(|workload| PercentilesChart { workload })
        .collect()
}

impl Plot for PercentilesChart {
    type Source = Comparison;

    fn stem(&self, cmp: &Comparison) -> String {
        crate::charts::names::workload_stem(cmp, "percentiles", self.workload)
    }

    fn footer(&self, cmp: &Comparison) -> Option<String> {
        crate::charts::footer::of_workload(cmp, self.workload)
    }

    fn figure(&self, cmp: &Comparison) -> Figure {
        let w = &cmp.workloads[self.workload];
        let lines = distribution::lines(cmp, w, line);
        let (scale, lo, hi) = latency_span(
            &cmp.units,
            lines.iter().flat_map(|(_, p)| p.iter().map(|x| x.1)),
        );
        let mut ticks: Vec<f64> = lines
            .iter()
            .flat_map(|(_, p)| p.iter().map(|x| x.0))
            .collect();
        ticks.sort_by(f64::total_cmp);
        ticks.dedup();
        // Every percentile drawn gets its label, unless it would sit on
        // its neighbour's: the round ones first, then the rest where they
        // fit (p95 beside p90 and p99; not p99.5 between p99 and p99.9 when
        // p99.95 is there too).
        let labelled = label_ticks(&ticks);

        let frame = Frame {
            subtitle: Some("Lower is better".into()),
            footnotes: std::iter::once(
                "Completion latency (fio clat) as reported per percentile.".into(),
            )
            .chain(distribution::exclusion_notes(cmp, w))
            .chain(dropped_note(cmp, w))
            .collect(),
            ..distribution::frame(cmp, w, "completion latency percentiles", &lines)
        };
        let x_hi = ticks.last().map(|p| nines(*p)).unwrap_or(4.0) + 0.25;
        let (y_lo, y_hi) = (lo / 1.3, hi * 1.3);
        let drawn = lines.iter().map(|(i, pts)| {
            let at = |(p, ns): &(f64, f64)| (nines(*p), scale.to_display(*ns));
            ConfigLine::solid(palette::color(*i), pts.iter().map(at).collect(), true)
        });
        let mut plot = LinePlot::new(
            Range::Linear(0.1, x_hi),
            Range::Log(y_lo, y_hi),
            drawn.collect(),
        );
        plot.x_ticks = labelled
            .into_iter()
            .map(|p| (nines(p), format!("p{}", tick(p))))
            .collect();
        plot.y_ticks = latency_log_ticks(y_lo, y_hi, scale);
        plot.x_title = "Percentile".into();
        plot.y_title = "Completion latency (log scale)".to_string();
        Figure::lines(frame, plot)
    }
}
