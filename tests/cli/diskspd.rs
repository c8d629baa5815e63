//! DiskSpd results beside fio's: ingest, analyze and check on the DiskSpd
//! fixtures (fixtures/diskspd, see fixtures/README.md).

use serde_json::Value;

use crate::common::*;

fn workloads(v: &Value) -> &Vec<Value> {
    v["workloads"].as_array().unwrap()
}

#[test]
fn every_diskspd_output_is_read_none_called_not_fio_or_binary() {
    let out = nvcmp()
        .args(["ingest", "--format", "ndjson"])
        .arg(fixture("diskspd"))
        .output()
        .unwrap();
    assert_ok(&out);
    let err = stderr(&out);
    assert!(
        !err.contains("not fio") && !err.contains("binary") && !err.contains("nvcmp: skipped"),
        "{err}"
    );
    let rows: Vec<Value> = out
        .stdout
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    let diskspd: Vec<&Value> = rows.iter().filter(|r| r["tool"] == "diskspd").collect();
    assert!(diskspd.len() > 30, "{}", diskspd.len());
    for r in &diskspd {
        assert!(
            r["clat_mean_ns"].is_null() && r["slat_mean_ns"].is_null(),
            "{r}"
        );
        assert!(r["format"].as_str().unwrap().starts_with("diskspd-"), "{r}");
    }
    assert!(
        rows.iter()
            .filter(|r| r["tool"] == "fio")
            .all(|r| r["tool_version"] == "fio-3.33")
    );
}

#[test]
fn diskspd_against_fio_compares_total_latency_and_leaves_clat_to_fio() {
    let v = analyze_json(&fixture("diskspd/compare"), &[]);
    assert_eq!(workloads(&v).len(), 2);
    for w in workloads(&v) {
        let clat = metric_of(w, "clat_p99_ns");
        assert!(clat["values"]["diskspd-linux"].is_null(), "{clat}");
        assert!(clat["values"]["fio-linux"].is_number(), "{clat}");
        assert!(
            clat["winner"].is_null() && strs(&clat["tied"]).is_empty(),
            "{clat}"
        );
        // Total latency on both sides, and decided.
        let lat = metric_of(w, "lat_mean_ns");
        assert!(
            lat["values"]["diskspd-linux"].is_number() && lat["values"]["fio-linux"].is_number(),
            "{lat}"
        );
        assert!(
            !lat["winner"].is_null() || !strs(&lat["tied"]).is_empty(),
            "{lat}"
        );
        let notes = strs(&w["notes"]);
        assert!(
            notes.iter().any(|n| n
                .starts_with("measured by different tools: diskspd-linux by DiskSpd Linux port")),
            "{notes:?}"
        );
        // Whole-system CPU against fio's own threads: not compared.
        let cpu = metric_of(w, "cpu_pct");
        assert!(
            cpu["values"]["fio-linux"].is_null() && cpu["winner"].is_null(),
            "{cpu}"
        );
    }
    let items = v["setup"]["items"].as_array().unwrap();
    let tool = items
        .iter()
        .find(|i| i["key"] == "tool")
        .expect("a Tool item in the setup");
    assert_eq!(tool["values"]["fio-linux"], "fio");
    assert_eq!(
        tool["values"]["diskspd-linux"],
        "DiskSpd Linux port (from the text layout)"
    );
}

#[test]
fn fio_only_reports_have_no_tool_item() {
    let v = analyze_json(&fixture("fio/linux-io_uring"), &[]);
    let items = v["setup"]["items"].as_array().unwrap();
    assert!(items.iter().all(|i| i["key"] != "tool"));
}

