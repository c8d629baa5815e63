//! Which configuration each result belongs to: found in the options that
//! differ between runs, not only in the folders they sit in.
//!
//! A study often keeps every configuration in one folder (four I/O
//! schedulers and SPDK side by side, differing only in `ioscheduler` or
//! `ioengine`). Averaging those would report numbers nobody measured, so
//! the default rule ([`ConfigNaming::Auto`]) reads the data:
//!
//! - **Candidates.** Every fio option a run was given (its `options`
//!   column), with `ioengine` as the row's engine (fio's default where none
//!   was named) and the OS added, except the workload and the load (rw,
//!   bs, mix, iodepth, numjobs: compared and swept, never configs) and
//!   bookkeeping that differs from run to run without changing what ran
//!   (runtime, logs, output, seeds: [`is_bookkeeping`]).
//! - **A config key** is a candidate with two or more values among runs of
//!   one folder measured at the same workload and load point (rw, block
//!   size, direction, mix, iodepth, numjobs, number of devices). An option
//!   that changes only together with the load (a batch size set to the
//!   depth) never meets another value at one point, so it splits nothing;
//!   an option whose values differ between the jobs of one file (each job
//!   on its own device) describes one run, not two configs, and is no key.
//! - **Names.** A folder without keys keeps its name. A folder with keys
//!   is split by them; each config is named by the fewest `key=value` that
//!   tell it apart from its folder's others (`ioscheduler=bfq`,
//!   `ioengine=spdk`), prefixed by the folder when there are several.
//!
//! `--label-by folder` keeps one config per folder (the rule before this
//! one); `--label-by KEY[,KEY]` names configs by the given options
//! (`folder` may be one of them). The rule and the keys it used are the
//! `config_rule` of `analyze --format json` ([`ConfigRule`]).

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use indexmap::IndexMap;
use rayon::prelude::*;

pub use crate::model::ConfigRule;
use crate::model::{Os, Row};
use crate::quick_hash::QuickHash;

use super::identity;
pub use super::identity::{FILE_KEY, NAME_KEY, is_bookkeeping};
use super::identity::{Pooled, name_part, naming_rank, unique_names};

mod variants;

/// How rows get their `label` (the config they belong to) when no
/// manifest says otherwise.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ConfigNaming {
    /// The folder, split by the options that differ within it.
    #[default]
    Auto,
    /// The folder of the file relative to the given PATH, whatever differs.
    Dir,
    Engine,
    Host,
    /// File name without extension.
    File,
    /// The values of these options (`folder` is the folder), `key=value`.
    Keys(Vec<String>),
    /// As `Auto`, and files that agree on every option but are named
    /// differently at one workload and load point are configs too, named
    /// by their file names with the numbers taken out.
    Name,
}

impl ConfigNaming {
    /// `auto`, `folder` (or `dir`), `engine`, `host`, `file`, or option
    /// names separated by commas.
    pub fn parse(s: &str) -> Result<ConfigNaming, String> {
        let s = s.trim();
        Ok(match s {
            "auto" => ConfigNaming::Auto,
            "folder" | "dir" => ConfigNaming::Dir,
            "engine" => ConfigNaming::Engine,
            "host" => ConfigNaming::Host,
            "file" => ConfigNaming::File,
            "name" => ConfigNaming::Name,
            _ => {
                let keys: Vec<String> = s
                    .split(',')
                    .map(|k| k.trim().to_string())
                    .filter(|k| !k.is_empty())
                    .collect();
                if keys.is_empty() {
                    return Err("expected auto, folder, engine, host, file or fio option names (ioscheduler,ioengine)".into());
                }
                if let Some(bad) = keys.iter().find(|k| {
                    !k.chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
                }) {
                    return Err(format!(
                        "`{bad}` is not a fio option name (letters, digits, _ and -)"
                    ));
                }
                ConfigNaming::Keys(keys)
            }
        })
    }

    /// The name the rule goes by in `config_rule.rule`.
    pub fn name(&self) -> &'static str {
        match self {
            ConfigNaming::Auto => "auto",
            ConfigNaming::Dir => "folder",
            ConfigNaming::Engine => "engine",
            ConfigNaming::Host => "host",
            ConfigNaming::File => "file",
            ConfigNaming::Keys(_) => "keys",
            ConfigNaming::Name => "name",
        }
    }
}

/// Option names and values, borrowed from the row where they can be.
type Pairs<'a> = BTreeMap<Cow<'a, str>, Cow<'a, str>>;

/// A row's candidate values: its options, its engine and OS.
fn candidates(row: &Row) -> Pairs<'_> {
    with_facts(option_pairs(row, |k| !is_bookkeeping(k)), row)
}

