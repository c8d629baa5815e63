//! Every format rendered from the published comparison.

use super::*;
use crate::compare::golden;

const CSV: &str = include_str!("../../fixtures/published/storagereview-2026-04.csv");

fn render(format: Format, opts: &RenderOptions, cmp: &Comparison) -> String {
    let mut out = Vec::new();
    format.renderer(opts).render(cmp, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// "2411000" -> "2,411,000" (the article's thousands separators).
fn thousands(s: &str) -> String {
    crate::compare::metric::format_number(s.parse().unwrap(), 0, false)
}

#[test]
fn markdown_shows_every_published_figure_as_printed() {
    let md = render(Format::Md, &RenderOptions::default(), &golden::published());
    let mut lines = CSV.lines();
    lines.next();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let (config, rw, bs) = (f[0], f[3], f[4]);
        let section = md
            .split("### ")
            .find(|s| s.starts_with(&format!("{rw} {bs}\n")))
            .unwrap_or_else(|| panic!("no table for {rw} {bs}"));
        let header = section.lines().find(|l| l.starts_with("| |")).unwrap();
        let col = header.split('|').position(|c| c.trim() == config).unwrap();
        let cell = |title: &str| {
            let row = section
                .lines()
                .find(|l| l.starts_with(&format!("| {title} |")))
                .unwrap();
            row.split('|')
                .nth(col)
                .unwrap()
                .trim()
                .trim_matches('*')
                .to_string()
        };
        assert_eq!(cell("Bandwidth (GiB/s)"), f[5], "{line}");
        assert_eq!(cell("IOPS"), thousands(f[6]), "{line}");
        assert_eq!(cell("Mean latency (ms)"), f[8], "{line}");
        assert_eq!(cell("CPU (%)"), f[9], "{line}");
    }
    assert!(md.contains("IOPS of linux-libaio and linux-io_uring are known to the nearest 1,000"));
    // Winners bold, ties all bold: randwrite 64k IOPS.
    let rw64 = md.split("### randwrite 64k\n").nth(1).unwrap();
    let iops = rw64.lines().find(|l| l.starts_with("| IOPS |")).unwrap();
    assert_eq!(
        iops,
        "| IOPS | 125,391 | **125,406** | **125,000** | **125,000** |"
    );
    assert!(md.contains("- windows-native has the best read bandwidth in 3 of 4 read workloads"));
}

#[test]
fn html_is_self_contained_and_escapes_input() {
    let mut cmp = golden::published();
    cmp.configs[0] = "<script>alert(1)</script>".into();
    cmp.skipped.push(crate::model::Skipped {
        source: "a&b.json".into(),
        reason: "<b>bad</b>".into(),
    });
    let opts = RenderOptions {
        charts: vec!["charts/bw.png".into()],
        ..RenderOptions::default()
    };
    let html = render(Format::Html, &opts, &cmp);
    assert!(!html.contains("<script>"));
    assert!(html.contains("&lt;script&gt;"));
    assert!(html.contains("a&amp;b.json"));
    assert!(!html.contains("<b>bad</b>"));
    assert!(
        html.contains("<img src=\"charts&#x2f;bw.png\"")
            || html.contains("<img src=\"charts/bw.png\"")
    );
    assert!(!html.contains("<link") && !html.contains("src=\"http"));
    assert!(html.contains("<td class=\"v best\">91.165"));
}

#[test]
fn user_template_replaces_the_builtin() {
    let opts = RenderOptions {
        template: Some("{% for c in configs %}{{ c }};{% endfor %}".into()),
        ..RenderOptions::default()
    };
    let out = render(Format::Md, &opts, &golden::published());
    assert_eq!(
        out,
        "windows-non-native;windows-native;linux-libaio;linux-io_uring;"
    );
}

#[test]
fn json_has_the_contract_shape() {
    let cmp = golden::published();
    let v: serde_json::Value =
        serde_json::from_str(&render(Format::Json, &RenderOptions::default(), &cmp)).unwrap();
    assert_eq!(v["configs"][1], "windows-native");
    let m = &v["workloads"][1]["metrics"][0];
    assert_eq!(v["workloads"][1]["rw"], "randread");
    assert_eq!(v["workloads"][1]["bs_bytes"], 65536);
    assert_eq!(m["metric"], "bw_bytes_per_s");
    assert_eq!(m["better"], "higher");
    assert_eq!(m["winner"], "windows-native");
    assert_eq!(m["values"]["windows-native"], 91.165 * crate::units::GIB);
    assert!(m["delta_pct"]["windows-non-native"].as_f64() == Some(0.0));
    let back: Comparison = serde_json::from_value(v).unwrap();
    assert_eq!(back, cmp);
}

#[test]
fn csv_and_term_carry_the_decisions() {
    let cmp = golden::published();
    let csv = render(Format::Csv, &RenderOptions::default(), &cmp);
    let metrics: usize = cmp.workloads.iter().map(|w| w.metrics.len()).sum();
    assert_eq!(csv.lines().count(), 1 + metrics * 4);
    assert!(csv.lines().any(|l| {
        l.starts_with("randread,65536,read,,bw_bytes_per_s,higher,windows-native,")
            && l.contains(",true,false,precision,")
    }));
    let term = render(Format::Term, &RenderOptions::default(), &cmp);
    assert!(term.contains("91.165 * (+22.7 %)"), "{term}");
    assert!(term.contains("125,000 ="));
    assert!(!term.contains('\u{1b}'));
}
