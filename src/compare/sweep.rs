//! Sweeps: one config's results for one rw/bs/rwmixread/direction at two
//! or more load points, with its peak, its knee and the IOPS it sustains
//! under a latency target. Built from the compared workloads, so a point's
//! values are exactly the ones in the per-load-point tables.
//!
//! The rules, spelled out so a reviewer can defend them:
//!
//! - **Load order.** Points are ordered by I/Os in flight (iodepth x numjobs
//!   x hosts). Where a grid reaches the same number in several ways (QD8 x
//!   2 jobs and QD4 x 4 jobs), the one with the most IOPS stands for it: the
//!   curve is the best way to reach each load.
//! - **Knee** (saturation). The knee is the last point before one more step
//!   buys less than `knee_min_gain_pct` IOPS (default 10 %) while mean
//!   latency grows by more than `knee_lat_growth_pct` (default 50 %), and
//!   no later point beats the knee's IOPS by more than that gain (so a
//!   noisy dip is not called saturation). None when the curve never bends
//!   that way within the sweep.
//! - **IOPS at a latency target** (`--slo clat_p99=1ms`). The most IOPS of
//!   any point whose latency meets the target, or, between a point that
//!   meets it and the next that misses it, the IOPS where the straight line
//!   between them crosses the target (marked `interpolated`). None when no
//!   point meets it.

use indexmap::IndexMap;

use super::model::{
    AtSlo, Comparison, Knee, Metric, Peak, Slo, SloMetric, Sweep, SweepPoint, SweepRules, Workload,
};
use super::workload::Shape;

/// Every sweep of the comparison, in workload order, configs in display
/// order.
pub fn build(cmp: &Comparison) -> Vec<Sweep> {
    let mut by_shape: IndexMap<Shape, Vec<&Workload>> = IndexMap::new();
    for w in &cmp.workloads {
        by_shape.entry(w.shape()).or_default().push(w);
    }
    let mut out = Vec::new();
    for (shape, workloads) in by_shape {
        for config in &cmp.configs {
            let points: Vec<SweepPoint> =
                workloads.iter().filter_map(|w| point(w, config)).collect();
            if points.len() < 2 {
                continue;
            }
            out.push(sweep(config, &shape, points, &cmp.sweep_rules));
        }
    }
    out
}

/// The sweeps grouped by shape, shapes in workload order, configs in
/// display order: what a sweep table or a sweep's sentences cover.
pub fn by_shape(cmp: &Comparison) -> Vec<(Shape, Vec<&Sweep>)> {
    let mut out: Vec<(Shape, Vec<&Sweep>)> = Vec::new();
    for s in &cmp.sweeps {
        let shape = s.shape();
        match out.iter_mut().find(|(sh, _)| *sh == shape) {
            Some((_, v)) => v.push(s),
            None => out.push((shape, vec![s])),
        }
    }
    out
}

/// One config's values at one workload's load point.
fn point(w: &Workload, config: &str) -> Option<SweepPoint> {
    let value = |m: Metric| {
        w.metric(m)
            .and_then(|r| r.values.get(config).copied().flatten())
    };
    Some(SweepPoint {
        iodepth: w.iodepth,
        numjobs: w.numjobs,
        hosts: w.hosts,
        effective_iodepth: w.effective_iodepth.get(config).copied(),
        iops: value(Metric::Iops)?,
        bw_bytes_per_s: value(Metric::BwBytesPerS)?,
        lat_mean_ns: value(Metric::LatMeanNs),
        clat_p99_ns: value(Metric::ClatP99Ns),
    })
}

fn sweep(config: &str, shape: &Shape, points: Vec<SweepPoint>, rules: &SweepRules) -> Sweep {
    let curve = curve(&points);
    Sweep {
        config: config.to_string(),
        rw: shape.rw.clone(),
        bs_bytes: shape.bs_bytes,
        direction: shape.direction,
        rwmixread: shape.rwmixread,
        axis: axis(&points),
        peak: peak(&points),
        knee: knee(&curve, rules),
        at_slo: rules.slo.and_then(|slo| at_slo(&curve, slo)),
        points,
    }
}

/// Which of hosts, numjobs and iodepth vary.
fn axis(points: &[SweepPoint]) -> String {
    let varies = |f: fn(&SweepPoint) -> u32| points.iter().any(|p| f(p) != f(&points[0]));
    let mut parts = Vec::new();
    if varies(|p| p.iodepth) {
        parts.push("iodepth");
    }
    if varies(|p| p.numjobs) {
        parts.push("numjobs");
    }
    if varies(|p| p.hosts) {
        parts.push("hosts");
    }
    parts.join("+")
}

