//! Rules 1 and 2: per direction and metric, the config(s) with the most
//! wins ("windows-native has the best read bandwidth in 3 of 4 read
//! workloads"), and the same per OS family; leaders of both directions get
//! one sentence for both.

use super::entries::{METRICS, best_among, decided, effect, families_comparable, winners};
use super::winners::headline;
use super::words::{best_word, family_title, join_and};
use crate::compare::comparison::{Comparison, Metric, MetricResult, Workload};
use crate::compare::findings::{Finding, FindingKind};
use crate::compare::rules::Judge;
use crate::model::Direction;
use crate::numbers;

/// The most wins of one metric in one direction.
pub(super) struct Tally<'a> {
    dir: Direction,
    /// Workloads where the metric was decided among two or more configs.
    n: usize,
    /// Configs (or one family) with the top count, in display order.
    leaders: Vec<String>,
    /// Configs the leaders stand for (a family's members).
    members: Vec<String>,
    top: usize,
    won: Vec<&'a Workload>,
    /// Effect of each win over the best of the rest.
    effects: Vec<f64>,
    /// The shape's title when every workload is a load point of one shape
    /// (a sweep): its wins are load points, not workloads.
    one_shape: Option<String>,
}

/// Effect of `inside`'s best over the best of everyone else in `r`.
pub(super) fn win_effect(r: &MetricResult, inside: &[&str], judge: Judge) -> f64 {
    // A set: `inside` may be a family of thousands of configs.
    let set: std::collections::HashSet<&str> = inside.iter().copied().collect();
    let outside: Vec<&str> = r
        .values
        .keys()
        .map(|c| c.as_str())
        .filter(|c| !set.contains(c))
        .collect();
    match (best_among(r, inside), best_among(r, &outside)) {
        (Some(a), Some(b)) => effect(&a, &b, judge),
        _ => 0.0,
    }
}

/// At one load point mean latency is outstanding I/O over IOPS (Little's
/// law), so a latency win by whoever also wins bandwidth restates that win:
/// it counts half.
pub(super) fn restated(w: &Workload, m: Metric, inside: &[&str]) -> f64 {
    let same = m == Metric::LatMeanNs
        && w.metric(Metric::BwBytesPerS).is_some_and(|bw| {
            let ws = winners(bw);
            !ws.is_empty() && ws.iter().all(|c| inside.contains(c))
        });
    if same { 0.5 } else { 1.0 }
}

/// Tally of `subjects`, each a name and the configs it stands for; a
/// workload is a subject's win when every winner of it is one of them.
pub(super) fn tally<'a>(
    rows: &[(&'a Workload, &'a MetricResult)],
    dir: Direction,
    subjects: &[(String, Vec<String>)],
    judge: Judge,
) -> Option<Tally<'a>> {
    let won_by = |configs: &[String]| -> Vec<(&'a Workload, &'a MetricResult)> {
        rows.iter()
            .copied()
            .filter(|(_, r)| {
                let ws = winners(r);
                !ws.is_empty() && ws.iter().all(|w| configs.iter().any(|c| c == w))
            })
            .collect()
    };
    let counts: Vec<usize> = subjects.iter().map(|(_, c)| won_by(c).len()).collect();
    let top = counts.iter().copied().max().filter(|t| *t > 0)?;
    let mut t = Tally {
        dir,
        n: rows.len(),
        leaders: Vec::new(),
        members: Vec::new(),
        top,
        won: Vec::new(),
        effects: Vec::new(),
        one_shape: one_shape(rows),
    };
    for ((name, configs), _) in subjects.iter().zip(&counts).filter(|(_, n)| **n == top) {
        let inside: Vec<&str> = configs.iter().map(|c| c.as_str()).collect();
        for (w, r) in won_by(configs) {
            t.won.push(w);
            t.effects
                .push(win_effect(r, &inside, judge) * restated(w, r.metric, &inside));
        }
        t.leaders.push(name.clone());
        t.members.extend(configs.iter().cloned());
    }
    Some(t)
}

