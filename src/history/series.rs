//! From rows to series: one value per run for each workload (with its
//! load point: [`WorkloadKey`]), config and metric. A run's files for the
//! same workload (repeats) are combined by `compare`'s own grouping and
//! averaged; jobs that reported an error are left out, as `analyze` leaves
//! them out of winners.

use std::collections::HashMap;

use serde::Serialize;

use super::store::StoredRun;
use crate::compare::stats::Summary;
use crate::compare::workload::{self, WorkloadKey};
use crate::compare::{LoadPoint, Metric};
use crate::model::Row;

/// Metrics a history follows unless told otherwise: those `check` gates
/// plus p99 latency, which a history's many runs can follow where one run
/// against one cannot.
pub const DEFAULT_METRICS: &[Metric] = &[
    Metric::Iops,
    Metric::BwBytesPerS,
    Metric::LatMeanNs,
    Metric::ClatP99Ns,
];

/// What a series is about.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SeriesKey {
    pub workload: WorkloadKey,
    pub config: String,
    pub metric: Metric,
}

impl SeriesKey {
    pub fn load(&self) -> &LoadPoint {
        &self.workload.load
    }

    /// `randread 4k read QD32 · config · iops`.
    pub fn title(&self) -> String {
        format!(
            "{} {} · {} · {}",
            self.workload.shape.title(),
            self.workload.load.label(),
            self.config,
            self.metric.key()
        )
    }
}

/// One workload, config and metric of one set of rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    pub key: SeriesKey,
    /// Over the files (repeats) of the set.
    pub values: Summary,
    /// fio's per-interval samples of a lone file, for IOPS and bandwidth.
    pub samples: Option<Summary>,
}

/// Every (workload, config, metric) of `rows` with a value, in workload
/// order, then configs as first seen, then `metrics`' order.
pub fn measure(rows: &[Row], metrics: &[Metric]) -> Vec<Measured> {
    let grouped = workload::group(rows);
    let mut out = Vec::new();
    for (config, workloads) in &grouped {
        for (key, runs) in workloads {
            let clean: Vec<&workload::Run> = runs.iter().filter(|r| r.error == 0).collect();
            for &metric in metrics {
                let vals: Vec<f64> = clean.iter().filter_map(|r| metric.of_run(r)).collect();
                let Some(values) = Summary::of(&vals) else {
                    continue;
                };
                let samples = match (metric, clean.as_slice()) {
                    (Metric::Iops, [one]) => one.iops_samples,
                    (Metric::BwBytesPerS, [one]) => one.bw_samples,
                    _ => None,
                };
                out.push(Measured {
                    key: SeriesKey {
                        workload: key.clone(),
                        config: config.clone(),
                        metric,
                    },
                    values,
                    samples,
                });
            }
        }
    }
    // Workloads first (BTreeMap order per config), configs in first-seen order.
    let config_rank: HashMap<&str, usize> = grouped
        .keys()
        .enumerate()
        .map(|(i, c)| (c.as_str(), i))
        .collect();
    let metric_rank = |m: Metric| metrics.iter().position(|x| *x == m);
    out.sort_by(|a, b| {
        (
            &a.key.workload,
            config_rank[a.key.config.as_str()],
            metric_rank(a.key.metric),
        )
            .cmp(&(
                &b.key.workload,
                config_rank[b.key.config.as_str()],
                metric_rank(b.key.metric),
            ))
    });
    out
}

/// One run's value in a series.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Point {
    pub run: String,
    pub commit: Option<String>,
    pub time: String,
    /// Base units (ops/s, bytes/s, ns, %).
    pub value: f64,
}

/// A series over the runs of a history, in run order.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub key: SeriesKey,
    pub points: Vec<Point>,
}

impl Series {
    pub fn values(&self) -> Vec<f64> {
        self.points.iter().map(|p| p.value).collect()
    }
}

/// The series of a history: every key any run has, each with the runs
/// that measured it, in the order of [`measure`] over the runs.
pub fn build(runs: &[StoredRun], metrics: &[Metric]) -> Vec<Series> {
    let mut index: HashMap<SeriesKey, usize> = HashMap::new();
    let mut out: Vec<Series> = Vec::new();
    for run in runs {
        for m in measure(&run.rows, metrics) {
            let point = Point {
                run: run.meta.id.clone(),
                commit: run.meta.commit.clone(),
                time: run.meta.time.clone(),
                value: m.values.mean,
            };
            let i = *index.entry(m.key.clone()).or_insert_with(|| {
                out.push(Series {
                    key: m.key.clone(),
                    points: Vec::new(),
                });
                out.len() - 1
            });
            out[i].points.push(point);
        }
    }
    let config_rank = first_seen_configs(&out);
    let metric_rank = |m: Metric| metrics.iter().position(|x| *x == m);
    out.sort_by(|a, b| {
        (
            &a.key.workload,
            config_rank[&a.key.config],
            metric_rank(a.key.metric),
        )
            .cmp(&(
                &b.key.workload,
                config_rank[&b.key.config],
                metric_rank(b.key.metric),
            ))
    });
    out
}

fn first_seen_configs(series: &[Series]) -> HashMap<String, usize> {
    let mut rank = HashMap::new();
    for s in series {
        let n = rank.len();
        rank.entry(s.key.config.clone()).or_insert(n);
    }
    rank
}
