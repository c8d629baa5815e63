//! Charts for articles: PNG and SVG with plotters and an embedded font,
//! drawn from a [`crate::compare::Comparison`].
//!
//! The charts show what the comparison says: winners, ties, deltas and
//! precisions come from it; nothing here decides who is best. Each chart
//! kind lives in its own file and is picked by the closed [`Chart`] enum;
//! the shared pieces are the frame (title, legend, footnotes), the grouped
//! bar panel, the unit scales and the file names; colours come from the
//! [`crate::palette`] leaf.
//!
//! Output is deterministic: the same comparison gives byte-identical
//! files (no timestamps, no hash-ordered iteration, fixed font).

mod axis;
mod bars;
mod blocksize;
mod canvas;
mod cdf;
mod delta;
mod efficiency;
mod figure;
mod font;
mod footer;
mod frame;
mod grouped;
mod heatgrid;
mod heatmap;
mod history;
mod hotspot;
mod lines;
mod load;
mod marks;
mod names;
// The palette is a leaf every layer that colours a config reads (charts,
// report.html's config switches).
use crate::palette;
mod percentiles;
mod place;
mod saturation;
mod scale;
mod scaling;
mod text;
mod timeseries;

pub use timeseries::TimeseriesOptions;

#[cfg(test)]
mod publish_tests;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use anyhow::Context;
use plotters::prelude::*;
use rayon::prelude::*;

use crate::compare::Comparison;

/// Image format of the charts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChartFormat {
    #[default]
    Png,
    Svg,
}

impl ChartFormat {
    pub fn extension(self) -> &'static str {
        match self {
            ChartFormat::Png => "png",
            ChartFormat::Svg => "svg",
        }
    }
}

/// How charts are written. Sizes are pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChartOptions {
    pub format: ChartFormat,
    pub width: u32,
    pub height: u32,
}

impl Default for ChartOptions {
    /// 1600x900: a 16:9 figure that stays sharp in an article column.
    fn default() -> Self {
        ChartOptions {
            format: ChartFormat::Png,
            width: 1600,
            height: 900,
        }
    }
}

/// Smallest and largest sizes we lay out; outside them text cannot fit or
/// the bitmap would take gigabytes.
pub const MIN_SIZE: (u32, u32) = (480, 320);
pub const MAX_SIZE: (u32, u32) = (8000, 8000);

/// One chart to draw: a kind and what it is about (indices into the
/// comparison, never copies of its text).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Chart {
    Bars(bars::Bars),
    Delta(delta::Delta),
    Efficiency(efficiency::Efficiency),
    Percentiles(percentiles::Percentiles),
    Cdf(cdf::Cdf),
    Scaling(scaling::Scaling),
    Saturation(saturation::Saturation),
    Heatmap(heatmap::Heatmap),
    BlockSizes(blocksize::BlockSizes),
}

impl Chart {
    /// File name without extension: only `[a-z0-9_-]`.
    fn stem(&self, cmp: &Comparison) -> String {
        match self {
            Chart::Bars(c) => c.stem(),
            Chart::Delta(c) => c.stem(),
            Chart::Efficiency(c) => c.stem(),
            Chart::Percentiles(c) => c.stem(cmp),
            Chart::Cdf(c) => c.stem(cmp),
            Chart::Scaling(c) => c.stem(cmp),
            Chart::Saturation(c) => c.stem(cmp),
            Chart::Heatmap(c) => c.stem(cmp),
            Chart::BlockSizes(c) => c.stem(cmp),
        }
    }

    /// What to draw, with the run parameters of what it draws in the
    /// footer; the drawing itself is [`figure::Figure::draw`].
    fn figure(&self, cmp: &Comparison) -> figure::Figure {
        let mut fig = match self {
            Chart::Bars(c) => c.figure(cmp),
            Chart::Delta(c) => c.figure(cmp),
            Chart::Efficiency(c) => c.figure(cmp),
            Chart::Percentiles(c) => c.figure(cmp),
            Chart::Cdf(c) => c.figure(cmp),
            Chart::Scaling(c) => c.figure(cmp),
            Chart::Saturation(c) => c.figure(cmp),
            Chart::Heatmap(c) => c.figure(cmp),
            Chart::BlockSizes(c) => c.figure(cmp),
        };
        let (workloads, config) = self.drawn(cmp);
        let only = config.map(|c| [c]);
        fig.frame.footer = footer::line(workloads, only.as_ref().map(|c| c.as_slice()));
        fig
    }

