//! `nvcmp ingest`: arguments and their validation into core options, the
//! format and destination of each output (written by
//! [`crate::publish::ingested`]), and the skip/warning lines on stderr
//! that `analyze` and `check` print the same way.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use super::{CliError, Global, exit};
use crate::dataset::FileFormat;
use crate::export::ExportFormat;
use crate::ingest::logs::{self, Streamed};
use crate::ingest::{self, IngestOptions, Ingested, Progress};
use crate::publish::ingested::{self as publish, Output};

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  nvcmp ingest results/ -o dataset.parquet    one row per job and direction
  nvcmp ingest results/ | jq .iops            ndjson on stdout
  nvcmp ingest a.json b.txt --format csv      any files, csv on stdout
  nvcmp ingest results/ --format bmf          Bencher Metric Format (bencher run --adapter json)
  nvcmp ingest results/ --format gab          github-action-benchmark, tool: customBiggerIsBetter
  nvcmp ingest results/ --format gab-smaller  github-action-benchmark, tool: customSmallerIsBetter
  nvcmp ingest results/ --series series.parquet
                                             fio's bw/iops/lat/hist logs (and DiskSpd's -D
                                             intervals from -Rxml) over time
  nvcmp ingest results/ -o d.parquet --series s.csv
                                             both datasets")]
