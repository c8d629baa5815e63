//! Adding a run to a history: the part it becomes
//! ([`store`](super::store)), then the merge of parts it may complete
//! ([`compact`](super::compact)), under one lock.

use std::path::{Path, PathBuf};

use super::compact::{Policy, compact_locked};
use super::store::{
    Damaged, Lock, Part, RunMeta, StoreError, StoredRun, io, place_new, replace_in, run_index,
};
use crate::model::Row;

/// What an add did: the part that holds the run, the damaged parts it
/// read past (their runs unseen: a run id there is not known to be
/// taken), and those its merge set aside in `.quarantine/`.
#[derive(Debug)]
pub struct Added {
    pub part: PathBuf,
    pub damaged: Vec<Damaged>,
    pub set_aside: Vec<(Damaged, PathBuf)>,
}

/// Adds a run to the history in `dir` (created when missing), then merges
/// parts as [`Policy::default`] says. A run id already there is
/// refused unless `replace`; then the part holding it is rewritten in one
/// rename and the run keeps its place in the order. A damaged part is
/// read past, never in the way.
pub fn add(dir: &Path, meta: &RunMeta, rows: &[Row], replace: bool) -> Result<Added, StoreError> {
    add_with(dir, meta, rows, replace, &Policy::default())
}

/// [`add`] with a merge policy of its own (tests use small ones).
pub fn add_with(
    dir: &Path,
    meta: &RunMeta,
    rows: &[Row],
    replace: bool,
    policy: &Policy,
) -> Result<Added, StoreError> {
    if dir.is_file() {
        return Err(StoreError::NotADirectory(dir.to_path_buf()));
    }
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let _lock = Lock::take_and_clean(dir)?;
    let index = run_index(dir)?;
    let run = |seq| StoredRun {
        meta: RunMeta {
            seq,
            ..meta.clone()
        },
        rows: rows.to_vec(),
    };
    let added = |part, set_aside| Added {
        part,
        damaged: index.damaged.clone(),
        set_aside,
    };
    match (index.runs.iter().find(|(m, _)| m.id == meta.id), replace) {
        (Some(_), false) => Err(StoreError::DuplicateRun {
            run: meta.id.clone(),
            path: dir.to_path_buf(),
        }),
        (Some((old, part)), true) => Ok(added(replace_in(dir, part, run(old.seq))?, Vec::new())),
        (None, _) => {
            let seq = place_new(dir, run(index.next_seq(dir)))?;
            let done = compact_locked(dir, policy).map_err(|e| StoreError::Merge {
                path: dir.to_path_buf(),
                source: Box::new(e),
            })?;
            let holder = done
                .parts
                .into_iter()
                .find(|p| (p.first..=p.last).contains(&seq));
            let part = holder.map_or_else(|| dir.join(Part::file_name(seq, seq)), |p| p.path);
            Ok(added(part, done.set_aside))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::store::tests::rows;
    use crate::history::store::{read, snapshot};

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
        // Each part has one checksum record, the replaced one's gone.
        let sums = std::fs::read_dir(&h)
            .unwrap()
            .filter(|e| {
                let e = e.as_ref().unwrap();
                e.file_name().to_string_lossy().contains(".crc32-")
            })
            .count();
        assert_eq!(sums, 2);
    }

    #[test]
    fn a_file_is_not_a_history() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("h.parquet");
        std::fs::write(&f, b"x").unwrap();
        assert!(matches!(
            add(&f, &meta("a"), &rows(), false),
            Err(StoreError::NotADirectory(_))
        ));
    }
}
