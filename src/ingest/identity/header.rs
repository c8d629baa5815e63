//! A captured output's header: the `KEY=value` lines a script prints
//! before fio's output (`DEVICE=nvme0n1`, `SCHEDULER=none`,
//! `# kernel=6.8`), read by [`header_line`] into the file's facts
//! (`Row::setup_facts`). Those that name what ran are identity tokens
//! ([`header_tokens`]): the key, lower case, is their axis (`scheduler`),
//! and files whose headers differ at one workload and load point are
//! configs named by it (`scheduler=none`), never repeats. A header that
//! only says when or how often (`DATE=2024-01-05`, `RUN=2`, `LOOPS=3`) is
//! not one.

use std::collections::BTreeMap;

use super::{class, is_any, tokens};

/// Reads one line of a script's header into `facts`: `KEY=value`
/// (upper-case keys, as shell scripts write their variables: the value is
/// the rest of the line, `SYSTEMINFO=Linux host 5.10.0 ...`), several on a
/// line where each word is one (`RUNTIME=20 LOOPS=3`), and any key after a
/// comment's `#` (`# kernel=6.8`) or a line of lower-case `key=value`
/// words alone. fio's own lines (`hostname=..., fio=...`) are none of
/// these.
pub(crate) fn header_line(line: &str, facts: &mut BTreeMap<String, String>) {
    let t = line.trim();
    let words: Vec<&str> = t.split_whitespace().collect();
    let each = |any_case: bool| words.iter().all(|w| pair(w, any_case).is_some());
    if let Some((k, v)) = pair(t, false) {
        if words.len() > 1 && each(false) {
            for (k, v) in words.iter().filter_map(|w| pair(w, false)) {
                facts.insert(k.to_string(), unquote(v).to_string());
            }
        } else {
            facts.insert(k.to_string(), unquote(v.trim()).to_string());
        }
        return;
    }
    // A comment's pairs, or a line of lower-case pairs alone; a value
    // with a comma is a list of fio's (`hostname=box, fio=3.33`).
    let words: Vec<&str> = match t.strip_prefix('#') {
        Some(rest) => rest.split_whitespace().collect(),
        None => words,
    };
    let pairs: Vec<(&str, &str)> = words.iter().filter_map(|w| pair(w, true)).collect();
    if !pairs.is_empty()
        && pairs.len() == words.len()
        && pairs.iter().all(|(_, v)| !v.contains(','))
    {
        for (k, v) in pairs {
            facts.insert(k.to_string(), unquote(v).to_string());
        }
    }
}

/// `KEY=value` of one word: a key of letters, digits and `_` (upper case
/// unless `any_case`), starting with a letter.
fn pair(word: &str, any_case: bool) -> Option<(&str, &str)> {
    let (k, v) = word.split_once('=')?;
    let first = k.chars().next()?;
    let ok = match any_case {
        true => {
            first.is_ascii_alphabetic() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        }
        false => {
            first.is_ascii_uppercase()
                && k.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        }
    };
    ok.then_some((k, v))
}

fn unquote(v: &str) -> &str {
    v.strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .or_else(|| v.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
        .unwrap_or(v)
}

/// Header keys that say when, how often or for how long a run went, or
/// the workload and load the point already holds: never an identity.
const NOT_IDENTITY: [&str; 30] = [
    "date",
    "time",
    "timestamp",
    "datetime",
    "start",
    "started",
    "end",
    "ended",
    "now",
    "run",
    "runs",
    "iteration",
    "iter",
    "loop",
    "loops",
    "rep",
    "repeat",
    "repeats",
    "try",
    "trial",
    "pass",
    "round",
    "seed",
    "runtime",
    "duration",
    "ramp",
    "size",
    "pid",
    "uptime",
    "elapsed",
];

/// The facts of a header that are identity tokens: (axis, value), the
/// axis the key in lower case (`scheduler`, `none`). Left out: keys of
/// [`NOT_IDENTITY`] or of a load or workload word (`QD`, `BS`, `RW`),
/// and values that are only numbers, dates and times (`2024-01-05`,
/// `3`): what a repeat differs by.
pub(crate) fn header_tokens(
    facts: &BTreeMap<String, String>,
) -> impl Iterator<Item = (String, &str)> {
    facts.iter().filter_map(|(k, v)| {
        let key = k.to_ascii_lowercase();
        let key_words = tokens(&key);
        let bookkeeping = is_any(&key, &NOT_IDENTITY)
            || key_words
                .iter()
                .any(|w| is_any(w, &NOT_IDENTITY) || !class(w).names_a_run());
        let v = v.trim();
        let repeat_only = tokens(v).iter().all(|t| class(t).repeats());
        (!bookkeeping && !repeat_only && !v.is_empty()).then_some((key, v))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(lines: &[&str]) -> BTreeMap<String, String> {
        let mut facts = BTreeMap::new();
        for l in lines {
            header_line(l, &mut facts);
        }
        facts
    }

    #[test]
    fn header_lines_of_a_script() {
        let facts = read(&[
            "DEVICE=nvme0n1",
            "SCHEDULER=\"none\"",
            "# kernel=6.8",
            "#fs = ext4",
            "RUNTIME=20 LOOPS=3",
            "SYSTEMINFO=Linux host 5.10.0 x86_64",
            "numa=off",
            "hostname=box, fio=3.33",
            "fio: this platform does not support X",
            "Running: fio --name=x",
            "not a=pair line",
        ]);
        let want: BTreeMap<String, String> = [
            ("DEVICE", "nvme0n1"),
            ("SCHEDULER", "none"),
            ("kernel", "6.8"),
            ("RUNTIME", "20"),
            ("LOOPS", "3"),
            ("SYSTEMINFO", "Linux host 5.10.0 x86_64"),
            ("numa", "off"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(facts, want);
    }

    #[test]
    fn identity_tokens_of_a_header() {
        let facts = read(&[
            "DEVICE=nvme0n1",
            "SCHEDULER=none",
            "# kernel=6.8",
            "DATE=2024-01-05",
            "RUN=2",
            "RUNTIME=20 LOOPS=3",
            "QD=32",
            "RUN_DATE=mar8",
            "TEST_NAME=ext4",
        ]);
        let got: Vec<(String, &str)> = header_tokens(&facts).collect();
        assert_eq!(
            got,
            [
                ("device".to_string(), "nvme0n1"),
                ("scheduler".to_string(), "none"),
                ("test_name".to_string(), "ext4"),
                ("kernel".to_string(), "6.8"),
            ]
        );
    }
}
