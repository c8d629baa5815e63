//! Chart tests on comparisons built from real data: the published
//! StorageReview table and real fio json+ runs, compared by `compare`
//! itself, so the charts are checked against the winners and ties the
//! comparison decided, never a rule re-derived here.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::groups::{self, key_loads, max_value, series};
use super::labels::workload_label;
use super::notes::{excluded_notes, without_paths};
use super::*;
use crate::compare::{Comparison, Metric, Workload};
use crate::model::Direction;
use crate::render::tests::fixture_comparison;

/// The published table as a comparison (4 configs x 8 workloads), made
/// by the comparison itself from the one copy of the figures.
pub(crate) fn published() -> Comparison {
    crate::compare::testdata::published()
}

/// The published table with every label passed through `rename`.
fn published_with(rename: impl Fn(&str) -> String) -> Comparison {
    crate::compare::testdata::published_renamed(rename)
}

/// Real fio json+ runs (one per engine) as a one-workload comparison with
/// percentiles and latency bins.
pub(crate) fn fio_jsonplus() -> Comparison {
    fio_runs(&[
        ("psync", include_str!("testdata/fio-jsonplus/psync.json")),
        ("libaio", include_str!("testdata/fio-jsonplus/libaio.json")),
        (
            "io_uring",
            include_str!("testdata/fio-jsonplus/io_uring.json"),
        ),
        ("mmap", include_str!("testdata/fio-jsonplus/mmap.json")),
    ])
}

/// (label, fio json+ text) runs of randread 4k, read and compared as
/// `analyze` would, against psync.
fn fio_runs(runs: &[(&str, &str)]) -> Comparison {
    let mut rows = Vec::new();
    for &(name, text) in runs {
        let doc = crate::ingest::fio_json::parse(text).unwrap();
        for mut r in crate::ingest::fio_json::to_parsed(&doc).rows {
            r.config = name.to_string();
            r.source = format!("{name}/randread.json");
            rows.push(r);
        }
    }
    let opts = crate::compare::CompareOptions {
        order: runs.iter().map(|r| r.0.to_string()).collect(),
        baseline: Some("psync".into()),
        ..Default::default()
    };
    crate::compare::compare(&rows, &opts)
}

fn names(paths: &[std::path::PathBuf]) -> Vec<String> {
    paths
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

/// The file among `paths` whose name is `name`.
fn named<'a>(paths: &'a [PathBuf], name: &str) -> &'a PathBuf {
    paths
        .iter()
        .find(|p| p.ends_with(name))
        .unwrap_or_else(|| panic!("no {name} among {paths:?}"))
}

/// The text of the file among `paths` named `name` (an SVG).
fn text_of(paths: &[PathBuf], name: &str) -> String {
    std::fs::read_to_string(named(paths, name)).unwrap()
}

/// `opts`, drawing SVG.
fn svg(opts: ChartOptions) -> ChartOptions {
    ChartOptions {
        format: ChartFormat::Svg,
        ..opts
    }
}

/// Decodes a PNG and checks size and that it is a real chart: many
/// distinct colours, and a fair share of non-white pixels.
fn check_png(path: &Path, w: u32, h: u32) -> image::RgbaImage {
    let img = image::open(path)
        .unwrap_or_else(|e| panic!("{} does not decode: {e}", path.display()))
        .to_rgba8();
    assert_eq!(img.dimensions(), (w, h), "{}", path.display());
    // Distinct colours, counted until there are enough: a sort of every
    // pixel of every chart was most of the chart tests' time.
    let mut colors = std::collections::HashSet::new();
    for p in img.pixels() {
        colors.insert(u32::from_le_bytes(p.0));
        if colors.len() > 50 {
            break;
        }
    }
    assert!(
        colors.len() > 50,
        "{}: only {} colours",
        path.display(),
        colors.len()
    );
    let inked = img.pixels().filter(|p| p.0 != [255, 255, 255, 255]).count();
    let share = inked as f64 / (w * h) as f64;
    assert!(
        share > 0.03,
        "{}: only {:.1} % non-white",
        path.display(),
        share * 100.0
    );
    img
}

#[test]
fn published_comparison_gives_the_expected_charts() {
    let dir = tempfile::tempdir().unwrap();
    let opts = ChartOptions::default();
    let paths = render_all(&published(), dir.path(), &opts).unwrap();
    let mut expected = Vec::new();
    for kind in ["bars", "delta"] {
        for dir in ["read", "write"] {
            for m in ["bw", "iops", "lat_mean", "cpu"] {
                expected.push(format!("{kind}_{dir}_{m}.png"));
            }
        }
    }
    expected.push("efficiency_read.png".into());
    expected.push("efficiency_write.png".into());
    let mut got = names(&paths);
    got.sort();
    expected.sort();
    assert_eq!(got, expected);
    for p in &paths {
        assert_eq!(p.parent().unwrap(), dir.path().join("charts"));
        check_png(p, 1600, 900);
    }
}

