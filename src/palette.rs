//! One colour per configuration, the same in every chart: the Okabe-Ito
//! palette (<https://jfly.uni-koeln.de/color/>), which stays distinct for
//! the common forms of colour blindness. Yellow is last: it is the one
//! that reads worst on white.
//!
//! A leaf: charts draw with it, report.html's config switches show it.

use plotters::style::RGBColor;

pub(crate) const OKABE_ITO: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x00, 0x00, 0x00), // black
    RGBColor(0xF0, 0xE4, 0x42), // yellow
];

/// Colour of the config at `index` in the comparison's display order.
/// Past eight configs colours repeat; the legend order still tells them
/// apart.
pub(crate) fn color(index: usize) -> RGBColor {
    OKABE_ITO[index % OKABE_ITO.len()]
}

/// The colour of the config at `index` (display order) in every chart,
/// as `#RRGGBB`: report.html's config switches show it.
pub fn config_color(index: usize) -> String {
    let c = color(index);
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// Text and axis colour.
pub(crate) const INK: RGBColor = RGBColor(0x22, 0x22, 0x22);
/// Secondary text (footnotes, subtitles).
pub(crate) const MUTED: RGBColor = RGBColor(0x55, 0x55, 0x55);

/// `color` as text on white: light colours (the palette's yellow) are
/// darkened until they read; the others stay as they are.
pub(crate) fn as_text(color: RGBColor) -> RGBColor {
    let luminance =
        0.2126 * f64::from(color.0) + 0.7152 * f64::from(color.1) + 0.0722 * f64::from(color.2);
    if luminance <= 170.0 {
        return color;
    }
    let k = 120.0 / luminance;
    let dark = |c: u8| (f64::from(c) * k).round() as u8;
    RGBColor(dark(color.0), dark(color.1), dark(color.2))
}
