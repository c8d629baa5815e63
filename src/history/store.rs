//! The history on disk: a directory of parquet parts. An add writes its
//! run as a part of its own, `part-00000042.parquet`; parts are then
//! merged (`history::compact`) into `part-00000001-00000016.parquet`
//! and so on, so years of runs stay a few dozen files rather than one file
//! per run, which no reader opens fast. Each row holds the run's dataset
//! columns (those of docs/CONTRACT.md) plus `run_id`, `run_commit`, `run_time`
//! and `run_seq`, so DuckDB or pandas read the whole history with
//! `read_parquet('history/*.parquet')`.
//!
//! Every part is written aside (`.part-*.tmp`, which no `*.parquet` glob
//! sees) and then linked or renamed into place, so an add killed midway
//! leaves the history as it was, or with its run added; an append never
//! rewrites what is there.
//!
//! Each part's CRC-32 is recorded when it is written, in the name of an
//! empty hidden file beside it (`.part-00000042.parquet.crc32-1a2b3c4d`), created
//! before the part becomes visible and removed after it is gone. Every
//! read checks the part's bytes against it: a flipped bit is a damaged
//! part, named and left out (its runs said), never a value. The record
//! needs no shared mutable file: each part's is its own, immutable, and
//! listed with the parts (docs/architecture.md says why it is safe, and
//! how an object store's conditional puts keep the same scheme). Parts
//! written before checksums have none and are read as they are.

use std::path::{Path, PathBuf};

use polars::prelude::*;

use anyhow::Context;

use super::io_text::Witness;
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

/// Errors of the history store; each names the path and what fixes it.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: run `{run}` is already in the history (use another --run, or --replace)")]
    DuplicateRun { run: String, path: PathBuf },
    #[error("{0}: --history must name a directory of parquet parts, not a file")]
    NotADirectory(PathBuf),
    #[error("{0}: no history here (add runs with `nvcmp history add PATH --history DIR`)")]
    Missing(PathBuf),
    #[error("{path}: cannot read history part: {source}")]
    Part {
        path: PathBuf,
        #[source]
        source: anyhow::Error,
    },
    #[error("{a} and {b} hold some of the same runs; move one of them out of the history")]
    Overlap { a: PathBuf, b: PathBuf },
    #[error(
        "{path}: the run was added, but merging parts failed (the history is whole; `nvcmp history compact` retries): {source}"
    )]
    Merge {
        path: PathBuf,
        #[source]
        source: Box<StoreError>,
    },
    #[error(
        "{path}: damaged ({reason}); `nvcmp history compact --history DIR` sets it aside in .quarantine/"
    )]
    Damaged { path: PathBuf, reason: String },
    #[error("{path}: {}", super::io_text::cause(source))]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

pub(super) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

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
    pub path: PathBuf,
    /// CRC-32s recorded for the part (its checksum files); empty for a
    /// part written before checksums. More than one only when a replace
    /// or a merge was interrupted: the part is whole if it matches one.
    pub sums: Vec<u32>,
}

/// Between a part's name and its CRC-32 in its checksum file's name.
pub const SUM_INFIX: &str = ".crc32-";

/// The checksum file of part `file_name` whose bytes have CRC-32 `crc`:
/// hidden (a leading dot), as readers of a parquet directory (pyarrow's
/// datasets, Spark) skip names starting with `.` or `_` and would
/// otherwise try to open the empty file as a part.
pub fn sum_name(file_name: &str, crc: u32) -> String {
    format!(".{file_name}{SUM_INFIX}{crc:08x}")
}

/// The part's file name and CRC-32 a checksum file's name records.
fn parse_sum(name: &str) -> Option<(&str, u32)> {
    let (part, hex) = name.strip_prefix('.')?.rsplit_once(SUM_INFIX)?;
    if hex.len() != 8 || !part.ends_with(".parquet") {
        return None;
    }
    Some((part, u32::from_str_radix(hex, 16).ok()?))
}

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

/// The folder damaged parts are set aside in, inside the history: hidden,
/// so no `*.parquet` glob reads them; kept, so nothing is lost.
pub const QUARANTINE: &str = ".quarantine";

