//! The table every name's words are sorted by: what a word says about a
//! run (its load, its workload, that it repeats another, when it ran) or
//! that it names something the runs differ in (a word).

/// What a word of a name says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Class {
    /// `qd32`, `j4`, `numjobs`, `queue`, `depth`: the load, which the
    /// workload and load point already hold.
    Load,
    /// `randread`, `rand`, `seq`, `4k`, `128Ki`, `iops`, `bw`, `lat`: the
    /// workload, held by the point too.
    Workload,
    /// `run1`, `rep2`, `r03`, `try2`, `again`: a repeat's mark.
    Repeat,
    /// A bare number (`1`, `03`): an instance or a repeat's number.
    Number,
    /// `2024.01.05`, `mar`: when it ran.
    Date,
    /// `am`, `pm`, `T1230`: when it ran.
    Time,
    /// `json`, `txt`, `normal`, `terse`, `output`: how it was written.
    Format,
    /// `overwrite`, `fill`, `precondition`: a variant of the workload's
    /// I/O pattern (a full device against an empty one).
    Variant,
    /// `node1`, `host2`, `server3`: the machine it ran on (tells configs
    /// apart, named as a host).
    Host,
    /// Anything else (`ext4`, `xfs`, `raw`, `kernel-6.8`, `bfq`): what a
    /// study names a configuration by.
    Word,
}

impl Class {
    /// Whether a difference in this class is evidence of repeats, not of
    /// configs: nothing but these telling runs apart, they are pooled.
    pub(crate) fn repeats(self) -> bool {
        matches!(
            self,
            Class::Repeat | Class::Number | Class::Date | Class::Time
        )
    }

    /// Whether the word names what a run is (a config or a variant), not
    /// how, when or at what load it ran.
    pub(crate) fn names_a_run(self) -> bool {
        matches!(self, Class::Variant | Class::Host | Class::Word)
    }

    /// Whether a difference in this class makes configs.
    pub(crate) fn configs(self) -> bool {
        matches!(self, Class::Host | Class::Word)
    }

    /// The class's name in `--explain` and the JSON.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Class::Load => "load",
            Class::Workload => "workload",
            Class::Repeat => "repeat",
            Class::Number => "number",
            Class::Date => "date",
            Class::Time => "time",
            Class::Format => "format",
            Class::Variant => "variant",
            Class::Host => "host",
            Class::Word => "word",
        }
    }
}

/// The class of one word of a name ([`super::tokens`]). Each distinct
/// word is sorted by the table once per thread: every file's name comes
/// here, and a study's names share a few hundred words.
pub(crate) fn class(t: &str) -> Class {
    use std::cell::RefCell;
    use std::collections::HashMap;
    /// Words held at the most before the memory starts again (an archive
    /// whose every name carries a word of its own).
    const HELD: usize = 1 << 16;
    thread_local! {
        static KNOWN: RefCell<HashMap<Box<str>, Class, crate::quick_hash::QuickHash>> =
            RefCell::new(HashMap::default());
    }
    if t.bytes().all(|b| b.is_ascii_digit()) {
        return Class::Number;
    }
    KNOWN.with(|known| {
        if let Some(c) = known.borrow().get(t) {
            return *c;
        }
        let c = sort(t);
        let mut known = known.borrow_mut();
        if known.len() >= HELD {
            known.clear();
        }
        known.insert(t.into(), c);
        c
    })
}

/// [`class`] by the table.
fn sort(t: &str) -> Class {
    if is_date(t) {
        return Class::Date;
    }
    if is_time(t) {
        return Class::Time;
    }
    if is_load(t) {
        return Class::Load;
    }
    if is_size(t) || is_any(t, &WORKLOAD) {
        return Class::Workload;
    }
    if is_repeat(t) {
        return Class::Repeat;
    }
    if is_any(t, &FORMAT) {
        return Class::Format;
    }
    if is_any(t, &VARIANT) {
        return Class::Variant;
    }
    if prefixed_number(t, &HOST).is_some() {
        return Class::Host;
    }
    Class::Word
}

/// Words naming the workload: fio's `rw` values, how people shorten them,
/// and what a job's name says it measures (`read-rand-iops`).
const WORKLOAD: [&str; 32] = [
    "read",
    "write",
    "reads",
    "writes",
    "rd",
    "wr",
    "randread",
    "randwrite",
    "randrw",
    "randtrim",
    "rw",
    "readwrite",
    "trim",
    "trimwrite",
    "seqread",
    "seqwrite",
    "seq",
    "sequential",
    "rand",
    "random",
    "rnd",
    "mixed",
    "mix",
    "iops",
    "bw",
    "lat",
    "latency",
    "throughput",
    "bandwidth",
    "randrd",
    "randwr",
    "verify",
];