/// The options `keep` takes of [`Row::option_map`], without a copy of
/// each name and value: they are borrowed from the options text, copied
/// only where the text escapes a character, and read into one map as the
/// text is parsed. Tens of thousands of files each have a few dozen
/// options. A text that is not an object of strings gives no options, as
/// `option_map` gives none.
fn option_pairs(row: &Row, keep: impl Fn(&str) -> bool) -> Pairs<'_> {
    use serde::de::{Deserializer, MapAccess, Visitor};

    struct OptionText<'a>(Cow<'a, str>);

    impl<'de> serde::Deserialize<'de> for OptionText<'de> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_str(OptionTextVisitor)
        }
    }

    struct OptionTextVisitor;

    impl<'de> Visitor<'de> for OptionTextVisitor {
        type Value = OptionText<'de>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a string")
        }
        fn visit_borrowed_str<E>(self, v: &'de str) -> Result<OptionText<'de>, E> {
            Ok(OptionText(Cow::Borrowed(v)))
        }
        fn visit_str<E>(self, v: &str) -> Result<OptionText<'de>, E> {
            Ok(OptionText(Cow::Owned(v.to_owned())))
        }
    }

    struct PairsVisitor<F>(F);

    impl<'de, F: Fn(&str) -> bool> Visitor<'de> for PairsVisitor<F> {
        type Value = Pairs<'de>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("fio's options, an object of strings")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Pairs<'de>, A::Error> {
            let mut out = Pairs::new();
            while let Some((OptionText(k), OptionText(v))) =
                map.next_entry::<OptionText, OptionText>()?
            {
                if (self.0)(&k) {
                    out.insert(k, v);
                }
            }
            Ok(out)
        }
    }

    let Some(text) = row.options.as_deref() else {
        return Pairs::new();
    };
    let mut de = serde_json::Deserializer::from_str(text);
    de.deserialize_map(PairsVisitor(keep))
        .and_then(|pairs| de.end().map(|()| pairs))
        .unwrap_or_default()
}

/// `options` with the row's engine, OS and `direct` set over them.
fn with_facts<'a>(mut out: Pairs<'a>, row: &'a Row) -> Pairs<'a> {
    // Terse output names no engine: `unknown` is no value.
    if !row.engine.is_empty() && row.engine != "unknown" {
        out.insert("ioengine".into(), row.engine.as_str().into());
    }
    if row.os != Os::Unknown {
        out.insert("os".into(), row.os.as_str().into());
    }
    if let Some(d) = row.direct {
        out.insert("direct".into(), if d { "1" } else { "0" }.into());
    }
    // A captured output's header (`SCHEDULER=none`): its identity tokens,
    // axis by axis, where fio's own options do not say the same key.
    if row.setup_facts.is_some() {
        for (k, v) in identity::header_tokens(&row.setup_fact_map()) {
            if let std::collections::btree_map::Entry::Vacant(e) = out.entry(k.into()) {
                e.insert(v.to_string().into());
            }
        }
    }
    out
}

/// Where a row was measured: its workload and load, devices included.
type Point<'a> = (
    &'a str,
    u64,
    crate::model::Direction,
    Option<u32>,
    u32,
    u32,
    u32,
);

fn point(row: &Row) -> Point<'_> {
    (
        row.rw.as_str(),
        row.bs_bytes,
        row.direction,
        row.rwmixread,
        row.iodepth,
        row.numjobs,
        row.devices(),
    )
}

/// Names every row's config under `by`, rows labelled by folder (or
/// engine, host, file) on entry. Returns the rule as applied.
pub fn assign(rows: &mut [Row], by: &ConfigNaming) -> ConfigRule {
    plan(rows, by, &identity::Repeats::default()).apply(rows)
}

