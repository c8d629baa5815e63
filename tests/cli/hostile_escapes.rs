//! The hostile campaign of issue #55 as tests: nothing from the data
//! escapes its place. A job file's section or a job's name reaches no
//! path outside the results folder; a name is no spreadsheet formula, no
//! Markdown link, no byte that breaks an SVG; a URL's secret is never
//! printed; a planted symlink is replaced, not written through; a file
//! too small for `--size` is refused; a checksum record that is no
//! checksum is damage; thousands of job names make a bounded report.
//! Every test here is Unix-only where it names files as only Unix allows.

use std::path::{Path, PathBuf};

use crate::common::{fixture, nvcmp, stderr};

/// Every file and folder under `dir`, relative to it, sorted.
fn tree(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            out.push(p.strip_prefix(dir).unwrap().to_path_buf());
            if e.file_type().unwrap().is_dir() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The libaio randread result with `edit` applied, written to `path`.
#[cfg(unix)]
fn result_at(path: &Path, edit: impl Fn(&mut serde_json::Value)) {
    let text = std::fs::read_to_string(fixture("fio/linux-libaio/randread-4k.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    edit(&mut v);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
}

/// Item 1. A job file from a pull request or a shared repository names a
/// section `[../../x/victim]` or `[/abs/victim]`: `run` once wrote
/// `victim.json`, its sidecar and logs there, exit 0. Now: exit 2 before
/// any I/O (not even the results folder is made), one line naming the
/// file, the line and why; the victim unchanged.
#[cfg(unix)]
#[test]
fn a_job_file_section_names_no_path() {
    let dir = tempfile::tempdir().unwrap();
    let victim_dir = dir.path().join("x");
    std::fs::create_dir(&victim_dir).unwrap();
    let victim = victim_dir.join("victim.json");
    std::fs::write(&victim, "precious").unwrap();
    let out = dir.path().join("res");
    let absolute = victim_dir.join("victim");
    for section in ["../../x/victim", absolute.to_str().unwrap(), "con", "a\tb"] {
        let jf = dir.path().join("jobs.fio");
        std::fs::write(
            &jf,
            format!("[global]\nioengine=null\nsize=64k\n[{section}]\nrw=read\nbs=4k\n"),
        )
        .unwrap();
        let o = nvcmp()
            .args(["run", "--engine", "null", "--log", "--job-file"])
            .arg(&jf)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "[{section}]: {err}");
        assert_eq!(err.trim().lines().count(), 1, "[{section}]: {err}");
        assert!(
            err.contains("jobs.fio: line 4: section [")
                && err.contains("cannot name a result file"),
            "[{section}]: {err}"
        );
        assert!(!out.exists(), "[{section}]: the results folder was made");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(tree(&victim_dir), [PathBuf::from("victim.json")]);
    }
}

/// Item 1, every place nvcmp derives a path from data: a run's label and
/// job names (results, sidecars, logs, fio's job file), and the chart
/// file names `analyze --out` makes from config, job and workload names.
/// Refused where the user chose the name; where nvcmp chooses it (chart
/// stems), mapped to a safe name. Nothing is written outside the folders
/// given.
#[cfg(unix)]
#[test]
fn every_name_from_data_stays_in_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("res");
    for label in ["../up", "..", "a/b", "nul", "x\u{1}"] {
        let o = nvcmp()
            .args([
                "run", "--engine", "null", "--size", "64k", "--label", label, "--out",
            ])
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(2),
            "--label {label:?}: {}",
            stderr(&o)
        );
        assert!(stderr(&o).contains("plain folder name"), "{}", stderr(&o));
    }
    assert!(!out.exists());
    // A plain section runs, its logs and results inside the label's folder.
    let jf = dir.path().join("jobs.fio");
    std::fs::write(
        &jf,
        "[global]\nioengine=null\nsize=64k\n[seq..read]\nrw=read\n",
    )
    .unwrap();
    let o = nvcmp()
        .args([
            "-q",
            "run",
            "--engine",
            "null",
            "--log",
            "--label",
            "l",
            "--job-file",
        ])
        .arg(&jf)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        tree(&out).iter().all(|p| p.starts_with("l")),
        "{:?}",
        tree(&out)
    );
    assert!(out.join("l/seq..read.json").is_file());
    // Results whose job names and config folders are paths: the charts
    // and reports stay in --out, named by safe stems.
    let results = dir.path().join("results");
    for (config, job) in [("a", "../../../../escape"), ("..b..", "/tmp/abs/escape")] {
        result_at(&results.join(config).join("r.json"), |v| {
            v["jobs"][0]["jobname"] = job.into();
        });
    }
    let before = tree(dir.path());
    let report = dir.path().join("report");
    let o = nvcmp()
        .args(["analyze", "--chart-format", "svg", "--out"])
        .arg(&report)
        .arg(&results)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let made: Vec<PathBuf> = tree(dir.path())
        .into_iter()
        .filter(|p| !before.contains(p))
        .collect();
    assert!(made.iter().all(|p| p.starts_with("report")), "{made:?}");
    let charts = tree(&report.join("charts"));
    assert!(!charts.is_empty());
    for c in &charts {
        let name = c.to_str().unwrap();
        assert!(
            name.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_.".contains(&b)),
            "{name}"
        );
    }
}

