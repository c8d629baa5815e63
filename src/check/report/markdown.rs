//! `--markdown FILE` and the GitHub step summary: a headline with the
//! status, the failing findings first, then a collapsed table of all.

use std::io::Write;

use super::{CheckRenderer, Line, Outcome};
use crate::check::{CheckReport, Status};

pub struct CheckMarkdown;

impl CheckRenderer for CheckMarkdown {
    fn render(&self, report: &CheckReport, out: &mut dyn Write) -> anyhow::Result<()> {
        self.write(report, out)
    }
}

impl CheckMarkdown {
    /// Any gate's outcome (`check`, `check --history`) as CheckMarkdown.
    pub fn write(&self, report: &dyn Outcome, out: &mut dyn Write) -> anyhow::Result<()> {
        let icon = match report.status() {
            Status::Pass => "✅",
            Status::Fail => "❌",
            Status::Error => "⛔",
        };
        writeln!(out, "## {icon} nvcmp check: {}\n", report.summary_line())?;
        let lines = report.lines();
        let failing: Vec<&Line> = lines.iter().filter(|f| f.fails).collect();
        if !failing.is_empty() {
            table(out, &failing)?;
            writeln!(out)?;
        }
        if let Some(note) = report.caution() {
            writeln!(out, "> {note}\n")?;
        }
        if !lines.is_empty() {
            writeln!(
                out,
                "<details><summary>All {} checks</summary>\n",
                lines.len()
            )?;
            table(out, &lines.iter().collect::<Vec<_>>())?;
            writeln!(out, "\n</details>\n")?;
        }
        for s in report.skipped() {
            writeln!(out, "- skipped `{}`: {}", s.source, cell(&s.reason))?;
        }
        for w in report.warnings() {
            writeln!(out, "- warning `{}`: {}", w.source, cell(&w.message))?;
        }
        Ok(())
    }
}

fn table(out: &mut dyn Write, lines: &[&Line]) -> std::io::Result<()> {
    writeln!(
        out,
        "| workload | metric | baseline | candidate | change | verdict | rule |"
    )?;
    writeln!(out, "| --- | --- | ---: | ---: | ---: | --- | --- |")?;
    for f in lines {
        let verdict = if f.fails {
            format!("**{}**", f.verdict.as_str())
        } else {
            f.verdict.as_str().to_string()
        };
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            cell(&f.workload),
            f.metric,
            f.baseline,
            f.candidate,
            f.change,
            verdict,
            cell(&f.reason)
        )?;
    }
    Ok(())
}

/// Keeps a table cell on one line and its pipes literal.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}
