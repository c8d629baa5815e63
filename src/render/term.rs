//! Terminal tables (comfy-table): one table per workload, metrics as rows,
//! configs as columns. The winner is marked `*` (and bold with colors),
//! configs tied for best `=`; deltas against the baseline in parentheses.

use std::io::Write;

use comfy_table::presets::UTF8_FULL_CONDENSED;
use comfy_table::{Attribute, Cell, CellAlignment, ContentArrangement, Table};

use super::Renderer;
use super::view::View;
use crate::compare::Comparison;

pub struct Term {
    pub color: bool,
}

impl Renderer for Term {
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()> {
        let view = View::new(cmp, &[]);
        for g in &view.groups {
            for w in &g.workloads {
                writeln!(out, "{}", w.title)?;
                let mut t = Table::new();
                t.load_preset(UTF8_FULL_CONDENSED)
                    .set_content_arrangement(ContentArrangement::Disabled);
                if !self.color {
                    t.force_no_tty();
                }
                let mut header = vec![Cell::new("")];
                header.extend(view.configs.iter().map(|c| {
                    let name = if view.baseline.as_deref() == Some(c.as_str()) {
                        format!("{c} (baseline)")
                    } else {
                        c.clone()
                    };
                    Cell::new(name)
                }));
                t.set_header(header);
                for r in &w.rows {
                    let mut cells = vec![Cell::new(&r.title)];
                    for c in &r.cells {
                        let mark = if c.winner {
                            " *"
                        } else if c.tied {
                            " ="
                        } else {
                            ""
                        };
                        let delta = if c.delta.is_empty() {
                            String::new()
                        } else {
                            format!(" ({})", c.delta)
                        };
                        let mut cell = Cell::new(format!("{}{mark}{delta}", c.text))
                            .set_alignment(CellAlignment::Right);
                        if self.color && c.best {
                            cell = cell.add_attribute(Attribute::Bold);
                        }
                        cells.push(cell);
                    }
                    t.add_row(cells);
                }
                writeln!(out, "{t}")?;
                for line in w.ties.iter().chain(&w.notes) {
                    writeln!(out, "  {line}")?;
                }
                writeln!(out)?;
            }
        }
        writeln!(
            out,
            "* best   = tied for best (within rounding or not significant)"
        )?;
        for f in &view.footnotes {
            writeln!(out, "note: {f}")?;
        }
        if !view.highlights.is_empty() {
            writeln!(out, "\nHighlights:")?;
            for h in &view.highlights {
                writeln!(out, "  - {h}")?;
            }
        }
        for s in &view.sanity {
            writeln!(out, "check: {s}")?;
        }
        Ok(())
    }
}
