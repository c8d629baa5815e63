//! The dataset: rows as a polars DataFrame with the columns of CONTRACT.md,
//! and its files (parquet, csv, json, ndjson), both ways.
//!
//! Column order is [`Row`]'s field order: the contract's columns first,
//! then the additions. json/ndjson go through serde from the rows (no
//! polars json feature: it costs build minutes and gives nothing here).

use std::io::Write;
use std::path::Path;

use anyhow::{Context, bail};
use polars::prelude::*;

use crate::model::{Direction, Row};

/// A dataset file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFormat {
    Parquet,
    Csv,
    /// One JSON array of row objects.
    Json,
    /// One JSON object per line.
    Ndjson,
}

impl FileFormat {
    /// By file extension (`.parquet`, `.csv`, `.json`, `.ndjson`/`.jsonl`).
    pub fn from_path(path: &Path) -> Option<FileFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "parquet" | "pq" => FileFormat::Parquet,
            "csv" => FileFormat::Csv,
            "json" => FileFormat::Json,
            "ndjson" | "jsonl" => FileFormat::Ndjson,
            _ => return None,
        })
    }

    /// Whether the format is bytes a terminal should not get.
    pub fn is_binary(self) -> bool {
        self == FileFormat::Parquet
    }
}

/// The rows as a DataFrame: contract columns first, then the extra fields.
pub fn to_dataframe(rows: &[Row]) -> PolarsResult<DataFrame> {
    macro_rules! col {
        ($name:literal, $f:expr) => {
            Column::new($name.into(), rows.iter().map($f).collect::<Vec<_>>())
        };
    }
    let columns = vec![
        col!("source", |r: &Row| r.source.as_str()),
        col!("label", |r: &Row| r.label.as_str()),
        col!("os", |r: &Row| r.os.as_str()),
        col!("engine", |r: &Row| r.engine.as_str()),
        col!("fio_version", |r: &Row| r.fio_version.as_str()),
        col!("host", |r: &Row| r.host.as_deref()),
        col!("job", |r: &Row| r.job.as_str()),
        col!("format", |r: &Row| r.format.as_str()),
        col!("rw", |r: &Row| r.rw.as_str()),
        col!("direction", |r: &Row| r.direction.as_str()),
        col!("bs_bytes", |r: &Row| r.bs_bytes),
        col!("iodepth", |r: &Row| i64::from(r.iodepth)),
        col!("numjobs", |r: &Row| i64::from(r.numjobs)),
        col!("runtime_ms", |r: &Row| r.runtime_ms),
        col!("io_bytes", |r: &Row| r.io_bytes),
        col!("bw_bytes_per_s", |r: &Row| r.bw_bytes_per_s),
        col!("iops", |r: &Row| r.iops),
        col!("iops_precision", |r: &Row| r.iops_precision),
        col!("lat_mean_ns", |r: &Row| r.lat_mean_ns),
        col!("lat_stddev_ns", |r: &Row| r.lat_stddev_ns),
        col!("lat_min_ns", |r: &Row| r.lat_min_ns),
        col!("lat_max_ns", |r: &Row| r.lat_max_ns),
        col!("clat_mean_ns", |r: &Row| r.clat_mean_ns),
        col!("clat_p50_ns", |r: &Row| r.clat_p50_ns),
        col!("clat_p99_ns", |r: &Row| r.clat_p99_ns),
        col!("clat_p99_9_ns", |r: &Row| r.clat_p99_9_ns),
        col!("usr_cpu_pct", |r: &Row| r.usr_cpu_pct),
        col!("sys_cpu_pct", |r: &Row| r.sys_cpu_pct),
        col!("system_cpu_pct", |r: &Row| r.system_cpu_pct),
        col!("error", |r: &Row| r.error),
        col!("aggregate", |r: &Row| r.aggregate),
        // ---- beyond the contract ----
        col!("rwmixread", |r: &Row| r.rwmixread.map(i64::from)),
        col!("bw_precision", |r: &Row| r.bw_precision),
        col!("lat_precision_ns", |r: &Row| r.lat_precision_ns),
        col!("slat_mean_ns", |r: &Row| r.slat_mean_ns),
        col!("clat_stddev_ns", |r: &Row| r.clat_stddev_ns),
        col!("clat_p90_ns", |r: &Row| r.clat_p90_ns),
        col!("clat_p95_ns", |r: &Row| r.clat_p95_ns),
        col!("clat_p99_99_ns", |r: &Row| r.clat_p99_99_ns),
        col!("lat_p50_ns", |r: &Row| r.lat_p50_ns),
        col!("lat_p99_ns", |r: &Row| r.lat_p99_ns),
        col!("lat_p99_9_ns", |r: &Row| r.lat_p99_9_ns),
        col!("iops_samples", |r: &Row| r.iops_samples),
        col!("iops_sample_mean", |r: &Row| r.iops_sample_mean),
        col!("iops_sample_stddev", |r: &Row| r.iops_sample_stddev),
        col!("bw_samples", |r: &Row| r.bw_samples),
        col!("bw_sample_mean", |r: &Row| r.bw_sample_mean),
        col!("bw_sample_stddev", |r: &Row| r.bw_sample_stddev),
        col!("filename", |r: &Row| r.filename.as_deref()),
        col!("timestamp", |r: &Row| r.timestamp),
        col!("effective_iodepth", |r: &Row| r
            .effective_iodepth
            .map(i64::from)),
        col!("direct", |r: &Row| r.direct),
        col!("steady_state_attained", |r: &Row| r.steady_state_attained),
        col!("steady_state_rule", |r: &Row| r
            .steady_state_rule
            .as_deref()),
        col!("steady_state_measured", |r: &Row| r
            .steady_state_measured
            .as_deref()),
        col!("steady_state_duration_ms", |r: &Row| r
            .steady_state_duration_ms),
        col!("steady_state_iops", |r: &Row| r.steady_state_iops),
        col!("steady_state_bw_bytes_per_s", |r: &Row| r
            .steady_state_bw_bytes_per_s),
    ];
    DataFrame::new(rows.len(), columns)
}

