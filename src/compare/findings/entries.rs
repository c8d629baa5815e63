//! What every rule reads off a comparison: a metric's entries as the tie
//! rule sees them, which results compare, the effect of one value over
//! another.

use crate::compare::comparison::{Better, Comparison, Metric, MetricResult, Rule, Workload};
use crate::compare::findings::{clarity, magnitude};
use crate::compare::rules::{Entry, Judge};
use crate::model::{Direction, Os};
use crate::numbers;

/// Metrics that get sentences (derived efficiency metrics do not).
pub(super) const METRICS: [Metric; 5] = [
    Metric::BwBytesPerS,
    Metric::Iops,
    Metric::LatMeanNs,
    Metric::ClatP99Ns,
    Metric::CpuPct,
];

/// Who won: the winner, or every tied config.
pub(super) fn winners(m: &MetricResult) -> Vec<&str> {
    match &m.winner {
        Some(w) => vec![w.as_str()],
        None => m.tied.iter().map(|s| s.as_str()).collect(),
    }
}

/// The values that are compared: present and not excluded as invalid.
pub(super) fn present(m: &MetricResult) -> Vec<(&str, f64)> {
    m.compared().collect()
}

/// Families are compared only when every config has a known OS and there
/// are two or more of them: "Linux wins" against a config of unknown OS
/// counts the unknown one as not-Linux.
pub(super) fn families_comparable(cmp: &Comparison) -> bool {
    cmp.families.len() >= 2 && cmp.families.iter().all(|f| f.name != Os::Unknown)
}

/// One metric's entry for `config` in `r`, as the tie rule sees it.
pub(super) fn entry<'a>(r: &'a MetricResult, config: &'a str) -> Option<Entry<'a>> {
    Some(Entry {
        config,
        value: r.value(config)?,
        precision: r.precision.get(config).copied().unwrap_or(0.0),
        spread: r.spread.get(config).copied(),
    })
}

/// What cannot separate `a` from `b`: their rounding plus the
/// equivalence margin (as [`crate::compare::rules::tie_rule`] counts
/// them), or twice the standard error of their difference where spreads
/// are known, whichever is larger.
pub(super) fn resolution(a: &Entry, b: &Entry, judge: Judge) -> f64 {
    let rounding = (a.precision.max(0.0) + b.precision.max(0.0)) / 2.0;
    let noise = match (a.spread, b.spread) {
        (Some(x), Some(y)) if x.n > 0 && y.n > 0 => {
            2.0 * (x.stddev.powi(2) / x.n as f64 + y.stddev.powi(2) / y.n as f64).sqrt()
        }
        _ => 0.0,
    };
    let margin = judge
        .equivalence_pct
        .map_or(0.0, |p| a.value.abs().max(b.value.abs()) * p / 100.0);
    (rounding + margin).max(noise)
}

/// 0..1: the effect of `best` over `other` (relative size, clarity).
pub(super) fn effect(best: &Entry, other: &Entry, judge: Judge) -> f64 {
    let diff = (best.value - other.value).abs();
    let base = best.value.abs().min(other.value.abs());
    let rel = if base > 0.0 { diff / base } else { 1.0 };
    magnitude(rel) * clarity(diff, resolution(best, other, judge))
}

/// How a tie was decided, in words, for sentences that must say so.
pub(super) fn tie_words(rule: Rule, judge: Judge) -> String {
    match rule {
        Rule::NotSignificant => "within run-to-run noise".into(),
        Rule::Equivalent => format!(
            "within the {} % equivalence margin",
            numbers::trimmed(judge.equivalence_pct.unwrap_or(0.0), 2)
        ),
        _ => "within rounding".into(),
    }
}

/// CPU usage at or above which a config is saturated: comparing such
/// figures says nothing about the configs.
pub const CPU_SATURATED_PCT: f64 = 99.0;

/// False for a latency of a workload some config ran at another queue
/// depth than asked (a sync engine at QD1 among QD32 runs): its latency is
/// not comparable, and the workload's notes say so. False for CPU usage
/// where every config is saturated ([`cpu_saturated`]).
pub(super) fn comparable(w: &Workload, m: Metric) -> bool {
    let latency = m.is_latency();
    if m == Metric::CpuPct {
        return !cpu_saturated(w);
    }
    !latency
        || w.effective_iodepth
            .values()
            .all(|d| *d == w.key.load.iodepth)
}

/// True when two configs or more report CPU usage and every one of them
/// is at [`CPU_SATURATED_PCT`] or more.
pub(super) fn cpu_saturated(w: &Workload) -> bool {
    let Some(r) = w.metric(Metric::CpuPct) else {
        return false;
    };
    let vals: Vec<f64> = r.compared().map(|(_, v)| v).collect();
    vals.len() >= 2 && vals.iter().all(|v| *v >= CPU_SATURATED_PCT)
}

/// Each workload's result of each metric in [`METRICS`] whose values
/// compare ([`comparable`]): what the per-result rules (near-equal,
/// outliers) look at.
pub(super) fn comparable_results(
    cmp: &Comparison,
) -> impl Iterator<Item = (&Workload, Metric, &MetricResult)> {
    cmp.workloads.iter().flat_map(|w| {
        METRICS
            .into_iter()
            .filter_map(move |m| Some((w, m, w.metric(m).filter(|_| comparable(w, m))?)))
    })
}

/// Workloads of `dir` where `m` has two or more comparable values.
pub(super) fn decided(
    cmp: &Comparison,
    dir: Direction,
    m: Metric,
) -> Vec<(&Workload, &MetricResult)> {
    let ws: Vec<&Workload> = cmp
        .workloads
        .iter()
        .filter(|w| w.key.shape.direction == dir)
        .collect();
    if ws.len() < 2 {
        return Vec::new();
    }
    ws.into_iter()
        .filter(|w| comparable(w, m))
        .filter_map(|w| w.metric(m).map(|r| (w, r)))
        .filter(|(_, r)| present(r).len() >= 2)
        .collect()
}

/// The best entry of `r` among `configs` (by the metric's direction).
pub(super) fn best_among<'a>(r: &'a MetricResult, configs: &[&'a str]) -> Option<Entry<'a>> {
    configs
        .iter()
        .filter_map(|c| entry(r, c))
        .reduce(|a, b| match r.better {
            Better::Higher if b.value > a.value => b,
            Better::Lower if b.value < a.value => b,
            _ => a,
        })
}

/// The lowest and the highest value of `r`.
pub(super) fn extremes<'a>(r: &'a MetricResult) -> Option<(Entry<'a>, Entry<'a>)> {
    let all: Vec<Entry> = r.values.keys().filter_map(|c| entry(r, c)).collect();
    if all.len() < 2 {
        return None;
    }
    let lo = all
        .iter()
        .cloned()
        .reduce(|a, b| if b.value < a.value { b } else { a })?;
    let hi = all
        .iter()
        .cloned()
        .reduce(|a, b| if b.value > a.value { b } else { a })?;
    Some((lo, hi))
}

/// The highest value among `configs`.
pub(super) fn top_of<'a>(r: &'a MetricResult, configs: &'a [String]) -> Option<Entry<'a>> {
    configs
        .iter()
        .filter_map(|c| entry(r, c))
        .reduce(|a, b| if b.value > a.value { b } else { a })
}
