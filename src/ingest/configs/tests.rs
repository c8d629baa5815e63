use super::*;
use crate::model::Direction;

/// A run of `folder/file` with these fio options at `numjobs`.
fn run(folder: &str, file: &str, numjobs: u32, opts: &[(&str, &str)]) -> Row {
    let mut r = Row::empty(&format!("{folder}/{file}"), Direction::Read);
    r.config = folder.into();
    r.rw = "randread".into();
    r.bs_bytes = 4096;
    r.iodepth = 128;
    r.numjobs = numjobs;
    r.engine = opts
        .iter()
        .find(|(k, _)| *k == "ioengine")
        .map_or("psync", |(_, v)| v)
        .into();
    let map: BTreeMap<&str, &str> = opts.iter().copied().collect();
    r.options = Some(serde_json::to_string(&map).unwrap().into());
    r
}

fn labels(rows: &[Row]) -> Vec<&str> {
    rows.iter().map(|r| r.config.as_str()).collect()
}

#[test]
fn one_option_varying_splits_the_folder_by_it() {
    let mut rows = Vec::new();
    for jobs in [1, 2] {
        for sched in ["bfq", "none"] {
            rows.push(run(
                "out",
                &format!("p{jobs}_{sched}.txt"),
                jobs,
                &[
                    ("ioengine", "io_uring"),
                    ("ioscheduler", sched),
                    ("runtime", "60"),
                ],
            ));
        }
    }
    let rule = assign(&mut rows, &ConfigNaming::Auto);
    assert_eq!(
        labels(&rows),
        [
            "ioscheduler=bfq",
            "ioscheduler=none",
            "ioscheduler=bfq",
            "ioscheduler=none"
        ]
    );
    assert_eq!(rule.rule, "auto");
    assert_eq!(rule.keys, ["ioscheduler"]);
    assert_eq!(rule.split_folders, ["out"]);
    assert_eq!(
        rule.values["ioscheduler=none"]["ioscheduler"].as_deref(),
        Some("none")
    );
}

#[test]
fn two_options_varying_name_each_config_by_what_sets_it_apart() {
    let mut rows = vec![
        run(
            "f",
            "a",
            4,
            &[
                ("ioengine", "io_uring"),
                ("ioscheduler", "bfq"),
                ("fixedbufs", "1"),
            ],
        ),
        run(
            "f",
            "b",
            4,
            &[
                ("ioengine", "io_uring"),
                ("ioscheduler", "kyber"),
                ("fixedbufs", "1"),
            ],
        ),
        run(
            "f",
            "c",
            4,
            &[("ioengine", "spdk"), ("thread", "1"), ("hipri", "")],
        ),
    ];
    let rule = assign(&mut rows, &ConfigNaming::Auto);
    assert_eq!(
        labels(&rows),
        ["ioscheduler=bfq", "ioscheduler=kyber", "ioengine=spdk"]
    );
    // Every option that differs is a key, in naming order.
    // `thread` (threads or processes) is how fio runs jobs, never a key.
    assert_eq!(rule.keys, ["ioengine", "ioscheduler", "hipri", "fixedbufs"]);
    assert_eq!(rule.values["ioengine=spdk"]["ioscheduler"], None);
}

#[test]
fn an_option_varying_with_the_load_splits_nothing() {
    // A batch size set to the depth: one value per load point.
    let mut rows: Vec<Row> = [1, 2, 4, 8]
        .into_iter()
        .map(|qd| {
            let mut r = run("sweep", &format!("qd{qd}"), 1, &[("ioengine", "libaio")]);
            r.iodepth = qd;
            let batch = qd.to_string();
            r.options = Some(
                serde_json::json!({"ioengine": "libaio", "iodepth_batch_submit": batch})
                    .to_string()
                    .into(),
            );
            r
        })
        .collect();
    let rule = assign(&mut rows, &ConfigNaming::Auto);
    assert!(labels(&rows).iter().all(|l| *l == "sweep"));
    assert!(rule.keys.is_empty());
    assert_eq!(rule.sentence(), None);
}

