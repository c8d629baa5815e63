//! The verdict of one metric of one workload: the rules of `nvcmp check`,
//! in the order they are applied. A change is a regression only when all
//! of these hold:
//!
//! 1. it is in the worse direction (the metric's [`Better`]) and larger
//!    than the metric's threshold (default 5 %);
//! 2. it is larger than the two values' rounding ([`stats::precision_tie`]);
//! 3. where both sides have a spread (repeated runs, or fio's per-interval
//!    samples), Welch's t-test says the difference is significant at
//!    `alpha` ([`stats::significantly_different`]).
//!
//! The same rules in the better direction make an improvement. Each rule
//! can only clear a change, never raise one: noise never fails a build
//! that a bare percentage would have passed.

use serde::Serialize;

use crate::compare::stats::{self, Summary};
use crate::compare::{Better, Metric, MetricResult, Spread, SpreadSource};

/// What happened to one metric of one workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Regression,
    Improvement,
    Unchanged,
    /// The baseline has it, the candidate does not.
    Missing,
    /// The candidate has it, the baseline does not.
    New,
    /// A side's figure is no measurement (the comparison excluded it as
    /// invalid: IOPS of 1e308, a latency fio did not measure): not
    /// compared. On the candidate's side it fails the check: a broken
    /// figure is never an improvement.
    Invalid,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Regression => "regression",
            Verdict::Improvement => "improvement",
            Verdict::Unchanged => "unchanged",
            Verdict::Missing => "missing",
            Verdict::New => "new",
            Verdict::Invalid => "invalid",
        }
    }
}

/// The rule that decided a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckRule {
    /// The change is within the threshold.
    WithinThreshold,
    /// Beyond the threshold, but within the values' rounding.
    WithinPrecision,
    /// Beyond threshold and rounding, but Welch's test finds no significant difference.
    NotSignificant,
    /// Beyond threshold and rounding, and significant by Welch's test.
    Significant,
    /// Beyond threshold and rounding; no spread is known to test it against.
    BeyondThreshold,
    /// The whole workload is absent from the candidate.
    WorkloadMissing,
    /// The candidate has the workload but not this metric.
    MetricMissing,
    /// Only the candidate has it.
    OnlyInCandidate,
    /// Neither side has a value.
    NoData,
    /// The candidate's figure is no measurement.
    InvalidCandidate,
    /// The baseline's figure is no measurement: nothing to judge against.
    InvalidBaseline,
}

/// Inputs of one verdict, in plain numbers (testable without a Comparison).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sides {
    pub baseline: Option<f64>,
    pub candidate: Option<f64>,
    pub baseline_precision: f64,
    pub candidate_precision: f64,
    pub baseline_spread: Option<Summary>,
    pub candidate_spread: Option<Summary>,
}

/// A verdict with its evidence.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Judgement {
    pub verdict: Verdict,
    pub rule: CheckRule,
    /// (candidate - baseline) / baseline, percent; None when undefined.
    pub change_pct: Option<f64>,
    /// Welch's two-sided p-value, when the test was made.
    pub p_value: Option<f64>,
}

