use super::*;
use crate::history::add_with;
use crate::history::store::tests::rows;
use crate::history::store::{RunMeta, layout, read, snapshot};
use std::path::Path;

fn meta(id: &str) -> RunMeta {
    RunMeta {
        id: id.into(),
        commit: Some(format!("c-{id}")),
        time: "2026-12-01T08:30:00Z".into(),
        seq: 0,
    }
}

const PAIRS: Policy = Policy {
    fanin: 2,
    max_tier: 2,
};

fn ids(dir: &Path) -> Vec<String> {
    read(dir).unwrap().into_iter().map(|r| r.meta.id).collect()
}

fn spans(dir: &Path) -> Vec<(u64, u64)> {
    layout(dir)
        .unwrap()
        .live
        .iter()
        .map(|p| (p.first, p.last))
        .collect()
}

/// A history of `n` runs `r1`.. added one by one under `policy`.
fn history(dir: &Path, n: usize, policy: &Policy) {
    for i in 1..=n {
        add_with(dir, &meta(&format!("r{i}")), &rows(), false, policy).unwrap();
    }
}

#[test]
fn adds_merge_into_the_layout_the_policy_predicts() {
    let dir = tempfile::tempdir().unwrap();
    history(dir.path(), 11, &PAIRS);
    // 11 = 4 + 4 + 2 + 1: tier 2 is the highest a merge makes.
    assert_eq!(PAIRS.layout(11), [(1, 4), (5, 8), (9, 10), (11, 11)]);
    assert_eq!(spans(dir.path()), PAIRS.layout(11));
    let expected: Vec<String> = (1..=11).map(|i| format!("r{i}")).collect();
    assert_eq!(ids(dir.path()), expected);
    let runs = read(dir.path()).unwrap();
    assert!(runs.iter().all(|r| r.rows == rows()));
    assert_eq!(runs[6].meta.commit.as_deref(), Some("c-r7"));
    assert_eq!(runs[6].meta.seq, 7);
    // Nothing but the parts is left: no aside copies, no merged-away parts.
    let names: Vec<String> = snapshot(dir.path()).into_iter().map(|f| f.0).collect();
    assert_eq!(
        names,
        [
            "part-00000001-00000004.parquet",
            "part-00000005-00000008.parquet",
            "part-00000009-00000010.parquet",
            "part-00000011.parquet"
        ]
    );
}

#[test]
fn the_default_policy_keeps_100k_runs_in_few_parts() {
    let parts = Policy::default().layout(100_000);
    assert!(parts.len() < 80, "{} parts", parts.len());
    // Every run in exactly one part, in order.
    let mut next = 1;
    for (a, b) in &parts {
        assert_eq!(*a, next);
        assert!(b - a < 4096);
        next = b + 1;
    }
    assert_eq!(next, 100_001);
}

#[test]
fn an_interrupted_merge_shows_every_run_once_and_is_finished_later() {
    let dir = tempfile::tempdir().unwrap();
    let h = dir.path();
    let never = Policy {
        fanin: 1000,
        max_tier: 1,
    };
    history(h, 3, &never);
    let before = read(h).unwrap();
    // Killed after the merged part was renamed into place, before the
    // parts it replaces were removed.
    let live = layout(h).unwrap().live;
    place_merged(&h.into(), &live[..2]).unwrap();
    assert_eq!(snapshot(h).len(), 4);
    let after = read(h).unwrap();
    assert_eq!(
        after.iter().map(|r| &r.meta).collect::<Vec<_>>(),
        before.iter().map(|r| &r.meta).collect::<Vec<_>>()
    );
    assert_eq!(layout(h).unwrap().stale.len(), 2);
    // Killed while writing aside: a temporary file no reader takes.
    std::fs::write(h.join(".part-00000001-00000003-1.tmp"), b"half").unwrap();
    assert_eq!(ids(h), ["r1", "r2", "r3"]);
    // The next add finishes the job.
    add_with(h, &meta("r4"), &rows(), false, &never).unwrap();
    assert!(layout(h).unwrap().stale.is_empty());
    assert_eq!(spans(h), [(1, 2), (3, 3), (4, 4)]);
    assert_eq!(ids(h), ["r1", "r2", "r3", "r4"]);
}

