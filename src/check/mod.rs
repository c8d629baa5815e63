//! `check`: verdicts of a candidate against a baseline (regression,
//! improvement, unchanged, missing, new) per workload and metric, with the
//! noise rules of [`crate::compare::stats`] (see [`verdict`] for the rules
//! and their order). The reports a CI job reads (terminal table, JSON,
//! JUnit, Markdown) are written by [`crate::render::check`].
//!
//! The comparison itself is the one `analyze` makes: baseline rows are
//! labelled [`BASELINE`], candidate rows [`CANDIDATE`], and the two-config
//! [`Comparison`] is judged here. This module adds only the verdicts.

pub mod threshold;
pub mod verdict;

use serde::Serialize;

use crate::compare::workload::{LoadPoint, Shape};
use crate::compare::{self, Better, CompareOptions, Comparison, Metric, SpreadSource};
use crate::model::{Row, Skipped, Warning};
use crate::numbers::count;

pub use threshold::Thresholds;
pub use verdict::{CheckRule, Verdict};

/// Config label of the baseline rows.
pub const BASELINE: &str = "baseline";
/// Config label of the candidate rows.
pub const CANDIDATE: &str = "candidate";

/// Metrics gated unless `--metric` says otherwise. p99 latency and CPU
/// are left out: on one short run they move by more than any sensible
/// threshold and fio gives no spread to test them against.
pub const DEFAULT_METRICS: &[Metric] = &[Metric::Iops, Metric::BwBytesPerS, Metric::LatMeanNs];

/// Options of one check, validated by the CLI layer.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    pub thresholds: Thresholds,
    /// Significance level of Welch's test.
    pub alpha: f64,
    /// Metrics judged, in this order.
    pub metrics: Vec<Metric>,
    /// A workload the candidate lacks does not fail the check.
    pub allow_missing: bool,
    /// Knee rule and latency target for sweeps; with whole curves on both
    /// sides, peak IOPS (and IOPS at the target) are gated too.
    pub sweep_rules: compare::SweepRules,
    /// Steady-state verdicts judged from either side's fio logs by the
    /// SNIA rule, used where fio gave none (a side that never settled is
    /// warned about).
    pub log_steady: compare::SteadyVerdicts,
    /// The tail percentile a metric flag named (`--metric clat_p95`,
    /// `--threshold clat_p95=10%`); None for the runs' own.
    pub tail: Option<f64>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            thresholds: Thresholds::default(),
            alpha: crate::compare::stats::DEFAULT_ALPHA,
            metrics: DEFAULT_METRICS.to_vec(),
            allow_missing: false,
            sweep_rules: compare::SweepRules::default(),
            log_steady: compare::SteadyVerdicts::new(),
            tail: None,
        }
    }
}

/// The verdict of one metric of one workload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckFinding {
    #[serde(flatten)]
    pub shape: Shape,
    /// The load point; None for a finding about a whole sweep.
    #[serde(flatten, serialize_with = "load_or_nulls")]
    pub load: Option<LoadPoint>,
    /// For a whole sweep: `peak` (its highest IOPS) or `at_slo` (the IOPS
    /// it sustains under the latency target).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep: Option<SweepGate>,
    /// Name the load point in [`CheckFinding::workload`]: true when the results
    /// span several load points.
    #[serde(skip)]
    pub load_in_name: bool,
    #[serde(skip)]
    pub metric: Metric,
    /// The metric's key, its tail named by the percentile it holds
    /// (`clat_p95_ns` where the tail is p95; [`Metric::key_at`]).
    #[serde(rename = "metric")]
    pub key: std::borrow::Cow<'static, str>,
    pub better: Better,
    pub baseline: Option<f64>,
    pub candidate: Option<f64>,
    /// Steps the two values are known to, base units: they set the
    /// decimals the reports print (the JSON carries the raw values).
    #[serde(skip)]
    pub baseline_precision: f64,
    #[serde(skip)]
    pub candidate_precision: f64,
    /// (candidate - baseline) / baseline, percent.
    pub change_pct: Option<f64>,
    pub threshold_pct: f64,
    pub verdict: Verdict,
    pub rule: CheckRule,
    /// Welch's two-sided p-value, when the test was made.
    pub p_value: Option<f64>,
    /// What the spreads of the test came from (`samples`: fio's
    /// per-interval samples; `runs`: repeated runs).
    pub spread_source: Option<SpreadSource>,
    /// True when this finding fails the check.
    pub fails: bool,
    /// Why a side's figure is no measurement (verdict `invalid`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalid_reason: Option<String>,
}

