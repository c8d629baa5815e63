//! `history show`: each series of the history with its change points and
//! the means of the segments between them, as `--format json` gives it
//! (docs/CONTRACT.md, "Additions planned").

use rayon::prelude::*;
use serde::Serialize;

use super::changepoint::{self, ChangePoint};
use super::store::StoredRun;
use super::trend::{self, Point, Series, WorkloadFields};
use crate::compare::{Better, Metric};

/// Options of `history show`, validated by the CLI.
#[derive(Debug, Clone)]
pub struct ShowOptions {
    pub detector: changepoint::DetectorOptions,
    pub metrics: Vec<Metric>,
}

impl Default for ShowOptions {
    fn default() -> Self {
        ShowOptions {
            detector: changepoint::DetectorOptions::default(),
            metrics: trend::DEFAULT_METRICS.to_vec(),
        }
    }
}

/// The whole answer of `history show`.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryReport {
    /// Runs in the history.
    pub runs: usize,
    pub alpha: f64,
    pub min_segment: usize,
    pub window: usize,
    pub series: Vec<SeriesReport>,
}

/// One series with its change points.
#[derive(Debug, Clone, Serialize)]
pub struct SeriesReport {
    #[serde(flatten)]
    pub workload: WorkloadFields,
    #[serde(skip_serializing_if = "is_one")]
    pub hosts: u32,
    pub config: String,
    pub metric: Metric,
    pub better: Better,
    pub runs: Vec<Point>,
    pub change_points: Vec<ChangePointReport>,
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

/// A change point, named by the first run after it.
#[derive(Debug, Clone, Serialize)]
pub struct ChangePointReport {
    pub run: String,
    pub commit: Option<String>,
    /// Position of that run in the series, from 0.
    pub index: usize,
    pub before_mean: f64,
    pub after_mean: f64,
    pub change_pct: Option<f64>,
    pub p_value: f64,
    /// True when the change is for the worse (the metric's direction).
    pub regression: bool,
}

/// Series and change points of a history.
pub fn show(runs: &[StoredRun], opts: &ShowOptions) -> HistoryReport {
    report(runs.len(), trend::build(runs, &opts.metrics), opts)
}

/// Change points of `series`, found a series per thread, from a history
/// of `runs` runs.
pub fn report(runs: usize, series: Vec<Series>, opts: &ShowOptions) -> HistoryReport {
    let series = series
        .into_par_iter()
        .map(|s| report_of(s, &opts.detector))
        .collect();
    HistoryReport {
        runs,
        alpha: opts.detector.alpha,
        min_segment: opts.detector.min_segment,
        window: opts.detector.window,
        series,
    }
}

fn report_of(s: Series, detector: &changepoint::DetectorOptions) -> SeriesReport {
    let better = s.key.metric.better();
    let change_points = changepoint::detect(&s.values(), detector)
        .into_iter()
        .map(|cp| named(&s, cp, better))
        .collect();
    let w = &s.key.workload;
    SeriesReport {
        workload: WorkloadFields::of(w),
        hosts: w.load.hosts,
        config: s.key.config.clone(),
        metric: s.key.metric,
        better,
        runs: s.points,
        change_points,
    }
}

fn named(s: &Series, cp: ChangePoint, better: Better) -> ChangePointReport {
    let p = &s.points[cp.index];
    let worse = match better {
        Better::Higher => cp.after_mean < cp.before_mean,
        Better::Lower => cp.after_mean > cp.before_mean,
    };
    ChangePointReport {
        run: p.run.id.clone(),
        commit: p.run.commit.clone(),
        index: cp.index,
        before_mean: cp.before_mean,
        after_mean: cp.after_mean,
        change_pct: cp.change_pct,
        p_value: cp.p_value,
        regression: worse,
    }
}

impl SeriesReport {
    /// Mean of each segment between change points, as (first index, end
    /// index exclusive, mean): what the chart draws dashed.
    pub fn segments(&self) -> Vec<(usize, usize, f64)> {
        let mut bounds: Vec<usize> = vec![0];
        bounds.extend(self.change_points.iter().map(|c| c.index));
        bounds.push(self.runs.len());
        bounds
            .windows(2)
            .filter(|b| b[1] > b[0])
            .map(|b| {
                let vals = &self.runs[b[0]..b[1]];
                let mean = vals.iter().map(|p| p.value).sum::<f64>() / vals.len() as f64;
                (b[0], b[1], mean)
            })
            .collect()
    }
}
