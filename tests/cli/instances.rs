//! fio instances that ran at the same time (issue #30: the number of
//! concurrent fio processes is a load axis), on the scheduler study's own
//! figure 11a output (fixtures/studies/, MIT): a QD1 latency probe beside
//! 0, 1, 2, 4, 8 and 16 QD128 throughput apps, each a fio process writing
//! its own JSON, for `ioscheduler` bfq and none, all in one folder.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::common::{analyze_json, assert_ok, fixture, nvcmp, stderr};

const STUDY: &str = "studies/icpe24-instances-8ssd";

/// The file's read IOPS, read straight from its JSON.
fn file_iops(path: &std::path::Path) -> f64 {
    let text = std::fs::read_to_string(path).unwrap();
    let doc: Value = serde_json::from_str(&text[text.find('{').unwrap()..]).unwrap();
    doc["jobs"][0]["read"]["iops"].as_f64().unwrap()
}

/// (scheduler, apps beside the probe) -> (probe's IOPS, apps' IOPS summed),
/// from the file names the study's script wrote.
fn expected() -> BTreeMap<(String, u32), (f64, f64)> {
    let mut out: BTreeMap<(String, u32), (f64, f64)> = BTreeMap::new();
    for e in std::fs::read_dir(fixture(STUDY)).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let parts: Vec<&str> = name.trim_end_matches(".txt").split('_').collect();
        // l_dev_1_sche_bfq_num_t_16 / t_dev_1_sche_bfq_num_t_16_index_3
        let (sched, n) = (parts[4].to_string(), parts[7].parse::<u32>().unwrap());
        let slot = out.entry((sched, n)).or_default();
        match parts[0] {
            "l" => slot.0 = file_iops(&path),
            _ => slot.1 += file_iops(&path),
        }
    }
    out
}

