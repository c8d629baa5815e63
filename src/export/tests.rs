use serde_json::Value;

use super::*;

/// Rows of a real fio run (two jobs, randread and randwrite, 4k), as two
/// configs; `ssd` twice (repeats), so it has a spread across runs.
fn rows() -> Vec<Row> {
    let text = include_str!("../../fixtures/check/run1/fio.json");
    let parsed = crate::ingest::fio_json::to_parsed(&crate::ingest::fio_json::parse(text).unwrap());
    let mut out = Vec::new();
    for (label, source, f) in [
        ("ssd", "a.json", 1.0),
        ("ssd", "b.json", 1.1),
        ("hdd", "c.json", 0.5),
    ] {
        for r in &parsed.rows {
            let mut r = r.clone();
            r.config = label.into();
            r.source = source.into();
            r.iops *= f;
            out.push(r);
        }
    }
    out
}

fn exported(format: ExportFormat) -> Value {
    let mut buf = Vec::new();
    export(&rows(), format, &mut buf).unwrap();
    serde_json::from_slice(&buf).unwrap()
}

#[test]
fn bmf_has_a_benchmark_per_workload_and_config_with_bounds() {
    let doc = exported(ExportFormat::Bmf);
    let names: Vec<&String> = doc.as_object().unwrap().keys().collect();
    assert_eq!(names.len(), 4, "{doc:#}");
    let b = &doc["ssd/randread 4k read QD1"];
    let iops = &b["iops"];
    let (v, lo, hi) = (
        iops["value"].as_f64().unwrap(),
        iops["lower_value"].as_f64().unwrap(),
        iops["upper_value"].as_f64().unwrap(),
    );
    let base = rows()[0].iops;
    assert!((v - base * 1.05).abs() < 1e-6 * base, "{v}");
    // Two runs 10 % apart: stddev = 0.1 * base / √2.
    assert!((hi - v - 0.1 * base / 2f64.sqrt()).abs() < 1e-6 * base);
    assert!((v - lo - (hi - v)).abs() < 1e-6 * base);
    for key in ["bw_bytes_per_s", "lat_mean_ns", "clat_p99_ns"] {
        assert!(b[key]["value"].as_f64().unwrap() > 0.0, "{key}");
    }
}

#[test]
fn gab_splits_bigger_and_smaller_is_better() {
    let big = exported(ExportFormat::Gab);
    let small = exported(ExportFormat::GabSmaller);
    let names = |d: &Value| -> Vec<String> {
        d.as_array()
            .unwrap()
            .iter()
            .map(|e| e["name"].as_str().unwrap().to_string())
            .collect()
    };
    let big_names = names(&big);
    // 2 workloads x 2 configs x (iops, bandwidth).
    assert_eq!(big_names.len(), 8);
    assert!(
        big_names
            .iter()
            .all(|n| n.ends_with(" iops") || n.ends_with(" bw_bytes_per_s"))
    );
    assert!(names(&small).iter().all(|n| n.contains("_ns")));
    let e = big
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "ssd/randread 4k read QD1 iops")
        .unwrap();
    assert_eq!(e["unit"], "ops/s");
    assert!(e["range"].as_str().unwrap().starts_with("± "));
    assert!(e["extra"].as_str().unwrap().contains("2 runs"));
    for entry in big.as_array().unwrap() {
        assert!(entry["value"].is_number());
    }
}
