//! The history on disk: a directory of parquet parts, one per added run,
//! `part-00000001.parquet`, ... Each part holds the run's dataset rows (the
//! columns of CONTRACT.md) plus `run_id`, `run_commit`, `run_time` and
//! `run_seq`, so DuckDB or pandas read the whole history with
//! `read_parquet('history/*.parquet')`.
//!
//! An add writes its part aside (`.part-*.tmp`, which no `*.parquet` glob
//! sees) and then links it into place, so an add killed midway leaves the
//! history as it was and an append never rewrites what is there.

use std::path::{Path, PathBuf};

use polars::prelude::*;

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
    /// Order of the runs: the part's number.
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
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The parts of the history in `dir`, in run order (by file name).
fn parts(dir: &Path) -> Result<Vec<(u64, PathBuf)>, StoreError> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let path = entry.map_err(io(dir))?.path();
        let seq = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_prefix("part-")?.strip_suffix(".parquet"))
            .and_then(|n| n.parse::<u64>().ok());
        if let Some(seq) = seq {
            out.push((seq, path));
        }
    }
    out.sort();
    Ok(out)
}

fn check_dir(dir: &Path) -> Result<(), StoreError> {
    if dir.is_file() {
        return Err(StoreError::NotADirectory(dir.to_path_buf()));
    }
    if !dir.is_dir() {
        return Err(StoreError::Missing(dir.to_path_buf()));
    }
    Ok(())
}

/// Every run of the history, in order.
pub fn read(dir: &Path) -> Result<Vec<StoredRun>, StoreError> {
    check_dir(dir)?;
    parts(dir)?
        .into_iter()
        .map(|(seq, path)| {
            read_part(&path, seq).map_err(|source| StoreError::Part { path, source })
        })
        .collect()
}

fn read_part(path: &Path, seq: u64) -> anyhow::Result<StoredRun> {
    let df = ParquetReader::new(std::fs::File::open(path)?).finish()?;
    let first = |name: &str| -> anyhow::Result<Option<String>> {
        let c = df.column(name)?.cast(&DataType::String)?;
        Ok(c.str()?.get(0).map(str::to_string))
    };
    let id = first("run_id")?.ok_or_else(|| anyhow::anyhow!("no run_id"))?;
    let meta = RunMeta {
        id,
        commit: first("run_commit")?,
        time: first("run_time")?.unwrap_or_default(),
        seq,
    };
    Ok(StoredRun {
        meta,
        rows: dataset::from_dataframe(&df)?,
    })
}

/// The run ids in the history with their parts (only the `run_id` column
/// is read).
fn run_ids(dir: &Path) -> Result<Vec<(String, u64, PathBuf)>, StoreError> {
    let mut out = Vec::new();
    for (seq, path) in parts(dir)? {
        let id = (|| -> anyhow::Result<Option<String>> {
            let df = ParquetReader::new(std::fs::File::open(&path)?)
                .with_columns(Some(vec!["run_id".into()]))
                .finish()?;
            Ok(df.column("run_id")?.str()?.get(0).map(str::to_string))
        })()
        .map_err(|source| StoreError::Part {
            path: path.clone(),
            source,
        })?;
        out.extend(id.map(|id| (id, seq, path)));
    }
    Ok(out)
}

/// Adds a run to the history in `dir` (created when missing). A run id
/// already there is refused unless `replace`; then its part is replaced
/// in one rename and keeps its place in the order. Returns the part.
pub fn add(dir: &Path, meta: &RunMeta, rows: &[Row], replace: bool) -> Result<PathBuf, StoreError> {
    if dir.is_file() {
        return Err(StoreError::NotADirectory(dir.to_path_buf()));
    }
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let ids = run_ids(dir)?;
    let existing = ids.iter().find(|(id, _, _)| *id == meta.id);
    if let (Some(_), false) = (existing, replace) {
        return Err(StoreError::DuplicateRun {
            run: meta.id.clone(),
            path: dir.to_path_buf(),
        });
    }
    let next = ids.iter().map(|(_, s, _)| *s).max().unwrap_or(0) + 1;
    let seq = existing.map_or(next, |(_, s, _)| *s);
    let tmp = dir.join(format!(".part-{seq:08}-{}.tmp", std::process::id()));
    let written = write_part(
        &tmp,
        &RunMeta {
            seq,
            ..meta.clone()
        },
        rows,
    );
    let placed = written.and_then(|()| match existing {
        Some((_, _, path)) => std::fs::rename(&tmp, path)
            .map(|()| path.clone())
            .map_err(io(path)),
        None => link_new(dir, &tmp, seq),
    });
    // The aside copy goes whatever happened; a failed add leaves nothing.
    let _ = std::fs::remove_file(&tmp);
    let path = placed?;
    // The new name must survive a crash too: sync the directory.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(path)
}