impl Part {
    /// The name of the part holding runs `first..=last`.
    pub fn file_name(first: u64, last: u64) -> String {
        if first == last {
            format!("part-{first:08}.parquet")
        } else {
            format!("part-{first:08}-{last:08}.parquet")
        }
    }

    fn parse(path: PathBuf) -> Option<Part> {
        let name = path.file_name()?.to_str()?;
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
        })
    }

    /// The part's file name.
    pub fn name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// Paths of the part's checksum files.
    pub(crate) fn sums_paths(&self) -> Vec<PathBuf> {
        let name = self.name();
        self.sums
            .iter()
            .map(|c| self.path.with_file_name(sum_name(&name, *c)))
            .collect()
    }

    /// Run numbers the part stands for (gaps included).
    pub fn span(&self) -> u64 {
        self.last - self.first + 1
    }
}

/// The parts a reader takes (`live`, in run order) and those a merged
/// part stands for, which only an interrupted merge leaves behind
/// (`stale`): from the moment a merged part is in place it is read alone,
/// so no run is read twice, and until then the old parts are read.
#[derive(Debug, Default)]
pub struct Layout {
    pub live: Vec<Part>,
    pub stale: Vec<Part>,
}

/// The parts of the history in `dir`.
pub fn layout(dir: &Path) -> Result<Layout, StoreError> {
    let mut all = Vec::new();
    let mut sums: std::collections::HashMap<String, Vec<u32>> = Default::default();
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let path = entry.map_err(io(dir))?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if let Some((part, crc)) = parse_sum(name) {
            sums.entry(part.to_string()).or_default().push(crc);
        } else {
            all.extend(Part::parse(path));
        }
    }
    for p in &mut all {
        if let Some(mut s) = sums.remove(&p.name()) {
            s.sort_unstable();
            p.sums = s;
        }
    }
    // A merged part before the parts it covers.
    all.sort_by_key(|p| (p.first, std::cmp::Reverse(p.last)));
    let mut out = Layout::default();
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

pub(crate) fn check_dir(dir: &Path) -> Result<(), StoreError> {
    if dir.is_file() {
        return Err(StoreError::NotADirectory(dir.to_path_buf()));
    }
    if !dir.is_dir() {
        return Err(StoreError::Missing(dir.to_path_buf()));
    }
    Ok(())
}

