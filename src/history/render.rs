//! `history show` and `check --history` for people and machines: terminal
//! tables, Markdown, JSON. Renderers write to a `Write`; they never print.
//! Values are scaled and formatted by each metric's own rules
//! ([`crate::compare::Metric::scale`]).

use std::io::Write;

use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};

use super::gate::GateReport;
use super::show::{Report, SeriesReport};
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
pub fn show(report: &Report, format: ShowFormat, w: &mut dyn Write) -> anyhow::Result<()> {
    match format {
        ShowFormat::Json => {
            serde_json::to_writer_pretty(&mut *w, report)?;
            writeln!(w)?;
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

/// `30 runs, 24 series, 1 change point (E-Divisive means, t-test p < 0.001, ...)`.
fn summary_line(report: &Report) -> String {
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
    pct.map_or_else(
        || format::MISSING.to_string(),
        |p| format!("{} %", format::signed(p, 1)),
    )
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

fn series_table(report: &Report, markdown: bool) -> String {
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
            s.title.clone(),
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
            f.title.clone(),
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
