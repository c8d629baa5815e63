//! Peaks, knees and SLO answers on sweeps whose answers are known by
//! construction (Little's law: mean latency = depth / IOPS).

use super::*;
use crate::compare::{CompareOptions, compare};
use crate::model::{Direction, Row};

/// A randread 4k row at `qd` with `iops`, mean latency by Little's law and
/// p99 at twice the mean.
fn row(label: &str, qd: u32, numjobs: u32, iops: f64) -> Row {
    let mut r = Row::empty(&format!("{label}/qd{qd}-nj{numjobs}.json"), Direction::Read);
    r.label = label.into();
    r.os = "linux".into();
    r.engine = "io_uring".into();
    r.rw = "randread".into();
    r.bs_bytes = 4096;
    r.iodepth = qd;
    r.numjobs = numjobs;
    r.runtime_ms = 10_000.0;
    r.iops = iops;
    r.bw_bytes_per_s = iops * 4096.0;
    r.io_bytes = (r.bw_bytes_per_s * 10.0) as u64;
    let lat = f64::from(qd * numjobs) / iops * 1e9;
    r.lat_mean_ns = Some(lat);
    r.clat_mean_ns = Some(lat);
    r.clat_p99_ns = Some(2.0 * lat);
    r.usr_cpu_pct = 10.0;
    r
}

