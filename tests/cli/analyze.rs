//! `nvcmp analyze` end to end.

use crate::common::{PUBLISHED, analyze_out, assert_ok, fixture, nvcmp, stderr, strs};
use crate::md_table;

/// `nvcmp analyze` of the published fixture in `format`: its stdout, once
/// it has exited 0.
fn published(format: &str) -> Vec<u8> {
    let out = nvcmp()
        .arg("analyze")
        .arg(fixture(PUBLISHED))
        .args(["--format", format])
        .output()
        .unwrap();
    assert_ok(&out);
    out.stdout
}

fn published_json() -> serde_json::Value {
    serde_json::from_slice(&published("json")).unwrap()
}

fn metric<'a>(v: &'a serde_json::Value, rw: &str, bs: u64, m: &str) -> &'a serde_json::Value {
    v["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["rw"] == rw && w["bs_bytes"] == bs)
        .and_then(|w| {
            w["metrics"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["metric"] == m)
        })
        .unwrap_or_else(|| panic!("no {rw} {bs} {m}"))
}

#[test]
fn nothing_to_analyze_is_exit_2() {
    nvcmp()
        .arg("analyze")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("give at least one PATH"));
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-folder");
    nvcmp()
        .arg("analyze")
        .arg(&missing)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no-such-folder"));
}

