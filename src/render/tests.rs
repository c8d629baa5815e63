//! Every format rendered from the published comparison.

use super::*;
use crate::compare::{Metric, testdata};

// The CLI tests read the same tables from report.md.
#[path = "../../tests/cli/md_table.rs"]
mod md_table;

const CSV: &str = include_str!("../../fixtures/published/storagereview-2026-04.csv");

fn render(format: Format, opts: &RenderOptions, cmp: &Comparison) -> String {
    let mut out = Vec::new();
    format.renderer(opts).render(cmp, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// "2411000" -> "2,411,000" (the article's thousands separators).
fn thousands(s: &str) -> String {
    crate::numbers::fixed(s.parse().unwrap(), 0)
}

#[test]
fn markdown_shows_every_published_figure_as_printed() {
    let md = render(
        Format::Md,
        &RenderOptions::default(),
        &testdata::published(),
    );
    let mut lines = CSV.lines();
    lines.next();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let (config, rw, bs) = (f[0], f[3], f[4]);
        let cell = |title: &str| md_table::cell(&md, &format!("{rw} {bs}"), config, title);
        // The figure as the article printed it, padded to its row's
        // decimals: `6.1` reads `6.100` next to `10.058`.
        let same = |title: &str, figure: &str| {
            let shown = cell(title);
            let value = |s: &str| s.replace(',', "").parse::<f64>().unwrap();
            assert_eq!(value(&shown), value(figure), "{title}: {line}");
            assert!(
                shown.starts_with(figure.trim_end_matches('0')),
                "{shown} {line}"
            );
        };
        same("Bandwidth (GiB/s)", f[5]);
        assert_eq!(cell("IOPS"), thousands(f[6]), "{line}");
        // Latency in the unit that gives it one to three integer digits:
        // the article's 0.207 ms reads 207 µs.
        match md_table::try_cell(&md, &format!("{rw} {bs}"), config, "Mean latency (µs)") {
            Some(shown) => {
                let us = shown.replace(',', "").parse::<f64>().unwrap();
                let ms = f[8].parse::<f64>().unwrap();
                assert!((us - ms * 1000.0).abs() < 0.5, "{shown} {line}");
            }
            None => same("Mean latency (ms)", f[8]),
        }
        same("CPU (%)", f[9]);
    }
    // Every row prints one count of decimals (a block-size sweep's cells,
    // `bandwidth · IOPS`, in their bandwidth).
    for row in md
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| |"))
    {
        let decimals: Vec<usize> = row
            .split('|')
            .skip(2)
            .map(|c| c.split(" · ").next().unwrap_or(c).trim().trim_matches('*'))
            .filter(|c| !c.is_empty())
            .map(|c| c.split_once('.').map_or(0, |(_, f)| f.len()))
            .collect();
        assert!(decimals.windows(2).all(|w| w[0] == w[1]), "uneven: {row}");
    }
    assert!(md.contains("IOPS of linux-libaio and linux-io_uring are known to the nearest 1,000"));
    // Winners bold, ties all bold: randwrite 64k IOPS, which carry
    // bandwidth's tie (one measurement, 0.05 % apart).
    let rw64 = md.split("### randwrite 64k\n").nth(1).unwrap();
    let iops = rw64.lines().find(|l| l.starts_with("| IOPS |")).unwrap();
    assert_eq!(
        iops,
        "| IOPS | **125,391** | **125,406** | **125,000** | **125,000** |"
    );
    assert!(rw64.contains("judged on bandwidth, the same measurement"));
    // read 128k: 795,000 twice, one bold: the line says why.
    let r128 = md.split("### read 128k\n").nth(1).unwrap();
    let iops = r128.lines().find(|l| l.starts_with("| IOPS |")).unwrap();
    assert!(
        iops.contains("**795,000**") && iops.contains("| 795,000 |"),
        "{iops}"
    );
    assert!(r128.contains("IOPS: linux-libaio is best, judged on bandwidth"));
    // Key findings lead, numbered, before the first table; the rest follow.
    let key = md.find("## Key findings").expect("key findings");
    assert!(key < md.find("## Read").unwrap());
    assert!(
        md.contains("\n2. windows-native has the best read bandwidth in 3 of 4 read workloads\n")
    );
    let more = md
        .split("## More findings\n")
        .nth(1)
        .expect("more findings");
    assert!(more.contains("- Linux has the best write bandwidth in 3 of 4 write workloads"));
    assert!(!more.contains("- windows-native has the best read bandwidth in 3 of 4"));
}

#[test]
fn html_is_self_contained_and_escapes_input() {
    let mut cmp = testdata::published();
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
    assert!(!html.contains("<script>alert"));
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
    let out = render(Format::Md, &opts, &testdata::published());
    assert_eq!(
        out,
        "windows-non-native;windows-native;linux-libaio;linux-io_uring;"
    );
}

#[test]
fn json_has_the_contract_shape() {
    let cmp = testdata::published();
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
    let cmp = testdata::published();
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

/// A sweep fixture (`fixtures/sweep/<dir>`) read and compared as `analyze`
/// does, with an optional `--slo`.
pub(crate) fn sweep_fixture(dir: &str, slo: Option<&str>) -> Comparison {
    fixture_comparison(&format!("sweep/{dir}"), slo)
}

/// The comparison of `fixtures/{rel}`, with a latency target when given,
/// as `analyze` makes it (the charts' tests use it too).
pub(crate) fn fixture_comparison(rel: &str, slo: Option<&str>) -> Comparison {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel);
    let ingested = crate::ingest::ingest(&[path], &Default::default()).unwrap();
    let mut opts = crate::compare::CompareOptions::default();
    opts.sweep_rules.slo = slo.map(|s| crate::compare::sweep::parse_slo(s).unwrap());
    crate::compare::compare(&ingested.rows, &opts)
}

/// The sweep table of the only sweep shape.
fn only_sweep(cmp: &Comparison) -> sweep_view::SweepView {
    let view = view::View::new(cmp, &[]);
    let sweeps: Vec<_> = view.groups.iter().flat_map(|g| g.sweeps.clone()).collect();
    assert_eq!(sweeps.len(), 1);
    sweeps.into_iter().next().unwrap()
}

#[test]
fn published_has_no_sweep_tables() {
    let view = view::View::new(&testdata::published(), &[]);
    assert!(view.groups.iter().all(|g| g.sweeps.is_empty()));
    assert_eq!(
        view.groups.iter().map(|g| g.workloads.len()).sum::<usize>(),
        8
    );
}

#[test]
fn a_sweep_is_one_table_with_a_row_per_load_point() {
    let cmp = sweep_fixture("synthetic", Some("clat_p99=500us"));
    let view = view::View::new(&cmp, &[]);
    assert!(view.groups.iter().all(|g| g.workloads.is_empty()));
    let s = only_sweep(&cmp);
    assert_eq!(s.title, "randread 4k");
    assert_eq!(s.axis, "queue depth");
    assert_eq!(s.configs, ["fast", "slow"]);
    let loads: Vec<&str> = s.rows.iter().map(|r| r.load.as_str()).collect();
    assert_eq!(
        loads,
        ["QD1", "QD2", "QD4", "QD8", "QD16", "QD32", "QD64", "QD128"]
    );
    let qd16 = &s.rows[4].cells;
    assert_eq!(qd16[0].iops.text, "280,000");
    assert!(qd16[0].iops.winner && !qd16[1].iops.best);
    assert_eq!(s.lat_unit, "µs");
    // fio's exact floats: four significant digits for a column's largest,
    // the same decimals down the column (one config's metric over the
    // load points), whatever the other config's column prints.
    assert_eq!(qd16[0].lat_mean.text, "57.1");
    assert_eq!(qd16[1].lat_mean.text, "229");
    assert_eq!(s.rows[0].cells[1].lat_mean.text, "100");
    assert_eq!(qd16[1].clat_p99.as_ref().unwrap().text, "457");
    let lines: Vec<&str> = s.summaries.iter().map(|x| x.line.as_str()).collect();
    assert_eq!(
        lines,
        [
            "fast: peak 306,000 IOPS at QD128; 95 % of peak from QD32 (300,000 IOPS); knee at QD16 (280,000 IOPS): past it at most 9.3 % more IOPS for 632 % more mean latency; 305,193 IOPS at p99 ≤ 500 µs (interpolated between QD64 and QD128)",
            "slow: peak 72,600 IOPS at QD128; 95 % of peak from QD16 (70,000 IOPS); knee at QD16 (70,000 IOPS): past it at most 3.7 % more IOPS for 671 % more mean latency; 70,199 IOPS at p99 ≤ 500 µs (interpolated between QD16 and QD32)",
        ]
    );
    assert!(s.grids.is_empty());
}

#[test]
fn sweep_marks_are_the_comparisons_decisions() {
    // Hand the slower config the QD4 IOPS win and a latency tie: the table
    // must show that, not what the numbers would say.
    let mut cmp = sweep_fixture("synthetic", None);
    let qd4 = cmp
        .workloads
        .iter_mut()
        .find(|w| w.key.load.iodepth == 4)
        .unwrap();
    for m in &mut qd4.metrics {
        match m.metric {
            Metric::Iops => {
                m.winner = Some("slow".into());
                m.tied.clear();
            }
            Metric::LatMeanNs => {
                m.winner = None;
                m.tied = vec!["fast".into(), "slow".into()];
            }
            _ => {}
        }
    }
    let s = only_sweep(&cmp);
    let row = &s.rows[2];
    assert_eq!(row.load, "QD4");
    assert!(!row.cells[0].iops.best && row.cells[1].iops.winner);
    assert!(row.cells[0].lat_mean.tied && row.cells[1].lat_mean.tied);
    let md = render(Format::Md, &RenderOptions::default(), &cmp);
    assert!(
        md.contains("| QD4 | 78,000 · **51.3** · **102.6** | **36,000** · **111** · 222 |"),
        "{md}"
    );
    let term = render(Format::Term, &RenderOptions::default(), &cmp);
    assert!(term.contains("78,000 · 51.3 = · 102.6 *"), "{term}");
    assert!(term.contains("36,000 * · 111 = · 222"), "{term}");
    let html = render(Format::Html, &RenderOptions::default(), &cmp);
    assert!(
        html.contains("<span class=\"best\">36,000</span>"),
        "{html}"
    );
    assert!(html.contains("<span class=\"tied\">51.3</span>"), "{html}");
}

#[test]
fn a_two_dimensional_sweep_gets_a_grid_per_config() {
    let cmp = sweep_fixture("grid", None);
    let s = only_sweep(&cmp);
    assert_eq!(s.axis, "queue depth and numjobs");
    assert_eq!(s.grids.len(), 2);
    for (g, sweep) in s.grids.iter().zip(&cmp.sweeps) {
        assert_eq!(g.config, sweep.config);
        assert_eq!(g.numjobs, [1, 2]);
        let depths: Vec<u32> = g.rows.iter().map(|r| r.iodepth).collect();
        assert_eq!(depths, [1, 4, 16]);
        for r in &g.rows {
            for (c, j) in r.cells.iter().zip(&g.numjobs) {
                let p = sweep
                    .points
                    .iter()
                    .find(|p| p.load.iodepth == r.iodepth && p.load.numjobs == *j)
                    .unwrap();
                assert_eq!(c.text, crate::numbers::fixed(p.iops, 0));
                let is_peak = sweep.peak.load.iodepth == r.iodepth && sweep.peak.load.numjobs == *j;
                assert_eq!(c.peak, is_peak);
            }
        }
    }
    let md = render(Format::Md, &RenderOptions::default(), &cmp);
    assert_eq!(md.matches("IOPS by queue depth and numjobs").count(), 2);
    assert!(md.contains("| iodepth ↓ numjobs → | 1 | 2 |"));
}

#[test]
fn sweep_notes_keep_what_the_cells_do_not_show() {
    let cmp = sweep_fixture("iodepth", None);
    let s = only_sweep(&cmp);
    // psync ran at depth 1 at QD2..QD32: the cells say so, the note once.
    let psync: Vec<&str> = s.rows.iter().map(|r| r.cells[2].ran_at.as_str()).collect();
    assert_eq!(psync, ["", "QD1", "QD1", "QD1", "QD1", "QD1"]);
    assert_eq!(s.notes.len(), 1, "{:?}", s.notes);
    assert!(s.notes[0].starts_with("QD2: psync ran at queue depth 1, not 2"));
    // A config missing at most load points: "–", no note per point.
    let all = sweep_fixture("", None);
    let view = view::View::new(&all, &[]);
    let s = view
        .groups
        .iter()
        .flat_map(|g| g.sweeps.clone())
        .find(|s| s.title == "randread 4k")
        .unwrap();
    assert!(
        s.notes.iter().all(|n| !n.contains(", not at ")),
        "{:?}",
        s.notes
    );
    let single = s
        .configs
        .iter()
        .position(|c| c == "iodepth-formats/libaio")
        .unwrap();
    let filled: Vec<&str> = s
        .rows
        .iter()
        .filter(|r| !r.cells[single].missing)
        .map(|r| r.load.as_str())
        .collect();
    assert_eq!(filled, ["QD16"]);
}

#[test]
fn sweep_csv_has_a_line_per_load_point_and_config() {
    let cmp = sweep_fixture("grid", Some("clat_p99=500us"));
    let csv = render(Format::SweepCsv, &RenderOptions::default(), &cmp);
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 6 * 2);
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    for r in &rows {
        assert_eq!(r.len(), header.len());
        let w = cmp
            .workloads
            .iter()
            .find(|w| {
                w.key.load.iodepth.to_string() == r[col("iodepth")]
                    && w.key.load.numjobs.to_string() == r[col("numjobs")]
            })
            .unwrap();
        let iops = w.metric(Metric::Iops).unwrap();
        let config = r[col("config")];
        assert_eq!(r[col("iops")], iops.values[config].unwrap().to_string());
        let winner = iops.winner.as_deref() == Some(config);
        assert_eq!(r[col("iops_winner")], winner.to_string());
    }
    let peaks = rows.iter().filter(|r| r[col("peak")] == "true").count();
    assert_eq!(peaks, 2);
    // The long CSV names the load point of every line when loads vary.
    let long = render(Format::Csv, &RenderOptions::default(), &cmp);
    assert!(
        long.lines()
            .next()
            .unwrap()
            .ends_with(",iodepth,numjobs,hosts,devices,instances")
    );
    let published = render(
        Format::Csv,
        &RenderOptions::default(),
        &testdata::published(),
    );
    assert!(published.lines().next().unwrap().ends_with(",delta_abs"));
    // The published study sweeps no load; its block sizes at QD32 x 16
    // jobs are block-size sweeps, a line per config and block size.
    let published = testdata::published();
    let lines = csv_records(&render(
        Format::SweepCsv,
        &RenderOptions::default(),
        &published,
    ));
    let points: usize = published.bs_sweeps.iter().map(|s| s.points.len()).sum();
    assert!(published.sweeps.is_empty() && points > 0);
    assert_eq!(lines.len(), points);
    assert!(lines.iter().all(|l| l["axis"] == "bs"));
}

