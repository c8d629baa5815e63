//! A heatmap grid: categories along both axes (numjobs across, iodepth up),
//! each cell filled with a tint of one colour by its value and the value
//! printed in it; a colour bar on the right reads the tints back.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::canvas::{Area, Canvas};
use super::frame::{Sizes, bold, fit, font, text_width};
use super::hotspot::{self, Hotspot, HotspotShape, Owner};
use super::palette::{INK, MUTED};
use super::scale::ChartScale;
use super::text::Label;
use crate::numbers;

/// Tint of "no result" cells.
const EMPTY: RGBColor = RGBColor(0xF2, 0xF2, 0xF2);

pub(crate) struct HeatGrid {
    /// Column heads, left to right.
    pub cols: Vec<String>,
    /// Row heads, bottom to top.
    pub rows: Vec<String>,
    /// `values[row][col]`, base units.
    pub values: Vec<Vec<Option<f64>>>,
    /// The value drawn in full colour (the colour bar's top).
    pub max: f64,
    pub color: RGBColor,
    /// (row, col) of the cell to outline.
    pub peak: Option<(usize, usize)>,
    pub scale: ChartScale,
    /// A second line under each cell's value (`sub[row][col]`: its mean
    /// latency, "97.2 µs"); empty for none.
    pub sub: Vec<Vec<Option<String>>>,
    pub x_title: String,
    pub y_title: String,
    pub bar_title: String,
}

/// `color` mixed with white: 0 gives a pale tint, 1 the colour itself.
fn tint(color: RGBColor, t: f64) -> RGBColor {
    let t = 0.1 + 0.9 * t.clamp(0.0, 1.0);
    let mix = |c: u8| (255.0 - (255.0 - f64::from(c)) * t).round() as u8;
    RGBColor(mix(color.0), mix(color.1), mix(color.2))
}

/// White text on dark cells, ink on light ones (relative luminance).
fn text_on(c: RGBColor) -> RGBColor {
    let l = 0.2126 * f64::from(c.0) + 0.7152 * f64::from(c.1) + 0.0722 * f64::from(c.2);
    if l < 140.0 { WHITE } else { INK }
}

/// Pixel boxes of the grid: where the cells, the heads and the bar go.
struct GridBoxes {
    left: i32,
    top: i32,
    cell_w: i32,
    cell_h: i32,
    bar_x: i32,
}

