//! A grouped bar panel: categories (workloads) along x, one bar per config
//! in each group, the value printed on every bar, best and tied bars
//! marked, ±1 sd whiskers where the comparison knows a spread. Shared by
//! the metric, delta and efficiency charts.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{Axes, linear_ticks};
use super::canvas::{Area, Canvas};
use super::frame::{Sizes, bold, font, text_width, under_heading, wrap, wrap_load};
use super::hotspot::{self, Hotspot, HotspotShape, Owner};
use super::marks;
use super::palette::INK;
use super::scale::ChartScale;
use super::text::Label;
use crate::numbers;

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
    /// Left out of the comparison (a footnote says why): no bar, the
    /// label says so rather than "n/a".
    Excluded,
}

impl Mark {
    fn prefix(self) -> &'static str {
        match self {
            Mark::None | Mark::Excluded => "",
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
pub(crate) struct BarSeries {
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

impl BarSeries {
    /// The ±1 sd error bar of category `i` in display units, (low, high):
    /// a count or a time is never below zero, so the low end stops there.
    pub fn whisker(&self, i: usize, scale: &ChartScale) -> Option<(f64, f64)> {
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
    fn reach(&self, i: usize, scale: &ChartScale) -> Option<(f64, f64)> {
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
    pub series: Vec<BarSeries>,
    pub scale: ChartScale,
    /// Per category, the decimals its bars print with: one count across
    /// the configs, as in a table row.
    pub decimals: Vec<usize>,
    /// A log y axis: latencies that span more than [`LOG_FROM`]x, where
    /// the shortest bars would vanish on a linear one. Bars rise from the
    /// axis's bottom, ticks are 1-2-5 steps each with its unit, and each
    /// bar's value carries its own unit (µs below 1 ms).
    pub log: bool,
}

/// The span (largest over smallest value) past which a latency bar chart
/// is log-scaled.
pub(crate) const LOG_FROM: f64 = 20.0;

/// Whether latencies `values_ns` need a log axis: they span more than
/// [`LOG_FROM`]x.
pub(crate) fn wants_log(values_ns: impl Iterator<Item = f64>) -> bool {
    let (lo, hi) = values_ns
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    hi / lo > LOG_FROM
}

/// Where a panel's bars and values go, worked out once before any bar is
/// drawn: the value labels decide the room above the bars.
struct Layout {
    /// Categories, at least one; each is 1 wide in data units.
    n_cat: usize,
    /// A bar's slot along x, data units: bars fill 80 % of a category.
    slot: f64,
    /// Pixels the bars and their labels have across and up.
    plot: (f64, f64),
    /// Pixels of the axis label areas (y labels across, x labels up) and
    /// the margin around the chart.
    y_label_w: u32,
    x_label_h: u32,
    margin: u32,
    /// Each category's label as drawn, a line each: its own lines (shape,
    /// then load point), a load point too wide for its group broken
    /// before ` x `.
    categories: Vec<Vec<String>>,
    /// Their font size: the text's, or the small one where a word of a
    /// label would be cut at the text's.
    cat_size: f64,
    /// Where even the small size would cut a label, the categories are
    /// lettered (A, B, ...) and these lines under them say what each
    /// letter is: a label is abbreviated with its key, never cut.
    key_lines: Vec<String>,
    /// The value label of each bar, per series then category.
    labels: Vec<Vec<String>>,
    /// Value labels' font size: smaller up the bar when the bars are many.
    vsize: f64,
    /// Labels up the bar (rotated) rather than across it.
    rotate: bool,
    /// False when the font would shrink below 8 px: no values drawn.
    show_values: bool,
    /// Pixels a value label takes past its bar's end.
    label_px: f64,
    /// The y range, display units.
    y: (f64, f64),
}

impl Panel {
    /// Draws the panel into `area`; `sz` comes from the whole image so
    /// every panel of a figure uses the same font sizes.
    pub fn draw<DB: Canvas>(&self, area: &Area<DB>, sz: Sizes) -> anyhow::Result<()> {
        let area = under_heading(area, self.heading.as_deref(), sz, 1.8)?;
        let lay = self.layout(&area, sz);
        let (y_lo, y_hi) = lay.y;
        // Without values, a line above the bars says why: room for it.
        let note_h = if lay.show_values {
            0
        } else {
            (sz.small * 1.3).ceil() as u32
        };
        let chart = ChartBuilder::on(&area)
            .margin(lay.margin)
            .margin_top(lay.margin + note_h)
            .x_label_area_size(lay.x_label_h)
            .y_label_area_size(lay.y_label_w)
            .build_cartesian_2d(0f64..lay.n_cat as f64, y_lo..y_hi)?;
        let base = area.get_base_pixel();
        let px = |x: f64, y: f64| {
            let (a, b) = chart.backend_coord(&(x, y));
            (a - base.0, b - base.1)
        };
        let axes = Axes {
            x: (0.0, lay.n_cat as f64),
            y: lay.y,
            px: &px,
            sz,
        };
        axes.y(&area, &self.y_ticks(lay.y), &self.y_desc)?;
        for (j, s) in self.series.iter().enumerate() {
            for i in 0..s.values.len() {
                self.draw_bar(&area, sz, &lay, &px, (j, i))?;
            }
        }
        axes.x_line(&area, self.base(&lay))?;
        if !lay.show_values {
            // Above the plot, ending at its right edge (over the top tick's
            // label, or the bars, where it was drawn inside the plot).
            let (x, y) = px(lay.n_cat as f64, y_hi);
            area.draw(&Label::new(
                "Too many bars to print values: see the report's tables.",
                (x, y - note_h as i32),
                font(sz.small)
                    .color(&super::palette::MUTED)
                    .pos(Pos::new(HPos::Right, VPos::Top)),
            ))?;
        }
        self.draw_categories(&area, &lay, &px)
    }

    /// Where a display value sits on the y axis: itself, or its log10 on a
    /// log axis (where nothing is at or below 0: such a bar starts and
    /// ends at the axis's bottom).
    fn y_of(&self, v: f64) -> f64 {
        if self.log {
            v.max(f64::MIN_POSITIVE).log10()
        } else {
            v
        }
    }

    /// Where bars start: 0, or the bottom of a log axis.
    fn base(&self, lay: &Layout) -> f64 {
        if self.log { lay.y.0 } else { 0.0 }
    }

    /// The y axis's ticks over `(lo, hi)` (axis units): round linear
    /// steps, or 1-2-5 steps of a log axis, each with its unit.
    fn y_ticks(&self, (lo, hi): (f64, f64)) -> Vec<(f64, String)> {
        if !self.log {
            let (ticks, decimals) = linear_ticks(lo, hi, 8);
            return ticks
                .into_iter()
                .map(|t| (t, numbers::fixed(t, decimals)))
                .collect();
        }
        let (lo, hi) = (10f64.powf(lo), 10f64.powf(hi));
        super::axis::log_ticks_125(lo, hi)
            .into_iter()
            .map(|t| (t.log10(), self.unit_text(t, true)))
            .collect()
    }

    /// Whether bar values and log ticks carry the unit: latencies on a
    /// log axis, every one in the report's latency unit.
    fn own_unit_labels(&self) -> bool {
        let time = matches!(self.scale.unit, "ms" | "µs" | "ns" | "s");
        time && self.log
    }

    /// A display value with the unit on a log latency axis (`0.05 ms`,
    /// `2 ms`, 4 significant digits), else the number alone; `trim` drops
    /// trailing zeros (ticks), values keep them (`0.08960 ms` beside
    /// `0.09062 ms`).
    fn unit_text(&self, v: f64, trim: bool) -> String {
        let decimals = |x: f64| {
            let d = numbers::significant_decimals(x);
            if trim { numbers::decimals_of(x, d) } else { d }
        };
        if self.own_unit_labels() {
            return format!("{} {}", numbers::fixed(v, decimals(v)), self.scale.unit);
        }
        numbers::fixed(v, decimals(v))
    }

    /// The panel's geometry in `area` (below any heading).
    fn layout<DB: Canvas>(&self, area: &Area<DB>, sz: Sizes) -> Layout {
        let (aw, ah) = area.dim_in_pixel();
        let n_cat = self.categories.len().max(1);
        let n_ser = self.series.len().max(1);
        let y_label_w = (sz.text * 6.0) as u32;
        let margin = sz.pad as u32;
        let plot_w = aw.saturating_sub(y_label_w + 2 * margin).max(10) as f64;
        let group_px = (plot_w / n_cat as f64 * 0.98) as i32;
        // The text size, or the small one where a word would be cut.
        let mut cat_size = sz.text;
        let mut categories = self.category_lines(area, cat_size, group_px);
        if categories.iter().flatten().any(|l| l.ends_with('…')) {
            cat_size = sz.small;
            categories = self.category_lines(area, cat_size, group_px);
        }
        let mut key_lines = Vec::new();
        if categories.iter().flatten().any(|l| l.ends_with('…')) {
            let letters: Vec<String> = (0..self.categories.len()).map(letter).collect();
            let key: Vec<String> = letters
                .iter()
                .zip(&self.categories)
                .map(|(l, c)| format!("{l}: {}", c.replace('\n', " ")))
                .collect();
            key_lines = wrap(
                area,
                &key.join(" · "),
                &font(sz.small),
                aw as i32 - 2 * sz.pad,
            );
            categories = letters.into_iter().map(|l| vec![l]).collect();
        }
        let lines = categories.iter().map(Vec::len).max().unwrap_or(1).max(1);
        let keys_h = key_lines.len() as f64 * sz.small * 1.3;
        let x_label_h = (sz.text + cat_size * 1.2 * lines as f64 + keys_h) as u32;
        let plot_h = ah.saturating_sub(x_label_h + 2 * margin).max(10) as f64;
        let slot = 0.8 / n_ser as f64;
        let mut lay = Layout {
            n_cat,
            slot,
            plot: (plot_w, plot_h),
            y_label_w,
            x_label_h,
            margin,
            categories,
            cat_size,
            key_lines,
            labels: self.value_labels(),
            vsize: sz.small,
            rotate: false,
            show_values: true,
            label_px: 0.0,
            y: (0.0, 0.0),
        };
        self.fit_value_labels(area, &mut lay);
        lay.y = self.y_range(&lay);
        lay
    }

    /// The category labels as drawn at `size` in groups `group_px` wide: each line
    /// of a label (shape, then load point) kept, one too wide broken
    /// before ` x ` (and at spaces where still too wide) onto up to four lines.
    fn category_lines<DB: Canvas>(
        &self,
        area: &Area<DB>,
        size: f64,
        group_px: i32,
    ) -> Vec<Vec<String>> {
        let style = font(size);
        self.categories
            .iter()
            .map(|c| {
                c.lines()
                    .flat_map(|line| wrap_load(area, line, &style, group_px, 4))
                    .collect()
            })
            .collect()
    }

    /// Each bar's printed value with its mark ("★ 6.1"), "n/a" where the
    /// config has none.
    fn value_labels(&self) -> Vec<Vec<String>> {
        let label = |i: usize, (v, m): (&Option<f64>, &Mark)| match v {
            Some(v) if self.own_unit_labels() => {
                format!(
                    "{}{}",
                    m.prefix(),
                    self.unit_text(self.scale.to_display(*v), false)
                )
            }
            Some(v) => {
                let d = self.decimals.get(i).copied().unwrap_or(self.scale.decimals);
                format!("{}{}", m.prefix(), self.scale.label(*v, d))
            }
            None if *m == Mark::Excluded => "excluded".into(),
            None => "n/a".into(),
        };
        self.series
            .iter()
            .map(|s| {
                let pairs = s.values.iter().zip(&s.marks).enumerate();
                pairs.map(|(i, vm)| label(i, vm)).collect()
            })
            .collect()
    }

    /// Labels go across the bar when every one fits, else up the bar; up
    /// the bar they must be no taller than a bar's slot, so with many bars
    /// the font shrinks, and below 8 px values are left out.
    fn fit_value_labels<DB: Canvas>(&self, area: &Area<DB>, lay: &mut Layout) {
        let widest_at = |size: f64| {
            lay.labels
                .iter()
                .flatten()
                .map(|l| text_width(area, l, &bold(size)))
                .max()
                .unwrap_or(0) as f64
        };
        let slot_px = lay.plot.0 / lay.n_cat as f64 * lay.slot;
        let bar_px = lay.plot.0 / lay.n_cat as f64 * lay.slot * 0.88;
        let mut widest = widest_at(lay.vsize);
        lay.rotate = widest > bar_px + slot_px * 0.12;
        if lay.rotate && lay.vsize * 1.15 > slot_px {
            lay.vsize = slot_px / 1.15;
            widest = widest_at(lay.vsize);
        }
        lay.show_values = lay.vsize >= 8.0;
        lay.label_px = if !lay.show_values {
            0.0
        } else if lay.rotate {
            widest
        } else {
            lay.vsize
        } + 14.0;
    }

    /// The y range: every bar and whisker, and room above (and below, for
    /// negative bars) for the value labels.
    fn y_range(&self, lay: &Layout) -> (f64, f64) {
        let reach = || {
            self.series
                .iter()
                .flat_map(|s| (0..s.values.len()).filter_map(|i| s.reach(i, &self.scale)))
        };
        let all: Vec<f64> = reach()
            .flat_map(|(lo, hi)| [lo, hi])
            .filter(|v| !self.log || *v > 0.0)
            .map(|v| self.y_of(v))
            .collect();
        let hi = all.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let lo = all.iter().cloned().fold(f64::INFINITY, f64::min);
        if self.log && lo.is_finite() {
            // Room under the shortest bar (two thirds of it shows), and
            // above the tallest for its label.
            let lo = lo - 1.5f64.log10();
            let span = (hi - lo).max(0.3);
            let frac = (lay.label_px / lay.plot.1).min(0.4);
            return (lo, hi + span * frac / (1.0 - frac));
        }
        let hi = hi.max(0.0);
        let lo = lo.min(0.0);
        let span = if hi - lo > 0.0 { hi - lo } else { 1.0 };
        // The labels' pixels over the pixels left for bars, in data units.
        let frac = (lay.label_px / lay.plot.1).min(0.4);
        let parts = if lo < 0.0 && hi > 0.0 { 2.0 } else { 1.0 };
        let pad = span * frac / (1.0 - parts * frac);
        let y_hi = if hi > 0.0 || lo >= 0.0 {
            hi + pad
        } else {
            pad * 0.2
        };
        let y_lo = if lo < 0.0 { lo - pad } else { 0.0 };
        (y_lo, y_hi)
    }

    /// Bar `i` of series `j`: its rectangle, hatching and outline by its
    /// mark, its whisker and its value label; "n/a" where it has no value.
    fn draw_bar<DB: Canvas>(
        &self,
        area: &Area<DB>,
        sz: Sizes,
        lay: &Layout,
        px: &dyn Fn(f64, f64) -> (i32, i32),
        (j, i): (usize, usize),
    ) -> anyhow::Result<()> {
        let s = &self.series[j];
        let x0 = i as f64 + 0.1 + j as f64 * lay.slot + lay.slot * 0.06;
        let x1 = x0 + lay.slot * 0.88;
        let xc = (x0 + x1) / 2.0;
        let mark = s.marks.get(i).copied().unwrap_or(Mark::None);
        let label = lay.labels[j][i].clone();
        let base = self.base(lay);
        let v = s.values[i].map(|v| self.y_of(self.scale.to_display(v)));
        let target = (px(x0, base), v.map_or(px(x1, base), |v| px(x1, v)));
        self.note_bar(area.get_base_pixel(), (j, i), target, lay.label_px);
        let Some(v) = v else {
            let (x, y) = px(xc, base);
            area.draw(&Label::new(
                label,
                (x, y - 4),
                font(lay.vsize).pos(Pos::new(HPos::Center, VPos::Bottom)),
            ))?;
            return Ok(());
        };
        let (a, b) = (px(x0, base), px(x1, v));
        area.draw(&Rectangle::new([a, b], s.color.filled()))?;
        if mark.hatched() {
            marks::hatch(area, a, b, (sz.small * 0.8) as i32)?;
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
        let (reach_lo, reach_hi) = s
            .reach(i, &self.scale)
            .map_or((v, v), |(lo, hi)| (self.y_of(lo).max(base), self.y_of(hi)));
        if let Some((lo, hi)) = s.whisker(i, &self.scale) {
            let cap = ((b.0 - a.0).abs() / 5).clamp(2, 12);
            let (x, _) = px(xc, base);
            let (lo, hi) = (px(xc, self.y_of(lo).max(base)).1, px(xc, self.y_of(hi)).1);
            marks::whisker(area, x, (lo, hi), cap, 2)?;
        }
        if !lay.show_values {
            return Ok(());
        }
        let up = v >= base;
        let end = px(xc, if up { reach_hi } else { reach_lo });
        area.draw(&value_text(lay, label, end, up, mark == Mark::Best))?;
        Ok(())
    }

    /// Category labels under each group, wrapped to the group's width, under
    /// a line along the bottom of the plot.
    fn draw_categories<DB: Canvas>(
        &self,
        area: &Area<DB>,
        lay: &Layout,
        px: &dyn Fn(f64, f64) -> (i32, i32),
    ) -> anyhow::Result<()> {
        let cat_style = font(lay.cat_size);
        let y_lo = lay.y.0;
        let (l, bottom) = px(0.0, y_lo);
        let (r, _) = px(lay.n_cat as f64, y_lo);
        area.draw(&PathElement::new(vec![(l, bottom), (r, bottom)], INK))?;
        let line_px = (lay.cat_size * 1.2) as i32;
        for (i, c) in lay.categories.iter().enumerate() {
            let (x, _) = px(i as f64 + 0.5, y_lo);
            for (k, line) in c.iter().enumerate() {
                area.draw(&Label::new(
                    line.as_str(),
                    (x, bottom + 8 + k as i32 * line_px),
                    cat_style.pos(Pos::new(HPos::Center, VPos::Top)),
                ))?;
            }
        }
        // The letters' key, from the panel's left edge.
        let lines = lay.categories.iter().map(Vec::len).max().unwrap_or(1) as i32;
        let key_top = bottom + 8 + lines * line_px + 4;
        let key_px = (lay.cat_size * 1.3) as i32;
        for (k, line) in lay.key_lines.iter().enumerate() {
            area.draw(&Label::new(
                line.as_str(),
                (lay.margin as i32, key_top + k as i32 * key_px),
                font(lay.cat_size)
                    .color(&super::palette::MUTED)
                    .pos(Pos::new(HPos::Left, VPos::Top)),
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
                    numbers::signed(n, self.scale.decimals + extra)
                } else {
                    numbers::fixed(n, self.scale.decimals + extra)
                };
                // ...but no padding: 6.1 GiB/s published stays 6.1.
                let text = if text.contains('.') {
                    text.trim_end_matches('0').trim_end_matches('.')
                } else {
                    &text
                };
                format!("{text} {unit}")
            }
            None if mark == Mark::Excluded => "excluded (see the footnote)".into(),
            None => "no value".into(),
        };
        let note = match mark {
            Mark::None | Mark::Excluded => "",
            Mark::Best => " (best)",
            Mark::Tied => " (tied for best)",
            Mark::Same => " (within rounding or noise of the baseline)",
        };
        let category = self.categories.get(i).map_or("", |c| c.as_str());
        hotspot::record(Hotspot {
            shape: HotspotShape::Rect(
                (base.0 + a.0 - 2, base.1 + a.1),
                (base.0 + b.0 + 2, base.1 + end),
            ),
            owner: Owner::Config(s.name.clone()),
            title: format!("{} · {category}: {value}{note}", s.name),
            legend: None,
        });
    }
}

/// The key of category `i` where labels are lettered: A-Z, then A2, B2...
fn letter(i: usize) -> String {
    let c = char::from(b'A' + (i % 26) as u8);
    match i / 26 {
        0 => c.to_string(),
        n => format!("{c}{}", n + 1),
    }
}

/// A bar's value label past its end `(x, y)` (pixels), up the bar or
/// across it as the layout says, above a bar that goes `up` and below one
/// that goes down; bold on the best bar.
fn value_text(lay: &Layout, label: String, (x, y): (i32, i32), up: bool, best: bool) -> Label<'_> {
    let style = if best {
        bold(lay.vsize)
    } else {
        font(lay.vsize)
    };
    if lay.rotate {
        let h = if up { HPos::Left } else { HPos::Right };
        let y = if up { y - 6 } else { y + 6 };
        let style = style.transform(FontTransform::Rotate270);
        Label::new(label, (x, y), style.pos(Pos::new(h, VPos::Center)))
    } else {
        let vp = if up { VPos::Bottom } else { VPos::Top };
        let y = if up { y - 5 } else { y + 5 };
        Label::new(label, (x, y), style.pos(Pos::new(HPos::Center, vp)))
    }
}
