//! fio's logs joined to the runs they measured: a log names its result
//! file and job ([`crate::timeseries::LogInfo`]), a result row names the
//! same file and job and says which workload the job ran, so each log row
//! lands in the run (result file + workload) of its direction.
//!
//! Logs with no result (labelled by their folder only) belong to no
//! workload and are left out here; `ingest --series` still has them.

use std::collections::{BTreeMap, HashMap};

use super::workload::Shape;
use crate::model::{Direction, Row};
use crate::timeseries::{Kind, Series, SeriesRow};

/// A histogram percentile as an orderable key (percentiles are finite).
pub type PctKey = Option<u64>;

/// The logs of one run: one result file's jobs of one workload.
#[derive(Debug, Clone)]
pub struct RunLogs<'a> {
    /// The result file (the rows' `source`).
    pub source: String,
    /// The rows' config label.
    pub label: String,
    pub shape: Shape,
    pub iodepth: u32,
    pub numjobs: u32,
    /// Block size of the rows, for bandwidth from IOPS.
    pub bs_bytes: u64,
    /// Per kind (and percentile for histogram rows): one list of rows per
    /// log (one per job clone), each in time order.
    pub logs: BTreeMap<(Kind, PctKey), Vec<Vec<&'a SeriesRow>>>,
    /// The longest averaging window of these logs, ms (0 when per-I/O).
    pub window_ms: u64,
}

impl RunLogs<'_> {
    /// The rows of `kind` (no percentile), one list per log.
    pub fn of(&self, kind: Kind) -> Option<&Vec<Vec<&SeriesRow>>> {
        self.logs.get(&(kind, None)).filter(|l| !l.is_empty())
    }

    /// Time of the last row, ms: the run's length as logged.
    pub fn span_ms(&self) -> u64 {
        let last = self.logs.values().flatten().filter_map(|l| l.last());
        last.map(|r| r.t_ms).max().unwrap_or(0)
    }
}

fn dir_index(d: Direction) -> usize {
    Direction::ALL.iter().position(|x| *x == d).unwrap_or(0)
}

/// Each log row put in its run; runs in the order of `rows`.
pub fn join<'a>(series: &'a Series, rows: &[Row]) -> Vec<RunLogs<'a>> {
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
                    label: r.label.clone(),
                    shape,
                    iodepth: r.iodepth,
                    numjobs: r.numjobs,
                    bs_bytes: r.bs_bytes,
                    logs: BTreeMap::new(),
                    window_ms: 0,
                });
                runs.len() - 1
            });
        by_job.insert((&r.source, &r.job, r.direction), at);
    }
    // Which run each log's rows go to, per direction: looked up once per
    // log, not per row (per-I/O logs have millions of rows).
    let targets: Vec<[Option<usize>; 3]> = series
        .logs
        .iter()
        .map(|info| {
            Direction::ALL.map(|d| {
                let result = info.result.as_deref()?;
                by_job.get(&(result, info.job.as_str(), d)).copied()
            })
        })
        .collect();
    let mut slots: HashMap<(usize, Kind, PctKey, u32), Vec<&SeriesRow>> = HashMap::new();
    for row in &series.rows {
        let Some(run) = targets[row.log as usize][dir_index(row.direction)] else {
            continue;
        };
        let kind = series.logs[row.log as usize].kind;
        let pct = row.percentile.map(f64::to_bits);
        slots
            .entry((run, kind, pct, row.log))
            .or_default()
            .push(row);
    }
    let mut keys: Vec<_> = slots.keys().copied().collect();
    keys.sort_unstable_by_key(|k| (k.0, k.1, k.2, k.3));
    for key in keys {
        let mut rows = slots.remove(&key).unwrap_or_default();
        rows.sort_by_key(|r| r.t_ms);
        let window = series.logs[key.3 as usize].window_ms.unwrap_or(0);
        let run = &mut runs[key.0];
        run.window_ms = run.window_ms.max(window);
        run.logs.entry((key.1, key.2)).or_default().push(rows);
    }
    runs.retain(|r| !r.logs.is_empty());
    runs
}
