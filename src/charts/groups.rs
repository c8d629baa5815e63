//! What a per-group chart (bars, deltas, efficiency: one direction's
//! workloads) draws: the groups, the metrics each has, the bar categories
//! and the comparison's results behind them, and one bar series per config
//! with the comparison's marks.

use super::grouped::{BarSeries, Mark};
use super::labels::workload_label;
use super::palette;

use crate::compare::{Comparison, Metric, MetricResult, Workload};
use crate::model::Direction;

/// Directions that have workloads, in a fixed order.
pub(crate) fn directions(cmp: &Comparison) -> Vec<Direction> {
    Direction::ALL
        .into_iter()
        .filter(|d| cmp.workloads.iter().any(|w| w.key.shape.direction == *d))
        .collect()
}

/// The result of `metric` in `w` when at least one config has a value.
pub(crate) fn result(w: &Workload, metric: Metric) -> Option<&MetricResult> {
    w.metrics
        .iter()
        .find(|m| m.metric == metric && m.values.values().any(|v| v.is_some()))
}

/// (group, metric) for each of `metrics` in each group where some workload
/// passes `keep`: the plan of a per-group, per-metric chart.
pub(crate) fn metrics(
    cmp: &Comparison,
    metrics: &[Metric],
    keep: impl Fn(&Workload, Metric) -> bool,
) -> Vec<(Direction, Metric)> {
    let mut out = Vec::new();
    for direction in directions(cmp) {
        for &metric in metrics {
            let any = cmp
                .workloads
                .iter()
                .any(|w| w.key.shape.direction == direction && keep(w, metric));
            // Mostly "n/a" is no chart: the report's checks say so.
            let sparse = crate::compare::sparse::sparse(cmp, direction, metric).is_some();
            if any && !sparse {
                out.push((direction, metric));
            }
        }
    }
    out
}

/// Labels and results of `metric` for the group's workloads that have
/// it, in the comparison's order: a bar panel's categories and data. Of a
/// sweep only its [`key_loads`] are drawn: twenty load points times five
/// configs bury the ones a reader needs, and the scaling chart draws them
/// all. Labels name the load ("QD128 x 4 jobs") when the group is one
/// shape (the title names it, [`subject`]), else the shape over the
/// load on two lines: never a workload name cut to fit.
pub(crate) fn results(
    cmp: &Comparison,
    direction: Direction,
    metric: Metric,
) -> (Vec<String>, Vec<&MetricResult>) {
    let tables = crate::render::sweeps::tables(cmp);
    let one_shape = subject(cmp, direction).is_some();
    let per_table = loads_per_sweep(cmp, direction, &tables);
    cmp.workloads
        .iter()
        .filter(|w| w.key.shape.direction == direction)
        .filter(|w| {
            tables
                .iter()
                .find(|t| t.holds(w))
                .is_none_or(|t| key_loads_at_most(t, per_table).contains(&w.key.load))
        })
        .filter_map(|w| Some((category(cmp, w, one_shape), result(w, metric)?)))
        .unzip()
}

/// Most bars one bar chart holds: past about two dozen, value labels
/// overlap and a reader cannot find the load point they need; the scaling
/// chart and the sweep table hold every point.
pub(crate) const MAX_BARS: usize = 24;

/// How many load points of each sweep a bar chart of `direction` shows so
/// that its bars (configs x categories) stay within [`MAX_BARS`]; at
/// least two (the lightest and one key point).
fn loads_per_sweep(
    cmp: &Comparison,
    direction: Direction,
    tables: &[crate::render::sweeps::SweepTable],
) -> usize {
    let in_dir = |w: &Workload| w.key.shape.direction == direction;
    let sweeps = tables
        .iter()
        .filter(|t| t.workloads.first().is_some_and(|w| in_dir(w)))
        .count();
    let single = cmp
        .workloads
        .iter()
        .filter(|w| in_dir(w) && !tables.iter().any(|t| t.holds(w)))
        .count();
    let categories = MAX_BARS / cmp.configs.len().max(1);
    (categories.saturating_sub(single) / sweeps.max(1)).max(2)
}

/// "Bars show 4 of the 15 load points of randread 4k: ...": said under a
/// bar chart that leaves load points of a sweep out; None when it shows
/// them all.
pub(crate) fn subset_note(cmp: &Comparison, direction: Direction) -> Option<String> {
    let tables = crate::render::sweeps::tables(cmp);
    let per_table = loads_per_sweep(cmp, direction, &tables);
    let notes: Vec<String> = tables
        .iter()
        .filter(|t| t.workloads.first().is_some_and(|w| w.key.shape.direction == direction))
        .filter_map(|t| {
            let shown = key_loads_at_most(t, per_table);
            let all = t.workloads.len();
            (shown.len() < all).then(|| {
                let labels: Vec<String> = shown.iter().map(|l| l.label()).collect();
                format!(
                    "Bars show {} of the {all} load points of {} ({}): {}; the scaling chart and the sweep table have all.",
                    shown.len(),
                    t.title,
                    labels.join(", "),
                    which_loads(key_loads(t).len(), shown.len())
                )
            })
        })
        .collect();
    (!notes.is_empty()).then(|| notes.join(" "))
}