/// The lines of a CSV as column name -> field maps (no quoted commas).
fn csv_records(csv: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            let fields: Vec<&str> = l.split(',').collect();
            assert_eq!(fields.len(), header.len(), "{l}");
            header
                .iter()
                .zip(fields)
                .map(|(h, f)| (h.to_string(), f.to_string()))
                .collect()
        })
        .collect()
}

#[test]
fn sweep_csv_marks_the_whole_load_point_and_has_block_size_sweeps() {
    // One job at QD8 over 1, 2 and 3 devices: three lines told apart by
    // their device count, one peak among them.
    let cmp = fixture_comparison("configs/devices", None);
    let lines = csv_records(&render(Format::SweepCsv, &RenderOptions::default(), &cmp));
    let devices: Vec<&str> = lines.iter().map(|l| l["devices"].as_str()).collect();
    assert_eq!(devices, ["1", "2", "3"]);
    assert!(
        lines
            .iter()
            .all(|l| l["axis"] == "devices" && l["iodepth"] == "8")
    );
    let peaks: Vec<&str> = lines
        .iter()
        .filter(|l| l["peak"] == "true")
        .map(|l| l["devices"].as_str())
        .collect();
    assert_eq!(peaks, [cmp.sweeps[0].peak.load.devices.to_string()]);
    // The long CSV names the device count too.
    let long = csv_records(&render(Format::Csv, &RenderOptions::default(), &cmp));
    let counts: std::collections::BTreeSet<&str> =
        long.iter().map(|l| l["devices"].as_str()).collect();
    assert_eq!(counts.into_iter().collect::<Vec<_>>(), ["1", "2", "3"]);
    // Block-size sweeps: a line per config and block size, the peak of
    // most bandwidth and the saturation point marked where compare put them.
    let cmp = fixture_comparison("configs/blocksize", None);
    assert!(!cmp.bs_sweeps.is_empty());
    let lines = csv_records(&render(Format::SweepCsv, &RenderOptions::default(), &cmp));
    let bs: Vec<_> = lines.iter().filter(|l| l["axis"] == "bs").collect();
    let points: usize = cmp.bs_sweeps.iter().map(|s| s.points.len()).sum();
    assert_eq!(bs.len(), points);
    for s in &cmp.bs_sweeps {
        let mine = || {
            bs.iter().filter(|l| {
                l["config"] == s.config
                    && l["rw"] == s.at.rw
                    && l["direction"] == s.at.direction.as_str()
                    && l["iodepth"] == s.at.load.iodepth.to_string()
                    && l["numjobs"] == s.at.load.numjobs.to_string()
            })
        };
        let marked = |col: &str| -> Vec<String> {
            mine()
                .filter(|l| l[col] == "true")
                .map(|l| l["bs_bytes"].clone())
                .collect()
        };
        assert_eq!(marked("peak"), [s.peak.bs_bytes.to_string()]);
        let saturation: Vec<String> = s
            .saturation
            .iter()
            .map(|x| x.bs_bytes.to_string())
            .collect();
        assert_eq!(marked("saturation"), saturation);
        for l in mine() {
            let p = s
                .points
                .iter()
                .find(|p| p.bs_bytes.to_string() == l["bs_bytes"]);
            let bw: f64 = l["bw_bytes_per_s"].parse().unwrap();
            assert_eq!(bw, p.unwrap().bw_bytes_per_s, "{}", s.config);
        }
    }
}