    /// The workloads the chart draws, and its one config when it draws
    /// only one (a heatmap).
    fn drawn<'a>(&self, cmp: &'a Comparison) -> (Vec<&'a Workload>, Option<&'a str>) {
        let of_group = |d: Direction| {
            cmp.workloads
                .iter()
                .filter(|w| w.key.shape.direction == d)
                .collect()
        };
        match self {
            Chart::Bars(c) => (of_group(c.direction), None),
            Chart::Delta(c) => (of_group(c.direction), None),
            Chart::Efficiency(c) => (of_group(c.direction), None),
            Chart::Percentiles(c) => (vec![&cmp.workloads[c.workload]], None),
            Chart::Cdf(c) => (vec![&cmp.workloads[c.workload]], None),
            Chart::Scaling(c) => (load::table(cmp, c.table).workloads, None),
            Chart::Saturation(c) => (load::table(cmp, c.table).workloads, None),
            Chart::Heatmap(c) => (
                load::table(cmp, c.table).workloads,
                Some(cmp.configs[c.config].as_str()),
            ),
            Chart::BlockSizes(c) => (
                c.workloads.iter().map(|&i| &cmp.workloads[i]).collect(),
                None,
            ),
        }
    }
}

/// Every chart the comparison has data for, in a fixed order.
pub(crate) fn plan(cmp: &Comparison) -> Vec<Chart> {
    let mut charts = Vec::new();
    charts.extend(bars::plan(cmp).into_iter().map(Chart::Bars));
    charts.extend(delta::plan(cmp).into_iter().map(Chart::Delta));
    charts.extend(efficiency::plan(cmp).into_iter().map(Chart::Efficiency));
    charts.extend(percentiles::plan(cmp).into_iter().map(Chart::Percentiles));
    charts.extend(cdf::plan(cmp).into_iter().map(Chart::Cdf));
    charts.extend(scaling::plan(cmp).into_iter().map(Chart::Scaling));
    charts.extend(saturation::plan(cmp).into_iter().map(Chart::Saturation));
    charts.extend(heatmap::plan(cmp).into_iter().map(Chart::Heatmap));
    charts.extend(blocksize::plan(cmp).into_iter().map(Chart::BlockSizes));
    charts
}

/// What both entry points do first: check the size, register the font,
/// create DIR/charts/, plan the charts and give each a unique file stem.
fn prepare(
    cmp: &Comparison,
    dir: &Path,
    opts: &ChartOptions,
) -> anyhow::Result<(PathBuf, Vec<Chart>, Vec<String>)> {
    let out = chart_dir(dir, opts)?;
    let charts = plan(cmp);
    let stems = names::unique(charts.iter().map(|c| c.stem(cmp)).collect());
    Ok((out, charts, stems))
}

/// Writes every chart of `cmp` to `dir/charts/` and returns their paths in
/// plan order (bars, deltas, efficiency, percentiles, distributions,
/// scaling, latency against IOPS, heatmaps, block sizes).
pub fn render_all(
    cmp: &Comparison,
    dir: &Path,
    opts: &ChartOptions,
) -> anyhow::Result<Vec<PathBuf>> {
    let (out, charts, stems) = prepare(cmp, dir, opts)?;
    // Charts are independent; rendering them on all cores halves the wall
    // time on a 2-core runner. Order of the result is the plan's.
    charts
        .par_iter()
        .zip(stems.par_iter())
        .map(|(chart, stem)| {
            let path = out.join(format!("{stem}.{}", opts.format.extension()));
            render_one(chart, cmp, &path, opts)
                .with_context(|| format!("cannot draw chart {}", path.display()))?;
            Ok(path)
        })
        .collect()
}

/// Writes the `history_*` charts of `history show` to `dir/charts/`: one
/// per workload (with load point) and metric, a line per config over the
/// runs, change points ringed, segment means dashed.
pub fn render_history(
    report: &crate::history::show::HistoryReport,
    dir: &Path,
    opts: &ChartOptions,
) -> anyhow::Result<Vec<PathBuf>> {
    history::render_all(report, dir, opts)
}

