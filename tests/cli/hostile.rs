//! The hostile campaign of issue #38 as tests: what a hostile or damaged
//! file does to nvcmp. A figure that is no measurement, a damaged history,
//! a check with nothing to compare, names that carry control characters or
//! HTML. Nothing may panic (exit 101), abort (134), hang, or pass silently.

use std::path::Path;

use crate::common::{fixture, nvcmp, stderr};

/// Two configs `a` and `b` of the libaio randread fixture under `dir`,
/// `b`'s clat p50 replaced by `p50`.
fn with_p50(dir: &Path, p50: &str) {
    let text = std::fs::read_to_string(fixture("fio/linux-libaio/randread-4k.json")).unwrap();
    let (head, tail) = text.split_once("\"50.000000\" : ").unwrap();
    let digits = tail.find(|c: char| !c.is_ascii_digit()).unwrap();
    let hostile = format!("{head}\"50.000000\" : {p50}{}", &tail[digits..]);
    for (config, body) in [("a", &text), ("b", &hostile)] {
        std::fs::create_dir_all(dir.join(config)).unwrap();
        std::fs::write(dir.join(config).join("r.json"), body).unwrap();
    }
}

/// A denormal clat percentile once made `analyze --out` allocate without
/// bound (exit 134 after 4 GB): a log axis down to 1e-320. It is no
/// latency: not drawn, and said so under the chart.
#[test]
fn a_denormal_percentile_is_not_drawn_and_said() {
    let dir = tempfile::tempdir().unwrap();
    with_p50(dir.path(), "1e-320");
    let out = dir.path().join("out");
    let o = nvcmp()
        .current_dir(dir.path())
        .args(["analyze", "a", "b", "--chart-format", "svg", "--out"])
        .arg(&out)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let svg = std::fs::read_to_string(out.join("charts/percentiles_randread_4k_read.svg")).unwrap();
    assert!(
        svg.contains("Not drawn, no latency: p50 of b (1e-320 ns)."),
        "the chart does not say what it left out"
    );
}

/// A history of `runs` adds of the libaio randread result, `r1`...
fn history(runs: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let result = fixture("fio/linux-libaio/randread-4k.json");
    for i in 1..=runs {
        let o = nvcmp()
            .args(["history", "add", "-q", "--history"])
            .arg(dir.path())
            .arg(&result)
            .args(["--run", &format!("r{i}")])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    dir
}

/// `nvcmp history ARGS --history DIR`: exit code, stdout, stderr.
fn history_cmd(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let o = nvcmp()
        .arg("history")
        .args(args)
        .arg("--history")
        .arg(dir)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (o.status.code(), text(&o.stdout), text(&o.stderr))
}

/// The merged part of runs 1 to 16 that 20 adds leave.
const MERGED: &str = "part-00000001-00000016.parquet";

/// A copy of `from` with byte `at` of its merged part XORed with `mask`.
fn flipped(from: &Path, at: usize, mask: u8) -> tempfile::TempDir {
    let to = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), to.path().join(e.file_name())).unwrap();
        }
    }
    let part = to.path().join(MERGED);
    let mut bytes = std::fs::read(&part).unwrap();
    bytes[at] ^= mask;
    std::fs::write(&part, bytes).unwrap();
    to
}

/// One flipped bit anywhere in a part once panicked every command inside
/// polars (exit 101) or changed values silently (IOPS 248,272 read 0).
/// Now the part's checksum finds every flip: the part is named, its runs
/// said left out, the other parts read, and nothing panics.
#[test]
fn a_flipped_byte_anywhere_in_a_part_is_named_and_read_past() {
    let h = history(20);
    let (code, original, _) = history_cmd(h.path(), &["show", "--format", "json"]);
    assert_eq!(code, Some(0));
    let size = std::fs::metadata(h.path().join(MERGED)).unwrap().len() as usize;
    // Header, pages and footer: 40 bytes spread over the part, and its
    // last 12 (the footer's length and the magic).
    let offsets: Vec<usize> = (0..size)
        .step_by(size / 40)
        .chain(size - 12..size)
        .collect();
    let candidate = fixture("fio/linux-libaio/randread-4k.json");
    for (i, &at) in offsets.iter().enumerate() {
        let d = flipped(h.path(), at, 1 << (i % 8));
        let (code, out, err) = history_cmd(d.path(), &["show", "--format", "json"]);
        assert_eq!(code, Some(0), "show, byte {at}: {err}");
        assert!(
            err.contains(MERGED) && err.contains("damaged") && err.contains("runs 1 to 16"),
            "byte {at}: the damage is not said: {err}"
        );
        assert_ne!(
            out, original,
            "byte {at}: the damaged part's runs were read"
        );
        let (code, _, err) = history_cmd(d.path(), &["verify"]);
        assert_eq!(code, Some(1), "verify, byte {at}: {err}");
        if i % 8 == 0 {
            let o = nvcmp()
                .args(["check", "--history"])
                .arg(d.path())
                .arg("--candidate")
                .arg(&candidate)
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(0), "check, byte {at}: {}", stderr(&o));
            let (code, _, err) = history_cmd(
                d.path(),
                &["add", candidate.to_str().unwrap(), "--run", "r21"],
            );
            assert_eq!(code, Some(0), "add, byte {at}: {err}");
        }
    }
}

