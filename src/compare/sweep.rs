//! Sweeps: one config's results for one rw/bs/rwmixread/direction at two
//! or more load points, with its peak, its knee, where it saturates and the
//! IOPS it sustains under a latency target. Built from the compared
//! workloads, so a point's values are exactly the ones in the
//! per-load-point tables.
//!
//! The rules, spelled out so a reviewer can defend them:
//!
//! - **Load order.** Points are ordered by I/Os in flight (iodepth x numjobs
//!   x hosts), times the devices each job spreads over (`LoadPoint::units`:
//!   a devices sweep at one depth orders by devices). Where a grid reaches the same number in several ways (QD8 x
//!   2 jobs and QD4 x 4 jobs), the one with the most IOPS stands for it: the
//!   curve is the best way to reach each load.
//! - **Load axis.** A sweep whose loads at least double from point to point
//!   (QD1, 2, 4 ... 128) is read on log2 of the load, any other (numjobs
//!   1, 2, 3 ... 20, mixed lists) on the load itself: the axis a person
//!   would draw it on ([`log_axis`]), for the knee and for the charts.
//! - **Peak and fall.** The peak is the point of most IOPS. A curve that
//!   rises, peaks and falls (too many jobs for the scheduler's lock, say)
//!   has a `fall` when its heaviest load lies below `saturation_pct` of
//!   the peak: more than the noise band that saturation allows. Knee and
//!   saturation are read on the rising part only: the curve up to where it
//!   first drops out of that band after the peak, plus that first point
//!   (a knee needs a point after it).
//! - **Saturation.** The lightest load point whose IOPS reach
//!   `saturation_pct` (default 95 %) of the config's peak: how much load
//!   the config needs to deliver what it can. Robust to a noisy plateau,
//!   whose highest point may lie anywhere on it.
//! - **Knee.** Kneedle (Satopää, Albrecht, Irwin, Raghavan: "Finding a
//!   'Kneedle' in a Haystack", ICDCS Workshops 2011,
//!   <https://doi.org/10.1109/ICDCSW.2011.20>) on IOPS against the load
//!   axis: both normalized to 0..1, the knee candidates are the local
//!   maxima of the difference curve (normalized IOPS minus normalized
//!   load) that the curve then falls below by S x the mean load step
//!   (sensitivity S = 1, the paper's; no smoothing). The knee is the
//!   lightest candidate where the curve really bends: its IOPS are at least
//!   `knee_min_gain_pct` (10 %) above the lightest point's (it rose to get
//!   there); past it the curve climbs (to its best later point) at most
//!   `knee_flatness_pct` (33 %) as steeply as it did up to it, on the load
//!   axis; and mean latency grows from it to the heaviest load by more than
//!   `knee_lat_growth_pct` (50 %), the second signal that more load only
//!   queues. That is asked of a sweep that goes on to at least double the
//!   load past the point; a shorter tail (a plateau reached late: 15 to 20
//!   jobs add 33 %) is asked it in proportion to the load it adds, since on
//!   a plateau latency grows only as the load does (Little's law).
//!   A devices sweep at one depth puts no more I/Os in flight, so there
//!   the curve alone places the knee. A curve that never flattens (linear, or still climbing like a
//!   square root) has none; one that is flat from the start saturates at
//!   its lightest point and has no knee within the sweep.
//! - **IOPS at a latency target** (`--slo clat_p99=1ms`). The most IOPS of
//!   any point whose latency meets the target, or, between a point that
//!   meets it and the next that misses it, the IOPS where the straight line
//!   between them crosses the target (marked `interpolated`). None when no
//!   point meets it.

use indexmap::IndexMap;

use super::comparison::{
    AtSlo, Comparison, Fall, Knee, Metric, Peak, Saturation, Slo, SloMetric, Sweep, SweepPoint,
    SweepRules, Workload,
};
use super::workload::{LoadPoint, Shape, WorkloadKey};
use curve::{Axis, CurvePoint};
pub use curve::{kneedle, log_axis};

pub mod blocksize;
pub mod curve;

