//! `check --history`: a candidate judged against the history's recent
//! runs, whose spread is the noise model.
//!
//! The rule, per workload, config and metric:
//!
//! 1. The window: the last `--window` runs (default 10), but none from
//!    before the series' latest change point when at least 2 runs follow
//!    it (a step would swell the spread and hide the next one). The
//!    latest change point is searched in the last 5 detector windows
//!    (250 runs by default), not in years of runs on every CI job; an
//!    older one cannot move the window and is not reported.
//! 2. The reference: the window's mean (`--against window`), the best
//!    value ever (`best`), or one run's value (`run ID`).
//! 3. The change is a regression when it is in the worse direction, larger
//!    than `--threshold` (default 5 %), and significant at `--alpha`
//!    (default 0.05, two-sided) by Student's t with n − 1 degrees of
//!    freedom, n the window's runs and s their standard deviation:
//!    against the mean it is the prediction-interval test of one new run,
//!    t = (c − mean) / (s·√(1 + 1/n)); against one run (best or given),
//!    the difference of two single runs, t = (c − r) / (s·√2). See
//!    <https://en.wikipedia.org/wiki/Prediction_interval#Unknown_mean,_unknown_variance>.
//!    With fewer than 2 runs or no spread, the threshold alone decides.
//! 4. The candidate is itself the latest change point when it differs from
//!    the runs since the history's latest change point (the same
//!    prediction test) at the change-point level (`--alpha` of
//!    `history show`, 0.001): the step a `history show` would find once
//!    more runs confirm it.
//!
//! False alarms and the smallest step found, measured on synthetic
//! histories: `benches/history_gate.rs` (numbers in docs/guide.md, "History").

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, StudentsT};

use super::changepoint;
use super::store::{Damaged, Store, StoreError, StoredRun};
use super::trend::{self, Measured, Series, SeriesKey, WorkloadFields};
use crate::check::{Thresholds, Verdict};
use crate::compare::stats::Summary;
use crate::compare::{Better, Metric};
use crate::model::Row;

/// What the candidate is compared with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Against {
    /// The mean of the window.
    Window,
    /// The best value in the whole history.
    Best,
    /// One run's value, by id (a merge base, a release).
    Run(String),
}

/// Runs in the window unless `--window` says otherwise.
pub const DEFAULT_WINDOW: usize = 10;

/// Options of one gate, validated by the CLI.
#[derive(Debug, Clone)]
pub struct GateOptions {
    pub window: usize,
    pub against: Against,
    pub alpha: f64,
    pub thresholds: Thresholds,
    pub metrics: Vec<Metric>,
    pub detector: changepoint::DetectorOptions,
    pub allow_missing: bool,
}

impl Default for GateOptions {
    fn default() -> Self {
        GateOptions {
            window: DEFAULT_WINDOW,
            against: Against::Window,
            alpha: crate::compare::stats::DEFAULT_ALPHA,
            thresholds: Thresholds::default(),
            metrics: crate::check::DEFAULT_METRICS.to_vec(),
            detector: changepoint::DetectorOptions::default(),
            allow_missing: false,
        }
    }
}

/// Why a gate finding has its verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GateRule {
    WithinThreshold,
    NotSignificant,
    Significant,
    /// Beyond the threshold; fewer than 2 runs or no spread to test with.
    NoSpread,
    /// The history's latest run has it, the candidate does not.
    WorkloadMissing,
    /// The candidate has it, the history (or the reference run) does not.
    OnlyInCandidate,
}

/// The history's latest change point of a series.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LatestChange {
    pub run: String,
    pub commit: Option<String>,
    pub change_pct: Option<f64>,
}

/// The verdict of one workload, config and metric.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GateFinding {
    #[serde(flatten)]
    pub workload: WorkloadFields,
    pub config: String,
    pub metric: Metric,
    pub better: Better,
    /// Window mean, best value or the given run's value.
    pub reference: Option<f64>,
    /// The run the reference is, for `best` and `run ID`.
    pub reference_run: Option<String>,
    pub candidate: Option<f64>,
    /// Runs in the window and their standard deviation (the noise model).
    pub window_runs: usize,
    pub window_stddev: Option<f64>,
    pub change_pct: Option<f64>,
    pub threshold_pct: f64,
    pub p_value: Option<f64>,
    pub verdict: Verdict,
    pub rule: GateRule,
    pub fails: bool,
    pub candidate_is_change_point: bool,
    pub latest_change_point: Option<LatestChange>,
}