/// Links `tmp` as the first free `part-N.parquet` from `seq` on: a hard
/// link never replaces a part another add placed at the same moment.
fn link_new(dir: &Path, tmp: &Path, mut seq: u64) -> Result<PathBuf, StoreError> {
    loop {
        let path = dir.join(format!("part-{seq:08}.parquet"));
        match std::fs::hard_link(tmp, &path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => seq += 1,
            // File systems without hard links: a rename to a free name.
            Err(_) if !path.exists() => {
                std::fs::rename(tmp, &path).map_err(io(&path))?;
                return Ok(path);
            }
            Err(e) => return Err(io(&path)(e)),
        }
    }
}

fn write_part(path: &Path, meta: &RunMeta, rows: &[Row]) -> Result<(), StoreError> {
    let frame = || -> anyhow::Result<DataFrame> {
        let mut df = dataset::to_dataframe(rows)?;
        let n = df.height();
        df.with_column(Column::new("run_id".into(), vec![meta.id.as_str(); n]))?;
        df.with_column(Column::new(
            "run_commit".into(),
            vec![meta.commit.as_deref(); n],
        ))?;
        df.with_column(Column::new("run_time".into(), vec![meta.time.as_str(); n]))?;
        df.with_column(Column::new("run_seq".into(), vec![meta.seq as i64; n]))?;
        Ok(df)
    };
    let mut df = frame().map_err(|source| StoreError::Part {
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

/// Bytes of every file in `dir`, by name: what "unchanged" means in tests.
#[doc(hidden)]
pub fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).unwrap_or_default())
        })
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows() -> Vec<Row> {
        let text = include_str!("../ingest/testdata/client-server-2.json");
        let mut rows =
            crate::ingest::fio_json::to_parsed(&crate::ingest::fio_json::parse(text).unwrap()).rows;
        for r in &mut rows {
            r.clat_bins = None;
            r.label = "cfg".into();
        }
        rows
    }

    fn meta(id: &str) -> RunMeta {
        RunMeta {
            id: id.into(),
            commit: Some("abc123".into()),
            time: "2026-12-01T08:30:00Z".into(),
            seq: 0,
        }
    }

    #[test]
    fn adds_read_back_in_order_and_duplicates_change_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let h = dir.path().join("history");
        add(&h, &meta("r1"), &rows(), false).unwrap();
        add(&h, &meta("r2"), &rows()[..1], false).unwrap();
        let before = snapshot(&h);
        assert_eq!(before.len(), 2);
        let err = add(&h, &meta("r1"), &rows(), false).unwrap_err();
        assert!(matches!(err, StoreError::DuplicateRun { .. }));
        assert!(err.to_string().contains("--replace"), "{err}");
        assert_eq!(snapshot(&h), before);
        let runs = read(&h).unwrap();
        let ids: Vec<&str> = runs.iter().map(|r| r.meta.id.as_str()).collect();
        assert_eq!(ids, ["r1", "r2"]);
        assert_eq!(runs[0].rows, rows());
        assert_eq!(runs[1].meta.commit.as_deref(), Some("abc123"));
        assert_eq!(runs[1].meta.seq, 2);
    }

    #[test]
    fn replace_keeps_the_place_of_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let h = dir.path().to_path_buf();
        add(&h, &meta("a"), &rows(), false).unwrap();
        add(&h, &meta("b"), &rows(), false).unwrap();
        add(&h, &meta("a"), &rows()[..1], true).unwrap();
        let runs = read(&h).unwrap();
        assert_eq!(runs[0].meta.id, "a");
        assert_eq!(runs[0].rows.len(), 1);
        assert_eq!(runs.len(), 2);
        // No aside copy is left behind.
        assert!(snapshot(&h).iter().all(|(n, _)| n.ends_with(".parquet")));
    }

    #[test]
    fn a_file_or_nothing_is_not_a_history() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("h.parquet");
        std::fs::write(&f, b"x").unwrap();
        assert!(matches!(read(&f), Err(StoreError::NotADirectory(_))));
        assert!(matches!(
            add(&f, &meta("a"), &rows(), false),
            Err(StoreError::NotADirectory(_))
        ));
        assert!(matches!(
            read(&dir.path().join("none")),
            Err(StoreError::Missing(_))
        ));
    }
}
