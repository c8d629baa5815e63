//! What a bar or a point carries besides its value: the ±1 sd whisker of a
//! known spread, and the hatching of a value that cannot be told apart
//! from the one it is compared with. Drawn the same on the plot and in the
//! legend key that explains it, so the two always match.

use plotters::prelude::*;

use super::canvas::{Area, Canvas};
use super::palette::INK;

/// A legend entry that is not a config: what a mark on the plot means.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Key {
    pub glyph: Glyph,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Glyph {
    /// An error bar.
    Whisker,
    /// A hatched (faded) swatch: within rounding or noise.
    Hatched,
}

/// Grey of the hatched legend swatch: no config's colour.
const KEY_GREY: RGBColor = RGBColor(0x99, 0x99, 0x99);

/// White stripes at 45° over the rectangle with corners `a` and `b`
/// (pixels, any order): the bar stays its config's colour, faded, so a
/// reader sees at once that the value is no real difference.
pub(crate) fn hatch<DB: Canvas>(
    area: &Area<DB>,
    a: (i32, i32),
    b: (i32, i32),
    gap: i32,
) -> anyhow::Result<()> {
    let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
    let (top, bottom) = (a.1.min(b.1), a.1.max(b.1));
    let h = bottom - top;
    let gap = gap.max(3);
    let style = WHITE.mix(0.75).stroke_width((gap / 4).max(1) as u32);
    // Each stripe rises one pixel per pixel to the right from (t, bottom);
    // clipped to the rectangle's columns.
    let mut t = x0 - h;
    while t < x1 {
        let (lx, rx) = (t.max(x0), (t + h).min(x1));
        if lx < rx {
            let y = |x: i32| bottom - (x - t);
            area.draw(&PathElement::new(vec![(lx, y(lx)), (rx, y(rx))], style))?;
        }
        t += gap;
    }
    Ok(())
}

/// A vertical error bar from `lo` to `hi` (pixel rows) at column `x`, with
/// caps `cap` pixels either side.
pub(crate) fn whisker<DB: Canvas>(
    area: &Area<DB>,
    x: i32,
    (lo, hi): (i32, i32),
    cap: i32,
    width: u32,
) -> anyhow::Result<()> {
    let style = INK.stroke_width(width);
    area.draw(&PathElement::new(vec![(x, lo), (x, hi)], style))?;
    for y in [lo, hi] {
        area.draw(&PathElement::new(vec![(x - cap, y), (x + cap, y)], style))?;
    }
    Ok(())
}

/// A horizontal error bar from `lo` to `hi` (pixel columns) at row `y`.
pub(crate) fn whisker_across<DB: Canvas>(
    area: &Area<DB>,
    y: i32,
    (lo, hi): (i32, i32),
    cap: i32,
    width: u32,
) -> anyhow::Result<()> {
    let style = INK.stroke_width(width);
    area.draw(&PathElement::new(vec![(lo, y), (hi, y)], style))?;
    for x in [lo, hi] {
        area.draw(&PathElement::new(vec![(x, y - cap), (x, y + cap)], style))?;
    }
    Ok(())
}

/// The key's glyph in a `size`-pixel square at `at` (top left).
pub(crate) fn draw_glyph<DB: Canvas>(
    area: &Area<DB>,
    glyph: Glyph,
    at: (i32, i32),
    size: i32,
) -> anyhow::Result<()> {
    let (x, y) = at;
    match glyph {
        Glyph::Whisker => whisker(area, x + size / 2, (y + size, y), size / 3, 2),
        Glyph::Hatched => {
            let b = (x + size, y + size);
            area.draw(&Rectangle::new([at, b], KEY_GREY.filled()))?;
            hatch(area, at, b, (size / 3).max(3))
        }
    }
}