/// Writes rows to `path`, the format chosen by its extension.
pub fn write(rows: &[Row], path: &Path) -> anyhow::Result<()> {
    let format = FileFormat::from_path(path).with_context(|| {
        format!(
            "{}: unknown dataset extension (use .parquet, .csv, .json or .ndjson)",
            path.display()
        )
    })?;
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    let mut w = std::io::BufWriter::new(file);
    write_to(rows, format, &mut w).with_context(|| format!("cannot write {}", path.display()))?;
    w.flush()
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Writes rows in `format` to any writer (stdout, a file, a buffer).
pub fn write_to(rows: &[Row], format: FileFormat, w: &mut dyn Write) -> anyhow::Result<()> {
    match format {
        FileFormat::Parquet => {
            let mut df = to_dataframe(rows)?;
            ParquetWriter::new(w).finish(&mut df)?;
        }
        FileFormat::Csv => {
            let mut df = to_dataframe(rows)?;
            CsvWriter::new(w).include_header(true).finish(&mut df)?;
        }
        FileFormat::Json => {
            serde_json::to_writer_pretty(&mut *w, rows)?;
            w.write_all(b"\n")?;
        }
        FileFormat::Ndjson => {
            for r in rows {
                serde_json::to_writer(&mut *w, r)?;
                w.write_all(b"\n")?;
            }
        }
    }
    Ok(())
}

/// Reads a dataset written by [`write`] (parquet, json or ndjson), e.g. a
/// saved baseline for `nvcmp check`.
pub fn read(path: &Path) -> anyhow::Result<Vec<Row>> {
    let ctx = || format!("cannot read dataset {}", path.display());
    match FileFormat::from_path(path) {
        Some(FileFormat::Parquet) => {
            let file = std::fs::File::open(path).with_context(ctx)?;
            let df = ParquetReader::new(file)
                .finish()
                .map_err(anyhow::Error::from)
                .with_context(ctx)?;
            from_dataframe(&df).with_context(ctx)
        }
        Some(FileFormat::Json | FileFormat::Ndjson) => {
            let text = std::fs::read_to_string(path).with_context(ctx)?;
            from_json(&text).with_context(ctx)
        }
        Some(FileFormat::Csv) => bail!(
            "{}: reading a csv dataset is not supported; save it as .parquet or .ndjson",
            path.display()
        ),
        None => bail!(
            "{}: unknown dataset extension (use .parquet, .json or .ndjson)",
            path.display()
        ),
    }
}

/// Rows from a JSON array or from JSON lines.
pub fn from_json(text: &str) -> anyhow::Result<Vec<Row>> {
    if text.trim_start().starts_with('[') {
        return Ok(serde_json::from_str(text)?);
    }
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).with_context(|| format!("line {}", i + 1)))
        .collect()
}

