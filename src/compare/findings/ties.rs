//! Rule 3: workloads where every config is within [`NEAR_EQUAL_PCT`]
//! ("effectively a tie").

use indexmap::IndexMap;

use super::entries::{CPU_SATURATED_PCT, comparable_results, cpu_saturated, present};
use super::words::count_word;
use crate::compare::comparison::{Comparison, Metric, Workload};
use crate::compare::findings::{Finding, FindingKind, ONE_WORKLOAD};
use crate::compare::workload::{LoadPoint, Shape};
use crate::numbers;

/// Spread under which all configs are called "within X % of each other".
pub const NEAR_EQUAL_PCT: f64 = 0.5;

/// One workload's tie: its spread in percent and the configs in it.
struct Tie<'a> {
    w: &'a Workload,
    pct: f64,
    configs: Vec<String>,
}

/// 3: workloads where every config is within NEAR_EQUAL_PCT, one finding
/// per shape and metric across its load points ("In randread 4k at QD16,
/// QD128 and QD256 all four configs are within 0.01 %"). A tie is news
/// when it is tight and among three or more configs. CPU usage where every
/// config is saturated is no tie but no comparison: said once per shape.
pub(super) fn near_equal(cmp: &Comparison) -> Vec<Finding> {
    let mut ties: IndexMap<(&Shape, Metric), Vec<Tie>> = IndexMap::new();
    for (w, m, r) in comparable_results(cmp) {
        // IOPS that carry bandwidth's verdict spread by their rounding, not
        // by the run: bandwidth's own tie says how close the measurement is.
        if r.decided_by.is_some() {
            continue;
        }
        let vals = present(r);
        if vals.len() < 2 || vals.len() < cmp.configs.len() {
            continue;
        }
        let min = vals.iter().map(|v| v.1).fold(f64::INFINITY, f64::min);
        let max = vals.iter().map(|v| v.1).fold(0.0, f64::max);
        if min <= 0.0 {
            continue;
        }
        let pct = (max - min) / min * 100.0;
        if pct <= NEAR_EQUAL_PCT {
            let configs = vals.iter().map(|v| v.0.to_string()).collect();
            ties.entry((&w.key.shape, m))
                .or_default()
                .push(Tie { w, pct, configs });
        }
    }
    let mut saturated: IndexMap<&Shape, Vec<&Workload>> = IndexMap::new();
    for w in cmp.workloads.iter().filter(|w| cpu_saturated(w)) {
        saturated.entry(&w.key.shape).or_default().push(w);
    }
    let mut out: Vec<Finding> = ties
        .into_iter()
        .map(|((_, m), group)| tie_finding(cmp, m, &group))
        .collect();
    out.extend(
        saturated
            .into_values()
            .map(|ws| saturated_finding(cmp, &ws)),
    );
    out
}

/// Where: the workload's title, or the shape at its listed load points.
pub(super) fn where_words(cmp: &Comparison, ws: &[&Workload]) -> String {
    match ws {
        [one] => cmp.title_of(one),
        many => {
            let loads: Vec<LoadPoint> = many.iter().map(|w| w.key.load).collect();
            format!("{} at {}", many[0].title(), LoadPoint::condense(&loads))
        }
    }
}

fn tie_finding(cmp: &Comparison, m: Metric, group: &[Tie]) -> Finding {
    let ws: Vec<&Workload> = group.iter().map(|t| t.w).collect();
    let pct = group.iter().map(|t| t.pct).fold(0.0, f64::max);
    let n = group.iter().map(|t| t.configs.len()).max().unwrap_or(0);
    let how = if numbers::fixed(pct, 2) == "0.00" {
        format!("report the same {}", m.human_at(cmp.tail_percentile))
    } else {
        format!(
            "are within {} % of each other ({})",
            numbers::fixed(pct, 2),
            m.human_at(cmp.tail_percentile)
        )
    };
    let text = format!(
        "In {} {} configs {how}",
        where_words(cmp, &ws),
        count_word(n)
    );
    let tight = 1.0 - pct / NEAR_EQUAL_PCT * 0.5;
    let many = if n >= 3 { 1.0 } else { 0.6 };
    let mut configs: Vec<String> = Vec::new();
    let mut seen: std::collections::HashSet<&String> = std::collections::HashSet::new();
    for t in group {
        for c in &t.configs {
            if seen.insert(c) {
                configs.push(c.clone());
            }
        }
    }
    Finding::new(FindingKind::Tie, text)
        .on(
            ws.iter().map(|w| cmp.title_of(w)).collect(),
            vec![m],
            configs,
        )
        .scored(tight * many, ONE_WORKLOAD)
}

/// "CPU usage is not compared in randread 4k at QD128 and QD256: every
/// config is saturated (99 % or more)".
fn saturated_finding(cmp: &Comparison, ws: &[&Workload]) -> Finding {
    let text = format!(
        "CPU usage is not compared in {}: every config is saturated ({} % or more)",
        where_words(cmp, ws),
        numbers::trimmed(CPU_SATURATED_PCT, 0)
    );
    Finding::new(FindingKind::Tie, text)
        .on(
            ws.iter().map(|w| cmp.title_of(w)).collect(),
            vec![Metric::CpuPct],
            cmp.configs.clone(),
        )
        .scored(0.2, ONE_WORKLOAD)
}