/// Every run of the history, in order; a damaged part is an error here
/// (readers that go on without it use [`scan`]).
pub fn read(dir: &Path) -> Result<Vec<StoredRun>, StoreError> {
    let mut out = Vec::new();
    let scanned = scan(dir, None, |batch| out.extend(batch))?;
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

/// Hands the runs of the history to `visit` in order, a batch of whole
/// runs at a time, reading only the dataset `columns` given (all when
/// None; the others keep [`Row::empty`]'s values). A damaged part is left
/// out and listed.
pub fn scan(
    dir: &Path,
    columns: Option<&[&str]>,
    mut visit: impl FnMut(Vec<StoredRun>),
) -> Result<Scanned, StoreError> {
    check_dir(dir)?;
    let mut out = Scanned::default();
    // A run id in two parts (a part copied by hand) counts once: the first.
    let mut seen = std::collections::HashSet::new();
    for part in layout(dir)?.live {
        // A part's runs are handed on only once it has read whole.
        let mut batches = Vec::new();
        match scan_part(&part, columns, &mut |b| batches.push(b)) {
            Ok(_) => {}
            Err(Fault::Damaged(d)) => {
                out.damaged.push(d);
                continue;
            }
            Err(Fault::Store(e)) => return Err(e),
        }
        for mut batch in batches {
            batch.retain(|r| seen.insert(r.meta.id.clone()));
            out.runs += batch.len();
            if !batch.is_empty() {
                visit(batch);
            }
        }
    }
    Ok(out)
}

/// Hands each part's frame (only the dataset `columns` it has, and the
/// run's) and its runs to `visit`, in order: for readers that take the
/// columns as they are. A damaged part is left out and listed; `visit`
/// runs guarded too (it reads the frame's columns), and what it took from
/// a part that then failed is the caller's to drop.
pub fn scan_frames(
    dir: &Path,
    columns: &[&str],
    mut visit: impl FnMut(&DataFrame, &[RunSpan]) -> anyhow::Result<()>,
) -> Result<Scanned, StoreError> {
    check_dir(dir)?;
    let mut out = Scanned::default();
    // A run id in two parts (a part copied by hand) counts once: the first.
    let mut seen = std::collections::HashSet::new();
    for part in layout(dir)?.live {
        let df = match read_frame(&part, Some(columns)) {
            Ok(df) => df,
            Err(Fault::Damaged(d)) => {
                out.damaged.push(d);
                continue;
            }
            Err(Fault::Store(e)) => return Err(e),
        };
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
    }
    Ok(out)
}

fn scan_part(
    part: &Part,
    columns: Option<&[&str]>,
    visit: &mut dyn FnMut(Vec<StoredRun>),
) -> Result<usize, Fault> {
    let df = read_frame(part, columns)?;
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
pub(crate) fn part_runs(part: &Part) -> Result<Vec<StoredRun>, Fault> {
    let mut out = Vec::new();
    scan_part(part, None, &mut |batch| out.extend(batch))?;
    Ok(out)
}

/// The part's bytes, checked against its recorded CRC-32s.
fn checked_bytes(part: &Part) -> Result<Vec<u8>, Fault> {
    let bytes = std::fs::read(&part.path).map_err(|e| Fault::Store(io(&part.path)(e)))?;
    if !part.sums.is_empty() {
        let crc = crc32fast::hash(&bytes);
        if !part.sums.contains(&crc) {
            let recorded: Vec<String> = part.sums.iter().map(|c| format!("{c:08x}")).collect();
            return Err(Fault::Damaged(Damaged {
                part: part.clone(),
                reason: format!(
                    "its bytes have CRC-32 {crc:08x}, {} was recorded when it was written",
                    recorded.join(" or ")
                ),
            }));
        }
    }
    Ok(bytes)
}

/// The part's frame: `columns` of the dataset that it has, and the run's;
/// its bytes checked first, then decoded where a panic is an error.
fn read_frame(part: &Part, columns: Option<&[&str]>) -> Result<DataFrame, Fault> {
    let bytes = checked_bytes(part)?;
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
    pub fn next_seq(&self, dir: &Path) -> u64 {
        let parts = self.runs.iter().map(|(_, p)| p.last);
        let damaged = self.damaged.iter().map(|d| d.part.last);
        let aside = quarantined(dir).into_iter().map(|p| p.last);
        parts.chain(damaged).chain(aside).max().unwrap_or(0) + 1
    }
}

/// The runs in the history with the part each is in.
pub(crate) fn run_index(dir: &Path) -> Result<RunIndex, StoreError> {
    let mut out = RunIndex::default();
    for part in layout(dir)?.live {
        let spans = read_frame(&part, Some(&[])).and_then(|df| {
            super::guard::guarded(|| run_spans(&df, &part)).map_err(|reason| {
                Fault::Damaged(Damaged {
                    part: part.clone(),
                    reason,
                })
            })
        });
        match spans {
            Ok(spans) => out
                .runs
                .extend(spans.into_iter().map(|s| (s.meta, part.clone()))),
            Err(Fault::Damaged(d)) => out.damaged.push(d),
            Err(Fault::Store(e)) => return Err(e),
        }
    }
    Ok(out)
}

/// Parts set aside in [`QUARANTINE`], by the runs their names hold.
pub fn quarantined(dir: &Path) -> Vec<Part> {
    let Ok(entries) = std::fs::read_dir(dir.join(QUARANTINE)) else {
        return Vec::new();
    };
    let mut out: Vec<Part> = entries
        .filter_map(Result::ok)
        .filter_map(|e| Part::parse(e.path()))
        .collect();
    out.sort_by_key(|p| (p.first, p.last));
    out
}

/// Moves a damaged part and its checksum files into [`QUARANTINE`] (a
/// name taken there gets `.1`, `.2`, ... after it): out of every read, kept
/// for whoever wants to look. Returns where the part went.
pub(crate) fn quarantine(dir: &Path, part: &Part) -> Result<PathBuf, StoreError> {
    let aside = dir.join(QUARANTINE);
    std::fs::create_dir_all(&aside).map_err(io(&aside))?;
    let free = |name: &str| {
        let mut to = aside.join(name);
        let mut k = 0;
        while to.exists() {
            k += 1;
            to = aside.join(format!("{name}.{k}"));
        }
        to
    };
    let to = free(&part.name());
    std::fs::rename(&part.path, &to).map_err(io(&part.path))?;
    for sum in part.sums_paths() {
        let name = sum
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let _ = std::fs::rename(&sum, free(&name));
    }
    sync_dir(dir);
    Ok(to)
}

/// Run ids that more than one part holds (a part copied by hand), each
/// with the parts' paths in history order. Readers count such a run once.
pub fn duplicate_runs(dir: &Path) -> Result<Vec<(String, Vec<PathBuf>)>, StoreError> {
    let mut out: Vec<(String, Vec<PathBuf>)> = Vec::new();
    let index = run_index(dir)?.runs;
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

/// The files of `dir` whose name `keep` takes, sorted (none when `dir`
/// cannot be read).
fn files_named(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(&keep))
        .collect();
    out.sort();
    out
}

/// Temporaries of this store's naming (`.part-*.tmp`) in `dir`.
pub fn temporaries(dir: &Path) -> Vec<PathBuf> {
    files_named(dir, |n| n.starts_with(".part-") && n.ends_with(".tmp"))
}

/// Removes what an add or compaction killed mid-write left behind. Called
/// with the history's [`Lock`] held: every writer takes it before writing
/// a temporary, so none present belongs to a live process. On a system
/// with no lock (neither Unix nor Windows) writers are not serialized: only
/// temporaries an hour old go.
fn remove_stale(dir: &Path, _lock: &Lock) {
    for tmp in temporaries(dir) {
        let stale = cfg!(any(unix, windows))
            || std::fs::metadata(&tmp)
                .and_then(|m| m.modified())
                .is_ok_and(|t| t.elapsed().is_ok_and(|age| age.as_secs() > 3600));
        if stale {
            let _ = std::fs::remove_file(&tmp);
        }
    }
    // Checksum files whose part is gone: a merge or retire killed between
    // removing a part and its record, or an add that lost a name.
    for sum in orphan_sums(dir) {
        let _ = std::fs::remove_file(sum);
    }
}

/// Checksum files in `dir` whose part is not there.
pub fn orphan_sums(dir: &Path) -> Vec<PathBuf> {
    files_named(dir, |name| {
        parse_sum(name).is_some_and(|(part, _)| !dir.join(part).exists())
    })
}

/// The lock file of a history: hidden, so no `*.parquet` glob or listing
/// of parts sees it.
pub(crate) const LOCK_FILE: &str = ".nvcmp-history.lock";

/// An exclusive lock on a history for one add or compaction. Two CI jobs
/// adding to one directory at once would otherwise both merge the same
/// parts into overlapping ones. `flock` (Unix) and `LockFileEx` (Windows)
/// are released by the kernel when the process ends, so a killed add never
/// leaves the history locked.
pub(crate) struct Lock {
    _file: std::fs::File,
}

impl Lock {
    /// Waits for the history in `dir` (which exists) to be free, then
    /// removes the temporaries a killed writer left.
    pub(crate) fn take_and_clean(dir: &Path) -> Result<Lock, StoreError> {
        let lock = Lock::take(dir)?;
        remove_stale(dir, &lock);
        Ok(lock)
    }

    /// Waits for the history in `dir` (which exists) to be free.
    pub(crate) fn take(dir: &Path) -> Result<Lock, StoreError> {
        let path = dir.join(LOCK_FILE);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io(&path))?;
        lock_exclusive(&file).map_err(|source| StoreError::Io { path, source })?;
        Ok(Lock { _file: file })
    }
}

/// Waits for an exclusive `flock` on `file`, which keeps it until closed.
#[cfg(unix)]
fn lock_exclusive(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    loop {
        // SAFETY: `flock` only takes the descriptor, which `file` owns
        // and keeps open for as long as the lock is held.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Windows' twin: waits for an exclusive `LockFileEx` lock on the whole
/// of `file` (std's `File::lock` needs Rust 1.89, past nvcmp's 1.85).
#[cfg(windows)]
fn lock_exclusive(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::windows::io::AsRawHandle;
    use windows_sys::Win32::Storage::FileSystem::{LOCKFILE_EXCLUSIVE_LOCK, LockFileEx};
    // SAFETY: OVERLAPPED is plain data; zeroed locks from offset 0.
    let mut ov: windows_sys::Win32::System::IO::OVERLAPPED = unsafe { std::mem::zeroed() };
    // SAFETY: `file` owns its handle, opened synchronously, so the call
    // blocks until the lock is granted and `ov` outlives it; the range is
    // every byte, locked past the end of the empty file as Windows allows.
    let ok = unsafe {
        LockFileEx(
            file.as_raw_handle() as _,
            LOCKFILE_EXCLUSIVE_LOCK,
            0,
            u32::MAX,
            u32::MAX,
            &mut ov,
        )
    };
    if ok == 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// The twin for systems with neither lock: adds are not serialized, and
/// [`remove_stale`] leaves temporaries younger than an hour.
#[cfg(not(any(unix, windows)))]
fn lock_exclusive(_file: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}

/// Rewrites `part` with `run` in place of the run of the same number.
pub(super) fn replace_in(dir: &Path, part: &Part, run: StoredRun) -> Result<PathBuf, StoreError> {
    let mut runs = part_runs(part)?;
    for r in runs.iter_mut().filter(|r| r.meta.seq == run.meta.seq) {
        *r = run.clone();
    }
    let tmp = aside(dir, part.first, part.last);
    let placed = write_runs(&tmp, runs).and_then(|crc| place_over(&tmp, part, crc));
    let _ = std::fs::remove_file(&tmp);
    sync_dir(dir);
    placed.map(|()| part.path.clone())
}

/// Renames `tmp` (CRC-32 `crc`) over `part`'s name, its checksum recorded
/// first; the part's old checksums go after, so a kill at any point
/// leaves the part matching one of its records.
pub(crate) fn place_over(tmp: &Path, part: &Part, crc: u32) -> Result<(), StoreError> {
    let sum = record_sum(&part.path, crc)?;
    std::fs::rename(tmp, &part.path).map_err(io(&part.path))?;
    for old in part.sums_paths().into_iter().filter(|p| *p != sum) {
        let _ = std::fs::remove_file(old);
    }
    Ok(())
}

/// Creates the checksum file of the part at `path` with CRC-32 `crc`,
/// synced; returns its path.
fn record_sum(path: &Path, crc: u32) -> Result<PathBuf, StoreError> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let sum = path.with_file_name(sum_name(&name, crc));
    let file = std::fs::File::create(&sum).map_err(io(&sum))?;
    file.sync_all().map_err(io(&sum))?;
    Ok(sum)
}

/// Writes `run` as a part of its own at the first free number from its
/// `seq` on; returns the number taken.
pub(super) fn place_new(dir: &Path, run: StoredRun) -> Result<u64, StoreError> {
    let tmp = aside(dir, run.meta.seq, run.meta.seq);
    let seq = run.meta.seq;
    let placed = write_runs(&tmp, vec![run]).and_then(|crc| link_new(dir, &tmp, seq, crc));
    // The aside copy goes whatever happened; a failed add leaves nothing.
    let _ = std::fs::remove_file(&tmp);
    let seq = placed?;
    sync_dir(dir);
    Ok(seq)
}

/// A name for a part being written, which no `*.parquet` glob sees.
pub(crate) fn aside(dir: &Path, first: u64, last: u64) -> PathBuf {
    dir.join(format!(
        ".part-{first:08}-{last:08}-{}.tmp",
        std::process::id()
    ))
}

/// A new name must survive a crash too: sync the directory.
pub(crate) fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Links `tmp` as the first free `part-N.parquet` from `seq` on: a hard
/// link never replaces a part another add placed at the same moment.
/// The part's checksum is recorded before the link: a part is never
/// visible without it. A name another writer took leaves our record an
/// orphan, removed here (and, if we are killed first, by the next writer).
fn link_new(dir: &Path, tmp: &Path, mut seq: u64, crc: u32) -> Result<u64, StoreError> {
    loop {
        let path = dir.join(Part::file_name(seq, seq));
        let sum = record_sum(&path, crc)?;
        match std::fs::hard_link(tmp, &path) {
            Ok(()) => return Ok(seq),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                // Unless the part there is ours to the byte, the record
                // is only ours: another writer's has another name.
                if !part_has_crc(&path, crc) {
                    let _ = std::fs::remove_file(&sum);
                }
                seq += 1;
            }
            // File systems without hard links: a rename to a free name.
            Err(_) if !path.exists() => {
                std::fs::rename(tmp, &path).map_err(io(&path))?;
                return Ok(seq);
            }
            Err(e) => {
                let _ = std::fs::remove_file(&sum);
                return Err(io(&path)(e));
            }
        }
    }
}

fn part_has_crc(path: &Path, crc: u32) -> bool {
    std::fs::read(path).is_ok_and(|b| crc32fast::hash(&b) == crc)
}

/// Writes `runs` as one parquet file at `path` and syncs it; every row
/// carries its run's id, commit, time and number. Returns the file's
/// CRC-32, computed as it is written.
#[doc(hidden)]
pub fn write_runs(path: &Path, runs: Vec<StoredRun>) -> Result<u32, StoreError> {
    let mut df = frame_of(runs).map_err(|source| StoreError::Part {
        path: path.to_path_buf(),
        source,
    })?;
    let file = std::fs::File::create(path).map_err(io(path))?;
    let mut w = std::io::BufWriter::new(Summed {
        inner: file,
        crc: crc32fast::Hasher::new(),
        witness: Witness::default(),
    });
    if let Err(e) = dataset::write_parquet(&mut df, &mut w) {
        // The writer's own error hides the system's (a full disk reads
        // "Invalid thrift: transport error"): say the one it met.
        return Err(match w.get_mut().witness.take() {
            Some(source) => io(path)(source),
            None => StoreError::Part {
                path: path.to_path_buf(),
                source: e.into(),
            },
        });
    }
    let summed = w.into_inner().map_err(|e| io(path)(e.into_error()))?;
    summed.inner.sync_all().map_err(io(path))?;
    Ok(summed.crc.finalize())
}

/// Writes `runs` as the part at `path` with its checksum recorded, not
/// aside first: for tools that make a whole history at once (benches).
#[doc(hidden)]
pub fn write_part(path: &Path, runs: Vec<StoredRun>) -> Result<(), StoreError> {
    let crc = write_runs(path, runs)?;
    record_sum(path, crc).map(|_| ())
}

/// A file that keeps the CRC-32 of what is written to it.
/// The system error it met is kept, for the message.
struct Summed {
    inner: std::fs::File,
    crc: crc32fast::Hasher,
    witness: Witness,
}

impl std::io::Write for Summed {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf).inspect_err(|e| self.witness.saw(e))?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush().inspect_err(|e| self.witness.saw(e))
    }
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

/// Bytes of every part and temporary in `dir`, by name (checksum files,
/// whose names follow the parts', left out): what "unchanged" means in
/// tests.
#[doc(hidden)]
pub fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name() != LOCK_FILE)
        .filter(|e| parse_sum(&e.file_name().to_string_lossy()).is_none())
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

    /// A second writer waits for the first one's lock (flock on Unix,
    /// LockFileEx on Windows), each through its own open of the lock file
    /// as two nvcmp processes would.
    #[cfg(any(unix, windows))]
    #[test]
    fn a_second_writer_waits_for_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let first = Lock::take(dir.path()).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let path = dir.path().to_path_buf();
        let second = std::thread::spawn(move || {
            let lock = Lock::take(&path).unwrap();
            tx.send(()).unwrap();
            drop(lock);
        });
        // Held: the second writer does not get the lock in this time (a
        // slow machine can only make this wait pass, never fail).
        let waited = rx.recv_timeout(std::time::Duration::from_millis(300));
        assert!(
            waited.is_err(),
            "two writers held the history's lock at once"
        );
        drop(first);
        rx.recv()
            .expect("the second writer got the lock once it was free");
        second.join().unwrap();
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
}