#[test]
fn replace_and_duplicates_reach_into_merged_parts() {
    let dir = tempfile::tempdir().unwrap();
    let h = dir.path();
    history(h, 4, &PAIRS);
    assert_eq!(spans(h), [(1, 4)]);
    let err = add_with(h, &meta("r2"), &rows(), false, &PAIRS).unwrap_err();
    assert!(matches!(err, StoreError::DuplicateRun { .. }), "{err}");
    let one = &rows()[..1];
    let part = add_with(h, &meta("r2"), one, true, &PAIRS).unwrap().part;
    assert!(part.ends_with("part-00000001-00000004.parquet"), "{part:?}");
    let runs = read(h).unwrap();
    assert_eq!(ids(h), ["r1", "r2", "r3", "r4"]);
    assert_eq!(runs[1].rows, one);
    assert_eq!(runs[2].rows, rows());
}

#[test]
fn overlapping_parts_are_an_error_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    let h = dir.path();
    history(h, 4, &PAIRS);
    std::fs::copy(
        h.join("part-00000001-00000004.parquet"),
        h.join("part-00000003-00000006.parquet"),
    )
    .unwrap();
    let err = read(h).unwrap_err().to_string();
    assert!(err.contains("part-00000001-00000004.parquet"), "{err}");
    assert!(err.contains("part-00000003-00000006.parquet"), "{err}");
}

#[test]
fn compact_merges_a_history_of_lone_parts() {
    let dir = tempfile::tempdir().unwrap();
    let h = dir.path();
    let never = Policy {
        fanin: 1000,
        max_tier: 1,
    };
    history(h, 5, &never);
    assert_eq!(spans(h).len(), 5);
    let left = compact(h, &PAIRS).unwrap();
    assert_eq!(left.parts.len(), 2);
    assert!(left.set_aside.is_empty());
    assert_eq!(spans(h), [(1, 4), (5, 5)]);
    assert_eq!(ids(h), ["r1", "r2", "r3", "r4", "r5"]);
    // Compacting again changes nothing.
    let before = snapshot(h);
    compact(h, &PAIRS).unwrap();
    assert_eq!(snapshot(h), before);
}

#[test]
fn adds_at_the_same_time_wait_for_each_other() {
    // Eight CI jobs adding to one history at once, merging in pairs: each
    // merge reads the layout another add may be changing, unless adds
    // take turns.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("h");
    std::fs::create_dir(&dir).unwrap();
    std::thread::scope(|s| {
        for i in 1..=8 {
            let dir = &dir;
            s.spawn(move || {
                add_with(dir, &meta(&format!("r{i}")), &rows(), false, &PAIRS).unwrap()
            });
        }
    });
    let mut got = ids(&dir);
    got.sort();
    let mut want: Vec<String> = (1..=8).map(|i| format!("r{i}")).collect();
    want.sort();
    assert_eq!(got, want);
    // Pairs of pairs: 8 runs are two parts of 4 (max_tier 2), no overlap.
    assert_eq!(spans(&dir), vec![(1, 4), (5, 8)]);
}

/// The same race with no lock at all: adds and compactions on a bucket
/// (object_store's in-memory store, which honours create-if-absent as S3
/// does), merging in pairs so merges retire parts under the adds' feet.
/// Every add that returned is read once; two adds of one id: one wins.
#[test]
fn adds_and_merges_on_a_bucket_with_no_lock_lose_and_double_nothing() {
    use crate::history::store::{Store, StoreError, read};
    let mem: std::sync::Arc<dyn object_store::ObjectStore> =
        std::sync::Arc::new(object_store::memory::InMemory::new());
    for round in 0..4 {
        // Each writer its own client, as each process has.
        let open = || Store::bucket(mem.clone(), &format!("round-{round}"), "mem://h");
        let store = open();
        let results: Vec<Result<_, StoreError>> = std::thread::scope(|s| {
            let adds: Vec<_> = (1..=10)
                .map(|i| {
                    let store = open();
                    // Runs 9 and 10 share an id: one of the two must lose.
                    let id = format!("r{}", i.min(9));
                    s.spawn(move || add_with(&store, &meta(&id), &rows(), false, &PAIRS))
                })
                .collect();
            let store = open();
            s.spawn(move || {
                for _ in 0..6 {
                    let _ = compact(&store, &PAIRS);
                }
            });
            adds.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let lost: Vec<_> = results.iter().filter(|r| r.is_err()).collect();
        assert_eq!(lost.len(), 1, "{results:?}");
        assert!(
            matches!(lost[0], Err(StoreError::DuplicateRun { run, .. }) if run == "r9"),
            "{lost:?}"
        );
        let mut got: Vec<String> = read(&store)
            .unwrap()
            .into_iter()
            .map(|r| r.meta.id)
            .collect();
        got.sort();
        let mut want: Vec<String> = (1..=9).map(|i| format!("r{i}")).collect();
        want.sort();
        assert_eq!(got, want, "round {round}");
    }
}
