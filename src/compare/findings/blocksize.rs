//! Rule 10, block-size sweeps: which config is bandwidth-bound from the
//! smallest block size, ranked, and where a bandwidth curve falls.

use super::words::{bw_text, join_and};
use crate::compare::comparison::{BsSweep, Comparison, Metric, RwLoad};
use crate::compare::findings::{Finding, FindingKind, ONE_WORKLOAD, magnitude};
use crate::compare::report_units::ReportUnits;
use crate::numbers;

/// 10: per rw and load point swept over block sizes, the configs ranked by
/// the block size from which they are bandwidth-bound (one still climbing
/// at its largest block size, with no knee, comes last), and each curve
/// that falls at its largest block size.
pub(super) fn block_size_findings(cmp: &Comparison) -> Vec<Finding> {
    let mut out = Vec::new();
    for (at, sweeps) in crate::compare::sweep::blocksize::by_rw(&cmp.bs_sweeps) {
        out.extend(bandwidth_bound(at, &sweeps, &cmp.units));
        out.extend(sweeps.iter().filter_map(|s| bs_fall(at, s, &cmp.units)));
    }
    out
}

/// "In randread at QD8, libaio is bandwidth-bound from 64k (1.9 GiB/s);
/// psync needs 256k (1.7 GiB/s)": configs that saturate at one block size
/// are named together, one still climbing at its largest comes last.
pub(super) fn bandwidth_bound(
    at: &RwLoad,
    sweeps: &[&BsSweep],
    units: &ReportUnits,
) -> Option<Finding> {
    if let Some(text) = two_sizes(at, sweeps) {
        let configs = sweeps.iter().map(|s| s.config.clone()).collect();
        return Some(
            Finding::new(FindingKind::Saturation, text)
                .on(
                    vec![format!("{} block-size sweep", at.title())],
                    vec![Metric::BwBytesPerS],
                    configs,
                )
                .scored(0.3, ONE_WORKLOAD),
        );
    }
    let groups = saturation_groups(sweeps);
    let (first, rest) = groups.split_first()?;
    if first.climbing {
        return None;
    }
    let title = at.title();
    let mut text = format!(
        "In {title}, {} bandwidth-bound from {}",
        first.names("is", "are"),
        first.bs_text(units)
    );
    let others: Vec<String> = rest
        .iter()
        .map(|g| match g.climbing {
            true => format!(
                "{} still climbing at {}",
                g.names("is", "are"),
                g.bs_text(units)
            ),
            false => format!("{} {}", g.names("needs", "need"), g.bs_text(units)),
        })
        .collect();
    if !others.is_empty() {
        text.push_str(&format!("; {}", join_and(&others)));
    }
    // A curve (three block sizes or more) reaches as a load sweep's
    // ranking does; two block sizes are one comparison, a workload's worth.
    let curve = sweeps.iter().any(|s| s.points.len() >= 3);
    let (effect, reach) = match rest.first() {
        Some(g) if curve => (magnitude(g.gain_past(first.bs)), 0.75),
        Some(g) => (magnitude(g.gain_past(first.bs)), ONE_WORKLOAD),
        None => (0.3, ONE_WORKLOAD),
    };
    Some(
        Finding::new(FindingKind::Saturation, text)
            .on(
                vec![format!("{title} block-size sweep")],
                vec![Metric::BwBytesPerS],
                groups
                    .iter()
                    .flat_map(|g| g.configs.iter().map(|s| s.config.clone()))
                    .collect(),
            )
            .scored(effect, reach),
    )
}

/// Two block sizes are one comparison, not a curve (no peak, saturation
/// or knee to read off two points): "In randread at QD32 x 16 jobs, 64k
/// moves 8.2x (linux-io_uring) to 12.2x (windows-non-native) the bandwidth
/// of 4k". None unless every sweep has the same two block sizes.
pub fn two_sizes(at: &RwLoad, sweeps: &[&BsSweep]) -> Option<String> {
    let first = sweeps.first()?;
    let [small, large] = first.points.as_slice() else {
        return None;
    };
    let sizes = |s: &BsSweep| s.points.iter().map(|p| p.bs_bytes).collect::<Vec<_>>();
    if sweeps.iter().any(|s| sizes(s) != sizes(first)) {
        return None;
    }
    let mut ratios: Vec<(f64, &str)> = sweeps
        .iter()
        .filter(|s| s.points[0].bw_bytes_per_s > 0.0)
        .map(|s| {
            let r = s.points[1].bw_bytes_per_s / s.points[0].bw_bytes_per_s;
            (r, s.config.as_str())
        })
        .collect();
    ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Three significant digits: a factor, not a measurement.
    let factor = |r: f64| {
        let d = numbers::significant_decimals(r).saturating_sub(1);
        format!("{}x", numbers::fixed(r, d))
    };
    let moves = match ratios.as_slice() {
        [] => return None,
        [(r, c)] => format!("{} for {c}", factor(*r)),
        [(lo, a), .., (hi, b)] if factor(*lo) == factor(*hi) => {
            format!("{} for {a} to {b} alike", factor(*lo))
        }
        [(lo, a), .., (hi, b)] => format!("{} ({a}) to {} ({b})", factor(*lo), factor(*hi)),
    };
    Some(format!(
        "In {}, {} moves {moves} the bandwidth of {}",
        at.title(),
        crate::units::format_bs(large.bs_bytes),
        crate::units::format_bs(small.bs_bytes)
    ))
}

