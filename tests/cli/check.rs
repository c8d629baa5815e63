//! `nvcmp check` end to end, on real fio runs (fixtures/check/make.sh says
//! how each was made; `regressed`, `missing` and `truncated` are derived
//! from `run2`).

use std::path::PathBuf;

use predicates::prelude::*;
use serde_json::Value;

use crate::common::{fixture, nvcmp};

fn fio_json(rel: &str) -> Value {
    serde_json::from_slice(&std::fs::read(fixture(rel)).unwrap()).unwrap()
}

/// `nvcmp check --baseline BASE.. --candidate CAND..`; more flags may follow.
fn check(base: &[PathBuf], cand: &[PathBuf]) -> assert_cmd::Command {
    let mut cmd = nvcmp();
    cmd.arg("check")
        .arg("--baseline")
        .args(base)
        .arg("--candidate")
        .args(cand);
    cmd
}

/// `check` with `--format json`: its exit code and document.
fn check_json_at(base: &[PathBuf], cand: &[PathBuf], extra: &[&str]) -> (i32, Value) {
    let out = check(base, cand)
        .args(["--format", "json"])
        .args(extra)
        .output()
        .unwrap();
    let doc = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    (out.status.code().unwrap(), doc)
}

/// [`check_json_at`] of one fixture against another.
fn check_json(base: &str, cand: &str, extra: &[&str]) -> (i32, Value) {
    check_json_at(&[fixture(base)], &[fixture(cand)], extra)
}

fn finding<'a>(doc: &'a Value, workload: &str, metric: &str) -> &'a Value {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["workload"] == workload && f["metric"] == metric)
        .unwrap_or_else(|| panic!("no {workload} {metric} in {doc:#}"))
}

#[test]
fn two_real_runs_of_the_same_job_pass_with_defaults() {
    let (code, doc) = check_json("check/run1", "check/run2", &[]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(doc["status"], "pass");
    // Values are the files' own numbers.
    let run1 = fio_json("check/run1/fio.json");
    let run2 = fio_json("check/run2/fio.json");
    let f = finding(&doc, "randread 4k read", "iops");
    assert_eq!(f["baseline"], run1["jobs"][0]["read"]["iops"]);
    assert_eq!(f["candidate"], run2["jobs"][0]["read"]["iops"]);
    let f = finding(&doc, "randwrite 4k write", "bw_bytes_per_s");
    assert_eq!(
        f["candidate"].as_f64(),
        run2["jobs"][1]["write"]["bw_bytes"].as_f64()
    );
    // The runs differ by more than 5 % somewhere; fio's samples clear it.
    let cleared: Vec<&Value> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "not_significant")
        .collect();
    assert!(!cleared.is_empty(), "{doc:#}");
    for f in cleared {
        assert!(f["change_pct"].as_f64().unwrap().abs() > 5.0);
        assert!(f["p_value"].as_f64().unwrap() >= 0.05);
        assert_eq!(f["spread_source"], "samples");
    }
}

#[test]
fn an_injected_regression_fails_and_is_named() {
    let out = check(&[fixture("check/run2")], &[fixture("check/regressed")])
        .assert()
        .code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("randread 4k read") && l.contains(" iops "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.contains("regression") && line.contains("-15.0 %"),
        "{line}"
    );
    assert!(text.contains("FAIL: 2 regressions"), "{text}");
    // One run a side: the caution, in plain English, names the fix.
    assert!(
        text.contains("note: 2 regressions rest on one run a side")
            && text.contains("`nvcmp run --repeat 3`"),
        "{text}"
    );

    let (code, doc) = check_json("check/run2", "check/regressed", &[]);
    assert_eq!(code, 1);
    let f = finding(&doc, "randread 4k read", "iops");
    assert_eq!(
        (f["verdict"].as_str(), f["rule"].as_str()),
        (Some("regression"), Some("significant"))
    );
    let base = fio_json("check/run2/fio.json")["jobs"][0]["read"]["iops"]
        .as_f64()
        .unwrap();
    let cand = fio_json("check/regressed/fio.json")["jobs"][0]["read"]["iops"]
        .as_f64()
        .unwrap();
    let expect = (cand - base) / base * 100.0;
    assert!((f["change_pct"].as_f64().unwrap() - expect).abs() < 1e-9);
    // The untouched workload stays clean.
    assert_eq!(
        finding(&doc, "randwrite 4k write", "iops")["verdict"],
        "unchanged"
    );
    // A threshold above the injected 15 % lets it through.
    let (code, _) = check_json(
        "check/run2",
        "check/regressed",
        &["--threshold", "iops=20%", "--threshold", "bw=20"],
    );
    assert_eq!(code, 0);
}

