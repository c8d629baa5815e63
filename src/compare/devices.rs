//! The per-device view of a test bed: where one result ran a workload on
//! several targets at once (`nvcmp run --target a --target b`, or fio
//! with a section per drive), each target's own figure, the slowest and
//! fastest, the spread, and the targets that are off the others by more
//! than the noise. A bad slot, a throttling drive or a drive on the wrong
//! socket shows up here; the config's figure (`workload::group`) is the
//! targets' sum, as fio's `group_reporting` would give it.
//!
//! The outlier rule: a target is off when its IOPS differ from the median
//! of the other targets by more than the larger of [`MIN_GAP`], three
//! scaled median absolute deviations of the others (the robust spread of
//! the peers, Leys et al. 2013, doi:10.1016/j.jesp.2013.03.013), and
//! twice the standard error of the difference between the target and the
//! peers' median where fio's interval samples or repetitions give one (a
//! median of k values has a standard error of about 1.25 sigma / sqrt(k)).

use std::collections::BTreeMap;

use indexmap::IndexMap;

use super::comparison::Metric;
pub use super::comparison::{DeviceSpread, TargetFigure};
use super::findings::{Finding, FindingKind, ONE_WORKLOAD, clarity, magnitude};
use super::workload::{LoadPoint, Shape, WorkloadKey, run_source};
use crate::model::Row;
use crate::numbers::median;

/// A target is never called off the others for less than this (5 %):
/// drives of one model differ that much from slot to slot.
pub const MIN_GAP: f64 = 0.05;
/// Scales a median absolute deviation to a standard deviation (normal).
const MAD_SCALE: f64 = 1.4826;

/// One target's measurements in one config and workload: per run (result
/// file) its rows summed.
#[derive(Default)]
struct TargetRuns {
    /// Per source: iops, bw, latency weighted by I/Os, I/Os, error.
    runs: IndexMap<String, RunSum>,
    /// Relative standard error of the mean IOPS from fio's interval
    /// samples (largest over the runs).
    sample_rse: f64,
}

#[derive(Default, Clone, Copy)]
struct RunSum {
    iops: f64,
    bw: f64,
    lat_weighted: f64,
    lat_ios: f64,
    error: i64,
}

/// A spread's shape and load (iodepth, numjobs and fio instances).
type Key = (Shape, LoadPoint);

/// The spreads of every config and workload that ran on two or more
/// targets within one result, configs in `configs` order.
pub fn build(rows: &[Row], configs: &[String]) -> Vec<DeviceSpread> {
    let mut by: IndexMap<&str, BTreeMap<Key, IndexMap<String, TargetRuns>>> = IndexMap::new();
    let mut per_file: IndexMap<(&str, &str, Key), Vec<String>> = IndexMap::new();
    for r in rows.iter().filter(|r| !r.aggregate) {
        let Some(target) = target_of(r) else { continue };
        let load = LoadPoint {
            instances: r.instances.max(1),
            ..LoadPoint::of(r.iodepth, r.numjobs)
        };
        let key: Key = (Shape::of(r), load);
        let seen = per_file
            .entry((r.config.as_str(), run_source(r), key.clone()))
            .or_default();
        if !seen.contains(&target) {
            seen.push(target.clone());
        }
        let s = by
            .entry(r.config.as_str())
            .or_default()
            .entry(key)
            .or_default()
            .entry(target)
            .or_default();
        add(s, r);
    }
    let mut out = Vec::new();
    for config in configs {
        let Some(workloads) = by.get(config.as_str()) else {
            continue;
        };
        for (key, targets) in workloads {
            // Several targets side by side in one result: a test bed.
            let bed = per_file
                .iter()
                .any(|((l, _, k), ts)| l == config && k == key && ts.len() >= 2);
            if bed {
                out.push(spread(config, key, targets));
            }
        }
    }
    out
}

/// The target a row ran on; None when the row does not name one.
fn target_of(r: &Row) -> Option<String> {
    let t = r.target.as_deref()?;
    Some(match r.host.as_deref() {
        Some(h) => format!("{h}:{t}"),
        None => t.to_string(),
    })
}