/// The published comparison with randread 4k's mean latency of
/// linux-libaio set to `ns`, and excluded for `why` when given.
fn published_with_lat(ns: f64, why: Option<&str>) -> Comparison {
    let mut cmp = testdata::published();
    let w = cmp
        .workloads
        .iter_mut()
        .find(|w| w.key.shape.rw == "randread" && w.key.shape.bs_bytes == 4096)
        .unwrap();
    let m = w
        .metrics
        .iter_mut()
        .find(|m| m.metric == Metric::LatMeanNs)
        .unwrap();
    m.values.insert("linux-libaio".into(), Some(ns));
    // As if the comparison had picked it: the table must still not.
    m.winner = Some("linux-libaio".into());
    m.delta_pct.insert("linux-libaio".into(), Some(9_000_000.0));
    if let Some(why) = why {
        m.excluded.insert("linux-libaio".into(), why.into());
    }
    cmp
}

fn randread_4k_lat(view: &view::View) -> (&view::RowView, &view::WorkloadView) {
    let w = view
        .groups
        .iter()
        .flat_map(|g| &g.workloads)
        .find(|w| w.title.starts_with("randread 4k"))
        .unwrap();
    let r = w.rows.iter().find(|r| r.metric == "lat_mean_ns").unwrap();
    (r, w)
}

