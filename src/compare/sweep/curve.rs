//! The rules every sweep is read by, on a curve that knows nothing of what
//! was swept: points along an axis in units (I/Os in flight x devices for
//! a load sweep, bytes per I/O for a block-size sweep), the value judged
//! (IOPS, bandwidth), latency, and what is in flight. The rules return
//! indices into the curve and the figures they computed; the load sweep
//! and the block-size sweep each turn those into their own result types.
//! The rules in words are in the module docs of [`super`] and in
//! docs/CONTRACT.md.

use crate::compare::comparison::{Slo, SloMetric, SweepRules};

/// One point of a curve, in axis order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurvePoint {
    /// Where the point lies along the swept axis, in the axis' units
    /// (I/Os in flight x devices; bytes per I/O).
    pub x: u64,
    /// The value the rules judge: IOPS, or bytes/s.
    pub y: f64,
    pub lat_mean_ns: Option<f64>,
    pub clat_p99_ns: Option<f64>,
    /// What the point keeps in flight (I/Os; bytes for a block-size
    /// sweep). Latency is a knee's second signal only where this grows
    /// past the knee: more devices at one depth cannot queue more.
    pub in_flight: u64,
}

/// How the knee reads the axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// log2 where the points at least double from one to the next
    /// ([`log_axis`]), the units themselves otherwise.
    AsStepped,
    /// Always log2 of the units.
    Log2,
}

/// The curve's knee, found by [`knee`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KneeAt {
    /// Index of the knee; the next point of the curve is `index + 1`.
    pub index: usize,
    /// Mean latency at the knee, ns.
    pub lat_mean_ns: f64,
    /// The value gained past the knee (to its best later point), percent.
    pub gain_pct: f64,
    /// Mean latency grown from the knee to the last point, percent.
    pub lat_growth_pct: f64,
}

/// The most the curve gives under a latency target, found by [`at_slo`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SloAt {
    /// The measured point that meets the target (when interpolated, the
    /// one below it).
    pub index: usize,
    /// The value there, interpolated or measured.
    pub y: f64,
    /// Latency at that value: measured, or the target when interpolated.
    pub lat_ns: f64,
    /// When interpolated: the index of the first point above the target.
    pub upper: Option<usize>,
}

/// The largest value of the curve (0 for none).
fn top(curve: &[CurvePoint]) -> f64 {
    curve.iter().map(|p| p.y).fold(0.0, f64::max)
}

/// The floor of the noise band under a curve's peak: values below it are
/// really lower (`saturation_pct` of the peak).
fn band_floor(curve: &[CurvePoint], rules: &SweepRules) -> f64 {
    top(curve) * rules.saturation_pct / 100.0
}

/// The index of the largest value, the first of equal ones.
pub fn peak(curve: &[CurvePoint]) -> Option<usize> {
    curve
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.y.total_cmp(&b.1.y).then(b.0.cmp(&a.0)))
        .map(|(i, _)| i)
}

/// How many points make the rising part of the curve: up to the first
/// point after the peak that drops out of the noise band, that point
/// included.
pub fn rising(curve: &[CurvePoint], rules: &SweepRules) -> usize {
    let floor = band_floor(curve, rules);
    let Some(top) = peak(curve) else {
        return curve.len();
    };
    match curve[top..].iter().position(|p| p.y < floor) {
        Some(off) => top + off + 1,
        None => curve.len(),
    }
}

/// The last point, with how far it lies below the peak (percent), when it
/// lies below the noise band under the peak.
pub fn fall(curve: &[CurvePoint], rules: &SweepRules) -> Option<(usize, f64)> {
    let peak = top(curve);
    let last = curve.last()?;
    (peak > 0.0 && last.y < band_floor(curve, rules))
        .then(|| (curve.len() - 1, (1.0 - last.y / peak) * 100.0))
}

/// The first point at `saturation_pct` of the peak, with its value as a
/// percentage of the peak's.
pub fn saturation(curve: &[CurvePoint], rules: &SweepRules) -> Option<(usize, f64)> {
    let peak = top(curve);
    if peak <= 0.0 {
        return None;
    }
    let floor = peak * rules.saturation_pct / 100.0;
    let i = curve.iter().position(|p| p.y >= floor)?;
    Some((i, curve[i].y / peak * 100.0))
}

/// Whether a curve's loads double (or more) from point to point: such a
/// sweep is read and drawn on log2 of the load. Any step of less than 1.5x
/// (numjobs 1, 2, 3 ...) makes the axis linear.
pub fn log_axis(loads: &[u64]) -> bool {
    loads.len() >= 3
        && loads
            .windows(2)
            .all(|w| w[0] > 0 && w[1] as f64 >= 1.5 * w[0] as f64)
}