const QDS: [u32; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
const FAST: [f64; 8] = [20e3, 40e3, 78e3, 150e3, 280e3, 300e3, 305e3, 306e3];
const SLOW: [f64; 8] = [10e3, 19e3, 36e3, 60e3, 70e3, 72e3, 72.5e3, 72.6e3];

fn rows() -> Vec<Row> {
    let mut rows = Vec::new();
    for (i, qd) in QDS.iter().enumerate() {
        rows.push(row("fast", *qd, 1, FAST[i]));
        rows.push(row("slow", *qd, 1, SLOW[i]));
    }
    rows
}

fn with_slo(slo: &str) -> CompareOptions {
    let mut o = CompareOptions::default();
    o.sweep_rules.slo = Some(parse_slo(slo).unwrap());
    o
}

#[test]
fn load_points_are_never_averaged() {
    let c = compare(&rows(), &CompareOptions::default());
    assert_eq!(c.workloads.len(), 8);
    let depths: Vec<u32> = c.workloads.iter().map(|w| w.iodepth).collect();
    assert_eq!(depths, QDS);
    let qd16 = &c.workloads[4];
    let iops = qd16.metric(Metric::Iops).unwrap();
    assert_eq!(iops.values["fast"], Some(280e3));
    assert_eq!(iops.values["slow"], Some(70e3));
    assert_eq!(iops.winner.as_deref(), Some("fast"));
    assert!(qd16.notes.is_empty(), "{:?}", qd16.notes);
}

#[test]
fn peak_and_knee_by_construction() {
    let c = compare(&rows(), &CompareOptions::default());
    assert_eq!(c.sweeps.len(), 2);
    let fast = &c.sweeps[0];
    assert_eq!(
        (fast.config.as_str(), fast.axis.as_str()),
        ("fast", "iodepth")
    );
    assert_eq!(fast.points.len(), 8);
    assert_eq!((fast.peak.iops, fast.peak.iodepth), (306e3, 128));
    let knee = fast.knee.unwrap();
    // QD16 -> QD32: +7.1 % IOPS for +86.7 % latency.
    assert_eq!((knee.iodepth, knee.next_iodepth), (16, 32));
    assert!((knee.iops_gain_pct - 7.142857).abs() < 1e-4, "{knee:?}");
    assert!((knee.lat_growth_pct - 86.666667).abs() < 1e-4, "{knee:?}");
    // slow: QD8 -> QD16 is +16.7 % (still paying); QD16 -> QD32 +2.9 %
    // IOPS for +94 % latency.
    let slow = c.sweeps[1].knee.unwrap();
    assert_eq!(slow.iodepth, 16);
}

#[test]
fn the_knee_rule_is_a_setting() {
    let mut o = CompareOptions::default();
    // QD16 -> QD32 grows latency by 86.7 %: under a 90 % rule the knee
    // moves to QD32 (QD32 -> QD64: +1.7 % IOPS, +96.7 % latency).
    o.sweep_rules.knee_lat_growth_pct = 90.0;
    let c = compare(&rows(), &o);
    assert_eq!(c.sweeps[0].knee.unwrap().iodepth, 32);
    // Under a 100 % rule the curve never bends enough: no knee.
    o.sweep_rules.knee_lat_growth_pct = 100.0;
    let c = compare(&rows(), &o);
    assert_eq!(c.sweeps[0].knee, None);
}

#[test]
fn no_knee_while_the_curve_still_pays() {
    let rows: Vec<Row> = QDS
        .iter()
        .map(|qd| row("lin", *qd, 1, f64::from(*qd) * 1e4))
        .collect();
    let c = compare(&rows, &CompareOptions::default());
    assert_eq!(c.sweeps[0].knee, None);
    // A dip that recovers is not saturation.
    let iops = [10e3, 20e3, 19e3, 60e3];
    let rows: Vec<Row> = [1, 2, 4, 8]
        .iter()
        .zip(iops)
        .map(|(qd, v)| row("dip", *qd, 1, v))
        .collect();
    let c = compare(&rows, &CompareOptions::default());
    assert_eq!(c.sweeps[0].knee, None);
}

#[test]
fn slo_interpolates_between_the_points_around_the_target() {
    // fast: p99 = 2 x depth / IOPS. QD16: 114.3 us, QD32: 213.3 us,
    // QD64: 419.7 us, QD128: 836.6 us. 500 us lies between QD64 and QD128.
    let c = compare(&rows(), &with_slo("clat_p99=500us"));
    let s = c.sweeps[0].at_slo.unwrap();
    assert!(s.interpolated);
    assert_eq!((s.iodepth, s.upper_iodepth), (64, Some(128)));
    let (l64, l128) = (2.0 * 64.0 / 305e3 * 1e9, 2.0 * 128.0 / 306e3 * 1e9);
    let want = 305e3 + (500e3 - l64) / (l128 - l64) * (306e3 - 305e3);
    assert!((s.iops - want).abs() < 1e-6, "{} vs {want}", s.iops);
    assert_eq!(s.lat_ns, 500e3);
    // A target every point meets: the peak, measured.
    let c = compare(&rows(), &with_slo("lat_mean=10ms"));
    let s = c.sweeps[0].at_slo.unwrap();
    assert_eq!((s.iops, s.interpolated, s.iodepth), (306e3, false, 128));
    // A target no point meets.
    let c = compare(&rows(), &with_slo("clat_p99=1us"));
    assert_eq!(c.sweeps[0].at_slo, None);
}

#[test]
fn a_grid_keeps_every_point_and_its_curve_takes_the_best_per_load() {
    let mut rows = Vec::new();
    for nj in [1, 2] {
        for qd in [1, 4, 16] {
            rows.push(row(
                "grid",
                qd,
                nj,
                f64::from(qd * nj) * 1e4 + f64::from(nj),
            ));
        }
    }
    let c = compare(&rows, &CompareOptions::default());
    let s = &c.sweeps[0];
    assert_eq!(s.axis, "iodepth+numjobs");
    assert_eq!(s.points.len(), 6);
    assert_eq!((s.peak.iodepth, s.peak.numjobs), (16, 2));
    let curve = curve(&s.points);
    let loads: Vec<u64> = curve.iter().map(|p| p.load().outstanding()).collect();
    assert_eq!(loads, [1, 2, 4, 8, 16, 32]);
}

#[test]
fn slo_parsing_names_what_is_wrong() {
    assert_eq!(parse_slo("clat_p99=1ms").unwrap().target_ns, 1e6);
    assert_eq!(
        parse_slo("lat_mean=250us").unwrap().metric,
        SloMetric::LatMean
    );
    assert!(parse_slo("p42=1ms").unwrap_err().contains("p42"));
    assert!(parse_slo("clat_p99").unwrap_err().contains("METRIC=TIME"));
    assert!(parse_slo("clat_p99=fast").unwrap_err().contains("fast"));
}
