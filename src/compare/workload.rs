//! Which rows make one measurement: workload keys, one run per file
//! (aggregates instead of per-host rows, several jobs summed), and the runs
//! of one config and workload.

pub mod key;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use indexmap::IndexMap;

pub use key::{LoadPoint, Shape, WorkloadKey};

use super::stats::Summary;
use super::steady::SteadyState;
use crate::model::Row;
use crate::quick_hash::QuickHash;

/// One file's result for one workload: its jobs (or its aggregate) combined.
#[derive(Debug, Clone)]
pub struct Run {
    pub source: String,
    pub os: crate::model::Os,
    pub bs_bytes: u64,
    /// Bytes/s and its precision.
    pub bw: f64,
    pub bw_precision: f64,
    pub iops: f64,
    pub iops_precision: f64,
    /// Mean total latency, ns (completion latency when total is missing).
    pub lat: Option<f64>,
    /// Mean completion latency, ns (for the lat >= clat sanity check).
    pub clat: Option<f64>,
    pub lat_precision: f64,
    pub clat_p99: Option<f64>,
    /// Percent.
    pub cpu: f64,
    /// True when `cpu` is whole-system CPU.
    pub system_cpu: bool,
    pub iodepth: u32,
    pub numjobs: u32,
    /// Depth the run really had (fio's depth distribution), when known.
    pub effective_iodepth: Option<u32>,
    pub engine: String,
    /// `fio-3.33`, as the file says.
    pub fio_version: String,
    /// The benchmark that measured the run (`fio`, `diskspd`) and its
    /// version where known.
    pub tool: String,
    pub tool_version: Option<String>,
    /// Milliseconds; the longest job's when jobs are combined.
    pub runtime_ms: f64,
    pub error: i64,
    /// fio's per-interval samples (single-job runs only).
    pub iops_samples: Option<Summary>,
    pub bw_samples: Option<Summary>,
    pub percentiles: Vec<(f64, f64)>,
    pub clat_bins: Option<crate::model::LatencyBins>,
    /// fio's steady-state verdict, when the job asked for one.
    /// Boxed: most runs have none, and a run is held per result file.
    pub steady: Option<Box<SteadyState>>,
    /// I/Os the run completed (io_bytes / bs, else IOPS x runtime).
    pub ios: f64,
    /// Bytes the run moved (fio's `io_bytes`), for the consistency checks
    /// of bandwidth and IOPS against bytes over runtime.
    pub io_bytes: f64,
    /// The row's `timing_options` (`sqthread_poll=1`, ...).
    pub timing_options: Option<String>,
    /// Files or devices the run's jobs ran on side by side (1 when they
    /// name none or one): each had its own iodepth x numjobs.
    pub targets: u32,
    /// Result files the run was read from: 1, or the fio instances that
    /// ran together (`ingest::instances`), each with its own depth.
    pub files: u32,
    /// Several jobs made the run and not all had json+ histograms to pool:
    /// its p99 is the worst job's, an upper bound, not the pooled one.
    pub p99_upper_bound: bool,
    /// The percentile `clat_p99` holds: 99, or the highest one every run
    /// of the comparison shares where fio printed no p99
    /// ([`tail_percentile`]).
    pub tail_pct: f64,
}

/// p99, the tail nvcmp shows.
pub const P99: f64 = 99.0;

/// [`P99`], for serde's defaults.
pub fn p99() -> f64 {
    P99
}

/// Whether `pct` is p99 (serde leaves it out then).
pub fn is_p99(pct: &f64) -> bool {
    (*pct - P99).abs() < 1e-9
}

/// A row's completion-latency percentiles: every one fio printed, else
/// (a dataset written before they were kept) the fixed columns.
fn row_percentiles(r: &Row) -> Vec<(f64, f64)> {
    if !r.clat_percentiles.is_empty() {
        return r.clat_percentiles.to_vec();
    }
    [
        (50.0, r.clat_p50_ns),
        (90.0, r.clat_p90_ns),
        (95.0, r.clat_p95_ns),
        (99.0, r.clat_p99_ns),
        (99.9, r.clat_p99_9_ns),
        (99.99, r.clat_p99_99_ns),
    ]
    .into_iter()
    .filter_map(|(p, v)| v.map(|v| (p, v)))
    .collect()
}

