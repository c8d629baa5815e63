//! Block-size sweeps: one config's bandwidth at one rw (direction, read
//! mix) and load point across two or more block sizes, read by the rules
//! of the load sweeps ([`super::curve`](mod@super::curve)):
//!
//! - **Axis.** Block sizes ascending, read on log2 of the block size
//!   (sweeps double or quadruple it: 4k, 16k ... 1m), for the knee and for
//!   the chart. The value is bandwidth: what a larger block buys.
//! - **Peak.** The block size of most bandwidth (the smallest of equal
//!   ones); `iops_peak` the block size of most IOPS, usually the smallest.
//! - **Saturation.** The smallest block size whose bandwidth reaches
//!   `saturation_pct` of the peak's: from there the config is
//!   bandwidth-bound ("bandwidth-bound from 128k").
//! - **Knee.** Kneedle on bandwidth against log2 of the block size, with
//!   the load sweep's checks: it rose `knee_min_gain_pct` from the
//!   smallest block size, turns flat (`knee_flatness_pct`), and mean
//!   latency grows past it by more than `knee_lat_growth_pct` (in
//!   proportion where the block size less than doubles past it). Each I/O
//!   carries more bytes at the same depth, so on a bandwidth plateau
//!   latency grows with the block size (Little's law): the latency signal
//!   always applies.
//! - **Fall.** The largest block size, when its bandwidth lies below the
//!   noise band under the peak (`saturation_pct`); knee and saturation are
//!   then read on the rising part, as for a load sweep.
//! - **At a latency target.** The most bandwidth of a block size whose
//!   latency meets `--slo`, or interpolated between the last block size
//!   that meets it and the next, which misses it.

use indexmap::IndexMap;

use super::curve::{self, Axis, CurvePoint};
use crate::compare::comparison::{
    BsAtSlo, BsFall, BsKnee, BsPeak, BsPoint, BsSaturation, BsSweep, Comparison, Metric, RwLoad,
    SweepRules, Workload,
};

/// Every block-size sweep of the comparison: per rw and load point in
/// workload order, configs in display order.
pub fn build(cmp: &Comparison) -> Vec<BsSweep> {
    let mut by_rw: IndexMap<RwLoad, Vec<&Workload>> = IndexMap::new();
    // A block size that varies I/O to I/O (`bsrange`, `bssplit`) is no
    // point on a block-size axis.
    for w in cmp
        .workloads
        .iter()
        .filter(|w| w.key.shape.bs_spread.is_none())
    {
        by_rw.entry(RwLoad::of(&w.key)).or_default().push(w);
    }
    let mut out = Vec::new();
    for (at, mut workloads) in by_rw {
        workloads.sort_by_key(|w| w.key.shape.bs_bytes);
        for config in &cmp.configs {
            let points: Vec<BsPoint> = workloads.iter().filter_map(|w| point(w, config)).collect();
            if points.len() >= 2 {
                out.push(sweep(config, &at, points, &cmp.sweep_rules));
            }
        }
    }
    out
}

/// The block-size sweeps grouped by rw and load point, in their order,
/// configs in display order: what a table or a sentence covers.
pub fn by_rw(sweeps: &[BsSweep]) -> Vec<(&RwLoad, Vec<&BsSweep>)> {
    let mut out: Vec<(&RwLoad, Vec<&BsSweep>)> = Vec::new();
    for s in sweeps {
        match out.iter_mut().find(|(at, _)| **at == s.at) {
            Some((_, v)) => v.push(s),
            None => out.push((&s.at, vec![s])),
        }
    }
    out
}

/// The block sizes any of `sweeps` measured, ascending, once each.
pub fn sizes(sweeps: &[&BsSweep]) -> Vec<u64> {
    let mut sizes: Vec<u64> = sweeps
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.bs_bytes))
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
}

/// One config's values at one workload's block size.
fn point(w: &Workload, config: &str) -> Option<BsPoint> {
    // An excluded value (fio measured it wrongly) is no point of a curve.
    let value = |m: Metric| w.metric(m).and_then(|r| r.value(config));
    Some(BsPoint {
        bs_bytes: w.key.shape.bs_bytes,
        iops: value(Metric::Iops)?,
        bw_bytes_per_s: value(Metric::BwBytesPerS)?,
        lat_mean_ns: value(Metric::LatMeanNs),
        clat_p99_ns: value(Metric::ClatP99Ns),
    })
}

/// A block size on the generic curve: bandwidth against bytes per I/O;
/// bytes in flight (block size x I/Os in flight) for the knee's latency
/// signal.
fn on_curve(p: &BsPoint, at: &RwLoad) -> CurvePoint {
    CurvePoint {
        x: p.bs_bytes,
        y: p.bw_bytes_per_s,
        lat_mean_ns: p.lat_mean_ns,
        clat_p99_ns: p.clat_p99_ns,
        in_flight: p.bs_bytes * at.load.outstanding(),
    }
}

fn sweep(config: &str, at: &RwLoad, points: Vec<BsPoint>, rules: &SweepRules) -> BsSweep {
    let line: Vec<CurvePoint> = points.iter().map(|p| on_curve(p, at)).collect();
    let rise = &line[..curve::rising(&line, rules)];
    let bs = |i: usize| points[i].bs_bytes;
    let bw = |i: usize| points[i].bw_bytes_per_s;
    let figure = |i: usize| BsPeak {
        bs_bytes: bs(i),
        bw_bytes_per_s: bw(i),
        iops: points[i].iops,
    };
    let by_iops: Vec<CurvePoint> = line
        .iter()
        .zip(&points)
        .map(|(c, p)| CurvePoint { y: p.iops, ..*c })
        .collect();
    BsSweep {
        config: config.to_string(),
        at: at.clone(),
        axis: "bs".into(),
        peak: figure(curve::peak(&line).expect("a sweep has points")),
        iops_peak: figure(curve::peak(&by_iops).expect("a sweep has points")),
        knee: curve::knee(rise, rules, Axis::Log2).map(|k| BsKnee {
            bs_bytes: bs(k.index),
            bw_bytes_per_s: bw(k.index),
            lat_mean_ns: k.lat_mean_ns,
            next_bs_bytes: bs(k.index + 1),
            bw_gain_pct: k.gain_pct,
            lat_growth_pct: k.lat_growth_pct,
        }),
        saturation: curve::saturation(rise, rules).map(|(i, pct)| BsSaturation {
            bs_bytes: bs(i),
            bw_bytes_per_s: bw(i),
            pct_of_peak: pct,
        }),
        at_slo: rules
            .slo
            .and_then(|slo| Some((slo, curve::at_slo(&line, slo)?)))
            .map(|(slo, a)| BsAtSlo {
                metric: slo.metric,
                target_ns: slo.target_ns,
                bw_bytes_per_s: a.y,
                lat_ns: a.lat_ns,
                interpolated: a.upper.is_some(),
                bs_bytes: bs(a.index),
                upper_bs_bytes: a.upper.map(bs),
            }),
        fall: curve::fall(&line, rules).map(|(i, pct)| BsFall {
            bs_bytes: bs(i),
            bw_bytes_per_s: bw(i),
            pct_below_peak: pct,
        }),
        points,
    }
}

#[cfg(test)]
mod tests;
