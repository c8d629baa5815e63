//! Numbers people can read, on every shipped fixture: in the terminal,
//! Markdown and HTML reports no cell prints a non-zero value as 0, and
//! every line of values that shares a unit (a metric row of a workload
//! table, a config's metric down a sweep table) prints one count of
//! decimals. Cells marked `†` (excluded) or `⚠` (far from the row's
//! median) print in their own unit and are left out of the decimals check.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::common::{fixture, nvcmp, stderr};

/// A line of cells that must print alike, and where it is.
struct Series {
    place: String,
    cells: Vec<String>,
    /// House style drops the row's trailing zeros: its decimals may
    /// differ (never past the house's count).
    decimals_free: bool,
}

/// Words of the row titles whose trailing zeros house style drops
/// (`units.*.trim_zeros` of the JSON): `Bandwidth`, `latency`.
fn trimmed_rows(json: &str) -> Vec<&'static str> {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    [("bandwidth", "Bandwidth"), ("latency", "latency")]
        .into_iter()
        .filter(|(q, _)| v["units"][q]["trim_zeros"] == true)
        .map(|(_, word)| word)
        .collect()
}

/// Fixture folders with no result `analyze` reads (it exits 2 on each):
/// left out of [`fixture_folders`], and held to that refusal by
/// `the_folders_left_out_are_the_ones_analyze_refuses`.
const REFUSED: [&str; 6] = [
    "check/truncated",        // one truncated JSON document
    "fz-inflated",            // logs only (the text of series/'s .log.fz)
    "fz-inflated/compressed", // the same
    "fz-inflated/fz",         // the same
    "series/handmade",        // logs only, no result beside them
    "wild/failed",            // fio's error output, jobs that all failed
];

/// Every fixture folder (and each folder one level down) `analyze` reads:
/// all but `bad/` and [`REFUSED`]. A folder `analyze` starts refusing
/// fails [`report`] with its name, never drops out of the walk.
pub fn fixture_folders() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let top = fixture("");
    for entry in std::fs::read_dir(&top).unwrap() {
        let dir = entry.unwrap().path();
        if !dir.is_dir() || dir.ends_with("bad") {
            continue;
        }
        out.push(dir.clone());
        for sub in std::fs::read_dir(&dir).unwrap() {
            let sub = sub.unwrap().path();
            if sub.is_dir() {
                out.push(sub);
            }
        }
    }
    out.retain(|d| !REFUSED.iter().any(|r| *d == fixture(r)));
    out.sort();
    out
}

/// `nvcmp --quiet analyze DIR --format FORMAT`: what it did.
fn analyze(dir: &Path, format: &str) -> std::process::Output {
    nvcmp()
        .args(["--quiet", "analyze"])
        .arg(dir)
        .args(["--format", format])
        .output()
        .unwrap()
}

/// The report in `format`; fails the test, naming the folder and what
/// `analyze` said, when it refuses the folder. Made once per folder and
/// format for the whole test binary: four tests walk every fixture folder
/// and read the same reports (the second to ask waits for the first).
pub fn report(dir: &Path, format: &str) -> String {
    type Reports = HashMap<(PathBuf, String), Arc<OnceLock<String>>>;
    static MADE: OnceLock<Mutex<Reports>> = OnceLock::new();
    let slot = MADE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry((dir.to_path_buf(), format.to_string()))
        .or_default()
        .clone();
    slot.get_or_init(|| {
        let out = analyze(dir, format);
        assert!(
            out.status.success(),
            "analyze {} --format {format} failed: {}",
            dir.display(),
            stderr(&out)
        );
        String::from_utf8(out.stdout).unwrap()
    })
    .clone()
}

/// Makes the reports of every folder in every format at once, on every
/// processor (each later [`report`] call then reads the made one).
pub fn make_reports(dirs: &[PathBuf], formats: &[&str]) {
    let pairs: Vec<(&PathBuf, &str)> = dirs
        .iter()
        .flat_map(|d| formats.iter().map(move |f| (d, *f)))
        .collect();
    crate::common::par_map(&pairs, |(d, f)| {
        report(d, f);
    });
}

#[test]
fn the_folders_left_out_are_the_ones_analyze_refuses() {
    for rel in REFUSED {
        let out = analyze(&fixture(rel), "json");
        assert_eq!(out.status.code(), Some(2), "{rel}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("nothing to analyze"),
            "{rel}: {}",
            stderr(&out)
        );
    }
}