/// The tail percentile shown for these rows: p99 where every row that has
/// percentiles has it (or a json+ histogram to compute it from), else the
/// highest percentile they all share (a study's `percentile_list=50:95`
/// gives p95). p99 when no row has any.
pub fn tail_percentile(rows: &[Row]) -> f64 {
    let mut shared: Option<Vec<f64>> = None;
    // The last row's percents: a row with the same list (as nearly every
    // row of a study has) leaves the shared ones as they are.
    let mut last: Vec<f64> = Vec::new();
    let mut pcts: Vec<f64> = Vec::new();
    for r in rows.iter().filter(|r| r.clat_bins.is_none()) {
        pcts.clear();
        if r.clat_percentiles.is_empty() {
            pcts.extend(row_percentiles(r).into_iter().map(|(p, _)| p));
        } else {
            pcts.extend(r.clat_percentiles.pairs().map(|(p, _)| p));
        }
        if pcts.is_empty() || (shared.is_some() && pcts == last) {
            continue;
        }
        shared = Some(match shared {
            None => pcts.clone(),
            Some(s) => s
                .into_iter()
                .filter(|p| pcts.iter().any(|q| (p - q).abs() < 1e-9))
                .collect(),
        });
        std::mem::swap(&mut last, &mut pcts);
    }
    match shared {
        None => P99,
        Some(s) if s.iter().any(|p| (p - P99).abs() < 1e-9) => P99,
        Some(s) => s
            .into_iter()
            .fold(None, |m: Option<f64>, p| Some(m.map_or(p, |m| m.max(p))))
            .unwrap_or(P99),
    }
}

/// `p99`, `p95`, `p99.999`: how a tail percentile is named.
pub fn tail_name(pct: f64) -> String {
    format!("p{pct}")
}

/// The key of the tail at `pct` in the JSON, the sweep CSV and metric
/// flags, named by its percentile: `clat_p99_ns`, `clat_p95_ns`,
/// `clat_p99_9_ns` (the dataset's spelling of p99.9).
pub fn tail_key(pct: f64) -> String {
    format!("clat_{}_ns", tail_name(pct).replace('.', "_"))
}

impl Run {
    pub(crate) fn from_row(r: &Row) -> Run {
        Run::from_row_at(r, P99)
    }

    /// The run of one row, its tail at `tail` percent.
    pub(crate) fn from_row_at(r: &Row, tail: f64) -> Run {
        Run::from_row_with(r, tail, true)
    }

    /// [`Run::from_row_at`], with the row's percentiles or without (a
    /// run that will not stand alone in its cell).
    fn from_row_with(r: &Row, tail: f64, with_percentiles: bool) -> Run {
        let samples = |n: Option<u64>, mean: Option<f64>, sd: Option<f64>| match (n, mean, sd) {
            (Some(n), Some(mean), Some(stddev)) if n >= 2 => Some(Summary { n, mean, stddev }),
            _ => None,
        };
        let (percentiles, clat_p99) = match with_percentiles || r.clat_percentiles.is_empty() {
            true => {
                let all = row_percentiles(r);
                let tail = crate::model::figures::percentile(&all, tail);
                (if with_percentiles { all } else { Vec::new() }, tail)
            }
            false => (Vec::new(), r.clat_percentiles.get(tail)),
        };
        Run {
            source: r.source.clone(),
            os: r.os.clone(),
            bs_bytes: r.bs_bytes,
            bw: r.bw_bytes_per_s,
            bw_precision: r.bw_precision,
            iops: r.iops,
            iops_precision: r.iops_precision,
            lat: r.lat_mean_ns.or(r.clat_mean_ns),
            clat: r.clat_mean_ns,
            lat_precision: r.lat_precision_ns,
            clat_p99,
            cpu: r.cpu_pct(),
            system_cpu: r.system_cpu_pct.is_some(),
            iodepth: r.iodepth,
            numjobs: r.numjobs,
            effective_iodepth: r.effective_iodepth,
            engine: r.engine.clone(),
            fio_version: r.fio_version.clone(),
            tool: r.tool.clone(),
            tool_version: r.tool_version.clone(),
            runtime_ms: r.runtime_ms,
            error: r.error,
            iops_samples: samples(r.iops_samples, r.iops_sample_mean, r.iops_sample_stddev),
            bw_samples: samples(r.bw_samples, r.bw_sample_mean, r.bw_sample_stddev),
            percentiles,
            clat_bins: r.clat_bins.clone(),
            steady: SteadyState::of_row(r).map(Box::new),
            ios: row_ios(r),
            io_bytes: r.io_bytes as f64,
            timing_options: r.timing_options.clone(),
            targets: 1,
            files: 1,
            p99_upper_bound: false,
            tail_pct: tail,
        }
    }