/// The config rule under `by` and each row's config by it, worked out
/// without changing a row ([`RulePlan::apply`] renames them): ingest works it
/// out beside the instances pass, on the other core. `declared`: the
/// words and folder levels `--repeats` or the manifest say repeat.
pub fn plan(rows: &[Row], by: &ConfigNaming, declared: &identity::Repeats) -> RulePlan {
    let named = match by {
        ConfigNaming::Name => true,
        ConfigNaming::Keys(keys) => keys.iter().any(|k| k == "name"),
        _ => false,
    };
    // Its parts timed under `NVCMP_TIMINGS`, as ingest's phases are.
    let mut phases = super::Phases::from_env();
    // The words that tell runs apart by name are read before the split
    // only where they name configs; otherwise once, after it, as variants.
    let cands = RowCandidates::of(rows);
    phases.done("configs: candidates");
    let words = if named {
        variants::words(rows, &cands, declared)
    } else {
        BTreeMap::new()
    };
    let (rule, names) = match by {
        ConfigNaming::Auto => {
            let pooled = identity::pooled_folders(
                rows.iter()
                    .enumerate()
                    .map(|(i, r)| (r.config.as_str(), point(r), cands.set_of_row[i])),
                declared,
            );
            let keys = name_keys(rows, &cands, &pooled, declared);
            phases.done("configs: names");
            let (mut rule, names) = auto(rows, false, &words, &cands, (&keys, &pooled));
            rule.notes.splice(0..0, pooled.notes());
            (rule, names)
        }
        ConfigNaming::Name => auto(
            rows,
            true,
            &words,
            &cands,
            (&identity::NameKeys::default(), &Pooled::none(declared)),
        ),
        ConfigNaming::Keys(keys) => by_keys(rows, keys, &words),
        other => (
            ConfigRule {
                rule: other.name().into(),
                ..ConfigRule::default()
            },
            Names::new(rows.len()),
        ),
    };
    phases.done("configs: rule");
    let mut rule = rule;
    rule.declared_repeats = declared.said();
    RulePlan {
        rule,
        names,
        variants: (!named).then_some(cands),
        declared: declared.clone(),
    }
}

/// Where the rows' names tell configs that their options do not
/// ([`identity::name_keys`]): rows grouped by folder, workload and load
/// point, and options. Client/server rows are per host and `All clients`
/// aggregates: their names say where they ran.
fn name_keys(
    rows: &[Row],
    cands: &RowCandidates,
    pooled: &Pooled,
    declared: &identity::Repeats,
) -> identity::NameKeys {
    let mut points: HashMap<(&str, Point), usize, QuickHash> = HashMap::default();
    let groups: Vec<Option<(usize, usize)>> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            if r.aggregate || r.host.is_some() {
                return None;
            }
            let n = points.len();
            let p = *points.entry((pooled.folder(r), point(r))).or_insert(n);
            Some((p, cands.set_of_row[i]))
        })
        .collect();
    let folders: Vec<&str> = rows.iter().map(|r| pooled.folder(r)).collect();
    identity::name_keys(rows, &groups, &folders, declared)
}

/// The config rule worked out ([`plan`]), not yet applied to the rows.
pub struct RulePlan {
    rule: ConfigRule,
    /// Each row's new config.
    names: Names,
    /// The rows' candidates, where runs told apart by name only are
    /// variants, looked for once the rows have their configs.
    variants: Option<RowCandidates>,
    /// What `--repeats` or the manifest say repeats.
    declared: identity::Repeats,
}

impl RulePlan {
    /// Renames the rows' configs, marks the variants among them, and
    /// returns the rule as applied.
    pub fn apply(self, rows: &mut [Row]) -> ConfigRule {
        let mut phases = super::Phases::from_env();
        let RulePlan {
            mut rule,
            names,
            variants,
            declared,
        } = self;
        names.apply(rows);
        if let Some(cands) = variants {
            mark_variants(rows, &mut rule, &cands, &declared);
            phases.done("configs: variants");
        }
        rule
    }
}

/// Runs of one config, workload and load point that differ only in their
/// names (`write`, `overwrite-seq`) are variants of the workload
/// (`Row::variant`), not repeats: kept apart, with one note per config.
fn mark_variants(
    rows: &mut [Row],
    rule: &mut ConfigRule,
    cands: &RowCandidates,
    declared: &identity::Repeats,
) {
    let words = variants::words(rows, cands, declared);
    if words.is_empty() {
        return;
    }
    let mut said: IndexMap<String, BTreeSet<String>> = IndexMap::new();
    for r in rows.iter_mut() {
        // A run named by its own rw (`write` beside `overwrite-seq`) is the
        // workload itself.
        if let Some(w) = words
            .get(&variants::run_of(r))
            .filter(|w| !w.eq_ignore_ascii_case(&r.rw))
        {
            r.variant = Some(w.clone());
            said.entry(r.config.clone()).or_default().insert(w.clone());
        }
    }
    for (config, words) in said {
        rule.notes.push(format!(
            "{config}: runs with the same options at one workload and load point differ only in their names ({}): kept apart as variants of the workload, not averaged as repeats; --label-by name makes them configs instead",
            variants::listed(&words)
        ));
    }
}

