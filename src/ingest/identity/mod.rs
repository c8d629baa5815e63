//! A run's identity: the words a study names it by, wherever it keeps
//! them (its folders, its file's name, its job's name, a script's
//! `KEY=value` header, its options, the manifest), cut into words by one
//! tokenizer ([`tokens`]) and sorted by one table ([`class`]).
//!
//! Runs at one workload and load point with the same options are pooled
//! as repeats only on evidence: nothing but repeat marks, numbers, dates
//! and times telling their names apart. A word that does ([`Class::Word`]:
//! `ext4` against `xfs`, `kernel-5.4` against `kernel-6.8`) names a
//! configuration ([`name_keys`]); a word of an I/O pattern
//! ([`Class::Variant`]: `overwrite`) a variant of the workload (the config
//! rule's `variants`). A word that never tells two runs apart at one point
//! but only some runs carry (`cpu` of an idle-profiling file beside
//! `benchmark`) is a role: files differing by it are one config.

mod classes;
mod declared;
mod folders;
mod header;
mod study;

use std::collections::{BTreeMap, BTreeSet, HashMap};

pub(crate) use classes::{Class, class, is_any, number_after, rw_of};
pub use declared::Repeats;
pub(crate) use folders::{Pooled, pooled_folders};
pub(crate) use header::{header_line, header_tokens};
pub(crate) use study::study;

use crate::model::Row;

/// Extensions a result file's name carries: not part of what it names.
const EXTENSIONS: [&str; 14] = [
    "json", "txt", "log", "out", "output", "xml", "csv", "terse", "normal", "gz", "zst", "fz",
    "md", "html",
];

/// A file's name without its folders and the extensions results carry
/// (`kernel-5.4.0-ext4-default-benchmark.json` ->
/// `kernel-5.4.0-ext4-default-benchmark`; `loop1.txt` -> `loop1`).
pub(crate) fn stem(source: &str) -> &str {
    let mut s = source.rsplit(['/', '\\']).next().unwrap_or(source);
    while let Some((head, ext)) = s.rsplit_once('.') {
        if head.is_empty() || !is_any(ext, &EXTENSIONS) {
            break;
        }
        s = head;
    }
    s
}

/// A name's words: its runs of letters and digits, a version's parts kept
/// as one (`5.4.0`, `kernel-6.8`, `kernel5.4`), so that a versioned word
/// is a word, not a word and numbers to strip.
pub(crate) fn tokens(name: &str) -> Vec<&str> {
    let mut pieces: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for (i, c) in name.char_indices() {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                pieces.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        pieces.push((s, name.len()));
    }
    let digits = |x: &str| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit());
    // A version's parts: `5` `.` `4` is `5.4`, `v2` `.` `0` `.` `21a` is
    // `v2.0.21a` (a part may end in letters, never start with them).
    let mut glued: Vec<(usize, usize)> = Vec::with_capacity(pieces.len());
    for (s, e) in pieces {
        if let Some(last) = glued.last_mut()
            && &name[last.1..s] == "."
            && name[s..e].starts_with(|c: char| c.is_ascii_digit())
            && (digits(&name[s..e]) || name[last.0..last.1].contains('.'))
            && name[last.0..last.1].ends_with(|c: char| c.is_ascii_digit())
        {
            last.1 = e;
            continue;
        }
        glued.push((s, e));
    }
    // A word and its version: `kernel` `-` `5.4` is `kernel-5.4`.
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(glued.len());
    for (s, e) in glued {
        let this = &name[s..e];
        if let Some(last) = out.last_mut()
            && matches!(&name[last.1..s], "-" | "_")
            && this.contains('.')
            && class(this) != Class::Date
            && name[last.0..last.1].chars().all(|c| c.is_alphabetic())
        {
            last.1 = e;
            continue;
        }
        out.push((s, e));
    }
    out.into_iter().map(|(s, e)| &name[s..e]).collect()
}