/// The first number of a cell ("6.100 *" -> "6.100", "– " -> None).
fn number(cell: &str) -> Option<&str> {
    let start = cell.find(|c: char| c.is_ascii_digit())?;
    let rest = &cell[start..];
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.'))
        .unwrap_or(rest.len());
    Some(rest[..end].trim_end_matches(['.', ',']))
}

/// The latency unit a cell prints after its number ("122.6 µs" -> "µs"),
/// "" where the table says it once.
fn unit(cell: &str) -> &'static str {
    let Some(n) = number(cell) else { return "" };
    let after = cell[cell.find(n).unwrap() + n.len()..].trim_start_matches('*');
    ["µs", "ms", "s"]
        .into_iter()
        .find(|u| after.strip_prefix(' ').is_some_and(|a| a.starts_with(u)))
        .unwrap_or("")
}

fn decimals(n: &str) -> usize {
    n.split_once('.').map_or(0, |(_, f)| f.len())
}

fn is_zero(n: &str) -> bool {
    n.chars().all(|c| matches!(c, '0' | ',' | '.'))
}

fn marked(cell: &str) -> bool {
    cell.contains('†') || cell.contains('⚠')
}

/// A sweep cell's parts: IOPS, mean latency, p99 latency.
fn parts(cell: &str) -> Vec<String> {
    cell.split(" · ").map(str::to_string).collect()
}

/// Columns of `rows` (first cell a title, the rest values), one series
/// per column and, for sweep cells, per part.
fn sweep_series(place: &str, rows: &[Vec<String>]) -> Vec<Series> {
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = Vec::new();
    for col in 1..width {
        for part in 0..3 {
            let cells = rows
                .iter()
                .filter_map(|r| r.get(col))
                .filter_map(|c| parts(c).get(part).cloned())
                .collect();
            out.push(Series {
                place: format!("{place}, column {col}, part {part}"),
                cells,
                decimals_free: false,
            });
        }
    }
    out
}

/// Markdown: the per-workload tables (`### `, header `| |`) by row, the
/// sweep tables (header `| Load |`) by column and part.
fn markdown_series(md: &str) -> Vec<Series> {
    let mut out = Vec::new();
    for section in md.split("\n### ").skip(1) {
        let title = section.lines().next().unwrap_or_default().to_string();
        let table: Vec<&str> = section
            .lines()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .collect();
        let Some(header) = table.first() else {
            continue;
        };
        let rows: Vec<Vec<String>> = table[2..]
            .iter()
            .map(|l| {
                let cells: Vec<&str> = l.split('|').collect();
                cells[1..cells.len() - 1]
                    .iter()
                    .map(|c| c.replace("**", "").trim().to_string())
                    .collect()
            })
            .collect();
        if header.starts_with("| Load |") {
            out.extend(sweep_series(&format!("md {title}"), &rows));
        } else if header.starts_with("| |") {
            out.extend(rows.into_iter().map(|r| Series {
                place: format!("md {title}: {}", r[0]),
                cells: r[1..].to_vec(),
                decimals_free: false,
            }));
        }
    }
    out
}

/// The terminal's tables: metric tables by row, sweep tables (first head
/// `Load`) by column and part; grids left out (integers).
fn term_series(term: &str) -> Vec<Series> {
    let mut out = Vec::new();
    let mut title = String::new();
    let mut table: Vec<Vec<String>> = Vec::new();
    for line in term.lines() {
        if line.starts_with('┌') {
            table.clear();
        } else if line.starts_with('│') {
            let cells = line
                .trim_matches('│')
                .split('┆')
                .map(|c| c.trim().to_string())
                .collect();
            table.push(cells);
        } else if line.starts_with('└') && !table.is_empty() {
            let head = table[0][0].clone();
            let rows = &table[1..];
            if head == "Load" {
                out.extend(sweep_series(&format!("term {title}"), rows));
            } else if head.is_empty() {
                out.extend(rows.iter().map(|r| Series {
                    place: format!("term {title}: {}", r[0]),
                    cells: r[1..].to_vec(),
                    decimals_free: false,
                }));
            }
        } else if !line.starts_with(' ') && !line.starts_with('╞') && !line.is_empty() {
            title = line.to_string();
        }
    }
    out
}

