//! The history's parts: parquet files under a folder or a bucket's prefix
//! ([`Store`], [`super::objects`]). An add writes its run as a part of its
//! own, `part-00000042.parquet`; parts are then merged
//! (`history::compact`) into `part-00000001-00000016.parquet` and so on,
//! so years of runs stay a few dozen objects rather than one per run,
//! which no reader opens fast. Each row holds the run's dataset columns
//! (those of docs/CONTRACT.md) plus `run_id`, `run_commit`, `run_time`
//! and `run_seq`, so DuckDB or pandas read the whole history with
//! `read_parquet('history/*.parquet')`.
//!
//! Every part is created whole under a name that was free
//! (create-if-absent), never rewritten by an add, so a killed add leaves
//! the history as it was, or with its run added. Writers need no lock:
//! the rules that keep each run readable exactly once while many writers
//! add and merge at once are in docs/architecture.md ("A history shared
//! by many writers").
//!
//! Each part's CRC-32 is recorded when it is written (the folder: in the
//! name of a hidden file beside it; a bucket: in the object's metadata)
//! and every read checks the part's bytes against it: a flipped bit is a
//! damaged part, named and left out (its runs said), never a value. Parts
//! written before checksums have none and are read as they are.

use std::path::{Path, PathBuf};

use polars_core::prelude::*;
use polars_io::prelude::*;

use anyhow::Context;

pub use super::objects::Store;
use super::objects::folder::{self, Lock};
use super::objects::{Created, Fetched};
use crate::dataset;
use crate::model::Row;

/// What identifies one run of the history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunMeta {
    /// `--run`: unique within the history.
    pub id: String,
    /// `--commit`, when given.
    pub commit: Option<String>,
    /// `--time`, RFC 3339.
    pub time: String,
    /// Order of the runs: the run's number (`run_seq`).
    pub seq: u64,
}

/// One run and its rows.
#[derive(Debug, Clone)]
pub struct StoredRun {
    pub meta: RunMeta,
    pub rows: Vec<Row>,
}

pub use super::error::StoreError;
pub(crate) use super::error::io;

/// The run's own columns, beside the dataset's.
const RUN_COLUMNS: [&str; 4] = ["run_id", "run_commit", "run_time", "run_seq"];

/// Rows turned into [`Row`]s at a time when a part is scanned: a merged
/// part of thousands of runs is never in memory as rows all at once.
const BATCH_ROWS: usize = 8192;

/// One parquet file of the history: the runs numbered `first..=last`.
/// `part-00000007.parquet` holds run 7 alone (as `add` writes it),
/// `part-00000001-00000016.parquet` runs 1 to 16 (as
/// `history::compact` merges them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub first: u64,
    pub last: u64,
    /// Where it is: a file's path, or the object's URL.
    pub path: PathBuf,
    /// CRC-32s recorded for the part as listed (a folder's checksum
    /// files; a bucket's come with the bytes); empty for a part written
    /// before checksums. More than one only when a replace was
    /// interrupted: the part is whole if it matches one.
    pub sums: Vec<u32>,
    /// Checksum records for the part that hold no CRC-32, as listed: the
    /// part cannot be checked, which is damage, not "no checksum".
    pub bad_sums: Vec<String>,
}

pub use folder::{SUM_INFIX, stale_removed, sum_name};

/// A part whose bytes are not what was written (or never were a part):
/// its runs are left out of every read and said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damaged {
    pub part: Part,
    pub reason: String,
}

impl Damaged {
    /// "run 7" or "runs 17 to 32": the run numbers the part's name holds
    /// (its ids cannot be trusted from a damaged file).
    pub fn runs(&self) -> String {
        match self.part.first == self.part.last {
            true => format!("run {}", self.part.first),
            false => format!("runs {} to {}", self.part.first, self.part.last),
        }
    }

