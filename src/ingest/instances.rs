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

use std::collections::{BTreeMap, BTreeSet, HashMap};

use rayon::prelude::*;

use crate::model::Row;
use crate::quick_hash::QuickHash;

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
struct ResultFile<'a> {
    source: &'a str,
    folder: Option<&'a std::path::Path>,
    /// `folder` numbered (equal folders, equal numbers): the sweep's keys
    /// hash a number, not a path parsed into components at every hash.
    folder_id: usize,
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
    find(rows, rule).apply(rows)
}

/// The groups of files that ran together, found without changing a row:
/// ingest looks for them beside the config rule, on the other core.
pub fn find(rows: &[Row], rule: Instances) -> InstanceMarks {
    let mut marks = InstanceMarks::default();
    if rule == Instances::Apart {
        return marks;
    }
    let windows = windows(rows);
    for members in groups(&windows).iter().filter(|g| g.len() > 1) {
        let mut sources: Vec<&str> = members.iter().map(|&i| windows[i].source).collect();
        sources.sort_unstable();
        let first = sources[0].to_string();
        for s in &sources {
            marks
                .of_source
                .insert(s.to_string(), (first.clone(), sources.len() as u32));
        }
        marks.found.push((first, sources.len()));
    }
    marks
}

/// What [`find`] found, to set on the rows ([`InstanceMarks::apply`]).
#[derive(Debug, Default)]
pub struct InstanceMarks {
    /// Each grouped source's group: its first source and its files.
    of_source: BTreeMap<String, (String, u32)>,
    /// (first source, files) of each group.
    found: Vec<(String, usize)>,
}

impl InstanceMarks {
    /// Sets `instances` and `instance_group` on the rows of grouped files;
    /// returns the groups, sorted.
    pub fn apply(self, rows: &mut [Row]) -> Vec<(String, usize)> {
        if !self.of_source.is_empty() {
            for r in rows.iter_mut() {
                if let Some((first, n)) = self.of_source.get(&r.source) {
                    r.instances = *n;
                    r.instance_group = Some(first.clone());
                }
            }
        }
        let mut found = self.found;
        found.sort();
        found
    }
}

/// Each fio result file's window, where its rows say when it ran, for
/// the files whose run could overlap another's ([`may_overlap`]): the
/// rest ran alone whatever their targets, and their targets are never
/// read (an archive of runs one after another builds no window at all).
fn windows(rows: &[Row]) -> Vec<ResultFile<'_>> {
    let open = may_overlap(rows);
    let mut by_source: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
    for r in rows
        .iter()
        .filter(|r| r.tool == "fio" && open.contains(r.source.as_str()))
    {
        by_source.entry(r.source.as_str()).or_default().push(r);
    }
    // Each file's window (its targets parsed from `filename`) on every core.
    let by_source: Vec<(&str, Vec<&Row>)> = by_source.into_iter().collect();
    let found: Vec<Option<ResultFile>> = by_source
        .par_iter()
        .map(|(source, rows)| window(source, rows))
        .collect();
    let mut folders: HashMap<Option<&std::path::Path>, usize, QuickHash> = HashMap::default();
    found
        .into_iter()
        .flatten()
        .map(|mut w| {
            let next = folders.len();
            w.folder_id = *folders.entry(w.folder).or_insert(next);
            w
        })
        .collect()
}

/// The sources whose run window (as [`window`] reads it, widened by the
/// timestamps' uncertainty) overlaps another's in the same folder: a
/// superset of the files [`together`] can join, found by one sort and
/// one sweep over each run of consecutive rows of a file, nothing parsed
/// or allocated per row.
fn may_overlap(rows: &[Row]) -> std::collections::HashSet<&str, QuickHash> {
    // (folder, start, end, source) of each run of a file's rows; a file
    // whose rows are not consecutive gives several, which overlap each
    // other and so are looked at in full.
    type Span<'a> = (Option<&'a std::ffi::OsStr>, f64, f64, &'a str);
    // At most one per row: sized once, not grown by doubling into fresh
    // memory (the kernel zeroes each new page first).
    let mut spans: Vec<Span> = Vec::with_capacity(rows.len());
    let mut i = 0;
    while i < rows.len() {
        let source = rows[i].source.as_str();
        let mut j = i + 1;
        while j < rows.len() && rows[j].source == source {
            j += 1;
        }
        let run = &rows[i..j];
        i = j;
        let Some(first) = run.iter().find(|r| r.tool == "fio") else {
            continue;
        };
        let Some((end, slack)) = end_of(first) else {
            continue;
        };
        let runtime = longest(run.iter());
        let folder = std::path::Path::new(source).parent().map(|p| p.as_os_str());
        spans.push((folder, end - runtime - slack, end + slack, source));
    }
    spans.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut open = std::collections::HashSet::default();
    // The latest end so far in the folder, and whose it is.
    let mut reach: Option<(Option<&std::ffi::OsStr>, f64, usize)> = None;
    for (k, &(folder, start, end, source)) in spans.iter().enumerate() {
        match reach {
            Some((f, latest, by)) if f == folder && start < latest => {
                open.insert(source);
                open.insert(spans[by].3);
                if end > latest {
                    reach = Some((folder, end, k));
                }
            }
            Some((f, latest, _)) if f == folder && end <= latest => {}
            _ => reach = Some((folder, end, k)),
        }
    }
    open
}

