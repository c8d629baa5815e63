//! Input as Windows writes it, on every system (issue #31): CRLF line ends
//! in results and manifests; and on Windows, paths with drive letters and
//! backslashes in arguments and manifests.

use std::path::Path;

use crate::common::{PUBLISHED, assert_ok, fixture, nvcmp};

/// Copies the files of `from` into `to`, rewriting each text file's line
/// ends with `edit` (JSON, fio text, sidecars and the manifest alike).
fn copy_tree(from: &Path, to: &Path, edit: &dyn Fn(&str) -> String) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &dest, edit);
        } else {
            let text = std::fs::read_to_string(e.path()).unwrap();
            std::fs::write(dest, edit(&text)).unwrap();
        }
    }
}

/// `nvcmp analyze NAME --format json` run in `dir`: stdout, once it exited 0.
fn analyze_in(dir: &Path, name: &str) -> Vec<u8> {
    let o = nvcmp()
        .current_dir(dir)
        .args(["analyze", name, "--format", "json"])
        .output()
        .unwrap();
    assert_ok(&o);
    o.stdout
}

#[test]
fn crlf_results_and_manifest_analyze_as_lf_ones() {
    let (lf, crlf) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let published = fixture(PUBLISHED);
    copy_tree(&published, &lf.path().join("x"), &|t| {
        t.replace("\r\n", "\n")
    });
    copy_tree(&published, &crlf.path().join("x"), &|t| {
        t.replace("\r\n", "\n").replace('\n', "\r\n")
    });
    let manifest = std::fs::read(crlf.path().join("x/nvcmp.toml")).unwrap();
    assert!(manifest.windows(2).any(|w| w == b"\r\n"), "no CRLF written");
    let (a, b) = (analyze_in(lf.path(), "x"), analyze_in(crlf.path(), "x"));
    assert!(!a.is_empty());
    assert!(
        a == b,
        "CRLF input analyzes differently:\n{}\n---\n{}",
        String::from_utf8_lossy(&a),
        String::from_utf8_lossy(&b)
    );
}

/// A manifest naming its result with a backslash, a PATH given with its
/// drive letter and backslashes, and a report folder likewise.
#[cfg(windows)]
#[test]
fn drive_letters_and_backslashes_in_arguments_and_manifests() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("results");
    std::fs::create_dir_all(root.join("cfg")).unwrap();
    std::fs::copy(
        fixture("fio/linux-libaio/randread-4k.json"),
        root.join("cfg").join("randread-4k.json"),
    )
    .unwrap();
    std::fs::write(
        root.join("nvcmp.toml"),
        "[[result]]\r\nfile = 'cfg\\randread-4k.json'\r\nsystem_cpu_pct = 42.5\r\n",
    )
    .unwrap();
    let arg = root.display().to_string().replace('/', "\\");
    assert!(arg.as_bytes()[1] == b':', "not a drive-letter path: {arg}");
    let o = nvcmp()
        .args(["ingest", &arg, "--format", "json"])
        .output()
        .unwrap();
    assert_ok(&o);
    let rows: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(rows[0]["system_cpu_pct"], 42.5, "{}", rows[0]);
    assert_eq!(rows[0]["label"], "cfg");
    let source = rows[0]["source"].as_str().unwrap();
    assert_eq!(source, format!("{arg}\\cfg\\randread-4k.json"));
    let out = format!("{}\\report", dir.path().display()).replace('/', "\\");
    let o = nvcmp()
        .args(["analyze", &arg, "--out", &out])
        .output()
        .unwrap();
    assert_ok(&o);
    assert!(Path::new(&out).join("report.md").is_file());
}