    /// The warning a reader gives: the part, why, and what it left out.
    pub fn warning(&self) -> String {
        format!(
            "{}: damaged ({}); {} left out (`nvcmp history compact` sets it aside in .quarantine/)",
            crate::path_text::shown(&self.part.path),
            self.reason,
            self.runs()
        )
    }
}

pub use super::objects::QUARANTINE;

impl Part {
    /// The name of the part holding runs `first..=last`.
    pub fn file_name(first: u64, last: u64) -> String {
        if first == last {
            format!("part-{first:08}.parquet")
        } else {
            format!("part-{first:08}-{last:08}.parquet")
        }
    }

    /// The part named `name` at `path`, when the name is a part's.
    fn parse(name: &str, path: PathBuf) -> Option<Part> {
        let stem = name.strip_prefix("part-")?.strip_suffix(".parquet")?;
        let (first, last) = match stem.split_once('-') {
            Some((a, b)) => (a.parse().ok()?, b.parse().ok()?),
            None => {
                let n = stem.parse().ok()?;
                (n, n)
            }
        };
        (first <= last).then_some(Part {
            first,
            last,
            path,
            sums: Vec::new(),
            bad_sums: Vec::new(),
        })
    }

    /// The part's file name.
    pub fn name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// Run numbers the part stands for (gaps included).
    pub fn span(&self) -> u64 {
        self.last - self.first + 1
    }

    /// Whether `other` holds exactly the next run numbers after this one.
    pub fn followed_by(&self, other: &Part) -> bool {
        other.first == self.last + 1
    }
}

/// The parts a reader takes (`live`, in run order) and those a merged
/// part stands for (`stale`): from the moment a merged part is in place
/// it is read alone, so no run is read twice, and until then the old
/// parts are read. Stale parts are what an interrupted merge left, or a
/// part an add created under a number a merge had already covered (that
/// add then moves its run past the merge: docs/architecture.md).
#[derive(Debug, Default)]
pub struct PartLayout {
    pub live: Vec<Part>,
    pub stale: Vec<Part>,
}

/// The parts of the history.
pub fn layout(history: impl Into<Store>) -> Result<PartLayout, StoreError> {
    let store = history.into();
    let objects = store.objects();
    let mut all: Vec<Part> = objects
        .list()?
        .into_iter()
        .filter_map(|l| {
            let path = objects.locate(&l.name);
            Part::parse(&l.name, path).map(|p| Part {
                sums: l.sums,
                bad_sums: l.bad_sums,
                ..p
            })
        })
        .collect();
    // A merged part before the parts it covers.
    all.sort_by_key(|p| (p.first, std::cmp::Reverse(p.last)));
    let mut out = PartLayout::default();
    for p in all {
        match out.live.last() {
            Some(l) if p.last <= l.last => out.stale.push(p),
            Some(l) if p.first <= l.last => {
                return Err(StoreError::Overlap {
                    a: l.path.clone(),
                    b: p.path,
                });
            }
            _ => out.live.push(p),
        }
    }
    Ok(out)
}

/// Every run of the history, in order; a damaged part is an error here
/// (readers that go on without it use [`scan`]).
pub fn read(history: impl Into<Store>) -> Result<Vec<StoredRun>, StoreError> {
    let mut out = Vec::new();
    let scanned = scan(history, None, |batch| out.extend(batch))?;
    if let Some(d) = scanned.damaged.into_iter().next() {
        return Err(StoreError::Damaged {
            path: d.part.path,
            reason: d.reason,
        });
    }
    Ok(out)
}

/// What a reader of the whole history saw: the runs read, and the parts
/// it left out as damaged (their runs are not in what it read).
#[derive(Debug, Default)]
pub struct Scanned {
    pub runs: usize,
    pub damaged: Vec<Damaged>,
}

/// Why a part was not read: the history's fault (damage, said and gone
/// past), or the system's (a file that cannot be opened: the command fails).
#[derive(Debug)]
pub(crate) enum Fault {
    Damaged(Damaged),
    Store(StoreError),
}

