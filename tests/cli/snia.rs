//! Steady state judged from fio's logs by the SNIA rule, and the
//! timeseries charts drawn from the same logs.

use crate::common::{analyze_json, assert_ok, fixture, metric_of, nvcmp};

fn analyze(path: &std::path::Path, extra: &[&str]) -> serde_json::Value {
    analyze_json(path, extra)
}

/// The mean of an averaged IOPS log's values.
fn log_mean(rel: &str) -> f64 {
    let text = std::fs::read_to_string(fixture(rel)).unwrap();
    let v: Vec<f64> = text
        .lines()
        .map(|l| l.split(',').nth(1).unwrap().trim().parse().unwrap())
        .collect();
    v.iter().sum::<f64>() / v.len() as f64
}

#[test]
fn a_flat_run_is_steady_by_the_snia_rule_and_a_stalling_one_is_not() {
    let j = analyze(&fixture("snia"), &[]);
    let w = &j["workloads"][0];
    let flat = &w["steady_state"]["flat"];
    assert_eq!(flat["attained"], true);
    assert_eq!(flat["source"], "snia");
    assert_eq!(flat["criterion"], "snia");
    assert!(flat["measured"].as_str().unwrap().starts_with("data "));
    let (a, b) = (
        flat["window_start_s"].as_f64().unwrap(),
        flat["window_end_s"].as_f64().unwrap(),
    );
    assert!(b > a && (flat["duration"].as_f64().unwrap() - (b - a)).abs() < 1e-9);
    // rate_iops=500: the window's mean is the log's, within 2 %.
    let iops = flat["iops"].as_f64().unwrap();
    let mean = log_mean("snia/flat/randread-4k_iops.1.log");
    assert!((iops / mean - 1.0).abs() < 0.02, "{iops} vs {mean}");
    let stalls = &w["steady_state"]["stalls"];
    assert_eq!(stalls["attained"], false);
    assert!(stalls.get("window_start_s").is_none());
    let notes = w["notes"].to_string();
    assert!(
        notes.contains("stalls did not reach steady state"),
        "{notes}"
    );
    assert!(notes.contains("SNIA rule"), "{notes}");
}

#[test]
fn steady_only_reports_the_snia_window() {
    let j = analyze(&fixture("snia"), &["--steady-only"]);
    let w = &j["workloads"][0];
    let iops = metric_of(w, "iops");
    assert_eq!(iops["values"]["flat"], w["steady_state"]["flat"]["iops"]);
}

#[test]
fn fios_own_verdict_is_never_overridden_by_the_logs() {
    // fio's steady-state result with another run's logs of the same job
    // name next to it: the logs are read, fio's verdict stays.
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("psync");
    std::fs::create_dir(&run).unwrap();
    std::fs::copy(
        fixture("steady/psync/randread-4k.json"),
        run.join("randread-4k.json"),
    )
    .unwrap();
    for log in ["randread-4k_iops.1.log", "randread-4k_bw.1.log"] {
        std::fs::copy(fixture(&format!("snia/flat/{log}")), run.join(log)).unwrap();
    }
    let j = analyze(dir.path(), &[]);
    let ss = &j["workloads"][0]["steady_state"]["psync"];
    assert_eq!(ss["source"], "fio");
    assert_eq!(ss["criterion"], "iops:30%");
}

#[test]
fn out_draws_timeseries_charts_where_logs_exist() {
    let dir = tempfile::tempdir().unwrap();
    let out = nvcmp()
        .arg("analyze")
        .arg(fixture("snia"))
        .arg("--out")
        .arg(dir.path())
        .args(["--smooth", "1"])
        .output()
        .unwrap();
    assert_ok(&out);
    for m in ["iops", "bw"] {
        let png = dir
            .path()
            .join(format!("charts/timeseries_randread_4k_read_{m}.png"));
        assert!(png.is_file(), "{}", png.display());
    }
    let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    assert!(md.contains("charts/timeseries_randread_4k_read_iops.png"));
    let html = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    assert!(html.contains("randread 4k: iops over time"));
    assert!(html.contains("moving average over 1 s"));
}

