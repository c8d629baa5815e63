//! Terminal tables (comfy-table): one table per workload, metrics as rows,
//! configs as columns. The winner is marked `*` (and bold with colors),
//! configs tied for best `=`; deltas against the baseline in parentheses.
//! A sweep is one table, load points as rows, each cell `IOPS · mean ·
//! p99`, each value marked; then a line per config (peak, knee, IOPS at
//! the latency target) and, for iodepth x numjobs sweeps, a grid per config.
//! A block-size sweep is a table of its own, block sizes as rows, each cell
//! `bandwidth · IOPS`, then a line per config.

use std::io::Write;

use super::Renderer;
use super::bs_sweep_view::BsSweepView;
use super::sweep_view::{GridView, SweepCellView, SweepView};
use super::table::{Cell, Table, Tone, terminal_text};
use super::view::{CellView, View, WorkloadView};
use crate::compare::Comparison;

pub struct Term {
    pub color: bool,
}

impl Renderer for Term {
    /// Every line escaped for the terminal at the end ([`terminal_text`]):
    /// names and reasons read from files carry no control sequence to it.
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()> {
        let mut buf = Vec::new();
        self.render_raw(cmp, &mut buf)?;
        let text = String::from_utf8_lossy(&buf);
        out.write_all(terminal_text(&text, self.color).as_bytes())?;
        Ok(())
    }
}

impl Term {
    fn render_raw(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()> {
        let view = View::new(cmp, &[]);
        setup(cmp, &view, out)?;
        for g in &view.groups {
            for w in &g.workloads {
                self.workload(&view, w, out)?;
            }
            for s in &g.sweeps {
                self.sweep(&view, s, out)?;
            }
        }
        for b in &view.bs_sweeps {
            self.bs_sweep(&view, b, out)?;
        }
        self.devices(&view, out)?;
        footer(&view, out)
    }
}

fn mark(c: &CellView) -> &'static str {
    if c.winner {
        " *"
    } else if c.tied {
        " ="
    } else {
        ""
    }
}

impl Term {
    fn table(&self, header: Vec<Cell>) -> Table {
        Table::new(header)
    }

    fn config_header(&self, first: &str, view: &View, configs: &[String]) -> Vec<Cell> {
        let mut header = vec![Cell::new(first)];
        header.extend(configs.iter().map(|c| {
            // A baseline is what the others are measured against: not with one.
            if view.configs.len() > 1 && view.baseline.as_deref() == Some(c.as_str()) {
                Cell::new(format!("{c} (baseline)"))
            } else {
                Cell::new(c)
            }
        }));
        header
    }

    fn value(&self, text: String, best: bool) -> Cell {
        let cell = Cell::right(text);
        if best { cell.tone(Tone::Best) } else { cell }
    }

    fn workload(&self, view: &View, w: &WorkloadView, out: &mut dyn Write) -> anyhow::Result<()> {
        writeln!(out, "{}", w.title)?;
        let mut t = self.table(self.config_header("", view, &view.configs));
        for r in &w.rows {
            let mut cells = vec![Cell::new(&r.title)];
            for c in &r.cells {
                let delta = if c.delta.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", c.delta)
                };
                cells.push(self.value(format!("{}{}{delta}", c.text, mark(c)), c.best));
            }
            t.row(cells);
        }
        writeln!(out, "{}", t.terminal(self.color))?;
        for line in w.ties.iter().chain(&w.footnotes).chain(&w.notes) {
            writeln!(out, "  {line}")?;
        }
        writeln!(out)?;
        Ok(())
    }

    fn sweep(&self, view: &View, s: &SweepView, out: &mut dyn Write) -> anyhow::Result<()> {
        writeln!(out, "{}: {} sweep", s.title, s.axis)?;
        let unit = match s.lat_unit.as_str() {
            "" => ", each with its unit".to_string(),
            u => format!(" ({u})"),
        };
        writeln!(
            out,
            "  each cell: IOPS · mean latency · {} latency{unit}",
            s.tail
        )?;
        let mut t = self.table(self.config_header("Load", view, &s.configs));
        for r in &s.rows {
            let mut cells = vec![Cell::new(&r.load)];
            cells.extend(
                r.cells
                    .iter()
                    .map(|c| self.value(sweep_cell(c), c.iops.best)),
            );
            t.row(cells);
        }
        writeln!(out, "{}", t.terminal(self.color))?;
        for line in s.summaries.iter().map(|x| &x.line).chain(&s.notes) {
            writeln!(out, "  {line}")?;
        }
        writeln!(out)?;
        for g in &s.grids {
            self.grid(s, g, out)?;
        }
        Ok(())
    }

    fn grid(&self, s: &SweepView, g: &GridView, out: &mut dyn Write) -> anyhow::Result<()> {
        writeln!(
            out,
            "{}: {} IOPS by queue depth and numjobs",
            s.title, g.config
        )?;
        let mut header = vec![Cell::new("iodepth \\ numjobs")];
        header.extend(g.numjobs.iter().map(Cell::new));
        let mut t = self.table(header);
        for r in &g.rows {
            let mut cells = vec![Cell::new(format!("QD{}", r.iodepth))];
            for c in &r.cells {
                let text = if c.peak {
                    format!("{} peak", c.text)
                } else {
                    c.text.clone()
                };
                cells.push(self.value(text, c.peak));
            }
            t.row(cells);
        }
        writeln!(out, "{}\n", t.terminal(self.color))?;
        Ok(())
    }
}

