//! Which run wrote a log: the JSON result in the same folder whose job
//! the log's name points at (its job name, or the value of its
//! `write_*_log` option), and what that job's options and fio version say
//! about the log's columns and units.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::super::fio_json::{self, FioOutput, Loose};
use super::super::fio_log::{Hints, LogContext, LogName, layout::parse_version};
use super::super::{FoundLog, Ingested, decode};
use crate::timeseries::{Kind, LogInfo};

/// One job of a result file, as a log's owner.
#[derive(Debug, Clone, Default)]
pub(super) struct RunJob {
    /// Path of the result file (the `source` of its rows).
    pub result: String,
    pub name: String,
    pub host: Option<String>,
    /// Place among the document's jobs (fio's thread number - 1 without
    /// group_reporting).
    pub position: usize,
    /// Global options overlaid with the job's; empty when the result does
    /// not carry options (normal or terse output, fio 2.x JSON).
    pub options: HashMap<String, String>,
    pub version: String,
}

impl RunJob {
    fn option(&self, key: &str) -> Option<&str> {
        self.options.get(key).map(String::as_str)
    }

    fn flag(&self, key: &str) -> bool {
        self.option(key)
            .is_some_and(|v| matches!(v.to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on"))
    }

    fn msec(&self, key: &str) -> Option<u64> {
        self.option(key)
            .and_then(|v| v.trim().parse().ok())
            .filter(|&v| v > 0)
    }

    /// Whether the log name's prefix is this job's: the job name or the
    /// file name of the `write_*_log` option of the log's kind.
    fn owns(&self, log: &LogName) -> bool {
        let option = match log.kind {
            Kind::Bw => "write_bw_log",
            Kind::Iops => "write_iops_log",
            Kind::Lat | Kind::Clat | Kind::Slat => "write_lat_log",
            Kind::Hist => "write_hist_log",
        };
        let named = self.option(option).and_then(|v| Path::new(v).file_name());
        let host_ok = match (&log.host, &self.host) {
            (Some(l), Some(j)) => l == j,
            _ => true,
        };
        host_ok
            && (log.prefix == self.name || named.is_some_and(|n| n.to_string_lossy() == log.prefix))
    }

    /// What the job's version and options say about reading `log`.
    fn context(&self, index: u32, log: &LogName) -> (LogContext, Option<u64>) {
        let mut ctx = LogContext::new(index, log.kind);
        let version = parse_version(&self.version);
        ctx.fio_version = version;
        ctx.hints = Hints::from_version(&self.version);
        if version.is_some_and(|(major, _)| major < 3) {
            ctx.lat_unit_ns = 1000.0;
        }
        let window = if log.kind == Kind::Hist {
            self.msec("log_hist_msec")
        } else {
            self.msec("log_avg_msec")
        };
        if self.options.is_empty() {
            return (ctx, window);
        }
        // Options fio's JSON lists are those set; an absent one is fio's default.
        ctx.hints.offset = Some(self.flag("log_offset"));
        let window_value = self
            .option("log_window_value")
            .or(self.option("log_max_value"));
        let window_value = window_value.map(str::to_ascii_lowercase);
        if ctx.hints.max.is_none() {
            ctx.hints.max = Some(window_value.as_deref() == Some("both"));
        }
        if ctx.hints.issue.is_none() {
            ctx.hints.issue = Some(self.flag("log_issue_time"));
        }
        ctx.max_only = matches!(window_value.as_deref(), Some("1" | "max" | "true"));
        // Compressed logs are per-I/O whatever log_avg_msec says (iolog.h per_unit_log).
        ctx.averaged = Some(window.is_some() && !self.flag("log_store_compressed"));
        ctx.unix_epoch = Some(self.flag("log_unix_epoch") || self.flag("log_alternate_epoch"));
        (ctx, window)
    }
}

/// Jobs of the result files in `dir` (files whose rows were ingested).
pub(super) fn jobs_in(dir: &Path, ingested: &Ingested) -> Vec<RunJob> {
    let mut results: Vec<&str> = ingested
        .rows
        .iter()
        .map(|r| r.source.as_str())
        .filter(|s| Path::new(s).parent() == Some(dir))
        .collect();
    results.sort_unstable();
    results.dedup();
    results
        .into_iter()
        .flat_map(|r| jobs_of(r, ingested))
        .collect()
}

/// A result file's bytes, expanded when it is compressed (it was read
/// within the bound when its rows were ingested); empty when unreadable.
fn result_bytes(result: &str) -> Vec<u8> {
    use super::super::compressed;
    use std::io::Read;
    let bytes = std::fs::read(result).unwrap_or_default();
    let Some(codec) = compressed::Codec::of(&bytes) else {
        return bytes;
    };
    let mut out = Vec::new();
    let read = compressed::decoder(codec, &bytes[..]).and_then(|d| {
        d.take(compressed::DEFAULT_MAX_EXPANDED)
            .read_to_end(&mut out)
    });
    match read {
        Ok(_) => out,
        Err(_) => Vec::new(),
    }
}

/// A result's jobs from its JSON documents; from its rows when it has none.
fn jobs_of(result: &str, ingested: &Ingested) -> Vec<RunJob> {
    let bytes = result_bytes(result);
    let text = decode::decode(&bytes).unwrap_or_default();
    // The last document: status-interval snapshots repeat the same jobs.
    let last = decode::segments(&text)
        .iter()
        .filter(|s| s.kind == decode::SegmentKind::Json)
        .filter_map(|s| fio_json::parse(s.text).ok())
        .next_back();
    if let Some(doc) = last {
        return doc_jobs(result, &doc);
    }
    let mut seen = Vec::new();
    ingested
        .rows
        .iter()
        .filter(|r| r.source == result && !r.aggregate)
        .filter(|r| {
            let key = (r.job.clone(), r.host.clone());
            !seen.contains(&key) && {
                seen.push(key);
                true
            }
        })
        .enumerate()
        .map(|(position, r)| RunJob {
            result: result.to_string(),
            name: r.job.clone(),
            host: r.host.clone(),
            position,
            options: HashMap::new(),
            version: r.fio_version.clone(),
        })
        .collect()
}

fn doc_jobs(result: &str, doc: &FioOutput<'_>) -> Vec<RunJob> {
    let text = |v: &Loose<'_>| match v {
        Loose::Text(s) => Some(s.trim().to_string()),
        Loose::Number(n) => Some(n.to_string()),
        _ => None,
    };
    doc.all_jobs()
        .filter(|j| j.jobname.as_deref() != Some(fio_json::AGGREGATE_NAME))
        .enumerate()
        .map(|(position, j)| {
            let mut options: HashMap<String, String> = doc
                .global_options
                .for_server(j.hostname.as_deref(), j.port)
                .iter()
                .filter_map(|(k, v)| Some((k.to_string(), text(v)?)))
                .collect();
            options.extend(
                j.job_options
                    .iter()
                    .filter_map(|(k, v)| Some((k.to_string(), text(v)?))),
            );
            RunJob {
                result: result.to_string(),
                name: j.jobname.as_deref().unwrap_or_default().to_string(),
                host: j.hostname.as_deref().map(str::to_string),
                position,
                options,
                version: doc.fio_version.as_deref().unwrap_or_default().to_string(),
            }
        })
        .collect()
}

/// The job that wrote `log`: among those whose name it carries, the one at
/// its thread number, else the first.
pub(super) fn owner<'a>(log: &LogName, jobs: &'a [RunJob]) -> Option<&'a RunJob> {
    let owners: Vec<&RunJob> = jobs.iter().filter(|j| j.owns(log)).collect();
    let at_index = log
        .index
        .and_then(|n| owners.iter().find(|j| j.position + 1 == n as usize));
    at_index.or(owners.first()).copied()
}

