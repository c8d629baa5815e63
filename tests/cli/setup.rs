//! The setup section reports open with: what was run, from the data and
//! from the manifest's `title`, `description` and `[setup]` tables.

use std::path::Path;

use crate::common::{PUBLISHED, analyze_out, assert_ok, fixture, nvcmp};

/// The setup section of a report.md: the rows of the shared table
/// (name, value) and of the per-config table (name, a cell per config).
struct SetupTables {
    shared: Vec<(String, String)>,
    configs: Vec<String>,
    differing: Vec<(String, Vec<String>)>,
}

fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split(" |").map(|c| c.trim().to_string()).collect()
}

fn setup_tables(md: &str) -> SetupTables {
    let start = md.find("\n## Setup\n").expect("a Setup section");
    let section = &md[start + 1..];
    let end = section[3..].find("\n## ").map_or(section.len(), |i| i + 3);
    let mut tables: Vec<Vec<Vec<String>>> = Vec::new();
    let mut in_table = false;
    for line in section[..end].lines() {
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        if !in_table {
            tables.push(Vec::new());
            in_table = true;
        }
        if !line.starts_with("|---") {
            tables.last_mut().unwrap().push(cells(line));
        }
    }
    let mut shared = Vec::new();
    let (mut configs, mut differing) = (Vec::new(), Vec::new());
    for t in tables {
        if t[0][1] == "All configs" {
            shared = t[1..]
                .iter()
                .map(|r| (r[0].clone(), r[1].clone()))
                .collect();
        } else {
            configs = t[0][1..].to_vec();
            differing = t[1..]
                .iter()
                .map(|r| (r[0].clone(), r[1..].to_vec()))
                .collect();
        }
    }
    SetupTables {
        shared,
        configs,
        differing,
    }
}

impl SetupTables {
    fn shared(&self, name: &str) -> Option<&str> {
        self.shared
            .iter()
            .find(|r| r.0 == name)
            .map(|r| r.1.as_str())
    }

    fn differing(&self, name: &str) -> Option<Vec<&str>> {
        self.differing
            .iter()
            .find(|r| r.0 == name)
            .map(|r| r.1.iter().map(String::as_str).collect())
    }
}

fn analyze_md(path: &Path) -> String {
    let out = nvcmp()
        .arg("analyze")
        .arg(path)
        .args(["--format", "md"])
        .output()
        .unwrap();
    assert_ok(&out);
    String::from_utf8(out.stdout).unwrap()
}

fn manifest() -> toml::Table {
    let text = std::fs::read_to_string(fixture(PUBLISHED).join("nvcmp.toml")).unwrap();
    text.parse().unwrap()
}

#[test]
fn published_report_opens_with_the_manifests_title_and_description() {
    let m = manifest();
    let md = analyze_md(&fixture(PUBLISHED));
    let mut lines = md.lines().filter(|l| !l.is_empty());
    let title = m["title"].as_str().unwrap();
    assert_eq!(lines.next(), Some(format!("# {title}").as_str()));
    assert_eq!(lines.next(), m["description"].as_str());
    assert!(!md.contains("compared\n"), "generated title still there");
    let setup = md.find("## Setup").unwrap();
    assert!(setup < md.find("## Read").unwrap());
}

