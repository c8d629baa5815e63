//! What every command reads, read one way: `analyze`, `check` (both
//! sides, and `--history`'s candidate) and `history add` all call
//! [`read`]. Result files and folders go through [`crate::ingest`];
//! dataset files that `nvcmp ingest -o` wrote (parquet, ndjson, json, csv)
//! through [`crate::dataset::read`]; fio's logs next to the results are
//! folded once ([`crate::ingest::logs`]), joined once to the runs they
//! measured ([`crate::steady_state::run_logs::join`]) and judged once for steady
//! state ([`crate::steady_state::snia::judge`]).
//!
//! A dataset file is read as one only when it is named as a PATH: a folder
//! is walked for results, where ingest leaves nvcmp's own `.parquet` and
//! `.csv` outputs aside (and skips `.ndjson`/`.json` rows as not fio
//! output), so a folder holding both the results and the dataset ingest
//! wrote from them is not counted twice.

use std::path::{Path, PathBuf};

use crate::compare::SteadyVerdicts;
use crate::dataset::{self, FileFormat};
use crate::ingest::{self, IngestOptions, logs::Plan, manifest::Manifest};
use crate::model::{Row, Skipped, Warning};
use crate::steady_state::{RunLogs, run_logs, snia};

/// How to read the inputs.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    pub ingest: IngestOptions,
    /// Round length of the SNIA steady-state rule, ms (`--ss-round`);
    /// None: the rule's default for each run.
    pub ss_round_ms: Option<u64>,
}

/// Progress of reading fio's logs (the CLI shows a bar); all optional.
pub trait LogProgress: Sync {
    /// Called once, before the logs of `plan` are read.
    fn start(&self, _plan: &Plan) {}
    /// Called with the bytes of each block read (from several threads).
    fn read(&self, _bytes: u64) {}
    fn finish(&self) {}
    /// Progress of reading the result files, before the logs.
    fn files(&self) -> &dyn ingest::Progress {
        &()
    }
}

impl LogProgress for () {}

/// Everything read from the PATHs, with what could not be read.
#[derive(Debug, Default)]
pub struct Inputs {
    /// Rows of the dataset files first (in the order given), then the
    /// results' rows in ingest's order.
    pub rows: Vec<Row>,
    pub skipped: Vec<Skipped>,
    pub warnings: Vec<Warning>,
    /// Files that contributed rows (a dataset file counts once).
    pub files_read: usize,
    /// Display order, baseline and other settings from the manifest.
    pub manifest: Manifest,
    /// fio's logs (and DiskSpd's `-D` intervals) joined to their runs,
    /// folded: what the timeseries charts draw.
    pub runs: Vec<RunLogs>,
    /// Steady-state verdicts judged from `runs` by SNIA's rule.
    pub log_steady: SteadyVerdicts,
    /// Problems reading the logs (malformed lines, times that cannot be,
    /// logs not read): not results, so never skips.
    pub log_warnings: Vec<Warning>,
    /// How the results' configs were told apart (dataset files keep the
    /// labels they were ingested with).
    pub config_rule: crate::model::ConfigRule,
}