pub struct IngestArgs {
    /// Result files or folders (walked recursively): fio's output, DiskSpd's text or XML.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Write the dataset here; the format follows the extension (.parquet, .csv, .json,
    /// .ndjson) unless --format names one: an explicit --format wins over the extension.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Dataset format (wins over -o's extension; default: by the extension of -o, else
    /// ndjson), or a CI dashboard's:
    /// bmf (Bencher), gab / gab-smaller (github-action-benchmark's custom JSON, one file per
    /// direction of "better").
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<DatasetFormatArg>,
    #[command(flatten)]
    pub read: super::reading::ReadArgs,
    /// Write fio's log files (write_bw_log, write_iops_log, write_lat_log,
    /// write_hist_log) found under the PATHs as a long time-series dataset:
    /// one row per logged value (per percentile for histogram logs), in
    /// bytes/s, IO/s and ns. Format by extension: .parquet, .csv, .ndjson.
    /// Alone, it writes only the series; add -o or --format for the results too.
    /// Compressed logs (log_store_compressed=1, .log.fz) are read as fio
    /// inflates them; a row whose time is far past the run's end is left out
    /// with a warning naming its line.
    #[arg(long, value_name = "FILE")]
    pub series: Option<PathBuf>,
    /// CSV: write text cells as the data has them, for programs. By default a cell a spreadsheet would run as a formula (starting with = + - @, a tab or CR, and no number) gets a leading ', which nvcmp's own CSV reader takes off.
    #[arg(long)]
    pub csv_raw: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DatasetFormatArg {
    Ndjson,
    Csv,
    Json,
    Parquet,
    Bmf,
    Gab,
    GabSmaller,
}

impl DatasetFormatArg {
    /// The dataset file format, or the dashboard export it stands for.
    fn dataset(self) -> Result<FileFormat, ExportFormat> {
        match self {
            DatasetFormatArg::Ndjson => Ok(FileFormat::Ndjson),
            DatasetFormatArg::Csv => Ok(FileFormat::Csv),
            DatasetFormatArg::Json => Ok(FileFormat::Json),
            DatasetFormatArg::Parquet => Ok(FileFormat::Parquet),
            DatasetFormatArg::Bmf => Err(ExportFormat::Bmf),
            DatasetFormatArg::Gab => Err(ExportFormat::Gab),
            DatasetFormatArg::GabSmaller => Err(ExportFormat::GabSmaller),
        }
    }
}

pub fn run(args: IngestArgs, global: Global) -> anyhow::Result<u8> {
    if args.paths.is_empty() {
        return Err(CliError::usage(
            "no input: give result files or folders, e.g. `nvcmp ingest results/`",
        )
        .into());
    }
    let format = match args.format.map(DatasetFormatArg::dataset) {
        Some(Err(_)) if args.series.is_some() => {
            return Err(CliError::usage(
                "--series writes a dataset file; it does not go with --format bmf/gab/gab-smaller",
            )
            .into());
        }
        Some(Err(export)) => return run_export(&args, export, global),
        Some(Ok(f)) => f,
        None => dataset_format(args.output.as_deref())?,
    };
    check_series_path(args.series.as_deref())?;
    // `--series` alone is asked for the series only: no result rows on stdout.
    let write_rows = args.series.is_none() || args.output.is_some() || args.format.is_some();
    if write_rows && args.output.is_none() && format.is_binary() && std::io::stdout().is_terminal()
    {
        return Err(CliError::usage(
            "refusing to write parquet to a terminal; use -o FILE or redirect stdout",
        )
        .into());
    }
    let opts = ingest_options(&args);
    // Left to the process's exit, not freed row by row: a few percent of
    // reading 10,000 files went to dropping what was just written.
    let ingested = std::mem::ManuallyDrop::new(ingest_paths(&args.paths, &opts, global)?);
    report_problems(&ingested, global);

    let streamed = match &args.series {
        Some(path) => Some(write_series(&ingested, path, global)?),
        None => None,
    };
    let series_rows = streamed.as_ref().map_or(0, |s| s.rows);
    if ingested.rows.is_empty() && series_rows == 0 {
        let what = if args.series.is_some() {
            "fio or DiskSpd results or fio logs"
        } else {
            "fio or DiskSpd results"
        };
        let found = match super::skips::found(&ingested.skipped) {
            f if f.is_empty() => String::new(),
            f => format!("; {f}"),
        };
        return Err(CliError::usage(format!(
            "nothing to write: no {what} found in {}{found}",
            join_paths(&args.paths)
        ))
        .into());
    }
    if write_rows && !ingested.rows.is_empty() {
        let mut phases = crate::ingest::Phases::from_env();
        let cells = super::analyze::csv_cells(args.csv_raw);
        write_dataset(&ingested, args.output.as_deref(), format, cells)?;
        phases.done("write");
    }
    if !global.quiet {
        eprintln!("{}", summary_with(&ingested, streamed.as_ref()));
    }
    if args.read.strict && !ingested.skipped.is_empty() {
        eprintln!(
            "nvcmp: --strict: {} skipped",
            crate::numbers::count(ingested.skipped.len(), "file")
        );
        return Ok(exit::USAGE);
    }
    Ok(exit::OK)
}

/// The dataset format from -o's extension (ndjson on stdout without -o).
fn dataset_format(output: Option<&Path>) -> Result<FileFormat, CliError> {
    match output {
        Some(path) => FileFormat::from_path(path).ok_or_else(|| {
            CliError::usage(format!(
                "{}: unknown extension; use .parquet, .csv, .json or .ndjson, or --format",
                path.display()
            ))
        }),
        None => Ok(FileFormat::Ndjson),
    }
}

fn check_series_path(path: Option<&Path>) -> Result<(), CliError> {
    match path.map(|p| (p, FileFormat::from_path(p))) {
        Some((p, None | Some(FileFormat::Json))) => Err(CliError::usage(format!(
            "--series {}: unknown extension; use .parquet, .csv or .ndjson",
            p.display()
        ))),
        _ => Ok(()),
    }
}

/// The dataset in `format`, to -o FILE, else to stdout.
fn write_dataset(
    ingested: &Ingested,
    output: Option<&Path>,
    format: FileFormat,
    cells: crate::dataset::CsvCells,
) -> anyhow::Result<()> {
    match output {
        Some(path) => publish::dataset(&ingested.rows, format, cells, Output::File(path)),
        None => {
            let mut w = std::io::BufWriter::new(std::io::stdout().lock());
            publish::dataset(&ingested.rows, format, cells, Output::Stream(&mut w))
        }
    }
}

/// The series file, under a progress bar; prints the logs' warnings.
fn write_series(ingested: &Ingested, path: &Path, global: Global) -> anyhow::Result<Streamed> {
    let plan = logs::plan(ingested);
    let bar = series_bar(&plan, global);
    let streamed = publish::series(&plan, path, &mut |bytes| bar.inc(bytes));
    bar.finish_and_clear();
    let streamed = streamed?;
    if !global.quiet {
        let stderr = std::io::stderr();
        let mut err = stderr.lock();
        for w in &streamed.warnings {
            let _ = writeln!(err, "nvcmp: {w}");
        }
    }
    Ok(streamed)
}

/// What `ingest` reads: the dataset and the exports hold no histogram, so
/// json+ bins are left unread.
fn ingest_options(args: &IngestArgs) -> IngestOptions {
    args.read.ingest_options(true)
}

/// `--format bmf|gab|gab-smaller`: the measurements as a CI dashboard
/// reads them, to -o FILE or stdout.
fn run_export(args: &IngestArgs, export: ExportFormat, global: Global) -> anyhow::Result<u8> {
    let opts = ingest_options(args);
    // Left to the process's exit, not freed row by row: a few percent of
    // reading 10,000 files went to dropping what was just written.
    let ingested = std::mem::ManuallyDrop::new(ingest_paths(&args.paths, &opts, global)?);
    report_problems(&ingested, global);
    if ingested.rows.is_empty() {
        return Err(CliError::usage(format!(
            "nothing to write: no fio or DiskSpd results found in {}",
            join_paths(&args.paths)
        ))
        .into());
    }
    match &args.output {
        Some(path) => publish::export(&ingested.rows, export, Output::File(path))?,
        None => publish::export(
            &ingested.rows,
            export,
            Output::Stream(&mut std::io::stdout().lock()),
        )?,
    }
    if args.read.strict && !ingested.skipped.is_empty() {
        return Ok(exit::USAGE);
    }
    Ok(exit::OK)
}

/// Runs the ingest with a progress bar when it is worth one (many files,
/// stderr a terminal, not --quiet).
pub fn ingest_paths(
    paths: &[PathBuf],
    opts: &IngestOptions,
    global: Global,
) -> anyhow::Result<Ingested> {
    ingest::ingest_with_progress(paths, opts, &Bar::new(global))
}

/// `ingested N files, R rows, S skipped`.
pub fn summary(ingested: &Ingested) -> String {
    summary_with(ingested, None)
}

/// [`summary`], then what became of fio's logs: `; L logs, N series rows`
/// when they were read, a hint when they were found but not asked for.
pub fn summary_with(ingested: &Ingested, streamed: Option<&Streamed>) -> String {
    use crate::numbers::count;
    let mut line = format!(
        "ingested {}, {}, {} skipped",
        count(ingested.files_read, "file"),
        count(ingested.rows.len(), "row"),
        crate::numbers::whole(ingested.skipped.len() as u64)
    );
    match streamed {
        Some(s) => {
            line += &format!(
                "; {}, {}",
                count(s.logs_read, "log"),
                count(usize::try_from(s.rows).unwrap_or(usize::MAX), "series row")
            )
        }
        None if !ingested.logs.is_empty() => {
            line += &format!(
                "; {} fio logs not read (--series FILE reads them)",
                crate::numbers::whole(ingested.logs.len() as u64)
            );
        }
        None => {}
    }
    line
}

/// Prints the skipped files, one line per kind ([`super::skips`]; one
/// per file with `--verbose`), and each warning on stderr, one line
/// each: `nvcmp: skipped PATH: reason`, `nvcmp: warning: PATH: msg`.
/// Skips are printed even with --quiet (they are errors about the
/// input); warnings are not.
pub fn report_problems(ingested: &Ingested, global: Global) {
    super::skips::print(&ingested.skipped, "nvcmp: ", super::verbose());
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    if !global.quiet {
        for w in &ingested.warnings {
            let _ = writeln!(err, "nvcmp: {w}");
        }
    }
}

fn join_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Logs smaller than this are read in about a second: no bar.
const BAR_MIN_LOG_BYTES: u64 = 32 << 20;

/// A bar over the logs' bytes for `--series` (per-I/O logs run to GBs).
pub(super) fn series_bar(plan: &logs::Plan, global: Global) -> indicatif::ProgressBar {
    // No bar wanted (not a terminal, --quiet): the logs are not even sized.
    if !global.progress {
        return indicatif::ProgressBar::hidden();
    }
    let total = plan.bytes();
    if total < BAR_MIN_LOG_BYTES {
        return indicatif::ProgressBar::hidden();
    }
    super::progress::bar(
        total,
        "{bar:30} {bytes}/{total_bytes} logs {bytes_per_sec} {eta}",
    )
}

/// Below this many files a bar only flickers.
pub(super) const BAR_MIN_FILES: usize = 200;

/// A file at least this large takes a second or more to parse (fio's
/// normal text at 70-80 MB/s): a spinner names it (and its size in MiB)
/// while it is read.
const LARGE_FILE_BYTES: usize = 64 << 20;

/// A bar over the result files read, for `ingest` and `analyze`: shown
/// when stderr is a terminal, not `--quiet`, and the files are many; a
/// spinner with the file's name and size while a large file is parsed
/// where there are too few files for a bar.
pub(super) struct Bar {
    shown: bool,
    bar: std::sync::OnceLock<indicatif::ProgressBar>,
    large: std::sync::OnceLock<indicatif::ProgressBar>,
}

impl Bar {
    pub(super) fn new(global: Global) -> Bar {
        Bar {
            shown: global.progress,
            bar: std::sync::OnceLock::new(),
            large: std::sync::OnceLock::new(),
        }
    }
}

impl Progress for Bar {
    fn start(&self, files: usize) {
        // No bar: nothing set, so each file costs no more than a look.
        if self.shown && files >= BAR_MIN_FILES {
            let bar = super::progress::bar(files as u64, "{bar:40} {count} files {rate} {left}");
            let _ = self.bar.set(bar);
        }
    }