/// A finding's load point as its JSON spells it: a whole sweep's finding
/// has `iodepth` and `numjobs` null.
fn load_or_nulls<S: serde::Serializer>(load: &Option<LoadPoint>, s: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct NoLoad {
        iodepth: Option<u32>,
        numjobs: Option<u32>,
    }
    match load {
        Some(load) => load.serialize(s),
        None => NoLoad {
            iodepth: None,
            numjobs: None,
        }
        .serialize(s),
    }
}

impl CheckFinding {
    /// The finding on one figure of `shape`: its two sides and the
    /// decision on them, failing on a regression. No load point, sweep,
    /// or spread: the callers that know them set them.
    fn of(
        shape: &Shape,
        (metric, better): (Metric, Better),
        sides: &verdict::Sides,
        d: &verdict::Judgement,
        threshold_pct: f64,
    ) -> CheckFinding {
        CheckFinding {
            shape: shape.clone(),
            load: None,
            sweep: None,
            load_in_name: false,
            metric,
            key: metric.key().into(),
            better,
            baseline: sides.baseline,
            candidate: sides.candidate,
            baseline_precision: sides.baseline_precision,
            candidate_precision: sides.candidate_precision,
            change_pct: d.change_pct,
            threshold_pct,
            verdict: d.verdict,
            rule: d.rule,
            p_value: d.p_value,
            spread_source: None,
            fails: d.verdict == Verdict::Regression,
            invalid_reason: None,
        }
    }
}

/// What a whole-sweep finding gates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SweepGate {
    Peak,
    AtSlo,
}

impl CheckFinding {
    /// `randread 4k read QD32` (with `rwmixread=70` for mixed jobs);
    /// `randread 4k read sweep peak` for a whole sweep.
    pub fn workload(&self) -> String {
        let shape = &self.shape;
        let mut s = format!(
            "{} {} {}",
            shape.rw,
            crate::units::format_bs(shape.bs_bytes),
            shape.direction
        );
        if let Some(mix) = shape.rwmixread {
            s.push_str(&format!(" rwmixread={mix}"));
        }
        if let (Some(load), true) = (self.load, self.load_in_name) {
            s.push_str(&format!(" {}", load.label()));
        }
        match self.sweep {
            Some(SweepGate::Peak) => s.push_str(" sweep peak"),
            Some(SweepGate::AtSlo) => s.push_str(" sweep at SLO"),
            None => {}
        }
        s
    }

    /// One line on why: the rule and its numbers.
    pub fn reason(&self) -> String {
        let t = self.threshold_pct;
        let test = || {
            let from = match self.spread_source {
                Some(SpreadSource::Runs) => "repeated runs",
                _ => "fio samples",
            };
            format!("Welch p={:.3} ({from})", self.p_value.unwrap_or(f64::NAN))
        };
        match self.rule {
            CheckRule::WithinThreshold => format!("within {t}% threshold"),
            CheckRule::WithinPrecision => "within the values' rounding".into(),
            CheckRule::NotSignificant => format!("not significant: {}", test()),
            CheckRule::Significant => format!("beyond {t}%, significant: {}", test()),
            CheckRule::BeyondThreshold => format!("beyond {t}% threshold, no spread known"),
            CheckRule::WorkloadMissing => "workload missing from candidate".into(),
            CheckRule::MetricMissing => "candidate does not report this metric".into(),
            CheckRule::OnlyInCandidate => "only in candidate".into(),
            CheckRule::NoData => "no value on either side".into(),
            CheckRule::InvalidCandidate => format!(
                "the candidate's figure is no measurement: {}",
                self.invalid_reason.as_deref().unwrap_or("excluded")
            ),
            CheckRule::InvalidBaseline => format!(
                "the baseline's figure is no measurement: {}",
                self.invalid_reason.as_deref().unwrap_or("excluded")
            ),
        }
    }
}

/// Everything a check found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CheckReport {
    pub findings: Vec<CheckFinding>,
    pub skipped: Vec<Skipped>,
    pub warnings: Vec<Warning>,
    /// Why the gate cannot trust its input (a candidate job that failed, a
    /// file it could not read): the verdict is `error`, exit code 2,
    /// whatever the findings say.
    pub errors: Vec<String>,
}

