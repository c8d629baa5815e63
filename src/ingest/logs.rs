//! The series side of ingest: every fio log found under the given paths,
//! tied to the result file and job that wrote it ([`link`]), read into the
//! time-series dataset ([`crate::timeseries`]).
//!
//! A log whose result is missing is still read, labelled by its folder; a
//! log that cannot be read at all (a compressed `.fz`, no layout fits) is a
//! warning, never a skipped result: logs are not results.

mod link;

use std::path::PathBuf;

use rayon::prelude::*;

use super::fio_log::{self, LogContext, LogName, LogStats};
use super::{IngestOptions, Ingested};
use crate::model::Warning;
use crate::timeseries::fold::{Folds, LogFolder};
use crate::timeseries::{LogInfo, Logs, SeriesBatch, SeriesRow};

/// The logs of an ingest, described and ready to read.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// One per log, in path order; rows index into this. DiskSpd's
    /// intervals come after the logs, one per thread and target.
    pub logs: Vec<LogInfo>,
    contexts: Vec<LogContext>,
    paths: Vec<PathBuf>,
    /// DiskSpd's `-D` intervals, read with the results (for `logs` from
    /// `paths.len()` on).
    diskspd: Vec<Vec<SeriesRow>>,
    warnings: Vec<Warning>,
}

/// What streaming the logs gave, besides the rows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Streamed {
    /// Logs read (possibly with malformed lines skipped).
    pub logs_read: usize,
    pub rows: u64,
    pub warnings: Vec<Warning>,
}

/// Ingests `paths` and reads every log found there into memory.
pub fn read(paths: &[PathBuf], opts: &IngestOptions) -> anyhow::Result<Logs> {
    Ok(read_logs(&super::ingest(paths, opts)?))
}

/// Whether `ingested` has anything over time: fio's logs, or DiskSpd XML
/// results with `-D` intervals.
pub fn any(ingested: &Ingested) -> bool {
    !ingested.logs.is_empty()
        || ingested
            .rows
            .iter()
            .any(|r| r.format == "diskspd-xml" && r.iops_samples.is_some())
}

/// Ties each log of `ingested` to its result and job.
pub fn plan(ingested: &Ingested) -> Plan {
    let mut plan = Plan::default();
    let mut jobs_by_dir: Vec<(PathBuf, Vec<link::RunJob>)> = Vec::new();
    for found in &ingested.logs {
        let file_name = found.path.file_name().unwrap_or_default().to_string_lossy();
        let Some(name) = LogName::parse(&file_name) else {
            continue;
        };
        let dir = link::folder(&found.path);
        let at = match jobs_by_dir.iter().position(|(d, _)| *d == dir) {
            Some(i) => i,
            None => {
                jobs_by_dir.push((dir.clone(), link::jobs_in(&dir, ingested)));
                jobs_by_dir.len() - 1
            }
        };
        let owner = link::owner(&name, &jobs_by_dir[at].1);
        let index = u32::try_from(plan.logs.len()).unwrap_or(u32::MAX);
        let (info, ctx) = link::describe(found, &name, index, owner, ingested);
        plan.logs.push(info);
        plan.contexts.push(ctx);
        plan.paths.push(found.path.clone());
    }
    let (traces, warnings) = super::diskspd::intervals::traces(ingested);
    for (info, mut rows) in traces {
        let index = u32::try_from(plan.logs.len()).unwrap_or(u32::MAX);
        rows.iter_mut().for_each(|r| r.log = index);
        plan.logs.push(info);
        plan.diskspd.push(rows);
    }
    plan.warnings = warnings;
    plan
}

impl Plan {
    /// Bytes of all the logs, as far as their sizes can be read.
    pub fn bytes(&self) -> u64 {
        self.paths
            .iter()
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|m| m.len())
            .sum()
    }
}

/// Reads every log of `ingested` into memory, files in parallel.
pub fn read_logs(ingested: &Ingested) -> Logs {
    read_plan(plan(ingested), &|_| {})
}