    /// Whether the run set fio option `name` (see [`crate::model::TIMING_OPTIONS`]).
    pub fn timing_option(&self, name: &str) -> Option<String> {
        let all = self.timing_options.as_deref()?;
        all.split(',')
            .find(|kv| kv.split('=').next() == Some(name))
            .filter(|kv| !matches!(kv.split('=').nth(1), Some("0" | "false" | "off" | "no")))
            .map(str::to_string)
    }

    /// Several jobs of one file and workload: they ran side by side, so
    /// bandwidth and IOPS add up and latency is the mean over all I/Os.
    fn combine(rows: &[&Row], tail: f64, with_percentiles: bool) -> Run {
        if rows.len() == 1 {
            return Run::from_row_with(rows[0], tail, with_percentiles);
        }
        // The first row's percentiles are not the run's.
        let mut run = Run::from_row_with(rows[0], tail, false);
        let ios = row_ios;
        run.ios = rows.iter().map(|r| row_ios(r)).sum();
        run.io_bytes = rows.iter().map(|r| r.io_bytes as f64).sum();
        let weighted = |f: &dyn Fn(&Row) -> Option<f64>| {
            let (mut sum, mut w) = (0.0, 0.0);
            for r in rows {
                let v = f(r)?;
                sum += v * ios(r);
                w += ios(r);
            }
            (w > 0.0).then(|| sum / w)
        };
        run.bw = rows.iter().map(|r| r.bw_bytes_per_s).sum();
        run.bw_precision = rows.iter().map(|r| r.bw_precision).sum();
        run.iops = rows.iter().map(|r| r.iops).sum();
        run.iops_precision = rows.iter().map(|r| r.iops_precision).sum();
        run.lat = weighted(&|r| r.lat_mean_ns.or(r.clat_mean_ns));
        run.clat = weighted(&|r| r.clat_mean_ns);
        run.lat_precision = rows.iter().map(|r| r.lat_precision_ns).fold(0.0, f64::max);
        // A percentile of the union is not a mean of percentiles. With
        // every job's json+ histogram the pooled percentiles are exact (the
        // histograms add up, as fio's group_reporting adds them); without,
        // the worst job's p99 is kept as an upper bound and said so.
        let all_bins: Option<Vec<&crate::model::LatencyBins>> =
            rows.iter().map(|r| r.clat_bins.as_ref()).collect();
        match all_bins {
            Some(bins) => {
                let merged = merge_bins(&bins);
                if with_percentiles {
                    run.percentiles = POOLED_PERCENTILES
                        .iter()
                        .chain(std::iter::once(&tail).filter(|t| !POOLED_PERCENTILES.contains(t)))
                        .filter_map(|&p| Some((p, bins_percentile(&merged, p)?)))
                        .collect();
                }
                run.clat_p99 = bins_percentile(&merged, tail);
                run.clat_bins = Some(crate::model::LatencyBins::new(&merged));
            }
            None => {
                run.clat_p99 = rows
                    .iter()
                    .map(|r| crate::model::figures::percentile(row_percentiles(r), tail))
                    .collect::<Option<Vec<_>>>()
                    .map(|v| v.into_iter().fold(0.0, f64::max));
                run.p99_upper_bound = run.clat_p99.is_some();
                run.percentiles = Vec::new();
                run.clat_bins = None;
            }
        }
        // Whole-system CPU is one figure for the file; fio's per-job usr+sys
        // is per job, so the jobs' mean describes the run.
        run.system_cpu = rows.iter().any(|r| r.system_cpu_pct.is_some());
        run.cpu = match rows.iter().find_map(|r| r.system_cpu_pct) {
            Some(s) => s,
            None => rows.iter().map(|r| r.cpu_pct()).sum::<f64>() / rows.len() as f64,
        };
        // The rows share the load point they were grouped by: iodepth and
        // numjobs stay the requested ones, the jobs' I/O adds up above.
        run.effective_iodepth = rows.iter().filter_map(|r| r.effective_iodepth).max();
        run.error = run_error(rows);
        run.runtime_ms = rows.iter().map(|r| r.runtime_ms).fold(0.0, f64::max);
        run.iops_samples = None;
        run.bw_samples = None;
        let steady: Vec<SteadyState> = rows.iter().filter_map(|r| SteadyState::of_row(r)).collect();
        run.steady = SteadyState::combine(&steady.iter().collect::<Vec<_>>()).map(Box::new);
        let targets: BTreeSet<&str> = rows.iter().filter_map(|r| r.target.as_deref()).collect();
        run.targets = targets.len().max(1) as u32;
        run.files = files_of(rows);
        run
    }
}

