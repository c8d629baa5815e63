//! A line plot: one line per config over two numeric axes, either of them
//! logarithmic, drawn with nvcmp's own [`Axes`]. Shared by the percentile,
//! latency-distribution, scaling, IOPS-latency and block-size charts, which
//! differ in their data, which axis is log, and what they add: dashed
//! lines, markers (a knee, a point at a latency target), horizontal rules
//! (the target) and point labels placed so none overlaps another.

use plotters::coord::ranged1d::AsRangedCoord;
use plotters::prelude::*;

use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{Axes, log_decimals, log_ticks_125};
use super::canvas::{Area, Canvas};
use super::frame::{Sizes, bold, font, text_width, under_heading};
use super::hotspot::{self, Hotspot, HotspotShape, Owner};
use super::marks;
use super::palette::{INK, MUTED};
use super::place::{Placer, Rect};
use super::text::Label;
use crate::numbers;

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

    /// The range's upper end.
    pub fn bounds_hi(self) -> f64 {
        self.bounds().1
    }
}

/// How a line is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stroke {
    Solid,
    /// p99 next to the mean's solid line.
    Dashed,
}

/// One config's line.
pub(crate) struct ConfigLine {
    pub color: RGBColor,
    /// (x, y) in display units, in drawing order.
    pub points: Vec<(f64, f64)>,
    /// A dot on every point as well as the line.
    pub dots: bool,
    pub stroke: Stroke,
}

impl ConfigLine {
    pub fn solid(color: RGBColor, points: Vec<(f64, f64)>, dots: bool) -> ConfigLine {
        ConfigLine {
            color,
            points,
            dots,
            stroke: Stroke::Solid,
        }
    }
}

/// A point singled out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MarkShape {
    /// A ring around the point: a sweep's knee.
    Ring,
    /// A diamond: the IOPS a config sustains at a latency target.
    Diamond,
    /// An open square: where a config saturates (reaches
    /// `saturation_pct` of its peak).
    Square,
}

pub(crate) struct Marker {
    pub at: (f64, f64),
    pub color: RGBColor,
    pub shape: MarkShape,
}

/// A ±1 sd error bar on a point, display units: from `lo` to `hi` along
/// y (a throughput against load), or along x when `across` (IOPS on the x
/// axis of latency against IOPS).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Whisker {
    pub at: (f64, f64),
    pub lo: f64,
    pub hi: f64,
    pub across: bool,
}

impl Whisker {
    /// Its two ends, display units.
    fn ends(&self) -> [(f64, f64); 2] {
        let (x, y) = self.at;
        if self.across {
            [(self.lo, y), (self.hi, y)]
        } else {
            [(x, self.lo), (x, self.hi)]
        }
    }
}

/// A horizontal reference line across the plot (a latency target), its
/// text at the right end.
pub(crate) struct HRule {
    pub y: f64,
    pub text: String,
}

/// Text next to a point ("QD16"), placed where it overlaps nothing.
pub(crate) struct PointLabel {
    pub at: (f64, f64),
    pub text: String,
    pub color: RGBColor,
    /// Bold: the knee's label.
    pub strong: bool,
}

pub(crate) struct LinePlot {
    /// Small bold title above the plot (stacked plots have one each).
    pub heading: Option<String>,
    pub x: Range,
    pub y: Range,
    /// Width of the y tick labels, in multiples of the text size.
    pub y_label_width: f64,
    pub x_ticks: Vec<(f64, String)>,
    pub y_ticks: Vec<(f64, String)>,
    /// Empty: no x axis title (the plot below has it).
    pub x_title: String,
    pub y_title: String,
    pub lines: Vec<ConfigLine>,
    pub markers: Vec<Marker>,
    pub rules: Vec<HRule>,
    pub labels: Vec<PointLabel>,
    pub whiskers: Vec<Whisker>,
    /// Shaded x ranges behind the lines (a steady-state window).
    pub bands: Vec<Band>,
}

/// An x range shaded from the bottom of the plot to the top, display units.
pub(crate) struct Band {
    pub from: f64,
    pub to: f64,
    pub color: RGBColor,
}

