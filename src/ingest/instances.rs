//! fio instances that ran at the same time: separate fio processes, one
//! output file each, started side by side on the same targets (a latency
//! probe beside N throughput apps, N copies of one job). Their files are
//! one measurement, not repetitions: their I/O adds up, and how many ran
//! together is a load axis (`LoadPoint::instances`), as numjobs is for the
//! jobs of one fio process.
//!
//! The rule, spelled out:
//!
//! - A result's run window is `[end - runtime, end]`: `end` from fio's
//!   `timestamp_ms` (or `timestamp`, seconds, then known to a second
//!   only), `runtime` the longest job's. Formats without a timestamp
//!   (normal text, terse, DiskSpd) are never grouped.
//! - Two results ran together when their windows overlap by at least half
//!   of the shorter one (after taking off the timestamps' uncertainty),
//!   they sit in one folder (the script that started them wrote them
//!   there), on the same OS and host, and their jobs name at least one
//!   target (fio's `filename`) in common. Runs one after another never
//!   overlap; two machines or two setups benchmarked at the same hour
//!   (`\\.\PhysicalDrive1` on both) are kept in folders of their own;
//!   results naming no target are never grouped.
//! - Results that ran together, directly or through others, are one
//!   instance group. Each of its rows gets `instances` (the group's
//!   files) and `instance_group` (its first source by name).
//!
//! `--instances apart` keeps every file its own run, as before.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::Row;

/// Whether files that ran together make one run (`--instances`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Instances {
    /// Files that ran at the same time on the same targets are one run.
    #[default]
    Auto,
    /// Every file is its own run.
    Apart,
}

impl Instances {
    /// `auto` or `apart`, as `--instances` takes them.
    pub fn parse(s: &str) -> Result<Instances, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(Instances::Auto),
            "apart" => Ok(Instances::Apart),
            other => Err(format!(
                "`{other}`: expected auto (files that ran at the same time on the same targets are one run) or apart (every file its own run)"
            )),
        }
    }
}

/// One result file as the rule sees it.
#[derive(Debug)]
struct Window<'a> {
    source: &'a str,
    folder: Option<&'a std::path::Path>,
    start_ms: f64,
    end_ms: f64,
    /// How far `end_ms` may be off (a timestamp in whole seconds).
    slack_ms: f64,
    os: String,
    host: Option<&'a str>,
    targets: BTreeSet<String>,
}

/// Marks the rows of files that ran together (module docs). Returns the
/// groups found: (first source, files), for the note that says so.
pub fn mark(rows: &mut [Row], rule: Instances) -> Vec<(String, usize)> {
    if rule == Instances::Apart {
        return Vec::new();
    }
    let windows = windows(rows);
    let groups = groups(&windows);
    let mut found = Vec::new();
    let mut of_source: BTreeMap<String, (String, u32)> = BTreeMap::new();
    for members in groups.iter().filter(|g| g.len() > 1) {
        let mut sources: Vec<&str> = members.iter().map(|&i| windows[i].source).collect();
        sources.sort_unstable();
        let first = sources[0].to_string();
        for s in &sources {
            of_source.insert(s.to_string(), (first.clone(), sources.len() as u32));
        }
        found.push((first, sources.len()));
    }
    for r in rows.iter_mut() {
        if let Some((first, n)) = of_source.get(&r.source) {
            r.instances = *n;
            r.instance_group = Some(first.clone());
        }
    }
    found.sort();
    found
}

/// Each fio result file's window, where its rows say when it ran.
fn windows(rows: &[Row]) -> Vec<Window<'_>> {
    let mut by_source: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.tool == "fio") {
        by_source.entry(r.source.as_str()).or_default().push(r);
    }
    by_source
        .into_iter()
        .filter_map(|(source, rows)| window(source, &rows))
        .collect()
}

fn window<'a>(source: &'a str, rows: &[&'a Row]) -> Option<Window<'a>> {
    let first = rows.first()?;
    let (end_ms, slack_ms) = match (first.timestamp_ms, first.timestamp) {
        (Some(ms), _) => (ms as f64, 0.0),
        (None, Some(s)) => (s as f64 * 1000.0, 1000.0),
        (None, None) => return None,
    };
    let runtime = rows.iter().map(|r| r.runtime_ms).fold(0.0, f64::max);
    let targets: BTreeSet<String> = rows.iter().flat_map(|r| r.target_names()).collect();
    (runtime > 0.0 && !targets.is_empty()).then(|| Window {
        source,
        folder: std::path::Path::new(source).parent(),
        start_ms: end_ms - runtime,
        end_ms,
        slack_ms,
        os: first.os.to_string(),
        host: first.host.as_deref(),
        targets,
    })
}

/// Whether two results ran together (module docs).
fn together(a: &Window, b: &Window) -> bool {
    let overlap = a.end_ms.min(b.end_ms) - a.start_ms.max(b.start_ms) - a.slack_ms - b.slack_ms;
    let shorter = (a.end_ms - a.start_ms).min(b.end_ms - b.start_ms);
    overlap > 0.0
        && overlap >= shorter / 2.0
        && a.folder == b.folder
        && a.os == b.os
        && a.host == b.host
        && a.targets.intersection(&b.targets).next().is_some()
}

/// The windows' groups, each a list of indices (connected components of
/// `together`, found by start order: only windows that started before
/// one ends can overlap it).
fn groups(windows: &[Window]) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..windows.len()).collect();
    order.sort_by(|&a, &b| windows[a].start_ms.total_cmp(&windows[b].start_ms));
    let mut parent: Vec<usize> = (0..windows.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for (k, &i) in order.iter().enumerate() {
        let reach = windows[i].end_ms + windows[i].slack_ms + 1000.0;
        for &j in order[k + 1..]
            .iter()
            .take_while(|&&j| windows[j].start_ms <= reach)
        {
            if together(&windows[i], &windows[j]) {
                let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                parent[a] = b;
            }
        }
    }
    let mut out: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..windows.len() {
        let r = root(&mut parent, i);
        out.entry(r).or_default().push(i);
    }
    out.into_values().collect()
}

#[cfg(test)]
mod tests;