/// Options are read once per file: a file's rows share them but for
/// per-job differences.
struct FileOptions<'a> {
    folder: &'a str,
    /// The file printed fio's options (JSON of fio 3.x): an option it
    /// lacks was not set. Other formats print none, so what they lack is
    /// unknown, and differs from nothing.
    printed: bool,
    /// Each candidate's value, None where the file's jobs disagree; one
    /// map shared by every file with the same values ([`Interner`]).
    values: std::sync::Arc<Values<'a>>,
    rows: Vec<usize>,
    /// The file holds several fio invocations (a script's log).
    runs: bool,
    /// The `KEY=value` facts its script printed (`Row::setup_facts`).
    facts: BTreeMap<String, String>,
    /// The config its runs' names tell ([`identity::NameKeys`]), where
    /// names tell configs in its folder.
    name_key: Option<u32>,
}

/// A file's candidates and their values ([`FileOptions::values`]).
type Values<'a> = BTreeMap<Cow<'a, str>, Option<Cow<'a, str>>>;

/// Distinct values, each numbered and shared: what many files repeat
/// (their options' candidates, their values) is kept once. Each core
/// builds a value, looks it up and, when known, drops it, so its memory
/// is used again for the next file's, never held once per file (ten
/// thousand maps of fresh pages, each zeroed by the kernel first).
struct Interner<T> {
    known: std::sync::Mutex<Known<T>>,
}

/// What an [`Interner`] holds.
struct Known<T> {
    /// Values by hash, each with its number.
    by_hash: HashMap<u64, Vec<(std::sync::Arc<T>, usize)>>,
    count: usize,
}

impl<T: std::hash::Hash + Eq> Interner<T> {
    fn new() -> Interner<T> {
        Interner {
            known: std::sync::Mutex::new(Known {
                by_hash: HashMap::new(),
                count: 0,
            }),
        }
    }

    /// `value` shared, and its number (in the order first interned).
    fn intern(&self, value: T) -> (std::sync::Arc<T>, usize) {
        use std::hash::BuildHasher;
        let h = QuickHash::default().hash_one(&value);
        let mut known = self
            .known
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Known { by_hash, count } = &mut *known;
        let alike = by_hash.entry(h).or_default();
        if let Some((same, id)) = alike.iter().find(|(v, _)| **v == value) {
            return (same.clone(), *id);
        }
        let id = *count;
        *count += 1;
        let shared = std::sync::Arc::new(value);
        alike.push((shared.clone(), id));
        (shared, id)
    }

    /// Every distinct value, by its number.
    fn into_values(self) -> Vec<std::sync::Arc<T>> {
        let known = self
            .known
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut numbered: Vec<(std::sync::Arc<T>, usize)> =
            known.by_hash.into_values().flatten().collect();
        numbered.sort_unstable_by_key(|(_, id)| *id);
        numbered.into_iter().map(|(v, _)| v).collect()
    }
}

/// Each row's candidates ([`candidates`]), read once per distinct options
/// text and facts on every core, equal sets numbered alike: the config
/// rule and the variants both ask for them, and ten thousand copies of a
/// result print one text. The sets own their text, so rows stay free to
/// be renamed while the table is in use.
pub(crate) struct RowCandidates {
    sets: Vec<std::sync::Arc<Pairs<'static>>>,
    /// The number of each row's set in `sets`.
    pub(crate) set_of_row: Vec<usize>,
}

/// A row's options text and the facts set over it ([`with_facts`]): by
/// content, as copies of one result print the same text.
type Facts<'a> = (
    Option<&'a str>,
    &'a str,
    &'a Os,
    Option<bool>,
    Option<&'a str>,
);

fn facts_of(r: &Row) -> Facts<'_> {
    let header = r.setup_facts.as_deref();
    (
        r.options.as_deref(),
        r.engine.as_str(),
        &r.os,
        r.direct,
        header,
    )
}

/// [`Facts`] with the text by its address: ingest shares equal texts
/// across files, so most rows are told apart without reading theirs. Two
/// rows with equal `FactsAt` have the same candidates.
type FactsAt<'a> = (
    Option<*const u8>,
    &'a str,
    &'a Os,
    Option<bool>,
    Option<&'a str>,
);

fn facts_at(r: &Row) -> FactsAt<'_> {
    let text = r.options.as_deref().map(str::as_ptr);
    let header = r.setup_facts.as_deref();
    (text, r.engine.as_str(), &r.os, r.direct, header)
}

