//! Adding a run to a history: the part it becomes
//! ([`store`](super::store)), then the merge of parts it may complete
//! ([`compact`](super::compact)). No lock is needed: the part is created
//! only under a free name, then checked to be read (not covered by a
//! merge placed meanwhile, and the first part of its run id);
//! docs/architecture.md says why that is enough. A folder's adds also
//! take its lock, so one machine's adds take turns as they always have.

use std::collections::HashSet;
use std::path::PathBuf;

use super::compact::{Policy, compact_locked};
use super::store::{
    self, Damaged, Part, PartLayout, RunIndex, RunMeta, Store, StoreError, StoredRun, create_lone,
    encode, layout, replace_in, run_index, run_index_of,
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

/// Adds a run to the history (a folder is created when missing), then
/// merges parts as [`Policy::default`] says. A run id already there is
/// refused unless `replace`; then the part holding it is rewritten whole
/// and the run keeps its place in the order. A damaged part is read
/// past, never in the way.
pub fn add(
    history: impl Into<Store>,
    meta: &RunMeta,
    rows: &[Row],
    replace: bool,
) -> Result<Added, StoreError> {
    add_with(history, meta, rows, replace, &Policy::default())
}

/// [`add`] with a merge policy of its own (tests use small ones).
pub fn add_with(
    history: impl Into<Store>,
    meta: &RunMeta,
    rows: &[Row],
    replace: bool,
    policy: &Policy,
) -> Result<Added, StoreError> {
    let store = history.into();
    store.objects().prepare()?;
    let _lock = store::lock(&store)?;
    let index = run_index(&store)?;
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
        (Some(_), false) => Err(duplicate(&store, &meta.id)),
        (Some((old, part)), true) => Ok(added(replace_in(&store, part, run(old.seq))?, Vec::new())),
        (None, _) => {
            let first = index.next_seq(&store);
            let name = Part::file_name(first, first);
            let (bytes, crc) = encode(&store.objects().locate(&name), vec![run(first)])?;
            let seq = place_read(&store, &index, &meta.id, &bytes, crc, first)?;
            let done = compact_locked(&store, policy).map_err(|e| StoreError::Merge {
                path: PathBuf::from(store.shown()),
                source: Box::new(e),
            })?;
            let holder = done
                .parts
                .into_iter()
                .find(|p| (p.first..=p.last).contains(&seq));
            let part = holder.map_or_else(
                || store.objects().locate(&Part::file_name(seq, seq)),
                |p| p.path,
            );
            Ok(added(part, done.set_aside))
        }
    }
}

fn duplicate(store: &Store, id: &str) -> StoreError {
    StoreError::DuplicateRun {
        run: id.to_string(),
        path: PathBuf::from(store.shown()),
    }
}

/// Creates the lone part of run `id` (`bytes`, CRC-32 `crc`) at the
/// first free number from `first` on, then makes sure readers take it:
///
/// - a merge another writer placed since `index` was read may cover the
///   number: if it took our part in, well; if not (the name was free
///   again because that merge had retired the part that had it before we
///   took it), the part is created again past every part, and the
///   covered copy removed;
/// - another add of the same id may have raced this one: the lower
///   number wins (readers take a run id's first part), so a rival below
///   ours means this add lost, and says so. Its part stays, read by no
///   one, until a merge drops it.
///
/// Returns the run's number.
fn place_read(
    store: &Store,
    index: &RunIndex,
    id: &str,
    bytes: &[u8],
    crc: u32,
    first: u64,
) -> Result<u64, StoreError> {
    let known: HashSet<String> = index.runs.iter().map(|(_, p)| p.name()).collect();
    let mut seq = create_lone(store, bytes, crc, first)?;
    loop {
        let now = layout(store)?;
        let mine = Part::file_name(seq, seq);
        // Not live: covered by a merge (and, maybe, already removed as
        // stale by another writer's compaction).
        let live = now.live.iter().any(|p| p.name() == mine);
        if !live && !merged_in(store, &now, id, seq)? {
            let past = now.live.iter().chain(&now.stale).map(|p| p.last).max();
            let moved = create_lone(store, bytes, crc, past.unwrap_or(seq) + 1)?;
            store.objects().delete(&mine, &[crc])?;
            seq = moved;
            continue;
        }
        let new: Vec<Part> = now
            .live
            .into_iter()
            .filter(|p| p.first < seq && !known.contains(&p.name()))
            .collect();
        let rivals = run_index_of(store, new)?.runs;
        if rivals.iter().any(|(m, _)| m.id == id && m.seq < seq) {
            return Err(duplicate(store, id));
        }
        return Ok(seq);
    }
}

/// Whether the live part that covers number `seq` holds run `id` at that
/// number: a merge took our part in (fine), rather than covering a name
/// it had retired before we took it again (we must move).
fn merged_in(store: &Store, now: &PartLayout, id: &str, seq: u64) -> Result<bool, StoreError> {
    let covering: Vec<Part> = now
        .live
        .iter()
        .filter(|p| (p.first..=p.last).contains(&seq))
        .cloned()
        .collect();
    let runs = run_index_of(store, covering)?.runs;
    Ok(runs.iter().any(|(m, _)| m.id == id && m.seq == seq))
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
