//! One config's runs of one workload ([`ConfigCell`]), each metric reduced over
//! them. Below the notes, validity checks and results that read it.

use indexmap::IndexMap;

use super::comparison::*;
use super::workload::Run;
use super::{MIN_SAMPLES, stats};

/// One config's runs of one workload, reduced per metric.
pub(super) struct ConfigCell {
    pub(super) runs: Vec<Run>,
    /// True when every run reported an error: shown, never a winner.
    pub(super) errored: bool,
}

impl ConfigCell {
    pub(super) fn new(runs: &[Run]) -> ConfigCell {
        let clean: Vec<Run> = runs.iter().filter(|r| r.error == 0).cloned().collect();
        if clean.is_empty() {
            ConfigCell {
                runs: runs.to_vec(),
                errored: true,
            }
        } else {
            ConfigCell {
                runs: clean,
                errored: false,
            }
        }
    }

    /// Value, precision and spread of one metric.
    pub(super) fn metric(&self, m: Metric) -> Option<(f64, f64, Option<Spread>)> {
        let vals: Vec<f64> = self.runs.iter().filter_map(|r| m.of_run(r)).collect();
        let summary = stats::Summary::of(&vals)?;
        let precision = self
            .runs
            .iter()
            .map(|r| m.precision_of_run(r))
            .fold(0.0, f64::max);
        let spread = if summary.n >= 2 {
            Some(Spread {
                n: summary.n,
                mean: summary.mean,
                stddev: summary.stddev,
                source: SpreadSource::Runs,
            })
        } else {
            let samples = match m {
                Metric::Iops => self.runs[0].iops_samples,
                Metric::BwBytesPerS => self.runs[0].bw_samples,
                _ => None,
            };
            samples.filter(|s| s.n >= MIN_SAMPLES).map(|s| Spread {
                n: s.n,
                mean: s.mean,
                stddev: s.stddev,
                source: SpreadSource::Samples,
            })
        };
        Some((summary.mean, precision, spread))
    }
}

impl ConfigCell {
    /// Whether the runs' IOPS or bandwidth disagree beyond run-to-run
    /// noise ([`crate::model::repeats_disagree`]: more than 25 % apart, or
    /// a spread wider than a gap of more than 10 % to the next config,
    /// whose values are `others`): runs pooled as repeats that measure no
    /// noise, whose spread is shown but draws no tie (ingest warns, naming
    /// the files). The others are gathered only for a cell that pools IOPS
    /// or bandwidth runs: gathering them for every config of 128,904 made
    /// the comparison quadratic.
    pub(super) fn disagrees(&self, m: Metric, others: impl FnOnce() -> Vec<f64>) -> bool {
        if self.runs.len() < 2 || !matches!(m, Metric::Iops | Metric::BwBytesPerS) {
            return false;
        }
        let vals: Vec<f64> = self.runs.iter().filter_map(|r| m.of_run(r)).collect();
        crate::model::repeats_disagree(&vals, &others()).is_some()
    }
}

pub(super) fn cells_runs<'a>(
    cells: &'a IndexMap<&'a str, ConfigCell>,
) -> Vec<(&'a str, &'a [Run])> {
    cells
        .iter()
        .map(|(c, cell)| (*c, cell.runs.as_slice()))
        .collect()
}