#[test]
fn bar_colours_are_the_configs_colours() {
    // Each config's Okabe-Ito colour fills many pixels of a bar chart.
    let dir = tempfile::tempdir().unwrap();
    let paths = render_all(&published(), dir.path(), &ChartOptions::default()).unwrap();
    let bw = named(&paths, "bars_read_bw.png");
    let img = check_png(bw, 1600, 900);
    for i in 0..4 {
        let c = palette::color(i);
        let n = img.pixels().filter(|p| p.0 == [c.0, c.1, c.2, 255]).count();
        assert!(n > 5_000, "colour {i} fills only {n} pixels");
    }
}

#[test]
fn fio_jsonplus_gives_percentile_and_distribution_charts() {
    let dir = tempfile::tempdir().unwrap();
    let opts = ChartOptions {
        width: 1200,
        height: 700,
        ..ChartOptions::default()
    };
    let paths = render_all(&fio_jsonplus(), dir.path(), &opts).unwrap();
    let got = names(&paths);
    // psync and mmap ran at QD1, libaio and io_uring at QD8: two load
    // points, each with its own distribution charts.
    for want in [
        "percentiles_randread_4k_read_qd1.png",
        "percentiles_randread_4k_read_qd8.png",
        "latency_cdf_randread_4k_read_qd1.png",
        "bars_read_lat_mean.png",
        "delta_read_iops.png",
    ] {
        assert!(
            got.contains(&want.to_string()),
            "{want} missing from {got:?}"
        );
    }
    // fio's per-job CPU gives the comparison IOPS per CPU percent.
    assert!(got.contains(&"efficiency_read.png".to_string()), "{got:?}");
    for p in &paths {
        check_png(p, 1200, 700);
    }
}

#[test]
fn same_input_gives_identical_bytes() {
    for format in [ChartFormat::Png, ChartFormat::Svg] {
        let opts = ChartOptions {
            format,
            ..ChartOptions::default()
        };
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let pa = render_all(&fio_jsonplus(), a.path(), &opts).unwrap();
        let pb = render_all(&fio_jsonplus(), b.path(), &opts).unwrap();
        assert_eq!(names(&pa), names(&pb));
        for (x, y) in pa.iter().zip(&pb) {
            assert_eq!(
                std::fs::read(x).unwrap(),
                std::fs::read(y).unwrap(),
                "{}",
                x.display()
            );
        }
    }
}

#[test]
fn hostile_labels_stay_text() {
    let hostile = |c: &str| match c {
        "windows-non-native" => "../../etc/passwd".to_string(),
        "windows-native" => "<script>alert(1)</script>".to_string(),
        "linux-libaio" => "a/b\\c".to_string(),
        _ => {
            format!("{c} with a very long label that would never fit on any axis or legend at all")
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let mut cmp = published_with(hostile);
    // Hostile rw names, too: they reach file names only slugged.
    cmp.workloads[0].key.shape.rw = "../../x<script>".into();
    cmp.workloads[1].key.shape.rw = "/".into();
    cmp.workloads[0].percentiles = fio_jsonplus().workloads[0]
        .percentiles
        .values()
        .zip(&cmp.configs)
        .map(|(p, c)| (c.clone(), p.clone()))
        .collect();
    let svg = svg(ChartOptions::default());
    for opts in [ChartOptions::default(), svg] {
        let paths = render_all(&cmp, dir.path(), &opts).unwrap();
        for p in &paths {
            assert_eq!(
                p.parent().unwrap(),
                dir.path().join("charts"),
                "{}",
                p.display()
            );
            let name = p.file_stem().unwrap().to_str().unwrap();
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-'),
                "{name}"
            );
            if opts.format == ChartFormat::Svg {
                let text = std::fs::read_to_string(p).unwrap();
                assert!(!text.contains("<script"), "{}", p.display());
            }
        }
        assert!(names(&paths).contains(&format!(
            "percentiles_x-script_4k_read.{}",
            opts.format.extension()
        )));
    }
    // Nothing escaped the chart folder.
    let top: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(top, ["charts"]);
}

#[test]
fn svg_carries_the_values_and_the_labels_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let opts = svg(ChartOptions::default());
    let paths = render_all(&published(), dir.path(), &opts).unwrap();
    let bw = named(&paths, "bars_read_bw.svg");
    let text = std::fs::read_to_string(bw).unwrap();
    // randread 4k: windows-native is best at 10.058 GiB/s; the others plain.
    assert!(text.contains("★ 10.058"), "winner not marked");
    for v in ["6.100", "9.198", "9.504", "97.050", "92.562"] {
        assert!(text.contains(v), "{v} missing");
    }
    for c in [
        "windows-non-native",
        "windows-native",
        "linux-libaio",
        "linux-io_uring",
        "randread 4k",
        "read 128k",
    ] {
        assert!(text.contains(c), "{c} missing");
    }
    let iops = text_of(&paths, "bars_read_iops.svg");
    assert!(iops.contains("IOPS of linux-libaio, linux-io_uring known only to the nearest 1,000."));
    // Bandwidth is printed to 0.001 GiB/s, the precision it is known to: no note.
    assert!(!text.contains("known only"));
    // randwrite 64k: all four tie on bandwidth (0.05 % apart) and IOPS
    // carry that verdict, as the comparison decides; read 128k's
    // bandwidth has a winner, 97.050 over 97.000 GiB/s.
    let chart = |name: &str| text_of(&paths, name);
    let cmp = published();
    let w = cmp
        .workloads
        .iter()
        .find(|w| w.key.shape.rw == "randwrite" && w.key.shape.bs_bytes == 65536)
        .unwrap();
    assert_eq!(w.metric(Metric::Iops).unwrap().tied.len(), 4);
    assert_eq!(
        chart("bars_write_iops.svg").matches("☆ 125,").count(),
        4,
        "ties not marked"
    );
    assert_eq!(chart("bars_write_bw.svg").matches("☆ 7.65").count(), 4);
    assert!(
        chart("bars_read_bw.svg").contains("★ 97.050"),
        "winner not marked"
    );
}

