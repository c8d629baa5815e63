//! HTML: one self-contained file from `templates/report.html.j2`: inline
//! CSS and a small inline script (sortable tables, configs shown and
//! hidden), charts inline as SVG; nothing is fetched from anywhere. Every
//! value is HTML-escaped. Every table is a [`Table`] written by
//! [`table::Html`], set into the view for the template to insert.

use std::io::Write;

use super::bs_sweep_view::BsSweepView;
use super::devices_view::DeviceTableView;
use super::setup_view::SetupView;
use super::sweep_view::{GridView, SweepCellView, SweepView};
use super::table::{self, Cell, Inline, Table, Tone};
use super::view::{View, WorkloadView};
use super::view_tables::ViewTables;
use super::{Renderer, template};
use crate::compare::Comparison;

pub const BUILTIN: &str = include_str!("../../templates/report.html.j2");

pub struct HtmlReport {
    /// Replaces the built-in template.
    pub template: Option<String>,
    /// Chart paths or `data:` URIs, one `<img>` each.
    pub charts: Vec<String>,
    /// SVG charts (from [`crate::charts::svg_all`]) to inline.
    pub svgs: Vec<String>,
    /// Their `@font-face` rules, once for the page.
    pub font_css: String,
}

impl Renderer for HtmlReport {
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()> {
        let source = self.template.as_deref().unwrap_or(BUILTIN);
        let mut view = View::new(cmp, &self.charts);
        table::Html.set_tables(&mut view);
        view.svgs = self.svgs.iter().map(|s| inline_svg(s)).collect();
        if !view.svgs.is_empty() {
            view.font_css = self.font_css.clone();
        }
        template::render(source, &view, true, out)
    }
}

impl ViewTables for table::Html {
    /// What every config shares: a fact a row.
    fn shared_table(s: &SetupView) -> Table {
        let mut t = Table::new(["", "All configs"]).attr("class", "setup");
        for i in &s.shared {
            let value = Cell::new(&i.value);
            let value = match i.full.as_str() {
                "" => value,
                full => value.attr("title", full),
            };
            t.row([Cell::new(&i.name).head(), value]);
        }
        t
    }

    /// What differs: a fact a row, a column per config, neighbours with the
    /// same value merged into one cell.
    fn differing_table(s: &SetupView) -> Table {
        let header = std::iter::once(String::new()).chain(s.configs.iter().cloned());
        let mut t = Table::new(header).attr("class", "setup per-config");
        for i in &s.differing {
            let runs = i.runs.iter().map(|r| {
                let cell = Cell::new(&r.text).span(r.span);
                let cell = match r.full.as_str() {
                    "" => cell,
                    full => cell.attr("title", full),
                };
                if r.unknown {
                    cell.class("unknown")
                } else {
                    cell
                }
            });
            t.row(std::iter::once(Cell::new(&i.name).head()).chain(runs));
        }
        t
    }

    /// A workload: a row per config, a column per metric; each value with
    /// its delta against the baseline under it.
    fn workload_table(w: &WorkloadView, configs: &[String]) -> Table {
        let header = std::iter::once(column("Config")).chain(w.rows.iter().map(|r| {
            column(&r.title)
                .attr("data-key", &r.metric)
                .attr("data-better", r.better.as_str())
        }));
        let mut t = Table::new(header).attr("class", "sortable");
        for (i, config) in configs.iter().enumerate() {
            let values = w.rows.iter().map(|r| {
                let c = &r.cells[i];
                let mut parts = vec![Inline::text(&c.text)];
                if !c.delta.is_empty() {
                    parts.push(Inline::span("delta", vec![Inline::text(&c.delta)]));
                }
                Cell::right(&c.text).tone(c.tone()).parts(parts)
            });
            let attrs = vec![("data-config", config.clone())];
            t.row_with(
                attrs,
                std::iter::once(Cell::new(config).head()).chain(values),
            );
        }
        t
    }

    /// A sweep: a row per load point, a column per config.
    fn sweep_table(s: &SweepView) -> Table {
        let header = std::iter::once(column("Load")).chain(s.configs.iter().map(|c| {
            column(c)
                .attr("data-config", c)
                .attr("data-better", "higher")
        }));
        let mut t = Table::new(header).attr("class", "sortable");
        for r in &s.rows {
            let cells = r.cells.iter().map(|c| sweep_cell(c, &s.lat_unit));
            t.row(std::iter::once(Cell::new(&r.load).head()).chain(cells));
        }
        t
    }

