//! Reads one side of a check (`--baseline` or `--candidate`): result files
//! and folders through [`crate::ingest::ingest`], or a dataset saved by
//! `nvcmp ingest -o` (parquet, json, ndjson) through [`crate::dataset::read`],
//! so a baseline can be committed next to the code.

use std::path::{Path, PathBuf};

use crate::dataset::{self, FileFormat};
use crate::ingest::{self, IngestOptions};
use crate::model::{Row, Skipped, Warning};

/// Rows of one side, with what could not be read.
#[derive(Debug, Default)]
pub struct Loaded {
    pub rows: Vec<Row>,
    pub skipped: Vec<Skipped>,
    pub warnings: Vec<Warning>,
    pub files_read: usize,
    /// Steady-state verdicts from the fio logs next to the results (SNIA
    /// rule, default rounds).
    pub log_steady: crate::compare::snia::Verdicts,
}

/// Reads every path: datasets with the dataset reader, everything else
/// (files, folders) with ingest. Fails only on a bad manifest.
pub fn load(paths: &[PathBuf]) -> anyhow::Result<Loaded> {
    let mut out = Loaded::default();
    let mut results = Vec::new();
    for p in paths {
        if !is_dataset(p) {
            results.push(p.clone());
            continue;
        }
        match dataset::read(p) {
            Ok(rows) if rows.is_empty() => out.skipped.push(Skipped {
                source: p.display().to_string(),
                reason: "empty dataset".into(),
            }),
            Ok(rows) => {
                out.files_read += 1;
                out.rows.extend(rows);
            }
            Err(e) => out.skipped.push(Skipped {
                source: p.display().to_string(),
                // The chain's last link is the cause; the first names the file again.
                reason: e
                    .chain()
                    .skip(1)
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(": "),
            }),
        }
    }
    if !results.is_empty() {
        let ingested = ingest::ingest(&results, &IngestOptions::default())?;
        if !ingested.logs.is_empty() {
            let plan = ingest::series::plan(&ingested);
            let folds = ingest::series::fold_plan(plan, &|_| {});
            let runs = crate::compare::logs::join(&folds, &ingested.rows);
            out.log_steady = crate::compare::snia::judge(&runs, None);
        }
        out.rows.extend(ingested.rows);
        out.skipped.extend(ingested.skipped);
        out.warnings.extend(ingested.warnings);
        out.files_read += ingested.files_read;
    }
    Ok(out)
}

/// A file saved by `nvcmp ingest -o`: parquet or ndjson by name; a `.json`
/// file when it holds rows (an array) rather than fio's output (an object
/// with `jobs`).
fn is_dataset(path: &Path) -> bool {
    if !path.is_file() {
        return false;
    }
    match FileFormat::from_path(path) {
        Some(FileFormat::Parquet | FileFormat::Ndjson) => true,
        Some(FileFormat::Json) => std::fs::read(path).is_ok_and(|b| {
            let text = String::from_utf8_lossy(&b);
            let text = text.trim_start_matches('\u{feff}').trim_start();
            if text.starts_with('[') {
                return true;
            }
            let first = text.lines().next().unwrap_or("");
            serde_json::from_str::<serde_json::Value>(first).is_ok_and(|v| {
                v.is_object() && v.get("jobs").is_none() && v.get("client_stats").is_none()
            })
        }),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Direction;
    use serde_json::Value;

    fn fixture(rel: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/check")
            .join(rel)
    }

    #[test]
    fn reads_a_real_fio_run_with_its_own_numbers() {
        let path = fixture("run1/fio.json");
        let doc: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let loaded = load(&[path]).unwrap();
        assert!(loaded.skipped.is_empty(), "{:?}", loaded.skipped);
        assert_eq!(loaded.rows.len(), 2);
        let read = &doc["jobs"][0]["read"];
        let r = &loaded.rows[0];
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
        assert_eq!(loaded.rows[1].rw, "randwrite");
        assert_eq!(loaded.rows[1].direction, Direction::Write);
    }

    #[test]
    fn a_truncated_file_is_skipped_with_a_reason() {
        let loaded = load(&[fixture("truncated")]).unwrap();
        assert!(loaded.rows.is_empty());
        assert_eq!(loaded.skipped.len(), 1);
        assert!(loaded.skipped[0].source.ends_with("truncated/fio.json"));
        assert!(
            loaded.skipped[0].reason.contains("truncated"),
            "{}",
            loaded.skipped[0].reason
        );
    }

    #[test]
    fn a_dataset_round_trips() {
        let rows = load(&[fixture("run2")]).unwrap().rows;
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("base.json");
        std::fs::write(&json, serde_json::to_string(&rows).unwrap()).unwrap();
        let ndjson = dir.path().join("base.ndjson");
        let lines: Vec<String> = rows
            .iter()
            .map(|r| serde_json::to_string(r).unwrap())
            .collect();
        std::fs::write(&ndjson, lines.join("\n")).unwrap();
        assert_eq!(load(&[json]).unwrap().rows, rows);
        assert_eq!(load(&[ndjson]).unwrap().rows, rows);
        // A compacted fio document is one line too, but it is fio output.
        let doc: serde_json::Value =
            serde_json::from_slice(&std::fs::read(fixture("run2/fio.json")).unwrap()).unwrap();
        let compact = dir.path().join("compact.json");
        std::fs::write(&compact, serde_json::to_string(&doc).unwrap()).unwrap();
        let from_compact = load(&[compact]).unwrap().rows;
        assert_eq!(from_compact.len(), 2);
        assert_eq!(from_compact[0].iops, rows[0].iops);
    }
}