#[test]
fn sizes_outside_the_range_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let opts = ChartOptions {
        width: 10,
        height: 10,
        ..ChartOptions::default()
    };
    let err = render_all(&published(), dir.path(), &opts).unwrap_err();
    assert!(err.to_string().contains("--chart-size"), "{err}");
}

/// Writes the test comparisons' charts to `$NVCMP_CHART_LOOK` for a
/// person to look at: `NVCMP_CHART_LOOK=/tmp/look cargo test --lib
/// charts::tests::look -- --ignored`.
#[test]
#[ignore]
fn look() {
    let dir = std::path::PathBuf::from(std::env::var("NVCMP_CHART_LOOK").unwrap());
    let hostile = |c: &str| match c {
        "windows-native" => "<script>alert(1)</script>".to_string(),
        "linux-io_uring" => {
            format!("../{c} with a very long label that would never fit on any axis")
        }
        _ => c.to_string(),
    };
    let mut sets = vec![
        ("published", published()),
        ("jsonplus", fio_jsonplus()),
        ("hostile", published_with(hostile)),
        ("many", many_configs()),
        (
            "sweep-synthetic",
            fixture_comparison("sweep/synthetic", Some("clat_p99=500us")),
        ),
        (
            "sweep-iodepth",
            fixture_comparison("sweep/iodepth", Some("clat_p99=500us")),
        ),
        (
            "sweep-grid",
            fixture_comparison("sweep/grid", Some("clat_p99=500us")),
        ),
        ("sweep-all", fixture_comparison("sweep", None)),
        ("blocksize", fixture_comparison("blocksize", None)),
    ];
    // Optional: `$NVCMP_CHART_FIO/<label>/randread-1-1.json` runs, the
    // layout fio-plot reads, to draw the same results both tools see.
    if let Ok(fio) = std::env::var("NVCMP_CHART_FIO") {
        let texts: Vec<(String, String)> = ["psync", "libaio", "io_uring", "mmap"]
            .iter()
            .map(|l| {
                let p = Path::new(&fio).join(l).join("randread-1-1.json");
                (l.to_string(), std::fs::read_to_string(p).unwrap())
            })
            .collect();
        let runs: Vec<(&str, &str)> = texts
            .iter()
            .map(|(l, t)| (l.as_str(), t.as_str()))
            .collect();
        sets.push(("fio-plot-runs", fio_runs(&runs)));
    }
    for (name, cmp) in sets {
        for format in [ChartFormat::Png, ChartFormat::Svg] {
            let opts = ChartOptions {
                format,
                ..ChartOptions::default()
            };
            render_all(&cmp, &dir.join(name), &opts).unwrap();
        }
    }
}

/// The test comparisons as JSON (the `analyze --format json` shape), for
/// benches/charts.rs and for anyone who wants to draw them. Regenerate with
/// `NVCMP_REGEN=1 cargo test --lib charts::tests::comparison_json`.
#[test]
fn comparison_json_files_are_current() {
    for (file, cmp) in [
        ("published-comparison.json", published()),
        ("fio-jsonplus-comparison.json", fio_jsonplus()),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src/charts/testdata")
            .join(file);
        let json = serde_json::to_string_pretty(&cmp).unwrap() + "\n";
        if std::env::var_os("NVCMP_REGEN").is_some() {
            std::fs::write(&path, &json).unwrap();
        }
        let stored = std::fs::read_to_string(&path).unwrap();
        let back: Comparison = serde_json::from_str(&stored).unwrap();
        assert_eq!(back, cmp, "{} is stale: regenerate it", path.display());
    }
}

