//! The embedded font: DejaVu Sans (Debian's fonts-dejavu-core, license in
//! `fonts/LICENSE-DejaVu.txt`), registered with plotters once, so charts
//! render the same text on a machine or CI runner without any fonts; and
//! written into every SVG, so an SVG renders the same offline anywhere.

use std::sync::OnceLock;

use base64::Engine;
use plotters::style::FontStyle;

/// The family every chart asks for. The SVG backend writes it verbatim as
/// `font-family`, so it is a CSS list: the embedded [`FACE`] first, then
/// an installed DejaVu Sans or any sans-serif for a viewer that ignores
/// `@font-face`.
pub(crate) const FAMILY: &str = "DejaVu Sans, sans-serif";

/// The `@font-face` name of the embedded font in SVGs.
pub(crate) const FACE: &str = "DejaVu Sans";

pub(crate) static REGULAR: &[u8] = include_bytes!("fonts/DejaVuSans.ttf");
pub(crate) static BOLD: &[u8] = include_bytes!("fonts/DejaVuSans-Bold.ttf");
/// The same faces cut to Latin, punctuation and the chart symbols (about
/// 30 KB each, `fonts/README.md` says how): what SVGs and report.html
/// carry. A glyph outside them falls back to the viewer's sans-serif;
/// PNGs are drawn with the full faces above.
pub(crate) static SVG_REGULAR: &[u8] = include_bytes!("fonts/DejaVuSans-svg.ttf");
pub(crate) static SVG_BOLD: &[u8] = include_bytes!("fonts/DejaVuSans-Bold-svg.ttf");

/// Registers the font (idempotent, thread-safe).
pub(crate) fn register() -> anyhow::Result<()> {
    static DONE: OnceLock<bool> = OnceLock::new();
    let ok = *DONE.get_or_init(|| {
        plotters::style::register_font(FAMILY, FontStyle::Normal, REGULAR).is_ok()
            && plotters::style::register_font(FAMILY, FontStyle::Bold, BOLD).is_ok()
    });
    anyhow::ensure!(ok, "the embedded chart font could not be loaded");
    Ok(())
}

/// Both weights of the SVG faces as `@font-face` rules with base64 data
/// URLs (about 85 KB; built once per process): inside each SVG file, and
/// once in report.html for all its inline charts.
pub fn face_css() -> &'static str {
    static CSS: OnceLock<String> = OnceLock::new();
    CSS.get_or_init(|| {
        let face = |weight: &str, ttf: &[u8]| {
            let data = base64::engine::general_purpose::STANDARD.encode(ttf);
            format!(
                "@font-face{{font-family:\"{FACE}\";font-weight:{weight};\
                 src:url(data:font/ttf;base64,{data}) format(\"truetype\")}}"
            )
        };
        format!("{}{}", face("normal", SVG_REGULAR), face("bold", SVG_BOLD))
    })
}

fn style_element() -> &'static str {
    static STYLE: OnceLock<String> = OnceLock::new();
    STYLE.get_or_init(|| format!("<style>{}</style>\n", face_css()))
}

/// `svg` with the font embedded right after its opening `<svg ...>` tag;
/// unchanged when it has none. The one place an SVG gets its font.
pub(crate) fn embed_in_svg(svg: &str) -> String {
    let Some(end) = svg
        .find("<svg")
        .and_then(|at| svg[at..].find('>').map(|e| at + e + 1))
    else {
        return svg.to_string();
    };
    let style = style_element();
    let mut out = String::with_capacity(svg.len() + style.len() + 1);
    out.push_str(&svg[..end]);
    out.push('\n');
    out.push_str(style);
    out.push_str(svg[end..].trim_start_matches('\n'));
    out
}