impl RowCandidates {
    fn of(rows: &[Row]) -> RowCandidates {
        // Distinct facts, each by its first row; rows of one job share
        // their text (and so their facts) and are not looked up again.
        let mut first_of: HashMap<Facts, usize, QuickHash> = HashMap::default();
        let mut at: HashMap<FactsAt, usize, QuickHash> = HashMap::default();
        let mut firsts: Vec<usize> = Vec::new();
        let mut distinct_of_row: Vec<usize> = Vec::with_capacity(rows.len());
        for (i, r) in rows.iter().enumerate() {
            if i > 0 && facts_at(&rows[i - 1]) == facts_at(r) {
                distinct_of_row.push(distinct_of_row[i - 1]);
                continue;
            }
            // A text's content is hashed once per address, not per row.
            let d = *at.entry(facts_at(r)).or_insert_with(|| {
                *first_of.entry(facts_of(r)).or_insert_with(|| {
                    firsts.push(i);
                    firsts.len() - 1
                })
            });
            distinct_of_row.push(d);
        }
        let interner = Interner::new();
        let set_of_distinct: Vec<usize> = firsts
            .par_iter()
            .map(|&i| {
                let owned: Pairs<'static> = candidates(&rows[i])
                    .into_iter()
                    .map(|(k, v)| (Cow::Owned(k.into_owned()), Cow::Owned(v.into_owned())))
                    .collect();
                interner.intern(owned).1
            })
            .collect();
        RowCandidates {
            sets: interner.into_values(),
            set_of_row: distinct_of_row
                .into_iter()
                .map(|d| set_of_distinct[d])
                .collect(),
        }
    }

    /// Row `i`'s candidates.
    fn of_row(&self, i: usize) -> &Pairs<'static> {
        &self.sets[self.set_of_row[i]]
    }
}

/// Each file's options, in the order the files' first rows come.
///
/// A file whose runs' names tell configs apart (`name_key`: jobs of one
/// file named by configs) is one unit per config.
fn files<'a>(
    rows: &'a [Row],
    cands: &'a RowCandidates,
    (name_key, pooled): (&[Option<u32>], &'a Pooled),
) -> Vec<FileOptions<'a>> {
    let mut by_file: IndexMap<(&str, Option<u32>), Vec<usize>, QuickHash> =
        IndexMap::with_capacity_and_hasher(rows.len() / 2, QuickHash::default());
    for (i, r) in rows.iter().enumerate() {
        let key = name_key.get(i).copied().flatten();
        by_file.entry((r.source.as_str(), key)).or_default().push(i);
    }
    // A set's values, for the files whose rows all have that set (nearly
    // all): one map per set, not per file.
    let of_set: Vec<std::sync::Arc<Values>> = cands
        .sets
        .iter()
        .map(|set| {
            std::sync::Arc::new(
                set.iter()
                    .map(|(k, v)| (Cow::Borrowed(k.as_ref()), Some(Cow::Borrowed(v.as_ref()))))
                    .collect(),
            )
        })
        .collect();
    let mixed = Interner::new();
    // Straight into one vector: each map or vector of ten thousand files
    // built on the way was fresh memory, zeroed by the kernel first.
    by_file
        .into_values()
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|members| {
            let key = name_key.get(members[0]).copied().flatten();
            FileOptions {
                name_key: key,
                folder: pooled.folder(&rows[members[0]]),
                ..file_options(rows, members, cands, &of_set, &mixed)
            }
        })
        .collect()
}

/// One file's options from its rows' candidates: a key every row gives
/// alike keeps its value, any other is None (set otherwise, or by some
/// jobs only).
fn file_options<'a>(
    rows: &'a [Row],
    members: Vec<usize>,
    cands: &'a RowCandidates,
    of_set: &[std::sync::Arc<Values<'a>>],
    mixed: &Interner<Values<'a>>,
) -> FileOptions<'a> {
    let first = &rows[members[0]];
    let first_set = cands.set_of_row[members[0]];
    let values = if members.iter().all(|&i| cands.set_of_row[i] == first_set) {
        of_set[first_set].clone()
    } else {
        let mut values: Values = (*of_set[first_set]).clone();
        let mut last = first_set;
        for &i in &members {
            let set = cands.set_of_row[i];
            if set == last {
                continue;
            }
            last = set;
            let c = cands.of_row(i);
            // A key one job set and another did not, or set otherwise.
            for (k, v) in values.iter_mut() {
                if v.as_deref() != c.get(k.as_ref()).map(|v| v.as_ref()) {
                    *v = None;
                }
            }
            for k in c.keys() {
                values.entry(Cow::Borrowed(k.as_ref())).or_insert(None);
            }
        }
        mixed.intern(values).0
    };
    FileOptions {
        folder: first.config.as_str(),
        printed: members.iter().any(|&i| rows[i].options.is_some()),
        values,
        runs: members.iter().any(|&i| rows[i].file_run.is_some()),
        rows: members,
        facts: first.setup_fact_map(),
        name_key: None,
    }
}

