//! Peaks, knees and SLO answers on sweeps whose answers are known by
//! construction (Little's law: mean latency = depth / IOPS).

use super::*;
use crate::compare::{CompareOptions, compare};
use crate::model::{Direction, Row};

/// A randread 4k row at `qd` with `iops`, mean latency by Little's law and
/// p99 at twice the mean.
fn row(label: &str, qd: u32, numjobs: u32, iops: f64) -> Row {
    let mut r = Row::empty(&format!("{label}/qd{qd}-nj{numjobs}.json"), Direction::Read);
    r.config = label.into();
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
    let depths: Vec<u32> = c.workloads.iter().map(|w| w.key.load.iodepth).collect();
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
    assert_eq!((fast.peak.iops, fast.peak.load.iodepth), (306e3, 128));
    // Kneedle on log2 of the depth: the difference curve peaks at QD16
    // (normalized IOPS 0.909 against load 0.571).
    let knee = fast.knee.unwrap();
    assert_eq!((knee.load.iodepth, knee.next_iodepth), (16, 32));
    // Past QD16 the best later point (306k) is 9.3 % more; mean latency
    // grows from 57.1 us to 418.3 us (+632 %).
    assert!((knee.iops_gain_pct - 9.285714).abs() < 1e-4, "{knee:?}");
    assert!((knee.lat_growth_pct - 632.026144).abs() < 1e-4, "{knee:?}");
    let slow = c.sweeps[1].knee.unwrap();
    assert_eq!(slow.load.iodepth, 16);
    // Saturation: the lightest depth at 95 % of the peak.
    let sat = fast.saturation.unwrap();
    assert_eq!((sat.load.iodepth, sat.iops), (32, 300e3));
    assert!((sat.pct_of_peak - 300.0 / 306.0 * 100.0).abs() < 1e-9);
    assert_eq!(c.sweeps[1].saturation.unwrap().load.iodepth, 16);
}

#[test]
fn the_knee_and_saturation_rules_are_settings() {
    let mut o = CompareOptions::default();
    // Past QD16 the fast curve climbs (26k over 3 doublings) at 13.3 % of
    // its slope up to it: a flatness bound of 10 % refuses it, and no
    // other candidate is confirmed.
    o.sweep_rules.knee_flatness_pct = 10.0;
    let c = compare(&rows(), &o);
    assert_eq!(c.sweeps[0].knee, None);
    // Latency must grow more than 632 % past it: no knee either.
    let mut o = CompareOptions::default();
    o.sweep_rules.knee_lat_growth_pct = 700.0;
    let c = compare(&rows(), &o);
    assert_eq!(c.sweeps[0].knee, None);
    // 90 % of the peak is first reached at QD16 (280k >= 275.4k).
    let mut o = CompareOptions::default();
    o.sweep_rules.saturation_pct = 90.0;
    let c = compare(&rows(), &o);
    assert_eq!(c.sweeps[0].saturation.unwrap().load.iodepth, 16);
}

/// numjobs 1..20 at QD128 climbing linearly to a device limit and sitting
/// on it, as a storage-stack study's sweeps do: one step at a time never
/// looks like a knee, the curve does.
#[test]
fn a_linear_numjobs_sweep_saturates_where_it_flattens() {
    let limit = 4.12e6;
    let rows: Vec<Row> = (1..=20)
        .map(|nj| {
            let linear = 0.55e6 * f64::from(nj);
            // The plateau's noise: a few hundred IOPS either way.
            let noise = [0.0, 300.0, -250.0, 120.0][nj as usize % 4];
            row("stack", 128, nj, linear.min(limit) + noise)
        })
        .collect();
    let c = compare(&rows, &CompareOptions::default());
    let s = &c.sweeps[0];
    assert_eq!(s.axis, "numjobs");
    // 8 jobs reach 4.12 M (7 give 3.85 M, 93.4 %).
    let sat = s.saturation.unwrap();
    assert_eq!(sat.load.numjobs, 8, "{sat:?}");
    let knee = s.knee.expect("the curve flattens at 8 jobs");
    assert_eq!(knee.load.numjobs, 8, "{knee:?}");
    // The same curve one job step at a time never "adds < 10 % for > 50 %
    // latency" before the plateau: the old step rule found nothing here.
    assert!(knee.iops_gain_pct < 0.1);
}

#[test]
fn kneedle_finds_the_bend_and_log_axes_are_for_doubling_loads() {
    // A curve that rises steeply to x = 3 and is flat after.
    let xs = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    let ys = [10.0, 20.0, 30.0, 31.0, 31.0, 31.5];
    assert_eq!(kneedle(&xs, &ys, 1.0), vec![2]);
    // A straight line has no knee.
    assert!(kneedle(&xs, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 1.0).is_empty());
    // Too few points, or a flat line: none.
    assert!(kneedle(&[1.0, 2.0], &[1.0, 2.0], 1.0).is_empty());
    assert!(kneedle(&xs, &[5.0; 6], 1.0).is_empty());
    assert!(log_axis(&[1, 2, 4, 8, 16]));
    assert!(log_axis(&[1, 4, 16, 64]));
    assert!(!log_axis(&[1, 2, 3, 4, 5]));
    assert!(!log_axis(&[4, 8]));
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
    assert_eq!((s.load.iodepth, s.upper_iodepth), (64, Some(128)));
    let (l64, l128) = (2.0 * 64.0 / 305e3 * 1e9, 2.0 * 128.0 / 306e3 * 1e9);
    let want = 305e3 + (500e3 - l64) / (l128 - l64) * (306e3 - 305e3);
    assert!((s.iops - want).abs() < 1e-6, "{} vs {want}", s.iops);
    assert_eq!(s.lat_ns, 500e3);
    // A target every point meets: the peak, measured.
    let c = compare(&rows(), &with_slo("lat_mean=10ms"));
    let s = c.sweeps[0].at_slo.unwrap();
    assert_eq!(
        (s.iops, s.interpolated, s.load.iodepth),
        (306e3, false, 128)
    );
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
    assert_eq!((s.peak.load.iodepth, s.peak.load.numjobs), (16, 2));
    let curve = curve(&s.points);
    let loads: Vec<u64> = curve.iter().map(|p| p.load.outstanding()).collect();
    assert_eq!(loads, [1, 2, 4, 8, 16, 32]);
}

#[test]
fn slo_parsing_names_what_is_wrong() {
    assert_eq!(parse_slo("clat_p99=1ms").unwrap().target_ns, 1e6);
    assert_eq!(
        parse_slo("lat_mean=250us").unwrap().metric,
        SloMetric::LatMean
    );
    // Any completion-latency percentile fio printed.
    assert_eq!(parse_slo("clat_p95=1ms").unwrap().percentile, 95.0);
    assert_eq!(parse_slo("clat_p99_9=1ms").unwrap().percentile, 99.9);
    assert_eq!(parse_slo("p99.999=1ms").unwrap().percentile, 99.999);
    assert_eq!(parse_slo("p99=1ms").unwrap().metric, SloMetric::ClatP99);
    assert!(parse_slo("p142=1ms").unwrap_err().contains("p142"));
    assert!(parse_slo("clat_pxx=1ms").unwrap_err().contains("clat_pxx"));
    assert!(parse_slo("clat_p99").unwrap_err().contains("METRIC=TIME"));
    assert!(parse_slo("clat_p99=fast").unwrap_err().contains("fast"));
}
