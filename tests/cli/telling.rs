//! Reports told right on studies shaped unlike the published one (issue
//! #39): config names a reader knows, findings with readable figures, bar
//! charts that hold any number of configs and loads. On the real fixtures
//! of two third-party studies (ICPE'24: I/O schedulers, apps beside a
//! latency probe), a dated-folder QD1-QD1024 sweep and the real sweeps.

use crate::common::{analyze_json, analyze_out, assert_ok, fixture, nvcmp, strs};

const STUDIES: [&str; 6] = [
    "studies/icpe24-schedulers-1ssd",
    "studies/icpe24-instances-8ssd",
    "dated",
    "sweep/iodepth",
    "sweep/numjobs",
    "published/storagereview-2026-04",
];

/// Each number of a sentence (digits with `,` and `.`), as written.
fn numbers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in text.chars().chain([' ']) {
        if c.is_ascii_digit() || (!cur.is_empty() && matches!(c, ',' | '.')) {
            cur.push(c);
        } else if !cur.is_empty() {
            out.push(cur.trim_end_matches([',', '.']).to_string());
            cur.clear();
        }
    }
    out
}

/// Significant digits of a written number: `91.17` 4, `0.0452` 3, `1,024` 4.
fn significant(n: &str) -> usize {
    let digits: String = n.chars().filter(|c| c.is_ascii_digit()).collect();
    let trimmed = digits.trim_start_matches('0');
    let trimmed = if n.contains('.') {
        trimmed
    } else {
        trimmed.trim_end_matches('0')
    };
    trimmed.len()
}

#[test]
fn the_number_reader_counts_what_is_written() {
    assert_eq!(
        numbers("QD128 x 15 jobs, 5.72M (1,338,428)."),
        ["128", "15", "5.72", "1,338,428"]
    );
    assert_eq!(significant("91.165"), 5);
    assert_eq!(significant("0.0452"), 3);
    assert_eq!(significant("1,024"), 4);
    assert_eq!(significant("16,000"), 2);
}

#[test]
fn findings_print_readable_figures_on_every_study() {
    for study in STUDIES {
        let j = analyze_json(&fixture(study), &[]);
        for h in strs(&j["highlights"]) {
            // Load labels (QD1024, 15 jobs) are names, not figures.
            let prose = h.replace("QD", "QD ");
            for n in numbers(&prose) {
                assert!(significant(&n) <= 4, "{study}: {n} in {h:?}");
            }
            assert!(!h.contains("0.0 %"), "{study}: {h:?}");
            assert!(
                !h.contains(" ms ") || !h.contains("(0."),
                "{study}: sub-ms in ms: {h:?}"
            );
            // Past 10x a change is a factor, never thousands of percent.
            for pct in h.split(" %").filter_map(|p| p.rsplit(' ').next()) {
                if let Ok(v) = pct.replace(',', "").parse::<f64>() {
                    assert!(v < 10_000.0, "{study}: {h:?}");
                }
            }
            // One load is named once in a ranking, with its configs.
            if let Some((_, against)) = h.split_once(", against ") {
                let loads: Vec<&str> = against
                    .split([',', ';'])
                    .filter_map(|p| p.trim().split(" for ").next())
                    .filter(|l| l.starts_with("QD"))
                    .collect();
                let mut unique = loads.clone();
                unique.dedup();
                assert_eq!(loads, unique, "{study}: {h:?}");
            }
        }
    }
}

#[test]
fn configs_are_named_by_what_tells_them_apart() {
    let j = analyze_json(&fixture("studies/icpe24-schedulers-1ssd"), &[]);
    assert_eq!(
        strs(&j["configs"]),
        ["bfq", "kyber", "mq-deadline", "none", "spdk"]
    );
    // The full identity stays in the JSON and the setup table.
    assert_eq!(j["config_labels"]["spdk"], "ioengine=spdk");
    assert_eq!(j["config_labels"]["none"], "ioscheduler=none");
    // The baseline by the stated rule, and why.
    assert_eq!(j["baseline"], "none");
    assert!(
        j["baseline_why"].as_str().unwrap().contains("default"),
        "{}",
        j["baseline_why"]
    );
    let out = nvcmp()
        .args(["analyze", "--format", "md"])
        .arg(fixture("studies/icpe24-schedulers-1ssd"))
        .output()
        .unwrap();
    assert_ok(&out);
    let md = String::from_utf8_lossy(&out.stdout);
    let title = md.lines().next().unwrap();
    assert_eq!(title, "# 5 I/O schedulers compared, fio-3.35");
    assert!(
        md.contains("| Config | ioscheduler=bfq | ioscheduler=kyber |"),
        "{md}"
    );
    assert!(
        md.contains("(the baseline because its name reads as a default"),
        "{md}"
    );
    // Dates are dropped unless they tell two configs apart.
    let j = analyze_json(&fixture("dated"), &[]);
    assert_eq!(
        strs(&j["configs"]),
        ["nvme2n1 (Mar 8)", "nvme2n2 (Mar 8)", "nvme2n2 (Mar 10)"]
    );
    assert_eq!(
        j["config_labels"]["nvme2n2 (Mar 10)"],
        "results/nvme2n2-2022_03_10_09_41_AM"
    );
}

#[test]
fn name_and_baseline_flags_take_a_label_or_a_short_name() {
    let j = analyze_json(
        &fixture("studies/icpe24-schedulers-1ssd"),
        &[
            "--name",
            "ioscheduler=none=no scheduler",
            "--name",
            "spdk=SPDK",
            "--baseline",
            "kyber",
        ],
    );
    assert_eq!(
        strs(&j["configs"]),
        ["bfq", "kyber", "mq-deadline", "no scheduler", "SPDK"]
    );
    assert_eq!(j["baseline"], "kyber");
    assert!(
        j.get("baseline_why").is_none(),
        "a given baseline needs no reason"
    );
    let out = nvcmp()
        .args(["analyze", "--name", "nolabel"])
        .arg(fixture("studies/icpe24-schedulers-1ssd"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--name nolabel: expected CONFIG=LABEL"));
}

#[test]
fn bar_charts_hold_at_most_24_bars_and_say_which_loads() {
    let (dir, out) = analyze_out("studies/icpe24-schedulers-1ssd", &["--chart-format", "svg"]);
    assert_ok(&out);
    let charts = dir.path().join("charts");
    let mut bars_seen = 0;
    for e in std::fs::read_dir(&charts).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("bars_") || !name.ends_with(".svg") {
            continue;
        }
        bars_seen += 1;
        let svg = std::fs::read_to_string(&p).unwrap();
        // Each bar is one hover target of its config (the legend's are
        // classed apart).
        let bars = svg.matches("<rect class=\"hs\" data-config=").count();
        assert!(bars > 0, "{name}: no bars");
        assert!(bars <= 24, "{name}: {bars} bars");
        assert!(!svg.contains('…'), "{name}: a cut label");
        // 15 load points x 5 configs: the chart says which it shows.
        assert!(svg.contains("Bars show "), "{name}: the subset is not said");
    }
    assert!(bars_seen > 0);
}
