//! What a report shows of a study of very many configs (issue #55): at
//! most [`MAX_SHOWN`] configs are tabled and drawn, the others are said in
//! one line. A folder of 10,000 runs with distinct job names is 10,000
//! configs; tabled whole, report.html was 153 MB. The JSON, the CSVs and
//! the dataset keep every config; only the reports people read (terminal,
//! Markdown, HTML, charts) are bounded.
//!
//! Which configs are shown: the baseline, then, per workload on its
//! headline metric (IOPS up to 16 KiB blocks, bandwidth above), the best
//! and the worst in turn, workload after workload, until [`MAX_SHOWN`];
//! they keep the comparison's display order.

use std::borrow::Cow;
use std::collections::HashSet;

use indexmap::IndexMap;

use super::comparison::{Better, Comparison, MetricResult, Workload};
use super::findings::headline;

/// The most configs a report tables and draws.
pub const MAX_SHOWN: usize = 32;

/// `cmp` as a report shows it: itself when it has at most `max` configs,
/// else a copy restricted to the configs [`chosen`], with a first check
/// line saying how many are left out and where they are.
pub fn bounded(cmp: &Comparison, max: usize) -> Cow<'_, Comparison> {
    if cmp.configs.len() <= max {
        return Cow::Borrowed(cmp);
    }
    let keep = chosen(cmp, max);
    let mut out = restricted(cmp, &keep);
    out.sanity.insert(0, left_out_line(cmp, keep.len()));
    Cow::Owned(out)
}

/// The line a bounded report opens its checks with.
fn left_out_line(cmp: &Comparison, shown: usize) -> String {
    let whole = crate::numbers::whole;
    let total = cmp.configs.len();
    format!(
        "Shown: {} of {} configs (the baseline, then the best and the worst of each \
         workload by IOPS, or bandwidth above 16 KiB blocks); the other {} are in the \
         dataset (dataset.csv) and in --format json",
        shown,
        whole(total as u64),
        whole((total - shown) as u64),
    )
}

/// The configs to show: the baseline, then each workload's best and worst
/// on its headline metric in turn, at most `max`, in display order.
pub fn chosen(cmp: &Comparison, max: usize) -> HashSet<String> {
    let mut keep: HashSet<String> = HashSet::new();
    if let Some(b) = &cmp.baseline {
        keep.insert(b.clone());
    }
    let ranked: Vec<Vec<&str>> = cmp.workloads.iter().map(ranked).collect();
    let deepest = ranked.iter().map(Vec::len).max().unwrap_or(0);
    'rounds: for round in 0..deepest {
        for r in &ranked {
            let ends = [r.get(round), r.len().checked_sub(round + 1).map(|i| &r[i])];
            for c in ends.into_iter().flatten() {
                if keep.len() >= max {
                    break 'rounds;
                }
                keep.insert((*c).to_string());
            }
        }
    }
    // Configs without a compared value anywhere, in display order.
    for c in &cmp.configs {
        if keep.len() >= max {
            break;
        }
        keep.insert(c.clone());
    }
    keep
}

/// A workload's configs from best to worst on its headline metric.
fn ranked(w: &Workload) -> Vec<&str> {
    let Some(m) = w.metric(headline(w)) else {
        return Vec::new();
    };
    let mut values: Vec<(&str, f64)> = m.compared().collect();
    values.sort_by(|a, b| match m.better {
        Better::Higher => b.1.total_cmp(&a.1),
        Better::Lower => a.1.total_cmp(&b.1),
    });
    values.into_iter().map(|(c, _)| c).collect()
}

