//! `nvcmp history add|show` and `check --history` end to end, on a
//! synthetic history made from a real fio run (fixtures/check/run1: a
//! randread and a randwrite job): each run is that file with every job's
//! throughput scaled by ±2 % normal noise (fixed seed), and, from run 16
//! on, randread's by 0.85 as well (a 15 % drop). See
//! `nvcmp::history::synth` for how a file is scaled.

use std::path::{Path, PathBuf};

use nvcmp::history::store::snapshot;
use nvcmp::history::synth::{Noise, scale_fio_json};
use serde_json::Value;

use crate::common::{assert_ok, fixture, nvcmp, stderr};

fn template() -> Value {
    serde_json::from_slice(&std::fs::read(fixture("check/run1/fio.json")).unwrap()).unwrap()
}

/// Writes one run as `dir/ssd/fio.json` with job factors `f(job)`.
fn write_run(dir: &Path, f: impl Fn(usize) -> f64) -> PathBuf {
    let run = dir.join("ssd");
    std::fs::create_dir_all(&run).unwrap();
    let doc = scale_fio_json(&template(), f);
    std::fs::write(
        run.join("fio.json"),
        serde_json::to_vec_pretty(&doc).unwrap(),
    )
    .unwrap();
    dir.to_path_buf()
}

/// `nvcmp history add RESULTS --history HIST ARGS...`, run to its end.
fn history_add(results: &Path, hist: &Path, args: &[&str]) -> std::process::Output {
    nvcmp()
        .args(["history", "add"])
        .arg(results)
        .arg("--history")
        .arg(hist)
        .args(args)
        .output()
        .unwrap()
}

/// Runs 1..=30 added to `hist` (ids `r1`.., commits `c1`..); randread
/// drops 15 % from run `drop_from` on.
fn make_history(root: &Path, hist: &Path, runs: usize, drop_from: Option<usize>) {
    let mut noise = Noise::new(2026);
    for i in 1..=runs {
        let factors: Vec<f64> = (0..2)
            .map(|job| {
                let step = if job == 0 && drop_from.is_some_and(|d| i >= d) {
                    0.85
                } else {
                    1.0
                };
                step * noise.around(1.0, 0.02)
            })
            .collect();
        let dir = write_run(&root.join(format!("run{i}")), |j| factors[j]);
        let time = format!("2026-12-{:02}T08:00:00Z", i);
        let (run, commit) = (format!("r{i}"), format!("c{i}"));
        let out = history_add(
            &dir,
            hist,
            &[
                "--quiet", "--run", &run, "--commit", &commit, "--time", &time,
            ],
        );
        assert_ok(&out);
    }
}

/// `history show --metric iops --out DIR` on `hist`, which must succeed.
fn show_iops_out(hist: &Path, dir: &Path) {
    let out = nvcmp()
        .args([
            "--quiet",
            "history",
            "show",
            "--metric",
            "iops",
            "--history",
        ])
        .arg(hist)
        .arg("--out")
        .arg(dir)
        .output()
        .unwrap();
    assert_ok(&out);
}

