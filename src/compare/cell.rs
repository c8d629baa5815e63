//! One config's runs of one workload ([`ConfigCell`]), each metric reduced over
//! them. Below the notes, validity checks and results that read it.

use std::borrow::Cow;

use indexmap::IndexMap;

use super::comparison::*;
use super::workload::Run;
use super::{MIN_SAMPLES, stats};

/// One config's runs of one workload, reduced per metric. The runs are
/// the grouped ones, borrowed: a copy of each config's runs per workload
/// (capacity for four a cell) was a third of the comparison's memory at
/// 128,904 configs. Owned only where some runs reported an error and are
/// left out, or a note changes a figure ([`super::notes::tools`]).
pub(super) struct ConfigCell<'a> {
    pub(super) runs: Cow<'a, [Run]>,
    /// True when every run reported an error: shown, never a winner.
    pub(super) errored: bool,
}

impl<'a> ConfigCell<'a> {
    pub(super) fn new(runs: &'a [Run]) -> ConfigCell<'a> {
        let errors = runs.iter().filter(|r| r.error != 0).count();
        if errors == 0 || errors == runs.len() {
            return ConfigCell {
                runs: Cow::Borrowed(runs),
                errored: errors > 0,
            };
        }
        let clean: Vec<Run> = runs.iter().filter(|r| r.error == 0).cloned().collect();
        ConfigCell {
            runs: Cow::Owned(clean),
            errored: false,
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

impl ConfigCell<'_> {
    /// Whether the runs' IOPS or bandwidth disagree beyond run-to-run
    /// noise ([`crate::model::repeats_disagree`]: more than 25 % apart, or
    /// a spread wider than a gap of more than 10 % to the next config,
    /// whose values are `others`): runs pooled as repeats that measure no
    /// noise, whose spread is shown but draws no tie (ingest warns, naming
    /// the files). The others are looked up only for a cell that pools IOPS
    /// or bandwidth runs, and only the nearest: gathering them for every
    /// config of 128,904 made the comparison quadratic.
    /// `others` is given the runs' mean and gives the other configs'
    /// values nearest it ([`crate::model::Nearest::others`]).
    pub(super) fn disagrees(&self, m: Metric, others: impl FnOnce(f64) -> Vec<f64>) -> bool {
        if self.runs.len() < 2 || !matches!(m, Metric::Iops | Metric::BwBytesPerS) {
            return false;
        }
        let vals: Vec<f64> = self.runs.iter().filter_map(|r| m.of_run(r)).collect();
        if vals.is_empty() {
            return false;
        }
        // The mean as repeats_disagree takes it.
        let mean = vals.iter().sum::<f64>() / vals.len() as f64;
        crate::model::repeats_disagree(&vals, &others(mean)).is_some()
    }
}

pub(super) fn cells_runs<'a>(
    cells: &'a IndexMap<&'a str, ConfigCell<'a>>,
) -> Vec<(&'a str, &'a [Run])> {
    cells.iter().map(|(c, cell)| (*c, &*cell.runs)).collect()
}
