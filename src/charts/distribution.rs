//! What the latency-distribution charts (percentiles, CDF) share: which
//! workloads get one, the line each config gets, the completion latency a
//! comparison leaves out, and their frame.

use super::frame::Frame;
use super::labels::workload_point_label;

use crate::compare::{Comparison, Metric, Workload};

/// Whether a workload gets its own latency-distribution charts
/// (percentiles, CDF). Every workload outside a sweep does; of a sweep, only
/// the lightest load and each config's knee and peak: a chart per depth of
/// a 32-point grid would bury the ones a reader needs.
pub(crate) fn gets_distribution_charts(cmp: &Comparison, w: &Workload) -> bool {
    let sweeps: Vec<_> = cmp
        .sweeps
        .iter()
        .filter(|s| s.shape() == w.shape())
        .collect();
    if sweeps.is_empty() {
        return true;
    }
    let load = w.load();
    let lightest = sweeps
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.load()))
        .min_by_key(|l| (l.outstanding(), *l));
    lightest == Some(load)
        || sweeps.iter().any(|s| {
            (s.peak.iodepth, s.peak.numjobs) == (load.iodepth, load.numjobs)
                || s.knee
                    .is_some_and(|k| (k.iodepth, k.numjobs) == (load.iodepth, load.numjobs))
        })
}

/// The workloads that get latency-distribution charts
/// ([`gets_distribution_charts`]) and have the data `has_line` looks for:
/// the plan shared by the percentile and CDF charts.
pub(crate) fn distribution_workloads(
    cmp: &Comparison,
    has_line: impl Fn(&Workload) -> bool,
) -> Vec<usize> {
    workloads_where(cmp, |w| gets_distribution_charts(cmp, w) && has_line(w))
}

/// Indices of the workloads `keep` accepts: a per-workload chart's plan.
pub(crate) fn workloads_where(cmp: &Comparison, keep: impl Fn(&Workload) -> bool) -> Vec<usize> {
    cmp.workloads
        .iter()
        .enumerate()
        .filter(|(_, w)| keep(w))
        .map(|(i, _)| i)
        .collect()
}

/// (config index, points) for every config `points` gives a non-empty
/// line for, in display order: the lines of a per-workload chart.
pub(crate) fn config_lines(
    cmp: &Comparison,
    points: impl Fn(&String) -> Option<Vec<(f64, f64)>>,
) -> Vec<(usize, Vec<(f64, f64)>)> {
    cmp.configs
        .iter()
        .enumerate()
        .filter_map(|(i, c)| Some((i, points(c)?)))
        .filter(|(_, p)| !p.is_empty())
        .collect()
}

/// Why `config`'s completion latency in `w` is left out of the comparison,
/// if it is: its percentiles and histogram are not drawn either (with
/// io_uring's sqthread_poll=1 every one of them reads seconds).
pub(crate) fn clat_exclusion<'a>(w: &'a Workload, config: &str) -> Option<&'a str> {
    w.metric(Metric::ClatP99Ns)?.exclusion(config)
}

/// "Completion latency of X not drawn: why.": one line per config whose
/// completion latency `w` excludes.
pub(crate) fn clat_exclusion_notes(cmp: &Comparison, w: &Workload) -> Vec<String> {
    cmp.configs
        .iter()
        .filter_map(|c| {
            let why = clat_exclusion(w, c)?;
            Some(format!("Completion latency of {c} not drawn: {why}."))
        })
        .collect()
}

/// The frame of a latency-distribution chart of `w`: its title says
/// `what` is drawn, the legend names the configs that have a line.
pub(crate) fn distribution_frame(
    cmp: &Comparison,
    w: &Workload,
    what: &str,
    lines: &[(usize, Vec<(f64, f64)>)],
) -> Frame {
    Frame {
        title: format!("{} ({}): {what}", workload_point_label(cmp, w), w.direction),
        legend: super::legend::of(cmp, lines.iter().map(|(i, _)| *i)),
        ..Default::default()
    }
}
