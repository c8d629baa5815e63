//! Files that hold many runs (issue #41): a benchmark script's captured
//! output, read run by run, on real fio output
//! (fixtures/script-logs/, made by fixtures/make-script-log-fixtures.sh):
//! `bench.sh` run once per config (the target on tmpfs, then on /tmp),
//! 3 job files x 2 loops with `--append-terse`, and three JSON documents
//! appended to one file.

use serde_json::Value;

use crate::common::{analyze_json, assert_ok, fixture, nvcmp, stderr};

const SUITE: &str = "script-logs/suite";

/// `nvcmp ingest PATH` as ndjson rows, and its stderr.
fn ingest(path: &std::path::Path) -> (Vec<Value>, String) {
    let out = nvcmp().arg("ingest").arg(path).output().unwrap();
    assert_ok(&out);
    let rows = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (rows, stderr(&out).into_owned())
}

/// The fio invocations a script log holds: its `Running:` lines.
fn invocations(text: &str) -> usize {
    text.lines()
        .filter(|l| l.starts_with("Running: fio"))
        .count()
}

/// Each terse line of a file, split into its fields.
fn terse_lines(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| l.starts_with("3;fio-"))
        .map(|l| l.split(';').map(str::to_string).collect())
        .collect()
}

#[test]
fn each_invocation_is_one_run_with_the_terse_lines_figures() {
    let (rows, err) = ingest(&fixture(SUITE));
    assert!(!err.contains("group_reporting folds"), "{err}");
    for name in ["shm.txt", "tmp.txt"] {
        let text = std::fs::read_to_string(fixture(SUITE).join(name)).unwrap();
        let mine: Vec<&Value> = rows
            .iter()
            .filter(|r| r["source"].as_str().unwrap().ends_with(name))
            .collect();
        // One row per invocation (each job did I/O in one direction).
        assert_eq!(mine.len(), invocations(&text), "{name}");
        let terse = terse_lines(&text);
        assert_eq!(terse.len(), mine.len());
        for (i, (row, t)) in mine.iter().zip(&terse).enumerate() {
            assert_eq!(row["file_run"], i as u64 + 1, "{name}");
            assert_eq!(row["job"], t[2].as_str());
            assert_eq!(row["format"], "terse+normal");
            // The direction's block: read at field 6, write 41 fields on.
            let at = if row["direction"] == "read" { 5 } else { 46 };
            let num = |k: usize| t[at + k].parse::<f64>().unwrap();
            assert_eq!(row["io_bytes"].as_f64().unwrap(), num(0) * 1024.0);
            assert_eq!(row["bw_bytes_per_s"].as_f64().unwrap(), num(1) * 1024.0);
            assert_eq!(row["iops"].as_f64().unwrap(), num(2));
            assert_eq!(row["runtime_ms"].as_f64().unwrap(), num(3));
            // And what only the normal text says.
            assert!(row["engine"] == "psync" || row["engine"] == "libaio");
        }
        // numjobs is each run's own: `jobs=2` of the group_reporting job.
        let multi: Vec<u64> = mine
            .iter()
            .filter(|r| r["job"] == "seqread-libaio-multi")
            .map(|r| r["numjobs"].as_u64().unwrap())
            .collect();
        assert_eq!(multi, [2, 2]);
    }
}

#[test]
fn each_file_is_a_config_named_by_what_differs_with_its_headers_as_setup() {
    let j = analyze_json(&fixture(SUITE), &[]);
    assert_eq!(j["configs"], serde_json::json!(["shm", "tmp"]));
    assert_eq!(j["config_rule"]["keys"], serde_json::json!(["TEST_NAME"]));
    assert_eq!(
        j["config_rule"]["file_configs"],
        serde_json::json!(["suite"])
    );
    // Each workload compares the two files' runs, two loops each.
    let workloads = j["workloads"].as_array().unwrap();
    assert_eq!(workloads.len(), 3);
    let items = j["setup"]["items"].as_array().unwrap();
    let item = |key: &str| {
        items
            .iter()
            .find(|i| i["key"] == key)
            .unwrap_or_else(|| panic!("no {key} in {items:?}"))
    };
    let kernel = item("setup_facts.SYSTEMINFO");
    assert_eq!(kernel["name"], "Kernel");
    let uname = std::fs::read_to_string(fixture(SUITE).join("shm.txt")).unwrap();
    let release = uname
        .lines()
        .find_map(|l| l.strip_prefix("SYSTEMINFO="))
        .and_then(|u| u.split_whitespace().nth(2))
        .unwrap();
    assert_eq!(kernel["value"], format!("Linux {release}"));
    let fs = item("setup_facts.MOUNTPOINT");
    assert_eq!(fs["name"], "File system");
    assert!(fs["value"].is_null(), "{fs}");
    let shm = fs["values"]["shm"].as_str().unwrap();
    assert!(
        shm.starts_with("tmpfs (") && shm.ends_with(" on /dev/shm"),
        "{shm}"
    );
    assert_eq!(item("setup_facts.LOOPS")["value"], "2");
    // `--label-by file` names them by their file names.
    let j = analyze_json(&fixture(SUITE), &["--label-by", "file"]);
    assert_eq!(j["configs"], serde_json::json!(["shm", "tmp"]));
    assert_eq!(j["config_rule"]["rule"], "file");
}