/// The history charts of `report` as SVG text, in [`render_history`]'s
/// order: what history.html inlines.
pub fn svg_history(
    report: &crate::history::show::HistoryReport,
    opts: &ChartOptions,
) -> anyhow::Result<Vec<String>> {
    history::svg_all(report, opts)
}

/// Writes the `timeseries_*` charts drawn from fio's logs (`runs`, joined
/// to the comparison's workloads) to `dir/charts/`; none where no logs.
pub fn render_timeseries(
    cmp: &Comparison,
    runs: &[crate::compare::logs::RunLogs],
    dir: &Path,
    opts: &ChartOptions,
    ts: TimeseriesOptions,
) -> anyhow::Result<Vec<PathBuf>> {
    timeseries::render_all(cmp, runs, dir, opts, ts)
}

/// The `timeseries_*` charts as SVG text with hover targets, in the order
/// of [`render_timeseries`], for report.html.
pub fn svg_timeseries(
    cmp: &Comparison,
    runs: &[crate::compare::logs::RunLogs],
    opts: &ChartOptions,
    ts: TimeseriesOptions,
) -> anyhow::Result<Vec<String>> {
    timeseries::svg_all(cmp, runs, opts, ts)
}

/// Like [`render_all`], one chart after the other, with the time each
/// took: for benchmarks and for finding a slow chart kind.
pub fn render_each(
    cmp: &Comparison,
    dir: &Path,
    opts: &ChartOptions,
) -> anyhow::Result<Vec<(PathBuf, std::time::Duration)>> {
    let (out, charts, stems) = prepare(cmp, dir, opts)?;
    charts
        .iter()
        .zip(&stems)
        .map(|(chart, stem)| {
            let path = out.join(format!("{stem}.{}", opts.format.extension()));
            let start = std::time::Instant::now();
            render_one(chart, cmp, &path, opts)
                .with_context(|| format!("cannot draw chart {}", path.display()))?;
            Ok((path, start.elapsed()))
        })
        .collect()
}

fn check_size(opts: &ChartOptions) -> anyhow::Result<()> {
    let ok = (MIN_SIZE.0..=MAX_SIZE.0).contains(&opts.width)
        && (MIN_SIZE.1..=MAX_SIZE.1).contains(&opts.height);
    anyhow::ensure!(
        ok,
        "chart size {}x{} is outside {}x{} to {}x{} (--chart-size)",
        opts.width,
        opts.height,
        MIN_SIZE.0,
        MIN_SIZE.1,
        MAX_SIZE.0,
        MAX_SIZE.1
    );
    Ok(())
}

fn render_one(
    chart: &Chart,
    cmp: &Comparison,
    path: &Path,
    opts: &ChartOptions,
) -> anyhow::Result<()> {
    write_figure(&|| chart.figure(cmp), path, opts)
}

/// One chart as SVG text, with a hover target per bar, point and legend
/// entry appended (see [`hotspot`]).
fn svg_of(chart: &Chart, cmp: &Comparison, size: (u32, u32)) -> anyhow::Result<String> {
    figure_svg(&|| chart.figure(cmp), size)
}

/// Checks the size, loads the font and makes `dir/charts/`: what every
/// chart family does before drawing.
pub(crate) fn chart_dir(dir: &Path, opts: &ChartOptions) -> anyhow::Result<PathBuf> {
    check_size(opts)?;
    font::register()?;
    let out = dir.join("charts");
    std::fs::create_dir_all(&out)
        .with_context(|| format!("cannot create chart folder {}", out.display()))?;
    Ok(out)
}

/// A figure as SVG text with the hover targets its drawing recorded
/// appended: every chart family (comparison, history, time series) draws
/// through here and [`write_figure`].
pub(crate) fn figure_svg(
    make: &dyn Fn() -> figure::Figure,
    size: (u32, u32),
) -> anyhow::Result<String> {
    let (drawn, spots) = hotspot::collect(|| -> anyhow::Result<String> {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
            root.fill(&WHITE)?;
            make().draw(&root)?;
            root.present()?;
        }
        Ok(svg)
    });
    Ok(hotspot::overlay(&drawn?, &spots))
}

/// A figure written to `path` as PNG, or as SVG with the font embedded.
pub(crate) fn write_figure(
    make: &dyn Fn() -> figure::Figure,
    path: &Path,
    opts: &ChartOptions,
) -> anyhow::Result<()> {
    let size = (opts.width, opts.height);
    match opts.format {
        ChartFormat::Png => {
            let root = BitMapBackend::new(path, size).into_drawing_area();
            root.fill(&WHITE)?;
            make().draw(&root)?;
            root.present()?;
        }
        ChartFormat::Svg => std::fs::write(path, font::embed_in_svg(&figure_svg(make, size)?))?,
    }
    Ok(())
}

