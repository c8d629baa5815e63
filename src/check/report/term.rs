//! The terminal table: what regressed, by how much, which rule decided.

use std::io::Write;

use comfy_table::{Cell, Color, ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};

use super::{CheckRenderer, format_change, format_values, shown};
use crate::check::threshold::metric_name;
use crate::check::{CheckReport, Verdict};

pub struct CheckTerm {
    /// Only the findings that fail the check (`--quiet`).
    pub only_failures: bool,
    pub color: bool,
}

impl CheckRenderer for CheckTerm {
    fn render(&self, report: &CheckReport, out: &mut dyn Write) -> anyhow::Result<()> {
        let rows: Vec<_> = shown(report, self.only_failures).collect();
        if !rows.is_empty() {
            let mut t = Table::new();
            t.load_preset(UTF8_FULL_CONDENSED)
                .set_content_arrangement(ContentArrangement::Disabled)
                .set_header([
                    "workload",
                    "metric",
                    "baseline",
                    "candidate",
                    "change",
                    "verdict",
                    "rule",
                ]);
            if !self.color {
                t.force_no_tty();
            }
            for f in rows {
                let mut verdict = Cell::new(f.verdict.as_str());
                if self.color {
                    verdict = match (f.verdict, f.fails) {
                        (_, true) => verdict.fg(Color::Red),
                        (Verdict::Improvement, _) => verdict.fg(Color::Green),
                        _ => verdict,
                    };
                }
                let [baseline, candidate] = format_values(f);
                t.add_row(vec![
                    Cell::new(f.workload()),
                    Cell::new(metric_name(f.metric)),
                    Cell::new(baseline),
                    Cell::new(candidate),
                    Cell::new(format_change(f)),
                    verdict,
                    Cell::new(f.reason()),
                ]);
            }
            writeln!(out, "{t}")?;
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