/// Kneedle's confirmed knee candidates, lightest first: indices of local
/// maxima of the difference curve after which it falls below the
/// candidate's value minus `sensitivity` x the mean normalized load step,
/// before it rises above the candidate again.
pub fn kneedle(xs: &[f64], ys: &[f64], sensitivity: f64) -> Vec<usize> {
    let n = xs.len();
    if n < 3 || ys.len() != n {
        return Vec::new();
    }
    let (Some(xn), Some(yn)) = (normalized(xs), normalized(ys)) else {
        return Vec::new();
    };
    let d: Vec<f64> = xn.iter().zip(&yn).map(|(x, y)| y - x).collect();
    let step = (xn[n - 1] - xn[0]) / (n - 1) as f64;
    (1..n - 1)
        .filter(|&i| d[i] > d[i - 1] && d[i] >= d[i + 1])
        .filter(|&i| confirmed(&d[i + 1..], d[i], d[i] - sensitivity * step))
        .collect()
}

/// `v` mapped onto 0..1, when it spans a finite range.
fn normalized(v: &[f64]) -> Option<Vec<f64>> {
    let (lo, hi) = v
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
            (lo.min(*x), hi.max(*x))
        });
    (hi > lo && hi.is_finite() && lo.is_finite())
        .then(|| v.iter().map(|x| (x - lo) / (hi - lo)).collect())
}

/// The difference curve after a candidate falls below `threshold` before
/// it rises above the candidate's `value`.
fn confirmed(after: &[f64], value: f64, threshold: f64) -> bool {
    for &d in after {
        if d > value {
            return false;
        }
        if d < threshold {
            return true;
        }
    }
    false
}

/// The knee of a rising curve: the first Kneedle candidate where the curve
/// rose (`knee_min_gain_pct`), turns flat (`knee_flatness_pct`) and, where
/// more is put in flight past it, latency grows (`knee_lat_growth_pct`).
pub fn knee(curve: &[CurvePoint], rules: &SweepRules, axis: Axis) -> Option<KneeAt> {
    let units: Vec<u64> = curve.iter().map(|p| p.x).collect();
    let xs: Vec<f64> = if axis == Axis::Log2 || log_axis(&units) {
        units.iter().map(|l| (*l as f64).log2()).collect()
    } else {
        units.iter().map(|l| *l as f64).collect()
    };
    let ys: Vec<f64> = curve.iter().map(|p| p.y).collect();
    if top(curve) <= 0.0 {
        return None;
    }
    kneedle(&xs, &ys, rules.knee_sensitivity)
        .into_iter()
        .find_map(|i| checked(curve, &xs, i, rules))
}

/// Candidate `i` of Kneedle with the knee's three checks asked of it.
fn checked(curve: &[CurvePoint], xs: &[f64], i: usize, rules: &SweepRules) -> Option<KneeAt> {
    let (first, k, last) = (curve.first()?, &curve[i], curve.last()?);
    let (x0, xn) = (xs[0], xs[xs.len() - 1]);
    // Without latency the second signal cannot be read: no knee.
    let (lat, lat_last) = (k.lat_mean_ns?, last.lat_mean_ns?);
    if lat <= 0.0 || k.y <= 0.0 || xs[i] <= x0 || xn <= xs[i] {
        return None;
    }
    let later_best = curve[i + 1..].iter().map(|p| p.y).fold(0.0, f64::max);
    // Slopes in value per unit of the axis, before and after.
    let before = (k.y - first.y) / (xs[i] - x0);
    let after = (later_best - k.y).max(0.0) / (xn - xs[i]);
    let growth = lat_last / lat - 1.0;
    let load_growth = last.x as f64 / k.x.max(1) as f64 - 1.0;
    let rose = k.y >= first.y * (1.0 + rules.knee_min_gain_pct / 100.0);
    let flat = after <= before * rules.knee_flatness_pct / 100.0;
    // A plateau's latency grows as its load does (Little's law): the
    // threshold is asked of a tail that at least doubles the load, a
    // shorter one in proportion to the load it adds.
    let asked = rules.knee_lat_growth_pct / 100.0 * load_growth.min(1.0);
    // More devices at the same I/Os in flight cannot queue more: there the
    // curve alone tells the knee.
    let queues = growth > asked || last.in_flight <= k.in_flight;
    (rose && flat && queues).then(|| KneeAt {
        index: i,
        lat_mean_ns: lat,
        gain_pct: (later_best / k.y - 1.0).max(0.0) * 100.0,
        lat_growth_pct: growth * 100.0,
    })
}

fn latency_of(p: &CurvePoint, m: SloMetric) -> Option<f64> {
    match m {
        SloMetric::ClatP99 => p.clat_p99_ns,
        SloMetric::LatMean => p.lat_mean_ns,
    }
}