#[test]
fn histogram_and_write_logs_give_percentile_and_data_written_charts() {
    let dir = tempfile::tempdir().unwrap();
    let out = nvcmp()
        .arg("-q")
        .arg("analyze")
        .arg(fixture("series/averaged"))
        .arg(fixture("series/hist"))
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_ok(&out);
    let names: Vec<String> = std::fs::read_dir(dir.path().join("charts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("timeseries_"))
        .collect();
    assert!(
        names.iter().any(|n| n.ends_with("_clat_percentiles.png")),
        "{names:?}"
    );
    assert!(
        names
            .iter()
            .any(|n| n.contains("_write_") && n.ends_with("_bw_by_data.png")),
        "{names:?}"
    );
}

#[test]
fn no_logs_no_timeseries_charts_and_bad_round_is_usage() {
    let dir = tempfile::tempdir().unwrap();
    let out = nvcmp()
        .arg("analyze")
        .arg(fixture("steady"))
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_ok(&out);
    let any = std::fs::read_dir(dir.path().join("charts"))
        .unwrap()
        .any(|e| {
            e.unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("timeseries_")
        });
    assert!(!any);
    let out = nvcmp()
        .arg("analyze")
        .arg(fixture("snia"))
        .args(["--ss-round", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn check_warns_when_a_side_never_settled_by_its_logs() {
    let out = nvcmp()
        .arg("check")
        .arg("--baseline")
        .arg(fixture("snia/flat"))
        .arg("--candidate")
        .arg(fixture("snia/stalls"))
        .args(["--threshold", "99"])
        .output()
        .unwrap();
    let err = crate::common::stderr(&out);
    assert!(err.contains("did not reach steady state"), "{err}");
}

/// The SVG text of chart `stem` that `analyze FIXTURE --out DIR` draws
/// with `extra` flags.
fn timeseries_svg(rel: &str, extra: &[&str], stem: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = nvcmp()
        .arg("-q")
        .arg("analyze")
        .arg(fixture(rel))
        .arg("--out")
        .arg(dir.path())
        .args(extra)
        .args(["--chart-format", "svg"])
        .output()
        .unwrap();
    assert_ok(&out);
    std::fs::read_to_string(dir.path().join(format!("charts/{stem}.svg"))).unwrap()
}

#[test]
fn per_job_draws_each_clone() {
    let svg = timeseries_svg(
        "series/averaged",
        &["--per-job"],
        "timeseries_randrw70_4k_read_iops",
    );
    assert!(svg.contains("a line per job"));
}

#[test]
fn timeseries_charts_say_whose_window_is_shaded_and_each_lines_mean() {
    let svg = timeseries_svg("snia", &[], "timeseries_randread_4k_read_iops")
        .replace("&apos;", "'")
        .replace("&#39;", "'");
    // One band on the chart: it is flat's, and stalls never settled.
    assert!(svg.contains("shaded: flat's steady-state window (SNIA rule)"));
    assert!(svg.contains("stalls never steady"));
    // The footnote's mean is the log's own mean (100 ms rows, 100 ms buckets).
    let at = svg.find("flat mean ").expect("flat's mean in the footnote");
    let mean: f64 = svg[at + "flat mean ".len()..]
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let want = log_mean("snia/flat/randread-4k_iops.1.log");
    assert!(
        (mean - want).abs() / want < 0.02,
        "chart {mean} vs log {want}"
    );
}

/// Copies fixture folder `rel` to `dir/name`, with `edit` applied to the
/// log `log` (its lines).
fn mutated(
    dir: &std::path::Path,
    rel: &str,
    name: &str,
    log: &str,
    edit: impl Fn(&mut Vec<String>),
) {
    let to = dir.join(name);
    std::fs::create_dir_all(&to).unwrap();
    for e in std::fs::read_dir(fixture(rel)).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
    let path = to.join(log);
    let mut lines: Vec<String> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    edit(&mut lines);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn hostile_times_are_named_left_out_and_change_no_verdict() {
    let dir = tempfile::tempdir().unwrap();
    // Line 11: a time near 2^64; line 21 goes back; line 31 repeats line 30.
    mutated(
        dir.path(),
        "snia/flat",
        "flat",
        "randread-4k_iops.1.log",
        |l| {
            l.insert(10, "18446744073709551615, 41, 0, 4096, 0".into());
            l.insert(20, "100, 500, 0, 0, 0".into());
            let again = l[29].clone();
            l.insert(30, again);
        },
    );
    mutated(
        dir.path(),
        "series/per-io",
        "per-io",
        "offsets_clat.1.log",
        |l| {
            l.push("18446744073709551615, 41, 0, 4096, 0, 0".into());
        },
    );
    let out = dir.path().join("out");
    let done = nvcmp()
        .arg("analyze")
        .arg(dir.path().join("flat"))
        .arg(dir.path().join("per-io"))
        .args(["--format", "json", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_ok(&done);
    let err = String::from_utf8_lossy(&done.stderr).to_string();
    let iops = dir.path().join("flat/randread-4k_iops.1.log");
    for want in [
        format!(
            "{}: line 11: time 18446744073709551615 ms is beyond the run's runtime",
            nvcmp::path_text::shown(&iops)
        ),
        format!(
            "{}: line 21: time goes back from 1900 to 100 ms",
            nvcmp::path_text::shown(&iops)
        ),
        format!(
            "{}: line 31: the previous line repeated",
            nvcmp::path_text::shown(&iops)
        ),
        "offsets_clat.1.log: line 501: time 18446744073709551615 ms is beyond".to_string(),
    ] {
        assert!(err.contains(&want), "{want}\n{err}");
    }
    let j: serde_json::Value = serde_json::from_slice(&done.stdout).unwrap();
    let clean = analyze(&fixture("snia/flat"), &[]);
    let ss = |j: &serde_json::Value| {
        let s = j["workloads"]
            .as_array()
            .unwrap()
            .iter()
            .find_map(|w| w["steady_state"].get("flat").cloned());
        s.unwrap()
    };
    assert_eq!(ss(&j)["attained"], ss(&clean)["attained"]);
    assert!(
        out.join("charts/timeseries_randread_4k_read_iops.png")
            .is_file()
    );
}
