use super::*;
use crate::model::{Direction, Os};

/// A fio row of `source` that ended at `end_ms` after `runtime_ms` on
/// `filename`.
fn row(source: &str, end_ms: i64, runtime_ms: f64, filename: &str) -> Row {
    let mut r = Row::empty(source, Direction::Read);
    r.os = Os::Linux;
    r.timestamp_ms = Some(end_ms);
    r.timestamp = Some(end_ms / 1000);
    r.runtime_ms = runtime_ms;
    r.filename = Some(filename.to_string());
    r
}

fn marks(rows: &[Row]) -> Vec<(u32, Option<&str>)> {
    rows.iter()
        .map(|r| (r.instances, r.instance_group.as_deref()))
        .collect()
}

#[test]
fn files_that_ran_together_on_one_target_are_one_group() {
    // A latency probe and two throughput apps, started within a second,
    // 120 s each, on the same eight devices (the scheduler study's layout).
    let devs = "/dev/nvme2n1:/dev/nvme3n1";
    let mut rows = vec![
        row("t_index_1.txt", 1_000_120_500, 120_000.0, devs),
        row("l.txt", 1_000_121_700, 120_000.0, devs),
        row("t_index_0.txt", 1_000_120_200, 120_000.0, devs),
    ];
    let found = mark(&mut rows, Instances::Auto);
    assert_eq!(found, vec![("l.txt".to_string(), 3)]);
    assert!(marks(&rows).iter().all(|m| *m == (3, Some("l.txt"))));
}

#[test]
fn runs_one_after_another_stay_apart() {
    // The same job three times in a row, 2 s each, ended 2.1 s apart.
    let mut rows = vec![
        row("a.json", 10_000, 2_000.0, "/dev/nvme0n1"),
        row("b.json", 12_100, 2_000.0, "/dev/nvme0n1"),
        row("c.json", 14_200, 2_000.0, "/dev/nvme0n1"),
    ];
    assert!(mark(&mut rows, Instances::Auto).is_empty());
    assert!(marks(&rows).iter().all(|m| *m == (1, None)));
}

#[test]
fn an_overlap_under_half_the_shorter_run_is_not_together() {
    // b started 60 s into a's 100 s: 40 s shared, less than half of 100 s.
    let mut rows = vec![
        row("a.json", 100_000, 100_000.0, "/dev/sdb"),
        row("b.json", 160_000, 100_000.0, "/dev/sdb"),
    ];
    assert!(mark(&mut rows, Instances::Auto).is_empty());
    // 60 s shared is more than half: together.
    rows[1] = row("b.json", 140_000, 100_000.0, "/dev/sdb");
    assert_eq!(mark(&mut rows, Instances::Auto).len(), 1);
}

#[test]
fn other_targets_hosts_or_systems_are_not_together() {
    let base = || {
        vec![
            row("a.json", 100_000, 100_000.0, "/dev/nvme0n1"),
            row("b.json", 100_500, 100_000.0, "/dev/nvme1n1"),
        ]
    };
    // Different devices at the same time: two tests side by side, each its own.
    let mut rows = base();
    assert!(mark(&mut rows, Instances::Auto).is_empty());
    // Same device, other host.
    let mut rows = base();
    rows[1].filename = Some("/dev/nvme0n1".into());
    rows[1].host = Some("server2".into());
    assert!(mark(&mut rows, Instances::Auto).is_empty());
    // Same device, another folder (two setups run at the same hour).
    let mut rows = base();
    rows[1].filename = Some("/dev/nvme0n1".into());
    rows[1].source = "other/b.json".into();
    assert!(mark(&mut rows, Instances::Auto).is_empty());
    // Same device, other OS.
    let mut rows = base();
    rows[1].filename = Some("/dev/nvme0n1".into());
    rows[1].os = Os::Windows;
    assert!(mark(&mut rows, Instances::Auto).is_empty());
    // No target named: never guessed.
    let mut rows = base();
    rows[0].filename = None;
    rows[1].filename = None;
    assert!(mark(&mut rows, Instances::Auto).is_empty());
    // One device of a list in common is enough.
    let mut rows = base();
    rows[1].filename = Some("/dev/nvme1n1:/dev/nvme0n1".into());
    assert_eq!(mark(&mut rows, Instances::Auto).len(), 1);
}

