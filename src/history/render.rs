//! `history show` and `check --history` for people and machines: terminal
//! tables, Markdown, JSON. Renderers write to a `Write`; they never print.
//! Values are scaled and formatted by each metric's own rules
//! ([`crate::compare::Metric::scale`]).

use std::io::Write;

use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};
use serde::Serialize;

use super::gate::GateReport;
use super::show::{HistoryReport, SeriesReport};
use crate::check::Status;
use crate::check::report::{Line, Outcome};
use crate::compare::Metric;
use crate::format;

/// An output format of `history show`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShowFormat {
    Term,
    Md,
    Json,
}

/// Writes `report` in `format`.
pub fn show(report: &HistoryReport, format: ShowFormat, w: &mut dyn Write) -> anyhow::Result<()> {
    match format {
        ShowFormat::Json => {
            // Buffered here, so that the serializer's many small writes are
            // copies into a buffer, not calls through `dyn Write`.
            let mut buf = std::io::BufWriter::with_capacity(1 << 16, &mut *w);
            let mut ser = serde_json::Serializer::with_formatter(&mut buf, PointPerLine::default());
            report.serialize(&mut ser)?;
            writeln!(buf)?;
            buf.flush()?;
        }
        ShowFormat::Term => {
            writeln!(w, "{}", series_table(report, false))?;
            writeln!(w, "{}", summary_line(report))?;
        }
        ShowFormat::Md => {
            writeln!(w, "# Benchmark history\n")?;
            writeln!(w, "{}\n", summary_line(report))?;
            writeln!(w, "{}", series_table(report, true))?;
        }
    }
    Ok(())
}

/// serde_json's pretty layout down to the series, and each run (or
/// change point) of a series on one line: a history of 100,000 runs has
/// millions of points, and six indented lines each tripled the output.
#[derive(Default)]
struct PointPerLine {
    pretty: serde_json::ser::PrettyFormatter<'static>,
    /// Objects and arrays open around the current value.
    depth: usize,
}

/// Depth of a point's object: report, series list, series, runs, point.
const POINT_DEPTH: usize = 5;

impl PointPerLine {
    fn flat(&self) -> bool {
        self.depth >= POINT_DEPTH
    }
}

/// Each call goes to the pretty formatter above a point's depth and to
/// the compact one from there on.
macro_rules! by_depth {
    ($($name:ident),*) => {$(
        fn $name<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            if self.flat() {
                serde_json::ser::CompactFormatter.$name(w)
            } else {
                self.pretty.$name(w)
            }
        }
    )*};
}

impl serde_json::ser::Formatter for PointPerLine {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.depth += 1;
        if self.flat() {
            serde_json::ser::CompactFormatter.begin_array(w)
        } else {
            self.pretty.begin_array(w)
        }
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        let r = if self.flat() {
            serde_json::ser::CompactFormatter.end_array(w)
        } else {
            self.pretty.end_array(w)
        };
        self.depth -= 1;
        r
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.depth += 1;
        if self.flat() {
            serde_json::ser::CompactFormatter.begin_object(w)
        } else {
            self.pretty.begin_object(w)
        }
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        let r = if self.flat() {
            serde_json::ser::CompactFormatter.end_object(w)
        } else {
            self.pretty.end_object(w)
        };
        self.depth -= 1;
        r
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if self.flat() {
            serde_json::ser::CompactFormatter.begin_array_value(w, first)
        } else {
            self.pretty.begin_array_value(w, first)
        }
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if self.flat() {
            serde_json::ser::CompactFormatter.begin_object_key(w, first)
        } else {
            self.pretty.begin_object_key(w, first)
        }
    }

    by_depth!(end_array_value, begin_object_value, end_object_value);
}

/// `30 runs, 24 series, 1 change point (E-Divisive means, t-test p < 0.001, ...)`.
fn summary_line(report: &HistoryReport) -> String {
    let cps: usize = report.series.iter().map(|s| s.change_points.len()).sum();
    format!(
        "{} runs, {} series, {} change point{} (E-Divisive means, t-test p < {}, segments of {} runs or more, windows of {})",
        report.runs,
        report.series.len(),
        cps,
        if cps == 1 { "" } else { "s" },
        report.alpha,
        report.min_segment,
        report.window
    )
}

/// A value of `metric` in its unit: `85,012 IOPS`-style scaling from the
/// metric's own ladder, 4 significant digits.
pub fn value_text(metric: Metric, v: f64) -> String {
    let scale = metric.scale(v.abs());
    let shown = v / scale.div;
    let decimals = format::significant_decimals(shown.abs()).min(scale.decimals.max(2));
    let unit = match scale.unit {
        "" => String::new(),
        u => format!(" {u}"),
    };
    format!("{}{unit}", format::fixed(shown, decimals))
}