impl Term {
    /// One rw at one load point by block size: bandwidth and IOPS per
    /// config, its peak marked, then a line per config.
    fn bs_sweep(&self, view: &View, b: &BsSweepView, out: &mut dyn Write) -> anyhow::Result<()> {
        writeln!(out, "{}: block-size sweep", b.title)?;
        writeln!(
            out,
            "  each cell: bandwidth ({}) · IOPS; peak = the config's most bandwidth",
            b.bw_unit
        )?;
        let mut t = self.table(self.config_header("Block size", view, &b.configs));
        for r in &b.rows {
            let mut cells = vec![Cell::new(&r.bs)];
            cells.extend(r.cells.iter().map(|c| {
                let peak = if c.peak { " peak" } else { "" };
                self.value(format!("{} · {}{peak}", c.bw, c.iops), c.peak)
            }));
            t.row(cells);
        }
        writeln!(out, "{}", t.terminal(self.color))?;
        for line in &b.summaries {
            writeln!(out, "  {line}")?;
        }
        writeln!(out)?;
        Ok(())
    }

    /// The per-device tables of test beds, a section of their own.
    fn devices(&self, view: &View, out: &mut dyn Write) -> anyhow::Result<()> {
        for d in &view.devices {
            writeln!(out, "Devices, {}", d.title)?;
            let mut t = self.table(d.header.iter().map(Cell::new).collect());
            for r in &d.rows {
                let mark = if r.flagged { " !" } else { "" };
                let off = format!(
                    "{}{}",
                    r.off,
                    if r.error.is_empty() { "" } else { &r.error }
                );
                t.row(vec![
                    Cell::new(format!("{}{mark}", r.target)),
                    self.value(r.iops.clone(), false),
                    self.value(r.bw.clone(), false),
                    self.value(r.lat.clone(), false),
                    self.value(off, r.flagged),
                ]);
            }
            writeln!(out, "{}", t.terminal(self.color))?;
            writeln!(out, "  {}\n", d.summary)?;
        }
        Ok(())
    }
}

/// `306,000 * · 0.418 * · 0.837 *`, with `(ran at QD1)` where the config
/// ran at another depth (as Markdown and HTML say it; `†` marks an
/// excluded value).
fn sweep_cell(c: &SweepCellView) -> String {
    if c.missing {
        return crate::numbers::MISSING.into();
    }
    let mut parts = vec![
        format!("{}{}", c.iops.text, mark(&c.iops)),
        format!("{}{}", c.lat_mean.text, mark(&c.lat_mean)),
    ];
    if let Some(p) = &c.clat_p99 {
        parts.push(format!("{}{}", p.text, mark(p)));
    }
    let mut text = parts.join(" · ");
    if !c.ran_at.is_empty() {
        text.push_str(&format!(" (ran at {})", c.ran_at));
    }
    text
}

/// The manifest's title, if it gives one, and a compact setup, one line
/// per item.
fn setup(cmp: &Comparison, view: &View, out: &mut dyn Write) -> anyhow::Result<()> {
    if let Some(title) = &cmp.setup.title {
        writeln!(out, "{}\n", one_line(title))?;
    }
    if view.setup.is_empty() {
        return Ok(());
    }
    writeln!(out, "Setup:")?;
    for line in view.setup.compact() {
        writeln!(out, "  {}", one_line(&line))?;
    }
    if let Some(rule) = &view.setup.rule {
        writeln!(out, "  {}", one_line(rule))?;
    }
    writeln!(out)?;
    Ok(())
}

/// A value read from files on one line: a line break in it (a fio version
/// string, a CPU model) is shown as `\n`, as [`terminal_text`] shows the
/// other control characters, so it cannot forge lines of the report.
fn one_line(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains('\n') {
        s.replace('\n', "\\n").into()
    } else {
        s.into()
    }
}

fn footer(view: &View, out: &mut dyn Write) -> anyhow::Result<()> {
    // One config is compared with nothing: no marks, no legend.
    if view.configs.len() > 1 {
        writeln!(
            out,
            "* best   = tied for best (within rounding or not significant)"
        )?;
    }
    for f in &view.footnotes {
        writeln!(out, "note: {f}")?;
    }
    if view.key_findings.is_empty() {
        if !view.more_findings.is_empty() {
            writeln!(out, "\nFindings:")?;
        }
        for h in &view.more_findings {
            writeln!(out, "  - {h}")?;
        }
    } else {
        writeln!(out, "\nKey findings:")?;
        for (i, h) in view.key_findings.iter().enumerate() {
            writeln!(out, "  {}. {h}", i + 1)?;
        }
        if !view.more_findings.is_empty() {
            writeln!(
                out,
                "  ({} more: --findings 0 lists them all, --format md puts them in the report)",
                view.more_findings.len()
            )?;
        }
    }
    for s in &view.sanity {
        writeln!(out, "check: {s}")?;
    }
    Ok(())
}
