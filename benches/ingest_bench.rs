//! Ingest throughput next to a bare JSON parse of the same bytes, in one
//! run on one machine (not a timed test: numbers are printed, nothing is
//! asserted but the row count).
//!
//! Generates a corpus of fio JSON files from a real fio output (default
//! `fixtures/fio/linux-libaio/randread-4k.json`, 6.6 KB: 10,000 files are
//! ~65 MB) with every number's digits varied, then times, best of 3:
//! - bare: `serde_json::from_slice::<Value>` of every file (read + parse),
//!   on one thread and on all cores (rayon);
//! - ingest: `nvcmp::ingest::ingest` (walk, read, decode, parse, rows) on
//!   all cores;
//! - cli: the `nvcmp ingest DIR` binary next to this bench, writing ndjson
//!   to /dev/null (includes serialising the rows).
//!
//! Run: `cargo bench --bench ingest_bench` (release) or
//! `cargo test --bench ingest_bench --` (debug; numbers then only compare
//! with each other). Options: `--files N`, `--template FILE`, `--keep DIR`
//! (write the corpus to DIR and leave it there, for other readers to time
//! on the same files: `benches/ingest-speed.sh`).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;

fn main() {
    let mut files = 10_000usize;
    let mut template = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fio/linux-libaio/randread-4k.json");
    let mut keep: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--files" => files = args.next().and_then(|n| n.parse().ok()).expect("--files N"),
            "--template" => template = PathBuf::from(args.next().expect("--template FILE")),
            "--keep" => keep = Some(PathBuf::from(args.next().expect("--keep DIR"))),
            _ => {} // cargo passes --bench
        }
    }
    let tmpl = std::fs::read(&template).expect("template");
    let dir = tempfile::tempdir().expect("tempdir");
    let root = keep.unwrap_or_else(|| dir.path().join("corpus"));
    let paths = generate(&root, &tmpl, files);
    let bytes: u64 = paths
        .iter()
        .map(|p| std::fs::metadata(p).unwrap().len())
        .sum();
    let mb = bytes as f64 / 1e6;
    println!(
        "corpus: {files} files, {mb:.1} MB from {} ({} threads)",
        template.display(),
        rayon::current_num_threads()
    );

    let bare_seq = best(|| {
        for p in &paths {
            let b = std::fs::read(p).unwrap();
            std::hint::black_box(serde_json::from_slice::<serde_json::Value>(&b).unwrap());
        }
    });
    let bare_par = best(|| {
        paths.par_iter().for_each(|p| {
            let b = std::fs::read(p).unwrap();
            std::hint::black_box(serde_json::from_slice::<serde_json::Value>(&b).unwrap());
        })
    });
    let mut rows = 0;
    let ingest = best(|| {
        let got = nvcmp::ingest::ingest(std::slice::from_ref(&root), &Default::default()).unwrap();
        assert!(got.skipped.is_empty(), "{:?}", got.skipped.first());
        rows = got.rows.len();
    });
    assert_eq!(rows, files, "one row per generated file");

    let report = |name: &str, d: Duration| {
        let s = d.as_secs_f64();
        println!(
            "{name:<28} {:>8.3} s {:>9.1} MB/s {:>9.0} files/s {:>6.0} % of bare parallel",
            s,
            mb / s,
            files as f64 / s,
            100.0 * bare_par.as_secs_f64() / s
        );
    };
    report("bare serde_json (1 thread)", bare_seq);
    report("bare serde_json (rayon)", bare_par);
    report("nvcmp::ingest::ingest", ingest);

    if let Some(bin) = nvcmp_binary() {
        let cli = best(|| {
            let st = std::process::Command::new(&bin)
                .args(["--quiet", "ingest"])
                .arg(&root)
                .stdout(std::process::Stdio::null())
                .status()
                .unwrap();
            assert!(st.success());
        });
        report("nvcmp ingest DIR > /dev/null", cli);
    }
}

fn best(mut f: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap()
}

/// The `nvcmp` binary of the same profile as this bench, when built.
fn nvcmp_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let profile_dir = exe.parent()?.parent()?; // target/<profile>/deps/<bench>
    // This worktree's target dir first: a shared build dir may hold another
    // checkout's binary.
    let candidates = [
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("target")
            .join(profile_dir.file_name()?)
            .join("nvcmp"),
        profile_dir.join("nvcmp"),
    ];
    candidates.into_iter().find(|p| p.is_file())
}

/// Writes `n` variants of `tmpl` in 4 config folders.
fn generate(root: &Path, tmpl: &[u8], n: usize) -> Vec<PathBuf> {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let dir = root.join(format!("config-{}", i % 4));
        if i < 4 {
            std::fs::create_dir_all(&dir).unwrap();
        }
        let p = dir.join(format!("run-{i:05}.json"));
        std::fs::write(&p, vary(tmpl, &mut seed)).unwrap();
        out.push(p);
    }
    out
}

/// Replaces every digit of every number value but its first with a random
/// one: same shape and size, different numbers, still non-negative.
fn vary(tmpl: &[u8], seed: &mut u64) -> Vec<u8> {
    let mut out = tmpl.to_vec();
    let (mut in_string, mut escaped, mut in_number) = (false, false, false);
    for b in out.iter_mut() {
        if in_string {
            match (*b, escaped) {
                (_, true) => escaped = false,
                (b'\\', false) => escaped = true,
                (b'"', false) => in_string = false,
                _ => {}
            }
            continue;
        }
        match *b {
            b'"' => in_string = true,
            b'0'..=b'9' if in_number => {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                *b = b'0' + (*seed % 10) as u8;
            }
            b'1'..=b'9' => in_number = true,
            b'0' => {} // a lone 0 stays 0 (0 I/O stays 0 I/O)
            b'.' => {}
            _ => in_number = false,
        }
    }
    out
}