impl From<Fault> for StoreError {
    fn from(f: Fault) -> StoreError {
        match f {
            Fault::Store(e) => e,
            Fault::Damaged(d) => StoreError::Damaged {
                path: d.part.path,
                reason: d.reason,
            },
        }
    }
}

/// Parts fetched at once from a bucket (a request's latency hidden behind
/// the others'); a folder's are read one at a time, as memory holds one
/// part's bytes then.
fn fetch_batch(store: &Store) -> usize {
    match store.dir() {
        Some(_) => 1,
        None => 8,
    }
}

/// The live parts with their checked bytes, handed to `each` in order,
/// fetched a few at a time. A part gone since the listing was retired by
/// a merge that holds its runs: the history is listed again and read on
/// from that part's first run, through whatever parts now hold it (a
/// merged part may hold runs already handed on: callers count a run once).
fn each_part(
    store: &Store,
    parts: Vec<Part>,
    mut each: impl FnMut(Part, Result<Vec<u8>, Fault>) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let mut todo = std::collections::VecDeque::from(parts);
    let mut done = std::collections::HashSet::new();
    let mut relisted = 0;
    'fetch: while !todo.is_empty() {
        let n = fetch_batch(store).min(todo.len());
        let chunk: Vec<Part> = todo.drain(..n).collect();
        let names: Vec<String> = chunk.iter().map(Part::name).collect();
        let fetched = store.objects().fetch(&names);
        for (part, got) in chunk.into_iter().zip(fetched) {
            let bytes = match got {
                Err(StoreError::Gone(_)) if relisted < RELISTS => {
                    relisted += 1;
                    let now = layout(store)?.live.into_iter();
                    todo = now
                        .filter(|p| p.last >= part.first && !done.contains(&p.name()))
                        .collect();
                    continue 'fetch;
                }
                Err(e) => Err(Fault::Store(e)),
                Ok(f) => checked(&part, f).map(|(bytes, _)| bytes),
            };
            done.insert(part.name());
            each(part, bytes)?;
        }
    }
    Ok(())
}

/// Listings again a reader makes when parts go under it, before it says
/// so: merges retire parts seconds apart, so a few suffice.
const RELISTS: usize = 20;

/// Hands the runs of the history to `visit` in order, a batch of whole
/// runs at a time, reading only the dataset `columns` given (all when
/// None; the others keep [`Row::empty`]'s values). A damaged part is left
/// out and listed.
pub fn scan(
    history: impl Into<Store>,
    columns: Option<&[&str]>,
    mut visit: impl FnMut(Vec<StoredRun>),
) -> Result<Scanned, StoreError> {
    // A run id in two parts (two adds of one id racing, or a part copied
    // by hand) counts once: the first, the lowest number.
    let mut seen = std::collections::HashSet::new();
    // A part's runs are handed on only once it has read whole.
    let read = |part: &Part, bytes| {
        let mut batches = Vec::new();
        scan_bytes(part, bytes, columns, &mut |r| batches.push(r))?;
        Ok(batches)
    };
    scan_parts(&history.into(), read, |_, batches, out| {
        for mut batch in batches {
            batch.retain(|r| seen.insert(r.meta.id.clone()));
            out.runs += batch.len();
            if !batch.is_empty() {
                visit(batch);
            }
        }
        Ok(())
    })
}

