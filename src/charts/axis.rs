//! Axes drawn by nvcmp rather than plotters' mesh: tick positions at round
//! numbers (1-2-5 steps, decades on log axes), grid lines, tick labels and
//! axis titles, all through [`super::text::Label`] so bitmap text is laid
//! out correctly.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::canvas::{Area, Canvas};
use super::frame::{Sizes, font, text_width};
use super::palette::INK;
use super::text::Label;

const GRID: RGBColor = RGBColor(0xE4, 0xE4, 0xE4);

/// Most ticks an axis gets, whatever its range: a range comes from data,
/// and data never sizes a buffer.
pub(crate) const MAX_TICKS: usize = 64;

/// About `target` round ticks covering `lo..=hi`, and the decimals that
/// print them exactly. A range that is not finite gets no ticks.
pub(crate) fn linear_ticks(lo: f64, hi: f64, target: usize) -> (Vec<f64>, usize) {
    let span = (hi - lo).abs().max(f64::MIN_POSITIVE);
    if !(lo.is_finite() && hi.is_finite() && span.is_finite()) {
        return (Vec::new(), 0);
    }
    let raw = span / target.clamp(1, MAX_TICKS) as f64;
    let mag = crate::units::pow10(raw.log10().floor() as i32);
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    // A hair of slack so 1.2 / 0.2 = 5.999... still reaches 1.2.
    let first = (lo.min(hi) / step - 1e-9).ceil();
    let last = (hi.max(lo) / step + 1e-9).floor();
    if !(first.is_finite() && last.is_finite()) || last - first > MAX_TICKS as f64 {
        return (Vec::new(), 0);
    }
    let ticks = (first as i64..=last as i64)
        .map(|i| i as f64 * step)
        .collect();
    (ticks, decimals.min(6))
}

/// Decades within `lo..=hi` (log axis); 2x and 5x too when the range
/// spans fewer than three decades; every few decades when it spans more
/// than [`MAX_TICKS`]. A range that is not positive and finite gets none.
pub(crate) fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let Some((a, b)) = decades(lo, hi) else {
        return Vec::new();
    };
    // However wide the span, at most MAX_TICKS decades are ticked.
    let every = ((b - a) as usize / MAX_TICKS + 1).max(1);
    let at = |mults: &'static [f64]| -> Vec<f64> {
        (a..=b)
            .step_by(every)
            .flat_map(|e| mults.iter().map(move |m| m * crate::units::pow10(e)))
            .filter(|t| *t >= lo && *t <= hi)
            .collect()
    };
    // A narrow span (under a decade) gets every digit, so a log axis is
    // never read off one tick; the ends themselves when even those miss.
    let ticks = if b - a >= 3 {
        at(&[1.0])
    } else {
        at(&[1.0, 2.0, 5.0])
    };
    if ticks.len() >= 3 || b - a >= 3 {
        return ticks;
    }
    let fine = at(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
    if fine.len() >= 2 || hi <= lo {
        return fine;
    }
    let round2 = |v: f64| {
        let step = crate::units::pow10(v.log10().floor() as i32 - 1);
        (v / step).round() * step
    };
    let mut ends = vec![round2(lo * 1.05), round2(hi / 1.05)];
    ends.extend(fine);
    ends.retain(|t| *t >= lo && *t <= hi);
    ends.sort_by(f64::total_cmp);
    ends.dedup();
    ends
}

/// Ticks at 1, 2 and 5 times the powers of ten inside `lo..=hi` (the
/// steps a reader reads a log axis by); the decades alone where that would
/// be more than 12 ticks; never fewer than two ([`log_ticks`]' finer
/// digits or the range's ends then).
pub(crate) fn log_ticks_125(lo: f64, hi: f64) -> Vec<f64> {
    let Some((a, b)) = decades(lo, hi) else {
        return Vec::new();
    };
    if b - a > 12 {
        return log_ticks(lo, hi);
    }
    let ticks: Vec<f64> = (a..=b)
        .flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * crate::units::pow10(e)))
        .filter(|t| (lo..=hi).contains(t))
        .collect();
    if ticks.len() > 12 || ticks.len() < 2 {
        return log_ticks(lo, hi);
    }
    ticks
}

/// The decades (powers of ten, floor of `lo` to ceiling of `hi`) a log
/// axis over `lo..=hi` spans; None unless `0 < lo <= hi`, both finite.
pub(crate) fn decades(lo: f64, hi: f64) -> Option<(i32, i32)> {
    if !(lo > 0.0 && lo <= hi && hi.is_finite()) {
        return None;
    }
    // f64 spans 10^-324 to 10^308: the exponents fit an i32 whatever `lo`.
    Some((lo.log10().floor() as i32, hi.log10().ceil() as i32))
}

