//! `--markdown FILE` and the GitHub step summary: a headline with the
//! status, the failing findings first, then a collapsed table of all.

use std::io::Write;

use super::{CheckRenderer, Outcome, ReportLine};
use crate::check::{CheckReport, Status};
use crate::render::table::{Cell, Markdown, Markup, Table, Tone, escape};

pub struct CheckMarkdown;

impl CheckRenderer for CheckMarkdown {
    fn render(&self, report: &CheckReport, out: &mut dyn Write) -> anyhow::Result<()> {
        self.write(report, out)
    }
}

impl CheckMarkdown {
    /// Any gate's outcome (`check`, `check --history`) as Markdown.
    pub fn write(&self, report: &dyn Outcome, out: &mut dyn Write) -> anyhow::Result<()> {
        let icon = match report.status() {
            Status::Pass => "✅",
            Status::Fail => "❌",
            Status::Error => "⛔",
        };
        // The summary names unreadable files: text from data, escaped.
        writeln!(
            out,
            "## {icon} nvcmp check: {}\n",
            escape(&report.summary_line())
        )?;
        let lines = report.lines();
        let failing: Vec<&ReportLine> = lines.iter().filter(|f| f.fails).collect();
        if !failing.is_empty() {
            table(out, &failing)?;
            writeln!(out)?;
        }
        if let Some(note) = report.caution() {
            writeln!(out, "> {}\n", escape(&note))?;
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
            writeln!(
                out,
                "- skipped {}: {}",
                escape(&s.source),
                escape(&s.reason)
            )?;
        }
        for w in report.warnings() {
            writeln!(
                out,
                "- warning {}: {}",
                escape(&w.source),
                escape(&w.message)
            )?;
        }
        Ok(())
    }
}

fn table(out: &mut dyn Write, lines: &[&ReportLine]) -> std::io::Result<()> {
    let mut t = Table::new([
        Cell::new("workload"),
        Cell::new("metric"),
        Cell::right("baseline"),
        Cell::right("candidate"),
        Cell::right("change"),
        Cell::new("verdict"),
        Cell::new("rule"),
    ]);
    for f in lines {
        let verdict = Cell::new(f.verdict.as_str());
        t.row([
            Cell::new(&f.workload),
            Cell::new(f.metric.as_str()),
            Cell::new(&f.baseline),
            Cell::new(&f.candidate),
            Cell::new(&f.change),
            if f.fails {
                verdict.tone(Tone::Bad)
            } else {
                verdict
            },
            Cell::new(&f.reason),
        ]);
    }
    out.write_all(Markdown.table(&t).as_bytes())
}
