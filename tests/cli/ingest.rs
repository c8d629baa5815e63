//! `nvcmp ingest` end to end.

use predicates::prelude::*;
use serde_json::Value;

use crate::common::{fixture, ndjson, nvcmp};

/// The rows a finished `nvcmp ingest` wrote to stdout.
fn rows(done: assert_cmd::assert::Assert) -> Vec<Value> {
    ndjson(&done.get_output().stdout)
}

#[test]
fn ndjson_to_stdout_with_values_from_the_file() {
    let path = fixture("fio/linux-libaio/randread-4k.json");
    let rows = rows(
        nvcmp()
            .arg("ingest")
            .arg(&path)
            .assert()
            .success()
            .stderr("ingested 1 file, 1 row, 0 skipped\n"),
    );
    assert_eq!(rows.len(), 1);
    let doc: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let read = &doc["jobs"][0]["read"];
    let r = &rows[0];
    assert_eq!(r["iops"], read["iops"]);
    assert_eq!(r["bw_bytes_per_s"].as_f64(), read["bw_bytes"].as_f64());
    assert_eq!(r["io_bytes"], read["io_bytes"]);
    assert_eq!(r["clat_mean_ns"].as_f64(), read["clat_ns"]["mean"].as_f64());
    assert_eq!(
        r["usr_cpu_pct"].as_f64(),
        doc["jobs"][0]["usr_cpu"].as_f64()
    );
    assert_eq!(r["label"], "linux-libaio");
    assert_eq!(r["engine"], "libaio");
    assert_eq!(r["direction"], "read");
    assert_eq!(r["format"], "json");
    assert_eq!(r["source"], nvcmp::path_text::shown(&path));
}

#[test]
fn skips_are_listed_and_the_rest_is_read() {
    // Every file of bad/ is skipped.
    let bad = std::fs::read_dir(fixture("bad")).unwrap().count();
    let done = nvcmp()
        .arg("ingest")
        .arg(fixture("bad"))
        .arg(fixture("fio/linux-io_uring/randread-4k.json"))
        .assert()
        .success()
        .stderr(
            predicate::str::contains("nvcmp: skipped ").and(predicate::str::contains(
                "truncated.json: JSON document at line 1: malformed json output: truncated JSON",
            )),
        )
        .stderr(predicate::str::contains("empty.json: empty file"))
        .stderr(predicate::str::contains(
            "negative-runtime.json: every row was dropped",
        ))
        .stderr(predicate::str::contains(format!(
            ", 1 row, {bad} skipped\n"
        )));
    assert_eq!(rows(done).len(), 1);
}

