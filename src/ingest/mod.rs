//! Ingest: every fio output format (and DiskSpd's, [`diskspd`]) under the
//! given paths becomes rows of [`crate::model::Row`]. Nothing downstream
//! sees fio's or DiskSpd's schema.
//!
//! Pipeline per file: read bytes -> [`decode`] (BOM, UTF-16, CRLF) ->
//! split into JSON documents and text segments -> one [`Reader`] per
//! segment kind -> label, manifest overrides and sidecars -> rows.
//! Files are processed in parallel; a file that fails is listed in
//! [`Ingested::skipped`] with a one-line reason and never stops the others.
//! fio's log files are found by the same walk but are series inputs, read
//! by [`logs`] into the time-series dataset.

pub mod archive;
pub mod compressed;
pub mod configs;
pub mod decode;
pub mod diskspd;
pub mod fio;
pub(crate) mod identity;
pub mod instances;
pub mod logs;
pub mod manifest;
mod pipeline;
pub mod sniff;

use std::path::PathBuf;

use crate::model::{Row, Skipped, Warning};

// fio's readers by their old paths (`ingest::fio_json`, ...).
pub use configs::{ConfigNaming, ConfigRule};
pub use fio::{depth, fio_error, fio_json, fio_log, idle_prof, normal, steady, terse};
pub use identity::Repeats;
pub use instances::Instances;
pub use pipeline::{Phases, Progress, ingest, ingest_with_progress};

/// What a reader returns for one segment of a file.
#[derive(Debug, Default, Clone)]
pub struct Parsed {
    /// Rows with the fields the file itself defines; `source` and `label`
    /// are filled in by the pipeline.
    pub rows: Vec<Row>,
    /// One-line warnings (a row dropped for a NaN, a job with error != 0).
    pub warnings: Vec<String>,
    /// The run the segment reports, when the format can report one run
    /// several times: successive segments with the same key are fio's
    /// `--status-interval` snapshots, which are cumulative, so the pipeline
    /// keeps only the last. `None`: every segment counts.
    pub run: Option<RunKey>,
}

/// The jobs a JSON document reports, sorted: what makes two documents
/// snapshots of one run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunKey(pub Vec<JobKey>);

/// One job of a [`RunKey`].
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct JobKey {
    pub name: String,
    pub group: i64,
    /// Client/server output: the server the job ran on.
    pub host: Option<String>,
    pub port: Option<i64>,
}

/// Why a segment could not be read. One line, no file name (the pipeline
/// adds it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error("not fio output: {0}")]
    NotFio(String),
    #[error("malformed {format} output: {reason}")]
    Malformed {
        format: &'static str,
        reason: String,
    },
    #[error("no job did any I/O")]
    NoRows,
    /// Every job reported an error and did no I/O: `err=121: Remote I/O
    /// error`, each job's once, `; `-separated.
    #[error("fio output: every job failed ({0})")]
    EveryJobFailed(String),
    /// fio's report without any job in it (the job failed before it
    /// started), with fio's first error line when it printed one.
    #[error("fio output with no job report{}", .0.as_ref().map(|e| format!(" ({e})")).unwrap_or_default())]
    NoJobReport(Option<String>),
    /// Nothing but fio's error lines: the first one.
    #[error("fio error output only: {0}")]
    ErrorOnly(String),
}

impl ReadError {
    /// Whether the error says what the run was (a failed run), rather than
    /// what is wrong with the text: then it is the file's whole reason.
    pub fn is_about_the_run(&self) -> bool {
        matches!(
            self,
            ReadError::EveryJobFailed(_) | ReadError::NoJobReport(_) | ReadError::ErrorOnly(_)
        )
    }
}

/// One input format. Implementations live one per file in this module.
pub trait Reader: Sync {
    /// The value of the `format` column for rows this reader makes, when it
    /// is fixed (`normal`, `terse`); JSON decides per document (`json`/`json+`).
    fn name(&self) -> &'static str;
    /// Cheap check whether `text` looks like this reader's format.
    fn sniff(&self, text: &str) -> bool;
    /// Reads one segment of a file. A segment that reports no I/O is not
    /// an error here (empty rows and warnings): the pipeline decides, as a
    /// later snapshot may replace it or other segments may have rows.
    fn read_segment(&self, text: &str) -> Result<Parsed, ReadError>;
    /// Reads the segment that starts `text` (which runs on to the end of
    /// the file) when the format's parser finds the segment's end itself,
    /// and returns it with its length in bytes: the pipeline then need not
    /// scan for the end first. `None`: not offered, or not readable this
    /// way; the pipeline cuts the segment and calls `read_segment`.
    fn read_leading(&self, _text: &str) -> Option<(Parsed, usize)> {
        None
    }
    /// Reads a segment standing alone: one that gives nothing at all is
    /// [`ReadError::NoRows`].
    fn read(&self, text: &str) -> Result<Parsed, ReadError> {
        let parsed = self.read_segment(text)?;
        if parsed.rows.is_empty() && parsed.warnings.is_empty() {
            return Err(ReadError::NoRows);
        }
        Ok(parsed)
    }
}

/// Options of one ingest, validated by the CLI layer.
#[derive(Debug, Clone, Default)]
pub struct IngestOptions {
    pub config_naming: ConfigNaming,
    /// Whether files that ran at the same time make one run (`--instances`).
    pub instances: Instances,
    /// Explicit manifest; otherwise `nvcmp.toml` in each PATH root is used.
    pub manifest: Option<PathBuf>,
    /// Leave json+ latency bins unread (`Row::clat_bins` stays None): the
    /// dataset does not hold them and only the CDF chart draws them.
    pub skip_bins: bool,
    /// The most bytes one compressed file, archive member or stream named
    /// as a PATH (a FIFO) may expand to (`--max-expanded`); None: 1 GiB.
    pub max_expanded: Option<u64>,
    /// What repeats (`--repeats`): words of the names and folder levels,
    /// with the manifest's `repeats`.
    pub repeats: Repeats,
}

impl IngestOptions {
    /// [`IngestOptions::max_expanded`] or its default.
    pub fn max_expanded(&self) -> u64 {
        self.max_expanded
            .unwrap_or(compressed::DEFAULT_MAX_EXPANDED)
    }
}

/// Result of ingesting some paths.
#[derive(Debug, Default, Clone)]
pub struct Ingested {
    pub rows: Vec<Row>,
    pub skipped: Vec<Skipped>,
    pub warnings: Vec<Warning>,
    /// Files that contributed rows.
    pub files_read: usize,
    /// Display order, baseline and other settings from the manifest.
    pub manifest: manifest::Manifest,
    /// fio logs found next to the results (bw/iops/lat/hist): not results,
    /// never skipped; [`logs`] reads them.
    pub logs: Vec<FoundLog>,
    /// How the rows' configs were told apart (`--label-by`).
    pub config_rule: ConfigRule,
}

/// A fio log file found under the given paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundLog {
    pub path: PathBuf,
    /// Default label: the folder, as for result files.
    pub dir_label: String,
}
