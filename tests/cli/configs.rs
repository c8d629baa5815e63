//! Configurations found in the data (issue #30), on a published I/O
//! scheduler study's own fio 3.35 JSON (fixtures/studies/, MIT): four
//! Linux schedulers and SPDK in one folder, files named `*.txt`, differing
//! only in `ioscheduler` or `ioengine`.

use serde_json::Value;

use crate::common::{analyze_json, assert_ok, fixture, nvcmp, stderr, sweep_of as sweep};

const STUDY: &str = "studies/icpe24-schedulers-1ssd";

fn analyze(args: &[&str]) -> Value {
    analyze_json(&fixture(STUDY), args)
}

#[test]
fn one_folder_of_five_stacks_is_five_configs_named_by_what_differs() {
    let j = analyze(&[]);
    assert_eq!(
        j["configs"],
        serde_json::json!(["bfq", "kyber", "mq-deadline", "none", "spdk"])
    );
    let rule = &j["config_rule"];
    assert_eq!(rule["rule"], "auto");
    let keys: Vec<&str> = rule["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    assert_eq!(&keys[..2], ["ioengine", "ioscheduler"]);
    assert_eq!(rule["values"]["none"]["ioengine"], "io_uring");
    assert!(rule["values"]["spdk"]["ioscheduler"].is_null());
    // The setup table shows the option per config.
    let items = j["setup"]["items"].as_array().unwrap();
    let sched = items.iter().find(|i| i["key"] == "ioscheduler").unwrap();
    assert_eq!(sched["values"]["kyber"], "kyber");
    // 15 job counts x 5 stacks, nothing averaged across stacks.
    assert_eq!(j["workloads"].as_array().unwrap().len(), 15);
    // The study's own log of the run is not fio output: skipped, named.
    let skipped = j["skipped"].to_string();
    assert!(skipped.contains("run_log.txt"), "{skipped}");
}

#[test]
fn a_curve_that_peaks_and_falls_says_so_and_knees_stay_on_the_rise() {
    let j = analyze(&[]);
    let mq = sweep(&j, "mq-deadline");
    assert_eq!(mq["axis"], "numjobs");
    assert_eq!(mq["peak"]["numjobs"], 3);
    let peak = mq["peak"]["iops"].as_f64().unwrap();
    assert!((peak - 569e3).abs() < 1e3, "{peak}");
    let fall = &mq["fall"];
    assert_eq!(fall["numjobs"], 15);
    let pct = fall["pct_below_peak"].as_f64().unwrap();
    assert!((10.0..25.0).contains(&pct), "{pct}");
    // Knee and saturation on the rise: not past the peak.
    assert!(
        mq["knee"]["numjobs"].as_u64().unwrap() <= 3,
        "{}",
        mq["knee"]
    );
    assert!(mq["saturation"]["numjobs"].as_u64().unwrap() <= 3);
    // kyber and none plateau at the device's limit: no fall.
    for c in ["kyber", "none"] {
        assert!(sweep(&j, c)["fall"].is_null(), "{c}");
        assert_eq!(sweep(&j, c)["peak"]["numjobs"], 3, "{c}");
    }
    let all = j["highlights"].to_string();
    assert!(
        all.contains("mq-deadline peaks at QD128 x 3 jobs in randread 4k (569k IOPS), then falls"),
        "{all}"
    );
}

#[test]
fn label_by_folder_keeps_the_old_rule_and_option_keys_name_configs() {
    let j = analyze(&["--label-by", "folder"]);
    assert_eq!(j["configs"], serde_json::json!(["icpe24-schedulers-1ssd"]));
    assert_eq!(j["config_rule"]["rule"], "folder");
    let j = analyze(&["--label-by", "ioengine"]);
    assert_eq!(j["configs"], serde_json::json!(["io_uring", "spdk"]));
    let o = nvcmp()
        .args(["analyze", "--label-by", "io scheduler"])
        .arg(fixture(STUDY))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--label-by"), "{}", stderr(&o));
}

#[test]
fn the_report_says_how_configs_were_told_apart() {
    let o = nvcmp()
        .arg("analyze")
        .arg(fixture(STUDY))
        .args(["--format", "md"])
        .output()
        .unwrap();
    assert_ok(&o);
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(
        md.contains("Configurations told apart by the options that differ between runs of the same workload and load: ioengine, ioscheduler"),
        "{md}"
    );
    assert!(md.contains("| ioscheduler |"), "{md}");
}

/// fixtures/configs/blocksize: read and randread at 4k to 1m, QD8, with
/// ioengine=libaio and ioengine=psync, all in one folder (real fio 3.33).
const BLOCKSIZE: &str = "configs/blocksize";

#[test]
fn a_block_size_study_in_one_folder_gives_a_bandwidth_curve_per_config_and_rw() {
    let j = analyze_json(&fixture(BLOCKSIZE), &[]);
    let sweeps = j["bs_sweeps"].as_array().unwrap();
    let names: Vec<(&str, &str)> = sweeps
        .iter()
        .map(|s| (s["config"].as_str().unwrap(), s["rw"].as_str().unwrap()))
        .collect();
    // Per rw (randread before read, as workloads order them), configs in
    // display order.
    assert_eq!(
        names,
        [
            ("libaio", "randread"),
            ("psync", "randread"),
            ("libaio", "read"),
            ("psync", "read"),
        ]
    );
    for s in sweeps {
        assert_eq!(
            (s["axis"].as_str(), s["iodepth"].as_u64()),
            (Some("bs"), Some(8))
        );
        let points = s["points"].as_array().unwrap();
        let sizes: Vec<u64> = points
            .iter()
            .map(|p| p["bs_bytes"].as_u64().unwrap())
            .collect();
        assert_eq!(sizes, [4096, 16384, 65536, 262144, 1048576]);
        // The peak is the block size of most bandwidth in the data...
        let bw = |p: &Value| p["bw_bytes_per_s"].as_f64().unwrap();
        let best = points
            .iter()
            .max_by(|a, b| bw(a).total_cmp(&bw(b)))
            .unwrap();
        assert_eq!(s["peak"]["bs_bytes"], best["bs_bytes"], "{s}");
        assert_eq!(s["peak"]["bw_bytes_per_s"], best["bw_bytes_per_s"]);
        // ...saturation reaches 95 % of it no later than the peak...
        let sat = &s["saturation"];
        assert!(
            sat["bs_bytes"].as_u64() <= s["peak"]["bs_bytes"].as_u64(),
            "{s}"
        );
        assert!(sat["pct_of_peak"].as_f64().unwrap() >= 95.0);
        // ...and IOPS are highest at 4k, where each I/O is cheapest.
        assert_eq!(s["iops_peak"]["bs_bytes"], 4096);
    }
}

#[test]
fn block_size_sweeps_are_a_report_section_and_a_finding() {
    let out = nvcmp()
        .args(["analyze", "--format", "md", "--findings", "0"])
        .arg(fixture(BLOCKSIZE))
        .output()
        .unwrap();
    assert_ok(&out);
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(md.contains("## Block-size sweeps"), "{md}");
    assert!(md.contains("### randread at QD8: block-size sweep"), "{md}");
    assert!(md.contains("| Block size | libaio | psync |"), "{md}");
    assert!(md.contains("- psync: peak "), "{md}");
    assert!(md.contains("is bandwidth-bound from "), "{md}");
    // A comparison of one block size has none.
    let j = analyze_json(&fixture("configs/one-folder"), &[]);
    assert_eq!(j["bs_sweeps"], serde_json::json!([]));
}
