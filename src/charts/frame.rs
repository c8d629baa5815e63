//! What every chart has around its plot: a title, an optional subtitle, a
//! legend of configurations (one colour each), and footnotes at the bottom.
//! Text comes from input (labels) and is only ever drawn as text; it is
//! truncated or wrapped to the width so nothing overlaps.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::canvas::{Area, Canvas};
use super::font::FAMILY;
use super::hotspot::{self, Hotspot, HotspotShape, Owner};
use super::marks::{self, Glyph, Key};
use super::palette::{INK, MUTED};
use super::text::Label;

/// Font sizes and spacing, scaled with the image so a 3200x1800 chart
/// looks like a 1600x900 one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sizes {
    pub title: f64,
    pub text: f64,
    pub small: f64,
    pub pad: i32,
}

impl Sizes {
    pub fn of<DB: Canvas>(root: &Area<DB>) -> Sizes {
        let (w, h) = root.dim_in_pixel();
        let s = (w as f64 / 1600.0).min(h as f64 / 900.0).max(0.3);
        Sizes {
            title: (30.0 * s).max(14.0),
            text: (19.0 * s).max(10.0),
            small: (16.0 * s).max(9.0),
            pad: (16.0 * s).max(6.0) as i32,
        }
    }
}

pub(crate) fn font(size: f64) -> TextStyle<'static> {
    (FAMILY, size).into_font().color(&INK)
}

pub(crate) fn bold(size: f64) -> TextStyle<'static> {
    (FAMILY, size, FontStyle::Bold).into_font().color(&INK)
}

/// Width in pixels of `text` in `style`.
pub(crate) fn text_width<DB: Canvas>(area: &Area<DB>, text: &str, style: &TextStyle) -> i32 {
    area.estimate_text_size(text, style)
        .map(|(w, _)| w as i32)
        .unwrap_or(text.chars().count() as i32 * style.font.get_size() as i32 / 2)
}

/// The part of `area` below `heading` (a small bold title, cut to the
/// width) `lines` text heights tall; all of `area` when there is none.
pub(crate) fn under_heading<DB: Canvas>(
    area: &Area<DB>,
    heading: Option<&str>,
    sz: Sizes,
    lines: f64,
) -> anyhow::Result<Area<DB>> {
    let Some(h) = heading else {
        return Ok(area.clone());
    };
    let style = bold(sz.text);
    let (w, _) = area.dim_in_pixel();
    let h = fit(area, h, &style, w as i32 - 2 * sz.pad);
    area.draw(&Label::new(h, (sz.pad, 0), style))?;
    Ok(area.split_vertically((sz.text * lines) as u32).1)
}

/// `text` on as few lines as keep each at most `max_px` wide: broken
/// before each ` x ` (a load point: `QD128 x 8 devices` / `x 17
/// instances`), and a part still too wide at its spaces (`randread` /
/// `4k`); at most `max_lines`, the last cut with an ellipsis when the
/// rest does not fit ([`fit`]).
pub(crate) fn wrap_load<DB: Canvas>(
    area: &Area<DB>,
    text: &str,
    style: &TextStyle,
    max_px: i32,
    max_lines: usize,
) -> Vec<String> {
    let fits = |t: &str| text_width(area, t, style) <= max_px;
    // (what joins it to the text before, the token).
    let mut tokens: Vec<(&str, String)> = Vec::new();
    for (k, part) in text.split(" x ").enumerate() {
        let (joiner, part) = match k {
            0 => ("", part.to_string()),
            _ => (" ", format!("x {part}")),
        };
        if fits(&part) {
            tokens.push((joiner, part));
        } else {
            for (w, word) in part.split(' ').enumerate() {
                tokens.push((if w == 0 { joiner } else { " " }, word.to_string()));
            }
        }
    }
    let mut lines: Vec<String> = Vec::new();
    for (joiner, token) in tokens {
        match lines.last_mut() {
            Some(last) if fits(&format!("{last}{joiner}{token}")) => {
                last.push_str(joiner);
                last.push_str(&token);
            }
            _ => lines.push(token),
        }
    }
    if lines.len() > max_lines {
        let rest = lines.split_off(max_lines - 1).join(" ");
        lines.push(rest);
    }
    lines.iter().map(|l| fit(area, l, style, max_px)).collect()
}

/// `text` cut with an ellipsis so it is at most `max_px` wide.
pub(crate) fn fit<DB: Canvas>(
    area: &Area<DB>,
    text: &str,
    style: &TextStyle,
    max_px: i32,
) -> String {
    if text_width(area, text, style) <= max_px {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let (mut lo, mut hi) = (0, chars.len());
    // Longest prefix that fits with the ellipsis: binary search.
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        let cand: String = chars[..mid].iter().collect::<String>() + "…";
        if text_width(area, &cand, style) <= max_px {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    chars[..lo].iter().collect::<String>() + "…"
}

/// `text` broken into lines at most `max_px` wide (at spaces; a word wider
/// than a line is cut).
pub(crate) fn wrap<DB: Canvas>(
    area: &Area<DB>,
    text: &str,
    style: &TextStyle,
    max_px: i32,
) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let cand = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if text_width(area, &cand, style) <= max_px || line.is_empty() {
            line = cand;
        } else {
            lines.push(std::mem::take(&mut line));
            line = word.to_string();
        }
    }
    lines.push(line);
    lines
        .into_iter()
        .map(|l| fit(area, &l, style, max_px))
        .collect()
}

