//! Names a reader knows: each config's display name is the shortest part
//! of its label that tells it apart from the others, and the baseline is
//! chosen by a rule the report states.
//!
//! A label is what ingest named the config by (`--label-by`): a folder
//! path, `key=value` pairs, or both (`results/fio_output ioscheduler=bfq`).
//! [`short_names`] drops what every config shares (path components and
//! pairs), shows a pair's value alone where the key is the same for every
//! config (`bfq`, `kyber`), and drops date or time stamps unless they are
//! what tells configs apart, then shown short (`nvme2n2 (Mar 8)`). The
//! full label stays in the setup table and the JSON (`config_labels`).

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;

/// Config names that read as "the one the others are measured against".
const DEFAULT_NAMES: [&str; 7] = [
    "none", "default", "psync", "sync", "baseline", "stock", "noop",
];

/// One piece of a label.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum LabelPart {
    /// A folder path component or a bare word, with the number of the
    /// whitespace-separated token it came from (path components of one
    /// token join again with `/`).
    Word(String, usize),
    /// `key=value`.
    Pair(String, String),
}

impl LabelPart {
    fn text(&self) -> String {
        match self {
            LabelPart::Word(w, _) => w.clone(),
            LabelPart::Pair(k, v) => format!("{k}={v}"),
        }
    }
}

/// The parts of a label: whitespace-separated, paths split at `/`.
fn parts(label: &str) -> Vec<LabelPart> {
    let mut out = Vec::new();
    for (n, token) in label.split_whitespace().enumerate() {
        match token.split_once('=') {
            Some((k, v)) if !k.is_empty() && !k.contains('/') => {
                out.push(LabelPart::Pair(k.to_string(), v.to_string()))
            }
            _ => out.extend(
                token
                    .split(['/', '\\'])
                    .filter(|c| !c.is_empty() && *c != ".")
                    .map(|c| LabelPart::Word(c.to_string(), n)),
            ),
        }
    }
    out
}

/// A date (and maybe a time) found in a name, and the name without it.
#[derive(Debug, Clone, PartialEq)]
struct Stamp {
    rest: String,
    month: u32,
    day: u32,
    /// `12:06 PM`, when the stamp has a time.
    time: Option<String>,
}