/// The percentiles a pooled histogram gives (fio's default list).
const POOLED_PERCENTILES: [f64; 6] = [50.0, 90.0, 95.0, 99.0, 99.9, 99.99];

/// Histograms of fio's json+ `bins` (latency ns, count) added bucket by
/// bucket: jobs of one fio build share its bucket values.
pub fn merge_bins(all: &[&crate::model::LatencyBins]) -> Vec<(u64, u64)> {
    let mut merged: BTreeMap<u64, u64> = BTreeMap::new();
    for bins in all {
        for (ns, n) in bins.iter() {
            // Saturating: counts from a file are not trusted to fit.
            let count = merged.entry(ns).or_default();
            *count = count.saturating_add(n);
        }
    }
    merged.into_iter().collect()
}

/// The `p`th percentile of a histogram as fio computes it (stat.c,
/// `calc_clat_percentiles`): the value of the first bucket at which the
/// running count reaches p % of all samples.
pub fn bins_percentile(bins: &[(u64, u64)], p: f64) -> Option<f64> {
    let total: u64 = bins.iter().fold(0u64, |a, b| a.saturating_add(b.1));
    if total == 0 {
        return None;
    }
    let want = (p / 100.0 * total as f64).ceil().max(1.0);
    let mut seen = 0u64;
    for &(ns, n) in bins {
        seen = seen.saturating_add(n);
        if seen as f64 >= want {
            return Some(ns as f64);
        }
    }
    bins.last().map(|b| b.0 as f64)
}

/// I/Os one row completed: io_bytes / bs where both are known, else IOPS x
/// runtime.
fn row_ios(r: &Row) -> f64 {
    if r.bs_bytes > 0 && r.io_bytes > 0 {
        r.io_bytes as f64 / r.bs_bytes as f64
    } else {
        r.iops * r.runtime_ms / 1000.0
    }
}

/// The file a row's run is read from: its own, or for fio instances that
/// ran together the group's first (`ingest::instances`).
pub(super) fn run_source(r: &Row) -> &str {
    r.instance_group.as_deref().unwrap_or(&r.source)
}

/// Runs per config label (in first-seen order) and workload (in the
/// workloads' order, as a `BTreeMap` keeps them). A sorted `IndexMap` of
/// exact size, not a `BTreeMap`: a tree's leaf holds room for eleven
/// workloads, 1.7 KB a config that ran one (a sixth of the comparison's
/// memory at 128,904 configs).
pub type Grouped = IndexMap<String, IndexMap<WorkloadKey, Vec<Run>>>;

/// Groups rows into runs, one per file and workload. Per file, `All
/// clients` aggregate rows replace the per-host rows they sum up, so nothing
/// counts twice, and take the per-host rows' load point (fio's text report
/// counts every host's jobs in the aggregate's `jobs=`).
pub fn group(rows: &[Row]) -> Grouped {
    group_at(rows, tail_percentile(rows))
}

