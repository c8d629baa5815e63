//! One metric across configs ([`metric_result`]): values (rounded as
//! `--round` asks), the winner or the tie, deltas against the baseline,
//! values excluded as invalid. Reads cells; the comparison calls
//! [`metric_results`] once per workload.
//!
//! Metrics one measurement gives twice ([`COUPLED`]: at one block size
//! IOPS is bandwidth / block size) get one verdict: the figure known most
//! precisely decides, and the other follows it (`decided_by`). Judged
//! apart, each by its own rounding, the article's write 128k would mark
//! io_uring's +0.16 % bandwidth a win beside an IOPS tie (427k against
//! 426k, known to the thousand) of the same run.

use indexmap::IndexMap;

use super::cell::ConfigCell;
use super::comparison::*;
use super::{CompareOptions, metric, rules, validity, workload};

/// A value per config that ran the workload, None where it has none.
type ByConfig = IndexMap<String, Option<f64>>;

/// The value of a metric of each config that ran the workload (None
/// where it has none), with its precision and spread; `--round` applied.
/// A config with no run here has no entry: a workload one config of
/// 128,900 ran (a variant) holds one, not 128,900 (issue #55).
struct Gathered {
    values: ByConfig,
    precision: IndexMap<String, f64>,
    spread: IndexMap<String, Spread>,
}

