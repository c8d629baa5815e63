//! history.html: one self-contained page from `templates/history.html.j2`.

use std::io::Write;

use serde::Serialize;

use super::{change_text, p_text, summary_line, value_text};
use crate::compare::Metric;
use crate::history::show::HistoryReport;
use crate::render::table::{Cell, Html, Inline, Markup, Table};

/// history.html's template: one self-contained page, no script, nothing
/// fetched (its Content-Security-Policy allows only inline styles and
/// `data:` fonts).
pub const HTML_TEMPLATE: &str = include_str!("../../../templates/history.html.j2");

/// What history.html shows; the tables are written by
/// [`crate::render::table::Html`], every other text escaped by the template.
#[derive(Serialize)]
struct Page {
    title: &'static str,
    summary: String,
    font_css: String,
    /// Empty without a change point.
    change_points: String,
    series: String,
    charts: Vec<ChartSection>,
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
        change_points: change_table(report).map_or(String::new(), |t| Html.table(&t)),
        series: Html.table(&series_table(report)),
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

/// A row per change point, coloured by its `regression` or `improvement`
/// class; none without one.
fn change_table(report: &HistoryReport) -> Option<Table> {
    let header = [
        "workload", "config", "metric", "run", "commit", "before", "after", "change", "p-value",
    ];
    let mut t = Table::new(header);
    for s in &report.series {
        for c in &s.change_points {
            let kind = if c.regression {
                "regression"
            } else {
                "improvement"
            };
            let commit = c.commit.iter().map(|c| Inline::tag("code", c)).collect();
            t.row_with(
                vec![("class", kind.to_string())],
                [
                    Cell::new(&s.workload.title),
                    Cell::new(&s.config),
                    Cell::new(s.metric.key()),
                    Cell::new(&c.run).parts(vec![Inline::tag("code", &c.run)]),
                    Cell::new(c.commit.as_deref().unwrap_or_default()).parts(commit),
                    Cell::right(value_text(s.metric, c.before_mean)),
                    Cell::right(value_text(s.metric, c.after_mean)),
                    Cell::right(change_text(c.change_pct)).class("change"),
                    Cell::right(p_text(c.p_value)),
                ],
            );
        }
    }
    (!t.rows.is_empty()).then_some(t)
}

/// A row per series: its runs, first and latest values, change points.
fn series_table(report: &HistoryReport) -> Table {
    let header = [
        "workload",
        "config",
        "metric",
        "runs",
        "first",
        "latest",
        "change points",
    ];
    let mut t = Table::new(header);
    for s in &report.series {
        let value = |p: Option<&crate::history::trend::Point>| {
            p.map_or_else(String::new, |p| value_text(s.metric, p.value))
        };
        t.row([
            Cell::new(&s.workload.title),
            Cell::new(&s.config),
            Cell::new(s.metric.key()),
            Cell::right(s.runs.len()),
            Cell::right(value(s.runs.first())),
            Cell::right(value(s.runs.last())),
            Cell::right(s.change_points.len()),
        ]);
    }
    t
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