/// The `@font-face` rules the SVG charts' text asks for: a page inlining
/// several charts carries them once.
pub fn svg_font_css() -> &'static str {
    font::face_css()
}

/// Every chart of `cmp` as SVG text with hover targets, in plan order,
/// written nowhere: what report.html carries inline, whatever format the
/// files under charts/ have.
pub fn svg_all(cmp: &Comparison, opts: &ChartOptions) -> anyhow::Result<Vec<String>> {
    check_size(opts)?;
    font::register()?;
    let size = (opts.width, opts.height);
    plan(cmp)
        .par_iter()
        .map(|chart| {
            svg_of(chart, cmp, size)
                .with_context(|| format!("cannot draw chart {}", chart.stem(cmp)))
        })
        .collect()
}

// ---- helpers shared by the chart kinds ----

use crate::compare::{Metric, MetricResult, Rule, Spread, SpreadSource, Workload};
use crate::model::Direction;

/// `randread 4k`, `randrw 70/30 4k`: how a workload reads on an axis.
pub(crate) fn workload_label(w: &Workload) -> String {
    let bs = crate::units::format_bs(w.key.shape.bs_bytes);
    match w.key.shape.rwmixread {
        Some(mix) => format!(
            "{} {}/{} {}",
            w.key.shape.rw,
            mix,
            100u32.saturating_sub(mix),
            bs
        ),
        None => format!("{} {}", w.key.shape.rw, bs),
    }
}

/// Path-safe name of a workload: slugged rw, block size, mix, direction.
pub(crate) fn workload_slug(w: &Workload) -> String {
    let mix = w
        .key
        .shape
        .rwmixread
        .map(|m| format!("{m}"))
        .unwrap_or_default();
    format!(
        "{}{}_{}_{}",
        names::slug(&w.key.shape.rw),
        mix,
        crate::units::format_bs(w.key.shape.bs_bytes),
        w.key.shape.direction.as_str()
    )
}

/// [`workload_slug`], with the load point (`_qd16`, `_qd4x2`) when the
/// comparison's loads vary: one file per load point of a sweep.
pub(crate) fn workload_point_slug(cmp: &Comparison, w: &Workload) -> String {
    let mut slug = workload_slug(w);
    if cmp.has_load_points() {
        slug.push_str(&format!("_qd{}", w.key.load.iodepth));
        if w.key.load.numjobs != 1 {
            slug.push_str(&format!("x{}", w.key.load.numjobs));
        }
        if w.key.load.hosts != 1 {
            slug.push_str(&format!("x{}h", w.key.load.hosts));
        }
    }
    slug
}

/// Whether a workload gets its own latency-distribution charts
/// (percentiles, CDF). Every workload outside a sweep does; of a sweep, only
/// the lightest load and each config's knee and peak: a chart per depth of
/// a 32-point grid would bury the ones a reader needs.
pub(crate) fn gets_distribution_charts(cmp: &Comparison, w: &Workload) -> bool {
    let sweeps: Vec<_> = cmp
        .sweeps
        .iter()
        .filter(|s| s.shape == w.key.shape)
        .collect();
    if sweeps.is_empty() {
        return true;
    }
    let load = w.key.load;
    let lightest = sweeps
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.load))
        .min_by_key(|l| (l.outstanding(), *l));
    lightest == Some(load)
        || sweeps.iter().any(|s| {
            (s.peak.iodepth, s.peak.numjobs) == (load.iodepth, load.numjobs)
                || s.knee
                    .is_some_and(|k| (k.iodepth, k.numjobs) == (load.iodepth, load.numjobs))
        })
}

/// The workloads that get latency-distribution charts
/// ([`gets_distribution_charts`]) and have the data `has_line` looks for:
/// the plan shared by the percentile and CDF charts.
pub(crate) fn distribution_workloads(
    cmp: &Comparison,
    has_line: impl Fn(&Workload) -> bool,
) -> Vec<usize> {
    workloads_where(cmp, |w| gets_distribution_charts(cmp, w) && has_line(w))
}