/// Everything the gate found.
#[derive(Debug, Clone, Serialize)]
pub struct GateReport {
    /// `pass`, `fail` or `error` (unusable candidate), as the exit code.
    pub status: &'static str,
    /// Why the candidate cannot be trusted; empty when it can.
    pub errors: Vec<String>,
    pub history_runs: usize,
    pub against: String,
    pub window: usize,
    pub alpha: f64,
    pub findings: Vec<GateFinding>,
}

/// Errors of the gate's options against this history.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum GateError {
    #[error("--against run {0}: no run `{0}` in the history (see `nvcmp history show`)")]
    UnknownRun(String),
}

impl GateFinding {
    /// One line on why: the rule and its numbers.
    pub fn reason(&self) -> String {
        let p = self
            .p_value
            .map_or(String::new(), |p| format!(", p={p:.3}"));
        let n = self.window_runs;
        let mut s = match self.rule {
            GateRule::WithinThreshold => format!("within {}% threshold", self.threshold_pct),
            GateRule::NotSignificant => format!("within the noise of {n} runs{p}"),
            GateRule::Significant => format!(
                "beyond {}% and the noise of {n} runs{p}",
                self.threshold_pct
            ),
            GateRule::NoSpread => {
                let runs = crate::numbers::count(n, "run");
                format!("beyond {}%, no spread in {runs}", self.threshold_pct)
            }
            GateRule::WorkloadMissing => "missing from the candidate".into(),
            GateRule::OnlyInCandidate => "not in the reference".into(),
        };
        if self.candidate_is_change_point {
            s.push_str("; the candidate is a change point");
        } else if let Some(c) = &self.latest_change_point {
            s.push_str(&format!("; latest change point at run {}", c.run));
        }
        s
    }
}

impl GateReport {
    pub fn failed(&self) -> bool {
        self.findings.iter().any(|f| f.fails)
    }

    /// The candidate cannot be trusted (a file unread, a job failed): the
    /// verdict is `error` whatever the findings say.
    pub fn set_errors(&mut self, errors: Vec<String>) {
        if !errors.is_empty() {
            self.status = "error";
        }
        self.errors = errors;
    }

    /// `FAIL: 1 regression, 0 improvements, 11 unchanged against the last 10 runs`.
    pub fn summary_line(&self) -> String {
        let of = |v: Verdict| self.findings.iter().filter(|f| f.verdict == v).count();
        let status = match (self.errors.is_empty(), self.failed()) {
            (false, _) => format!("ERROR: {}; ", self.errors.join("; ")),
            (true, true) => "FAIL: ".into(),
            (true, false) => "PASS: ".into(),
        };
        format!(
            "{status}{}, {}, {} unchanged, {} missing against {} ({} runs in history)",
            crate::numbers::count(of(Verdict::Regression), "regression"),
            crate::numbers::count(of(Verdict::Improvement), "improvement"),
            of(Verdict::Unchanged),
            of(Verdict::Missing),
            self.against,
            self.history_runs
        )
    }
}

/// The history as the gate reads it: its series and how many runs made
/// them. [`History::read`] reads the parts one at a time and only the
/// columns series need, so a CI job gating against years of runs holds
/// their values, not their rows.
#[derive(Debug, Clone, Default)]
pub struct History {
    pub runs: usize,
    pub series: Vec<Series>,
    /// Parts left out as damaged: their runs are in no series.
    pub damaged: Vec<Damaged>,
}

impl History {
    pub fn read(history: impl Into<Store>, metrics: &[Metric]) -> Result<History, StoreError> {
        let (scanned, series) = trend::read(history, metrics)?;
        Ok(History {
            runs: scanned.runs,
            series,
            damaged: scanned.damaged,
        })
    }

    /// From runs already in memory (tests, synthetic histories).
    pub fn of_runs(runs: &[StoredRun], metrics: &[Metric]) -> History {
        History {
            runs: runs.len(),
            series: trend::build(runs, metrics),
            damaged: Vec::new(),
        }
    }

    /// The newest run any series has a value of.
    fn latest_seq(&self) -> Option<u64> {
        let last = self.series.iter().filter_map(|s| s.points.last());
        last.map(|p| p.run.seq).max()
    }

    fn has_run(&self, id: &str) -> bool {
        let mut points = self.series.iter().flat_map(|s| s.points.iter());
        points.any(|p| p.run.id == id)
    }
}

