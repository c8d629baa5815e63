//! `nvcmp history add|show|compact|verify`: arguments, their validation
//! into the history module's options, and the process side (stdout,
//! exit codes). Reports are written by `publish::history` in the format
//! render/ names; `check --history` is `cli/check.rs`'s.

use std::io::Write;
use std::path::PathBuf;

use super::{CliError, Global, exit};
use crate::check::threshold::metric_by_name;
use crate::compare::Metric;
use crate::history::{Store, changepoint, compact, gate, show, store, time, trend};
use crate::input;
use crate::render::history::ShowFormat;

#[derive(Debug, clap::Args)]
pub struct HistoryArgs {
    #[command(subcommand)]
    pub command: HistoryCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum HistoryCommand {
    /// Append one run (result files or a dataset) to a history.
    Add(AddArgs),
    /// Series over the runs and their change points; tables, JSON, charts.
    Show(ShowArgs),
    /// Check every part, set damaged ones aside in .quarantine/, then merge the
    /// parts (`add` merges as it goes; a history made before merging existed, or
    /// an interrupted merge, needs this once).
    Compact(CompactArgs),
    /// Check every part against the checksum recorded when it was written and
    /// decode every row; exit 1 when a part is damaged. Changes nothing.
    Verify(CompactArgs),
}

#[derive(Debug, clap::Args)]
pub struct CompactArgs {
    /// The history: a directory, or a URL (s3://BUCKET/PREFIX, gs://, az://, file://).
    #[arg(long, value_name = "DIR|URL", required = true)]
    pub history: String,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "\
The history is a directory of parquet parts (created when missing): each add writes one, and \
every 16 parts of a size merge into one, up to 4,096 runs a part. DuckDB, Spark or pandas read \
it as `history/*.parquet`. A run id already there exits 2 and changes \
nothing, unless --replace.

Examples:
  nvcmp history add results/ --history bench-history/ --run $CI_PIPELINE_ID --commit $GIT_SHA
  nvcmp history add dataset.parquet --history bench-history/ --run v1.2 --time 2026-12-01T08:30:00Z")]
pub struct AddArgs {
    /// Result files or folders, or a dataset saved by `nvcmp ingest -o`.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,
    /// The history: a directory, or a URL (s3://BUCKET/PREFIX, gs://, az://, file://).
    #[arg(long, value_name = "DIR|URL", required = true)]
    pub history: String,
    /// Run id, unique in the history (default: --commit, else --time).
    #[arg(long, value_name = "ID")]
    pub run: Option<String>,
    /// Commit the run measured.
    #[arg(long, value_name = "SHA")]
    pub commit: Option<String>,
    /// When the run was made, RFC 3339 (default: now, UTC).
    #[arg(long, value_name = "RFC3339")]
    pub time: Option<String>,
    /// Replace the run with the same id instead of refusing it.
    #[arg(long)]
    pub replace: bool,
    /// Config label for every row of this run (default: each file's folder, as in
    /// `analyze`). Runs line up in the history by label: give one when a flat folder's
    /// name changes from run to run.
    #[arg(long, value_name = "NAME")]
    pub label: Option<String>,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Change points: E-Divisive means (Matteson & James 2014) with a Student's t-test for each \
split instead of permutations, as Apache Otava does: deterministic. --alpha is the test's \
level, --min-segment the fewest runs a side, --window the runs searched at once.

Examples:
  nvcmp history show --history bench-history/
  nvcmp history show --history bench-history/ --format json | jq '.series[] | select(.change_points != [])'
  nvcmp history show --history bench-history/ --out history-report/")]
pub struct ShowArgs {
    /// The history: a directory, or a URL (s3://BUCKET/PREFIX, gs://, az://, file://).
    #[arg(long, value_name = "DIR|URL", required = true)]
    pub history: String,
    /// Output on stdout.
    #[arg(long, value_enum, default_value = "term")]
    pub format: ShowFormatArg,
    /// Also write history.md, history.json, history.html and charts/history_*.png here.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Significance level of a change point.
    #[arg(long, value_name = "P", default_value_t = changepoint::DEFAULT_ALPHA)]
    pub alpha: f64,
    /// Fewest runs on either side of a change point.
    #[arg(long, value_name = "N", default_value_t = changepoint::DEFAULT_MIN_SEGMENT)]
    pub min_segment: usize,
    /// Runs searched at once (windows overlap by half).
    #[arg(long, value_name = "N", default_value_t = changepoint::DEFAULT_WINDOW)]
    pub window: usize,
    /// Metrics to follow (comma-separated): iops, bw_bytes_per_s, lat_mean_ns, clat_p99_ns,
    /// cpu_pct. Default: iops, bw_bytes_per_s, lat_mean_ns, clat_p99_ns.
    #[arg(long = "metric", value_name = "METRIC", value_delimiter = ',')]
    pub metrics: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ShowFormatArg {
    Term,
    Json,
    Md,
    /// One self-contained page: change points, series, charts inline as SVG.
    Html,
}

/// The flag's value as the format render/ knows it: chosen once, here.
impl From<ShowFormatArg> for ShowFormat {
    fn from(f: ShowFormatArg) -> ShowFormat {
        match f {
            ShowFormatArg::Term => ShowFormat::Term,
            ShowFormatArg::Json => ShowFormat::Json,
            ShowFormatArg::Md => ShowFormat::Md,
            ShowFormatArg::Html => ShowFormat::Html,
        }
    }
}

pub fn run(args: HistoryArgs, global: Global) -> anyhow::Result<u8> {
    match args.command {
        HistoryCommand::Add(a) => add(a, global),
        HistoryCommand::Show(a) => show_cmd(a, global),
        HistoryCommand::Compact(a) => compact_cmd(a, global),
        HistoryCommand::Verify(a) => verify_cmd(a, global),
    }
}

/// The history `--history` names; a URL nvcmp cannot use is a usage error.
pub(super) fn open(spec: &str) -> Result<Store, CliError> {
    Store::open(spec).map_err(|e| CliError::usage(e.to_string()))
}

fn compact_cmd(args: CompactArgs, global: Global) -> anyhow::Result<u8> {
    let history = open(&args.history)?;
    let done = compact::compact(&history, &compact::Policy::default())
        .map_err(|e| CliError::usage(format!("--history: {e}")))?;
    say_set_aside(&done.set_aside);
    if !global.quiet {
        say_removed(&history);
        eprintln!("{}: {} parts", history.shown(), done.parts.len());
    }
    Ok(exit::OK)
}

/// "set aside part-...parquet (runs 17 to 32) in .quarantine/: why": what
/// a compaction (or an add's merge) moved out of the history.
fn say_set_aside(set_aside: &[(store::Damaged, PathBuf)]) {
    for (d, to) in set_aside {
        eprintln!(
            "nvcmp: warning: {}: damaged ({}); {} set aside as {}",
            crate::path_text::shown(&d.part.path),
            d.reason,
            d.runs(),
            crate::path_text::shown(to)
        );
    }
}

/// Warnings for parts a reader left out as damaged.
fn say_damaged(damaged: &[store::Damaged]) {
    for d in damaged {
        eprintln!("nvcmp: warning: {}", d.warning());
    }
}

/// `history verify`: 0 when every part reads as written, 1 when one does
/// not, 2 when there is no history. The report is render/'s.
fn verify_cmd(args: CompactArgs, global: Global) -> anyhow::Result<u8> {
    let history = open(&args.history)?;
    let v = crate::history::verify::verify(&history)
        .map_err(|e| CliError::usage(format!("--history: {e}")))?;
    let mut stdout = std::io::stdout().lock();
    crate::render::history::verify(&v, history.shown(), global.quiet, &mut stdout)?;
    stdout.flush()?;
    Ok(if v.damaged() { exit::DAMAGED } else { exit::OK })
}

/// Names the temporaries an interrupted add or compaction had left (seen
/// before the command took the lock) that it removed.
fn say_removed(history: &Store) {
    let gone = store::stale_removed();
    if gone > 0 {
        eprintln!(
            "nvcmp: {}: removed {} left by an interrupted add or compaction",
            history.shown(),
            crate::numbers::count(gone, "stale temporary file")
        );
    }
}

fn add(args: AddArgs, global: Global) -> anyhow::Result<u8> {
    let time = match &args.time {
        Some(t) => {
            time::parse_rfc3339(t).map_err(|e| CliError::usage(format!("--time: {e}")))?;
            t.clone()
        }
        None => time::now_utc(),
    };
    let id = args
        .run
        .clone()
        .or_else(|| args.commit.clone())
        .unwrap_or_else(|| time.clone());
    if id.trim().is_empty() {
        return Err(CliError::usage("--run: a run id cannot be empty").into());
    }
    let mut inputs = read_inputs(&args.paths, "PATH")?;
    relabel(&mut inputs.rows, args.label.as_deref())?;
    let meta = store::RunMeta {
        id: id.clone(),
        commit: args.commit.clone(),
        time,
        seq: 0,
    };
    let history = open(&args.history)?;
    let added = crate::history::add(&history, &meta, &inputs.rows, args.replace).map_err(|e| {
        // Every store error is about the history or the flags: usage, exit 2.
        CliError::usage(e.to_string())
    })?;
    say_damaged(&added.damaged);
    say_set_aside(&added.set_aside);
    let part = added.part;
    if !global.quiet {
        say_removed(&history);
        eprintln!(
            "added run {id}: {} rows from {} files to {}",
            inputs.rows.len(),
            inputs.files_read,
            part.display()
        );
    }
    Ok(exit::OK)
}

/// `--label NAME`: every row gets that config label.
pub(super) fn relabel(rows: &mut [crate::model::Row], label: Option<&str>) -> Result<(), CliError> {
    let Some(label) = label else { return Ok(()) };
    if label.trim().is_empty() {
        return Err(CliError::usage("--label: a config label cannot be empty"));
    }
    for r in rows.iter_mut() {
        r.config = label.to_string();
    }
    Ok(())
}

/// Reads result files or datasets; prints what could not be read; exit 2
/// when nothing could.
pub(super) fn read_inputs(paths: &[PathBuf], flag: &str) -> anyhow::Result<input::Inputs> {
    super::reading::read_side(paths, flag, "no readable fio results in")
}

fn metrics(names: &[String], default: &[Metric]) -> Result<Vec<Metric>, CliError> {
    if names.is_empty() {
        return Ok(default.to_vec());
    }
    let mut out = Vec::new();
    for name in names {
        let m = metric_by_name(name.trim())
            .ok_or_else(|| CliError::usage(format!("--metric: unknown metric `{name}`")))?;
        if let Some(p) =
            Metric::percentile_named(name).filter(|p| *p != crate::compare::workload::P99)
        {
            return Err(CliError::usage(format!(
                "--metric {name}: a history follows the p99 tail only (clat_p99), not p{p}"
            )));
        }
        if !out.contains(&m) {
            out.push(m);
        }
    }
    Ok(out)
}

fn show_options(args: &ShowArgs) -> Result<show::ShowOptions, CliError> {
    if !(args.alpha > 0.0 && args.alpha < 1.0) {
        return Err(CliError::usage(format!(
            "--alpha {}: must be between 0 and 1",
            args.alpha
        )));
    }
    if args.min_segment < 2 {
        return Err(CliError::usage(
            "--min-segment: at least 2 runs a side (a t-test needs 2)",
        ));
    }
    if args.window < 2 * args.min_segment {
        return Err(CliError::usage(format!(
            "--window {}: at least twice --min-segment ({})",
            args.window, args.min_segment
        )));
    }
    Ok(show::ShowOptions {
        detector: changepoint::DetectorOptions {
            alpha: args.alpha,
            min_segment: args.min_segment,
            window: args.window,
        },
        metrics: metrics(&args.metrics, trend::DEFAULT_METRICS)?,
    })
}

/// The series of the history that `show` and `check --history`
/// read; a history with no runs is a usage error.
pub(super) fn read_history(store: &Store, metrics: &[Metric]) -> anyhow::Result<gate::History> {
    let history = gate::History::read(store, metrics)
        .map_err(|e| CliError::usage(format!("--history: {e}")))?;
    say_damaged(&history.damaged);
    // A part copied by hand, or the loser of two adds of one id: its runs
    // are counted once, and said.
    for (run, parts) in store::duplicate_runs(store).unwrap_or_default() {
        let names: Vec<String> = parts
            .iter()
            .map(|p| {
                p.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        eprintln!(
            "nvcmp: warning: --history {}: run `{run}` is in {} parts ({}); counted once, from {}",
            store.shown(),
            names.len(),
            names.join(", "),
            names[0]
        );
    }
    if history.runs == 0 {
        return Err(no_runs(store).into());
    }
    Ok(history)
}

fn no_runs(store: &Store) -> CliError {
    CliError::usage(format!(
        "--history {}: no runs yet (add some with `nvcmp history add`)",
        store.shown()
    ))
}

fn show_cmd(args: ShowArgs, global: Global) -> anyhow::Result<u8> {
    let opts = show_options(&args)?;
    let history = read_history(&open(&args.history)?, &opts.metrics)?;
    let report = show::report(history.runs, history.series, &opts);
    // Buffered: a long history's JSON is millions of lines, and a locked
    // stdout writes each line by itself.
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    crate::publish::history::show(&report, args.format.into(), &mut stdout)?;
    stdout.flush()?;
    if let Some(out) = &args.out {
        let charts = crate::publish::history::write_out(&report, out)?;
        if !global.quiet {
            eprintln!(
                "wrote history.md, history.json, history.html and {charts} charts to {}",
                out.display()
            );
        }
    }
    Ok(exit::OK)
}
