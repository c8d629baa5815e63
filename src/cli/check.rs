//! `nvcmp check`: arguments, their validation into [`CheckOptions`], and
//! the process side of the gate (stdout, report files, the GitHub step
//! summary, exit codes).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{CliError, Global, exit, history};
use crate::check::threshold::{METRIC_NAMES, metric_by_name};
use crate::check::{self, CheckOptions, Thresholds};
use crate::compare::{Metric, SloMetric};
use crate::history::{changepoint, gate};
use crate::input;
use crate::render::check::CheckFormat;
use crate::render::history as render_history;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Exit status: 0 no regression, 1 a regression (or a workload missing from the candidate), \
2 bad usage or unusable input (a file that cannot be read; nothing compared, even with \
--allow-missing; a candidate figure that is no measurement fails as 1).

A change is a regression when it is in the worse direction, larger than the threshold, \
larger than the values' rounding, and, where fio's per-interval samples or repeated runs \
give a spread, significant by Welch's t-test.

Examples:
  nvcmp check --baseline ci/baseline.parquet --candidate results/
  nvcmp check --baseline base/ --candidate new/ --threshold iops=3% --threshold lat_mean_ns=10%
  nvcmp check --baseline base/ --candidate new/ --junit junit.xml --markdown summary.md
  nvcmp --quiet check --baseline base/ --candidate new/ --allow-missing
  nvcmp check --baseline sweep-v1/ --candidate sweep-v2/ --slo clat_p99=1ms
  nvcmp check --history bench-history/ --candidate results/ --window 10
  nvcmp check --history bench-history/ --candidate results/ --against best

Results are compared load point by load point (iodepth, numjobs): a point on one side only
is missing, never a regression. Where both sides measured the same sweep, its peak IOPS
(and with --slo the IOPS under the target) are gated as well.

With --history the candidate is judged against the last --window runs of the history: a
regression is worse than the reference (the window's mean, the best run, or a given run) by
more than the threshold and significant by Student's t with the window's spread (the
prediction interval of one new run). The report says whether the candidate is itself a
change point, or where the latest one was.")]
pub struct CheckArgs {
    /// Baseline: result files or folders, or a dataset saved by `nvcmp ingest -o`.
    #[arg(long, value_name = "PATH", required_unless_present = "history", conflicts_with = "history", num_args = 1..)]
    pub baseline: Vec<PathBuf>,
    /// Gate against a history (`nvcmp history add`) instead of one baseline: the last
    /// --window runs' spread is the noise model. A directory or a URL (s3://BUCKET/PREFIX).
    #[arg(long, value_name = "DIR|URL")]
    pub history: Option<String>,
    /// With --history: runs in the noise window.
    #[arg(long, value_name = "N", default_value_t = crate::history::gate::DEFAULT_WINDOW, requires = "history")]
    pub window: usize,
    /// With --history: compare with the window's mean (`window`), the best run (`best`),
    /// or one run (`run ID`).
    #[arg(
        long,
        value_name = "WHAT",
        default_value = "window",
        requires = "history"
    )]
    pub against: String,
    /// Candidate: result files or folders, or a dataset.
    #[arg(long, value_name = "PATH", required = true, num_args = 1..)]
    pub candidate: Vec<PathBuf>,
    /// With --history: the candidate's config label (as given to `history add --label`).
    #[arg(long, value_name = "NAME", requires = "history")]
    pub label: Option<String>,
    /// Regression threshold: `7` or `7%` sets the default (5%), `METRIC=PCT` one metric's
    /// (`iops=3%`, `lat_mean_ns=10%`). Repeatable.
    #[arg(long, value_name = "PCT")]
    pub threshold: Vec<String>,
    /// Metrics to gate (comma-separated or repeated): iops, bw_bytes_per_s, lat_mean_ns,
    /// clat_p99_ns, cpu_pct. Default: iops, bw_bytes_per_s, lat_mean_ns.
    #[arg(long = "metric", value_name = "METRIC", value_delimiter = ',')]
    pub metrics: Vec<String>,
    /// Significance level of Welch's t-test.
    #[arg(long, value_name = "P", default_value_t = crate::compare::stats::DEFAULT_ALPHA)]
    pub alpha: f64,
    /// A workload the baseline has and the candidate lacks does not fail the check.
    #[arg(long)]
    pub allow_missing: bool,
    /// Latency target for sweeps (clat_p99=1ms, lat_mean=200us): with whole curves on both
    /// sides, the IOPS each sustains under it is gated too (peak IOPS always is).
    #[arg(long, value_name = "METRIC=TIME")]
    pub slo: Option<String>,
    /// Output on stdout.
    #[arg(long, value_enum, default_value = "term")]
    pub format: OutFormat,
    /// Also write a JUnit XML report (one testcase per workload and metric).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Also write a Markdown summary.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutFormat {
    Term,
    Json,
}