/// Judges `candidate` rows against the history.
pub fn gate(
    history: &History,
    candidate: &[Row],
    opts: &GateOptions,
) -> Result<GateReport, GateError> {
    // An empty history (a first CI run): every workload is new.
    if let Against::Run(id) = &opts.against
        && !history.has_run(id)
    {
        return Err(GateError::UnknownRun(id.clone()));
    }
    let cand = trend::measure(candidate, &opts.metrics);
    let mut findings: Vec<GateFinding> = cand
        .iter()
        .map(|c| match history.series.iter().find(|s| s.key == c.key) {
            Some(s) => judge_series(s, c, opts),
            None => unmatched(&c.key, Some(c.values.mean), Verdict::New, opts),
        })
        .collect();
    // What the latest run measured and the candidate does not.
    let latest = history.latest_seq();
    for s in history.series.iter().filter(|s| {
        s.points.last().map(|p| p.run.seq) == latest && !cand.iter().any(|c| c.key == s.key)
    }) {
        let mut f = unmatched(&s.key, None, Verdict::Missing, opts);
        f.reference = s.points.last().map(|p| p.value);
        f.fails = !opts.allow_missing;
        findings.push(f);
    }
    let against = match &opts.against {
        Against::Window => format!("the last {} runs", opts.window),
        Against::Best => "the best run".into(),
        Against::Run(id) => format!("run {id}"),
    };
    let mut report = GateReport {
        status: "pass",
        errors: Vec::new(),
        history_runs: history.runs,
        against,
        window: opts.window,
        alpha: opts.alpha,
        findings,
    };
    if report.failed() {
        report.status = "fail";
    }
    Ok(report)
}

/// A finding with no history to test against (or no candidate value).
fn unmatched(
    key: &SeriesKey,
    candidate: Option<f64>,
    verdict: Verdict,
    opts: &GateOptions,
) -> GateFinding {
    let rule = if verdict == Verdict::Missing {
        GateRule::WorkloadMissing
    } else {
        GateRule::OnlyInCandidate
    };
    finding(
        key,
        opts,
        Judged {
            reference: None,
            reference_run: None,
            candidate,
            window: None,
            change_pct: None,
            p_value: None,
            verdict,
            rule,
        },
    )
}

/// The numbers of one judged series.
struct Judged {
    reference: Option<f64>,
    reference_run: Option<String>,
    candidate: Option<f64>,
    window: Option<Summary>,
    change_pct: Option<f64>,
    p_value: Option<f64>,
    verdict: Verdict,
    rule: GateRule,
}

fn finding(key: &SeriesKey, opts: &GateOptions, j: Judged) -> GateFinding {
    GateFinding {
        workload: WorkloadFields::of(&key.workload),
        config: key.config.clone(),
        metric: key.metric,
        better: key.metric.better(),
        reference: j.reference,
        reference_run: j.reference_run,
        candidate: j.candidate,
        window_runs: j.window.map_or(0, |s| s.n as usize),
        window_stddev: j.window.map(|s| s.stddev),
        change_pct: j.change_pct,
        threshold_pct: opts.thresholds.for_metric(key.metric),
        p_value: j.p_value,
        verdict: j.verdict,
        rule: j.rule,
        fails: j.verdict == Verdict::Regression,
        candidate_is_change_point: false,
        latest_change_point: None,
    }
}

/// The window of a series: its last `n` values, none from before its
/// latest change point when 2 or more follow it. Returns the start index.
pub fn window_start(len: usize, n: usize, latest_change: Option<usize>) -> usize {
    let start = len.saturating_sub(n.max(1));
    match latest_change {
        Some(c) if len.saturating_sub(c) >= 2 => start.max(c),
        _ => start,
    }
}

/// Runs at the end of a series searched for its latest change point, in
/// detector windows: the gate's window and the tail test look at most one
/// detector window back, so five give the search its context without
/// searching years of runs on every CI job.
const TAIL_WINDOWS: usize = 5;

