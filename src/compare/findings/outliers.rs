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
use super::words::{figure, figure_range};
use indexmap::IndexMap;

use crate::compare::comparison::{Better, Comparison, Metric, Workload};
use crate::compare::findings::{Finding, FindingKind, ONE_WORKLOAD, magnitude};
use crate::compare::workload::{LoadPoint, Shape};
use crate::numbers;

/// Modified z-score above which a value is an outlier (Iglewicz-Hoaglin).
pub const OUTLIER_Z: f64 = 3.5;

/// ...and the least ratio to the others' median it must also reach.
pub const OUTLIER_RATIO: f64 = 1.5;

/// What an outlier far behind on bandwidth or IOPS counts, against one far
/// above its peers on latency or CPU.
pub(super) const LOW_SIDE: f64 = 0.7;

/// How far an outlier must stand from the nearest other config (times
/// its value): a p99 of 9.11 ms beside another config's 8.72 ms is not
/// apart from the others, whatever the median says.
pub const APART_RATIO: f64 = 1.25;

/// One outlying value: where, whose, how far off.
struct Outlying<'a> {
    w: &'a Workload,
    m: Metric,
    config: String,
    value: f64,
    /// The others' lowest and highest value.
    others: (f64, f64),
    ratio: f64,
}

/// The values of every config but one: a sorted list of all of them less
/// the one value's place in it.
struct Others<'a> {
    sorted: &'a [f64],
    /// The left-out value's index in `sorted`; None when it is not there
    /// (not finite), and then the others are all of `sorted`.
    at: Option<usize>,
}

impl<'a> Others<'a> {
    fn of(sorted: &'a [f64], v: f64) -> Others<'a> {
        let i = sorted.partition_point(|x| x.total_cmp(&v).is_lt());
        let at = (sorted.get(i).is_some_and(|x| x.total_cmp(&v).is_eq())).then_some(i);
        Others { sorted, at }
    }

    fn len(&self) -> usize {
        self.sorted.len() - usize::from(self.at.is_some())
    }

    /// The k-th smallest of the others.
    fn get(&self, k: usize) -> f64 {
        match self.at {
            Some(i) if k >= i => self.sorted[k + 1],
            _ => self.sorted[k],
        }
    }

    /// Their median ([`numbers::median`] of them).
    fn median(&self) -> Option<f64> {
        let n = self.len();
        match n {
            0 => None,
            _ if n % 2 == 1 => Some(self.get(n / 2)),
            _ => Some((self.get(n / 2 - 1) + self.get(n / 2)) / 2.0),
        }
    }

    /// Their lowest and highest.
    fn range(&self) -> (f64, f64) {
        match self.len() {
            0 => (f64::INFINITY, f64::NEG_INFINITY),
            n => (self.get(0), self.get(n - 1)),
        }
    }

    /// How many times apart `v` is from the nearest of them: one of its
    /// two neighbours in the sorted list.
    fn nearest_ratio(&self, v: f64) -> f64 {
        let i = self
            .at
            .unwrap_or_else(|| self.sorted.partition_point(|x| *x < v));
        let neighbours = [i.checked_sub(1), Some(i)];
        neighbours
            .into_iter()
            .flatten()
            .filter(|&k| k < self.len())
            .map(|k| self.get(k))
            .map(|o| (v / o).max(o / v))
            .fold(f64::INFINITY, f64::min)
    }
}

/// 7: outliers by the median absolute deviation (module docs). Needs four
/// values at least: among three, "far from the median" is just "different".
/// One finding per config, shape and metric across load points.
pub(super) fn outliers(cmp: &Comparison) -> Vec<Finding> {
    let mut found: IndexMap<(String, &Shape, Metric), Vec<Outlying>> = IndexMap::new();
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
        // The others of each config read from one sorted list, not copied
        // and sorted once per config (quadratic at 10,000 configs, #55).
        let mut sorted: Vec<f64> = all.iter().copied().filter(|v| v.is_finite()).collect();
        sorted.sort_by(f64::total_cmp);
        for (c, v) in &vals {
            let others = Others::of(&sorted, *v);
            let others_med = others.median().unwrap_or(0.0);
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
            let nearest = others.nearest_ratio(*v);
            if z > OUTLIER_Z && ratio >= OUTLIER_RATIO && nearest >= APART_RATIO {
                found
                    .entry((c.to_string(), &w.key.shape, m))
                    .or_default()
                    .push(Outlying {
                        w,
                        m,
                        config: c.to_string(),
                        value: *v,
                        others: others.range(),
                        ratio,
                    });
            }
        }
    }
    found
        .into_values()
        .map(|group| match group.as_slice() {
            [one] => outlier_finding(cmp, one),
            many => outliers_across_loads(cmp, many),
        })
        .collect()
}