/// Decimals that print a log tick without losing it (0.001 -> 3, 0.0045
/// -> 4, 45 -> 0).
pub(crate) fn log_decimals(t: f64) -> usize {
    let d = (-t.log10().floor()).clamp(0.0, 9.0) as usize;
    // A tick of two significant digits (an end of a narrow span) keeps both.
    let scaled = t * crate::units::pow10(d as i32);
    if (scaled - scaled.round()).abs() > 1e-6 {
        (d + 1).min(9)
    } else {
        d
    }
}

/// Maps data coordinates to pixels of the area the axes are drawn on.
pub(crate) struct Axes<'a> {
    pub x: (f64, f64),
    pub y: (f64, f64),
    pub px: &'a dyn Fn(f64, f64) -> (i32, i32),
    pub sz: Sizes,
}

impl Axes<'_> {
    /// Horizontal grid lines and labels at `ticks`, the y axis line and
    /// its title (rotated, at the left edge of `area`).
    pub fn y<DB: Canvas>(
        &self,
        area: &Area<DB>,
        ticks: &[(f64, String)],
        title: &str,
    ) -> anyhow::Result<()> {
        let style = font(self.sz.small);
        let row = |t: f64| (self.px)(self.x.0, t).1;
        // A label needs its digits' height (about 0.6 of the font size)
        // and a little air between it and the next.
        let labelled = spaced(ticks, row, (self.sz.small * 0.8).ceil() as i32);
        for (t, label) in ticks {
            let (x0, y) = (self.px)(self.x.0, *t);
            let (x1, _) = (self.px)(self.x.1, *t);
            area.draw(&PathElement::new(vec![(x0, y), (x1, y)], GRID))?;
            if !labelled.contains(t) {
                continue;
            }
            area.draw(&Label::new(
                label.clone(),
                (x0 - 8, y),
                style.pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
        }
        let (x, top) = (self.px)(self.x.0, self.y.1);
        let (_, bottom) = (self.px)(self.x.0, self.y.0);
        area.draw(&PathElement::new(vec![(x, top), (x, bottom)], INK))?;
        let title_style = font(self.sz.text)
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Center, VPos::Top));
        // Centred on the axis, moved down as far as the area's top needs (a
        // title longer than a short panel's axis, under its heading).
        let half = text_width(area, title, &font(self.sz.text)) / 2;
        let height = area.dim_in_pixel().1 as i32;
        let middle = ((top + bottom) / 2)
            .max(half)
            .min((height - half).max(half));
        area.draw(&Label::new(title, (4, middle), title_style))?;
        Ok(())
    }

    /// The x axis line at `y`.
    pub fn x_line<DB: Canvas>(&self, area: &Area<DB>, y: f64) -> anyhow::Result<()> {
        let a = (self.px)(self.x.0, y);
        let b = (self.px)(self.x.1, y);
        area.draw(&PathElement::new(vec![a, b], INK))?;
        Ok(())
    }

    /// Labels under the x axis at data positions, optional vertical grid
    /// lines, and an axis title under them.
    pub fn x<DB: Canvas>(
        &self,
        area: &Area<DB>,
        ticks: &[(f64, String)],
        grid: bool,
        title: Option<&str>,
    ) -> anyhow::Result<()> {
        let style = font(self.sz.small);
        for (t, label) in ticks {
            let (x, bottom) = (self.px)(*t, self.y.0);
            if grid {
                let (_, top) = (self.px)(*t, self.y.1);
                area.draw(&PathElement::new(vec![(x, top), (x, bottom)], GRID))?;
            }
            area.draw(&Label::new(
                label.clone(),
                (x, bottom + 8),
                style.pos(Pos::new(HPos::Center, VPos::Top)),
            ))?;
        }
        self.x_line(area, self.y.0)?;
        if let Some(title) = title {
            let (l, bottom) = (self.px)(self.x.0, self.y.0);
            let (r, _) = (self.px)(self.x.1, self.y.0);
            // Centred under the plot, moved left as far as the area's right
            // edge needs (a long title under a plot with a wide left margin).
            let style = font(self.sz.text);
            let half = text_width(area, title, &style) / 2;
            let width = area.dim_in_pixel().0 as i32;
            let middle = ((l + r) / 2).min(width - half - 2).max(half);
            area.draw(&Label::new(
                title,
                (middle, bottom + 12 + (self.sz.small * 1.4) as i32),
                style.pos(Pos::new(HPos::Center, VPos::Top)),
            ))?;
        }
        Ok(())
    }
}