/// The fields of one CSV line as a CSV reader reads them (quotes taken
/// off, `""` one quote); lines holding quoted line breaks are not made here.
#[cfg(unix)]
fn csv_fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                out.last_mut().unwrap().push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(String::new()),
            (c, _) => out.last_mut().unwrap().push(c),
        }
    }
    out
}

/// Cells of `csv` a spreadsheet would run as formulas: they start with
/// `=`, `+`, `-`, `@`, a tab or a CR and are no number.
#[cfg(unix)]
fn formulas(csv: &str) -> Vec<String> {
    csv.lines()
        .flat_map(csv_fields)
        .filter(|f| f.starts_with(['=', '+', '-', '@', '\t', '\r']) && f.parse::<f64>().is_err())
        .collect()
}

/// Item 2. A folder named `=HYPERLINK(...)`, a job named `+cmd|...` and a
/// fio version `=1+1` reached dataset.csv, sweeps.csv, `--format csv` and
/// `ingest --format csv` as live formulas. Now each such cell has a
/// leading `'`, numbers (negative ones too) stay numbers, nvcmp reads its
/// own CSV back to the names as they were, and `--csv-raw` keeps them raw.
#[cfg(unix)]
#[test]
fn csv_cells_are_never_formulas() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    let folder = "=HYPERLINK(\"http:evil\",\"click\")";
    for (config, qd) in [("a", 1), ("a", 4), (folder, 1), (folder, 4)] {
        result_at(&results.join(config).join(format!("qd{qd}.json")), |v| {
            v["fio version"] = "=1+1".into();
            v["jobs"][0]["jobname"] = "+cmd|' /C calc'!A0".into();
            v["jobs"][0]["job options"]["iodepth"] = qd.to_string().into();
        });
    }
    let report = dir.path().join("report");
    let o = nvcmp()
        .args(["analyze", "--no-charts", "--format", "csv", "--out"])
        .arg(&report)
        .arg(&results)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let dataset = std::fs::read_to_string(report.join("dataset.csv")).unwrap();
    let sweeps = std::fs::read_to_string(report.join("sweeps.csv")).unwrap();
    let ingest = nvcmp()
        .args(["-q", "ingest", "--format", "csv"])
        .arg(&results)
        .output()
        .unwrap();
    assert_eq!(ingest.status.code(), Some(0), "{}", stderr(&ingest));
    let ingested = String::from_utf8_lossy(&ingest.stdout).into_owned();
    for (name, csv) in [
        ("--format csv", &stdout),
        ("dataset.csv", &dataset),
        ("sweeps.csv", &sweeps),
        ("ingest --format csv", &ingested),
    ] {
        assert_eq!(formulas(csv), Vec::<String>::new(), "{name}");
        assert!(
            csv.contains("'=HYPERLINK("),
            "{name}: the name is not there, guarded"
        );
    }
    assert!(dataset.contains("'+cmd|' /C calc'!A0") && dataset.contains("'=1+1"));
    // Read back by nvcmp: the config is named as its folder is.
    let j = crate::common::analyze_json(&report.join("dataset.csv"), &[]);
    let configs = crate::common::strs(&j["configs"]);
    assert!(configs.contains(&folder), "{configs:?}");
    // --csv-raw: the data as it is, for programs.
    let raw = nvcmp()
        .args(["-q", "ingest", "--format", "csv", "--csv-raw"])
        .arg(&results)
        .output()
        .unwrap();
    let raw = String::from_utf8_lossy(&raw.stdout).into_owned();
    assert!(
        formulas(&raw).iter().any(|f| f.starts_with("=HYPERLINK(")),
        "{raw}"
    );
}