/// Adds one row (a job, or a thread without group_reporting) to its run.
fn add(s: &mut TargetRuns, r: &Row) {
    // The invocations of a script's log are runs of their own.
    let source = match r.file_run {
        Some(n) => format!("{} run {n}", run_source(r)),
        None => run_source(r).to_string(),
    };
    let run = s.runs.entry(source).or_default();
    run.iops += r.iops;
    run.bw += r.bw_bytes_per_s;
    let ios = r.iops * r.runtime_ms / 1000.0;
    if let Some(lat) = r.lat_mean_ns.or(r.clat_mean_ns) {
        run.lat_weighted += lat * ios;
        run.lat_ios += ios;
    }
    if run.error == 0 {
        run.error = r.error;
    }
    if let (Some(n), Some(mean), Some(sd)) =
        (r.iops_samples, r.iops_sample_mean, r.iops_sample_stddev)
        && n >= 2
        && mean > 0.0
    {
        s.sample_rse = s.sample_rse.max(sd / mean / (n as f64).sqrt());
    }
}

/// Relative standard error of a target's mean IOPS: from its repetitions
/// where there are several, else from fio's interval samples.
fn rse(s: &TargetRuns, mean: f64) -> f64 {
    let n = s.runs.len();
    if n >= 2 && mean > 0.0 {
        let var = s
            .runs
            .values()
            .map(|r| (r.iops - mean).powi(2))
            .sum::<f64>()
            / (n - 1) as f64;
        return var.sqrt() / mean / (n as f64).sqrt();
    }
    s.sample_rse
}

/// One target's means and its noise.
fn figure(target: &str, s: &TargetRuns) -> (TargetFigure, f64) {
    let n = s.runs.len().max(1) as f64;
    let iops = s.runs.values().map(|r| r.iops).sum::<f64>() / n;
    let (lw, li) = s
        .runs
        .values()
        .fold((0.0, 0.0), |(w, i), r| (w + r.lat_weighted, i + r.lat_ios));
    let fig = TargetFigure {
        target: target.to_string(),
        iops,
        bw_bytes_per_s: s.runs.values().map(|r| r.bw).sum::<f64>() / n,
        lat_mean_ns: (li > 0.0).then(|| lw / li),
        runs: s.runs.len() as u32,
        error: s
            .runs
            .values()
            .map(|r| r.error)
            .find(|e| *e != 0)
            .unwrap_or(0),
        off_pct: None,
        threshold_pct: 0.0,
    };
    (fig, rse(s, iops))
}

/// The spread of one config and workload, with the rule applied.
fn spread(config: &str, key: &Key, targets: &IndexMap<String, TargetRuns>) -> DeviceSpread {
    let (shape, load) = key;
    let (mut figs, noise): (Vec<TargetFigure>, Vec<f64>) =
        targets.iter().map(|(t, s)| figure(t, s)).unzip();
    judge(&mut figs, &noise);
    let clean: Vec<&TargetFigure> = figs.iter().filter(|f| f.error == 0).collect();
    let pick = |better: bool| {
        clean
            .iter()
            .max_by(|a, b| {
                let o = a.iops.total_cmp(&b.iops);
                if better { o } else { o.reverse() }
            })
            .map_or(String::new(), |f| f.target.clone())
    };
    let mut all: Vec<f64> = clean.iter().map(|f| f.iops).collect();
    all.sort_by(f64::total_cmp);
    let med = median(all.iter().copied()).unwrap_or(0.0);
    let (lo, hi) = (
        all.first().copied().unwrap_or(0.0),
        all.last().copied().unwrap_or(0.0),
    );
    DeviceSpread {
        config: config.to_string(),
        workload: format!("{} {}", shape.title(), load.label()),
        key: WorkloadKey {
            shape: shape.clone(),
            load: *load,
        },
        total_iops: figs.iter().map(|f| f.iops).sum(),
        slowest: pick(false),
        fastest: pick(true),
        spread_pct: if med > 0.0 {
            100.0 * (hi - lo) / med
        } else {
            0.0
        },
        targets: figs,
    }
}

