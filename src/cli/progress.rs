//! The one way nvcmp makes a progress bar: indicatif with the template a
//! command gives, on stderr. `ingest` (files, log bytes) and `run` (planned
//! time, preconditioning bytes) each pick what a bar counts and when it
//! shows; how one is built lives here.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `len` steps drawn with `template` (indicatif's syntax, and
/// three keys of nvcmp's: `{count}`, steps done of all, thousands
/// separated: `4,512/10,000`, where indicatif's `{pos}/{len}` prints
/// `4512/10000`; `{rate}`, steps a second, whole: `10,786/s`, where
/// indicatif's `{per_sec}` prints `10,785.7170/s`; `{left}`, the time
/// left once a second of steps has been seen, where indicatif's `{eta}`
/// guesses from the first few: `14m` for a read that takes 9 s). A
/// template indicatif refuses falls back to its default bar: a bar is
/// never worth an error.
pub fn bar(len: u64, template: &str) -> ProgressBar {
    let style = ProgressStyle::with_template(template)
        .map(|s| {
            s.with_key("count", count)
                .with_key("rate", rate)
                .with_key("left", left)
        })
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    ProgressBar::new(len).with_style(style)
}

fn count(state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write) {
    let _ = w.write_str(&count_text(state.pos(), state.len()));
}

/// `4,512/10,000`; `4,512` when the whole is not known.
fn count_text(done: u64, all: Option<u64>) -> String {
    use crate::numbers::whole;
    match all {
        Some(all) => format!("{}/{}", whole(done), whole(all)),
        None => whole(done),
    }
}

fn left(state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write) {
    if let Some(text) = left_text(state.elapsed(), state.eta()) {
        let _ = w.write_str(&text);
    }
}

/// `9s left`, once a second has passed; nothing before.
fn left_text(elapsed: std::time::Duration, eta: std::time::Duration) -> Option<String> {
    (elapsed >= std::time::Duration::from_secs(1))
        .then(|| format!("{} left", indicatif::HumanDuration(eta)))
}

fn rate(state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write) {
    let _ = w.write_str(&rate_text(state.per_sec()));
}

/// `10,786/s`; nothing before a rate is known.
fn rate_text(per_sec: f64) -> String {
    match per_sec.is_finite() {
        true => format!("{}/s", crate::numbers::fixed(per_sec, 0)),
        false => String::new(),
    }
}

/// A spinner naming the step under way (`comparing 100,000 results`,
/// `writing out/`) with the time it has taken, for the seconds a command
/// works after its bar has ended and before it prints: each step's name
/// replaces the last, and the line is cleared when the stage is dropped.
/// Hidden unless `shown`.
pub struct Stage(Option<ProgressBar>);

impl Stage {
    pub fn new(shown: bool) -> Stage {
        Stage(shown.then(|| spinner("{spinner} {msg} {elapsed}")))
    }

    /// The step now under way.
    pub fn say(&self, step: String) {
        if let Some(s) = &self.0 {
            s.reset_elapsed();
            s.set_message(step);
        }
    }
}

impl Drop for Stage {
    fn drop(&mut self) {
        if let Some(s) = &self.0 {
            s.finish_and_clear();
        }
    }
}

/// A spinner drawn with `template`, for work of unknown length: it
/// ticks by itself, so it moves (and `{elapsed}` counts) while the work
/// it names gives no news.
pub fn spinner(template: &str) -> ProgressBar {
    let style =
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_spinner());
    let s = ProgressBar::new_spinner().with_style(style);
    s.enable_steady_tick(std::time::Duration::from_millis(120));
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_rate_is_whole_steps_a_second_with_thousands_separated() {
        assert_eq!(super::rate_text(10_785.717), "10,786/s");
        assert_eq!(super::rate_text(98.5666), "99/s");
        assert_eq!(super::rate_text(0.0), "0/s");
        assert_eq!(super::rate_text(f64::NAN), "");
        assert_eq!(super::rate_text(f64::INFINITY), "");
        assert_eq!(super::count_text(4512, Some(10_000)), "4,512/10,000");
        assert_eq!(super::count_text(7, None), "7");
        let s = std::time::Duration::from_secs;
        assert_eq!(super::left_text(s(0), s(840)), None);
        assert_eq!(
            super::left_text(s(2), s(9)).as_deref(),
            Some("9 seconds left")
        );
        // The key is known to the template: no fallback to the default bar.
        let b = super::bar(10, "{pos} {rate}");
        assert_eq!(b.length(), Some(10));
    }

    #[test]
    fn a_hidden_stage_says_nothing_and_a_shown_one_names_its_step() {
        let hidden = super::Stage::new(false);
        hidden.say("comparing".into());
        assert!(hidden.0.is_none());
        let shown = super::Stage::new(true);
        shown.say("comparing 3 rows".into());
        assert_eq!(
            shown.0.as_ref().map(|s| s.message()).as_deref(),
            Some("comparing 3 rows")
        );
        let bar = shown.0.clone();
        drop(shown);
        assert!(bar.is_some_and(|b| b.is_finished()));
    }

    #[test]
    fn a_bar_counts_what_it_was_given() {
        let b = super::bar(42, "{bar:10} {pos}/{len}");
        assert_eq!(b.length(), Some(42));
        // A broken template still gives a bar.
        assert_eq!(super::bar(7, "{bar:").length(), Some(7));
    }
}