#[test]
fn repeated_runs_with_their_own_logs_stay_one_config() {
    let mut rows: Vec<Row> = (0..3)
        .map(|i| {
            let log = format!("run{i}");
            run(
                "rep",
                &format!("r{i}"),
                1,
                &[("write_bw_log", &log), ("randseed", &log)],
            )
        })
        .collect();
    assign(&mut rows, &ConfigNaming::Auto);
    assert!(labels(&rows).iter().all(|l| *l == "rep"));
}

#[test]
fn jobs_of_one_file_on_their_own_devices_are_one_run() {
    // Per-job filenames inside one file: a multi-device run, not configs.
    let mut rows = Vec::new();
    for file in ["a", "b"] {
        for dev in ["/dev/nvme0n1", "/dev/nvme1n1"] {
            let mut r = run("multi", file, 1, &[("filename", dev)]);
            r.filename = Some(dev.into());
            rows.push(r);
        }
    }
    let rule = assign(&mut rows, &ConfigNaming::Auto);
    assert!(
        labels(&rows).iter().all(|l| *l == "multi"),
        "{:?}",
        labels(&rows)
    );
    assert!(rule.keys.is_empty());
}

#[test]
fn device_count_is_a_load_axis_not_a_config() {
    // filename grows with the number of devices: one value per count.
    let mut rows: Vec<Row> = (1..=3)
        .map(|n| {
            let f = (0..n)
                .map(|i| format!("/dev/nvme{i}n1"))
                .collect::<Vec<_>>()
                .join(":");
            let mut r = run("scale", &format!("dev{n}"), 1, &[("filename", &f)]);
            r.filename = Some(f);
            r
        })
        .collect();
    assign(&mut rows, &ConfigNaming::Auto);
    assert!(labels(&rows).iter().all(|l| *l == "scale"));
    let mut r = Row::empty("x", Direction::Read);
    assert_eq!(r.devices(), 1);
    r.filename = Some("/dev/a:/dev/b:".into());
    assert_eq!(r.devices(), 2);
    r.filename = Some("C\\:\\file".into());
    assert_eq!(r.devices(), 1);
    r.filename = Some("D:\\t.dat:E:\\u.dat".into());
    assert_eq!(r.devices(), 2);
    r.tool = "diskspd".into();
    r.filename = Some("/dev/a:/dev/b".into());
    assert_eq!(r.devices(), 1);
}

#[test]
fn folders_without_differences_keep_their_names_and_split_ones_are_prefixed() {
    let mut rows = vec![
        run("windows", "a", 1, &[("ioengine", "windowsaio")]),
        run("linux", "a", 1, &[("ioengine", "libaio")]),
        run("sched", "a", 1, &[("ioscheduler", "bfq")]),
        run("sched", "b", 1, &[("ioscheduler", "none")]),
    ];
    let rule = assign(&mut rows, &ConfigNaming::Auto);
    assert_eq!(
        labels(&rows),
        [
            "windows",
            "linux",
            "sched ioscheduler=bfq",
            "sched ioscheduler=none"
        ]
    );
    assert_eq!(rule.split_folders, ["sched"]);
}

#[test]
fn folder_rule_and_given_keys() {
    let make = || {
        vec![
            run(
                "f",
                "a",
                1,
                &[("ioscheduler", "bfq"), ("ioengine", "io_uring")],
            ),
            run(
                "f",
                "b",
                1,
                &[("ioscheduler", "none"), ("ioengine", "io_uring")],
            ),
        ]
    };
    let mut rows = make();
    let rule = assign(&mut rows, &ConfigNaming::Dir);
    assert_eq!(labels(&rows), ["f", "f"]);
    assert_eq!(rule.rule, "folder");

    let mut rows = make();
    let by = ConfigNaming::parse("folder,ioengine").unwrap();
    let rule = assign(&mut rows, &by);
    assert_eq!(
        labels(&rows),
        ["f, ioengine=io_uring", "f, ioengine=io_uring"]
    );
    assert_eq!(rule.keys, ["folder", "ioengine"]);

    let mut rows = make();
    assign(
        &mut rows,
        &ConfigNaming::parse("ioscheduler,numjobs").unwrap(),
    );
    assert_eq!(
        labels(&rows),
        [
            "ioscheduler=bfq, numjobs=unset",
            "ioscheduler=none, numjobs=unset"
        ]
    );
}