/// The verdict of a whole check, as every report format and the exit
/// code give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// No regression: exit 0.
    Pass,
    /// A regression (or a workload missing): exit 1.
    Fail,
    /// Unusable input: exit 2.
    Error,
}

impl Status {
    /// The status of a gate (`check`'s or `check --history`'s): unusable
    /// input first, then any failing finding.
    pub fn of(errors: &[String], failed: bool) -> Status {
        if !errors.is_empty() {
            Status::Error
        } else if failed {
            Status::Fail
        } else {
            Status::Pass
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Error => "error",
        }
    }
}

impl CheckReport {
    pub fn status(&self) -> Status {
        Status::of(&self.errors, self.failed())
    }

    pub fn count(&self, verdict: Verdict) -> usize {
        self.findings
            .iter()
            .filter(|f| f.verdict == verdict)
            .count()
    }

    pub fn failed(&self) -> bool {
        self.findings.iter().any(|f| f.fails)
    }

    /// Findings with a value on both sides, judged: a check with none
    /// compared nothing, and passes on nothing only by mistake.
    pub fn compared(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.baseline.is_some() && f.candidate.is_some())
            .filter(|f| f.verdict != Verdict::Invalid)
            .count()
    }

    /// Workloads the candidate lacks entirely.
    pub fn missing_workloads(&self) -> Vec<String> {
        let mut w: Vec<String> = self
            .findings
            .iter()
            .filter(|f| f.rule == CheckRule::WorkloadMissing)
            .map(CheckFinding::workload)
            .collect();
        w.dedup();
        w
    }

    /// A caution when regressions rest on one run a side: fio's
    /// per-interval samples see noise within a run, not a whole run moved
    /// by a busy machine (the noise study in benches/ measured this).
    pub fn caution(&self) -> Option<String> {
        let n = self
            .findings
            .iter()
            .filter(|f| {
                f.verdict == Verdict::Regression && f.spread_source != Some(SpreadSource::Runs)
            })
            .count();
        (n > 0).then(|| {
            let rests = if n == 1 { "rests" } else { "rest" };
            format!(
                "note: {} {rests} on one run a side; repeat the runs (3 or more result files a \
                 side, e.g. `nvcmp run --repeat 3`) to tell a regression from a noisy machine",
                count(n, "regression")
            )
        })
    }

    /// One line: `FAIL: 1 regression, ...`, `PASS: ...` or `ERROR: <why the
    /// input is unusable>; ...`.
    pub fn summary_line(&self) -> String {
        let reg = self.count(Verdict::Regression);
        let imp = self.count(Verdict::Improvement);
        let missing = self.missing_workloads().len();
        let mut parts = vec![
            count(reg, "regression"),
            count(imp, "improvement"),
            format!("{} unchanged", self.count(Verdict::Unchanged)),
        ];
        if missing > 0 {
            parts.push(count(missing, "missing workload"));
        }
        let invalid = self.count(Verdict::Invalid);
        if invalid > 0 {
            parts.push(format!("{invalid} invalid"));
        }
        match self.status() {
            Status::Error => format!("ERROR: {}; {}", self.errors.join("; "), parts.join(", ")),
            Status::Fail => format!("FAIL: {}", parts.join(", ")),
            Status::Pass => format!("PASS: {}", parts.join(", ")),
        }
    }
}

/// Compares baseline rows against candidate rows with the comparison
/// engine of `analyze` and judges the result. Labels are overwritten:
/// every baseline row becomes [`BASELINE`], every candidate row [`CANDIDATE`].
pub fn check(baseline: &[Row], candidate: &[Row], opts: &CheckOptions) -> CheckReport {
    let rows: Vec<Row> = baseline
        .iter()
        .map(|r| (r, BASELINE))
        .chain(candidate.iter().map(|r| (r, CANDIDATE)))
        .map(|(r, label)| Row {
            config: label.to_string(),
            ..r.clone()
        })
        .collect();
    let cmp = compare::compare(
        &rows,
        &CompareOptions {
            order: vec![BASELINE.into(), CANDIDATE.into()],
            baseline: Some(BASELINE.into()),
            alpha: opts.alpha,
            sweep_rules: opts.sweep_rules,
            log_steady: opts.log_steady.clone(),
            tail: opts.tail,
            ..CompareOptions::default()
        },
    );
    let mut report = evaluate(&cmp, opts);
    report.errors.extend(missing_tail(&cmp, opts));
    report
}

