//! Who wins one metric of one workload, and when two results cannot be
//! told apart.
//!
//! 1. The best value wins (highest or lowest, per [`Better`]).
//! 2. Any other config whose value ties with the best is `tied`, and then
//!    there is no winner. Two values tie when their difference is within
//!    their rounding ([`stats::precision_tie`], docs/CONTRACT.md); where both
//!    sides have a spread (repeated runs or fio's samples) and the rounding
//!    does not already tie them, Welch's t-test decides: not significant at
//!    `alpha` is a tie. Values whose difference, beyond their rounding, is
//!    at most PCT % of the larger are also a tie (`--equivalence PCT`, a practical equivalence
//!    margin as in equivalence testing:
//!    <https://en.wikipedia.org/wiki/Equivalence_test>); without the flag
//!    PCT is [`SINGLE_RUN_FLOOR_PCT`], the difference one run's figures
//!    are not read to.
//! 3. The rule that decided is reported: for a tie, the rule of the ties;
//!    for a winner, the rule that separated it from the runner-up.
//! 4. Against the baseline the same test says which deltas are real:
//!    [`baseline_ties`] lists the configs the baseline cannot be told apart
//!    from, so a delta chart can say "-0.3 %, within rounding".

use super::comparison::{Better, Rule, Spread};
use super::stats::{self, Summary};

/// One config's value of one metric.
#[derive(Debug, Clone)]
pub struct Entry<'a> {
    pub config: &'a str,
    pub value: f64,
    pub precision: f64,
    pub spread: Option<Spread>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub winner: Option<String>,
    pub tied: Vec<String>,
    pub rule: Rule,
}

/// The default equivalence margin, percent: half a step of fio's 4th
/// significant figure where that step is coarsest (fio prints 4 by
/// default, and between 1,000 and 1,999 a step is 0.1 % of the value).
/// A difference fio's own output could round away is not one a single
/// run separates. It is no measure of run-to-run noise, which is far
/// larger (benches/noise-study.md: 12-19 % on a shared VM) and which
/// repeated runs' Welch test judges; it keeps a single run from being
/// read finer than fio prints it. The article's randwrite 64k, four
/// configs 0.048 % apart, ties by it; its read 128k and write 64k leads,
/// 0.051 % and 0.064 %, stand.
pub const SINGLE_RUN_FLOOR_PCT: f64 = 0.05;

/// How two values are told apart: Welch's significance level and an
/// optional practical-equivalence margin (percent of the best value).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Judge {
    pub alpha: f64,
    pub equivalence_pct: Option<f64>,
}

impl Judge {
    pub fn new(alpha: f64) -> Judge {
        Judge {
            alpha,
            equivalence_pct: None,
        }
    }
}

fn summary(s: &Spread) -> Summary {
    Summary {
        n: s.n,
        mean: s.mean,
        stddev: s.stddev,
    }
}

/// How `other` compares with `best`: whether they tie, and the rule that
/// says so (or that separated them).
pub fn tie_rule(best: &Entry, other: &Entry, judge: Judge) -> (bool, Rule) {
    if stats::precision_tie(best.value, best.precision, other.value, other.precision) {
        return (true, Rule::WithinPrecision);
    }
    // The margin counts beyond the rounding: what is left of the
    // difference once rounding has explained what it can must pass it.
    if let Some(pct) = judge.equivalence_pct {
        let scale = best.value.abs().max(other.value.abs());
        let rounding = (best.precision.max(0.0) + other.precision.max(0.0)) / 2.0;
        if (best.value - other.value).abs() <= rounding + scale * pct / 100.0 {
            return (true, Rule::Equivalent);
        }
    }
    if let (Some(a), Some(b)) = (&best.spread, &other.spread)
        && let Some(diff) = stats::significantly_different(summary(a), summary(b), judge.alpha)
    {
        return if diff {
            (false, Rule::Significant)
        } else {
            (true, Rule::NotSignificant)
        };
    }
    (false, Rule::Precision)
}

/// Decides one metric. `entries` are in display order; equal best values
/// go to the first.
pub fn decide(better: Better, entries: &[Entry], judge: Judge) -> Decision {
    let Some(best) = entries.iter().reduce(|a, b| {
        let b_better = match better {
            Better::Higher => b.value > a.value,
            Better::Lower => b.value < a.value,
        };
        if b_better { b } else { a }
    }) else {
        return Decision {
            winner: None,
            tied: Vec::new(),
            rule: Rule::NoData,
        };
    };
    if entries.len() == 1 {
        return Decision {
            winner: Some(best.config.to_string()),
            tied: Vec::new(),
            rule: Rule::Single,
        };
    }
    let mut tied = Vec::new();
    let mut tie_rules = Vec::new();
    let mut runner_up: Option<(&Entry, Rule)> = None;
    for e in entries.iter().filter(|e| e.config != best.config) {
        let (tie, rule) = tie_rule(best, e, judge);
        if tie {
            tied.push(e.config.to_string());
            tie_rules.push(rule);
        } else {
            let closer = runner_up
                .is_none_or(|(r, _)| (e.value - best.value).abs() < (r.value - best.value).abs());
            if closer {
                runner_up = Some((e, rule));
            }
        }
    }
    if tied.is_empty() {
        return Decision {
            winner: Some(best.config.to_string()),
            tied,
            rule: runner_up.map_or(Rule::Precision, |(_, r)| r),
        };
    }
    let rule = if tie_rules.contains(&Rule::NotSignificant) {
        Rule::NotSignificant
    } else if tie_rules.contains(&Rule::Equivalent) {
        Rule::Equivalent
    } else {
        Rule::WithinPrecision
    };
    // The tied list holds every config tied for best, in display order.
    let tied: std::collections::HashSet<&str> = tied.iter().map(String::as_str).collect();
    let mut all: Vec<String> = entries
        .iter()
        .filter(|e| e.config == best.config || tied.contains(e.config))
        .map(|e| e.config.to_string())
        .collect();
    all.dedup();
    Decision {
        winner: None,
        tied: all,
        rule,
    }
}