/// The words of a name that name a run ([`Class::names_a_run`]), lower
/// case; words `declared` repeat marks left out.
pub(crate) fn run_words(name: &str, declared: &Repeats) -> Vec<String> {
    tokens(name)
        .into_iter()
        .filter(|t| declared.class(t).names_a_run())
        .map(str::to_lowercase)
        .collect()
}

/// A name's words less repeat marks (the table's and those `declared`),
/// numbers, dates, times, loads and formats: what could tell two
/// experiments apart (`iou_c_t_4` -> `iou`, `c`, `t`).
pub(crate) fn telling<'a>(name: &'a str, declared: &Repeats) -> Vec<&'a str> {
    tokens(name)
        .into_iter()
        .filter(|t| {
            let c = declared.class(t);
            let size = c == Class::Workload && classes::is_size(t);
            !(c.repeats() || matches!(c, Class::Load | Class::Format) || size)
        })
        .collect()
}

/// A name less its repeat marks, numbers, dates and times, lower case:
/// two names alike but for those (`loop1`, `loop2`) are repeats of one
/// run.
pub(crate) fn repeat_free(name: &str, declared: &Repeats) -> String {
    tokens(name)
        .into_iter()
        .filter(|t| !declared.repeats(t))
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join("-")
}

/// A folder's label less the repeat marks, numbers, dates and times of
/// each of its parts (`twice/2024-01-05` -> `twice`) and less the levels
/// `declared` repeats, empty parts left out, each part's words joined as
/// it joins them.
pub(crate) fn repeat_free_label(label: &str, declared: &Repeats) -> String {
    let parts = label.split('/').count();
    label
        .split('/')
        .enumerate()
        .filter(|(i, _)| !declared.level(i + 1, parts))
        .map(|(_, part)| {
            let sep = if part.contains('_') && !part.contains('-') {
                "_"
            } else {
                "-"
            };
            tokens(part)
                .into_iter()
                .filter(|t| !declared.repeats(t))
                .collect::<Vec<_>>()
                .join(sep)
        })
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("/")
}

/// Whether two names differ only in repeat marks, numbers, dates and
/// times.
#[cfg(test)]
fn same_but_repeats(a: &str, b: &str) -> bool {
    let none = Repeats::default();
    repeat_free(a, &none) == repeat_free(b, &none)
}

/// Where the names of a folder's runs tell configs apart: each row's
/// key (its number in `names`), the keys' names, and what the study's
/// names were read as.
#[derive(Debug, Default)]
pub(crate) struct NameKeys {
    /// Each row's key, None where its folder's names tell no configs.
    pub key_of_row: Vec<Option<u32>>,
    /// Each key's name (`ext4`, `raw-block`), by number.
    pub names: Vec<String>,
    /// Per folder split by names: the words that told its configs apart
    /// and the words only some runs carry (roles).
    pub folders: BTreeMap<String, FolderWords>,
}

/// What a folder's names were read as.
#[derive(Debug, Default, Clone)]
pub(crate) struct FolderWords {
    /// The words that tell runs apart at one point (`ext4`, `xfs`).
    #[allow(dead_code)]
    pub telling: Vec<String>,
    /// Words only some runs carry that never tell two apart at one point
    /// (`cpu`, `benchmark`): roles.
    pub roles: Vec<String>,
}

