//! A run's identity: the words a study names it by, wherever it keeps
//! them (its folders, its file's name, its job's name, a script's
//! `KEY=value` header ([`header_line`], [`header_tokens`]), its options
//! ([`is_bookkeeping`]), the manifest's `repeats`), cut into words by one
//! tokenizer ([`tokens`]) and sorted by one table ([`class`]); configs are
//! named from them here too ([`unique_names`], the notes of what was kept
//! apart), and a job name's workload words read ([`guess_from_name`]).
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
mod naming;
mod options;
mod study;
mod workload;

use std::collections::{BTreeMap, BTreeSet, HashMap};

pub(crate) use classes::{Class, class, is_any, number_after, rw_of};
pub use declared::Repeats;
pub(crate) use folders::{Pooled, pooled_folders};
pub(crate) use header::{header_line, header_tokens};
pub use naming::{FILE_KEY, NAME_KEY};
pub(crate) use naming::{
    header_note, kept_apart_note, name_part, naming_rank, script_log_names, unique_names,
};
pub use options::is_bookkeeping;
pub(crate) use study::study;
pub(crate) use workload::{NameGuess, guess_from_name};

use crate::model::Row;
use crate::quick_hash::QuickHash;

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

/// Each name's words that not every name has, in order: of the words
/// that could tell two experiments apart ([`telling`]: less
/// repeat marks, dates, load or size words such as `run1`, `qd32`, `j4`,
/// `4Ki`, `128k`).
pub(crate) fn leftovers<'a>(
    names: &BTreeSet<&'a str>,
    declared: &Repeats,
) -> BTreeMap<&'a str, Vec<&'a str>> {
    let all: Vec<Vec<&str>> = names.iter().map(|n| telling(n, declared)).collect();
    let shared: BTreeSet<&str> = all[0]
        .iter()
        .copied()
        .filter(|t| all.iter().all(|ts| ts.contains(t)))
        .collect();
    names
        .iter()
        .zip(all)
        .map(|(n, ts)| (*n, ts.into_iter().filter(|t| !shared.contains(t)).collect()))
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

/// A word of the names, by number in a [`Vocab`].
type WordId = u32;

/// The words of a study's names, each distinct word (lower case) once,
/// numbered, with its class: a name's words are numbers, so runs are told
/// apart by comparing numbers, and a word is classified and lowered once
/// however many files carry it, never copied per file.
struct Vocab<'a> {
    /// Each word as written, its number.
    by_text: HashMap<&'a str, WordId, QuickHash>,
    /// Each word in lower case, its number.
    by_lower: HashMap<String, WordId, QuickHash>,
    /// Each number's word (lower case) and class.
    words: Vec<(String, Class)>,
    declared: &'a Repeats,
}

