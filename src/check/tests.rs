//! `evaluate` on hand-built comparisons: no ingest, no compare engine.

use indexmap::IndexMap;

use super::*;
use crate::compare::workload::WorkloadKey;
use crate::compare::{MetricResult, Rule, Spread, Workload};
use crate::model::{Direction, Row};

fn metric(m: Metric, better: Better, base: Option<f64>, cand: Option<f64>) -> MetricResult {
    MetricResult {
        metric: m,
        better,
        values: IndexMap::from([(BASELINE.to_string(), base), (CANDIDATE.to_string(), cand)]),
        precision: IndexMap::from([(BASELINE.to_string(), 1.0), (CANDIDATE.to_string(), 1.0)]),
        spread: IndexMap::new(),
        winner: None,
        tied: vec![],
        delta_pct: IndexMap::new(),
        delta_abs: IndexMap::new(),
        rule: Rule::Precision,
        baseline_ties: IndexMap::new(),
        excluded: IndexMap::new(),
        approximate: vec![],
        tail_pct: crate::compare::workload::P99,
        decided_by: None,
    }
}

fn samples(m: &mut MetricResult, config: &str, n: u64, mean: f64, stddev: f64) {
    m.spread.insert(
        config.to_string(),
        Spread {
            n,
            mean,
            stddev,
            source: SpreadSource::Samples,
        },
    );
}

fn workload(rw: &str, metrics: Vec<MetricResult>) -> Workload {
    let direction = if rw.contains("read") {
        Direction::Read
    } else {
        Direction::Write
    };
    Workload {
        key: WorkloadKey {
            shape: Shape::new(rw, 4096, direction, None),
            load: LoadPoint::of(1, 1),
        },
        effective_iodepth: Default::default(),
        metrics,
        percentiles: IndexMap::new(),
        clat_bins: IndexMap::new(),
        steady_state: IndexMap::new(),
        notes: vec![],
        checks: vec![],
        params: IndexMap::new(),
    }
}

fn comparison(workloads: Vec<Workload>) -> Comparison {
    Comparison {
        configs: vec![BASELINE.into(), CANDIDATE.into()],
        baseline: Some(BASELINE.into()),
        config_os: IndexMap::new(),
        families: vec![],
        workloads,
        highlights: vec![],
        key_findings: vec![],
        skipped: vec![],
        warnings: vec![],
        sanity: vec![],
        sweeps: vec![],
        bs_sweeps: vec![],
        sweep_rules: Default::default(),
        setup: Default::default(),
        devices: vec![],
        equivalence_pct: None,
        config_rule: Default::default(),
        study: Default::default(),
        tail_percentile: crate::compare::workload::P99,
        config_labels: Default::default(),
        baseline_why: None,
        units: Default::default(),
        all_configs: None,
    }
}

fn find<'a>(r: &'a CheckReport, rw: &str, m: Metric) -> &'a CheckFinding {
    r.findings
        .iter()
        .find(|f| f.shape.rw == rw && f.metric == m)
        .unwrap_or_else(|| panic!("no finding for {rw} {m:?}"))
}

#[test]
fn only_the_regressed_metric_fails_and_is_named() {
    let cmp = comparison(vec![
        workload(
            "randread",
            vec![
                metric(
                    Metric::Iops,
                    Better::Higher,
                    Some(100_000.0),
                    Some(85_000.0),
                ),
                metric(
                    Metric::LatMeanNs,
                    Better::Lower,
                    Some(10_000.0),
                    Some(10_200.0),
                ),
            ],
        ),
        workload(
            "randwrite",
            vec![metric(
                Metric::Iops,
                Better::Higher,
                Some(50_000.0),
                Some(60_000.0),
            )],
        ),
    ]);
    let r = evaluate(&cmp, &CheckOptions::default());
    assert!(r.failed());
    let f = find(&r, "randread", Metric::Iops);
    assert_eq!((f.verdict, f.fails), (Verdict::Regression, true));
    assert_eq!(f.workload(), "randread 4k read");
    assert!((f.change_pct.unwrap() - -15.0).abs() < 1e-9);
    assert_eq!(
        find(&r, "randread", Metric::LatMeanNs).verdict,
        Verdict::Unchanged
    );
    let up = find(&r, "randwrite", Metric::Iops);
    assert_eq!((up.verdict, up.fails), (Verdict::Improvement, false));
    assert_eq!(r.count(Verdict::Regression), 1);
    assert!(
        r.summary_line()
            .starts_with("FAIL: 1 regression, 1 improvement")
    );
}