fn auto(
    rows: &[Row],
    by_name: bool,
    words: &BTreeMap<variants::RunName, String>,
    cands: &RowCandidates,
    (name_keys, pooled): (&identity::NameKeys, &Pooled),
) -> (ConfigRule, Names) {
    let files = files(rows, cands, (&name_keys.key_of_row, pooled));
    let mut by_folder: IndexMap<&str, Vec<&FileOptions>, QuickHash> = IndexMap::default();
    for f in &files {
        by_folder.entry(f.folder).or_default().push(f);
    }
    let several_folders = by_folder.len() > 1;
    let mut rule = ConfigRule {
        rule: if by_name { "name" } else { "auto" }.into(),
        ..ConfigRule::default()
    };
    let mut names = Names::new(rows.len());
    for (folder, group) in &by_folder {
        if let Some(found) = files_as_configs(rows, group, &pooled.declared) {
            name_files(folder, found, several_folders, &mut names, &mut rule);
            continue;
        }
        let mut keys = folder_keys(rows, group);
        rule.notes.extend(identity::header_note(
            folder,
            group.iter().map(|f| &f.facts),
            &keys,
        ));
        // Names that tell configs the options do not come first: what a
        // reader knows the configs by (`ext4`, not a shared path).
        if group.iter().any(|f| f.name_key.is_some()) {
            keys.insert(0, NAME_KEY.to_string());
            said_by_names(folder, group, name_keys, &mut rule);
        }
        // Under `--label-by name` the word that tells runs apart at one
        // workload and load point names configs (`variants::words`); by
        // default those runs are variants of the workload (`assign`).
        if by_name
            && group.iter().any(|f| {
                f.rows
                    .iter()
                    .any(|&i| words.contains_key(&variants::run_of(&rows[i])))
            })
        {
            keys.push(NAME_KEY.to_string());
        }
        if keys.is_empty() {
            // A pool of folders is one config, named by the pool.
            if pooled.pools.contains_key(*folder) {
                let id = names.add(folder.to_string());
                for f in group {
                    names.set(&f.rows, id);
                }
            }
            continue;
        }
        rule.split_folders.push(folder.to_string());
        let combos = combos_of(rows, group, &keys, words, &name_keys.names);
        name_combos(
            &combos,
            &keys,
            (folder, several_folders),
            &mut names,
            &mut rule,
        );
    }
    (rule, names)
}

/// What a folder whose runs' names tell configs says: the note of what
/// was kept apart, and its roles added to the rule's.
fn said_by_names(
    folder: &str,
    group: &[&FileOptions],
    name_keys: &identity::NameKeys,
    rule: &mut ConfigRule,
) {
    let named: BTreeSet<&str> = group
        .iter()
        .filter_map(|f| f.name_key)
        .map(|k| name_keys.names[k as usize].as_str())
        .collect();
    let words = name_keys.folders.get(folder);
    rule.notes
        .push(identity::kept_apart_note(folder, &named, words));
    for role in words.into_iter().flat_map(|w| &w.roles) {
        if !rule.roles.contains(role) {
            rule.roles.push(role.clone());
        }
    }
}

/// Names each combination of key values a config (prefixed by its
/// folder when there are several, named by it where nothing else names
/// it: the plain runs beside runs a word of their names tells apart),
/// records its values in the rule and adds the keys to the rule's.
fn name_combos(
    combos: &IndexMap<Vec<Option<String>>, Vec<&FileOptions>>,
    keys: &[String],
    (folder, prefixed): (&str, bool),
    names: &mut Names,
    rule: &mut ConfigRule,
) {
    let combo_list: Vec<&Vec<Option<String>>> = combos.keys().collect();
    let shorts = unique_names(keys, &combo_list);
    for ((combo, members), short) in combos.iter().zip(shorts) {
        let name = match (prefixed, short.is_empty()) {
            (_, true) => folder.to_string(),
            (true, false) => format!("{folder} {short}"),
            (false, false) => short,
        };
        let id = names.add(name.clone());
        for f in members {
            names.set(&f.rows, id);
        }
        let values = keys.iter().cloned().zip(combo.iter().cloned()).collect();
        rule.values.insert(name, values);
    }
    for k in keys {
        if !rule.keys.contains(k) {
            rule.keys.push(k.clone());
        }
    }
}

/// Each row's new config name, by number: a hundred thousand rows take
/// a number each, not a copy of their name in a hashed map.
struct Names {
    of_row: Vec<Option<u32>>,
    names: Vec<String>,
}