#[test]
fn many_bars_shrink_or_drop_their_values() {
    // 8 configs x 24 workloads at a small size: the bars are a few pixels
    // wide; the chart must still render, values left out rather than
    // overlapping.
    let cmp = many_configs();
    let dir = tempfile::tempdir().unwrap();
    let opts = ChartOptions {
        width: 800,
        height: 450,
        ..ChartOptions::default()
    };
    let svg = svg(opts);
    let paths = render_all(&cmp, dir.path(), &svg).unwrap();
    let text = text_of(&paths, "bars_read_iops.svg");
    assert!(text.contains("Too many bars to print values"));
    // Not drawn; only the tooltips (the hover targets after it) keep it.
    let (drawn, targets) = text.split_once("<g class=\"hotspots\">").unwrap();
    assert!(!drawn.contains("2,636,516"));
    assert!(targets.contains("2,636,516 IOPS"));
    let paths = render_all(&cmp, dir.path(), &opts).unwrap();
    check_png(named(&paths, "bars_read_iops.png"), 800, 450);
}

#[test]
fn workload_notes_reach_the_bar_charts() {
    let mut cmp = published();
    cmp.workloads[0]
        .notes
        .push("iodepth differs: 32 vs 64".into());
    for i in 1..4 {
        cmp.workloads[i].notes.push(format!("note {i}"));
    }
    let dir = tempfile::tempdir().unwrap();
    let opts = svg(ChartOptions::default());
    let paths = render_all(&cmp, dir.path(), &opts).unwrap();
    let text = text_of(&paths, "bars_read_bw.svg");
    assert!(text.contains("randread 4k: iodepth differs: 32 vs 64"));
    assert!(text.contains("1 more note in the report."));
    assert!(!text.contains("note 3"));
    let write = text_of(&paths, "bars_write_bw.svg");
    assert!(!write.contains("iodepth differs"));
}

/// The published table with four more configs and three block sizes per
/// workload: 8 configs x 24 workloads.
fn many_configs() -> Comparison {
    let mut cmp = published();
    let extra: Vec<String> = (0..4).map(|i| format!("extra-{i}")).collect();
    cmp.configs.extend(extra.iter().cloned());
    let base = cmp.workloads.clone();
    for k in 1..3 {
        cmp.workloads.extend(base.iter().cloned().map(|mut w| {
            w.key.shape.bs_bytes *= 1 << (k * 4);
            w
        }));
    }
    for w in &mut cmp.workloads {
        for m in &mut w.metrics {
            let v = m.values[0];
            for e in &extra {
                m.values.insert(e.clone(), v);
                m.precision.insert(e.clone(), 1.0);
            }
        }
    }
    cmp
}

/// Pixels of `img` that are `c` mixed with white (a heatmap cell's tint),
/// at least a third of the way to `c`.
fn tinted(img: &image::RgbaImage, c: plotters::style::RGBColor) -> usize {
    let toward = |white: f64, full: u8, t: f64| white - (white - f64::from(full)) * t;
    img.pixels()
        .filter(|p| {
            let [r, g, b, _] = p.0;
            let t = [(r, c.0), (g, c.1), (b, c.2)]
                .iter()
                .filter(|(_, full)| *full < 200)
                .map(|(v, full)| (255.0 - f64::from(*v)) / (255.0 - f64::from(*full)))
                .next()
                .unwrap_or(0.0);
            t > 0.33
                && [(r, c.0), (g, c.1), (b, c.2)]
                    .iter()
                    .all(|(v, full)| (f64::from(*v) - toward(255.0, *full, t)).abs() <= 3.0)
        })
        .count()
}

/// Pixels of `img` in exactly `c`.
fn pixels_of(img: &image::RgbaImage, c: plotters::style::RGBColor) -> usize {
    img.pixels().filter(|p| p.0 == [c.0, c.1, c.2, 255]).count()
}

#[test]
fn a_depth_sweep_gets_scaling_and_saturation_charts_but_no_heatmap() {
    let cmp = fixture_comparison("sweep/synthetic", Some("clat_p99=500us"));
    let dir = tempfile::tempdir().unwrap();
    let paths = render_all(&cmp, dir.path(), &ChartOptions::default()).unwrap();
    let got = names(&paths);
    for want in [
        "scaling_randread_4k_read.png",
        "iops_latency_randread_4k_read.png",
        "percentiles_randread_4k_read_qd16.png",
    ] {
        assert!(
            got.contains(&want.to_string()),
            "{want} missing from {got:?}"
        );
    }
    assert!(
        !got.iter()
            .any(|n| n.starts_with("heatmap_") || n.starts_with("bs_")),
        "{got:?}"
    );
    for stem in ["scaling_", "iops_latency_"] {
        let p = paths
            .iter()
            .find(|p| names(&[(*p).clone()])[0].starts_with(stem))
            .unwrap();
        let img = check_png(p, 1600, 900);
        // Each config's line in its own colour.
        for i in 0..cmp.configs.len() {
            let n = pixels_of(&img, palette::color(i));
            assert!(
                n > 1_000,
                "{stem}: colour of {} on {n} pixels",
                cmp.configs[i]
            );
        }
    }
}