/// A row's host (`hostname`, or `hostname:port` where servers share a
/// hostname) is the server a job's hostname names.
fn same_server(row: Option<&str>, job: Option<&str>) -> bool {
    match (row, job) {
        (Some(r), Some(j)) => r == j || r.strip_prefix(j).is_some_and(|p| p.starts_with(':')),
        (r, j) => r == j,
    }
}

/// A log's [`LogInfo`] and reading context.
pub(super) fn describe(
    found: &FoundLog,
    name: &LogName,
    index: u32,
    owner: Option<&RunJob>,
    ingested: &Ingested,
) -> (LogInfo, LogContext) {
    let rows_of = |j| job_rows(j, ingested);
    let label = owner
        .and_then(|j| rows_of(j).next().map(|r| r.config.clone()))
        .unwrap_or_else(|| folder_label(&found.dir_label, ingested));
    let (mut ctx, window_ms) = match owner {
        Some(j) => j.context(index, name),
        None => (LogContext::new(index, name.kind), None),
    };
    // The job's longest direction: its logs end with it.
    ctx.runtime_ms = owner
        .and_then(|j| rows_of(j).map(|r| r.runtime_ms).reduce(f64::max))
        .filter(|ms| ms.is_finite() && *ms >= 0.0)
        .map(|ms| ms.ceil() as u64);
    let info = LogInfo {
        source: crate::path_text::shown(&found.path),
        result: owner.map(|j| j.result.clone()),
        label,
        job: owner.map_or_else(|| name.prefix.clone(), |j| j.name.clone()),
        job_index: name.index,
        host: name.host.clone(),
        kind: name.kind,
        window_ms,
    };
    (info, ctx)
}

/// The result rows of job `j`.
fn job_rows<'a>(
    j: &'a RunJob,
    ingested: &'a Ingested,
) -> impl Iterator<Item = &'a crate::model::Row> {
    ingested.rows.iter().filter(move |r| {
        r.source == j.result
            && r.job == j.name
            && (j.host.is_none() || same_server(r.host.as_deref(), j.host.as_deref()))
    })
}

/// The folder's label with the manifest's display name applied, as result
/// rows get it.
fn folder_label(dir_label: &str, ingested: &Ingested) -> String {
    let m = &ingested.manifest;
    m.configs
        .get(dir_label)
        .and_then(|c| c.name.clone())
        .or_else(|| m.names.get(dir_label).cloned())
        .unwrap_or_else(|| dir_label.to_string())
}

/// The folder of a log, for grouping logs with their results.
pub(super) fn folder(path: &Path) -> PathBuf {
    path.parent().map(Path::to_path_buf).unwrap_or_default()
}