/// `--format` as render/ names the formats of both gates: converted
/// once, here.
impl From<OutFormat> for CheckFormat {
    fn from(f: OutFormat) -> CheckFormat {
        match f {
            OutFormat::Term => CheckFormat::Term,
            OutFormat::Json => CheckFormat::Json,
        }
    }
}

fn options(args: &CheckArgs) -> Result<CheckOptions, CliError> {
    let thresholds = Thresholds::parse_all(&args.threshold)
        .map_err(|e| CliError::usage(format!("--threshold: {e}")))?;
    let mut metrics = Vec::new();
    for name in &args.metrics {
        let m = metric_by_name(name.trim()).ok_or_else(|| {
            let known: Vec<&str> = METRIC_NAMES.iter().map(|(n, _)| *n).collect();
            CliError::usage(format!(
                "--metric: unknown metric `{name}` (known: {})",
                known.join(", ")
            ))
        })?;
        if !metrics.contains(&m) {
            metrics.push(m);
        }
    }
    if !(args.alpha > 0.0 && args.alpha < 1.0) {
        return Err(CliError::usage(format!(
            "--alpha {}: must be between 0 and 1",
            args.alpha
        )));
    }
    let mut opts = CheckOptions {
        thresholds,
        alpha: args.alpha,
        allow_missing: args.allow_missing,
        ..CheckOptions::default()
    };
    if let Some(slo) = &args.slo {
        opts.sweep_rules.slo = Some(
            crate::compare::sweep::parse_slo(slo)
                .map_err(|e| CliError::usage(format!("--slo {e}")))?,
        );
    }
    if !metrics.is_empty() {
        opts.metrics = metrics;
    }
    opts.tail = named_tail(args, &opts)?;
    if let Some(p) = opts.tail.filter(|p| *p != crate::compare::workload::P99)
        && args.history.is_some()
    {
        return Err(CliError::usage(format!(
            "--history follows the p99 tail only (clat_p99): p{p} is named"
        )));
    }
    Ok(opts)
}

/// The one tail percentile the flags name (`--metric clat_p95`,
/// `--threshold clat_p95=10%`, `--slo clat_p95=1ms`); None when none
/// names one. Two different ones are a usage error: a check shows one tail.
fn named_tail(args: &CheckArgs, opts: &CheckOptions) -> Result<Option<f64>, CliError> {
    let mut named: Vec<(String, f64)> = Vec::new();
    let thresholds = args
        .threshold
        .iter()
        .filter_map(|t| t.split_once('='))
        .map(|(m, _)| m);
    for name in args.metrics.iter().map(String::as_str).chain(thresholds) {
        if let Some(p) = Metric::percentile_named(name) {
            named.push((name.trim().to_string(), p));
        }
    }
    if let Some(slo) = opts
        .sweep_rules
        .slo
        .filter(|s| s.metric == SloMetric::ClatP99)
    {
        named.push(("--slo".into(), slo.percentile));
    }
    let Some((first, pct)) = named.first().cloned() else {
        return Ok(None);
    };
    if let Some((other, _)) = named.iter().find(|(_, p)| *p != pct) {
        return Err(CliError::usage(format!(
            "{first} and {other} name two tail percentiles: a check gates one (run one check per percentile)"
        )));
    }
    Ok(Some(pct))
}

/// Reads one side and labels its rows; prints what could not be read.
fn side(paths: &[PathBuf], flag: &str) -> anyhow::Result<input::Inputs> {
    super::reading::read_side(
        paths,
        flag,
        "nothing to compare: no readable fio results in",
    )
}

pub fn run(args: CheckArgs, global: Global) -> anyhow::Result<u8> {
    let opts = options(&args)?;
    if let Some(history) = &args.history {
        return check_history(CheckHistory {
            history,
            candidate: &args.candidate,
            window: args.window,
            against: &args.against,
            format: args.format.into(),
            label: args.label.as_deref(),
            junit: args.junit.as_deref(),
            markdown: args.markdown.as_deref(),
            opts,
        });
    }
    let base = side(&args.baseline, "--baseline")?;
    let cand = side(&args.candidate, "--candidate")?;
    let mut opts = opts;
    opts.log_steady = base.log_steady.clone();
    opts.log_steady.extend(cand.log_steady.clone());
    let mut report = compare_sides(base, &cand, &opts)?;
    let unusable = unusable(&report, &cand);
    report.errors.extend(unusable);
    write_report(&args, global, &report)?;
    exit_code(&report)
}

