//! How configs are named and how their naming is said: a config's
//! fewest `key=value` that tell it apart ([`unique_names`]), the order
//! keys are tried in ([`naming_rank`]), and the notes of what a folder's
//! names or captured-output headers kept apart ([`kept_apart_note`],
//! [`header_note`]). The config rule (`ingest::configs`) finds the keys;
//! every name is made here.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use indexmap::IndexMap;

use super::{FolderWords, header_tokens};

/// The pseudo-key of the word that tells runs apart by name (`--label-by
/// name`, see `configs::variants`).
pub const NAME_KEY: &str = "file name";

/// The key of configs that are files (a folder of script logs, one per
/// config) named by their file names.
pub const FILE_KEY: &str = "file";

/// The most config names or header values a note lists.
const NAMES_IN_NOTE: usize = 12;

/// The first [`NAMES_IN_NOTE`] of `names` and a count of the others:
/// 128,904 distinct job names made one note of a megabyte, printed in
/// every report (issue #55).
fn listed<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> String {
    let total = names.len();
    let mut listed: Vec<&str> = names.take(NAMES_IN_NOTE).collect();
    let more = format!(
        "and {} more",
        crate::numbers::whole(total.saturating_sub(NAMES_IN_NOTE) as u64)
    );
    if total > NAMES_IN_NOTE {
        listed.push(&more);
    }
    listed.join(" / ")
}

/// The note of a folder whose files' captured-output headers (`facts`,
/// a file's each) tell configs apart (`keys` holding a header's axis,
/// `scheduler`): which axes and values, and that their runs were kept
/// apart, not pooled.
pub(crate) fn header_note<'a>(
    folder: &str,
    facts: impl Iterator<Item = &'a BTreeMap<String, String>>,
    keys: &[String],
) -> Option<String> {
    let mut values: IndexMap<&str, BTreeSet<&str>> = IndexMap::new();
    for f in facts {
        for (axis, v) in header_tokens(f) {
            if let Some(k) = keys.iter().find(|k| **k == axis) {
                values.entry(k.as_str()).or_default().insert(v);
            }
        }
    }
    if values.is_empty() {
        return None;
    }
    let said: Vec<String> = values
        .iter()
        .map(|(k, vs)| format!("{k}: {}", listed(vs.iter().copied())))
        .collect();
    Some(format!(
        "{folder}: files whose captured-output headers differ ({}) at one workload and load point: kept apart as configs, not pooled as repeats",
        said.join("; ")
    ))
}

/// The note of a folder whose runs' names tell configs its options do
/// not: which (`named`, the first [`NAMES_IN_NOTE`]), that the runs were
/// kept apart, not pooled, and the folder's roles (`words`).
pub(crate) fn kept_apart_note(
    folder: &str,
    named: &BTreeSet<&str>,
    words: Option<&FolderWords>,
) -> String {
    let mut note = format!(
        "{folder}: runs with identical options at one workload and load point differ in their names ({}): kept apart as configs, not pooled as repeats",
        listed(named.iter().copied())
    );
    if let Some(words) = words
        && !words.roles.is_empty()
    {
        note.push_str(&format!(
            "; files differing only by {} are one config (a role: those words never tell two runs apart at one workload)",
            words.roles.join(" / ")
        ));
    }
    note.push_str("; --label-by folder keeps one config per folder");
    note
}

/// The order keys are tried in when a config is named: what a reader
/// knows a stack by first, paths (long, and telling little) last.
pub(crate) fn naming_rank(key: &str) -> u8 {
    const FIRST: [&str; 9] = [
        "os",
        "ioengine",
        "ioscheduler",
        "direct",
        "buffered",
        "hipri",
        "sqthread_poll",
        "fixedbufs",
        "registerfiles",
    ];
    match FIRST.iter().position(|k| *k == key) {
        Some(i) => i as u8,
        None if matches!(key, "filename" | "directory") => u8::MAX,
        None => FIRST.len() as u8,
    }
}