/// Configs of one rw and load point that saturate at one block size (or
/// are still climbing there: saturated only at their largest, no knee).
pub(super) struct SaturationGroup<'a> {
    bs: u64,
    climbing: bool,
    configs: Vec<&'a BsSweep>,
}

impl SaturationGroup<'_> {
    /// "libaio is", "libaio and psync are": the configs with a verb.
    fn names(&self, one: &str, many: &str) -> String {
        let names: Vec<String> = self.configs.iter().map(|s| s.config.clone()).collect();
        let verb = if names.len() == 1 { one } else { many };
        format!("{} {verb}", join_and(&names))
    }

    /// What the group's first config still gains past `bs` (where a
    /// config ahead is already bound), up to its saturation point: the
    /// bandwidth a reader leaves if they took `bs` for it too. Block sizes
    /// step by 2x or more, so their ratio would make every rank look
    /// large; a config not measured at `bs` falls back to it.
    fn gain_past(&self, bs: u64) -> f64 {
        let s = self.configs[0];
        let at = s.points.iter().find(|p| p.bs_bytes == bs);
        match (at, s.saturation) {
            (Some(p), Some(x)) if p.bw_bytes_per_s > 0.0 => {
                x.bw_bytes_per_s / p.bw_bytes_per_s - 1.0
            }
            _ => self.bs as f64 / bs.max(1) as f64 - 1.0,
        }
    }

    /// "64k (1.9 GiB/s)"; the bandwidth only for a lone config.
    fn bs_text(&self, units: &ReportUnits) -> String {
        let bs = crate::units::format_bs(self.bs);
        match (self.configs.as_slice(), self.climbing) {
            ([one], false) => match one.saturation {
                Some(x) => format!("{bs} ({})", bw_text(units, x.bw_bytes_per_s)),
                None => bs,
            },
            _ => bs,
        }
    }
}

/// The sweeps' saturation points grouped, those that saturate first
/// first, configs in display order within a group.
pub(super) fn saturation_groups<'a>(sweeps: &[&'a BsSweep]) -> Vec<SaturationGroup<'a>> {
    let mut groups: Vec<SaturationGroup> = Vec::new();
    for s in sweeps {
        let Some(sat) = s.saturation else { continue };
        let climbing =
            s.knee.is_none() && s.points.last().is_some_and(|p| p.bs_bytes == sat.bs_bytes);
        match groups
            .iter_mut()
            .find(|g| (g.bs, g.climbing) == (sat.bs_bytes, climbing))
        {
            Some(g) => g.configs.push(s),
            None => groups.push(SaturationGroup {
                bs: sat.bs_bytes,
                climbing,
                configs: vec![s],
            }),
        }
    }
    groups.sort_by_key(|g| (g.climbing, g.bs));
    groups
}

/// "psync's bandwidth in randread at QD8 peaks at 256k (2.1 GiB/s), then
/// falls 29 % by 1m".
pub(super) fn bs_fall(at: &RwLoad, s: &BsSweep, units: &ReportUnits) -> Option<Finding> {
    let f = s.fall?;
    let title = at.title();
    let text = format!(
        "{}'s bandwidth in {title} peaks at {} ({}), then falls {} % by {}",
        s.config,
        crate::units::format_bs(s.peak.bs_bytes),
        bw_text(units, s.peak.bw_bytes_per_s),
        numbers::fixed(f.pct_below_peak, 0),
        crate::units::format_bs(f.bs_bytes)
    );
    Some(
        Finding::new(FindingKind::Fall, text)
            .on(
                vec![format!("{title} block-size sweep")],
                vec![Metric::BwBytesPerS],
                vec![s.config.clone()],
            )
            // A whole curve, as a load sweep's fall is.
            .scored(magnitude(f.pct_below_peak / 100.0), 0.75),
    )
}