fn window<'a>(source: &'a str, rows: &[&'a Row]) -> Option<ResultFile<'a>> {
    let first = rows.first()?;
    let (end_ms, slack_ms) = end_of(first)?;
    let runtime = longest(rows.iter().copied());
    let targets: BTreeSet<String> = rows.iter().flat_map(|r| r.target_names()).collect();
    (runtime > 0.0 && !targets.is_empty()).then(|| ResultFile {
        source,
        folder: std::path::Path::new(source).parent(),
        folder_id: 0,
        start_ms: end_ms - runtime,
        end_ms,
        slack_ms,
        os: first.os.to_string(),
        host: first.host.as_deref(),
        targets,
    })
}

/// When a result's run ended (ms) and how far that may be off: fio's
/// `timestamp_ms`, else `timestamp` (whole seconds); None without either.
fn end_of(first: &Row) -> Option<(f64, f64)> {
    match (first.timestamp_ms, first.timestamp) {
        (Some(ms), _) => Some((ms as f64, 0.0)),
        (None, Some(s)) => Some((s as f64 * 1000.0, 1000.0)),
        (None, None) => None,
    }
}

/// The longest runtime of a result's rows (ms): its run window's length.
fn longest<'a>(rows: impl Iterator<Item = &'a Row>) -> f64 {
    rows.map(|r| r.runtime_ms).fold(0.0, f64::max)
}

/// Whether two results ran together (module docs).
fn together(a: &ResultFile, b: &ResultFile) -> bool {
    let overlap = a.end_ms.min(b.end_ms) - a.start_ms.max(b.start_ms) - a.slack_ms - b.slack_ms;
    let shorter = (a.end_ms - a.start_ms).min(b.end_ms - b.start_ms);
    overlap > 0.0
        && overlap >= shorter / 2.0
        && a.folder == b.folder
        && a.os == b.os
        && a.host == b.host
        && a.targets.intersection(&b.targets).next().is_some()
}

/// The windows' groups, each a list of indices: the connected components
/// of `together`, found in n log n, never by trying all pairs.
///
/// Windows are swept in start order. Only windows of one folder, OS and
/// host naming a target in common can run together, so each such key (a
/// window naming several targets sits under each) keeps the components
/// still running when the sweep reaches a start, each summed up by its
/// latest end and its latest midpoint ([`Reach`]). For windows that
/// started no later than `i`, these two decide whether any of a
/// component's members ran together with `i`: the overlap is at least half
/// of `i`'s length exactly when a member ends late enough (the latest end
/// is the best candidate), and at least half of a member's own length,
/// for a member ending within `i`, exactly when its midpoint lies at or
/// after `i`'s start (the latest midpoint is the best). The member that
/// gives either is then checked by [`together`] itself. A component whose
/// members all ended before the sweep's position can meet no later window
/// and is dropped. A hundred thousand windows on one target that all
/// overlap are one component: each start meets it once.
fn groups(windows: &[ResultFile]) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..windows.len()).collect();
    order.sort_by(|&a, &b| windows[a].start_ms.total_cmp(&windows[b].start_ms));
    let mut sets = Sets::new(windows.len());
    let mut buckets: HashMap<Key<'_>, Vec<Running>, QuickHash> = HashMap::default();
    for &i in &order {
        let w = &windows[i];
        for target in &w.targets {
            let running = buckets.entry(key(w, target)).or_default();
            running.retain(|c| c.latest_end() > w.start_ms);
            for c in running.iter() {
                if sets.root(c.root) != sets.root(i) && c.meets(i, windows) {
                    sets.join(c.root, i);
                }
            }
        }
        for target in &w.targets {
            let running = buckets.entry(key(w, target)).or_default();
            running.push(Running::of(i, windows));
            merge_same_roots(running, &mut sets, windows);
        }
    }
    let mut out: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..windows.len() {
        let r = sets.root(i);
        out.entry(r).or_default().push(i);
    }
    out.into_values().collect()
}

