//! Steady state judged from fio's logs by the rule of SNIA's Solid State
//! Storage Performance Test Specification (PTS-E 1.1, section 3 "steady
//! state"), where fio itself did not judge.
//!
//! The run is cut into rounds of equal length (`--ss-round`, default 1/25
//! of the logged run and never shorter than the logs' averaging window);
//! a round's value is its mean IOPS (bandwidth when the job logged no
//! IOPS), summed over the job's clones. A window of 5 consecutive rounds
//! is steady when, relative to the mean of its round values,
//! (a) the data excursion max − min is at most 20 % and
//! (b) the excursion of the least-squares line through the 5 points,
//!     |slope| × 4 rounds (first to last round), is at most 10 %.
//! The first window that holds wins: SNIA declares steady state as soon
//! as it is reached and measures in that window; a later window would
//! favour whatever the tail does. A run shorter than 5 rounds gets no
//! verdict.

use super::run_logs::RunLogs;
use crate::compare::{SteadySource, SteadyState, SteadyVerdicts};
use crate::timeseries::Kind;
use crate::timeseries::bucket::{self, BucketPoint};

/// Rounds in a measurement window.
pub const ROUNDS: usize = 5;
/// Largest data excursion, fraction of the window's mean.
pub const MAX_DATA_EXCURSION: f64 = 0.20;
/// Largest slope excursion of the best linear fit, fraction of the mean.
pub const MAX_SLOPE_EXCURSION: f64 = 0.10;
/// Rounds in a run when `--ss-round` is not given.
pub const DEFAULT_ROUNDS_PER_RUN: u64 = 25;

/// What the rule measured over one window of round values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// Index of its first round.
    pub start: usize,
    pub mean: f64,
    /// (max − min) / mean.
    pub data_excursion: f64,
    /// |slope| × (ROUNDS − 1) / mean.
    pub slope_excursion: f64,
}

impl Window {
    /// Measures the window of `ROUNDS` values starting at `start`.
    pub fn measure(values: &[f64], start: usize) -> Window {
        let w = &values[start..start + ROUNDS];
        let n = ROUNDS as f64;
        let mean = w.iter().sum::<f64>() / n;
        let (lo, hi) = w
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(*v), hi.max(*v))
            });
        // Least squares over x = 0..ROUNDS: x̄ = (n−1)/2.
        let x_mean = (n - 1.0) / 2.0;
        let (mut sxy, mut sxx) = (0.0, 0.0);
        for (i, y) in w.iter().enumerate() {
            let dx = i as f64 - x_mean;
            sxy += dx * (y - mean);
            sxx += dx * dx;
        }
        let slope = sxy / sxx;
        let rel = |v: f64| if mean > 0.0 { v / mean } else { f64::INFINITY };
        Window {
            start,
            mean,
            data_excursion: rel(hi - lo),
            slope_excursion: rel(slope.abs() * (n - 1.0)),
        }
    }

    pub fn holds(&self) -> bool {
        self.data_excursion <= MAX_DATA_EXCURSION && self.slope_excursion <= MAX_SLOPE_EXCURSION
    }

    /// How far from holding: the larger of the two excursions relative to
    /// its limit (at most 1 when it holds).
    fn badness(&self) -> f64 {
        (self.data_excursion / MAX_DATA_EXCURSION).max(self.slope_excursion / MAX_SLOPE_EXCURSION)
    }

    /// `data 12.3%, slope 4.5%`.
    pub fn measured(&self) -> String {
        format!(
            "data {:.1}%, slope {:.1}%",
            self.data_excursion * 100.0,
            self.slope_excursion * 100.0
        )
    }
}

/// The first window of `values` that holds (`Ok`), else the window
/// closest to holding (`Err`); None with fewer than [`ROUNDS`] values.
pub fn first_steady(values: &[f64]) -> Option<Result<Window, Window>> {
    if values.len() < ROUNDS {
        return None;
    }
    let all = (0..=values.len() - ROUNDS).map(|s| Window::measure(values, s));
    let mut best: Option<Window> = None;
    for w in all {
        if w.holds() {
            return Some(Ok(w));
        }
        if best.is_none_or(|b| w.badness() < b.badness()) {
            best = Some(w);
        }
    }
    best.map(Err)
}

/// The round length for a run: `round_ms` when given, else 1/25 of the
/// logged run; never shorter than the logs' averaging window.
pub fn round_ms(run: &RunLogs, round_ms: Option<u64>) -> u64 {
    round_ms
        .unwrap_or(run.span_ms() / DEFAULT_ROUNDS_PER_RUN)
        .max(run.window_ms)
        .max(1)
}

/// Round values of `kind`, summed over the run's logs; a round in which
/// nothing was logged is a stall, 0. The last round is
/// dropped when the run ends inside it, so a partial round does not look
/// like a dip.
fn rounds(run: &RunLogs, kind: Kind, width_ms: u64) -> Option<Vec<BucketPoint>> {
    let logs = run.of(kind)?;
    let jobs: Vec<Vec<BucketPoint>> = logs.iter().map(|fold| fold.points(width_ms)).collect();
    let mut points = bucket::fill_gaps(&bucket::merge(&jobs, kind), width_ms);
    if points
        .last()
        .is_some_and(|p| p.t_ms + width_ms > run.span_ms() + 1)
    {
        points.pop();
    }
    Some(points)
}

/// The SNIA verdict of one run, when it logged IOPS or bandwidth over at
/// least [`ROUNDS`] rounds.
pub fn judge_run(run: &RunLogs, round: Option<u64>) -> Option<SteadyState> {
    let width = round_ms(run, round);
    let (kind, points) = [Kind::Iops, Kind::Bw]
        .into_iter()
        .find_map(|k| Some((k, rounds(run, k, width)?)))?;
    let values: Vec<f64> = points.iter().map(|p| p.value).collect();
    let verdict = first_steady(&values)?;
    let w = match verdict {
        Ok(w) | Err(w) => w,
    };
    let attained = verdict.is_ok();
    let start_ms = points[w.start].t_ms;
    let end_ms = points[w.start + ROUNDS - 1].t_ms + width;
    let bs = run.bs_bytes as f64;
    let (iops, bw) = match kind {
        Kind::Iops => (w.mean, w.mean * bs),
        _ => (if bs > 0.0 { w.mean / bs } else { 0.0 }, w.mean),
    };
    Some(SteadyState {
        attained,
        criterion: "snia".into(),
        measured: Some(w.measured()),
        duration: Some((end_ms - start_ms) as f64 / 1000.0),
        source: SteadySource::Snia,
        iops: attained.then_some(iops),
        bw_bytes_per_s: attained.then_some(bw),
        window_start_s: attained.then_some(start_ms as f64 / 1000.0),
        window_end_s: attained.then_some(end_ms as f64 / 1000.0),
    })
}

/// Verdicts for every run with logs, keyed by result file and workload.
pub fn judge(runs: &[RunLogs], round: Option<u64>) -> SteadyVerdicts {
    runs.iter()
        .filter_map(|r| Some(((r.source.clone(), r.shape.clone()), judge_run(r, round)?)))
        .collect()
}

#[cfg(test)]
mod tests;