#[test]
fn an_excluded_value_is_shown_marked_with_its_reason_and_never_best() {
    let why = "completion latency not measured from submission (sqthread_poll=1)";
    let cmp = published_with_lat(17_113_000_000_000.0, Some(why));
    let view = view::View::new(&cmp, &[]);
    let (row, w) = randread_4k_lat(&view);
    let libaio = row
        .cells
        .iter()
        .find(|c| c.config == "linux-libaio")
        .unwrap();
    // One unit per report (#54): the excluded value too, in the
    // article's ms.
    assert_eq!(libaio.text, "17,113,000.000 †");
    assert!(!libaio.best && !libaio.winner && libaio.delta.is_empty());
    // The other cells keep the report's unit and decimals.
    assert_eq!(row.title, "Mean latency (ms)");
    assert_eq!(row.cells[0].text, "0.169");
    assert_eq!(
        w.footnotes,
        [format!(
            "† mean latency of linux-libaio: {why}; not compared."
        )]
    );
    let md = render(Format::Md, &RenderOptions::default(), &cmp);
    assert!(md.contains(&w.footnotes[0]), "{md}");
    let term = render(Format::Term, &RenderOptions::default(), &cmp);
    // The terminal table keeps the one unit too.
    assert!(term.contains("17,113,000.000 †"), "{term}");
}