#[test]
fn saturation_svg_names_the_knee_and_the_target() {
    let cmp = fixture_comparison("sweep/synthetic", Some("clat_p99=500us"));
    let dir = tempfile::tempdir().unwrap();
    let opts = svg(ChartOptions::default());
    let paths = render_all(&cmp, dir.path(), &opts).unwrap();
    let read = |name: &str| text_of(&paths, name);
    let svg = read("iops_latency_randread_4k_read.svg");
    // Both configs saturate at QD16 (fixtures/sweep/synthetic/EXPECTED.md).
    assert_eq!(svg.matches("QD16 knee").count(), 2, "{svg}");
    assert!(svg.contains("target: p99 ≤ 500 µs"));
    // SVG text sits on its own line between the tags.
    assert!(svg.contains("\nQD1\n") && svg.contains("\nQD128\n"));
    let scaling = read("scaling_randread_4k_read.svg");
    assert!(scaling.contains("Queue depth (iodepth, log2 scale)"));
    // A log latency axis's ticks carry the report's one unit (500 µs,
    // 1,000 µs), never two (#54).
    assert!(scaling.contains("Latency (log scale)"));
    assert!(
        scaling.contains("\n1,000 µs\n") && !scaling.contains(" ms\n"),
        "{scaling}"
    );
    for tick in ["\n1\n", "\n2\n", "\n128\n"] {
        assert!(scaling.contains(tick), "{tick}");
    }
}

#[test]
fn a_grid_sweep_gets_a_heatmap_per_config() {
    let cmp = fixture_comparison("sweep/grid", None);
    let dir = tempfile::tempdir().unwrap();
    let opts = ChartOptions {
        width: 1200,
        height: 700,
        ..ChartOptions::default()
    };
    let paths = render_all(&cmp, dir.path(), &opts).unwrap();
    let got = names(&paths);
    let heatmaps: Vec<&String> = got.iter().filter(|n| n.starts_with("heatmap_")).collect();
    assert_eq!(
        heatmaps,
        [
            "heatmap_randread_4k_read_io-uring.png",
            "heatmap_randread_4k_read_libaio.png"
        ]
    );
    for (i, name) in heatmaps.iter().enumerate() {
        let p = paths.iter().find(|p| p.ends_with(name.as_str())).unwrap();
        let img = check_png(p, 1200, 700);
        // The cells are tints of the config's colour, and of no other's.
        assert!(tinted(&img, palette::color(i)) > 100_000, "{name}");
        assert!(tinted(&img, palette::color(1 - i)) < 10_000, "{name}");
    }
    // Every measured cell's value is printed.
    let svg = svg(opts);
    let paths = render_all(&cmp, dir.path(), &svg).unwrap();
    let text = text_of(&paths, "heatmap_randread_4k_read_libaio.svg");
    let libaio = cmp.sweeps.iter().find(|s| s.config == "libaio").unwrap();
    assert_eq!(libaio.points.len(), 6);
    for p in &libaio.points {
        let v = crate::numbers::fixed(p.iops, 0);
        assert!(text.contains(&v), "{v} missing");
    }
    assert!(text.contains("\npeak\n"));
}

#[test]
fn block_sizes_of_one_rw_get_a_chart() {
    let cmp = fixture_comparison("blocksize", None);
    let dir = tempfile::tempdir().unwrap();
    let paths = render_all(&cmp, dir.path(), &ChartOptions::default()).unwrap();
    let got = names(&paths);
    assert!(got.contains(&"bs_randread.png".to_string()), "{got:?}");
    assert!(!got.iter().any(|n| n.starts_with("scaling_")), "{got:?}");
    let p = named(&paths, "bs_randread.png");
    let img = check_png(p, 1600, 900);
    for i in 0..2 {
        assert!(pixels_of(&img, palette::color(i)) > 1_000);
    }
    // Two block sizes per rw (the published table) draw no such chart.
    let cmp = published();
    assert!(plan(&cmp).iter().all(|c| !c.stem(&cmp).starts_with("bs_")));
}

#[test]
fn bars_of_a_sweep_name_their_load_point() {
    let mut cmp = published_with(|s| s.to_string());
    let (labels, _) = groups::results(&cmp, Direction::Read, Metric::Iops);
    assert!(labels.iter().all(|l| !l.contains("QD")), "{labels:?}");
    // The same workload at a second depth: every bar now names its load.
    let mut deeper = cmp.workloads[0].clone();
    deeper.key.load.iodepth *= 2;
    cmp.workloads.push(deeper);
    let (labels, _) = groups::results(&cmp, cmp.workloads[0].key.shape.direction, Metric::Iops);
    let distinct: BTreeSet<&String> = labels.iter().collect();
    assert_eq!(distinct.len(), labels.len(), "{labels:?}");
    // Several shapes: the shape over the load, on two lines, never cut.
    assert!(labels.iter().all(|l| l.contains("\nQD")), "{labels:?}");
    assert!(
        labels.contains(&"randread 4k\nQD64 x 16 jobs".to_string()),
        "{labels:?}"
    );
}

