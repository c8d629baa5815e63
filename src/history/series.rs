//! From rows to series: one value per run for each workload (with its
//! load point: [`WorkloadKey`]), config and metric. A run's files for the
//! same workload (repeats) are combined by `compare`'s own grouping and
//! averaged; jobs that reported an error are left out, as `analyze` leaves
//! them out of winners.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;

use super::store::{self, RunMeta, StoreError, StoredRun};
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

/// One run's value in a series. The run's id, commit and time are
/// shared by every series of the run, not copied into each point: a
/// history of 100,000 runs has millions of points.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub run: Arc<RunMeta>,
    /// Base units (ops/s, bytes/s, ns, %).
    pub value: f64,
}

/// `{"run", "commit", "time", "value"}`, as CONTRACT.md has it.
impl Serialize for Point {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Point", 4)?;
        st.serialize_field("run", &self.run.id)?;
        st.serialize_field("commit", &self.run.commit)?;
        st.serialize_field("time", &self.run.time)?;
        st.serialize_field("value", &self.value)?;
        st.end()
    }
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
    let mut b = Builder::new(metrics);
    for run in runs {
        b.push(Arc::new(run.meta.clone()), measure(&run.rows, metrics));
    }
    b.finish()
}

/// The dataset columns [`measure`] reads: grouping (file, label, shape,
/// load point, hosts, client aggregates), errors, and the metrics with
/// what combining jobs weighs them by.
pub const COLUMNS: &[&str] = &[
    "source",
    "label",
    "host",
    "aggregate",
    "rw",
    "direction",
    "bs_bytes",
    "rwmixread",
    "iodepth",
    "numjobs",
    "error",
    "runtime_ms",
    "io_bytes",
    "bw_bytes_per_s",
    "iops",
    "lat_mean_ns",
    "clat_mean_ns",
    "clat_p99_ns",
    "usr_cpu_pct",
    "sys_cpu_pct",
    "system_cpu_pct",
];

/// [`build`] over the history in `dir`, read a batch of runs at a time
/// and only in [`COLUMNS`], so memory holds the series' values, not the
/// history's rows. Returns the runs read and the series.
pub fn load(dir: &Path, metrics: &[Metric]) -> Result<(usize, Vec<Series>), StoreError> {
    let mut b = Builder::new(metrics);
    let runs = store::scan(dir, Some(COLUMNS), |batch| {
        let measured: Vec<Vec<Measured>> = batch
            .par_iter()
            .map(|r| measure(&r.rows, metrics))
            .collect();
        for (run, m) in batch.into_iter().zip(measured) {
            b.push(Arc::new(run.meta), m);
        }
    })?;
    Ok((runs, b.finish()))
}

/// Series grown one run at a time.
struct Builder<'a> {
    metrics: &'a [Metric],
    index: HashMap<SeriesKey, usize>,
    /// The series the previous run's values went to, in its order: runs
    /// of a CI job measure the same things in the same order, and a key
    /// compared is cheaper than a key hashed.
    last: Vec<usize>,
    out: Vec<Series>,
}

impl<'a> Builder<'a> {
    fn new(metrics: &'a [Metric]) -> Self {
        Builder {
            metrics,
            index: HashMap::new(),
            last: Vec::new(),
            out: Vec::new(),
        }
    }

    fn push(&mut self, run: Arc<RunMeta>, measured: Vec<Measured>) {
        let mut seen = Vec::with_capacity(measured.len());
        for (j, m) in measured.into_iter().enumerate() {
            let i = match self.last.get(j) {
                Some(&i) if self.out[i].key == m.key => i,
                _ => self.series_of(m.key),
            };
            self.out[i].points.push(Point {
                run: run.clone(),
                value: m.values.mean,
            });
            seen.push(i);
        }
        self.last = seen;
    }

    fn series_of(&mut self, key: SeriesKey) -> usize {
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        self.out.push(Series {
            key: key.clone(),
            points: Vec::new(),
        });
        self.index.insert(key, self.out.len() - 1);
        self.out.len() - 1
    }

    /// Workloads in order, then configs as first seen, then metrics' order.
    fn finish(self) -> Vec<Series> {
        let mut out = self.out;
        let config_rank = first_seen_configs(&out);
        let metric_rank = |m: Metric| self.metrics.iter().position(|x| *x == m);
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
}

fn first_seen_configs(series: &[Series]) -> HashMap<String, usize> {
    let mut rank = HashMap::new();
    for s in series {
        let n = rank.len();
        rank.entry(s.key.config.clone()).or_insert(n);
    }
    rank
}
