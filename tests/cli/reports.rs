//! Reports exact to the last digit at any size (issue #54): every report
//! of every fixture prints one unit per metric (tables, sweep columns,
//! findings, chart axes), its chart files carry distinct names and
//! titles, and an archive whose every file draws a note keeps its checks
//! section short while `checks.csv` keeps every note.

use std::collections::{BTreeMap, BTreeSet};
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
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
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
    // The bandwidth notes are grouped under their tables: one line per
    // config and load point with the count, the range and three examples,
    // the counts adding up to every file.
    let grouped: Vec<&str> = md
        .lines()
        .filter(|l| l.contains("bandwidth disagrees with IOPS x block size in "))
        .collect();
    let counted: usize = grouped
        .iter()
        .map(|l| {
            let n = l
                .split("block size in ")
                .nth(1)
                .and_then(|s| s.split(" file").next())
                .unwrap_or_else(|| panic!("no count: {l}"));
            n.replace(',', "").parse::<usize>().unwrap()
        })
        .sum();
    assert_eq!(counted, FILES, "{grouped:#?}");
    // Bounded by the tables' cells, not by the files: the corpus's 149
    // template runs are at most 149 (config, load point) cells.
    assert!(grouped.len() <= 149, "{} note lines", grouped.len());
    assert!(
        grouped.iter().all(|l| l.contains("; e.g. ")),
        "{grouped:#?}"
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
    assert!(
        (0.5..0.7).contains(&lo) && (8.7..8.9).contains(&hi),
        "{lo} {hi}"
    );
}

/// Latency units a report may print, and bandwidth units.
const LAT_UNITS: [&str; 4] = ["ns", "µs", "ms", "s"];
const BW_UNITS: [&str; 5] = ["B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"];

/// The units `text` gives latency and bandwidth: every `latency (UNIT)`
/// and `bandwidth (UNIT)` (row titles, captions, axis titles: "Mean
/// latency (µs)", "p95 latency (ms)", "Bandwidth per CPU % (GiB/s)"),
/// and every value printed with its unit (`0.17 ms`, `9.198 GiB/s`).
#[derive(Debug, Default)]
struct Units {
    latency: BTreeMap<String, String>,
    bandwidth: BTreeMap<String, String>,
}

impl Units {
    fn add(&mut self, text: &str, place: &str) {
        let lower = text.to_lowercase();
        // Titles: "... latency (UNIT)", "... bandwidth ... (UNIT)".
        for (i, _) in text.match_indices('(') {
            let Some(end) = text[i..].find(')') else {
                continue;
            };
            let unit = &text[i + 1..i + end];
            let before = lower[..i].trim_end();
            if LAT_UNITS.contains(&unit) && before.ends_with("latency") {
                self.latency
                    .entry(unit.into())
                    .or_insert_with(|| place.into());
            }
            let bw_title = before.ends_with("bandwidth") || before.ends_with("bandwidth per cpu %");
            if BW_UNITS.contains(&unit) && bw_title {
                self.bandwidth
                    .entry(unit.into())
                    .or_insert_with(|| place.into());
            }
        }
        // Values with their unit: a digit, a space, the unit, then no
        // letter or slash.
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        for (k, (i, c)) in chars.iter().enumerate() {
            if *c != ' ' || k == 0 || !chars[k - 1].1.is_ascii_digit() {
                continue;
            }
            let rest = &text[i + 1..];
            let word: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '/' || *c == 'µ')
                .collect();
            if LAT_UNITS.contains(&word.as_str()) {
                self.latency
                    .entry(word)
                    .or_insert_with(|| format!("{place}: {}", around(text, *i)));
            } else if BW_UNITS.contains(&word.as_str()) {
                self.bandwidth
                    .entry(word)
                    .or_insert_with(|| format!("{place}: {}", around(text, *i)));
            }
        }
    }
}

/// Up to 40 characters either side of byte `i` of `text`.
fn around(text: &str, i: usize) -> String {
    let start = text[..i].char_indices().rev().nth(40).map_or(0, |(k, _)| k);
    let end = text[i..]
        .char_indices()
        .nth(40)
        .map_or(text.len(), |(k, _)| i + k);
    text[start..end].replace('\n', " ")
}

/// Sections of a report that print figures in the report's units: all
/// but the test bed, the notes and checks (which name a run's values in
/// their own units, as read), the grouping and the skipped files.
fn figure_section(heading: &str) -> bool {
    ![
        "Setup",
        "Precision",
        "Checks",
        "How the runs were grouped",
        "Warnings",
        "Skipped",
    ]
    .iter()
    .any(|h| heading.starts_with(h))
}

/// report.md's lines that print figures: tables, captions, findings and
/// summaries, outside the sections [`figure_section`] leaves out; notes,
/// ties and footnotes (a run's values as read) left out.
fn markdown_units(md: &str, units: &mut Units) {
    let mut keep = true;
    let mut heading = "";
    for line in md.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            keep = figure_section(h);
            heading = h;
            continue;
        }
        let numbered = line
            .split_once(". ")
            .is_some_and(|(n, _)| n.parse::<u32>().is_ok());
        let key_finding = numbered && heading == "Key findings";
        let figures = line.starts_with('|')
            || line.starts_with("- ")
            || line.starts_with("Each cell")
            || line.starts_with("### ")
            || key_finding;
        if keep && figures && !line.starts_with("| Setting") {
            units.add(line, "report.md");
        }
    }
}

