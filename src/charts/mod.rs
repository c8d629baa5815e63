//! Charts for articles: PNG and SVG with plotters and an embedded font,
//! drawn from a [`crate::compare::Comparison`], from fio's logs joined to
//! it, or from a history report.
//!
//! The charts show what the comparison says: winners, ties, deltas and
//! precisions come from it; nothing here decides who is best. Every chart
//! kind lives in its own file and implements [`Plot`] (its file stem, its
//! figure, its footer); [`write`](mod@write) writes any `Plot` as PNG or SVG. The
//! comparison's kinds are listed once, in [`KINDS`]. The shared pieces are
//! the frame (title, legend, footnotes), the grouped bar panel, the unit
//! scales and the file names; colours come from the [`crate::palette`]
//! leaf.
//!
//! Output is deterministic: the same comparison gives byte-identical
//! files (no timestamps, no hash-ordered iteration, fixed font).

mod axis;
mod canvas;
mod distribution;
mod figure;
mod font;
mod footer;
mod frame;
mod grouped;
mod groups;
mod heatgrid;
mod hotspot;
mod kinds;
mod labels;
mod legend;
mod lines;
mod load;
mod marks;
mod names;
mod notes;
mod options;
mod place;
mod scale;
mod text;
mod write;

// The palette is a leaf every layer that colours a config reads (charts,
// report.html's config switches).
use crate::palette;

use kinds::{
    bars, blocksize, cdf, delta, efficiency, heatmap, histogram, history, percentiles, saturation,
    scaling, timeseries,
};
pub use options::{ChartFormat, ChartOptions, MAX_SIZE, MIN_SIZE};
pub use timeseries::TimeseriesOptions;

#[cfg(test)]
mod publish_tests;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use crate::compare::Comparison;

/// A chart: what every kind (comparison, sweep, history, timeseries)
/// gives the one writer ([`write`](mod@write)). Kinds only describe; drawing a
/// figure on a PNG or SVG area is [`figure::Figure::draw`], the same for
/// all.
pub(crate) trait Plot: Sync {
    /// What the chart is drawn from: the comparison (the comparison, sweep
    /// and timeseries charts) or a history report.
    type Source: Sync;

    /// File name without extension: only `[a-z0-9_-]`.
    fn stem(&self, from: &Self::Source) -> String;

    /// The frame and what goes in it, without the footer.
    fn figure(&self, from: &Self::Source) -> figure::Figure;

    /// The footer line: how the runs the chart draws were made; None when
    /// it has none.
    fn footer(&self, from: &Self::Source) -> Option<String>;

    /// The figure with its footer: what the writer draws.
    fn framed(&self, from: &Self::Source) -> figure::Figure {
        let mut fig = self.figure(from);
        fig.frame.footer = self.footer(from);
        fig
    }
}

impl<P: Plot + ?Sized> Plot for Box<P> {
    type Source = P::Source;

    fn stem(&self, from: &Self::Source) -> String {
        (**self).stem(from)
    }

    fn figure(&self, from: &Self::Source) -> figure::Figure {
        (**self).figure(from)
    }

    fn footer(&self, from: &Self::Source) -> Option<String> {
        (**self).footer(from)
    }
}

/// A chart drawn from the comparison alone.
pub(crate) type Chart = Box<dyn Plot<Source = Comparison>>;

/// Every kind of comparison chart, in plan order (bars, deltas,
/// efficiency, percentiles, distributions (CDF, histogram), scaling, latency against IOPS,
/// heatmaps, block sizes), each given by its `plan`: a new kind is its own
/// file and one line here (beside the `mod` line that names the file).
const KINDS: &[fn(&Comparison) -> Vec<Chart>] = &[
    |c| boxed(bars::plan(c)),
    |c| boxed(delta::plan(c)),
    |c| boxed(efficiency::plan(c)),
    |c| boxed(percentiles::plan(c)),
    |c| boxed(cdf::plan(c)),
    |c| boxed(histogram::plan(c)),
    |c| boxed(scaling::plan(c)),
    |c| boxed(saturation::plan(c)),
    |c| boxed(heatmap::plan(c)),
    |c| boxed(blocksize::plan(c)),
];

fn boxed<P: Plot<Source = Comparison> + 'static>(charts: Vec<P>) -> Vec<Chart> {
    charts.into_iter().map(|c| Box::new(c) as Chart).collect()
}

/// Every chart the comparison has data for, in [`KINDS`] order.
pub(crate) fn plan(cmp: &Comparison) -> Vec<Chart> {
    KINDS.iter().flat_map(|kind| kind(cmp)).collect()
}

/// Writes every chart of `cmp` to `dir/charts/` and returns their paths in
/// plan order.
pub fn render_all(
    cmp: &Comparison,
    dir: &Path,
    opts: &ChartOptions,
) -> anyhow::Result<Vec<PathBuf>> {
    write::files(&plan(cmp), cmp, dir, opts)
}

/// Like [`render_all`], one chart after the other, with the time each
/// took: for benchmarks and for finding a slow chart kind.
pub fn render_each(
    cmp: &Comparison,
    dir: &Path,
    opts: &ChartOptions,
) -> anyhow::Result<Vec<(PathBuf, std::time::Duration)>> {
    write::files_timed(&plan(cmp), cmp, dir, opts)
}

/// Every chart of `cmp` as SVG text with hover targets, in plan order,
/// written nowhere: what report.html carries inline, whatever format the
/// files under charts/ have.
pub fn svg_all(cmp: &Comparison, opts: &ChartOptions) -> anyhow::Result<Vec<String>> {
    write::svgs(&plan(cmp), cmp, opts)
}

/// Writes the `history_*` charts of `history show` to `dir/charts/`: one
/// per workload (with load point) and metric, a line per config over the
/// runs, change points ringed, segment means dashed.
pub fn render_history(
    report: &crate::history::show::HistoryReport,
    dir: &Path,
    opts: &ChartOptions,
) -> anyhow::Result<Vec<PathBuf>> {
    write::files(&history::plan(report), report, dir, opts)
}

/// The history charts of `report` as SVG text, in [`render_history`]'s
/// order: what history.html inlines.
pub fn svg_history(
    report: &crate::history::show::HistoryReport,
    opts: &ChartOptions,
) -> anyhow::Result<Vec<String>> {
    write::svgs(&history::plan(report), report, opts)
}

/// Writes the `timeseries_*` charts drawn from fio's logs (`runs`, joined
/// to the comparison's workloads) to `dir/charts/`; none where no logs.
pub fn render_timeseries(
    cmp: &Comparison,
    runs: &[crate::steady_state::RunLogs],
    dir: &Path,
    opts: &ChartOptions,
    ts: TimeseriesOptions,
) -> anyhow::Result<Vec<PathBuf>> {
    write::files(&timeseries::plan(cmp, runs, ts), cmp, dir, opts)
}

/// The `timeseries_*` charts as SVG text with hover targets, in the order
/// of [`render_timeseries`], for report.html.
pub fn svg_timeseries(
    cmp: &Comparison,
    runs: &[crate::steady_state::RunLogs],
    opts: &ChartOptions,
    ts: TimeseriesOptions,
) -> anyhow::Result<Vec<String>> {
    write::svgs(&timeseries::plan(cmp, runs, ts), cmp, opts)
}

/// The `@font-face` rules the SVG charts' text asks for: a page inlining
/// several charts carries them once.
pub fn svg_font_css() -> &'static str {
    font::face_css()
}
