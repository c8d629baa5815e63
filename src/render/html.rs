//! HTML: one self-contained file from `templates/report.html.j2`: inline
//! CSS and a small inline script (sortable tables, configs shown and
//! hidden), charts inline as SVG; nothing is fetched from anywhere. Every
//! value is HTML-escaped.

use std::io::Write;

use super::view::View;
use super::{Renderer, template};
use crate::compare::Comparison;

pub const BUILTIN: &str = include_str!("../../templates/report.html.j2");

pub struct Html {
    /// Replaces the built-in template.
    pub template: Option<String>,
    /// Chart paths or `data:` URIs, one `<img>` each.
    pub charts: Vec<String>,
    /// SVG charts (from [`crate::charts::svg_all`]) to inline.
    pub svgs: Vec<String>,
    /// Their `@font-face` rules, once for the page.
    pub font_css: String,
}

impl Renderer for Html {
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()> {
        let source = self.template.as_deref().unwrap_or(BUILTIN);
        let mut view = View::new(cmp, &self.charts);
        view.svgs = self.svgs.iter().map(|s| inline_svg(s)).collect();
        if !view.svgs.is_empty() {
            view.font_css = self.font_css.clone();
        }
        template::render(source, &view, true, out)
    }
}

/// An SVG document as an element inside HTML: HTML parsing puts `<svg>`
/// in the SVG namespace itself, so the `xmlns` (a URL, though never
/// fetched) goes, keeping report.html free of any address.
pub fn inline_svg(svg: &str) -> String {
    svg.trim_start_matches("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        .trim()
        .replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1)
}

/// A `data:` URI of `bytes`, so report.html carries its charts inside it
/// and stays one self-contained file (RFC 2397, base64 of RFC 4648).
pub fn data_uri(mime: &str, bytes: &[u8]) -> String {
    use base64::Engine;
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    format!("data:{mime};base64,{data}")
}

#[cfg(test)]
mod data_uri_tests {
    use super::data_uri;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        for (input, b64) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(
                data_uri("text/plain", input.as_bytes()),
                format!("data:text/plain;base64,{b64}")
            );
        }
    }
}
