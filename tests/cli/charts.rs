//! Charts of `nvcmp analyze --out DIR` end to end: the files written under
//! DIR/charts/, their format and size, and the links in report.md.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::{PUBLISHED, analyze_out, assert_ok, stderr};

/// Runs `analyze PUBLISHED --out <tmp> <extra...>` and returns the folder.
fn analyze_ok(extra: &[&str]) -> tempfile::TempDir {
    analyze_fixture_out(PUBLISHED, extra)
}

/// Files under DIR/charts/, sorted; empty when the folder is absent.
fn chart_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir.join("charts")) {
        Ok(rd) => rd.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

/// Targets of the Markdown image links in report.md (`![..](target)`).
fn md_links(dir: &Path) -> Vec<String> {
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    md.split("![")
        .skip(1)
        .filter_map(|s| {
            let s = s.split_once("](")?.1;
            Some(s.split_once(')')?.0.to_string())
        })
        .collect()
}

/// report.html with the template engine's `&#x2f;` turned back into `/`.
fn read_html(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("report.html"))
        .unwrap()
        .replace("&#x2f;", "/")
}

fn stems(files: &[PathBuf]) -> BTreeSet<String> {
    files
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect()
}

/// report.md links exactly the chart files that exist, by their path
/// relative to DIR.
fn assert_links_match(dir: &Path, files: &[PathBuf]) {
    let links: BTreeSet<String> = md_links(dir).into_iter().collect();
    let on_disk: BTreeSet<String> = files
        .iter()
        .map(|p| {
            p.strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    assert_eq!(links, on_disk, "report.md links vs charts/");
    for l in &links {
        assert!(dir.join(l).is_file(), "{l} linked but missing");
    }
}

#[test]
fn png_charts_have_the_asked_size_and_are_drawn() {
    let dir = analyze_ok(&["--chart-size", "640x360"]);
    let files = chart_files(dir.path());
    assert!(files.len() >= 4, "too few charts: {files:?}");
    for f in &files {
        assert_eq!(f.extension().unwrap(), "png", "{}", f.display());
        let img = image::open(f)
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()))
            .to_rgb8();
        assert_eq!(img.dimensions(), (640, 360), "{}", f.display());
        // Drawn on: several colours, none covering nearly everything.
        let mut counts = std::collections::HashMap::new();
        for p in img.pixels() {
            *counts.entry(p.0).or_insert(0usize) += 1;
        }
        let total = (640 * 360) as usize;
        let top = counts.values().max().copied().unwrap();
        assert!(
            counts.len() >= 3 && top * 100 < total * 98,
            "{} looks blank: {} colours, the commonest on {}% of pixels",
            f.display(),
            counts.len(),
            top * 100 / total
        );
    }
    assert_links_match(dir.path(), &files);
    // report.html gets the same charts as SVG, whatever the files' format.
    let html = read_html(dir.path());
    assert_eq!(
        html.matches("<figure class=\"chart\"><svg ").count(),
        files.len()
    );
    assert!(!html.contains("data:image/png"));
}

#[test]
fn svg_charts_are_the_same_charts_as_png() {
    let svg = analyze_ok(&["--chart-format", "svg", "--chart-size", "800x450"]);
    let svg_files = chart_files(svg.path());
    assert!(!svg_files.is_empty());
    for f in &svg_files {
        assert_eq!(f.extension().unwrap(), "svg", "{}", f.display());
        let text = std::fs::read_to_string(f).unwrap();
        let head = text.trim_start();
        assert!(
            head.starts_with("<svg") || head.starts_with("<?xml"),
            "{} is not SVG",
            f.display()
        );
        assert!(
            text.contains("width=\"800\"") && text.contains("height=\"450\""),
            "{}: size not 800x450",
            f.display()
        );
        assert!(
            text.trim_end().ends_with("</svg>"),
            "{} cut short",
            f.display()
        );
        // Something drawn: text and shapes, not an empty canvas.
        assert!(text.contains("<text") && text.matches("<rect").count() > 1);
    }
    assert_links_match(svg.path(), &svg_files);
    let html = read_html(svg.path());
    assert_eq!(
        html.matches("<figure class=\"chart\"><svg ").count(),
        svg_files.len()
    );

    let png = analyze_ok(&["--chart-size", "480x320"]);
    assert_eq!(stems(&svg_files), stems(&chart_files(png.path())));
}

