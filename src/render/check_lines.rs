//! The end of a report (Checks, Warnings, Skipped) at any input size
//! (issue #54): notes of one kind are one line with a count and up to
//! three examples, and each section holds at most a fixed number of
//! lines, the rest counted in a last line. Every note, ungrouped, stays
//! in `--format json` and in `checks.csv` beside the report
//! ([`super::csv::Checks`]).

use indexmap::IndexMap;

use crate::compare::sanity::EXAMPLES;
use crate::model::{Skipped, Warning};
use crate::numbers;

/// Lines a section of checks, warnings or skipped files prints at most
/// (the last one counting the rest): the three together stay under 60.
pub const SECTION_LINES: usize = 18;

/// The comparison's checks, at most [`SECTION_LINES`] of them.
pub fn checks(sanity: &[String]) -> Vec<String> {
    let total = sanity.len();
    let lines: Vec<String> = sanity.to_vec();
    cap(lines, total, "check", "checks")
}

/// Warnings with one message grouped: "warning: job 1: ... (2,500
/// files; e.g. a.json, b.json, c.json)"; at most [`SECTION_LINES`].
pub fn warnings(ws: &[Warning]) -> Vec<String> {
    let mut by_message: IndexMap<&str, Vec<&str>> = IndexMap::new();
    for w in ws {
        by_message
            .entry(w.message.as_str())
            .or_default()
            .push(w.source.as_str());
    }
    let lines = by_message
        .into_iter()
        .map(|(message, sources)| match sources.as_slice() {
            [one] => format!("warning: {one}: {message}"),
            many => format!(
                "warning: {message} ({}; e.g. {})",
                numbers::count(many.len(), "file"),
                examples(many)
            ),
        })
        .collect();
    cap(lines, ws.len(), "warning", "warnings")
}

/// Skipped files with one reason grouped (the source names the count and
/// examples); at most [`SECTION_LINES`].
pub fn skipped(list: &[Skipped]) -> Vec<Skipped> {
    let mut by_reason: IndexMap<&str, Vec<&str>> = IndexMap::new();
    for s in list {
        by_reason
            .entry(s.reason.as_str())
            .or_default()
            .push(s.source.as_str());
    }
    let mut out: Vec<Skipped> = by_reason
        .into_iter()
        .map(|(reason, sources)| Skipped {
            source: match sources.as_slice() {
                [one] => one.to_string(),
                many => format!(
                    "{}, e.g. {}",
                    numbers::count(many.len(), "file"),
                    examples(many)
                ),
            },
            reason: reason.to_string(),
        })
        .collect();
    if out.len() > SECTION_LINES {
        let rest: usize = out.len() - (SECTION_LINES - 1);
        out.truncate(SECTION_LINES - 1);
        out.push(Skipped {
            source: format!("{} more reasons", numbers::whole(rest as u64)),
            reason: "every skipped file is in checks.csv and the JSON (--format json)".into(),
        });
    }
    out
}

fn examples(sources: &[&str]) -> String {
    sources
        .iter()
        .take(EXAMPLES)
        .copied()
        .collect::<Vec<_>>()
        .join(", ")
}

/// `lines` (standing for `total` notes) cut to [`SECTION_LINES`]: the
/// last line counts the lines left out.
fn cap(mut lines: Vec<String>, total: usize, one: &str, many: &str) -> Vec<String> {
    if lines.len() <= SECTION_LINES {
        return lines;
    }
    let rest = lines.len() - (SECTION_LINES - 1);
    lines.truncate(SECTION_LINES - 1);
    let noun = if rest == 1 { one } else { many };
    lines.push(format!(
        "… and {} more {noun} of {} in all: every one is in checks.csv and the JSON (--format json)",
        numbers::whole(rest as u64),
        numbers::whole(total as u64)
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_stays_short_whatever_the_input() {
        let ws: Vec<Warning> = (0..100_000)
            .map(|i| Warning {
                source: format!("f{i}.json"),
                message: if i % 2 == 0 {
                    "job 1: no percentiles".into()
                } else {
                    format!("job 1: odd {i}")
                },
            })
            .collect();
        let lines = warnings(&ws);
        assert_eq!(lines.len(), SECTION_LINES);
        assert_eq!(
            lines[0],
            "warning: job 1: no percentiles (50,000 files; e.g. f0.json, f2.json, f4.json)"
        );
        assert!(
            lines
                .last()
                .unwrap()
                .starts_with("… and 49,984 more warnings of 100,000 in all")
        );
        let one = warnings(&ws[..1]);
        assert_eq!(one, ["warning: f0.json: job 1: no percentiles"]);
        let sanity: Vec<String> = (0..5).map(|i| format!("c{i}")).collect();
        assert_eq!(checks(&sanity), sanity);
        let skipped_list: Vec<Skipped> = (0..4)
            .map(|i| Skipped {
                source: format!("s{i}"),
                reason: "not fio output".into(),
            })
            .collect();
        let s = skipped(&skipped_list);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].source, "4 files, e.g. s0, s1, s2");
    }
}
