use super::*;

/// A deterministic ±`amp` wobble (no RNG: tests stay reproducible).
fn noisy(base: f64, amp: f64, n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| base + amp * ((i * 7 % 5) as f64 - 2.0) / 2.0)
        .collect()
}

#[test]
fn a_noisy_flat_run_is_steady_from_its_first_window() {
    let v = noisy(1000.0, 60.0, 25);
    let w = first_steady(&v).unwrap().unwrap();
    assert_eq!(w.start, 0);
    assert!(w.data_excursion <= 0.2 && w.slope_excursion <= 0.1, "{w:?}");
}

#[test]
fn a_ramp_fails_the_slope_test_but_not_the_data_test() {
    // +4 % per round, compounding so that no later window flattens out:
    // max − min over 5 rounds is about 17 % (< 20 %), the fitted line
    // rises about 16 % (> 10 %).
    let v: Vec<f64> = (0..25).map(|i| 1000.0 * 1.04f64.powi(i)).collect();
    let w = Window::measure(&v, 0);
    assert!(w.data_excursion <= MAX_DATA_EXCURSION, "{w:?}");
    assert!(w.slope_excursion > MAX_SLOPE_EXCURSION, "{w:?}");
    assert!(first_steady(&v).unwrap().is_err());
}

#[test]
fn a_step_fails_the_data_test() {
    // 1000 for 10 rounds, then 500 (a write cache running out): a window
    // across the step fails (a).
    let v: Vec<f64> = (0..20)
        .map(|i| if i < 10 { 1000.0 } else { 500.0 })
        .collect();
    let across = Window::measure(&v, 8);
    assert!(across.data_excursion > MAX_DATA_EXCURSION);
    // The flat start holds already: SNIA takes the first window.
    assert_eq!(first_steady(&v).unwrap().unwrap().start, 0);
    // A step inside every window never holds.
    let v: Vec<f64> = (0..12)
        .map(|i| if i % 4 < 2 { 1000.0 } else { 500.0 })
        .collect();
    let best = first_steady(&v).unwrap().unwrap_err();
    assert!(best.data_excursion > MAX_DATA_EXCURSION);
}

#[test]
fn a_run_that_settles_late_is_steady_from_where_it_settles() {
    let mut v: Vec<f64> = (0..8).map(|i| 200.0 + 100.0 * i as f64).collect();
    v.extend(noisy(1000.0, 40.0, 10));
    let w = first_steady(&v).unwrap().unwrap();
    assert!(w.start >= 5, "{w:?}");
    assert!(w.measured().starts_with("data "));
}

#[test]
fn fewer_than_five_rounds_get_no_verdict() {
    assert!(first_steady(&[1.0, 1.0, 1.0, 1.0]).is_none());
}