/// (label, source, run of the file, shape (its place among the shapes
/// seen), (iodepth, numjobs)): the rows of one run. The shape by its
/// place: a run's key is then 56 bytes, not 150 with a copy of its shape.
type FileKey<'a> = (&'a str, &'a str, Option<u32>, usize, (u32, u32));

/// Room for each workload's runs at once, per file group in `by_file`'s
/// order: grown by doubling, the runs of an archive of 100,000 results
/// were copied, and fresh pages zeroed, twice over. Counted by config,
/// shape and load as the files give them, a bound (hosts, devices and
/// instances may split a group further).
fn room_per_workload(by_file: &IndexMap<FileKey<'_>, Vec<&Row>, QuickHash>) -> Vec<usize> {
    let mut counts: HashMap<(&str, usize, (u32, u32)), usize, QuickHash> = HashMap::default();
    for (label, _, _, shape, load) in by_file.keys() {
        *counts.entry((label, *shape, *load)).or_default() += 1;
    }
    by_file
        .keys()
        .map(|(label, _, _, shape, load)| {
            counts.get(&(*label, *shape, *load)).copied().unwrap_or(1)
        })
        .collect()
}

/// [`group`] with the runs' tail at `tail` percent (an SLO's `clat_p95`).
pub fn group_at(rows: &[Row], tail: f64) -> Grouped {
    let plan = plan_at(rows, tail);
    plan.configs
        .iter()
        .map(|(label, workloads)| {
            let runs = workloads
                .keys()
                .filter_map(|key| Some((key.clone(), plan.runs(label, key)?)))
                .collect();
            (label.clone(), runs)
        })
        .collect()
}

/// The rows of one run and the load point (iodepth, numjobs) it was
/// grouped at.
pub type RunRows<'a> = (Box<[&'a Row]>, (u32, u32));

/// Which rows make each run, per config label (in first-seen order) and
/// workload (sorted): [`Grouped`] with the runs not made yet. A plan holds
/// a pointer per row; the runs, made one workload at a time
/// ([`RunPlan::runs`]), hold a copy of their rows' figures, strings and
/// percentiles (half a kilobyte a run, and all of a json+ archive's runs
/// at once were a fifth of `analyze`'s peak at 100,000 files).
pub struct RunPlan<'a> {
    tail: f64,
    pub configs: IndexMap<String, IndexMap<WorkloadKey, Vec<RunRows<'a>>>>,
}

impl<'a> RunPlan<'a> {
    /// The runs of `config` at `key`, made now; the percentiles of runs
    /// that will not stand alone in their cell (the only place they are
    /// read, `Workload::percentiles`) are let go.
    pub fn runs(&self, config: &str, key: &WorkloadKey) -> Option<Vec<Run>> {
        let planned = self.configs.get(config)?.get(key)?;
        // The cell's runs are the clean ones, or all when none is.
        let clean = planned
            .iter()
            .filter(|(rows, _)| run_error(rows) == 0)
            .count();
        let alone = if clean > 0 {
            clean == 1
        } else {
            planned.len() == 1
        };
        let runs = planned
            .iter()
            .map(|(rows, (iodepth, numjobs))| {
                let mut run = Run::combine(rows, self.tail, alone);
                run.iodepth = *iodepth;
                run.numjobs = *numjobs;
                run
            })
            .collect();
        Some(runs)
    }

