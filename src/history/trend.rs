//! From rows to series: one value per run for each workload (with its
//! load point: [`WorkloadKey`]), config and metric. A run's files for the
//! same workload (repeats) are combined by `compare`'s own grouping and
//! averaged; jobs that reported an error are left out, as `analyze` leaves
//! them out of winners.

use std::collections::HashMap;
use std::sync::Arc;

use polars_core::prelude::DataFrame;
use serde::Serialize;

pub use super::columns::COLUMNS;
use super::columns::Cast;
use super::store::{self, RunMeta, RunSpan, Scanned, Store, StoreError, StoredRun};
use crate::compare::stats::Summary;
use crate::compare::workload::{self, WorkloadKey};
use crate::compare::{LoadPoint, Metric};
use crate::dataset;
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

/// A series' workload as the JSON of `history show` and of `check
/// --history` both spell it (flattened into each entry: its shape,
/// `iodepth` and `numjobs`), with its title as people read it
/// (`randread 4k QD32`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WorkloadFields {
    #[serde(flatten, serialize_with = "workload::key::without_hosts")]
    pub key: WorkloadKey,
    #[serde(skip)]
    pub title: String,
}

impl WorkloadFields {
    pub fn of(w: &WorkloadKey) -> WorkloadFields {
        WorkloadFields {
            key: w.clone(),
            title: format!("{} {}", w.shape.title(), w.load.label()),
        }
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

/// `{"run", "commit", "time", "value"}`, as docs/CONTRACT.md has it.
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
        let meta = Arc::new(run.meta.clone());
        match is_plain(&run.rows) {
            true => b.push_plain(meta, &run.rows),
            false => b.push(meta, measure(&run.rows, metrics)),
        }
    }
    b.finish()
}

/// Whether each row of a run measures a workload of its own: no client
/// aggregates, no hosts, one row per config, workload and load point, as a
/// CI matrix makes them. [`measure`] would then make a group of each row
/// alone and take its own values, so a history of millions of such rows
/// skips the grouping ([`Builder::push_plain`]).
fn is_plain(rows: &[Row]) -> bool {
    let mut seen = std::collections::HashSet::with_capacity(rows.len());
    rows.iter().all(|r| {
        !r.aggregate
            && r.host.is_none()
            && r.instance_group.is_none()
            && r.instances <= 1
            && seen.insert((
                r.config.as_str(),
                r.rw.as_str(),
                r.bs_bytes,
                r.direction,
                r.rwmixread,
                r.iodepth,
                r.numjobs,
                r.devices(),
            ))
    })
}

/// The load point of a plain row spread over `devices` targets.
fn plain_load(r: &Row, devices: u32) -> LoadPoint {
    LoadPoint {
        devices,
        ..LoadPoint::of(r.iodepth, r.numjobs)
    }
}

/// Whether `key` is what [`measure`] makes of a plain row (over `devices`
/// targets) and `metric`.
fn is_key_of(key: &SeriesKey, r: &Row, devices: u32, metric: Metric) -> bool {
    let (shape, load) = (&key.workload.shape, &key.workload.load);
    key.metric == metric
        && key.config == r.config
        && shape.rw == r.rw
        && shape.bs_bytes == r.bs_bytes
        && shape.direction == r.direction
        && shape.rwmixread == r.rwmixread
        && *load == plain_load(r, devices)
}

fn key_of(r: &Row, devices: u32, metric: Metric) -> SeriesKey {
    SeriesKey {
        workload: WorkloadKey {
            shape: workload::Shape::of(r),
            load: plain_load(r, devices),
        },
        config: r.config.clone(),
        metric,
    }
}

