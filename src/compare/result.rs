//! One metric across configs ([`metric_result`]): values (rounded as
//! `--round` asks), the winner or the tie, deltas against the baseline,
//! values excluded as invalid. Reads cells; the comparison calls it once
//! per workload and metric.

use indexmap::IndexMap;

use super::cell::ConfigCell;
use super::comparison::*;
use super::{CompareOptions, metric, rules, validity, workload};

/// A value per config, None where it has none.
type ByConfig = IndexMap<String, Option<f64>>;

/// Each config's value of a metric (None where it has none), with its
/// precision and spread; `--round` applied.
struct Gathered {
    values: ByConfig,
    precision: IndexMap<String, f64>,
    spread: IndexMap<String, Spread>,
}

fn gather(
    m: Metric,
    cells: &IndexMap<&str, ConfigCell>,
    configs: &[String],
    opts: &CompareOptions,
) -> Gathered {
    let mut out = Gathered {
        values: IndexMap::new(),
        precision: IndexMap::new(),
        spread: IndexMap::new(),
    };
    for c in configs {
        let got = cells.get(c.as_str()).and_then(|cell| cell.metric(m));
        let Some((mut v, mut p, s)) = got else {
            out.values.insert(c.clone(), None);
            continue;
        };
        if let Some((_, step)) = opts.round.iter().find(|(rm, _)| *rm == m)
            && *step > 0.0
        {
            v = (v / step).round() * step;
            p = p.max(*step);
        }
        if let Some(s) = s {
            out.spread.insert(c.clone(), s);
        }
        out.values.insert(c.clone(), Some(v));
        out.precision.insert(c.clone(), p);
    }
    out
}

/// Deltas against the baseline, absolute and relative (%). An excluded
/// value is no measurement: no delta from it, and none against it when
/// it is the baseline's.
#[allow(clippy::type_complexity)]
fn deltas(
    values: &IndexMap<String, Option<f64>>,
    excluded: &IndexMap<String, String>,
    baseline: Option<&str>,
) -> (IndexMap<String, Option<f64>>, IndexMap<String, Option<f64>>) {
    let compared = |c: &str| {
        values
            .get(c)
            .copied()
            .flatten()
            .filter(|_| !excluded.contains_key(c))
    };
    let base = baseline.and_then(compared);
    let delta_abs = values
        .keys()
        .map(|c| (c.clone(), compared(c).zip(base).map(|(v, b)| v - b)))
        .collect();
    let delta_pct = values
        .keys()
        .map(|c| {
            let pct = compared(c)
                .zip(base)
                .filter(|(_, b)| *b != 0.0)
                .map(|(v, b)| (v - b) / b * 100.0);
            (c.clone(), pct)
        })
        .collect();
    (delta_abs, delta_pct)
}

/// One metric across configs: values (rounded as `--round` asks), the
/// winner or the tie and the rule that decided, deltas against the
/// baseline. None for p99 latency when no config reports it.
pub(super) fn metric_result(
    m: Metric,
    cells: &IndexMap<&str, ConfigCell>,
    configs: &[String],
    baseline: Option<&str>,
    opts: &CompareOptions,
) -> Option<MetricResult> {
    let Gathered {
        values,
        precision,
        spread,
    } = gather(m, cells, configs, opts);
    if values.values().all(|v| v.is_none()) && m == Metric::ClatP99Ns {
        return None;
    }
    // Also where the value is missing: a run that measured no latency (fio
    // wrote zeros, read as none) says why its cell is empty.
    let excluded: IndexMap<String, String> = cells
        .iter()
        .filter_map(|(c, cell)| Some((c.to_string(), validity::exclusion(m, cell)?)))
        .collect();
    let entries: Vec<rules::Entry> = configs
        .iter()
        .filter(|c| cells.get(c.as_str()).is_some_and(|cell| !cell.errored))
        .filter(|c| !excluded.contains_key(c.as_str()))
        .filter_map(|c| {
            let value = values[c]?;
            Some(rules::Entry {
                config: c.as_str(),
                value,
                precision: precision[c].max(resolution(m, &cells[c.as_str()], value)),
                spread: spread.get(c).copied(),
            })
        })
        .collect();
    let d = rules::decide(m.better(), &entries, opts.judge());
    let baseline_ties = baseline
        .map(|b| rules::baseline_ties(b, &entries, opts.judge()))
        .unwrap_or_default()
        .into_iter()
        .collect();
    let (delta_abs, delta_pct) = deltas(&values, &excluded, baseline);
    Some(MetricResult {
        metric: m,
        better: m.better(),
        values,
        precision,
        spread,
        winner: d.winner,
        tied: d.tied,
        delta_pct,
        delta_abs,
        rule: d.rule,
        baseline_ties,
        excluded,
        approximate: approximate(m, cells),
        tail_pct: cells
            .values()
            .find_map(|c| c.runs.first())
            .map_or(workload::P99, |r| r.tail_pct),
    })
}

/// What the tie rule cannot see below, beyond a value's rounding: fio's
/// percentiles are its latency histogram's buckets, so two p99 values a
/// bucket apart are one measurement (`metric::fio_bucket_width`).
/// Tables print the value as fio gave it; only winners and ties use this.
fn resolution(m: Metric, cell: &ConfigCell, value: f64) -> f64 {
    let fio = cell.runs.iter().all(|r| r.tool == "fio");
    match m {
        Metric::ClatP99Ns if fio => metric::fio_bucket_width(value),
        _ => 0.0,
    }
}

/// Configs whose value of `m` is approximate (see
/// [`MetricResult::approximate`]).
fn approximate(m: Metric, cells: &IndexMap<&str, ConfigCell>) -> Vec<String> {
    if m != Metric::ClatP99Ns {
        return Vec::new();
    }
    cells
        .iter()
        .filter(|(_, cell)| cell.runs.iter().any(|r| r.p99_upper_bound))
        .map(|(c, _)| c.to_string())
        .collect()
}