/// `cmp` with only the configs in `keep`: every per-config map, list,
/// sweep, device spread and setup value of the others left out.
fn restricted(cmp: &Comparison, keep: &HashSet<String>) -> Comparison {
    let kept = |c: &String| keep.contains(c);
    let mut out = empty_like(cmp);
    out.configs = cmp.configs.iter().filter(|c| kept(c)).cloned().collect();
    out.config_os = only(&cmp.config_os, keep);
    out.config_labels = only(&cmp.config_labels, keep);
    out.families = cmp
        .families
        .iter()
        .map(|f| super::Family {
            name: f.name.clone(),
            configs: f.configs.iter().filter(|c| kept(c)).cloned().collect(),
        })
        .filter(|f| !f.configs.is_empty())
        .collect();
    // Every workload, also one no shown config ran: its table says so
    // (as it did when its maps held a null for every config).
    out.workloads = cmp.workloads.iter().map(|w| workload(w, keep)).collect();
    out.sweeps = cmp
        .sweeps
        .iter()
        .filter(|s| kept(&s.config))
        .cloned()
        .collect();
    out.bs_sweeps = cmp
        .bs_sweeps
        .iter()
        .filter(|s| kept(&s.config))
        .cloned()
        .collect();
    out.devices = cmp
        .devices
        .iter()
        .filter(|d| kept(&d.config))
        .cloned()
        .collect();
    out.setup = cmp.setup.clone();
    for item in &mut out.setup.items {
        item.values.retain(|c, _| kept(c));
    }
    out.config_rule = cmp.config_rule.clone();
    out.config_rule.values.retain(|c, _| kept(c));
    out
}

/// The fields of `cmp` that hold no per-config data, and empty lists in
/// place of those that do (filled by [`restricted`]).
fn empty_like(cmp: &Comparison) -> Comparison {
    Comparison {
        configs: Vec::new(),
        baseline: cmp.baseline.clone(),
        config_os: IndexMap::new(),
        families: Vec::new(),
        workloads: Vec::new(),
        highlights: cmp.highlights.clone(),
        key_findings: cmp.key_findings.clone(),
        skipped: cmp.skipped.clone(),
        warnings: cmp.warnings.clone(),
        sanity: cmp.sanity.clone(),
        sweeps: Vec::new(),
        bs_sweeps: Vec::new(),
        sweep_rules: cmp.sweep_rules,
        setup: Default::default(),
        devices: Vec::new(),
        equivalence_pct: cmp.equivalence_pct,
        config_rule: Default::default(),
        study: cmp.study.clone(),
        tail_percentile: cmp.tail_percentile,
        units: cmp.units,
        config_labels: IndexMap::new(),
        baseline_why: cmp.baseline_why.clone(),
        all_configs: Some(cmp.configs.len()),
    }
}

/// One workload with only the configs in `keep`.
fn workload(w: &Workload, keep: &HashSet<String>) -> Workload {
    Workload {
        key: w.key.clone(),
        effective_iodepth: only(&w.effective_iodepth, keep),
        metrics: w.metrics.iter().map(|m| metric(m, keep)).collect(),
        percentiles: only(&w.percentiles, keep),
        clat_bins: only(&w.clat_bins, keep),
        steady_state: only(&w.steady_state, keep),
        notes: w.notes.clone(),
        checks: w
            .checks
            .iter()
            .filter(|c| keep.contains(&c.config))
            .cloned()
            .collect(),
        params: only(&w.params, keep),
    }
}

/// One metric with only the configs in `keep`; its winner and ties stand
/// as the whole comparison decided them.
fn metric(m: &MetricResult, keep: &HashSet<String>) -> MetricResult {
    MetricResult {
        values: only(&m.values, keep),
        precision: only(&m.precision, keep),
        spread: only(&m.spread, keep),
        tied: m
            .tied
            .iter()
            .filter(|c| keep.contains(*c))
            .cloned()
            .collect(),
        delta_pct: only(&m.delta_pct, keep),
        delta_abs: only(&m.delta_abs, keep),
        baseline_ties: only(&m.baseline_ties, keep),
        excluded: only(&m.excluded, keep),
        approximate: m
            .approximate
            .iter()
            .filter(|c| keep.contains(*c))
            .cloned()
            .collect(),
        metric: m.metric,
        better: m.better,
        winner: m.winner.clone(),
        rule: m.rule,
        tail_pct: m.tail_pct,
        decided_by: m.decided_by,
    }
}