impl HeatGrid {
    pub fn draw<DB: Canvas>(&self, area: &Area<DB>, sz: Sizes) -> anyhow::Result<()> {
        let lay = self.layout(area, sz);
        for (r, row) in self.values.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                self.draw_cell(area, sz, &lay, (r, c), *v)?;
            }
        }
        if let Some((r, c)) = self.peak {
            let (x, y) = self.cell_origin(&lay, r, c);
            area.draw(&Rectangle::new(
                [(x + 2, y + 2), (x + lay.cell_w - 2, y + lay.cell_h - 2)],
                INK.stroke_width(4),
            ))?;
        }
        self.draw_heads(area, sz, &lay)?;
        self.draw_bar(area, sz, &lay)
    }

    fn layout<DB: Canvas>(&self, area: &Area<DB>, sz: Sizes) -> GridBoxes {
        let (w, h) = area.dim_in_pixel();
        let (w, h) = (w as i32, h as i32);
        let left = (sz.text * 6.5) as i32;
        let bar_w = (sz.text * 8.0) as i32;
        let bottom = (sz.text * 3.6) as i32;
        let ncols = self.cols.len().max(1) as i32;
        let nrows = self.rows.len().max(1) as i32;
        let cell_w = ((w - left - bar_w - sz.pad) / ncols).max(10);
        let cell_h = ((h - bottom - sz.pad) / nrows).max(10);
        GridBoxes {
            left,
            top: sz.pad / 2,
            cell_w,
            cell_h,
            bar_x: left + cell_w * ncols + sz.pad * 2,
        }
    }

    /// Top-left pixel of cell (row, col); row 0 is the bottom row.
    fn cell_origin(&self, lay: &GridBoxes, r: usize, c: usize) -> (i32, i32) {
        let from_top = self.rows.len() - 1 - r;
        (
            lay.left + c as i32 * lay.cell_w,
            lay.top + from_top as i32 * lay.cell_h,
        )
    }

    fn draw_cell<DB: Canvas>(
        &self,
        area: &Area<DB>,
        sz: Sizes,
        lay: &GridBoxes,
        (r, c): (usize, usize),
        v: Option<f64>,
    ) -> anyhow::Result<()> {
        let (x, y) = self.cell_origin(lay, r, c);
        let fill = v.map_or(EMPTY, |v| {
            tint(self.color, v / self.max.max(f64::MIN_POSITIVE))
        });
        area.draw(&Rectangle::new(
            [(x, y), (x + lay.cell_w, y + lay.cell_h)],
            fill.filled(),
        ))?;
        area.draw(&Rectangle::new(
            [(x, y), (x + lay.cell_w, y + lay.cell_h)],
            WHITE.stroke_width(2),
        ))?;
        let text = v.map_or("no result".into(), |v| {
            self.scale.label(v, self.scale.decimals)
        });
        let size = (sz.title * 0.9).min(lay.cell_h as f64 * 0.3);
        let style = if self.peak == Some((r, c)) {
            bold(size)
        } else {
            font(size)
        };
        let text = fit(area, &text, &style, lay.cell_w - 8);
        let centre = (x + lay.cell_w / 2, y + lay.cell_h / 2);
        let sub = self
            .sub
            .get(r)
            .and_then(|row| row.get(c))
            .cloned()
            .flatten();
        // With a second line the value sits above the centre, the line under it.
        let value_at = match sub {
            Some(_) => (centre.0, centre.1 - (size * 0.55) as i32),
            None => centre,
        };
        area.draw(&Label::new(
            text,
            value_at,
            style
                .color(&text_on(fill))
                .pos(Pos::new(HPos::Center, VPos::Center)),
        ))?;
        if let Some(sub) = &sub {
            let small = font((sz.small).min(size * 0.8));
            let sub = fit(area, sub, &small, lay.cell_w - 8);
            area.draw(&Label::new(
                sub,
                (centre.0, centre.1 + (size * 0.15) as i32),
                small
                    .color(&text_on(fill))
                    .pos(Pos::new(HPos::Center, VPos::Top)),
            ))?;
        }
        self.note_cell(area, lay, (r, c), v, sub.as_deref());
        if self.peak == Some((r, c)) {
            let below = if sub.is_some() { 1.45 } else { 0.75 };
            area.draw(&Label::new(
                "peak",
                (centre.0, centre.1 + (size * below) as i32),
                font(sz.small)
                    .color(&text_on(fill))
                    .pos(Pos::new(HPos::Center, VPos::Top)),
            ))?;
        }
        Ok(())
    }

    /// Records cell (r, c) as a hover target: its row and column, value
    /// and second line.
    fn note_cell<DB: Canvas>(
        &self,
        area: &Area<DB>,
        lay: &GridBoxes,
        (r, c): (usize, usize),
        v: Option<f64>,
        sub: Option<&str>,
    ) {
        let (x, y) = self.cell_origin(lay, r, c);
        let (bx, by) = area.get_base_pixel();
        let value = v.map_or("no result".into(), |v| {
            let unit = if self.scale.unit.is_empty() {
                &self.bar_title
            } else {
                self.scale.unit
            };
            format!("{} {unit}", super::lines::exact(self.scale.to_display(v)))
        });
        hotspot::record(Hotspot {
            shape: HotspotShape::Rect((bx + x, by + y), (bx + x + lay.cell_w, by + y + lay.cell_h)),
            owner: Owner::Color(self.color),
            title: format!(
                "{} {}, {} {}: {value}{}",
                self.y_title,
                self.rows[r],
                self.x_title,
                self.cols[c],
                sub.map_or(String::new(), |s| format!(", mean latency {s}"))
            ),
            legend: None,
        });
    }

    fn draw_heads<DB: Canvas>(
        &self,
        area: &Area<DB>,
        sz: Sizes,
        lay: &GridBoxes,
    ) -> anyhow::Result<()> {
        let style = font(sz.text);
        let grid_bottom = lay.top + lay.cell_h * self.rows.len() as i32;
        for (c, head) in self.cols.iter().enumerate() {
            let x = lay.left + c as i32 * lay.cell_w + lay.cell_w / 2;
            area.draw(&Label::new(
                head.clone(),
                (x, grid_bottom + 8),
                style.pos(Pos::new(HPos::Center, VPos::Top)),
            ))?;
        }
        for (r, head) in self.rows.iter().enumerate() {
            let (_, y) = self.cell_origin(lay, r, 0);
            area.draw(&Label::new(
                head.clone(),
                (lay.left - 10, y + lay.cell_h / 2),
                style.pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
        }
        let mid_x = lay.left + lay.cell_w * self.cols.len() as i32 / 2;
        area.draw(&Label::new(
            self.x_title.clone(),
            (mid_x, grid_bottom + 14 + (sz.text * 1.3) as i32),
            style.pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
        let title_style = font(sz.text)
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Center, VPos::Top));
        area.draw(&Label::new(
            self.y_title.clone(),
            (4, (lay.top + grid_bottom) / 2),
            title_style,
        ))?;
        Ok(())
    }

    /// A vertical bar from 0 (bottom) to `max` (top) in the cells' tints,
    /// with ticks.
    fn draw_bar<DB: Canvas>(
        &self,
        area: &Area<DB>,
        sz: Sizes,
        lay: &GridBoxes,
    ) -> anyhow::Result<()> {
        let top = lay.top;
        let bottom = lay.top + lay.cell_h * self.rows.len() as i32;
        let (x0, x1) = (lay.bar_x, lay.bar_x + (sz.text * 1.2) as i32);
        let steps = (bottom - top).max(1);
        for i in 0..steps {
            let t = 1.0 - i as f64 / steps as f64;
            area.draw(&Rectangle::new(
                [(x0, top + i), (x1, top + i + 1)],
                tint(self.color, t).filled(),
            ))?;
        }
        area.draw(&Rectangle::new(
            [(x0, top), (x1, bottom)],
            MUTED.stroke_width(1),
        ))?;
        let style = font(sz.small).pos(Pos::new(HPos::Left, VPos::Center));
        let shown = self.scale.to_display(self.max);
        let (ticks, decimals) = super::axis::linear_ticks(0.0, shown, 6);
        for t in ticks {
            let y = bottom - ((t / shown) * (bottom - top) as f64) as i32;
            area.draw(&PathElement::new(vec![(x1, y), (x1 + 5, y)], INK))?;
            area.draw(&Label::new(
                numbers::fixed(t, decimals),
                (x1 + 8, y),
                style.clone(),
            ))?;
        }
        let title_w = text_width(area, &self.bar_title, &font(sz.small));
        area.draw(&Label::new(
            self.bar_title.clone(),
            (x0 + (x1 - x0) / 2 - title_w / 2, bottom + 8),
            font(sz.small)
                .color(&MUTED)
                .pos(Pos::new(HPos::Left, VPos::Top)),
        ))?;
        Ok(())
    }
}
