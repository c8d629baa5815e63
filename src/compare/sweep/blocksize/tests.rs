//! Block-size sweeps on curves whose answers are known by construction
//! (Little's law: mean latency = depth x block size / bandwidth).

use super::*;
use crate::compare::sweep::parse_slo;
use crate::compare::{CompareOptions, compare};
use crate::model::{Direction, Row};

const QD: u32 = 8;
const KIB: u64 = 1024;
const BS: [u64; 5] = [4 * KIB, 16 * KIB, 64 * KIB, 256 * KIB, 1024 * KIB];

/// Mean latency at QD8 of `bs` at `bw` bytes/s, ns.
fn lat(bs: u64, bw: f64) -> f64 {
    f64::from(QD) * bs as f64 / bw * 1e9
}

/// A randread row of `label` at QD8 and `bs` with bandwidth `bw` (bytes/s),
/// mean latency by Little's law and p99 at twice the mean.
fn row(label: &str, bs: u64, bw: f64) -> Row {
    let mut r = Row::empty(&format!("{label}/bs{bs}.json"), Direction::Read);
    r.config = label.into();
    r.os = "linux".into();
    r.engine = "io_uring".into();
    r.rw = "randread".into();
    r.bs_bytes = bs;
    r.iodepth = QD;
    r.numjobs = 1;
    r.runtime_ms = 10_000.0;
    r.bw_bytes_per_s = bw;
    r.iops = bw / bs as f64;
    r.io_bytes = (bw * 10.0) as u64;
    r.lat_mean_ns = Some(lat(bs, bw));
    r.clat_mean_ns = r.lat_mean_ns;
    r.clat_p99_ns = Some(2.0 * lat(bs, bw));
    r.usr_cpu_pct = 10.0;
    r
}

/// Rows of one config over `bs` with bandwidths `bw` (MB/s).
fn rows(label: &str, bs: &[u64], bw_mb: &[f64]) -> Vec<Row> {
    bs.iter()
        .zip(bw_mb)
        .map(|(bs, mb)| row(label, *bs, mb * 1e6))
        .collect()
}

/// Rises steeply to 64k, then flat: 3.1 GB/s at 256k, 3.2 at 1m.
const PLATEAU: [f64; 5] = [200.0, 700.0, 2600.0, 3100.0, 3200.0];

fn one(rows: &[Row], opts: &CompareOptions) -> BsSweep {
    let c = compare(rows, opts);
    assert_eq!(c.bs_sweeps.len(), 1, "{:?}", c.bs_sweeps);
    c.bs_sweeps[0].clone()
}

#[test]
fn a_plateau_has_its_knee_at_the_bend_and_saturates_where_it_reaches_the_band() {
    let s = one(&rows("fast", &BS, &PLATEAU), &CompareOptions::default());
    assert_eq!((s.config.as_str(), s.axis.as_str()), ("fast", "bs"));
    assert_eq!(s.at.load.iodepth, QD);
    assert_eq!(s.points.len(), 5);
    assert_eq!(
        (s.peak.bs_bytes, s.peak.bw_bytes_per_s),
        (1024 * KIB, 3.2e9)
    );
    // IOPS fall with the block size from 48.8k at 4k.
    assert_eq!(s.iops_peak.bs_bytes, 4 * KIB);
    // Kneedle on log2 of the block size: normalized bandwidth 0.8 against
    // 0.5 at 64k; past it 3.2/2.6 = 23 % more bandwidth, latency x13.
    let k = s.knee.expect("the curve bends at 64k");
    assert_eq!((k.bs_bytes, k.next_bs_bytes), (64 * KIB, 256 * KIB));
    assert!((k.bw_gain_pct - (3.2 / 2.6 - 1.0) * 100.0).abs() < 1e-9);
    assert!((k.lat_growth_pct - 1200.0).abs() < 1e-6, "{k:?}");
    // 95 % of 3.2 GB/s is 3.04: 256k is the first block size there.
    let sat = s.saturation.unwrap();
    assert_eq!(sat.bs_bytes, 256 * KIB);
    assert!((sat.pct_of_peak - 3.1 / 3.2 * 100.0).abs() < 1e-9);
    assert_eq!(s.fall, None);
}

#[test]
fn a_curve_that_keeps_rising_has_no_knee() {
    let s = one(
        &rows("lin", &BS, &[100.0, 200.0, 400.0, 800.0, 1600.0]),
        &CompareOptions::default(),
    );
    assert_eq!(s.knee, None);
    assert_eq!(s.peak.bs_bytes, 1024 * KIB);
    assert_eq!(s.saturation.map(|x| x.bs_bytes), Some(1024 * KIB));
}

