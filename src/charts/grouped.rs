//! A grouped bar panel: categories (workloads) along x, one bar per config
//! in each group, the value printed on every bar, best and tied bars
//! marked, ±1 sd whiskers where the comparison knows a spread. Shared by
//! the metric, delta and efficiency charts.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{Axes, linear_ticks};
use super::figure::{Area, Canvas};
use super::frame::{Sizes, bold, fit, font, text_width};
use super::hotspot::{self, Hotspot, Owner, Shape};
use super::marks;
use super::palette::INK;
use super::scale::Scale;
use super::text::Label;
use crate::format;

/// How a bar is marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mark {
    None,
    /// The comparison's winner.
    Best,
    /// Tied for best (within precision or not significant).
    Tied,
    /// Cannot be told apart from the baseline (a delta chart's bar).
    Same,
}

impl Mark {
    fn prefix(self) -> &'static str {
        match self {
            Mark::None => "",
            Mark::Best => "★ ",
            Mark::Tied => "☆ ",
            Mark::Same => "≈ ",
        }
    }

    /// Hatched: the value is no real difference from the one it is
    /// compared with (the best, or the baseline).
    fn hatched(self) -> bool {
        matches!(self, Mark::Tied | Mark::Same)
    }
}

/// One config's bars.
pub(crate) struct Series {
    /// The config, for the bars' hover targets.
    pub name: String,
    pub color: RGBColor,
    /// Base-unit value per category; None where missing.
    pub values: Vec<Option<f64>>,
    pub marks: Vec<Mark>,
    /// Standard deviation per category, base units, where the comparison
    /// knows a spread (repeated runs or fio's samples).
    pub spreads: Vec<Option<f64>>,
}

impl Series {
    /// The ±1 sd error bar of category `i` in display units, (low, high):
    /// a count or a time is never below zero, so the low end stops there.
    pub fn whisker(&self, i: usize, scale: &Scale) -> Option<(f64, f64)> {
        let v = self.values.get(i).copied().flatten()?;
        let sd = self.spreads.get(i).copied().flatten()?;
        if !(sd.is_finite() && sd > 0.0) {
            return None;
        }
        let lo = v - sd;
        let lo = if v >= 0.0 { lo.max(0.0) } else { lo };
        Some((scale.to_display(lo), scale.to_display(v + sd)))
    }

    /// What the bar of category `i` reaches, value and whisker, display
    /// units: where its label goes and what the y range must hold.
    fn reach(&self, i: usize, scale: &Scale) -> Option<(f64, f64)> {
        let v = scale.to_display(self.values.get(i).copied().flatten()?);
        Some(match self.whisker(i, scale) {
            Some((lo, hi)) => (lo.min(v), hi.max(v)),
            None => (v, v),
        })
    }
}

pub(crate) struct Panel {
    /// Small title above the panel (efficiency charts have two panels).
    pub heading: Option<String>,
    pub y_desc: String,
    pub categories: Vec<String>,
    pub series: Vec<Series>,
    pub scale: Scale,
    /// Per category, the decimals its bars print with: one count across
    /// the configs, as in a table row.
    pub decimals: Vec<usize>,
}

