//! Logs tied to their runs, on the real fixtures of fixtures/series/.

use std::path::{Path, PathBuf};

use super::*;
use crate::model::Direction;
use crate::timeseries::Kind;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/series")
        .join(rel)
}

fn series(rel: &str) -> Logs {
    read(&[fixture(rel)], &IngestOptions::default()).unwrap()
}

fn result_json(rel: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(fixture(rel)).unwrap()).unwrap()
}

#[test]
fn averaged_logs_belong_to_their_job_and_match_its_bw_mean() {
    let s = series("averaged");
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    assert_eq!(s.logs.len(), 10);
    for info in &s.logs {
        assert_eq!(info.job, "randrw-4k");
        assert_eq!(info.label, "averaged");
        assert_eq!(info.window_ms, Some(200));
        assert!(
            info.result
                .as_deref()
                .is_some_and(|r| r.ends_with("result.json"))
        );
    }
    // fio's bw_mean (KiB/s) is the mean of the same samples the log holds.
    let doc = result_json("averaged/result.json");
    for index in [1u32, 2] {
        let job = &doc["jobs"][index as usize - 1];
        for (dir, key) in [(Direction::Read, "read"), (Direction::Write, "write")] {
            let values: Vec<f64> = s
                .rows
                .iter()
                .filter(|r| {
                    let i = s.info(r);
                    i.kind == Kind::Bw && i.job_index == Some(index) && r.direction == dir
                })
                .map(|r| r.value)
                .collect();
            assert_eq!(
                values.len() as f64,
                job[key]["bw_samples"].as_f64().unwrap()
            );
            let mean = values.iter().sum::<f64>() / values.len() as f64;
            let expected = job[key]["bw_mean"].as_f64().unwrap() * 1024.0;
            assert!(
                (mean - expected).abs() < 1e-6 * expected,
                "job {index} {key}: {mean} vs {expected}"
            );
        }
    }
}

#[test]
fn per_io_logs_carry_offsets_and_hex_priorities_by_thread_number() {
    let s = series("per-io");
    let prio = s
        .logs
        .iter()
        .position(|l| l.kind == Kind::Clat && l.job == "prio")
        .unwrap();
    assert_eq!(s.logs[prio].job_index, Some(2));
    let rows: Vec<_> = s.rows.iter().filter(|r| r.log as usize == prio).collect();
    assert!(!rows.is_empty());
    assert!(
        rows.iter()
            .all(|r| r.priority.is_some() && r.offset_bytes.is_none() && r.bs_bytes == 4096)
    );
    let offsets = s.logs.iter().position(|l| l.kind == Kind::Bw).unwrap();
    assert_eq!(s.logs[offsets].job, "offsets");
    assert_eq!(s.logs[offsets].window_ms, None);
    let bw: Vec<_> = s
        .rows
        .iter()
        .filter(|r| r.log as usize == offsets)
        .collect();
    assert!(
        bw.iter()
            .all(|r| r.offset_bytes.is_some_and(|o| o % 4096 == 0))
    );
    // Per-I/O bw is the I/O's bytes over its completion latency, logged in
    // whole 1000 B/s units: the clat log's line for the same offset says so.
    let clat = s
        .logs
        .iter()
        .position(|l| l.kind == Kind::Clat && l.job == "offsets")
        .unwrap();
    let lat: Vec<_> = s.rows.iter().filter(|r| r.log as usize == clat).collect();
    assert_eq!(lat.len(), bw.len());
    for (b, c) in bw.iter().zip(&lat) {
        assert_eq!(b.offset_bytes, c.offset_bytes);
        let expected = b.bs_bytes as f64 * 1e9 / c.value;
        assert!((b.value - expected).abs() <= 1000.0, "{b:?} vs {c:?}");
    }
}

#[test]
fn options_name_the_prefix_the_max_and_the_epoch() {
    let s = series("options");
    let bw = s.logs.iter().position(|l| l.kind == Kind::Bw).unwrap();
    let info = &s.logs[bw];
    assert_eq!(
        (info.job.as_str(), info.job_index, info.window_ms),
        ("seqwrite", None, Some(250))
    );
    let rows: Vec<_> = s.rows.iter().filter(|r| r.log as usize == bw).collect();
    assert!(
        rows.iter()
            .all(|r| r.value_max == Some(r.value) && r.unix_ms.is_some())
    );
    assert_eq!(rows[0].t_ms, 0);
    assert!(rows.windows(2).all(|w| w[1].t_ms >= w[0].t_ms));
}