#[test]
fn bandwidth_that_falls_at_the_largest_block_size_is_a_fall() {
    let s = one(
        &rows("drop", &BS, &[200.0, 800.0, 2000.0, 2100.0, 1500.0]),
        &CompareOptions::default(),
    );
    assert_eq!(s.peak.bs_bytes, 256 * KIB);
    let f = s.fall.expect("1.5 GB/s is below 95 % of 2.1");
    assert_eq!(f.bs_bytes, 1024 * KIB);
    assert!((f.pct_below_peak - (1.0 - 1.5 / 2.1) * 100.0).abs() < 1e-9);
    // 95 % of 2.1 GB/s is 1.995: 64k's 2.0 reach it.
    assert_eq!(s.saturation.unwrap().bs_bytes, 64 * KIB);
}

#[test]
fn two_block_sizes_give_a_peak_and_saturation_but_no_knee() {
    let bs = [4 * KIB, 1024 * KIB];
    let s = one(
        &rows("two", &bs, &[400.0, 3000.0]),
        &CompareOptions::default(),
    );
    assert_eq!(s.points.len(), 2);
    assert_eq!(s.peak.bs_bytes, 1024 * KIB);
    assert_eq!(s.iops_peak.bs_bytes, 4 * KIB);
    assert_eq!(s.saturation.unwrap().bs_bytes, 1024 * KIB);
    assert_eq!(s.knee, None);
    // One block size is no sweep.
    let c = compare(&rows("one", &bs[..1], &[400.0]), &CompareOptions::default());
    assert!(c.bs_sweeps.is_empty());
}

#[test]
fn the_slo_answer_interpolates_between_two_block_sizes() {
    let mut o = CompareOptions::default();
    o.sweep_rules.slo = Some(parse_slo("clat_p99=1ms").unwrap());
    let s = one(&rows("fast", &BS, &PLATEAU), &o);
    // p99 at 64k: 403 us; at 256k: 1353 us. 1 ms lies between.
    let a = s.at_slo.unwrap();
    assert!(a.interpolated);
    assert_eq!((a.bs_bytes, a.upper_bs_bytes), (64 * KIB, Some(256 * KIB)));
    let (lo, hi) = (2.0 * lat(64 * KIB, 2.6e9), 2.0 * lat(256 * KIB, 3.1e9));
    let want = 2.6e9 + (1e6 - lo) / (hi - lo) * 0.5e9;
    assert!((a.bw_bytes_per_s - want).abs() < 1e-3, "{a:?} vs {want}");
    assert_eq!(a.lat_ns, 1e6);
}

#[test]
fn sweeps_are_one_per_config_and_load_point_and_serialize_their_names() {
    let mut all = rows("fast", &BS, &PLATEAU);
    all.extend(rows("slow", &BS, &[100.0, 380.0, 1400.0, 2600.0, 2900.0]));
    let c = compare(&all, &CompareOptions::default());
    let configs: Vec<&str> = c.bs_sweeps.iter().map(|s| s.config.as_str()).collect();
    assert_eq!(configs, ["fast", "slow"]);
    assert_eq!(by_rw(&c.bs_sweeps).len(), 1);
    let json = serde_json::to_value(&c.bs_sweeps[0]).unwrap();
    for key in ["rw", "direction", "rwmixread", "iodepth", "numjobs", "axis"] {
        assert!(json.get(key).is_some(), "{key} in {json}");
    }
    assert!(json.get("hosts").is_none() && json.get("fall").is_none());
    assert_eq!(json["peak"]["bs_bytes"], 1024 * 1024);
    assert_eq!(json["knee"]["next_bs_bytes"], 256 * 1024);
    // The slow config needs 1m for 95 % of its 2.9 GB/s (2.6 is 90 %).
    assert_eq!(c.bs_sweeps[1].saturation.unwrap().bs_bytes, 1024 * KIB);
}

#[test]
fn the_finding_ranks_configs_by_the_block_size_they_need_and_names_ties_together() {
    let mut all = rows("fast", &BS, &PLATEAU);
    all.extend(rows("twin", &BS, &PLATEAU));
    all.extend(rows(
        "early",
        &BS,
        &[1000.0, 2800.0, 3000.0, 3050.0, 3100.0],
    ));
    all.extend(rows("lin", &BS, &[100.0, 200.0, 400.0, 800.0, 1600.0]));
    let c = compare(&all, &CompareOptions::default());
    let found: Vec<&String> = c
        .highlights
        .iter()
        .filter(|h| h.contains("bandwidth-bound"))
        .collect();
    // early reaches 95 % of 3.1 GB/s at 64k; fast and twin at 256k; lin
    // only at its largest block size, with no knee: still climbing, last.
    assert_eq!(
        found,
        [
            "In randread at QD8, early is bandwidth-bound from 64k (2.794 GiB/s); \
          fast and twin need 256k and lin is still climbing at 1m"
        ]
    );
}
