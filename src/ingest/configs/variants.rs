//! Runs of one config at one workload and load point that differ in
//! nothing but their names: a study's `write` on an empty device and
//! `overwrite-seq` on a full one run the same fio options, and averaging
//! them would report an experiment nobody ran.
//!
//! Each run is named by its job name (or, where the job names agree, its
//! file name less its extensions), read into words by
//! [`crate::ingest::identity`]. The words every name at that point
//! shares are dropped (the device, the block size, `queue-depth-8`), and
//! what is left tells the runs apart:
//!
//! - a repeat index (`run1`, `rep2`, `r03`, `_1`, a date or a time) means
//!   repeats, averaged as before;
//! - a word (`overwrite-seq`) means variants of the workload, kept apart
//!   and named by that word ("write 4k (overwrite-seq)"); a run whose
//!   word is its own rw (`write`) is the workload itself. Where a leftover
//!   is too short to read (`c` of `iou_c_t` against `iou_t`), every run
//!   there is named by its whole name less its numbers (`iou_c_t`).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use rayon::prelude::*;

use crate::ingest::identity;
use crate::model::Row;

/// A run of a file: its source and job name (a file may hold several).
pub(crate) type RunName = (String, String);

/// A row's [`RunName`].
pub(crate) fn run_of(r: &Row) -> RunName {
    (r.source.clone(), r.job.clone())
}

/// The word that tells each run apart from its config's other runs at the
/// same workload and load point, for runs that have one.
pub(crate) fn words(
    rows: &[Row],
    sets: &super::RowCandidates,
    declared: &identity::Repeats,
) -> BTreeMap<RunName, String> {
    // (config, point, options) -> the rows there: runs that differ in an
    // option are told apart by the config rule. Only numbered here, on
    // one core; each group's runs are sorted on its own, below.
    type Where<'a> = (&'a str, super::Point<'a>, usize);
    let mut at: HashMap<Where, usize, crate::quick_hash::QuickHash> = HashMap::default();
    let mut groups: Vec<(super::Point, Vec<usize>)> = Vec::new();
    // Client/server rows are per host and `All clients` aggregates: their
    // names say where they ran, and hosts are a load of their own.
    let named = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.aggregate && r.host.is_none());
    for (i, r) in named {
        // The row's candidates, by the number of their distinct set.
        let options = sets.set_of_row[i];
        let point = super::point(r);
        let g = *at
            .entry((r.config.as_str(), point, options))
            .or_insert_with(|| {
                groups.push((point, Vec::new()));
                groups.len() - 1
            });
        groups[g].1.push(i);
    }
    // Each group of runs on its own, on every core: an archive holds
    // hundreds of repeats of each run, each file's name read into words.
    groups
        .into_par_iter()
        .filter(|(_, members)| members.len() > 1)
        .flat_map_iter(|(point, members)| {
            let mut sources: Vec<(&str, &str)> = members
                .iter()
                .map(|&i| (rows[i].source.as_str(), rows[i].job.as_str()))
                .collect();
            sources.sort_unstable();
            sources.dedup();
            group_words(point.0, &sources, declared)
        })
        .collect()
}

/// The words of one group's runs (same config, workload, load point and
/// options; `sources` sorted, each (source, job) once), by (source, job);
/// none where their names differ only in numbers and repeat marks.
fn group_words(
    sources_rw: &str,
    sources: &[(&str, &str)],
    declared: &identity::Repeats,
) -> Vec<((String, String), String)> {
    let mut out = Vec::new();
    if sources.len() < 2 {
        return out;
    }
    let jobs: BTreeSet<&str> = sources.iter().map(|(_, j)| *j).collect();
    let by_job = jobs.len() > 1;
    // File stems only where runs are compared (not once per file).
    let names: BTreeMap<(&str, &str), &str> = sources
        .iter()
        .map(|&(s, job)| ((s, job), if by_job { job } else { identity::stem(s) }))
        .collect();
    let distinct: BTreeSet<&str> = names.values().copied().collect();
    if distinct.len() < 2 {
        return out;
    }
    let left = identity::leftovers(&distinct, declared);
    if left.values().all(|w| w.is_empty()) {
        return out;
    }
    // An empty leftover is the workload itself (named by its rw).
    let short = left
        .values()
        .any(|w| !w.is_empty() && w.join("-").len() < MIN_WORD);
    for ((source, job), name) in names {
        let word = if short {
            identity::whole_name(name, &[], declared)
        } else if left[name].is_empty() {
            sources_rw.to_string()
        } else {
            left[name].join("-")
        };
        out.push(((source.to_string(), job.to_string()), word));
    }
    cap(&mut out);
    out
}

/// Variants of one workload shown apart at most: a file with thousands
/// of distinct job names at one workload would otherwise make a table of
/// each (issue #55: 128,904 names, 12,900 tables, 44 s).
pub(crate) const MAX_VARIANTS: usize = 64;

/// The name the variants past [`MAX_VARIANTS`] share: `+128840 variants`.
fn grouped_name(more: usize) -> String {
    format!("+{more} variants")
}

