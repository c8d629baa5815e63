//! Regression thresholds: a default percentage and per-metric overrides,
//! parsed from `--threshold` values (`7`, `7%`, `iops=3%`, `lat_mean_ns=10%`).

use indexmap::IndexMap;

use crate::compare::Metric;

/// Default threshold, percent.
pub const DEFAULT_PCT: f64 = 5.0;

/// Why a `--threshold` value was refused (one line, names the value).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ThresholdError {
    #[error("threshold `{0}`: not a percentage (expected e.g. `5`, `5%`, `iops=3%`)")]
    NotANumber(String),
    #[error("threshold `{0}`: must be a finite percentage >= 0")]
    OutOfRange(String),
    #[error("threshold `{value}`: unknown metric `{metric}` (known: {known})")]
    UnknownMetric {
        value: String,
        metric: String,
        known: String,
    },
}

/// Relative change, percent, a metric may move in the worse direction
/// before it counts as a regression.
#[derive(Debug, Clone, PartialEq)]
pub struct Thresholds {
    pub default_pct: f64,
    pub per_metric: IndexMap<Metric, f64>,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            default_pct: DEFAULT_PCT,
            per_metric: IndexMap::new(),
        }
    }
}

impl Thresholds {
    /// Threshold for `metric`, percent.
    pub fn for_metric(&self, metric: Metric) -> f64 {
        self.per_metric
            .get(&metric)
            .copied()
            .unwrap_or(self.default_pct)
    }

    /// Applies `--threshold` values in order; a later value wins.
    pub fn parse_all<S: AsRef<str>>(values: &[S]) -> Result<Thresholds, ThresholdError> {
        let mut t = Thresholds::default();
        for v in values {
            t.apply(v.as_ref())?;
        }
        Ok(t)
    }

    /// Applies one `--threshold` value.
    pub fn apply(&mut self, value: &str) -> Result<(), ThresholdError> {
        match value.split_once('=') {
            Some((name, pct)) => {
                let metric =
                    metric_by_name(name.trim()).ok_or_else(|| ThresholdError::UnknownMetric {
                        value: value.to_string(),
                        metric: name.trim().to_string(),
                        known: METRIC_NAMES
                            .iter()
                            .map(|(n, _)| *n)
                            .collect::<Vec<_>>()
                            .join(", "),
                    })?;
                self.per_metric.insert(metric, parse_pct(value, pct)?);
            }
            None => self.default_pct = parse_pct(value, value)?,
        }
        Ok(())
    }
}

fn parse_pct(whole: &str, s: &str) -> Result<f64, ThresholdError> {
    let s = s.trim();
    let num = s.strip_suffix('%').unwrap_or(s).trim();
    let pct: f64 = num
        .parse()
        .map_err(|_| ThresholdError::NotANumber(whole.to_string()))?;
    if !pct.is_finite() || pct < 0.0 {
        return Err(ThresholdError::OutOfRange(whole.to_string()));
    }
    Ok(pct)
}

/// Names a user may give a metric: [`Metric::NAMES`], the one list every
/// flag that names a metric reads.
pub const METRIC_NAMES: &[(&str, Metric)] = Metric::NAMES;

/// The metric a user-given name means ([`Metric::parse`]).
pub fn metric_by_name(name: &str) -> Option<Metric> {
    Metric::parse(name)
}

/// The dataset/JSON name of a metric: [`Metric::key`], the one list of
/// them (docs/CONTRACT.md's column names).
pub fn metric_name(metric: Metric) -> &'static str {
    metric.key()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_number_and_percent_set_the_default() {
        assert_eq!(Thresholds::parse_all(&["7"]).unwrap().default_pct, 7.0);
        assert_eq!(Thresholds::parse_all(&["7.5%"]).unwrap().default_pct, 7.5);
        assert_eq!(Thresholds::parse_all::<&str>(&[]).unwrap().default_pct, 5.0);
    }

    #[test]
    fn per_metric_overrides_leave_the_default() {
        let t = Thresholds::parse_all(&["iops=3%", "lat_mean_ns=10%", "8"]).unwrap();
        assert_eq!(t.for_metric(Metric::Iops), 3.0);
        assert_eq!(t.for_metric(Metric::LatMeanNs), 10.0);
        assert_eq!(t.for_metric(Metric::BwBytesPerS), 8.0);
        // Short names mean the same metric; the later value wins.
        let t = Thresholds::parse_all(&["bw=2", "bw_bytes_per_s=4%"]).unwrap();
        assert_eq!(t.for_metric(Metric::BwBytesPerS), 4.0);
    }

    #[test]
    fn bad_values_say_what_is_wrong() {
        assert_eq!(
            Thresholds::parse_all(&["five"]).unwrap_err(),
            ThresholdError::NotANumber("five".into())
        );
        assert_eq!(
            Thresholds::parse_all(&["iops=-3%"]).unwrap_err(),
            ThresholdError::OutOfRange("iops=-3%".into())
        );
        let err = Thresholds::parse_all(&["tail=3"]).unwrap_err().to_string();
        assert!(err.contains("unknown metric `tail`"), "{err}");
        assert!(err.contains("lat_mean_ns"), "{err}");
        // The names `analyze --round` takes are the ones `--threshold` takes.
        for name in ["latency", "bandwidth", "clat_p99", "P99"] {
            assert!(
                Thresholds::parse_all(&[format!("{name}=3")]).is_ok(),
                "{name}"
            );
        }
        assert!(Thresholds::parse_all(&["nan"]).is_err());
    }

    #[test]
    fn every_metric_has_a_name_that_parses_back() {
        for (_, m) in METRIC_NAMES {
            assert_eq!(metric_by_name(metric_name(*m)), Some(*m));
        }
    }
}