    fn inc(&self) {
        if let Some(b) = self.bar.get() {
            b.inc(1);
        }
    }

    fn reading(&self, source: &str, bytes: usize) {
        if !self.shown || bytes < LARGE_FILE_BYTES || self.bar.get().is_some() {
            return;
        }
        let spinner = self
            .large
            .get_or_init(|| super::progress::spinner("{spinner} reading {msg} {elapsed}"));
        let name = std::path::Path::new(source)
            .file_name()
            .map_or(source.into(), |n| n.to_string_lossy());
        spinner.set_message(format!("{name} ({} MiB)", bytes >> 20));
    }

    fn finish(&self) {
        for b in [self.bar.get(), self.large.get()].into_iter().flatten() {
            b.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Bar, LARGE_FILE_BYTES};
    use crate::ingest::Progress;

    fn bar(shown: bool) -> Bar {
        Bar {
            shown,
            bar: std::sync::OnceLock::new(),
            large: std::sync::OnceLock::new(),
        }
    }

    #[test]
    fn a_large_file_alone_gets_a_spinner_with_its_name() {
        let b = bar(true);
        b.start(1);
        b.reading("runs/small.json", 4096);
        assert!(b.large.get().is_none());
        // 300,000,000 bytes: 300 MB, 286.1 MiB; said in MiB, whole ones.
        b.reading("runs/captured.log", 300_000_000);
        let s = b.large.get().expect("a spinner");
        assert_eq!(s.message(), "captured.log (286 MiB)");
        b.finish();
        assert!(s.is_finished());
        // --quiet, or a file bar already counting: no spinner.
        let quiet = bar(false);
        quiet.reading("x.log", LARGE_FILE_BYTES);
        assert!(quiet.large.get().is_none());
        let many = bar(true);
        many.start(super::BAR_MIN_FILES);
        many.reading("x.log", LARGE_FILE_BYTES);
        assert!(many.large.get().is_none());
    }
}