impl Names {
    fn new(rows: usize) -> Names {
        Names {
            of_row: vec![None; rows],
            names: Vec::new(),
        }
    }

    /// `name` numbered (each call a new number).
    fn add(&mut self, name: String) -> u32 {
        self.names.push(name);
        (self.names.len() - 1) as u32
    }

    fn set(&mut self, rows: &[usize], id: u32) {
        for &i in rows {
            self.of_row[i] = Some(id);
        }
    }

    /// The rows renamed; rows never set keep their name.
    fn apply(self, rows: &mut [Row]) {
        for (row, id) in rows.iter_mut().zip(self.of_row) {
            if let Some(id) = id {
                row.config.clone_from(&self.names[id as usize]);
            }
        }
    }
}

/// The folder's files grouped by their values of `keys`, in the order
/// first seen.
fn combos_of<'f, 'a>(
    rows: &[Row],
    group: &[&'f FileOptions<'a>],
    keys: &[String],
    words: &BTreeMap<variants::RunName, String>,
    key_names: &[String],
) -> IndexMap<Vec<Option<String>>, Vec<&'f FileOptions<'a>>> {
    let value_of = |f: &FileOptions<'_>, k: &str| -> Option<String> {
        match k {
            NAME_KEY if f.name_key.is_some() => f.name_key.map(|k| key_names[k as usize].clone()),
            NAME_KEY => f
                .rows
                .first()
                .and_then(|&i| words.get(&variants::run_of(&rows[i])))
                .cloned()
                .or_else(|| f.rows.first().map(|&i| rows[i].rw.clone())),
            _ => f.values.get(k).cloned().flatten().map(Cow::into_owned),
        }
    };
    // Files that share their values' map share their combination
    // (unless a file's own name is a key): worked out once per map.
    let mut of_map: HashMap<*const Values, usize, QuickHash> = HashMap::default();
    let mut combos: IndexMap<Vec<Option<String>>, Vec<&FileOptions>> = IndexMap::new();
    let by_map = !keys.iter().any(|k| k == NAME_KEY);
    for &f in group {
        let known = by_map
            .then(|| of_map.get(&std::sync::Arc::as_ptr(&f.values)).copied())
            .flatten();
        let at = match known {
            Some(at) => at,
            None => {
                let combo = keys.iter().map(|k| value_of(f, k)).collect();
                let entry = combos.entry(combo);
                let at = entry.index();
                entry.or_default();
                if by_map {
                    of_map.insert(std::sync::Arc::as_ptr(&f.values), at);
                }
                at
            }
        };
        combos[at].push(f);
    }
    combos
}

/// Names each file of a folder of script logs as its config (what
/// [`files_as_configs`] found) and says so in the rule.
fn name_files(
    folder: &str,
    (key, named): (String, Vec<(&FileOptions, String)>),
    several_folders: bool,
    names: &mut Names,
    rule: &mut ConfigRule,
) {
    rule.split_folders.push(folder.to_string());
    rule.file_configs.push(folder.to_string());
    for (f, short) in named {
        let name = match several_folders {
            true => format!("{folder} {short}"),
            false => short.clone(),
        };
        let id = names.add(name.clone());
        names.set(&f.rows, id);
        let values = IndexMap::from([(key.clone(), Some(short))]);
        rule.values.insert(name, values);
    }
    if !rule.keys.contains(&key) {
        rule.keys.push(key);
    }
}

/// A folder of script logs, one per config: two or more files, each
/// holding several fio invocations, all of the same workloads and load
/// points (the shape a wrapper script run once per config leaves), told
/// apart by a `KEY=value` fact each file sets differently (`TEST_NAME=`,
/// a key naming something first) or by their names. Each file is then a
/// config, named by that value (the key returned) or its file name
/// ([`FILE_KEY`]). Logs named alike but for their numbers (`loop1`,
/// `loop2`) with no fact apart are repeats, not configs.
fn files_as_configs<'f, 'a>(
    rows: &[Row],
    group: &[&'f FileOptions<'a>],
    declared: &identity::Repeats,
) -> Option<(String, Vec<(&'f FileOptions<'a>, String)>)> {
    if group.len() < 2 || !group.iter().all(|f| f.runs) {
        return None;
    }
    let points =
        |f: &FileOptions| -> BTreeSet<Point> { f.rows.iter().map(|&i| point(&rows[i])).collect() };
    let first = points(group[0]);
    if group[1..].iter().any(|f| points(f) != first) {
        return None;
    }
    let files: Vec<(&BTreeMap<String, String>, &str)> = group
        .iter()
        .map(|f| {
            let source = f.rows.first().map_or("", |&i| rows[i].source.as_str());
            (&f.facts, source)
        })
        .collect();
    let (key, names) = identity::script_log_names(&files, declared)?;
    Some((key, group.iter().copied().zip(names).collect()))
}