#[test]
fn strict_makes_a_skip_exit_2() {
    nvcmp()
        .args(["ingest", "--strict"])
        .arg(fixture("bad/empty.json"))
        .arg(fixture("fio/linux-io_uring/randread-4k.json"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("skipped"));
}

#[test]
fn no_input_exits_2() {
    nvcmp()
        .arg("ingest")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no input"));
    nvcmp()
        .arg("ingest")
        .arg(fixture("bad"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no fio or DiskSpd results found"));
}

#[test]
fn output_file_by_extension_and_quiet() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["parquet", "csv", "json", "ndjson"] {
        let out = dir.path().join(format!("d.{ext}"));
        nvcmp()
            .args(["--quiet", "ingest"])
            .arg(fixture("fio/linux-clientserver/two-servers.json"))
            .arg("-o")
            .arg(&out)
            .assert()
            .success()
            .stdout("")
            .stderr("");
        let bytes = std::fs::read(&out).unwrap();
        match ext {
            "parquet" => assert_eq!(&bytes[..4], b"PAR1"),
            "csv" => {
                let text = String::from_utf8(bytes).unwrap();
                assert!(text.starts_with("source,label,os,engine,"));
                assert_eq!(text.lines().count(), 4); // header + 2 clients + All clients
                assert_eq!(
                    text.lines().filter(|l| l.contains("All clients")).count(),
                    1
                );
            }
            "json" => {
                let v: Value = serde_json::from_slice(&bytes).unwrap();
                let rows = v.as_array().unwrap();
                assert_eq!(rows.len(), 3);
                assert_eq!(rows.iter().filter(|r| r["aggregate"] == true).count(), 1);
            }
            _ => assert_eq!(ndjson(&bytes).len(), 3),
        }
    }
    nvcmp()
        .arg("ingest")
        .arg(fixture("fio/linux-io_uring"))
        .arg("-o")
        .arg(dir.path().join("d.xlsx"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown extension"));
}

/// An explicit `--format` wins over -o's extension (docs/CONTRACT.md,
/// `ingest`): csv into `a.parquet`, parquet into `a.csv`, json into a
/// name with no known extension.
#[test]
fn format_flag_wins_over_output_extension() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("fio/linux-clientserver/two-servers.json");
    let write = |name: &str, format: &str| {
        let out = dir.path().join(name);
        nvcmp()
            .args(["--quiet", "ingest", "--format", format])
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .assert()
            .success()
            .stdout("")
            .stderr("");
        std::fs::read(&out).unwrap()
    };
    let csv = String::from_utf8(write("a.parquet", "csv")).unwrap();
    assert!(csv.starts_with("source,label,os,engine,"), "{csv:.60}");
    assert_eq!(csv.lines().count(), 4);
    let parquet = write("a.csv", "parquet");
    assert_eq!(&parquet[..4], b"PAR1");
    assert_eq!(&parquet[parquet.len() - 4..], b"PAR1");
    let json: Value = serde_json::from_slice(&write("a.txt", "json")).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 3);
    assert_eq!(ndjson(&write("a.json", "ndjson")).len(), 3);
}

#[test]
fn label_by_and_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("results");
    std::fs::create_dir_all(root.join("lx")).unwrap();
    std::fs::copy(
        fixture("fio/linux-io_uring/randread-4k.json"),
        root.join("lx/randread-4k.json"),
    )
    .unwrap();
    std::fs::write(
        root.join("nvcmp.toml"),
        "[config.lx]\nname = \"Linux io_uring\"\nsystem_cpu_pct = 12.5\n",
    )
    .unwrap();
    let r = &rows(nvcmp().arg("ingest").arg(&root).assert().success())[0];
    assert_eq!(r["label"], "Linux io_uring");
    assert_eq!(r["system_cpu_pct"], 12.5);

    let by_engine = nvcmp()
        .args(["ingest", "--label-by", "engine"])
        .arg(&root)
        .assert()
        .success();
    assert_eq!(rows(by_engine)[0]["label"], "io_uring");

    std::fs::write(root.join("bad.toml"), "bogus = 1\n").unwrap();
    nvcmp()
        .args(["ingest", "--manifest"])
        .arg(root.join("bad.toml"))
        .arg(&root)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.toml").and(predicate::str::contains("bogus")));
}

#[test]
fn a_closed_stdout_ends_quietly_with_exit_0() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    // 200 KiB of rows: more than a pipe buffer, so a write after the reader
    // has gone fails with a broken pipe, as under `| head -c 100`. serde_json
    // (ndjson) and polars (csv) each wrap that error in their own type.
    for format in ["ndjson", "csv"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nvcmp"))
            .args(["--quiet", "ingest", "--format", format])
            .arg(fixture(""))
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0u8; 100];
        child.stdout.take().unwrap().read_exact(&mut head).unwrap();
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{format}: {err}");
        // Skips may name fio's errors; nvcmp's own error line must not show.
        assert!(!err.contains("nvcmp: error"), "{format}: {err}");
        assert!(
            !err.to_lowercase().contains("broken pipe"),
            "{format}: {err}"
        );
    }
}

/// fio's `--idle-prof` gives whole-system CPU; a sidecar or a `[[result]]`
/// entry still beats it, a `[config]` value does not (it is the fallback
/// for rows without their own).
#[test]
fn idle_prof_system_cpu_and_who_wins() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("cfg");
    std::fs::create_dir(&cfg).unwrap();
    for f in ["system.json", "percpu.json", "system.txt"] {
        std::fs::copy(fixture(&format!("wild/idle-prof/{f}")), cfg.join(f)).unwrap();
    }
    std::fs::write(
        cfg.join("percpu.json.nvcmp.toml"),
        "system_cpu_pct = 12.5\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("nvcmp.toml"),
        "[config.cfg]\nsystem_cpu_pct = 99.0\n\n[[result]]\nfile = \"cfg/system.txt\"\nsystem_cpu_pct = 7.0\n",
    )
    .unwrap();
    let rows = rows(nvcmp().arg("ingest").arg(dir.path()).assert().success());
    let cpu = |file: &str| {
        let r = rows
            .iter()
            .find(|r| r["source"].as_str().unwrap().ends_with(file))
            .unwrap();
        r["system_cpu_pct"].as_f64().unwrap()
    };
    assert!((cpu("system.json") - (100.0 - 33.519735)).abs() < 0.05);
    assert_eq!(cpu("percpu.json"), 12.5, "the sidecar wins");
    assert_eq!(cpu("system.txt"), 7.0, "the [[result]] entry wins");
}