/// Why `config`'s completion latency in `w` is left out of the comparison,
/// if it is: its percentiles and histogram are not drawn either (with
/// io_uring's sqthread_poll=1 every one of them reads seconds).
pub(crate) fn clat_exclusion<'a>(w: &'a Workload, config: &str) -> Option<&'a str> {
    w.metric(Metric::ClatP99Ns)?.exclusion(config)
}

/// "Completion latency of X not drawn: why.": one line per config whose
/// completion latency `w` excludes.
pub(crate) fn clat_exclusion_notes(cmp: &Comparison, w: &Workload) -> Vec<String> {
    cmp.configs
        .iter()
        .filter_map(|c| {
            let why = clat_exclusion(w, c)?;
            Some(format!("Completion latency of {c} not drawn: {why}."))
        })
        .collect()
}

/// The file stem of a per-workload chart: `kind` and the workload's
/// [`workload_point_slug`].
pub(crate) fn workload_stem(cmp: &Comparison, kind: &str, workload: usize) -> String {
    format!(
        "{kind}_{}",
        workload_point_slug(cmp, &cmp.workloads[workload])
    )
}

/// The frame of a latency-distribution chart of `w`: its title says
/// `what` is drawn, the legend names the configs that have a line.
pub(crate) fn distribution_frame(
    cmp: &Comparison,
    w: &Workload,
    what: &str,
    lines: &[(usize, Vec<(f64, f64)>)],
) -> frame::Frame {
    frame::Frame {
        title: format!(
            "{} ({}): {what}",
            workload_point_label(cmp, w),
            w.key.shape.direction
        ),
        legend: legend_of(cmp, lines.iter().map(|(i, _)| *i)),
        ..Default::default()
    }
}

/// [`workload_label`], with " at QD16" when the comparison's loads vary.
pub(crate) fn workload_point_label(cmp: &Comparison, w: &Workload) -> String {
    if cmp.has_load_points() {
        format!("{} at {}", workload_label(w), w.key.load.label())
    } else {
        workload_label(w)
    }
}

/// "Read", "Write", "Trim": the group name in titles.
pub(crate) fn group_title(d: Direction) -> &'static str {
    match d {
        Direction::Read => "Read",
        Direction::Write => "Write",
        Direction::Trim => "Trim",
    }
}

/// Directions that have workloads, in a fixed order.
pub(crate) fn groups(cmp: &Comparison) -> Vec<Direction> {
    Direction::ALL
        .into_iter()
        .filter(|d| cmp.workloads.iter().any(|w| w.key.shape.direction == *d))
        .collect()
}

/// The result of `metric` in `w` when at least one config has a value.
pub(crate) fn result(w: &Workload, metric: Metric) -> Option<&MetricResult> {
    w.metrics
        .iter()
        .find(|m| m.metric == metric && m.values.values().any(|v| v.is_some()))
}

/// Every config with its colour, for the legend.
pub(crate) fn legend(cmp: &Comparison) -> Vec<(String, RGBColor)> {
    legend_of(cmp, 0..cmp.configs.len())
}

/// The configs at `indices` (display order) with their colours, for the
/// legend of a chart that shows only some of them.
pub(crate) fn legend_of(
    cmp: &Comparison,
    indices: impl IntoIterator<Item = usize>,
) -> Vec<(String, RGBColor)> {
    indices
        .into_iter()
        .map(|i| (cmp.configs[i].clone(), palette::color(i)))
        .collect()
}

/// Indices of the workloads `keep` accepts: a per-workload chart's plan.
pub(crate) fn workloads_where(cmp: &Comparison, keep: impl Fn(&Workload) -> bool) -> Vec<usize> {
    cmp.workloads
        .iter()
        .enumerate()
        .filter(|(_, w)| keep(w))
        .map(|(i, _)| i)
        .collect()
}

/// (config index, points) for every config `points` gives a non-empty
/// line for, in display order: the lines of a per-workload chart.
pub(crate) fn config_lines(
    cmp: &Comparison,
    points: impl Fn(&String) -> Option<Vec<(f64, f64)>>,
) -> Vec<(usize, Vec<(f64, f64)>)> {
    cmp.configs
        .iter()
        .enumerate()
        .filter_map(|(i, c)| Some((i, points(c)?)))
        .filter(|(_, p)| !p.is_empty())
        .collect()
}