/// report.html's figures: its sections as [`figure_section`] keeps them,
/// without the notes (`<p class="note">` other than the "Each cell"
/// captions) and without tags; the inline charts' text included.
fn html_units(html: &str, units: &mut Units) {
    for chunk in html.split("<h2>").skip(1) {
        let heading = chunk.split("</h2>").next().unwrap_or_default();
        if !figure_section(heading) {
            continue;
        }
        let mut text = String::new();
        for (k, part) in chunk.split("<p class=\"note\">").enumerate() {
            if k == 0 {
                text.push_str(part);
                continue;
            }
            let (note, rest) = part.split_once("</p>").unwrap_or((part, ""));
            if note.starts_with("Each cell") {
                text.push_str(note);
            }
            text.push_str(rest);
        }
        units.add(
            &untagged(&without_grey_text(&text)),
            &format!("report.html {heading}"),
        );
    }
}

/// `html` without its tags, each tag a line break, entities of `&`, `<`
/// and `>` read back.
fn untagged(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push('\n');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
}

/// `svg` without its grey text (`fill="#555555"`: the subtitle and the
/// footnotes, which name run lengths and bucket widths in seconds and
/// milliseconds, durations rather than latencies).
fn without_grey_text(svg: &str) -> String {
    let mut out = String::new();
    let mut rest = svg;
    while let Some(at) = rest.find("<text") {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let open_end = tail.find('>').map_or(tail.len(), |k| k + 1);
        let close = tail
            .find("</text>")
            .map_or(tail.len(), |k| k + "</text>".len());
        if tail[..open_end].contains("fill=\"#555555\"") {
            rest = &tail[close..];
        } else {
            out.push_str(&tail[..close]);
            rest = &tail[close..];
        }
    }
    out.push_str(rest);
    out
}

/// A chart's title: the first text of its SVG (the figure's heading).
fn svg_title(svg: &str) -> String {
    let at = svg.find("<text").expect("a chart has text");
    let text = &svg[at..];
    let start = text.find('>').unwrap() + 1;
    let end = text.find("</text>").unwrap();
    untagged(&text[start..end]).trim().to_string()
}

/// Every fixture folder's report (fixtures/, its studies, identity
/// studies and the published comparison), written with `--out` and SVG
/// charts: report.md, report.html and every chart print latency in one
/// unit and bandwidth in one unit (the JSON's `units`), no chart file's
/// name ends in `-N`, and no two charts of a report share a title.
#[test]
fn every_report_prints_one_unit_per_metric_and_distinct_charts() {
    let folders = crate::numbers::fixture_folders();
    let checked = crate::common::par_map(&folders, |dir| one_unit_and_distinct_charts(dir));
    let reports = checked.len();
    let charts: usize = checked.iter().map(|(n, _)| n).sum();
    let bad: Vec<String> = checked.into_iter().flat_map(|(_, bad)| bad).collect();
    assert!(
        reports > 100 && charts > 300,
        "{reports} reports, {charts} charts"
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// `analyze DIR --out` with SVG charts: how many charts it drew, and
/// what is wrong in them and its reports (a metric in two units, two
/// charts of one title, a chart's name numbered to tell it apart).
fn one_unit_and_distinct_charts(dir: &Path) -> (usize, Vec<String>) {
    let mut bad = Vec::new();
    let mut charts = 0;
    let name = dir
        .strip_prefix(crate::common::fixture(""))
        .unwrap()
        .display()
        .to_string();
    let out_dir = tempfile::tempdir().unwrap();
    let out = nvcmp()
        .args(["--quiet", "analyze"])
        .arg(dir)
        .arg("--out")
        .arg(out_dir.path())
        .args(["--chart-format", "svg"])
        .output()
        .unwrap();
    assert_ok(&out);
    let read = |f: &str| std::fs::read_to_string(out_dir.path().join(f)).unwrap();
    let mut units = Units::default();
    markdown_units(&read("report.md"), &mut units);
    html_units(&read("report.html"), &mut units);
    let mut titles: BTreeMap<String, String> = BTreeMap::new();
    let chart_dir = out_dir.path().join("charts");
    let mut files: Vec<_> = std::fs::read_dir(&chart_dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.sort();
    let stems: BTreeSet<String> = files
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().to_string())
        .collect();
    for path in files {
        charts += 1;
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let svg = std::fs::read_to_string(&path).unwrap();
        // No `-N` suffix: only a heat map's stem ends in its config's
        // slug, which may end in digits (DiskSpd `v2.0.21` is
        // `v2-0-21`), and never beside the same stem without them.
        if let Some((prefix, n)) = stem.rsplit_once('-')
            && !n.is_empty()
            && n.chars().all(|c| c.is_ascii_digit())
            && (stems.contains(prefix) || !stem.starts_with("heatmap_"))
        {
            bad.push(format!("{name}: chart {stem} ends in -{n}"));
        }
        let title = svg_title(&svg);
        if let Some(other) = titles.insert(title.clone(), stem.clone()) {
            bad.push(format!(
                "{name}: charts {other} and {stem} are both titled {title:?}"
            ));
        }
        units.add(
            &untagged(&without_grey_text(&svg)),
            &format!("chart {stem}"),
        );
    }
    let json: serde_json::Value =
        serde_json::from_str(&crate::numbers::report(dir, "json")).unwrap();
    for (what, seen, key) in [
        ("latency", &units.latency, "latency"),
        ("bandwidth", &units.bandwidth, "bandwidth"),
    ] {
        let unit = json["units"][key]["unit"].as_str().unwrap_or_default();
        if seen.len() > 1 || seen.keys().any(|u| u != unit) {
            bad.push(format!(
                "{name}: {what} in {seen:?}, the report's unit {unit}"
            ));
        }
    }
    (charts, bad)
}