fn sweeps_at(j: &Value, iodepth: u64) -> Vec<&Value> {
    j["sweeps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["points"][0]["iodepth"] == iodepth)
        .collect()
}

#[test]
fn files_that_ran_together_are_one_run_per_instance_count() {
    let j = analyze_json(&fixture(STUDY), &[]);
    assert_eq!(j["configs"], serde_json::json!(["bfq", "none"]));
    let want = expected();
    // Two sweeps per scheduler, each along `instances` alone: the probe's
    // (QD1) and the apps' (QD128), never one curve mixing them.
    for (depth, probe) in [(1, true), (128, false)] {
        let sweeps = sweeps_at(&j, depth);
        assert_eq!(sweeps.len(), 2, "QD{depth}: {sweeps:?}");
        for s in sweeps {
            assert_eq!(s["axis"], "instances");
            let sched = s["config"]
                .as_str()
                .unwrap()
                .trim_start_matches("ioscheduler=");
            let points = s["points"].as_array().unwrap();
            let counts: Vec<u64> = points
                .iter()
                .map(|p| p["instances"].as_u64().unwrap_or(1))
                .collect();
            // The probe alone (1), then beside 1, 2, 4, 8, 16 apps.
            let expect: &[u64] = if probe {
                &[1, 2, 3, 5, 9, 17]
            } else {
                &[2, 3, 5, 9, 17]
            };
            assert_eq!(counts, expect, "{sched} QD{depth}");
            for (p, n) in points.iter().zip(counts) {
                let apps = (n - 1) as u32;
                let (probe_iops, apps_iops) = want[&(sched.to_string(), apps)];
                let got = p["iops"].as_f64().unwrap();
                let should = if probe { probe_iops } else { apps_iops };
                // The apps' figure is their sum, not one file's nor a mean.
                assert!(
                    (got - should).abs() <= should * 1e-9,
                    "{sched} QD{depth} x {n}: {got} against {should}"
                );
            }
        }
    }
    let note = j["sanity"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .find(|n| n.contains("fio instances"))
        .expect("a note says files were read as instances");
    // 74 files; the two probes that ran alone are not in a group.
    assert!(
        note.starts_with("72 result files ran as 10 groups"),
        "{note}"
    );
    assert!(note.contains("--instances apart"), "{note}");
}

#[test]
fn the_apps_scale_and_the_table_names_the_axis() {
    let j = analyze_json(&fixture(STUDY), &[]);
    let apps = sweeps_at(&j, 128);
    let peak = |c: &str| {
        apps.iter().find(|s| s["config"] == c).unwrap()["peak"]["iops"]
            .as_f64()
            .unwrap()
    };
    // The study: with 16 apps none delivers 3.31M IOPS, bfq 1.24M.
    assert!((peak("none") / 3.31e6 - 1.0).abs() < 0.01);
    assert!((peak("bfq") / 1.24e6 - 1.0).abs() < 0.01);
    let out = nvcmp()
        .args(["analyze", "--format", "md"])
        .arg(fixture(STUDY))
        .output()
        .unwrap();
    assert_ok(&out);
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(
        md.contains("### randread 4k QD1 x 8 devices: fio instances running together sweep"),
        "{md}"
    );
    // 16 apps beside the probe, counted like for like (#39).
    assert!(
        md.contains("| QD128 x 8 devices x 16 apps + 1 probe |"),
        "{md}"
    );
}

#[test]
fn apart_reads_every_file_as_its_own_run() {
    let j = analyze_json(&fixture(STUDY), &["--instances", "apart"]);
    // Without the groups the probe's files are repeats of one QD1 workload
    // and the apps' of one QD128 workload (as nvcmp read them before).
    assert_eq!(j["workloads"].as_array().unwrap().len(), 2);
    assert!(
        j["sweeps"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["axis"] == "iodepth"),
        "{}",
        j["sweeps"]
    );
    assert!(
        !j["sanity"].to_string().contains("fio instances"),
        "{}",
        j["sanity"]
    );
    let out = nvcmp()
        .args(["analyze", "--instances", "sometimes"])
        .arg(fixture(STUDY))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--instances"), "{}", stderr(&out));
}

/// The pooled p99 of json+ histograms as fio computes it (stat.c): the
/// first bucket where the running count reaches 99 % of all samples.
fn pooled_p99(files: &[std::path::PathBuf]) -> f64 {
    let mut bins: BTreeMap<u64, u64> = BTreeMap::new();
    for f in files {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        for (ns, n) in doc["jobs"][0]["read"]["clat_ns"]["bins"]
            .as_object()
            .unwrap()
        {
            *bins.entry(ns.parse().unwrap()).or_default() += n.as_u64().unwrap();
        }
    }
    let total: u64 = bins.values().sum();
    let want = (0.99 * total as f64).ceil() as u64;
    let mut seen = 0;
    for (ns, n) in bins {
        seen += n;
        if seen >= want {
            return ns as f64;
        }
    }
    unreachable!()
}

#[test]
fn real_fio_processes_started_together_pool_their_histograms() {
    // fixtures/configs/instances: fio 3.33 here, a psync QD1 probe beside
    // 0, 1, 2 and 4 libaio QD16 apps, started together, json+.
    let dir = fixture("configs/instances");
    let j = analyze_json(&dir, &[]);
    let apps = sweeps_at(&j, 16);
    assert_eq!(apps.len(), 1);
    let points = apps[0]["points"].as_array().unwrap();
    let at5 = points
        .iter()
        .find(|p| p["instances"] == 5)
        .expect("four apps and the probe: 5 instances");
    let files: Vec<_> = (1..=4)
        .map(|i| dir.join(format!("app-4-{i}.json")))
        .collect();
    let sum: f64 = files.iter().map(|f| file_iops(f)).sum();
    let got = at5["iops"].as_f64().unwrap();
    assert!((got - sum).abs() <= sum * 1e-9, "{got} against {sum}");
    // The apps' p99 is their merged histograms', exact (not approximate).
    assert_eq!(at5["clat_p99_ns"].as_f64().unwrap(), pooled_p99(&files));
    let w = j["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["iodepth"] == 16 && w["instances"] == 5)
        .unwrap();
    assert!(
        w["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m.get("approximate").is_none_or(Value::is_null)),
        "{w}"
    );
    // The probe alone is at instances 1 (left out of the JSON).
    let probe = sweeps_at(&j, 1);
    assert!(probe[0]["points"][0].get("instances").is_none());
}

#[test]
fn copies_of_one_file_are_one_run_with_a_note() {
    // The study's folder with one probe copied three times beside itself
    // (what copying results around by hand leaves): the copies are not
    // fio instances that ran together, and not repeats either.
    let dir = tempfile::tempdir().unwrap();
    let study = dir.path().join("icpe24-instances-8ssd");
    std::fs::create_dir(&study).unwrap();
    for e in std::fs::read_dir(fixture(STUDY)).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, study.join(p.file_name().unwrap())).unwrap();
    }
    let original = "l_dev_1_sche_bfq_num_t_16.txt";
    for k in 1..=3 {
        std::fs::copy(
            study.join(original),
            study.join(format!("l_dev_1_sche_bfq_num_t_16 copy {k}.txt")),
        )
        .unwrap();
    }
    let plain = analyze_json(&fixture(STUDY), &[]);
    let j = analyze_json(&study, &[]);
    // The same runs as without the copies: groups, sweeps and figures.
    assert_eq!(j["sweeps"], plain["sweeps"]);
    assert_eq!(j["sanity"], plain["sanity"]);
    // The JSON's `warnings`: { source, message }, the copy kept as source.
    let warnings = j["warnings"].as_array().unwrap();
    let note: Vec<&Value> = warnings
        .iter()
        .filter(|w| w["message"].as_str().unwrap().contains("byte-for-byte"))
        .collect();
    assert_eq!(note.len(), 1, "{warnings:?}");
    assert!(
        note[0]["source"].as_str().unwrap().ends_with(original),
        "{}",
        note[0]
    );
    let message = note[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("3 byte-for-byte copies in its folder, counted once"),
        "{message}"
    );
    assert!(message.contains("copy 1.txt"), "{message}");
    // ingest says it too, and counts the file once.
    let out = nvcmp().arg("ingest").arg(&study).output().unwrap();
    assert_ok(&out);
    let err = stderr(&out);
    assert!(err.contains("ingested 74 files"), "{err}");
    assert!(err.contains("3 byte-for-byte copies"), "{err}");
}