/// A history written before checksums has none: it still reads, `verify`
/// says so, and a flipped byte in it still never panics (the reader runs
/// where a panic is an error naming the part): the part is named, or the
/// values read are the original ones.
#[test]
fn a_history_without_checksums_reads_and_never_panics() {
    let h = history(20);
    let (_, original, _) = history_cmd(h.path(), &["show", "--format", "json"]);
    for e in std::fs::read_dir(h.path()).unwrap() {
        let p = e.unwrap().path();
        if p.to_string_lossy().contains(".crc32-") {
            std::fs::remove_file(p).unwrap();
        }
    }
    let (code, out, _) = history_cmd(h.path(), &["verify"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("no checksum"), "{out}");
    assert!(out.contains("sound: 20 runs in 5 parts"), "{out}");
    let (code, out, _) = history_cmd(h.path(), &["show", "--format", "json"]);
    assert_eq!((code, out == original), (Some(0), true));
    let size = std::fs::metadata(h.path().join(MERGED)).unwrap().len() as usize;
    let (mut said, mut same) = (0, 0);
    for at in (0..size).step_by(size / 30) {
        let d = flipped(h.path(), at, 0xff);
        let (code, out, err) = history_cmd(d.path(), &["show", "--format", "json"]);
        assert_ne!(code, Some(101), "byte {at} panicked: {err}");
        assert_eq!(code, Some(0), "byte {at}: {err}");
        if err.contains(MERGED) {
            said += 1;
        } else if out == original {
            same += 1;
        }
    }
    // Some flips land where parquet notices, some in bytes no reader
    // looks at; what is neither is a value changed unseen, which only a
    // checksum catches (the test above).
    assert!(said > 0 && same > 0, "said {said}, same {same}");
}

/// A truncated part once made show, add and check fail for good, and
/// compact exited 0 repairing nothing. Now it is read past, compact sets
/// it aside in .quarantine/, and verify exits 1 before and 0 after.
#[test]
fn a_truncated_part_is_set_aside_by_compact() {
    let h = history(20);
    let part = h.path().join(MERGED);
    let bytes = std::fs::read(&part).unwrap();
    std::fs::write(&part, &bytes[..bytes.len() / 2]).unwrap();
    let (code, out, _) = history_cmd(h.path(), &["verify"]);
    assert_eq!(code, Some(1));
    assert!(out.contains(MERGED) && out.contains("DAMAGED"), "{out}");
    let (code, out, err) = history_cmd(h.path(), &["show", "--format", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let shown: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(shown["runs"], 4);
    let result = fixture("fio/linux-libaio/randread-4k.json");
    let (code, _, err) = history_cmd(h.path(), &["add", result.to_str().unwrap(), "--run", "r21"]);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = history_cmd(h.path(), &["compact"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("set aside") && err.contains("runs 1 to 16"),
        "{err}"
    );
    assert!(h.path().join(".quarantine").join(MERGED).exists());
    assert!(!part.exists());
    let (code, out, _) = history_cmd(h.path(), &["verify"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("sound: 5 runs in 5 parts"), "{out}");
    assert!(out.contains(".quarantine/"), "{out}");
    // The next run number is past the set-aside part's: none is reused.
    let (code, _, err) = history_cmd(h.path(), &["add", result.to_str().unwrap(), "--run", "r22"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(h.path().join("part-00000022.parquet").exists());
}

#[test]
fn verify_without_a_history_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = history_cmd(&dir.path().join("none"), &["verify"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no history here"), "{err}");
}

/// A full disk once read "Invalid thrift: transport error". Each system
/// error of a write is said in words, with the path: ENOSPC and EROFS on
/// small tmpfs mounts (root only: they need a mount; skipped without root
/// outside CI, failed in CI), EACCES on a folder the user may not write
/// (root writes anywhere: as `nobody` then).
#[cfg(target_os = "linux")]
#[test]
fn system_errors_of_a_write_are_said_in_words() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    // The input in the test's own folder, which `nobody` may read wherever
    // the checkout lives (a clone under /root is not readable to others).
    let result = dir.path().join("randread-4k.json");
    std::fs::copy(fixture("fio/linux-libaio/randread-4k.json"), &result).unwrap();
    std::fs::set_permissions(&result, std::fs::Permissions::from_mode(0o644)).unwrap();
    let add = |history: &Path, as_nobody: bool| {
        let mut cmd = if as_nobody {
            let mut c = std::process::Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(assert_cmd::cargo::cargo_bin("nvcmp"));
            c
        } else {
            std::process::Command::new(assert_cmd::cargo::cargo_bin("nvcmp"))
        };
        let o = cmd
            .args(["history", "add", "--run", "a", "--history"])
            .arg(history)
            .arg(&result)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    // SAFETY: geteuid takes nothing and cannot fail.
    let root = unsafe { libc_geteuid() } == 0;
    // EACCES: a history folder nobody else may write.
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    let (code, err) = add(&locked, root);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("permission denied") && err.contains("locked"),
        "{err}"
    );
    // ENOSPC and EROFS need file systems of their own: tmpfs mounts, which
    // need root (CI runs as root: there a missing one fails the test).
    let require_that = crate::common::require_that;
    if !require_that("root", root, "ENOSPC and EROFS are made on tmpfs mounts") {
        return;
    }
    let mount = |at: &Path, opts: &str| {
        std::fs::create_dir_all(at).unwrap();
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", opts, "tmpfs"])
            .arg(at)
            .status()
            .is_ok_and(|s| s.success());
        // Root without the right to mount: a container without CAP_SYS_ADMIN.
        let why = format!("root may not mount a tmpfs ({opts}) here");
        require_that("mount", mounted, &why).then(|| Unmount(at.to_path_buf()))
    };
    // ENOSPC: a 64 KiB file system, nearly full. The same add into a
    // roomy one passes: the failure is the space's.
    let Some(roomy) = mount(&dir.path().join("roomy"), "size=4m") else {
        return;
    };
    let (code, err) = add(&roomy.0.join("h"), false);
    assert_eq!(code, Some(0), "{err}");
    drop(roomy);
    let small = mount(&dir.path().join("small"), "size=64k").unwrap();
    std::fs::write(small.0.join("fill"), vec![0u8; 60 << 10]).unwrap();
    let (code, err) = add(&small.0.join("h"), false);
    drop(small);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("no space left on the device") && err.contains("small/h"),
        "{err}"
    );
    // EROFS: a read-only file system.
    let ro = mount(&dir.path().join("ro"), "ro").unwrap();
    let (code, err) = add(&ro.0.join("h"), false);
    drop(ro);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("read-only") && err.contains("ro/h"), "{err}");
}

/// A tmpfs mounted at this folder, unmounted when dropped (also when the
/// test fails, so the temporary folder can go).
#[cfg(target_os = "linux")]
struct Unmount(std::path::PathBuf);

#[cfg(target_os = "linux")]
impl Drop for Unmount {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

#[cfg(target_os = "linux")]
unsafe extern "C" {
    #[link_name = "geteuid"]
    fn libc_geteuid() -> u32;
}

/// An add killed midway leaves a temporary no reader takes; `verify`
/// names it, and the next add removes it and says so.
#[test]
fn what_a_killed_add_left_is_named_and_removed() {
    let h = history(2);
    std::fs::write(h.path().join(".part-00000003-00000003-4242.tmp"), b"half").unwrap();
    let (code, out, _) = history_cmd(h.path(), &["verify"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("killed add") && out.contains(".part-00000003-00000003-4242.tmp"),
        "{out}"
    );
    let result = fixture("fio/linux-libaio/randread-4k.json");
    let (code, _, err) = history_cmd(h.path(), &["add", result.to_str().unwrap(), "--run", "r3"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("removed 1 stale temporary file"), "{err}");
}

/// The libaio randread result with `edit` applied to its JSON, at `path`.
fn edited(path: &Path, edit: impl Fn(&mut serde_json::Value)) {
    let text = std::fs::read_to_string(fixture("fio/linux-libaio/randread-4k.json")).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    edit(&mut doc);
    std::fs::write(path, serde_json::to_string(&doc).unwrap()).unwrap();
}

/// A candidate that shares no workload with the baseline once passed
/// with `--allow-missing` ("0 unchanged, 2 missing", exit 0): nothing was
/// compared. Now that is exit 2, saying so.
#[test]
fn a_check_that_compares_nothing_does_not_pass() {
    let dir = tempfile::tempdir().unwrap();
    // Another depth: a block size option alone would not do, as the one
    // fio measured (io_bytes / total_ios) wins over what the options say.
    let other = dir.path().join("other-depth.json");
    edited(&other, |d| {
        d["jobs"][0]["job options"]["iodepth"] = "4".into()
    });
    let o = nvcmp()
        .args(["check", "--allow-missing", "--baseline"])
        .arg(fixture("fio/linux-libaio/randread-4k.json"))
        .arg("--candidate")
        .arg(&other)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("nothing compared"), "{}", stderr(&o));
}

/// A candidate claiming IOPS 1e308 at 0 latency once passed as an
/// improvement. Its figures are no measurements: verdict `invalid`, and
/// the check fails.
#[test]
fn an_absurd_candidate_is_invalid_never_an_improvement() {
    let dir = tempfile::tempdir().unwrap();
    let absurd = dir.path().join("absurd.json");
    edited(&absurd, |d| {
        let read = &mut d["jobs"][0]["read"];
        read["iops"] = 1e308.into();
        read["lat_ns"]["mean"] = 0.into();
        read["clat_ns"]["mean"] = 0.into();
    });
    let o = nvcmp()
        .args(["check", "--format", "json", "--baseline"])
        .arg(fixture("fio/linux-libaio/randread-4k.json"))
        .arg("--candidate")
        .arg(&absurd)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let findings = report["findings"].as_array().unwrap();
    assert!(findings.iter().all(|f| f["verdict"] != "improvement"));
    let iops = findings.iter().find(|f| f["metric"] == "iops").unwrap();
    assert_eq!(iops["verdict"], "invalid");
    assert_eq!(iops["fails"], true);
    assert!(iops["invalid_reason"].as_str().unwrap().contains("1e308"));
}

/// Two configs of the libaio randread result, in folders named `a` and
/// `name`, under `dir` (names only Unix file systems take: its users are
/// Unix-only).
#[cfg(unix)]
fn configs(dir: &Path, name: &str) {
    for config in ["a", name] {
        std::fs::create_dir_all(dir.join(config)).unwrap();
        std::fs::copy(
            fixture("fio/linux-libaio/randread-4k.json"),
            dir.join(config).join("r.json"),
        )
        .unwrap();
    }
}

/// A folder named with ESC and OSC sequences once reached `--format
/// term` as it was: it could retitle or rewrite the user's terminal. Its
/// control characters are shown escaped.
#[cfg(unix)]
#[test]
fn control_characters_in_names_reach_no_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let name = "b\u{1b}]0;pwned\u{7}\u{1b}[2J";
    configs(dir.path(), name);
    let o = nvcmp()
        .current_dir(dir.path())
        .args(["analyze", "a", name])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out}");
    assert!(out.contains("b\\x1b]0;pwned\\x07\\x1b[2J"), "{out}");
}

/// `--format md` once passed `<img src=x onerror=...>` through from a
/// folder name (report.html escaped it): Markdown renders HTML. Its cells
/// and text escape it now, as well as pipes. (Windows allows no `<` or
/// `>` in a file name, so there no folder can be named so.)
#[cfg(unix)]
#[test]
fn html_in_names_is_text_in_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let name = "<img src=x onerror=alert(1)>";
    configs(dir.path(), name);
    let o = nvcmp()
        .current_dir(dir.path())
        .args(["analyze", "a", name, "--format", "md"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(!md.contains("<img"), "{md}");
    assert!(md.contains("&lt;img src=x onerror=alert(1)&gt;"), "{md}");
}
