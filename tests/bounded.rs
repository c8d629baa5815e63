//! Every number bounded where it is used (issue #38): random finite and
//! non-finite figures (denormals, infinities, NaN, 1e308, negatives,
//! counts near `u64::MAX`) through the comparison, every chart, every
//! table and check report, and a history's report and charts. None may
//! panic, and none may size a buffer from data: this binary's allocator
//! refuses any single allocation over [`LIMIT`], which aborts the test
//! (`memory allocation of N bytes failed`) instead of eating the machine.
//!
//! Its own test binary because of that allocator. The budget is fixed
//! (`CASES` per property, no shrinking past `MAX_SHRINK`): a few seconds
//! in a debug build, so CI runs it on every push.

use std::alloc::{GlobalAlloc, Layout, System};

use proptest::prelude::*;

use nvcmp::charts::{ChartFormat, ChartOptions};
use nvcmp::check::{CheckOptions, check};
use nvcmp::compare::{CompareOptions, compare};
use nvcmp::history::show::{ShowOptions, show};
use nvcmp::history::{RunMeta, StoredRun};
use nvcmp::model::Row;
use nvcmp::render::Format;
use nvcmp::render::check::{CheckMarkdown, CheckRenderer, CheckTerm};
use nvcmp::render::history::ShowFormat;

/// Largest single allocation allowed: far above anything a chart of a few
/// rows needs (a 1600x900 RGB bitmap is 4.3 MB), far below what a range
/// from a denormal asked for (1 GiB and growing).
const LIMIT: usize = 256 << 20;

struct Capped;