/// Every sweep of the comparison, in workload order, configs in display
/// order. Where a shape ran as fio instances side by side at several
/// loads (a QD1 probe beside N QD128 apps), each of those loads is its own
/// sweep along `instances`: the probe's points and the apps' ran at the
/// same time, they are not two ways to one load.
pub fn build(cmp: &Comparison) -> Vec<Sweep> {
    let mut by_shape: IndexMap<&Shape, Vec<&Workload>> = IndexMap::new();
    for w in &cmp.workloads {
        by_shape.entry(&w.key.shape).or_default().push(w);
    }
    let mut out = Vec::new();
    for (shape, workloads) in by_shape {
        let apart = workloads.iter().any(|w| w.key.load.instances > 1);
        let mut series: IndexMap<Option<LoadPoint>, Vec<&Workload>> = IndexMap::new();
        for w in workloads {
            let held = apart.then(|| alone(w.key.load));
            series.entry(held).or_default().push(w);
        }
        for workloads in series.values() {
            for config in &cmp.configs {
                let points: Vec<SweepPoint> =
                    workloads.iter().filter_map(|w| point(w, config)).collect();
                if points.len() < 2 {
                    continue;
                }
                out.push(sweep(config, shape, points, &cmp.sweep_rules));
            }
        }
    }
    out
}

/// The load without its instances count.
fn alone(load: LoadPoint) -> LoadPoint {
    LoadPoint {
        instances: 1,
        ..load
    }
}

/// The load a sweep along `instances` holds (its points' load, one
/// instance); None for any other sweep.
pub fn held(s: &Sweep) -> Option<LoadPoint> {
    (s.axis == "instances").then(|| alone(s.points[0].load))
}

/// Whether a workload is a point of sweep `s`'s curve (its shape, and its
/// held load for a sweep along instances).
pub fn covers(s: &Sweep, key: &WorkloadKey) -> bool {
    s.shape == key.shape && held(s).is_none_or(|h| alone(key.load) == h)
}

/// What a sweep table or sentence calls the sweeps of one shape:
/// `randread 4k`, with the held load of a sweep along instances
/// (`randread 4k QD1 x 8 devices`).
pub fn title(shape: &Shape, sweeps: &[&Sweep]) -> String {
    match sweeps.first().and_then(|s| held(s)) {
        Some(h) => format!("{} {}", shape.title(), h.label()),
        None => shape.title(),
    }
}

/// The sweeps grouped by shape (and held load, [`held`]), shapes in
/// workload order, configs in display order: what a sweep table or a
/// sweep's sentences cover.
pub fn by_shape(cmp: &Comparison) -> Vec<(Shape, Vec<&Sweep>)> {
    let mut out: Vec<(Shape, Vec<&Sweep>)> = Vec::new();
    for s in &cmp.sweeps {
        match out
            .iter_mut()
            .find(|(sh, v)| *sh == s.shape && held(v[0]) == held(s))
        {
            Some((_, v)) => v.push(s),
            None => out.push((s.shape.clone(), vec![s])),
        }
    }
    out
}

/// One config's values at one workload's load point.
fn point(w: &Workload, config: &str) -> Option<SweepPoint> {
    // An excluded value (fio measured it wrongly) is no point of a curve.
    let value = |m: Metric| w.metric(m).and_then(|r| r.value(config));
    Some(SweepPoint {
        load: w.key.load,
        effective_iodepth: w.effective_iodepth.get(config).copied(),
        iops: value(Metric::Iops)?,
        bw_bytes_per_s: value(Metric::BwBytesPerS)?,
        lat_mean_ns: value(Metric::LatMeanNs),
        clat_p99_ns: value(Metric::ClatP99Ns),
    })
}

fn sweep(config: &str, shape: &Shape, points: Vec<SweepPoint>, rules: &SweepRules) -> Sweep {
    let loads = curve(&points);
    let line: Vec<CurvePoint> = loads.iter().map(|p| on_curve(p)).collect();
    let rise = &line[..curve::rising(&line, rules)];
    let at = |i: usize| loads[i].load;
    Sweep {
        config: config.to_string(),
        shape: shape.clone(),
        axis: axis(&points),
        peak: peak(&points),
        knee: curve::knee(rise, rules, Axis::AsStepped).map(|k| Knee {
            load: at(k.index),
            iops: line[k.index].y,
            lat_mean_ns: k.lat_mean_ns,
            next_iodepth: at(k.index + 1).iodepth,
            next_numjobs: at(k.index + 1).numjobs,
            iops_gain_pct: k.gain_pct,
            lat_growth_pct: k.lat_growth_pct,
        }),
        saturation: curve::saturation(rise, rules).map(|(i, pct)| Saturation {
            load: at(i),
            iops: line[i].y,
            pct_of_peak: pct,
        }),
        at_slo: rules
            .slo
            .and_then(|slo| Some((slo, curve::at_slo(&line, slo)?)))
            .map(|(slo, a)| {
                let up = a.upper.map(at);
                // Hosts, devices and instances only where not 1, as a
                // load point's own fields are.
                let beyond_one = |f: fn(&LoadPoint) -> u32| up.as_ref().map(f).filter(|n| *n != 1);
                AtSlo {
                    metric: slo.metric,
                    target_ns: slo.target_ns,
                    iops: a.y,
                    lat_ns: a.lat_ns,
                    interpolated: up.is_some(),
                    load: at(a.index),
                    upper_iodepth: up.map(|u| u.iodepth),
                    upper_numjobs: up.map(|u| u.numjobs),
                    upper_hosts: beyond_one(|u| u.hosts),
                    upper_devices: beyond_one(|u| u.devices),
                    upper_instances: beyond_one(|u| u.instances),
                }
            }),
        fall: curve::fall(&line, rules).map(|(i, pct)| Fall {
            load: at(i),
            iops: line[i].y,
            pct_below_peak: pct,
        }),
        points,
    }
}