/// The check of the two sides, with what each side could not read or
/// warned about; no finding at all is a usage error.
fn compare_sides(
    base: input::Inputs,
    cand: &input::Inputs,
    opts: &check::CheckOptions,
) -> anyhow::Result<check::CheckReport> {
    let mut report = check::check(&base.rows, &cand.rows, opts);
    report.warnings.extend(tools_differ(&base.rows, &cand.rows));
    for w in &report.warnings {
        eprintln!("nvcmp: {w}");
    }
    report.skipped = [base.skipped, cand.skipped.clone()].concat();
    report
        .warnings
        .splice(0..0, [base.warnings, cand.warnings.clone()].concat());
    if report.findings.is_empty() {
        return Err(
            CliError::usage("nothing to compare: no metric to check in any workload").into(),
        );
    }
    Ok(report)
}

/// A warning when the sides were measured by different tools (fio and
/// DiskSpd): their differences are partly the tools', and only what both
/// measure is judged (DiskSpd has no completion latency).
fn tools_differ(
    base: &[crate::model::Row],
    cand: &[crate::model::Row],
) -> Option<crate::model::Warning> {
    let tools = |rows: &[crate::model::Row]| {
        let mut t: Vec<&str> = rows.iter().map(|r| r.tool.as_str()).collect();
        t.sort_unstable();
        t.dedup();
        t.join(" and ")
    };
    let (b, c) = (tools(base), tools(cand));
    (b != c).then(|| crate::model::Warning {
        source: "--baseline/--candidate".into(),
        message: format!(
            "the baseline was measured by {b}, the candidate by {c}: a change may be the tools' \
             as much as the system's; only metrics both measure are judged"
        ),
    })
}

/// The report to stdout in `--format`, and to `--junit`, `--markdown` and
/// GitHub's step summary when asked for.
fn write_report(
    args: &CheckArgs,
    global: Global,
    report: &check::CheckReport,
) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    CheckFormat::from(args.format)
        .renderer(global.quiet, global.color)
        .render(report, &mut stdout)?;
    stdout.flush()?;
    crate::publish::ci::write(
        &ci_reports(args.junit.as_deref(), args.markdown.as_deref()),
        report,
    )?;
    Ok(())
}

/// Where the CI reports go: `--junit`, `--markdown`, and GitHub's step
/// summary when `GITHUB_STEP_SUMMARY` names one.
fn ci_reports(junit: Option<&Path>, markdown: Option<&Path>) -> crate::publish::ci::CiReports {
    crate::publish::ci::CiReports {
        junit: junit.map(Path::to_path_buf),
        markdown: markdown.map(Path::to_path_buf),
        step_summary: std::env::var_os("GITHUB_STEP_SUMMARY")
            .filter(|p| !p.is_empty())
            .map(PathBuf::from),
    }
}

/// Why the gate cannot trust its input: a candidate job that failed is a
/// broken benchmark, not a result, and a gate cannot pass on results it
/// could not read. Every report format says so before the exit code does.
fn unusable(report: &check::CheckReport, cand: &input::Inputs) -> Vec<String> {
    let mut errors = Vec::new();
    let failed_jobs: Vec<String> = cand
        .rows
        .iter()
        .filter(|r| r.error != 0)
        .map(|r| format!("{} (job {:?}, error {})", r.source, r.job, r.error))
        .collect();
    if !failed_jobs.is_empty() {
        errors.push(format!(
            "unusable input: {} reported an error: {}",
            if failed_jobs.len() == 1 {
                "a candidate job"
            } else {
                "candidate jobs"
            },
            failed_jobs.join(", ")
        ));
    }
    if report.compared() == 0 {
        errors.push(format!(
            "nothing compared: no workload has a value of a judged metric on both sides ({} \
             missing, {} new): the candidate ran other workloads (another block size or \
             depth?); --allow-missing lets some workloads be missing, never all",
            report.count(check::Verdict::Missing),
            report.count(check::Verdict::New)
        ));
    }
    if !report.skipped.is_empty() {
        let names: Vec<&str> = report.skipped.iter().map(|s| s.source.as_str()).collect();
        let more = match names.len().saturating_sub(3) {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        errors.push(format!(
            "unusable input: {} could not be read: {}{more}",
            crate::numbers::count(names.len(), "file"),
            names[..names.len().min(3)].join(", ")
        ));
    }
    errors
}

/// The exit code of the status every report gave: unusable input is a
/// usage error (exit 2, its reason on stderr).
fn exit_code(report: &check::CheckReport) -> anyhow::Result<u8> {
    match report.status() {
        check::Status::Error => Err(CliError::usage(report.errors.join("; ")).into()),
        check::Status::Fail => Ok(exit::REGRESSION),
        check::Status::Pass => Ok(exit::OK),
    }
}

/// The flags `check` passes on for `--history`.
pub struct CheckHistory<'a> {
    pub history: &'a str,
    pub candidate: &'a [PathBuf],
    pub window: usize,
    pub against: &'a str,
    pub format: CheckFormat,
    /// `--label`: the candidate's config label.
    pub label: Option<&'a str>,
    /// `--junit`, `--markdown`: the CI reports, as `check` writes them.
    pub junit: Option<&'a Path>,
    pub markdown: Option<&'a Path>,
    pub opts: crate::check::CheckOptions,
}