// SAFETY: every call goes to the system allocator unchanged; a request
// over LIMIT gets null, which the caller's `handle_alloc_error` turns into
// an abort that names its size.
unsafe impl GlobalAlloc for Capped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() > LIMIT {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded as received.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() > LIMIT {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded as received.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > LIMIT {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded as received.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Capped = Capped;

/// Cases per property: each draws about twenty SVG charts.
const CASES: u32 = 12;
const MAX_SHRINK: u32 = 64;

/// `PROPTEST_CASES=N` runs a longer campaign by hand.
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(CASES);
    ProptestConfig {
        cases,
        max_shrink_iters: MAX_SHRINK,
        // No regression files beside this test: a failure prints its case.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A figure as a hostile or corrupt file may give it.
fn figure() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => 0.0..2e6f64,
        1 => Just(0.0),
        1 => Just(1e-320),
        1 => Just(f64::MIN_POSITIVE),
        1 => Just(1e-300),
        1 => Just(1e308),
        1 => Just(f64::MAX),
        1 => Just(-1.0),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
        1 => Just(f64::NAN),
        1 => any::<f64>(),
    ]
}

fn some_figure() -> impl Strategy<Value = Option<f64>> {
    prop_oneof![1 => Just(None), 6 => figure().prop_map(Some)]
}

/// A json+ histogram: latencies and counts anywhere in u64.
fn bins() -> impl Strategy<Value = Option<Vec<(u64, u64)>>> {
    let value = prop_oneof![
        3 => 1u64..10_000_000,
        1 => Just(0u64),
        1 => Just(u64::MAX),
        1 => any::<u64>(),
    ];
    proptest::option::of(proptest::collection::vec((value.clone(), value), 0..12))
}

/// The figures of one row.
#[derive(Debug, Clone)]
struct Figures {
    iops: f64,
    bw: f64,
    runtime_ms: f64,
    lat: Option<f64>,
    clat: Option<f64>,
    pcts: [Option<f64>; 6],
    cpu: (f64, f64),
    bins: Option<Vec<(u64, u64)>>,
}

fn figures() -> impl Strategy<Value = Figures> {
    (
        (figure(), figure(), figure()),
        (some_figure(), some_figure()),
        proptest::array::uniform6(some_figure()),
        (figure(), figure()),
        bins(),
    )
        .prop_map(
            |((iops, bw, runtime_ms), (lat, clat), pcts, cpu, bins)| Figures {
                iops,
                bw,
                runtime_ms,
                lat,
                clat,
                pcts,
                cpu,
                bins,
            },
        )
}

/// A real fio result's rows (randread 4k, libaio), the frame the random
/// figures are put into.
fn base_row() -> Row {
    let text = include_str!("../fixtures/fio/linux-libaio/randread-4k.json");
    let doc = nvcmp::ingest::fio_json::parse(text).expect("the fixture parses");
    nvcmp::ingest::fio_json::to_parsed(&doc).rows[0].clone()
}

fn with(base: &Row, label: &str, iodepth: u32, f: &Figures) -> Row {
    let mut r = base.clone();
    r.config = label.into();
    r.source = format!("{label}/qd{iodepth}.json");
    r.iodepth = iodepth;
    r.iops = f.iops;
    r.bw_bytes_per_s = f.bw;
    r.runtime_ms = f.runtime_ms;
    r.lat_mean_ns = f.lat;
    r.clat_mean_ns = f.clat;
    [
        r.clat_p50_ns,
        r.clat_p90_ns,
        r.clat_p95_ns,
        r.clat_p99_ns,
        r.clat_p99_9_ns,
        r.clat_p99_99_ns,
    ] = f.pcts;
    (r.usr_cpu_pct, r.sys_cpu_pct) = f.cpu;
    r.clat_bins = f.bins.as_deref().map(nvcmp::model::LatencyBins::new);
    r
}

/// Two configs, each a queue-depth sweep of four points: bars, deltas,
/// percentiles, CDFs, load curves and heat grids all get drawn.
fn rows(figs: &[Figures]) -> Vec<Row> {
    let base = base_row();
    figs.iter()
        .enumerate()
        .map(|(i, f)| {
            let label = if i % 2 == 0 { "a" } else { "b" };
            with(&base, label, 1 << (i / 2), f)
        })
        .collect()
}

fn svg() -> ChartOptions {
    ChartOptions {
        format: ChartFormat::Svg,
        width: 800,
        height: 450,
    }
}

proptest! {
    #![proptest_config(config())]

    /// analyze's path: the comparison, its charts and every table format.
    #[test]
    fn charts_and_tables_take_any_figure(figs in proptest::collection::vec(figures(), 8)) {
        let rows = rows(&figs);
        let cmp = compare(&rows, &CompareOptions::default());
        // An error is allowed (said, exit 2); a panic or abort is not.
        let _ = nvcmp::charts::svg_all(&cmp, &svg());
        for format in [Format::Term, Format::Md, Format::Html, Format::Json, Format::Csv] {
            let mut out = Vec::new();
            let _ = format.renderer(&Default::default()).render(&cmp, &mut out);
        }
        // A figure that is no measurement never wins.
        for w in &cmp.workloads {
            for m in &w.metrics {
                for (_, v) in m.compared() {
                    prop_assert!(nvcmp::numbers::is_plausible(v), "{:?} compared {v}", m.metric);
                }
            }
        }
    }

    /// check's path: no figure that is no measurement is an improvement.
    #[test]
    fn check_takes_any_figure(figs in proptest::collection::vec(figures(), 4)) {
        let rows = rows(&figs);
        let (base, cand): (Vec<Row>, Vec<Row>) = rows.into_iter().partition(|r| r.config == "a");
        let report = check(&base, &cand, &CheckOptions::default());
        for f in &report.findings {
            if f.verdict == nvcmp::check::Verdict::Improvement {
                let c = f.candidate.unwrap_or(f64::NAN);
                prop_assert!(nvcmp::numbers::is_plausible(c), "{} improved to {c}", f.workload());
            }
        }
        for r in [&CheckTerm { only_failures: false, color: false } as &dyn CheckRenderer, &CheckMarkdown] {
            let mut out = Vec::new();
            let _ = r.render(&report, &mut out);
        }
    }

    /// history show's path: series, change points, report and charts.
    #[test]
    fn history_reports_take_any_figure(figs in proptest::collection::vec(figures(), 6..12)) {
        let base = base_row();
        let runs: Vec<StoredRun> = figs
            .iter()
            .enumerate()
            .map(|(i, f)| StoredRun {
                meta: RunMeta {
                    id: format!("r{i}"),
                    commit: None,
                    time: format!("2026-12-01T08:{:02}:00Z", i % 60),
                    seq: i as u64 + 1,
                },
                rows: vec![with(&base, "cfg", 1, f)],
            })
            .collect();
        let report = show(&runs, &ShowOptions::default());
        let _ = nvcmp::charts::svg_history(&report, &svg());
        for format in [ShowFormat::Term, ShowFormat::Md, ShowFormat::Json] {
            let mut out = Vec::new();
            let _ = nvcmp::render::history::show(&report, format, &mut out);
        }
    }
}
