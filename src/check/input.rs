//! Reads one side of a check (`--baseline` or `--candidate`): result files
//! and folders, or a dataset saved by `nvcmp ingest -o`.
//!
//! TEMPORARY in part: until `crate::ingest::ingest` and
//! `crate::dataset::read` land on main, fio's JSON output (fio 3.x, the
//! fields `check` gates on) and datasets in JSON/NDJSON are read here;
//! then [`load`] becomes a call to those two and this reader goes.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::model::{Direction, Row, Skipped, Warning};

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
                    for mut r in rows {
                        if r.source.is_empty() {
                            r.source = source.clone();
                        }
                        if r.error != 0 {
                            out.warnings.push(Warning {
                                source: source.clone(),
                                message: format!("job `{}` reported error {}", r.job, r.error),
                            });
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
    if trimmed.starts_with('{') && !trimmed.contains("\"fio version\"") {
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
    // fio prints notes before its JSON (`note: both iodepth >= 1 and ...`).
    let start = text
        .find('{')
        .ok_or_else(|| "not fio output: no JSON document".to_string())?;
    let mut rows = Vec::new();
    let mut docs = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
    loop {
        match docs.next() {
            None => break,
            Some(Ok(doc)) => rows.extend(fio_doc(&doc)?),
            Some(Err(e)) => {
                return Err(format!("malformed fio JSON (truncated or corrupt): {e}"));
            }
        }
    }
    Ok(rows)
}

fn opt_str<'a>(job: &'a Value, global: &'a Value, key: &str) -> Option<&'a str> {
    job.get("job options")
        .and_then(|o| o.get(key))
        .or_else(|| global.get(key))
        .and_then(Value::as_str)
}

fn num(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64).filter(|x| x.is_finite())
}

/// Rows of one fio JSON document (fio 3.x: `lat_ns`, `bw_bytes`).
fn fio_doc(doc: &Value) -> Result<Vec<Row>, String> {
    let jobs = doc
        .get("jobs")
        .and_then(Value::as_array)
        .ok_or_else(|| "not fio output: no `jobs` array".to_string())?;
    let empty = Value::Null;
    let global = doc.get("global options").unwrap_or(&empty);
    let version = doc
        .get("fio version")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let mut rows = Vec::new();
    for job in jobs {
        let rw = opt_str(job, global, "rw")
            .or_else(|| opt_str(job, global, "readwrite"))
            .unwrap_or("read")
            .to_string();
        let bs = opt_str(job, global, "bs")
            .or_else(|| opt_str(job, global, "blocksize"))
            .unwrap_or("4k");
        let bs_parts: Vec<&str> = bs.split(',').collect();
        let int_opt = |k: &str| opt_str(job, global, k).and_then(|s| s.parse::<u32>().ok());
        for (i, dir) in Direction::ALL.iter().enumerate() {
            let Some(d) = job.get(dir.as_str()) else {
                continue;
            };
            if num(d, "io_bytes").unwrap_or(0.0) <= 0.0 {
                continue;
            }
            let mut r = Row::empty("", *dir);
            r.fio_version = version.clone();
            r.job = job
                .get("jobname")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            r.format = "json".into();
            r.engine = opt_str(job, global, "ioengine")
                .unwrap_or("psync")
                .to_string();
            r.rw = rw.clone();
            let part = bs_parts
                .get(i)
                .or(bs_parts.first())
                .copied()
                .unwrap_or("4k");
            r.bs_bytes = crate::units::parse_size(part.trim()).unwrap_or(4096);
            r.iodepth = int_opt("iodepth").unwrap_or(1);
            r.numjobs = int_opt("numjobs").unwrap_or(1);
            r.rwmixread = int_opt("rwmixread");
            r.runtime_ms = num(d, "runtime").unwrap_or(0.0);
            r.io_bytes = num(d, "io_bytes").unwrap_or(0.0) as u64;
            r.bw_bytes_per_s = num(d, "bw_bytes")
                .or_else(|| num(d, "bw").map(|kib| kib * 1024.0))
                .unwrap_or(0.0);
            r.iops = num(d, "iops").unwrap_or(0.0);
            if let Some(lat) = d.get("lat_ns") {
                r.lat_mean_ns = num(lat, "mean");
                r.lat_stddev_ns = num(lat, "stddev");
                r.lat_min_ns = num(lat, "min");
                r.lat_max_ns = num(lat, "max");
            }
            if let Some(clat) = d.get("clat_ns") {
                r.clat_mean_ns = num(clat, "mean");
                let p = clat.get("percentile");
                r.clat_p99_ns = p.and_then(|p| num(p, "99.000000"));
            }
            r.iops_samples = num(d, "iops_samples").map(|n| n as u64);
            r.iops_sample_mean = num(d, "iops_mean");
            r.iops_sample_stddev = num(d, "iops_stddev");
            r.bw_samples = num(d, "bw_samples").map(|n| n as u64);
            r.bw_sample_mean = num(d, "bw_mean").map(|kib| kib * 1024.0);
            r.bw_sample_stddev = num(d, "bw_dev").map(|kib| kib * 1024.0);
            r.usr_cpu_pct = num(job, "usr_cpu").unwrap_or(0.0);
            r.sys_cpu_pct = num(job, "sys_cpu").unwrap_or(0.0);
            r.error = job.get("error").and_then(Value::as_i64).unwrap_or(0);
            let values = [r.iops, r.bw_bytes_per_s, r.runtime_ms];
            if values.iter().any(|v| !v.is_finite() || *v < 0.0) {
                return Err(format!(
                    "job `{}`: a value is not a finite, non-negative number",
                    r.job
                ));
            }
            rows.push(r);
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
