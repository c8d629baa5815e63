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
/// each chart with its path; a stem repeated is a bug
/// ([`names::distinct`]).
fn targets<'c, P: Plot>(
    charts: &'c [P],
    from: &P::Source,
    dir: &Path,
    opts: &ChartOptions,
) -> anyhow::Result<Vec<(&'c P, PathBuf)>> {
    opts.check_size()?;
    font::register()?;
    let out = dir.join("charts");
    crate::atomic_file::own_dir(&out)
        .with_context(|| format!("cannot create chart folder {}", out.display()))?;
    let stems = names::distinct(charts.iter().map(|c| c.stem(from)).collect())?;
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
            ChartFormat::Png => crate::atomic_file::write_via_path(path, |tmp| {
                let root = BitMapBackend::new(tmp, opts.size()).into_drawing_area();
                root.fill(&WHITE)?;
                chart.framed(from).draw(&root)?;
                root.present()?;
                anyhow::Ok(())
            })?,
            ChartFormat::Svg => {
                let text = font::embed_in_svg(&svg(chart, from, opts.size())?);
                crate::atomic_file::write(path, text.as_bytes())?
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
    Ok(xml_chars(hotspot::overlay(&drawn?, &spots)))
}

/// `svg` with every character XML 1.0 cannot hold (control characters
/// but tab and line breaks, U+FFFE, U+FFFF), which only names read from
/// files bring in, shown escaped as the terminal shows them (`\x01`,
/// `\u{9b}`): a config named with one still gives a chart browsers open.
fn xml_chars(svg: String) -> String {
    let bad = |c: char| {
        (c.is_control() && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{fffe}' | '\u{ffff}')
    };
    if !svg.contains(bad) {
        return svg;
    }
    let mut out = String::with_capacity(svg.len() + 16);
    for c in svg.chars() {
        if bad(c) {
            crate::render::table::push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    out
}