/// A tail gated by name (`--metric clat_p95`) that no run of either side
/// printed: said as an error, not passed over as if there were nothing
/// to gate.
fn missing_tail(cmp: &Comparison, opts: &CheckOptions) -> Option<String> {
    let pct = opts.tail?;
    if !opts.metrics.contains(&Metric::ClatP99Ns) {
        return None;
    }
    let any = cmp.workloads.iter().any(|w| {
        w.metrics
            .iter()
            .any(|m| m.metric == Metric::ClatP99Ns && m.values.values().any(Option::is_some))
    });
    let key = Metric::ClatP99Ns.key_at(pct);
    (!any).then(|| {
        format!(
            "{}: no run has {} latency (fio's percentile_list sets which percentiles it prints)",
            key.trim_end_matches("_ns"),
            compare::workload::tail_name(pct)
        )
    })
}

/// Judges a two-config comparison ([`BASELINE`] against [`CANDIDATE`]).
pub fn evaluate(cmp: &Comparison, opts: &CheckOptions) -> CheckReport {
    let mut findings = Vec::new();
    for w in &cmp.workloads {
        let has = |config: &str| {
            w.metrics
                .iter()
                .any(|m| m.values.get(config).copied().flatten().is_some())
        };
        let workload_missing = has(BASELINE) && !has(CANDIDATE);
        let iops = w.metrics.iter().find(|m| m.metric == Metric::Iops);
        for metric in &opts.metrics {
            let Some(m) = w.metrics.iter().find(|m| m.metric == *metric) else {
                continue;
            };
            findings.push(CheckFinding {
                key: metric.key_at(cmp.tail_percentile),
                load: Some(w.key.load),
                load_in_name: cmp.has_load_points(),
                ..judge_metric(&w.key.shape, m, iops, workload_missing, opts)
            });
        }
    }
    findings.extend(sweep_findings(cmp, opts));
    let mut warnings = cmp.warnings.clone();
    warnings.extend(not_steady(cmp));
    CheckReport {
        findings,
        skipped: cmp.skipped.clone(),
        warnings,
        errors: Vec::new(),
    }
}

/// One metric of one workload judged, baseline against candidate: the
/// verdict of [`verdict::decide`], unless either side's figure was
/// excluded as invalid, which is judged as nothing else (never an
/// improvement, never unchanged). `iops` gives the spread of metrics
/// that have none of their own.
fn judge_metric(
    shape: &crate::compare::workload::Shape,
    m: &crate::compare::MetricResult,
    iops: Option<&crate::compare::MetricResult>,
    workload_missing: bool,
    opts: &CheckOptions,
) -> CheckFinding {
    let value = |c: &str| m.values.get(c).copied().flatten();
    let precision = |c: &str| m.precision.get(c).copied().unwrap_or(0.0);
    let bs = verdict::spread_of(m, iops, BASELINE);
    let cs = verdict::spread_of(m, iops, CANDIDATE);
    let sides = verdict::Sides {
        baseline: value(BASELINE),
        candidate: value(CANDIDATE),
        baseline_precision: precision(BASELINE),
        candidate_precision: precision(CANDIDATE),
        baseline_spread: bs.map(|s| s.0),
        candidate_spread: cs.map(|s| s.0),
    };
    let threshold_pct = opts.thresholds.for_metric(m.metric);
    let mut d = verdict::decide(
        m.better,
        &sides,
        threshold_pct,
        opts.alpha,
        workload_missing,
    );
    let invalid = match (m.exclusion(CANDIDATE), m.exclusion(BASELINE)) {
        (Some(why), _) => Some((CheckRule::InvalidCandidate, why)),
        (None, Some(why)) => Some((CheckRule::InvalidBaseline, why)),
        (None, None) => None,
    };
    if let Some((rule, _)) = invalid {
        d = verdict::Judgement {
            verdict: Verdict::Invalid,
            rule,
            change_pct: None,
            p_value: None,
        };
    }
    let fails = match d.verdict {
        Verdict::Regression => true,
        Verdict::Invalid => d.rule == CheckRule::InvalidCandidate,
        Verdict::Missing => d.rule == CheckRule::WorkloadMissing && !opts.allow_missing,
        _ => false,
    };
    CheckFinding {
        spread_source: d.p_value.and(bs.or(cs).map(|s| s.1)),
        fails,
        invalid_reason: invalid.map(|(_, why)| why.to_string()),
        ..CheckFinding::of(shape, (m.metric, m.better), &sides, &d, threshold_pct)
    }
}