/// The configs a folder's names tell apart. `group_of_row` numbers each
/// row's workload and load point and, within it, its options (None: a row
/// no name is read for, a host's or an aggregate); the folder is each
/// row's entry in `folder_of_row`. Where runs with the same options at one point
/// differ in a word that names configs ([`Class::configs`]), the folder's
/// names tell configs: its telling words are every such word that differs
/// between runs at one point (options apart), and each run's key is the
/// telling words it carries. Elsewhere options alone tell configs.
pub(crate) fn name_keys(
    rows: &[Row],
    group_of_row: &[Option<(usize, usize)>],
    folder_of_row: &[&str],
    declared: &Repeats,
) -> NameKeys {
    let runs = gather_runs(rows, group_of_row, folder_of_row, declared);
    let mut out = NameKeys {
        key_of_row: vec![None; rows.len()],
        ..NameKeys::default()
    };
    let mut key_of_run: HashMap<(&str, usize), Vec<String>> = HashMap::new();
    let mut name_of: HashMap<(&str, Vec<String>), String> = HashMap::new();
    for (folder, groups) in &runs.folders {
        let Some(reading) = read_folder(groups, &runs.named, declared) else {
            continue;
        };
        for (r, key) in reading.key_of_run {
            key_of_run.insert((folder, r), key);
        }
        for (k, n) in reading.names {
            name_of.insert((folder, k), n);
        }
        out.folders.insert(folder.to_string(), reading.words);
    }
    let mut key_ids: HashMap<(&str, &Vec<String>), u32> = HashMap::new();
    for (i, (run, &folder)) in runs.of_row.iter().zip(folder_of_row).enumerate() {
        let Some(run) = *run else { continue };
        let Some(key) = key_of_run.get(&(folder, run)) else {
            continue;
        };
        let id = *key_ids.entry((folder, key)).or_insert_with(|| {
            out.names.push(name_of[&(folder, key.clone())].clone());
            (out.names.len() - 1) as u32
        });
        out.key_of_row[i] = Some(id);
    }
    out
}

/// A folder's runs by workload and load point and, within it, options.
type Groups = BTreeMap<(usize, usize), BTreeSet<usize>>;

/// Each distinct (source, job) once: its words (its file's, then its
/// job's), file stem, job name, and how many of its words are its file's.
type NamedRun<'a> = (Vec<String>, &'a str, &'a str, usize);

/// The runs of a study and where each sits.
struct Runs<'a> {
    /// Each run's words and names, by number.
    named: Vec<NamedRun<'a>>,
    /// Each row's run, None for a row no name is read for.
    of_row: Vec<Option<usize>>,
    /// Per folder, its runs grouped by point and options.
    folders: BTreeMap<&'a str, Groups>,
}

/// Numbers each distinct (source, job) once, with its words, and groups
/// the runs of each folder by point and options.
fn gather_runs<'a>(
    rows: &'a [Row],
    group_of_row: &[Option<(usize, usize)>],
    folder_of_row: &[&'a str],
    declared: &Repeats,
) -> Runs<'a> {
    let mut run_of: HashMap<(&str, &str), usize> = HashMap::new();
    let mut out = Runs {
        named: Vec::new(),
        of_row: vec![None; rows.len()],
        folders: BTreeMap::new(),
    };
    for (i, r) in rows.iter().enumerate() {
        let Some(g) = group_of_row[i] else { continue };
        let named = &mut out.named;
        let run = *run_of
            .entry((r.source.as_str(), r.job.as_str()))
            .or_insert_with(|| {
                let mut words = run_words(stem(&r.source), declared);
                let of_file = words.len();
                words.extend(run_words(&r.job, declared));
                named.push((words, stem(&r.source), r.job.as_str(), of_file));
                named.len() - 1
            });
        out.of_row[i] = Some(run);
        out.folders
            .entry(folder_of_row[i])
            .or_default()
            .entry(g)
            .or_default()
            .insert(run);
    }
    out
}

/// What one folder's names were read as: its words, each run's key and
/// each key's name.
struct FolderReading {
    words: FolderWords,
    key_of_run: Vec<(usize, Vec<String>)>,
    names: Vec<(Vec<String>, String)>,
}

