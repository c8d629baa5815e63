//! `--markdown FILE` and the GitHub step summary: a headline with the
//! status, the failing findings first, then a collapsed table of all.

use std::io::Write;

use super::{CheckRenderer, format_change, format_values};
use crate::check::threshold::metric_name;
use crate::check::{Finding, Report, Status};

pub struct Markdown;

impl CheckRenderer for Markdown {
    fn render(&self, report: &Report, out: &mut dyn Write) -> anyhow::Result<()> {
        let icon = match report.status() {
            Status::Pass => "✅",
            Status::Fail => "❌",
            Status::Error => "⛔",
        };
        writeln!(out, "## {icon} nvcmp check: {}\n", report.summary_line())?;
        let failing: Vec<&Finding> = report.findings.iter().filter(|f| f.fails).collect();
        if !failing.is_empty() {
            table(out, &failing)?;
            writeln!(out)?;
        }
        if let Some(note) = report.caution() {
            writeln!(out, "> {note}\n")?;
        }
        if !report.findings.is_empty() {
            writeln!(
                out,
                "<details><summary>All {} checks</summary>\n",
                report.findings.len()
            )?;
            table(out, &report.findings.iter().collect::<Vec<_>>())?;
            writeln!(out, "\n</details>\n")?;
        }
        for s in &report.skipped {
            writeln!(out, "- skipped `{}`: {}", s.source, cell(&s.reason))?;
        }
        for w in &report.warnings {
            writeln!(out, "- warning `{}`: {}", w.source, cell(&w.message))?;
        }
        Ok(())
    }
}

fn table(out: &mut dyn Write, findings: &[&Finding]) -> std::io::Result<()> {
    writeln!(
        out,
        "| workload | metric | baseline | candidate | change | verdict | rule |"
    )?;
    writeln!(out, "| --- | --- | ---: | ---: | ---: | --- | --- |")?;
    for f in findings {
        let verdict = if f.fails {
            format!("**{}**", f.verdict.as_str())
        } else {
            f.verdict.as_str().to_string()
        };
        let [baseline, candidate] = format_values(f);
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            cell(&f.workload()),
            metric_name(f.metric),
            baseline,
            candidate,
            format_change(f),
            verdict,
            cell(&f.reason())
        )?;
    }
    Ok(())
}

/// Keeps a table cell on one line and its pipes literal.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}
