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

use std::path::{Path, PathBuf};

use polars::prelude::*;

use anyhow::Context;

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
    #[error("{path}: {source}")]
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
}

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
        (first <= last).then_some(Part { first, last, path })
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
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        all.extend(Part::parse(entry.map_err(io(dir))?.path()));
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

fn part_error(part: &Part) -> impl FnOnce(anyhow::Error) -> StoreError + '_ {
    move |source| StoreError::Part {
        path: part.path.clone(),
        source,
    }
}

/// Every run of the history, in order.
pub fn read(dir: &Path) -> Result<Vec<StoredRun>, StoreError> {
    let mut out = Vec::new();
    scan(dir, None, |batch| out.extend(batch))?;
    Ok(out)
}

/// Hands the runs of the history to `visit` in order, a batch of whole
/// runs at a time, reading only the dataset `columns` given (all when
/// None; the others keep [`Row::empty`]'s values). Returns the runs seen.
pub fn scan(
    dir: &Path,
    columns: Option<&[&str]>,
    mut visit: impl FnMut(Vec<StoredRun>),
) -> Result<usize, StoreError> {
    check_dir(dir)?;
    let mut runs = 0;
    // A run id in two parts (a part copied by hand) counts once: the first.
    let mut seen = std::collections::HashSet::new();
    let mut once = |mut batch: Vec<StoredRun>| {
        batch.retain(|r| seen.insert(r.meta.id.clone()));
        runs += batch.len();
        if !batch.is_empty() {
            visit(batch);
        }
    };
    for part in layout(dir)?.live {
        scan_part(&part, columns, &mut once).map_err(part_error(&part))?;
    }
    Ok(runs)
}

/// Hands each part's frame (only the dataset `columns` it has, and the
/// run's) and its runs to `visit`, in order: for readers that take the
/// columns as they are. Returns the runs seen.
pub fn scan_frames(
    dir: &Path,
    columns: &[&str],
    mut visit: impl FnMut(&DataFrame, &[RunSpan]) -> anyhow::Result<()>,
) -> Result<usize, StoreError> {
    check_dir(dir)?;
    let mut runs = 0;
    // A run id in two parts (a part copied by hand) counts once: the first.
    let mut seen = std::collections::HashSet::new();
    for part in layout(dir)?.live {
        let visited = read_frame(&part.path, Some(columns)).and_then(|df| {
            let mut spans = run_spans(&df, &part)?;
            spans.retain(|s| seen.insert(s.meta.id.clone()));
            visit(&df, &spans)?;
            Ok(spans.len())
        });
        runs += visited.map_err(part_error(&part))?;
    }
    Ok(runs)
}

fn scan_part(
    part: &Part,
    columns: Option<&[&str]>,
    visit: &mut dyn FnMut(Vec<StoredRun>),
) -> anyhow::Result<usize> {
    let df = read_frame(&part.path, columns)?;
    let spans = run_spans(&df, part)?;
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
pub(crate) fn part_runs(part: &Part) -> Result<Vec<StoredRun>, StoreError> {
    let mut out = Vec::new();
    scan_part(part, None, &mut |batch| out.extend(batch)).map_err(part_error(part))?;
    Ok(out)
}

/// The part's frame: `columns` of the dataset that it has, and the run's.
fn read_frame(path: &Path, columns: Option<&[&str]>) -> anyhow::Result<DataFrame> {
    let mut reader = ParquetReader::new(std::fs::File::open(path)?);
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

/// The runs in the history with the part each is in (only the run's
/// columns are read).
pub(super) fn run_index(dir: &Path) -> Result<Vec<(RunMeta, Part)>, StoreError> {
    let mut out = Vec::new();
    for part in layout(dir)?.live {
        let spans = read_frame(&part.path, Some(&[]))
            .and_then(|df| run_spans(&df, &part))
            .map_err(part_error(&part))?;
        out.extend(spans.into_iter().map(|s| (s.meta, part.clone())));
    }
    Ok(out)
}

/// Run ids that more than one part holds (a part copied by hand), each
/// with the parts' paths in history order. Readers count such a run once.
pub fn duplicate_runs(dir: &Path) -> Result<Vec<(String, Vec<PathBuf>)>, StoreError> {
    let mut out: Vec<(String, Vec<PathBuf>)> = Vec::new();
    let index = run_index(dir)?;
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

/// Temporaries of this store's naming (`.part-*.tmp`) in `dir`.
pub fn temporaries(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(".part-") && n.ends_with(".tmp"))
        })
        .collect();
    out.sort();
    out
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
    let placed = write_runs(&tmp, runs).and_then(|()| {
        std::fs::rename(&tmp, &part.path)
            .map(|()| part.path.clone())
            .map_err(io(&part.path))
    });
    let _ = std::fs::remove_file(&tmp);
    sync_dir(dir);
    placed
}

/// Writes `run` as a part of its own at the first free number from its
/// `seq` on; returns the number taken.
pub(super) fn place_new(dir: &Path, run: StoredRun) -> Result<u64, StoreError> {
    let tmp = aside(dir, run.meta.seq, run.meta.seq);
    let seq = run.meta.seq;
    let placed = write_runs(&tmp, vec![run]).and_then(|()| link_new(dir, &tmp, seq));
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
fn link_new(dir: &Path, tmp: &Path, mut seq: u64) -> Result<u64, StoreError> {
    loop {
        let path = dir.join(Part::file_name(seq, seq));
        match std::fs::hard_link(tmp, &path) {
            Ok(()) => return Ok(seq),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => seq += 1,
            // File systems without hard links: a rename to a free name.
            Err(_) if !path.exists() => {
                std::fs::rename(tmp, &path).map_err(io(&path))?;
                return Ok(seq);
            }
            Err(e) => return Err(io(&path)(e)),
        }
    }
}

/// Writes `runs` as one parquet file at `path` and syncs it; every row
/// carries its run's id, commit, time and number.
#[doc(hidden)]
pub fn write_runs(path: &Path, runs: Vec<StoredRun>) -> Result<(), StoreError> {
    let mut df = frame_of(runs).map_err(|source| StoreError::Part {
        path: path.to_path_buf(),
        source,
    })?;
    let file = std::fs::File::create(path).map_err(io(path))?;
    let mut w = std::io::BufWriter::new(file);
    dataset::write_parquet(&mut df, &mut w).map_err(|e| StoreError::Part {
        path: path.to_path_buf(),
        source: e.into(),
    })?;
    let file = w.into_inner().map_err(|e| io(path)(e.into_error()))?;
    file.sync_all().map_err(io(path))?;
    Ok(())
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

/// Bytes of every file in `dir`, by name: what "unchanged" means in tests.
#[doc(hidden)]
pub fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name() != LOCK_FILE)
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
            r.label = "cfg".into();
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
