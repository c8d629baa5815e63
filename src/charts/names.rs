//! Safe file names. Only `[a-z0-9_-]` reaches a path: fio's rw names and
//! block sizes are slugged, labels never appear in names at all, so no
//! input can add a `/`, a `..` or a hidden file. The stems chart kinds
//! share are built here from those slugs: a workload's, with its load
//! point, and a per-group chart's.

use super::scale::metric_slug;

use crate::compare::{Comparison, Metric, Workload};
use crate::model::Direction;

/// Lower-case ASCII letters and digits kept, every other run of
/// characters becomes one `-`; at most 40 characters; never empty.
pub(crate) fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 40 {
            break;
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() { "x".into() } else { out }
}

/// The stems as they are, each the name of one chart file: two charts of
/// one report sharing a stem is a bug of the naming (every stem carries
/// its kind, workload, variant, load point and metric), never resolved by
/// a `-2` suffix that would leave two files titled alike. Debug builds
/// panic on it; release builds refuse to write the report's charts,
/// naming the stem.
pub(crate) fn distinct(stems: Vec<String>) -> anyhow::Result<Vec<String>> {
    let mut seen = std::collections::BTreeSet::new();
    if let Some(twice) = stems.iter().find(|s| !seen.insert(s.as_str())) {
        debug_assert!(false, "two charts named {twice}");
        anyhow::bail!("two charts would be written as {twice}: a naming bug, please report it");
    }
    Ok(stems)
}

/// Path-safe name of a workload: slugged rw, block size, mix, direction,
/// and the variant's word where the workload has one
/// (`write_4k_write_overwrite-seq`): two variants never share a name.
pub(crate) fn workload_slug(w: &Workload) -> String {
    let mix = w
        .key
        .shape
        .rwmixread
        .map(|m| format!("{m}"))
        .unwrap_or_default();
    let variant = w
        .key
        .shape
        .variant
        .as_deref()
        .map(|v| format!("_{}", slug(v)))
        .unwrap_or_default();
    format!(
        "{}{}_{}_{}{variant}",
        slug(&w.key.shape.rw),
        mix,
        crate::units::format_bs(w.key.shape.bs_bytes),
        w.key.shape.direction.as_str()
    )
}

/// [`workload_slug`], with the load point (`_qd16`, `_qd4x2`) when the
/// comparison's loads vary: one file per load point of a sweep.
pub(crate) fn workload_point_slug(cmp: &Comparison, w: &Workload) -> String {
    let mut slug = workload_slug(w);
    if cmp.has_load_points() {
        slug.push_str(&load_slug(&w.key.load));
    }
    slug
}

/// `_qd16`, `_qd4x2`, `_qd1x2hx8dx3i`: a load point in a file name (jobs,
/// then hosts, devices and instances where not 1).
pub(crate) fn load_slug(load: &crate::compare::LoadPoint) -> String {
    let mut slug = format!("_qd{}", load.iodepth);
    for (n, unit) in [
        (load.numjobs, ""),
        (load.hosts, "h"),
        (load.devices, "d"),
        (load.instances, "i"),
    ] {
        if n != 1 {
            slug.push_str(&format!("x{n}{unit}"));
        }
    }
    slug
}

/// The file stem of a per-workload chart: `kind` and the workload's
/// [`workload_point_slug`].
pub(crate) fn workload_stem(cmp: &Comparison, kind: &str, workload: usize) -> String {
    format!(
        "{kind}_{}",
        workload_point_slug(cmp, &cmp.workloads[workload])
    )
}

/// `bars_read_iops`: file stem of a per-group, per-metric chart; the
/// tail named at its percentile (`bars_read_clat_p95` where it is p95).
pub(crate) fn group_metric_stem(
    kind: &str,
    direction: Direction,
    metric: Metric,
    tail: f64,
) -> String {
    let slug = match metric {
        Metric::ClatP99Ns => crate::compare::workload::tail_key(tail)
            .trim_end_matches("_ns")
            .to_string(),
        m => metric_slug(m).to_string(),
    };
    format!("{kind}_{}_{slug}", direction.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_keep_only_safe_characters() {
        assert_eq!(slug("randread"), "randread");
        assert_eq!(slug("../../etc/passwd"), "etc-passwd");
        assert_eq!(slug("<script>alert(1)</script>"), "script-alert-1-script");
        assert_eq!(slug("/"), "x");
        assert_eq!(slug("RandRW"), "randrw");
        assert!(slug(&"a".repeat(100)).len() <= 40);
    }

    #[test]
    fn distinct_stems_pass_as_they_are() {
        let got = distinct(vec!["a".into(), "b".into(), "a-2".into()]).unwrap();
        assert_eq!(got, ["a", "b", "a-2"]);
    }

    #[test]
    #[cfg_attr(debug_assertions, should_panic(expected = "two charts named a"))]
    fn a_repeated_stem_fails_loudly() {
        let e = distinct(vec!["a".into(), "b".into(), "a".into()]).unwrap_err();
        assert!(e.to_string().contains("written as a"), "{e}");
    }
}