/// Hands each part's frame (only the dataset `columns` it has, and the
/// run's) and its runs to `visit`, in order: for readers that take the
/// columns as they are. A damaged part is left out and listed; `visit`
/// runs guarded too (it reads the frame's columns), and what it took from
/// a part that then failed is the caller's to drop.
pub fn scan_frames(
    history: impl Into<Store>,
    columns: &[&str],
    mut visit: impl FnMut(&DataFrame, &[RunSpan]) -> anyhow::Result<()>,
) -> Result<Scanned, StoreError> {
    // A run id in two parts counts once: the first, the lowest number.
    let mut seen = std::collections::HashSet::new();
    let read = |part: &Part, bytes| read_frame(part, bytes, Some(columns));
    scan_parts(&history.into(), read, |part, df, out| {
        let visited = super::guard::guarded(|| {
            let mut spans = run_spans(&df, &part)?;
            spans.retain(|s| !seen.contains(&s.meta.id));
            visit(&df, &spans)?;
            Ok(spans)
        });
        match visited {
            Ok(spans) => {
                out.runs += spans.len();
                seen.extend(spans.into_iter().map(|s| s.meta.id));
            }
            Err(reason) => out.damaged.push(Damaged { part, reason }),
        }
        Ok(())
    })
}

/// The live parts of `store` as `read` makes them, handed to `each` in
/// order, for [`scan`] and [`scan_frames`]: a damaged part is listed in
/// what is returned and left out; a store that cannot be read ends the
/// scan.
fn scan_parts<T>(
    store: &Store,
    read: impl Fn(&Part, Vec<u8>) -> Result<T, Fault>,
    mut each: impl FnMut(Part, T, &mut Scanned) -> Result<(), StoreError>,
) -> Result<Scanned, StoreError> {
    store.objects().check()?;
    let mut out = Scanned::default();
    each_part(store, layout(store)?.live, |part, bytes| {
        match bytes.and_then(|b| read(&part, b)) {
            Ok(read) => each(part, read, &mut out),
            Err(Fault::Damaged(d)) => {
                out.damaged.push(d);
                Ok(())
            }
            Err(Fault::Store(e)) => Err(e),
        }
    })?;
    Ok(out)
}

fn scan_bytes(
    part: &Part,
    bytes: Vec<u8>,
    columns: Option<&[&str]>,
    visit: &mut dyn FnMut(Vec<StoredRun>),
) -> Result<usize, Fault> {
    let df = read_frame(part, bytes, columns)?;
    super::guard::guarded(|| batches(&df, part, visit)).map_err(|reason| {
        Fault::Damaged(Damaged {
            part: part.clone(),
            reason,
        })
    })
}

/// The runs of a part's frame, handed to `visit` a batch at a time.
fn batches(
    df: &DataFrame,
    part: &Part,
    visit: &mut dyn FnMut(Vec<StoredRun>),
) -> anyhow::Result<usize> {
    let spans = run_spans(df, part)?;
    let mut at = 0;
    while at < spans.len() {
        let (start, mut end, mut len) = (spans[at].offset, at + 1, spans[at].len);
        while end < spans.len() && len + spans[end].len <= BATCH_ROWS {
            len += spans[end].len;
            end += 1;
        }
        let mut rows = dataset::from_dataframe(&df.slice(start as i64, len))?.into_iter();
        let batch = spans[at..end]
            .iter()
            .map(|s| StoredRun {
                meta: s.meta.clone(),
                rows: rows.by_ref().take(s.len).collect(),
            })
            .collect();
        visit(batch);
        at = end;
    }
    Ok(spans.len())
}

/// Every run of one part, with all its columns.
pub(crate) fn part_runs(store: &Store, part: &Part) -> Result<Vec<StoredRun>, Fault> {
    part_runs_checked(store, part).map(|(runs, _)| runs)
}

/// [`part_runs`], and whether a recorded checksum was checked (false: a
/// part written before checksums, read as it is).
pub(crate) fn part_runs_checked(
    store: &Store,
    part: &Part,
) -> Result<(Vec<StoredRun>, bool), Fault> {
    let fetched = store.objects().fetch(&[part.name()]).pop();
    let (bytes, summed) = match fetched {
        Some(Ok(f)) => checked(part, f)?,
        Some(Err(e)) => return Err(Fault::Store(e)),
        None => return Err(Fault::Store(StoreError::Missing(part.path.clone()))),
    };
    let mut out = Vec::new();
    scan_bytes(part, bytes, None, &mut |batch| out.extend(batch))?;
    Ok((out, summed))
}

