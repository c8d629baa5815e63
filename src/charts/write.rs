//! The one writer of every chart family (comparison, sweep, history,
//! timeseries): any [`Plot`] as PNG or SVG files under `DIR/charts/`, or
//! as SVG text with hover targets for a page to inline. The bitmap and the
//! SVG drawing loops are written here once.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use plotters::prelude::*;
use rayon::prelude::*;

use super::options::{ChartFormat, ChartOptions};
use super::{Plot, font, hotspot, names};

/// Writes every chart of `charts` to `dir/charts/STEM.EXT` and returns the
/// paths in the order of `charts`. Charts are independent: drawing them
/// on all cores halves the wall time on a 2-core runner.
pub(crate) fn files<P: Plot>(
    charts: &[P],
    from: &P::Source,
    dir: &Path,
    opts: &ChartOptions,
) -> anyhow::Result<Vec<PathBuf>> {
    targets(charts, from, dir, opts)?
        .into_par_iter()
        .map(|(chart, path)| {
            file(chart, from, &path, opts)?;
            Ok(path)
        })
        .collect()
}

/// Like [`files`], one chart after the other, with the time each took:
/// for benchmarks and for finding a slow chart kind.
pub(crate) fn files_timed<P: Plot>(
    charts: &[P],
    from: &P::Source,
    dir: &Path,
    opts: &ChartOptions,
) -> anyhow::Result<Vec<(PathBuf, Duration)>> {
    targets(charts, from, dir, opts)?
        .into_iter()
        .map(|(chart, path)| {
            let start = Instant::now();
            file(chart, from, &path, opts)?;
            Ok((path, start.elapsed()))
        })
        .collect()
}

/// Every chart of `charts` as SVG text with its hover targets, in order,
/// written nowhere: what report.html and history.html carry inline,
/// whatever format the files under charts/ have.
pub(crate) fn svgs<P: Plot>(
    charts: &[P],
    from: &P::Source,
    opts: &ChartOptions,
) -> anyhow::Result<Vec<String>> {
    opts.check_size()?;
    font::register()?;
    charts
        .par_iter()
        .map(|chart| {
            svg(chart, from, opts.size())
                .with_context(|| format!("cannot draw chart {}", chart.stem(from)))
        })
        .collect()
}

/// Checks the size, loads the font and makes `dir/charts/`, then pairs
/// each chart with its path; stems repeated (two rw names can slug alike)
/// get `-2`, `-3`.
fn targets<'c, P: Plot>(
    charts: &'c [P],
    from: &P::Source,
    dir: &Path,
    opts: &ChartOptions,
) -> anyhow::Result<Vec<(&'c P, PathBuf)>> {
    opts.check_size()?;
    font::register()?;
    let out = dir.join("charts");
    std::fs::create_dir_all(&out)
        .with_context(|| format!("cannot create chart folder {}", out.display()))?;
    let stems = names::unique(charts.iter().map(|c| c.stem(from)).collect());
    Ok(charts
        .iter()
        .zip(stems)
        .map(|(chart, stem)| {
            (
                chart,
                out.join(format!("{stem}.{}", opts.format.extension())),
            )
        })
        .collect())
}

/// One chart written to `path` as PNG, or as SVG with the font embedded.
fn file<P: Plot>(
    chart: &P,
    from: &P::Source,
    path: &Path,
    opts: &ChartOptions,
) -> anyhow::Result<()> {
    let write = || -> anyhow::Result<()> {
        match opts.format {
            ChartFormat::Png => {
                let root = BitMapBackend::new(path, opts.size()).into_drawing_area();
                root.fill(&WHITE)?;
                chart.framed(from).draw(&root)?;
                root.present()?;
            }
            ChartFormat::Svg => {
                std::fs::write(path, font::embed_in_svg(&svg(chart, from, opts.size())?))?
            }
        }
        Ok(())
    };
    write().with_context(|| format!("cannot draw chart {}", path.display()))
}

/// One chart as SVG text, with a hover target per bar, point and legend
/// entry its drawing recorded appended (see [`hotspot`]).
fn svg<P: Plot>(chart: &P, from: &P::Source, size: (u32, u32)) -> anyhow::Result<String> {
    let (drawn, spots) = hotspot::collect(|| -> anyhow::Result<String> {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
            root.fill(&WHITE)?;
            chart.framed(from).draw(&root)?;
            root.present()?;
        }
        Ok(svg)
    });
    Ok(hotspot::overlay(&drawn?, &spots))
}
