//! Chart tests on comparisons built from real data: the published
//! StorageReview table and real fio json+ runs. The winners and ties in
//! these comparisons are set by a small stand-in for the comparison engine
//! (precision ties only), because the charts must show what they are
//! given, not compute it.

use std::collections::BTreeSet;
use std::path::Path;

use indexmap::IndexMap;

use super::*;
use crate::compare::stats::precision_tie;
use crate::compare::{Better, Comparison, Metric, MetricResult, Rule, Workload};
use crate::model::Direction;
use crate::units::{GIB, parse_size};

const PUBLISHED: &str = include_str!("testdata/storagereview-2026-04.csv");

/// A metric result with winner/tie by precision and deltas vs `baseline`.
fn result(
    metric: Metric,
    better: Better,
    vals: &[(String, f64, f64)],
    baseline: &str,
) -> MetricResult {
    let best = vals
        .iter()
        .max_by(|a, b| match better {
            Better::Higher => a.1.total_cmp(&b.1),
            Better::Lower => b.1.total_cmp(&a.1),
        })
        .unwrap();
    let tied: Vec<String> = vals
        .iter()
        // A hair of slack: 7.655 and 7.654 GiB/s, known to 0.001, differ by
        // 0.001 GiB plus float error.
        .filter(|v| precision_tie(v.1, v.2 * (1.0 + 1e-9), best.1, best.2 * (1.0 + 1e-9)))
        .map(|v| v.0.clone())
        .collect();
    let base = vals.iter().find(|v| v.0 == baseline).map(|v| v.1);
    let (winner, tied, rule) = if tied.len() > 1 {
        (None, tied, Rule::WithinPrecision)
    } else {
        (Some(best.0.clone()), vec![], Rule::Precision)
    };
    MetricResult {
        metric,
        better,
        values: vals.iter().map(|v| (v.0.clone(), Some(v.1))).collect(),
        precision: vals.iter().map(|v| (v.0.clone(), v.2)).collect(),
        spread: IndexMap::new(),
        winner,
        tied,
        delta_pct: vals
            .iter()
            .map(|v| (v.0.clone(), base.map(|b| (v.1 - b) / b * 100.0)))
            .collect(),
        delta_abs: vals
            .iter()
            .map(|v| (v.0.clone(), base.map(|b| v.1 - b)))
            .collect(),
        rule,
        baseline_ties: IndexMap::new(),
    }
}

fn empty_comparison(configs: Vec<String>, baseline: &str) -> Comparison {
    Comparison {
        baseline: Some(baseline.to_string()),
        config_os: IndexMap::new(),
        families: vec![],
        workloads: vec![],
        highlights: vec![],
        key_findings: vec![],
        skipped: vec![],
        warnings: vec![],
        sanity: vec![],
        sweeps: vec![],
        sweep_rules: Default::default(),
        setup: Default::default(),
        equivalence_pct: None,
        configs,
    }
}

/// The published table as a comparison (4 configs x 8 workloads).
pub(crate) fn published() -> Comparison {
    published_with(|c| c.to_string())
}

