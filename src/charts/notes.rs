//! Footnotes of a chart: values left out and why, precisions coarser
//! than the scale shows, what the marks mean, the comparison's notes on
//! the workloads drawn (without file paths).

use indexmap::IndexMap;

use super::labels::{workload_label, workload_point_label};
use super::scale::ChartScale;

use crate::compare::workload::Shape;
use crate::compare::{Comparison, LoadPoint, MetricResult, Workload};
use crate::model::Direction;

/// "p99 latency of X not drawn at QD1 and QD8: why.": one line per
/// config and reason that `results` (with their `categories`) exclude.
pub(crate) fn excluded_notes(
    what: &str,
    categories: &[String],
    results: &[&MetricResult],
) -> Vec<String> {
    // In first-seen order.
    let mut grouped: IndexMap<(&str, &str), Vec<String>> = IndexMap::new();
    for (label, r) in categories.iter().zip(results) {
        for (c, why) in &r.excluded {
            let at = label.replace('\n', " ");
            grouped.entry((c, why)).or_default().push(at);
        }
    }
    grouped
        .into_iter()
        .map(|((c, why), at)| {
            format!(
                "{what} of {c} not drawn ({}): {why}.",
                crate::render::cell::join_and(&at)
            )
        })
        .collect()
}

/// "IOPS of linux-libaio, linux-io_uring known only to the nearest
/// 1,000.": one note per precision coarser than the step a lone value of
/// the scale resolves.
pub(crate) fn precision_notes(
    cmp: &Comparison,
    what: &str,
    results: &[&MetricResult],
    scale: &ChartScale,
) -> Vec<String> {
    crate::compare::metric::coarse_precisions(&cmp.configs, results, scale.step())
        .into_iter()
        .map(|(p, cs)| {
            let unit = match scale.unit {
                "" => String::new(),
                "%" => "%".into(),
                u => format!(" {u}"),
            };
            format!(
                "{what} of {} known only to {}{unit}.",
                cs.join(", "),
                crate::numbers::step_text(p / scale.div)
            )
        })
        .collect()
}

/// "★ and outline: best." when the chart has a winner; ties are told by
/// the hatched legend key ([`super::legend::bar_keys`]).
pub(crate) fn marks_note(results: &[&MetricResult]) -> Option<String> {
    results
        .iter()
        .any(|r| r.contested() && r.winner.is_some())
        .then(|| "★ and outline: best.".to_string())
}

/// The comparison's notes on a group's workloads (iodepth differing, a
/// config missing), at most three lines so the plot keeps its room. A
/// note said of several workloads is one line naming them all (`randread
/// 4k at QD128 x 3, 5, 9, 17 instances: ...`). A note names configs and
/// reasons: a result file's path in it is dropped (the report lists the
/// files).
pub(crate) fn workload_notes(cmp: &Comparison, direction: Direction) -> Vec<String> {
    const MAX: usize = 3;
    // Each note once, in first-seen order, with the workloads it is of.
    let mut said: IndexMap<String, Vec<&Workload>> = IndexMap::new();
    for w in cmp
        .workloads
        .iter()
        .filter(|w| w.key.shape.direction == direction)
    {
        for n in &w.note_lines() {
            said.entry(without_paths(n)).or_default().push(w);
        }
    }
    let notes: Vec<String> = said
        .iter()
        .map(|(n, of)| format!("{}: {n}", workloads_text(cmp, of)))
        .collect();
    let mut out: Vec<String> = notes.iter().take(MAX).cloned().collect();
    if notes.len() > MAX {
        let n = notes.len() - MAX;
        let s = if n == 1 { "" } else { "s" };
        out.push(format!("{n} more note{s} in the report."));
    }
    out
}

/// Workloads in few words: each shape once, with its load points
/// condensed (`randread 4k at QD1, 4, 16`).
fn workloads_text(cmp: &Comparison, of: &[&Workload]) -> String {
    let mut shapes: IndexMap<&Shape, Vec<&Workload>> = IndexMap::new();
    for w in of {
        shapes.entry(&w.key.shape).or_default().push(w);
    }
    let parts: Vec<String> = shapes
        .into_values()
        .map(|ws| match ws.as_slice() {
            [one] => workload_point_label(cmp, one),
            _ => {
                let loads: Vec<LoadPoint> = ws.iter().map(|w| w.key.load).collect();
                format!(
                    "{} at {}",
                    workload_label(ws[0]),
                    LoadPoint::condense(&loads)
                )
            }
        })
        .collect();
    crate::render::cell::join_and(&parts)
}

/// `text` without parenthesized file paths: "X: mean below clat
/// (dir/run.json)" -> "X: mean below clat".
pub(crate) fn without_paths(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find(" (") {
        let Some(close) = rest[open..].find(')') else {
            break;
        };
        let inside = &rest[open + 2..open + close];
        let is_path = inside.contains('/') || inside.contains('\\');
        let is_file = is_path
            && inside
                .rsplit(['/', '\\'])
                .next()
                .is_some_and(|f| f.contains('.'));
        out.push_str(&rest[..open]);
        if !is_file {
            out.push_str(&rest[open..open + close + 1]);
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}
