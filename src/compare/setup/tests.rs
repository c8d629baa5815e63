//! The collapsing rule and how each fact is written.

use super::*;
use crate::model::Direction;

fn row(label: &str, rw: &str, bs: u64, iodepth: u32, runtime_ms: f64) -> Row {
    let mut r = Row::empty("f.json", Direction::Read);
    r.config = label.into();
    r.os = "linux".into();
    r.engine = "libaio".into();
    r.fio_version = "fio-3.33".into();
    r.rw = rw.into();
    r.bs_bytes = bs;
    r.iodepth = iodepth;
    r.runtime_ms = runtime_ms;
    r
}

fn configs(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn item<'a>(s: &'a Setup, name: &str) -> &'a SetupItem {
    s.items
        .iter()
        .find(|i| i.name == name)
        .unwrap_or_else(|| panic!("no item {name} in {:?}", s.items))
}

fn values(i: &SetupItem) -> Vec<Option<&str>> {
    i.values.values().map(|v| v.as_deref()).collect()
}

fn build_plain(rows: &[Row], cfgs: &[&str]) -> Setup {
    build(
        rows,
        &configs(cfgs),
        &SetupNotes::default(),
        &[],
        str::to_string,
    )
}

#[test]
fn a_value_every_config_shares_collapses_to_one() {
    let rows = [
        row("a", "randread", 4096, 32, 60_000.0),
        row("b", "randread", 4096, 32, 59_998.0),
    ];
    let s = build_plain(&rows, &["a", "b"]);
    let runtime = item(&s, "Runtime");
    // 60000 and 59998 ms are both what people call 60 s: same value.
    assert_eq!(runtime.value.as_deref(), Some("60 s"));
    assert!(runtime.is_shared());
    assert_eq!(item(&s, "fio version").value.as_deref(), Some("fio-3.33"));
    assert_eq!(s.differing().count(), 0, "{:?}", s.items);
}

#[test]
fn a_value_that_differs_is_kept_per_config() {
    let mut rows = vec![
        row("a", "randread", 4096, 32, 1000.0),
        row("b", "randread", 4096, 32, 1000.0),
    ];
    rows[1].engine = "io_uring".into();
    rows[1].fio_version = "fio-3.36".into();
    let s = build_plain(&rows, &["a", "b"]);
    let engine = item(&s, "Engine");
    assert_eq!(engine.value, None);
    assert_eq!(values(engine), [Some("libaio"), Some("io_uring")]);
    let differing: Vec<&str> = s.differing().map(|i| i.name.as_str()).collect();
    assert_eq!(differing, ["fio version", "Engine"]);
}

#[test]
fn a_config_that_does_not_know_a_fact_makes_it_differ() {
    let mut rows = vec![
        row("json", "read", 4096, 1, 1000.0),
        row("text", "read", 4096, 1, 1000.0),
    ];
    rows[0].direct = Some(true);
    let s = build_plain(&rows, &["json", "text"]);
    let direct = item(&s, "direct");
    assert!(!direct.is_shared());
    assert_eq!(values(direct), [Some("1"), None]);
}

#[test]
fn facts_nobody_knows_are_left_out() {
    let rows = [row("a", "read", 4096, 1, 1000.0)];
    let s = build_plain(&rows, &["a"]);
    let names: Vec<&str> = s.items.iter().map(|i| i.name.as_str()).collect();
    // No host (standalone run), no direct (text output): no line at all.
    assert!(!names.contains(&"Hosts"), "{names:?}");
    assert!(!names.contains(&"direct"), "{names:?}");
    assert!(names.contains(&"Engine"), "{names:?}");
}

