//! A results tree as an attacker (or an untidy lab) leaves it (issue #55,
//! item 6): symlinked folders are followed and loops are not, FIFOs,
//! sockets and devices are said and counted, and a stream named as a
//! PATH is read up to a bound.
#![cfg(unix)]

use std::path::Path;

use serde_json::Value;

use crate::common::{assert_ok, fixture, nvcmp, stderr};

fn result_in(dir: &Path, name: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::copy(
        fixture("compressed/study/psync/randread-4k.json"),
        dir.join(name),
    )
    .unwrap();
}

fn ingest(path: &Path, extra: &[&str]) -> std::process::Output {
    nvcmp()
        .arg("ingest")
        .arg(path)
        .args(["--format", "ndjson"])
        .args(extra)
        .output()
        .unwrap()
}

fn configs(out: &std::process::Output) -> Vec<String> {
    let mut c: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["label"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    c.sort();
    c
}

#[test]
fn a_symlinked_folder_is_read_and_a_loop_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = dir.path().join("mnt/runs/a");
    result_in(&elsewhere, "r.json");
    let results = dir.path().join("results");
    result_in(&results.join("cfgB"), "r.json");
    std::os::unix::fs::symlink(&elsewhere, results.join("cfgA")).unwrap();
    let out = ingest(&results, &["--label-by", "folder"]);
    assert_ok(&out);
    assert_eq!(configs(&out), ["cfgA", "cfgB"], "{}", stderr(&out));
    // A loop: a link back to the tree's own root.
    std::os::unix::fs::symlink(&results, results.join("cfgB/again")).unwrap();
    let out = ingest(&results, &["--label-by", "folder"]);
    assert_ok(&out);
    assert_eq!(configs(&out), ["cfgA", "cfgB"]);
    let err = stderr(&out);
    assert!(err.contains("again: a symlink loop"), "{err}");
    let strict = ingest(&results, &["--strict"]);
    assert_eq!(strict.status.code(), Some(2), "{}", stderr(&strict));
}

#[test]
fn fifos_devices_and_broken_links_are_said_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    result_in(&results, "r.json");
    let fifo = results.join("pipe.json");
    mkfifo(&fifo);
    std::os::unix::fs::symlink("/dev/zero", results.join("zero.json")).unwrap();
    std::os::unix::fs::symlink(results.join("gone"), results.join("broken.json")).unwrap();
    let out = ingest(&results, &["--verbose"]);
    assert_ok(&out);
    let err = stderr(&out);
    assert!(
        err.contains("pipe.json: a FIFO: not read (not a regular file)"),
        "{err}"
    );
    assert!(
        err.contains("zero.json: a symlink to a character device"),
        "{err}"
    );
    assert!(err.contains("broken.json: a broken symlink"), "{err}");
    assert!(err.contains("3 skipped"), "{err}");
    assert_eq!(configs(&out).len(), 1);
    let strict = ingest(&results, &["--strict"]);
    assert_eq!(strict.status.code(), Some(2));
}

#[test]
fn a_stream_named_as_path_is_read_up_to_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("endless");
    mkfifo(&fifo);
    // An endless writer of fio-like text; it stops when the reader goes.
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            use std::io::Write;
            let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&fifo) else {
                return 0u64;
            };
            let line = b"fio-3.33 groupid=0 jobs=1 tell me more\n".repeat(1000);
            let mut sent = 0u64;
            while f.write_all(&line).is_ok() {
                sent += line.len() as u64;
            }
            sent
        })
    };
    let out = nvcmp()
        .arg("ingest")
        .arg(&fifo)
        .args(["--max-expanded", "4m"])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let sent = writer.join().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("endless: a stream (not a regular file) longer than 4 MiB"),
        "{err}"
    );
    // Read up to the bound, not on and on.
    assert!(sent < 64 << 20, "{sent}");
    // /dev/zero is refused from its first block.
    let zero = nvcmp().arg("ingest").arg("/dev/zero").output().unwrap();
    assert_eq!(zero.status.code(), Some(2));
    assert!(
        stderr(&zero).contains("binary data (NUL byte at offset 0)"),
        "{}",
        stderr(&zero)
    );
}

/// Makes a FIFO at `path` with mkfifo(1).
fn mkfifo(path: &std::path::Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.unwrap().success(), "mkfifo {}", path.display());
}