/// Words naming how a result was written, never what ran: fio's output
/// formats (`jsonplus` of `json+`, `text` and `xml` of DiskSpd), the
/// stream it was captured from, a text's encoding and line ends (a result re-encoded on
/// Windows: `randread-4k.utf16le-bom-crlf.json`), a warning it carries,
/// and `--status-interval`'s snapshots.
const FORMAT: [&str; 34] = [
    "json",
    "jsonplus",
    "txt",
    "text",
    "xml",
    "csv",
    "stdout",
    "stderr",
    "out",
    "log",
    "normal",
    "terse",
    "output",
    "result",
    "results",
    "utf8",
    "utf16",
    "utf16le",
    "utf16be",
    "utf32",
    "ucs2",
    "bom",
    "crlf",
    "lf",
    "cr",
    "ascii",
    "ansi",
    "unicode",
    "latin1",
    "warn",
    "warning",
    "warnings",
    "snapshot",
    "snapshots",
];

/// Words naming a variant of the workload's I/O pattern: the same fio
/// options on a device in another state.
const VARIANT: [&str; 19] = [
    "overwrite",
    "fill",
    "prefill",
    "precondition",
    "preconditioned",
    "precond",
    "full",
    "empty",
    "fresh",
    "steady",
    "sustained",
    "burst",
    "warm",
    "warmup",
    "cold",
    "initial",
    "aged",
    "trimmed",
    "dirty",
];

/// Prefixes of a machine's number (`node1`, `host2`).
const HOST: [&str; 6] = ["node", "host", "server", "client", "vm", "worker"];

/// Month names: a date's part (`mar8`, `2022-mar-08`).
const MONTHS: [&str; 13] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
];

/// `qd32`, `iodepth8`, `j4`, `jobs16`, `t2`, and the words `queue`,
/// `depth`, `iodepth`, `numjobs`, `qd` alone: a load.
pub(crate) fn is_load(t: &str) -> bool {
    const PREFIXES: [&str; 12] = [
        "qd", "iodepth", "depth", "d", "j", "jobs", "numjobs", "nj", "t", "threads", "bs", "q",
    ];
    const WORDS: [&str; 8] = [
        "queue", "depth", "iodepth", "numjobs", "qd", "jobs", "threads", "nj",
    ];
    is_any(t, &WORDS) || prefixed_number(t, &PREFIXES).is_some()
}

/// `4k`, `4Ki`, `128KiB`, `bs64k`, `1m`: a block size.
pub(crate) fn is_size(t: &str) -> bool {
    const UNITS: [&str; 13] = [
        "", "b", "k", "ki", "kib", "kb", "m", "mi", "mib", "mb", "g", "gi", "gib",
    ];
    let Some(start) = t.find(|c: char| c.is_ascii_digit()) else {
        return false;
    };
    let (prefix, rest) = t.split_at(start);
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let unit = &rest[end..];
    let sized = is_any(unit, &UNITS);
    (prefix.is_empty() && sized && !unit.is_empty()) || (prefix.eq_ignore_ascii_case("bs") && sized)
}

/// `run1`, `rep2`, `r03`, `iter4`, `try2`, `again`, `rerun`: what numbers
/// repeats, not what tells experiments apart.
pub(crate) fn is_repeat(t: &str) -> bool {
    const PREFIXES: [&str; 14] = [
        "run",
        "rep",
        "repeat",
        "r",
        "iter",
        "iteration",
        "loop",
        "try",
        "trial",
        "pass",
        "round",
        "take",
        "sample",
        "n",
    ];
    const WORDS: [&str; 6] = ["again", "retry", "rerun", "redo", "repeat", "repeated"];
    is_any(t, &WORDS) || prefixed_number(t, &PREFIXES).is_some()
}

/// `2024.01.05`, `20240105` is a number; a month's name, alone or with
/// its day (`mar8`).
fn is_date(t: &str) -> bool {
    let dotted = t.split('.').count() == 3
        && t.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && t.split('.')
            .next()
            .is_some_and(|y| y.len() == 4 && (y.starts_with("19") || y.starts_with("20")));
    dotted || is_any(t, &MONTHS) || prefixed_number(t, &MONTHS).is_some()
}

