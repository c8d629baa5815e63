//! The loader on real fixtures: results, dataset files, both mixed.

use super::*;
use crate::model::Direction;
use serde_json::Value;

/// Reads `paths` with the default options.
fn read_all(paths: &[PathBuf]) -> anyhow::Result<Inputs> {
    read(paths, &ReadOptions::default(), &())
}

fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/check")
        .join(rel)
}

#[test]
fn reads_a_real_fio_run_with_its_own_numbers() {
    let path = fixture("run1/fio.json");
    let doc: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let inputs = read_all(&[path]).unwrap();
    assert!(inputs.skipped.is_empty(), "{:?}", inputs.skipped);
    assert_eq!(inputs.rows.len(), 2);
    let read = &doc["jobs"][0]["read"];
    let r = &inputs.rows[0];
    assert_eq!(
        (r.rw.as_str(), r.bs_bytes, r.direction),
        ("randread", 4096, Direction::Read)
    );
    assert_eq!(r.iops, read["iops"].as_f64().unwrap());
    assert_eq!(r.bw_bytes_per_s, read["bw_bytes"].as_f64().unwrap());
    assert_eq!(r.lat_mean_ns, read["lat_ns"]["mean"].as_f64());
    assert_eq!(r.iops_samples, read["iops_samples"].as_u64());
    assert_eq!(r.iops_sample_stddev, read["iops_stddev"].as_f64());
    assert_eq!(
        r.bw_sample_mean,
        read["bw_mean"].as_f64().map(|k| k * 1024.0)
    );
    assert_eq!(inputs.rows[1].rw, "randwrite");
    assert_eq!(inputs.rows[1].direction, Direction::Write);
}

#[test]
fn a_truncated_file_is_skipped_with_a_reason() {
    let inputs = read_all(&[fixture("truncated")]).unwrap();
    assert!(inputs.rows.is_empty());
    assert_eq!(inputs.skipped.len(), 1);
    assert!(std::path::Path::new(&inputs.skipped[0].source).ends_with("truncated/fio.json"));
    assert!(
        inputs.skipped[0].reason.contains("truncated"),
        "{}",
        inputs.skipped[0].reason
    );
}

#[test]
fn a_dataset_round_trips() {
    let rows = read_all(&[fixture("run2")]).unwrap().rows;
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("base.json");
    std::fs::write(&json, serde_json::to_string(&rows).unwrap()).unwrap();
    let ndjson = dir.path().join("base.ndjson");
    let lines: Vec<String> = rows
        .iter()
        .map(|r| serde_json::to_string(r).unwrap())
        .collect();
    std::fs::write(&ndjson, lines.join("\n")).unwrap();
    assert_eq!(read_all(&[json]).unwrap().rows, rows);
    assert_eq!(read_all(&[ndjson]).unwrap().rows, rows);
    // A compacted fio document is one line too, but it is fio output.
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixture("run2/fio.json")).unwrap()).unwrap();
    let compact = dir.path().join("compact.json");
    std::fs::write(&compact, serde_json::to_string(&doc).unwrap()).unwrap();
    let from_compact = read_all(&[compact]).unwrap().rows;
    assert_eq!(from_compact.len(), 2);
    assert_eq!(from_compact[0].iops, rows[0].iops);
}

/// A path under `fixtures/`.
fn fixtures(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

#[test]
fn dataset_rows_come_first_then_the_results_and_a_bad_dataset_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let steady = read_all(&[fixtures("steady")]).unwrap().rows;
    let parquet = dir.path().join("steady.parquet");
    dataset::write(&steady, &parquet).unwrap();
    // Another tool's parquet file: columns that are not nvcmp's.
    let other = dir.path().join("other.parquet");
    let mut df = polars_core::prelude::DataFrame::new(
        1,
        vec![polars_core::prelude::Column::new("a".into(), [1i64])],
    )
    .unwrap();
    let mut f = std::fs::File::create(&other).unwrap();
    dataset::write_parquet(&mut df, &mut f).unwrap();
    let inputs = read_all(&[fixture("run1"), other.clone(), parquet]).unwrap();
    let run1 = read_all(&[fixture("run1")]).unwrap().rows;
    assert_eq!(inputs.rows, [steady.clone(), run1].concat());
    assert_eq!(inputs.files_read, 2);
    assert_eq!(inputs.skipped.len(), 1, "{:?}", inputs.skipped);
    assert_eq!(inputs.skipped[0].source, other.display().to_string());
    assert!(
        inputs.skipped[0]
            .reason
            .starts_with("not a dataset nvcmp wrote"),
        "{}",
        inputs.skipped[0].reason
    );
}