impl Panel {
    /// Draws the panel into `area`; `sz` comes from the whole image so
    /// every panel of a figure uses the same font sizes.
    pub fn draw<DB: Canvas>(&self, area: &Area<DB>, sz: Sizes) -> anyhow::Result<()> {
        let area = match &self.heading {
            Some(h) => {
                let style = bold(sz.text);
                let (aw, _) = area.dim_in_pixel();
                let h = fit(area, h, &style, aw as i32 - 2 * sz.pad);
                area.draw(&Label::new(h, (sz.pad, 0), style))?;
                area.split_vertically((sz.text * 1.8) as u32).1
            }
            None => area.clone(),
        };
        let (aw, ah) = area.dim_in_pixel();
        let n_cat = self.categories.len().max(1);
        let n_ser = self.series.len().max(1);

        let cat_style = font(sz.text);
        let y_label_w = (sz.text * 6.0) as u32;
        let x_label_h = (sz.text * 2.2) as u32;
        let margin = sz.pad as u32;
        let plot_w = aw.saturating_sub(y_label_w + 2 * margin).max(10) as f64;
        let plot_h = ah.saturating_sub(x_label_h + 2 * margin).max(10) as f64;

        // Geometry in data units: each category is 1 wide, bars fill 80 %.
        let slot = 0.8 / n_ser as f64;
        let bar_px = plot_w / n_cat as f64 * slot * 0.88;

        let labels: Vec<Vec<String>> = self
            .series
            .iter()
            .map(|s| {
                s.values
                    .iter()
                    .zip(&s.marks)
                    .enumerate()
                    .map(|(i, (v, m))| match v {
                        Some(v) => {
                            let d = self.decimals.get(i).copied().unwrap_or(self.scale.decimals);
                            format!("{}{}", m.prefix(), self.scale.label(*v, d))
                        }
                        None => "n/a".into(),
                    })
                    .collect()
            })
            .collect();
        let widest_at = |size: f64| {
            labels
                .iter()
                .flatten()
                .map(|l| text_width(&area, l, &bold(size)))
                .max()
                .unwrap_or(0) as f64
        };
        // Labels go across the bar when every one fits, else up the bar;
        // up the bar they must be no taller than a bar's slot, so with many
        // bars the font shrinks, and below 8 px values are left out.
        let slot_px = plot_w / n_cat as f64 * slot;
        let mut vsize = sz.small;
        let mut widest = widest_at(vsize);
        let rotate = widest > bar_px + slot_px * 0.12;
        if rotate && vsize * 1.15 > slot_px {
            vsize = slot_px / 1.15;
            widest = widest_at(vsize);
        }
        let show_values = vsize >= 8.0;
        let value_style = font(vsize);
        let label_px = if !show_values {
            0.0
        } else if rotate {
            widest
        } else {
            vsize
        } + 14.0;

        let shown = |v: f64| self.scale.to_display(v);
        let all: Vec<f64> = self
            .series
            .iter()
            .flat_map(|s| (0..s.values.len()).filter_map(|i| s.reach(i, &self.scale)))
            .flat_map(|(lo, hi)| [lo, hi])
            .collect();
        let hi = all.iter().cloned().fold(0.0, f64::max);
        let lo = all.iter().cloned().fold(0.0, f64::min);
        let span = if hi - lo > 0.0 { hi - lo } else { 1.0 };
        // Room above (and below, for negative bars) for the labels, in
        // data units: the labels' pixels over the pixels left for bars.
        let frac = (label_px / plot_h).min(0.4);
        let parts = if lo < 0.0 && hi > 0.0 { 2.0 } else { 1.0 };
        let pad = span * frac / (1.0 - parts * frac);
        let y_hi = if hi > 0.0 || lo >= 0.0 {
            hi + pad
        } else {
            pad * 0.2
        };
        let y_lo = if lo < 0.0 { lo - pad } else { 0.0 };

        let chart = ChartBuilder::on(&area)
            .margin(margin)
            .x_label_area_size(x_label_h)
            .y_label_area_size(y_label_w)
            .build_cartesian_2d(0f64..n_cat as f64, y_lo..y_hi)?;
        let base = area.get_base_pixel();
        let px = |x: f64, y: f64| {
            let (a, b) = chart.backend_coord(&(x, y));
            (a - base.0, b - base.1)
        };
        let axes = Axes {
            x: (0.0, n_cat as f64),
            y: (y_lo, y_hi),
            px: &px,
            sz,
        };
        let (ticks, decimals) = linear_ticks(y_lo, y_hi, 8);
        let ticks: Vec<(f64, String)> = ticks
            .into_iter()
            .map(|t| (t, format::fixed(t, decimals)))
            .collect();
        axes.y(&area, &ticks, &self.y_desc)?;

        for (j, s) in self.series.iter().enumerate() {
            for (i, v) in s.values.iter().enumerate() {
                let x0 = i as f64 + 0.1 + j as f64 * slot + slot * 0.06;
                let x1 = x0 + slot * 0.88;
                let xc = (x0 + x1) / 2.0;
                let mark = s.marks.get(i).copied().unwrap_or(Mark::None);
                let label = labels[j][i].clone();
                let target = (px(x0, 0.0), v.map_or(px(x1, 0.0), |v| px(x1, shown(v))));
                self.note_bar(area.get_base_pixel(), (j, i), target, label_px);
                let Some(v) = v.map(shown) else {
                    let (x, y) = px(xc, 0.0);
                    area.draw(&Label::new(
                        label,
                        (x, y - 4),
                        value_style.pos(Pos::new(HPos::Center, VPos::Bottom)),
                    ))?;
                    continue;
                };
                let (a, b) = (px(x0, 0.0), px(x1, v));
                area.draw(&Rectangle::new([a, b], s.color.filled()))?;
                if mark.hatched() {
                    marks::hatch(&area, a, b, (sz.small * 0.8) as i32)?;
                }
                if mark != Mark::None {
                    let width = match mark {
                        Mark::Best => 3,
                        Mark::Tied => 2,
                        _ => 1,
                    };
                    area.draw(&Rectangle::new([a, b], INK.stroke_width(width)))?;
                }
                // The label sits past the whisker's end, not on it.
                let (reach_lo, reach_hi) = s.reach(i, &self.scale).unwrap_or((v, v));
                if let Some((lo, hi)) = s.whisker(i, &self.scale) {
                    let cap = ((b.0 - a.0).abs() / 5).clamp(2, 12);
                    let (x, _) = px(xc, 0.0);
                    let (lo, hi) = (px(xc, lo).1, px(xc, hi).1);
                    marks::whisker(&area, x, (lo, hi), cap, 2)?;
                }
                let (px_c, py) = px(xc, if v >= 0.0 { reach_hi } else { reach_lo });
                if !show_values {
                    continue;
                }
                let style = if mark == Mark::Best {
                    bold(vsize)
                } else {
                    value_style.clone()
                };
                let up = v >= 0.0;
                let text = if rotate {
                    let h = if up { HPos::Left } else { HPos::Right };
                    let y = if up { py - 6 } else { py + 6 };
                    Label::new(
                        label,
                        (px_c, y),
                        style
                            .transform(FontTransform::Rotate270)
                            .pos(Pos::new(h, VPos::Center)),
                    )
                } else {
                    let vp = if up { VPos::Bottom } else { VPos::Top };
                    let y = if up { py - 5 } else { py + 5 };
                    Label::new(label, (px_c, y), style.pos(Pos::new(HPos::Center, vp)))
                };
                area.draw(&text)?;
            }
        }
        axes.x_line(&area, 0.0)?;
        if !show_values {
            let (x, y) = px(n_cat as f64, y_hi);
            area.draw(&Label::new(
                "Too many bars to print values: see the report's tables.",
                (x, y),
                font(sz.small)
                    .color(&super::palette::MUTED)
                    .pos(Pos::new(HPos::Right, VPos::Top)),
            ))?;
        }

        // Category labels under each group, cut to the group's width.
        let group_px = (plot_w / n_cat as f64 * 0.98) as i32;
        let cats: Vec<(f64, String)> = self
            .categories
            .iter()
            .enumerate()
            .map(|(i, c)| (i as f64 + 0.5, fit(&area, c, &cat_style, group_px)))
            .collect();
        let (l, bottom) = px(0.0, y_lo);
        let (r, _) = px(n_cat as f64, y_lo);
        area.draw(&PathElement::new(vec![(l, bottom), (r, bottom)], INK))?;
        for (x, text) in cats {
            let (x, _) = px(x, y_lo);
            area.draw(&Label::new(
                text,
                (x, bottom + 8),
                cat_style.pos(Pos::new(HPos::Center, VPos::Top)),
            ))?;
        }
        Ok(())
    }