#[test]
fn bad_round_flag_is_exit_2() {
    nvcmp()
        .arg("analyze")
        .arg(fixture(PUBLISHED))
        .args(["--round", "speed=3"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--round speed=3: unknown metric"));
}

#[test]
fn published_json_derives_the_six_conclusions() {
    let v = published_json();
    assert_eq!(
        v["skipped"].as_array().unwrap().len(),
        0,
        "{}",
        v["skipped"]
    );
    assert_eq!(
        v["configs"],
        serde_json::json!([
            "windows-non-native",
            "windows-native",
            "linux-libaio",
            "linux-io_uring"
        ])
    );
    assert_eq!(v["workloads"].as_array().unwrap().len(), 8);
    let hl = strs(&v["highlights"]);
    let has = |s: &str| assert!(hl.contains(&s), "missing {s:?} in {hl:#?}");
    // 1. read bandwidth
    for (rw, bs) in [("randread", 4096), ("randread", 65536), ("read", 65536)] {
        assert_eq!(
            metric(&v, rw, bs, "bw_bytes_per_s")["winner"],
            "windows-native"
        );
    }
    assert_eq!(
        metric(&v, "read", 131072, "bw_bytes_per_s")["winner"],
        "linux-libaio"
    );
    has("windows-native has the best read bandwidth in 3 of 4 read workloads");
    // 2. write bandwidth; randwrite 64k within 0.05 %, a tie
    assert_eq!(
        metric(&v, "randwrite", 4096, "bw_bytes_per_s")["winner"],
        "linux-libaio"
    );
    assert_eq!(
        metric(&v, "write", 65536, "bw_bytes_per_s")["winner"],
        "linux-libaio"
    );
    assert_eq!(
        metric(&v, "write", 131072, "bw_bytes_per_s")["winner"],
        "linux-io_uring"
    );
    has("Linux has the best write bandwidth in 3 of 4 write workloads");
    has("In randwrite 64k all four configs are within 0.05 % of each other (bandwidth)");
    // One measurement, one verdict: all four tie on bandwidth (0.05 %
    // apart beyond rounding), and IOPS carry that verdict.
    let iops = metric(&v, "randwrite", 65536, "iops");
    assert_eq!(iops["winner"], serde_json::Value::Null);
    assert_eq!(iops["tied"], v["configs"]);
    assert_eq!(iops["rule"], "equivalent");
    assert_eq!(iops["decided_by"], "bw_bytes_per_s");
    assert_eq!(v["equivalence_pct"], 0.05);
    assert_eq!(iops["values"]["windows-native"], 125406.0);
    assert_eq!(iops["precision"]["linux-libaio"], 1000.0);
    // 3. the 17 % lead
    has(
        "windows-native leads the best Linux config (linux-io_uring) in randread 64k bandwidth by 17.3 %",
    );
    // 4. CPU
    has("windows-native has the lowest CPU usage in 3 of 4 read and 3 of 4 write workloads");
    has(
        "Largest CPU-usage gap: read 128k, 27.34 pp between windows-native (49.56 %) and linux-io_uring (76.90 %)",
    );
    // 5. latency
    has(
        "Largest mean-latency gap: randread 64k, 0.17 ms between windows-native (0.207 ms) and linux-libaio (0.377 ms)",
    );
    // 6. outlier
    has(
        "Outlier: linux-libaio randwrite 4k CPU usage 45.76 % is 2.0x the others' median (others 20.67–26.00 %)",
    );
    // Key findings: six, each with its kind, score and what it rests on.
    let keys = v["key_findings"].as_array().unwrap();
    assert_eq!(keys.len(), 6, "{keys:#?}");
    assert_eq!(
        hl[..6],
        keys.iter()
            .map(|k| k["text"].as_str().unwrap())
            .collect::<Vec<_>>()[..]
    );
    let lead = keys
        .iter()
        .find(|k| k["kind"] == "lead")
        .expect("the 17 % lead is a key finding");
    assert_eq!(lead["workloads"], serde_json::json!(["randread 64k"]));
    assert_eq!(lead["metrics"], serde_json::json!(["bw_bytes_per_s"]));
    assert_eq!(
        lead["configs"],
        serde_json::json!(["windows-native", "linux-io_uring"])
    );
    assert!(lead["score"].as_f64().unwrap() > 0.3);
    // Deltas against the manifest's baseline.
    let bw = metric(&v, "randread", 65536, "bw_bytes_per_s");
    assert_eq!(bw["delta_pct"]["windows-non-native"], 0.0);
    let d = bw["delta_pct"]["windows-native"].as_f64().unwrap();
    assert!((d - (91.165 / 74.291 - 1.0) * 100.0).abs() < 0.01, "{d}");
}

#[test]
fn published_markdown_shows_every_figure_as_printed() {
    let md = String::from_utf8(published("md")).unwrap();
    let csv = std::fs::read_to_string(fixture("published/storagereview-2026-04.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 32);
    // Every one of the article's 128 figures (32 rows x bandwidth, IOPS,
    // mean latency, CPU) is in its cell exactly as the article printed
    // it: the manifest's house style prints bandwidth and latency to at
    // most three decimals with trailing zeros dropped (`6.1` beside
    // `10.058`, `0.56` beside `0.558`, `97`), CPU to two (`76.90`); IOPS
    // only gain thousands separators.
    let mut matched = 0;
    let mut wrong = Vec::new();
    for f in &rows {
        let workload = format!("{} {}", f[3], f[4]);
        let iops: u64 = f[6].parse().unwrap();
        for (title, printed) in [
            ("Bandwidth (GiB/s)", f[5].to_string()),
            ("IOPS", nvcmp::numbers::whole(iops)),
            ("Mean latency (ms)", f[8].to_string()),
            ("CPU (%)", f[9].to_string()),
        ] {
            let shown = md_table::cell(&md, &workload, f[0], title);
            if shown == printed {
                matched += 1;
            } else {
                wrong.push(format!(
                    "{workload} {} {title}: {shown}, article {printed}",
                    f[0]
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_eq!(matched, 128);
    assert!(md.contains("IOPS of linux-libaio and linux-io_uring are known to the nearest 1,000"));
}

#[test]
fn out_dir_gets_reports_and_dataset() {
    let (dir, out) = analyze_out(PUBLISHED, &[]);
    assert_ok(&out);
    for name in ["report.md", "report.html", "dataset.parquet", "dataset.csv"] {
        let meta = std::fs::metadata(dir.path().join(name)).unwrap();
        assert!(meta.len() > 0, "{name} is empty");
    }
    let html = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    assert!(html.contains("91.165"));
    // Every chart drawn is linked from report.md by its relative path, and
    // carried inside report.html as inline SVG (self-contained: no
    // reference to charts/).
    let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    let charts: Vec<String> = std::fs::read_dir(dir.path().join("charts"))
        .unwrap()
        .map(|e| format!("charts/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    assert_eq!(
        charts.len(),
        18,
        "charts of the published comparison: {charts:?}"
    );
    for c in &charts {
        assert!(
            md.contains(&format!("]({c})")),
            "{c} not linked from report.md"
        );
    }
    let html_plain = html.replace("&#x2f;", "/");
    assert_eq!(
        html_plain.matches("<figure class=\"chart\"><svg ").count(),
        charts.len(),
        "every chart inline in report.html"
    );
    assert!(
        !html_plain.contains("src=\"charts/"),
        "report.html must not depend on charts/"
    );
    let csv = std::fs::read_to_string(dir.path().join("dataset.csv")).unwrap();
    assert_eq!(
        csv.lines().count(),
        33,
        "one row per published run plus the header"
    );
}

#[test]
fn findings_flag_sets_how_many_key_findings_and_equivalence_is_checked() {
    let run = |extra: &[&str]| {
        nvcmp()
            .arg("analyze")
            .arg(fixture(PUBLISHED))
            .args(extra)
            .output()
            .unwrap()
    };
    let out = run(&["--format", "json", "--findings", "3"]);
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["key_findings"].as_array().unwrap().len(), 3);
    let all = v["highlights"].as_array().unwrap().len();
    assert!(all > 20, "the full list stays: {all}");

    let out = run(&["--findings", "2"]);
    assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Key findings:\n  1. "), "{text}");
    assert!(!text.contains("\n  3. "), "{text}");
    assert!(text.contains(&format!("({} more:", all - 2)), "{text}");

    let out = run(&["--equivalence", "150"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--equivalence 150"),
        "{}",
        stderr(&out)
    );
    let out = run(&["--format", "json", "--equivalence", "5"]);
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["equivalence_pct"], 5.0);
    let read128 = v["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["rw"] == "read" && w["bs_bytes"] == 131072)
        .unwrap();
    let bw = &read128["metrics"][0];
    assert_eq!(
        (bw["winner"].is_null(), &bw["rule"]),
        (true, &serde_json::json!("equivalent"))
    );
}

/// README's sample of what its first command prints is what it prints:
/// every line of the sample is a line of the output (rows in between are
/// left out of the sample, never changed).
#[test]
fn readme_sample_is_what_the_first_command_prints() {
    let readme = std::fs::read_to_string(crate::common::root().join("README.md")).unwrap();
    let at = readme
        .find("A piece of what the first command prints")
        .expect("README has the sample");
    let block = readme[at..].split("```").nth(1).expect("a code block");
    let out = nvcmp()
        .env("NO_COLOR", "1")
        .arg("analyze")
        .arg(fixture("published/storagereview-2026-04"))
        .output()
        .unwrap();
    assert_ok(&out);
    let printed = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = printed.lines().map(str::trim_end).collect();
    for want in block.lines().map(str::trim_end).filter(|l| !l.is_empty()) {
        assert!(lines.contains(&want), "README line not printed: {want:?}");
    }
    // Bandwidth and IOPS of a run are one measurement: the sample marks
    // them alike, cell by cell (no win beside a tie).
    let marks = |title: &str| -> Vec<Option<char>> {
        let row = block
            .lines()
            .find(|l| l.starts_with(&format!("│ {title}")))
            .unwrap_or_else(|| panic!("no {title} row in the sample"));
        row.split('┆')
            .skip(1)
            .map(|c| c.chars().find(|ch| matches!(ch, '*' | '=')))
            .collect()
    };
    assert_eq!(marks("Bandwidth"), marks("IOPS"));
    assert!(marks("IOPS").iter().any(Option::is_some));
}

/// `nvcmp analyze PATHS --format json`: exit code, stdout, stderr.
fn analyze_paths(paths: &[&std::path::Path], extra: &[&str]) -> (i32, Vec<u8>, String) {
    let out = nvcmp()
        .arg("analyze")
        .args(paths)
        .args(["--format", "json"])
        .args(extra)
        .output()
        .unwrap();
    let err = stderr(&out).into_owned();
    (out.status.code().unwrap(), out.stdout, err)
}

/// A run of several jobs with json+ histograms: the folder pools them into
/// the exact p99; its dataset file holds no histograms, so there the p99
/// is the worst job's, marked approximate with a note.
#[test]
fn pooled_percentiles_are_exact_from_histograms_and_marked_approximate_without() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("testbed.ndjson");
    ingest_to(&fixture("testbed"), &file);
    let p99 = |j: &serde_json::Value| -> (f64, serde_json::Value, String) {
        let w = j["workloads"]
            .as_array()
            .unwrap()
            .first()
            .expect("testbed's one workload: a job per target, run together");
        let m = w["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["metric"] == "clat_p99_ns")
            .unwrap()
            .clone();
        (
            m["values"]["fio-psync"].as_f64().unwrap(),
            m["approximate"].clone(),
            w["notes"].to_string(),
        )
    };
    let (_, folder, _) = analyze_paths(&[&fixture("testbed")], &[]);
    let (_, dataset, _) = analyze_paths(&[&file], &[]);
    let folder: serde_json::Value = serde_json::from_slice(&folder).unwrap();
    let dataset: serde_json::Value = serde_json::from_slice(&dataset).unwrap();
    let (exact, none, notes) = p99(&folder);
    assert!(none.is_null(), "{none}");
    assert!(!notes.contains("upper bound"), "{notes}");
    let (bound, approx, notes) = p99(&dataset);
    assert!(approx.to_string().contains("fio-psync"), "{approx}");
    assert!(
        notes.contains("the worst job's p99, an upper bound"),
        "{notes}"
    );
    // The pooled p99 lies at or under the worst job's.
    assert!(exact <= bound, "{exact} > {bound}");
}

/// `nvcmp ingest PATH -o FILE`, once it exited 0.
fn ingest_to(path: &std::path::Path, file: &std::path::Path) {
    let out = nvcmp()
        .arg("ingest")
        .arg(path)
        .arg("-o")
        .arg(file)
        .output()
        .unwrap();
    assert_ok(&out);
}

/// What `ingest -o` wrote reads back as the rows it ingested: the
/// comparison of the dataset file is the comparison of the folder (for
/// results without fio's logs, json+ bins or a manifest, which a dataset
/// file does not carry).
#[test]
fn a_dataset_file_analyzes_like_the_results_it_was_ingested_from() {
    let dir = tempfile::tempdir().unwrap();
    // Not testbed: its runs of several jobs have json+ histograms, which
    // pool into exact percentiles from the folder and cannot from the
    // dataset file (the next test).
    for rel in [
        "steady",
        "check/run1",
        "sweep/iodepth",
        "wild/clientserver-3.43",
    ] {
        let (code, of_folder, err) = analyze_paths(&[&fixture(rel)], &[]);
        assert_eq!(code, 0, "{err}");
        for ext in ["parquet", "ndjson", "csv"] {
            let file = dir.path().join(format!("{}.{ext}", rel.replace('/', "-")));
            ingest_to(&fixture(rel), &file);
            let (code, of_file, err) = analyze_paths(&[&file], &[]);
            assert_eq!(code, 0, "{rel} {ext}: {err}");
            assert!(err.is_empty(), "{rel} {ext}: {err}");
            assert!(
                of_file == of_folder,
                "{rel} as {ext} differs from its folder"
            );
        }
    }
}

#[test]
fn a_dataset_file_mixes_with_results_and_a_foreign_one_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let parquet = dir.path().join("steady.parquet");
    ingest_to(&fixture("steady"), &parquet);
    let foreign = dir.path().join("metrics.ndjson");
    std::fs::write(&foreign, "{\"host\":\"a\",\"iops\":1}\n").unwrap();
    let results = fixture("check/run1");
    let (code, out, err) = analyze_paths(&[&parquet, &foreign, &results], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err.trim_end(),
        format!(
            "nvcmp: skipped {}: not a dataset nvcmp wrote: no column `source` (and {} more)",
            foreign.display(),
            nvcmp::dataset::COLUMNS.len() - 3
        )
    );
    let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let configs = strs(&doc["configs"]);
    assert!(configs.contains(&"run1"), "{configs:?}");
    assert!(configs.contains(&"psync"), "{configs:?}");
    assert_eq!(doc["skipped"][0]["source"], foreign.display().to_string());
    // Skipped like any bad input: `--strict` refuses it.
    let (code, _, err) = analyze_paths(&[&parquet, &foreign, &results], &["--strict"]);
    assert_eq!(code, 2, "{err}");
}

/// Walking a folder reads results only: the dataset `ingest` wrote beside
/// them is not read again as rows.
#[test]
fn a_dataset_file_inside_a_results_folder_is_not_counted_twice() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("steady");
    std::fs::create_dir(&folder).unwrap();
    for e in std::fs::read_dir(fixture("steady")).unwrap() {
        let e = e.unwrap();
        let to = folder.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            std::fs::create_dir(&to).unwrap();
            for f in std::fs::read_dir(e.path()).unwrap() {
                let f = f.unwrap();
                std::fs::copy(f.path(), to.join(f.file_name())).unwrap();
            }
        } else {
            std::fs::copy(e.path(), to).unwrap();
        }
    }
    let (code, before, err) = analyze_paths(&[&folder], &[]);
    assert_eq!(code, 0, "{err}");
    ingest_to(&folder, &folder.join("dataset.parquet"));
    let (code, after, err) = analyze_paths(&[&folder], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(before == after, "the folder's comparison changed");
    // Named as a PATH, the file is read: the same rows, the same comparison.
    let (code, both, err) = analyze_paths(&[&folder.join("dataset.parquet")], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(both == before);
}

/// The cells of a Markdown table line: split at the pipes that are not
/// escaped.
fn md_cells(line: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let next = chars.next().unwrap_or_default();
                cells.last_mut().unwrap().extend([c, next]);
            }
            '|' => cells.push(String::new()),
            _ => cells.last_mut().unwrap().push(c),
        }
    }
    cells
}

#[test]
fn markdown_tables_keep_their_columns_when_names_and_values_hold_pipes() {
    // Every kind of table report.md has: a setup, a sweep and its grids,
    // a block-size sweep, a test bed's devices.
    for (rel, config) in [
        ("sweep/grid", "libaio"),
        ("blocksize", "libaio"),
        ("testbed", "fio-psync"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let manifest = dir.path().join("nvcmp.toml");
        std::fs::write(
            &manifest,
            format!(
                "[setup]\n\"RAID | layout\" = 'md0 | raid0 on C:\\nvme'\n\
                 [config.\"{config}\"]\nname = \"{config} | raid0\"\n"
            ),
        )
        .unwrap();
        let out = nvcmp()
            .args(["analyze", "--format", "md", "--manifest"])
            .arg(&manifest)
            .arg(fixture(rel))
            .output()
            .unwrap();
        assert_ok(&out);
        let md = String::from_utf8(out.stdout).unwrap();
        assert!(md.contains(&format!("{config} \\| raid0")), "{rel}: {md}");
        assert!(
            md.contains("| RAID \\| layout | md0 \\| raid0 on C:\\\\nvme |"),
            "{rel}: {md}"
        );
        // Each table: every line as many cells as its header.
        let mut tables = 0;
        for table in md.split("\n\n").filter(|b| b.starts_with('|')) {
            tables += 1;
            let widths: Vec<usize> = table.lines().map(|l| md_cells(l).len()).collect();
            assert!(widths.iter().all(|w| *w == widths[0]), "{rel}: {table}");
        }
        assert!(tables >= 3, "{rel}: {tables} tables in {md}");
    }
}
