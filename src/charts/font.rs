//! The embedded font: DejaVu Sans (Debian's fonts-dejavu-core, license in
//! `fonts/LICENSE-DejaVu.txt`), registered with plotters once, so charts
//! render the same text on a machine or CI runner without any fonts.

use std::sync::OnceLock;

use plotters::style::FontStyle;

/// The family name every chart asks for.
pub(crate) const FAMILY: &str = "sans-serif";

pub(crate) static REGULAR: &[u8] = include_bytes!("fonts/DejaVuSans.ttf");
pub(crate) static BOLD: &[u8] = include_bytes!("fonts/DejaVuSans-Bold.ttf");

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