/// (group, metric) for each of `metrics` in each group where some workload
/// passes `keep`: the plan of a per-group, per-metric chart.
pub(crate) fn group_metrics(
    cmp: &Comparison,
    metrics: &[Metric],
    keep: impl Fn(&Workload, Metric) -> bool,
) -> Vec<(Direction, Metric)> {
    let mut out = Vec::new();
    for direction in groups(cmp) {
        for &metric in metrics {
            let any = cmp
                .workloads
                .iter()
                .any(|w| w.key.shape.direction == direction && keep(w, metric));
            if any {
                out.push((direction, metric));
            }
        }
    }
    out
}

/// `bars_read_iops`: file stem of a per-group, per-metric chart.
pub(crate) fn group_metric_stem(kind: &str, direction: Direction, metric: Metric) -> String {
    format!(
        "{kind}_{}_{}",
        direction.as_str(),
        scale::metric_slug(metric)
    )
}

/// Labels and results of `metric` for the group's workloads that have
/// it, in the comparison's order: a bar panel's categories and data. Of a
/// sweep only its [`key_loads`] are drawn: twenty load points times five
/// configs bury the ones a reader needs, and the scaling chart draws them
/// all. Labels name the load ("QD128 x 4 jobs") when the group is one
/// shape (the title names it, [`group_subject`]), else the shape over the
/// load on two lines: never a workload name cut to fit.
pub(crate) fn group_results(
    cmp: &Comparison,
    direction: Direction,
    metric: Metric,
) -> (Vec<String>, Vec<&MetricResult>) {
    let tables = crate::render::sweeps::tables(cmp);
    let one_shape = group_subject(cmp, direction).is_some();
    cmp.workloads
        .iter()
        .filter(|w| w.key.shape.direction == direction)
        .filter(|w| {
            tables
                .iter()
                .find(|t| t.shape == w.key.shape)
                .is_none_or(|t| key_loads(t).contains(&w.key.load))
        })
        .filter_map(|w| Some((category(cmp, w, one_shape), result(w, metric)?)))
        .unzip()
}

/// A bar group's label: see [`group_results`].
fn category(cmp: &Comparison, w: &Workload, one_shape: bool) -> String {
    if !cmp.has_load_points() {
        workload_label(w)
    } else if one_shape {
        w.key.load.label()
    } else {
        format!("{}\n{}", workload_label(w), w.key.load.label())
    }
}

/// The one shape ("randread 4k") of a group whose workloads differ only
/// in load: its bar charts name it in the title and label bars by load.
pub(crate) fn group_subject(cmp: &Comparison, direction: Direction) -> Option<String> {
    if !cmp.has_load_points() {
        return None;
    }
    let mut shapes = cmp
        .workloads
        .iter()
        .filter(|w| w.key.shape.direction == direction)
        .map(|w| (&w.key.shape, w));
    let (first, w) = shapes.next()?;
    shapes.all(|(s, _)| s == first).then(|| workload_label(w))
}

/// The load points of a sweep shape that bar charts show: the lightest
/// and, per config, its knee, saturation and peak; once each, in load
/// order.
pub(crate) fn key_loads(t: &crate::render::sweeps::SweepTable) -> Vec<crate::compare::LoadPoint> {
    // Peak and knee name no host count: they are matched on depth and jobs.
    let mut marked: Vec<(u32, u32)> = Vec::new();
    for s in &t.sweeps {
        marked.extend(s.knee.map(|k| (k.iodepth, k.numjobs)));
        marked.extend(s.saturation.map(|x| (x.load.iodepth, x.load.numjobs)));
        marked.push((s.peak.iodepth, s.peak.numjobs));
    }
    let lightest = t
        .workloads
        .iter()
        .map(|w| w.key.load)
        .min_by_key(|l| (l.outstanding(), *l));
    let mut loads: Vec<crate::compare::LoadPoint> = t
        .workloads
        .iter()
        .map(|w| w.key.load)
        .filter(|l| Some(*l) == lightest || marked.contains(&(l.iodepth, l.numjobs)))
        .collect();
    loads.sort_by_key(|l| (l.outstanding(), *l));
    loads.dedup();
    loads
}

