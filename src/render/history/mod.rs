//! `history show`, `check --history` and `history verify` for people and
//! machines: terminal tables and Markdown (from the one table model,
//! [`crate::render::table`]), JSON ([`json`]), history.html ([`html`]),
//! verify's lines ([`verify`]). Renderers write to a `Write`; they never
//! print. Values are scaled and formatted by each metric's own
//! rules ([`crate::compare::Metric::scale`]).

mod html;
mod json;
mod verify;

pub use html::{HTML_TEMPLATE, show_html};
pub use verify::verify;

use std::io::Write;

use serde::Serialize;

use crate::check::Status;
use crate::compare::Metric;
use crate::history::gate::GateReport;
use crate::history::show::{HistoryReport, SeriesReport};
use crate::numbers;
use crate::render::check::{CheckFormat, Outcome, ReportLine};
use crate::render::table::{Markdown, Markup, Table};

/// An output format of `history show`. `Html` is one page with the
/// charts drawn into it: `publish::history` draws them and hands them to
/// [`show_html`]; the others are [`show`]'s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShowFormat {
    Term,
    Md,
    Json,
    Html,
}

/// Writes `report` in `format` (not `Html`, whose charts are drawn above
/// render/: `publish::history::show` writes it with [`show_html`]).
pub fn show(report: &HistoryReport, format: ShowFormat, w: &mut dyn Write) -> anyhow::Result<()> {
    match format {
        ShowFormat::Html => {
            anyhow::bail!("history.html is drawn with its charts by publish::history::show")
        }
        ShowFormat::Json => {
            // Buffered here, so that the serializer's many small writes are
            // copies into a buffer, not calls through `dyn Write`.
            let mut buf = std::io::BufWriter::with_capacity(1 << 16, &mut *w);
            let mut ser =
                serde_json::Serializer::with_formatter(&mut buf, json::PointPerLine::default());
            report.serialize(&mut ser)?;
            writeln!(buf)?;
            buf.flush()?;
        }
        ShowFormat::Term => {
            writeln!(w, "{}", series_table(report).terminal(false))?;
            let summary = summary_line(report);
            writeln!(w, "{}", super::table::terminal_text(&summary, false))?;
        }
        ShowFormat::Md => {
            writeln!(w, "# Benchmark history\n")?;
            writeln!(w, "{}\n", summary_line(report))?;
            writeln!(w, "{}", Markdown.table(&series_table(report)))?;
        }
    }
    Ok(())
}

/// `30 runs, 24 series, 1 change point (E-Divisive means, t-test p < 0.001, ...)`.
pub(super) fn summary_line(report: &HistoryReport) -> String {
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
    let decimals = numbers::significant_decimals(shown.abs()).min(scale.decimals.max(2));
    let unit = match scale.unit {
        "" => String::new(),
        u => format!(" {u}"),
    };
    format!("{}{unit}", numbers::fixed(shown, decimals))
}

pub(super) fn change_text(pct: Option<f64>) -> String {
    pct.map_or_else(|| numbers::MISSING.to_string(), numbers::lone_change)
}

/// `p=3.2e-5`; below what a double resolves near 1, `p<1e-15`.
pub(super) fn p_text(p: f64) -> String {
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

/// The columns that name a series, first in the show and gate tables.
const SERIES_COLUMNS: [&str; 3] = ["workload", "config", "metric"];

/// A series' name in [`SERIES_COLUMNS`].
fn series_cells(workload: &str, config: &str, metric: Metric) -> [String; 3] {
    [
        workload.to_string(),
        config.to_string(),
        metric.key().to_string(),
    ]
}

fn series_table(report: &HistoryReport) -> Table {
    let mut t = Table::new(
        SERIES_COLUMNS
            .into_iter()
            .chain(["runs", "latest", "change points"]),
    );
    for s in &report.series {
        let latest = s.runs.last().map(|p| value_text(s.metric, p.value));
        t.row(
            series_cells(&s.workload.title, &s.config, s.metric)
                .into_iter()
                .chain([
                    s.runs.len().to_string(),
                    latest.unwrap_or_default(),
                    change_points_text(s),
                ]),
        );
    }
    t
}

/// Writes the gate's report.
pub fn gate(report: &GateReport, format: CheckFormat, w: &mut dyn Write) -> anyhow::Result<()> {
    if format == CheckFormat::Json {
        serde_json::to_writer_pretty(&mut *w, report)?;
        writeln!(w)?;
        return Ok(());
    }
    let judged = ["reference", "candidate", "change", "verdict", "why"];
    let mut t = Table::new(SERIES_COLUMNS.into_iter().chain(judged));
    for f in &report.findings {
        let value = |v: Option<f64>| v.map(|v| value_text(f.metric, v)).unwrap_or_default();
        t.row(
            series_cells(&f.workload.title, &f.config, f.metric)
                .into_iter()
                .chain([
                    value(f.reference),
                    value(f.candidate),
                    change_text(f.change_pct),
                    f.verdict.as_str().to_string(),
                    f.reason(),
                ]),
        );
    }
    writeln!(w, "{}", t.terminal(false))?;
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
    fn lines(&self) -> Vec<ReportLine> {
        let text = |m: Metric, v: Option<f64>| {
            v.map_or_else(|| numbers::MISSING.to_string(), |v| value_text(m, v))
        };
        self.findings
            .iter()
            .map(|f| ReportLine {
                workload: format!("{} [{}]", f.workload.title, f.config),
                metric: f.metric.key().to_string(),
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
    fn markdown_keeps_a_pipe_inside_its_cell() {
        let runs: Vec<StoredRun> = (1..=3)
            .map(|seq| StoredRun {
                meta: RunMeta {
                    id: format!("r{seq}"),
                    commit: None,
                    time: "2026-12-01T08:30:00Z".into(),
                    seq,
                },
                rows: matrix_run(seq, 7),
            })
            .collect();
        let mut report = show_report(&runs, &ShowOptions::default());
        report.series[0].config = "nvme|raid0".into();
        let mut out = Vec::new();
        show(&report, ShowFormat::Md, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        // Raw, the pipe would split the row into one cell too many.
        assert!(text.contains("| nvme\\|raid0 |"), "{text}");
        let row = text.lines().find(|l| l.contains("raid0")).unwrap();
        assert_eq!(row.matches(" | ").count(), 5, "{row}");
    }

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
