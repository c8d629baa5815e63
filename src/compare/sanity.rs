//! Checks a careful reviewer makes before trusting a table: bandwidth that
//! disagrees with IOPS x block size, values that cannot be, a config that
//! lacks workloads the others have. Findings are notes, never errors: the
//! data still gets compared.

use super::model::{Comparison, Metric};
use super::workload::{Run, WorkloadKey};
use crate::format;

/// Relative disagreement allowed between bandwidth and IOPS x bs beyond
/// both values' rounding. fio computes both from the same I/O count but
/// over slightly different windows, and published figures are rounded
/// separately (StorageReview's Windows figures differ by up to 0.005 %).
pub const BW_IOPS_TOLERANCE: f64 = 0.001;

/// Findings for one workload's runs, per config.
pub fn check_workload(key: &WorkloadKey, cells: &[(&str, &[Run])]) -> Vec<String> {
    let mut notes = Vec::new();
    for (config, runs) in cells {
        for r in runs.iter() {
            let expected = r.iops * r.bs_bytes as f64;
            let tol = BW_IOPS_TOLERANCE * expected
                + r.iops_precision * r.bs_bytes as f64 / 2.0
                + r.bw_precision / 2.0;
            if r.bs_bytes > 0 && expected > 0.0 && (r.bw - expected).abs() > tol {
                let bw = Metric::BwBytesPerS.scale(r.bw.max(expected));
                notes.push(format!(
                    "{config}: bandwidth {} disagrees with IOPS x block size ({}) by {} % ({})",
                    bw.with_unit(r.bw),
                    bw.with_unit(expected),
                    format::fixed((r.bw - expected).abs() / expected * 100.0, 2),
                    r.source
                ));
            }
            if let (Some(lat), Some(clat)) = (r.lat, r.clat) {
                if lat + r.lat_precision < clat {
                    notes.push(format!(
                        "{config}: mean total latency is below mean completion latency ({})",
                        r.source
                    ));
                }
            }
            if r.system_cpu && r.cpu > 100.0 + 1e-9 {
                notes.push(format!(
                    "{config}: whole-system CPU {} % is above 100 % ({})",
                    format::fixed(r.cpu, 2),
                    r.source
                ));
            }
            if r.iops > 0.0 && r.lat == Some(0.0) {
                notes.push(format!(
                    "{config}: IOPS without latency (mean latency 0) ({})",
                    r.source
                ));
            }
            // Little's law: I/Os in flight = IOPS x latency. More in flight
            // than iodepth x numjobs (per target) allows means a figure is
            // wrong.
            if let Some(lat) = r.lat {
                let in_flight = r.iops * lat / 1e9;
                let slots = r.iodepth.max(1) as f64 * r.numjobs.max(1) as f64 * r.targets as f64;
                if in_flight > slots * 1.1 + 1.0 {
                    let per = if r.targets > 1 { " x targets" } else { "" };
                    notes.push(format!(
                        "{config}: {} I/Os in flight (IOPS x mean latency) but iodepth x numjobs{per} is {} ({})",
                        format::fixed(in_flight, 0),
                        format::fixed(slots, 0),
                        r.source
                    ));
                }
            }
        }
    }
    let _ = key;
    notes
}

/// Findings about the comparison as a whole.
pub fn check_comparison(cmp: &Comparison) -> Vec<String> {
    let mut out = Vec::new();
    let total = cmp.workloads.len();
    for c in &cmp.configs {
        let missing: Vec<String> = cmp
            .workloads
            .iter()
            .filter(|w| {
                w.metrics
                    .first()
                    .is_none_or(|m| m.values.get(c).copied().flatten().is_none())
            })
            .map(|w| w.title())
            .collect();
        if !missing.is_empty() {
            out.push(format!(
                "{c} has no result for {} of {total} workloads: {}",
                missing.len(),
                missing.join(", ")
            ));
        }
    }
    out
}

/// A config (label) whose files come from several engines: its figures
/// mix stacks. Names them with their file counts and the flag that
/// separates them.
pub fn mixed_engines(grouped: &super::workload::Grouped) -> Vec<String> {
    let mut out = Vec::new();
    for (config, workloads) in grouped {
        let mut files: indexmap::IndexMap<&str, std::collections::BTreeSet<&str>> =
            indexmap::IndexMap::new();
        for r in workloads.values().flatten() {
            if !r.engine.is_empty() && r.engine != "unknown" {
                files
                    .entry(r.engine.as_str())
                    .or_default()
                    .insert(&r.source);
            }
        }
        if files.len() > 1 {
            let parts: Vec<String> = files
                .iter()
                .map(|(e, f)| {
                    format!(
                        "{e} ({} file{})",
                        f.len(),
                        if f.len() == 1 { "" } else { "s" }
                    )
                })
                .collect();
            out.push(format!(
                "{config} holds results from several engines: {}; `--label-by engine` (or one folder per engine) compares them",
                parts.join(", ")
            ));
        }
    }
    out
}
