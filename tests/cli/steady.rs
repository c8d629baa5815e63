//! fio's steady-state verdicts: read, compared, gated.

use crate::common::{analyze_json, fixture, nvcmp, strs};

fn analyze(extra: &[&str]) -> serde_json::Value {
    analyze_json(&fixture("steady"), extra)
}

/// fio's own `steadystate` object of a fixture.
fn fio_verdict(config: &str) -> serde_json::Value {
    let text =
        std::fs::read_to_string(fixture(&format!("steady/{config}/randread-4k.json"))).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["jobs"][0]["steadystate"].clone()
}

#[test]
fn fios_verdicts_are_reported_per_config_and_the_unsettled_one_noted() {
    let j = analyze(&[]);
    let w = &j["workloads"][0];
    let ss = &w["steady_state"];
    for config in ["psync", "libaio"] {
        let fio = fio_verdict(config);
        assert_eq!(ss[config]["attained"], fio["attained"] == 1, "{config}");
        assert_eq!(ss[config]["source"], "fio");
        assert_eq!(ss[config]["duration"].as_f64(), fio["duration"].as_f64());
        assert_eq!(
            ss[config]["iops"].as_f64(),
            fio["data"]["iops_mean"].as_f64()
        );
    }
    assert_eq!(ss["psync"]["criterion"], "iops:30%");
    assert_eq!(ss["libaio"]["criterion"], "iops_slope:0.0001%");
    // The text report names the verdict and the measured deviation only.
    assert_eq!(ss["psync-text"]["attained"], true);
    assert_eq!(ss["psync-text"]["criterion"], "bw mean dev");
    let notes = strs(&w["notes"]);
    assert_eq!(
        notes.iter().filter(|n| n.contains("steady state")).count(),
        1,
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("libaio did not reach steady state (iops_slope:0.0001%"))
    );
}

#[test]
fn steady_only_reports_the_windows_iops() {
    let whole = analyze(&[]);
    let steady = analyze(&["--steady-only"]);
    let iops = |j: &serde_json::Value, c: &str| {
        j["workloads"][0]["metrics"][1]["values"][c]
            .as_f64()
            .unwrap()
    };
    assert_eq!(whole["workloads"][0]["metrics"][1]["metric"], "iops");
    for config in ["psync", "libaio"] {
        let window = fio_verdict(config)["data"]["iops_mean"].as_f64().unwrap();
        assert_eq!(iops(&steady, config), window, "{config}");
        assert_ne!(
            iops(&whole, config),
            window,
            "{config}: the whole run differs"
        );
    }
    // No window in text output: the whole run stays.
    assert_eq!(iops(&steady, "psync-text"), iops(&whole, "psync-text"));
}

#[test]
fn check_warns_when_a_side_never_settled() {
    let out = nvcmp()
        .args(["check", "--baseline"])
        .arg(fixture("steady/psync"))
        .arg("--candidate")
        .arg(fixture("steady/libaio"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("candidate: randread 4k: did not reach steady state (iops_slope:0.0001%)"),
        "{err}"
    );
    assert!(
        !err.contains("baseline: randread 4k: did not reach"),
        "{err}"
    );
}
