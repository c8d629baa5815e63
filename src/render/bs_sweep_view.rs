//! The block-size sweeps of a report: per rw and load point a table with
//! a row per block size and a column per config (bandwidth and IOPS, each
//! config's peak marked), then a line per config with its peak,
//! saturation, knee, fall and the bandwidth under the latency target, as
//! `compare::sweep::blocksize` found them. Formatted once here for the
//! terminal, Markdown and HTML alike.

use crate::compare::report_units::ReportUnits;
use serde::Serialize;

use crate::compare::sweep::{blocksize, slo_target_text};
use crate::compare::{BsSweep, Comparison, RwLoad, SweepRules};
use crate::numbers::{self, Unit};
use crate::units::format_bs;

/// One rw at one load point, swept over block sizes.
#[derive(Debug, Clone, Serialize)]
pub struct BsSweepView {
    /// `randread at QD8`.
    pub title: String,
    /// Column configs: those with a sweep here.
    pub configs: Vec<String>,
    /// Unit of the bandwidth in the cells: `GiB/s`.
    pub bw_unit: String,
    pub rows: Vec<BsRowView>,
    /// One line per config: peak, saturation, knee, fall, at the SLO.
    pub summaries: Vec<String>,
    /// The table in the report's markup, written by the Markdown or HTML
    /// renderer ([`super::md`], [`super::html`]); empty in the others.
    pub table: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct BsRowView {
    /// `64k`.
    pub bs: String,
    pub cells: Vec<BsCellView>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BsCellView {
    pub config: String,
    /// Bandwidth in the table's unit; `–` where not measured.
    pub bw: String,
    /// IOPS; `–` where not measured.
    pub iops: String,
    /// The config's bandwidth peak.
    pub peak: bool,
}

/// The tables of every block-size sweep in `cmp`, in its order.
pub fn tables(cmp: &Comparison) -> Vec<BsSweepView> {
    blocksize::by_rw(&cmp.bs_sweeps)
        .into_iter()
        .map(|(at, sweeps)| table(at, &sweeps, &cmp.sweep_rules, &cmp.units))
        .collect()
}

fn table(at: &RwLoad, sweeps: &[&BsSweep], rules: &SweepRules, units: &ReportUnits) -> BsSweepView {
    let points = || sweeps.iter().flat_map(|s| &s.points);
    let bw = Bandwidth::of(points().map(|p| p.bw_bytes_per_s), units.rate());
    let sizes = blocksize::sizes(sweeps);
    BsSweepView {
        title: at.title(),
        configs: sweeps.iter().map(|s| s.config.clone()).collect(),
        bw_unit: bw.unit.name.to_string(),
        rows: sizes
            .iter()
            .map(|bs| BsRowView {
                bs: format_bs(*bs),
                cells: sweeps.iter().map(|s| cell(s, *bs, bw)).collect(),
            })
            .collect(),
        // Two block sizes are a comparison: one line, no curve words.
        summaries: match crate::compare::findings::blocksize::two_sizes(at, sweeps) {
            Some(line) => vec![line],
            None => sweeps
                .iter()
                .map(|s| summary(s, rules, bw, units))
                .collect(),
        },
        table: String::new(),
    }
}

/// How a table prints bandwidth: the report's unit and one count of
/// decimals, four significant digits of its largest value and two of its
/// smallest, in the cells and in the lines under it.
#[derive(Debug, Clone, Copy)]
struct Bandwidth {
    unit: Unit,
    decimals: usize,
}

impl Bandwidth {
    fn of(values: impl Iterator<Item = f64>, unit: Unit) -> Bandwidth {
        let (lo, hi) = values
            .map(|v| v.abs() / unit.div)
            .filter(|v| v.is_finite() && *v > 0.0)
            .fold((f64::INFINITY, 0.0_f64), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            });
        Bandwidth {
            unit,
            decimals: numbers::significant_decimals(hi).max(numbers::min_significant_decimals(lo)),
        }
    }

    /// `989.0`.
    fn number(self, v: f64) -> String {
        numbers::fixed(v / self.unit.div, self.decimals)
    }

    /// `989.0 MiB/s`.
    fn text(self, v: f64) -> String {
        format!("{} {}", self.number(v), self.unit.name)
    }
}

fn cell(s: &BsSweep, bs: u64, bw: Bandwidth) -> BsCellView {
    let p = s.points.iter().find(|p| p.bs_bytes == bs);
    BsCellView {
        config: s.config.clone(),
        bw: p.map_or(numbers::MISSING.into(), |p| bw.number(p.bw_bytes_per_s)),
        iops: p.map_or(numbers::MISSING.into(), |p| numbers::fixed(p.iops, 0)),
        peak: p.is_some() && s.peak.bs_bytes == bs,
    }
}

/// "libaio: peak 1.91 GiB/s at 1m (most IOPS at 4k: 52,311); 95 % of peak
/// from 256k (1.85 GiB/s); knee at 64k (...)".
fn summary(s: &BsSweep, rules: &SweepRules, bw: Bandwidth, units: &ReportUnits) -> String {
    let mut parts = vec![format!(
        "peak {} at {} (most IOPS at {}: {})",
        bw.text(s.peak.bw_bytes_per_s),
        format_bs(s.peak.bs_bytes),
        format_bs(s.iops_peak.bs_bytes),
        numbers::fixed(s.iops_peak.iops, 0)
    )];
    if let Some(sat) = s.saturation {
        parts.push(format!(
            "{} % of peak from {} ({})",
            numbers::trimmed(rules.saturation_pct, 1),
            format_bs(sat.bs_bytes),
            bw.text(sat.bw_bytes_per_s)
        ));
    }
    parts.push(match s.knee {
        Some(k) => {
            // Past 10x a factor, as the load sweeps' knees say it.
            let factor = 1.0 + k.lat_growth_pct / 100.0;
            let growth = match factor >= 10.0 {
                true => format!("{}x the mean latency", numbers::fixed(factor, 0)),
                false => format!(
                    "{} % more mean latency",
                    numbers::fixed(k.lat_growth_pct, 0)
                ),
            };
            format!(
                "knee at {} ({}): past it at most {} % more bandwidth for {growth}",
                format_bs(k.bs_bytes),
                bw.text(k.bw_bytes_per_s),
                numbers::fixed(k.bw_gain_pct, 1),
            )
        }
        None => format!(
            "no knee up to {}",
            s.points
                .last()
                .map_or(String::new(), |p| format_bs(p.bs_bytes))
        ),
    });
    if let Some(f) = s.fall {
        parts.push(format!(
            "falls {} % by {}",
            numbers::fixed(f.pct_below_peak, 0),
            format_bs(f.bs_bytes)
        ));
    }
    if let Some(slo) = rules.slo {
        parts.push(slo_text(s, slo_target_text(&slo, units), bw));
    }
    format!("{}: {}", s.config, parts.join("; "))
}

fn slo_text(s: &BsSweep, target: String, bw: Bandwidth) -> String {
    let Some(a) = s.at_slo else {
        return format!("meets {target} at no block size");
    };
    let lower = format_bs(a.bs_bytes);
    let r#where = match a.upper_bs_bytes {
        Some(up) => format!("interpolated between {lower} and {}", format_bs(up)),
        None => format!("at {lower}"),
    };
    format!("{} at {target} ({where})", bw.text(a.bw_bytes_per_s))
}