#[test]
fn no_charts_writes_none_and_links_none() {
    let dir = analyze_ok(&["--no-charts"]);
    assert_eq!(chart_files(dir.path()), Vec::<PathBuf>::new());
    assert_eq!(md_links(dir.path()), Vec::<String>::new());
    let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    assert!(!md.contains("## Charts"));
    let html = read_html(dir.path());
    assert!(!html.contains("data:image/") && !html.contains("<svg"));
    // The rest of --out is still written.
    for name in ["report.md", "report.html", "dataset.parquet", "dataset.csv"] {
        assert!(dir.path().join(name).is_file(), "{name}");
    }
}

#[test]
fn bad_chart_size_is_exit_2_naming_the_flag() {
    // Malformed, and outside what the charts accept (480x320 to 8000x8000).
    for bad in ["1600", "widexhigh", "0x900", "479x320", "8001x900"] {
        let (dir, o) = analyze_out(PUBLISHED, &["--chart-size", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(stderr(&o).contains("--chart-size"), "{}", stderr(&o));
        assert!(stderr(&o).contains(bad), "{}", stderr(&o));
        assert!(chart_files(dir.path()).is_empty(), "{bad}: charts written");
    }
}

/// Runs `analyze <fixture> --out <tmp> <extra...>` and returns the folder.
fn analyze_fixture_out(fixture_rel: &str, extra: &[&str]) -> tempfile::TempDir {
    let (dir, out) = analyze_out(fixture_rel, extra);
    assert_ok(&out);
    dir
}

#[test]
fn published_chart_list_is_unchanged() {
    let dir = analyze_ok(&["--chart-size", "480x320"]);
    let mut want = BTreeSet::new();
    for kind in ["bars", "delta"] {
        for d in ["read", "write"] {
            for m in ["bw", "iops", "lat_mean", "cpu"] {
                want.insert(format!("{kind}_{d}_{m}"));
            }
        }
    }
    want.insert("efficiency_read".into());
    want.insert("efficiency_write".into());
    assert_eq!(stems(&chart_files(dir.path())), want);
    // No load is swept; the block sizes at QD32 x 16 jobs (4k and 64k, too
    // few for a chart) are block-size sweeps, in sweeps.csv.
    let csv = std::fs::read_to_string(dir.path().join("sweeps.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 4 * 4 * 2, "{csv}");
    assert!(csv.lines().skip(1).all(|l| l.contains(",bs,")), "{csv}");
}

#[test]
fn a_grid_sweep_gets_its_charts_tables_and_csv() {
    let dir = analyze_fixture_out(
        "sweep/grid",
        &["--slo", "clat_p99=500us", "--chart-size", "800x450"],
    );
    let files = chart_files(dir.path());
    let got = stems(&files);
    for want in [
        "scaling_randread_4k_read",
        "iops_latency_randread_4k_read",
        "heatmap_randread_4k_read_io-uring",
        "heatmap_randread_4k_read_libaio",
        "percentiles_randread_4k_read_qd16x2",
    ] {
        assert!(got.contains(want), "{want} missing from {got:?}");
    }
    for f in files.iter().filter(|f| {
        let n = f.file_name().unwrap().to_string_lossy();
        n.starts_with("scaling_") || n.starts_with("iops_latency_") || n.starts_with("heatmap_")
    }) {
        let img = image::open(f).unwrap().to_rgb8();
        assert_eq!(img.dimensions(), (800, 450), "{}", f.display());
    }
    assert_links_match(dir.path(), &files);
    let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    assert!(md.contains("### randread 4k: queue depth and numjobs sweep"));
    assert!(
        !md.contains("### randread 4k at QD"),
        "per-point tables of a sweep"
    );
    let csv = std::fs::read_to_string(dir.path().join("sweeps.csv")).unwrap();
    // 6 load points x 2 configs, and the header.
    assert_eq!(csv.lines().count(), 13);
}

#[test]
fn a_depth_sweep_gets_no_heatmap_and_svg_works() {
    let dir = analyze_fixture_out(
        "sweep/synthetic",
        &["--chart-format", "svg", "--chart-size", "800x450"],
    );
    let got = stems(&chart_files(dir.path()));
    assert!(got.contains("scaling_randread_4k_read"));
    assert!(got.contains("iops_latency_randread_4k_read"));
    assert!(!got.iter().any(|s| s.starts_with("heatmap_")), "{got:?}");
    let svg = std::fs::read_to_string(dir.path().join("charts/iops_latency_randread_4k_read.svg"))
        .unwrap();
    assert!(svg.contains("width=\"800\"") && svg.contains("knee"));
}