/// Finds a `YYYY?MM?DD` date (separators `_`, `-`, `.` or none), with an
/// optional `HH?MM[?SS][?AM|PM]` time after it, in `word`.
fn stamp(word: &str) -> Option<Stamp> {
    let b = word.as_bytes();
    let digits = |i: usize, n: usize| -> Option<u32> {
        let s = word.get(i..i + n)?;
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    let sep = |i: usize| b.get(i).is_some_and(|c| matches!(c, b'_' | b'-' | b'.'));
    for start in 0..b.len() {
        if start > 0 && b[start - 1].is_ascii_digit() {
            continue;
        }
        let Some(year) = digits(start, 4) else {
            continue;
        };
        if !(1990..=2100).contains(&year) {
            continue;
        }
        let mut i = start + 4;
        let with_sep = sep(i);
        if with_sep {
            i += 1;
        }
        let Some(month) = digits(i, 2) else { continue };
        i += 2;
        if with_sep {
            if !sep(i) {
                continue;
            }
            i += 1;
        }
        let Some(day) = digits(i, 2) else { continue };
        i += 2;
        if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
            continue;
        }
        let mut time = None;
        let mut end = i;
        let t = if sep(i) || b.get(i) == Some(&b'T') {
            i + 1
        } else {
            i
        };
        if let (Some(h), Some(m)) = (digits(t, 2), digits(t + 3, 2).filter(|_| sep(t + 2)))
            && h < 24
            && m < 60
        {
            end = t + 5;
            if sep(end) && digits(end + 1, 2).is_some() {
                end += 3;
            }
            let ampm = word
                .get(end + 1..end + 3)
                .filter(|s| sep(end) && matches!(*s, "AM" | "PM" | "am" | "pm"));
            let suffix = ampm.map_or(String::new(), |s| format!(" {}", s.to_uppercase()));
            if ampm.is_some() {
                end += 3;
            }
            time = Some(format!("{h}:{m:02}{suffix}"));
        }
        let before = word[..start].trim_end_matches(['_', '-', '.', ' ']);
        let after = word[end..].trim_start_matches(['_', '-', '.', ' ']);
        let rest = match (before.is_empty(), after.is_empty()) {
            (false, false) => format!("{before}-{after}"),
            (false, true) => before.to_string(),
            _ => after.to_string(),
        };
        return Some(Stamp {
            rest,
            month,
            day,
            time,
        });
    }
    None
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Each label's display name (module docs). Labels that cannot be told
/// apart any shorter keep their full text; one config keeps its label.
pub fn short_names(labels: &[String]) -> IndexMap<String, String> {
    let keep = || labels.iter().map(|l| (l.clone(), l.clone())).collect();
    if labels.len() < 2 {
        return keep();
    }
    let split: Vec<Vec<LabelPart>> = labels.iter().map(|l| parts(l)).collect();
    // What every config shares tells none apart: counted once per label,
    // not looked up in every other label (128,904 configs, issue #55).
    let mut counts: HashMap<&LabelPart, usize> = HashMap::new();
    for ps in &split {
        let own: HashSet<&LabelPart> = ps.iter().collect();
        for p in own {
            *counts.entry(p).or_default() += 1;
        }
    }
    let shared = |p: &LabelPart| counts.get(p) == Some(&split.len());
    let mut rest: Vec<Vec<LabelPart>> = split
        .iter()
        .map(|ps| ps.iter().filter(|p| !shared(p)).cloned().collect())
        .collect();
    values_alone(&mut rest);
    let words: Vec<Vec<String>> = rest.iter().map(|ps| joined(ps)).collect();
    let names = undated(&words).unwrap_or_else(|| words.iter().map(|w| w.join(" ")).collect());
    let distinct = names.iter().all(|n| !n.is_empty()) && all_distinct(&names);
    if !distinct {
        return keep();
    }
    labels.iter().cloned().zip(names).collect()
}

/// Whether no two of `items` are equal (one pass, a set of those seen).
fn all_distinct<T: Eq + std::hash::Hash>(items: &[T]) -> bool {
    let mut seen = HashSet::with_capacity(items.len());
    items.iter().all(|i| seen.insert(i))
}

/// The parts as words: path components of one token joined with `/`.
fn joined(ps: &[LabelPart]) -> Vec<String> {
    let mut out: Vec<(String, Option<usize>)> = Vec::new();
    for p in ps {
        let token = match p {
            LabelPart::Word(_, n) if *n != usize::MAX => Some(*n),
            _ => None,
        };
        match out.last_mut() {
            Some((w, Some(t))) if token == Some(*t) => {
                w.push('/');
                w.push_str(&p.text());
            }
            _ => out.push((p.text(), token)),
        }
    }
    out.into_iter().map(|(w, _)| w).collect()
}

/// A pair shows its value alone where every config's pairs have one key
/// (`ioscheduler=bfq` → `bfq`), or where each config has one pair left and
/// the values alone are distinct words (`ioscheduler=none`,
/// `ioengine=spdk` → `none`, `spdk`); a bare number keeps its key (`8`
/// says nothing without `numjobs=`).
fn values_alone(rest: &mut [Vec<LabelPart>]) {
    let pairs: Vec<Vec<(&String, &String)>> = rest
        .iter()
        .map(|ps| {
            ps.iter()
                .filter_map(|p| match p {
                    LabelPart::Pair(k, v) => Some((k, v)),
                    LabelPart::Word(..) => None,
                })
                .collect()
        })
        .collect();
    let one_each = pairs.iter().all(|ps| ps.len() == 1);
    if !one_each {
        return;
    }
    let same_key = pairs.iter().all(|ps| ps[0].0 == pairs[0][0].0);
    let values: Vec<&String> = pairs.iter().map(|ps| ps[0].1).collect();
    let words = values
        .iter()
        .all(|v| !v.is_empty() && v.parse::<f64>().is_err());
    let distinct = all_distinct(&values);
    if !(words && (same_key || distinct)) {
        return;
    }
    for ps in rest.iter_mut() {
        for p in ps.iter_mut() {
            if let LabelPart::Pair(_, v) = p {
                *p = LabelPart::Word(v.clone(), usize::MAX);
            }
        }
    }
}

/// Names without their date stamps when those are not what tells configs
/// apart; where they are, the date shown short after the name ("nvme2n2
/// (Mar 8)"), with the time when the date alone does not tell either.
/// None when no word holds a stamp.
fn undated(words: &[Vec<String>]) -> Option<Vec<String>> {
    let stamped: Vec<Vec<(String, Option<Stamp>)>> = words
        .iter()
        .map(|ws| ws.iter().map(|w| (w.clone(), stamp(w))).collect())
        .collect();
    if !stamped.iter().flatten().any(|(_, s)| s.is_some()) {
        return None;
    }
    let bare: Vec<String> = stamped
        .iter()
        .map(|ws| {
            let kept: Vec<&str> = ws
                .iter()
                .map(|(w, s)| s.as_ref().map_or(w.as_str(), |s| s.rest.as_str()))
                .filter(|w| !w.is_empty())
                .collect();
            kept.join(" ")
        })
        .collect();
    let dates = |with_time: bool| -> Vec<String> {
        stamped
            .iter()
            .map(|ws| {
                ws.iter()
                    .filter_map(|(_, s)| s.as_ref())
                    .map(|s| {
                        let date = format!("{} {}", MONTHS[s.month as usize - 1], s.day);
                        match (&s.time, with_time) {
                            (Some(t), true) => format!("{date}, {t}"),
                            _ => date,
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .collect()
    };
    let unique = |v: &[String]| all_distinct(v);
    if unique(&bare) && bare.iter().all(|b| !b.is_empty()) {
        return Some(bare);
    }
    for with_time in [false, true] {
        let d = dates(with_time);
        let named: Vec<String> = bare
            .iter()
            .zip(&d)
            .map(|(b, d)| match (b.is_empty(), d.is_empty()) {
                (true, _) => d.clone(),
                (false, true) => b.clone(),
                (false, false) => format!("{b} ({d})"),
            })
            .collect();
        if unique(&named) {
            return Some(named);
        }
    }
    None
}

/// How the baseline was chosen, for the report.
#[derive(Debug, Clone, PartialEq)]
pub struct BaselineChoice {
    pub config: String,
    /// Why, said after "the baseline because": "it runs the oldest kernel".
    pub why: String,
}

/// The baseline when none is given: the config named like a default
/// (`none`, `psync`, `default`, ...: its display name or its label's last
/// word), else the one on the oldest kernel where kernels differ, else the
/// first. `kernels` maps a config to its kernel release, where known.
pub fn default_baseline(
    configs: &[String],
    labels: &IndexMap<String, String>,
    kernels: &IndexMap<String, String>,
) -> Option<BaselineChoice> {
    let first = configs.first()?;
    if configs.len() < 2 {
        return Some(BaselineChoice {
            config: first.clone(),
            why: "it is the only config".into(),
        });
    }
    let words = |c: &str| -> Vec<String> {
        let label = labels.get(c).map_or(c, |l| l.as_str());
        [c, label]
            .iter()
            .flat_map(|s| s.split(|ch: char| !ch.is_alphanumeric() && ch != '-'))
            .map(|w| w.to_ascii_lowercase())
            .collect()
    };
    let named: Vec<&String> = configs
        .iter()
        .filter(|c| words(c).iter().any(|w| DEFAULT_NAMES.contains(&w.as_str())))
        .collect();
    if let [one] = named.as_slice() {
        return Some(BaselineChoice {
            config: (*one).clone(),
            why: "its name reads as a default, like none, default or psync".into(),
        });
    }
    let known: Vec<(&String, Vec<u64>)> = configs
        .iter()
        .filter_map(|c| Some((c, kernel_version(kernels.get(c)?)?)))
        .collect();
    if known.len() == configs.len() {
        let oldest = known.iter().min_by(|a, b| a.1.cmp(&b.1))?;
        if known.iter().filter(|k| k.1 == oldest.1).count() == 1 {
            return Some(BaselineChoice {
                config: oldest.0.clone(),
                why: "it runs the oldest kernel".into(),
            });
        }
    }
    Some(BaselineChoice {
        config: first.clone(),
        why: "it is the first config; --baseline names another".into(),
    })
}

/// `6.8.0-45-generic` → [6, 8, 0, 45].
fn kernel_version(release: &str) -> Option<Vec<u64>> {
    let v: Vec<u64> = release
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map_while(|s| s.parse().ok())
        .collect();
    (!v.is_empty()).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(labels: &[&str]) -> Vec<String> {
        let labels: Vec<String> = labels.iter().map(|s| s.to_string()).collect();
        short_names(&labels).into_values().collect()
    }

    #[test]
    fn shared_path_and_key_dropped() {
        let n = names(&[
            "fig-10/results_8_dev/fio_output ioscheduler=bfq",
            "fig-10/results_8_dev/fio_output ioscheduler=kyber",
            "fig-10/results_8_dev/fio_output ioscheduler=mq-deadline",
        ]);
        assert_eq!(n, ["bfq", "kyber", "mq-deadline"]);
    }

    #[test]
    fn one_pair_each_distinct_words() {
        let n = names(&["ioscheduler=none", "ioengine=spdk", "ioscheduler=bfq"]);
        assert_eq!(n, ["none", "spdk", "bfq"]);
        // Numbers keep their key.
        let n = names(&["numjobs=1", "numjobs=8"]);
        assert_eq!(n, ["numjobs=1", "numjobs=8"]);
    }

    #[test]
    fn dates_dropped_unless_they_tell_apart() {
        let n = names(&[
            "runs/nvme2n1-2022_03_08_12_06_PM",
            "runs/nvme2n2-2022_03_08_01_10_PM",
            "runs/nvme3n1-2022_03_09_09_00_AM",
        ]);
        assert_eq!(n, ["nvme2n1", "nvme2n2", "nvme3n1"]);
        let n = names(&["nvme2n2-2022_03_08_12_06_PM", "nvme2n2-2022_03_10_12_06_PM"]);
        assert_eq!(n, ["nvme2n2 (Mar 8)", "nvme2n2 (Mar 10)"]);
        let n = names(&["nvme2n2-2022_03_08_12_06_PM", "nvme2n2-2022_03_08_03_30_PM"]);
        assert_eq!(n, ["nvme2n2 (Mar 8, 12:06 PM)", "nvme2n2 (Mar 8, 3:30 PM)"]);
    }

    #[test]
    fn path_remainder_keeps_its_slash() {
        let n = names(&["gtod/libaio", "gtod/libaio-gtod", "sqpoll/io_uring"]);
        assert_eq!(n, ["gtod/libaio", "gtod/libaio-gtod", "sqpoll/io_uring"]);
        let n = names(&["study/a/x", "study/b/x"]);
        assert_eq!(n, ["a", "b"]);
    }

    #[test]
    fn plain_names_unchanged() {
        let n = names(&["windows-native", "linux-libaio", "linux-io_uring"]);
        assert_eq!(n, ["windows-native", "linux-libaio", "linux-io_uring"]);
        assert_eq!(names(&["a/b/c"]), ["a/b/c"]);
    }

    #[test]
    fn baseline_rule() {
        let c = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let none = IndexMap::new();
        let b = default_baseline(&c(&["bfq", "kyber", "none"]), &none, &none).unwrap();
        assert_eq!(
            (b.config.as_str(), b.why.contains("default")),
            ("none", true)
        );
        let k: IndexMap<String, String> = [("a", "6.8.0-45"), ("b", "5.15.0-1")]
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let b = default_baseline(&c(&["a", "b"]), &none, &k).unwrap();
        assert_eq!(
            (b.config.as_str(), b.why.as_str()),
            ("b", "it runs the oldest kernel")
        );
        let b = default_baseline(&c(&["x", "y"]), &none, &none).unwrap();
        assert_eq!((b.config.as_str(), b.why.contains("first")), ("x", true));
    }
}