/// Marks each target that is off the others (module docs). With two
/// targets only the slower one can be called off: there is no majority.
fn judge(figs: &mut [TargetFigure], noise: &[f64]) {
    let ok: Vec<usize> = (0..figs.len()).filter(|&i| figs[i].error == 0).collect();
    if ok.len() < 2 {
        return;
    }
    for &i in &ok {
        let others: Vec<f64> = ok
            .iter()
            .filter(|&&j| j != i)
            .map(|&j| figs[j].iops)
            .collect();
        let med = median(others.iter().copied()).unwrap_or(0.0);
        if med <= 0.0 {
            continue;
        }
        let dev = others.iter().map(|v| (v - med).abs());
        let mad = MAD_SCALE * median(dev).unwrap_or(0.0) / med;
        // Standard errors in units of the median: the target's own, and
        // the median's (about 1.25 sigma / sqrt(k) for k peers).
        let peer_noise: Vec<f64> = ok.iter().filter(|&&j| j != i).map(|&j| noise[j]).collect();
        let k = peer_noise.len() as f64;
        let med_se = 1.25 * median(peer_noise).unwrap_or(0.0) / k.sqrt();
        let own_se = noise[i] * figs[i].iops / med;
        let se = 2.0 * (own_se.powi(2) + med_se.powi(2)).sqrt();
        let threshold = MIN_GAP.max(3.0 * mad).max(se);
        let off = (figs[i].iops - med) / med;
        figs[i].threshold_pct = 100.0 * threshold;
        let lone_pair_faster = ok.len() == 2 && off > 0.0;
        if off.abs() > threshold && !lone_pair_faster {
            figs[i].off_pct = Some(100.0 * off);
        }
    }
}

/// One finding per config and target that is off the others: in how many
/// of the config's test-bed workloads, by how much at most.
pub fn findings(spreads: &[DeviceSpread]) -> Vec<Finding> {
    // (config, target, slower) -> where the rule called it off.
    type Hits<'a> = Vec<(&'a DeviceSpread, &'a TargetFigure)>;
    let mut per: IndexMap<(&str, &str, bool), Hits> = IndexMap::new();
    for s in spreads {
        for f in &s.targets {
            if let Some(off) = f.off_pct {
                per.entry((s.config.as_str(), f.target.as_str(), off < 0.0))
                    .or_default()
                    .push((s, f));
            }
        }
    }
    per.into_iter()
        .map(|((config, target, slower), hits)| {
            let of = spreads.iter().filter(|s| s.config == config).count();
            finding(config, target, slower, &hits, of)
        })
        .collect()
}

/// "/dev/nvme7n1 gives 18 % fewer IOPS than the other 14 (config,
/// randread 4k QD32)".
fn finding(
    config: &str,
    target: &str,
    slower: bool,
    hits: &[(&DeviceSpread, &TargetFigure)],
    of: usize,
) -> Finding {
    let (worst_s, worst) = hits
        .iter()
        .copied()
        .max_by(|a, b| {
            a.1.off_pct
                .unwrap_or(0.0)
                .abs()
                .total_cmp(&b.1.off_pct.unwrap_or(0.0).abs())
        })
        .expect("a finding has a hit");
    let off = worst.off_pct.unwrap_or(0.0);
    let peers = worst_s.targets.len() - 1;
    let than = if peers == 1 {
        let other = worst_s.targets.iter().find(|f| f.target != target);
        other.map_or("the other".to_string(), |f| f.target.clone())
    } else {
        format!("the other {peers}")
    };
    let way = if slower { "fewer" } else { "more" };
    let place = if hits.len() == 1 {
        format!("{config}, {}", worst_s.workload)
    } else {
        format!(
            "{config}, {} of {of} workloads; most in {}",
            hits.len(),
            worst_s.workload
        )
    };
    let text = format!(
        "{target} gives {:.0} % {way} IOPS than {than} ({place})",
        off.abs()
    );
    let reach = if of > 1 {
        (hits.len() as f64 / of as f64).max(ONE_WORKLOAD)
    } else {
        ONE_WORKLOAD
    };
    let effect = magnitude(off / 100.0) * clarity(off, worst.threshold_pct);
    Finding::new(FindingKind::DeviceOutlier, text)
        .on(
            hits.iter().map(|(s, _)| s.workload.clone()).collect(),
            vec![Metric::Iops],
            vec![config.to_string()],
        )
        .scored(effect, reach)
}

#[cfg(test)]
mod tests;