/// The most value of any point whose latency meets the target, or where
/// the straight line from a point that meets it to the next, which misses
/// it, crosses the target; the first of equal ones.
pub fn at_slo(curve: &[CurvePoint], slo: Slo) -> Option<SloAt> {
    let mut best: Option<SloAt> = None;
    let mut consider = |cand: SloAt| {
        if best.is_none_or(|b| cand.y > b.y) {
            best = Some(cand);
        }
    };
    for (i, p) in curve.iter().enumerate() {
        let Some(lat) = latency_of(p, slo.metric).filter(|l| *l <= slo.target_ns) else {
            continue;
        };
        let measured = SloAt {
            index: i,
            y: p.y,
            lat_ns: lat,
            upper: None,
        };
        consider(measured);
        let Some(next) = curve.get(i + 1) else {
            continue;
        };
        let Some(next_lat) = latency_of(next, slo.metric) else {
            continue;
        };
        if next_lat > slo.target_ns && next_lat > lat {
            let t = (slo.target_ns - lat) / (next_lat - lat);
            consider(SloAt {
                y: p.y + t * (next.y - p.y),
                lat_ns: slo.target_ns,
                upper: Some(i + 1),
                ..measured
            });
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A curve at doubling x with `ys` and mean latency `lats` (ns), in
    /// flight growing with x; p99 twice the mean.
    fn curve(ys: &[f64], lats: &[f64]) -> Vec<CurvePoint> {
        ys.iter()
            .zip(lats)
            .enumerate()
            .map(|(i, (y, lat))| CurvePoint {
                x: 1 << i,
                y: *y,
                lat_mean_ns: Some(*lat),
                clat_p99_ns: Some(2.0 * lat),
                in_flight: 1 << i,
            })
            .collect()
    }

    /// Latency as Little's law gives it: what is in flight over the rate.
    fn little(ys: &[f64]) -> Vec<f64> {
        ys.iter()
            .enumerate()
            .map(|(i, y)| (1u64 << i) as f64 / y * 1e9)
            .collect()
    }

    #[test]
    fn a_curve_that_rises_then_plateaus_has_its_knee_and_saturation_at_the_bend() {
        let ys = [10.0, 20.0, 40.0, 78.0, 80.0, 81.0];
        let c = curve(&ys, &little(&ys));
        let rules = SweepRules::default();
        assert_eq!(rising(&c, &rules), 6);
        assert_eq!(peak(&c), Some(5));
        // 95 % of 81 is 76.95: 78 is the first to reach it.
        let (i, pct) = saturation(&c, &rules).unwrap();
        assert_eq!(i, 3);
        assert!((pct - 78.0 / 81.0 * 100.0).abs() < 1e-9);
        let k = knee(&c, &rules, Axis::Log2).unwrap();
        assert_eq!(k.index, 3);
        assert!((k.gain_pct - (81.0 / 78.0 - 1.0) * 100.0).abs() < 1e-9);
        assert_eq!(fall(&c, &rules), None);
    }

    #[test]
    fn a_curve_still_rising_has_no_knee_and_saturates_at_its_end() {
        let ys = [10.0, 20.0, 40.0, 80.0, 160.0];
        let c = curve(&ys, &little(&ys));
        let rules = SweepRules::default();
        assert_eq!(knee(&c, &rules, Axis::Log2), None);
        assert_eq!(saturation(&c, &rules).map(|s| s.0), Some(4));
    }

    #[test]
    fn a_curve_that_falls_is_judged_on_its_rising_part() {
        let ys = [10.0, 40.0, 100.0, 101.0, 70.0, 60.0];
        let c = curve(&ys, &little(&ys));
        let rules = SweepRules::default();
        // The rise ends at the first point below 95.95, 70 at index 4.
        assert_eq!(rising(&c, &rules), 5);
        let (i, pct) = fall(&c, &rules).unwrap();
        assert_eq!(i, 5);
        assert!((pct - (1.0 - 60.0 / 101.0) * 100.0).abs() < 1e-9);
    }

    #[test]
    fn without_latency_growth_there_is_no_knee_unless_nothing_more_is_in_flight() {
        let ys = [10.0, 20.0, 40.0, 78.0, 80.0, 81.0];
        // Latency flat: more in flight past the bend does not queue.
        let mut c = curve(&ys, &[100.0; 6]);
        let rules = SweepRules::default();
        assert_eq!(knee(&c, &rules, Axis::Log2), None);
        // The same curve at one number in flight (devices): the curve
        // alone places the knee.
        for p in &mut c {
            p.in_flight = 8;
        }
        assert_eq!(knee(&c, &rules, Axis::Log2).map(|k| k.index), Some(3));
    }

    #[test]
    fn the_slo_answer_interpolates_between_the_points_around_the_target() {
        let ys = [10.0, 20.0, 30.0];
        let c = curve(&ys, &[100.0, 200.0, 400.0]);
        // p99 200, 400, 800: a target of 600 lies halfway from 400 to 800.
        let slo = Slo {
            metric: SloMetric::ClatP99,
            target_ns: 600.0,
            percentile: 99.0,
        };
        let a = at_slo(&c, slo).unwrap();
        assert_eq!((a.index, a.upper), (1, Some(2)));
        assert!((a.y - 25.0).abs() < 1e-9);
        assert_eq!(a.lat_ns, 600.0);
        let none = Slo {
            target_ns: 100.0,
            ..slo
        };
        assert_eq!(at_slo(&c, none), None);
    }
}