#[test]
fn a_row_takes_its_median_unit_and_flags_a_far_value() {
    // 0.1 s against others near 0.2 ms: under 1000x the median (0.18 ms)
    // it is not flagged, and prints in the report's one unit.
    let cmp = published_with_lat(100_000_000.0, None);
    let view = view::View::new(&cmp, &[]);
    let (row, w) = randread_4k_lat(&view);
    // One unit per report (#54): the house style's ms, said once.
    assert_eq!(row.title, "Mean latency (ms)");
    let texts: Vec<&str> = row.cells.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts, ["0.169", "0.104", "100.000", "0.192"]);
    assert!(w.footnotes.is_empty());
    // 17,113 s is far: in the report's unit, flagged, and said below the
    // table in its own unit; the delta past +1000 % reads as a ratio.
    let cmp = published_with_lat(17_113_000_000_000.0, None);
    let view = view::View::new(&cmp, &[]);
    let (row, w) = randread_4k_lat(&view);
    let texts: Vec<&str> = row.cells.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(row.title, "Mean latency (ms)");
    assert_eq!(texts, ["0.169", "0.104", "17,113,000.000 ⚠", "0.192"]);
    assert_eq!(row.cells[2].delta, "x90,001");
    assert_eq!(w.footnotes.len(), 1);
    assert!(
        w.footnotes[0].starts_with("⚠ mean latency of linux-libaio (17,113 s) is over 1,000 times the median of its row (0.1805 ms); check the run."),
        "{:?}",
        w.footnotes
    );
}

