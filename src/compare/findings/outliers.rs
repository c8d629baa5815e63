//! Rule 7: outliers. Among four or more configs, a value whose modified
//! z-score (0.6745 x its distance to the median / the median absolute
//! deviation) exceeds 3.5 and which is at least 1.5x off the others'
//! median (Iglewicz and Hoaglin's rule:
//! <https://www.itl.nist.gov/div898/handbook/eda/section3/eda35h.htm>;
//! the ratio floor keeps near-equal rows, whose deviation is tiny, from
//! flagging ordinary differences). Only on the worse side (high latency
//! or CPU, low bandwidth or IOPS): a value far better than the others is
//! a result, the leader's, and the winner sentences say it.

use super::entries::{comparable_results, present};
use crate::compare::findings::{Finding, FindingKind, ONE_WORKLOAD, magnitude};
use crate::compare::metric::Scales;
use crate::compare::model::{Better, Comparison, Metric, Workload};
use crate::numbers;

/// Modified z-score above which a value is an outlier (Iglewicz-Hoaglin).
pub const OUTLIER_Z: f64 = 3.5;

/// ...and the least ratio to the others' median it must also reach.
pub const OUTLIER_RATIO: f64 = 1.5;

/// What an outlier far behind on bandwidth or IOPS counts, against one far
/// above its peers on latency or CPU.
pub(super) const LOW_SIDE: f64 = 0.7;

/// 7: outliers by the median absolute deviation (module docs). Needs four
/// values at least: among three, "far from the median" is just "different".
pub(super) fn outliers(cmp: &Comparison, scales: &Scales) -> Vec<Finding> {
    let mut out = Vec::new();
    for (w, m, r) in comparable_results(cmp) {
        let vals = present(r);
        if vals.len() < 4 {
            continue;
        }
        let all: Vec<f64> = vals.iter().map(|v| v.1).collect();
        let med = numbers::median(all.iter().copied()).unwrap_or(0.0);
        let mad = numbers::median(all.iter().map(|v| (v - med).abs())).unwrap_or(0.0);
        // The worse side only: above the others for latency and CPU,
        // below them for bandwidth and IOPS.
        let worse = |v: f64, than: f64| match m.better() {
            Better::Lower => v > than,
            Better::Higher => v < than,
        };
        for (c, v) in &vals {
            let others: Vec<f64> = vals.iter().filter(|(o, _)| o != c).map(|x| x.1).collect();
            let others_med = numbers::median(others.iter().copied()).unwrap_or(0.0);
            if others_med <= 0.0 || *v <= 0.0 || !worse(*v, med) {
                continue;
            }
            let z = if mad > 0.0 {
                0.6745 * (v - med).abs() / mad
            } else {
                f64::INFINITY
            };
            // How many times worse: v over the median, or the median over v.
            let ratio = (v / others_med).max(others_med / v);
            if z > OUTLIER_Z && ratio >= OUTLIER_RATIO {
                out.push(outlier_finding(
                    cmp,
                    scales,
                    (w, m),
                    (c, *v),
                    &others,
                    ratio,
                ));
            }
        }
    }
    out
}

pub(super) fn outlier_finding(
    cmp: &Comparison,
    scales: &Scales,
    (w, m): (&Workload, Metric),
    (c, v): (&str, f64),
    others: &[f64],
    ratio: f64,
) -> Finding {
    let s = scales.get(m);
    let lo = others.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = others.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let how = match m.better() {
        Better::Lower => format!("{}x the others' median", numbers::fixed(ratio, 1)),
        Better::Higher => format!(
            "{} % below the others' median",
            numbers::fixed((1.0 - 1.0 / ratio) * 100.0, 0)
        ),
    };
    let text = format!(
        "Outlier: {c} {} {} {} is {how} (others {}–{})",
        cmp.title_of(w),
        m.human_at(cmp.tail_percentile),
        s.with_unit(v),
        s.format(lo),
        s.with_unit(hi)
    );
    // Far behind on throughput is mostly what the win and gap sentences
    // already say; latency or CPU far above the peers more often points at
    // something wrong with the run, which is what an outlier is for.
    let factor = match m.better() {
        Better::Lower => 1.0,
        Better::Higher => LOW_SIDE,
    };
    Finding::new(FindingKind::Outlier, text)
        .on(vec![cmp.title_of(w)], vec![m], vec![c.to_string()])
        .scored(magnitude(ratio - 1.0) * factor, ONE_WORKLOAD)
}