fn change_text(pct: Option<f64>) -> String {
    pct.map_or_else(|| format::MISSING.to_string(), format::lone_change)
}

/// `p=3.2e-5`; below what a double resolves near 1, `p<1e-15`.
fn p_text(p: f64) -> String {
    if p < 1e-15 {
        "p<1e-15".into()
    } else {
        format!("p={p:.1e}")
    }
}

fn change_points_text(s: &SeriesReport) -> String {
    if s.change_points.is_empty() {
        return "none".into();
    }
    s.change_points
        .iter()
        .map(|c| {
            let commit = c
                .commit
                .as_deref()
                .map(|c| format!(" ({c})"))
                .unwrap_or_default();
            format!(
                "{}{commit}: {} → {} ({}, {}){}",
                c.run,
                value_text(s.metric, c.before_mean),
                value_text(s.metric, c.after_mean),
                change_text(c.change_pct),
                p_text(c.p_value),
                if c.regression { " regression" } else { "" }
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn series_table(report: &HistoryReport, markdown: bool) -> String {
    let header = [
        "workload",
        "config",
        "metric",
        "runs",
        "latest",
        "change points",
    ];
    let rows = report.series.iter().map(|s| {
        [
            s.workload.title.clone(),
            s.config.clone(),
            s.metric.key().to_string(),
            s.runs.len().to_string(),
            s.runs
                .last()
                .map_or_else(String::new, |p| value_text(s.metric, p.value)),
            change_points_text(s),
        ]
    });
    if markdown {
        let mut out = format!(
            "| {} |\n|{}\n",
            header.join(" | "),
            " --- |".repeat(header.len())
        );
        for r in rows {
            let cells: Vec<String> = r.iter().map(|c| c.replace('\n', "<br>")).collect();
            out.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
        return out;
    }
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Disabled)
        .set_header(header);
    for r in rows {
        t.add_row(r);
    }
    t.to_string()
}

/// history.html's template: one self-contained page, no script, nothing
/// fetched (its Content-Security-Policy allows only inline styles and
/// `data:` fonts).
pub const HTML_TEMPLATE: &str = include_str!("../../templates/history.html.j2");

/// What history.html shows; every text is escaped by the template.
#[derive(Serialize)]
struct Page {
    title: &'static str,
    summary: String,
    font_css: String,
    change_points: Vec<ChangeRow>,
    series: Vec<SeriesRow>,
    charts: Vec<ChartSection>,
}

#[derive(Serialize)]
struct ChangeRow {
    workload: String,
    config: String,
    metric: &'static str,
    run: String,
    commit: Option<String>,
    before: String,
    after: String,
    change: String,
    p_value: String,
    /// `regression` or `improvement`: the row's colour.
    kind: &'static str,
}

#[derive(Serialize)]
struct SeriesRow {
    workload: String,
    config: String,
    metric: &'static str,
    runs: usize,
    first: String,
    latest: String,
    change_points: usize,
}

#[derive(Serialize)]
struct ChartSection {
    title: String,
    svg: String,
}

/// Writes `report` as history.html: the change points, the series, and
/// `charts` (SVG text from `charts::svg_history`, one per workload and
/// metric in report order) inline, with their `font_css` once.
pub fn show_html(
    report: &HistoryReport,
    charts: &[String],
    font_css: &str,
    w: &mut dyn Write,
) -> anyhow::Result<()> {
    let page = Page {
        title: "Benchmark history",
        summary: summary_line(report),
        font_css: if charts.is_empty() {
            String::new()
        } else {
            font_css.to_string()
        },
        change_points: report.series.iter().flat_map(change_rows).collect(),
        series: report.series.iter().map(series_row).collect(),
        charts: chart_titles(report)
            .into_iter()
            .zip(charts)
            .map(|(title, svg)| ChartSection {
                title,
                svg: crate::render::html::inline_svg(svg),
            })
            .collect(),
    };
    let mut env = minijinja::Environment::new();
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    let text = env
        .template_from_str(HTML_TEMPLATE)
        .and_then(|t| t.render(&page))
        .map_err(|e| anyhow::anyhow!("history.html template: {e:#}"))?;
    w.write_all(text.as_bytes())?;
    Ok(())
}

fn change_rows(s: &SeriesReport) -> impl Iterator<Item = ChangeRow> + '_ {
    s.change_points.iter().map(|c| ChangeRow {
        workload: s.workload.title.clone(),
        config: s.config.clone(),
        metric: s.metric.key(),
        run: c.run.clone(),
        commit: c.commit.clone(),
        before: value_text(s.metric, c.before_mean),
        after: value_text(s.metric, c.after_mean),
        change: change_text(c.change_pct),
        p_value: p_text(c.p_value),
        kind: if c.regression {
            "regression"
        } else {
            "improvement"
        },
    })
}

fn series_row(s: &SeriesReport) -> SeriesRow {
    let value = |p: Option<&crate::history::series::Point>| {
        p.map_or_else(String::new, |p| value_text(s.metric, p.value))
    };
    SeriesRow {
        workload: s.workload.title.clone(),
        config: s.config.clone(),
        metric: s.metric.key(),
        runs: s.runs.len(),
        first: value(s.runs.first()),
        latest: value(s.runs.last()),
        change_points: s.change_points.len(),
    }
}

/// `randread 4k QD32 · iops`: one per workload and metric, in the order
/// the charts are drawn (first seen in the report).
fn chart_titles(report: &HistoryReport) -> Vec<String> {
    let mut seen: Vec<(&str, Metric)> = Vec::new();
    for s in &report.series {
        if !seen.contains(&(s.workload.title.as_str(), s.metric)) {
            seen.push((&s.workload.title, s.metric));
        }
    }
    seen.into_iter()
        .map(|(t, m)| format!("{t} · {}", m.key()))
        .collect()
}

/// An output format of `check --history`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateFormat {
    Term,
    Json,
}

/// Writes the gate's report.
pub fn gate(report: &GateReport, format: GateFormat, w: &mut dyn Write) -> anyhow::Result<()> {
    if format == GateFormat::Json {
        serde_json::to_writer_pretty(&mut *w, report)?;
        writeln!(w)?;
        return Ok(());
    }
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Disabled)
        .set_header([
            "workload",
            "config",
            "metric",
            "reference",
            "candidate",
            "change",
            "verdict",
            "why",
        ]);
    for f in &report.findings {
        t.add_row([
            f.workload.title.clone(),
            f.config.clone(),
            f.metric.key().to_string(),
            f.reference
                .map_or_else(String::new, |v| value_text(f.metric, v)),
            f.candidate
                .map_or_else(String::new, |v| value_text(f.metric, v)),
            change_text(f.change_pct),
            f.verdict.as_str().to_string(),
            f.reason(),
        ]);
    }
    writeln!(w, "{t}")?;
    writeln!(w, "{}", report.summary_line())?;
    Ok(())
}

/// The gate's outcome for the CI reports `check` writes (`--junit`,
/// `--markdown`, the GitHub step summary): the reference is the baseline
/// column, the config is named with the workload.
impl Outcome for GateReport {
    fn status(&self) -> Status {
        Status::of(&self.errors, self.failed())
    }
    fn summary_line(&self) -> String {
        GateReport::summary_line(self)
    }
    fn lines(&self) -> Vec<Line> {
        let text = |m: Metric, v: Option<f64>| {
            v.map_or_else(|| format::MISSING.to_string(), |v| value_text(m, v))
        };
        self.findings
            .iter()
            .map(|f| Line {
                workload: format!("{} [{}]", f.workload.title, f.config),
                metric: f.metric.key(),
                baseline: text(f.metric, f.reference),
                candidate: text(f.metric, f.candidate),
                change: change_text(f.change_pct),
                verdict: f.verdict,
                fails: f.fails,
                reason: f.reason(),
            })
            .collect()
    }
    fn errors(&self) -> &[String] {
        &self.errors
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::show::{ShowOptions, show as show_report};
    use crate::history::store::{RunMeta, StoredRun};
    use crate::history::synth::matrix_run;

    #[test]
    fn json_has_one_line_per_point_and_reads_back_as_the_report() {
        let runs: Vec<StoredRun> = (1..=12)
            .map(|seq| StoredRun {
                meta: RunMeta {
                    id: format!("r{seq}"),
                    commit: (seq % 2 == 0).then(|| format!("c{seq}")),
                    time: "2026-12-01T08:30:00Z".into(),
                    seq,
                },
                rows: matrix_run(seq, 7),
            })
            .collect();
        let report = show_report(&runs, &ShowOptions::default());
        let mut out = Vec::new();
        show(&report, ShowFormat::Json, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(parsed, serde_json::to_value(&report).unwrap());
        let points: usize = report.series.iter().map(|s| s.runs.len()).sum();
        let point_lines = text
            .lines()
            .filter(|l| l.trim_start().starts_with("{\"run\":"))
            .count();
        let cps: usize = report.series.iter().map(|s| s.change_points.len()).sum();
        assert_eq!(point_lines, points + cps);
        // Above the points, the layout stays pretty.
        assert!(text.contains("\n  \"series\": [\n    {\n      \"rw\": "));
    }
}