/// The published table with every label passed through `rename`.
fn published_with(rename: impl Fn(&str) -> String) -> Comparison {
    let mut rows: Vec<Vec<&str>> = PUBLISHED
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    rows.retain(|r| r.len() == 10);
    let mut configs: Vec<String> = Vec::new();
    let mut keys: Vec<(String, u64)> = Vec::new();
    for r in &rows {
        let c = rename(r[0]);
        if !configs.contains(&c) {
            configs.push(c);
        }
        let k = (r[3].to_string(), parse_size(r[4]).unwrap());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let baseline = configs[0].clone();
    let mut cmp = empty_comparison(configs, &baseline);
    for r in &rows {
        cmp.config_os.insert(rename(r[0]), r[1].to_string());
    }
    for (rw, bs) in keys {
        let mine: Vec<&Vec<&str>> = rows
            .iter()
            .filter(|r| r[3] == rw && parse_size(r[4]) == Some(bs))
            .collect();
        let f = |r: &&Vec<&str>, i: usize| r[i].parse::<f64>().unwrap();
        let col = |g: &dyn Fn(&&Vec<&str>) -> (f64, f64)| -> Vec<(String, f64, f64)> {
            mine.iter()
                .map(|r| {
                    let (v, p) = g(r);
                    (rename(r[0]), v, p)
                })
                .collect()
        };
        let metrics = vec![
            result(
                Metric::BwBytesPerS,
                Better::Higher,
                &col(&|r| (f(r, 5) * GIB, 0.001 * GIB)),
                &baseline,
            ),
            result(
                Metric::Iops,
                Better::Higher,
                &col(&|r| (f(r, 6), f(r, 7))),
                &baseline,
            ),
            result(
                Metric::LatMeanNs,
                Better::Lower,
                &col(&|r| (f(r, 8) * 1e6, 1000.0)),
                &baseline,
            ),
            result(
                Metric::CpuPct,
                Better::Lower,
                &col(&|r| (f(r, 9), 0.01)),
                &baseline,
            ),
            result(
                Metric::IopsPerCpuPct,
                Better::Higher,
                &col(&|r| (f(r, 6) / f(r, 9), f(r, 7) / f(r, 9))),
                &baseline,
            ),
            result(
                Metric::BwPerCpuPct,
                Better::Higher,
                &col(&|r| (f(r, 5) * GIB / f(r, 9), 0.001 * GIB / f(r, 9))),
                &baseline,
            ),
        ];
        let direction = if rw.contains("read") {
            Direction::Read
        } else {
            Direction::Write
        };
        cmp.workloads.push(Workload {
            rw,
            bs_bytes: bs,
            direction,
            rwmixread: None,
            iodepth: 1,
            numjobs: 1,
            hosts: 1,
            effective_iodepth: Default::default(),
            steady_state: Default::default(),
            metrics,
            percentiles: IndexMap::new(),
            clat_bins: IndexMap::new(),
            notes: vec![],
            params: IndexMap::new(),
        });
    }
    cmp
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

/// (label, fio json+ text) runs of randread 4k as a comparison.
fn fio_runs(runs: &[(&str, &str)]) -> Comparison {
    let configs: Vec<String> = runs.iter().map(|r| r.0.to_string()).collect();
    let mut cmp = empty_comparison(configs, "psync");
    let mut percentiles = IndexMap::new();
    let mut bins = IndexMap::new();
    let (mut bw, mut iops, mut lat, mut cpu) = (vec![], vec![], vec![], vec![]);
    for &(name, text) in runs {
        let doc: serde_json::Value = serde_json::from_str(text).unwrap();
        let job = &doc["jobs"][0];
        let read = &job["read"];
        let clat = &read["clat_ns"];
        let mut p: Vec<(f64, f64)> = clat["percentile"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.parse().unwrap(), v.as_f64().unwrap()))
            .collect();
        p.sort_by(|a, b| a.0.total_cmp(&b.0));
        percentiles.insert(name.to_string(), p);
        let mut b: Vec<(u64, u64)> = clat["bins"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.parse().unwrap(), v.as_u64().unwrap()))
            .collect();
        b.sort_unstable();
        bins.insert(name.to_string(), b);
        let n = name.to_string();
        bw.push((n.clone(), read["bw_bytes"].as_f64().unwrap(), 1.0));
        iops.push((n.clone(), read["iops"].as_f64().unwrap(), 1.0));
        lat.push((n.clone(), read["lat_ns"]["mean"].as_f64().unwrap(), 1.0));
        let c = job["usr_cpu"].as_f64().unwrap() + job["sys_cpu"].as_f64().unwrap();
        cpu.push((n, c, 0.0));
    }
    cmp.workloads.push(Workload {
        rw: "randread".into(),
        bs_bytes: 4096,
        direction: Direction::Read,
        rwmixread: None,
        iodepth: 1,
        numjobs: 1,
        hosts: 1,
        effective_iodepth: Default::default(),
        steady_state: Default::default(),
        metrics: vec![
            result(Metric::BwBytesPerS, Better::Higher, &bw, "psync"),
            result(Metric::Iops, Better::Higher, &iops, "psync"),
            result(Metric::LatMeanNs, Better::Lower, &lat, "psync"),
            result(Metric::CpuPct, Better::Lower, &cpu, "psync"),
        ],
        percentiles,
        clat_bins: bins,
        notes: vec![],
        params: IndexMap::new(),
    });
    cmp
}