/// Rows back from a DataFrame made by [`to_dataframe`]. Missing optional
/// columns read as null, so datasets from older versions still load.
pub fn from_dataframe(df: &DataFrame) -> anyhow::Result<Vec<Row>> {
    let n = df.height();
    let get = |name: &str, dtype: DataType| -> anyhow::Result<Option<Column>> {
        match df.column(name) {
            Ok(c) => Ok(Some(
                c.cast(&dtype)
                    .map_err(anyhow::Error::from)
                    .with_context(|| format!("column {name}"))?,
            )),
            Err(_) => Ok(None),
        }
    };
    let strs = |name: &str| -> anyhow::Result<Vec<Option<String>>> {
        Ok(match get(name, DataType::String)? {
            Some(c) => {
                let ca = c.str()?;
                (0..n).map(|i| ca.get(i).map(str::to_string)).collect()
            }
            None => vec![None; n],
        })
    };
    let f64s = |name: &str| -> anyhow::Result<Vec<Option<f64>>> {
        Ok(match get(name, DataType::Float64)? {
            Some(c) => {
                let ca = c.f64()?;
                (0..n).map(|i| ca.get(i)).collect()
            }
            None => vec![None; n],
        })
    };
    let u64s = |name: &str| -> anyhow::Result<Vec<Option<u64>>> {
        Ok(match get(name, DataType::UInt64)? {
            Some(c) => {
                let ca = c.u64()?;
                (0..n).map(|i| ca.get(i)).collect()
            }
            None => vec![None; n],
        })
    };
    let i64s = |name: &str| -> anyhow::Result<Vec<Option<i64>>> {
        Ok(match get(name, DataType::Int64)? {
            Some(c) => {
                let ca = c.i64()?;
                (0..n).map(|i| ca.get(i)).collect()
            }
            None => vec![None; n],
        })
    };
    let bools = |name: &str| -> anyhow::Result<Vec<Option<bool>>> {
        Ok(match get(name, DataType::Boolean)? {
            Some(c) => {
                let ca = c.bool()?;
                (0..n).map(|i| ca.get(i)).collect()
            }
            None => vec![None; n],
        })
    };

    let direction = strs("direction")?;
    let (source, label, os, engine) = (
        strs("source")?,
        strs("label")?,
        strs("os")?,
        strs("engine")?,
    );
    let (fio_version, host, job, format, rw) = (
        strs("fio_version")?,
        strs("host")?,
        strs("job")?,
        strs("format")?,
        strs("rw")?,
    );
    let filename = strs("filename")?;
    let (ss_rule, ss_measured, ss_attained) = (
        strs("steady_state_rule")?,
        strs("steady_state_measured")?,
        bools("steady_state_attained")?,
    );
    let (bs, io_bytes, iops_samples, bw_samples) = (
        u64s("bs_bytes")?,
        u64s("io_bytes")?,
        u64s("iops_samples")?,
        u64s("bw_samples")?,
    );
    let effective_iodepth = i64s("effective_iodepth")?;
    let (iodepth, numjobs, error, rwmixread, timestamp) = (
        i64s("iodepth")?,
        i64s("numjobs")?,
        i64s("error")?,
        i64s("rwmixread")?,
        i64s("timestamp")?,
    );
    let (aggregate, direct) = (bools("aggregate")?, bools("direct")?);
    let names = [
        "runtime_ms",
        "bw_bytes_per_s",
        "iops",
        "iops_precision",
        "lat_mean_ns",
        "lat_stddev_ns",
        "lat_min_ns",
        "lat_max_ns",
        "clat_mean_ns",
        "clat_p50_ns",
        "clat_p99_ns",
        "clat_p99_9_ns",
        "usr_cpu_pct",
        "sys_cpu_pct",
        "system_cpu_pct",
        "bw_precision",
        "lat_precision_ns",
        "slat_mean_ns",
        "clat_stddev_ns",
        "clat_p90_ns",
        "clat_p95_ns",
        "clat_p99_99_ns",
        "lat_p50_ns",
        "lat_p99_ns",
        "lat_p99_9_ns",
        "iops_sample_mean",
        "iops_sample_stddev",
        "bw_sample_mean",
        "bw_sample_stddev",
        "steady_state_duration_ms",
        "steady_state_iops",
        "steady_state_bw_bytes_per_s",
    ];
    let floats: Vec<Vec<Option<f64>>> = names.iter().map(|n| f64s(n)).collect::<Result<_, _>>()?;
    let fl = |name: &str, i: usize| floats[names.iter().position(|n| *n == name).unwrap()][i];

    let mut rows = Vec::with_capacity(n);
    for i in 0..n {
        let dir = direction[i]
            .as_deref()
            .and_then(Direction::parse)
            .with_context(|| format!("row {i}: bad or missing direction"))?;
        let s = |v: &Vec<Option<String>>| v[i].clone().unwrap_or_default();
        let mut r = Row::empty(&s(&source), dir);
        r.label = s(&label);
        r.os = os[i].clone().unwrap_or_else(|| "unknown".into());
        r.engine = s(&engine);
        r.fio_version = s(&fio_version);
        r.host = host[i].clone();
        r.job = s(&job);
        r.format = s(&format);
        r.rw = s(&rw);
        r.bs_bytes = bs[i].unwrap_or(0);
        r.iodepth = iodepth[i].unwrap_or(1).clamp(0, u32::MAX as i64) as u32;
        r.numjobs = numjobs[i].unwrap_or(1).clamp(0, u32::MAX as i64) as u32;
        r.io_bytes = io_bytes[i].unwrap_or(0);
        r.runtime_ms = fl("runtime_ms", i).unwrap_or(0.0);
        r.bw_bytes_per_s = fl("bw_bytes_per_s", i).unwrap_or(0.0);
        r.iops = fl("iops", i).unwrap_or(0.0);
        r.iops_precision = fl("iops_precision", i).unwrap_or(1.0);
        r.lat_mean_ns = fl("lat_mean_ns", i);
        r.lat_stddev_ns = fl("lat_stddev_ns", i);
        r.lat_min_ns = fl("lat_min_ns", i);
        r.lat_max_ns = fl("lat_max_ns", i);
        r.clat_mean_ns = fl("clat_mean_ns", i);
        r.clat_p50_ns = fl("clat_p50_ns", i);
        r.clat_p99_ns = fl("clat_p99_ns", i);
        r.clat_p99_9_ns = fl("clat_p99_9_ns", i);
        r.usr_cpu_pct = fl("usr_cpu_pct", i).unwrap_or(0.0);
        r.sys_cpu_pct = fl("sys_cpu_pct", i).unwrap_or(0.0);
        r.system_cpu_pct = fl("system_cpu_pct", i);
        r.error = error[i].unwrap_or(0);
        r.aggregate = aggregate[i].unwrap_or(false);
        r.rwmixread = rwmixread[i].and_then(|v| u32::try_from(v).ok());
        r.bw_precision = fl("bw_precision", i).unwrap_or(1.0);
        r.lat_precision_ns = fl("lat_precision_ns", i).unwrap_or(1.0);
        r.slat_mean_ns = fl("slat_mean_ns", i);
        r.clat_stddev_ns = fl("clat_stddev_ns", i);
        r.clat_p90_ns = fl("clat_p90_ns", i);
        r.clat_p95_ns = fl("clat_p95_ns", i);
        r.clat_p99_99_ns = fl("clat_p99_99_ns", i);
        r.lat_p50_ns = fl("lat_p50_ns", i);
        r.lat_p99_ns = fl("lat_p99_ns", i);
        r.lat_p99_9_ns = fl("lat_p99_9_ns", i);
        r.iops_samples = iops_samples[i];
        r.iops_sample_mean = fl("iops_sample_mean", i);
        r.iops_sample_stddev = fl("iops_sample_stddev", i);
        r.bw_samples = bw_samples[i];
        r.bw_sample_mean = fl("bw_sample_mean", i);
        r.bw_sample_stddev = fl("bw_sample_stddev", i);
        r.filename = filename[i].clone();
        r.timestamp = timestamp[i];
        r.effective_iodepth = effective_iodepth[i].and_then(|v| u32::try_from(v).ok());
        r.direct = direct[i];
        r.steady_state_attained = ss_attained[i];
        r.steady_state_rule = ss_rule[i].clone();
        r.steady_state_measured = ss_measured[i].clone();
        r.steady_state_duration_ms = fl("steady_state_duration_ms", i);
        r.steady_state_iops = fl("steady_state_iops", i);
        r.steady_state_bw_bytes_per_s = fl("steady_state_bw_bytes_per_s", i);
        rows.push(r);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Row> {
        let text = include_str!("ingest/testdata/client-server-2.json");
        let mut rows =
            crate::ingest::fio_json::to_parsed(&crate::ingest::fio_json::parse(text).unwrap()).rows;
        for (i, r) in rows.iter_mut().enumerate() {
            r.source = format!("dir/f{i}.json");
            r.label = "lab".into();
            r.clat_bins = None; // not a column
        }
        rows[0].system_cpu_pct = Some(45.76);
        rows[1].rwmixread = Some(70);
        // direct in all three states, so each survives the round trip.
        rows[0].direct = Some(true);
        rows[1].direct = None;
        let ss = crate::ingest::steady::Verdict {
            attained: true,
            rule: "iops:30%".into(),
            measured: Some("6.518%".into()),
            duration_ms: Some(3000.0),
            iops: Some(16769.0),
            bw_bytes_per_s: Some(68688183.0),
        };
        ss.apply(&mut rows[1]);
        rows
    }

    const CONTRACT: [(&str, &str); 31] = [
        ("source", "str"),
        ("label", "str"),
        ("os", "str"),
        ("engine", "str"),
        ("fio_version", "str"),
        ("host", "str"),
        ("job", "str"),
        ("format", "str"),
        ("rw", "str"),
        ("direction", "str"),
        ("bs_bytes", "u64"),
        ("iodepth", "i64"),
        ("numjobs", "i64"),
        ("runtime_ms", "f64"),
        ("io_bytes", "u64"),
        ("bw_bytes_per_s", "f64"),
        ("iops", "f64"),
        ("iops_precision", "f64"),
        ("lat_mean_ns", "f64"),
        ("lat_stddev_ns", "f64"),
        ("lat_min_ns", "f64"),
        ("lat_max_ns", "f64"),
        ("clat_mean_ns", "f64"),
        ("clat_p50_ns", "f64"),
        ("clat_p99_ns", "f64"),
        ("clat_p99_9_ns", "f64"),
        ("usr_cpu_pct", "f64"),
        ("sys_cpu_pct", "f64"),
        ("system_cpu_pct", "f64"),
        ("error", "i64"),
        ("aggregate", "bool"),
    ];

    #[test]
    fn contract_columns_come_first_with_their_types() {
        let rows = sample();
        let df = to_dataframe(&rows).unwrap();
        assert_eq!(df.height(), rows.len());
        for (i, (name, ty)) in CONTRACT.iter().enumerate() {
            let col = &df.columns()[i];
            assert_eq!(col.name().as_str(), *name);
            assert_eq!(col.dtype().to_string(), *ty, "{name}");
        }
        let iops = df.column("iops").unwrap().f64().unwrap();
        assert_eq!(iops.get(0), Some(rows[0].iops));
        let host = df.column("host").unwrap().str().unwrap();
        assert_eq!(host.get(2), None); // the aggregate has no host
        let direct = df.column("direct").unwrap();
        assert_eq!(direct.dtype().to_string(), "bool");
        let direct = direct.bool().unwrap();
        assert_eq!(
            (direct.get(0), direct.get(1), direct.get(2)),
            (Some(true), None, Some(false))
        );
    }

    #[test]
    fn files_round_trip() {
        let rows = sample();
        let dir = tempfile::tempdir().unwrap();
        for ext in ["parquet", "json", "ndjson"] {
            let p = dir.path().join(format!("d.{ext}"));
            write(&rows, &p).unwrap();
            assert_eq!(read(&p).unwrap(), rows, "{ext}");
        }
        let p = dir.path().join("d.csv");
        write(&rows, &p).unwrap();
        let csv = std::fs::read_to_string(&p).unwrap();
        let header = csv.lines().next().unwrap();
        assert!(header.starts_with(
            "source,label,os,engine,fio_version,host,job,format,rw,direction,bs_bytes"
        ));
        assert_eq!(csv.lines().count(), rows.len() + 1);
        assert!(write(&rows, &dir.path().join("d.xlsx")).is_err());
    }
}
