//! Reading one fio report of many jobs is one pass (issue #38, item 4):
//! normal text and terse output of 140,000 jobs (206 MB and 142 MB, made
//! by benches/many-jobs.py from real fio output) are read at 50 MB/s or
//! more. Ignored by default (it writes 350 MB and takes a while); run on a
//! release build, where the speed is asserted:
//! `cargo test --release --test cli many_jobs -- --ignored`.
//! benches/many-jobs.md has the figures.

use crate::common::{assert_ok, nvcmp, root};

/// The file of `jobs` jobs in `format`, its size in MB, and how long
/// `nvcmp ingest` took to read it into that many rows.
fn read(format: &str, jobs: usize) -> (f64, f64) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(format!("{format}.txt"));
    let made = std::process::Command::new("python3")
        .arg(root().join("benches/many-jobs.py"))
        .args([format, &jobs.to_string()])
        .stdout(std::fs::File::create(&file).unwrap())
        .status()
        .expect("python3 runs benches/many-jobs.py");
    assert!(made.success());
    let mb = std::fs::metadata(&file).unwrap().len() as f64 / 1e6;
    let start = std::time::Instant::now();
    let out = nvcmp()
        .args(["--quiet", "ingest", "--format", "csv"])
        .arg(&file)
        .output()
        .unwrap();
    let secs = start.elapsed().as_secs_f64();
    assert_ok(&out);
    let rows = out.stdout.iter().filter(|&&b| b == b'\n').count() - 1;
    assert_eq!(rows, jobs, "{format}: one row per job");
    (mb, secs)
}

#[test]
#[ignore = "writes 350 MB; run with --release -- --ignored (benches/many-jobs.md)"]
fn a_report_of_140k_jobs_is_read_at_50_mb_per_s() {
    for format in ["normal", "terse"] {
        let (mb, secs) = read(format, 140_000);
        eprintln!("{format}: {mb:.1} MB in {secs:.2} s, {:.1} MB/s", mb / secs);
        if !cfg!(debug_assertions) {
            assert!(mb / secs >= 50.0, "{format}: {:.1} MB/s", mb / secs);
        }
    }
}
