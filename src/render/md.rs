//! Markdown: article-ready tables from `templates/report.md.j2`. Every
//! table is a [`Table`] written by [`table::Markdown`] (one escaper, one
//! layout), set into the view for the template to insert, as
//! [`super::html`] does for HTML.

use std::io::Write;

use super::bs_sweep_view::BsSweepView;
use super::cell::CellView;
use super::devices_view::DeviceTableView;
use super::setup_view::SetupView;
use super::sweep_view::{GridView, SweepCellView, SweepView};
use super::table::{self, Cell, Inline, Table, Tone};
use super::view::{View, WorkloadView};
use super::view_tables::ViewTables;
use super::{Renderer, template};
use crate::compare::Comparison;

pub const BUILTIN: &str = include_str!("../../templates/report.md.j2");

pub struct MarkdownReport {
    /// Replaces the built-in template.
    pub template: Option<String>,
    /// Chart paths relative to the report, linked as images.
    pub charts: Vec<String>,
}

impl Renderer for MarkdownReport {
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()> {
        let source = self.template.as_deref().unwrap_or(BUILTIN);
        let mut view = View::new(cmp, &self.charts);
        table::Markdown.set_tables(&mut view);
        template::render(source, &view, false, out)
    }
}

impl ViewTables for table::Markdown {
    /// What every config shares: a fact a row.
    fn shared_table(s: &SetupView) -> Table {
        let mut t = Table::new(["", "All configs"]);
        for i in &s.shared {
            t.row([&i.name, &i.value].map(Cell::new));
        }
        t
    }

    /// What differs: a fact a row, a column per config.
    fn differing_table(s: &SetupView) -> Table {
        let mut t = Table::new(std::iter::once(String::new()).chain(s.configs.iter().cloned()));
        for i in &s.differing {
            t.row(std::iter::once(&i.name).chain(&i.values).map(Cell::new));
        }
        t
    }

    /// A workload: a row per metric, a column per config.
    fn workload_table(w: &WorkloadView, configs: &[String]) -> Table {
        let mut t = Table::new(config_header("", configs));
        for r in &w.rows {
            let values = r
                .cells
                .iter()
                .map(|c| Cell::right("").parts(vec![value(c)]));
            t.row(std::iter::once(Cell::new(&r.title)).chain(values));
        }
        t
    }

    /// A sweep: a row per load point, a column per config.
    fn sweep_table(s: &SweepView) -> Table {
        let mut t = Table::new(config_header("Load", &s.configs));
        for r in &s.rows {
            let cells = r.cells.iter().map(sweep_cell);
            t.row(std::iter::once(Cell::new(&r.load)).chain(cells));
        }
        t
    }

    /// A config's IOPS over queue depth (rows) and numjobs (columns), its
    /// peak in bold.
    fn grid_table(g: &GridView) -> Table {
        let header = std::iter::once(Cell::new("iodepth ↓ numjobs →"))
            .chain(g.numjobs.iter().map(Cell::right));
        let mut t = Table::new(header);
        for r in &g.rows {
            let cells = r.cells.iter().map(|c| {
                let cell = Cell::right(&c.text);
                match c.peak {
                    true => cell.parts(peak(&c.text, "")),
                    false => cell,
                }
            });
            let label = Cell::new(format!("QD{}", r.iodepth));
            t.row(std::iter::once(label).chain(cells));
        }
        t
    }

    /// An rw at one load point by block size: bandwidth · IOPS per config,
    /// its peak bandwidth in bold.
    fn bs_sweep_table(b: &BsSweepView) -> Table {
        let mut t = Table::new(config_header("Block size", &b.configs));
        for r in &b.rows {
            let cells = r.cells.iter().map(|c| {
                let rest = format!(" · {}", c.iops);
                match c.peak {
                    true => Cell::right("").parts(peak(&c.bw, &rest)),
                    false => Cell::right(format!("{}{rest}", c.bw)),
                }
            });
            t.row(std::iter::once(Cell::new(&r.bs)).chain(cells));
        }
        t
    }

    /// A test bed's targets, a row each; a flagged target in bold.
    fn device_table(d: &DeviceTableView) -> Table {
        let header = d.header.iter().enumerate().map(|(i, h)| match i {
            0 => Cell::new(h),
            _ => Cell::right(h),
        });
        let mut t = Table::new(header);
        for r in &d.rows {
            let tone = if r.flagged { Tone::Best } else { Tone::Plain };
            let off = match r.error.is_empty() {
                true => r.off.clone(),
                false => format!("{} {}", r.off, r.error),
            };
            t.row([
                Cell::new(&r.target).tone(tone),
                Cell::right(&r.iops),
                Cell::right(&r.bw),
                Cell::right(&r.lat),
                Cell::right(off),
            ]);
        }
        t
    }
}

/// A value in bold where it is its row's best or tied for it.
fn value(c: &CellView) -> Inline {
    Inline::toned(&c.text, if c.best { Tone::Best } else { Tone::Plain })
}

/// A header of a first column and a right-aligned column per config.
fn config_header(first: &str, configs: &[String]) -> Vec<Cell> {
    std::iter::once(Cell::new(first))
        .chain(configs.iter().map(Cell::right))
        .collect()
}

/// `IOPS · mean · p99`, each value in bold where best, and where the
/// config ran at another depth than the row's, `(ran at QD1)`.
fn sweep_cell(c: &SweepCellView) -> Cell {
    if c.missing {
        return Cell::right(crate::numbers::MISSING);
    }
    let mut parts = vec![value(&c.iops), Inline::text(" · "), value(&c.lat_mean)];
    if let Some(p99) = &c.clat_p99 {
        parts.extend([Inline::text(" · "), value(p99)]);
    }
    if !c.ran_at.is_empty() {
        parts.push(Inline::text(format!(" (ran at {})", c.ran_at)));
    }
    Cell::right("").parts(parts)
}

/// A peak value in bold, what follows it plain, then `(peak)`.
fn peak(bold: &str, rest: &str) -> Vec<Inline> {
    vec![
        Inline::toned(bold, Tone::Best),
        Inline::text(format!("{rest} (peak)")),
    ]
}
