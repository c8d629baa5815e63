//! The per-device rule on hand-made rows: a test bed's targets, one slow.

use super::*;
use crate::model::Direction;

/// A randread 4k QD32 row of `source` on `target` with `iops`.
fn row(label: &str, source: &str, target: &str, iops: f64) -> Row {
    let mut r = Row::empty(source, Direction::Read);
    r.config = label.into();
    r.rw = "randread".into();
    r.bs_bytes = 4096;
    r.iodepth = 32;
    r.iops = iops;
    r.bw_bytes_per_s = iops * 4096.0;
    r.runtime_ms = 10_000.0;
    r.lat_mean_ns = Some(32e9 / iops);
    r.target = Some(target.into());
    r
}

fn bed(label: &str, source: &str, iops: &[f64]) -> Vec<Row> {
    iops.iter()
        .enumerate()
        .map(|(i, &v)| row(label, source, &format!("/dev/nvme{i}n1"), v))
        .collect()
}

#[test]
fn a_slow_drive_among_fifteen_is_named() {
    let mut iops = vec![100_000.0; 15];
    for (i, v) in iops.iter_mut().enumerate() {
        *v += (i as f64 - 7.0) * 300.0;
    }
    iops[7] = 82_000.0;
    let rows = bed("jbod", "r.json", &iops);
    let s = build(&rows, &["jbod".into()]);
    assert_eq!(s.len(), 1);
    let s = &s[0];
    assert_eq!(s.targets.len(), 15);
    assert_eq!(
        (s.slowest.as_str(), s.fastest.as_str()),
        ("/dev/nvme7n1", "/dev/nvme14n1")
    );
    // The config's figure is the sum of the drives.
    assert!((s.total_iops - iops.iter().sum::<f64>()).abs() < 1e-6);
    let off: Vec<_> = s.targets.iter().filter(|t| t.off_pct.is_some()).collect();
    assert_eq!(off.len(), 1);
    assert_eq!(off[0].target, "/dev/nvme7n1");
    let f = findings(std::slice::from_ref(s));
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].kind, FindingKind::DeviceOutlier);
    assert_eq!(
        f[0].text,
        "/dev/nvme7n1 gives 18 % fewer IOPS than the other 14 (jbod, randread 4k QD32)"
    );
    assert!(f[0].score > 0.3, "{}", f[0].score);
}

#[test]
fn drives_within_the_noise_are_not_called_off() {
    // 4 % apart: under the 5 % floor.
    let rows = bed("c", "r.json", &[100_000.0, 98_000.0, 96_000.0]);
    let s = build(&rows, &["c".into()]);
    assert!(s[0].targets.iter().all(|t| t.off_pct.is_none()));
    assert!((s[0].spread_pct - 4.0 / 0.98).abs() < 1e-9);
    // 20 % apart, but fio's interval samples swing by 60 % over 4 samples:
    // the standard error (30 %) is larger than the gap.
    let mut rows = bed("c", "r.json", &[100_000.0, 80_000.0]);
    for r in &mut rows {
        r.iops_samples = Some(4);
        r.iops_sample_mean = Some(r.iops);
        r.iops_sample_stddev = Some(0.6 * r.iops);
    }
    let s = build(&rows, &["c".into()]);
    assert!(s[0].targets.iter().all(|t| t.off_pct.is_none()), "{s:?}");
    assert!(findings(&s).is_empty());
}

#[test]
fn two_drives_name_the_slower_against_the_other() {
    let rows = bed("c", "r.json", &[100_000.0, 70_000.0]);
    let s = build(&rows, &["c".into()]);
    let f = findings(&s);
    assert_eq!(f.len(), 1);
    assert_eq!(
        f[0].text,
        "/dev/nvme1n1 gives 30 % fewer IOPS than /dev/nvme0n1 (c, randread 4k QD32)"
    );
}

#[test]
fn one_target_per_file_is_no_test_bed_and_errors_stay_out() {
    // Two files of one target each: repetitions on one drive, no spread.
    let rows = vec![
        row("c", "a.json", "/dev/x", 1.0),
        row("c", "b.json", "/dev/y", 2.0),
    ];
    assert!(build(&rows, &["c".into()]).is_empty());
    // A failed drive is shown with its error, not judged, not slowest.
    let mut rows = bed("c", "r.json", &[100_000.0, 99_000.0, 101_000.0]);
    rows[1].error = 5;
    rows[1].iops = 10.0;
    let s = build(&rows, &["c".into()]);
    assert_eq!(s[0].targets[1].error, 5);
    assert!(s[0].targets.iter().all(|t| t.off_pct.is_none()));
    assert_eq!(s[0].slowest, "/dev/nvme0n1");
}

#[test]
fn repetitions_average_per_drive() {
    let mut rows = bed("c", "r1.json", &[100_000.0, 100_000.0, 60_000.0]);
    rows.extend(bed("c", "r2.json", &[102_000.0, 98_000.0, 62_000.0]));
    let s = build(&rows, &["c".into()]);
    assert_eq!(s.len(), 1);
    let t = &s[0].targets;
    assert_eq!(t.iter().map(|t| t.runs).collect::<Vec<_>>(), [2, 2, 2]);
    assert!((t[2].iops - 61_000.0).abs() < 1e-9);
    assert!(t[2].off_pct.unwrap() < -35.0);
}

#[test]
fn fio_instances_that_ran_together_are_one_run_at_their_own_load() {
    // Two fio instances at once, each on the same two drives, and the
    // same bed alone earlier: two spreads, the instances' one run.
    let mut rows = bed("bed", "alone.json", &[100_000.0, 100_000.0]);
    for (source, iops) in [("i-0.json", 50_000.0), ("i-1.json", 52_000.0)] {
        for mut r in bed("bed", source, &[iops, iops]) {
            r.instances = 2;
            r.instance_group = Some("i-0.json".into());
            rows.push(r);
        }
    }
    let s = build(&rows, &["bed".into()]);
    assert_eq!(s.len(), 2, "alone and beside another instance: apart");
    let together = s.iter().find(|s| s.key.load.instances == 2).unwrap();
    assert_eq!(together.workload, "randread 4k QD32 x 2 instances");
    // One run per drive, its I/O the two instances' sum.
    assert!(together.targets.iter().all(|t| t.runs == 1), "{together:?}");
    assert!(together.targets.iter().all(|t| t.iops == 102_000.0));
    let alone = s.iter().find(|s| s.key.load.instances == 1).unwrap();
    assert_eq!(alone.workload, "randread 4k QD32");
    assert_eq!(alone.total_iops, 200_000.0);
}

#[test]
fn a_spread_is_named_by_its_whole_load() {
    let mut rows = bed("bed", "r.json", &[100_000.0, 100_000.0]);
    for r in &mut rows {
        r.numjobs = 4;
    }
    let s = build(&rows, &["bed".into()]);
    assert_eq!(s[0].workload, "randread 4k QD32 x 4 jobs");
    assert_eq!(s[0].key.load, LoadPoint::of(32, 4));
}