#[test]
fn bars_of_a_sweep_show_its_key_load_points_named_by_load() {
    let cmp = fixture_comparison("saturation", None);
    let t = &crate::render::sweeps::tables(&cmp)[0];
    let keys: Vec<String> = key_loads(t).iter().map(|l| l.label()).collect();
    // The lightest point, then each config's knee, saturation and peak
    // as the comparison placed them, once each, in load order.
    let mut want = vec![t.workloads[0].key.load];
    for s in &t.sweeps {
        want.extend(s.knee.map(|k| k.load));
        want.extend(s.saturation.map(|x| x.load));
        want.push(s.peak.load);
    }
    want.sort_by_key(|l| (l.outstanding(), *l));
    want.dedup();
    let want: Vec<String> = want.iter().map(|l| l.label()).collect();
    assert_eq!(keys, want);
    assert!(keys.len() < t.workloads.len(), "{keys:?}");
    let (labels, _) = groups::results(&cmp, Direction::Read, Metric::Iops);
    assert_eq!(labels, keys, "one shape: bars are named by their load");
    assert_eq!(
        groups::subject(&cmp, Direction::Read).as_deref(),
        Some("randread 4k")
    );
    let svg = svg_named(&cmp, "bars_read_iops");
    assert!(
        svg.contains("Read IOPS: randread 4k"),
        "the title names the shape"
    );
    assert!(!svg.contains('…'), "no label is cut");
}

#[test]
fn the_load_axis_is_drawn_as_the_sweep_varies_it() {
    // numjobs 1-8 at QD4: drawn against numjobs, 1 ... 8, linear.
    let cmp = fixture_comparison("saturation", None);
    let (x, ticks, log) = load::load_axis(&load::table(&cmp, 0));
    assert!(!log && matches!(x, lines::Range::Linear(..)));
    assert!(ticks.iter().any(|(v, _)| *v == 3.0), "{ticks:?}");
    let svg = svg_named(&cmp, "scaling_randread_4k_read");
    assert!(
        svg.contains("Jobs (numjobs; each job at QD4)"),
        "linear, no log2 in the title"
    );
    assert!(svg.contains("Saturation (square)"));
    // Queue depths 1, 2, 4 ... 32: log2.
    let cmp = fixture_comparison("sweep/iodepth", None);
    let (x, ticks, log) = load::load_axis(&load::table(&cmp, 0));
    assert!(log && matches!(x, lines::Range::Log(..)));
    let at: Vec<f64> = ticks.iter().map(|(v, _)| *v).collect();
    assert_eq!(at, [1.0, 2.0, 4.0, 8.0, 16.0, 32.0]);
    let svg = svg_named(&cmp, "scaling_randread_4k_read");
    assert!(svg.contains("Queue depth (iodepth, log2 scale)"));
    // One job at QD8 over 1, 2 and 3 devices: the device count, linear
    // (its I/Os in flight x devices, 8, 16, 24, once read as doubling).
    let cmp = fixture_comparison("configs/devices", None);
    let (x, ticks, log) = load::load_axis(&load::table(&cmp, 0));
    assert!(!log && matches!(x, lines::Range::Linear(..)));
    let at: Vec<f64> = ticks.iter().map(|(v, _)| *v).collect();
    assert_eq!(at, [1.0, 2.0, 3.0]);
    let svg = svg_named(&cmp, "scaling_randread_4k_read");
    assert!(svg.contains("Devices per job (each job at QD8)"));
    assert!(!svg.contains("I/Os in flight"));
    // 1, 2, 3, 5, 9, 17 fio instances double from 1 + 1: log2, ticked
    // where they were measured, not at the powers of two between them.
    let cmp = fixture_comparison("studies/icpe24-instances-8ssd", None);
    let t = load::table(&cmp, 0);
    let (x, ticks, log) = load::load_axis(&t);
    assert!(log && matches!(x, lines::Range::Log(..)));
    let mut want: Vec<f64> = t
        .sweeps
        .iter()
        .flat_map(|s| s.points.iter().map(|p| f64::from(p.load.instances)))
        .collect();
    want.sort_by(f64::total_cmp);
    want.dedup();
    let at: Vec<f64> = ticks.iter().map(|(v, _)| *v).collect();
    assert_eq!(at, want);
    assert!(at.iter().any(|v| v.log2().fract() != 0.0), "{at:?}");
    let labels: Vec<&str> = ticks.iter().map(|(_, l)| l.as_str()).collect();
    assert!(
        labels.contains(&"3") && !labels.contains(&"4"),
        "{labels:?}"
    );
}

