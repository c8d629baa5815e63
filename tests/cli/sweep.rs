//! Load points and sweeps end to end, on real fio sweeps (fixtures/sweep/,
//! fio 3.33) and the hand-made one whose answers are known by construction.

use serde_json::Value;

use crate::common::{assert_ok, counts, fixture, metric_of, nvcmp, stderr, strs};

fn analyze_json(args: &[&str]) -> Value {
    let o = nvcmp()
        .arg("analyze")
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_ok(&o);
    serde_json::from_slice(&o.stdout).unwrap()
}

use crate::common::sweep_of as sweep;

#[test]
fn a_depth_sweep_keeps_its_points_and_psync_is_named() {
    let dir = fixture("sweep/iodepth");
    let j = analyze_json(&[dir.to_str().unwrap()]);
    let depths = counts(&j["workloads"], "iodepth");
    assert_eq!(depths, [1, 2, 4, 8, 16, 32]);
    for w in j["workloads"].as_array().unwrap() {
        assert_eq!(w["numjobs"], 1);
        assert!(w["notes"].is_array());
    }
    // psync asked for 32, ran at 1, and the QD32 workload says so.
    let qd32 = &j["workloads"][5];
    assert_eq!(qd32["effective_iodepth"]["psync"], 1);
    assert_eq!(qd32["effective_iodepth"]["libaio"], 32);
    let notes = strs(&qd32["notes"]);
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("psync ran at queue depth 1, not 32")),
        "{notes:?}"
    );
    // QD1 asked for 1 everywhere: no effective depths listed.
    assert!(j["workloads"][0].get("effective_iodepth").is_none());
    // One sweep per engine, six points each, IOPS taken from that file.
    for config in ["libaio", "io_uring", "psync"] {
        let s = sweep(&j, config);
        assert_eq!(s["axis"], "iodepth");
        assert_eq!(s["points"].as_array().unwrap().len(), 6);
        // docs/CONTRACT.md's fields, present even when null (randread mixes nothing).
        for field in [
            "config",
            "rw",
            "bs_bytes",
            "direction",
            "rwmixread",
            "points",
            "peak",
            "knee",
            "at_slo",
        ] {
            assert!(s.get(field).is_some(), "sweep of {config} lacks {field}");
        }
        assert!(s["rwmixread"].is_null());
    }
    let file: Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("sweep/iodepth/libaio/randread-4k-qd8.json")).unwrap(),
    )
    .unwrap();
    let qd8 = &sweep(&j, "libaio")["points"][3];
    assert_eq!(qd8["iodepth"], 8);
    assert_eq!(
        qd8["iops"].as_f64(),
        file["jobs"][0]["read"]["iops"].as_f64()
    );
}

#[test]
fn the_synthetic_sweep_gives_the_answers_it_was_built_with() {
    let dir = fixture("sweep/synthetic");
    let j = analyze_json(&[dir.to_str().unwrap(), "--slo", "clat_p99=500us"]);
    let fast = sweep(&j, "fast");
    assert_eq!(fast["peak"]["iops"], 306000.0);
    assert_eq!(fast["peak"]["iodepth"], 128);
    assert_eq!(fast["knee"]["iodepth"], 16);
    let slo = &fast["at_slo"];
    assert_eq!(slo["interpolated"], true);
    assert_eq!(
        (slo["iodepth"].as_u64(), slo["upper_iodepth"].as_u64()),
        (Some(64), Some(128))
    );
    assert!(
        (slo["iops"].as_f64().unwrap() - 305192.7).abs() < 0.1,
        "{slo}"
    );
    let slow = sweep(&j, "slow");
    assert_eq!(slow["knee"]["iodepth"], 16);
    assert!((slow["at_slo"]["iops"].as_f64().unwrap() - 70198.5).abs() < 0.1);
    let h = strs(&j["highlights"]);
    assert!(
        h.iter()
            .any(|s| s.starts_with("In randread 4k sweeps, fast peaks at 306k IOPS at QD128")),
        "{h:?}"
    );
    assert!(
        h.iter().any(|s| s.starts_with(
            "The randread 4k curves of fast and slow both bend at QD16 (their knees)"
        )),
        "{h:?}"
    );
    // Saturation: the lightest depth at 95 % of each peak, ranked.
    assert_eq!(fast["saturation"]["iodepth"], 32);
    assert_eq!(slow["saturation"]["iodepth"], 16);
    assert_eq!(j["sweep_rules"]["saturation_pct"], 95.0);
    assert_eq!(j["sweep_rules"]["knee_method"], "kneedle");
    assert!(
        h.contains(
            &"In randread 4k sweeps, slow needs the least load to reach 95 % of its peak: QD16 (70k IOPS), against QD32 for fast"
        ),
        "{h:?}"
    );
}