/// `html` without tags, `<span class="lat">` and `delta` turned into
/// separators first so a cell's values stay apart.
fn html_text(html: &str) -> String {
    let html = html
        .replace("<span class=\"lat\">", " · ")
        .replace("<span class=\"delta\">", " (");
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.trim().to_string()
}

/// The HTML's sortable tables: a workload table's columns are metrics
/// (one series each), a sweep table's (first head `Load`) configs.
fn html_series(html: &str) -> Vec<Series> {
    let mut out = Vec::new();
    for (i, table) in html.split("<table class=\"sortable\">").skip(1).enumerate() {
        let table = &table[..table.find("</table>").unwrap()];
        let head = html_text(table.split("</th>").next().unwrap_or_default());
        let rows: Vec<Vec<String>> = table
            .split("<tr")
            .skip(2)
            .map(|r| {
                let cells: Vec<String> = r
                    .split("<td")
                    .skip(1)
                    .map(|c| html_text(&format!("<td{}", c.split("</td>").next().unwrap())))
                    .collect();
                std::iter::once(String::new()).chain(cells).collect()
            })
            .collect();
        let place = format!("html table {i}");
        if head == "Load" {
            out.extend(sweep_series(&place, &rows));
        } else if head == "Config" {
            let heads: Vec<String> = table
                .split("</thead>")
                .next()
                .unwrap_or_default()
                .split("</th>")
                .map(html_text)
                .collect();
            let width = rows.iter().map(Vec::len).max().unwrap_or(0);
            for col in 1..width {
                let title = heads.get(col).map_or("", String::as_str);
                out.push(Series {
                    place: format!("{place}, column {col} ({title})"),
                    cells: rows.iter().filter_map(|r| r.get(col).cloned()).collect(),
                    decimals_free: false,
                });
            }
        }
    }
    out
}

/// Exact zeros the comparison holds: a cell may print 0 only for them.
fn has_zero_values(json: &str) -> bool {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["workloads"].as_array().into_iter().flatten().any(|w| {
        w["metrics"].as_array().into_iter().flatten().any(|m| {
            m["values"]
                .as_object()
                .is_some_and(|o| o.values().any(|x| x.as_f64() == Some(0.0)))
        })
    })
}

/// What is wrong with `series`: a zero cell, or mixed decimals.
fn problems(series: &[Series], zeros_allowed: bool) -> Vec<String> {
    let mut out = Vec::new();
    for s in series {
        let numbers: Vec<(&str, &str)> = s
            .cells
            .iter()
            .filter_map(|c| Some((c.as_str(), number(c)?)))
            .collect();
        for (cell, n) in &numbers {
            if is_zero(n) && !zeros_allowed {
                out.push(format!("{}: {cell:?} prints as 0", s.place));
            }
        }
        // Cells that print their unit keep one count of decimals per unit
        // (a column of 90.62 µs and 13.04 ms).
        // A row whose decimals the cap on significant digits cut (`2,543`
        // beside `0.48`, #54) leaves a value those decimals would show with
        // fewer than two significant digits its own two.
        let value = |n: &str| n.replace(',', "").parse::<f64>().unwrap_or(0.0);
        let row_decimals = numbers
            .iter()
            .filter(|(c, n)| !marked(c) && value(n) >= 10.0)
            .map(|(_, n)| decimals(n))
            .min();
        let own_two = |n: &str| {
            let digits: String = n.chars().filter(char::is_ascii_digit).collect();
            let significant = digits.trim_start_matches('0').len();
            row_decimals.is_some_and(|d| {
                decimals(n) > d && value(n) * 10f64.powi(d as i32) < 10.0 && significant == 2
            })
        };
        let mut counts: Vec<(&str, usize)> = numbers
            .iter()
            .filter(|(cell, n)| !marked(cell) && !own_two(n))
            .map(|(cell, n)| (unit(cell), decimals(n)))
            .collect();
        counts.sort();
        if !s.decimals_free
            && counts
                .windows(2)
                .any(|w| w[0].0 == w[1].0 && w[0].1 != w[1].1)
        {
            out.push(format!("{}: mixed decimals {:?}", s.place, s.cells));
        }
    }
    out
}