/// Reads one folder's names: None where no two runs with the same
/// options at one point differ in a word naming configs.
fn read_folder(groups: &Groups, runs: &[NamedRun], declared: &Repeats) -> Option<FolderReading> {
    let words_of = |r: usize| -> &Vec<String> { &runs[r].0 };
    if !groups.values().any(|m| !differing(m, runs).is_empty()) {
        return None;
    }
    let mut at_point: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for ((p, _), m) in groups {
        at_point.entry(*p).or_default().extend(m);
    }
    let telling: BTreeSet<&String> = at_point.values().flat_map(|m| differing(m, runs)).collect();
    let members: BTreeSet<usize> = groups.values().flatten().copied().collect();
    let roles = roles_of(&members, &telling, words_of);
    let mut keys: Vec<(Vec<String>, &str)> = Vec::new();
    let mut known: BTreeSet<Vec<String>> = BTreeSet::new();
    let mut key_of_run = Vec::new();
    for &r in &members {
        let mut key: Vec<String> = Vec::new();
        for w in words_of(r) {
            if telling.contains(w) && !key.contains(w) {
                key.push(w.clone());
            }
        }
        if known.insert(key.clone()) {
            // The name that carries the key: the file's, else the job's.
            let (_, file, job, _) = runs[r];
            let in_file = run_words(file, declared).iter().any(|w| key.contains(w));
            keys.push((
                key.clone(),
                if in_file || key.is_empty() { file } else { job },
            ));
        }
        key_of_run.push((r, key));
    }
    let short = short_names(&keys, &roles, declared);
    let names = keys.into_iter().map(|(k, _)| k).zip(short).collect();
    Some(FolderReading {
        words: FolderWords {
            telling: telling.into_iter().cloned().collect(),
            roles,
        },
        key_of_run,
        names,
    })
}

/// Roles: plain words some of `members` carry that never tell two apart.
fn roles_of<'a>(
    members: &BTreeSet<usize>,
    telling: &BTreeSet<&String>,
    words_of: impl Fn(usize) -> &'a Vec<String>,
) -> Vec<String> {
    let mut carried: BTreeMap<&String, usize> = BTreeMap::new();
    for &r in members {
        for w in words_of(r).iter().collect::<BTreeSet<_>>() {
            *carried.entry(w).or_default() += 1;
        }
    }
    carried
        .into_iter()
        .filter(|(w, n)| *n < members.len() && !telling.contains(w) && class(w) == Class::Word)
        .map(|(w, _)| w.clone())
        .collect()
}

/// The words naming configs that some of `members` carry and others do
/// not: words of their files' names; words of their jobs' names where
/// they tell apart jobs of one file (stonewalled jobs named `ext4-write`,
/// `xfs-write`), or any where the files' names tell nothing. A job named
/// `randwrite-after` in one file does not make a config of `after` beside
/// another file's `randwrite`.
fn differing<'a>(members: &BTreeSet<usize>, runs: &'a [NamedRun]) -> BTreeSet<&'a String> {
    if members.len() < 2 {
        return BTreeSet::new();
    }
    let file_sets: Vec<BTreeSet<&String>> = members
        .iter()
        .map(|&r| runs[r].0[..runs[r].3].iter().collect())
        .collect();
    let mut out = apart(&file_sets);
    let mut by_file: BTreeMap<&str, Vec<BTreeSet<&String>>> = BTreeMap::new();
    for &r in members {
        by_file
            .entry(runs[r].1)
            .or_default()
            .push(runs[r].0.iter().collect());
    }
    for sets in by_file.values().filter(|s| s.len() > 1) {
        out.extend(apart(sets));
    }
    if out.is_empty() {
        let sets: Vec<BTreeSet<&String>> = members
            .iter()
            .map(|&r| runs[r].0.iter().collect())
            .collect();
        out = apart(&sets);
    }
    out
}