/// The part's bytes, checked against the CRC-32s recorded for it (as
/// listed, or fetched with it), and whether there was one to check. A
/// record that is no CRC-32 is damage: the part cannot be checked, and
/// reading it as one written before checksums would turn the check off.
fn checked(part: &Part, fetched: Fetched) -> Result<(Vec<u8>, bool), Fault> {
    let bad: Vec<&String> = part.bad_sums.iter().chain(&fetched.bad_sums).collect();
    if let Some(record) = bad.first() {
        return Err(Fault::Damaged(Damaged {
            part: part.clone(),
            reason: format!(
                "its checksum record `{}` is no CRC-32 (8 hex digits), so its bytes cannot be checked",
                record.escape_debug()
            ),
        }));
    }
    let mut sums = part.sums.clone();
    sums.extend(fetched.sums);
    if !sums.is_empty() {
        let crc = crc32fast::hash(&fetched.bytes);
        if !sums.contains(&crc) {
            let recorded: Vec<String> = sums.iter().map(|c| format!("{c:08x}")).collect();
            return Err(Fault::Damaged(Damaged {
                part: part.clone(),
                reason: format!(
                    "its bytes have CRC-32 {crc:08x}, {} was recorded when it was written",
                    recorded.join(" or ")
                ),
            }));
        }
    }
    Ok((fetched.bytes, !sums.is_empty()))
}

/// The part's frame from its checked `bytes`: `columns` of the dataset
/// that it has, and the run's; decoded where a panic is an error.
fn read_frame(part: &Part, bytes: Vec<u8>, columns: Option<&[&str]>) -> Result<DataFrame, Fault> {
    super::guard::guarded(|| {
        let mut reader = ParquetReader::new(std::io::Cursor::new(bytes));
        if let Some(columns) = columns {
            let schema = reader.schema()?;
            let wanted = columns
                .iter()
                .chain(RUN_COLUMNS.iter())
                .filter(|c| schema.contains(c))
                .map(|c| c.to_string())
                .collect();
            reader = reader.with_columns(Some(wanted));
        }
        Ok(reader.finish()?)
    })
    .map_err(|reason| {
        Fault::Damaged(Damaged {
            part: part.clone(),
            reason,
        })
    })
}

/// The rows of one run within a part's frame.
#[derive(Debug, Clone)]
pub struct RunSpan {
    pub meta: RunMeta,
    /// First row.
    pub offset: usize,
    pub len: usize,
}

/// The runs of a part's frame, in order. A lone run's number is the
/// part's (an add may have taken the next free name); a merged part
/// carries each run's number in `run_seq`.
fn run_spans(df: &DataFrame, part: &Part) -> anyhow::Result<Vec<RunSpan>> {
    if df.height() == 0 {
        anyhow::bail!("no rows");
    }
    let text = |name: &str| -> anyhow::Result<StringChunked> {
        Ok(df.column(name)?.cast(&DataType::String)?.str()?.clone())
    };
    let (ids, commits, times) = (text("run_id")?, text("run_commit")?, text("run_time")?);
    let seqs = df.column("run_seq")?.cast(&DataType::UInt64)?;
    let mut out: Vec<RunSpan> = Vec::new();
    for (i, seq) in seqs.u64()?.iter().enumerate() {
        let seq = match (part.first == part.last, seq) {
            (true, _) => part.first,
            (false, Some(s)) if (part.first..=part.last).contains(&s) => s,
            (false, s) => anyhow::bail!("row {i}: run_seq {s:?} outside the part's runs"),
        };
        match out.last_mut() {
            Some(span) if span.meta.seq == seq => span.len += 1,
            _ => out.push(RunSpan {
                meta: RunMeta {
                    id: ids.get(i).context("no run_id")?.to_string(),
                    commit: commits.get(i).map(str::to_string),
                    time: times.get(i).unwrap_or_default().to_string(),
                    seq,
                },
                offset: i,
                len: 1,
            }),
        }
    }
    Ok(out)
}