/// The entries of `map` whose key is in `keep`.
fn only<V: Clone>(map: &IndexMap<String, V>, keep: &HashSet<String>) -> IndexMap<String, V> {
    map.iter()
        .filter(|(c, _)| keep.contains(*c))
        .map(|(c, v)| (c.clone(), v.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::{CompareOptions, Metric, compare, testdata};

    /// The published rows under `n` configs, `cfg-0`..: config i's
    /// throughput is (1 + i/100) times the row's, its latency divided alike.
    fn many(n: usize) -> Comparison {
        let base: Vec<_> = testdata::rows()
            .into_iter()
            .filter(|r| r.config == "linux-libaio")
            .collect();
        let mut rows = Vec::new();
        for i in 0..n {
            for r in &base {
                let mut r = r.clone();
                let scale = 1.0 + (i * 37 % n) as f64 / 100.0;
                r.config = format!("cfg-{i}");
                r.iops *= scale;
                r.bw_bytes_per_s *= scale;
                r.lat_mean_ns = r.lat_mean_ns.map(|l| l / scale);
                r.clat_mean_ns = r.lat_mean_ns;
                rows.push(r);
            }
        }
        let opts = CompareOptions {
            baseline: Some("cfg-0".into()),
            ..CompareOptions::default()
        };
        compare(&rows, &opts)
    }

    #[test]
    fn few_configs_are_shown_whole() {
        let cmp = testdata::published();
        assert!(matches!(bounded(&cmp, MAX_SHOWN), Cow::Borrowed(_)));
    }

    #[test]
    fn many_configs_show_the_baseline_and_each_workloads_ends() {
        let cmp = many(60);
        assert_eq!(cmp.configs.len(), 60);
        let shown = bounded(&cmp, 8);
        assert_eq!(shown.configs.len(), 8, "{:?}", shown.configs);
        assert_eq!(shown.all_configs, Some(60));
        assert!(shown.configs.contains(&"cfg-0".to_string()));
        // Display order kept.
        let at = |c: &String| cmp.configs.iter().position(|x| x == c).unwrap();
        assert!(shown.configs.windows(2).all(|w| at(&w[0]) < at(&w[1])));
        for w in &cmp.workloads {
            let m = w.metric(headline(w)).unwrap();
            let ranked = ranked(w);
            let (best, worst) = (ranked[0], ranked[ranked.len() - 1]);
            assert!(
                shown.configs.iter().any(|c| c == best),
                "{best} of {}",
                w.title()
            );
            assert!(
                shown.configs.iter().any(|c| c == worst),
                "{worst} of {}",
                w.title()
            );
            assert_eq!(m.values.len(), 60);
        }
        // Every per-config figure of the view is of a shown config.
        for w in &shown.workloads {
            for m in &w.metrics {
                assert!(m.values.keys().all(|c| shown.configs.contains(c)));
                assert!(m.delta_pct.keys().all(|c| shown.configs.contains(c)));
                assert!(m.tied.iter().all(|c| shown.configs.contains(c)));
            }
            assert!(w.params.keys().all(|c| shown.configs.contains(c)));
        }
        for item in &shown.setup.items {
            assert!(item.values.keys().all(|c| shown.configs.contains(c)));
        }
        assert!(
            shown.sanity[0].starts_with("Shown: 8 of 60 configs"),
            "{}",
            shown.sanity[0]
        );
        assert!(shown.sanity[0].contains("the other 52 are in the dataset"));
        // The metric's winner stands as the whole comparison decided it.
        let iops = |c: &Comparison| c.workloads[0].metric(Metric::Iops).unwrap().winner.clone();
        assert_eq!(iops(&shown), iops(&cmp));
    }
}
