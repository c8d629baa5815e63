//! The per-device tables of a report: for each config and workload run on
//! several targets at once, a row per target (IOPS, bandwidth, mean
//! latency, how far off the others it is) under a line with the spread.
//! Formatted once here for the terminal, Markdown and HTML alike.

use crate::compare::report_units::ReportUnits;
use serde::Serialize;

use crate::compare::Comparison;
use crate::compare::devices::DeviceSpread;
use crate::numbers::{self, Unit};

/// One test bed table.
#[derive(Debug, Clone, Serialize)]
pub struct DeviceTableView {
    /// `linux-libaio: randread 4k QD32 on 3 targets`.
    pub title: String,
    /// `slowest /dev/loop2, fastest /dev/loop0, spread 12.3 %`.
    pub summary: String,
    /// Column titles with their units.
    pub header: Vec<String>,
    pub rows: Vec<DeviceRowView>,
    /// The table in the report's markup, written by the Markdown or HTML
    /// renderer ([`super::md`], [`super::html`]); empty in the others.
    pub table: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct DeviceRowView {
    pub target: String,
    pub iops: String,
    pub bw: String,
    pub lat: String,
    /// `-18 %` when the rule calls the target off the others, else empty.
    pub off: String,
    /// fio's error, when the target failed.
    pub error: String,
    /// Marked in the formats that can (bold, `!`).
    pub flagged: bool,
}

/// The tables of every test bed in `cmp`, in its order.
pub fn tables(cmp: &Comparison) -> Vec<DeviceTableView> {
    cmp.devices.iter().map(|s| table(s, &cmp.units)).collect()
}

fn table(s: &DeviceSpread, units: &ReportUnits) -> DeviceTableView {
    let max = |f: fn(&crate::compare::devices::TargetFigure) -> f64| {
        s.targets.iter().map(f).fold(0.0, f64::max)
    };
    let min = |f: fn(&crate::compare::devices::TargetFigure) -> f64| {
        s.targets
            .iter()
            .map(f)
            .filter(|v| *v > 0.0)
            .fold(f64::INFINITY, f64::min)
    };
    // The report's units; one count of decimals per column: four
    // significant digits of its largest value, two of its smallest.
    let (bw, lat) = (units.rate(), units.time());
    let decimals = |hi: f64, lo: f64, u: Unit| {
        numbers::significant_decimals(hi / u.div).max(numbers::min_significant_decimals(lo / u.div))
    };
    let (bw_dec, lat_dec) = (
        decimals(max(|t| t.bw_bytes_per_s), min(|t| t.bw_bytes_per_s), bw),
        decimals(
            max(|t| t.lat_mean_ns.unwrap_or(0.0)),
            min(|t| t.lat_mean_ns.unwrap_or(0.0)),
            lat,
        ),
    );
    DeviceTableView {
        title: format!(
            "{}: {} on {}",
            s.config,
            s.workload,
            numbers::count(s.targets.len(), "target")
        ),
        summary: format!(
            "total {} IOPS; slowest {}, fastest {}, spread {} %",
            numbers::fixed(s.total_iops, 0),
            s.slowest,
            s.fastest,
            numbers::fixed(s.spread_pct, 1)
        ),
        header: vec![
            "target".into(),
            "IOPS".into(),
            format!("bandwidth ({})", bw.name),
            format!("mean latency ({})", lat.name),
            "vs the others".into(),
        ],
        rows: s
            .targets
            .iter()
            .map(|t| DeviceRowView {
                target: t.target.clone(),
                iops: numbers::fixed(t.iops, 0),
                bw: numbers::fixed(t.bw_bytes_per_s / bw.div, bw_dec),
                lat: t
                    .lat_mean_ns
                    .map_or("–".into(), |v| numbers::fixed(v / lat.div, lat_dec)),
                off: t
                    .off_pct
                    .map_or(String::new(), |p| format!("{} %", numbers::signed(p, 1))),
                error: match t.error {
                    0 => String::new(),
                    e => format!("error {e}"),
                },
                flagged: t.off_pct.is_some() || t.error != 0,
            })
            .collect(),
        table: String::new(),
    }
}