/// Far behind on throughput is mostly what the win and gap sentences
/// already say; latency or CPU far above the peers more often points at
/// something wrong with the run, which is what an outlier is for.
fn side_factor(m: Metric) -> f64 {
    match m.better() {
        Better::Lower => 1.0,
        Better::Higher => LOW_SIDE,
    }
}

/// "7.0x the others' median", "36 % below the others' median".
fn how_far(m: Metric, ratio: f64) -> String {
    match m.better() {
        Better::Lower => format!("{}x", numbers::fixed(ratio, 1)),
        Better::Higher => format!("{} % below", numbers::fixed((1.0 - 1.0 / ratio) * 100.0, 0)),
    }
}

fn outlier_finding(cmp: &Comparison, o: &Outlying) -> Finding {
    let (w, m) = (o.w, o.m);
    let (lo, hi) = o.others;
    let text = format!(
        "Outlier: {} {} {} {} is {} the others' median (others {})",
        o.config,
        cmp.title_of(w),
        m.human_at(cmp.tail_percentile),
        figure(&cmp.units, m, o.value),
        how_far(m, o.ratio),
        figure_range(&cmp.units, m, lo, hi)
    );
    Finding::new(FindingKind::Outlier, text)
        .on(vec![cmp.title_of(w)], vec![m], vec![o.config.clone()])
        .scored(magnitude(o.ratio - 1.0) * side_factor(m), ONE_WORKLOAD)
}

/// "Outlier: bfq's p99 latency in randread 4k stands apart at QD128 x 11
/// and 12 jobs: 5.08–9.11 ms, 2.9x–7.0x the others' median": one sentence
/// for the load points where the same config is off on the same metric.
fn outliers_across_loads(cmp: &Comparison, group: &[Outlying]) -> Finding {
    let first = &group[0];
    let m = first.m;
    let loads: Vec<LoadPoint> = group.iter().map(|o| o.w.key.load).collect();
    let lo = group.iter().map(|o| o.value).fold(f64::INFINITY, f64::min);
    let hi = group
        .iter()
        .map(|o| o.value)
        .fold(f64::NEG_INFINITY, f64::max);
    let r_lo = group.iter().map(|o| o.ratio).fold(f64::INFINITY, f64::min);
    let r_hi = group
        .iter()
        .map(|o| o.ratio)
        .fold(f64::NEG_INFINITY, f64::max);
    let far = if how_far(m, r_lo) == how_far(m, r_hi) {
        how_far(m, r_hi)
    } else {
        format!(
            "{}–{}",
            how_far(m, r_lo).trim_end_matches(" below"),
            how_far(m, r_hi)
        )
    };
    let text = format!(
        "Outlier: {}'s {} in {} stands apart at {}: {}, {far} the others' median",
        first.config,
        m.human_at(cmp.tail_percentile),
        first.w.title(),
        LoadPoint::condense(&loads),
        figure_range(&cmp.units, m, lo, hi)
    );
    Finding::new(FindingKind::Outlier, text)
        .on(
            group.iter().map(|o| cmp.title_of(o.w)).collect(),
            vec![m],
            vec![first.config.clone()],
        )
        .scored(magnitude(r_hi - 1.0) * side_factor(m), ONE_WORKLOAD)
}

#[cfg(test)]
mod others_tests {
    use super::Others;
    use crate::numbers;

    /// Each value's others read from the sorted list agree with the others
    /// copied and sorted for it, as the rule read them before.
    #[test]
    fn others_from_the_sorted_list_are_the_copied_others() {
        let sets: [&[f64]; 4] = [
            &[5.0, 1.0, 3.0, 3.0, 9.0],
            &[2.0, 2.0, 2.0, 2.0],
            &[10.0, 0.0, 4.0, 7.5, 1e6, 3.2],
            &[1.0, 2.0],
        ];
        for vals in sets {
            let mut sorted = vals.to_vec();
            sorted.sort_by(f64::total_cmp);
            for (i, &v) in vals.iter().enumerate() {
                let copied: Vec<f64> = vals
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, x)| *x)
                    .collect();
                let o = Others::of(&sorted, v);
                assert_eq!(
                    o.median(),
                    numbers::median(copied.iter().copied()),
                    "{vals:?} {v}"
                );
                let lo = copied.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = copied.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                assert_eq!(o.range(), (lo, hi), "{vals:?} {v}");
                let nearest = copied
                    .iter()
                    .map(|o| (v / o).max(o / v))
                    .fold(f64::INFINITY, f64::min);
                assert_eq!(o.nearest_ratio(v), nearest, "{vals:?} {v}");
            }
        }
    }
}
