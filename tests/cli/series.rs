//! `nvcmp ingest --series`: fio's logs as a time-series dataset, and logs
//! never listed as skipped. Expected counts and values are taken from the
//! fixture files themselves.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{assert_ok, fixture, nvcmp, stderr};

/// Every log file under `dir`, recursively.
fn logs_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(logs_under(&path));
        } else if path.to_string_lossy().contains(".log") {
            out.push(path);
        }
    }
    out
}

/// The rows a log should give, counted from its text: one per line whose
/// fields are all numbers (decimal or 0x hex); a histogram line gives one
/// per percentile when any I/O completed in it. Compressed logs give none.
fn expected_rows(path: &Path) -> usize {
    // A compressed log: the lines of fio's own inflation of it.
    let text = match path.strip_prefix(fixture("series")) {
        Ok(rel) if rel.to_string_lossy().ends_with(".log.fz") => {
            let inflated = fixture("fz-inflated").join(format!("{}.txt", rel.display()));
            std::fs::read_to_string(inflated).unwrap()
        }
        _ => std::fs::read_to_string(path).unwrap(),
    };
    let is_num = |f: &str| {
        let f = f.trim();
        f.parse::<u64>().is_ok()
            || f.strip_prefix("0x")
                .is_some_and(|h| u32::from_str_radix(h, 16).is_ok())
    };
    let hist = path.to_string_lossy().contains("_clat_hist.");
    text.lines()
        .filter(|l| !l.trim().is_empty() && l.split(',').all(is_num))
        .map(|l| match hist {
            true if l.split(',').skip(3).any(|c| c.trim() != "0") => 3,
            true => 0,
            false => 1,
        })
        .sum()
}

fn series_ndjson(path: &Path) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("series.ndjson");
    let done = nvcmp()
        .arg("ingest")
        .arg(path)
        .arg("--series")
        .arg(&out)
        .output()
        .unwrap();
    assert_ok(&done);
    // --series alone writes the series only.
    assert!(done.stdout.is_empty());
    std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn one_row_per_log_line_for_every_fixture_log() {
    let root = fixture("series");
    let rows = series_ndjson(&root);
    let mut got: BTreeMap<String, usize> = BTreeMap::new();
    for r in &rows {
        *got.entry(r["source"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    let logs = logs_under(&root);
    assert!(logs.len() >= 25, "{} logs", logs.len());
    let mut total = 0;
    for log in &logs {
        let expected = expected_rows(log);
        let source = nvcmp::path_text::shown(log);
        assert_eq!(got.get(&source).copied().unwrap_or(0), expected, "{source}");
        total += expected;
    }
    assert_eq!(rows.len(), total);
}

/// (value, bs) of each well-formed line of a log, as written.
fn raw(path: &Path) -> Vec<(f64, u64)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| l.split(',').map(str::trim).collect::<Vec<_>>())
        .map(|f| (f[1].parse().unwrap(), f[3].parse().unwrap()))
        .collect()
}

fn values_of<'a>(rows: &'a [Value], path: &Path) -> Vec<&'a Value> {
    let source = nvcmp::path_text::shown(path);
    rows.iter()
        .filter(|r| r["source"] == source.as_str())
        .collect()
}

#[test]
fn values_are_in_si_units() {
    let averaged = fixture("series/averaged");
    let per_io = fixture("series/per-io");
    let rows = [series_ndjson(&averaged), series_ndjson(&per_io)].concat();
    // (log, SI units per logged unit): averaged bw is KiB/s, per-I/O bw
    // bytes per ms, latencies ns, iops as is.
    let cases = [
        (averaged.join("randrw-4k_bw.1.log"), 1024.0, "bw"),
        (averaged.join("randrw-4k_clat.2.log"), 1.0, "clat"),
        (averaged.join("randrw-4k_iops.2.log"), 1.0, "iops"),
        (per_io.join("offsets_bw.1.log"), 1000.0, "bw"),
        (per_io.join("offsets_lat.1.log"), 1.0, "lat"),
    ];
    for (path, scale, kind) in cases {
        let raw = raw(&path);
        let got = values_of(&rows, &path);
        assert_eq!(got.len(), raw.len(), "{}", path.display());
        for (r, (v, bs)) in got.iter().zip(&raw) {
            assert_eq!(r["value"].as_f64(), Some(v * scale), "{}", path.display());
            assert_eq!(r["bs_bytes"].as_u64(), Some(*bs));
            assert_eq!(r["kind"], kind);
            assert_eq!(
                r["label"],
                path.parent()
                    .unwrap()
                    .file_name()
                    .unwrap()
                    .to_str()
                    .unwrap()
            );
        }
    }
}

