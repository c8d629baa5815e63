//! What the latency-distribution charts (percentiles, CDF) share: which
//! workloads get one, the line each config gets (none where the
//! comparison leaves its completion latency out), and their frame.

use super::frame::Frame;
use super::labels::workload_point_label;

use crate::compare::{Comparison, Metric, Workload};

/// A config's line in a workload: (x, y) points, or None where it has no
/// data. Each distribution chart kind gives one.
pub(crate) type LineOf = fn(&Workload, &str) -> Option<Vec<(f64, f64)>>;

/// The workloads that get latency-distribution charts ([`gets_charts`])
/// and where some config has a line: the plan of a distribution chart
/// kind.
pub(crate) fn plan(cmp: &Comparison, line: LineOf) -> Vec<usize> {
    cmp.workloads
        .iter()
        .enumerate()
        .filter(|(_, w)| gets_charts(cmp, w) && !lines(cmp, w, line).is_empty())
        .map(|(i, _)| i)
        .collect()
}

/// Whether a workload gets its own latency-distribution charts. Every
/// workload outside a sweep does; of a sweep, only the lightest load and
/// each config's knee and peak: a chart per depth of a 32-point grid would
/// bury the ones a reader needs.
fn gets_charts(cmp: &Comparison, w: &Workload) -> bool {
    let sweeps: Vec<_> = cmp
        .sweeps
        .iter()
        .filter(|s| crate::compare::sweep::covers(s, &w.key))
        .collect();
    if sweeps.is_empty() {
        return true;
    }
    let load = w.key.load;
    let lightest = sweeps
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.load))
        .min_by_key(|l| (l.outstanding(), *l));
    lightest == Some(load)
        || sweeps
            .iter()
            .any(|s| s.peak.load == load || s.knee.is_some_and(|k| k.load == load))
}

/// (config index, points) for every config with a non-empty line in `w`,
/// in display order; a config whose completion latency the comparison
/// leaves out gets none.
pub(crate) fn lines(cmp: &Comparison, w: &Workload, line: LineOf) -> Vec<(usize, Vec<(f64, f64)>)> {
    cmp.configs
        .iter()
        .enumerate()
        .filter(|(_, c)| clat_exclusion(w, c).is_none())
        .filter_map(|(i, c)| Some((i, line(w, c)?)))
        .filter(|(_, p)| !p.is_empty())
        .collect()
}

/// Why `config`'s completion latency in `w` is left out of the comparison,
/// if it is: its percentiles and histogram are not drawn either (with
/// io_uring's sqthread_poll=1 every one of them reads seconds).
fn clat_exclusion<'a>(w: &'a Workload, config: &str) -> Option<&'a str> {
    w.metric(Metric::ClatP99Ns)?.exclusion(config)
}

/// "Completion latency of X not drawn: why.": one line per config whose
/// completion latency `w` excludes.
pub(crate) fn exclusion_notes(cmp: &Comparison, w: &Workload) -> Vec<String> {
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
pub(crate) fn frame(
    cmp: &Comparison,
    w: &Workload,
    what: &str,
    lines: &[(usize, Vec<(f64, f64)>)],
) -> Frame {
    Frame {
        title: format!(
            "{} ({}): {what}",
            workload_point_label(cmp, w),
            w.key.shape.direction
        ),
        legend: super::legend::of(cmp, lines.iter().map(|(i, _)| *i)),
        ..Default::default()
    }
}
