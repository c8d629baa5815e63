//! report.html in a real browser: headless Chromium (Debian's `chromium`)
//! loads the page of `analyze --out`, runs its script, and the test reads
//! the DOM it dumps: the config switches built, a config hidden in tables
//! and charts, tables sorted by a URL fragment, chart tooltips carrying
//! the dataset's values; and screenshots follow the system's light or
//! dark setting. Without Chromium the tests say so and pass, unless
//! NVCMP_CI=1 (CI; or the older NVCMP_REQUIRE_BROWSER=1) makes that a
//! failure.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{PUBLISHED, analyze_out, assert_ok, strs};

/// The browser to drive, or None (after saying why) when the test may be
/// skipped: outside CI ([`crate::common::require_that`]).
fn chromium() -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser"]
        .iter()
        .find_map(|name| crate::common::on_path(name));
    crate::common::require_that(
        "chromium",
        found.is_some(),
        "no chromium or chromium-browser on PATH (apt-get install chromium)",
    );
    found
}

/// Runs headless Chromium on `url` with `extra` flags and returns what it
/// printed, killing it after a minute: a hung browser must fail the test,
/// not stall CI.
fn run_chromium(browser: &Path, url: &str, extra: &[&str]) -> String {
    let profile = tempfile::tempdir().unwrap();
    // To a file, not a pipe: a DOM larger than the pipe's buffer would
    // block the browser until someone reads it.
    let stdout_path = profile.path().join("stdout");
    let stdout = std::fs::File::create(&stdout_path).unwrap();
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--virtual-time-budget=2000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(url)
        .stdout(stdout)
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("chromium did not finish within 60 s on {url}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "chromium failed on {url}");
    std::fs::read_to_string(stdout_path).unwrap()
}

/// `analyze PUBLISHED --out <tmp>` and the same comparison as JSON.
fn analyze() -> (tempfile::TempDir, Value) {
    let (dir, out) = analyze_out(PUBLISHED, &["--format", "json"]);
    assert_ok(&out);
    (dir, serde_json::from_slice(&out.stdout).unwrap())
}

fn file_url(path: &Path, fragment: &str) -> String {
    format!("file://{}{fragment}", path.display())
}

/// The DOM without the `<template>`s, whose inert copies would count.
fn live(dom: &str) -> String {
    let mut out = String::new();
    let mut rest = dom;
    while let Some(i) = rest.find("<template") {
        out.push_str(&rest[..i]);
        rest = rest[i..]
            .split_once("</template>")
            .map_or("", |(_, after)| after);
    }
    out + rest
}

/// Every start tag carrying `data-config="<config>"`.
fn tags_of<'a>(dom: &'a str, config: &str) -> Vec<&'a str> {
    let attr = format!("data-config=\"{config}\"");
    dom.match_indices(&attr)
        .map(|(i, _)| {
            let start = dom[..i].rfind('<').unwrap();
            let end = i + dom[i..].find('>').unwrap();
            &dom[start..=end]
        })
        .collect()
}

/// The first number in `text` with its thousands separators dropped.
fn first_number(text: &str) -> Option<f64> {
    let start = text.find(|c: char| c.is_ascii_digit())?;
    let num: String = text[start..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',' || *c == '.')
        .filter(|c| *c != ',')
        .collect();
    num.trim_end_matches('.').parse().ok()
}