/// Item 3. `--history s3://KEY:SECRET@bucket/prefix` was accepted (the
/// credentials ignored) and the secret printed in every warning. Now:
/// exit 2, "put credentials in the environment or a profile", the secret
/// nowhere; a secret in the endpoint's URL and a failing
/// `credential_process`'s arguments and stderr are never printed either.
#[test]
fn secrets_in_urls_and_credential_processes_are_never_printed() {
    for url in ["s3://KEY:S3KR1T@bucket/prefix", "s3://KEY:S3K/R1T@b/p"] {
        let o = nvcmp()
            .args(["history", "show", "--history", url])
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains("put credentials in the environment or a profile"),
            "{err}"
        );
        assert!(!err.contains("S3K"), "{err}");
    }
    let dir = tempfile::tempdir().unwrap();
    // Nothing listens on port 9 of the loopback: every request fails and
    // is retried, and the error names the request's URL.
    let o = nvcmp()
        .args(["history", "show", "--history", "s3://bucket/h"])
        .env("AWS_ENDPOINT_URL", "http://user:PASSWORD@127.0.0.1:9")
        .env("AWS_ACCESS_KEY_ID", "testing")
        .env("AWS_SECRET_ACCESS_KEY", "testing")
        .env("AWS_REGION", "us-east-1")
        .env("AWS_CONFIG_FILE", dir.path().join("none"))
        .env("AWS_SHARED_CREDENTIALS_FILE", dir.path().join("none"))
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_ne!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("PASSWORD") && !err.contains("user:"), "{err}");
    #[cfg(unix)]
    {
        let config = dir.path().join("config");
        std::fs::write(
            &config,
            "[profile p]\nregion = us-east-1\ncredential_process = sh -c 'echo TOKEN123 >&2; exit 3' --token TOKEN123\n",
        )
        .unwrap();
        let o = nvcmp()
            .args(["history", "show", "--history", "s3://bucket/h"])
            .env("AWS_CONFIG_FILE", &config)
            .env("AWS_SHARED_CREDENTIALS_FILE", dir.path().join("none"))
            .env("AWS_PROFILE", "p")
            .env_remove("AWS_ACCESS_KEY_ID")
            .env_remove("AWS_SECRET_ACCESS_KEY")
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains("credential_process `sh` failed (exit status: 3)"),
            "{err}"
        );
        assert!(!err.contains("TOKEN123"), "{err}");
    }
}

/// Links, images and emphasis in a CommonMark rendering of `md`: the
/// link or image destinations, and the text inside emphasis.
#[cfg(unix)]
fn markup(md: &str) -> Vec<String> {
    use pulldown_cmark::{Event, Parser, Tag};
    let mut found = Vec::new();
    let mut depth = 0;
    for event in Parser::new_ext(md, pulldown_cmark::Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Link { dest_url, .. }) => found.push(format!("link {dest_url}")),
            Event::Start(Tag::Image { dest_url, .. }) => found.push(format!("image {dest_url}")),
            Event::Start(Tag::Emphasis | Tag::Strong) => depth += 1,
            Event::End(pulldown_cmark::TagEnd::Emphasis | pulldown_cmark::TagEnd::Strong) => {
                depth -= 1
            }
            Event::Text(t) if depth > 0 => found.push(format!("emphasis {t}")),
            Event::Html(h) | Event::InlineHtml(h) => found.push(format!("html {h}")),
            Event::Code(c) => found.push(format!("code {c}")),
            _ => {}
        }
    }
    found
}