fn judge_series(s: &Series, cand: &Measured, opts: &GateOptions) -> GateFinding {
    let values = s.values();
    let tail = values
        .len()
        .saturating_sub(TAIL_WINDOWS * opts.detector.window.max(1));
    let cps = changepoint::detect(&values[tail..], &opts.detector);
    let latest = cps.last().map(|c| changepoint::ChangePoint {
        index: c.index + tail,
        ..*c
    });
    let latest = latest.as_ref();
    let start = window_start(values.len(), opts.window, latest.map(|c| c.index));
    let window = Summary::of(&values[start..]);
    let (reference, reference_run, one_run) = match &opts.against {
        Against::Window => (window.map(|w| w.mean), None, false),
        Against::Best => best(s).map_or((None, None, true), |(v, r)| (Some(v), Some(r), true)),
        Against::Run(id) => {
            let p = s.points.iter().find(|p| p.run.id == *id);
            (p.map(|p| p.value), p.map(|p| p.run.id.clone()), true)
        }
    };
    let c = cand.values.mean;
    let Some(r) = reference else {
        return unmatched(&s.key, Some(c), Verdict::New, opts);
    };
    let threshold = opts.thresholds.for_metric(s.key.metric);
    let (verdict, rule, change_pct, p_value) = judge(
        s.key.metric.better(),
        window,
        r,
        one_run,
        c,
        threshold,
        opts.alpha,
    );
    let mut f = finding(
        &s.key,
        opts,
        Judged {
            reference: Some(r),
            reference_run,
            candidate: Some(c),
            window,
            change_pct,
            p_value,
            verdict,
            rule,
        },
    );
    // The tail test: the candidate against the runs since the latest change.
    let since = latest
        .map_or(0, |c| c.index)
        .max(values.len().saturating_sub(opts.detector.window));
    f.candidate_is_change_point = values.len() - since >= opts.detector.min_segment
        && Summary::of(&values[since..])
            .and_then(|seg| prediction_p(seg, seg.mean, false, c))
            .is_some_and(|p| p < opts.detector.alpha);
    f.latest_change_point = latest.map(|cp| LatestChange {
        run: s.points[cp.index].run.id.clone(),
        commit: s.points[cp.index].run.commit.clone(),
        change_pct: cp.change_pct,
    });
    f
}

/// The best value of a series and its run.
fn best(s: &Series) -> Option<(f64, String)> {
    let better = s.key.metric.better();
    s.points
        .iter()
        .max_by(|a, b| {
            let o = a.value.total_cmp(&b.value);
            if better == Better::Higher {
                o
            } else {
                o.reverse()
            }
        })
        .map(|p| (p.value, p.run.id.clone()))
}

/// Two-sided p of `c` against `reference` with the window's spread: a new
/// run against the window's mean, or (`one_run`) against one other run.
/// None without 2 runs and some spread.
pub fn prediction_p(window: Summary, reference: f64, one_run: bool, c: f64) -> Option<f64> {
    if window.n < 2 || window.stddev.is_nan() || window.stddev <= 0.0 {
        return None;
    }
    let n = window.n as f64;
    let se = if one_run {
        window.stddev * std::f64::consts::SQRT_2
    } else {
        window.stddev * (1.0 + 1.0 / n).sqrt()
    };
    let t = (c - reference) / se;
    let dist = StudentsT::new(0.0, 1.0, n - 1.0).ok()?;
    Some((2.0 * (1.0 - dist.cdf(t.abs()))).clamp(0.0, 1.0))
}

