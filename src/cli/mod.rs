//! The command line: clap definitions, validation into plain option
//! structs, the one error sink and the exit codes of docs/CONTRACT.md. The only
//! layer that knows clap, stdout/stderr and the process.

pub mod analyze;
pub mod check;
pub mod history;
pub mod ingest;
mod progress;
pub mod reading;
pub mod run;
pub mod skips;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// Exit codes of docs/CONTRACT.md.
pub mod exit {
    pub const OK: u8 = 0;
    /// `check` found a regression.
    pub const REGRESSION: u8 = 1;
    /// `history verify` found a damaged part.
    pub const DAMAGED: u8 = 1;
    /// Bad usage or unusable input.
    pub const USAGE: u8 = 2;
}

/// An error that carries its exit code (2 unless said otherwise).
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct CliError {
    pub message: String,
    pub code: u8,
}

impl CliError {
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            code: exit::USAGE,
        }
    }
}

const EXAMPLES: &str = "\
Examples:
  nvcmp analyze results/                     compare every config folder under results/
  nvcmp analyze results/ --out report/       also write report.md, report.html, charts/
  nvcmp ingest results/ -o dataset.parquet   the normalized dataset
  nvcmp check --baseline base/ --candidate new/ --threshold iops=3%
  nvcmp run --matrix article --engine io_uring --out results/
  nvcmp history add results/ --history hist/ --run 42   keep every CI run; `history show` finds steps
";

#[derive(Debug, Parser)]
#[command(
    name = "nvcmp",
    version,
    about = "Compare fio storage benchmarks across machines, OSes and I/O engines",
    long_about = "nvcmp reads fio results (JSON, json+, normal text; fio 2.x and 3.x; Windows \
                  and Linux; standalone and client/server) and DiskSpd's (text and XML, \
                  Windows and the Linux port), normalizes them into one dataset, \
                  compares configurations per workload, publishes tables and charts, gates CI \
                  on regressions and reruns test matrices.",
    after_help = EXAMPLES,
    propagate_version = true
)]
pub struct Cli {
    /// Print nothing but results and errors (no summary, no progress bars).
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// When to use colors: auto (default; off when NO_COLOR is set or output is not a terminal), always, never.
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto")]
    pub color: ColorChoice,
    /// List every skipped file on its own line (without it, files skipped for one reason are one line: the count, the reason and three paths).
    #[arg(long, global = true)]
    pub verbose: bool,
    /// The most bytes one compressed file, archive member or stream (a FIFO named as PATH) may expand to before it is refused (default 1g; k, m, g, t are powers of 1024).
    #[arg(long, global = true, value_name = "SIZE", value_parser = parse_max_expanded)]
    pub max_expanded: Option<u64>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// `--max-expanded SIZE`: fio's size grammar (`512m`, `2g`), at least 1 KiB.
fn parse_max_expanded(s: &str) -> Result<u64, String> {
    match crate::units::grammar::size(s, Default::default()) {
        Ok(n) if n >= 1024 => Ok(n),
        Ok(_) => Err(format!("{s}: at least 1k")),
        Err(e) => Err(e.to_string()),
    }
}

/// `--max-expanded` and `--verbose`, read where a command reads its
/// inputs (`reading`), set once from the command line.
static READING: std::sync::OnceLock<(Option<u64>, bool)> = std::sync::OnceLock::new();

/// `--max-expanded`, if given.
pub(crate) fn max_expanded() -> Option<u64> {
    READING.get().and_then(|r| r.0)
}

/// `--verbose`.
pub(crate) fn verbose() -> bool {
    READING.get().is_some_and(|r| r.1)
}

/// `--label-by` of `analyze` and `ingest`: one flag, one set of values
/// (`crate::ingest::ConfigNaming::parse`).
pub fn parse_label_by(s: &str) -> Result<crate::ingest::ConfigNaming, String> {
    crate::ingest::ConfigNaming::parse(s)
}

/// What `--help` says of `--label-by`'s values.
pub const LABEL_BY_HELP: &str = "auto: the folder, split by the fio options that differ between runs of the same workload and load (ioscheduler, ioengine, ...); name: as auto, and files alike in every option but named apart (iou_c_t_4, iou_t_4) are configs named by their file names; folder (or dir): one config per folder; engine: fio's ioengine; host: the client hostname; file: the file name; KEY[,KEY]: the values of these fio options (folder may be one)";

/// `--repeats` of `analyze` and `ingest`
/// (`crate::ingest::Repeats::parse`).
pub fn parse_repeats(s: &str) -> Result<crate::ingest::Repeats, String> {
    crate::ingest::Repeats::parse(s)
}

/// What `--help` says of `--repeats`' values.
pub const REPEATS_HELP: &str = "Runs with the same options at one workload and load point are pooled as repeats only where nothing but repeat marks (run1, rep2, r03, try2), numbers, dates or times tells their names apart; any other word keeps them apart as configs. --repeats says what else marks repeats, comma-separated: a WORD of the names, alone or followed by a number (--repeats attempt: ssd-attempt1.json and ssd-attempt2.json are repeats of one config; --repeats monday,tuesday), or a folder level: folder (the folder holding the files: results/monday/ and results/tuesday/ pooled) or folder:N (the Nth folder below PATH). The manifest's repeats = [\"attempt\", \"folder\"] says the same. analyze --explain shows what was pooled and on what evidence.";

/// `--instances` of `analyze` and `ingest` (`crate::ingest::Instances::parse`).
pub fn parse_instances(s: &str) -> Result<crate::ingest::Instances, String> {
    crate::ingest::Instances::parse(s)
}

/// What `--help` says of `--instances`' values.
pub const INSTANCES_HELP: &str = "auto: result files (one per fio process) whose run times overlap by half or more, in one folder, on the same OS, host and target (fio's filename), ran side by side: they are one run, their I/O summed, and how many ran together is a load axis (instances, like numjobs); apart: every file is its own run";

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compare configurations per workload: tables, highlights, reports.
    Analyze(analyze::AnalyzeArgs),
    /// Write the normalized dataset (parquet, csv, json, ndjson).
    Ingest(ingest::IngestArgs),
    /// Fail (exit 1) when a candidate regressed against a baseline beyond noise.
    Check(check::CheckArgs),
    /// Run a test matrix with the native harness or fio and write fio-compatible results.
    Run(run::RunArgs),
    /// Keep results over time: add runs, show series and their change points.
    History(history::HistoryArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) to stdout.
    Man,
}