/// Configs whose value ties with `baseline`'s by [`tie_rule`], with the
/// rule that tied them; the baseline itself is not listed.
pub fn baseline_ties(baseline: &str, entries: &[Entry], judge: Judge) -> Vec<(String, Rule)> {
    let Some(base) = entries.iter().find(|e| e.config == baseline) else {
        return Vec::new();
    };
    entries
        .iter()
        .filter(|e| e.config != baseline)
        .filter_map(|e| {
            let (tie, rule) = tie_rule(base, e, judge);
            tie.then(|| (e.config.to_string(), rule))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::comparison::SpreadSource;

    fn e(config: &str, value: f64, precision: f64) -> Entry<'_> {
        Entry {
            config,
            value,
            precision,
            spread: None,
        }
    }

    #[test]
    fn best_wins_unless_rounding_ties_it() {
        let d = decide(
            Better::Higher,
            &[e("a", 2_636_516.0, 1.0), e("b", 2_491_000.0, 1000.0)],
            Judge::new(0.05),
        );
        assert_eq!(d.winner.as_deref(), Some("a"));
        assert_eq!(d.rule, Rule::Precision);
        let d = decide(
            Better::Higher,
            &[
                e("a", 125_391.0, 1.0),
                e("b", 125_406.0, 1.0),
                e("c", 125_000.0, 1000.0),
            ],
            Judge::new(0.05),
        );
        assert_eq!(d.winner, None);
        assert_eq!(d.tied, ["b", "c"]);
        assert_eq!(d.rule, Rule::WithinPrecision);
        let d = decide(
            Better::Lower,
            &[e("a", 0.5, 0.01), e("b", 0.3, 0.01)],
            Judge::new(0.05),
        );
        assert_eq!(d.winner.as_deref(), Some("b"));
    }

    #[test]
    fn spreads_decide_by_welch() {
        let spread = |mean, stddev| {
            Some(Spread {
                n: 5,
                mean,
                stddev,
                source: SpreadSource::Runs,
            })
        };
        // a at 100 and b at 98, both with the same run-to-run stddev.
        let pair = |stddev| {
            [("a", 100.0), ("b", 98.0)].map(|(config, mean)| Entry {
                spread: spread(mean, stddev),
                ..e(config, mean, 1.0)
            })
        };
        let d = decide(Better::Higher, &pair(10.0), Judge::new(0.05));
        assert_eq!((d.winner, d.rule), (None, Rule::NotSignificant));
        let d = decide(Better::Higher, &pair(0.5), Judge::new(0.05));
        assert_eq!(
            (d.winner.as_deref(), d.rule),
            (Some("a"), Rule::Significant)
        );
    }

    #[test]
    fn baseline_ties_use_the_same_rules() {
        // Published randwrite 64k IOPS: 125,000 known to the thousand ties
        // the baseline's exact 125,391; 125,406 exact does not.
        let entries = [
            e("base", 125_391.0, 1.0),
            e("native", 125_406.0, 1.0),
            e("libaio", 125_000.0, 1000.0),
        ];
        let ties = baseline_ties("base", &entries, Judge::new(0.05));
        assert_eq!(ties, [("libaio".to_string(), Rule::WithinPrecision)]);
        assert!(baseline_ties("missing", &entries, Judge::new(0.05)).is_empty());
    }

    #[test]
    fn an_equivalence_margin_ties_what_it_covers() {
        let vals = [
            e("a", 100.0, 0.001),
            e("b", 99.2, 0.001),
            e("c", 97.0, 0.001),
        ];
        let d = decide(Better::Higher, &vals, Judge::new(0.05));
        assert_eq!((d.winner.as_deref(), d.rule), (Some("a"), Rule::Precision));
        let judge = Judge {
            alpha: 0.05,
            equivalence_pct: Some(1.0),
        };
        let d = decide(Better::Higher, &vals, judge);
        // a and b are 0.8 % apart: equivalent; c, 3 % behind, is not.
        assert_eq!(d.winner, None);
        assert_eq!(d.tied, ["a", "b"]);
        assert_eq!(d.rule, Rule::Equivalent);
    }
}