    /// A config's IOPS over queue depth (rows) and numjobs (columns), its
    /// peak marked.
    fn grid_table(g: &GridView) -> Table {
        let header = std::iter::once(column("iodepth ↓ numjobs →")).chain(
            g.numjobs
                .iter()
                .map(|j| column(j).attr("data-better", "higher")),
        );
        let mut t = Table::new(header).attr("class", "sortable");
        for r in &g.rows {
            let cells = r.cells.iter().map(|c| {
                let cell = Cell::right(&c.text);
                match c.peak {
                    true => cell.tone(Tone::Best).parts(vec![
                        Inline::text(&c.text),
                        Inline::span("delta", vec![Inline::text("peak")]),
                    ]),
                    false => cell,
                }
            });
            let label = Cell::new(format!("QD{}", r.iodepth)).head();
            t.row(std::iter::once(label).chain(cells));
        }
        t
    }

    /// An rw at one load point by block size: bandwidth, and under it IOPS,
    /// per config; each config's peak bandwidth marked.
    fn bs_sweep_table(b: &BsSweepView) -> Table {
        let header = std::iter::once(column("Block size")).chain(b.configs.iter().map(|c| {
            column(c)
                .attr("data-config", c)
                .attr("data-better", "higher")
        }));
        let mut t = Table::new(header).attr("class", "sortable");
        for r in &b.rows {
            let cells = r.cells.iter().map(|c| {
                let mut parts = vec![
                    Inline::text(&c.bw),
                    Inline::span("lat", vec![Inline::text(format!("{} IOPS", c.iops))]),
                ];
                let mut cell = Cell::new(&c.bw).class("sw");
                if c.peak {
                    parts.push(Inline::span("delta", vec![Inline::text("peak")]));
                    cell = cell.tone(Tone::Best);
                }
                cell.attr("data-config", &c.config).parts(parts)
            });
            t.row(std::iter::once(Cell::new(&r.bs).head()).chain(cells));
        }
        t
    }

    /// A test bed's targets, a row each; a flagged target in bold.
    fn device_table(d: &DeviceTableView) -> Table {
        let mut t = Table::new(d.header.iter().map(column)).attr("class", "sortable");
        for r in &d.rows {
            let mut target = Cell::new(&r.target).head();
            if r.flagged {
                target = target.parts(vec![Inline::tag("strong", &r.target)]);
            }
            let off = match r.error.is_empty() {
                true => r.off.clone(),
                false => format!("{} {}", r.off, r.error),
            };
            t.row([
                target,
                Cell::right(&r.iops),
                Cell::right(&r.bw),
                Cell::right(&r.lat),
                Cell::right(off),
            ]);
        }
        t
    }
}

/// A column's head as the sortable tables have it.
fn column(text: impl ToString) -> Cell {
    Cell::new(text).attr("scope", "col")
}

/// IOPS, and under it mean · p99 latency (in the table's unit unless the
/// p99 carries its own), each value marked as its row's best or tied.
/// Right-aligned by the stylesheet's own `sw` rule.
fn sweep_cell(c: &SweepCellView, lat_unit: &str) -> Cell {
    let cell = Cell::new(&c.iops.text)
        .class("sw")
        .attr("data-config", &c.config);
    if c.missing {
        return cell.parts(vec![Inline::text(crate::numbers::MISSING)]);
    }
    let value = |v: &super::cell::CellView| Inline::toned(&v.text, v.tone());
    let mut lat = vec![value(&c.lat_mean)];
    if let Some(p99) = &c.clat_p99 {
        lat.extend([Inline::text(" · "), value(p99)]);
    }
    if !lat_unit.is_empty() && !c.clat_p99.as_ref().is_some_and(|p| p.own_unit) {
        lat.push(Inline::text(format!(" {lat_unit}")));
    }
    if !c.ran_at.is_empty() {
        lat.push(Inline::text(format!(" (ran at {})", c.ran_at)));
    }
    cell.parts(vec![value(&c.iops), Inline::span("lat", lat)])
}

/// An SVG document as an element inside HTML: HTML parsing puts `<svg>`
/// in the SVG namespace itself, so the `xmlns` (a URL, though never
/// fetched) goes, keeping report.html free of any address.
pub fn inline_svg(svg: &str) -> String {
    svg.trim_start_matches("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        .trim()
        .replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1)
}

/// A `data:` URI of `bytes`, so report.html carries its charts inside it
/// and stays one self-contained file (RFC 2397, base64 of RFC 4648).
pub fn data_uri(mime: &str, bytes: &[u8]) -> String {
    use base64::Engine;
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    format!("data:{mime};base64,{data}")
}

#[cfg(test)]
mod data_uri_tests {
    use super::data_uri;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        for (input, b64) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(
                data_uri("text/plain", input.as_bytes()),
                format!("data:text/plain;base64,{b64}")
            );
        }
    }
}