#[test]
fn per_metric_threshold_and_metric_selection() {
    let cmp = comparison(vec![workload(
        "randread",
        vec![
            metric(Metric::Iops, Better::Higher, Some(1000.0), Some(960.0)),
            metric(Metric::CpuPct, Better::Lower, Some(10.0), Some(20.0)),
        ],
    )]);
    // -4 % passes the 5 % default, fails a 3 % iops threshold.
    assert!(!evaluate(&cmp, &CheckOptions::default()).failed());
    let opts = CheckOptions {
        thresholds: Thresholds::parse_all(&["iops=3%"]).unwrap(),
        ..CheckOptions::default()
    };
    let r = evaluate(&cmp, &opts);
    assert!(r.failed());
    assert_eq!(find(&r, "randread", Metric::Iops).threshold_pct, 3.0);
    // CPU doubled, but it is not gated by default ...
    assert!(r.findings.iter().all(|f| f.metric != Metric::CpuPct));
    // ... unless asked for.
    let opts = CheckOptions {
        metrics: vec![Metric::CpuPct],
        ..CheckOptions::default()
    };
    assert_eq!(
        find(&evaluate(&cmp, &opts), "randread", Metric::CpuPct).verdict,
        Verdict::Regression
    );
}

#[test]
fn fio_samples_clear_noise_and_latency_borrows_them() {
    // A 9 % drop in IOPS and a 10 % rise in latency, while fio's
    // per-interval IOPS samples swing by ~10 %: noise, by Welch's test,
    // for latency too (Little's law).
    let mut iops = metric(
        Metric::Iops,
        Better::Higher,
        Some(346_863.0),
        Some(315_000.0),
    );
    samples(&mut iops, BASELINE, 3, 359_338.0, 34_363.0);
    samples(&mut iops, CANDIDATE, 3, 317_645.0, 12_567.0);
    let lat = metric(
        Metric::LatMeanNs,
        Better::Lower,
        Some(2_514.0),
        Some(2_778.0),
    );
    let cmp = comparison(vec![workload("randread", vec![iops, lat])]);
    let r = evaluate(&cmp, &CheckOptions::default());
    assert!(!r.failed(), "{:#?}", r.findings);
    for m in [Metric::Iops, Metric::LatMeanNs] {
        let f = find(&r, "randread", m);
        assert_eq!(f.rule, CheckRule::NotSignificant, "{m:?}");
        assert_eq!(f.spread_source, Some(SpreadSource::Samples));
        assert!(f.p_value.unwrap() >= 0.05);
    }

    // Without samples the same latency rise is a regression on the bare threshold.
    let lat = metric(
        Metric::LatMeanNs,
        Better::Lower,
        Some(2_514.0),
        Some(2_778.0),
    );
    let cmp = comparison(vec![workload("randread", vec![lat])]);
    let f = find(
        &evaluate(&cmp, &CheckOptions::default()),
        "randread",
        Metric::LatMeanNs,
    )
    .clone();
    assert_eq!(
        (f.verdict, f.rule),
        (Verdict::Regression, CheckRule::BeyondThreshold)
    );
}

#[test]
fn missing_workload_fails_unless_allowed() {
    let cmp = comparison(vec![
        workload(
            "randread",
            vec![metric(
                Metric::Iops,
                Better::Higher,
                Some(1000.0),
                Some(1000.0),
            )],
        ),
        workload(
            "randwrite",
            vec![
                metric(Metric::Iops, Better::Higher, Some(1000.0), None),
                metric(Metric::LatMeanNs, Better::Lower, Some(1000.0), None),
            ],
        ),
        workload(
            "read",
            vec![metric(Metric::Iops, Better::Higher, None, Some(5.0))],
        ),
    ]);
    let r = evaluate(&cmp, &CheckOptions::default());
    assert!(r.failed());
    assert_eq!(
        r.missing_workloads(),
        vec!["randwrite 4k write".to_string()]
    );
    assert_eq!(find(&r, "read", Metric::Iops).verdict, Verdict::New);
    let allowed = CheckOptions {
        allow_missing: true,
        ..CheckOptions::default()
    };
    let r = evaluate(&cmp, &allowed);
    assert!(!r.failed());
    assert_eq!(r.count(Verdict::Missing), 2);
}

#[test]
fn a_metric_the_candidate_does_not_report_is_shown_not_failed() {
    let cmp = comparison(vec![workload(
        "randread",
        vec![
            metric(Metric::Iops, Better::Higher, Some(1000.0), Some(1000.0)),
            metric(Metric::LatMeanNs, Better::Lower, Some(1000.0), None),
        ],
    )]);
    let r = evaluate(&cmp, &CheckOptions::default());
    let f = find(&r, "randread", Metric::LatMeanNs);
    assert_eq!(
        (f.verdict, f.rule, f.fails),
        (Verdict::Missing, CheckRule::MetricMissing, false)
    );
    assert!(!r.failed());
}

