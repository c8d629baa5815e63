//! Reports exact to the last digit at any size (issue #54): every report
//! of every fixture prints one unit per metric (tables, sweep columns,
//! findings, chart axes), its chart files carry distinct names and
//! titles, and an archive whose every file draws a note keeps its checks
//! section short while `checks.csv` keeps every note.

use std::collections::BTreeSet;
use std::path::Path;

use crate::common::{assert_ok, nvcmp, root};

/// The lines of the report.md section headed `## NAME`, up to the next
/// `## ` heading.
fn section<'a>(md: &'a str, name: &str) -> Vec<&'a str> {
    let head = format!("## {name}");
    md.lines()
        .skip_while(|l| *l != head)
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| !l.trim().is_empty())
        .collect()
}

/// `benches/make-archive-corpus.py DIR --files N ... --bw-skew 0.6:8.8`:
/// N real fio results (the ICPE'24 studies' files, each its own run),
/// each one's bandwidth 0.6-8.8 % over IOPS x block size.
fn skewed_archive(dir: &Path, files: usize) {
    let made = std::process::Command::new("python3")
        .arg(root().join("benches/make-archive-corpus.py"))
        .arg(dir)
        .args(["--files", &files.to_string(), "--folder-size", "1000"])
        .args(["--bw-skew", "0.6:8.8"])
        .output()
        .expect("python3 runs benches/make-archive-corpus.py");
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
}

/// 2,000 files, one bandwidth note each: the report's checks section
/// stays under 60 lines (one line per config and rule with a count, the
/// range and three examples), report.md grows by no paragraph per file,
/// and checks.csv holds all 2,000 notes, one per file.
#[test]
fn an_archive_of_notes_keeps_its_checks_short_and_every_note_in_checks_csv() {
    const FILES: usize = 2000;
    let corpus = tempfile::tempdir().unwrap();
    skewed_archive(corpus.path(), FILES);
    let out_dir = tempfile::tempdir().unwrap();
    let out = nvcmp()
        .args(["--quiet", "analyze"])
        .arg(corpus.path())
        .arg("--out")
        .arg(out_dir.path())
        .arg("--no-charts")
        .output()
        .unwrap();
    assert_ok(&out);
    let md = std::fs::read_to_string(out_dir.path().join("report.md")).unwrap();
    let checks = section(&md, "Checks");
    let warnings = section(&md, "Warnings");
    let skipped = section(&md, "Skipped");
    assert!(!checks.is_empty(), "no Checks section");
    assert!(checks.len() < 60, "{} check lines", checks.len());
    assert!(
        checks.len() + warnings.len() + skipped.len() < 60,
        "{} + {} + {} lines",
        checks.len(),
        warnings.len(),
        skipped.len()
    );
    // One line per config says the count, the range and examples.
    let counted: usize = checks
        .iter()
        .filter(|l| l.contains("bandwidth disagrees with IOPS x block size in"))
        .map(|l| {
            let n = l
                .split(" in ")
                .nth(1)
                .and_then(|s| s.split(" file").next())
                .unwrap_or_else(|| panic!("no count: {l}"));
            n.replace(',', "").parse::<usize>().unwrap_or(1)
        })
        .sum();
    assert_eq!(counted, FILES, "{checks:#?}");
    assert!(
        !md.contains("Note: ") || md.matches("disagrees").count() < 60,
        "a paragraph per note"
    );
    assert!(md.len() < 200_000, "report.md is {} bytes", md.len());
    // checks.csv: every note, one a line; one bandwidth note per file.
    let csv = std::fs::read_to_string(out_dir.path().join("checks.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("kind,workload,config,rule,value,source,text")
    );
    let bw: Vec<&str> = lines.filter(|l| l.contains(",bw_vs_iops,")).collect();
    assert_eq!(bw.len(), FILES);
    let sources: BTreeSet<&str> = bw
        .iter()
        .map(|l| {
            l.split(",bw_vs_iops,")
                .nth(1)
                .and_then(|r| r.split(',').nth(1))
                .unwrap()
        })
        .collect();
    assert_eq!(sources.len(), FILES, "one note per file");
    // The values run over the skew given, in %.
    let values: Vec<f64> = bw
        .iter()
        .map(|l| {
            let v = l.split(",bw_vs_iops,").nth(1).unwrap();
            v.split(',').next().unwrap().parse().unwrap()
        })
        .collect();
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(0.0, f64::max);
    assert!((0.5..0.7).contains(&lo) && (8.7..8.9).contains(&hi), "{lo} {hi}");
}
