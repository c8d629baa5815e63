//! fio's terse output (`--output-format=terse` / `--minimal`), versions 2
//! to 5: one semicolon-separated line per job, fields as in fio's
//! `show_thread_status_terse` / `show_ddir_status_terse` (stat.c) and
//! HOWTO "Terse output".
//!
//! Per direction: io (KiB), bw (KiB/s), iops, runtime (msec), slat, clat
//! (min, max, mean, stdev in usec), 20 clat percentile slots `p%=usec`, lat,
//! bw samples (min, max, agg%, mean, stdev); v5 adds the bw sample count and
//! iops samples (min, max, mean, stdev, count). Trim is present in v2, v4
//! and v5, not in v3. Terse carries no rw, bs or ioengine: rows say
//! `unknown` engine, `rw` from the directions that did I/O, and the block
//! size is the mean I/O size; a warning says so.

use super::{Parsed, ReadError, Reader};
use crate::model::{Direction, Row};

/// Reader of fio's terse (semicolon) output.
pub struct TerseReader;

const FORMAT: &str = "terse";

impl Reader for TerseReader {
    fn name(&self) -> &'static str {
        FORMAT
    }

    fn sniff(&self, text: &str) -> bool {
        text.lines().any(|l| terse_version(l).is_some())
    }

    fn read(&self, text: &str) -> Result<Parsed, ReadError> {
        let mut rows: Vec<Row> = Vec::new();
        let mut line_names: Vec<String> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            let Some(ver) = terse_version(line) else {
                continue;
            };
            let fields: Vec<&str> = line.split(';').collect();
            read_line(ver, &fields, &mut rows).map_err(|reason| ReadError::Malformed {
                format: FORMAT,
                reason: format!("line {}: {reason}", n + 1),
            })?;
            line_names.push(
                fields
                    .get(if ver == 2 { 1 } else { 2 })
                    .unwrap_or(&"")
                    .to_string(),
            );
        }
        if rows.is_empty() {
            return Err(ReadError::NoRows);
        }
        // The same job name on several lines: clones of one numjobs job.
        for r in &mut rows {
            r.numjobs = line_names.iter().filter(|n| **n == r.job).count().max(1) as u32;
        }
        Ok(Parsed {
            rows,
            warnings: vec![
                "terse output names no rw, block size or ioengine: rw taken from the directions, bs from the mean I/O size, engine unknown".into(),
            ],
        })
    }
}

/// The terse version of a line that is a terse job line (`3;fio-3.33;...`).
fn terse_version(line: &str) -> Option<u32> {
    let (v, rest) = line.split_once(';')?;
    let v: u32 = v.parse().ok()?;
    match v {
        2 => (rest.matches(';').count() > 40).then_some(2),
        3..=5 => (rest.starts_with("fio-") && rest.matches(';').count() > 40).then_some(v),
        _ => None,
    }
}

/// Fields of one direction.
fn ddir_fields(ver: u32) -> usize {
    if ver == 5 { 47 } else { 41 }
}

fn num(fields: &[&str], i: usize, what: &str) -> Result<f64, String> {
    let s = fields
        .get(i)
        .ok_or_else(|| format!("ends before field {} ({what})", i + 1))?;
    let v: f64 = s
        .trim()
        .trim_end_matches('%')
        .parse()
        .map_err(|_| format!("field {} ({what}) is `{s}`, not a number", i + 1))?;
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(format!("field {} ({what}) is {s}", i + 1))
    }
}