    /// Each run's first row (whose source, engine and OS the run takes)
    /// and the files it was read from, per config and workload.
    pub fn heads(&self) -> impl Iterator<Item = (&str, impl Iterator<Item = (&'a Row, u32)>)> {
        self.configs.iter().map(|(label, workloads)| {
            let heads = workloads
                .values()
                .flatten()
                .filter_map(|(rows, _)| Some((*rows.first()?, files_of(rows))));
            (label.as_str(), heads)
        })
    }
}

/// Which rows make each run ([`RunPlan`]), the runs' tail at `tail` percent.
pub fn plan_at(rows: &[Row], tail: f64) -> RunPlan<'_> {
    // The hosts' loads of the files with an aggregate (client/server) row
    // only: the one place they are read.
    let with_aggregate: std::collections::HashSet<&str, QuickHash> = rows
        .iter()
        .filter(|r| r.aggregate)
        .map(|r| r.source.as_str())
        .collect();
    let mut host_loads: HashMap<(&str, Shape), BTreeSet<(u32, u32)>, QuickHash> =
        HashMap::default();
    for r in rows
        .iter()
        .filter(|r| !r.aggregate && with_aggregate.contains(r.source.as_str()))
    {
        host_loads
            .entry((r.source.as_str(), Shape::of(r)))
            .or_default()
            .insert((r.iodepth, r.numjobs));
    }
    // (label, source, run of the file, shape, (iodepth, numjobs)) -> the
    // rows of one run; the files of fio instances that ran together are
    // one source, the invocations of a script's log each a run.
    let mut by_file: IndexMap<FileKey, Vec<&Row>, QuickHash> = IndexMap::default();
    let mut shapes: indexmap::IndexSet<Shape, QuickHash> = indexmap::IndexSet::default();
    for r in rows {
        let shape = Shape::of(r);
        let mut load = (r.iodepth, r.numjobs);
        if r.aggregate
            && let Some(loads) = host_loads.get(&(r.source.as_str(), shape.clone()))
            && loads.len() == 1
        {
            load = *loads.first().unwrap_or(&load);
        }
        let (shape, _) = shapes.insert_full(shape);
        by_file
            .entry((r.config.as_str(), run_source(r), r.file_run, shape, load))
            .or_default()
            .push(r);
    }
    let room = room_per_workload(&by_file);
    let mut out: IndexMap<String, IndexMap<WorkloadKey, Vec<RunRows>>> = IndexMap::new();
    for (((label, _, _, shape, (iodepth, numjobs)), rows), room) in by_file.into_iter().zip(room) {
        let key = WorkloadKey {
            shape: shapes[shape].clone(),
            load: load_of(&rows, iodepth, numjobs),
        };
        // Per file, `All clients` aggregate rows replace the per-host rows
        // they sum up.
        let aggregates: Vec<&Row> = rows.iter().copied().filter(|r| r.aggregate).collect();
        let used = if aggregates.is_empty() {
            rows
        } else {
            aggregates
        };
        let workloads = match out.get_index_of(label) {
            Some(i) => &mut out[i],
            None => out.entry(label.to_string()).or_default(),
        };
        workloads
            .entry(key)
            .or_insert_with(|| Vec::with_capacity(room))
            .push((used.into_boxed_slice(), (iodepth, numjobs)));
    }
    for workloads in out.values_mut() {
        workloads.sort_unstable_keys();
        workloads.shrink_to_fit();
        workloads.values_mut().for_each(Vec::shrink_to_fit);
    }
    RunPlan { tail, configs: out }
}

/// The load point of one run's rows, grouped at (iodepth, numjobs).
fn load_of(rows: &[&Row], iodepth: u32, numjobs: u32) -> LoadPoint {
    // Hosts are told apart by name: two servers on one address count once.
    let hosts: BTreeSet<&str> = rows
        .iter()
        .filter(|r| !r.aggregate)
        .filter_map(|r| r.host.as_deref())
        .collect();
    let devices = rows.iter().map(|r| r.devices()).max().unwrap_or(1);
    let instances = rows.iter().map(|r| r.instances).max().unwrap_or(1);
    LoadPoint {
        hosts: hosts.len().max(1) as u32,
        numjobs,
        iodepth,
        devices,
        instances: instances.max(1),
        beside: 0,
        probe: false,
    }
}

/// The error of a run made of `rows` ([`Run::combine`]): its rows' first
/// (0 when none failed).
fn run_error(rows: &[&Row]) -> i64 {
    rows.iter().map(|r| r.error).find(|e| *e != 0).unwrap_or(0)
}

/// Result files a run's rows were read from: 1, or the fio instances that
/// ran together.
fn files_of(rows: &[&Row]) -> u32 {
    if rows.len() <= 1 {
        return 1;
    }
    let files: BTreeSet<&str> = rows.iter().map(|r| r.source.as_str()).collect();
    files.len().max(1) as u32
}