#[test]
fn a_dataset_of_an_older_or_newer_nvcmp_is_read_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let rows = read_all(&[fixture("run2")]).unwrap().rows;
    // An older nvcmp's parquet: the last column did not exist yet.
    let mut df = dataset::to_dataframe(&rows).unwrap();
    let last = *dataset::COLUMNS.last().unwrap();
    let _ = df.drop_in_place(last).unwrap();
    let older = dir.path().join("older.parquet");
    dataset::write_parquet(&mut df, &mut std::fs::File::create(&older).unwrap()).unwrap();
    // A newer nvcmp's ndjson: one column more.
    let newer = dir.path().join("newer.ndjson");
    let mut line: serde_json::Map<String, Value> =
        serde_json::from_value(serde_json::to_value(&rows[0]).unwrap()).unwrap();
    line.insert("queue_wait_ns".into(), Value::from(1.0));
    std::fs::write(&newer, serde_json::to_string(&line).unwrap()).unwrap();
    let inputs = read_all(&[older, newer, fixture("run1")]).unwrap();
    assert!(inputs.skipped.is_empty(), "{:?}", inputs.skipped);
    let run1 = read_all(&[fixture("run1")]).unwrap().rows.len();
    assert_eq!(inputs.rows.len(), rows.len() + 1 + run1);
    assert_eq!(inputs.rows[0].iops, rows[0].iops);
    let notes: Vec<(&str, &str)> = inputs
        .warnings
        .iter()
        .map(|w| (w.source.as_str(), w.message.as_str()))
        .collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[0].0.ends_with("older.parquet"));
    assert_eq!(
        notes[0].1,
        format!("no column `{last}` (written by an older nvcmp): read as empty")
    );
    assert!(notes[1].0.ends_with("newer.ndjson"));
    assert_eq!(
        notes[1].1,
        "unknown column `queue_wait_ns` (written by a newer nvcmp): not read"
    );
}

#[test]
fn logs_are_joined_to_their_runs_and_judged_once() {
    let inputs = read_all(&[fixtures("snia")]).unwrap();
    // Two runs (flat, stalls), each with its bw and iops logs.
    assert_eq!(inputs.runs.len(), 2);
    let labels: Vec<&str> = inputs.runs.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(labels, ["flat", "stalls"]);
    assert!(inputs.runs.iter().all(|r| r.logs.len() == 2));
    let attained: Vec<bool> = inputs
        .runs
        .iter()
        .map(|r| inputs.log_steady[&(r.source.clone(), r.shape.clone())].attained)
        .collect();
    assert_eq!(attained, [true, false]);
    // A dataset carries no logs: its rows join none.
    let dir = tempfile::tempdir().unwrap();
    let parquet = dir.path().join("snia.parquet");
    dataset::write(&inputs.rows, &parquet).unwrap();
    let from_dataset = read_all(&[parquet]).unwrap();
    assert_eq!(from_dataset.rows, inputs.rows);
    assert!(from_dataset.runs.is_empty() && from_dataset.log_steady.is_empty());
}

#[test]
fn a_csv_is_a_dataset_by_its_header_and_fio_terse_output_named_csv_stays_fio() {
    let dir = tempfile::tempdir().unwrap();
    let rows = read_all(&[fixture("run2")]).unwrap().rows;
    let csv = dir.path().join("dataset.csv");
    dataset::write(&rows, &csv).unwrap();
    let terse_file = fixtures("fio/linux-terse/randread-4k-nj2.terse.txt");
    let terse = dir.path().join("terse.csv");
    std::fs::copy(&terse_file, &terse).unwrap();
    let foreign = dir.path().join("metrics.csv");
    std::fs::write(&foreign, "time,iops\n1,2\n").unwrap();
    let inputs = read_all(&[csv, terse.clone(), foreign.clone()]).unwrap();
    let from_terse = read_all(&[terse_file]).unwrap().rows;
    assert!(!from_terse.is_empty());
    assert_eq!(inputs.rows[..rows.len()], rows[..]);
    assert_eq!(inputs.rows.len(), rows.len() + from_terse.len());
    assert_eq!(inputs.skipped.len(), 1, "{:?}", inputs.skipped);
    assert_eq!(inputs.skipped[0].source, foreign.display().to_string());
    assert!(
        inputs.skipped[0]
            .reason
            .starts_with("not a dataset nvcmp wrote: no column `source`"),
        "{}",
        inputs.skipped[0].reason
    );
}