#[test]
fn published_setup_prints_shared_items_once_and_differing_ones_per_config() {
    let m = manifest();
    let t = setup_tables(&analyze_md(&fixture(PUBLISHED)));
    // Every [setup] pair, in the order the manifest writes them.
    let written: Vec<(String, String)> = m["setup"]
        .as_table()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
        .collect();
    assert!(!written.is_empty());
    assert_eq!(t.shared[..written.len()], written[..]);
    // Facts of the files that every config shares: once each.
    assert_eq!(t.shared("Runtime"), Some("60 s"));
    assert_eq!(t.shared("iodepth"), Some("32"));
    assert_eq!(t.shared("Block size"), Some("4k, 64k, 128k"));
    // Per config: the manifest's words, in display order.
    assert_eq!(
        t.configs,
        m["order"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect::<Vec<_>>()
    );
    let os_of = |c: &String| m["config"][c.as_str()]["setup"]["OS"].as_str().unwrap();
    let os: Vec<&str> = t.configs.iter().map(os_of).collect();
    assert_eq!(t.differing("OS"), Some(os));
    assert_eq!(t.differing("Kernel"), Some(vec!["–", "–", "6.8", "6.8"]));
    // From the data: the Windows JSON states direct=1, the Linux text does not.
    assert_eq!(
        t.differing("fio version"),
        Some(vec!["fio-3.38", "fio-3.38", "fio-3.36", "fio-3.36"])
    );
    assert_eq!(t.differing("direct"), Some(vec!["1", "1", "–", "–"]));
    assert_eq!(t.shared("OS"), None, "OS differs: not in the shared table");
}

#[test]
fn published_html_json_and_terminal_carry_the_setup() {
    let (dir, out) = analyze_out(PUBLISHED, &["--no-charts", "--format", "json"]);
    assert_ok(&out);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["setup"]["title"],
        manifest()["title"].as_str().unwrap()
    );
    let items = json["setup"]["items"].as_array().unwrap();
    let fio = items.iter().find(|i| i["name"] == "fio version").unwrap();
    assert!(fio["value"].is_null());
    assert_eq!(fio["values"]["windows-native"], "fio-3.38");
    let cpu = items.iter().find(|i| i["name"] == "CPU").unwrap();
    assert_eq!(cpu["source"], "manifest");

    let html = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    let setup = html.find("<h2>Setup</h2>").expect("a Setup heading");
    assert!(setup < html.find("<h2>Read</h2>").unwrap());
    // The two Windows configs share their OS: one cell over both columns.
    assert!(
        html.contains(r#"<td colspan="2">Windows Server 2025</td>"#),
        "{}",
        &html[setup..setup + 2000]
    );

    let term = nvcmp()
        .arg("analyze")
        .arg(fixture(PUBLISHED))
        .output()
        .unwrap();
    let term = String::from_utf8(term.stdout).unwrap();
    assert!(term.contains("Setup:\n"), "{term}");
    assert!(
        term.contains(
            "fio version: fio-3.38 (windows-non-native, windows-native); fio-3.36 (linux-libaio, linux-io_uring)"
        ),
        "{term}"
    );
}

#[test]
fn real_fio_sweep_shows_its_fio_version_direct_and_depth_range() {
    let root = fixture("sweep/iodepth");
    let one: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("libaio/randread-4k-qd1.json")).unwrap(),
    )
    .unwrap();
    let version = one["fio version"].as_str().unwrap();
    assert_eq!(one["jobs"][0]["job options"]["direct"], "1");
    let md = analyze_md(&root);
    assert!(md.starts_with("# "), "{md}");
    assert!(md.lines().next().unwrap().ends_with(" compared"));
    let t = setup_tables(&md);
    assert_eq!(t.shared("fio version"), Some(version));
    assert_eq!(t.shared("direct"), Some("1"));
    assert_eq!(t.shared("iodepth"), Some("1-32"));
    assert_eq!(t.shared("Runtime"), Some("1 s"));
    assert_eq!(t.shared("Hosts"), None, "standalone runs have no host");
    let engines = t.differing("Engine").unwrap();
    assert_eq!(t.configs.len(), 3);
    for (engine, config) in engines.iter().zip(&t.configs) {
        assert_eq!(engine, config, "folders are named after their engine");
    }
}

#[test]
fn text_output_leaves_direct_unknown_in_the_dataset() {
    let direct = |file: &str| -> Vec<serde_json::Value> {
        let out = nvcmp()
            .args(["ingest", "--format", "ndjson"])
            .arg(fixture(file))
            .output()
            .unwrap();
        assert_ok(&out);
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["direct"].clone())
            .collect()
    };
    assert_eq!(
        direct("fio/linux-libaio/randread-4k.json"),
        [serde_json::Value::Bool(true)]
    );
    assert_eq!(
        direct("fio/linux-libaio/randread-4k.txt"),
        [serde_json::Value::Null]
    );
}

#[test]
fn a_manifest_setup_table_reaches_the_report_and_a_bad_value_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for cfg in ["a", "b"] {
        std::fs::create_dir(dir.path().join(cfg)).unwrap();
        std::fs::copy(
            fixture("fio/linux-libaio/randread-4k.json"),
            dir.path().join(cfg).join("randread-4k.json"),
        )
        .unwrap();
    }
    let manifest = dir.path().join("nvcmp.toml");
    std::fs::write(
        &manifest,
        "title = \"Lab run\"\n[setup]\nCPU = \"EPYC\"\nDrives = 2\n[config.b.setup]\nKernel = \"6.12\"\n",
    )
    .unwrap();
    let md = analyze_md(dir.path());
    assert!(md.starts_with("# Lab run\n"), "{md}");
    let t = setup_tables(&md);
    assert_eq!(t.shared("CPU"), Some("EPYC"));
    assert_eq!(t.shared("Drives"), Some("2"));
    assert_eq!(t.differing("Kernel"), Some(vec!["–", "6.12"]));

    std::fs::write(&manifest, "[setup]\nCPU = { cores = 128 }\n").unwrap();
    nvcmp()
        .arg("analyze")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("nvcmp.toml"))
        .stderr(predicates::str::contains("strings or numbers"));
}