/// What a bar chart's `shown` load points are, of the `marked` points
/// ([`key_loads`]: the lightest and each config's knee, saturation and
/// peak): all of them, or the lightest and those most configs mark.
fn which_loads(marked: usize, shown: usize) -> String {
    if shown >= marked {
        return "the lightest and every config's knee, saturation and peak".into();
    }
    let left = marked - shown;
    format!(
        "the lightest and the points most configs mark as knee, saturation or peak ({left} other marked point{} left out)",
        if left == 1 { "" } else { "s" }
    )
}

/// [`key_loads`], at most `n` of them: the lightest, then the points the
/// most configs mark (knee, saturation, peak), then the heavier; in load
/// order.
pub(crate) fn key_loads_at_most(
    t: &crate::render::sweeps::SweepTable,
    n: usize,
) -> Vec<crate::compare::LoadPoint> {
    let all = key_loads(t);
    if all.len() <= n {
        return all;
    }
    let marks = |l: &crate::compare::LoadPoint| {
        t.sweeps
            .iter()
            .map(|s| {
                usize::from(s.knee.is_some_and(|k| k.load == *l))
                    + usize::from(s.saturation.is_some_and(|x| x.load == *l))
                    + usize::from(s.peak.load == *l)
            })
            .sum::<usize>()
    };
    let mut ranked: Vec<(usize, crate::compare::LoadPoint)> =
        all.iter().enumerate().map(|(i, l)| (i, *l)).collect();
    // The lightest first, then by marks, the heavier load first on a tie.
    ranked.sort_by_key(|(i, l)| (*i != 0, std::cmp::Reverse(marks(l)), std::cmp::Reverse(*i)));
    let mut kept: Vec<(usize, crate::compare::LoadPoint)> = ranked.into_iter().take(n).collect();
    kept.sort_by_key(|(i, _)| *i);
    kept.into_iter().map(|(_, l)| l).collect()
}

/// A bar group's label: see [`results`].
fn category(cmp: &Comparison, w: &Workload, one_shape: bool) -> String {
    if !cmp.has_load_points() {
        workload_label(w)
    } else if one_shape {
        w.key.load.label()
    } else {
        format!("{}\n{}", workload_label(w), w.key.load.label())
    }
}

/// The one shape ("randread 4k") of a group whose workloads differ only
/// in load: its bar charts name it in the title and label bars by load.
pub(crate) fn subject(cmp: &Comparison, direction: Direction) -> Option<String> {
    if !cmp.has_load_points() {
        return None;
    }
    let mut shapes = cmp
        .workloads
        .iter()
        .filter(|w| w.key.shape.direction == direction)
        .map(|w| (&w.key.shape, w));
    let (first, w) = shapes.next()?;
    shapes.all(|(s, _)| s == first).then(|| workload_label(w))
}

/// The load points of a sweep shape that bar charts show: the lightest
/// and, per config, its knee, saturation and peak; once each, in load
/// order.
pub(crate) fn key_loads(t: &crate::render::sweeps::SweepTable) -> Vec<crate::compare::LoadPoint> {
    // Matched on the whole load point (hosts, devices, instances too).
    let mut marked: Vec<crate::compare::LoadPoint> = Vec::new();
    for s in &t.sweeps {
        marked.extend(s.knee.map(|k| k.load));
        marked.extend(s.saturation.map(|x| x.load));
        marked.push(s.peak.load);
    }
    let lightest = t
        .workloads
        .iter()
        .map(|w| w.key.load)
        .min_by_key(|l| (l.outstanding(), *l));
    let mut loads: Vec<crate::compare::LoadPoint> = t
        .workloads
        .iter()
        .map(|w| w.key.load)
        .filter(|l| Some(*l) == lightest || marked.contains(l))
        .collect();
    loads.sort_by_key(|l| (l.outstanding(), *l));
    loads.dedup();
    loads
}

/// One series per config: its values of `metric` across `results`, and
/// the comparison's marks.
pub(crate) fn series(cmp: &Comparison, results: &[&MetricResult]) -> Vec<BarSeries> {
    cmp.configs
        .iter()
        .enumerate()
        .map(|(i, c)| BarSeries {
            name: c.clone(),
            color: palette::color(i),
            // An excluded value is not drawn: its bar would set the
            // scale that every compared bar is read on.
            values: results.iter().map(|r| r.value(c)).collect(),
            marks: results
                .iter()
                .map(|r| {
                    if r.exclusion(c).is_some() {
                        Mark::Excluded
                    } else if !r.contested() {
                        Mark::None
                    } else if r.winner.as_deref() == Some(c.as_str()) {
                        Mark::Best
                    } else if r.tied.iter().any(|t| t == c) {
                        Mark::Tied
                    } else {
                        Mark::None
                    }
                })
                .collect(),
            spreads: results
                .iter()
                .map(|r| r.spread.get(c).map(|s| s.stddev))
                .collect(),
        })
        .collect()
}

/// The largest absolute value in `results`, base units.
pub(crate) fn max_value(results: &[&MetricResult]) -> f64 {
    results
        .iter()
        .flat_map(|r| r.compared().map(|(_, v)| v))
        .map(|v| v.abs())
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod note_tests {
    #[test]
    fn the_note_says_whether_every_marked_point_is_shown() {
        assert_eq!(
            super::which_loads(3, 3),
            "the lightest and every config's knee, saturation and peak"
        );
        let capped = super::which_loads(7, 4);
        assert!(
            capped.contains("most configs mark")
                && capped.contains("3 other marked points left out")
        );
        assert!(super::which_loads(5, 4).contains("1 other marked point left out"));
    }
}
