//! The time-series dataset: what fio's bw/iops/lat/histogram logs say over
//! time, as typed rows in SI base units, and its grouping into traces (one
//! line of a chart, one input of a steady-state judge).
//!
//! A row is small (it points at its log's [`LogInfo`] by index) because
//! per-I/O logs run to millions of lines. The readers are in
//! `ingest::fio_log`; the columns and files in [`columns`] and [`file`](mod@file).

pub mod batch;
pub mod bucket;
pub mod columns;
pub mod file;
pub mod fold;
pub mod parquet;

use std::collections::BTreeMap;

use serde::Serialize;

pub use batch::{Has, SeriesBatch};

use crate::model::{Direction, Warning};

/// What a log measures; the `kind` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Bandwidth, bytes/s.
    Bw,
    /// IOPS, IO/s (per-I/O logs: 1 per completed I/O).
    Iops,
    /// Total latency, ns.
    Lat,
    /// Completion latency, ns.
    Clat,
    /// Submission latency, ns.
    Slat,
    /// Completion-latency percentile from a histogram log, ns.
    Hist,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Bw,
        Kind::Iops,
        Kind::Lat,
        Kind::Clat,
        Kind::Slat,
        Kind::Hist,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Bw => "bw",
            Kind::Iops => "iops",
            Kind::Lat => "lat",
            Kind::Clat => "clat",
            Kind::Slat => "slat",
            Kind::Hist => "hist",
        }
    }

    /// The unit of `value` for this kind.
    pub fn unit(self) -> &'static str {
        match self {
            Kind::Bw => "bytes/s",
            Kind::Iops => "IO/s",
            Kind::Lat | Kind::Clat | Kind::Slat | Kind::Hist => "ns",
        }
    }
}

/// One log file and what it belongs to; shared by all its rows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogInfo {
    /// Path of the log as found under the given PATH.
    pub source: String,
    /// The result file of the run that wrote the log, when found next to it.
    pub result: Option<String>,
    /// The configuration (as for result rows).
    pub label: String,
    /// fio's job name (the log's name prefix when no result names the job).
    pub job: String,
    /// fio's thread number, the `.N` of `name_bw.N.log` (none with `per_job_logs=0`).
    pub job_index: Option<u32>,
    /// The server a client/server log came from (the `.host` suffix).
    pub host: Option<String>,
    pub kind: Kind,
    /// Averaging window (`log_avg_msec`, `log_hist_msec`) when known; none
    /// for per-I/O logs.
    pub window_ms: Option<u64>,
}

/// One logged value. Units are SI base units: see [`Kind`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeriesRow {
    /// Index into [`Logs::logs`].
    pub log: u32,
    pub direction: Direction,
    /// ms since the job started, as fio logs it; with `log_unix_epoch`,
    /// ms since the log's first row (the absolute time is in `unix_ms`).
    pub t_ms: u64,
    /// The window mean for averaged logs (the maximum with
    /// `log_max_value=1`), the I/O's own value for per-I/O logs, the
    /// percentile for histogram rows.
    pub value: f64,
    /// Window maximum (`log_window_value=both`, or `=max`/`log_max_value`).
    pub value_max: Option<f64>,
    /// 0 in averaged rows (fio writes 0 there).
    pub bs_bytes: u64,
    /// With `log_offset=1`.
    pub offset_bytes: Option<u64>,
    /// Histogram rows: which percentile `value` is (50, 99, 99.9).
    pub percentile: Option<f64>,
    /// Histogram rows: I/Os completed in the interval.
    pub samples: Option<u64>,
    /// fio's priority column: 0/1 (RT class or not), or the raw
    /// class+level value with `log_prio=1`.
    pub priority: Option<u32>,
    /// With `log_issue_time=1` (fio 3.38+), ns.
    pub issue_time_ns: Option<u64>,
    /// Absolute time with `log_unix_epoch=1`, ms since 1970.
    pub unix_ms: Option<u64>,
}

impl SeriesRow {
    /// A row with only the required fields set.
    pub fn new(log: u32, direction: Direction, t_ms: u64, value: f64) -> SeriesRow {
        SeriesRow {
            log,
            direction,
            t_ms,
            value,
            value_max: None,
            bs_bytes: 0,
            offset_bytes: None,
            percentile: None,
            samples: None,
            priority: None,
            issue_time_ns: None,
            unix_ms: None,
        }
    }
}