#[test]
fn windows_diskspd_against_linux_fio_makes_the_report() {
    let (dir, out) = analyze_out("diskspd/windows-vs-linux", &["--chart-format", "svg"]);
    assert_ok(&out);
    let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    assert!(
        md.contains("DiskSpd on Windows against fio on Linux"),
        "{md}"
    );
    assert!(
        md.contains("DiskSpd 2.2 or later (from the text layout)"),
        "{md}"
    );
    assert!(md.contains("measured by different tools"), "{md}");
    let charts: Vec<String> = std::fs::read_dir(dir.path().join("charts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        charts.iter().any(|c| c.starts_with("bars_write_iops")),
        "{charts:?}"
    );
    let csv = std::fs::read_to_string(dir.path().join("dataset.csv")).unwrap();
    assert!(
        csv.lines().next().unwrap().contains(",tool,tool_version,"),
        "{csv}"
    );
}

#[test]
fn check_takes_diskspd_on_either_side() {
    let ds = fixture("diskspd/compare/diskspd-linux");
    let fio = fixture("diskspd/compare/fio-linux");
    for (baseline, candidate) in [(&ds, &fio), (&fio, &ds)] {
        let out = nvcmp()
            .args(["check", "--format", "json", "--baseline"])
            .arg(baseline)
            .arg("--candidate")
            .arg(candidate)
            .output()
            .unwrap();
        assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("measured by diskspd, the candidate by fio")
                || stderr(&out).contains("measured by fio, the candidate by diskspd"),
            "{}",
            stderr(&out)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let findings = v["findings"].as_array().unwrap_or_else(|| panic!("{v}"));
        let metrics: Vec<&str> = findings
            .iter()
            .map(|f| f["metric"].as_str().unwrap())
            .collect();
        assert!(
            metrics.contains(&"lat_mean_ns") && metrics.contains(&"iops"),
            "{metrics:?}"
        );
        assert!(!metrics.contains(&"clat_p99_ns"), "{metrics:?}");
        assert_eq!(
            findings.len(),
            6,
            "2 workloads x iops, bandwidth, mean latency: {v}"
        );
    }
}

#[test]
fn diskspd_xml_intervals_are_the_series_dataset_and_charts() {
    let dir = tempfile::tempdir().unwrap();
    let xml = fixture("diskspd/windows/v2.0.21a-randrw70-4k-o1-t1-L-D.xml");
    let config = dir.path().join("results/windows-diskspd");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::copy(&xml, config.join("run.xml")).unwrap();
    let series = dir.path().join("series.csv");
    let out = nvcmp()
        .arg("ingest")
        .arg(dir.path().join("results"))
        .arg("--series")
        .arg(&series)
        .output()
        .unwrap();
    assert_ok(&out);
    let csv = std::fs::read_to_string(&series).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    // 120 one-second intervals, read and write, from one thread on one target.
    assert_eq!(rows.len(), 240, "{csv}");
    assert!(
        rows.iter()
            .all(|r| r.contains(",windows-diskspd,timespan 1,iops,")),
        "{csv}"
    );
    let out = nvcmp()
        .arg("analyze")
        .arg(dir.path().join("results"))
        .arg("--out")
        .arg(dir.path().join("report"))
        .arg("--chart-format")
        .arg("svg")
        .output()
        .unwrap();
    assert_ok(&out);
    for d in ["read", "write"] {
        let chart = dir
            .path()
            .join(format!("report/charts/timeseries_randrw70_4k_{d}_iops.svg"));
        assert!(chart.is_file(), "{}", chart.display());
    }
}

#[test]
fn diskspd_2_2_beside_an_earlier_diskspd_at_qd_above_1_is_noted() {
    // Hand-made in a temporary folder: the real 2.2.0 output, and the same
    // numbers in the layout before 2.2 (its CPU header, `total:` over the
    // percentiles) standing for an older DiskSpd's run.
    let dir = tempfile::tempdir().unwrap();
    let real =
        std::fs::read_to_string(fixture("diskspd/windows/v2.2.0-randwrite-4k-o16-t4.txt")).unwrap();
    let older = real
        .replace(
            "Core | CPU |  Usage |  User  | Kernel |  Idle",
            "CPU |  Usage |  User  |  Kernel |  Idle",
        )
        .replace("Total latency distribution:", "total:");
    for (config, text) in [("ds-2.2", &real), ("ds-older", &older)] {
        std::fs::create_dir_all(dir.path().join(config)).unwrap();
        std::fs::write(dir.path().join(config).join("run.txt"), text).unwrap();
    }
    let v = analyze_json(dir.path(), &[]);
    let w = &workloads(&v)[0];
    assert_eq!(w["iodepth"], 16);
    let notes = strs(&w["notes"]);
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("ds-2.2 ran DiskSpd 2.2 or later, ds-older an earlier DiskSpd")),
        "{notes:?}"
    );
    // One tool: no tool note.
    assert!(
        !notes
            .iter()
            .any(|n| n.starts_with("measured by different tools")),
        "{notes:?}"
    );
}