/// [`build`] over the history in `dir`, a part at a time and only in
/// [`COLUMNS`], so memory holds the series' values, not the history's
/// rows. Returns the runs read and the series.
pub fn read(
    history: impl Into<Store>,
    metrics: &[Metric],
) -> Result<(Scanned, Vec<Series>), StoreError> {
    let mut b = Builder::new(metrics);
    // A part's values join the series only once the whole part has read:
    // a part that fails midway leaves nothing of itself.
    let scanned = store::scan_frames(history, COLUMNS, |df, spans| {
        let mut part = Builder::new(metrics);
        part.push_frame(df, spans)?;
        b.absorb(part);
        Ok(())
    })?;
    Ok((scanned, b.finish()))
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

    /// A plain run ([`is_plain`]): each row's own values, as [`measure`]
    /// takes them from a group of one.
    fn push_plain(&mut self, run: Arc<RunMeta>, rows: &[Row]) {
        let mut seen = Vec::with_capacity(rows.len() * self.metrics.len());
        for r in rows {
            self.push_row(&run, r, r.devices(), &mut seen);
        }
        self.last = seen;
    }

    /// One row of a plain run, spread over `devices` targets (none when it
    /// reported an error); `seen` collects the series it went to.
    fn push_row(&mut self, run: &Arc<RunMeta>, r: &Row, devices: u32, seen: &mut Vec<usize>) {
        if r.error != 0 {
            return;
        }
        let values = workload::Run::from_row(r);
        for &metric in self.metrics {
            let Some(value) = metric.of_run(&values) else {
                continue;
            };
            let i = match self.last.get(seen.len()) {
                Some(&i) if is_key_of(&self.out[i].key, r, devices, metric) => i,
                _ => self.series_of(key_of(r, devices, metric)),
            };
            self.out[i].points.push(Point {
                run: run.clone(),
                value,
            });
            seen.push(i);
        }
    }

    /// The runs of one part's frame: plain ones straight from its
    /// columns ([`Cast`]), the others as rows through [`measure`].
    fn push_frame(&mut self, df: &DataFrame, spans: &[RunSpan]) -> anyhow::Result<()> {
        let cast = Cast::of(df);
        let columns = cast.as_ref().map(Cast::columns);
        // Fields series do not read stay empty.
        let mut scratch = Row::empty("", crate::model::Direction::Read);
        for span in spans {
            let run = Arc::new(span.meta.clone());
            let range = span.offset..span.offset + span.len;
            match &columns {
                Some(c) if c.is_plain(range.clone()) => {
                    let mut seen = Vec::with_capacity(span.len * self.metrics.len());
                    for i in range {
                        c.fill(i, &mut scratch);
                        self.push_row(&run, &scratch, c.devices(i), &mut seen);
                    }
                    self.last = seen;
                }
                _ => {
                    let rows = dataset::from_dataframe(&df.slice(span.offset as i64, span.len))?;
                    self.push(run, measure(&rows, self.metrics));
                }
            }
        }
        Ok(())
    }

    /// Takes the series of `part` (the runs of a later part): points
    /// after those of the same series, new series after the others.
    fn absorb(&mut self, part: Builder<'_>) {
        for s in part.out {
            let i = self.series_of(s.key);
            self.out[i].points.extend(s.points);
        }
        self.last.clear();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::synth::matrix_run;

    const ALL: [Metric; 6] = [
        Metric::Iops,
        Metric::BwBytesPerS,
        Metric::LatMeanNs,
        Metric::ClatP99Ns,
        Metric::CpuPct,
        Metric::IopsPerCpuPct,
    ];

    fn run(seq: u64, rows: Vec<Row>) -> StoredRun {
        StoredRun {
            meta: RunMeta {
                id: format!("r{seq}"),
                commit: None,
                time: String::new(),
                seq,
            },
            rows,
        }
    }

    /// The series as [`measure`] makes them, with no shortcut.
    fn by_measure(runs: &[StoredRun]) -> Vec<Series> {
        let mut b = Builder::new(&ALL);
        for r in runs {
            b.push(Arc::new(r.meta.clone()), measure(&r.rows, &ALL));
        }
        b.finish()
    }

    #[test]
    fn plain_runs_make_the_series_measure_makes() {
        let mut runs: Vec<StoredRun> = (1..=6).map(|s| run(s, matrix_run(s, 4))).collect();
        runs[2].rows[5].error = 5;
        runs[3].rows.drain(10..20);
        runs[4].rows.reverse();
        runs[5].rows[7].clat_p99_ns = None;
        assert!(runs.iter().all(|r| is_plain(&r.rows)));
        let series = build(&runs, &ALL);
        assert_eq!(series, by_measure(&runs));
        // 50 workloads and configs, 6 metrics, minus the missing p99.
        assert_eq!(series.len(), 300);
        let points: usize = series.iter().map(|s| s.points.len()).sum();
        assert_eq!(points, 6 * 300 - 6 - 10 * 6 - 1);
    }

    /// Runs with the cases a plain run can have, and one that is not plain.
    fn varied_runs() -> Vec<StoredRun> {
        let mut runs: Vec<StoredRun> = (1..=6).map(|s| run(s, matrix_run(s, 4))).collect();
        runs[2].rows[5].error = 5;
        runs[3].rows.drain(10..20);
        runs[4].rows.reverse();
        runs[5].rows[7].clat_p99_ns = None;
        runs[5].rows[8].system_cpu_pct = Some(42.0);
        runs[5].rows[9].lat_mean_ns = None;
        runs[1].rows[0].host = Some("client-a".into());
        // The same workload over one target and over two: two series.
        let mut spread = runs[3].rows[0].clone();
        spread.source = "spread.json".into();
        spread.filename = Some("/dev/nvme1n1:/dev/nvme2n1".into());
        runs[3].rows.push(spread);
        // Two fio instances that ran together: one run of both files.
        for (i, r) in runs[4].rows[..2].iter_mut().enumerate() {
            r.iodepth = 1;
            r.instances = 2;
            r.instance_group = Some("c1/instance-0.json".into());
            r.source = format!("c1/instance-{i}.json");
        }
        runs
    }

    #[test]
    fn reading_from_the_columns_gives_the_series_rows_give() {
        let dir = tempfile::tempdir().unwrap();
        let runs = varied_runs();
        store::write_runs(
            &dir.path().join("part-00000001-00000006.parquet"),
            runs.clone(),
        )
        .unwrap();
        let (n, series) = read(dir.path(), &ALL).unwrap();
        assert_eq!(n.runs, 6);
        let stored = store::read(dir.path()).unwrap();
        assert_eq!(series, by_measure(&stored));
        assert_eq!(series, by_measure(&runs));
        let spread = |devices, instances| {
            series
                .iter()
                .filter(|s| s.key.workload.load.devices == devices)
                .filter(|s| s.key.workload.load.instances == instances)
                .count()
        };
        // Run 4's extra row over two devices is a series of its own, as
        // are run 5's two instances, one series per metric.
        assert_eq!(spread(2, 1), ALL.len());
        assert_eq!(spread(1, 2), ALL.len());
        // The frame is read from its columns, and the runs with a host or
        // fio instances through `measure`.
        let path = dir.path().join("part-00000001-00000006.parquet");
        use polars_io::prelude::{ParquetReader, SerReader};
        let df = ParquetReader::new(std::fs::File::open(path).unwrap())
            .finish()
            .unwrap();
        let cast = Cast::of(&df).expect("a frame nvcmp wrote has every column");
        let columns = cast.columns();
        assert!(columns.is_plain(0..50));
        assert!(!columns.is_plain(50..100));
        let lens: Vec<usize> = runs.iter().map(|r| r.rows.len()).collect();
        let at: usize = lens[..3].iter().sum();
        assert!(columns.is_plain(at..at + lens[3]), "two devices, plain");
        assert!(!columns.is_plain(at + lens[3]..at + lens[3] + lens[4]));
        assert!(!is_plain(&runs[1].rows));
        assert!(
            runs.iter()
                .enumerate()
                .all(|(i, r)| i == 1 || i == 4 || is_plain(&r.rows))
        );
        // A history written before devices and instances were columns is
        // still read from its columns, each row over one target.
        let old = df
            .drop_many(["tool", "filename", "instances", "instance_group"])
            .slice(0, 50);
        let cast = Cast::of(&old).expect("the older columns suffice");
        let columns = cast.columns();
        assert!(columns.is_plain(0..50));
        assert!((0..50).all(|i| columns.devices(i) == 1));
    }

    #[test]
    fn aggregates_hosts_and_repeats_are_grouped_by_measure() {
        let rows = matrix_run(1, 4);
        let mut host = rows.clone();
        host[0].host = Some("client-a".into());
        let mut aggregate = rows.clone();
        aggregate[3].aggregate = true;
        let mut repeat = rows.clone();
        repeat.push(rows[0].clone());
        repeat.last_mut().unwrap().source = "again.json".into();
        for (seq, rows) in [(1, host), (2, aggregate), (3, repeat)] {
            assert!(!is_plain(&rows), "run {seq}");
            let runs = [run(seq, rows)];
            assert_eq!(build(&runs, &ALL), by_measure(&runs));
        }
    }
}