#[test]
fn quiet_prints_only_regressions() {
    let out = check(&[fixture("check/run2")], &[fixture("check/regressed")])
        .arg("--quiet")
        .assert()
        .code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("randread 4k read"), "{text}");
    assert!(
        !text.contains("randwrite") && !text.contains("unchanged"),
        "{text}"
    );
}

#[test]
fn a_truncated_candidate_exits_2_naming_it() {
    check(
        &[fixture("check/run2")],
        &[fixture("check/truncated/fio.json")],
    )
    .assert()
    .code(2)
    .stderr(predicate::str::contains("truncated/fio.json"))
    .stderr(predicate::str::contains("truncated JSON"));
}

#[test]
fn a_truncated_file_beside_good_ones_still_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    for (name, from) in [
        ("a.json", "check/run1/fio.json"),
        ("b.json", "check/truncated/fio.json"),
    ] {
        std::fs::copy(fixture(from), dir.path().join(name)).unwrap();
    }
    check(&[fixture("check/run2")], &[dir.path().to_path_buf()])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("randread 4k read"))
        .stderr(predicate::str::contains("b.json"))
        .stderr(predicate::str::contains("could not be read"));
}

#[test]
fn a_missing_workload_fails_unless_allowed() {
    let (code, doc) = check_json("check/run2", "check/missing", &[]);
    assert_eq!(code, 1);
    assert_eq!(
        doc["missing_workloads"],
        serde_json::json!(["randwrite 4k write"])
    );
    assert_eq!(doc["regressions"], 0);
    let (code, doc) = check_json("check/run2", "check/missing", &["--allow-missing"]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(
        finding(&doc, "randwrite 4k write", "iops")["verdict"],
        "missing"
    );
    // The other way round the workload is new: no failure.
    let (code, doc) = check_json("check/missing", "check/run2", &[]);
    assert_eq!(code, 0);
    assert_eq!(
        finding(&doc, "randwrite 4k write", "iops")["verdict"],
        "new"
    );
}

#[test]
fn junit_markdown_and_step_summary() {
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("check.xml");
    let md = dir.path().join("check.md");
    let summary = dir.path().join("summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    check(&[fixture("check/run2")], &[fixture("check/regressed")])
        .env("GITHUB_STEP_SUMMARY", &summary)
        .arg("--junit")
        .arg(&junit)
        .arg("--markdown")
        .arg(&md)
        .assert()
        .code(1);
    let xml = std::fs::read_to_string(&junit).unwrap();
    // 2 workloads x 3 default metrics, the two regressed ones failing.
    assert_eq!(xml.matches("<testcase ").count(), 6, "{xml}");
    assert_eq!(xml.matches("<failure ").count(), 2, "{xml}");
    assert!(xml.contains(r#"tests="6" failures="2""#), "{xml}");
    assert!(
        xml.contains(r#"<testcase classname="randread 4k read" name="iops">"#),
        "{xml}"
    );
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(
        text.starts_with("## ❌ nvcmp check: FAIL: 2 regressions"),
        "{text}"
    );
    assert!(text.contains("| randread 4k read | iops |"), "{text}");
    let appended = std::fs::read_to_string(&summary).unwrap();
    assert_eq!(appended, format!("earlier step\n{text}"));
}

#[test]
fn a_dataset_baseline_judges_like_its_results() {
    // A dataset as `nvcmp ingest --format json` writes it: an array of rows.
    let dir = tempfile::tempdir().unwrap();
    let rows = nvcmp::input::read(&[fixture("check/run2")], &Default::default(), &())
        .unwrap()
        .rows;
    assert_eq!(rows.len(), 2);
    let dataset = dir.path().join("baseline.json");
    std::fs::write(&dataset, serde_json::to_vec(&rows).unwrap()).unwrap();
    let (code, from_dataset) = check_json("check/run2", "check/regressed", &[]);
    let regressed = [fixture("check/regressed")];
    let (code_of_dataset, doc) = check_json_at(&[dataset], &regressed, &[]);
    assert_eq!(code_of_dataset, code);
    assert_eq!(doc["findings"], from_dataset["findings"]);

    // The same as parquet, written by the dataset writer `nvcmp ingest -o` uses.
    let parquet = dir.path().join("baseline.parquet");
    nvcmp::dataset::write(&rows, &parquet).unwrap();
    let (code_of_parquet, doc) = check_json_at(&[parquet], &regressed, &[]);
    assert_eq!(code_of_parquet, code);
    assert_eq!(doc["findings"], from_dataset["findings"]);

    // A corrupt dataset is named, exit 2.
    let broken = dir.path().join("broken.parquet");
    std::fs::write(&broken, b"PAR1").unwrap();
    check(&[broken], &[fixture("check/run1")])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("broken.parquet"));
}

/// `ingest -o`'s ndjson is a baseline like its results; one saved by an
/// older nvcmp (a column less) still is, with a warning naming the column:
/// a CI baseline keeps working across upgrades.
#[test]
fn an_ingested_ndjson_baseline_and_one_of_an_older_column_set() {
    let dir = tempfile::tempdir().unwrap();
    let ndjson = dir.path().join("baseline.ndjson");
    nvcmp()
        .arg("ingest")
        .arg(fixture("check/run2"))
        .arg("-o")
        .arg(&ndjson)
        .assert()
        .success();
    let (code, from_results) = check_json("check/run2", "check/regressed", &[]);
    let regressed = [fixture("check/regressed")];
    let (code_of_ndjson, doc) = check_json_at(std::slice::from_ref(&ndjson), &regressed, &[]);
    assert_eq!(code_of_ndjson, code);
    assert_eq!(doc["findings"], from_results["findings"]);

    // The same rows without `precondition`, as an older nvcmp wrote them.
    let older = dir.path().join("older.ndjson");
    let text = std::fs::read_to_string(&ndjson).unwrap();
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            let mut row: serde_json::Map<String, Value> = serde_json::from_str(l).unwrap();
            row.remove("precondition");
            Value::Object(row).to_string()
        })
        .collect();
    std::fs::write(&older, lines.join("\n")).unwrap();
    let (code_of_older, doc) = check_json_at(std::slice::from_ref(&older), &regressed, &[]);
    assert_eq!(code_of_older, code);
    assert_eq!(doc["findings"], from_results["findings"]);
    check(std::slice::from_ref(&older), &regressed)
        .assert()
        .code(code)
        .stderr(predicate::str::contains("older.ndjson"))
        .stderr(predicate::str::contains(
            "no column `precondition` (written by an older nvcmp): read as empty",
        ));
}

#[test]
fn bad_usage_exits_2() {
    check(&[fixture("check/run1")], &[fixture("check/run2")])
        // `latency` is a name of lat_mean_ns now (Metric::NAMES): a typo is not.
        .args(["--threshold", "latancy=3%"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown metric `latancy`"));
    nvcmp()
        .args(["check", "--candidate"])
        .arg(fixture("check/run2"))
        .assert()
        .code(2);
}

#[test]
fn repeated_runs_give_the_spread() {
    let runs = [fixture("check/run1"), fixture("check/run2")];
    let (code, doc) = check_json_at(&runs, &runs, &[]);
    assert_eq!(code, 0);
    let f = finding(&doc, "randread 4k read", "iops");
    let iops = |rel: &str| fio_json(rel)["jobs"][0]["read"]["iops"].as_f64().unwrap();
    let mean = (iops("check/run1/fio.json") + iops("check/run2/fio.json")) / 2.0;
    assert!(
        (f["baseline"].as_f64().unwrap() - mean).abs() < 1e-6,
        "{f:#}"
    );
    assert_eq!(f["change_pct"].as_f64(), Some(0.0));
    assert_eq!(f["rule"], "within_threshold");
    assert!(doc["caution"].is_null());
}

#[test]
fn baseline_runs_that_disagree_widen_what_counts_as_noise() {
    // run1 and run2 differ by 8 % in randread IOPS; with them as the
    // baseline, the candidate's injected 15 % (18 % from their mean) is
    // not significant against that spread.
    let runs = [fixture("check/run1"), fixture("check/run2")];
    let (code, doc) = check_json_at(&runs, &[fixture("check/regressed")], &[]);
    let f = finding(&doc, "randread 4k read", "iops");
    assert!(f["change_pct"].as_f64().unwrap() < -15.0, "{f:#}");
    assert_eq!(
        (f["rule"].as_str(), f["spread_source"].as_str()),
        (Some("not_significant"), Some("runs"))
    );
    assert!(f["p_value"].as_f64().unwrap() >= 0.05);
    assert_eq!(code, 0);
}

#[test]
fn a_candidate_job_that_failed_exits_2_naming_it() {
    // Derived from run2: the randwrite job's error set as fio reports a
    // failed job (error 5, EIO).
    let mut doc = fio_json("check/run2/fio.json");
    doc["jobs"][1]["error"] = 5.into();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("failed.json");
    std::fs::write(&path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    check(&[fixture("check/run2")], &[path])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "failed.json (job \"randwrite\", error 5)",
        ));
}

/// run2 with its randwrite job failed (error 5), in a temporary folder.
fn failed_candidate() -> (tempfile::TempDir, PathBuf) {
    let mut doc = fio_json("check/run2/fio.json");
    doc["jobs"][1]["error"] = 5.into();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("failed.json");
    std::fs::write(&path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    (dir, path)
}

/// The verdict every format gives agrees with the exit code: a failed
/// candidate job is an error, never "PASS".
#[test]
fn a_failed_candidate_is_an_error_in_the_text_verdict() {
    let (_dir, path) = failed_candidate();
    let out = check(&[fixture("check/run2")], &[path]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap();
    assert!(
        last.starts_with("ERROR: unusable input: a candidate job reported an error"),
        "{stdout}"
    );
    assert!(!stdout.contains("PASS"), "{stdout}");
}

#[test]
fn a_failed_candidate_is_an_error_in_json() {
    let (_dir, path) = failed_candidate();
    let (code, doc) = check_json_at(&[fixture("check/run2")], &[path], &[]);
    assert_eq!(code, 2);
    assert_eq!(doc["status"], "error");
    let errors = doc["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0]
            .as_str()
            .unwrap()
            .contains("(job \"randwrite\", error 5)")
    );
    // A clean run is still a pass, with no errors.
    let (code, doc) = check_json("check/run1", "check/run2", &[]);
    assert_eq!(
        (code, &doc["status"], &doc["errors"]),
        (0, &"pass".into(), &serde_json::json!([]))
    );
}

#[test]
fn a_failed_candidate_is_an_error_in_junit() {
    let (dir, path) = failed_candidate();
    let junit = dir.path().join("check.xml");
    check(&[fixture("check/run2")], &[path])
        .arg("--junit")
        .arg(&junit)
        .assert()
        .code(2);
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains(r#"tests="7" failures="0" errors="1""#),
        "{xml}"
    );
    assert_eq!(xml.matches("<error ").count(), 1, "{xml}");
    assert!(
        xml.contains(r#"<testcase classname="nvcmp check" name="input">"#),
        "{xml}"
    );
    assert!(xml.contains("error 5"), "{xml}");
}

#[test]
fn a_failed_candidate_is_an_error_in_the_step_summary_and_markdown() {
    let (dir, path) = failed_candidate();
    let md = dir.path().join("check.md");
    let summary = dir.path().join("summary.md");
    check(&[fixture("check/run2")], &[path])
        .env("GITHUB_STEP_SUMMARY", &summary)
        .arg("--markdown")
        .arg(&md)
        .assert()
        .code(2);
    for file in [&md, &summary] {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(
            text.starts_with(
                "## ⛔ nvcmp check: ERROR: unusable input: a candidate job reported an error"
            ),
            "{text}"
        );
        assert!(!text.contains("PASS") && !text.contains("✅"), "{text}");
    }
}

/// Normal text too: a failed job (no figures, `err=25`) keeps a row with
/// its error, so the gate says error, not PASS.
#[test]
fn a_failed_job_in_normal_text_is_an_error() {
    let text = fixture("fio/linux-psync/error-trim.txt");
    let (code, doc) = check_json_at(
        std::slice::from_ref(&text),
        std::slice::from_ref(&text),
        &[],
    );
    assert_eq!(code, 2, "{doc:#}");
    assert_eq!(doc["status"], "error");
    assert!(
        doc["errors"][0]
            .as_str()
            .unwrap()
            .contains("(job \"randtrim-fails\", error 25)"),
        "{doc:#}"
    );
}
