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
    /// values nearest it ([`Nearest::others`]).
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

/// One metric's compared values (finite, above zero) sorted, to find the
/// value nearest a pooled cell's mean among the other configs at once:
/// what [`crate::model::repeats_disagree`] looks for in all of them.
/// Built once per metric and only where some cell pools runs, each
/// lookup a binary search: a scan of every config per config made a
/// study of 10,000 configs of three repeats quadratic.
pub(super) struct Nearest {
    /// (value, the config's place in the values' order), sorted.
    sorted: Vec<(f64, usize)>,
    /// Where the run of equal values each entry is in starts.
    run_start: Vec<usize>,
}

impl Nearest {
    pub(super) fn new(values: impl Iterator<Item = (usize, f64)>) -> Nearest {
        let mut sorted: Vec<(f64, usize)> = values
            .filter(|(_, v)| v.is_finite() && *v > 0.0)
            .map(|(i, v)| (v, i))
            .collect();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut run_start = Vec::with_capacity(sorted.len());
        for (i, (v, _)) in sorted.iter().enumerate() {
            let same = i > 0 && sorted[i - 1].0 == *v;
            run_start.push(if same { run_start[i - 1] } else { i });
        }
        Nearest { sorted, run_start }
    }

    /// The values nearest `mean` of the configs but the one at `own`, in
    /// the configs' order: [`crate::model::repeats_disagree`] picks the
    /// first of them, as it would from every config's value.
    pub(super) fn others(&self, own: usize, mean: f64) -> Vec<f64> {
        let pos = self.sorted.partition_point(|(v, _)| *v < mean);
        let below = pos.checked_sub(1).and_then(|p| {
            self.first_other(p, own).or_else(|| {
                let before = self.run_start[p].checked_sub(1)?;
                self.first_other(before, own)
            })
        });
        let above = (pos < self.sorted.len()).then_some(pos).and_then(|p| {
            self.first_other(p, own).or_else(|| {
                let after =
                    (p..self.sorted.len()).find(|&q| self.run_start[q] != self.run_start[p])?;
                self.first_other(after, own)
            })
        });
        let gap = |e: &(f64, usize)| (e.0 - mean).abs();
        let mut near: Vec<(f64, usize)> = match (below, above) {
            (Some(b), Some(a)) => match gap(&b).total_cmp(&gap(&a)) {
                std::cmp::Ordering::Less => vec![b],
                std::cmp::Ordering::Greater => vec![a],
                std::cmp::Ordering::Equal => vec![b, a],
            },
            (b, a) => b.or(a).into_iter().collect(),
        };
        near.sort_by_key(|e| e.1);
        near.into_iter().map(|e| e.0).collect()
    }

    /// The first config (in the configs' order) of the run of equal
    /// values holding position `p`, other than `own`.
    fn first_other(&self, p: usize, own: usize) -> Option<(f64, usize)> {
        let start = self.run_start[p];
        let first = self.sorted[start];
        if first.1 != own {
            return Some(first);
        }
        self.sorted
            .get(start + 1)
            .copied()
            .filter(|next| next.0 == first.0)
    }
}
