//! fio's logs joined to the runs they measured: a log names its result
//! file and job ([`crate::timeseries::LogInfo`]), a result row names the
//! same file and job and says which workload the job ran, so each log row
//! lands in the run (result file + workload) of its direction.
//!
//! Logs with no result (labelled by their folder only) belong to no
//! workload and are left out here; `ingest --series` still has them.
//! The logs come folded ([`crate::timeseries::fold`]): a trace is its
//! cells, not its rows, so a run's logs take the same memory whatever
//! their length. The join takes the folds: each trace moves into its run,
//! so the runs are joined once (by [`crate::input`], which is above this
//! layer) and handed on.

use std::collections::{BTreeMap, HashMap};

use crate::compare::workload::{LoadPoint, Shape};
use crate::model::{Direction, Row};
use crate::timeseries::Kind;
use crate::timeseries::fold::{Folded, Folds};

/// A histogram percentile as an orderable key (percentiles are finite).
pub type PctKey = Option<u64>;

/// The logs of one run: one result file's jobs of one workload.
#[derive(Debug, Clone)]
pub struct RunLogs {
    /// The result file (the rows' `source`).
    pub source: String,
    /// The rows' config label.
    pub label: String,
    pub shape: Shape,
    /// The load the rows asked for: iodepth, numjobs and the devices a
    /// job spread over. One row is one host's, so `hosts` is 1: a
    /// workload's hosts are counted over its rows (`compare::workload`).
    pub load: LoadPoint,
    /// Block size of the rows, for bandwidth from IOPS.
    pub bs_bytes: u64,
    /// Per kind (and percentile for histogram rows): one folded trace per
    /// log (one per job clone).
    pub logs: BTreeMap<(Kind, PctKey), Vec<Folded>>,
    /// The longest averaging window of these logs, ms (0 when per-I/O).
    pub window_ms: u64,
}

impl RunLogs {
    /// The traces of `kind` (no percentile), one per log.
    pub fn of(&self, kind: Kind) -> Option<&Vec<Folded>> {
        self.logs.get(&(kind, None)).filter(|l| !l.is_empty())
    }

    /// Time of the last row, ms: the run's length as logged.
    pub fn span_ms(&self) -> u64 {
        let last = self.logs.values().flatten().filter_map(|f| f.last_ms());
        last.max().unwrap_or(0)
    }
}

/// Each folded trace moved into its run; runs in the order of `rows`.
/// Traces of no run (a log without its result) are dropped here.
pub fn join(folds: Folds, rows: &[Row]) -> Vec<RunLogs> {
    let mut runs: Vec<RunLogs> = Vec::new();
    let mut by_job: HashMap<(&str, &str, Direction), usize> = HashMap::new();
    for r in rows.iter().filter(|r| !r.aggregate) {
        let shape = Shape::of(r);
        let at = runs
            .iter()
            .position(|x| x.source == r.source && x.shape == shape)
            .unwrap_or_else(|| {
                runs.push(RunLogs {
                    source: r.source.clone(),
                    label: r.config.clone(),
                    shape,
                    load: LoadPoint {
                        devices: r.devices(),
                        ..LoadPoint::of(r.iodepth, r.numjobs)
                    },
                    bs_bytes: r.bs_bytes,
                    logs: BTreeMap::new(),
                    window_ms: 0,
                });
                runs.len() - 1
            });
        by_job.insert((&r.source, &r.job, r.direction), at);
    }
    // (run, kind, percentile, log) in that order, as the charts list them.
    let Folds { logs, traces, .. } = folds;
    let mut placed: Vec<(usize, Kind, PctKey, u32, Folded)> = traces
        .into_iter()
        .filter(|t| !t.fold.is_empty())
        .filter_map(|t| {
            let info = &logs[t.log as usize];
            let result = info.result.as_deref()?;
            let run = *by_job.get(&(result, info.job.as_str(), t.direction))?;
            Some((
                run,
                info.kind,
                t.percentile.map(f64::to_bits),
                t.log,
                t.fold,
            ))
        })
        .collect();
    placed.sort_unstable_by_key(|p| (p.0, p.1, p.2, p.3));
    for (run, kind, pct, log, fold) in placed {
        let window = logs[log as usize].window_ms.unwrap_or(0);
        let run = &mut runs[run];
        run.window_ms = run.window_ms.max(window);
        run.logs.entry((kind, pct)).or_default().push(fold);
    }
    runs.retain(|r| !r.logs.is_empty());
    runs
}
