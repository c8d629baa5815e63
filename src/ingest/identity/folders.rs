//! Folders that are one study measured again (`2024-01-05/`,
//! `2024-01-07/`; `run1/`, `run2/`; or what `--repeats` declares):
//! pooled as repeats, their runs one config per config of the study.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use indexmap::IndexMap;

use super::{Repeats, repeat_free_label};
use crate::model::Row;

/// Folders pooled as repeats of one another: each folder's label to the
/// label of their pool.
#[derive(Default)]
pub(crate) struct Pooled {
    /// What `--repeats` or the manifest say repeats.
    pub declared: Repeats,
    label_of: HashMap<String, String>,
    /// Each pool's label, its folders and whether `declared` pooled them.
    pub pools: IndexMap<String, (Vec<String>, bool)>,
}

impl Pooled {
    /// No folder pooled, under `declared`.
    pub(crate) fn none(declared: &Repeats) -> Pooled {
        Pooled {
            declared: declared.clone(),
            ..Pooled::default()
        }
    }

    /// The folder `r` counts in: its pool's label, else its own.
    pub(crate) fn folder<'a>(&'a self, r: &'a Row) -> &'a str {
        self.label_of
            .get(&r.config)
            .map_or(r.config.as_str(), String::as_str)
    }

    /// One note per pool of folders.
    pub(crate) fn notes(&self) -> Vec<String> {
        self.pools
            .iter()
            .map(|(pool, (folders, said))| {
                let why = match said {
                    true => "folders differing only by what --repeats declares repeats",
                    false => "folders differing only by dates, times or run numbers, with the same options at every workload and load point they share",
                };
                format!(
                    "{}: {why}: pooled as repeats into {pool} (--label-by folder keeps them apart)",
                    folders.join(", ")
                )
            })
            .collect()
    }
}

/// Folders whose labels differ only in repeat marks, numbers, dates and
/// times (`2024-01-05`, `2024-01-07`; `run1`, `run2`) and whose runs have
/// the same options at every workload and load point they share: one
/// study measured twice, pooled as repeats. Folders that differ in an
/// option at a shared point (a device on two days with two engines) stay
/// apart, named by their folders. Folders differing only by what
/// `declared` says repeats (a word, a folder level) are pooled whatever
/// their options: the rule splits the pool by the options that differ.
/// `rows`: each row's folder label, point and option set (by number).
pub(crate) fn pooled_folders<'a, P: Ord>(
    rows: impl Iterator<Item = (&'a str, P, usize)>,
    declared: &Repeats,
) -> Pooled {
    // label -> point -> option sets
    let mut of_label: IndexMap<&str, BTreeMap<P, BTreeSet<usize>>> = IndexMap::new();
    for (label, point, set) in rows {
        of_label
            .entry(label)
            .or_default()
            .entry(point)
            .or_default()
            .insert(set);
    }
    let mut alike: IndexMap<String, Vec<&str>> = IndexMap::new();
    for label in of_label.keys() {
        alike
            .entry(repeat_free_label(label, declared))
            .or_default()
            .push(label);
    }
    let mut out = Pooled::none(declared);
    let plain = Repeats::default();
    for (stripped, labels) in alike {
        if labels.len() < 2 {
            continue;
        }
        let said = labels
            .iter()
            .any(|l| repeat_free_label(l, declared) != repeat_free_label(l, &plain));
        let sets: Vec<&BTreeMap<P, BTreeSet<usize>>> =
            labels.iter().map(|l| &of_label[*l]).collect();
        let mut shared = false;
        let agree = sets.iter().enumerate().all(|(a, x)| {
            sets[a + 1..].iter().all(|y| {
                x.iter().all(|(p, s)| match y.get(p) {
                    Some(t) => {
                        shared = true;
                        s == t
                    }
                    None => true,
                })
            })
        });
        if !(said || (agree && shared)) {
            continue;
        }
        let pool = match stripped.is_empty() {
            true => labels.join(" + "),
            false => stripped,
        };
        for l in &labels {
            out.label_of.insert(l.to_string(), pool.clone());
        }
        out.pools
            .insert(pool, (labels.iter().map(|l| l.to_string()).collect(), said));
    }
    out
}