/// The run index of the history: each run with the part it is in (only
/// the run's columns are read), and the parts left out as damaged.
#[derive(Debug, Default)]
pub(crate) struct RunIndex {
    pub runs: Vec<(RunMeta, Part)>,
    pub damaged: Vec<Damaged>,
}

impl RunIndex {
    /// The next free run number: past every part, damaged and set-aside
    /// ones too, so a number is never given twice.
    pub fn next_seq(&self, store: &Store) -> u64 {
        let parts = self.runs.iter().map(|(_, p)| p.last);
        let damaged = self.damaged.iter().map(|d| d.part.last);
        let aside = quarantined(store).into_iter().map(|p| p.last);
        parts.chain(damaged).chain(aside).max().unwrap_or(0) + 1
    }
}

/// The runs in the history with the part each is in.
pub(crate) fn run_index(store: &Store) -> Result<RunIndex, StoreError> {
    run_index_of(store, layout(store)?.live)
}

/// The runs in `parts` with the part each is in.
pub(crate) fn run_index_of(store: &Store, parts: Vec<Part>) -> Result<RunIndex, StoreError> {
    let mut out = RunIndex::default();
    // A run read twice (from a part, then from the merge that retired the
    // part mid-read) is one run: the same id at the same number.
    let mut seen = std::collections::HashSet::new();
    each_part(store, parts, |part, bytes| {
        let spans = bytes
            .and_then(|b| read_frame(&part, b, Some(&[])))
            .and_then(|df| {
                super::guard::guarded(|| run_spans(&df, &part)).map_err(|reason| {
                    Fault::Damaged(Damaged {
                        part: part.clone(),
                        reason,
                    })
                })
            });
        match spans {
            Ok(spans) => out.runs.extend(
                spans
                    .into_iter()
                    .filter(|s| seen.insert((s.meta.id.clone(), s.meta.seq)))
                    .map(|s| (s.meta, part.clone())),
            ),
            Err(Fault::Damaged(d)) => out.damaged.push(d),
            Err(Fault::Store(e)) => return Err(e),
        }
        Ok(())
    })?;
    Ok(out)
}

/// Parts set aside in [`QUARANTINE`], by the runs their names hold.
pub fn quarantined(history: impl Into<Store>) -> Vec<Part> {
    let store = history.into();
    let objects = store.objects();
    let mut out: Vec<Part> = objects
        .quarantined()
        .into_iter()
        .filter_map(|n| {
            let path = objects.locate(&format!("{QUARANTINE}/{n}"));
            Part::parse(&n, path)
        })
        .collect();
    out.sort_by_key(|p| (p.first, p.last));
    out
}

/// Moves a damaged part (and its checksum records) into [`QUARANTINE`]
/// (a name taken there gets `.1`, `.2`, ... after it): out of every read,
/// kept for whoever wants to look. Returns where the part went.
pub(crate) fn quarantine(store: &Store, part: &Part) -> Result<PathBuf, StoreError> {
    store.objects().quarantine(&part.name(), &part.sums)
}

/// Run ids that more than one part holds (two adds of one id that raced,
/// or a part copied by hand), each with the parts' paths in history
/// order. Readers count such a run once, from the first.
pub fn duplicate_runs(
    history: impl Into<Store>,
) -> Result<Vec<(String, Vec<PathBuf>)>, StoreError> {
    let store = history.into();
    let mut out: Vec<(String, Vec<PathBuf>)> = Vec::new();
    let index = run_index(&store)?.runs;
    for (meta, _) in &index {
        let holders: Vec<PathBuf> = index
            .iter()
            .filter(|(m, _)| m.id == meta.id)
            .map(|(_, p)| p.path.clone())
            .collect();
        if holders.len() > 1 && !out.iter().any(|(id, _)| *id == meta.id) {
            out.push((meta.id.clone(), holders));
        }
    }
    Ok(out)
}

