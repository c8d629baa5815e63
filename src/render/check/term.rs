//! The terminal table: what regressed, by how much, which rule decided.

use std::io::Write;

use super::{CheckRenderer, format_change, format_values, shown};
use crate::check::{CheckReport, Verdict};
use crate::render::table::{Cell, Table, Tone};

pub struct CheckTerm {
    /// Only the findings that fail the check (`--quiet`).
    pub only_failures: bool,
    pub color: bool,
}

impl CheckRenderer for CheckTerm {
    /// Escaped for the terminal at the end, as `analyze`'s report.
    fn render(&self, report: &CheckReport, out: &mut dyn Write) -> anyhow::Result<()> {
        let mut buf = Vec::new();
        self.render_raw(report, &mut buf)?;
        let text = String::from_utf8_lossy(&buf);
        out.write_all(crate::render::table::terminal_text(&text, self.color).as_bytes())?;
        Ok(())
    }
}

impl CheckTerm {
    fn render_raw(&self, report: &CheckReport, out: &mut dyn Write) -> anyhow::Result<()> {
        let rows: Vec<_> = shown(report, self.only_failures).collect();
        if !rows.is_empty() {
            let mut t = Table::new([
                "workload",
                "metric",
                "baseline",
                "candidate",
                "change",
                "verdict",
                "rule",
            ]);
            for f in rows {
                let tone = match (f.verdict, f.fails) {
                    (_, true) => Tone::Bad,
                    (Verdict::Improvement, _) => Tone::Good,
                    _ => Tone::Plain,
                };
                let [baseline, candidate] = format_values(f);
                t.row([
                    Cell::new(f.workload()),
                    Cell::new(&*f.key),
                    Cell::new(baseline),
                    Cell::new(candidate),
                    Cell::new(format_change(f)),
                    Cell::new(f.verdict.as_str()).tone(tone),
                    Cell::new(f.reason()),
                ]);
            }
            writeln!(out, "{}", t.terminal(self.color))?;
        }
        if !self.only_failures {
            writeln!(out, "{}", report.summary_line())?;
            if let Some(note) = report.caution() {
                writeln!(out, "{note}")?;
            }
        }
        Ok(())
    }
}
