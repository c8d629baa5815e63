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
}

impl Renderer for Html {
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()> {
        let source = self.template.as_deref().unwrap_or(BUILTIN);
        let mut view = View::new(cmp, &self.charts);
        view.svgs = self.svgs.iter().map(|s| inline_svg(s)).collect();
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
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(mime.len() + 13 + bytes.len().div_ceil(3) * 4);
    out.push_str("data:");
    out.push_str(mime);
    out.push_str(";base64,");
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
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