/// Temporaries a killed writer left (`.part-*.tmp`; a folder's only: a
/// bucket's puts are whole or absent).
pub fn temporaries(history: impl Into<Store>) -> Vec<PathBuf> {
    let store = history.into();
    store
        .objects()
        .folder()
        .map(folder::Folder::temporaries)
        .unwrap_or_default()
}

/// Checksum files whose part is gone (a folder's only).
pub fn orphan_sums(history: impl Into<Store>) -> Vec<PathBuf> {
    let store = history.into();
    store
        .objects()
        .folder()
        .map(folder::Folder::orphan_sums)
        .unwrap_or_default()
}

/// A folder's lock for one add or compaction, with what a killed writer
/// left removed; a bucket has none and needs none.
pub(crate) fn lock(store: &Store) -> Result<Option<Lock>, StoreError> {
    store
        .objects()
        .folder()
        .map(folder::Folder::lock_and_clean)
        .transpose()
}

/// Rewrites `part` with `run` in place of the run of the same number.
pub(super) fn replace_in(
    store: &Store,
    part: &Part,
    run: StoredRun,
) -> Result<PathBuf, StoreError> {
    let mut runs = part_runs(store, part).map_err(StoreError::from)?;
    for r in runs.iter_mut().filter(|r| r.meta.seq == run.meta.seq) {
        *r = run.clone();
    }
    let (bytes, crc) = encode(&part.path, runs)?;
    store
        .objects()
        .overwrite(&part.name(), &bytes, crc, &part.sums)?;
    Ok(part.path.clone())
}

/// Creates `bytes` as the part of the lone run `seq`, or of the first
/// free number after it; returns the number taken.
pub(super) fn create_lone(
    store: &Store,
    bytes: &[u8],
    crc: u32,
    mut seq: u64,
) -> Result<u64, StoreError> {
    loop {
        match store
            .objects()
            .create(&Part::file_name(seq, seq), bytes, crc)?
        {
            Created::Ours => return Ok(seq),
            Created::Taken => seq += 1,
        }
    }
}

/// `runs` as the bytes of one parquet part, and their CRC-32; every row
/// carries its run's id, commit, time and number. `path` names the part
/// in an error.
pub(crate) fn encode(path: &Path, runs: Vec<StoredRun>) -> Result<(Vec<u8>, u32), StoreError> {
    let part = |source: anyhow::Error| StoreError::Part {
        path: path.to_path_buf(),
        source,
    };
    let mut df = frame_of(runs).map_err(part)?;
    let mut bytes = Vec::new();
    dataset::write_parquet(&mut df, &mut bytes).map_err(|e| part(e.into()))?;
    let crc = crc32fast::hash(&bytes);
    Ok((bytes, crc))
}

/// Writes `runs` as one parquet file at `path`, synced (no checksum
/// recorded). Returns the file's CRC-32.
#[doc(hidden)]
pub fn write_runs(path: &Path, runs: Vec<StoredRun>) -> Result<u32, StoreError> {
    use std::io::Write;
    let (bytes, crc) = encode(path, runs)?;
    let mut file = std::fs::File::create(path).map_err(io(path))?;
    file.write_all(&bytes).map_err(io(path))?;
    file.sync_all().map_err(io(path))?;
    Ok(crc)
}

/// Writes `runs` as the part at `path` (in a history folder) with its
/// checksum recorded, not aside first: for tools that make a whole
/// history at once (benches).
#[doc(hidden)]
pub fn write_part(path: &Path, runs: Vec<StoredRun>) -> Result<(), StoreError> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    if Part::parse(&name, path.to_path_buf()).is_none() {
        return Err(StoreError::Part {
            path: path.to_path_buf(),
            source: anyhow::anyhow!("not a part's name (part-N.parquet or part-A-B.parquet)"),
        });
    }
    let (bytes, crc) = encode(path, runs)?;
    folder::write_in_place(path, &bytes, crc)
}