/// `am`, `pm`, `T1230`, `1230h`, `12h30`.
fn is_time(t: &str) -> bool {
    if is_any(t, &["am", "pm"]) {
        return true;
    }
    let b = t.as_bytes();
    let digits = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
    match t.find(['T', 't', 'h', 'H']) {
        Some(0) => b.len() >= 5 && digits(&b[1..]),
        Some(i) => digits(&b[..i]) && (i + 1 == b.len() || digits(&b[i + 1..])),
        None => false,
    }
}

/// The number after one of `prefixes` (`32` of `qd32`), the prefix
/// matched without regard to case.
fn prefixed_number<'a>(t: &'a str, prefixes: &[&str]) -> Option<&'a str> {
    let digits = t.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let prefix = &t[..t.len() - digits.len()];
    (!digits.is_empty()
        && !prefix.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && is_any(prefix, prefixes))
    .then_some(digits)
}

/// fio's `rw` value a word of a job's name stands for (`randread`,
/// `seqwrite` -> `write`), lower case.
pub(crate) fn rw_of(word: &str) -> Option<&'static str> {
    // Word -> fio's rw value; `seq*` is how people name sequential jobs.
    const RW: [(&str, &str); 12] = [
        ("randread", "randread"),
        ("randwrite", "randwrite"),
        ("randrw", "randrw"),
        ("randtrim", "randtrim"),
        ("readwrite", "readwrite"),
        ("read", "read"),
        ("write", "write"),
        ("trim", "trim"),
        ("rw", "rw"),
        ("trimwrite", "trimwrite"),
        ("seqread", "read"),
        ("seqwrite", "write"),
    ];
    RW.iter().find(|(t, _)| *t == word).map(|(_, rw)| *rw)
}

/// `32` from `qd32` when `word` is one of `prefixes` (lower case)
/// followed by a number > 0.
pub(crate) fn number_after(word: &str, prefixes: &[&str]) -> Option<u32> {
    prefixes
        .iter()
        .find_map(|p| word.strip_prefix(p))
        .and_then(|n| n.parse().ok())
        .filter(|&n| n > 0)
}

/// Whether `word` is one of `list`, without regard to case: nothing is
/// copied to lower case, as every word of every name comes here.
pub(crate) fn is_any(word: &str, list: &[&str]) -> bool {
    list.iter().any(|w| w.eq_ignore_ascii_case(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every class, by examples, whatever their case.
    #[test]
    fn the_table_by_examples() {
        let table: [(Class, &[&str]); 10] = [
            (
                Class::Load,
                &[
                    "qd32", "iodepth8", "j4", "jobs16", "t2", "queue", "depth", "nj",
                ],
            ),
            (
                Class::Workload,
                &[
                    "randread", "rand", "seq", "4k", "128Ki", "128KiB", "bs64k", "1m", "iops",
                    "bw", "lat",
                ],
            ),
            (
                Class::Repeat,
                &["run1", "rep2", "r03", "try2", "iter4", "again", "rerun"],
            ),
            (Class::Number, &["1", "03", "2024"]),
            (Class::Date, &["2024.01.05", "mar", "Mar8"]),
            (Class::Time, &["am", "PM", "12h30", "1230h"]),
            (
                Class::Format,
                &[
                    "json",
                    "normal",
                    "terse",
                    "results",
                    "utf8",
                    "utf16le",
                    "bom",
                    "crlf",
                    "warning",
                    "snapshots",
                ],
            ),
            (Class::Variant, &["overwrite", "fill", "precondition"]),
            (Class::Host, &["node1", "host2", "server03"]),
            (
                Class::Word,
                &[
                    "ext4",
                    "xfs",
                    "raw",
                    "block",
                    "kernel-6.8",
                    "5.4.0",
                    "bfq",
                    "default",
                    "benchmark",
                    "nvme2n1",
                    "x1",
                    "qdx",
                    "k4",
                    "4x",
                ],
            ),
        ];
        for (want, words) in table {
            for w in words {
                for case in [
                    w.to_string(),
                    w.to_ascii_uppercase(),
                    w.to_ascii_lowercase(),
                ] {
                    assert_eq!(class(&case), want, "{case}");
                }
            }
        }
    }

    #[test]
    fn repeats_are_numbers_marks_dates_and_times_only() {
        for c in [Class::Repeat, Class::Number, Class::Date, Class::Time] {
            assert!(c.repeats() && !c.configs(), "{c:?}");
        }
        for c in [Class::Word, Class::Host] {
            assert!(c.configs() && !c.repeats(), "{c:?}");
        }
        assert!(!Class::Variant.configs() && Class::Variant.names_a_run());
    }
}
