//! A line plot: one line per config over two numeric axes, either of them
//! logarithmic, drawn with nvcmp's own [`Axes`]. Shared by the percentile
//! and latency-distribution charts, which differ only in their data and
//! which axis is log.

use plotters::coord::Shift;
use plotters::coord::ranged1d::AsRangedCoord;
use plotters::prelude::*;

use super::axis::{Axes, log_decimals, log_ticks};
use super::frame::Sizes;
use super::scale::number;

/// One axis' data range, in display units.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Range {
    Linear(f64, f64),
    Log(f64, f64),
}

impl Range {
    fn bounds(self) -> (f64, f64) {
        match self {
            Range::Linear(lo, hi) | Range::Log(lo, hi) => (lo, hi),
        }
    }
}

/// One config's line.
pub(crate) struct Line {
    pub color: RGBColor,
    /// (x, y) in display units, in drawing order.
    pub points: Vec<(f64, f64)>,
    /// A dot on every point as well as the line.
    pub dots: bool,
}

pub(crate) struct LinePlot {
    pub x: Range,
    pub y: Range,
    /// Width of the y tick labels, in multiples of the text size.
    pub y_label_width: f64,
    pub x_ticks: Vec<(f64, String)>,
    pub y_ticks: Vec<(f64, String)>,
    pub x_title: String,
    pub y_title: String,
    pub lines: Vec<Line>,
}

/// Ticks of a log axis over `lo..=hi`, labelled with the decimals each
/// needs.
pub(crate) fn log_tick_labels(lo: f64, hi: f64) -> Vec<(f64, String)> {
    log_ticks(lo, hi)
        .into_iter()
        .map(|t| (t, number(t, log_decimals(t), false)))
        .collect()
}

impl LinePlot {
    /// Draws the plot into `plot`; `sz` comes from the whole image.
    pub fn draw<DB: DrawingBackend>(
        &self,
        plot: &DrawingArea<DB, Shift>,
        sz: Sizes,
    ) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        // plotters types a log axis apart from a linear one, so each pair
        // of kinds is its own instance of `draw_in`.
        match (self.x, self.y) {
            (Range::Linear(a, b), Range::Linear(c, d)) => self.draw_in(plot, sz, a..b, c..d),
            (Range::Linear(a, b), Range::Log(c, d)) => {
                self.draw_in(plot, sz, a..b, (c..d).log_scale())
            }
            (Range::Log(a, b), Range::Linear(c, d)) => {
                self.draw_in(plot, sz, (a..b).log_scale(), c..d)
            }
            (Range::Log(a, b), Range::Log(c, d)) => {
                self.draw_in(plot, sz, (a..b).log_scale(), (c..d).log_scale())
            }
        }
    }

    fn draw_in<DB, X, Y>(
        &self,
        plot: &DrawingArea<DB, Shift>,
        sz: Sizes,
        x: X,
        y: Y,
    ) -> anyhow::Result<()>
    where
        DB: DrawingBackend,
        DB::ErrorType: 'static,
        X: AsRangedCoord<Value = f64>,
        Y: AsRangedCoord<Value = f64>,
    {
        let mut chart = ChartBuilder::on(plot)
            .margin(sz.pad as u32)
            .x_label_area_size((sz.text * 3.4) as u32)
            .y_label_area_size((sz.text * self.y_label_width) as u32)
            .build_cartesian_2d(x, y)?;
        let base = plot.get_base_pixel();
        let to_px = |x: f64, y: f64| {
            let (a, b) = chart.backend_coord(&(x, y));
            (a - base.0, b - base.1)
        };
        let axes = Axes {
            x: self.x.bounds(),
            y: self.y.bounds(),
            px: &to_px,
            sz,
        };
        axes.y(plot, &self.y_ticks, &self.y_title)?;
        axes.x(plot, &self.x_ticks, true, Some(&self.x_title))?;
        for line in &self.lines {
            chart.draw_series(LineSeries::new(
                line.points.clone(),
                line.color.stroke_width(3),
            ))?;
            if line.dots {
                chart.draw_series(
                    line.points
                        .iter()
                        .map(|(x, y)| Circle::new((*x, *y), 5, line.color.filled())),
                )?;
            }
        }
        Ok(())
    }
}