#[test]
fn an_instances_axis_says_when_other_workloads_ran_beside() {
    // ICPE'24: a QD1 latency probe beside 1-16 QD128 apps; the axis
    // counts the apps, like for like, and names the probe beside them.
    let cmp = fixture_comparison("studies/icpe24-instances-8ssd", None);
    let svg = svg_named(&cmp, "scaling_randread_4k_read_qd128x8d");
    assert!(
        svg.contains("Apps running together (fio instances, each at QD128 x 8 devices, log2 scale), a latency probe beside them"),
        "the title says the probe ran beside"
    );
    // The same kind of run without the probe: each instance ran QD16.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/configs/instances");
    let apps: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("app-"))
        .collect();
    assert_eq!(apps.len(), 7);
    let ingested = crate::ingest::ingest(&apps, &Default::default()).unwrap();
    let cmp = crate::compare::compare(&ingested.rows, &Default::default());
    let svg = svg_named(&cmp, "scaling_randread_4k_read_qd16");
    assert!(
        svg.contains("fio instances running together (each at QD16"),
        "each instance ran the workload drawn"
    );
}

#[test]
fn a_block_size_chart_marks_each_configs_knee_and_saturation() {
    let cmp = fixture_comparison("configs/blocksize", None);
    let svg = svg_named(&cmp, "bs_randread");
    // Every config has a saturation point here; the rules say so once.
    assert!(cmp.bs_sweeps.iter().all(|s| s.saturation.is_some()));
    assert!(svg.contains("Saturation (square): the smallest block size"));
    let knees = cmp.bs_sweeps.iter().any(|s| s.knee.is_some());
    assert_eq!(svg.contains("Knee (ringed)"), knees);
}

#[test]
fn excluded_values_are_not_drawn_and_their_reason_is_a_footnote() {
    let mut cmp = published();
    let why = "completion latency not measured from submission (sqthread_poll=1)";
    let lat = cmp.workloads[0]
        .metrics
        .iter_mut()
        .find(|m| m.metric == Metric::LatMeanNs)
        .unwrap();
    // An absurd value that would set the scale if it were drawn.
    lat.values.insert("linux-libaio".into(), Some(17_113e9));
    lat.excluded.insert("linux-libaio".into(), why.into());
    let (labels, results) = groups::results(&cmp, Direction::Read, Metric::LatMeanNs);
    let drawn = series(&cmp, &results);
    let libaio = drawn.iter().find(|s| s.name == "linux-libaio").unwrap();
    assert_eq!(libaio.values[0], None);
    assert!(
        max_value(&results) < 1e7,
        "the excluded value sets no scale"
    );
    let notes = excluded_notes("Mean latency", &labels, &results);
    assert_eq!(
        notes,
        [format!(
            "Mean latency of linux-libaio not drawn (randread 4k): {why}."
        )]
    );
    let svg = svg_named(&cmp, "bars_read_lat_mean");
    assert!(svg.contains("not drawn (randread 4k)"));
}

#[test]
fn chart_notes_name_no_file() {
    assert_eq!(
        without_paths("x: mean total latency is below clat (fixtures/v/io_uring/qd1.json)"),
        "x: mean total latency is below clat"
    );
    assert_eq!(
        without_paths("ran at QD1 (psync) only"),
        "ran at QD1 (psync) only"
    );
    assert_eq!(without_paths("a (C:\\runs\\x.json) b"), "a b");
}

/// The SVG of the planned chart whose file stem is `stem`, with its
/// hover targets.
fn svg_named(cmp: &Comparison, stem: &str) -> String {
    let planned = plan(cmp);
    let at = names::distinct(planned.iter().map(|c| c.stem(cmp)).collect())
        .unwrap()
        .iter()
        .position(|s| s == stem)
        .unwrap_or_else(|| panic!("no chart {stem}"));
    svg_all(cmp, &ChartOptions::default())
        .unwrap()
        .swap_remove(at)
}

#[test]
fn every_bar_is_a_hover_target_with_its_value() {
    let cmp = published();
    let svg = svg_named(&cmp, "bars_read_iops");
    let read: Vec<&Workload> = cmp
        .workloads
        .iter()
        .filter(|w| w.key.shape.direction == Direction::Read)
        .collect();
    for c in &cmp.configs {
        // A bar per read workload, and the legend entry.
        let targets = svg.matches(&format!("data-config=\"{c}\"")).count();
        assert_eq!(targets, read.len() + 1, "{c}");
        for w in &read {
            let r = w.metric(Metric::Iops).unwrap();
            let v = r.values[c].unwrap();
            let mark = if r.winner.as_deref() == Some(c.as_str()) {
                " (best)"
            } else if r.tied.contains(c) {
                " (tied for best)"
            } else {
                ""
            };
            let title = format!(
                "<title>{c} · {}: {} IOPS{mark}</title>",
                workload_label(w),
                crate::numbers::fixed(v, 0)
            );
            assert!(svg.contains(&title), "{title} missing");
        }
    }
    // The targets come last, over everything drawn.
    assert!(svg.trim_end().ends_with("</g>\n</svg>"));
}