impl<'a> Vocab<'a> {
    fn new(declared: &'a Repeats) -> Vocab<'a> {
        Vocab {
            by_text: HashMap::default(),
            by_lower: HashMap::default(),
            words: Vec::new(),
            declared,
        }
    }

    /// The number of `t` (as written).
    fn id(&mut self, t: &'a str) -> WordId {
        if let Some(&id) = self.by_text.get(t) {
            return id;
        }
        let Vocab {
            by_lower,
            words,
            declared,
            ..
        } = self;
        let lower = t.to_lowercase();
        let id = *by_lower.entry(lower).or_insert_with_key(|lower| {
            words.push((lower.clone(), declared.class(lower)));
            (words.len() - 1) as WordId
        });
        self.by_text.insert(t, id);
        id
    }

    /// The words of `name` that name a run ([`Class::names_a_run`]:
    /// configs and variants), declared repeat marks left out, as numbers.
    fn run_words(&mut self, name: &'a str, out: &mut Vec<WordId>) {
        for t in tokens(name) {
            // Numbers (a file's index, `000607`) never name a run.
            if t.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            let id = self.id(t);
            if self.words[id as usize].1.names_a_run() {
                out.push(id);
            }
        }
    }

    fn word(&self, id: WordId) -> &str {
        &self.words[id as usize].0
    }

    fn class(&self, id: WordId) -> Class {
        self.words[id as usize].1
    }

    /// The words of `ids` joined by `-`.
    fn joined(&self, ids: &[WordId]) -> String {
        let words: Vec<&str> = ids.iter().map(|&w| self.word(w)).collect();
        words.join("-")
    }
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
    let mut vocab = Vocab::new(declared);
    let runs = gather_runs(rows, group_of_row, folder_of_row, &mut vocab);
    let mut out = NameKeys {
        key_of_row: vec![None; rows.len()],
        ..NameKeys::default()
    };
    let mut key_of_run: HashMap<(&str, usize), Vec<WordId>, QuickHash> = HashMap::default();
    let mut name_of: HashMap<(&str, Vec<WordId>), String, QuickHash> = HashMap::default();
    for (folder, groups) in &runs.folders {
        let Some(reading) = read_folder(groups, &runs.named, &vocab) else {
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
    if key_of_run.is_empty() {
        return out;
    }
    let mut key_ids: HashMap<(&str, &Vec<WordId>), u32, QuickHash> = HashMap::default();
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
type NamedRun<'a> = (Vec<WordId>, &'a str, &'a str, usize);

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
    vocab: &mut Vocab<'a>,
) -> Runs<'a> {
    let mut run_of: HashMap<(&str, &str), usize, QuickHash> = HashMap::default();
    let mut out = Runs {
        named: Vec::new(),
        of_row: vec![None; rows.len()],
        folders: BTreeMap::new(),
    };
    let mut last: Option<(&str, (usize, usize), usize)> = None;
    for (i, r) in rows.iter().enumerate() {
        let Some(g) = group_of_row[i] else { continue };
        let named = &mut out.named;
        let run = *run_of
            .entry((r.source.as_str(), r.job.as_str()))
            .or_insert_with(|| {
                let file = stem(&r.source);
                let mut words = Vec::new();
                vocab.run_words(file, &mut words);
                let of_file = words.len();
                vocab.run_words(&r.job, &mut words);
                named.push((words, file, r.job.as_str(), of_file));
                named.len() - 1
            });
        out.of_row[i] = Some(run);
        // A run's rows (its directions) sit together: placed once.
        let here = (folder_of_row[i], g, run);
        if last == Some(here) {
            continue;
        }
        last = Some(here);
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
    key_of_run: Vec<(usize, Vec<WordId>)>,
    names: Vec<(Vec<WordId>, String)>,
}

/// Reads one folder's names: None where no two runs with the same
/// options at one point differ in a word naming configs.
fn read_folder(groups: &Groups, runs: &[NamedRun], vocab: &Vocab) -> Option<FolderReading> {
    if !groups
        .values()
        .any(|m| !differing(m, runs, vocab).is_empty())
    {
        return None;
    }
    let mut at_point: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for ((p, _), m) in groups {
        at_point.entry(*p).or_default().extend(m);
    }
    let telling: BTreeSet<WordId> = at_point
        .values()
        .flat_map(|m| differing(m, runs, vocab))
        .collect();
    let members: BTreeSet<usize> = groups.values().flatten().copied().collect();
    let roles = roles_of(&members, &telling, runs, vocab);
    let mut keys: Vec<(Vec<WordId>, &str)> = Vec::new();
    let mut known: BTreeSet<Vec<WordId>> = BTreeSet::new();
    let mut key_of_run = Vec::new();
    for &r in &members {
        let (words, file, job, of_file) = &runs[r];
        let mut key: Vec<WordId> = Vec::new();
        for w in words {
            if telling.contains(w) && !key.contains(w) {
                key.push(*w);
            }
        }
        if known.insert(key.clone()) {
            // The name that carries the key: the file's, else the job's.
            let in_file = words[..*of_file].iter().any(|w| key.contains(w));
            keys.push((
                key.clone(),
                if in_file || key.is_empty() { file } else { job },
            ));
        }
        key_of_run.push((r, key));
    }
    let short = short_names(&keys, &roles, vocab);
    let names = keys.into_iter().map(|(k, _)| k).zip(short).collect();
    let mut telling: Vec<String> = telling.iter().map(|&w| vocab.word(w).to_string()).collect();
    telling.sort();
    Some(FolderReading {
        words: FolderWords { telling, roles },
        key_of_run,
        names,
    })
}

/// Roles: plain words some of `members` carry that never tell two apart,
/// in order.
fn roles_of(
    members: &BTreeSet<usize>,
    telling: &BTreeSet<WordId>,
    runs: &[NamedRun],
    vocab: &Vocab,
) -> Vec<String> {
    let mut carried: HashMap<WordId, usize, QuickHash> = HashMap::default();
    for &r in members {
        for w in distinct(&runs[r].0) {
            *carried.entry(w).or_default() += 1;
        }
    }
    let mut roles: Vec<String> = carried
        .into_iter()
        .filter(|(w, n)| {
            *n < members.len() && !telling.contains(w) && class(vocab.word(*w)) == Class::Word
        })
        .map(|(w, _)| vocab.word(w).to_string())
        .collect();
    roles.sort();
    roles
}

/// A run's words, each once, sorted.
fn distinct(words: &[WordId]) -> Vec<WordId> {
    let mut out = words.to_vec();
    out.sort_unstable();
    out.dedup();
    out
}

/// The words naming configs that some of `members` carry and others do
/// not: words of their files' names; words of their jobs' names where
/// they tell apart jobs of one file (stonewalled jobs named `ext4-write`,
/// `xfs-write`), or any where the files' names tell nothing. A job named
/// `randwrite-after` in one file does not make a config of `after` beside
/// another file's `randwrite`.
fn differing(members: &BTreeSet<usize>, runs: &[NamedRun], vocab: &Vocab) -> BTreeSet<WordId> {
    if members.len() < 2 {
        return BTreeSet::new();
    }
    let file_sets: Vec<Vec<WordId>> = members
        .iter()
        .map(|&r| distinct(&runs[r].0[..runs[r].3]))
        .collect();
    let mut out = apart(&file_sets, vocab);
    let mut by_file: HashMap<&str, Vec<Vec<WordId>>, QuickHash> = HashMap::default();
    for &r in members {
        by_file
            .entry(runs[r].1)
            .or_default()
            .push(distinct(&runs[r].0));
    }
    for sets in by_file.values().filter(|s| s.len() > 1) {
        out.extend(apart(sets, vocab));
    }
    if out.is_empty() {
        let sets: Vec<Vec<WordId>> = members.iter().map(|&r| distinct(&runs[r].0)).collect();
        out = apart(&sets, vocab);
    }
    out
}

/// The words naming configs some of `sets` (each a run's distinct words)
/// carry and others do not: each word counted once per set it is in
/// (thousands of jobs of one file are read in one pass, not each word
/// looked for in every set).
fn apart(sets: &[Vec<WordId>], vocab: &Vocab) -> BTreeSet<WordId> {
    let mut carried: HashMap<WordId, usize, QuickHash> = HashMap::default();
    for w in sets.iter().flatten() {
        *carried.entry(*w).or_default() += 1;
    }
    carried
        .into_iter()
        // A word shorter than a name a reader knows (`a`, `c` of `iou_c_t`)
        // tells no config: such runs stay variants of the workload.
        .filter(|(w, n)| {
            *n < sets.len() && vocab.word(*w).len() >= MIN_NAME && vocab.class(*w).configs()
        })
        .map(|(w, _)| w)
        .collect()
}

/// Shortest name that reads on its own (`xfs`, `raw`); `c` of `iou_c_t`
/// does not, and its folder's configs are named by their whole names.
const MIN_NAME: usize = 3;

/// Whether `key` holds another of `keys` whole (`kb1000` of
/// `kb1000-after`): each proper part looked up (a key has a few words),
/// not every other key scanned.
fn holds_another(key: &[WordId], keys: &BTreeSet<&Vec<WordId>>) -> bool {
    if key.len() > 12 {
        return keys
            .iter()
            .any(|o| !o.is_empty() && o.len() < key.len() && o.iter().all(|w| key.contains(w)));
    }
    (1..(1u32 << key.len()) - 1).any(|mask| {
        let part: Vec<WordId> = (0..key.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| key[i])
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
fn short_names(keys: &[(Vec<WordId>, &str)], roles: &[String], vocab: &Vocab) -> Vec<String> {
    let mut count: HashMap<WordId, usize, QuickHash> = HashMap::default();
    for (k, _) in keys {
        for w in k {
            *count.entry(*w).or_default() += 1;
        }
    }
    let known: BTreeSet<&Vec<WordId>> = keys.iter().map(|(k, _)| k).collect();
    let names: Vec<String> = keys
        .iter()
        .map(|(k, _)| {
            let own: Vec<WordId> = k.iter().copied().filter(|w| count[w] == 1).collect();
            // A key holding another whole (`kb1000-after` beside `kb1000`)
            // is named by all its words: `after` alone reads as nothing.
            let holds = holds_another(k, &known);
            match own.is_empty() || holds {
                true => vocab.joined(k),
                false => vocab.joined(&own),
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
            false => whole_name(n, roles, vocab.declared),
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