/// Every value of `metric` for `config` in the JSON comparison.
fn values(json: &Value, metric: &str, config: &str) -> Vec<f64> {
    json["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|w| w["metrics"].as_array().unwrap())
        .filter(|m| m["metric"] == metric)
        .filter_map(|m| m["values"][config].as_f64())
        .collect()
}

#[test]
fn report_is_offline_and_its_script_runs_in_chromium() {
    let Some(browser) = chromium() else { return };
    let (dir, json) = analyze();
    let page = dir.path().join("report.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert_nothing_fetched(&html);

    let configs: Vec<String> = json["configs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    let hidden = configs.last().unwrap().clone();
    let dom = run_chromium(
        &browser,
        &file_url(&page, &format!("#sort=iops&hide={hidden}")),
        &["--dump-dom"],
    );
    let dom = live(&dom);
    assert!(
        dom.contains("<html lang=\"en\" data-ready=\"\">"),
        "script did not finish"
    );
    // One switch per config, built by the script; the hidden one is off.
    assert_eq!(
        dom.matches("<input type=\"checkbox\"").count(),
        configs.len()
    );
    for c in &configs {
        assert!(dom.contains(&format!("value=\"{c}\"")), "no switch for {c}");
    }
    assert_hidden(&dom, &configs, &hidden);
    assert_sorted_by_iops(&dom, &json);
    let charts = std::fs::read_dir(dir.path().join("charts"))
        .unwrap()
        .count();
    assert_tooltips(&dom, &json, &configs, charts);
}

/// No address anywhere: nothing for a browser to fetch, and a policy that
/// forbids fetching should something slip in.
fn assert_nothing_fetched(html: &str) {
    for bad in ["http://", "https://", "<link", "<iframe", "@import"] {
        assert!(!html.contains(bad), "report.html contains {bad}");
    }
    for attr in [" src=\"", " href=\"", "url("] {
        for (i, _) in html.match_indices(attr) {
            let target = &html[i + attr.len()..];
            assert!(
                target.starts_with("data:") || target.starts_with('#'),
                "report.html loads {}",
                &target[..target.len().min(60)]
            );
        }
    }
    assert!(html.contains("Content-Security-Policy\" content=\"default-src 'none'"));
}

/// The hidden config's rows, columns and chart targets are all hidden;
/// nobody else's is.
fn assert_hidden(dom: &str, configs: &[String], hidden: &str) {
    for c in configs {
        let tags = tags_of(dom, c);
        assert!(
            tags.len() > 10,
            "{c}: only {} elements carry it",
            tags.len()
        );
        for tag in tags {
            let off = tag.contains(" hidden=\"\"") || tag.contains(" off\"");
            assert_eq!(off, c == hidden, "{c}: {tag}");
        }
    }
}

/// `#sort=iops` put every workload table's rows best (highest) IOPS first,
/// and the rows carry the comparison's values.
fn assert_sorted_by_iops(dom: &str, json: &Value) {
    let mut tables = 0;
    let mut moved = false;
    let configs = strs(&json["configs"]);
    for table in dom.split("<table").skip(1) {
        let table = table.split("</table>").next().unwrap();
        let Some(head) = table.split("</thead>").next() else {
            continue;
        };
        // After the text before them and the "Config" head.
        let heads: Vec<&str> = head.split("<th ").skip(2).collect();
        let Some(col) = heads.iter().position(|h| h.contains("data-key=\"iops\"")) else {
            continue;
        };
        assert!(heads[col].contains("aria-sort=\"descending\""), "{head}");
        let rows: Vec<(String, f64)> = table
            .split("<tr data-config=\"")
            .skip(1)
            .map(|r| {
                let config = r.split('"').next().unwrap().to_string();
                let cell = r.split("<td").nth(col + 1).unwrap();
                let v = first_number(cell.split_once('>').unwrap().1).unwrap();
                let known = values(json, "iops", &config);
                assert!(
                    known.iter().any(|k| (k - v).abs() < 0.5),
                    "{config}: {v} IOPS"
                );
                (config, v)
            })
            .collect();
        assert_eq!(rows.len(), configs.len(), "{table}");
        assert!(
            rows.windows(2).all(|w| w[0].1 >= w[1].1),
            "not by IOPS: {rows:?}"
        );
        moved |= rows
            .iter()
            .map(|r| r.0.as_str())
            .ne(configs.iter().copied());
        tables += 1;
    }
    assert!(tables > 0, "no table has an IOPS column");
    assert!(
        moved,
        "every table was already in IOPS order: the sort proves nothing"
    );
}

/// Every inline chart has tooltips; the IOPS and bandwidth ones give each
/// config's values from the comparison, one per bar.
fn assert_tooltips(dom: &str, json: &Value, configs: &[String], charts: usize) {
    let svgs: Vec<&str> = dom.split("<svg").skip(1).collect();
    assert_eq!(svgs.len(), charts, "one inline <svg> per chart file");
    for svg in &svgs {
        assert!(svg.contains("<title>"), "a chart without tooltips");
    }
    for (unit, metric, div) in [
        (" IOPS", "iops", 1.0),
        (" GiB/s", "bw_bytes_per_s", 1073741824.0),
    ] {
        for c in configs {
            let known: Vec<f64> = values(json, metric, c).iter().map(|v| v / div).collect();
            let prefix = format!("<title>{c} · ");
            let shown: Vec<f64> = dom
                .split(&prefix)
                .skip(1)
                .map(|t| t.split("</title>").next().unwrap())
                .filter_map(|t| {
                    let (_, value) = t.rsplit_once(": ")?;
                    let value = value.split(" (").next().unwrap();
                    value.strip_suffix(unit).and_then(first_number)
                })
                .collect();
            assert_eq!(shown.len(), known.len(), "{c}: {unit} tooltips");
            for v in shown {
                assert!(
                    known
                        .iter()
                        .any(|k| (k - v).abs() <= 1e-5 * k.abs().max(1.0)),
                    "{c}: {v}{unit} is none of {known:?}"
                );
            }
        }
    }
}

/// Light and dark screenshots: the page follows the system's setting.
#[test]
fn report_follows_the_system_colour_scheme() {
    let Some(browser) = chromium() else { return };
    let (dir, _) = analyze();
    let url = file_url(&dir.path().join("report.html"), "");
    let corner = |extra: &[&str]| {
        let png = dir.path().join("shot.png");
        let shot = format!("--screenshot={}", png.display());
        let mut args = vec![shot.as_str(), "--window-size=800,600"];
        args.extend_from_slice(extra);
        run_chromium(&browser, &url, &args);
        let img = image::open(&png).unwrap().to_rgb8();
        let p = img.get_pixel(4, 4).0;
        p.iter().map(|c| u32::from(*c)).sum::<u32>() / 3
    };
    let light = corner(&[]);
    let dark = corner(&["--force-dark-mode"]);
    assert!(light > 200, "light page background is {light}/255");
    assert!(dark < 60, "dark page background is {dark}/255");
}