#[test]
fn several_values_of_one_config_read_as_people_write_them() {
    let mut rows: Vec<Row> = [1u32, 2, 4, 8, 16, 32, 64, 128]
        .iter()
        .map(|&qd| row("sweep", "randread", 4096, qd, 1001.0))
        .collect();
    for (bs, ms) in [(65536, 2002.0), (131072, 1499.0)] {
        rows.push(row("sweep", "read", bs, 1, ms));
    }
    let s = build_plain(&rows, &["sweep"]);
    assert_eq!(item(&s, "iodepth").value.as_deref(), Some("1-128"));
    assert_eq!(
        item(&s, "Block size").value.as_deref(),
        Some("4k, 64k, 128k")
    );
    assert_eq!(item(&s, "rw").value.as_deref(), Some("randread, read"));
    assert_eq!(item(&s, "Runtime").value.as_deref(), Some("1-2 s"));
}

#[test]
fn numbers_list_up_to_four_then_a_range() {
    let plain = |v: u64| v.to_string();
    assert_eq!(numbers(vec![32, 32], plain).as_deref(), Some("32"));
    assert_eq!(numbers(vec![16, 1, 4], plain).as_deref(), Some("1, 4, 16"));
    assert_eq!(
        numbers(vec![1, 2, 4, 8, 16], plain).as_deref(),
        Some("1-16")
    );
    assert_eq!(numbers(vec![], plain), None);
}

#[test]
fn sub_second_runs_are_in_milliseconds() {
    let rows = [row("a", "read", 4096, 1, 250.4)];
    let s = build_plain(&rows, &["a"]);
    assert_eq!(item(&s, "Runtime").value.as_deref(), Some("250 ms"));
}

#[test]
fn hosts_are_listed_without_the_aggregate() {
    let mut rows = Vec::new();
    for h in ["h1", "h2"] {
        let mut r = row("cs", "read", 4096, 1, 1000.0);
        r.host = Some(h.into());
        rows.push(r);
    }
    let mut all = row("cs", "read", 4096, 1, 1000.0);
    all.aggregate = true;
    rows.push(all);
    let s = build_plain(&rows, &["cs"]);
    assert_eq!(item(&s, "Hosts").value.as_deref(), Some("h1, h2"));
}

fn notes() -> SetupNotes {
    let kv = |pairs: &[(&str, &str)]| -> IndexMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    SetupNotes {
        title: Some("Two stacks".into()),
        description: Some("Why.".into()),
        shared: kv(&[("CPU", "EPYC"), ("Kernel", "6.8")]),
        per_config: [
            ("lbl-a".to_string(), kv(&[("os", "Ubuntu 24.04.4")])),
            (
                "lbl-b".to_string(),
                kv(&[("Kernel", "6.12"), ("Driver", "nvme")]),
            ),
        ]
        .into_iter()
        .collect(),
    }
}

#[test]
fn manifest_items_come_first_and_a_config_value_beats_the_shared_one() {
    let mut rows = vec![
        row("A", "read", 4096, 1, 1000.0),
        row("B", "read", 4096, 1, 1000.0),
    ];
    rows[1].os = "windows".into();
    // The manifest keys configs by label; rows and configs carry display names.
    let name_of = |l: &str| l.trim_start_matches("lbl-").to_uppercase();
    let s = build(&rows, &configs(&["A", "B"]), &notes(), &[], name_of);
    assert_eq!(s.title.as_deref(), Some("Two stacks"));
    let names: Vec<&str> = s.items.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(&names[..4], ["CPU", "Kernel", "os", "Driver"]);
    assert_eq!(item(&s, "CPU").value.as_deref(), Some("EPYC"));
    assert_eq!(values(item(&s, "Kernel")), [Some("6.8"), Some("6.12")]);
    assert_eq!(values(item(&s, "Driver")), [None, Some("nvme")]);
    // `os` names the data's OS fact: the manifest's words where given, the
    // data's elsewhere, and no second OS line.
    assert_eq!(
        values(item(&s, "os")),
        [Some("Ubuntu 24.04.4"), Some("Windows")]
    );
    assert!(!names.contains(&"OS"), "{names:?}");
    assert_eq!(item(&s, "os").source, SetupSource::Manifest);
    assert_eq!(item(&s, "Engine").source, SetupSource::Data);
    assert_eq!(item(&s, "Engine").key, "engine");
    assert_eq!(item(&s, "Driver").key, "Driver");
}