#[test]
fn line_points_and_heat_cells_are_hover_targets_of_their_config() {
    let cmp = fixture_comparison("sweep/synthetic", Some("clat_p99=500us"));
    let svg = svg_named(&cmp, "scaling_randread_4k_read");
    for c in &cmp.configs {
        let line = format!("<polyline class=\"hs\" data-config=\"{c}\"");
        assert!(svg.contains(&line), "{c}: no line target");
        let dot = format!("<title>{c} · ");
        assert!(svg.matches(&dot).count() >= 2, "{c}: no point targets");
    }
    let cmp = fixture_comparison("sweep/grid", None);
    let stem = names::distinct(plan(&cmp).iter().map(|c| c.stem(&cmp)).collect())
        .unwrap()
        .into_iter()
        .find(|s| s.starts_with("heatmap_"))
        .unwrap();
    let svg = svg_named(&cmp, &stem);
    let cells = svg.matches("<rect class=\"hs\" data-config=").count();
    assert!(cells >= 4, "{cells} heat cells with a config");
    assert!(
        svg.contains(" IOPS, mean latency "),
        "cell values without unit"
    );
}

#[test]
fn excluded_completion_latency_draws_no_percentiles_or_distribution() {
    let mut cmp = fio_jsonplus();
    let why = "completion latency not measured from submission (sqthread_poll=1)";
    let p99 = cmp.workloads[0]
        .metrics
        .iter_mut()
        .find(|m| m.metric == Metric::ClatP99Ns)
        .unwrap();
    p99.excluded.insert("mmap".into(), why.into());
    let before = fio_jsonplus();
    let charts: [Chart; 2] = [
        Box::new(percentiles::PercentilesChart { workload: 0 }),
        Box::new(cdf::Cdf { workload: 0 }),
    ];
    for chart in charts {
        let stem = chart.stem(&cmp);
        let names = |c: &Comparison| -> Vec<String> {
            chart
                .figure(c)
                .frame
                .legend
                .into_iter()
                .map(|(n, _)| n)
                .collect()
        };
        let mut want = names(&before);
        assert!(want.contains(&"mmap".to_string()), "{stem}: {want:?}");
        want.retain(|n| n != "mmap");
        assert_eq!(names(&cmp), want, "{stem}");
        let fig = chart.figure(&cmp);
        assert!(
            fig.frame
                .footnotes
                .contains(&format!("Completion latency of mmap not drawn: {why}.")),
            "{:?}",
            fig.frame.footnotes
        );
    }
}

/// The writer draws an SVG file and the SVG text a page inlines in one
/// loop: each file is the text with the font embedded, in plan order.
#[test]
fn svg_files_are_the_inlined_svgs_with_their_font() {
    let cmp = fio_jsonplus();
    let dir = tempfile::tempdir().unwrap();
    let paths = render_all(&cmp, dir.path(), &svg(ChartOptions::default())).unwrap();
    let texts = svg_all(&cmp, &ChartOptions::default()).unwrap();
    assert!(paths.len() >= 4, "{:?}", names(&paths));
    assert_eq!(paths.len(), texts.len());
    for (path, text) in paths.iter().zip(&texts) {
        let file = std::fs::read_to_string(path).unwrap();
        assert_eq!(file, font::embed_in_svg(text), "{}", path.display());
    }
}

#[test]
fn long_load_labels_wrap_and_a_note_on_many_loads_is_one_line() {
    // ICPE'24: the efficiency chart's half-width panels, groups named by
    // loads like `QD128 x 8 devices x 16 apps + 1 probe`, too wide for a
    // group: broken before ` x ` and at spaces, never cut.
    let cmp = fixture_comparison("studies/icpe24-instances-8ssd", None);
    let svg = svg_named(&cmp, "efficiency_read");
    assert!(!svg.contains('…'), "no label is cut");
    assert!(
        svg.contains("\nx 16 apps + 1\n"),
        "the last line of a wrapped label"
    );
    // The bars draw the sweeps' key loads only: each curve's lightest
    // point, knee, saturation and peak, matched on the whole load point.
    let svg = svg_named(&cmp, "bars_read_iops");
    assert!(!svg.contains("\nQD128 x 8 devices x 8 apps + 1 probe\n"));
    assert!(svg.contains("\nQD128 x 8 devices x 16 apps + 1 probe\n"));
    // The approximate p99 at four loads: one footnote naming them.
    let notes = super::notes::workload_notes(&cmp, Direction::Read);
    let p99: Vec<&String> = notes
        .iter()
        .filter(|n| n.contains("worst job's p99"))
        .collect();
    assert_eq!(p99.len(), 1, "{notes:?}");
    assert!(
        p99[0].starts_with("randread 4k at QD128 x 8 devices x 2, 4, 8, 16 apps + 1 probe: "),
        "{}",
        p99[0]
    );
    assert!(svg.contains("2, 4, 8, 16 apps + 1 probe: p99 latency"));
}