/// A randread 4k row at `qd` with `iops`; latency by Little's law, p99 at
/// twice the mean.
fn sweep_row(qd: u32, iops: f64) -> Row {
    let mut r = Row::empty(&format!("qd{qd}.json"), Direction::Read);
    r.os = "linux".into();
    r.engine = "io_uring".into();
    r.rw = "randread".into();
    r.bs_bytes = 4096;
    r.iodepth = qd;
    r.runtime_ms = 10_000.0;
    r.iops = iops;
    r.bw_bytes_per_s = iops * 4096.0;
    let lat = f64::from(qd) / iops * 1e9;
    r.lat_mean_ns = Some(lat);
    r.clat_p99_ns = Some(2.0 * lat);
    r
}

const QDS: [u32; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
const FAST: [f64; 8] = [20e3, 40e3, 78e3, 150e3, 280e3, 300e3, 305e3, 306e3];

fn sweep(scale_from_qd32: f64) -> Vec<Row> {
    QDS.iter()
        .zip(FAST)
        .map(|(qd, iops)| {
            sweep_row(
                *qd,
                if *qd >= 32 {
                    iops * scale_from_qd32
                } else {
                    iops
                },
            )
        })
        .collect()
}

fn at_load(r: &CheckReport, iodepth: u32, m: Metric) -> &CheckFinding {
    r.findings
        .iter()
        .find(|f| f.load.map(|l| l.iodepth) == Some(iodepth) && f.metric == m && f.sweep.is_none())
        .unwrap_or_else(|| panic!("no QD{iodepth} {m:?} finding"))
}

#[test]
fn a_single_run_is_checked_against_the_same_load_point_of_a_sweep() {
    // The baseline ran QD32 only; the candidate is the whole sweep, equal
    // at QD32. The mean of the sweep (162k) must never stand for QD32.
    let base = vec![sweep_row(32, 300e3)];
    let r = check(&base, &sweep(1.0), &CheckOptions::default());
    let qd32 = at_load(&r, 32, Metric::Iops);
    assert_eq!((qd32.baseline, qd32.candidate), (Some(300e3), Some(300e3)));
    assert_eq!(qd32.verdict, Verdict::Unchanged);
    assert_eq!(at_load(&r, 1, Metric::Iops).verdict, Verdict::New);
    assert!(!r.failed(), "{}", r.summary_line());
    assert!(r.findings.iter().all(|f| f.sweep.is_none()));
    assert_eq!(qd32.workload(), "randread 4k read QD32");
}

#[test]
fn a_load_point_on_one_side_only_is_missing_never_a_regression() {
    let base = sweep(1.0);
    let mut cand = sweep(1.0);
    cand.retain(|r| r.iodepth != 128);
    let r = check(&base, &cand, &CheckOptions::default());
    let f = at_load(&r, 128, Metric::Iops);
    assert_eq!(
        (f.verdict, f.rule),
        (Verdict::Missing, CheckRule::WorkloadMissing)
    );
    assert_eq!(r.count(Verdict::Regression), 0);
    assert_eq!(r.missing_workloads(), ["randread 4k read QD128"]);
    // Not the whole curve: no sweep-level gate.
    assert!(r.findings.iter().all(|f| f.sweep.is_none()));
    let lenient = CheckOptions {
        allow_missing: true,
        ..CheckOptions::default()
    };
    assert!(!check(&base, &cand, &lenient).failed());
}

#[test]
fn whole_curves_gate_peak_iops_and_iops_at_the_target() {
    let mut opts = CheckOptions::default();
    opts.sweep_rules.slo = Some(crate::compare::sweep::parse_slo("clat_p99=500us").unwrap());
    let same = check(&sweep(1.0), &sweep(1.0), &opts);
    let gates: Vec<_> = same.findings.iter().filter_map(|f| f.sweep).collect();
    assert_eq!(gates, [SweepGate::Peak, SweepGate::AtSlo]);
    assert!(!same.failed());

    // 15 % less from QD32 on: the peak falls from 306k at QD128 to 280k
    // at QD16 (-8.5 %).
    let r = check(&sweep(1.0), &sweep(0.85), &opts);
    let peak = r
        .findings
        .iter()
        .find(|f| f.sweep == Some(SweepGate::Peak))
        .unwrap();
    assert_eq!((peak.baseline, peak.candidate), (Some(306e3), Some(280e3)));
    assert_eq!(peak.verdict, Verdict::Regression);
    assert_eq!(peak.workload(), "randread 4k read sweep peak");
    let slo = r
        .findings
        .iter()
        .find(|f| f.sweep == Some(SweepGate::AtSlo))
        .unwrap();
    assert_eq!(slo.verdict, Verdict::Regression, "{slo:?}");
    assert!(r.failed());
}