/// Item 4. A job or config named `[x](javascript:alert(1))` or
/// `![i](http://evil/i.png)` became a link or a remote image where
/// Markdown is rendered (GitHub step summaries, PR comments). Every
/// Markdown output, rendered by a CommonMark reader: no link, image or
/// emphasis from data (nvcmp's own: the chart images, bold best values,
/// `<details>` of the check report).
#[cfg(unix)]
#[test]
fn markdown_from_data_is_text_in_every_markdown_output() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    let payloads = ["[x](javascript:alert(1))", "*EMX*_UNDX_", "`CODEX`~~STRX~~"];
    for config in payloads.iter().chain(&["plain"]) {
        result_at(&results.join(config).join("r.json"), |v| {
            v["jobs"][0]["jobname"] = "![i](http://evil/i.png)".into();
        });
    }
    std::fs::write(
        results.join("nvcmp.toml"),
        "title = \"| [t](javascript:alert(2)) **B0LD**\"\ndescription = \"![i](http://evil/d.png) <b>x</b>\"\n",
    )
    .unwrap();
    let report = dir.path().join("report");
    let o = nvcmp()
        .args(["analyze", "--format", "md", "--name"])
        .arg("plain=![i](http://evil/n.png)")
        .arg("--out")
        .arg(&report)
        .arg(&results)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let file = std::fs::read_to_string(report.join("report.md")).unwrap();
    // check --markdown and the step summary: sources named by data.
    let candidate = dir.path().join("![c](http:evil)");
    std::fs::create_dir_all(&candidate).unwrap();
    std::fs::copy(fixture("check/run2/fio.json"), candidate.join("fio.json")).unwrap();
    std::fs::write(candidate.join("[s](javascript:x).json"), "not fio").unwrap();
    let summary = dir.path().join("summary.md");
    let check_md = dir.path().join("check.md");
    let o = nvcmp()
        .args(["check", "--baseline"])
        .arg(fixture("check/run1"))
        .arg("--candidate")
        .arg(&candidate)
        .arg("--markdown")
        .arg(&check_md)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    // The unreadable file makes the check unusable (exit 2); the report
    // and the summary are written all the same, naming it.
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let check = std::fs::read_to_string(&check_md).unwrap();
    assert!(
        check.contains("javascript:x"),
        "the skipped file is not named: {check}"
    );
    let summary = std::fs::read_to_string(&summary).unwrap();
    for (name, md) in [
        ("--format md", &stdout),
        ("report.md", &file),
        ("check --markdown", &check),
        ("step summary", &summary),
    ] {
        let from_data: Vec<String> = markup(md)
            .into_iter()
            .filter(|m| {
                !(m.starts_with("image charts/")
                    || m.starts_with("html <details>")
                    || m.starts_with("html </details>")
                    || m.starts_with("html <summary>")
                    || m.starts_with("html <br>")
                    || m.strip_prefix("emphasis ").is_some_and(|t| {
                        !["EMX", "UNDX", "B0LD", "STRX", "CODEX"]
                            .iter()
                            .any(|p| t.contains(p))
                    }))
            })
            .collect();
        assert_eq!(from_data, Vec::<String>::new(), "{name}:\n{md}");
    }
    assert!(
        stdout.contains("javascript:alert(1)"),
        "the name is not shown as text"
    );
}

