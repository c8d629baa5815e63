//! Rule 3: workloads where every config is within [`NEAR_EQUAL_PCT`]
//! ("effectively a tie").

use super::entries::{comparable_results, present};
use super::words::count_word;
use crate::compare::findings::{Finding, FindingKind, ONE_WORKLOAD};
use crate::compare::model::Comparison;
use crate::numbers;

/// Spread under which all configs are called "within X % of each other".
pub const NEAR_EQUAL_PCT: f64 = 0.5;

/// 3: workloads where every config is within NEAR_EQUAL_PCT. A tie is
/// news when it is tight and among three or more configs.
pub(super) fn near_equal(cmp: &Comparison) -> Vec<Finding> {
    let mut out = Vec::new();
    for (w, m, r) in comparable_results(cmp) {
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
            let text = format!(
                "In {} {} configs are within {} % of each other ({})",
                cmp.title_of(w),
                count_word(vals.len()),
                numbers::fixed(pct.max(0.01), 2),
                m.human_at(cmp.tail_percentile)
            );
            let tight = 1.0 - pct / NEAR_EQUAL_PCT * 0.5;
            let many = if vals.len() >= 3 { 1.0 } else { 0.6 };
            let f = Finding::new(FindingKind::Tie, text).on(
                vec![cmp.title_of(w)],
                vec![m],
                vals.iter().map(|v| v.0.to_string()).collect(),
            );
            out.push(f.scored(tight * many, ONE_WORKLOAD));
        }
    }
    out
}