/// Decides one metric. `workload_missing` says the candidate lacks the
/// whole workload (not just this metric).
pub fn decide(
    better: Better,
    sides: &Sides,
    threshold_pct: f64,
    alpha: f64,
    workload_missing: bool,
) -> Judgement {
    let (base, cand) = match (sides.baseline, sides.candidate) {
        (Some(b), Some(c)) => (b, c),
        (Some(_), None) => {
            let rule = if workload_missing {
                CheckRule::WorkloadMissing
            } else {
                CheckRule::MetricMissing
            };
            return plain(Verdict::Missing, rule);
        }
        (None, Some(_)) => return plain(Verdict::New, CheckRule::OnlyInCandidate),
        (None, None) => return plain(Verdict::Unchanged, CheckRule::NoData),
    };
    let change_pct = if base != 0.0 {
        Some((cand - base) / base.abs() * 100.0)
    } else if cand == 0.0 {
        Some(0.0)
    } else {
        // From zero any change is infinitely large: the threshold cannot
        // clear it, the other rules still may.
        None
    };
    let worse = match better {
        Better::Higher => cand < base,
        Better::Lower => cand > base,
    };
    let decided = |verdict, rule, p_value| Judgement {
        verdict,
        rule,
        change_pct,
        p_value,
    };
    if change_pct.is_some_and(|c| c.abs() <= threshold_pct) {
        return decided(Verdict::Unchanged, CheckRule::WithinThreshold, None);
    }
    if stats::precision_tie(
        base,
        sides.baseline_precision,
        cand,
        sides.candidate_precision,
    ) {
        return decided(Verdict::Unchanged, CheckRule::WithinPrecision, None);
    }
    let moved = if worse {
        Verdict::Regression
    } else {
        Verdict::Improvement
    };
    if let (Some(a), Some(b)) = (sides.baseline_spread, sides.candidate_spread)
        && let Some(w) = stats::welch(a, b)
    {
        if w.p < alpha {
            return decided(moved, CheckRule::Significant, Some(w.p));
        }
        return decided(Verdict::Unchanged, CheckRule::NotSignificant, Some(w.p));
    }
    decided(moved, CheckRule::BeyondThreshold, None)
}

fn plain(verdict: Verdict, rule: CheckRule) -> Judgement {
    Judgement {
        verdict,
        rule,
        change_pct: None,
        p_value: None,
    }
}

/// The spread of `config` for `metric`, as a [`Summary`].
///
/// Latency has no per-interval samples in fio's output, but IOPS has, and
/// with a fixed number of I/Os in flight (iodepth x numjobs) Little's law
/// ties the two: mean latency = in flight / IOPS, so the relative spread
/// of per-interval latency is that of per-interval IOPS. Without this a
/// mean latency would only ever meet the bare threshold and cry wolf on
/// the same noise that the IOPS test clears.
pub fn spread_of(
    metric: &MetricResult,
    iops: Option<&MetricResult>,
    config: &str,
) -> Option<(Summary, SpreadSource)> {
    if let Some(s) = metric.spread.get(config) {
        return Some((summary(s), s.source));
    }
    if metric.metric != Metric::LatMeanNs {
        return None;
    }
    let value = (*metric.values.get(config)?)?;
    let s = iops?.spread.get(config)?;
    if !(s.mean > 0.0 && s.stddev.is_finite()) {
        return None;
    }
    Some((
        Summary {
            n: s.n,
            mean: value,
            stddev: value * s.stddev / s.mean,
        },
        s.source,
    ))
}

