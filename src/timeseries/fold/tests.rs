//! The fold gives the buckets the rows give ([`crate::timeseries::bucket`]),
//! on every log fixture and on logs long enough to merge cells.

use std::path::Path;

use super::*;
use crate::ingest::IngestOptions;
use crate::timeseries::Logs;
use crate::timeseries::bucket::{adaptive_width, buckets};

fn fixture_series(rel: &str) -> Logs {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel);
    crate::ingest::logs::read(&[path], &IngestOptions::default()).unwrap()
}

fn fold(rows: &[&SeriesRow], kind: Kind) -> Folded {
    let mut f = Folded::new(kind);
    for r in rows {
        f.add(r);
    }
    f.finish();
    f
}

fn assert_close(want: &[BucketPoint], got: &[BucketPoint], what: &str) {
    assert_eq!(want.len(), got.len(), "{what}: {want:?}\n{got:?}");
    for (w, g) in want.iter().zip(got) {
        assert_eq!(w.t_ms, g.t_ms, "{what}");
        let tol = 1e-9 * w.value.abs().max(1.0);
        assert!(
            (w.value - g.value).abs() <= tol,
            "{what} at {}: {} vs {}",
            w.t_ms,
            w.value,
            g.value
        );
    }
}

/// Widths a chart or a SNIA round of these logs can take.
fn widths(span: u64) -> Vec<u64> {
    let mut w = vec![1, 7, 10, 100, 200, 320, 500, 1000];
    w.push(adaptive_width(span, 300, 0));
    w.push((span / 25).max(1));
    w
}

#[test]
fn every_log_fixture_buckets_as_its_rows_do() {
    let mut traces = 0;
    for rel in ["series", "snia"] {
        let s = fixture_series(rel);
        for (key, rows) in s.group_by(|info, r| {
            (
                info.source.as_str(),
                r.direction,
                r.percentile.map(f64::to_bits),
            )
        }) {
            let kind = s.info(rows[0]).kind;
            let f = fold(&rows, kind);
            let span = rows.last().map_or(0, |r| r.t_ms);
            assert_eq!(f.last_ms(), Some(span));
            for w in widths(span) {
                assert_close(
                    &buckets(&rows, kind, w),
                    &f.points(w),
                    &format!("{key:?} width {w}"),
                );
            }
            traces += 1;
        }
    }
    // Every kind of log the fixtures hold was compared.
    assert!(traces >= 40, "{traces}");
}

fn row(t_ms: u64, value: f64, bs: u64) -> SeriesRow {
    let mut r = SeriesRow::new(0, Direction::Read, t_ms, value);
    r.bs_bytes = bs;
    r
}

#[test]
fn a_long_per_io_log_merges_cells_and_keeps_its_chart() {
    // 10 minutes at ~30 I/Os per ms: cells merge to 100 ms.
    let rows: Vec<SeriesRow> = (0..18_000_000u64)
        .step_by(1000)
        .flat_map(|t| (0..3).map(move |i| row(t / 30 + i, 1.0 + (t % 7) as f64, 4096)))
        .collect();
    let refs: Vec<&SeriesRow> = rows.iter().collect();
    let f = fold(&refs, Kind::Iops);
    assert_eq!(f.cell_ms(), 100);
    assert!(f.events.len() as u64 <= MAX_CELLS);
    let span = f.last_ms().unwrap();
    let chart = adaptive_width(span, 300, 0);
    assert_eq!(chart, 2000);
    assert_close(&buckets(&refs, Kind::Iops, chart), &f.points(chart), "iops");
    assert_close(
        &buckets(&refs, Kind::Clat, chart),
        &fold(&refs, Kind::Clat).points(chart),
        "clat",
    );
}

#[test]
fn a_long_averaged_log_spreads_its_windows_after_merging() {
    // An hour of 100 ms windows (36,000 rows, more than the head held), a
    // stall in the middle; cells merge to 10 ms... then 1 s.
    let rows: Vec<SeriesRow> = (1..=36_000u64)
        .filter(|i| !(10_000..10_050).contains(i))
        .map(|i| row(i * 100 + i % 3, 1000.0 + (i % 11) as f64, 0))
        .collect();
    let refs: Vec<&SeriesRow> = rows.iter().collect();
    let f = fold(&refs, Kind::Bw);
    assert_eq!(f.cell_ms(), 1000);
    for w in [10_000, 20_000] {
        assert_close(
            &buckets(&refs, Kind::Bw, w),
            &f.points(w),
            &format!("bw {w}"),
        );
    }
}

#[test]
fn cells_stay_bounded_whatever_the_times() {
    let mut f = Folded::new(Kind::Lat);
    for t in [5, u64::MAX, 1 << 53, 0, u64::MAX - 1] {
        f.add(&row(t, 1.0, 0));
    }
    f.finish();
    let w = f.windows.as_ref().unwrap();
    assert!(f.events.len() as u64 <= MAX_CELLS && w.cells.len() as u64 <= MAX_CELLS);
    assert!(f.points(adaptive_width(u64::MAX, 300, 0)).len() <= 300);
}

#[test]
fn a_log_folder_keeps_a_trace_per_direction_and_percentile() {
    let mut folder = LogFolder::new(Kind::Hist);
    let mut rows = Vec::new();
    for t in [100, 200] {
        for (d, p) in [
            (Direction::Read, 50.0),
            (Direction::Read, 99.0),
            (Direction::Write, 50.0),
        ] {
            let mut r = SeriesRow::new(3, d, t, p);
            r.percentile = Some(p);
            rows.push(r);
        }
    }
    folder.add(&rows[..4]);
    folder.add(&rows[4..]);
    let traces = folder.finish();
    let keys: Vec<_> = traces
        .iter()
        .map(|t| (t.log, t.direction, t.percentile))
        .collect();
    assert_eq!(
        keys,
        [
            (3, Direction::Read, Some(50.0)),
            (3, Direction::Read, Some(99.0)),
            (3, Direction::Write, Some(50.0))
        ]
    );
    assert!(traces.iter().all(|t| t.fold.last_ms() == Some(200)));
}