/// Why a candidate cannot be gated: files it could not read, jobs that
/// failed. Said in the report's verdict and by exit code 2.
fn unusable_candidate(cand: &input::Inputs) -> Vec<String> {
    let mut errors = Vec::new();
    if !cand.skipped.is_empty() {
        errors.push(format!(
            "unusable input: {} could not be read",
            crate::numbers::count(cand.skipped.len(), "candidate file")
        ));
    }
    let failed: Vec<String> = cand
        .rows
        .iter()
        .filter(|r| r.error != 0)
        .map(|r| format!("{} (job {:?}, error {})", r.source, r.job, r.error))
        .collect();
    if !failed.is_empty() {
        errors.push(format!(
            "unusable input: a candidate job reported an error: {}",
            failed.join(", ")
        ));
    }
    errors
}

/// `--against window|best|"run ID"` (or `run=ID`).
fn parse_against(text: &str) -> Result<gate::Against, CliError> {
    match text {
        "window" => Ok(gate::Against::Window),
        "best" => Ok(gate::Against::Best),
        other => match other
            .strip_prefix("run ")
            .or_else(|| other.strip_prefix("run="))
        {
            Some(id) if !id.trim().is_empty() => Ok(gate::Against::Run(id.trim().to_string())),
            _ => Err(CliError::usage(format!(
                "--against `{other}`: use window, best, or \"run ID\""
            ))),
        },
    }
}

/// `check --history DIR|URL --candidate PATH`: 0 pass, 1 regression, 2 usage.
pub fn check_history(c: CheckHistory) -> anyhow::Result<u8> {
    if c.window < 2 {
        return Err(
            CliError::usage("--window: at least 2 runs (their spread is the noise model)").into(),
        );
    }
    let against = parse_against(c.against)?;
    // A first CI run has no history yet: nothing to gate against, so every
    // workload passes as new (said on stderr), instead of failing the job.
    let store = history::open(c.history)?;
    let exists = store
        .objects()
        .exists()
        .map_err(|e| CliError::usage(format!("--history: {e}")))?;
    let history = if exists {
        history::read_history(&store, &c.opts.metrics)?
    } else {
        eprintln!(
            "nvcmp: --history {}: no history yet; every workload is new (add this run with `nvcmp history add`)",
            store.shown()
        );
        gate::History::default()
    };
    let mut cand = history::read_inputs(c.candidate, "--candidate")?;
    history::relabel(&mut cand.rows, c.label)?;
    let opts = gate::GateOptions {
        window: c.window,
        against,
        alpha: c.opts.alpha,
        thresholds: c.opts.thresholds.clone(),
        metrics: c.opts.metrics.clone(),
        detector: changepoint::DetectorOptions::default(),
        allow_missing: c.opts.allow_missing,
    };
    let mut report =
        gate::gate(&history, &cand.rows, &opts).map_err(|e| CliError::usage(e.to_string()))?;
    let mut errors = unusable_candidate(&cand);
    // With runs in the history, a candidate that shares none of its series
    // compared nothing: that is no pass (a first run, with no history, is).
    let compared = report
        .findings
        .iter()
        .any(|f| f.reference.is_some() && f.candidate.is_some());
    if history.runs > 0 && !compared {
        errors.push(
            "nothing compared: the candidate has no workload, config and metric the history \
             follows with a value (another block size, depth or --label?); --allow-missing \
             lets some be missing, never all"
                .into(),
        );
    }
    report.set_errors(errors);
    if report.findings.is_empty() {
        return Err(CliError::usage(
            "nothing to compare: the candidate has no metric the history follows",
        )
        .into());
    }
    let mut stdout = std::io::stdout().lock();
    render_history::gate(&report, c.format, &mut stdout)?;
    stdout.flush()?;
    crate::publish::ci::write(&ci_reports(c.junit, c.markdown), &report)?;
    if !report.errors.is_empty() {
        return Err(CliError::usage(report.errors.join("; ")).into());
    }
    Ok(if report.failed() {
        exit::REGRESSION
    } else {
        exit::OK
    })
}
