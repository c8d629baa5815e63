//! Synthetic histories for tests and benchmarks: deterministic noise, and
//! real fio output with its throughput scaled by a factor (latency by its
//! inverse), so a history of many "runs" is made from one real run and is
//! read back through ingest like any fio file.
//!
//! Not part of nvcmp's interface; public only so the integration tests and
//! `benches/history_gate.rs` use the same generator.

use serde_json::Value;

use crate::model::{Direction, Row};

/// A deterministic source of normal noise: SplitMix64
/// (<https://prng.di.unimi.it/splitmix64.c>, public domain) for uniform
/// numbers, Box–Muller for normal ones. Same seed, same numbers on every
/// machine.
#[derive(Debug, Clone)]
pub struct Noise {
    state: u64,
}

impl Noise {
    pub fn new(seed: u64) -> Noise {
        Noise { state: seed }
    }

    /// Uniform in (0, 1).
    pub fn uniform(&mut self) -> f64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        // 53 random bits, never exactly 0.
        ((z >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// Standard normal.
    pub fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// `mean` with normal noise of relative standard deviation `rel`
    /// (0.02: ±2 %).
    pub fn around(&mut self, mean: f64, rel: f64) -> f64 {
        mean * (1.0 + rel * self.normal())
    }
}

/// Throughput fields of a fio direction object, scaled by the factor.
const THROUGHPUT: [&str; 8] = [
    "io_bytes",
    "io_kbytes",
    "bw_bytes",
    "bw",
    "iops",
    "total_ios",
    "bw_mean",
    "iops_mean",
];
/// Latency objects whose `mean` (and percentiles) scale by 1 / factor.
const LATENCY: [&str; 3] = ["lat_ns", "clat_ns", "slat_ns"];

/// `template` (a fio JSON document) with each job's throughput multiplied
/// by `factor(job index)` and its latency divided by it. fio's
/// per-interval sample statistics are dropped: they describe the template's
/// run, not the synthetic one.
pub fn scale_fio_json(template: &Value, factor: impl Fn(usize) -> f64) -> Value {
    let mut doc = template.clone();
    let Some(jobs) = doc.get_mut("jobs").and_then(Value::as_array_mut) else {
        return doc;
    };
    for (i, job) in jobs.iter_mut().enumerate() {
        let f = factor(i);
        for dir in ["read", "write", "trim"] {
            if let Some(d) = job.get_mut(dir).and_then(Value::as_object_mut) {
                scale_direction(d, f);
            }
        }
    }
    doc
}

fn scale_direction(d: &mut serde_json::Map<String, Value>, f: f64) {
    let scaled = |v: &Value, by: f64, whole: bool| -> Option<Value> {
        let x = v.as_f64()? * by;
        Some(if whole {
            Value::from(x.round() as u64)
        } else {
            serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
        })
    };
    for key in THROUGHPUT {
        if let Some(v) = d.get(key).and_then(|v| scaled(v, f, v.is_u64())) {
            d.insert(key.to_string(), v);
        }
    }
    for key in ["iops_stddev", "iops_samples", "bw_dev", "bw_samples"] {
        d.remove(key);
    }
    for key in LATENCY {
        let Some(lat) = d.get_mut(key).and_then(Value::as_object_mut) else {
            continue;
        };
        for k in ["min", "max", "mean", "stddev"] {
            if let Some(v) = lat.get(k).and_then(|v| scaled(v, 1.0 / f, v.is_u64())) {
                lat.insert(k.to_string(), v);
            }
        }
        if let Some(p) = lat.get_mut("percentile").and_then(Value::as_object_mut) {
            for v in p.values_mut() {
                if let Some(s) = scaled(v, 1.0 / f, true) {
                    *v = s;
                }
            }
        }
    }
}

/// Configs of [`matrix_run`].
pub const MATRIX_CONFIGS: [&str; 5] = ["c1", "c2", "c3", "c4", "c5"];
/// Workloads of [`matrix_run`]: rw, direction, block size; each at QD1 and QD32.
const MATRIX_WORKLOADS: [(&str, Direction, u64); 5] = [
    ("randread", Direction::Read, 4096),
    ("randwrite", Direction::Write, 4096),
    ("read", Direction::Read, 131_072),
    ("write", Direction::Write, 131_072),
    ("randread", Direction::Read, 65_536),
];

/// One run of a CI matrix: 5 configs x 5 workloads x 2 queue depths, 50
/// rows, each with 2 % noise seeded by the run and the row (the same
/// run is the same rows whatever order runs are made in). From run
/// `step_at` on, c3's randread 4k QD32 does 15 % fewer IOPS.
pub fn matrix_run(run: u64, step_at: u64) -> Vec<Row> {
    let mut rows = Vec::with_capacity(50);
    for (c, config) in MATRIX_CONFIGS.iter().enumerate() {
        for (w, &(rw, direction, bs)) in MATRIX_WORKLOADS.iter().enumerate() {
            for iodepth in [1u32, 32] {
                let i = rows.len() as u64;
                let mut noise = Noise::new(run.wrapping_mul(64).wrapping_add(i));
                let base = 20_000.0 * (1.0 + c as f64 * 0.1) * f64::from(iodepth).sqrt()
                    / (1.0 + w as f64);
                let step = config == &"c3" && w == 0 && iodepth == 32 && run >= step_at;
                let iops = noise.around(if step { base * 0.85 } else { base }, 0.02);
                rows.push(matrix_row(config, rw, direction, bs, iodepth, iops));
            }
        }
    }
    rows
}

fn matrix_row(
    config: &str,
    rw: &str,
    direction: Direction,
    bs: u64,
    iodepth: u32,
    iops: f64,
) -> Row {
    let mut r = Row::empty(&format!("{config}/{rw}-{bs}-qd{iodepth}.json"), direction);
    r.config = config.to_string();
    r.engine = "libaio".into();
    r.fio_version = "fio-3.33".into();
    r.job = format!("{rw}-{bs}");
    r.format = "json".into();
    r.rw = rw.to_string();
    r.bs_bytes = bs;
    r.iodepth = iodepth;
    r.numjobs = 1;
    r.runtime_ms = 60_000.0;
    r.iops = iops;
    r.iops_precision = 1.0;
    r.bw_bytes_per_s = iops * bs as f64;
    r.bw_precision = 1.0;
    r.io_bytes = (r.bw_bytes_per_s * 60.0) as u64;
    r.lat_mean_ns = Some(f64::from(iodepth) / iops * 1e9);
    r.clat_mean_ns = r.lat_mean_ns.map(|l| l * 0.95);
    r.clat_p99_ns = r.lat_mean_ns.map(|l| l * 2.0);
    r.usr_cpu_pct = 5.0;
    r.sys_cpu_pct = 10.0;
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_is_deterministic_and_about_right() {
        let mut a = Noise::new(1);
        let mut b = Noise::new(1);
        let xs: Vec<f64> = (0..20_000).map(|_| a.around(100.0, 0.02)).collect();
        assert!(xs.iter().all(|x| *x == b.around(100.0, 0.02)));
        let s = crate::compare::stats::Summary::of(&xs).unwrap();
        assert!((s.mean - 100.0).abs() < 0.1, "{}", s.mean);
        assert!((s.stddev - 2.0).abs() < 0.1, "{}", s.stddev);
    }

    #[test]
    fn scaling_moves_throughput_and_latency_apart() {
        let doc: Value = serde_json::from_str(
            r#"{"jobs":[{"read":{"iops":1000.5,"bw_bytes":4096000,"iops_stddev":3.0,
                "lat_ns":{"mean":2000.0,"percentile":{"99.000000":4000}}}}]}"#,
        )
        .unwrap();
        let out = scale_fio_json(&doc, |_| 0.5);
        let r = &out["jobs"][0]["read"];
        assert_eq!(r["iops"].as_f64(), Some(500.25));
        assert_eq!(r["bw_bytes"].as_u64(), Some(2_048_000));
        assert_eq!(r["lat_ns"]["mean"].as_f64(), Some(4000.0));
        assert_eq!(r["lat_ns"]["percentile"]["99.000000"].as_u64(), Some(8000));
        assert!(r.get("iops_stddev").is_none());
    }
}