/// A load point on the generic curve: IOPS against I/Os in flight times
/// devices; I/Os in flight for the knee's latency signal.
fn on_curve(p: &SweepPoint) -> CurvePoint {
    CurvePoint {
        x: p.load.units(),
        y: p.iops,
        lat_mean_ns: p.lat_mean_ns,
        clat_p99_ns: p.clat_p99_ns,
        in_flight: p.load.outstanding(),
    }
}

/// Which of iodepth, numjobs, hosts, devices and instances vary.
fn axis(points: &[SweepPoint]) -> String {
    let varies = |f: fn(&SweepPoint) -> u32| points.iter().any(|p| f(p) != f(&points[0]));
    let mut parts = Vec::new();
    if varies(|p| p.load.iodepth) {
        parts.push("iodepth");
    }
    if varies(|p| p.load.numjobs) {
        parts.push("numjobs");
    }
    if varies(|p| p.load.hosts) {
        parts.push("hosts");
    }
    if varies(|p| p.load.devices) {
        parts.push("devices");
    }
    if varies(|p| p.load.instances) {
        parts.push("instances");
    }
    parts.join("+")
}

fn peak(points: &[SweepPoint]) -> Peak {
    let best = points
        .iter()
        .max_by(|a, b| a.iops.total_cmp(&b.iops).then(b.load.cmp(&a.load)))
        .expect("a sweep has points");
    Peak {
        iops: best.iops,
        load: best.load,
    }
}

/// The points in load order, one per number of I/Os in flight (the best).
pub fn curve(points: &[SweepPoint]) -> Vec<&SweepPoint> {
    let mut best: IndexMap<u64, &SweepPoint> = IndexMap::new();
    for p in points {
        let slot = best.entry(p.load.units()).or_insert(p);
        if p.iops > slot.iops {
            *slot = p;
        }
    }
    let mut curve: Vec<&SweepPoint> = best.into_values().collect();
    curve.sort_by_key(|p| (p.load.units(), p.load));
    curve
}

/// `clat_p99=1ms`, `lat_mean=250us`, `p99=2ms`, and any completion-latency
/// percentile fio printed: `clat_p95=1ms`, `clat_p99.9=5ms` (or
/// `clat_p99_9`, as the dataset's columns spell it).
pub fn parse_slo(s: &str) -> Result<Slo, String> {
    let (metric, target) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}`: expected METRIC=TIME, e.g. clat_p99=1ms"))?;
    let name = metric.trim().to_ascii_lowercase();
    let pct = Metric::percentile_named(&name);
    let (metric, percentile) = match (name.as_str(), pct) {
        (_, Some(p)) => (SloMetric::ClatP99, p),
        ("lat_mean" | "lat" | "mean" | "lat_mean_ns", _) => {
            (SloMetric::LatMean, super::workload::P99)
        }
        (other, None) => {
            return Err(format!(
                "`{other}`: unknown latency metric (use clat_pNN such as clat_p99 or clat_p95, or lat_mean)"
            ));
        }
    };
    let target_ns = crate::units::parse_duration_ns(target)
        .filter(|t| *t > 0.0)
        .ok_or_else(|| {
            format!("`{target}`: expected a positive time such as 1ms, 500us, 2000ns")
        })?;
    Ok(Slo {
        metric,
        target_ns,
        percentile,
    })
}

/// "p99 ≤ 0.5 ms": a latency target as the sweep tables and the
/// saturation chart print it, in the report's latency unit.
pub fn slo_target_text(slo: &Slo, units: &super::report_units::ReportUnits) -> String {
    let (metric, target_ns) = (slo.metric, slo.target_ns);
    let name = match metric {
        SloMetric::ClatP99 => super::workload::tail_name(slo.percentile),
        SloMetric::LatMean => "mean latency".into(),
    };
    let target = Metric::LatMeanNs.scale_in(units).with_unit(target_ns);
    format!("{name} ≤ {target}")
}

#[cfg(test)]
mod tests;