/// Keeps the first [`MAX_VARIANTS`] words of one workload's runs (in
/// order of the words) and names every run of the others by one shared
/// word ([`grouped_name`]): one more table, however many there are. The
/// note of the variants says so; the dataset keeps each run's job name.
fn cap(out: &mut [((String, String), String)]) {
    let distinct: BTreeSet<&str> = out.iter().map(|(_, w)| w.as_str()).collect();
    if distinct.len() <= MAX_VARIANTS {
        return;
    }
    let kept: BTreeSet<String> = distinct
        .iter()
        .take(MAX_VARIANTS)
        .map(|w| w.to_string())
        .collect();
    let grouped = grouped_name(distinct.len() - MAX_VARIANTS);
    for (_, w) in out.iter_mut() {
        if !kept.contains(w.as_str()) {
            w.clone_from(&grouped);
        }
    }
}

/// The variant words of a note: the first [`MAX_VARIANTS`] names, and
/// how many more there are (`a, b, ... and 2,936 more: ...`), those a
/// workload grouped ([`grouped_name`]) counted one by one.
pub(crate) fn listed(words: &BTreeSet<String>) -> String {
    let grouped = |w: &str| {
        w.strip_prefix('+')
            .and_then(|w| w.strip_suffix(" variants"))
            .and_then(|n| n.parse::<usize>().ok())
    };
    let named: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .filter(|w| grouped(w).is_none())
        .collect();
    let mut text = named[..named.len().min(MAX_VARIANTS)].join(", ");
    let more = named.len().saturating_sub(MAX_VARIANTS)
        + words.iter().filter_map(|w| grouped(w)).sum::<usize>();
    if more > 0 {
        text.push_str(&format!(
            " and {} more: past the first {MAX_VARIANTS} of a workload, its other variants share \
             one table, named by their count; the dataset keeps each run's job name",
            crate::numbers::whole(more as u64)
        ));
    }
    text
}

/// Shortest leftover that names a variant on its own (`seq`, `full`).
const MIN_WORD: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Direction;

    /// [`words`] with the rows' candidates read as `assign` reads them.
    fn words_of(rows: &[Row]) -> BTreeMap<RunName, String> {
        words(
            rows,
            &super::super::RowCandidates::of(rows),
            &identity::Repeats::default(),
        )
    }

    fn row(source: &str, job: &str, rw: &str) -> Row {
        let mut r = Row::empty(source, Direction::Write);
        r.config = "ssd".into();
        r.job = job.into();
        r.rw = rw.into();
        r.bs_bytes = 4096;
        r.iodepth = 8;
        r.numjobs = 1;
        r
    }

    #[test]
    fn names_that_differ_by_a_word_are_variants() {
        let rows = [
            row("ssd/nvme2n1_write_4Ki_queue-depth-8.json", "write", "write"),
            row(
                "ssd/nvme2n1_overwrite-seq_4Ki_queue-depth-8.json",
                "overwrite-seq",
                "write",
            ),
        ];
        let w = words_of(&rows);
        let at = |s: &str, j: &str| w[&(s.to_string(), j.to_string())].clone();
        assert_eq!(
            at(
                "ssd/nvme2n1_overwrite-seq_4Ki_queue-depth-8.json",
                "overwrite-seq"
            ),
            "overwrite-seq"
        );
        assert_eq!(
            at("ssd/nvme2n1_write_4Ki_queue-depth-8.json", "write"),
            "write"
        );
    }

    #[test]
    fn repeats_and_stamps_are_not_variants() {
        for (a, b) in [
            ("ssd/run1.json", "ssd/run2.json"),
            ("ssd/rep_1.json", "ssd/rep_2.json"),
            ("ssd/r03.json", "ssd/r04.json"),
            ("ssd/randread_1.json", "ssd/randread_2.json"),
            (
                "ssd/nvme2n2-2022_03_08_12_06_PM.json",
                "ssd/nvme2n2-2022_03_09_09_15_AM.json",
            ),
            // Load and size tokens the point already holds.
            ("ssd/randread-4k.json", "ssd/randread-4k-qd32.json"),
            ("ssd/randread_4Ki_j4.json", "ssd/randread_j4.json"),
        ] {
            let rows = [row(a, "job", "randread"), row(b, "job", "randread")];
            assert!(words_of(&rows).is_empty(), "{a} {b}: {:?}", words_of(&rows));
        }
    }

    #[test]
    fn a_leftover_too_short_to_read_names_runs_by_their_whole_names() {
        let rows = [
            row("ssd/iou_c_t_4.txt", "job", "randread"),
            row("ssd/iou_t_4.txt", "job", "randread"),
            // Another load point: no collision, no word.
            Row {
                iodepth: 32,
                ..row("ssd/aio_t_4.txt", "job", "randread")
            },
        ];
        let w = words_of(&rows);
        assert_eq!(
            w.into_iter().collect::<Vec<_>>(),
            [
                (("ssd/iou_c_t_4.txt".into(), "job".into()), "iou_c_t".into()),
                (("ssd/iou_t_4.txt".into(), "job".into()), "iou_t".into())
            ]
        );
    }
}
