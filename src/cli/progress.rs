//! The one way nvcmp makes a progress bar: indicatif with the template a
//! command gives, on stderr. `ingest` (files, log bytes) and `run` (planned
//! time, preconditioning bytes) each pick what a bar counts and when it
//! shows; how one is built lives here.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `len` steps drawn with `template` (indicatif's syntax). A
/// template indicatif refuses falls back to its default bar: a bar is
/// never worth an error.
pub fn bar(len: u64, template: &str) -> ProgressBar {
    let style =
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar());
    ProgressBar::new(len).with_style(style)
}

/// A spinner drawn with `template`, for work of unknown length.
pub fn spinner(template: &str) -> ProgressBar {
    let style =
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_spinner());
    ProgressBar::new_spinner().with_style(style)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_bar_counts_what_it_was_given() {
        let b = super::bar(42, "{bar:10} {pos}/{len}");
        assert_eq!(b.length(), Some(42));
        // A broken template still gives a bar.
        assert_eq!(super::bar(7, "{bar:").length(), Some(7));
    }
}
