//! False alarms and power of `check --history` and of `history show`'s
//! change points, on synthetic histories with normal noise (fixed seeds):
//!
//! - no change: the share of candidates `check --history` fails
//!   (regression at the default --alpha 0.05 and threshold 5 %, and with
//!   --threshold 0), and the share of 30-run series `history show` finds a
//!   change point in;
//! - a step down of s %: the share caught, with 10 runs a side (a window
//!   of 10 runs, then one candidate run for the gate; 10 runs before and
//!   10 after for the change points), and the smallest step caught 95 %
//!   of the time.
//!
//! Noise levels: 2 % (a quiet, dedicated machine), 5 %, and 13.5 %, the
//! run-to-run spread of psync IOPS on the busy 2-core VM of
//! benches/noise-study.md. The rules use the metric's relative spread only,
//! so the mean does not matter.
//!
//! Run: `cargo test --bench history_gate` (the math is cheap; an
//! unoptimized build takes about a minute), or `cargo bench --bench
//! history_gate`. `TRIALS=N` sets the trials per cell (default 4000).

use nvcmp::check::Verdict;
use nvcmp::compare::Better;
use nvcmp::compare::stats::Summary;
use nvcmp::history::changepoint::{self, DetectorOptions};
use nvcmp::history::gate;
use nvcmp::history::synth::Noise;

const WINDOW: usize = 10;
const NOISE: [f64; 3] = [0.02, 0.05, 0.135];
const STEPS: [f64; 12] = [
    1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 15.0, 20.0, 30.0,
];

/// Whether `check --history`'s rule fails a candidate `c` after `history`
/// (higher is better), with the gate's window rule.
fn gate_fails(history: &[f64], c: f64, threshold: f64) -> bool {
    let cps = changepoint::detect(history, &DetectorOptions::default());
    let start = gate::window_start(history.len(), WINDOW, cps.last().map(|c| c.index));
    let window = Summary::of(&history[start..]);
    let mean = window.map_or(f64::NAN, |w| w.mean);
    let (verdict, ..) = gate::judge(Better::Higher, window, mean, false, c, threshold, 0.05);
    verdict == Verdict::Regression
}

fn series(noise: &mut Noise, n: usize, rel: f64, step_at: usize, step_pct: f64) -> Vec<f64> {
    (0..n)
        .map(|i| {
            let level = if i >= step_at {
                1.0 - step_pct / 100.0
            } else {
                1.0
            };
            noise.around(1000.0 * level, rel)
        })
        .collect()
}

fn rate(hits: usize, trials: usize) -> String {
    format!("{:.1} %", hits as f64 / trials as f64 * 100.0)
}

fn false_alarms(trials: usize) {
    println!("## No change: false alarms ({trials} trials per cell)\n");
    println!(
        "| noise | check --history (5 % threshold) | check --history (--threshold 0) | history show, 30 runs: any change point |"
    );
    println!("| ---: | ---: | ---: | ---: |");
    for (k, rel) in NOISE.into_iter().enumerate() {
        let mut noise = Noise::new(100 + k as u64);
        let (mut gate5, mut gate0, mut cp) = (0, 0, 0);
        for _ in 0..trials {
            let xs = series(&mut noise, 30, rel, usize::MAX, 0.0);
            let c = noise.around(1000.0, rel);
            gate5 += usize::from(gate_fails(&xs, c, 5.0));
            gate0 += usize::from(gate_fails(&xs, c, 0.0));
            cp += usize::from(!changepoint::detect(&xs, &DetectorOptions::default()).is_empty());
        }
        println!(
            "| {:.1} % | {} | {} | {} |",
            rel * 100.0,
            rate(gate5, trials),
            rate(gate0, trials),
            rate(cp, trials)
        );
    }
    println!();
}

/// Share of trials a step of `step` % is caught: by the gate (window of 10,
/// one candidate) and by the change points (10 runs a side, found within
/// one run of the step).
fn caught(rel: f64, step: f64, trials: usize, seed: u64) -> (usize, usize, usize) {
    let mut noise = Noise::new(seed);
    let (mut g5, mut g0, mut cp) = (0, 0, 0);
    for _ in 0..trials {
        let before = series(&mut noise, WINDOW, rel, usize::MAX, 0.0);
        let c = noise.around(1000.0 * (1.0 - step / 100.0), rel);
        g5 += usize::from(gate_fails(&before, c, 5.0));
        g0 += usize::from(gate_fails(&before, c, 0.0));
        let xs = series(&mut noise, 2 * WINDOW, rel, WINDOW, step);
        let found = changepoint::detect(&xs, &DetectorOptions::default());
        cp += usize::from(found.iter().any(|c| c.index.abs_diff(WINDOW) <= 1));
    }
    (g5, g0, cp)
}

fn power(trials: usize) {
    println!("## A step down: share caught with 10 runs a side ({trials} trials per cell)\n");
    for (k, rel) in NOISE.into_iter().enumerate() {
        println!("### noise {:.1} %\n", rel * 100.0);
        println!(
            "| step | check --history (5 %) | check --history (threshold 0) | change point (10 + 10 runs) |"
        );
        println!("| ---: | ---: | ---: | ---: |");
        let mut smallest = [None; 3];
        for (j, step) in STEPS.into_iter().enumerate() {
            let (g5, g0, cp) = caught(rel, step, trials, 1000 + (k * 100 + j) as u64);
            for (s, hits) in smallest.iter_mut().zip([g5, g0, cp]) {
                if s.is_none() && hits as f64 >= 0.95 * trials as f64 {
                    *s = Some(step);
                }
            }
            println!(
                "| {step} % | {} | {} | {} |",
                rate(g5, trials),
                rate(g0, trials),
                rate(cp, trials)
            );
        }
        let show = |s: Option<f64>| s.map_or("> 30 %".to_string(), |s| format!("{s} %"));
        println!(
            "\nSmallest step caught 95 % of the time: gate {} (5 % threshold), {} (threshold 0); change point {}.\n",
            show(smallest[0]),
            show(smallest[1]),
            show(smallest[2])
        );
    }
}

fn main() {
    let trials = std::env::var("TRIALS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(4000);
    // `cargo bench` passes `--bench`; nothing else is read.
    false_alarms(trials);
    power(trials);
}