fn read_line(ver: u32, f: &[&str], rows: &mut Vec<Row>) -> Result<(), String> {
    let (version, name, base) = if ver == 2 {
        (String::new(), f.get(1), 2)
    } else {
        (
            f.get(1).map(|s| s.to_string()).unwrap_or_default(),
            f.get(2),
            3,
        )
    };
    let name = name.ok_or("no job name")?.to_string();
    let error = f
        .get(base + 1)
        .and_then(|e| e.trim().parse::<i64>().ok())
        .ok_or("no error field")?;
    let start = base + 2;
    let dirs: &[Direction] = if ver == 3 {
        &[Direction::Read, Direction::Write]
    } else {
        &[Direction::Read, Direction::Write, Direction::Trim]
    };
    let cpu = start + dirs.len() * ddir_fields(ver);
    let usr = num(f, cpu, "cpu user")?;
    let sys = num(f, cpu + 1, "cpu system")?;
    let mut did_io = Vec::new();
    for (k, &dir) in dirs.iter().enumerate() {
        let o = start + k * ddir_fields(ver);
        let io_kib = num(f, o, "io KiB")?;
        let runtime = num(f, o + 3, "runtime")?;
        if io_kib == 0.0 || runtime == 0.0 {
            continue;
        }
        let mut r = Row::empty("", dir);
        r.format = FORMAT.into();
        r.fio_version = version.clone();
        r.job = name.clone();
        r.error = error;
        r.io_bytes = (io_kib * 1024.0) as u64;
        r.bw_bytes_per_s = num(f, o + 1, "bw KiB/s")? * 1024.0;
        r.bw_precision = 1024.0;
        r.iops = num(f, o + 2, "iops")?;
        r.runtime_ms = runtime;
        let us = |i: usize, what: &str| num(f, o + i, what).map(|v| v * 1000.0);
        r.slat_mean_ns = Some(us(6, "slat mean")?);
        r.clat_mean_ns = Some(us(10, "clat mean")?);
        r.clat_stddev_ns = Some(us(11, "clat stdev")?);
        for slot in 0..20 {
            let s = f.get(o + 12 + slot).ok_or("ends inside the percentiles")?;
            let (p, v) = s
                .split_once("%=")
                .ok_or_else(|| format!("percentile field `{s}`"))?;
            let (Ok(p), Ok(v)) = (p.parse::<f64>(), v.parse::<f64>()) else {
                return Err(format!("percentile field `{s}`"));
            };
            let ns = Some(v * 1000.0);
            match p {
                p if (p - 50.0).abs() < 1e-6 => r.clat_p50_ns = ns,
                p if (p - 90.0).abs() < 1e-6 => r.clat_p90_ns = ns,
                p if (p - 95.0).abs() < 1e-6 => r.clat_p95_ns = ns,
                p if (p - 99.0).abs() < 1e-6 => r.clat_p99_ns = ns,
                p if (p - 99.9).abs() < 1e-6 => r.clat_p99_9_ns = ns,
                p if (p - 99.99).abs() < 1e-6 => r.clat_p99_99_ns = ns,
                _ => {}
            }
        }
        r.lat_min_ns = Some(us(32, "lat min")?);
        r.lat_max_ns = Some(us(33, "lat max")?);
        r.lat_mean_ns = Some(us(34, "lat mean")?);
        r.lat_stddev_ns = Some(us(35, "lat stdev")?);
        // Means are printed `%f` in usec: six decimals.
        r.lat_precision_ns = 0.001;
        r.bw_sample_mean = Some(num(f, o + 39, "bw mean")? * 1024.0);
        r.bw_sample_stddev = Some(num(f, o + 40, "bw stdev")? * 1024.0);
        if ver == 5 {
            r.bw_samples = Some(num(f, o + 41, "bw samples")? as u64);
            r.iops_sample_mean = Some(num(f, o + 44, "iops mean")?);
            r.iops_sample_stddev = Some(num(f, o + 45, "iops stdev")?);
            r.iops_samples = Some(num(f, o + 46, "iops samples")? as u64);
        }
        r.usr_cpu_pct = usr;
        r.sys_cpu_pct = sys;
        let ios = r.iops * r.runtime_ms / 1000.0;
        if ios >= 1.0 {
            r.bs_bytes = ((r.io_bytes as f64 / ios / 512.0).round() as u64).max(1) * 512;
        }
        r.engine = "unknown".into();
        did_io.push(r);
    }
    if did_io.is_empty() {
        return Err(format!("job {name} did no I/O"));
    }
    let rw = match (did_io.len(), did_io[0].direction) {
        (1, d) => d.as_str().to_string(),
        _ => "rw".to_string(),
    };
    for mut r in did_io {
        r.rw = rw.clone();
        rows.push(r);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(rel: &str) -> String {
        let path = format!("{}/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    #[test]
    fn real_terse_v3_line() {
        let text = fixture("fio/linux-libaio/randread-4k.terse.txt");
        let f: Vec<&str> = text.trim_end().split(';').collect();
        let p = TerseReader.read(&text).unwrap();
        assert_eq!(p.rows.len(), 1);
        let r = &p.rows[0];
        // Checked against the line's own fields (HOWTO positions, v3).
        assert_eq!(r.fio_version, f[1]);
        assert_eq!(r.job, f[2]);
        assert_eq!(r.io_bytes, f[5].parse::<u64>().unwrap() * 1024);
        assert_eq!(r.bw_bytes_per_s, f[6].parse::<f64>().unwrap() * 1024.0);
        assert_eq!(r.iops, f[7].parse::<f64>().unwrap());
        assert_eq!(r.runtime_ms, f[8].parse::<f64>().unwrap());
        assert_eq!(
            r.lat_mean_ns,
            Some(f[5 + 34].parse::<f64>().unwrap() * 1000.0)
        );
        assert_eq!(
            r.clat_mean_ns,
            Some(f[5 + 10].parse::<f64>().unwrap() * 1000.0)
        );
        assert_eq!(
            r.bw_sample_mean,
            Some(f[5 + 39].parse::<f64>().unwrap() * 1024.0)
        );
        let p50 = f.iter().find(|s| s.starts_with("50.000000%=")).unwrap();
        assert_eq!(
            r.clat_p50_ns,
            Some(p50[11..].parse::<f64>().unwrap() * 1000.0)
        );
        let cpu = 5 + 2 * 41;
        assert_eq!(
            r.usr_cpu_pct,
            f[cpu].trim_end_matches('%').parse::<f64>().unwrap()
        );
        assert_eq!(
            (r.rw.as_str(), r.direction, r.bs_bytes),
            ("read", Direction::Read, 4096)
        );
        assert_eq!(p.warnings.len(), 1);
    }

    proptest::proptest! {
        /// Real terse lines with fields replaced or dropped: an answer, never
        /// a panic.
        #[test]
        fn mutated_terse_never_panics(
            edits in proptest::collection::vec((0usize..140, "[0-9a-z%=.;-]{0,6}"), 0..8),
            cut in 0usize..140,
        ) {
            let text = fixture("fio/linux-libaio/randread-4k.terse.txt");
            let mut f: Vec<String> = text.trim_end().split(';').map(str::to_string).collect();
            for (i, v) in edits {
                if let Some(slot) = f.get_mut(i) {
                    *slot = v;
                }
            }
            f.truncate(cut.max(3));
            let _ = TerseReader.read(&f.join(";"));
        }
    }

    #[test]
    fn bad_terse_is_malformed_not_a_panic() {
        let text = fixture("fio/linux-libaio/randread-4k.terse.txt");
        let cut = &text[..text.len() / 2];
        assert!(TerseReader.sniff(cut));
        assert!(matches!(
            TerseReader.read(cut),
            Err(ReadError::Malformed { .. })
        ));
        let mut g: Vec<&str> = text.split(';').collect();
        g[7] = "NaN";
        let e = TerseReader.read(&g.join(";")).unwrap_err().to_string();
        assert!(e.contains("iops") && e.contains("NaN"), "{e}");
        assert!(!TerseReader.sniff("a;b;c\n"));
        for i in (0..text.len()).step_by(13) {
            let _ = TerseReader.read(&text[..i]);
        }
    }
}