/// A side whose runs never reached steady state: its figures may still be
/// moving, so a change may be the run's length talking. A warning, not a
/// failure: the gate's verdicts stand on the figures as measured.
fn not_steady(cmp: &Comparison) -> Vec<crate::model::Warning> {
    let mut out = Vec::new();
    for w in &cmp.workloads {
        for (side, s) in w.steady_state.iter().filter(|(_, s)| !s.attained) {
            out.push(crate::model::Warning {
                source: side.clone(),
                message: format!(
                    "{}: did not reach steady state ({}); a change here may be the run still settling",
                    cmp.title_of(w),
                    s.criterion
                ),
            });
        }
    }
    out
}

/// With the whole baseline curve measured by the candidate too (every
/// baseline load point present), its peak IOPS, and the IOPS at the
/// latency target when one is set, are judged like any IOPS figure. No
/// spread is known for them: threshold and rounding decide.
fn sweep_findings(cmp: &Comparison, opts: &CheckOptions) -> Vec<CheckFinding> {
    let mut out = Vec::new();
    for base in cmp.sweeps.iter().filter(|s| s.config == BASELINE) {
        let Some(cand) = whole_candidate(cmp, base) else {
            continue;
        };
        for (gate, sides) in sweep_gates(cmp, opts, base, cand) {
            out.push(sweep_finding(base, gate, &sides, opts));
        }
    }
    out
}

/// The candidate's sweep of `base`'s shape when it measured every load
/// point of `base`.
fn whole_candidate<'a>(cmp: &'a Comparison, base: &compare::Sweep) -> Option<&'a compare::Sweep> {
    let cand = cmp
        .sweeps
        .iter()
        .find(|s| s.config == CANDIDATE && s.shape == base.shape)?;
    let whole = base
        .points
        .iter()
        .all(|p| cand.points.iter().any(|q| q.load == p.load));
    whole.then_some(cand)
}

/// The IOPS precision of sweep `s`'s config at one of its load points.
fn iops_precision(cmp: &Comparison, s: &compare::Sweep, load: LoadPoint) -> f64 {
    cmp.workloads
        .iter()
        .find(|w| w.key.shape == s.shape && w.key.load == load)
        .and_then(|w| w.metric(Metric::Iops))
        .and_then(|m| m.precision.get(&s.config).copied())
        .unwrap_or(0.0)
}

/// The figures judged for a sweep: its peak, and its IOPS at the latency
/// target when one is set, each with both sides.
fn sweep_gates(
    cmp: &Comparison,
    opts: &CheckOptions,
    base: &compare::Sweep,
    cand: &compare::Sweep,
) -> Vec<(SweepGate, verdict::Sides)> {
    let sides = |b, c, bp, cp| verdict::Sides {
        baseline: b,
        candidate: c,
        baseline_precision: bp,
        candidate_precision: cp,
        baseline_spread: None,
        candidate_spread: None,
    };
    let mut gates = vec![(
        SweepGate::Peak,
        sides(
            Some(base.peak.iops),
            Some(cand.peak.iops),
            iops_precision(cmp, base, base.peak.load),
            iops_precision(cmp, cand, cand.peak.load),
        ),
    )];
    if opts.sweep_rules.slo.is_some() {
        // A candidate that meets the target at no load point sustains
        // nothing under it: 0 IOPS, not a missing value.
        let meets = Some(cand.at_slo.map_or(0.0, |a| a.iops));
        let at_slo = sides(base.at_slo.map(|a| a.iops), meets, 0.0, 0.0);
        gates.push((SweepGate::AtSlo, at_slo));
    }
    gates
}

/// The finding of one sweep figure, IOPS judged higher-is-better.
fn sweep_finding(
    base: &compare::Sweep,
    gate: SweepGate,
    sides: &verdict::Sides,
    opts: &CheckOptions,
) -> CheckFinding {
    let threshold_pct = opts.thresholds.for_metric(Metric::Iops);
    let d = verdict::decide(Better::Higher, sides, threshold_pct, opts.alpha, false);
    CheckFinding {
        sweep: Some(gate),
        load_in_name: true,
        p_value: None,
        ..CheckFinding::of(
            &base.shape,
            (Metric::Iops, Better::Higher),
            sides,
            &d,
            threshold_pct,
        )
    }
}

#[cfg(test)]
mod tests;