impl LinePlot {
    /// A plot of `lines` and nothing else.
    pub fn new(x: Range, y: Range, lines: Vec<ConfigLine>) -> LinePlot {
        LinePlot {
            heading: None,
            x,
            y,
            y_label_width: 6.0,
            x_ticks: Vec::new(),
            y_ticks: Vec::new(),
            x_title: String::new(),
            y_title: String::new(),
            lines,
            markers: Vec::new(),
            rules: Vec::new(),
            labels: Vec::new(),
            whiskers: Vec::new(),
            bands: Vec::new(),
        }
    }
}

/// An axis title without how it is drawn: "Latency (ms, log scale)" ->
/// "Latency (ms)", for tooltips.
fn axis_name(title: &str) -> String {
    title
        .replace(", log scale", "")
        .replace(" (log scale)", "")
        .replace(" (log2 scale)", "")
}

/// A value with four significant digits at least: tooltips give what the
/// axis can only hint at.
pub(crate) fn exact(v: f64) -> String {
    let digits = if v == 0.0 {
        0
    } else {
        v.abs().log10().floor() as i32
    };
    numbers::fixed(v, (3 - digits).clamp(0, 6) as usize)
}

/// Ticks of a log latency axis over `lo..=hi` (display units of
/// `scale`), each labelled with the report's one latency unit: `0.5 ms`,
/// `1 ms`, `20 ms`.
pub(crate) fn latency_log_ticks(
    lo: f64,
    hi: f64,
    scale: super::scale::ChartScale,
) -> Vec<(f64, String)> {
    log_ticks_125(lo, hi)
        .into_iter()
        .map(|t| {
            (
                t,
                format!("{} {}", numbers::fixed(t, log_decimals(t)), scale.unit),
            )
        })
        .collect()
}

/// Ticks of a log axis over `lo..=hi`, labelled with the decimals each
/// needs.
pub(crate) fn log_tick_labels(lo: f64, hi: f64) -> Vec<(f64, String)> {
    log_ticks_125(lo, hi)
        .into_iter()
        .map(|t| (t, numbers::fixed(t, log_decimals(t))))
        .collect()
}

