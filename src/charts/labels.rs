//! How workloads, groups and metrics read in titles and on axes:
//! `randread 70/30 4k at QD16`, "Read", "mean latency", "(higher is
//! better)".

use super::scale::better_text;

use crate::compare::{Comparison, MetricResult, Workload};
use crate::model::Direction;

/// `randread 4k`, `randrw 70/30 4k`: how a workload reads on an axis.
pub(crate) fn workload_label(w: &Workload) -> String {
    let bs = crate::units::format_bs(w.key.shape.bs_bytes);
    let label = match w.key.shape.rwmixread {
        Some(mix) => format!(
            "{} {}/{} {}",
            w.key.shape.rw,
            mix,
            100u32.saturating_sub(mix),
            bs
        ),
        None => format!("{} {}", w.key.shape.rw, bs),
    };
    // A variant told apart by its runs' names is named wherever the
    // workload is: two `randwrite 4k` bar groups must not read alike.
    match &w.key.shape.variant {
        Some(v) => format!("{label} ({v})"),
        None => label,
    }
}

/// [`workload_label`], with " at QD16" when the comparison's loads vary.
pub(crate) fn workload_point_label(cmp: &Comparison, w: &Workload) -> String {
    if cmp.has_load_points() {
        format!("{} at {}", workload_label(w), w.key.load.label())
    } else {
        workload_label(w)
    }
}

/// [`workload_point_label`], with the direction after the workload where
/// another workload of the comparison reads alike in the other direction
/// (a mixed job's read and write: `randrw 70/30 4k write at QD1`), so two
/// charts never share a title.
pub(crate) fn workload_point_label_of_direction(cmp: &Comparison, w: &Workload) -> String {
    let label = workload_label(w);
    let twin = cmp
        .workloads
        .iter()
        .any(|o| o.key.shape.direction != w.key.shape.direction && workload_label(o) == label);
    let label = if twin {
        format!("{label} {}", w.key.shape.direction.as_str())
    } else {
        label
    };
    if cmp.has_load_points() {
        format!("{label} at {}", w.key.load.label())
    } else {
        label
    }
}

/// "Read", "Write", "Trim": the group name in titles.
pub(crate) fn group_title(d: Direction) -> &'static str {
    match d {
        Direction::Read => "Read",
        Direction::Write => "Write",
        Direction::Trim => "Trim",
    }
}

/// " (higher is better)" after a metric's name, from the results'
/// direction; empty when there are no results.
pub(crate) fn better_suffix(results: &[&MetricResult]) -> String {
    results
        .first()
        .map(|r| format!(" ({})", better_text(r.better)))
        .unwrap_or_default()
}

/// "Mean latency" -> "mean latency" after the group name; acronyms stay.
pub(crate) fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match (c.next(), s.chars().nth(1)) {
        (Some(f), Some(n)) if n.is_lowercase() => f.to_lowercase().chain(c).collect(),
        _ => s.to_string(),
    }
}
