//! docs/ci.md's CI jobs, run as written: the shell lines between its
//! `nvcmp-steps` markers (the same in the GitHub and GitLab jobs), three
//! times against one history, with the null engine and 1 s runs.

use std::path::PathBuf;
use std::process::Command;

use crate::common::root;

/// The step lines of each YAML job in docs/ci.md, without YAML's `- `.
fn steps() -> Vec<Vec<String>> {
    let doc = std::fs::read_to_string(root().join("docs/ci.md")).unwrap();
    let mut jobs = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in doc.lines() {
        let t = line.trim();
        if t == "# nvcmp-steps-begin" {
            current = Some(Vec::new());
        } else if t == "# nvcmp-steps-end" {
            jobs.push(current.take().unwrap());
        } else if let Some(steps) = current.as_mut() {
            steps.push(t.trim_start_matches("- ").to_string());
        }
    }
    jobs
}

#[test]
fn the_documented_ci_steps_run_and_keep_a_history() {
    let jobs = steps();
    assert_eq!(jobs.len(), 2, "a GitHub and a GitLab job");
    assert_eq!(jobs[0], jobs[1], "both jobs run the same steps");
    assert!(!jobs[0].iter().any(|s| s.contains("cargo install nvcmp")));
    let bin_dir: PathBuf = PathBuf::from(env!("CARGO_BIN_EXE_nvcmp"))
        .parent()
        .unwrap()
        .into();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let work = tempfile::tempdir().unwrap();
    let history = work.path().join("bench-history");
    for run in 1..=3 {
        // A fresh checkout per CI run; the cache restores the history into
        // it before the steps and saves it after.
        let checkout = work.path().join(format!("run{run}"));
        std::fs::create_dir_all(&checkout).unwrap();
        copy_dir(&history, &checkout.join("bench-history"));
        let script = format!("set -e\n{}\nexit $status\n", jobs[0].join("\n"));
        let out = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(&checkout)
            .env("PATH", &path)
            .env("NVCMP_ENGINE", "null")
            .env("NVCMP_RUNTIME", "1")
            .env("RUN_ID", format!("r{run}"))
            .env("COMMIT", format!("c{run}"))
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        // The first run has nothing to be judged against and passes. Later
        // ones are judged on a loaded machine's null engine, whose speed
        // swings by tens of percent: the job's exit is the gate's verdict,
        // and the run is recorded either way.
        match out.status.code() {
            Some(0) => assert!(stdout.contains("PASS:"), "run {run}: {stdout}"),
            Some(1) if run > 1 => assert!(stdout.contains("FAIL:"), "run {run}: {stdout}"),
            other => panic!("run {run}: exit {other:?}: {err}"),
        }
        assert!(
            stdout.contains(&format!("({} runs in history)", run - 1)),
            "run {run}: {stdout}"
        );
        assert!(
            checkout.join("history-report/history.json").exists(),
            "run {run}"
        );
        copy_dir(&checkout.join("bench-history"), &history);
    }
    // The hidden lock file of `history add` is not a part.
    let parts = std::fs::read_dir(&history)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "parquet"))
        })
        .count();
    assert_eq!(parts, 3, "one parquet part per run");
}

/// Copies the files of `from` (a flat folder) into `to`; nothing when
/// `from` does not exist, as a cache miss.
fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    let Ok(entries) = std::fs::read_dir(from) else {
        return;
    };
    std::fs::create_dir_all(to).unwrap();
    for e in entries {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}