/// Title, legend and footnotes of one chart.
#[derive(Default)]
pub(crate) struct Frame {
    pub title: String,
    pub subtitle: Option<String>,
    /// (label, colour) in display order.
    pub legend: Vec<(String, RGBColor)>,
    /// What the marks mean (error bars, hatching), after the configs.
    pub keys: Vec<Key>,
    pub footnotes: Vec<String>,
    /// The run parameters, one line under the footnotes.
    pub footer: Option<String>,
}

impl Frame {
    /// Draws the frame and returns the area left for the plot.
    pub fn draw<DB: Canvas>(&self, root: &Area<DB>) -> anyhow::Result<Area<DB>> {
        let sz = Sizes::of(root);
        let (w, h) = root.dim_in_pixel();
        let inner = w as i32 - 2 * sz.pad;
        let mut y = sz.pad;

        // Titles wrap on a narrow chart rather than lose their end.
        let title_style = bold(sz.title);
        for line in wrap(root, &self.title, &title_style, inner) {
            root.draw(&Label::new(line, (sz.pad, y), title_style.clone()))?;
            y += (sz.title * 1.35) as i32;
        }
        if let Some(sub) = &self.subtitle {
            let style = font(sz.text).color(&MUTED);
            for line in wrap(root, sub, &style, inner) {
                root.draw(&Label::new(line, (sz.pad, y), style.clone()))?;
                y += (sz.text * 1.4) as i32;
            }
        }
        let top = self.draw_legend(root, sz, y)? + sz.pad / 2;
        let foot_h = self.draw_footnotes(root, sz)?;
        let plot_h = (h as i32 - top - foot_h).max(50) as u32;
        let (_, rest) = root.split_vertically(top.max(0) as u32);
        let (plot, _) = rest.split_vertically(plot_h);
        Ok(plot)
    }

    /// Legend from row `y`: swatch + label per config, then the keys,
    /// flowing left to right and wrapping. Returns the row below it.
    fn draw_legend<DB: Canvas>(
        &self,
        root: &Area<DB>,
        sz: Sizes,
        mut y: i32,
    ) -> anyhow::Result<i32> {
        let w = root.dim_in_pixel().0 as i32;
        let inner = w - 2 * sz.pad;
        let style = font(sz.text);
        let swatch = (sz.text * 0.9) as i32;
        let gap = (sz.text * 1.5) as i32;
        let row_h = (sz.text * 1.5) as i32;
        let off = ((sz.text * 1.17) as i32 - swatch) / 2;
        let configs = self.legend.iter().map(|(l, c)| (l, Err(*c)));
        let keys = self.keys.iter().map(|k| (&k.text, Ok(k.glyph)));
        let items: Vec<(&String, Result<Glyph, RGBColor>)> = configs.chain(keys).collect();
        if items.is_empty() {
            return Ok(y);
        }
        y += (sz.text * 0.3) as i32;
        let mut x = sz.pad;
        for (name, mark) in items {
            let label = name;
            // Keys are sentences: they may take the whole width.
            let max_label = match mark {
                Err(_) => (inner / 2).min((sz.text * 22.0) as i32),
                Ok(_) => inner - swatch - 8,
            };
            let label = fit(root, label, &style, max_label);
            let item_w = swatch + 8 + text_width(root, &label, &style);
            if x > sz.pad && x + item_w > w - sz.pad {
                x = sz.pad;
                y += row_h;
            }
            let at = (x, y + off);
            match mark {
                Err(color) => {
                    let b = (x + swatch, y + off + swatch);
                    root.draw(&Rectangle::new([at, b], color.filled()))?;
                }
                Ok(glyph) => marks::draw_glyph(root, glyph, at, swatch)?,
            }
            root.draw(&Label::new(label, (x + swatch + 8, y), style.clone()))?;
            if let Err(color) = mark {
                // A config's legend entry: hovering names it, clicking it
                // in report.html hides the config.
                let (bx, by) = root.get_base_pixel();
                hotspot::record(Hotspot {
                    shape: HotspotShape::Rect(
                        (bx + x - 4, by + y),
                        (bx + x + item_w + 4, by + y + row_h),
                    ),
                    owner: Owner::Config(name.clone()),
                    title: name.clone(),
                    legend: Some(color),
                });
            }
            x += item_w + gap;
        }
        Ok(y + row_h)
    }

    /// Footnotes and the footer line at the bottom; returns their height.
    fn draw_footnotes<DB: Canvas>(&self, root: &Area<DB>, sz: Sizes) -> anyhow::Result<i32> {
        let (w, h) = root.dim_in_pixel();
        let inner = w as i32 - 2 * sz.pad;
        let small = font(sz.small).color(&MUTED);
        let mut lines: Vec<String> = self
            .footnotes
            .iter()
            .flat_map(|f| wrap(root, f, &small, inner))
            .collect();
        // The footer is a record: wrapped like the notes, never cut.
        lines.extend(
            self.footer
                .iter()
                .flat_map(|f| wrap(root, f, &small, inner)),
        );
        let line_h = (sz.small * 1.35) as i32;
        let foot_h = if lines.is_empty() {
            sz.pad / 2
        } else {
            lines.len() as i32 * line_h + sz.pad
        };
        for (i, line) in lines.into_iter().enumerate() {
            let ly = h as i32 - foot_h + sz.pad / 2 + i as i32 * line_h;
            root.draw(&Label::new(
                line,
                (sz.pad, ly),
                small.pos(Pos::new(HPos::Left, VPos::Top)),
            ))?;
        }
        Ok(foot_h)
    }
}