/// The verdict of candidate `c` against reference `r` (the rule of the
/// module doc). Returns verdict, rule, change % and p.
pub fn judge(
    better: Better,
    window: Option<Summary>,
    r: f64,
    one_run: bool,
    c: f64,
    threshold_pct: f64,
    alpha: f64,
) -> (Verdict, GateRule, Option<f64>, Option<f64>) {
    let change = (r != 0.0).then(|| (c - r) / r.abs() * 100.0);
    let p = window.and_then(|w| prediction_p(w, r, one_run, c));
    let worse = match better {
        Better::Higher => c < r,
        Better::Lower => c > r,
    };
    let moved = if worse {
        Verdict::Regression
    } else {
        Verdict::Improvement
    };
    let within = change.is_none_or(|ch| ch.abs() <= threshold_pct);
    let (verdict, rule) = match p {
        _ if within => (Verdict::Unchanged, GateRule::WithinThreshold),
        None => (moved, GateRule::NoSpread),
        Some(p) if p >= alpha => (Verdict::Unchanged, GateRule::NotSignificant),
        Some(_) => (moved, GateRule::Significant),
    };
    (verdict, rule, change, p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::synth::Noise;

    fn summary(xs: &[f64]) -> Option<Summary> {
        Summary::of(xs)
    }

    #[test]
    fn prediction_test_matches_a_hand_computation() {
        // window 10, 12, 14: mean 12, s = 2, n = 3; c = 20:
        // t = 8 / (2·√(4/3)) = 3.4641, df 2 -> two-sided p = 0.0742
        // (t table: t_{0.975,2} = 4.303, t_{0.95,2} = 2.920).
        let w = summary(&[10.0, 12.0, 14.0]).unwrap();
        let p = prediction_p(w, 12.0, false, 20.0).unwrap();
        assert!((p - 0.0742).abs() < 0.001, "{p}");
        // Against one run the standard error is s·√2 = 2.828: t = 2.828, p = 0.1056.
        let p1 = prediction_p(w, 12.0, true, 20.0).unwrap();
        assert!((p1 - 0.1056).abs() < 0.001, "{p1}");
    }

    #[test]
    fn rule_needs_threshold_direction_and_significance() {
        let mut noise = Noise::new(5);
        let xs: Vec<f64> = (0..10).map(|_| noise.around(1000.0, 0.02)).collect();
        let w = summary(&xs);
        let mean = w.unwrap().mean;
        let j = |c: f64, t: f64| judge(Better::Higher, w, mean, false, c, t, 0.05);
        assert_eq!(j(mean * 0.85, 5.0).0, Verdict::Regression);
        assert_eq!(j(mean * 0.85, 5.0).1, GateRule::Significant);
        assert_eq!(j(mean * 1.15, 5.0).0, Verdict::Improvement);
        assert_eq!(j(mean * 0.97, 5.0).1, GateRule::WithinThreshold);
        // Without a threshold a 3 % drop in 2 % noise is not significant.
        assert_eq!(j(mean * 0.97, 0.0).1, GateRule::NotSignificant);
        // Lower is better for latency.
        assert_eq!(
            judge(Better::Lower, w, mean, false, mean * 1.2, 5.0, 0.05).0,
            Verdict::Regression
        );
        // One run: the threshold alone.
        let one = summary(&[1000.0]);
        assert_eq!(
            judge(Better::Higher, one, 1000.0, false, 900.0, 5.0, 0.05).1,
            GateRule::NoSpread
        );
    }

    fn matrix_history(runs: u64, step_at: u64) -> Vec<StoredRun> {
        (1..=runs)
            .map(|seq| StoredRun {
                meta: crate::history::store::RunMeta {
                    id: format!("r{seq}"),
                    commit: None,
                    time: String::new(),
                    seq,
                },
                rows: crate::history::synth::matrix_run(seq, step_at),
            })
            .collect()
    }

    /// c3's randread 4k QD32 IOPS finding of a gate over `runs` runs.
    fn stepped(runs: u64, step_at: u64) -> GateFinding {
        let history = History::of_runs(&matrix_history(runs, step_at), &[Metric::Iops]);
        let cand = crate::history::synth::matrix_run(runs + 1, step_at);
        let opts = GateOptions {
            metrics: vec![Metric::Iops],
            ..GateOptions::default()
        };
        let report = gate(&history, &cand, &opts).unwrap();
        assert_eq!(report.history_runs, runs as usize);
        report
            .findings
            .into_iter()
            .find(|f| {
                f.config == "c3"
                    && f.workload.key.load.iodepth == 32
                    && f.workload.key.shape.rw == "randread"
                    && f.workload.key.shape.bs_bytes == 4096
            })
            .unwrap()
    }

    #[test]
    fn the_latest_change_point_is_searched_in_the_tail_of_a_long_series() {
        // 15 % fewer IOPS from run 581 of 600: found though the series is
        // longer than the tail searched, at its place in the whole series,
        // and the window starts there, so the candidate is no regression.
        let recent = stepped(600, 581);
        let change = recent.latest_change_point.expect("the step is found");
        assert_eq!(change.run, "r581");
        assert!(change.change_pct.unwrap() < -10.0);
        assert_eq!(recent.verdict, Verdict::Unchanged);
        // A step 500 runs back is out of the tail: not searched, and the
        // window (the last 10 runs, all after it) judges the same.
        let old = stepped(600, 100);
        assert!(old.latest_change_point.is_none());
        assert_eq!(old.verdict, Verdict::Unchanged);
        let full = changepoint::detect(
            &History::of_runs(&matrix_history(600, 100), &[Metric::Iops])
                .series
                .iter()
                .find(|s| {
                    s.key.config == "c3"
                        && s.key.workload.load.iodepth == 32
                        && s.key.workload.shape.bs_bytes == 4096
                        && s.key.workload.shape.rw == "randread"
                })
                .unwrap()
                .values(),
            &changepoint::DetectorOptions::default(),
        );
        assert!(
            full.iter().any(|c| c.index == 99),
            "the whole series has it: {full:?}"
        );
    }

    #[test]
    fn window_stops_at_the_latest_change_point() {
        assert_eq!(window_start(30, 10, None), 20);
        assert_eq!(window_start(30, 10, Some(25)), 25);
        assert_eq!(window_start(30, 10, Some(29)), 20);
        assert_eq!(window_start(30, 10, Some(5)), 20);
        assert_eq!(window_start(4, 10, None), 0);
    }
}