#[test]
fn histogram_rows_are_percentiles_in_ns() {
    let rows = series_ndjson(&fixture("series/hist"));
    let hist: Vec<_> = rows.iter().filter(|r| r["kind"] == "hist").collect();
    assert!(!hist.is_empty());
    let mut percentiles: Vec<f64> = hist
        .iter()
        .map(|r| r["percentile"].as_f64().unwrap())
        .collect();
    percentiles.sort_by(f64::total_cmp);
    percentiles.dedup();
    assert_eq!(percentiles, [50.0, 99.0, 99.9]);
    // Within a line, higher percentiles are never lower; the job's clat
    // range from the result bounds them.
    let doc: Value =
        serde_json::from_slice(&std::fs::read(fixture("series/hist/result.json")).unwrap())
            .unwrap();
    let clat = &doc["jobs"][0]["read"]["clat_ns"];
    let (min, max) = (clat["min"].as_f64().unwrap(), clat["max"].as_f64().unwrap());
    for line in hist.chunks(3).filter(|c| c[0]["job"] == "randread-hist") {
        let v: Vec<f64> = line.iter().map(|r| r["value"].as_f64().unwrap()).collect();
        assert!(v[0] <= v[1] && v[1] <= v[2], "{v:?}");
        // A bin's middle can sit half a bin (< 1/64 of the value) past the extremes.
        assert!(
            v[0] >= min * 0.98 && v[2] <= max * 1.02,
            "{v:?} outside {min}..{max}"
        );
    }
}

#[test]
fn parquet_and_csv_hold_the_same_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (pq, csv) = (dir.path().join("s.parquet"), dir.path().join("s.csv"));
    let path = fixture("series/per-io");
    for out in [&pq, &csv] {
        assert_ok(
            &nvcmp()
                .arg("ingest")
                .arg(&path)
                .arg("--series")
                .arg(out)
                .output()
                .unwrap(),
        );
    }
    let csv_rows = std::fs::read_to_string(&csv).unwrap().lines().count() - 1;
    let expected: usize = logs_under(&path).iter().map(|p| expected_rows(p)).sum();
    assert_eq!(csv_rows, expected);
    let df = polars_io::prelude::ParquetReader::new(std::fs::File::open(&pq).unwrap());
    use polars_io::prelude::SerReader;
    assert_eq!(df.finish().unwrap().height(), expected);
}

#[test]
fn summary_counts_logs_and_both_datasets_can_be_written() {
    let dir = tempfile::tempdir().unwrap();
    let (d, s) = (dir.path().join("d.ndjson"), dir.path().join("s.csv"));
    let path = fixture("series/averaged");
    let done = nvcmp()
        .arg("ingest")
        .arg(&path)
        .arg("-o")
        .arg(&d)
        .arg("--series")
        .arg(&s)
        .output()
        .unwrap();
    assert_ok(&done);
    let logs = logs_under(&path);
    let rows: usize = logs.iter().map(|p| expected_rows(p)).sum();
    let line = format!("; {} logs, {rows} series rows", logs.len());
    assert!(stderr(&done).contains(&line), "{}", stderr(&done));
    assert!(std::fs::read_to_string(&d).unwrap().lines().count() >= 2);
    // Without --series the logs are counted, not read, not skipped.
    let done = nvcmp().arg("ingest").arg(&path).output().unwrap();
    assert_ok(&done);
    let hint = format!("{} fio logs not read", logs.len());
    assert!(stderr(&done).contains(&hint), "{}", stderr(&done));
}

#[test]
fn analyze_skips_no_log() {
    let done = nvcmp()
        .arg("analyze")
        .arg(fixture("series"))
        .output()
        .unwrap();
    assert_ok(&done);
    let err = stderr(&done);
    assert!(!err.contains("nvcmp: skipped"), "{err}");
    // A log is named only in a warning about a line or a log not read.
    for line in err.lines().filter(|l| l.contains(".log")) {
        assert!(line.starts_with("nvcmp: warning: "), "{err}");
    }
    assert!(
        err.contains("broken_iops.1.log: line 4: value `twelve`"),
        "{err}"
    );
}

#[test]
fn bad_series_extension_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let done = nvcmp()
        .arg("ingest")
        .arg(fixture("series/averaged"))
        .arg("--series")
        .arg(dir.path().join("s.json"))
        .output()
        .unwrap();
    assert_eq!(done.status.code(), Some(2));
    assert!(
        stderr(&done).contains(".parquet, .csv or .ndjson"),
        "{}",
        stderr(&done)
    );
}