fn show_json(hist: &Path) -> Value {
    let out = nvcmp()
        .args(["history", "show", "--format", "json", "--history"])
        .arg(hist)
        .output()
        .unwrap();
    assert_ok(&out);
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_fifteen_percent_drop_is_one_change_point_near_run_16_and_none_elsewhere() {
    let tmp = tempfile::tempdir().unwrap();
    let hist = tmp.path().join("history");
    make_history(tmp.path(), &hist, 30, Some(16));
    let doc = show_json(&hist);
    assert_eq!(doc["runs"], 30);
    let series = doc["series"].as_array().unwrap();
    // 2 workloads x 4 metrics, one config.
    assert_eq!(series.len(), 8, "{doc:#}");
    for s in series {
        assert_eq!(s["runs"].as_array().unwrap().len(), 30);
        assert_eq!(s["config"], "ssd");
        assert_eq!(s["iodepth"], 1);
        let cps = s["change_points"].as_array().unwrap();
        let throughput = ["iops", "bw_bytes_per_s"].contains(&s["metric"].as_str().unwrap());
        if s["rw"] == "randread" && throughput {
            assert_eq!(cps.len(), 1, "{s:#}");
            let run: usize = cps[0]["run"].as_str().unwrap()[1..].parse().unwrap();
            assert!((15..=17).contains(&run), "{s:#}");
            assert_eq!(cps[0]["commit"], format!("c{run}"));
            let pct = cps[0]["change_pct"].as_f64().unwrap();
            assert!((-17.0..=-13.0).contains(&pct), "{pct}");
            assert!(cps[0]["p_value"].as_f64().unwrap() < 0.001);
            let (b, a) = (
                cps[0]["before_mean"].as_f64().unwrap(),
                cps[0]["after_mean"].as_f64().unwrap(),
            );
            assert!(a < b);
        } else if s["rw"] == "randwrite" {
            assert!(cps.is_empty(), "{s:#}");
        }
    }
    // The terminal table names the change point.
    let out = nvcmp()
        .args(["history", "show", "--history"])
        .arg(&hist)
        .output()
        .unwrap();
    assert_ok(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("30 runs, 8 series"), "{text}");
    assert!(text.contains("regression"), "{text}");
}

#[test]
fn show_out_writes_reports_and_history_charts() {
    let tmp = tempfile::tempdir().unwrap();
    let hist = tmp.path().join("history");
    make_history(tmp.path(), &hist, 12, Some(7));
    let out_dir = tmp.path().join("report");
    show_iops_out(&hist, &out_dir);
    assert!(out_dir.join("history.md").is_file());
    let json: Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("history.json")).unwrap()).unwrap();
    assert_eq!(json["series"].as_array().unwrap().len(), 2);
    let mut charts: Vec<String> = std::fs::read_dir(out_dir.join("charts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    charts.sort();
    assert_eq!(
        charts,
        [
            "history_randread_4k_read_qd1_iops.png",
            "history_randwrite_4k_write_qd1_iops.png"
        ]
    );
    let png = image::open(out_dir.join("charts").join(&charts[0])).unwrap();
    assert_eq!((png.width(), png.height()), (1600, 900));
}

#[test]
fn a_duplicate_run_is_refused_and_changes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let hist = tmp.path().join("history");
    make_history(tmp.path(), &hist, 2, None);
    let before = snapshot(&hist);
    let dir = write_run(&tmp.path().join("again"), |_| 0.5);
    let add = |extra: &[&str]| history_add(&dir, &hist, &[&["--run", "r2"], extra].concat());
    let out = add(&[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("r2") && stderr(&out).contains("--replace"),
        "{}",
        stderr(&out)
    );
    assert_eq!(snapshot(&hist), before);
    // --replace swaps the run in place.
    assert_ok(&add(&["--replace"]));
    let doc = show_json(&hist);
    let runs = doc["series"][0]["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[1]["run"], "r2");
    assert!(runs[1]["value"].as_f64().unwrap() < runs[0]["value"].as_f64().unwrap() * 0.6);
    // A bad --time is refused before anything is written.
    let out = history_add(&dir, &hist, &["--run", "r9", "--time", "yesterday"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--time"), "{}", stderr(&out));
}

fn check_history(hist: &Path, cand: &Path, extra: &[&str]) -> (i32, Value) {
    let out = nvcmp()
        .args(["check", "--format", "json", "--history"])
        .arg(hist)
        .arg("--candidate")
        .arg(cand)
        .args(extra)
        .output()
        .unwrap();
    let doc =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&out)));
    (out.status.code().unwrap(), doc)
}

#[test]
fn check_history_passes_no_change_and_fails_a_fifteen_percent_drop() {
    let tmp = tempfile::tempdir().unwrap();
    let hist = tmp.path().join("history");
    make_history(tmp.path(), &hist, 12, None);
    let same = write_run(&tmp.path().join("same"), |_| 1.0);
    let (code, doc) = check_history(&hist, &same, &[]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(doc["status"], "pass");
    assert_eq!(doc["window"], 10);
    let findings = doc["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 6, "{doc:#}");
    assert!(findings.iter().all(|f| f["window_runs"] == 10));

    let slow = write_run(
        &tmp.path().join("slow"),
        |j| if j == 0 { 0.85 } else { 1.0 },
    );
    let (code, doc) = check_history(&hist, &slow, &[]);
    assert_eq!(code, 1, "{doc:#}");
    let reg: Vec<&Value> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["verdict"] == "regression")
        .collect();
    // randread IOPS, bandwidth and mean latency all moved.
    assert_eq!(reg.len(), 3, "{doc:#}");
    assert!(
        reg.iter()
            .all(|f| f["rw"] == "randread" && f["rule"] == "significant")
    );
    assert!(reg.iter().all(|f| f["candidate_is_change_point"] == true));
    let iops = reg.iter().find(|f| f["metric"] == "iops").unwrap();
    let pct = iops["change_pct"].as_f64().unwrap();
    assert!((-17.0..=-13.0).contains(&pct), "{pct}");

    // Against one run, and usage errors.
    let (code, doc) = check_history(&hist, &same, &["--against", "run r3"]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(doc["findings"][0]["reference_run"], "r3");
    let out = nvcmp()
        .args(["check", "--history"])
        .arg(&hist)
        .arg("--candidate")
        .arg(&same)
        .args(["--against", "run nope"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("nope"), "{}", stderr(&out));
}

#[test]
fn ingest_exports_bencher_and_github_action_benchmark_json() {
    let run = fixture("check/run1");
    let out = nvcmp()
        .args(["ingest", "--format", "bmf"])
        .arg(&run)
        .output()
        .unwrap();
    assert_ok(&out);
    let bmf: Value = serde_json::from_slice(&out.stdout).unwrap();
    let b = bmf.as_object().unwrap();
    assert_eq!(b.len(), 2, "{bmf:#}");
    let iops = &bmf["run1/randread 4k read QD1"]["iops"];
    assert_eq!(iops["value"], template()["jobs"][0]["read"]["iops"]);
    assert!(iops["lower_value"].as_f64() < iops["value"].as_f64());

    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("gab.json");
    let out = nvcmp()
        .args(["ingest", "--format", "gab-smaller", "-o"])
        .arg(&file)
        .arg(&run)
        .output()
        .unwrap();
    assert_ok(&out);
    let gab: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let entries = gab.as_array().unwrap();
    // 2 workloads x (mean latency, p99).
    assert_eq!(entries.len(), 4, "{gab:#}");
    assert!(
        entries
            .iter()
            .all(|e| e["unit"] == "ns" && e["value"].as_f64().unwrap() > 0.0)
    );
}

#[test]
fn label_lines_up_runs_from_differently_named_folders() {
    let t = tempfile::tempdir().unwrap();
    let hist = t.path().join("h");
    for (run, folder) in [("r1", "check/run1"), ("r2", "check/run2")] {
        let o = nvcmp()
            .args([
                "-q",
                "history",
                "add",
                "--run",
                run,
                "--label",
                "box",
                "--history",
            ])
            .arg(&hist)
            .arg(fixture(folder))
            .output()
            .unwrap();
        assert_ok(&o);
    }
    let o = nvcmp()
        .args(["history", "show", "--format", "json", "--history"])
        .arg(&hist)
        .output()
        .unwrap();
    assert_ok(&o);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let series = v["series"].as_array().unwrap();
    assert!(!series.is_empty());
    // One config, two runs each: without --label they would be run1 and run2.
    for s in series {
        assert_eq!(s["config"], "box", "{s}");
        assert_eq!(s["runs"].as_array().unwrap().len(), 2, "{s}");
    }
    let o = nvcmp()
        .args(["check", "--label", "box", "--history"])
        .arg(&hist)
        .arg("--candidate")
        .arg(fixture("check/regressed"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("0 missing"), "{out}{}", stderr(&o));
    let o = nvcmp()
        .args(["history", "add", "--label", " ", "--history"])
        .arg(&hist)
        .arg(fixture("check/run1"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--label"), "{}", stderr(&o));
}

/// The run ids of the first series of `history show --format json`.
fn run_ids(doc: &Value) -> Vec<&str> {
    doc["series"][0]["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["run"].as_str().unwrap())
        .collect()
}

fn part_names(hist: &Path) -> Vec<String> {
    snapshot(hist).into_iter().map(|(n, _)| n).collect()
}

#[test]
fn show_html_is_one_page_with_the_series_and_their_change_points() {
    let tmp = tempfile::tempdir().unwrap();
    let hist = tmp.path().join("history");
    make_history(tmp.path(), &hist, 30, Some(16));
    let json = show_json(&hist);
    let out = nvcmp()
        .args(["history", "show", "--format", "html", "--history"])
        .arg(&hist)
        .output()
        .unwrap();
    assert_ok(&out);
    let html = String::from_utf8(out.stdout).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("Content-Security-Policy"));
    // Self-contained: nothing to fetch.
    assert!(!html.contains("src=\"http"), "an outside address");
    let iops = json["series"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["rw"] == "randread" && s["metric"] == "iops")
        .unwrap();
    let cp = &iops["change_points"][0];
    let pct = cp["change_pct"].as_f64().unwrap();
    // The change point's row: its run, commit and change as the tables print it.
    let row = format!(
        "<td>randread 4k QD1</td><td>ssd</td><td>iops</td><td><code>{}</code></td><td><code>{}</code></td>",
        cp["run"].as_str().unwrap(),
        cp["commit"].as_str().unwrap()
    );
    assert!(html.contains(&row), "no row {row}");
    assert!(html.contains(&format!("{pct:.1} %")), "no {pct:.1} %");
    // One chart per workload and metric, inline, under its title.
    assert_eq!(html.matches("<svg").count(), 8);
    assert!(html.contains("<h3>randread 4k QD1 · iops</h3>"));
    assert!(html.contains("<h3>randwrite 4k QD1 · clat_p99_ns</h3>"));
}

#[test]
fn adds_merge_parts_and_the_history_reads_the_same() {
    let tmp = tempfile::tempdir().unwrap();
    let hist = tmp.path().join("history");
    make_history(tmp.path(), &hist, 17, None);
    // Runs 1-16 merged into one part on the 16th add; run 17 alone.
    assert_eq!(
        part_names(&hist),
        ["part-00000001-00000016.parquet", "part-00000017.parquet"]
    );
    let doc = show_json(&hist);
    assert_eq!(doc["runs"], 17);
    let runs = run_ids(&doc);
    let expected: Vec<String> = (1..=17).map(|i| format!("r{i}")).collect();
    assert_eq!(runs, expected);
    assert_eq!(doc["series"][0]["runs"][3]["commit"], "c4");
    // `history compact` on a merged history changes nothing.
    let before = snapshot(&hist);
    let out = nvcmp()
        .args(["--quiet", "history", "compact", "--history"])
        .arg(&hist)
        .output()
        .unwrap();
    assert_ok(&out);
    assert_eq!(snapshot(&hist), before);
    // A run already merged is still refused.
    let again_run = write_run(&tmp.path().join("again"), |_| 1.0);
    let again = history_add(&again_run, &hist, &["--run", "r3"]);
    assert_eq!(again.status.code(), Some(2), "{}", stderr(&again));
    assert_eq!(snapshot(&hist), before);
}

#[test]
fn compact_without_a_history_is_a_usage_error_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nothing-here");
    let out = nvcmp()
        .args(["history", "compact", "--history"])
        .arg(&missing)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("nothing-here") && err.contains("no history"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

/// A candidate whose job failed is `"status": "error"` and exit 2, in the
/// text verdict and the JSON alike.
#[test]
fn check_history_with_a_failed_candidate_job_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let hist = tmp.path().join("history");
    make_history(tmp.path(), &hist, 3, None);
    let cand = write_run(&tmp.path().join("cand"), |_| 1.0);
    let file = cand.join("ssd/fio.json");
    let mut doc: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    doc["jobs"][1]["error"] = 5.into();
    std::fs::write(&file, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let (code, doc) = check_history(&hist, &cand, &["--window", "2"]);
    assert_eq!(code, 2, "{doc:#}");
    assert_eq!(doc["status"], "error");
    assert!(
        doc["errors"][0].as_str().unwrap().contains("error 5"),
        "{doc:#}"
    );
    let out = nvcmp()
        .args(["check", "--window", "2", "--history"])
        .arg(&hist)
        .arg("--candidate")
        .arg(&cand)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("ERROR: unusable input"), "{text}");
    assert!(!text.contains("PASS"), "{text}");
}

/// What a killed add leaves (its `.part-*.tmp`, as the store names them)
/// is removed by the next add, which takes the history's lock first, so
/// no live writer's file is touched; `compact` cleans the same way.
#[test]
fn the_next_add_removes_what_a_killed_add_left() {
    let tmp = tempfile::tempdir().unwrap();
    let hist = tmp.path().join("history");
    make_history(tmp.path(), &hist, 2, None);
    let left = hist.join(".part-00000003-00000003-4242.tmp");
    std::fs::write(&left, b"PAR1 half a part").unwrap();
    let other = hist.join("notes.tmp");
    std::fs::write(&other, b"not ours").unwrap();
    let run3 = write_run(&tmp.path().join("run3"), |_| 1.0);
    let out = history_add(&run3, &hist, &["--run", "r3"]);
    assert_ok(&out);
    assert!(!left.exists());
    assert!(other.exists(), "only files of the store's own naming go");
    assert!(
        stderr(&out).contains("removed 1 stale temporary file left by an interrupted add"),
        "{}",
        stderr(&out)
    );
    assert_eq!(show_json(&hist)["runs"], 3);
    // compact cleans too.
    std::fs::write(&left, b"again").unwrap();
    let out = nvcmp()
        .args(["history", "compact", "--history"])
        .arg(&hist)
        .output()
        .unwrap();
    assert_ok(&out);
    assert!(!left.exists());
}

/// A part copied by hand holds runs already there: `show` says which and
/// counts each run once.
#[test]
fn a_run_in_two_parts_is_warned_about_and_counted_once() {
    let tmp = tempfile::tempdir().unwrap();
    let hist = tmp.path().join("history");
    make_history(tmp.path(), &hist, 3, None);
    std::fs::copy(
        hist.join("part-00000002.parquet"),
        hist.join("part-00000009.parquet"),
    )
    .unwrap();
    let out = nvcmp()
        .args(["history", "show", "--format", "json", "--history"])
        .arg(&hist)
        .output()
        .unwrap();
    assert_ok(&out);
    let err = stderr(&out);
    assert!(
        err.contains(
            "run `r2` is in 2 parts (part-00000002.parquet, part-00000009.parquet); counted once"
        ),
        "{err}"
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["runs"], 3);
    let runs = run_ids(&doc);
    assert_eq!(runs, ["r1", "r2", "r3"]);
}

/// A 12-run history and a candidate whose randread is 15 % slower: the
/// `check --history` that fails on it, with `extra` flags and `env`.
fn gate_a_drop(tmp: &Path, extra: &[&std::ffi::OsStr], env: &[(&str, &Path)]) {
    let hist = tmp.join("history");
    make_history(tmp, &hist, 12, None);
    let slow = write_run(&tmp.join("slow"), |j| if j == 0 { 0.85 } else { 1.0 });
    let mut cmd = nvcmp();
    cmd.env_remove("GITHUB_STEP_SUMMARY");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .args(["--quiet", "check", "--history"])
        .arg(&hist)
        .arg("--candidate")
        .arg(&slow)
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

/// The markdown report of a failing history gate: the verdict, then the
/// three randread regressions against the window.
fn assert_history_markdown(md: &str) {
    assert!(
        md.starts_with("## ❌ nvcmp check: FAIL: 3 regressions"),
        "{md}"
    );
    assert!(
        md.contains("against the last 10 runs (12 runs in history)"),
        "{md}"
    );
    let failing: Vec<&str> = md
        .lines()
        .filter(|l| l.contains("| **regression** |"))
        .collect();
    // Each regression in the failing table and again in the full one.
    assert_eq!(failing.len(), 6, "{md}");
    // Markdown's brackets escaped (issue #55): a CommonMark reader shows
    // `[ssd]`.
    assert!(
        failing
            .iter()
            .all(|l| l.contains("randread") && l.contains("\\[ssd\\]")),
        "{md}"
    );
    assert!(failing.iter().any(|l| l.contains("| iops |")), "{md}");
    assert!(
        md.contains("<details><summary>All 6 checks</summary>"),
        "{md}"
    );
    assert!(md.contains("beyond 5% and the noise of 10 runs"), "{md}");
}

#[test]
fn check_history_writes_junit() {
    let tmp = tempfile::tempdir().unwrap();
    let junit = tmp.path().join("check.xml");
    gate_a_drop(tmp.path(), &["--junit".as_ref(), junit.as_os_str()], &[]);
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains(
            r#"<testsuite name="nvcmp check" tests="6" failures="3" errors="0" skipped="0">"#
        ),
        "{xml}"
    );
    let failures: Vec<&str> = xml
        .lines()
        .filter(|l| l.contains(r#"<failure type="regression""#))
        .collect();
    assert_eq!(failures.len(), 3, "{xml}");
    assert!(failures.iter().all(|l| l.contains("randread")), "{xml}");
    assert!(xml.contains(r#"name="iops""#), "{xml}");
}

#[test]
fn check_history_writes_markdown() {
    let tmp = tempfile::tempdir().unwrap();
    let md = tmp.path().join("summary.md");
    gate_a_drop(tmp.path(), &["--markdown".as_ref(), md.as_os_str()], &[]);
    assert_history_markdown(&std::fs::read_to_string(&md).unwrap());
}

#[test]
fn check_history_appends_the_step_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let summary = tmp.path().join("step-summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    gate_a_drop(tmp.path(), &[], &[("GITHUB_STEP_SUMMARY", &summary)]);
    let text = std::fs::read_to_string(&summary).unwrap();
    let md = text
        .strip_prefix("earlier step\n")
        .expect("appended, not replaced");
    assert_history_markdown(md);
}

/// IOPS per load point of `analyze --format json` on `dir`, keyed by
/// (iodepth, devices, instances).
fn analyzed_iops(dir: &Path) -> Vec<((u64, u64, u64), f64)> {
    let out = nvcmp()
        .args(["analyze", "--format", "json"])
        .arg(dir)
        .output()
        .unwrap();
    assert_ok(&out);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut got: Vec<((u64, u64, u64), f64)> = Vec::new();
    for w in doc["workloads"].as_array().unwrap() {
        let iops = w["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["metric"] == "iops")
            .unwrap();
        let value = iops["values"].as_object().unwrap().values().next().unwrap();
        got.push((load_of(w), value.as_f64().unwrap()));
    }
    got.sort_by_key(|a| a.0);
    got
}

fn load_of(w: &Value) -> (u64, u64, u64) {
    let n = |k: &str| w[k].as_u64().unwrap_or(1);
    (n("iodepth"), n("devices"), n("instances"))
}

#[test]
fn history_keeps_a_devices_or_instances_sweep_apart_as_analyze_does() {
    for study in ["configs/devices", "configs/instances"] {
        let tmp = tempfile::tempdir().unwrap();
        let hist = tmp.path().join("hist");
        for i in 1..=3 {
            let (run, time) = (format!("r{i}"), format!("2026-12-0{i}T08:00:00Z"));
            let args = ["--quiet", "--run", &run, "--time", &time];
            let out = history_add(&fixture(study), &hist, &args);
            assert_ok(&out);
        }
        // One series per load point, each holding analyze's figure in
        // every run: a sweep over devices or instances is never averaged.
        let want = analyzed_iops(&fixture(study));
        assert!(want.len() >= 3, "{study}: {want:?}");
        let doc = show_json(&hist);
        let mut got: Vec<((u64, u64, u64), f64)> = doc["series"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["metric"] == "iops")
            .map(|s| {
                let runs = s["runs"].as_array().unwrap();
                assert_eq!(runs.len(), 3, "{study}: {s}");
                (load_of(s), runs[2]["value"].as_f64().unwrap())
            })
            .collect();
        got.sort_by_key(|a| a.0);
        assert_eq!(got.len(), want.len(), "{study}: {got:?} vs {want:?}");
        for ((load, v), (wl, wv)) in got.iter().zip(&want) {
            assert_eq!(load, wl, "{study}");
            assert!((v - wv).abs() <= wv * 1e-9, "{study} {load:?}: {v} vs {wv}");
        }
        // The gate compares each load point with its own past.
        let (code, doc) = check_history(&hist, &fixture(study), &[]);
        assert_eq!(code, 0, "{study}: {doc}");
        let gated: std::collections::BTreeSet<(u64, u64, u64)> = doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["metric"] == "iops")
            .inspect(|f| assert_eq!(f["verdict"], "unchanged", "{f}"))
            .map(load_of)
            .collect();
        assert_eq!(gated.len(), want.len(), "{study}: {gated:?}");
        // Each series' chart is named by its whole load point, as
        // analyze's are, not numbered apart (`_qd8x2d`, not `_qd8-2`).
        let out = tmp.path().join("out");
        show_iops_out(&hist, &out);
        let mut charts: Vec<String> = std::fs::read_dir(out.join("charts"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        charts.sort();
        assert_eq!(charts.len(), want.len(), "{study}: {charts:?}");
        assert!(charts.iter().all(|c| !c.contains('-')), "{charts:?}");
        if study == "configs/devices" {
            assert!(charts.contains(&"history_randread_4k_read_qd8x3d_iops.png".to_string()));
        }
    }
}
