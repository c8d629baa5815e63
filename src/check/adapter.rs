//! TEMPORARY: a two-config comparison of baseline and candidate rows, until
//! `crate::compare::compare` lands on main; then [`compare`] becomes a call
//! to it and this file goes. It groups the way CONTRACT.md describes
//! workloads (rw, block size, rwmixread, direction), takes fio's
//! per-interval samples as the spread of a single run and the runs
//! themselves as the spread of repeated runs. It fills only what
//! [`crate::check::evaluate`] reads: no winners, ties or highlights.

use indexmap::IndexMap;

use crate::compare::stats::Summary;
use crate::compare::{
    Better, Comparison, Metric, MetricResult, Rule, Spread, SpreadSource, Workload,
};
use crate::model::{Direction, Row};

type Key = (String, u64, Option<u32>, Direction);

/// One config's value of one metric in one workload.
struct Cell {
    value: f64,
    precision: f64,
    spread: Option<Spread>,
}

/// Baseline and candidate rows (labelled [`super::BASELINE`] and
/// [`super::CANDIDATE`]) as a comparison.
pub fn compare(rows: &[Row]) -> Comparison {
    let configs = vec![super::BASELINE.to_string(), super::CANDIDATE.to_string()];
    let mut groups: IndexMap<Key, IndexMap<String, Vec<&Row>>> = IndexMap::new();
    for r in rows.iter().filter(|r| r.error == 0 && !r.aggregate) {
        groups
            .entry((r.rw.clone(), r.bs_bytes, r.rwmixread, r.direction))
            .or_default()
            .entry(r.label.clone())
            .or_default()
            .push(r);
    }
    let metrics = [
        (Metric::BwBytesPerS, Better::Higher),
        (Metric::Iops, Better::Higher),
        (Metric::LatMeanNs, Better::Lower),
        (Metric::ClatP99Ns, Better::Lower),
        (Metric::CpuPct, Better::Lower),
    ];
    let workloads = groups
        .into_iter()
        .map(|((rw, bs_bytes, rwmixread, direction), by_label)| {
            let metrics = metrics
                .iter()
                .map(|&(metric, better)| {
                    let mut m = MetricResult {
                        metric,
                        better,
                        values: IndexMap::new(),
                        precision: IndexMap::new(),
                        spread: IndexMap::new(),
                        winner: None,
                        tied: vec![],
                        delta_pct: IndexMap::new(),
                        delta_abs: IndexMap::new(),
                        rule: Rule::NoData,
                    };
                    for c in &configs {
                        let cell = by_label.get(c).and_then(|rs| cell(metric, rs));
                        m.values.insert(c.clone(), cell.as_ref().map(|x| x.value));
                        if let Some(x) = cell {
                            m.precision.insert(c.clone(), x.precision);
                            if let Some(s) = x.spread {
                                m.spread.insert(c.clone(), s);
                            }
                        }
                    }
                    m
                })
                .collect();
            Workload {
                rw,
                bs_bytes,
                direction,
                rwmixread,
                metrics,
                percentiles: IndexMap::new(),
                clat_bins: IndexMap::new(),
                notes: vec![],
            }
        })
        .collect();
    Comparison {
        configs: configs.clone(),
        baseline: Some(super::BASELINE.to_string()),
        config_os: IndexMap::new(),
        families: vec![],
        workloads,
        highlights: vec![],
        skipped: vec![],
        warnings: vec![],
        sanity: vec![],
    }
}

fn value(metric: Metric, r: &Row) -> Option<f64> {
    match metric {
        Metric::BwBytesPerS => Some(r.bw_bytes_per_s),
        Metric::Iops => Some(r.iops),
        Metric::LatMeanNs => r.lat_mean_ns,
        Metric::ClatP99Ns => r.clat_p99_ns,
        Metric::CpuPct => Some(r.cpu_pct()),
        Metric::IopsPerCpuPct | Metric::BwPerCpuPct => None,
    }
}

fn precision(metric: Metric, r: &Row) -> f64 {
    match metric {
        Metric::BwBytesPerS => r.bw_precision,
        Metric::Iops => r.iops_precision,
        Metric::LatMeanNs | Metric::ClatP99Ns => r.lat_precision_ns,
        _ => 0.0,
    }
}

fn samples(metric: Metric, r: &Row) -> Option<Spread> {
    let (n, mean, stddev) = match metric {
        Metric::Iops => (r.iops_samples?, r.iops_sample_mean?, r.iops_sample_stddev?),
        Metric::BwBytesPerS => (r.bw_samples?, r.bw_sample_mean?, r.bw_sample_stddev?),
        _ => return None,
    };
    Some(Spread {
        n,
        mean,
        stddev,
        source: SpreadSource::Samples,
    })
}

fn cell(metric: Metric, rows: &[&Row]) -> Option<Cell> {
    let values: Vec<f64> = rows.iter().filter_map(|r| value(metric, r)).collect();
    if values.is_empty() {
        return None;
    }
    let precision = rows
        .iter()
        .map(|r| precision(metric, r))
        .fold(0.0, f64::max);
    if let [r] = rows {
        return Some(Cell {
            value: values[0],
            precision,
            spread: samples(metric, r),
        });
    }
    let s = Summary::of(&values)?;
    Some(Cell {
        value: s.mean,
        precision,
        spread: Some(Spread {
            n: s.n,
            mean: s.mean,
            stddev: s.stddev,
            source: SpreadSource::Runs,
        }),
    })
}