fn peak(points: &[SweepPoint]) -> Peak {
    let best = points
        .iter()
        .max_by(|a, b| a.iops.total_cmp(&b.iops).then(b.load().cmp(&a.load())))
        .expect("a sweep has points");
    Peak {
        iops: best.iops,
        iodepth: best.iodepth,
        numjobs: best.numjobs,
    }
}

/// The points in load order, one per number of I/Os in flight (the best).
pub fn curve(points: &[SweepPoint]) -> Vec<&SweepPoint> {
    let mut best: IndexMap<u64, &SweepPoint> = IndexMap::new();
    for p in points {
        let slot = best.entry(p.load().outstanding()).or_insert(p);
        if p.iops > slot.iops {
            *slot = p;
        }
    }
    let mut curve: Vec<&SweepPoint> = best.into_values().collect();
    curve.sort_by_key(|p| (p.load().outstanding(), p.load()));
    curve
}

fn knee(curve: &[&SweepPoint], rules: &SweepRules) -> Option<Knee> {
    let gain_max = rules.knee_min_gain_pct / 100.0;
    let growth_min = rules.knee_lat_growth_pct / 100.0;
    for (i, pair) in curve.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        let (Some(la), Some(lb)) = (a.lat_mean_ns, b.lat_mean_ns) else {
            continue;
        };
        if a.iops <= 0.0 || la <= 0.0 {
            continue;
        }
        let gain = b.iops / a.iops - 1.0;
        let growth = lb / la - 1.0;
        let later_best = curve[i + 1..].iter().map(|p| p.iops).fold(0.0, f64::max);
        if gain < gain_max && growth > growth_min && later_best <= a.iops * (1.0 + gain_max) {
            return Some(Knee {
                iodepth: a.iodepth,
                numjobs: a.numjobs,
                iops: a.iops,
                lat_mean_ns: la,
                next_iodepth: b.iodepth,
                next_numjobs: b.numjobs,
                iops_gain_pct: gain * 100.0,
                lat_growth_pct: growth * 100.0,
            });
        }
    }
    None
}

fn latency_of(p: &SweepPoint, m: SloMetric) -> Option<f64> {
    match m {
        SloMetric::ClatP99 => p.clat_p99_ns,
        SloMetric::LatMean => p.lat_mean_ns,
    }
}

fn at_slo(curve: &[&SweepPoint], slo: Slo) -> Option<AtSlo> {
    let measured = |p: &SweepPoint, lat: f64| AtSlo {
        metric: slo.metric,
        target_ns: slo.target_ns,
        iops: p.iops,
        lat_ns: lat,
        interpolated: false,
        iodepth: p.iodepth,
        numjobs: p.numjobs,
        upper_iodepth: None,
        upper_numjobs: None,
    };
    let mut best: Option<AtSlo> = None;
    let mut consider = |cand: AtSlo| {
        if best.is_none_or(|b| cand.iops > b.iops) {
            best = Some(cand);
        }
    };
    for (i, p) in curve.iter().enumerate() {
        let Some(lat) = latency_of(p, slo.metric) else {
            continue;
        };
        if lat > slo.target_ns {
            continue;
        }
        consider(measured(p, lat));
        let Some(next) = curve.get(i + 1) else {
            continue;
        };
        let Some(next_lat) = latency_of(next, slo.metric) else {
            continue;
        };
        if next_lat > slo.target_ns && next_lat > lat {
            let t = (slo.target_ns - lat) / (next_lat - lat);
            consider(AtSlo {
                iops: p.iops + t * (next.iops - p.iops),
                lat_ns: slo.target_ns,
                interpolated: true,
                upper_iodepth: Some(next.iodepth),
                upper_numjobs: Some(next.numjobs),
                ..measured(p, lat)
            });
        }
    }
    best
}

/// `clat_p99=1ms`, `lat_mean=250us`, `p99=2ms`.
pub fn parse_slo(s: &str) -> Result<Slo, String> {
    let (metric, target) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}`: expected METRIC=TIME, e.g. clat_p99=1ms"))?;
    let metric = match metric.trim().to_ascii_lowercase().as_str() {
        "clat_p99" | "p99" | "clat_p99_ns" => SloMetric::ClatP99,
        "lat_mean" | "lat" | "mean" | "lat_mean_ns" => SloMetric::LatMean,
        other => {
            return Err(format!(
                "`{other}`: unknown latency metric (use clat_p99 or lat_mean)"
            ));
        }
    };
    let target_ns = crate::units::parse_duration_ns(target)
        .filter(|t| *t > 0.0)
        .ok_or_else(|| {
            format!("`{target}`: expected a positive time such as 1ms, 500us, 2000ns")
        })?;
    Ok(Slo { metric, target_ns })
}

#[cfg(test)]
mod tests;