/// Real linear numjobs sweeps (1..8 jobs at QD4, fio and nvcmp's harness)
/// on this machine's disk, which tops out near 60k IOPS: each config
/// saturates and bends where its curve flattens, not at the last point.
#[test]
fn a_linear_numjobs_sweep_on_a_real_disk_saturates_and_bends() {
    let j = analyze_json(&[fixture("saturation/numjobs").to_str().unwrap()]);
    for config in ["io_uring", "libaio", "nvcmp-libaio"] {
        let s = sweep(&j, config);
        assert_eq!(s["axis"], "numjobs", "{config}");
        let pts = s["points"].as_array().unwrap();
        assert_eq!(counts(&s["points"], "numjobs"), [1, 2, 3, 4, 5, 6, 7, 8]);
        let peak = pts
            .iter()
            .map(|p| p["iops"].as_f64().unwrap())
            .fold(0.0, f64::max);
        // Saturation: the first point at 95 % of the peak, none lighter.
        let sat = &s["saturation"];
        let nj = sat["numjobs"].as_u64().unwrap();
        for p in pts {
            let iops = p["iops"].as_f64().unwrap();
            if p["numjobs"].as_u64().unwrap() < nj {
                assert!(iops < 0.95 * peak, "{config}: {p}");
            }
        }
        assert!(sat["pct_of_peak"].as_f64().unwrap() >= 95.0);
        // The knee lies where the curve flattens: past the first doubling
        // of load and before the heaviest point, with most of the peak.
        let knee = &s["knee"];
        let k = knee["numjobs"].as_u64().unwrap_or(0);
        assert!((3..=6).contains(&k), "{config}: knee {knee}");
        assert!(
            knee["iops"].as_f64().unwrap() >= 0.7 * peak,
            "{config}: {knee}"
        );
    }
    let h = strs(&j["highlights"]);
    assert!(
        h.iter().any(|s| s.starts_with("In randread 4k sweeps, ")
            && s.contains("needs the least load to reach 95 % of its peak")),
        "{h:?}"
    );
}

/// fio 3.33's io_uring with sqthread_poll=1 (real run): clat runs from a
/// stale timestamp (p99 17,113 ms at a mean total latency of 1.5 ms). Its
/// p99 is excluded from winners, deltas and findings, said once.
#[test]
fn sqthread_poll_clat_is_excluded_everywhere_with_one_note() {
    let j = analyze_json(&[fixture("validity/sqthread_poll").to_str().unwrap()]);
    for w in j["workloads"].as_array().unwrap() {
        let p99 = metric_of(w, "clat_p99_ns");
        assert!(
            p99["excluded"]["io_uring-sqpoll"]
                .as_str()
                .unwrap()
                .contains("sqthread_poll=1"),
            "{p99}"
        );
        // The value stays for the table; no delta, never the winner.
        assert!(p99["values"]["io_uring-sqpoll"].as_f64().unwrap() > 1e9);
        assert!(p99["delta_pct"]["io_uring-sqpoll"].is_null());
        assert_ne!(p99["winner"], "io_uring-sqpoll");
        assert!(!strs(&p99["tied"]).contains(&"io_uring-sqpoll"));
        // Mean total latency is measured right: compared as usual.
        assert!(metric_of(w, "lat_mean_ns")["excluded"].is_null());
    }
    let sanity = strs(&j["sanity"]);
    let notes: Vec<&&str> = sanity
        .iter()
        .filter(|s| s.contains("sqthread_poll"))
        .collect();
    assert_eq!(notes.len(), 1, "{sanity:?}");
    assert!(notes[0].starts_with(
        "io_uring-sqpoll: p99 latency left out of the comparison in randread 4k at QD1, QD8"
    ));
    let h = strs(&j["highlights"]);
    assert!(
        !h.iter()
            .any(|s| s.contains("p99") && s.contains("io_uring-sqpoll")),
        "{h:?}"
    );
    // No workload note repeats it per load point.
    for w in j["workloads"].as_array().unwrap() {
        assert!(
            !strs(&w["notes"])
                .iter()
                .any(|n| n.contains("completion latency"))
        );
    }
}

