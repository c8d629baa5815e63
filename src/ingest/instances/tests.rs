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