#[test]
fn one_reason_for_several_metrics_is_said_once() {
    let lines = vec![
        "† mean latency of x at QD1 and QD8: no timestamps; not compared.".to_string(),
        "† p99 latency of y at QD1: bad; not compared.".to_string(),
        "† p99 latency of x at QD1 and QD8: no timestamps; not compared.".to_string(),
        "a line without a subject".to_string(),
    ];
    assert_eq!(
        super::cell::merge_metrics(lines),
        [
            "† mean latency and p99 latency of x at QD1 and QD8: no timestamps; not compared.",
            "† p99 latency of y at QD1: bad; not compared.",
            "a line without a subject",
        ]
    );
}

#[test]
fn a_far_value_in_a_sweep_keeps_its_column_readable() {
    let mut cmp = sweep_fixture("synthetic", None);
    let qd128 = cmp
        .workloads
        .iter_mut()
        .find(|w| w.key.load.iodepth == 128)
        .unwrap();
    let p99 = qd128
        .metrics
        .iter_mut()
        .find(|m| m.metric == Metric::ClatP99Ns)
        .unwrap();
    // A stalled run: 17,113 s where the others read tenths of a ms.
    p99.values.insert("slow".into(), Some(17_113e9));
    let s = only_sweep(&cmp);
    assert_eq!(s.lat_unit, "µs");
    let last = &s.rows[7].cells[1];
    // One unit per report (#54): flagged, in the table's µs.
    assert_eq!(last.clat_p99.as_ref().unwrap().text, "17,113,000,000 ⚠");
    // The rest of slow's p99 column keeps the decimals of its own values.
    assert_eq!(s.rows[4].cells[1].clat_p99.as_ref().unwrap().text, "457");
    assert!(
        s.notes.iter().any(|n| n.starts_with(
            "⚠ p99 latency of slow at QD128 (17,113 s) is over 1,000 times the median of the table's latencies"
        )),
        "{:?}",
        s.notes
    );
}