#[test]
fn client_logs_carry_the_host() {
    let s = series("clientserver");
    assert_eq!(s.logs.len(), 2);
    for info in &s.logs {
        assert_eq!(info.host.as_deref(), Some("127.0.0.1"));
        assert_eq!(info.job, "randread-cs");
        assert!(info.result.is_some());
    }
    assert!(!s.rows.is_empty());
}

#[test]
fn logs_without_a_result_keep_their_folder_and_prefix() {
    let s = series("handmade");
    let broken = s.logs.iter().find(|l| l.job == "broken").unwrap();
    assert_eq!(
        (broken.label.as_str(), broken.result.as_deref()),
        ("handmade", None)
    );
    let w: Vec<_> = s
        .warnings
        .iter()
        .filter(|w| w.source.ends_with("broken_iops.1.log"))
        .collect();
    assert_eq!(w.len(), 1, "{:?}", s.warnings);
    assert!(
        w[0].message.starts_with("line 4: value `twelve`"),
        "{}",
        w[0].message
    );
    let both = s.logs.iter().position(|l| l.job == "window-both").unwrap();
    assert!(
        s.rows
            .iter()
            .filter(|r| r.log as usize == both)
            .all(|r| r.value_max.is_some_and(|m| m >= r.value))
    );
}

#[test]
fn compressed_logs_are_read_with_their_runs_options() {
    let s = series("fz");
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    // The empty slat log gives no rows; the others give fio's inflated lines.
    let inflated = |name: &str| {
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("fixtures/fz-inflated/fz/{name}.txt"));
        std::fs::read_to_string(p).unwrap().lines().count()
    };
    for (i, info) in s.logs.iter().enumerate() {
        let name = Path::new(&info.source)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let rows: Vec<&SeriesRow> = s.rows.iter().filter(|r| r.log as usize == i).collect();
        assert_eq!(rows.len(), inflated(&name), "{name}");
        assert_eq!(info.window_ms, None, "{name}: compressed logs are per I/O");
        if name.starts_with("mixed") && !rows.is_empty() {
            assert!(
                rows.iter()
                    .all(|r| r.offset_bytes.is_some() && r.bs_bytes == 4096)
            );
            assert!(rows.iter().any(|r| r.direction == Direction::Write));
        }
        if name.starts_with("prio") {
            assert!(
                rows.iter()
                    .all(|r| r.priority == Some(0) && r.offset_bytes.is_none())
            );
        }
    }
}

#[test]
fn streaming_gives_the_rows_reading_does() {
    let ingested = crate::ingest::ingest(&[fixture("")], &IngestOptions::default()).unwrap();
    let all = read_logs(&ingested);
    let mut streamed = Vec::new();
    let plan = plan(&ingested);
    let mut bytes = 0;
    let out = stream_logs(&plan, &mut |_, rows, b| {
        bytes += b;
        streamed.extend(rows.rows());
        Ok(())
    })
    .unwrap();
    assert_eq!(streamed, all.rows);
    assert_eq!(out.rows, all.rows.len() as u64);
    assert_eq!(out.warnings, all.warnings);
    // Every log is read, each to its end (compressed ones too).
    assert_eq!(out.logs_read, all.logs.len());
    assert_eq!(bytes, plan.bytes());
}

/// A 0-byte log beside good ones, and one replacing a good one: each named
/// in a warning and not counted as read; the good ones still are.
#[test]
fn empty_logs_are_named_not_counted() {
    let tmp = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(fixture("averaged")).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, tmp.path().join(p.file_name().unwrap())).unwrap();
    }
    let good = plan(
        &crate::ingest::ingest(&[tmp.path().to_path_buf()], &IngestOptions::default()).unwrap(),
    );
    let n = good.logs.len();
    // Beside: a new empty log; replacing: a good one emptied.
    std::fs::write(tmp.path().join("randrw-4k_bw.3.log"), b"").unwrap();
    std::fs::write(tmp.path().join("randrw-4k_iops.2.log"), b"").unwrap();
    let ingested =
        crate::ingest::ingest(&[tmp.path().to_path_buf()], &IngestOptions::default()).unwrap();
    let plan = plan(&ingested);
    assert_eq!(plan.logs.len(), n + 1);
    let out = stream_logs(&plan, &mut |_, _, _| Ok(())).unwrap();
    assert_eq!(out.logs_read, n - 1);
    let empty: Vec<&str> = out
        .warnings
        .iter()
        .filter(|w| w.message.contains("empty log"))
        .map(|w| w.source.rsplit(['/', '\\']).next().unwrap())
        .collect();
    assert_eq!(empty, ["randrw-4k_bw.3.log", "randrw-4k_iops.2.log"]);
    let read = read_logs(&ingested);
    assert_eq!(read.warnings, out.warnings);
}