fn gather(m: Metric, cells: &IndexMap<&str, ConfigCell>, opts: &CompareOptions) -> Gathered {
    // Sized at once: grown by doubling, each of a workload's maps was
    // copied and its pages touched again, per metric (128,904 configs).
    let mut out = Gathered {
        values: IndexMap::with_capacity(cells.len()),
        precision: IndexMap::with_capacity(cells.len()),
        spread: IndexMap::new(),
    };
    // The cells are in display order (`compare_workload`).
    for (c, cell) in cells {
        let c = c.to_string();
        let Some((mut v, mut p, s)) = cell.metric(m) else {
            out.values.insert(c, None);
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
        out.precision.insert(c.clone(), p);
        out.values.insert(c, Some(v));
    }
    out.precision.shrink_to_fit();
    out.spread.shrink_to_fit();
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

/// Pairs of metrics that are one measurement, stated twice: at one block
/// size IOPS is bandwidth / block size, and both per CPU percent divide
/// them by the same CPU figure. Mean latency is not among them: fio times
/// each I/O itself, and the I/Os in flight that would tie it to IOPS
/// (Little's law) are not the requested depth where submission batches or
/// the CPU keeps the queue short (the article's write 64k: 0.399 ms mean
/// latency beside 731,859 IOPS at 512 requested in flight, which Little's
/// law would make 1.28M IOPS).
pub const COUPLED: [(Metric, Metric); 2] = [
    (Metric::BwBytesPerS, Metric::Iops),
    (Metric::BwPerCpuPct, Metric::IopsPerCpuPct),
];

/// Every metric of one workload across configs ([`metric_result`]), the
/// metrics of one measurement ([`COUPLED`]) given one verdict; CPU usage
/// where every config is saturated given none ([`Rule::Saturated`]).
pub(super) fn metric_results(
    cells: &IndexMap<&str, ConfigCell>,
    configs: &[String],
    baseline: Option<&str>,
    opts: &CompareOptions,
) -> Vec<MetricResult> {
    let mut judged: Vec<(MetricResult, Vec<rules::Entry>)> = Metric::ALL
        .into_iter()
        .filter_map(|m| metric_result(m, cells, configs, baseline, opts))
        .collect();
    for pair in COUPLED {
        couple(&mut judged, pair);
    }
    for (r, _) in judged
        .iter_mut()
        .filter(|(r, _)| r.metric == Metric::CpuPct)
    {
        let cpu: Vec<f64> = r.compared().map(|(_, v)| v).collect();
        if cpu.len() >= 2 && cpu.iter().all(|v| *v >= super::findings::CPU_SATURATED_PCT) {
            r.winner = None;
            r.tied.clear();
            r.rule = Rule::Saturated;
        }
    }
    judged.into_iter().map(|(r, _)| r).collect()
}

/// How finely a metric's compared values can be read, as a sort key
/// (smaller is finer): figures with a spread for every config (repeated
/// runs, fio's samples) come first, since a spread says what the noise is
/// and rounding alone does not; then the coarsest relative step, the
/// rounding or the standard error of the mean, whichever is larger.
fn fineness(entries: &[rules::Entry]) -> (bool, f64) {
    let spreads = entries.iter().all(|e| e.spread.is_some());
    let coarsest = entries
        .iter()
        .map(|e| {
            let se = e
                .spread
                .filter(|s| s.n > 0)
                .map_or(0.0, |s| s.stddev / (s.n as f64).sqrt());
            let step = e.precision.max(se).max(0.0);
            if e.value != 0.0 {
                step / e.value.abs()
            } else {
                f64::INFINITY
            }
        })
        .fold(0.0, f64::max);
    (!spreads, coarsest)
}

/// Gives the two metrics of `pair` the verdict of the one whose figures
/// are read more finely ([`fineness`]; the first on a draw). Left apart where they do
/// not compare the same configs (a sanity check excluded one figure).
fn couple(judged: &mut [(MetricResult, Vec<rules::Entry>)], pair: (Metric, Metric)) {
    let at = |m: Metric| judged.iter().position(|(r, _)| r.metric == m);
    let (Some(a), Some(b)) = (at(pair.0), at(pair.1)) else {
        return;
    };
    let names = |i: usize| judged[i].1.iter().map(|e| e.config).collect::<Vec<_>>();
    if names(a) != names(b) || names(a).len() < 2 {
        return;
    }
    let finer = fineness(&judged[b].1).partial_cmp(&fineness(&judged[a].1));
    let (lead, follow) = if finer == Some(std::cmp::Ordering::Less) {
        (b, a)
    } else {
        (a, b)
    };
    let from = judged[lead].0.clone();
    let to = &mut judged[follow].0;
    to.winner = from.winner;
    to.tied = from.tied;
    to.rule = from.rule;
    to.baseline_ties = from.baseline_ties;
    to.decided_by = Some(from.metric);
}

/// One metric across configs: values (rounded as `--round` asks), the
/// winner or the tie and the rule that decided, deltas against the
/// baseline; with the entries the tie rule judged. None for p99 latency
/// when no config reports it.
fn metric_result<'a>(
    m: Metric,
    cells: &IndexMap<&str, ConfigCell>,
    configs: &'a [String],
    baseline: Option<&str>,
    opts: &CompareOptions,
) -> Option<(MetricResult, Vec<rules::Entry<'a>>)> {
    let Gathered {
        values,
        precision,
        spread,
    } = gather(m, cells, opts);
    if values.values().all(|v| v.is_none()) && m == Metric::ClatP99Ns {
        return None;
    }
    // Also where the value is missing: a run that measured no latency (fio
    // wrote zeros, read as none) says why its cell is empty.
    let excluded: IndexMap<String, String> = cells
        .iter()
        .filter_map(|(c, cell)| Some((c.to_string(), validity::exclusion(m, cell)?)))
        .collect();
    // The other configs' values a pooled cell's spread is held against,
    // sorted once where some cell pools runs.
    let sorted = std::cell::OnceCell::new();
    let nearest =
        || sorted.get_or_init(|| crate::model::Nearest::new(compared(&values, &excluded)));
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
                spread: spread.get(c).copied().filter(|_| {
                    !cells[c.as_str()].disagrees(m, |mean| {
                        let own = values.get_index_of(c.as_str()).unwrap_or(usize::MAX);
                        nearest()
                            .others(own, mean)
                            .into_iter()
                            .map(|(_, v)| v)
                            .collect()
                    })
                }),
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
    let result = MetricResult {
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
        decided_by: None,
    };
    Some((result, entries))
}

/// Each config's value (by its place in `values`) but the excluded ones.
fn compared<'v>(
    values: &'v ByConfig,
    excluded: &'v IndexMap<String, String>,
) -> impl Iterator<Item = (usize, f64)> + 'v {
    values
        .iter()
        .enumerate()
        .filter(|(_, (o, _))| !excluded.contains_key(o.as_str()))
        .filter_map(|(i, (_, v))| Some((i, (*v)?)))
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
