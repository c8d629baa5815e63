//! Rules 4 and 5: the largest gap per metric between the best and the
//! worst config, and per OS family its largest lead over the other
//! family's best config.

use super::entries::{
    METRICS, comparable, effect, extremes, families_comparable, tie_words, top_of,
};
use super::winners::headline;
use super::words::figure;
use crate::compare::comparison::{Better, Comparison, Metric, Rule, Workload};
use crate::compare::findings::{Finding, FindingKind, ONE_WORKLOAD};
use crate::compare::rules::{Entry, Judge, tie_rule};
use crate::model::Os;
use crate::numbers;

/// A gap between two configs of one OS family counts this much when the
/// comparison is across families: the reader came for the cross-family one.
pub(super) const WITHIN_FAMILY: f64 = 0.7;

/// 4: the largest absolute gap per metric, best against worst.
pub(super) fn largest_gaps(cmp: &Comparison, judge: Judge) -> Vec<Finding> {
    let mut out = Vec::new();
    for m in METRICS {
        let mut best: Option<(f64, &Workload, Entry, Entry)> = None;
        for w in &cmp.workloads {
            // IOPS gaps of large blocks and bandwidth gaps of small ones
            // restate the headline metric's gap.
            if matches!(m, Metric::Iops | Metric::BwBytesPerS) && headline(w) != m {
                continue;
            }
            let Some((lo, hi)) = w.metric(m).filter(|_| comparable(w, m)).and_then(extremes) else {
                continue;
            };
            let gap = hi.value - lo.value;
            let (first, second) = match m.better() {
                Better::Higher => (hi, lo),
                Better::Lower => (lo, hi),
            };
            if gap > 0.0 && best.as_ref().is_none_or(|b| gap > b.0) {
                best = Some((gap, w, first, second));
            }
        }
        if let Some((gap, w, a, b)) = best {
            out.push(gap_finding(cmp, m, (gap, w, &a, &b), judge));
        }
    }
    out
}

pub(super) fn gap_finding(
    cmp: &Comparison,
    m: Metric,
    (gap, w, a, b): (f64, &Workload, &Entry, &Entry),
    judge: Judge,
) -> Finding {
    let gap_text = if m == Metric::CpuPct {
        format!("{} pp", numbers::trimmed(gap, 2))
    } else {
        figure(&cmp.units, m, gap)
    };
    let text = format!(
        "Largest {} gap: {}, {gap_text} between {} ({}) and {} ({})",
        m.human_at(cmp.tail_percentile).replace(' ', "-"),
        cmp.title_of(w),
        a.config,
        figure(&cmp.units, m, a.value),
        b.config,
        figure(&cmp.units, m, b.value)
    );
    let os = |c: &str| cmp.config_os.get(c).cloned();
    let within_family = cmp.families.len() >= 2 && os(a.config) == os(b.config);
    let factor = if within_family { WITHIN_FAMILY } else { 1.0 };
    Finding::new(FindingKind::Gap, text)
        .on(
            vec![cmp.title_of(w)],
            vec![m],
            vec![a.config.to_string(), b.config.to_string()],
        )
        .scored(effect(a, b, judge) * factor, ONE_WORKLOAD)
}

/// 5: each OS family's largest lead over the other family's best config.
/// Rounding ties are no lead; a lead that noise or the equivalence margin
/// cannot separate is said to be one.
pub(super) fn family_leads(cmp: &Comparison, judge: Judge) -> Vec<Finding> {
    let mut out = Vec::new();
    let fam = |os: Os| cmp.families.iter().find(|f| f.name == os);
    let (Some(win), Some(lin)) = (fam(Os::Windows), fam(Os::Linux)) else {
        return out;
    };
    if !families_comparable(cmp) {
        return out;
    }
    for m in [Metric::BwBytesPerS, Metric::Iops] {
        for (mine, theirs) in [(win, lin), (lin, win)] {
            let mut best: Option<(f64, &Workload, Entry, Entry)> = None;
            for w in &cmp.workloads {
                let Some(r) = w.metric(m) else { continue };
                let (Some(a), Some(b)) = (top_of(r, &mine.configs), top_of(r, &theirs.configs))
                else {
                    continue;
                };
                if b.value <= 0.0 || tie_rule(&a, &b, judge).1 == Rule::WithinPrecision {
                    continue;
                }
                let lead = (a.value / b.value - 1.0) * 100.0;
                if lead > 0.0 && best.as_ref().is_none_or(|x| lead > x.0) {
                    best = Some((lead, w, a, b));
                }
            }
            if let Some((lead, w, a, b)) = best {
                let (tied, rule) = tie_rule(&a, &b, judge);
                let qualifier = if tied {
                    format!(", {}", tie_words(rule, judge))
                } else {
                    String::new()
                };
                // Past +1000 % a lead reads as a ratio, as the tables print it.
                let by = if lead > 1000.0 {
                    format!("{}x its figure", numbers::fixed(a.value / b.value, 1))
                } else {
                    format!("by {} %", numbers::fixed(lead, 1))
                };
                let text = format!(
                    "{} leads the best {} config ({}) in {} {} {by}{qualifier}",
                    a.config,
                    theirs.name.title(),
                    b.config,
                    cmp.title_of(w),
                    m.human_at(cmp.tail_percentile),
                );
                let f = Finding::new(FindingKind::Lead, text).on(
                    vec![cmp.title_of(w)],
                    vec![m],
                    vec![a.config.to_string(), b.config.to_string()],
                );
                out.push(f.scored(effect(&a, &b, judge), ONE_WORKLOAD));
            }
        }
    }
    out
}
