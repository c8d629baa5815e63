//! history.html: one self-contained page from `templates/history.html.j2`.

use std::io::Write;

use serde::Serialize;

use super::{change_text, p_text, summary_line, value_text};
use crate::compare::Metric;
use crate::history::show::{HistoryReport, SeriesReport};

/// history.html's template: one self-contained page, no script, nothing
/// fetched (its Content-Security-Policy allows only inline styles and
/// `data:` fonts).
pub const HTML_TEMPLATE: &str = include_str!("../../../templates/history.html.j2");

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