/// "p99 latency of X not drawn at QD1 and QD8: why.": one line per
/// config and reason that `results` (with their `categories`) exclude.
pub(crate) fn excluded_notes(
    what: &str,
    categories: &[String],
    results: &[&MetricResult],
) -> Vec<String> {
    let mut grouped: Vec<((String, String), Vec<String>)> = Vec::new();
    for (label, r) in categories.iter().zip(results) {
        for (c, why) in &r.excluded {
            let key = (c.clone(), why.clone());
            let at = label.replace('\n', " ");
            match grouped.iter_mut().find(|(k, _)| *k == key) {
                Some((_, at_all)) => at_all.push(at),
                None => grouped.push((key, vec![at])),
            }
        }
    }
    grouped
        .into_iter()
        .map(|((c, why), at)| {
            format!(
                "{what} of {c} not drawn ({}): {why}.",
                crate::render::cell::join_and(&at)
            )
        })
        .collect()
}

/// " (higher is better)" after a metric's name, from the results'
/// direction; empty when there are no results.
pub(crate) fn better_suffix(results: &[&MetricResult]) -> String {
    results
        .first()
        .map(|r| format!(" ({})", scale::better_text(r.better)))
        .unwrap_or_default()
}

/// One series per config: its values of `metric` across `results`, and
/// the comparison's marks.
pub(crate) fn series(cmp: &Comparison, results: &[&MetricResult]) -> Vec<grouped::Series> {
    cmp.configs
        .iter()
        .enumerate()
        .map(|(i, c)| grouped::Series {
            name: c.clone(),
            color: palette::color(i),
            // An excluded value is not drawn: its bar would set the
            // scale that every compared bar is read on.
            values: results.iter().map(|r| r.value(c)).collect(),
            marks: results
                .iter()
                .map(|r| {
                    if r.exclusion(c).is_some() {
                        grouped::Mark::Excluded
                    } else if !r.contested() {
                        grouped::Mark::None
                    } else if r.winner.as_deref() == Some(c.as_str()) {
                        grouped::Mark::Best
                    } else if r.tied.iter().any(|t| t == c) {
                        grouped::Mark::Tied
                    } else {
                        grouped::Mark::None
                    }
                })
                .collect(),
            spreads: results
                .iter()
                .map(|r| r.spread.get(c).map(|s| s.stddev))
                .collect(),
        })
        .collect()
}

/// The largest absolute value in `results`, base units.
pub(crate) fn max_value(results: &[&MetricResult]) -> f64 {
    results
        .iter()
        .flat_map(|r| r.compared().map(|(_, v)| v))
        .map(|v| v.abs())
        .fold(0.0, f64::max)
}

/// "IOPS of linux-libaio, linux-io_uring known only to the nearest
/// 1,000.": one note per precision coarser than the step a lone value of
/// the scale resolves.
pub(crate) fn precision_notes(
    cmp: &Comparison,
    what: &str,
    results: &[&MetricResult],
    scale: &scale::Scale,
) -> Vec<String> {
    crate::compare::metric::coarse_precisions(&cmp.configs, results, scale.step())
        .into_iter()
        .map(|(p, cs)| {
            let unit = match scale.unit {
                "" => String::new(),
                "%" => "%".into(),
                u => format!(" {u}"),
            };
            format!(
                "{what} of {} known only to {}{unit}.",
                cs.join(", "),
                crate::format::step_text(p / scale.div)
            )
        })
        .collect()
}

/// "★ and outline: best." when the chart has a winner; ties are told by
/// the hatched legend key ([`tie_key`]).
pub(crate) fn marks_note(results: &[&MetricResult]) -> Option<String> {
    results
        .iter()
        .any(|r| r.contested() && r.winner.is_some())
        .then(|| "★ and outline: best.".to_string())
}

/// Why values tie, from the rules that tied them: "within rounding",
/// "within noise (not significant)", "within the equivalence margin", or
/// several joined.
fn tie_reason(rules: impl IntoIterator<Item = Rule>) -> Option<String> {
    let rules: Vec<Rule> = rules.into_iter().collect();
    let reasons: Vec<&str> = [
        (Rule::WithinPrecision, "rounding"),
        (Rule::NotSignificant, "noise (not significant)"),
        (Rule::Equivalent, "the --equivalence margin"),
    ]
    .into_iter()
    .filter(|(rule, _)| rules.contains(rule))
    .map(|(_, why)| why)
    .collect();
    (!reasons.is_empty()).then(|| format!("within {}", reasons.join(" or ")))
}