/// What windows must share to run together, one target at a time.
type Key<'a> = (usize, &'a str, Option<&'a str>, &'a str);

fn key<'a>(w: &'a ResultFile, target: &'a str) -> Key<'a> {
    (w.folder_id, w.os.as_str(), w.host, target)
}

/// Union-find over window indices.
struct Sets {
    parent: Vec<usize>,
}

impl Sets {
    fn new(n: usize) -> Sets {
        Sets {
            parent: (0..n).collect(),
        }
    }

    fn root(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.root(a), self.root(b));
        self.parent[a] = b;
    }
}

/// One component's members under one key, as far as later windows need
/// them: per slack (a window's timestamp uncertainty, 0 or 1 s), the
/// member that ends last and the one whose midpoint is last.
struct Running {
    /// A member; its root names the component.
    root: usize,
    /// The latest end of any member: after it the component meets nothing.
    end_ms: f64,
    reach: Vec<Reach>,
    /// Every member: read only for a window shorter than twice the
    /// timestamps' slack, where the two summaries do not decide.
    members: Vec<usize>,
}

#[derive(Clone, Copy)]
struct Reach {
    slack_ms: f64,
    latest_end: usize,
    latest_mid: usize,
}

fn mid(w: &ResultFile) -> f64 {
    (w.start_ms + w.end_ms) / 2.0
}

impl Running {
    fn of(i: usize, windows: &[ResultFile]) -> Running {
        Running {
            root: i,
            end_ms: windows[i].end_ms,
            reach: vec![Reach {
                slack_ms: windows[i].slack_ms,
                latest_end: i,
                latest_mid: i,
            }],
            members: vec![i],
        }
    }

    fn latest_end(&self) -> f64 {
        self.end_ms
    }

    /// Whether window `i`, which started no earlier than any member, ran
    /// together with one of them (see [`groups`] for why the summaries
    /// decide).
    fn meets(&self, i: usize, windows: &[ResultFile]) -> bool {
        let w = &windows[i];
        let len = w.end_ms - w.start_ms;
        self.reach.iter().any(|r| {
            let slack = w.slack_ms + r.slack_ms;
            if len / 2.0 < slack {
                // Too short to tell from the summaries: each member.
                return self
                    .members
                    .iter()
                    .any(|&j| windows[j].slack_ms == r.slack_ms && together(&windows[j], w));
            }
            // Half of `i` covered by the member that ends last, or half
            // of a member covered whose midpoint comes last; each checked
            // by the rule itself, so rounding cannot change a verdict.
            let by_end = windows[r.latest_end].end_ms >= w.start_ms + slack + len / 2.0;
            let by_mid = mid(&windows[r.latest_mid]) >= w.start_ms + slack;
            (by_end && together(&windows[r.latest_end], w))
                || (by_mid && together(&windows[r.latest_mid], w))
        })
    }

    /// Takes `other`'s members in (both of one component now).
    fn absorb(&mut self, mut other: Running, windows: &[ResultFile]) {
        self.end_ms = self.end_ms.max(other.end_ms);
        for o in other.reach {
            match self.reach.iter_mut().find(|r| r.slack_ms == o.slack_ms) {
                Some(r) => {
                    if windows[o.latest_end].end_ms > windows[r.latest_end].end_ms {
                        r.latest_end = o.latest_end;
                    }
                    if mid(&windows[o.latest_mid]) > mid(&windows[r.latest_mid]) {
                        r.latest_mid = o.latest_mid;
                    }
                }
                None => self.reach.push(o),
            }
        }
        if other.members.len() > self.members.len() {
            std::mem::swap(&mut self.members, &mut other.members);
        }
        self.members.append(&mut other.members);
    }
}

/// Folds the running components of one key that are one component now
/// (joined through this key or another) into one entry each.
fn merge_same_roots(running: &mut Vec<Running>, sets: &mut Sets, windows: &[ResultFile]) {
    for c in running.iter_mut() {
        c.root = sets.root(c.root);
    }
    if running.len() < 2 {
        return;
    }
    running.sort_by_key(|c| c.root);
    let mut merged: Vec<Running> = Vec::with_capacity(running.len());
    for c in running.drain(..) {
        match merged.last_mut() {
            Some(last) if last.root == c.root => last.absorb(c, windows),
            _ => merged.push(c),
        }
    }
    *running = merged;
}

#[cfg(test)]
mod tests;