/// gtod_reduce=1 (real run): fio took no timestamps, so the config has no
/// latency; it is said why, and it never wins a latency row.
#[test]
fn gtod_reduce_latency_is_excluded_with_its_reason() {
    let j = analyze_json(&[fixture("validity/gtod_reduce").to_str().unwrap()]);
    for w in j["workloads"].as_array().unwrap() {
        for m in ["lat_mean_ns", "clat_p99_ns"] {
            let r = metric_of(w, m);
            assert!(
                r["excluded"]["libaio-gtod"]
                    .as_str()
                    .unwrap()
                    .contains("gtod_reduce=1"),
                "{r}"
            );
            assert_eq!(r["winner"], "libaio");
        }
    }
    let sanity = strs(&j["sanity"]);
    assert_eq!(
        sanity
            .iter()
            .filter(|s| s.contains("gtod_reduce=1"))
            .count(),
        1,
        "{sanity:?}"
    );
}

/// One workload, several stacks: the key findings lead with who is best and
/// by how much, and a stack far behind is the outlier, not the leader.
#[test]
fn one_workload_leads_with_its_winner() {
    let files: Vec<String> = [
        "gtod_reduce/libaio",
        "sqthread_poll/io_uring",
        "sqthread_poll/io_uring-sqpoll",
        "sqthread_poll/libaio",
    ]
    .iter()
    .map(|c| {
        fixture(&format!("validity/{c}/randread-4k-qd1.json"))
            .display()
            .to_string()
    })
    .collect();
    let args: Vec<&str> = files.iter().map(String::as_str).collect();
    let j = analyze_json(&args);
    let keys: Vec<&Value> = j["key_findings"].as_array().unwrap().iter().collect();
    let first = keys
        .iter()
        .find(|k| k["kind"] == "winner")
        .expect("a winner finding");
    let text = first["text"].as_str().unwrap();
    assert!(
        text.contains("the most IOPS in randread 4k")
            || text.contains("the lowest p99 latency in randread 4k"),
        "{text}"
    );
    for k in &keys {
        if k["kind"] == "outlier" {
            assert!(
                k["text"].as_str().unwrap().contains("io_uring-sqpoll"),
                "{k}"
            );
        }
    }
}

#[test]
fn a_grid_and_a_numjobs_sweep_are_swept_along_their_axes() {
    let j = analyze_json(&[fixture("sweep/grid").to_str().unwrap()]);
    let s = sweep(&j, "libaio");
    assert_eq!(s["axis"], "iodepth+numjobs");
    assert_eq!(s["points"].as_array().unwrap().len(), 6);
    let j = analyze_json(&[fixture("sweep/numjobs").to_str().unwrap()]);
    let s = sweep(&j, "io_uring");
    assert_eq!(s["axis"], "numjobs");
    let jobs = counts(&s["points"], "numjobs");
    assert_eq!(jobs, [1, 2, 4]);
}

#[test]
fn stonewalled_depths_in_one_file_are_three_points() {
    let j = analyze_json(&[fixture("sweep/stonewall").to_str().unwrap()]);
    let s = sweep(&j, "libaio");
    let depths = counts(&s["points"], "iodepth");
    assert_eq!(depths, [1, 4, 16]);
}