/// Reads every path: dataset files named as PATHs with the dataset
/// reader, everything else (result files, folders) with ingest, then the
/// logs found next to the results. Fails only on a bad manifest; a file
/// that cannot be read is in [`Inputs::skipped`] with a one-line reason.
pub fn read(
    paths: &[PathBuf],
    opts: &ReadOptions,
    progress: &dyn LogProgress,
) -> anyhow::Result<Inputs> {
    let mut out = Inputs::default();
    let (datasets, results): (Vec<&PathBuf>, Vec<&PathBuf>) =
        paths.iter().partition(|p| is_dataset(p));
    for p in &datasets {
        read_dataset(p, &mut out);
    }
    let dataset_files = dataset_sources(&out.rows);
    let results: Vec<PathBuf> = results.into_iter().cloned().collect();
    // Called even with no results: `--manifest` still names the configs.
    let ingested = ingest::ingest_with_progress(&results, &opts.ingest, progress.files())?;
    // Logs are joined to rows: without rows there is nothing to join.
    if !ingested.rows.is_empty() && ingest::logs::any(&ingested) {
        let plan = ingest::logs::plan(&ingested);
        progress.start(&plan);
        let mut folds = ingest::logs::fold_plan(plan, &|bytes| progress.read(bytes));
        progress.finish();
        out.log_warnings = std::mem::take(&mut folds.warnings);
        out.runs = run_logs::join(folds, &ingested.rows);
        out.log_steady = snia::judge(&out.runs, opts.ss_round_ms);
    }
    // Moved, not copied, when no dataset file came first: a copy of every
    // row beside the rows was a sixth of `analyze`'s peak at 100,000 files.
    if out.rows.is_empty() {
        out.rows = ingested.rows;
    } else {
        out.rows.extend(ingested.rows);
    }
    out.skipped.extend(ingested.skipped);
    out.warnings.extend(ingested.warnings);
    out.files_read += ingested.files_read;
    out.manifest = ingested.manifest;
    out.config_rule = ingested.config_rule;
    if dataset_files > 0 {
        // The study ingest worked out covers its results only: read again
        // over every row, a dataset file's files counted as the results
        // it was ingested from. Disagreements ingest warned of are not
        // warned twice.
        let files = dataset_files + ingested.files_read;
        let (study, warnings) = ingest::identity::study(&out.rows, &out.config_rule, files);
        out.config_rule.study = study;
        for w in warnings {
            if !out.warnings.contains(&w) {
                out.warnings.push(w);
            }
        }
    }
    Ok(out)
}

/// How many result files the rows read from dataset files came from.
fn dataset_sources(rows: &[crate::model::Row]) -> usize {
    rows.iter()
        .map(|r| r.source.as_str())
        .collect::<std::collections::HashSet<_>>()
        .len()
}

/// A dataset file's rows, or the file skipped with the reason.
fn read_dataset(path: &Path, out: &mut Inputs) {
    let skip = |reason: String| Skipped {
        source: crate::path_text::shown(path),
        reason,
    };
    match dataset::read(path) {
        Ok(file) if file.rows.is_empty() => out.skipped.push(skip("empty dataset".into())),
        Ok(file) => {
            out.files_read += 1;
            out.rows.extend(file.rows);
            if let Some(message) = file.columns.note() {
                out.warnings.push(Warning {
                    source: crate::path_text::shown(path),
                    message,
                });
            }
        }
        // The chain's first link names the file again; the rest is the cause.
        Err(e) => out.skipped.push(skip(
            e.chain()
                .skip(1)
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(": "),
        )),
    }
}

/// A file saved by `nvcmp ingest -o`: parquet or ndjson by name; a `.json`
/// file when it holds rows (an array) rather than fio's output (an object
/// with `jobs`); a `.csv` file whose first line is a header of names (fio's
/// terse output, which some name `.csv`, is `;`-separated and starts with
/// a version number; its normal output has `:` and `=`).
fn is_dataset(path: &Path) -> bool {
    if !path.is_file() {
        return false;
    }
    match FileFormat::from_path(path) {
        Some(FileFormat::Parquet | FileFormat::Ndjson) => true,
        Some(FileFormat::Json) => std::fs::read(path).is_ok_and(|b| {
            let text = String::from_utf8_lossy(&b);
            let text = text.trim_start_matches('\u{feff}').trim_start();
            if text.starts_with('[') {
                return true;
            }
            let first = text.lines().next().unwrap_or("");
            serde_json::from_str::<serde_json::Value>(first).is_ok_and(|v| {
                v.is_object() && v.get("jobs").is_none() && v.get("client_stats").is_none()
            })
        }),
        Some(FileFormat::Csv) => first_line(path).is_some_and(|l| {
            l.contains(',')
                && l.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b',' | b' ' | b'"'))
                && !l.starts_with(|c: char| c.is_ascii_digit())
        }),
        _ => false,
    }
}

/// The first line of a file, read no further.
fn first_line(path: &Path) -> Option<String> {
    use std::io::BufRead;
    let mut line = String::new();
    let file = std::fs::File::open(path).ok()?;
    std::io::BufReader::new(file).read_line(&mut line).ok()?;
    Some(line.trim_end().to_string())
}

#[cfg(test)]
mod tests;