fn names(paths: &[std::path::PathBuf]) -> Vec<String> {
    paths
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

/// Decodes a PNG and checks size and that it is a real chart: many
/// distinct colours, and a fair share of non-white pixels.
fn check_png(path: &Path, w: u32, h: u32) -> image::RgbaImage {
    let img = image::open(path)
        .unwrap_or_else(|e| panic!("{} does not decode: {e}", path.display()))
        .to_rgba8();
    assert_eq!(img.dimensions(), (w, h), "{}", path.display());
    let colors: BTreeSet<[u8; 4]> = img.pixels().map(|p| p.0).collect();
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
    let bw = paths
        .iter()
        .find(|p| p.ends_with("bars_read_bw.png"))
        .unwrap();
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
    for want in [
        "percentiles_randread_4k_read.png",
        "latency_cdf_randread_4k_read.png",
        "bars_read_lat_mean.png",
        "delta_read_iops.png",
    ] {
        assert!(
            got.contains(&want.to_string()),
            "{want} missing from {got:?}"
        );
    }
    assert!(!got.iter().any(|n| n.starts_with("efficiency")), "{got:?}");
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
    cmp.workloads[0].rw = "../../x<script>".into();
    cmp.workloads[1].rw = "/".into();
    cmp.workloads[0].percentiles = fio_jsonplus().workloads[0]
        .percentiles
        .values()
        .zip(&cmp.configs)
        .map(|(p, c)| (c.clone(), p.clone()))
        .collect();
    let svg = ChartOptions {
        format: ChartFormat::Svg,
        ..ChartOptions::default()
    };
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
    let opts = ChartOptions {
        format: ChartFormat::Svg,
        ..ChartOptions::default()
    };
    let paths = render_all(&published(), dir.path(), &opts).unwrap();
    let bw = paths
        .iter()
        .find(|p| p.ends_with("bars_read_bw.svg"))
        .unwrap();
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
    let iops = std::fs::read_to_string(
        paths
            .iter()
            .find(|p| p.ends_with("bars_read_iops.svg"))
            .unwrap(),
    )
    .unwrap();
    assert!(iops.contains("IOPS of linux-libaio, linux-io_uring known only to the nearest 1,000."));
    // Bandwidth is printed to 0.001 GiB/s, the precision it is known to: no note.
    assert!(!text.contains("known only"));
    // randwrite 64k bandwidth: all four within 0.004 GiB/s: a tie is shown.
    let wbw = std::fs::read_to_string(
        paths
            .iter()
            .find(|p| p.ends_with("bars_write_bw.svg"))
            .unwrap(),
    )
    .unwrap();
    assert!(wbw.contains("☆ 7.65"), "tie not marked");
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
    let svg = ChartOptions {
        format: ChartFormat::Svg,
        ..opts
    };
    let paths = render_all(&cmp, dir.path(), &svg).unwrap();
    let text = std::fs::read_to_string(
        paths
            .iter()
            .find(|p| p.ends_with("bars_read_iops.svg"))
            .unwrap(),
    )
    .unwrap();
    assert!(text.contains("Too many bars to print values"));
    // Not drawn; only the tooltips (the hover targets after it) keep it.
    let (drawn, targets) = text.split_once("<g class=\"hotspots\">").unwrap();
    assert!(!drawn.contains("2,636,516"));
    assert!(targets.contains("2,636,516 IOPS"));
    let paths = render_all(&cmp, dir.path(), &opts).unwrap();
    check_png(
        paths
            .iter()
            .find(|p| p.ends_with("bars_read_iops.png"))
            .unwrap(),
        800,
        450,
    );
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
    let opts = ChartOptions {
        format: ChartFormat::Svg,
        ..ChartOptions::default()
    };
    let paths = render_all(&cmp, dir.path(), &opts).unwrap();
    let text = std::fs::read_to_string(
        paths
            .iter()
            .find(|p| p.ends_with("bars_read_bw.svg"))
            .unwrap(),
    )
    .unwrap();
    assert!(text.contains("randread 4k: iodepth differs: 32 vs 64"));
    assert!(text.contains("1 more note in the report."));
    assert!(!text.contains("note 3"));
    let write = std::fs::read_to_string(
        paths
            .iter()
            .find(|p| p.ends_with("bars_write_bw.svg"))
            .unwrap(),
    )
    .unwrap();
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
            w.bs_bytes *= 1 << (k * 4);
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

/// A folder under `fixtures/` read and compared as `analyze` does.
fn fixture_comparison(rel: &str, slo: Option<&str>) -> Comparison {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel);
    let ingested = crate::ingest::ingest(&[path], &Default::default()).unwrap();
    let mut opts = crate::compare::CompareOptions::default();
    opts.sweep_rules.slo = slo.map(|s| crate::compare::sweep::parse_slo(s).unwrap());
    crate::compare::compare(&ingested.rows, &opts)
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
    let opts = ChartOptions {
        format: ChartFormat::Svg,
        ..ChartOptions::default()
    };
    let paths = render_all(&cmp, dir.path(), &opts).unwrap();
    let read = |name: &str| {
        let p = paths.iter().find(|p| p.ends_with(name)).unwrap();
        std::fs::read_to_string(p).unwrap()
    };
    let svg = read("iops_latency_randread_4k_read.svg");
    // Both configs saturate at QD16 (fixtures/sweep/synthetic/EXPECTED.md).
    assert_eq!(svg.matches("QD16 knee").count(), 2, "{svg}");
    assert!(svg.contains("target: p99 ≤ 0.5 ms"));
    // SVG text sits on its own line between the tags.
    assert!(svg.contains("\nQD1\n") && svg.contains("\nQD128\n"));
    let scaling = read("scaling_randread_4k_read.svg");
    assert!(scaling.contains("Queue depth (iodepth, log2 scale)"));
    assert!(scaling.contains("Latency (ms, log scale)"));
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
    let svg = ChartOptions {
        format: ChartFormat::Svg,
        ..opts
    };
    let paths = render_all(&cmp, dir.path(), &svg).unwrap();
    let text = std::fs::read_to_string(
        paths
            .iter()
            .find(|p| p.ends_with("heatmap_randread_4k_read_libaio.svg"))
            .unwrap(),
    )
    .unwrap();
    let libaio = cmp.sweeps.iter().find(|s| s.config == "libaio").unwrap();
    assert_eq!(libaio.points.len(), 6);
    for p in &libaio.points {
        let v = crate::format::fixed(p.iops, 0);
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
    let p = paths
        .iter()
        .find(|p| p.ends_with("bs_randread.png"))
        .unwrap();
    let img = check_png(p, 1600, 900);
    for i in 0..2 {
        assert!(pixels_of(&img, palette::color(i)) > 1_000);
    }
    // Two block sizes per rw (the published table) draw no such chart.
    let published = plan(&published());
    assert!(published.iter().all(|c| !matches!(c, Chart::BlockSizes(_))));
}

#[test]
fn bars_of_a_sweep_name_their_load_point() {
    let mut cmp = published_with(|s| s.to_string());
    let (labels, _) = group_results(&cmp, Direction::Read, Metric::Iops);
    assert!(labels.iter().all(|l| !l.contains("QD")), "{labels:?}");
    // The same workload at a second depth: every bar now names its load.
    let mut deeper = cmp.workloads[0].clone();
    deeper.iodepth *= 2;
    cmp.workloads.push(deeper);
    let (labels, _) = group_results(&cmp, cmp.workloads[0].direction, Metric::Iops);
    let distinct: BTreeSet<&String> = labels.iter().collect();
    assert_eq!(distinct.len(), labels.len(), "{labels:?}");
    assert!(labels.iter().all(|l| l.contains(" QD")), "{labels:?}");
}

/// The SVG of the planned chart whose file stem is `stem`, with its
/// hover targets.
fn svg_named(cmp: &Comparison, stem: &str) -> String {
    let planned = plan(cmp);
    let at = names::unique(planned.iter().map(|c| c.stem(cmp)).collect())
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
        .filter(|w| w.direction == Direction::Read)
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
                crate::format::fixed(v, 0)
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
    let stem = names::unique(plan(&cmp).iter().map(|c| c.stem(&cmp)).collect())
        .into_iter()
        .find(|s| s.starts_with("heatmap_"))
        .unwrap();
    let svg = svg_named(&cmp, &stem);
    let cells = svg.matches("<rect class=\"hs\" data-config=").count();
    assert!(cells >= 4, "{cells} heat cells with a config");
    assert!(svg.contains(" IOPS</title>"), "cell values without unit");
}
