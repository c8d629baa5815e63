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
    analyze_json_and_stderr(path, extra).0
}

/// [`analyze_json`] with what nvcmp said on stderr (notes, warnings).
pub fn analyze_json_and_stderr(
    path: &std::path::Path,
    extra: &[&str],
) -> (serde_json::Value, String) {
    let out = nvcmp()
        .arg("analyze")
        .arg(path)
        .args(["--format", "json"])
        .args(extra)
        .output()
        .unwrap();
    assert_ok(&out);
    let err = stderr(&out).to_string();
    (serde_json::from_slice(&out.stdout).unwrap(), err)
}

/// ndjson (`ingest --format ndjson`'s stdout): one JSON object per line.
pub fn ndjson(stdout: &[u8]) -> Vec<serde_json::Value> {
    std::str::from_utf8(stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
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

/// Whether this run is CI's: `NVCMP_CI=1`, which `.ci/run` exports, or
/// `var`=1 where a tool kept a variable of its own from before
/// (`NVCMP_REQUIRE_BROWSER`, `NVCMP_REQUIRE_S3`).
fn required_here(var: Option<&str>) -> bool {
    let set = |name: &str| std::env::var(name).as_deref() == Ok("1");
    set("NVCMP_CI") || var.is_some_and(set)
}

/// The variable a tool had before `NVCMP_CI`, still honoured.
fn own_variable(tool: &str) -> Option<&'static str> {
    match tool {
        "chromium" => Some("NVCMP_REQUIRE_BROWSER"),
        "moto_server" => Some("NVCMP_REQUIRE_S3"),
        _ => None,
    }
}

/// The program `name` on PATH, if any.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| {
            let plain = dir.join(name);
            let exe = dir.join(format!("{name}.exe"));
            [plain, exe]
        })
        .find(|p| p.is_file())
}

/// Whether the program `tool` ("fio", "losetup", "mount") is on PATH, for
/// a test that needs it: when it is not, outside CI the test is skipped
/// (this says so and returns false: the test returns), and in CI
/// (`NVCMP_CI=1`) the test fails naming the tool. See [`require_that`].
pub fn require(tool: &str) -> bool {
    let how = match tool {
        "fio" => " (apt-get install fio)",
        "chromium" => " (apt-get install chromium)",
        _ => "",
    };
    require_that(
        tool,
        on_path(tool).is_some(),
        &format!("no {tool} on PATH{how}"),
    )
}

/// The one rule for a test whose tool or privilege may be missing: `here`
/// passes through; when false, outside CI prints "skipped: `what`: `why`"
/// and returns false (the test returns), and in CI (`NVCMP_CI=1`, or the
/// tool's own `NVCMP_REQUIRE_*`) panics with `what` and `why`. `what`
/// names the tool ("fio", "moto_server", "chromium") or the privilege
/// ("root", "loop devices", "the io_uring engine").
pub fn require_that(what: &str, here: bool, why: &str) -> bool {
    if here {
        return true;
    }
    assert!(
        !required_here(own_variable(what)),
        "{what} is required in CI (NVCMP_CI=1) but missing: {why}"
    );
    eprintln!("skipped: {what}: {why}");
    false
}

/// Whether fio is installed: [`require`]`("fio")`.
pub fn have_fio() -> bool {
    require("fio")
}

/// `f` of each item, in the items' order, computed on as many threads as
/// the machine has processors (at least two): the tests that walk every
/// fixture folder run one debug `nvcmp` per folder, and one at a time
/// they held one processor for over a minute while the other waited at
/// the end of the suite.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().max(2));
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers.min(items.len()))
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break mine };
                        mine.push((i, f(item)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}