/// The hatched key of a bar chart whose results have ties for best.
pub(crate) fn tie_key(results: &[&MetricResult]) -> Option<marks::Key> {
    let rules = results
        .iter()
        .filter(|r| !r.tied.is_empty())
        .map(|r| r.rule);
    tie_reason(rules).map(|why| marks::Key {
        glyph: marks::Glyph::Hatched,
        text: format!("☆ tied for best: {why} of each other"),
    })
}

/// The hatched key of a delta chart whose results have deltas that are no
/// real change.
pub(crate) fn baseline_tie_key(results: &[&MetricResult]) -> Option<marks::Key> {
    let rules = results
        .iter()
        .flat_map(|r| r.baseline_ties.values().copied());
    tie_reason(rules).map(|why| marks::Key {
        glyph: marks::Glyph::Hatched,
        text: format!("≈ {why} of the baseline: no real change"),
    })
}

/// The error-bar key: "error bars: ±1 sd of 3 runs", or of fio's
/// per-interval samples, from the spreads the chart draws; None when it
/// draws none.
pub(crate) fn spread_key(results: &[&MetricResult]) -> Option<marks::Key> {
    let spreads: Vec<Spread> = results
        .iter()
        .flat_map(|r| {
            r.spread
                .iter()
                .filter(|(c, s)| r.value(c).is_some() && s.stddev > 0.0)
                .map(|(_, s)| *s)
        })
        .collect();
    spreads_key(&spreads)
}

/// [`spread_key`] of the spreads a chart draws error bars for.
pub(crate) fn spreads_key(spreads: &[Spread]) -> Option<marks::Key> {
    let count = |source: SpreadSource, what: &str| -> Option<String> {
        let ns = spreads.iter().filter(|s| s.source == source).map(|s| s.n);
        let (lo, hi) = ns.fold(None, |acc: Option<(u64, u64)>, n| {
            Some(acc.map_or((n, n), |(lo, hi)| (lo.min(n), hi.max(n))))
        })?;
        Some(if lo == hi {
            format!("{lo} {what}")
        } else {
            format!("{lo}–{hi} {what}")
        })
    };
    let runs = count(SpreadSource::Runs, "runs");
    let samples = count(SpreadSource::Samples, "per run");
    let text = match (runs, samples) {
        (Some(r), None) => format!("error bars: ±1 sd of {r}"),
        (None, Some(s)) => format!("error bars: ±1 sd of fio's per-interval samples ({s})"),
        // The samples stand in only where a config ran once.
        (Some(r), Some(s)) => format!(
            "error bars: ±1 sd of {r}; of fio's per-interval samples ({s}) where a config ran once"
        ),
        (None, None) => return None,
    };
    Some(marks::Key {
        glyph: marks::Glyph::Whisker,
        text,
    })
}

/// The comparison's notes on a group's workloads (iodepth differing, a
/// config missing), at most three lines so the plot keeps its room. A
/// note names configs and reasons: a result file's path in it is dropped
/// (the report lists the files).
pub(crate) fn workload_notes(cmp: &Comparison, direction: Direction) -> Vec<String> {
    const MAX: usize = 3;
    let mut notes: Vec<String> = Vec::new();
    for w in cmp
        .workloads
        .iter()
        .filter(|w| w.key.shape.direction == direction)
    {
        for n in &w.notes {
            let n = format!("{}: {}", workload_point_label(cmp, w), without_paths(n));
            if !notes.contains(&n) {
                notes.push(n);
            }
        }
    }
    let mut out: Vec<String> = notes.iter().take(MAX).cloned().collect();
    if notes.len() > MAX {
        let n = notes.len() - MAX;
        let s = if n == 1 { "" } else { "s" };
        out.push(format!("{n} more note{s} in the report."));
    }
    out
}

/// `text` without parenthesized file paths: "X: mean below clat
/// (dir/run.json)" -> "X: mean below clat".
pub(crate) fn without_paths(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find(" (") {
        let Some(close) = rest[open..].find(')') else {
            break;
        };
        let inside = &rest[open + 2..open + close];
        let is_path = inside.contains('/') || inside.contains('\\');
        let is_file = is_path
            && inside
                .rsplit(['/', '\\'])
                .next()
                .is_some_and(|f| f.contains('.'));
        out.push_str(&rest[..open]);
        if !is_file {
            out.push_str(&rest[open..open + close + 1]);
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}