/// The words naming configs some of `sets` carry and others do not:
/// each word counted once per set it is in (thousands of jobs of one file
/// are read in one pass, not each word looked for in every set).
fn apart<'a>(sets: &[BTreeSet<&'a String>]) -> BTreeSet<&'a String> {
    let mut carried: HashMap<&'a String, usize> = HashMap::new();
    for w in sets.iter().flatten() {
        *carried.entry(w).or_default() += 1;
    }
    carried
        .into_iter()
        // A word shorter than a name a reader knows (`a`, `c` of `iou_c_t`)
        // tells no config: such runs stay variants of the workload.
        .filter(|(w, n)| *n < sets.len() && w.len() >= MIN_NAME && class(w).configs())
        .map(|(w, _)| w)
        .collect()
}

/// Shortest name that reads on its own (`xfs`, `raw`); `c` of `iou_c_t`
/// does not, and its folder's configs are named by their whole names.
const MIN_NAME: usize = 3;

/// Whether `key` holds another of `keys` whole (`kb1000` of
/// `kb1000-after`): each proper part looked up (a key has a few words),
/// not every other key scanned.
fn holds_another(key: &[String], keys: &BTreeSet<&Vec<String>>) -> bool {
    if key.len() > 12 {
        return keys
            .iter()
            .any(|o| !o.is_empty() && o.len() < key.len() && o.iter().all(|w| key.contains(w)));
    }
    (1..(1u32 << key.len()) - 1).any(|mask| {
        let part: Vec<String> = (0..key.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| key[i].clone())
            .collect();
        keys.contains(&part)
    })
}

/// A name less its numbers, repeat marks, loads, formats and `roles`,
/// its words joined as it joins them (`iou_c_t_4` -> `iou_c_t`,
/// `ssd-a-cpu` -> `ssd-a` where `cpu` is a role).
pub(crate) fn whole_name(name: &str, roles: &[String], declared: &Repeats) -> String {
    let sep = if name.contains('_') { "_" } else { "-" };
    telling(name, declared)
        .into_iter()
        .filter(|t| !roles.iter().any(|r| r.eq_ignore_ascii_case(t)))
        .collect::<Vec<_>>()
        .join(sep)
}

/// Each key named by its words that no other key has (`raw-block`,
/// `ext4`, `xfs` of `raw-block`, `kernel-5.4.0-ext4-default`,
/// `kernel-5.4.0-xfs-default`), else by all its words. Where a name would
/// not read (shorter than [`MIN_NAME`]) or two are alike, every key is
/// named by its first file's whole name ([`whole_name`]). The runs that
/// carry no telling word (the plain runs beside `percentiles`,
/// `stonewall`) are named by nothing (empty): by their folder, not by
/// one of their files.
fn short_names(keys: &[(Vec<String>, &str)], roles: &[String], declared: &Repeats) -> Vec<String> {
    let mut count: HashMap<&String, usize> = HashMap::new();
    for (k, _) in keys {
        for w in k {
            *count.entry(w).or_default() += 1;
        }
    }
    let known: BTreeSet<&Vec<String>> = keys.iter().map(|(k, _)| k).collect();
    let names: Vec<String> = keys
        .iter()
        .map(|(k, _)| {
            let own: Vec<&str> = k
                .iter()
                .filter(|w| count[w] == 1)
                .map(String::as_str)
                .collect();
            // A key holding another whole (`kb1000-after` beside `kb1000`)
            // is named by all its words: `after` alone reads as nothing.
            let holds = holds_another(k, &known);
            match own.is_empty() || holds {
                true => k.join("-"),
                false => own.join("-"),
            }
        })
        .collect();
    let distinct: BTreeSet<&String> = names.iter().collect();
    if distinct.len() == names.len() && names.iter().all(|n| n.is_empty() || n.len() >= MIN_NAME) {
        return names;
    }
    let whole: Vec<String> = keys
        .iter()
        .map(|(k, n)| match k.is_empty() {
            true => String::new(),
            false => whole_name(n, roles, declared),
        })
        .collect();
    let distinct: BTreeSet<&String> = whole.iter().collect();
    match distinct.len() == whole.len() {
        true => whole,
        false => keys.iter().map(|(_, n)| n.to_string()).collect(),
    }
}

#[cfg(test)]
mod tests;
