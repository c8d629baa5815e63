//! Helpers shared by the CLI tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The project root (where `fixtures/` is).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A path under `fixtures/`.
pub fn fixture(rel: &str) -> PathBuf {
    root().join("fixtures").join(rel)
}

/// `nvcmp` with colors off and a clean environment for the bits we read.
pub fn nvcmp() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("nvcmp").expect("nvcmp binary");
    cmd.env("NO_COLOR", "1").env_remove("GITHUB_STEP_SUMMARY");
    cmd
}

/// What a finished command wrote to stderr, for assertion messages.
pub fn stderr(o: &std::process::Output) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(&o.stderr)
}

/// Fails with the command's stderr unless it exited 0.
pub fn assert_ok(o: &std::process::Output) {
    assert!(o.status.success(), "{}", stderr(o));
}

/// The published StorageReview fixture, under `fixtures/`.
pub const PUBLISHED: &str = "published/storagereview-2026-04";

/// `nvcmp analyze fixtures/REL --out DIR EXTRA...` into a new temporary
/// DIR: the folder (gone when dropped) and what the command did, whatever
/// its exit.
pub fn analyze_out(rel: &str, extra: &[&str]) -> (tempfile::TempDir, std::process::Output) {
    let dir = tempfile::tempdir().unwrap();
    let out = nvcmp()
        .arg("analyze")
        .arg(fixture(rel))
        .arg("--out")
        .arg(dir.path())
        .args(extra)
        .output()
        .unwrap();
    (dir, out)
}

/// The strings of a JSON array (highlights, notes, configs).
pub fn strs(v: &serde_json::Value) -> Vec<&str> {
    let items = v.as_array().unwrap_or_else(|| panic!("not an array: {v}"));
    items.iter().map(|s| s.as_str().unwrap()).collect()
}

/// `field`, a count (iodepth, numjobs), of each object of a JSON array.
pub fn counts(v: &serde_json::Value, field: &str) -> Vec<u64> {
    let items = v.as_array().unwrap_or_else(|| panic!("not an array: {v}"));
    items.iter().map(|o| o[field].as_u64().unwrap()).collect()
}

/// `"--size 1m --label a"` as separate arguments: flag lists read as the
/// command line they stand for. No quoting; no argument has a space.
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// `nvcmp analyze PATH --format json EXTRA...`, parsed, once it exited 0.
pub fn analyze_json(path: &std::path::Path, extra: &[&str]) -> serde_json::Value {
    let out = nvcmp()
        .arg("analyze")
        .arg(path)
        .args(["--format", "json"])
        .args(extra)
        .output()
        .unwrap();
    assert_ok(&out);
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The sweep of `config` in `analyze --format json`.
pub fn sweep_of<'a>(j: &'a serde_json::Value, config: &str) -> &'a serde_json::Value {
    j["sweeps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["config"] == config)
        .unwrap_or_else(|| panic!("no sweep of {config}"))
}

/// The result of `metric` (`iops`, `bw_bytes_per_s`, ...) in a workload of
/// `analyze --format json`.
pub fn metric_of<'a>(workload: &'a serde_json::Value, metric: &str) -> &'a serde_json::Value {
    workload["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["metric"] == metric)
        .unwrap_or_else(|| panic!("no {metric} in {workload}"))
}

/// Whether fio is installed; says "skipped" when not, so a test that needs
/// it can return early.
pub fn have_fio() -> bool {
    let ok = std::process::Command::new("fio")
        .arg("--version")
        .output()
        .is_ok();
    if !ok {
        eprintln!("skipped: fio is not installed");
    }
    ok
}
