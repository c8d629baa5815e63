//! `nvcmp analyze`: arguments and their validation into core options,
//! then load ([`crate::input::read`]) -> compare -> render. With `--out DIR` also writes
//! report.md, report.html, dataset.parquet, dataset.csv (and charts).

use std::io::Write;
use std::path::PathBuf;

use super::{CliError, Global, exit};
use crate::compare::{self, CompareOptions, Metric};
use crate::ingest;
use crate::input::{self, Inputs, ReadOptions};
use crate::render::{Format, RenderOptions};

/// `--format`: a deliberate mirror of [`Format`] (as `ChartFormatArg` is of
/// `ChartFormat`), converted once when the arguments are checked. The core
/// must not see clap (docs/STYLE.md, principle 2), so the list of formats
/// stands twice: here with the flag's help, there with what renders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormatArg {
    Term,
    Md,
    Html,
    Csv,
    /// The sweep tables as CSV: one line per sweep shape, load point and config.
    SweepCsv,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ChartFormatArg {
    Png,
    Svg,
}

/// `1600x900` -> (1600, 900).
fn parse_chart_size(s: &str) -> Result<(u32, u32), CliError> {
    let bad = || {
        CliError::usage(format!(
            "--chart-size {s}: expected WIDTHxHEIGHT in pixels, e.g. 1600x900"
        ))
    };
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    Ok((
        w.trim().parse().map_err(|_| bad())?,
        h.trim().parse().map_err(|_| bad())?,
    ))
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  nvcmp analyze results/                         terminal tables and highlights
  nvcmp analyze results/ --format md > report.md article-ready Markdown
  nvcmp analyze results/ --out report/           report.md, report.html, dataset.*, charts/*.png
  nvcmp analyze results/ --baseline linux-libaio --round iops=1k
  nvcmp analyze a.json b.json --label-by file    one config per file
  nvcmp analyze study/ --label-by ioscheduler    configs named by a fio option, whatever the folders
  nvcmp analyze study/ --label-by folder         one config per folder, even where options differ
  nvcmp analyze study/ --repeats attempt         ssd-attempt1.json, ssd-attempt2.json: repeats, pooled
  nvcmp analyze days/ --repeats folder           days/monday/, days/tuesday/: one study run twice
  nvcmp analyze study/ --explain                 how the runs were grouped, on one screen
  nvcmp analyze sweep/ --slo clat_p99=1ms        queue-depth sweeps: peak, knee, IOPS under 1 ms p99
  nvcmp analyze sweep/ --saturation 90           where each config reaches 90 % of its peak
  nvcmp analyze windows-diskspd/ linux-fio/      DiskSpd (text or -Rxml) against fio, like for like

Configs are found in the data: runs of one folder that differ in a fio option (ioscheduler,
ioengine, ...) at the same workload and load are separate configs, named by what sets them
apart. Runs at different iodepth/numjobs/devices (load points) are compared point by point,
never averaged; a config measured at two or more load points is a sweep.")]
pub struct AnalyzeArgs {
    /// Result files or folders (walked recursively): fio's output, DiskSpd's text or XML; or dataset files `nvcmp ingest -o` wrote (.parquet, .ndjson, .csv, .json).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Also write report.md, report.html, dataset.parquet, dataset.csv, charts/ (and sweeps.csv when there are sweeps) here.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// What to print on stdout.
    #[arg(long, value_enum, default_value = "term")]
    pub format: TableFormatArg,
    /// Config the deltas are against, by its name or its full label (default: the manifest's, else the config named like a default: none, default, psync; else the one on the oldest kernel; else the first).
    #[arg(long, value_name = "CFG")]
    pub baseline: Option<String>,
    /// Show config CONFIG (its full label or its short name) as LABEL; repeatable. Overrides the manifest's names.
    #[arg(long = "name", value_name = "CONFIG=LABEL")]
    pub names: Vec<String>,
    /// Print METRIC (latency, bandwidth) in UNIT throughout the report, optionally with DECIMALS: latency=ms, latency=ms:3, bandwidth=MiB/s; DECIMALS:trim drops trailing zeros (bw=GiB/s:3:trim prints 6.1 beside 10.058); repeatable; over the manifest's units table (default: the unit of the metric's median in the report).
    #[arg(long = "unit", value_name = "METRIC=UNIT[:DECIMALS[:trim]]")]
    pub units: Vec<String>,
    /// Present every config of METRIC rounded to STEP (base units: bytes/s, IOPS, ns, %), e.g. iops=1000 or iops=1k.
    #[arg(long = "round", value_name = "METRIC=STEP")]
    pub round: Vec<String>,
    /// Markdown or HTML template replacing the built-in one (minijinja; `.html`/`.htm` in the name means HTML).
    #[arg(long, value_name = "FILE")]
    pub template: Option<PathBuf>,
    #[command(flatten)]
    pub read: super::reading::ReadArgs,
    /// Chart file format under DIR/charts/ (with --out).
    #[arg(long, value_enum, default_value = "png")]
    pub chart_format: ChartFormatArg,
    /// Chart size in pixels, WIDTHxHEIGHT (with --out).
    #[arg(long, value_name = "WxH", default_value = "1600x900")]
    pub chart_size: String,
    /// Do not draw charts (with --out).
    #[arg(long)]
    pub no_charts: bool,
    /// Significance level of Welch's t-test where spreads are known.
    #[arg(long, value_name = "A", default_value_t = compare::stats::DEFAULT_ALPHA)]
    pub alpha: f64,
    /// Latency target for sweeps: the most IOPS whose latency meets it (clat_p99=1ms, lat_mean=200us).
    #[arg(long, value_name = "METRIC=TIME")]
    pub slo: Option<String>,
    /// Knee of a sweep (Kneedle on IOPS against load): its IOPS are at least PCT % above the lightest point's...
    #[arg(long, value_name = "PCT", default_value_t = 10.0)]
    pub knee_gain: f64,
    /// ...past it the curve climbs at most PCT % as steeply as up to it...
    #[arg(long, value_name = "PCT", default_value_t = 33.0)]
    pub knee_flatness: f64,
    /// ...and mean latency grows from it to the heaviest load by more than PCT %.
    #[arg(long, value_name = "PCT", default_value_t = 50.0)]
    pub knee_latency: f64,
    /// Saturation of a sweep: the lightest load point whose IOPS reach PCT % of the config's peak.
    #[arg(long, value_name = "PCT", default_value_t = 95.0)]
    pub saturation: f64,
    /// Differences of at most PCT % of the larger value, beyond rounding, are ties (default 0.05, what one run's figures are read to; 0 turns it off).
    #[arg(long, value_name = "PCT")]
    pub equivalence: Option<f64>,
    /// How many key findings reports lead with (0 for none).
    #[arg(long, value_name = "N", default_value_t = compare::findings::DEFAULT_COUNT)]
    pub findings: usize,
    /// IOPS and bandwidth over the steady-state window (fio's --steadystate) instead of the whole run, where one is known.
    #[arg(long)]
    pub steady_only: bool,
    /// Round length of the SNIA steady-state rule judged from fio's logs (default: 1/25 of the logged run, at least the logs' averaging window).
    #[arg(long, value_name = "SECONDS")]
    pub ss_round: Option<f64>,
    /// Moving average over SECONDS on the timeseries charts (default: off).
    #[arg(long, value_name = "SECONDS")]
    pub smooth: Option<f64>,
    /// Timeseries charts: a line per job instead of the jobs summed (bw, IOPS) or averaged (latency).
    #[arg(long)]
    pub per_job: bool,
    /// CSV (--format csv|sweep-csv, dataset.csv, sweeps.csv): write text cells as the data has them, for programs. By default a cell a spreadsheet would run as a formula (starting with = + - @, a tab or CR, and no number) gets a leading '.
    #[arg(long)]
    pub csv_raw: bool,
    /// Print how the runs were grouped (each config and what defines it, what was pooled as repeats and on what evidence, what was kept apart, roles and variants) and stop: nothing is compared or written.
    #[arg(long)]
    pub explain: bool,
}

/// `--csv-raw`: CSV text cells as the data has them; else guarded.
pub fn csv_cells(raw: bool) -> crate::dataset::CsvCells {
    if raw {
        crate::dataset::CsvCells::Raw
    } else {
        crate::dataset::CsvCells::Guarded
    }
}

/// `iops=1000`, `iops=1k`, `bw=1048576` -> (metric, step).
fn parse_round(s: &str) -> Result<(Metric, f64), CliError> {
    let bad = |why: &str| {
        CliError::usage(format!(
            "--round {s}: {why} (expected METRIC=STEP, e.g. iops=1000)"
        ))
    };
    let (m, step) = s.split_once('=').ok_or_else(|| bad("no `=`"))?;
    let metric = Metric::parse(m).ok_or_else(|| {
        bad(&format!(
            "unknown metric {m:?}; one of {}",
            Metric::ALL.map(|m| m.key()).join(", ")
        ))
    })?;
    let step = step.trim();
    let (num, mult) = match step.char_indices().last() {
        Some((i, 'k' | 'K')) => (&step[..i], 1e3),
        Some((i, 'm' | 'M')) => (&step[..i], 1e6),
        _ => (step, 1.0),
    };
    let v: f64 = num.parse().map_err(|_| bad("STEP is not a number"))?;
    let v = v * mult;
    if !(v.is_finite() && v > 0.0) {
        return Err(bad("STEP must be a positive number"));
    }
    Ok((metric, v))
}

fn sweep_rules(args: &AnalyzeArgs) -> Result<compare::SweepRules, CliError> {
    for (flag, v) in [
        ("--knee-gain", args.knee_gain),
        ("--knee-latency", args.knee_latency),
        ("--knee-flatness", args.knee_flatness),
    ] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(CliError::usage(format!(
                "{flag} {v}: must be a percentage, 0 or more"
            )));
        }
    }
    let slo = match &args.slo {
        Some(s) => {
            Some(compare::sweep::parse_slo(s).map_err(|e| CliError::usage(format!("--slo {e}")))?)
        }
        None => None,
    };
    if !(args.saturation.is_finite() && args.saturation > 0.0 && args.saturation <= 100.0) {
        return Err(CliError::usage(format!(
            "--saturation {}: must be a percentage of the peak, above 0 and at most 100",
            args.saturation
        )));
    }
    Ok(compare::SweepRules {
        knee_min_gain_pct: args.knee_gain,
        knee_lat_growth_pct: args.knee_latency,
        knee_flatness_pct: args.knee_flatness,
        saturation_pct: args.saturation,
        slo,
        ..compare::SweepRules::default()
    })
}

pub fn run(args: AnalyzeArgs, global: Global) -> anyhow::Result<u8> {
    let checked = Checked::of(&args)?;
    let mut phases = crate::ingest::Phases::from_env();
    let mut inputs = read_step(&args, &checked, global)?;
    phases.done("analyze: read");
    if args.explain {
        return explain(&inputs);
    }
    // After the files' bar, a spinner names each step while a large
    // study is compared and written (seconds at 100,000 files); where
    // there were too few files for a bar, the steps are quick too.
    let stage = super::progress::Stage::new(
        global.progress && inputs.files_read >= super::ingest::BAR_MIN_FILES,
    );
    stage.say(format!(
        "comparing {} results",
        crate::numbers::whole(inputs.files_read as u64)
    ));
    let cmp = compare_step(&args, &checked, &mut inputs, global)?;
    phases.done("analyze: compare");
    // The rows' json+ histograms are read by the comparison only (its
    // workloads keep the ones the JSON and the charts show, merged): let
    // go before the reports and the dataset, which has no column for
    // them (100 MB at 100,000 json+ files).
    for r in &mut inputs.rows {
        r.clat_bins = None;
    }
    if let Some(dir) = &args.out {
        stage.say(format!("writing {}", dir.display()));
        let opts = crate::publish::Options {
            charts: checked.charts,
            md_template: checked.template_for(false),
            html_template: checked.template_for(true),
            runs: std::mem::take(&mut inputs.runs),
            timeseries: checked.timeseries,
            csv_cells: csv_cells(args.csv_raw),
        };
        crate::publish::publish(&cmp, &inputs.rows, dir, &opts)?;
        phases.done("analyze: --out");
    }
    drop(stage);
    let format = checked.format;
    let opts = RenderOptions {
        color: global.color,
        template: checked
            .template_for(format == Format::Html)
            .filter(|_| matches!(format, Format::Md | Format::Html)),
        csv_cells: csv_cells(args.csv_raw),
        ..RenderOptions::default()
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    // The reports people read table at most MAX_SHOWN configs; JSON and
    // CSV keep every one.
    let shown = match format.for_people() {
        true => compare::shown::bounded(&cmp, compare::shown::MAX_SHOWN),
        false => std::borrow::Cow::Borrowed(&cmp),
    };
    format.renderer(&opts).render(&shown, &mut out)?;
    out.flush()?;
    phases.done("analyze: print");
    Ok(exit::OK)
}

/// `--explain`: how the runs were grouped, on stdout.
fn explain(inputs: &Inputs) -> anyhow::Result<u8> {
    let study = &inputs.config_rule.study;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if study.is_empty() {
        writeln!(
            out,
            "Dataset files keep the configs they were ingested with: nothing to explain."
        )?;
    }
    for line in study.lines() {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(exit::OK)
}

/// The flags, validated once into what the core takes.
struct Checked {
    round: Vec<(Metric, f64)>,
    /// `--unit`: house style over the manifest's.
    units: compare::report_units::HouseStyle,
    /// `--name CONFIG=LABEL`, in the order given.
    names: Vec<(String, String)>,
    sweep_rules: compare::SweepRules,
    /// `--template`'s text and whether it is an HTML one.
    template: Option<(String, bool)>,
    format: Format,
    /// None with `--no-charts`.
    charts: Option<crate::charts::ChartOptions>,
    /// `--ss-round` in ms.
    ss_round_ms: Option<u64>,
    /// `--smooth`, `--per-job`.
    timeseries: crate::charts::TimeseriesOptions,
}

impl Checked {
    fn of(args: &AnalyzeArgs) -> anyhow::Result<Checked> {
        if args.paths.is_empty() {
            return Err(CliError::usage(
                "nothing to analyze: give at least one PATH (a fio result file or a folder of them)",
            )
            .into());
        }
        if let Some(pct) = args.equivalence
            && !(pct.is_finite() && (0.0..100.0).contains(&pct))
        {
            return Err(CliError::usage(format!(
                "--equivalence {pct}: must be a percentage from 0 to 100 (e.g. --equivalence 1)"
            ))
            .into());
        }
        if !(args.alpha > 0.0 && args.alpha < 1.0) {
            return Err(CliError::usage(format!(
                "--alpha {}: must be between 0 and 1",
                args.alpha
            ))
            .into());
        }
        let template = match &args.template {
            Some(p) => Some((
                std::fs::read_to_string(p)
                    .map_err(|e| CliError::usage(format!("--template {}: {e}", p.display())))?,
                p.to_string_lossy().to_ascii_lowercase().contains(".htm"),
            )),
            None => None,
        };
        let mut units = compare::report_units::HouseStyle::default();
        for u in &args.units {
            units.set_flag(u).map_err(CliError::usage)?;
        }
        Ok(Checked {
            units,
            round: args
                .round
                .iter()
                .map(|s| parse_round(s))
                .collect::<Result<_, _>>()?,
            names: args
                .names
                .iter()
                .map(|s| parse_name(s))
                .collect::<Result<_, _>>()?,
            sweep_rules: sweep_rules(args)?,
            template,
            format: match args.format {
                TableFormatArg::Term => Format::Term,
                TableFormatArg::Md => Format::Md,
                TableFormatArg::Html => Format::Html,
                TableFormatArg::Csv => Format::Csv,
                TableFormatArg::SweepCsv => Format::SweepCsv,
                TableFormatArg::Json => Format::Json,
            },
            charts: chart_options(args)?,
            ss_round_ms: seconds_ms("--ss-round", args.ss_round)?,
            timeseries: crate::charts::TimeseriesOptions {
                smooth_ms: seconds_ms("--smooth", args.smooth)?,
                per_job: args.per_job,
            },
        })
    }

    /// The user's template for Markdown (`html` false) or HTML reports.
    fn template_for(&self, html: bool) -> Option<String> {
        self.template
            .as_ref()
            .filter(|(_, is_html)| *is_html == html)
            .map(|(t, _)| t.clone())
    }
}

/// A positive number of seconds as ms.
fn seconds_ms(flag: &str, secs: Option<f64>) -> Result<Option<u64>, CliError> {
    match secs {
        None => Ok(None),
        Some(s) if s.is_finite() && s > 0.0 => Ok(Some((s * 1000.0).round().max(1.0) as u64)),
        Some(s) => Err(CliError::usage(format!(
            "{flag} {s}: must be a positive number of seconds (e.g. {flag} 2)"
        ))),
    }
}

/// Chart options from the flags, checked even without `--out` so a bad
/// `--chart-size` is named before any work.
fn chart_options(args: &AnalyzeArgs) -> anyhow::Result<Option<crate::charts::ChartOptions>> {
    if args.no_charts || args.out.is_none() {
        return Ok(None);
    }
    let (width, height) = parse_chart_size(&args.chart_size)?;
    Ok(Some(crate::charts::ChartOptions {
        format: match args.chart_format {
            ChartFormatArg::Png => crate::charts::ChartFormat::Png,
            ChartFormatArg::Svg => crate::charts::ChartFormat::Svg,
        },
        width,
        height,
    }))
}

/// Reads PATHs (results, dataset files, the logs beside the results),
/// says what was skipped (always) and warned (unless `--quiet`); an empty
/// result or `--strict` with skips is a usage error.
fn read_step(args: &AnalyzeArgs, checked: &Checked, global: Global) -> anyhow::Result<Inputs> {
    let opts = ReadOptions {
        // The JSON's `clat_bins` and the CDF charts use json+ bins.
        ingest: args.read.ingest_options(false),
        ss_round_ms: checked.ss_round_ms,
    };
    let inputs = input::read(&args.paths, &opts, &LogBar::new(global))?;
    super::skips::print(&inputs.skipped, "nvcmp: ", super::verbose());
    if !global.quiet {
        for w in &inputs.warnings {
            eprintln!("nvcmp: {w}");
        }
    }
    let paths = args
        .paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(" ");
    if inputs.rows.is_empty() {
        let found = match super::skips::found(&inputs.skipped) {
            f if f.is_empty() => String::new(),
            f => format!("; {f}"),
        };
        return Err(CliError::usage(format!(
            "nothing to analyze in {paths}: no fio or DiskSpd results found ({} skipped){found}",
            crate::numbers::count(inputs.skipped.len(), "file")
        ))
        .into());
    }
    if args.read.strict && !inputs.skipped.is_empty() {
        return Err(CliError::usage(format!(
            "--strict: {} skipped under {paths}",
            crate::numbers::count(inputs.skipped.len(), "file")
        ))
        .into());
    }
    log_warnings(&inputs, global);
    Ok(inputs)
}

/// A bar while fio's logs are read, when they are large and stderr is a
/// terminal.
struct LogBar {
    global: Global,
    bar: std::sync::OnceLock<indicatif::ProgressBar>,
    /// The result files' bar, as `ingest` shows it (a lab's archive of
    /// 100,000 files takes seconds to read).
    files: super::ingest::Bar,
}

impl LogBar {
    fn new(global: Global) -> LogBar {
        LogBar {
            global,
            bar: std::sync::OnceLock::new(),
            files: super::ingest::Bar::new(global),
        }
    }
}

impl input::LogProgress for LogBar {
    fn start(&self, plan: &ingest::logs::Plan) {
        let _ = self.bar.set(super::ingest::series_bar(plan, self.global));
    }
    fn read(&self, bytes: u64) {
        if let Some(bar) = self.bar.get() {
            bar.inc(bytes);
        }
    }
    fn finish(&self) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
    }
    fn files(&self) -> &dyn ingest::Progress {
        &self.files
    }
}

/// Each log's warnings (malformed lines, times that cannot be, compressed
/// logs that cannot be read), unless `--quiet`, after a line saying what
/// they touch.
fn log_warnings(inputs: &Inputs, global: Global) {
    if global.quiet || inputs.log_warnings.is_empty() {
        return;
    }
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    let _ = writeln!(
        err,
        "nvcmp: warning: {} reading fio logs (for the timeseries charts and steady state):",
        crate::numbers::count(inputs.log_warnings.len(), "problem")
    );
    for w in &inputs.log_warnings {
        let _ = writeln!(err, "nvcmp: {w}");
    }
}

/// Compares the rows with the manifest's order, names and baseline; the
/// comparison's own warnings are printed unless `--quiet`.
fn compare_step(
    args: &AnalyzeArgs,
    checked: &Checked,
    inputs: &mut Inputs,
    global: Global,
) -> anyhow::Result<compare::Comparison> {
    let manifest = &inputs.manifest;
    let mut opts = CompareOptions {
        order: manifest.order.clone(),
        baseline: args.baseline.clone().or_else(|| manifest.baseline.clone()),
        display_names: {
            let mut names = manifest.names.clone();
            names.extend(checked.names.iter().cloned());
            names
        },
        alpha: args.alpha,
        round: checked.round.clone(),
        sweep_rules: checked.sweep_rules,
        setup: setup_notes(manifest),
        equivalence_pct: args.equivalence,
        findings: args.findings,
        steady_only: args.steady_only,
        log_steady: inputs.log_steady.clone(),
        // Taken, not copied: its study lists every file (100,000 at a
        // lab's archive), and nothing reads it after the comparison.
        config_rule: std::mem::take(&mut inputs.config_rule),
        house: house_style(manifest)?.overridden_by(checked.units),
        // `--round clat_p95=...` names the tail it rounds.
        tail: args
            .round
            .iter()
            .filter_map(|r| r.split_once('='))
            .find_map(|(m, _)| Metric::percentile_named(m)),
    };
    let mut cmp = compare::compare_owned(&mut inputs.rows, &mut opts);
    cmp.skipped = inputs.skipped.clone();
    // The reading's warnings (one a file at an archive that warns of
    // each) are moved into the comparison's, not copied.
    let read = inputs.warnings.len();
    let mut warnings = std::mem::take(&mut inputs.warnings);
    warnings.append(&mut cmp.warnings);
    cmp.warnings = warnings;
    if !global.quiet {
        for w in cmp.warnings.iter().skip(read) {
            eprintln!("nvcmp: {w}");
        }
    }
    Ok(cmp)
}

/// The manifest's `[units]` as house style; an unknown metric or unit is
/// an error naming the manifest.
fn house_style(
    manifest: &ingest::manifest::Manifest,
) -> Result<compare::report_units::HouseStyle, CliError> {
    let mut house = compare::report_units::HouseStyle::default();
    for (metric, entry, path) in &manifest.units {
        let (unit, decimals, trim_zeros) = entry.parts();
        house
            .set_styled(metric, unit, decimals, trim_zeros)
            .map_err(|e| CliError::usage(format!("{}: [units] {metric}: {e}", path.display())))?;
    }
    Ok(house)
}

/// `--name CONFIG=LABEL`: split at the last `=`, since a config's label
/// may hold `key=value` pairs (`ioscheduler=bfq=BFQ`).
fn parse_name(s: &str) -> Result<(String, String), CliError> {
    match s.rsplit_once('=') {
        Some((config, label)) if !config.trim().is_empty() && !label.trim().is_empty() => {
            Ok((config.trim().to_string(), label.trim().to_string()))
        }
        _ => Err(CliError::usage(format!(
            "--name {s}: expected CONFIG=LABEL (e.g. --name ioscheduler=none=\"no scheduler\")"
        ))),
    }
}

/// The manifest's title, description and `[setup]` tables for the report.
fn setup_notes(manifest: &ingest::manifest::Manifest) -> compare::setup::SetupNotes {
    let per_config = manifest
        .configs
        .iter()
        .filter(|(_, c)| !c.setup.is_empty())
        .map(|(label, c)| {
            let pairs = c.setup.iter().map(|(k, v)| (k.clone(), v.0.clone()));
            (label.clone(), pairs.collect())
        })
        .collect();
    compare::setup::SetupNotes {
        title: manifest.title.clone(),
        description: manifest.description.clone(),
        shared: manifest.setup.clone(),
        per_config,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_flags() {
        assert_eq!(
            parse_name("ioscheduler=bfq=BFQ").unwrap(),
            ("ioscheduler=bfq".to_string(), "BFQ".to_string())
        );
        assert_eq!(
            parse_name("none=no scheduler").unwrap(),
            ("none".to_string(), "no scheduler".to_string())
        );
        assert!(
            parse_name("bfq")
                .unwrap_err()
                .message
                .contains("--name bfq")
        );
        assert!(parse_name("bfq=").is_err());
    }

    #[test]
    fn round_flags() {
        assert_eq!(parse_round("iops=1000").unwrap(), (Metric::Iops, 1000.0));
        assert_eq!(parse_round("iops=1k").unwrap(), (Metric::Iops, 1000.0));
        assert_eq!(
            parse_round("lat=1000").unwrap(),
            (Metric::LatMeanNs, 1000.0)
        );
        assert!(
            parse_round("iops")
                .unwrap_err()
                .message
                .contains("--round iops")
        );
        assert!(
            parse_round("speed=1")
                .unwrap_err()
                .message
                .contains("unknown metric")
        );
        assert!(parse_round("iops=-1").is_err());
    }
}