/// The fewest `key=value` that tell `combo` apart from the other combos:
/// the first key (in `keys` order) whose value no other combo shares;
/// else, key by key, each set value that narrows the combos sharing the
/// name so far. A value that is not set is named only when nothing else
/// tells two combos apart.
fn short_name(
    keys: &[String],
    combo: &[Option<String>],
    all: &[&Vec<Option<String>>],
    counts: &HashMap<(usize, &str), usize>,
) -> String {
    let part = |i: usize| name_part(&keys[i], combo[i].as_deref());
    for (i, v) in combo.iter().enumerate() {
        let unique = v
            .as_deref()
            .is_some_and(|v| counts.get(&(i, v)).copied() == Some(1));
        // The plain runs' empty name is unique too, but names nothing.
        if unique && !part(i).is_empty() {
            return part(i);
        }
    }
    let mut left: Vec<&Vec<Option<String>>> = all.to_vec();
    let mut parts = Vec::new();
    for (i, v) in combo.iter().enumerate() {
        if left.len() <= 1 || v.is_none() || left.iter().all(|c| c[i] == *v) {
            continue;
        }
        left.retain(|c| c[i] == *v);
        parts.push(part(i));
    }
    if parts.iter().all(String::is_empty) {
        parts = (0..keys.len()).map(part).collect();
    }
    parts.retain(|p| !p.is_empty());
    parts.join(", ")
}

/// `key=value`; a flag given without a value (`thread`) is its name; a
/// key not set is `key=unset`.
pub(crate) fn name_part(key: &str, value: Option<&str>) -> String {
    match value {
        Some(v) if key == NAME_KEY => v.to_string(),
        Some("") => key.to_string(),
        Some(v) => format!("{key}={v}"),
        None => format!("{key}=unset"),
    }
}

/// Names made unique: two combos that [`short_name`] named alike (they
/// differ only in what one leaves unset) get every key.
///
/// Each value's combos are counted once (a map, not a count over every
/// other combo per combo): a folder of thousands of configs is named in
/// linear time when each has a value of its own.
pub(crate) fn unique_names(keys: &[String], combos: &[&Vec<Option<String>>]) -> Vec<String> {
    let mut counts: HashMap<(usize, &str), usize> = HashMap::new();
    for c in combos {
        for (i, v) in c.iter().enumerate() {
            if let Some(v) = v {
                *counts.entry((i, v.as_str())).or_default() += 1;
            }
        }
    }
    let mut names: Vec<String> = combos
        .iter()
        .map(|c| short_name(keys, c, combos, &counts))
        .collect();
    let mut named: HashMap<String, usize> = HashMap::new();
    for n in &names {
        *named.entry(n.clone()).or_default() += 1;
    }
    for i in 0..names.len() {
        if named[&names[i]] > 1 {
            names[i] = keys
                .iter()
                .zip(combos[i].iter())
                .map(|(k, v)| name_part(k, v.as_deref()))
                .filter(|p| !p.is_empty())
                .collect::<Vec<_>>()
                .join(", ");
        }
    }
    names
}

/// The names of a folder's script logs (each file's `KEY=value` facts
/// and source), one config per file: a fact each file sets differently
/// (`TEST_NAME=`, a key naming something first) names them, the key
/// returned; else their file names ([`FILE_KEY`]). Logs named alike but
/// for their numbers (`loop1`, `loop2`) with no fact apart are repeats,
/// not configs: None.
pub(crate) fn script_log_names(
    files: &[(&BTreeMap<String, String>, &str)],
    declared: &super::Repeats,
) -> Option<(String, Vec<String>)> {
    let (first, _) = files.first()?;
    let mut fact_keys: Vec<&String> = first.keys().collect();
    fact_keys.sort_by_key(|k| (!k.contains("NAME"), k.len(), k.as_str()));
    for key in fact_keys {
        let values: Vec<Option<&String>> = files.iter().map(|(f, _)| f.get(key)).collect();
        let set: BTreeSet<Option<&String>> = values.iter().copied().collect();
        if set.len() == values.len() && values.iter().all(Option::is_some) {
            let named = values.into_iter().map(|v| v.cloned().unwrap_or_default());
            return Some((key.clone(), named.collect()));
        }
    }
    // Names alike but for their numbers (`loop1`, `loop2`) are repeats.
    let stems: BTreeSet<String> = files
        .iter()
        .map(|(_, source)| super::repeat_free(super::stem(source), declared))
        .collect();
    if stems.len() < files.len() {
        return None;
    }
    let named = files.iter().map(|(_, s)| super::stem(s).to_string());
    Some((FILE_KEY.to_string(), named.collect()))
}