/// The config keys of one folder's files, most values first (the order
/// names are built in), then by name.
fn folder_keys(rows: &[Row], group: &[&FileOptions]) -> Vec<String> {
    // Keys whose jobs disagree inside some file describe one run.
    let mut within: BTreeSet<&str> = BTreeSet::new();
    let mut all: BTreeSet<&str> = BTreeSet::new();
    // Files share their values' maps: each map is read once.
    let mut seen: std::collections::HashSet<*const Values, QuickHash> =
        std::collections::HashSet::default();
    for f in group {
        if !seen.insert(std::sync::Arc::as_ptr(&f.values)) {
            continue;
        }
        for (k, v) in f.values.iter() {
            all.insert(k.as_ref());
            if v.is_none() {
                within.insert(k);
            }
        }
    }
    // Each point's files, once. Files with the same values tell the same
    // at a point: one of them stands for all (ten thousand files of a
    // handful of configs are a handful per point).
    let mut at_point: HashMap<Point, Vec<usize>, QuickHash> = HashMap::default();
    let mut told: std::collections::HashSet<(Point, *const Values, bool), QuickHash> =
        std::collections::HashSet::default();
    for (fi, f) in group.iter().enumerate() {
        let values = std::sync::Arc::as_ptr(&f.values);
        for &i in &f.rows {
            let p = point(&rows[i]);
            if told.insert((p, values, f.printed)) {
                at_point.entry(p).or_default().push(fi);
            }
        }
    }
    let mut keys: Vec<&str> = all
        .difference(&within)
        .copied()
        .filter(|k| {
            // A value nothing told (an OS not inferred, an option of a
            // format that prints none) is unknown, not another value.
            let known = |fi: &&usize| {
                let f = group[**fi];
                f.values.contains_key(*k) || (f.printed && *k != "os")
            };
            let value = |fi: &usize| group[*fi].values.get(*k).and_then(Option::as_deref);
            // Two values at one point are enough: no set of them all.
            at_point.values().any(|fs| {
                let mut vals = fs.iter().filter(known).map(value);
                vals.next().is_some_and(|first| vals.any(|v| v != first))
            })
        })
        .collect();
    keys.sort_by_key(|k| (naming_rank(k), *k));
    keys.into_iter().map(str::to_string).collect()
}

fn by_keys(
    rows: &[Row],
    keys: &[String],
    words: &BTreeMap<variants::RunName, String>,
) -> (ConfigRule, Names) {
    let mut rule = ConfigRule {
        rule: "keys".into(),
        keys: keys.to_vec(),
        ..ConfigRule::default()
    };
    let mut names = Names::new(rows.len());
    let mut ids: HashMap<String, u32, QuickHash> = HashMap::default();
    for (i, r) in rows.iter().enumerate() {
        let c = candidates_all(r);
        let values: IndexMap<String, Option<String>> = keys
            .iter()
            .map(|k| {
                let v = match k.as_str() {
                    "folder" | "dir" => Some(r.config.clone()),
                    // The word that tells a run from its namesakes, else
                    // the job's name (fio prints no `name` option).
                    "name" => Some(
                        words
                            .get(&variants::run_of(r))
                            .cloned()
                            .unwrap_or_else(|| r.job.clone()),
                    ),
                    _ => c.get(k.as_str()).map(|v| v.to_string()),
                };
                (k.clone(), v)
            })
            .collect();
        let name = values
            .iter()
            .map(|(k, v)| match (k.as_str(), v) {
                ("folder" | "dir" | "name", Some(v)) => v.clone(),
                // A format that prints no options (normal text, terse)
                // does not say an option was unset: it is unknown.
                (_, None) if r.options.is_none() => format!("{k}=unknown"),
                (_, v) => name_part(k, v.as_deref()),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let id = *ids
            .entry(name.clone())
            .or_insert_with(|| names.add(name.clone()));
        names.set(&[i], id);
        rule.values.entry(name).or_insert(values);
    }
    (rule, names)
}

/// Every option of the row, bookkeeping included: a key the user names
/// is used whatever it is.
fn candidates_all(row: &Row) -> Pairs<'_> {
    with_facts(option_pairs(row, |_| true), row)
}

#[cfg(test)]
mod tests;