#[test]
fn check_of_one_depth_against_a_sweep_compares_that_depth() {
    let base = fixture("sweep/iodepth/libaio/randread-4k-qd32.json");
    let cand = fixture("sweep/iodepth/libaio");
    let o = nvcmp()
        .args(["check", "--format", "json", "--baseline"])
        .arg(&base)
        .arg("--candidate")
        .arg(&cand)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    let iops = j["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["metric"] == "iops" && f["iodepth"] == 32)
        .unwrap();
    assert_eq!(iops["baseline"], iops["candidate"]);
    assert_eq!(iops["verdict"], "unchanged");
    assert_eq!(iops["workload"], "randread 4k read QD32");
}

#[test]
fn a_label_mixing_engines_is_named_with_the_flag_that_separates_them() {
    let tmp = tempfile::tempdir().unwrap();
    let mixed = tmp.path().join("mixed");
    std::fs::create_dir(&mixed).unwrap();
    for (engine, qd) in [("libaio", 4), ("io_uring", 4), ("libaio", 8)] {
        std::fs::copy(
            fixture(&format!("sweep/iodepth/{engine}/randread-4k-qd{qd}.json")),
            mixed.join(format!("{engine}-qd{qd}.json")),
        )
        .unwrap();
    }
    // By default the folder is split by the option that differs.
    let j = analyze_json(&[mixed.to_str().unwrap()]);
    assert_eq!(j["configs"], serde_json::json!(["io_uring", "libaio"]));
    assert_eq!(j["config_rule"]["keys"], serde_json::json!(["ioengine"]));
    // One config per folder: the mix is said, with the flag that splits it.
    let j = analyze_json(&[mixed.to_str().unwrap(), "--label-by", "folder"]);
    let sanity = j["sanity"].to_string();
    assert!(
        sanity.contains(
            "mixed holds results from several engines: libaio (2 files), io_uring (1 file)"
        ) || sanity.contains(
            "mixed holds results from several engines: io_uring (1 file), libaio (2 files)"
        ),
        "{sanity}"
    );
    assert!(sanity.contains("--label-by engine"), "{sanity}");
    let qd4 = j["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["iodepth"] == 4)
        .unwrap();
    assert!(
        qd4["notes"].to_string().contains("mixes engines"),
        "{}",
        qd4["notes"]
    );
}

#[test]
fn bad_sweep_flags_name_the_flag() {
    for (args, flag) in [
        (vec!["--slo", "p142=1ms"], "--slo"),
        (vec!["--slo", "clat_p99=soon"], "--slo"),
        (vec!["--knee-gain=-5"], "--knee-gain"),
    ] {
        let o = nvcmp()
            .arg("analyze")
            .arg(fixture("sweep/synthetic"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(flag), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_harness_grid_lines_up_with_fios_point_by_point() {
    let j = analyze_json(&[
        fixture("sweep/grid").to_str().unwrap(),
        fixture("sweep/harness").to_str().unwrap(),
    ]);
    assert_eq!(
        j["configs"],
        serde_json::json!(["io_uring", "libaio", "nvcmp-libaio"])
    );
    // Six load points, each with all three configs: nothing averaged, nothing missing.
    let ws = j["workloads"].as_array().unwrap();
    assert_eq!(ws.len(), 6);
    for w in ws {
        let iops = metric_of(w, "iops");
        // A config with no run at the workload has no entry (issue #55).
        let values = iops["values"].as_object().unwrap();
        assert_eq!(values.len(), 3, "{w}");
        assert!(values.values().all(|v| v.is_number()), "{w}");
        assert!(
            !w["notes"].to_string().contains("ran randread"),
            "{}",
            w["notes"]
        );
    }
    let s = sweep(&j, "nvcmp-libaio");
    let loads: Vec<(u64, u64)> = s["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["numjobs"].as_u64().unwrap(),
                p["iodepth"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(loads, [(1, 1), (1, 4), (1, 16), (2, 1), (2, 4), (2, 16)]);
}

#[test]
fn a_sweep_draws_distributions_only_at_its_lightest_load_knee_and_peak() {
    let out = tempfile::tempdir().unwrap();
    let o = nvcmp()
        .args(["--quiet", "analyze"])
        .arg(fixture("sweep/synthetic"))
        .arg("--out")
        .arg(out.path())
        .output()
        .unwrap();
    assert_ok(&o);
    let mut charts: Vec<String> = std::fs::read_dir(out.path().join("charts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    charts.sort();
    let pct: Vec<&String> = charts
        .iter()
        .filter(|c| c.starts_with("percentiles_"))
        .collect();
    assert_eq!(
        pct,
        [
            "percentiles_randread_4k_read_qd1.png",
            "percentiles_randread_4k_read_qd128.png",
            "percentiles_randread_4k_read_qd16.png"
        ]
    );
    for kind in [
        "scaling_randread_4k_read.png",
        "iops_latency_randread_4k_read.png",
    ] {
        assert!(charts.iter().any(|c| c == kind), "{charts:?}");
    }
    // One load axis only: no heatmap.
    assert!(
        !charts.iter().any(|c| c.starts_with("heatmap_")),
        "{charts:?}"
    );
}

#[test]
fn a_sync_engine_at_qd1_wins_no_latency_claim_among_queued_runs() {
    let j = analyze_json(&[fixture("sweep/iodepth").to_str().unwrap()]);
    let h = strs(&j["highlights"]);
    // psync ran at QD1 wherever QD2..QD32 was asked: its lower latency
    // there is not a result, so no sentence may rest on it.
    assert!(
        !h.iter()
            .any(|s| s.contains("latency") && s.contains("psync") && s.contains(" of ")),
        "{h:#?}"
    );
    // Throughput and CPU claims still name it where it belongs.
    assert!(
        h.iter()
            .any(|s| s.starts_with("psync has the lowest CPU usage")),
        "{h:#?}"
    );
    let keys = j["key_findings"].as_array().unwrap();
    assert!(keys.len() <= 6 && !keys.is_empty());
}

/// A mixed workload swept over queue depth (real fio randrw 70/30): one
/// sweep per direction, both naming the mix, each point from its own file.
#[test]
fn a_mixed_sweep_is_one_sweep_per_direction_with_its_mix() {
    let dir = fixture("sweep/mixed");
    let j = analyze_json(&[dir.to_str().unwrap()]);
    let sweeps = j["sweeps"].as_array().unwrap();
    let dirs: Vec<&str> = sweeps
        .iter()
        .map(|s| s["direction"].as_str().unwrap())
        .collect();
    assert_eq!(dirs, ["read", "write"]);
    for s in sweeps {
        assert_eq!(s["rw"], "randrw");
        assert_eq!(s["rwmixread"], 70);
        let depths: Vec<u64> = s["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["iodepth"].as_u64().unwrap())
            .collect();
        assert_eq!(depths, [1, 4, 16]);
        // Each point's IOPS is that file's figure for that direction.
        let dir = s["direction"].as_str().unwrap();
        for p in s["points"].as_array().unwrap() {
            let qd = p["iodepth"].as_u64().unwrap();
            let file = fixture(&format!("sweep/mixed/libaio/randrw-4k-qd{qd}.json"));
            let doc: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
            let iops = doc["jobs"][0][dir]["iops"].as_f64().unwrap();
            assert!(
                (p["iops"].as_f64().unwrap() - iops).abs() < 1e-6,
                "{dir} qd{qd}"
            );
        }
    }
}

/// One config is compared with nothing: its cells carry no winner or tie
/// mark and the legend of the marks is left out (published fixture: both).
#[test]
fn a_lone_config_gets_no_winner_marks() {
    let term = |dir: &str| {
        let o = nvcmp()
            .args(["analyze"])
            .arg(fixture(dir))
            .output()
            .unwrap();
        assert_ok(&o);
        String::from_utf8(o.stdout).unwrap()
    };
    let lone = term("sweep/mixed");
    assert!(lone.contains("19,097 · "), "{lone}");
    assert!(!lone.contains(" * ") && !lone.contains(" = "), "{lone}");
    assert!(!lone.contains("tied for best"), "{lone}");
    assert!(
        lone.contains("┆ libaio ") && !lone.contains("(baseline)"),
        "{lone}"
    );
    // The report and the charts say the same: no best, no legend of it.
    let out = tempfile::tempdir().unwrap();
    let o = nvcmp()
        .args(["-q", "analyze"])
        .arg(fixture("sweep/mixed"))
        .arg("--out")
        .arg(out.path())
        .args(["--chart-format", "svg"])
        .output()
        .unwrap();
    assert_ok(&o);
    let md = std::fs::read_to_string(out.path().join("report.md")).unwrap();
    assert!(md.starts_with("# libaio results\n"), "{md}");
    assert!(!md.contains("**") && !md.contains("bold"), "{md}");
    let html = std::fs::read_to_string(out.path().join("report.html")).unwrap();
    assert!(
        !html.contains("highlighted green")
            && !html.contains("class=\"v best")
            && !html.contains("class=\"best\"")
    );
    let bars = std::fs::read_to_string(out.path().join("charts/bars_read_iops.svg")).unwrap();
    assert!(bars.contains("66,417") && !bars.contains('★'), "{bars}");
    let four = term("published/storagereview-2026-04");
    assert!(four.contains("91.165 * (+22.7 %)"));
    assert!(four.contains("tied for best"));
}