impl LinePlot {
    /// Draws the plot into `plot`; `sz` comes from the whole image.
    pub fn draw<DB: Canvas>(&self, plot: &Area<DB>, sz: Sizes) -> anyhow::Result<()> {
        let plot = under_heading(plot, self.heading.as_deref(), sz, 1.6)?;
        let plot = &plot;
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

    fn draw_in<DB, X, Y>(&self, plot: &Area<DB>, sz: Sizes, x: X, y: Y) -> anyhow::Result<()>
    where
        DB: Canvas,
        X: AsRangedCoord<Value = f64>,
        Y: AsRangedCoord<Value = f64>,
    {
        let x_area = if self.x_title.is_empty() { 2.0 } else { 3.4 };
        let chart = ChartBuilder::on(plot)
            .margin(sz.pad as u32)
            .x_label_area_size((sz.text * x_area) as u32)
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
        let title = (!self.x_title.is_empty()).then_some(self.x_title.as_str());
        axes.x(plot, &self.x_ticks, true, title)?;
        self.draw_bands(plot, &to_px)?;
        self.draw_rules(plot, sz, &to_px)?;
        for line in &self.lines {
            self.draw_line(plot, line, sz, &to_px)?;
        }
        self.draw_whiskers(plot, sz, &to_px)?;
        self.draw_markers(plot, sz, &to_px)?;
        self.draw_labels(plot, sz, &to_px)
    }

    fn draw_line<DB: Canvas>(
        &self,
        plot: &Area<DB>,
        line: &ConfigLine,
        sz: Sizes,
        to_px: &dyn Fn(f64, f64) -> (i32, i32),
    ) -> anyhow::Result<()> {
        let px: Vec<(i32, i32)> = line.points.iter().map(|(x, y)| to_px(*x, *y)).collect();
        let pieces = match line.stroke {
            Stroke::Solid => vec![px.clone()],
            Stroke::Dashed => dashes(&px, 12.0 * k(sz), 8.0 * k(sz)),
        };
        for piece in pieces {
            thick_path(plot, &piece, scaled(sz, 3.0) as u32, line.color)?;
        }
        if line.dots {
            for p in &px {
                plot.draw(&Circle::new(*p, scaled(sz, 5.0), line.color.filled()))?;
            }
        }
        self.note_line(plot.get_base_pixel(), line, &px, sz);
        Ok(())
    }

    fn draw_whiskers<DB: Canvas>(
        &self,
        plot: &Area<DB>,
        sz: Sizes,
        to_px: &dyn Fn(f64, f64) -> (i32, i32),
    ) -> anyhow::Result<()> {
        let (cap, width) = (scaled(sz, 6.0), scaled(sz, 2.0).max(1) as u32);
        for w in &self.whiskers {
            let [a, b] = w.ends().map(|(x, y)| to_px(x, y));
            if w.across {
                marks::whisker_across(plot, a.1, (a.0, b.0), cap, width)?;
            } else {
                marks::whisker(plot, a.0, (a.1, b.1), cap, width)?;
            }
        }
        Ok(())
    }

    /// Records the line and its dots as hover targets; their config is
    /// named from the legend by colour (see [`hotspot::overlay`]).
    fn note_line(&self, base: (i32, i32), line: &ConfigLine, px: &[(i32, i32)], sz: Sizes) {
        let abs = |(x, y): (i32, i32)| (base.0 + x, base.1 + y);
        hotspot::record(Hotspot {
            shape: HotspotShape::Path(
                px.iter().map(|p| abs(*p)).collect(),
                scaled(sz, 3.0) as u32 + 8,
            ),
            owner: Owner::Color(line.color),
            title: String::new(),
            legend: None,
        });
        if !line.dots {
            return;
        }
        for (p, (x, y)) in px.iter().zip(&line.points) {
            let title = [(&self.x_title, *x), (&self.y_title, *y)]
                .into_iter()
                .filter(|(t, _)| !t.is_empty())
                .map(|(t, v)| format!("{}: {}", axis_name(t), exact(v)))
                .collect::<Vec<_>>()
                .join(", ");
            hotspot::record(Hotspot {
                shape: HotspotShape::Dot(abs(*p), scaled(sz, 5.0) as u32 + 4),
                owner: Owner::Color(line.color),
                title,
                legend: None,
            });
        }
    }

    /// Bands are pale (15 % of their colour) so lines over them keep
    /// their contrast.
    fn draw_bands<DB: Canvas>(
        &self,
        plot: &Area<DB>,
        to_px: &dyn Fn(f64, f64) -> (i32, i32),
    ) -> anyhow::Result<()> {
        let (y0, y1) = self.y.bounds();
        for b in &self.bands {
            let pale = RGBColor(
                (255.0 - 0.15 * (255.0 - b.color.0 as f64)) as u8,
                (255.0 - 0.15 * (255.0 - b.color.1 as f64)) as u8,
                (255.0 - 0.15 * (255.0 - b.color.2 as f64)) as u8,
            );
            let rect = Rectangle::new([to_px(b.from, y1), to_px(b.to, y0)], pale.filled());
            plot.draw(&rect)?;
        }
        Ok(())
    }

    fn draw_rules<DB: Canvas>(
        &self,
        plot: &Area<DB>,
        sz: Sizes,
        to_px: &dyn Fn(f64, f64) -> (i32, i32),
    ) -> anyhow::Result<()> {
        let (x0, x1) = self.x.bounds();
        for rule in &self.rules {
            let a = to_px(x0, rule.y);
            let b = to_px(x1, rule.y);
            for piece in dashes(&[a, b], 8.0 * k(sz), 6.0 * k(sz)) {
                thick_path(plot, &piece, scaled(sz, 2.0) as u32, MUTED)?;
            }
        }
        Ok(())
    }

    fn draw_markers<DB: Canvas>(
        &self,
        plot: &Area<DB>,
        sz: Sizes,
        to_px: &dyn Fn(f64, f64) -> (i32, i32),
    ) -> anyhow::Result<()> {
        for m in &self.markers {
            let (x, y) = to_px(m.at.0, m.at.1);
            match m.shape {
                MarkShape::Ring => {
                    let width = scaled(sz, MARK_STROKE) as u32;
                    plot.draw(&Circle::new(
                        (x, y),
                        scaled(sz, RING_RADIUS),
                        INK.stroke_width(width),
                    ))?;
                }
                MarkShape::Square => {
                    let d = scaled(sz, self.square_half_side(m));
                    let width = scaled(sz, MARK_STROKE) as u32;
                    plot.draw(&Rectangle::new(
                        [(x - d, y - d), (x + d, y + d)],
                        INK.stroke_width(width),
                    ))?;
                }
                MarkShape::Diamond => {
                    let d = scaled(sz, 10.0);
                    let pts = vec![(x, y - d), (x + d, y), (x, y + d), (x - d, y)];
                    plot.draw(&Polygon::new(pts.clone(), m.color.filled()))?;
                    let mut outline = pts;
                    outline.push((x, y - d));
                    plot.draw(&PathElement::new(
                        outline,
                        INK.stroke_width(scaled(sz, 2.0) as u32),
                    ))?;
                }
            }
        }
        Ok(())
    }

    /// Half the side of a saturation square, pixels at 1600x900: around
    /// the point, or where the knee is the same point, around its ring
    /// with a gap, so the two marks read as a ring in a square rather
    /// than as one blot.
    fn square_half_side(&self, m: &Marker) -> f64 {
        let ringed = self
            .markers
            .iter()
            .any(|o| o.shape == MarkShape::Ring && o.at == m.at);
        match ringed {
            true => RING_RADIUS + MARK_STROKE + 3.0,
            false => 10.0,
        }
    }

    /// How far a mark's ink reaches from its point, pixels at 1600x900.
    fn reach(&self, m: &Marker) -> f64 {
        let half_stroke = MARK_STROKE / 2.0;
        match m.shape {
            MarkShape::Ring => RING_RADIUS + half_stroke,
            MarkShape::Square => self.square_half_side(m) + half_stroke,
            MarkShape::Diamond => 10.0 + half_stroke,
        }
    }

    /// The plot's bounds in pixels, with every point, marker, line and
    /// rule taken, for labels to go around.
    fn placer(&self, sz: Sizes, to_px: &dyn Fn(f64, f64) -> (i32, i32)) -> Placer {
        let (x0, x1) = self.x.bounds();
        let (y0, y1) = self.y.bounds();
        let (l, b) = to_px(x0, y0);
        let (r, t) = to_px(x1, y1);
        let mut placer = Placer::new(Rect { l, t, r, b });
        for line in &self.lines {
            let px: Vec<(i32, i32)> = line.points.iter().map(|(x, y)| to_px(*x, *y)).collect();
            for p in &px {
                placer.block(Rect::around(*p, scaled(sz, 6.0)));
            }
            placer.block_line(&px);
        }
        for m in &self.markers {
            placer.block(Rect::around(
                to_px(m.at.0, m.at.1),
                scaled(sz, self.reach(m)),
            ));
        }
        for rule in &self.rules {
            placer.block_line(&[to_px(x0, rule.y), to_px(x1, rule.y)]);
        }
        for w in &self.whiskers {
            placer.block_line(&w.ends().map(|(x, y)| to_px(x, y)));
        }
        placer
    }

    /// Each rule's text above its right end, else wherever it is free
    /// first; where nothing is free, at the right end all the same: the
    /// target must be named.
    fn draw_rule_texts<DB: Canvas>(
        &self,
        plot: &Area<DB>,
        sz: Sizes,
        to_px: &dyn Fn(f64, f64) -> (i32, i32),
        placer: &mut Placer,
    ) -> anyhow::Result<()> {
        let (x0, x1) = self.x.bounds();
        let h = (sz.small * 1.3) as i32;
        for rule in &self.rules {
            let style = font(sz.small).color(&MUTED);
            let w = text_width(plot, &rule.text, &style) + 6;
            let ((l, y), (r, _)) = (to_px(x0, rule.y), to_px(x1, rule.y));
            let spots = [
                Rect::at(r - w - 8, y - h - 4, w, h),
                Rect::at(l + 8, y - h - 4, w, h),
                Rect::at(r - w - 8, y + 4, w, h),
                Rect::at(l + 8, y + 4, w, h),
            ];
            let spot = placer.first_free(&spots).unwrap_or(spots[0]);
            boxed_text(plot, spot, &rule.text, style)?;
        }
        Ok(())
    }

    /// Rule texts, then point labels (knees first), each where it overlaps
    /// nothing else and on a white box; a note under the plot when some
    /// point labels could not be placed.
    fn draw_labels<DB: Canvas>(
        &self,
        plot: &Area<DB>,
        sz: Sizes,
        to_px: &dyn Fn(f64, f64) -> (i32, i32),
    ) -> anyhow::Result<()> {
        if self.labels.is_empty() && self.rules.is_empty() {
            return Ok(());
        }
        let mut placer = self.placer(sz, to_px);
        self.draw_rule_texts(plot, sz, to_px, &mut placer)?;
        let (_, x1) = self.x.bounds();
        let h = (sz.small * 1.3) as i32;
        let mut left_out = 0;
        let mut labels: Vec<&PointLabel> = self.labels.iter().collect();
        labels.sort_by_key(|l| !l.strong);
        for label in labels {
            let style = if label.strong {
                bold(sz.small)
            } else {
                font(sz.small)
            };
            let w = text_width(plot, &label.text, &style) + 6;
            // Clear of the label's own point and of any mark drawn on it.
            let reach = self
                .markers
                .iter()
                .filter(|m| m.at == label.at)
                .map(|m| self.reach(m) + 1.5)
                .fold(if label.strong { 15.0 } else { 8.0 }, f64::max);
            let gap = scaled(sz, reach);
            match placer.place(to_px(label.at.0, label.at.1), (w, h), gap) {
                Some(spot) => {
                    let color = super::palette::as_text(label.color);
                    boxed_text(plot, spot, &label.text, style.color(&color))?
                }
                None => left_out += 1,
            }
        }
        if left_out > 0 {
            let (y0, _) = self.y.bounds();
            let (r, b) = to_px(x1, y0);
            // Level with the x axis title, right-aligned, clear of the ticks.
            plot.draw(&Label::new(
                "Some point labels left out where they would overlap.",
                (r, b + 12 + (sz.small * 1.4) as i32),
                font(sz.small)
                    .color(&MUTED)
                    .pos(Pos::new(HPos::Right, VPos::Top)),
            ))?;
        }
        Ok(())
    }
}

/// `text` in `spot` on a white box, so a grid line under it does not
/// strike it through.
fn boxed_text<DB: Canvas>(
    plot: &Area<DB>,
    spot: Rect,
    text: &str,
    style: TextStyle,
) -> anyhow::Result<()> {
    plot.draw(&Rectangle::new(
        [(spot.l, spot.t), (spot.r, spot.b)],
        WHITE.mix(0.85).filled(),
    ))?;
    plot.draw(&Label::new(
        text,
        (spot.l + 3, (spot.t + spot.b) / 2),
        style.pos(Pos::new(HPos::Left, VPos::Center)),
    ))?;
    Ok(())
}

/// A knee's ring: its radius and every mark's line width, pixels at
/// 1600x900.
const RING_RADIUS: f64 = 12.0;
const MARK_STROKE: f64 = 3.0;

/// How much smaller than at 1600x900 marks are drawn: line widths, dots,
/// rings shrink with the text so a small chart is not all ink.
fn k(sz: Sizes) -> f64 {
    sz.text / 19.0
}

/// `px` pixels at 1600x900, scaled to this chart; at least 1.
fn scaled(sz: Sizes, px: f64) -> i32 {
    (px * k(sz)).round().max(1.0) as i32
}

/// A polyline `width` pixels wide: a filled quad per segment and a disc at
/// each joint. plotters widens a path as one polygon, which comes out one
/// pixel thin on steep segments; a quad per segment does not.
fn thick_path<DB: Canvas>(
    plot: &Area<DB>,
    points: &[(i32, i32)],
    width: u32,
    color: RGBColor,
) -> anyhow::Result<()> {
    // Just under half the width: rounding ±1.5 would make a flat line
    // two pixels wider than a steep one.
    let r = f64::from(width) / 2.0 - 0.01;
    for seg in points.windows(2) {
        let (a, b) = (seg[0], seg[1]);
        let (dx, dy) = (f64::from(b.0 - a.0), f64::from(b.1 - a.1));
        let len = (dx * dx + dy * dy).sqrt();
        if len < 0.5 {
            continue;
        }
        let (nx, ny) = (-dy / len * r, dx / len * r);
        let at = |p: (i32, i32), s: f64| {
            (
                (f64::from(p.0) + s * nx).round() as i32,
                (f64::from(p.1) + s * ny).round() as i32,
            )
        };
        let quad = vec![at(a, 1.0), at(b, 1.0), at(b, -1.0), at(a, -1.0)];
        plot.draw(&Polygon::new(quad, color.filled()))?;
    }
    if width > 2 {
        for p in points.iter().skip(1).take(points.len().saturating_sub(2)) {
            plot.draw(&Circle::new(*p, width / 2, color.filled()))?;
        }
    }
    Ok(())
}

/// The dashes of a polyline: pieces `dash` pixels long, `gap` apart,
/// the pattern running on across corners.
fn dashes(points: &[(i32, i32)], dash: f64, gap: f64) -> Vec<Vec<(i32, i32)>> {
    let mut out = Vec::new();
    let mut piece: Vec<(i32, i32)> = Vec::new();
    // Where in the dash-gap period the pen is, from 0 to dash + gap.
    let mut phase = 0.0;
    let at = |a: (i32, i32), b: (i32, i32), t: f64| {
        (
            (f64::from(a.0) + t * f64::from(b.0 - a.0)).round() as i32,
            (f64::from(a.1) + t * f64::from(b.1 - a.1)).round() as i32,
        )
    };
    for seg in points.windows(2) {
        let (a, b) = (seg[0], seg[1]);
        let len = f64::from(b.0 - a.0).hypot(f64::from(b.1 - a.1));
        let mut done = 0.0;
        while done < len {
            let drawing = phase < dash;
            let left = if drawing {
                dash - phase
            } else {
                dash + gap - phase
            };
            let step = left.min(len - done);
            if drawing {
                if piece.is_empty() {
                    piece.push(at(a, b, done / len));
                }
                piece.push(at(a, b, (done + step) / len));
            }
            done += step;
            phase += step;
            if drawing && phase >= dash {
                out.push(std::mem::take(&mut piece));
            }
            if phase >= dash + gap {
                phase = 0.0;
            }
        }
    }
    if piece.len() > 1 {
        out.push(piece);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saturation_square_on_a_knee_goes_around_its_ring() {
        let mark = |at, shape| Marker {
            at,
            color: INK,
            shape,
        };
        let mut plot = LinePlot::new(
            Range::Linear(0.0, 10.0),
            Range::Linear(0.0, 10.0),
            Vec::new(),
        );
        plot.markers = vec![
            mark((4.0, 5.0), MarkShape::Ring),
            mark((4.0, 5.0), MarkShape::Square),
            mark((6.0, 7.0), MarkShape::Square),
        ];
        let [ring, shared, alone] = [0, 1, 2].map(|i| plot.reach(&plot.markers[i]));
        // The square's inner edge clears the ring's outer edge.
        assert!(shared - MARK_STROKE > ring, "{shared} {ring}");
        // Alone, it stays the size of the point's other marks.
        assert!(alone < ring, "{alone} {ring}");
    }

    #[test]
    fn dashes_follow_the_line_and_its_corners() {
        // 35 px right then 40 px down; dash 10, gap 5.
        let d = dashes(&[(0, 0), (35, 0), (35, 40)], 10.0, 5.0);
        assert_eq!(d[0], [(0, 0), (10, 0)]);
        assert_eq!(d[1], [(15, 0), (25, 0)]);
        // The dash at the corner turns with it.
        assert_eq!(d[2], [(30, 0), (35, 0), (35, 5)]);
        assert_eq!(d[3], [(35, 10), (35, 20)]);
        assert_eq!(d.len(), 5);
    }
}