/// 1 and 2: most wins per metric, per config and per OS family; one
/// sentence when the same leaders top both directions.
pub(super) fn most_wins(cmp: &Comparison, judge: Judge) -> Vec<Finding> {
    if cmp.configs.len() < 2 {
        return Vec::new();
    }
    let configs: Vec<(String, Vec<String>)> = cmp
        .configs
        .iter()
        .map(|c| (c.clone(), vec![c.clone()]))
        .collect();
    let families: Vec<(String, Vec<String>)> = cmp
        .families
        .iter()
        .map(|f| (f.name.to_string(), f.configs.clone()))
        .collect();
    let mut out = Vec::new();
    for m in METRICS {
        for (kind, subjects) in [
            (FindingKind::Wins, &configs),
            (FindingKind::FamilyWins, &families),
        ] {
            if kind == FindingKind::FamilyWins && !families_comparable(cmp) {
                continue;
            }
            let tallies: Vec<Tally> = Direction::ALL
                .into_iter()
                .filter_map(|dir| {
                    let rows = decided(cmp, dir, m);
                    // Load points of one small-block shape are told by
                    // IOPS, of one large-block shape by bandwidth: the
                    // other says the same again.
                    let off_headline = matches!(m, Metric::Iops | Metric::BwBytesPerS)
                        && one_shape(&rows).is_some()
                        && rows.first().is_some_and(|(w, _)| headline(w) != m);
                    if off_headline {
                        return None;
                    }
                    (rows.len() >= 2).then(|| tally(&rows, dir, subjects, judge))?
                })
                .collect();
            out.extend(win_findings(cmp, kind, m, &tallies));
        }
    }
    out
}

/// Findings of the tallies of one metric: merged when both directions
/// have the same leaders.
pub(super) fn win_findings(
    cmp: &Comparison,
    kind: FindingKind,
    m: Metric,
    tallies: &[Tally],
) -> Vec<Finding> {
    match tallies {
        [a, b] if a.leaders == b.leaders => vec![win_finding(cmp, kind, m, &[a, b])],
        _ => tallies
            .iter()
            .map(|t| win_finding(cmp, kind, m, &[t]))
            .collect(),
    }
}

pub(super) fn win_finding(
    cmp: &Comparison,
    kind: FindingKind,
    m: Metric,
    parts: &[&Tally],
) -> Finding {
    // An OS family is named as people write it: "Windows", not the key.
    let leaders: Vec<String> = match kind {
        FindingKind::FamilyWins => parts[0].leaders.iter().map(|f| family_title(f)).collect(),
        _ => parts[0].leaders.clone(),
    };
    let subject = match leaders.as_slice() {
        [one] => format!("{one} has"),
        many => format!("{} each have", join_and(many)),
    };
    let counts: Vec<String> = parts
        .iter()
        .map(|t| format!("{} of {} {}", t.top, t.n, t.dir))
        .collect();
    let dir = (parts.len() == 1).then(|| parts[0].dir);
    let text = match parts {
        [t] if t.one_shape.is_some() => format!(
            "{subject} {} at {} of {} load points of {}",
            best_word(m, dir, cmp.tail_percentile),
            t.top,
            t.n,
            t.one_shape.as_deref().unwrap_or_default()
        ),
        _ => format!(
            "{subject} {} in {} workloads",
            best_word(m, dir, cmp.tail_percentile),
            counts.join(" and ")
        ),
    };
    let won: usize = parts.iter().map(|t| t.top).sum();
    let of: usize = parts.iter().map(|t| t.n).sum();
    let effects: Vec<f64> = parts
        .iter()
        .flat_map(|t| t.effects.iter().copied())
        .collect();
    let mut f = Finding::new(kind, text).on(
        parts
            .iter()
            .flat_map(|t| t.won.iter().map(|w| cmp.title_of(w)))
            .collect(),
        vec![m],
        parts[0].members.clone(),
    );
    f.directions = parts.iter().map(|t| t.dir.to_string()).collect();
    f.count = Some((won, of));
    // Split leadership is no one's lead: each leader's share counts. The
    // median win, not the mean, so one landslide does not carry a claim
    // whose other wins are slivers.
    let reach = won as f64 / of as f64 / leaders.len() as f64;
    f.scored(numbers::median(effects).unwrap_or(0.0), reach)
}

/// The title of the one shape every row is a load point of, when there
/// are two load points or more of it.
fn one_shape(rows: &[(&Workload, &MetricResult)]) -> Option<String> {
    let (first, _) = rows.first()?;
    let same = rows.iter().all(|(w, _)| w.key.shape == first.key.shape);
    let loads = rows.iter().any(|(w, _)| w.key.load != first.key.load);
    (same && loads).then(|| first.title())
}