/// Item 5. `analyze --out o1` wrote through `o1/report.html ->
/// /elsewhere/file` and `o1/charts -> /elsewhere/`; `run` truncated a
/// symlink's target through its predictable temporary. Now every output
/// goes to a new temporary with a random name and is renamed into place:
/// the symlinks are replaced, their targets unchanged.
#[cfg(unix)]
#[test]
fn outputs_replace_symlinks_never_write_through_them() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let victim = elsewhere.join("file");
    std::fs::write(&victim, "precious").unwrap();
    let out = dir.path().join("o1");
    std::fs::create_dir(&out).unwrap();
    for name in ["report.html", "report.md", "dataset.csv", "dataset.parquet"] {
        symlink(&victim, out.join(name)).unwrap();
    }
    symlink(&elsewhere, out.join("charts")).unwrap();
    let o = nvcmp()
        .args(["analyze", "--chart-format", "svg", "--out"])
        .arg(&out)
        .arg(fixture("fio/linux-libaio"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(tree(&elsewhere), [PathBuf::from("file")]);
    for name in ["report.html", "charts"] {
        let md = std::fs::symlink_metadata(out.join(name)).unwrap();
        assert!(!md.file_type().is_symlink(), "{name} is still a symlink");
    }
    assert!(!tree(&out.join("charts")).is_empty());
    // run: a result name planted as a symlink is replaced by the result.
    let res = dir.path().join("res");
    std::fs::create_dir_all(res.join("l")).unwrap();
    let planted = res.join("l/read-4k-qd1-j1.json");
    symlink(&victim, &planted).unwrap();
    let o = nvcmp()
        .args([
            "-q",
            "run",
            "--engine",
            "null",
            "--rw",
            "read",
            "--bs",
            "4k",
            "--iodepth",
            "1",
        ])
        .args(["--size", "64k", "--runtime", "1", "--label", "l", "--out"])
        .arg(&res)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(std::fs::symlink_metadata(&planted).unwrap().is_file());
    // No temporary is left behind, in either folder.
    for p in tree(&out).iter().chain(&tree(&res)) {
        assert!(!p.to_string_lossy().contains(".tmp-"), "{p:?} left");
    }
}

/// Item 7. `run` on an existing 8 KiB file with `--size 1m` measured the
/// file (from the page cache) and recorded `size: 1m`. It is refused now,
/// before any I/O, naming both sizes; a --size the file holds runs.
#[cfg(target_os = "linux")]
#[test]
fn a_file_smaller_than_size_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("small.dat");
    std::fs::write(&target, vec![7u8; 8192]).unwrap();
    let run = |size: &str| {
        nvcmp()
            .args([
                "-q",
                "run",
                "--engine",
                "psync",
                "--buffered",
                "--rw",
                "read",
                "--bs",
                "4k",
            ])
            .args([
                "--iodepth",
                "1",
                "--runtime",
                "1",
                "--size",
                size,
                "--target",
            ])
            .arg(&target)
            .arg("--out")
            .arg(dir.path().join("res"))
            .output()
            .unwrap()
    };
    let o = run("1m");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("holds 8k (8192 bytes), less than --size 1m"),
        "{err}"
    );
    assert!(
        !dir.path().join("res").exists(),
        "a refused run wrote results"
    );
    let o = run("8k");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Item 8. A config named with `\x01` put the byte raw into the SVG's
/// `<text>` (no longer XML: browsers show an error page), and a fio
/// version with a line break forged lines in the terminal's Setup block.
/// Both are shown escaped now.
#[cfg(unix)]
#[test]
fn control_characters_break_no_svg_and_forge_no_line() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    for config in ["a", "b\u{1}c"] {
        result_at(&results.join(config).join("r.json"), |v| {
            v["fio version"] = "fio-3.33\nKey findings:\n  1. FORGED".into();
        });
    }
    let report = dir.path().join("report");
    let o = nvcmp()
        .args(["analyze", "--chart-format", "svg", "--out"])
        .arg(&report)
        .arg(&results)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let xml_forbidden = |c: char| (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r');
    let mut files = tree(&report.join("charts"));
    files.retain(|p| p.extension().is_some_and(|e| e == "svg"));
    assert!(!files.is_empty());
    let mut shown = false;
    for f in files.iter().map(|f| report.join("charts").join(f)) {
        let svg = std::fs::read_to_string(&f).unwrap();
        assert!(!svg.contains(xml_forbidden), "{}", f.display());
        shown |= svg.contains("b\\x01c");
    }
    assert!(shown, "no chart names the config, escaped");
    // report.html's inline charts too (its HTML text shows names as HTML
    // does).
    let html = std::fs::read_to_string(report.join("report.html")).unwrap();
    let inline: Vec<&str> = html.split("<svg").skip(1).collect();
    assert!(!inline.is_empty());
    for svg in inline {
        let svg = svg.split("</svg>").next().unwrap();
        assert!(!svg.contains(xml_forbidden));
    }
    let term = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        !term
            .lines()
            .any(|l| l.trim_start().starts_with("1. FORGED")),
        "{term}"
    );
    assert!(
        term.contains("fio-3.33\\nKey findings:\\n  1. FORGED"),
        "{term}"
    );
}