#[test]
fn no_fixture_report_prints_a_non_zero_value_as_zero_or_mixes_decimals() {
    let mut bad = Vec::new();
    // Series read per format: each parser must find the tables.
    let mut tables = [0usize; 3];
    let folders = fixture_folders();
    make_reports(&folders, &["json", "term", "md", "html"]);
    for dir in folders {
        let json = report(&dir, "json");
        let zeros = has_zero_values(&json);
        let trimmed = trimmed_rows(&json);
        let name = dir.strip_prefix(fixture("")).unwrap().display().to_string();
        for (k, (format, parse)) in [
            ("term", term_series as fn(&str) -> Vec<Series>),
            ("md", markdown_series),
            ("html", html_series),
        ]
        .into_iter()
        .enumerate()
        {
            let text = report(&dir, format);
            let mut series = parse(&text);
            tables[k] += series.len();
            // House style "as printed" drops trailing zeros of its rows
            // (`6.1` beside `10.058`): their decimals differ by design.
            for s in series.iter_mut() {
                if trimmed.iter().any(|t| s.place.contains(t)) {
                    s.decimals_free = true;
                }
            }
            bad.extend(
                problems(&series, zeros)
                    .into_iter()
                    .map(|p| format!("{name}: {p}")),
            );
        }
    }
    // The walk read the tables in every format, or it checked nothing.
    assert!(tables.iter().all(|n| *n > 300), "series read: {tables:?}");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_walk_catches_what_it_looks_for() {
    let md = "# t\n\n### randread 4k\n\n| | a | b |\n|---|---:|---:|\n| Mean latency (ms) | 0.437 | 0 |\n| IOPS | 1,000 | **2,000** |\n\n### randread 4k: queue depth sweep\n\n| Load | a |\n|---|---:|\n| QD1 | 1 · 0.43574 · 2.1 |\n| QD2 | 2 · 0.4378 · 2.2 |\n| QD4 | 3 · 17,113 ms ⚠ · 2.3 |\n";
    let series = markdown_series(md);
    let found = problems(&series, false);
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(found[0].contains("\"0\" prints as 0"));
    assert!(found[1].contains("mixed decimals") && found[1].contains("Mean latency"));
    assert!(found[2].contains("part 1"), "{found:#?}");
    assert!(problems(&series, true).len() == 2);
}

/// Latency figures a reader can take in: in every fixture's Markdown and
/// HTML report no latency cell (a workload table's latency row, the mean
/// and p99 parts of a sweep table's cells) prints five digits or more
/// before its decimal point or unit, nor more than four significant
/// digits (`13,042` µs reads `13.04` ms).
#[test]
fn no_fixture_report_prints_a_latency_with_five_integer_digits() {
    let mut bad = Vec::new();
    let mut cells = 0;
    let folders = fixture_folders();
    make_reports(&folders, &["md", "html"]);
    for dir in folders {
        let name = dir.strip_prefix(fixture("")).unwrap().display().to_string();
        let md = report(&dir, "md");
        let html = report(&dir, "html");
        let series: Vec<Series> = markdown_series(&md)
            .into_iter()
            .chain(html_series(&html))
            .collect();
        for s in series.iter().filter(|s| latency(s)) {
            for c in &s.cells {
                let Some(n) = number(c) else { continue };
                cells += 1;
                let int = n.split('.').next().unwrap().replace(',', "");
                let digits: String = n.chars().filter(char::is_ascii_digit).collect();
                let significant = digits.trim_start_matches('0').len();
                // One unit and one count of decimals per column (#54): a
                // latency far from the column's median may print with five
                // digits in µs ("24,248", "125.80"), never past 99,999.
                let in_us =
                    s.place.contains("(µs)") || c.contains("µs") || s.place.contains(" part ");
                let most = if in_us { 5 } else { 4 };
                if int.trim_start_matches('0').len() > most || significant > most {
                    bad.push(format!("{name}: {}: {c:?}", s.place));
                }
            }
        }
    }
    assert!(cells > 1000, "latency cells read: {cells}");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Whether a series holds latencies: a workload row titled so, or the
/// mean or p99 part of a sweep column.
fn latency(s: &Series) -> bool {
    s.place.contains("latency") || s.place.ends_with("part 1") || s.place.ends_with("part 2")
}