#[test]
fn label_by_parses_rules_and_option_lists() {
    assert_eq!(ConfigNaming::parse("auto"), Ok(ConfigNaming::Auto));
    assert_eq!(ConfigNaming::parse("dir"), Ok(ConfigNaming::Dir));
    assert_eq!(ConfigNaming::parse("folder"), Ok(ConfigNaming::Dir));
    assert_eq!(
        ConfigNaming::parse("ioscheduler, ioengine"),
        Ok(ConfigNaming::Keys(vec![
            "ioscheduler".into(),
            "ioengine".into()
        ]))
    );
    assert!(ConfigNaming::parse(",").is_err());
    assert!(ConfigNaming::parse("a b").unwrap_err().contains("`a b`"));
}

#[test]
fn a_flag_names_itself_and_configs_alike_but_for_unset_options_get_every_key() {
    let mut rows = vec![
        run("f", "a", 1, &[("ioengine", "io_uring"), ("hipri", "")]),
        run("f", "b", 1, &[("ioengine", "io_uring")]),
        run("f", "c", 1, &[("ioengine", "libaio")]),
    ];
    assign(&mut rows, &ConfigNaming::Auto);
    // `hipri` alone tells a apart; b is the only other io_uring, and a
    // name of `ioengine=io_uring` would not say it lacks hipri: that name
    // is still unique, so it stands.
    assert_eq!(
        labels(&rows),
        ["hipri", "ioengine=io_uring", "ioengine=libaio"]
    );
    // Nothing set tells the first apart: every key, unset ones named.
    let two = [
        vec![Some("x".to_string()), None],
        vec![Some("x".to_string()), Some("y".to_string())],
    ];
    let refs: Vec<&Vec<Option<String>>> = two.iter().collect();
    let names = unique_names(&["a".into(), "b".into()], &refs);
    assert_eq!(names, ["a=x, b=unset", "b=y"]);
}

#[test]
fn files_alike_in_every_option_but_named_apart_are_a_note_or_configs_by_name() {
    let make = || {
        let mut rows = Vec::new();
        for jobs in [1, 2] {
            for stack in ["iou_c_t", "iou_t"] {
                rows.push(run(
                    "results",
                    &format!("{stack}_{jobs}.txt"),
                    jobs,
                    &[("ioengine", "io_uring")],
                ));
            }
            // Repeats named by number share a stem: never a split.
            rows.push(run(
                "results",
                &format!("aio_t_{jobs}.txt"),
                jobs,
                &[("ioengine", "libaio")],
            ));
            rows.push(run(
                "results",
                &format!("aio_t_{jobs}.json"),
                jobs,
                &[("ioengine", "libaio")],
            ));
        }
        rows
    };
    let mut rows = make();
    let rule = assign(&mut rows, &ConfigNaming::Auto);
    assert_eq!(
        labels(&rows)[..4],
        [
            "ioengine=io_uring",
            "ioengine=io_uring",
            "ioengine=libaio",
            "ioengine=libaio"
        ]
    );
    // Alike in every option, named apart: variants of each workload, named
    // by their whole names less numbers (`c` alone would not read).
    assert_eq!(rule.notes.len(), 1);
    assert!(
        rule.notes[0].contains("differ only in their names (iou_c_t, iou_t)"),
        "{}",
        rule.notes[0]
    );
    assert!(rule.notes[0].contains("--label-by name"));
    assert_eq!(rows[0].variant.as_deref(), Some("iou_c_t"));
    assert_eq!(rows[1].variant.as_deref(), Some("iou_t"));
    // Repeats named by number (aio_t_N.txt and .json) are no variants.
    assert_eq!(rows[2].variant, None);

    let mut rows = make();
    let rule = assign(&mut rows, &ConfigNaming::Name);
    assert_eq!(
        labels(&rows)[..4],
        ["iou_c_t", "iou_t", "ioengine=libaio", "ioengine=libaio"]
    );
    assert_eq!(rule.keys, ["ioengine", NAME_KEY]);
    assert!(rule.notes.is_empty());
}

