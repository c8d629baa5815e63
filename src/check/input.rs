//! Reads one side of a check (`--baseline` or `--candidate`): result files
//! and folders, or a dataset saved by `nvcmp ingest -o`.
//!
//! TEMPORARY in part: until `crate::ingest::ingest` and
//! `crate::dataset::read` land on main, this walks the paths itself, reads
//! fio's JSON with ingest's own decoder and reader, and datasets in
//! JSON/NDJSON with serde; then [`load`] becomes a call to those two.

use std::path::{Path, PathBuf};

use crate::ingest::decode::{self, SegmentKind};
use crate::ingest::fio_json;
use crate::model::{Row, Skipped, Warning};

/// Rows of one side, with what could not be read.
#[derive(Debug, Default)]
pub struct Loaded {
    pub rows: Vec<Row>,
    pub skipped: Vec<Skipped>,
    pub warnings: Vec<Warning>,
    pub files_read: usize,
}

/// Reads every path: folders recursively (files that look like fio JSON
/// or a dataset), files as given.
pub fn load(paths: &[PathBuf]) -> Loaded {
    let mut out = Loaded::default();
    for p in paths {
        let mut files = Vec::new();
        if p.is_dir() {
            walk(p, &mut files);
            files.sort();
        } else {
            files.push(p.clone());
        }
        if files.is_empty() {
            out.skipped.push(Skipped {
                source: p.display().to_string(),
                reason: "no result files found".into(),
            });
        }
        for f in files {
            let source = f.display().to_string();
            match read_file(&f) {
                Ok(rows) if rows.is_empty() => out.skipped.push(Skipped {
                    source,
                    reason: "no job did any I/O".into(),
                }),
                Ok(rows) => {
                    out.files_read += 1;
                    // Jobs with an error are warned about by compare.
                    for mut r in rows {
                        if r.source.is_empty() {
                            r.source = source.clone();
                        }
                        out.rows.push(r);
                    }
                }
                Err(reason) => out.skipped.push(Skipped { source, reason }),
            }
        }
    }
    out
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, files);
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("json" | "ndjson" | "parquet")
        ) {
            files.push(p);
        }
    }
}

fn read_file(path: &Path) -> Result<Vec<Row>, String> {
    if path.extension().is_some_and(|e| e == "parquet") {
        return Err(
            "parquet datasets are not readable by this build yet; save the baseline with \
             `nvcmp ingest --format json` or pass the result folder"
                .into(),
        );
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    let text = String::from_utf8_lossy(&bytes);
    let text = text.trim_start_matches('\u{feff}');
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return Err("empty file".into());
    }
    // A dataset: an array of rows, or one row per line.
    if trimmed.starts_with('[') {
        return serde_json::from_str::<Vec<Row>>(trimmed)
            .map_err(|e| format!("malformed dataset JSON: {e}"));
    }
    // NDJSON rows are one complete object per line; fio pretty-prints, but
    // a compacted fio document is one line too: it has `jobs`.
    let first = trimmed.lines().next().unwrap_or("");
    let is_row = serde_json::from_str::<serde_json::Value>(first)
        .is_ok_and(|v| v.is_object() && v.get("jobs").is_none() && v.get("client_stats").is_none());
    if is_row {
        return trimmed
            .lines()
            .filter(|l| !l.trim().is_empty())
            .enumerate()
            .map(|(i, l)| {
                serde_json::from_str::<Row>(l)
                    .map_err(|e| format!("malformed dataset NDJSON, line {}: {e}", i + 1))
            })
            .collect();
    }
    fio_rows(&bytes)
}

/// fio's JSON output through ingest's decoder and JSON reader. Successive
/// documents with the same jobs are `--status-interval` snapshots
/// (cumulative): only the last one counts (CONTRACT.md).
fn fio_rows(bytes: &[u8]) -> Result<Vec<Row>, String> {
    let text = decode::decode(bytes).map_err(|e| e.to_string())?;
    let mut rows: Vec<Row> = Vec::new();
    let mut last_set = None;
    let mut docs = 0;
    for seg in decode::segments(&text) {
        if seg.kind != SegmentKind::Json {
            continue;
        }
        docs += 1;
        let doc = fio_json::parse(seg.text).map_err(|e| format!("line {}: {e}", seg.line))?;
        let set = fio_json::job_set(&doc);
        let parsed = fio_json::to_parsed(&doc);
        if last_set.as_ref() == Some(&set) {
            let n = parsed.rows.len();
            rows.truncate(rows.len().saturating_sub(n));
        }
        rows.extend(parsed.rows);
        last_set = Some(set);
    }
    if docs == 0 {
        return Err(
            "not fio output: no JSON document (fio's normal text output is not \
                    read by `check` yet; use --output-format=json)"
                .into(),
        );
    }
    Ok(rows)
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
        let loaded = load(&[path]);
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
        let loaded = load(&[fixture("truncated")]);
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
        let rows = load(&[fixture("run2")]).rows;
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("base.json");
        std::fs::write(&json, serde_json::to_string(&rows).unwrap()).unwrap();
        let ndjson = dir.path().join("base.ndjson");
        let lines: Vec<String> = rows
            .iter()
            .map(|r| serde_json::to_string(r).unwrap())
            .collect();
        std::fs::write(&ndjson, lines.join("\n")).unwrap();
        assert_eq!(load(&[json]).rows, rows);
        assert_eq!(load(&[ndjson]).rows, rows);
        // A compacted fio document is one line too, but it is fio output.
        let doc: serde_json::Value =
            serde_json::from_slice(&std::fs::read(fixture("run2/fio.json")).unwrap()).unwrap();
        let compact = dir.path().join("compact.json");
        std::fs::write(&compact, serde_json::to_string(&doc).unwrap()).unwrap();
        let from_compact = load(&[compact]).rows;
        assert_eq!(from_compact.len(), 2);
        assert_eq!(from_compact[0].iops, rows[0].iops);
    }
}
