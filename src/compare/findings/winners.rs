//! Rule 8: per workload measured at one load point, who is best at its
//! headline metric (IOPS up to 16 KiB blocks, bandwidth above) and at p99
//! latency, by how much over the next config and the baseline.

use super::entries::{best_among, comparable, effect, entry, tie_words, winners};
use super::ties::NEAR_EQUAL_PCT;
use super::words::{figure, join_and, lead_words};
use crate::compare::comparison::{Better, Comparison, Metric, MetricResult, Workload};
use crate::compare::findings::{Finding, FindingKind};
use crate::compare::rules::Judge;
use crate::compare::workload::Shape;

/// The headline metric of a workload: IOPS for small blocks, bandwidth for
/// large ones, as reviews quote them.
pub(crate) fn headline(w: &Workload) -> Metric {
    if w.key.shape.bs_bytes <= 16 * 1024 {
        Metric::Iops
    } else {
        Metric::BwBytesPerS
    }
}

/// 8: per workload measured at one load point (its shape is no sweep),
/// who is best at its headline metric and at p99 latency, and by how much
/// over the next config and the baseline. Reach is the workload's share of
/// such workloads: on a one-workload comparison this is the headline.
pub(super) fn winners_of_workloads(cmp: &Comparison, judge: Judge) -> Vec<Finding> {
    let swept: Vec<&Shape> = cmp.sweeps.iter().map(|s| &s.shape).collect();
    let single: Vec<&Workload> = cmp
        .workloads
        .iter()
        .filter(|w| !swept.contains(&&w.key.shape))
        .collect();
    let mut out = Vec::new();
    for w in &single {
        for m in [headline(w), Metric::ClatP99Ns] {
            let Some(r) = w.metric(m).filter(|_| comparable(w, m)) else {
                continue;
            };
            if let Some((f, effect)) = winner_finding(cmp, w, r, judge) {
                out.push(f.scored(effect, 1.0 / single.len() as f64));
            }
        }
    }
    out
}

pub(super) fn winner_finding(
    cmp: &Comparison,
    w: &Workload,
    r: &MetricResult,
    judge: Judge,
) -> Option<(Finding, f64)> {
    // The winner, or the configs tied for best (the one with the best
    // value first): a tie at the top still leads the rest.
    let top: Vec<&str> = winners(r);
    let best = best_among(r, &top)?;
    let winner = best.config;
    let top_set: std::collections::HashSet<&str> = top.iter().copied().collect();
    let rest: Vec<&str> = r
        .compared()
        .map(|(c, _)| c)
        .filter(|c| !top_set.contains(c))
        .collect();
    let second = best_among(r, &rest)?;
    // Every config within half a percent: the tie sentence (3) says it.
    let vals: Vec<f64> = r.compared().map(|(_, v)| v).collect();
    let lo = vals.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = vals.iter().copied().fold(0.0, f64::max);
    if lo > 0.0 && (hi - lo) / lo * 100.0 <= NEAR_EQUAL_PCT {
        return None;
    }
    let most = match r.better {
        Better::Higher => format!("the most {}", r.human()),
        Better::Lower => format!("the lowest {}", r.human()),
    };
    let who = match top.as_slice() {
        [_] => format!("{winner} has {most} in {}", cmp.title_of(w)),
        many => {
            let names: Vec<String> = many.iter().map(|c| c.to_string()).collect();
            format!(
                "{} tie for {most} in {} ({})",
                join_and(&names),
                cmp.title_of(w),
                tie_words(r.rule, judge)
            )
        }
    };
    let mut text = format!(
        "{who}: {}, {} {} ({})",
        figure(&cmp.units, r.metric, best.value),
        lead_words(r.better, best.value, second.value),
        second.config,
        figure(&cmp.units, r.metric, second.value)
    );
    if let Some(base) = cmp
        .baseline
        .as_deref()
        .filter(|b| *b != winner && *b != second.config)
        && let Some(b) = entry(r, base)
    {
        text.push_str(&format!(
            " and {} the baseline, {base} ({})",
            lead_words(r.better, best.value, b.value),
            figure(&cmp.units, r.metric, b.value)
        ));
    }
    let f = Finding::new(FindingKind::Winner, text).on(
        vec![cmp.title_of(w)],
        vec![r.metric],
        vec![winner.to_string(), second.config.to_string()],
    );
    Some((f, effect(&best, &second, judge)))
}