/// Process-wide settings every command gets.
#[derive(Debug, Clone, Copy)]
pub struct Global {
    pub quiet: bool,
    /// Colors on stdout.
    pub color: bool,
    /// stderr is a terminal and not quiet: progress bars allowed.
    pub progress: bool,
}

impl Global {
    fn from_cli(cli: &Cli) -> Global {
        let _ = READING.set((cli.max_expanded, cli.verbose));
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let color = match cli.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => !no_color && std::io::stdout().is_terminal(),
        };
        Global {
            quiet: cli.quiet,
            color,
            progress: !cli.quiet && std::io::stderr().is_terminal(),
        }
    }
}

/// Entry point of the binary: parses, runs, prints the error chain once.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                exit::USAGE
            } else {
                exit::OK
            };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let global = Global::from_cli(&cli);
    let result = match cli.command {
        Command::Analyze(args) => analyze::run(args, global),
        Command::Ingest(args) => ingest::run(args, global),
        Command::Check(args) => check::run(args, global),
        Command::Run(args) => run::run(args, global),
        Command::History(args) => history::run(args, global),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "nvcmp", &mut std::io::stdout());
            Ok(exit::OK)
        }
        Command::Man => clap_mangen::Man::new(Cli::command())
            .render(&mut std::io::stdout())
            .map(|_| exit::OK)
            .map_err(anyhow::Error::from),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            if is_broken_pipe(&err) {
                return ExitCode::from(exit::OK);
            }
            let text = format!("{err:#}");
            eprintln!(
                "nvcmp: error: {}",
                crate::render::table::terminal_text(&text, false)
            );
            let code = err
                .downcast_ref::<CliError>()
                .map_or(exit::USAGE, |e| e.code);
            ExitCode::from(code)
        }
    }
}

/// `nvcmp ... | head` is not an error. The pipe error may come wrapped by
/// serde_json (ndjson, json) or polars (csv, parquet to stdout), which keep
/// the io::Error inside their own type.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    use std::io::ErrorKind::BrokenPipe;
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == BrokenPipe)
            || e.downcast_ref::<serde_json::Error>()
                .is_some_and(|j| j.io_error_kind() == Some(BrokenPipe))
            || matches!(
                e.downcast_ref::<polars_core::error::PolarsError>(),
                Some(polars_core::error::PolarsError::IO { error, .. }) if error.kind() == BrokenPipe
            )
    })
}