#[test]
fn whole_second_timestamps_need_a_second_more_of_overlap() {
    // fio 2.x prints `timestamp` in seconds only: two 2 s runs back to
    // back may look 1 s apart; they are not together.
    let mut a = row("a.json", 0, 2_000.0, "/dev/sdb");
    let mut b = row("b.json", 0, 2_000.0, "/dev/sdb");
    (a.timestamp_ms, a.timestamp) = (None, Some(10));
    (b.timestamp_ms, b.timestamp) = (None, Some(11));
    let mut rows = vec![a, b];
    assert!(mark(&mut rows, Instances::Auto).is_empty());
    // Ending in the same second after 60 s each: together.
    rows[0].runtime_ms = 60_000.0;
    rows[1].runtime_ms = 60_000.0;
    rows[1].timestamp = Some(10);
    assert_eq!(mark(&mut rows, Instances::Auto).len(), 1);
}

#[test]
fn apart_marks_nothing_and_groups_chain_through_members() {
    let mut rows = vec![
        row("a.json", 100_000, 100_000.0, "/dev/sdb"),
        row("b.json", 100_000, 100_000.0, "/dev/sdb"),
    ];
    assert!(mark(&mut rows, Instances::Apart).is_empty());
    assert_eq!(marks(&rows), vec![(1, None), (1, None)]);
    // a with b, b with c (c on another device of b's list): one group of 3.
    rows[1].filename = Some("/dev/sdb:/dev/sdc".into());
    rows.push(row("c.json", 100_200, 100_000.0, "/dev/sdc"));
    let found = mark(&mut rows, Instances::Auto);
    assert_eq!(found, vec![("a.json".to_string(), 3)]);
}

#[test]
fn several_jobs_of_one_file_are_one_instance() {
    // Two rows (read and write) of one file count once.
    let mut rows = vec![
        row("a.json", 100_000, 100_000.0, "/dev/sdb"),
        row("a.json", 100_000, 100_000.0, "/dev/sdb"),
        row("b.json", 100_100, 100_000.0, "/dev/sdb"),
    ];
    rows[1].direction = Direction::Write;
    assert_eq!(
        mark(&mut rows, Instances::Auto),
        vec![("a.json".to_string(), 2)]
    );
    assert!(rows.iter().all(|r| r.instances == 2));
}

#[test]
fn parse_names_both_rules_and_the_fix() {
    assert_eq!(Instances::parse("auto"), Ok(Instances::Auto));
    assert_eq!(Instances::parse("Apart"), Ok(Instances::Apart));
    let e = Instances::parse("never").unwrap_err();
    assert!(e.contains("`never`") && e.contains("apart"), "{e}");
}

/// The components of `together` over every pair: what the sweep must find.
fn all_pairs(windows: &[ResultFile]) -> Vec<Vec<usize>> {
    let mut sets = Sets::new(windows.len());
    for i in 0..windows.len() {
        for j in 0..i {
            if together(&windows[i], &windows[j]) {
                sets.join(i, j);
            }
        }
    }
    let mut out: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..windows.len() {
        out.entry(sets.root(i)).or_default().push(i);
    }
    let mut out: Vec<Vec<usize>> = out.into_values().collect();
    out.sort();
    out
}

/// Windows from (folder, target set, start, length, whole seconds).
fn windows_of(specs: &[(u8, u8, u32, u32, bool)]) -> Vec<ResultFile<'static>> {
    const FOLDERS: [&str; 2] = ["a/x", "b/x"];
    const TARGETS: [&str; 3] = ["/dev/sdb", "/dev/sdc", "/dev/sdd"];
    specs
        .iter()
        .map(|&(folder, targets, start, len, seconds)| {
            let start_ms = f64::from(start);
            ResultFile {
                source: "x",
                folder: std::path::Path::new(FOLDERS[usize::from(folder % 2)]).parent(),
                folder_id: usize::from(folder % 2),
                start_ms,
                end_ms: start_ms + f64::from(len),
                slack_ms: if seconds { 1000.0 } else { 0.0 },
                os: "linux".into(),
                host: None,
                // Bits of `targets` pick the devices; none picks the first.
                targets: (0..3)
                    .filter(|b| targets & (1 << b) != 0 || targets % 8 == 0 && *b == 0)
                    .map(|b| TARGETS[b].to_string())
                    .collect(),
            }
        })
        .collect()
}

fn sorted(mut groups: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    groups.sort();
    groups
}