/// Reads every log of `plan` into memory, files in parallel, calling
/// `progress` with the bytes of each block read (from several threads).
pub fn read_plan(plan: Plan, progress: &(dyn Fn(u64) + Sync)) -> Logs {
    let parts: Vec<(Vec<SeriesRow>, Result<LogStats, fio_log::LogError>)> = (0..plan.paths.len())
        .into_par_iter()
        .map(|i| {
            let mut rows = Vec::new();
            let stats = fio_log::read_file(&plan.paths[i], &plan.contexts[i], &mut |batch, b| {
                progress(b);
                rows.extend(batch.rows());
                Ok(())
            });
            (rows, stats)
        })
        .collect();
    let mut series = Logs::default();
    for (i, (rows, stats)) in parts.into_iter().enumerate() {
        note(&plan.logs[i], stats, &mut series.warnings);
        series.rows.extend(rows);
    }
    series.rows.extend(plan.diskspd.into_iter().flatten());
    series.warnings.extend(plan.warnings);
    series.logs = plan.logs;
    series
}

/// Reads every log of `plan` once, files in parallel, folding each into
/// its traces' cells as it goes ([`crate::timeseries::fold`]): memory
/// stays at a block per thread plus the cells, whatever the logs' length.
/// `progress` gets the bytes of each block read (from several threads).
pub fn fold_plan(plan: Plan, progress: &(dyn Fn(u64) + Sync)) -> Folds {
    let parts: Vec<_> = (0..plan.paths.len())
        .into_par_iter()
        .map(|i| {
            let mut folder = LogFolder::new(plan.logs[i].kind);
            let stats = fio_log::read_file(&plan.paths[i], &plan.contexts[i], &mut |batch, b| {
                progress(b);
                folder.add_batch(batch);
                Ok(())
            });
            (folder.finish(), stats)
        })
        .collect();
    let mut folds = Folds::default();
    for (i, (traces, stats)) in parts.into_iter().enumerate() {
        note(&plan.logs[i], stats, &mut folds.warnings);
        folds.traces.extend(traces);
    }
    // DiskSpd's -D intervals were read with the results: a few rows per
    // thread and target, folded like a log's (their LogInfo follows the
    // logs', one per trace).
    for (k, rows) in plan.diskspd.iter().enumerate() {
        let Some(info) = plan.logs.get(plan.paths.len() + k) else {
            continue;
        };
        let mut folder = LogFolder::new(info.kind);
        folder.add(rows);
        folds.traces.extend(folder.finish());
    }
    folds.warnings.extend(plan.warnings);
    folds.logs = plan.logs;
    folds
}

/// Where streamed rows go: rows with the logs they index into, and the
/// bytes of log they were read from.
pub type Sink<'a> = dyn FnMut(&[LogInfo], &SeriesBatch, u64) -> anyhow::Result<()> + 'a;

/// Reads the logs of `plan` one after another, handing rows to `sink` a
/// block at a time: memory stays at one block whatever the logs' size.
pub fn stream_logs(plan: &Plan, sink: &mut Sink<'_>) -> anyhow::Result<Streamed> {
    let mut out = Streamed::default();
    for (i, path) in plan.paths.iter().enumerate() {
        let result = fio_log::read_file(path, &plan.contexts[i], &mut |batch, bytes| {
            sink(&plan.logs, batch, bytes)
        });
        if let Err(fio_log::LogError::Sink(e)) = result {
            return Err(e);
        }
        if let Ok(stats) = &result {
            out.rows += stats.rows;
        }
        if note(&plan.logs[i], result, &mut out.warnings) {
            out.logs_read += 1;
        }
    }
    for rows in &plan.diskspd {
        sink(&plan.logs, &SeriesBatch::from_rows(rows), 0)?;
        out.rows += rows.len() as u64;
        out.logs_read += 1;
    }
    out.warnings.extend(plan.warnings.iter().cloned());
    Ok(out)
}

/// Turns a log's outcome into warnings; true when the log was read.
fn note(
    info: &LogInfo,
    result: Result<LogStats, fio_log::LogError>,
    warnings: &mut Vec<Warning>,
) -> bool {
    let warn = |message: String| Warning {
        source: info.source.clone(),
        message,
    };
    match result {
        // An empty log (fio killed before its first sample, a file
        // truncated by a copy) is named, not counted as read. fio leaves
        // the slat log of `write_lat_log` empty for synchronous engines,
        // which have no submission latency: that one is as expected.
        Ok(stats) if stats.rows == 0 && info.kind != crate::timeseries::Kind::Slat => {
            warnings.extend(stats.warnings.into_iter().map(warn));
            warnings.push(warn("log not read: no samples (empty log)".into()));
            false
        }
        Ok(stats) => {
            warnings.extend(stats.warnings.into_iter().map(warn));
            true
        }
        Err(e) => {
            warnings.push(warn(format!("log not read: {e}")));
            false
        }
    }
}

#[cfg(test)]
mod tests;
