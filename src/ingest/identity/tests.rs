use super::*;
use crate::model::Direction;

#[test]
fn versions_are_one_word_and_extensions_no_part_of_a_name() {
    assert_eq!(
        tokens("kernel-5.4.0-ext4-default-benchmark"),
        ["kernel-5.4.0", "ext4", "default", "benchmark"]
    );
    assert_eq!(tokens("kernel-6.8_xfs"), ["kernel-6.8", "xfs"]);
    assert_eq!(tokens("kernel5.4-xfs"), ["kernel5.4", "xfs"]);
    // A version's last part may end in letters (DiskSpd's 2.0.21a).
    assert_eq!(tokens("v2.0.21a-text"), ["v2.0.21a", "text"]);
    assert_eq!(
        tokens("randread-4k.json-normal"),
        ["randread", "4k", "json", "normal"]
    );
    // A date stays a date, not a word's version.
    assert_eq!(tokens("run-2024.01.05"), ["run", "2024.01.05"]);
    assert_eq!(
        tokens("nvme2n1_overwrite-seq_4Ki_queue-depth-8"),
        ["nvme2n1", "overwrite", "seq", "4Ki", "queue", "depth", "8"]
    );
    assert_eq!(
        stem("a/b/kernel-5.4.0-ext4-default-benchmark.json"),
        "kernel-5.4.0-ext4-default-benchmark"
    );
    assert_eq!(stem("loop1.txt"), "loop1");
    assert_eq!(
        stem("x\\randread-4k.json-normal.txt"),
        "randread-4k.json-normal"
    );
    assert_eq!(stem("fio-3.33.json"), "fio-3.33");
    // Versioned words differ; numbers alone do not.
    assert!(!same_but_repeats("kernel-5.4-xfs", "kernel-6.8-xfs"));
    assert!(same_but_repeats("loop1", "loop2"));
    assert!(same_but_repeats("ext4-run1", "ext4-run2"));
    assert!(same_but_repeats("ext4-2024.01.05", "ext4-2024.01.07"));
}

fn row(folder: &str, source: &str, job: &str, rw: &str) -> Row {
    let mut r = Row::empty(source, Direction::Read);
    r.config = folder.into();
    r.job = job.into();
    r.rw = rw.into();
    r
}

/// The keys of rows grouped by rw alone (one option set), as names.
fn keys_of(rows: &[Row]) -> Vec<Option<String>> {
    let mut groups: Vec<String> = Vec::new();
    let g: Vec<Option<(usize, usize)>> = rows
        .iter()
        .map(|r| {
            let at = groups.iter().position(|x| *x == r.rw).unwrap_or_else(|| {
                groups.push(r.rw.clone());
                groups.len() - 1
            });
            Some((at, at))
        })
        .collect();
    let folders: Vec<&str> = rows.iter().map(|r| r.config.as_str()).collect();
    let k = name_keys(rows, &g, &folders, &Repeats::default());
    k.key_of_row
        .iter()
        .map(|id| id.map(|id| k.names[id as usize].clone()))
        .collect()
}

#[test]
fn file_names_tell_configs_and_roles_follow_them() {
    let mut rows = Vec::new();
    for cfg in [
        "raw-block",
        "kernel-5.4.0-ext4-default",
        "kernel-5.4.0-xfs-default",
    ] {
        for job in ["read-rand-iops", "write-seq-lat"] {
            rows.push(row("fs", &format!("fs/{cfg}-benchmark.json"), job, job));
        }
        rows.push(row("fs", &format!("fs/{cfg}-cpu.json"), "cpu", "randrw"));
    }
    let keys = keys_of(&rows);
    let names: Vec<&str> = keys.iter().map(|k| k.as_deref().unwrap()).collect();
    assert_eq!(
        names,
        [
            "raw-block",
            "raw-block",
            "raw-block",
            "ext4",
            "ext4",
            "ext4",
            "xfs",
            "xfs",
            "xfs"
        ]
    );
    let g: Vec<Option<(usize, usize)>> = rows.iter().map(|r| Some((r.rw.len(), 0))).collect();
    let folders: Vec<&str> = rows.iter().map(|r| r.config.as_str()).collect();
    let words = &name_keys(&rows, &g, &folders, &Repeats::default()).folders["fs"];
    assert_eq!(words.roles, ["benchmark", "cpu"]);
}

#[test]
fn repeats_and_workload_words_tell_no_configs() {
    let rows = [
        row("s", "s/ssd-run1.json", "randread-4k-qd32", "randread"),
        row("s", "s/ssd-run2.json", "randread-4k-qd32", "randread"),
        row(
            "s",
            "s/ssd-2024.01.05-pm.json",
            "randread-4k-qd32",
            "randread",
        ),
    ];
    assert_eq!(keys_of(&rows), [None, None, None]);
}

#[test]
fn versioned_words_and_job_names_tell_configs() {
    let rows = [
        row("k", "k/kernel-5.4-xfs.json", "j", "randread"),
        row("k", "k/kernel-6.8-xfs.json", "j", "randread"),
        row("j", "j/all.json", "ext4-randread", "randread"),
        row("j", "j/all.json", "xfs-randread", "randread"),
    ];
    let keys = keys_of(&rows);
    assert_eq!(
        keys,
        [
            Some("kernel-5.4".into()),
            Some("kernel-6.8".into()),
            Some("ext4".into()),
            Some("xfs".into())
        ]
    );
}