#[test]
fn a_script_logs_headers_are_kept_in_the_dataset() {
    let path = fixture(SUITE).join("tmp.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    // The script's lines before its first run: `KEY=value` each, but
    // `RUNTIME=1 LOOPS=2 SIZE=64M`, three facts on one line.
    let header: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("Running: "))
        .collect();
    let whole = |key: &str| {
        let line = header
            .iter()
            .find_map(|l| l.strip_prefix(&format!("{key}=")));
        line.unwrap_or_else(|| panic!("no {key}= in {header:?}"))
    };
    let mut expected = serde_json::Map::new();
    for key in ["TEST_NAME", "SYSTEMINFO", "MOUNTPOINT"] {
        expected.insert(key.into(), whole(key).into());
    }
    for word in format!("RUNTIME={}", whole("RUNTIME")).split_whitespace() {
        let (k, v) = word.split_once('=').unwrap();
        expected.insert(k.into(), v.into());
    }
    assert_eq!(expected.len(), 6, "{expected:?}");
    let (rows, _) = ingest(&path);
    // Every run of the file is a row, each checked below: a reader that
    // drops runs fails here, not by checking nothing.
    assert_eq!(rows.len(), invocations(&text));
    assert!(rows.len() >= 6, "{} rows", rows.len());
    for r in &rows {
        let run = &r["file_run"];
        let facts = r["setup_facts"].as_str();
        let facts =
            facts.unwrap_or_else(|| panic!("run {run}: no setup facts, {expected:?} expected"));
        let facts: Value = serde_json::from_str(facts).unwrap();
        assert_eq!(facts, Value::Object(expected.clone()), "run {run}");
    }
}

#[test]
fn json_documents_one_after_another_are_runs_of_their_own() {
    let path = fixture("script-logs/appended/runs.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let documents = text.lines().filter(|l| *l == "{").count();
    let (rows, _) = ingest(&path);
    assert_eq!(rows.len(), documents);
    let runs: Vec<u64> = rows
        .iter()
        .map(|r| r["file_run"].as_u64().unwrap())
        .collect();
    assert_eq!(runs, [1, 2, 3]);
    // The first job file ran twice: two runs of one workload, averaged.
    let j = analyze_json(&path, &[]);
    let randread = j["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["rw"] == "randread")
        .unwrap();
    let iops: Vec<f64> = rows
        .iter()
        .filter(|r| r["job"] == "randread-psync")
        .map(|r| r["iops"].as_f64().unwrap())
        .collect();
    assert_eq!(iops.len(), 2);
    let metric = crate::common::metric_of(randread, "iops");
    let mean = metric["values"]["appended"].as_f64().unwrap();
    assert!((mean - (iops[0] + iops[1]) / 2.0).abs() < 1e-6, "{metric}");
}

#[test]
fn a_printed_figure_fio_rounded_wrong_is_corrected_with_a_note() {
    // Hand-edited from the fixture: the first run's normal text alone
    // (no terse line), its IOPS printed the way fio's num2str prints a
    // value whose rounding carries (23,992 as `23.0k`): one unit of the
    // last digit short after a carry, here two steps below the truth.
    let text = std::fs::read_to_string(fixture(SUITE).join("shm.txt")).unwrap();
    let start = text.find("randread-psync: (g=0)").unwrap();
    let end = start + text[start..].find("Running:").unwrap();
    let run: String = text[start..end]
        .lines()
        .filter(|l| !l.starts_with("3;fio-"))
        .map(|l| format!("{l}\n"))
        .collect();
    let line = run.lines().find(|l| l.contains("IOPS=")).unwrap();
    let printed = line
        .split("IOPS=")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    let issued: f64 = run
        .lines()
        .find_map(|l| l.trim().strip_prefix("issued rwts: total="))
        .and_then(|t| t.split(',').next())
        .unwrap()
        .parse()
        .unwrap();
    let runtime: f64 = line
        .rsplit('/')
        .next()
        .and_then(|r| r.strip_suffix("msec)"))
        .unwrap()
        .parse()
        .unwrap();
    let exact = issued * 1000.0 / runtime;
    let wrong = format!("{}k", (exact / 1000.0).floor() - 2.0);
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("run.txt");
    std::fs::write(
        &file,
        run.replace(&format!("IOPS={printed}"), &format!("IOPS={wrong}")),
    )
    .unwrap();
    let (rows, err) = ingest(&file);
    assert_eq!(rows.len(), 1);
    assert!((rows[0]["iops"].as_f64().unwrap() - exact).abs() < 1e-6);
    assert!(
        err.contains(&format!(
            "job randread-psync: read IOPS printed as {}",
            (exact / 1000.0).floor() as u64 * 1000 - 2000
        )) && err.contains("corrected to"),
        "{err}"
    );
}
