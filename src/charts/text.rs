//! Text on bitmaps, laid out correctly. plotters 0.3.7's ab_glyph
//! rasterizer places each glyph at the pen position without its left side
//! bearing (and on a guessed baseline), so "randread" reads "rand read".
//! [`Label`] draws through [`Glyphs`], a text style that positions every
//! glyph by its outline bounds on a real baseline. SVG output is not
//! affected: the SVG backend writes `<text>` and never rasterizes.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;
use plotters::style::text_anchor::Pos;
use plotters_backend::{
    BackendColor, BackendCoord, BackendTextStyle, DrawingErrorKind, FontFamily, FontStyle,
    FontTransform,
};

use super::font;

#[derive(Debug, thiserror::Error)]
#[error("the embedded chart font cannot be parsed")]
pub(crate) struct GlyphError;

/// A plotters text style whose glyphs are placed by nvcmp.
pub(crate) struct Glyphs<'a>(pub &'a TextStyle<'a>);

impl Glyphs<'_> {
    fn font(&self) -> Result<FontRef<'static>, GlyphError> {
        let bytes = match self.0.font.get_style() {
            FontStyle::Bold => font::BOLD,
            _ => font::REGULAR,
        };
        FontRef::try_from_slice(bytes).map_err(|_| GlyphError)
    }
}

impl BackendTextStyle for Glyphs<'_> {
    type FontError = GlyphError;

    fn color(&self) -> BackendColor {
        self.0.color
    }
    fn size(&self) -> f64 {
        self.0.font.get_size()
    }
    fn transform(&self) -> FontTransform {
        self.0.font.get_transform()
    }
    fn style(&self) -> FontStyle {
        self.0.font.get_style()
    }
    fn anchor(&self) -> Pos {
        self.0.pos
    }
    fn family(&self) -> FontFamily<'_> {
        self.0.font.get_family()
    }

    fn layout_box(&self, text: &str) -> Result<((i32, i32), (i32, i32)), GlyphError> {
        let font = self.font()?;
        let f = font.as_scaled(PxScale::from(self.size() as f32));
        let width = advance(&f, text);
        let height = f.ascent() - f.descent();
        Ok(((0, 0), (width.ceil() as i32, height.ceil() as i32)))
    }

    fn draw<E, F: FnMut(i32, i32, BackendColor) -> Result<(), E>>(
        &self,
        text: &str,
        (x0, y0): BackendCoord,
        mut draw: F,
    ) -> Result<Result<(), E>, GlyphError> {
        let font = self.font()?;
        let scale = PxScale::from(self.size() as f32);
        let f = font.as_scaled(scale);
        let color = self.0.color;
        let mut caret = 0.0f32;
        let mut prev = None;
        for c in text.chars() {
            let id = f.glyph_id(c);
            if let Some(p) = prev {
                caret += f.kern(p, id);
            }
            prev = Some(id);
            let glyph = id.with_scale_and_position(scale, point(caret, f.ascent()));
            caret += f.h_advance(id);
            let Some(outline) = font.outline_glyph(glyph) else {
                continue;
            };
            let b = outline.px_bounds();
            let mut out = Ok(());
            outline.draw(|x, y, cov| {
                if out.is_ok() && cov > 0.0 {
                    let px = x0 + b.min.x as i32 + x as i32;
                    let py = y0 + b.min.y as i32 + y as i32;
                    let c = BackendColor {
                        alpha: color.alpha * cov.min(1.0) as f64,
                        rgb: color.rgb,
                    };
                    out = draw(px, py, c);
                }
            });
            if let Err(e) = out {
                return Ok(Err(e));
            }
        }
        Ok(Ok(()))
    }
}

fn advance<F: Font, S: ScaleFont<F>>(f: &S, text: &str) -> f32 {
    let mut w = 0.0;
    let mut prev = None;
    for c in text.chars() {
        let id = f.glyph_id(c);
        if let Some(p) = prev {
            w += f.kern(p, id);
        }
        prev = Some(id);
        w += f.h_advance(id);
    }
    w
}

/// Text at a pixel position of a drawing area, drawn through [`Glyphs`].
pub(crate) struct Label<'a> {
    pub text: String,
    pub pos: (i32, i32),
    pub style: TextStyle<'a>,
}

impl<'a> Label<'a> {
    pub fn new(text: impl Into<String>, pos: (i32, i32), style: TextStyle<'a>) -> Label<'a> {
        Label {
            text: text.into(),
            pos,
            style,
        }
    }
}

impl<'b> PointCollection<'b, (i32, i32)> for &'b Label<'_> {
    type Point = &'b (i32, i32);
    type IntoIter = std::iter::Once<&'b (i32, i32)>;
    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.pos)
    }
}

impl<DB: DrawingBackend> Drawable<DB> for Label<'_> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut points: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        match points.next() {
            Some(p) => backend.draw_text(&self.text, &Glyphs(&self.style), p),
            None => Ok(()),
        }
    }
}
