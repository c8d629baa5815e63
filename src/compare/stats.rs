//! The statistics behind ties and regressions, shared by `analyze` and
//! `check` so both judge "different" the same way.
//!
//! - Precision tie (docs/CONTRACT.md): two values tie when their difference is
//!   at most half the sum of their precisions. `2,411,000` known to the
//!   thousand (±500) and `2,410,700` exact (±0.5) tie.
//! - Significance: Welch's unequal-variance t-test on two summaries
//!   (n, mean, standard deviation), two-sided, with the Welch–Satterthwaite
//!   degrees of freedom: <https://en.wikipedia.org/wiki/Welch%27s_t-test>.

use statrs::distribution::{ContinuousCDF, StudentsT};

/// Significance level used unless the user asks for another.
pub const DEFAULT_ALPHA: f64 = 0.05;

/// True when `a` (known to step `pa`) and `b` (known to `pb`) cannot be
/// told apart by their rounding.
pub fn precision_tie(a: f64, pa: f64, b: f64, pb: f64) -> bool {
    (a - b).abs() <= (pa.max(0.0) + pb.max(0.0)) / 2.0
}

/// n, mean and sample standard deviation of a measurement.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub n: u64,
    pub mean: f64,
    pub stddev: f64,
}

impl Summary {
    /// Summary of repeated values (sample standard deviation, n - 1).
    pub fn of(values: &[f64]) -> Option<Summary> {
        let n = values.len();
        if n == 0 || values.iter().any(|v| !v.is_finite()) {
            return None;
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let stddev = if n > 1 {
            let ss: f64 = values.iter().map(|v| (v - mean).powi(2)).sum();
            (ss / (n as f64 - 1.0)).sqrt()
        } else {
            0.0
        };
        Some(Summary {
            n: n as u64,
            mean,
            stddev,
        })
    }

    /// Variance of the mean (s² / n).
    fn var_of_mean(&self) -> f64 {
        self.stddev * self.stddev / self.n as f64
    }
}

/// Outcome of Welch's t-test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Welch {
    pub t: f64,
    pub df: f64,
    /// Two-sided p-value.
    pub p: f64,
}

/// Welch's t-test of `a` against `b`. None when it cannot be computed: a
/// side with fewer than 2 observations, or no variance on either side (then
/// only the precision rule can decide).
pub fn welch(a: Summary, b: Summary) -> Option<Welch> {
    if a.n < 2 || b.n < 2 {
        return None;
    }
    let (va, vb) = (a.var_of_mean(), b.var_of_mean());
    let se2 = va + vb;
    if !(se2.is_finite() && se2 > 0.0) {
        return None;
    }
    let t = (a.mean - b.mean) / se2.sqrt();
    let df = se2 * se2 / (va * va / (a.n as f64 - 1.0) + vb * vb / (b.n as f64 - 1.0));
    if !(df.is_finite() && df > 0.0) {
        return None;
    }
    let dist = StudentsT::new(0.0, 1.0, df).ok()?;
    let p = 2.0 * (1.0 - dist.cdf(t.abs()));
    Some(Welch {
        t,
        df,
        p: p.clamp(0.0, 1.0),
    })
}

/// True when `a` and `b` differ significantly at level `alpha`; None when
/// the test cannot be made.
pub fn significantly_different(a: Summary, b: Summary, alpha: f64) -> Option<bool> {
    welch(a, b).map(|w| w.p < alpha)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_randwrite_64k_iops_tie() {
        // 125,406 exact against 125,000 known to the thousand: differ by 406,
        // more than ±500.5? No: 406 <= (1 + 1000) / 2, a tie.
        assert!(precision_tie(125_406.0, 1.0, 125_000.0, 1000.0));
        // 2,636,516 exact against 2,491,000 known to the thousand: no tie.
        assert!(!precision_tie(2_636_516.0, 1.0, 2_491_000.0, 1000.0));
        // Exact values one apart do not tie... but half-steps do.
        assert!(!precision_tie(10.0, 1.0, 12.0, 1.0));
        assert!(precision_tie(10.0, 1.0, 11.0, 1.0));
    }

    #[test]
    fn welch_matches_a_worked_example() {
        // Wikipedia's first Welch example; t, df and p recomputed
        // independently (Python, numeric integration of the t density):
        // a = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6,
        //      23.1, 19.6, 19.0, 21.7, 21.4]
        // b = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2,
        //      21.9, 22.1, 22.9, 20.5, 24.4]  -> t = -2.455, df = 24.99, p = 0.0214
        let a = [
            27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7,
            21.4,
        ];
        let b = [
            27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5,
            24.4,
        ];
        let w = welch(Summary::of(&a).unwrap(), Summary::of(&b).unwrap()).unwrap();
        assert!((w.t - -2.46).abs() < 0.01, "t = {}", w.t);
        assert!((w.p - 0.021).abs() < 0.002, "p = {}", w.p);
        assert_eq!(
            significantly_different(Summary::of(&a).unwrap(), Summary::of(&b).unwrap(), 0.05),
            Some(true)
        );
        assert_eq!(
            significantly_different(Summary::of(&a).unwrap(), Summary::of(&b).unwrap(), 0.01),
            Some(false)
        );
    }

    #[test]
    fn no_test_without_spread() {
        let one = Summary {
            n: 1,
            mean: 5.0,
            stddev: 0.0,
        };
        let flat = Summary {
            n: 5,
            mean: 5.0,
            stddev: 0.0,
        };
        assert!(welch(one, flat).is_none());
        assert!(welch(flat, flat).is_none());
    }
}
