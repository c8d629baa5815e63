//! One colour per configuration, the same in every chart: the Okabe-Ito
//! palette (<https://jfly.uni-koeln.de/color/>), which stays distinct for
//! the common forms of colour blindness. Yellow is last: it is the one
//! that reads worst on white.

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

/// Text and axis colour.
pub(crate) const INK: RGBColor = RGBColor(0x22, 0x22, 0x22);
/// Secondary text (footnotes, subtitles).
pub(crate) const MUTED: RGBColor = RGBColor(0x55, 0x55, 0x55);
