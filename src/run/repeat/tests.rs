use super::*;

fn rule(target_pct: f64, max: u32) -> StopRule {
    StopRule { target_pct, max }
}

/// The rule's verdict after each value of `values` in turn.
fn verdicts(r: &StopRule, values: &[f64]) -> Vec<StopVerdict> {
    (1..=values.len())
        .map(|n| judge(r, n as u32, &values[..n]))
        .collect()
}

#[test]
fn stops_at_three_when_the_runs_agree() {
    use StopVerdict::*;
    // 100, 101, 99: relative stddev 1 %.
    let v = verdicts(&rule(3.5, 10), &[100.0, 101.0, 99.0]);
    assert_eq!(v, [Continue, Continue, Met]);
}

#[test]
fn two_agreeing_runs_are_not_enough() {
    // Identical values: 0 % after two, still the rule waits for a third.
    assert_eq!(
        judge(&rule(3.5, 10), 2, &[100.0, 100.0]),
        StopVerdict::Continue
    );
}

#[test]
fn continues_while_loose_and_stops_once_tight() {
    use StopVerdict::*;
    // 100, 120, 80 and then 100s: n values have a relative stddev of
    // sqrt(800 / (n - 1)) %, 20 % at 3 and at most 6 % from n = 24 on.
    let mut values = vec![100.0, 120.0, 80.0];
    values.extend(std::iter::repeat_n(100.0, 27));
    let r = rule(6.0, 40);
    let v = verdicts(&r, &values);
    let stop = v.iter().position(|v| *v == Met).expect("met");
    assert_eq!(stop + 1, 24);
    for n in 3..=stop {
        let rsd = relative_stddev_pct(&values[..n]).unwrap();
        assert!(rsd > 6.0, "continued at {n} with {rsd} %");
    }
    assert!(relative_stddev_pct(&values[..=stop]).unwrap() <= 6.0);
    assert!(v[..stop].iter().all(|v| *v == Continue));
}

#[test]
fn stops_at_max_when_never_tight() {
    use StopVerdict::*;
    let v = verdicts(&rule(1.0, 5), &[100.0, 150.0, 50.0, 140.0, 60.0]);
    assert_eq!(v, [Continue, Continue, Continue, Continue, MaxReached]);
}

#[test]
fn failed_repetitions_count_toward_max_but_not_the_spread() {
    // Three ran, one failed: two values are not enough to judge.
    assert_eq!(
        judge(&rule(50.0, 4), 3, &[100.0, 100.0]),
        StopVerdict::Continue
    );
    assert_eq!(
        judge(&rule(50.0, 4), 4, &[100.0, 100.0]),
        StopVerdict::MaxReached
    );
}

#[test]
fn relative_stddev_is_sample_stddev_over_mean() {
    // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample stddev sqrt(32/7).
    let v = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
    let want = 100.0 * (32.0f64 / 7.0).sqrt() / 5.0;
    assert!((relative_stddev_pct(&v).unwrap() - want).abs() < 1e-9);
    assert_eq!(relative_stddev_pct(&[5.0]), None);
    assert_eq!(relative_stddev_pct(&[0.0, 0.0]), None);
}

#[test]
fn tally_asks_for_the_fixed_count() {
    let mut t = RepeatTally::default();
    let three = Repeat::Times(3);
    for _ in 0..3 {
        assert!(t.wants_more(&three));
        t.add(Some(1.0));
    }
    assert!(!t.wants_more(&three));
    // A failed repetition counts as run.
    let mut t = RepeatTally::default();
    t.add(None);
    assert!(!t.wants_more(&Repeat::Times(1)));
    assert!(t.values.is_empty());
}

#[test]
fn file_names_sort_and_a_single_run_keeps_its_name() {
    let dir = Path::new("out/cfg");
    let one = Repeat::default();
    assert_eq!(
        one.result_path(dir, "randread-4k-qd32-j1", 0),
        dir.join("randread-4k-qd32-j1.json")
    );
    let three = Repeat::Times(3);
    let names: Vec<PathBuf> = (0..3).map(|k| three.result_path(dir, "j", k)).collect();
    assert_eq!(
        names,
        [
            dir.join("j-r01.json"),
            dir.join("j-r02.json"),
            dir.join("j-r03.json")
        ]
    );
    // Over 99 repetitions the numbers widen so that names still sort.
    let many = Repeat::UntilStddev(rule(1.0, 120));
    assert_eq!(many.result_path(dir, "j", 8), dir.join("j-r009.json"));
    assert_eq!(many.least(), MIN_REPEATS);
}

#[test]
fn result_names_of_a_job_and_no_other() {
    assert!(is_result_of("a-qd1-j1.json", "a-qd1-j1"));
    assert!(is_result_of("a-qd1-j1-r07.json", "a-qd1-j1"));
    assert!(!is_result_of("a-qd1-j1-r.json", "a-qd1-j1"));
    assert!(!is_result_of("a-qd1-j1-rx.json", "a-qd1-j1"));
    assert!(!is_result_of("a-qd1-j12.json", "a-qd1-j1"));
    assert!(!is_result_of("a-qd1-j1.json.nvcmp.toml", "a-qd1-j1"));
}

#[test]
fn strays_are_results_of_the_jobs_this_run_did_not_touch() {
    let dir = tempfile::tempdir().unwrap();
    for n in [
        "j-r01.json",
        "j-r02.json",
        "j-r04.json",
        "j.json",
        "k-r01.json",
        "j.json.nvcmp.toml",
    ] {
        std::fs::write(dir.path().join(n), "{}").unwrap();
    }
    let used: HashSet<PathBuf> = ["j-r01.json", "j-r02.json"]
        .iter()
        .map(|n| dir.path().join(n))
        .collect();
    let got = strays(dir.path(), &["j"], &used);
    assert_eq!(
        got,
        [dir.path().join("j-r04.json"), dir.path().join("j.json")]
    );
}

#[test]
fn iops_of_a_result_sum_the_directions_and_skip_the_client_aggregate() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("r.json");
    std::fs::write(
        &p,
        r#"{"jobs":[{"read":{"iops":70.5},"write":{"iops":30.0}}]}"#,
    )
    .unwrap();
    assert_eq!(result_iops(&p), Some(100.5));
    std::fs::write(
        &p,
        r#"{"client_stats":[{"jobname":"a","read":{"iops":10.0}},{"jobname":"a","read":{"iops":20.0}},{"jobname":"All clients","read":{"iops":30.0}}]}"#,
    )
    .unwrap();
    assert_eq!(result_iops(&p), Some(30.0));
    std::fs::write(&p, "not json").unwrap();
    assert_eq!(result_iops(&p), None);
}