/// The ticks whose labels are drawn, at pixel rows `row(t)`, so that no
/// two are nearer than `gap` pixels: all when they are far enough apart;
/// else a log axis's decades alone (its 1-2-5 steps thinned to 1-10-100);
/// else every second, third, ... of those. Grid lines stay at every tick.
fn spaced(ticks: &[(f64, String)], row: impl Fn(f64) -> i32, gap: i32) -> Vec<f64> {
    let apart = |ts: &[f64]| ts.windows(2).all(|w| (row(w[0]) - row(w[1])).abs() >= gap);
    let all: Vec<f64> = ticks.iter().map(|t| t.0).collect();
    if apart(&all) {
        return all;
    }
    let decade = |t: &f64| *t > 0.0 && (t.log10() - t.log10().round()).abs() < 1e-9;
    let decades: Vec<f64> = all.iter().copied().filter(decade).collect();
    let base = if decades.len() >= 2 { decades } else { all };
    (1..=base.len())
        .map(|every| base.iter().copied().step_by(every).collect::<Vec<f64>>())
        .find(|ts| apart(ts))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crowded_tick_labels_keep_the_decades_then_fewer() {
        let ticks: Vec<(f64, String)> = [1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0]
            .iter()
            .map(|t| (*t, t.to_string()))
            .collect();
        // A row per tick 20 px apart: all labelled; 4 px apart: 1, 10, 100
        // (8 px apart); 2 px apart: 1 and 100.
        let rows = |px: f64| move |t: f64| (t.log10() * px * 2.5) as i32;
        assert_eq!(spaced(&ticks, rows(20.0), 10).len(), 7);
        assert_eq!(spaced(&ticks, rows(4.0), 8), [1.0, 10.0, 100.0]);
        assert_eq!(spaced(&ticks, rows(2.0), 8), [1.0, 100.0]);
        // Linear ticks far enough apart are all kept.
        let linear: Vec<(f64, String)> = (0..5).map(|i| (f64::from(i), i.to_string())).collect();
        assert_eq!(spaced(&linear, |t| (t * 30.0) as i32, 10).len(), 5);
    }

    #[test]
    fn ticks_are_round() {
        let (t, d) = linear_ticks(0.0, 97.05, 10);
        assert_eq!(
            t,
            [0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0]
        );
        assert_eq!(linear_ticks(0.0, 97.05, 8).0, [0.0, 20.0, 40.0, 60.0, 80.0]);
        assert_eq!(d, 0);
        let (t, d) = linear_ticks(-12.0, 65.0, 8);
        assert_eq!(t.first(), Some(&-10.0));
        assert_eq!(d, 0);
        let (t, d) = linear_ticks(0.0, 1.2, 6);
        assert_eq!(t.len(), 7);
        assert_eq!(d, 1);
        assert_eq!(log_ticks(0.0005, 40.0), [0.001, 0.01, 0.1, 1.0, 10.0]);
        assert_eq!(log_ticks(3.0, 40.0), [5.0, 10.0, 20.0]);
        assert_eq!(log_decimals(0.001), 3);
        // 0.07 to 51 ms: 1-2-5 steps over three decades, not one tick a decade.
        assert_eq!(
            log_ticks_125(0.05, 70.0),
            [0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0]
        );
        // Never one tick, however narrow the span.
        assert!(log_ticks_125(3.0, 4.5).len() >= 2);
        // Fifteen decades: a tick a decade.
        assert_eq!(log_ticks_125(1e-3, 1e12).len(), 16);
        assert_eq!(log_decimals(10.0), 0);
    }

    #[test]
    fn no_range_from_data_makes_more_than_a_few_ticks() {
        // A denormal p50 (1e-320 ns) once made this an i32 overflow, and in
        // a release build a vector of billions of ticks.
        assert!(log_ticks(1e-320 / 1.3, 5e6).len() <= MAX_TICKS + 1);
        assert!(log_ticks(0.0, 5e6).is_empty());
        assert!(log_ticks(f64::NAN, 5e6).is_empty());
        assert!(log_ticks(1.0, f64::INFINITY).is_empty());
        assert!(linear_ticks(-1e308, 1e308, 8).0.is_empty());
        assert!(linear_ticks(0.0, f64::INFINITY, 8).0.is_empty());
        assert!(linear_ticks(0.0, f64::NAN, 8).0.is_empty());
        assert!(linear_ticks(0.0, 1e308, usize::MAX).0.len() <= MAX_TICKS + 1);
        assert!(linear_ticks(5.0, 5.0, 8).0.len() <= 1);
    }
}