/// Item 9, a folder history: a checksum record that is no CRC-32
/// (`crc32-ZZZZZZZZ`) silently turned verification off for its part
/// ("no checksum"). It is damage now, named, and verify exits 1.
#[test]
fn a_malformed_checksum_record_is_damage() {
    let dir = tempfile::tempdir().unwrap();
    let o = nvcmp()
        .args(["-q", "history", "add"])
        .arg(fixture("check/run1"))
        .args(["--run", "r1", "--history"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let sums: Vec<PathBuf> = tree(dir.path())
        .into_iter()
        .filter(|p| p.to_string_lossy().contains(".crc32-"))
        .collect();
    assert_eq!(sums.len(), 1, "{sums:?}");
    let sum = dir.path().join(&sums[0]);
    let name = sum.file_name().unwrap().to_string_lossy().into_owned();
    let bad = format!("{}ZZZZZZZZ", &name[..name.len() - 8]);
    std::fs::rename(&sum, dir.path().join(&bad)).unwrap();
    let o = nvcmp()
        .args(["history", "verify", "--history"])
        .arg(dir.path())
        .output()
        .unwrap();
    let out = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("ZZZZZZZZ") && out.contains("no CRC-32"),
        "{out}"
    );
}

/// Item 10. One fio file whose jobs all run one workload under distinct
/// names (128,904 names took 44 s and 2.15 GB when each was a workload
/// variant and each variant a table). Since #53 a name's word tells a
/// config (stonewalled jobs named by what they test), so the names are
/// configs of one workload, read in bounded time (the cap of 64 variants
/// per workload in `variants::cap` is no longer reached by job names).
/// The JSON holds every config; the reports people read show 32
/// (`compare::shown`), say how many more there are and where, and stay
/// small (10,000 configs wrote a report.html of 153 MB): report.md under
/// 64 KiB, report.html under 4 MiB with its charts inline.
#[test]
fn thousands_of_job_names_make_a_bounded_report() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("fio/linux-libaio/randread-4k.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let job = v["jobs"][0].clone();
    let n = 3000;
    let jobs: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let mut j = job.clone();
            j["jobname"] = format!("exp-{}", word(i)).into();
            j["groupid"] = i.into();
            j
        })
        .collect();
    let mut doc = v.clone();
    doc["jobs"] = jobs.into();
    let path = dir.path().join("many.json");
    std::fs::write(&path, serde_json::to_vec(&doc).unwrap()).unwrap();
    // Its cost grows with the names, not their square: tests/linear.rs
    // counts a comparison's allocations for N and 4N configs (no clock).
    let j = crate::common::analyze_json(&path, &[]);
    let configs = j["configs"].as_array().unwrap();
    assert!(configs.len() > 2900, "{} configs", configs.len());
    let workloads = j["workloads"].as_array().unwrap();
    assert!(workloads.len() <= 2, "{} workloads", workloads.len());
    bounded_reports(&path, dir.path(), configs.len());
}