fn summary(s: &Spread) -> Summary {
    Summary {
        n: s.n,
        mean: s.mean,
        stddev: s.stddev,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sides(b: f64, c: f64) -> Sides {
        Sides {
            baseline: Some(b),
            candidate: Some(c),
            baseline_precision: 1.0,
            candidate_precision: 1.0,
            baseline_spread: None,
            candidate_spread: None,
        }
    }

    fn spread(n: u64, mean: f64, stddev: f64) -> Option<Summary> {
        Some(Summary { n, mean, stddev })
    }

    #[test]
    fn direction_decides_regression_or_improvement() {
        let d = decide(
            Better::Higher,
            &sides(100_000.0, 90_000.0),
            5.0,
            0.05,
            false,
        );
        assert_eq!(
            (d.verdict, d.rule),
            (Verdict::Regression, CheckRule::BeyondThreshold)
        );
        assert!((d.change_pct.unwrap() - -10.0).abs() < 1e-9);
        // The same drop in a lower-is-better metric is an improvement.
        let d = decide(Better::Lower, &sides(100_000.0, 90_000.0), 5.0, 0.05, false);
        assert_eq!(d.verdict, Verdict::Improvement);
        let d = decide(Better::Lower, &sides(1000.0, 1200.0), 5.0, 0.05, false);
        assert_eq!(d.verdict, Verdict::Regression);
    }

    #[test]
    fn threshold_is_inclusive_and_per_call() {
        let d = decide(Better::Higher, &sides(1000.0, 950.0), 5.0, 0.05, false);
        assert_eq!(
            (d.verdict, d.rule),
            (Verdict::Unchanged, CheckRule::WithinThreshold)
        );
        let d = decide(Better::Higher, &sides(1000.0, 950.0), 3.0, 0.05, false);
        assert_eq!(d.verdict, Verdict::Regression);
    }

    #[test]
    fn rounding_clears_a_change_it_could_explain() {
        // `10k` (known to the thousand) against an exact 9,400: 6 % down and
        // 600 > (1000 + 1) / 2, so rounding cannot explain it.
        let mut s = sides(10_000.0, 9_400.0);
        s.baseline_precision = 1000.0;
        assert_eq!(
            decide(Better::Higher, &s, 5.0, 0.05, false).verdict,
            Verdict::Regression
        );
        // `10k` against `9k`: 10 % down, but 1000 <= (1000 + 1000) / 2.
        let mut s = sides(10_000.0, 9_000.0);
        s.baseline_precision = 1000.0;
        s.candidate_precision = 1000.0;
        let d = decide(Better::Higher, &s, 5.0, 0.05, false);
        assert_eq!(
            (d.verdict, d.rule),
            (Verdict::Unchanged, CheckRule::WithinPrecision)
        );
    }

    #[test]
    fn significance_clears_noise_and_confirms_shifts() {
        // 8 % down, but the per-interval samples swing by 20 %: noise.
        let mut s = sides(100.0, 92.0);
        s.baseline_spread = spread(5, 100.0, 20.0);
        s.candidate_spread = spread(5, 92.0, 20.0);
        let d = decide(Better::Higher, &s, 5.0, 0.05, false);
        assert_eq!(
            (d.verdict, d.rule),
            (Verdict::Unchanged, CheckRule::NotSignificant)
        );
        assert!(d.p_value.unwrap() > 0.05);
        // The same drop with tight samples is a regression, by the t-test.
        s.baseline_spread = spread(5, 100.0, 1.0);
        s.candidate_spread = spread(5, 92.0, 1.0);
        let d = decide(Better::Higher, &s, 5.0, 0.05, false);
        assert_eq!(
            (d.verdict, d.rule),
            (Verdict::Regression, CheckRule::Significant)
        );
        assert!(d.p_value.unwrap() < 0.001);
        // A spread on one side only cannot be tested: threshold decides.
        s.candidate_spread = None;
        assert_eq!(
            decide(Better::Higher, &s, 5.0, 0.05, false).rule,
            CheckRule::BeyondThreshold
        );
    }

    #[test]
    fn significance_never_raises_a_change_below_threshold() {
        let mut s = sides(100.0, 97.0);
        s.baseline_spread = spread(50, 100.0, 0.1);
        s.candidate_spread = spread(50, 97.0, 0.1);
        assert_eq!(
            decide(Better::Higher, &s, 5.0, 0.05, false).verdict,
            Verdict::Unchanged
        );
    }

    #[test]
    fn missing_and_new() {
        let mut s = sides(1.0, 1.0);
        s.candidate = None;
        assert_eq!(
            decide(Better::Higher, &s, 5.0, 0.05, true).rule,
            CheckRule::WorkloadMissing
        );
        assert_eq!(
            decide(Better::Higher, &s, 5.0, 0.05, false).rule,
            CheckRule::MetricMissing
        );
        let mut s = sides(1.0, 1.0);
        s.baseline = None;
        assert_eq!(
            decide(Better::Higher, &s, 5.0, 0.05, false).verdict,
            Verdict::New
        );
    }

    #[test]
    fn from_zero_only_precision_or_spread_can_clear() {
        let d = decide(Better::Lower, &sides(0.0, 3.0), 5.0, 0.05, false);
        assert_eq!((d.verdict, d.change_pct), (Verdict::Regression, None));
        let d = decide(Better::Lower, &sides(0.0, 0.0), 5.0, 0.05, false);
        assert_eq!(d.verdict, Verdict::Unchanged);
    }
}
