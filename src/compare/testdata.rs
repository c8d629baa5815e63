//! The published StorageReview comparison (April 2026) as rows and as a
//! Comparison, built from the one copy of its figures,
//! `fixtures/published/storagereview-2026-04.csv`: what compare's, render's
//! and the charts' tests start from.

use super::*;
use crate::model::{Direction, Row};

const CSV: &str = include_str!("../../fixtures/published/storagereview-2026-04.csv");
pub(crate) const ORDER: [&str; 4] = [
    "windows-non-native",
    "windows-native",
    "linux-libaio",
    "linux-io_uring",
];

/// Rows as ingest would make them from the shipped fixture: Windows
/// figures exact (fio JSON), Linux IOPS known to the thousand, bandwidth
/// to 1 MiB/s and latency to 10 ns (fio's normal text output).
pub(crate) fn rows() -> Vec<Row> {
    let mut lines = CSV.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    lines
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            let num = |name: &str| f[col(name)].parse::<f64>().unwrap();
            let rw = f[col("rw")];
            let dir = if rw.contains("read") {
                Direction::Read
            } else {
                Direction::Write
            };
            let mut r = Row::empty(&format!("{}/{rw}-{}.out", f[0], f[col("bs")]), dir);
            r.config = f[col("config")].into();
            r.os = f[col("os")].into();
            r.engine = f[col("ioengine")].into();
            r.rw = rw.into();
            r.bs_bytes = crate::units::grammar::size(f[col("bs")], Default::default()).unwrap();
            r.bw_bytes_per_s = num("bw_gib_s") * crate::units::GIB;
            r.iops = num("iops");
            r.iops_precision = num("iops_rounded_to");
            r.lat_mean_ns = Some(num("lat_mean_ms") * 1e6);
            r.clat_mean_ns = r.lat_mean_ns;
            r.system_cpu_pct = Some(num("cpu_total_pct"));
            r.iodepth = 32;
            r.numjobs = 16;
            if r.os == crate::model::Os::Linux {
                r.bw_precision = 1024.0 * 1024.0;
                r.lat_precision_ns = 10.0;
            }
            r
        })
        .collect()
}

/// The article's house style, as the fixture's manifest (`[units]`) says
/// it: mean latency in ms to three decimals.
pub(crate) fn house_style() -> report_units::HouseStyle {
    let mut house = report_units::HouseStyle::default();
    house.set("latency", "ms", Some(3)).expect("a known unit");
    house
}

/// The comparison in the article's config order, against
/// windows-non-native.
pub(crate) fn published() -> Comparison {
    published_renamed(|s| s.to_string())
}

/// [`published`] with every config label passed through `rename`.
pub(crate) fn published_renamed(rename: impl Fn(&str) -> String) -> Comparison {
    let rows: Vec<Row> = rows()
        .into_iter()
        .map(|mut r| {
            r.config = rename(&r.config);
            r
        })
        .collect();
    let opts = CompareOptions {
        order: ORDER.iter().map(|s| rename(s)).collect(),
        baseline: Some(rename("windows-non-native")),
        house: house_style(),
        ..CompareOptions::default()
    };
    compare(&rows, &opts)
}