/// Two runs (numjobs 1 and 2) of a script log `folder/file` with these
/// header facts.
fn log(folder: &str, file: &str, facts: &[(&str, &str)]) -> Vec<Row> {
    let map: BTreeMap<&str, &str> = facts.iter().copied().collect();
    (1..=2)
        .map(|n| {
            let mut r = run(folder, file, n, &[]);
            r.options = None;
            r.file_run = Some(n);
            r.setup_facts = (!map.is_empty()).then(|| serde_json::to_string(&map).unwrap());
            r
        })
        .collect()
}

#[test]
fn script_logs_of_one_folder_are_configs_by_header_or_file_name() {
    // A header every file sets apart names them, NAME keys first.
    let mut rows = log("out", "a.txt", &[("TEST_NAME", "9p-none"), ("HOST", "h1")]);
    rows.extend(log(
        "out",
        "b.txt",
        &[("TEST_NAME", "virtiofs"), ("HOST", "h2")],
    ));
    let rule = assign(&mut rows, &ConfigNaming::Auto);
    assert_eq!(
        labels(&rows),
        ["9p-none", "9p-none", "virtiofs", "virtiofs"]
    );
    assert_eq!(
        (rule.keys, rule.file_configs),
        (vec!["TEST_NAME".to_string()], vec!["out".to_string()])
    );
    // Else the file names, where they differ but for their digits.
    let mut rows = log("out", "9p-none.txt", &[("LOOPS", "3")]);
    rows.extend(log("out", "virtiofs-dax.txt", &[("LOOPS", "3")]));
    let rule = assign(&mut rows, &ConfigNaming::Auto);
    assert_eq!(
        labels(&rows),
        ["9p-none", "9p-none", "virtiofs-dax", "virtiofs-dax"]
    );
    assert_eq!(rule.keys, [FILE_KEY]);
    // Logs named alike but for a number are repeats of one config.
    let mut rows = log("out", "loop1.txt", &[]);
    rows.extend(log("out", "loop2.txt", &[]));
    assign(&mut rows, &ConfigNaming::Auto);
    assert_eq!(labels(&rows), ["out"; 4]);
    // As are files of other workloads, and files of one run each.
    let mut rows = log("out", "a.txt", &[]);
    rows.extend(log("out", "b.txt", &[]).into_iter().take(1));
    assign(&mut rows, &ConfigNaming::Auto);
    assert_eq!(labels(&rows), ["out"; 3]);
    let mut rows = vec![run("out", "a.txt", 1, &[]), run("out", "b.txt", 1, &[])];
    assign(&mut rows, &ConfigNaming::Auto);
    assert_eq!(labels(&rows), ["out"; 2]);
}

#[test]
fn options_are_read_as_the_option_map_reads_them() {
    for text in [
        r#"{"bs":"4k","ioengine":"io_uring"}"#,
        r#"{"filename":"C:\\fio\\t.dat","name":"a\"b"}"#,
        r#"{"bs":"4k","bs":"8k"}"#,
        r#"{"iodepth":32}"#,
        r#"{"bs":"4k"} trailing"#,
        "[]",
        "",
    ] {
        let mut r = Row::empty("a.json", crate::model::Direction::Read);
        r.options = Some(std::sync::Arc::from(text));
        let read: BTreeMap<String, String> = option_pairs(&r, |_| true)
            .into_iter()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        assert_eq!(read, r.option_map(), "{text}");
    }
    // Bookkeeping is left out as it is read.
    let mut r = Row::empty("a.json", crate::model::Direction::Read);
    r.options = Some(std::sync::Arc::from(
        r#"{"bs":"4k","ioscheduler":"bfq","write_lat_log":"x"}"#,
    ));
    let kept: Vec<String> = option_pairs(&r, |k| !is_bookkeeping(k))
        .into_keys()
        .map(Cow::into_owned)
        .collect();
    assert_eq!(kept, ["ioscheduler"]);
}
