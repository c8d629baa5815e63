//! `analyze --out DIR`: a results folder turned into what a reviewer
//! publishes. report.md (charts linked), report.html (one self-contained
//! page, charts inline as SVG), sweeps.csv when there are sweeps, the
//! dataset as parquet and csv, and the charts under DIR/charts/.
//!
//! The CLI validates flags into [`Options`] and calls [`publish`]; nothing
//! here knows clap or prints. `history show`'s page and `--out` are
//! [`history`]'s; the gates' CI reports (JUnit, Markdown, the step
//! summary) are [`ci`]'s; `ingest`'s dataset, dashboard and series files
//! are [`ingested`]'s.

pub mod ci;
pub mod history;
pub mod ingested;

use std::path::Path;

use anyhow::Context;

use crate::charts::{self, ChartOptions};
use crate::compare::{self, Comparison};
use crate::model::Row;
use crate::render::{Format, RenderOptions, html};

/// What `--out` writes besides the fixed set of files.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Charts to draw; None with `--no-charts`.
    pub charts: Option<ChartOptions>,
    /// `--template` replacing the built-in report.md template...
    pub md_template: Option<String>,
    /// ...or the built-in report.html one.
    pub html_template: Option<String>,
    /// fio's logs read next to the results, joined to their runs
    /// ([`crate::input::Inputs::runs`]): timeseries charts are drawn from
    /// them where they exist.
    pub runs: Vec<crate::steady_state::RunLogs>,
    /// `--smooth`, `--per-job`.
    pub timeseries: charts::TimeseriesOptions,
    /// dataset.csv's and sweeps.csv's text cells (`--csv-raw`).
    pub csv_cells: crate::dataset::CsvCells,
}

/// The charts as each report carries them.
#[derive(Default)]
struct ReportCharts {
    /// Paths relative to DIR, for report.md's links.
    linked: Vec<String>,
    /// SVG with hover targets, which report.html inlines whatever the
    /// format on disk: PNGs stay for articles, the page gets tooltips.
    svgs: Vec<String>,
    /// The same SVGs as `data:` URIs, for `--template`s that use `<img>`.
    embedded: Vec<String>,
}

/// Writes every file of DIR for `cmp` (compared from `rows`).
pub fn publish(cmp: &Comparison, rows: &[Row], dir: &Path, opts: &Options) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("--out {}: cannot create the folder", dir.display()))?;
    // The dataset files beside the charts and reports: neither needs the
    // other, and each leaves cores idle on its own. The datasets on this
    // thread, whose allocator holds the pages the comparison let go (its
    // runs, the rows' histograms): on a pool thread their frames took
    // fresh memory, 40-60 MB more at 100,000 files.
    let datasets = ["dataset.parquet", "dataset.csv"].map(|name| dir.join(name));
    let mut reports = Ok(());
    let data = rayon::in_place_scope(|s| {
        s.spawn(|_| reports = charts_and_reports(cmp, dir, opts));
        crate::dataset::write_each(rows, &datasets, opts.csv_cells)
    });
    reports.and(data)
}

/// The charts, report.md, report.html, checks.csv and sweeps.csv. The
/// charts and the two reports show at most
/// [`compare::shown::MAX_SHOWN`] configs; the CSVs hold every one.
fn charts_and_reports(full: &Comparison, dir: &Path, opts: &Options) -> anyhow::Result<()> {
    let shown = compare::shown::bounded(full, compare::shown::MAX_SHOWN);
    let cmp: &Comparison = &shown;
    let charts = match &opts.charts {
        Some(c) => {
            let as_uris = opts.html_template.is_some();
            let mut charts = report_charts(cmp, dir, c, as_uris)?;
            if !opts.runs.is_empty() {
                add_timeseries(
                    &mut charts,
                    cmp,
                    &opts.runs,
                    dir,
                    c,
                    opts.timeseries,
                    as_uris,
                )?;
            }
            charts
        }
        None => ReportCharts::default(),
    };
    let md = RenderOptions {
        template: opts.md_template.clone(),
        charts: charts.linked.clone(),
        ..RenderOptions::default()
    };
    write_rendered(cmp, &dir.join("report.md"), Format::Md, &md)?;
    let page = RenderOptions {
        template: opts.html_template.clone(),
        charts: charts.embedded,
        svgs: charts.svgs,
        svg_font_css: charts::svg_font_css().to_string(),
        ..RenderOptions::default()
    };
    write_rendered(cmp, &dir.join("report.html"), Format::Html, &page)?;
    // Every note the report groups or cuts, one a line.
    write_rendered(
        full,
        &dir.join("checks.csv"),
        Format::ChecksCsv,
        &RenderOptions {
            csv_cells: opts.csv_cells,
            ..RenderOptions::default()
        },
    )?;
    if !full.sweeps.is_empty() || !full.bs_sweeps.is_empty() {
        let csv = RenderOptions {
            csv_cells: opts.csv_cells,
            ..RenderOptions::default()
        };
        write_rendered(full, &dir.join("sweeps.csv"), Format::SweepCsv, &csv)?;
    }
    Ok(())
}

/// Draws the charts to DIR/charts/ and once more as SVG for report.html.
fn report_charts(
    cmp: &Comparison,
    dir: &Path,
    opts: &ChartOptions,
    as_uris: bool,
) -> anyhow::Result<ReportCharts> {
    let mut charts = ReportCharts::default();
    let files = charts::render_all(cmp, dir, opts)?;
    let svgs = charts::svg_all(cmp, &as_svg(opts))?;
    charts.add(dir, &files, svgs, as_uris);
    Ok(charts)
}

fn as_svg(opts: &ChartOptions) -> ChartOptions {
    ChartOptions {
        format: charts::ChartFormat::Svg,
        ..*opts
    }
}

impl ReportCharts {
    /// Charts drawn to `files` under DIR and the same as SVG text.
    /// `as_uris`: a user's HTML template may use `<img>`; the built-in one
    /// inlines the SVGs, so base64 copies are made only for a user's.
    fn add(&mut self, dir: &Path, files: &[std::path::PathBuf], svgs: Vec<String>, as_uris: bool) {
        for p in files {
            let rel = p.strip_prefix(dir).unwrap_or(p);
            self.linked.push(rel.to_string_lossy().replace('\\', "/"));
        }
        if as_uris {
            let uris = svgs
                .iter()
                .map(|s| html::data_uri("image/svg+xml", s.as_bytes()));
            self.embedded.extend(uris);
        }
        self.svgs.extend(svgs);
    }
}

/// Draws the timeseries charts after the others, in both reports.
fn add_timeseries(
    charts: &mut ReportCharts,
    cmp: &Comparison,
    runs: &[crate::steady_state::RunLogs],
    dir: &Path,
    opts: &ChartOptions,
    ts: charts::TimeseriesOptions,
    as_uris: bool,
) -> anyhow::Result<()> {
    let files = charts::render_timeseries(cmp, runs, dir, opts, ts)?;
    let svgs = charts::svg_timeseries(cmp, runs, &as_svg(opts), ts)?;
    charts.add(dir, &files, svgs, as_uris);
    Ok(())
}

/// Renders `cmp` as `fmt` into the file at `path`.
fn write_rendered(
    cmp: &Comparison,
    path: &Path,
    fmt: Format,
    opts: &RenderOptions,
) -> anyhow::Result<()> {
    crate::atomic_file::write_with(path, |w| {
        fmt.renderer(opts)
            .render(cmp, w)
            .map_err(|e| std::io::Error::other(format!("{e:#}")))
    })
    .with_context(|| format!("cannot write {}", path.display()))
}