/// All logs read from some paths.
#[derive(Debug, Default, Clone)]
pub struct Logs {
    pub logs: Vec<LogInfo>,
    /// In file order, files in path order.
    pub rows: Vec<SeriesRow>,
    /// Malformed lines, compressed logs not read, a log that is not one.
    pub warnings: Vec<Warning>,
}

/// What one trace is: a line on a timeseries chart.
#[derive(Debug, Clone, PartialEq, PartialOrd)]
pub struct TraceKey<'a> {
    pub label: &'a str,
    pub job: &'a str,
    pub job_index: Option<u32>,
    pub host: Option<&'a str>,
    pub kind: Kind,
    pub direction: Direction,
    pub percentile: Option<f64>,
}

/// Rows of one trace, in time order.
#[derive(Debug, Clone)]
pub struct Trace<'a> {
    pub key: TraceKey<'a>,
    pub rows: Vec<&'a SeriesRow>,
}

impl Logs {
    /// The log a row came from.
    pub fn info(&self, row: &SeriesRow) -> &LogInfo {
        &self.logs[row.log as usize]
    }

    /// Rows grouped by (label, job, job_index, host, kind, direction,
    /// percentile), each group sorted by time (stable: fio's repeated final
    /// timestamp keeps its order). Groups come in key order.
    pub fn traces(&self) -> Vec<Trace<'_>> {
        let groups = self.group_by(|info, row| {
            (
                info.label.as_str(),
                info.job.as_str(),
                info.job_index,
                info.host.as_deref(),
                info.kind,
                row.direction,
                // Percentiles are finite; as bits they order like numbers.
                row.percentile.map(f64::to_bits),
            )
        });
        groups
            .into_iter()
            .map(
                |((label, job, job_index, host, kind, direction, p), rows)| Trace {
                    key: TraceKey {
                        label,
                        job,
                        job_index,
                        host,
                        kind,
                        direction,
                        percentile: p.map(f64::from_bits),
                    },
                    rows,
                },
            )
            .collect()
    }

    /// Rows grouped by any key (e.g. (label, kind, direction) to merge a
    /// job's clones), each group sorted by time.
    pub fn group_by<'a, K: Ord>(
        &'a self,
        key: impl Fn(&'a LogInfo, &'a SeriesRow) -> K,
    ) -> BTreeMap<K, Vec<&'a SeriesRow>> {
        let mut groups: BTreeMap<K, Vec<&SeriesRow>> = BTreeMap::new();
        for row in &self.rows {
            groups
                .entry(key(&self.logs[row.log as usize], row))
                .or_default()
                .push(row);
        }
        for rows in groups.values_mut() {
            rows.sort_by_key(|r| r.t_ms);
        }
        groups
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(job: &str, kind: Kind) -> LogInfo {
        LogInfo {
            source: format!("d/{job}_{}.1.log", kind.as_str()),
            result: None,
            label: "d".into(),
            job: job.into(),
            job_index: Some(1),
            host: None,
            kind,
            window_ms: None,
        }
    }

    #[test]
    fn traces_split_by_kind_direction_and_percentile_in_time_order() {
        let mut s = Logs {
            logs: vec![info("a", Kind::Bw), info("a", Kind::Hist)],
            ..Logs::default()
        };
        s.rows.push(SeriesRow::new(0, Direction::Read, 400, 2.0));
        s.rows.push(SeriesRow::new(0, Direction::Write, 200, 9.0));
        s.rows.push(SeriesRow::new(0, Direction::Read, 200, 1.0));
        for p in [99.0, 50.0] {
            let mut r = SeriesRow::new(1, Direction::Read, 500, p * 10.0);
            r.percentile = Some(p);
            s.rows.push(r);
        }
        let traces = s.traces();
        let keys: Vec<_> = traces
            .iter()
            .map(|t| (t.key.kind, t.key.direction, t.key.percentile, t.rows.len()))
            .collect();
        assert_eq!(
            keys,
            vec![
                (Kind::Bw, Direction::Read, None, 2),
                (Kind::Bw, Direction::Write, None, 1),
                (Kind::Hist, Direction::Read, Some(50.0), 1),
                (Kind::Hist, Direction::Read, Some(99.0), 1),
            ]
        );
        let times: Vec<u64> = traces[0].rows.iter().map(|r| r.t_ms).collect();
        assert_eq!(times, vec![200, 400]);
        assert_eq!(s.info(traces[2].rows[0]).kind, Kind::Hist);
    }
}