/// The sweep table of `cmp` whose title starts with `title`.
fn sweep_titled(cmp: &Comparison, title: &str) -> sweep_view::SweepView {
    let view = view::View::new(cmp, &[]);
    let sweeps = view.groups.into_iter().flat_map(|g| g.sweeps);
    sweeps
        .into_iter()
        .find(|s| s.title.starts_with(title))
        .unwrap_or_else(|| panic!("no sweep table {title}"))
}

#[test]
fn a_sweep_note_said_at_several_loads_is_said_once() {
    // ICPE'24's QD128 apps: the approximate p99 beside the probe at 2, 4,
    // 8 and 16 apps (no json+ histograms), one note naming the four.
    let cmp = fixture_comparison("studies/icpe24-instances-8ssd", None);
    let table = sweep_titled(&cmp, "randread 4k QD128");
    let p99: Vec<&String> = table
        .notes
        .iter()
        .filter(|n| n.contains("the worst job's p99"))
        .collect();
    assert_eq!(p99.len(), 1, "{:?}", table.notes);
    assert!(
        p99[0].starts_with("QD128 x 8 devices x 2, 4, 8, 16 apps + 1 probe: p99 latency of"),
        "{}",
        p99[0]
    );
    // Each load point still has the note in the JSON's workloads.
    let noted = cmp
        .workloads
        .iter()
        .filter(|w| w.notes.iter().any(|n| n.contains("the worst job's p99")))
        .filter(|w| w.key.load.iodepth == 128)
        .count();
    assert_eq!(noted, 4);
}

#[test]
fn a_target_met_between_instance_counts_names_both_whole() {
    // ICPE'24's QD128 apps under bfq: p99 1.01 ms at 9 instances, 13 ms
    // at 17; a 2 ms target falls between them.
    let cmp = fixture_comparison("studies/icpe24-instances-8ssd", Some("clat_p99=2ms"));
    let s = cmp
        .sweeps
        .iter()
        .find(|s| s.config == "bfq" && s.points[0].load.iodepth == 128)
        .unwrap();
    let a = s.at_slo.unwrap();
    assert!(a.interpolated);
    assert_eq!((a.load.instances, a.load.devices), (9, 8));
    let upper = a.upper().unwrap();
    assert_eq!(
        (upper.iodepth, upper.devices, upper.instances),
        (128, 8, 17)
    );
    let json = serde_json::to_value(a).unwrap();
    assert_eq!(json["upper_instances"], 17);
    assert_eq!(json["upper_devices"], 8);
    assert!(json.get("upper_hosts").is_none(), "one host: left out");
    let table = sweep_titled(&cmp, "randread 4k QD128");
    assert!(
        table.summaries.iter().any(|l| l.at_slo.contains(
            "interpolated between QD128 x 8 devices x 8 apps + 1 probe and QD128 x 8 devices x 16 apps + 1 probe"
        )),
        "{:?}",
        table.summaries.iter().map(|l| &l.at_slo).collect::<Vec<_>>()
    );
}
