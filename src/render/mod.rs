//! Every report nvcmp writes, one file per format: `analyze`'s (a
//! [`crate::compare::Comparison`] to bytes), `check`'s and the CI reports
//! of both gates ([`check`]), `history show`'s and `check --history`'s
//! ([`history`]). `check` and `history` decide; this module writes.
//! Renderers write to any `Write` and never print; they compute no
//! winners of their own. Every table is built from one model
//! ([`table`]: one terminal style, one Markdown writer and escaper);
//! analyze's table formats share [`view::View`]; Markdown and HTML pages
//! come from minijinja templates in `templates/` that `--template`
//! replaces.

pub mod bs_sweep_view;
pub mod cell;
pub mod check;
pub mod check_lines;
pub mod csv;
pub mod devices_view;
pub mod history;
pub mod html;
pub mod json;
pub mod md;
pub mod setup_view;
pub mod sweep_view;
pub mod sweeps;
pub mod table;
pub mod template;
pub mod term;
pub mod view;
pub mod view_tables;

use std::io::Write;

use crate::compare::Comparison;

/// One output format.
pub trait Renderer {
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()>;
}

/// The output formats of `analyze --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Term,
    Md,
    Html,
    Csv,
    /// The sweep tables as CSV: a line per sweep shape, load point, config.
    SweepCsv,
    Json,
    /// Every note, check, warning and skipped file, one a line, ungrouped
    /// (`checks.csv` beside a report).
    ChecksCsv,
}

/// What renderers may need besides the comparison.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// Terminal colors (bold winners).
    pub color: bool,
    /// A user template replacing the built-in one (Markdown and HTML).
    pub template: Option<String>,
    /// Charts: paths relative to the report (Markdown links them) or
    /// `data:` URIs (HTML embeds them, see [`html::data_uri`]).
    pub charts: Vec<String>,
    /// The charts as SVG text with hover targets, which HTML inlines.
    pub svgs: Vec<String>,
    /// `@font-face` rules the inline SVGs' text uses, carried once by the
    /// page rather than once per chart.
    pub svg_font_css: String,
    /// CSV text cells: guarded against formulas, or raw (`--csv-raw`).
    pub csv_cells: crate::dataset::CsvCells,
}

impl Format {
    /// Whether this is a report people read (terminal, Markdown, HTML),
    /// which shows a bounded number of configs
    /// ([`crate::compare::shown`]); JSON and CSV hold every one.
    pub fn for_people(self) -> bool {
        matches!(self, Format::Term | Format::Md | Format::Html)
    }

    /// The renderer of this format.
    pub fn renderer(self, opts: &RenderOptions) -> Box<dyn Renderer> {
        match self {
            Format::Term => Box::new(term::Term { color: opts.color }),
            Format::Md => Box::new(md::MarkdownReport {
                template: opts.template.clone(),
                charts: opts.charts.clone(),
            }),
            Format::Html => Box::new(html::HtmlReport {
                template: opts.template.clone(),
                charts: opts.charts.clone(),
                svgs: opts.svgs.clone(),
                font_css: opts.svg_font_css.clone(),
            }),
            Format::Csv => Box::new(csv::Csv {
                cells: opts.csv_cells,
            }),
            Format::SweepCsv => Box::new(csv::SweepCsv {
                cells: opts.csv_cells,
            }),
            Format::Json => Box::new(json::Json),
            Format::ChecksCsv => Box::new(csv::Checks {
                cells: opts.csv_cells,
            }),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