    /// Records bar `i` of series `j` as a hover target: the bar from `a`
    /// (its base) to `b` (its end) and the room for its value label
    /// beyond, so hiding the config masks both.
    fn note_bar(
        &self,
        base: (i32, i32),
        (j, i): (usize, usize),
        (a, b): ((i32, i32), (i32, i32)),
        label_px: f64,
    ) {
        let s = &self.series[j];
        let (v, mark) = (s.values[i], s.marks.get(i).copied().unwrap_or(Mark::None));
        let room = label_px.max(14.0) as i32;
        let end = if b.1 <= a.1 { b.1 - room } else { b.1 + room };
        let unit = if self.scale.unit.is_empty() {
            self.y_desc.as_str()
        } else {
            self.scale.unit
        };
        let value = match v {
            // Two more decimals than the bar prints: the tooltip is where
            // a reader looks for the exact figure.
            Some(v) => {
                let extra = if self.scale.decimals == 0 { 0 } else { 2 };
                let n = self.scale.to_display(v);
                let text = if self.scale.signed {
                    format::signed(n, self.scale.decimals + extra)
                } else {
                    format::fixed(n, self.scale.decimals + extra)
                };
                // ...but no padding: 6.1 GiB/s published stays 6.1.
                let text = if text.contains('.') {
                    text.trim_end_matches('0').trim_end_matches('.')
                } else {
                    &text
                };
                format!("{text} {unit}")
            }
            None => "no value".into(),
        };
        let note = match mark {
            Mark::None => "",
            Mark::Best => " (best)",
            Mark::Tied => " (tied for best)",
            Mark::Same => " (within rounding or noise of the baseline)",
        };
        let category = self.categories.get(i).map_or("", |c| c.as_str());
        hotspot::record(Hotspot {
            shape: Shape::Rect(
                (base.0 + a.0 - 2, base.1 + a.1),
                (base.0 + b.0 + 2, base.1 + end),
            ),
            owner: Owner::Config(s.name.clone()),
            title: format!("{} · {category}: {value}{note}", s.name),
            legend: None,
        });
    }
}