fn frame_of(runs: Vec<StoredRun>) -> anyhow::Result<DataFrame> {
    let run_columns = {
        let repeat = |f: &dyn Fn(&RunMeta) -> Option<&str>| -> Vec<Option<&str>> {
            runs.iter()
                .flat_map(|r| std::iter::repeat_n(f(&r.meta), r.rows.len()))
                .collect()
        };
        [
            Column::new("run_id".into(), repeat(&|m| Some(m.id.as_str()))),
            Column::new("run_commit".into(), repeat(&|m| m.commit.as_deref())),
            Column::new("run_time".into(), repeat(&|m| Some(m.time.as_str()))),
        ]
    };
    let seqs: Vec<i64> = runs
        .iter()
        .flat_map(|r| std::iter::repeat_n(r.meta.seq as i64, r.rows.len()))
        .collect();
    let rows: Vec<Row> = runs.into_iter().flat_map(|r| r.rows).collect();
    let mut df = dataset::to_dataframe(&rows)?;
    for c in run_columns {
        df.with_column(c)?;
    }
    df.with_column(Column::new("run_seq".into(), seqs))?;
    Ok(df)
}

/// Bytes of every part and temporary in the folder `dir`, by name
/// (checksum files, whose names follow the parts', left out): what
/// "unchanged" means in tests.
#[doc(hidden)]
pub fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name() != folder::LOCK_FILE)
        .filter(|e| folder::parse_sum(&e.file_name().to_string_lossy()).is_none())
        .filter(|e| e.file_name() != QUARANTINE)
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).unwrap_or_default())
        })
        .collect();
    out.sort();
    out
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A real client/server result's rows, labelled `cfg`: the rows of a
    /// history in the store's and compaction's tests.
    pub(in crate::history) fn rows() -> Vec<Row> {
        let text = include_str!("../ingest/testdata/client-server-2.json");
        let mut rows =
            crate::ingest::fio_json::to_parsed(&crate::ingest::fio_json::parse(text).unwrap()).rows;
        for r in &mut rows {
            r.clat_bins = None;
            r.config = "cfg".into();
        }
        rows
    }

    #[test]
    fn a_file_or_nothing_is_not_a_history() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("h.parquet");
        std::fs::write(&f, b"x").unwrap();
        assert!(matches!(read(&f), Err(StoreError::NotADirectory(_))));
        assert!(matches!(
            read(&dir.path().join("none")),
            Err(StoreError::Missing(_))
        ));
    }

    #[test]
    fn a_url_of_an_unknown_scheme_is_refused_naming_it() {
        let e = Store::open("ftp://host/h").unwrap_err().to_string();
        assert!(e.starts_with("--history ftp://host/h: not a scheme"), "{e}");
        let local = Store::open("file:///tmp/h").unwrap();
        assert_eq!(local.dir(), Some(Path::new("/tmp/h")));
    }

    #[test]
    fn credentials_in_a_url_are_refused_and_never_shown() {
        for url in [
            "s3://KEY:S3KR1T@bucket/prefix",
            "s3://KEY:S3K/R1T@bucket/p",
            "gs://S3KR1T@b/p",
            "s3://KEY:S3KR1T/p",
        ] {
            let e = Store::open(url).unwrap_err().to_string();
            assert!(!e.contains("S3K"), "{e}");
            assert!(
                e.contains("put credentials in the environment or a profile"),
                "{e}"
            );
        }
        let e = Store::open("s3://K:S@bucket/prefix")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("--history s3://***@bucket/prefix: "), "{e}");
        let said = super::super::objects::redacted(
            "error sending request for url (http://user:pa/ss@127.0.0.1:9/b/x): refused",
        );
        assert_eq!(
            said,
            "error sending request for url (http://***@127.0.0.1:9/b/x): refused"
        );
    }
}