#[test]
fn the_sweep_groups_sorted_intervals_as_all_pairs_would() {
    // Nested, chained, just under and just over half, whole-second
    // timestamps, a short run inside the slack, two folders, a device list.
    let specs = [
        (0, 1, 0, 100_000, false),
        (0, 1, 60_000, 100_000, false), // 40 s of 100 shared: not with the first
        (0, 1, 40_000, 100_000, false), // 60 s with the first, 80 s with the second
        (0, 2, 10_000, 1_000, false),   // inside, but another device
        (0, 3, 10_500, 1_000, false),   // both devices: joins 0 and the one above
        (1, 1, 0, 100_000, false),      // same times, other folder
        (0, 1, 500_000, 3_000, true),   // short, whole seconds
        (0, 1, 500_500, 3_000, true),
        (0, 1, 900_000, 10_000, false),
        (0, 1, 905_000, 10_000, false), // exactly half: together
        (0, 1, 925_000, 10_000, false),
        (0, 1, 930_001, 10_000, false), // just under half
    ];
    let windows = windows_of(&specs);
    assert_eq!(sorted(groups(&windows)), all_pairs(&windows));
    let g = sorted(groups(&windows));
    // 1 with 0 through 2; 3 through 4, which names 0's device too; the
    // short whole-second runs share 2.5 s, under half once 2 s of slack
    // are taken off.
    assert_eq!(
        g,
        vec![
            vec![0, 1, 2, 3, 4],
            vec![5],
            vec![6],
            vec![7],
            vec![8, 9],
            vec![10],
            vec![11]
        ]
    );
}

#[test]
fn many_windows_on_one_target_are_one_group_found_in_one_pass() {
    // 20,000 windows on one device, each starting 1 ms after the one
    // before and running 60 s: every pair overlaps. All pairs would be
    // 200 million checks; the sweep meets one running component per start.
    let specs: Vec<_> = (0..20_000u32).map(|i| (0, 1, i, 60_000, false)).collect();
    let windows = windows_of(&specs);
    let g = groups(&windows);
    assert_eq!(g.len(), 1);
    assert_eq!(g[0].len(), 20_000);
}

/// Up to 40 files as (folder, target set, start, length, whole seconds):
/// what [`windows_of`] and [`rows_of`] draw.
fn file_specs() -> impl proptest::strategy::Strategy<Value = Vec<(u8, u8, u32, u32, bool)>> {
    proptest::collection::vec(
        (
            0u8..2,
            0u8..8,
            0u32..20_000,
            1u32..12_000,
            proptest::bool::ANY,
        ),
        0..40,
    )
}

proptest::proptest! {
    #[test]
    fn the_sweep_matches_all_pairs(
        specs in file_specs()
    ) {
        let windows = windows_of(&specs);
        proptest::prop_assert_eq!(sorted(groups(&windows)), all_pairs(&windows));
    }
}

/// Rows of one file each from (folder, target set, start, length, whole
/// seconds), as [`windows_of`] draws windows.
fn rows_of(specs: &[(u8, u8, u32, u32, bool)]) -> Vec<Row> {
    const TARGETS: [&str; 3] = ["/dev/sdb", "/dev/sdc", "/dev/sdd"];
    specs
        .iter()
        .enumerate()
        .map(|(i, &(folder, targets, start, len, seconds))| {
            let end = i64::from(start) + i64::from(len);
            let devices: Vec<&str> = (0..3)
                .filter(|b| targets & (1 << b) != 0 || targets % 8 == 0 && *b == 0)
                .map(|b| TARGETS[b])
                .collect();
            let mut r = row(
                &format!("{}/f{i}.json", ["a", "b"][usize::from(folder % 2)]),
                end,
                f64::from(len),
                &devices.join(":"),
            );
            if seconds {
                r.timestamp_ms = None;
            }
            r
        })
        .collect()
}

proptest::proptest! {
    #[test]
    fn files_the_prefilter_leaves_out_run_with_no_other(
        specs in file_specs()
    ) {
        let rows = rows_of(&specs);
        let open = may_overlap(&rows);
        let all: Vec<ResultFile> = rows
            .iter()
            .filter_map(|r| window(&r.source, &[r]))
            .collect();
        for a in &all {
            for b in &all {
                if a.source != b.source && together(a, b) {
                    proptest::prop_assert!(open.contains(a.source) && open.contains(b.source));
                }
            }
        }
    }
}

#[test]
fn an_archive_of_runs_one_after_another_builds_no_window() {
    // 1,000 files on one device, each ending 10 s after the one before.
    let rows: Vec<Row> = (0..1_000i64)
        .map(|i| {
            row(
                &format!("lab/r{i}.json"),
                1_000_000 + i * 12_000,
                2_000.0,
                "/dev/sdb",
            )
        })
        .collect();
    assert!(may_overlap(&rows).is_empty());
    assert!(windows(&rows).is_empty());
    // Rows of one file that are not consecutive still meet each other.
    let mut split = rows[..2].to_vec();
    split.push(rows[0].clone());
    let open = may_overlap(&split);
    assert!(open.contains("lab/r0.json") && !open.contains("lab/r1.json"));
}