/// `analyze --out` and `--format term` of `path` (a study of `n` configs,
/// thousands) show 32 configs, say the rest are in the dataset, and keep
/// every run in dataset.csv.
fn bounded_reports(path: &Path, dir: &Path, n: usize) {
    let out = dir.join("o1");
    let o = nvcmp()
        .arg("analyze")
        .arg(path)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let size = |name: &str| std::fs::metadata(out.join(name)).unwrap().len();
    assert!(
        size("report.md") < 64 << 10,
        "report.md: {} bytes",
        size("report.md")
    );
    assert!(
        size("report.html") < 4 << 20,
        "report.html: {} bytes",
        size("report.html")
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let count = n.to_string();
    let count = format!(
        "{},{}",
        &count[..count.len() - 3],
        &count[count.len() - 3..]
    );
    assert!(
        md.starts_with(&format!("# {count} configs compared (32 shown)")),
        "{}",
        &md[..200]
    );
    let said = format!("Shown: 32 of {count} configs");
    assert!(md.contains(&said) && md.contains("dataset.csv"), "{md}");
    // The workload's table: a header cell per shown config, no more.
    let cells = |l: &str| l.trim().trim_matches('|').split('|').count();
    let widest = md
        .lines()
        .filter(|l| l.starts_with("| | "))
        .map(cells)
        .max();
    assert_eq!(widest, Some(32 + 1), "{md}");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        html.contains(&said),
        "report.html does not say what it shows"
    );
    let csv = std::fs::read_to_string(out.join("dataset.csv")).unwrap();
    assert!(
        csv.lines().count() > n,
        "dataset.csv: {} lines",
        csv.lines().count()
    );
    let o = nvcmp().arg("analyze").arg(path).output().unwrap();
    let term = String::from_utf8_lossy(&o.stdout);
    assert!(
        term.contains(&said) && term.len() < 64 << 10,
        "{} bytes",
        term.len()
    );
}

/// A word of letters for `i` (`aa`, `ab`...): names that differ in a
/// word, not a number (numbers are read as repeat marks).
fn word(mut i: usize) -> String {
    let mut w = String::new();
    for _ in 0..3 {
        w.push((b'a' + (i % 26) as u8) as char);
        i /= 26;
    }
    w
}

/// Two job names that name no config (`exp-aged`, `exp-cold`: variants
/// of their folder's config) beside 300 that do: the JSON's two variant
/// workloads hold that one config in `values`, `delta_pct` and
/// `delta_abs`, not a null for each of the 300 others (at 128,904 names
/// those nulls were 60 % of the comparison's memory); the CSV still has
/// a line for every config at every workload.
#[test]
fn a_workload_one_config_ran_holds_that_config_alone() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("fio/linux-libaio/randread-4k.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let names = (0..300)
        .map(|i| format!("exp-{}", word(i)))
        .chain(["exp-aged".to_string(), "exp-cold".to_string()]);
    let jobs: Vec<serde_json::Value> = names
        .enumerate()
        .map(|(i, name)| {
            let mut j = v["jobs"][0].clone();
            j["jobname"] = name.into();
            j["groupid"] = i.into();
            j
        })
        .collect();
    let mut doc = v.clone();
    doc["jobs"] = jobs.into();
    let study = dir.path().join("study");
    std::fs::create_dir(&study).unwrap();
    let path = study.join("many.json");
    std::fs::write(&path, serde_json::to_vec(&doc).unwrap()).unwrap();
    let j = crate::common::analyze_json(&path, &[]);
    let configs = crate::common::strs(&j["configs"]);
    assert_eq!(configs.len(), 301);
    let workloads = j["workloads"].as_array().unwrap();
    let variants: Vec<&str> = workloads
        .iter()
        .filter_map(|w| w["variant"].as_str())
        .collect();
    assert_eq!(variants, ["aged", "cold"]);
    for w in workloads {
        let ran: Vec<&str> = match w["variant"].as_str() {
            Some(_) => vec!["study"],
            None => configs.iter().copied().filter(|c| *c != "study").collect(),
        };
        for m in w["metrics"].as_array().unwrap() {
            for map in ["values", "delta_pct", "delta_abs"] {
                let keys: Vec<&str> = m[map]
                    .as_object()
                    .unwrap()
                    .keys()
                    .map(String::as_str)
                    .collect();
                assert_eq!(keys, ran, "{} {map} at {:?}", m["metric"], w["variant"]);
            }
        }
    }
    let o = nvcmp()
        .arg("analyze")
        .arg(&path)
        .args(["--format", "csv"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = String::from_utf8_lossy(&o.stdout);
    let iops_lines = csv.lines().filter(|l| l.contains(",iops,")).count();
    assert_eq!(iops_lines, 3 * 301, "a line per config at each workload");
}
