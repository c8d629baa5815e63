//! The comparison rules, in one place: workloads, metrics and their
//! direction, winners, ties (precision and significance), deltas against a
//! baseline, OS families, highlights and sanity checks. Works on the
//! dataset's rows only, never on raw files.
//!
//! - [`workload`]: which rows make one measurement (aggregates, jobs, runs).
//! - [`metric`]: each metric's direction, precision, name and scale.
//! - [`rules`]: winner and ties of one metric.
//! - [`highlights`]: plain sentences from the result.
//! - [`sanity`]: checks a careful reviewer makes.
//! - [`setup`]: what was run, per config, for the top of a report.

pub mod comparison;
pub mod devices;
pub mod findings;
pub mod highlights;
pub mod logs;
pub mod metric;
pub mod rules;
pub mod sanity;
pub mod setup;
pub mod snia;
pub mod stats;
pub mod steady;
pub mod sweep;
pub mod workload;

mod notes;
mod validity;

#[cfg(test)]
pub(crate) mod testdata;
#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use indexmap::IndexMap;

pub use comparison::*;
pub use workload::LoadPoint;

use crate::model::{Os, Row, Warning, is_mixed};
use workload::{Run, WorkloadKey};

/// What `compare` needs to know besides the rows.
#[derive(Debug, Clone)]
pub struct CompareOptions {
    /// Display order of configs (labels); configs not listed follow in the
    /// order they were first seen.
    pub order: Vec<String>,
    /// Config the deltas are against; the first config when None.
    pub baseline: Option<String>,
    /// Label -> name to show instead.
    pub display_names: IndexMap<String, String>,
    /// Significance level of Welch's t-test.
    pub alpha: f64,
    /// `--round METRIC=STEP`: present every config of that metric rounded
    /// to STEP (base units), as an article that rounds some figures would.
    pub round: Vec<(Metric, f64)>,
    /// Knee rule and latency target for sweeps.
    pub sweep_rules: SweepRules,
    /// Title, description and test-bed facts from the manifest.
    pub setup: setup::SetupNotes,
    /// `--equivalence PCT`: differences of at most PCT % of the best value
    /// are ties.
    pub equivalence_pct: Option<f64>,
    /// How many key findings to lead reports with (`--findings N`).
    pub findings: usize,
    /// `--steady-only`: IOPS and bandwidth over the steady-state window
    /// where one is known, instead of the whole run.
    pub steady_only: bool,
    /// Steady-state verdicts judged from fio's logs ([`snia::judge`]),
    /// used where fio gave none.
    pub log_steady: snia::Verdicts,
    /// How the rows' configs were told apart; its keys are setup items.
    pub config_rule: crate::model::ConfigRule,
}

impl CompareOptions {
    /// The name a label is shown as.
    fn name(&self, label: &str) -> String {
        self.display_names
            .get(label)
            .cloned()
            .unwrap_or_else(|| label.to_string())
    }
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            order: Vec::new(),
            baseline: None,
            display_names: IndexMap::new(),
            alpha: stats::DEFAULT_ALPHA,
            round: Vec::new(),
            sweep_rules: SweepRules::default(),
            setup: setup::SetupNotes::default(),
            equivalence_pct: None,
            findings: findings::DEFAULT_COUNT,
            steady_only: false,
            log_steady: snia::Verdicts::new(),
            config_rule: crate::model::ConfigRule::default(),
        }
    }
}

impl CompareOptions {
    /// How ties are judged.
    pub fn judge(&self) -> rules::Judge {
        rules::Judge {
            alpha: self.alpha,
            equivalence_pct: self.equivalence_pct,
        }
    }
}

/// One config's runs of one workload, reduced per metric.
struct Cell {
    runs: Vec<Run>,
    /// True when every run reported an error: shown, never a winner.
    errored: bool,
}

impl Cell {
    fn new(runs: &[Run]) -> Cell {
        let clean: Vec<Run> = runs.iter().filter(|r| r.error == 0).cloned().collect();
        if clean.is_empty() {
            Cell {
                runs: runs.to_vec(),
                errored: true,
            }
        } else {
            Cell {
                runs: clean,
                errored: false,
            }
        }
    }

    /// Value, precision and spread of one metric.
    fn metric(&self, m: Metric) -> Option<(f64, f64, Option<Spread>)> {
        let vals: Vec<f64> = self.runs.iter().filter_map(|r| m.of_run(r)).collect();
        let summary = stats::Summary::of(&vals)?;
        let precision = self
            .runs
            .iter()
            .map(|r| m.precision_of_run(r))
            .fold(0.0, f64::max);
        let spread = if summary.n >= 2 {
            Some(Spread {
                n: summary.n,
                mean: summary.mean,
                stddev: summary.stddev,
                source: SpreadSource::Runs,
            })
        } else {
            let samples = match m {
                Metric::Iops => self.runs[0].iops_samples,
                Metric::BwBytesPerS => self.runs[0].bw_samples,
                _ => None,
            };
            samples.filter(|s| s.n >= MIN_SAMPLES).map(|s| Spread {
                n: s.n,
                mean: s.mean,
                stddev: s.stddev,
                source: SpreadSource::Samples,
            })
        };
        Some((summary.mean, precision, spread))
    }
}

/// Fewest of fio's own bandwidth/IOPS samples of one run (its 500 ms
/// intervals by default) that give a spread to test with. A 1 s run has one
/// or two: Welch's test on two a side has about one degree of freedom and
/// cannot separate even 33k from 120k IOPS (measured on 1 s harness runs:
/// p = 0.11, a "tie"); on three a side the same figures give p = 0.02.
/// Below this the values decide, by their rounding, as for a run without
/// samples (and `check` has no noise model from them).
pub const MIN_SAMPLES: u64 = 3;

/// Compares configs per workload (shape and load point). `skipped` of the
/// result is left empty: the caller knows what ingest skipped.
pub fn compare(rows: &[Row], opts: &CompareOptions) -> Comparison {
    let (kept, mut warnings) = admit(rows, opts);
    // A `--slo clat_p95=...` target makes p95 the tail every table shows.
    let tail = match opts.sweep_rules.slo {
        Some(slo) if slo.metric == SloMetric::ClatP99 => slo.percentile,
        _ => workload::tail_percentile(&kept),
    };
    let mut grouped = workload::group_at(&kept, tail);
    attach_log_steady(&mut grouped, &opts.log_steady);
    if opts.steady_only {
        to_steady_windows(&mut grouped);
    }
    let configs = order_configs(&grouped, opts);
    let config_os = os_of_configs(&grouped, &configs);
    let families = families(&configs, &config_os);
    let baseline = pick_baseline(&configs, opts, &mut warnings);
    let setup = setup::build(&kept, &configs, &opts.setup, &opts.config_rule.keys, |l| {
        opts.name(l)
    });

    let keys: BTreeSet<WorkloadKey> = grouped.values().flat_map(|m| m.keys().cloned()).collect();
    let workloads: Vec<Workload> = keys
        .iter()
        .map(|key| compare_workload(key, &grouped, &configs, baseline.as_deref(), opts))
        .collect();

    let devices = devices::build(&kept, &configs);
    let mut cmp = Comparison {
        configs,
        baseline,
        config_os,
        families,
        workloads,
        highlights: Vec::new(),
        key_findings: Vec::new(),
        skipped: Vec::new(),
        warnings,
        sanity: Vec::new(),
        sweeps: Vec::new(),
        bs_sweeps: Vec::new(),
        sweep_rules: opts.sweep_rules,
        setup,
        devices,
        equivalence_pct: opts.equivalence_pct,
        config_rule: renamed_rule(&opts.config_rule, |l| opts.name(l)),
        tail_percentile: tail,
    };
    cmp.sweeps = sweep::build(&cmp);
    cmp.bs_sweeps = sweep::blocksize::build(&cmp);
    cmp.sanity = sanity::check_comparison(&cmp);
    cmp.sanity.extend(sanity::mixed_engines(&grouped));
    cmp.sanity.extend(sanity::ran_together(&kept));
    cmp.sanity.extend(opts.config_rule.notes.iter().cloned());
    let mut all = highlights::build(&cmp, opts.judge());
    all.extend(devices::findings(&cmp.devices));
    let (key, ordered) = findings::select(all, opts.findings);
    cmp.key_findings = key;
    cmp.highlights = ordered.into_iter().map(|f| f.text).collect();
    cmp
}

/// The rule with its configs under their display names.
fn renamed_rule(
    rule: &crate::model::ConfigRule,
    name_of: impl Fn(&str) -> String,
) -> crate::model::ConfigRule {
    let mut out = rule.clone();
    out.values = rule
        .values
        .iter()
        .map(|(label, v)| (name_of(label), v.clone()))
        .collect();
    out
}

/// Rows that may enter the comparison, renamed to their display names; a
/// warning for each row left out or kept out of winners.
fn admit(rows: &[Row], opts: &CompareOptions) -> (Vec<Row>, Vec<Warning>) {
    let mut warnings = Vec::new();
    let mut kept = Vec::with_capacity(rows.len());
    for r in rows {
        let finite = [r.bw_bytes_per_s, r.iops, r.runtime_ms, r.cpu_pct()]
            .iter()
            .all(|v| v.is_finite() && *v >= 0.0);
        if !finite {
            warnings.push(Warning {
                source: r.source.clone(),
                message: format!(
                    "job {:?} ({} {}) has a value that is not a finite, non-negative number; left out",
                    r.job, r.rw, r.direction
                ),
            });
            continue;
        }
        if r.error != 0 {
            warnings.push(Warning {
                source: r.source.clone(),
                message: format!(
                    "job {:?} reported error {}; left out of winners",
                    r.job, r.error
                ),
            });
        }
        let mut r = r.clone();
        r.config = opts.name(&r.config);
        kept.push(r);
    }
    (kept, warnings)
}

/// The manifest's order first, then configs in the order first seen.
fn order_configs(grouped: &workload::Grouped, opts: &CompareOptions) -> Vec<String> {
    let mut configs: Vec<String> = opts
        .order
        .iter()
        .map(|l| opts.name(l))
        .filter(|c| grouped.contains_key(c))
        .collect();
    configs.dedup();
    for c in grouped.keys() {
        if !configs.contains(c) {
            configs.push(c.clone());
        }
    }
    configs
}

fn os_of_configs(grouped: &workload::Grouped, configs: &[String]) -> IndexMap<String, Os> {
    configs
        .iter()
        .map(|c| {
            let os = grouped[c].values().flatten().map(|r| r.os.family()).next();
            (c.clone(), os.unwrap_or_default())
        })
        .collect()
}

fn families(configs: &[String], config_os: &IndexMap<String, Os>) -> Vec<Family> {
    Os::FAMILIES
        .iter()
        .map(|f| Family {
            name: f.clone(),
            configs: configs
                .iter()
                .filter(|c| config_os[*c] == *f)
                .cloned()
                .collect(),
        })
        .filter(|f| !f.configs.is_empty())
        .collect()
}

fn pick_baseline(
    configs: &[String],
    opts: &CompareOptions,
    warnings: &mut Vec<Warning>,
) -> Option<String> {
    match &opts.baseline {
        Some(b) if configs.contains(&opts.name(b)) => Some(opts.name(b)),
        Some(b) => {
            warnings.push(Warning {
                source: b.clone(),
                message: format!(
                    "baseline {b:?} is not one of the configs ({}); deltas are against {:?}",
                    configs.join(", "),
                    configs.first().map_or("", |c| c.as_str())
                ),
            });
            configs.first().cloned()
        }
        None => configs.first().cloned(),
    }
}

/// `--steady-only`: a run with a known steady-state window reports that
/// window's IOPS and bandwidth. fio's per-second samples cover the whole
/// run, so they no longer describe the figure and are dropped. fio keeps
/// the window for the job as a whole, so a mixed job's directions, which
/// it cannot be split into, keep the whole run's figures.
fn to_steady_windows(grouped: &mut workload::Grouped) {
    let all = grouped.values_mut().flat_map(|m| m.iter_mut());
    for (_, runs) in all.filter(|(k, _)| !is_mixed(&k.shape.rw)) {
        for r in runs.iter_mut() {
            let Some(s) = &r.steady else { continue };
            if let (Some(iops), Some(bw)) = (s.iops, s.bw_bytes_per_s) {
                (r.iops, r.bw) = (iops, bw);
                (r.iops_samples, r.bw_samples) = (None, None);
            }
        }
    }
}

/// Gives each run that fio did not judge the verdict its logs gave: fio's
/// own verdict is never overridden.
fn attach_log_steady(grouped: &mut workload::Grouped, verdicts: &snia::Verdicts) {
    if verdicts.is_empty() {
        return;
    }
    for (key, runs) in grouped.values_mut().flat_map(|m| m.iter_mut()) {
        for r in runs.iter_mut().filter(|r| r.steady.is_none()) {
            r.steady = verdicts
                .get(&(r.source.clone(), key.shape.clone()))
                .cloned();
        }
    }
}

/// Each config's steady state: every run's verdict combined.
fn steady_states(cells: &IndexMap<&str, Cell>) -> IndexMap<String, SteadyState> {
    cells
        .iter()
        .filter_map(|(c, cell)| {
            let all: Vec<&SteadyState> =
                cell.runs.iter().filter_map(|r| r.steady.as_ref()).collect();
            Some((c.to_string(), SteadyState::combine(&all)?))
        })
        .collect()
}

/// One workload: every metric across configs, and what a reader should
/// know about it.
fn compare_workload(
    key: &WorkloadKey,
    grouped: &workload::Grouped,
    configs: &[String],
    baseline: Option<&str>,
    opts: &CompareOptions,
) -> Workload {
    let mut cells: IndexMap<&str, Cell> = configs
        .iter()
        .filter_map(|c| {
            grouped[c]
                .get(key)
                .map(|runs| (c.as_str(), Cell::new(runs)))
        })
        .collect();
    let mut notes = notes::missing(key, grouped, configs, &cells);
    notes.extend(notes::tools(key, &mut cells));
    let effective_iodepth = effective_depths(key, &cells);
    notes.extend(notes::effective_depth(key, &cells, &effective_iodepth));
    notes.extend(notes::mixed_engines(&cells));
    let steady_state = steady_states(&cells);
    notes.extend(notes::not_steady(&steady_state));
    for (c, cell) in &cells {
        if cell.errored {
            notes.push(format!("{c}: every run reported an error; not a winner"));
        }
    }
    let mut metrics: Vec<MetricResult> = Metric::ALL
        .into_iter()
        .filter_map(|m| metric_result(m, &cells, configs, baseline, opts))
        .collect();
    notes::unshared_metrics(&cells, &mut metrics);
    notes.extend(notes::approximate_p99(&metrics));
    let percentiles = cells
        .iter()
        .filter(|(_, cell)| cell.runs.len() == 1 && !cell.runs[0].percentiles.is_empty())
        .map(|(c, cell)| (c.to_string(), cell.runs[0].percentiles.clone()))
        .collect();
    let clat_bins = cells
        .iter()
        .filter_map(|(c, cell)| {
            let bins = cell.runs.first()?.clat_bins.clone()?;
            (cell.runs.len() == 1).then(|| (c.to_string(), bins))
        })
        .collect();
    notes.extend(sanity::check_workload(key, &cells_runs(&cells)));
    let params = cells
        .iter()
        .map(|(c, cell)| (c.to_string(), run_params(&cell.runs)))
        .collect();
    Workload {
        key: key.clone(),
        effective_iodepth,
        metrics,
        percentiles,
        clat_bins,
        steady_state,
        notes,
        params,
    }
}

/// Engines, fio versions and runtimes of one config's runs.
fn run_params(runs: &[Run]) -> RunParams {
    let set = |f: fn(&Run) -> &str| -> Vec<String> {
        let s: BTreeSet<&str> = runs.iter().map(f).filter(|v| !v.is_empty()).collect();
        s.into_iter().map(str::to_string).collect()
    };
    let times = runs.iter().map(|r| r.runtime_ms);
    RunParams {
        runs: runs.len() as u64,
        engines: set(|r| r.engine.as_str()),
        fio_versions: set(|r| r.fio_version.as_str()),
        runtime_ms: [
            times.clone().fold(f64::INFINITY, f64::min),
            times.fold(0.0, f64::max),
        ],
    }
}

/// Each config's effective depth, listed only when one of them differs
/// from the requested depth.
fn effective_depths(key: &WorkloadKey, cells: &IndexMap<&str, Cell>) -> IndexMap<String, u32> {
    let depths: IndexMap<String, u32> = cells
        .iter()
        .filter_map(|(c, cell)| {
            let d = cell.runs.iter().filter_map(|r| r.effective_iodepth).min()?;
            Some((c.to_string(), d))
        })
        .collect();
    if depths.values().any(|&d| d != key.load.iodepth) {
        depths
    } else {
        IndexMap::new()
    }
}

/// One metric across configs: values (rounded as `--round` asks), the
/// winner or the tie and the rule that decided, deltas against the
/// baseline. None for p99 latency when no config reports it.
fn metric_result(
    m: Metric,
    cells: &IndexMap<&str, Cell>,
    configs: &[String],
    baseline: Option<&str>,
    opts: &CompareOptions,
) -> Option<MetricResult> {
    let mut values = IndexMap::new();
    let mut precision = IndexMap::new();
    let mut spread = IndexMap::new();
    for c in configs {
        let got = cells.get(c.as_str()).and_then(|cell| cell.metric(m));
        let Some((mut v, mut p, s)) = got else {
            values.insert(c.clone(), None);
            continue;
        };
        if let Some((_, step)) = opts.round.iter().find(|(rm, _)| *rm == m)
            && *step > 0.0
        {
            v = (v / step).round() * step;
            p = p.max(*step);
        }
        if let Some(s) = s {
            spread.insert(c.clone(), s);
        }
        values.insert(c.clone(), Some(v));
        precision.insert(c.clone(), p);
    }
    if values.values().all(|v| v.is_none()) && m == Metric::ClatP99Ns {
        return None;
    }
    // Also where the value is missing: a run that measured no latency (fio
    // wrote zeros, read as none) says why its cell is empty.
    let excluded: IndexMap<String, String> = cells
        .iter()
        .filter_map(|(c, cell)| Some((c.to_string(), validity::exclusion(m, cell)?)))
        .collect();
    let entries: Vec<rules::Entry> = configs
        .iter()
        .filter(|c| cells.get(c.as_str()).is_some_and(|cell| !cell.errored))
        .filter(|c| !excluded.contains_key(c.as_str()))
        .filter_map(|c| {
            let value = values[c]?;
            Some(rules::Entry {
                config: c.as_str(),
                value,
                precision: precision[c].max(resolution(m, &cells[c.as_str()], value)),
                spread: spread.get(c).copied(),
            })
        })
        .collect();
    let d = rules::decide(m.better(), &entries, opts.judge());
    let baseline_ties = baseline
        .map(|b| rules::baseline_ties(b, &entries, opts.judge()))
        .unwrap_or_default()
        .into_iter()
        .collect();
    // An excluded value is no measurement: no delta from it, and none
    // against it when it is the baseline's.
    let compared = |c: &str| {
        values
            .get(c)
            .copied()
            .flatten()
            .filter(|_| !excluded.contains_key(c))
    };
    let base = baseline.and_then(compared);
    let delta_abs = values
        .keys()
        .map(|c| (c.clone(), compared(c).zip(base).map(|(v, b)| v - b)))
        .collect();
    let delta_pct = values
        .keys()
        .map(|c| {
            let pct = compared(c)
                .zip(base)
                .filter(|(_, b)| *b != 0.0)
                .map(|(v, b)| (v - b) / b * 100.0);
            (c.clone(), pct)
        })
        .collect();
    Some(MetricResult {
        metric: m,
        better: m.better(),
        values,
        precision,
        spread,
        winner: d.winner,
        tied: d.tied,
        delta_pct,
        delta_abs,
        rule: d.rule,
        baseline_ties,
        excluded,
        approximate: approximate(m, cells),
        tail_pct: cells
            .values()
            .find_map(|c| c.runs.first())
            .map_or(workload::P99, |r| r.tail_pct),
    })
}

/// What the tie rule cannot see below, beyond a value's rounding: fio's
/// percentiles are its latency histogram's buckets, so two p99 values a
/// bucket apart are one measurement (`metric::fio_bucket_width`).
/// Tables print the value as fio gave it; only winners and ties use this.
fn resolution(m: Metric, cell: &Cell, value: f64) -> f64 {
    let fio = cell.runs.iter().all(|r| r.tool == "fio");
    match m {
        Metric::ClatP99Ns if fio => metric::fio_bucket_width(value),
        _ => 0.0,
    }
}

/// Configs whose value of `m` is approximate (see
/// [`MetricResult::approximate`]).
fn approximate(m: Metric, cells: &IndexMap<&str, Cell>) -> Vec<String> {
    if m != Metric::ClatP99Ns {
        return Vec::new();
    }
    cells
        .iter()
        .filter(|(_, cell)| cell.runs.iter().any(|r| r.p99_upper_bound))
        .map(|(c, _)| c.to_string())
        .collect()
}

fn cells_runs<'a>(cells: &'a IndexMap<&'a str, Cell>) -> Vec<(&'a str, &'a [Run])> {
    cells
        .iter()
        .map(|(c, cell)| (*c, cell.runs.as_slice()))
        .collect()
}

impl Workload {
    /// `randread 4k`, `randrw 4k read (70 % reads)`: the shape, without
    /// the load point.
    pub fn title(&self) -> String {
        self.key.shape.title()
    }

    /// `randread 4k at QD32`, `randread 4k at QD4 x 8 jobs`.
    pub fn title_with_load(&self) -> String {
        format!("{} at {}", self.title(), self.key.load.label())
    }

    pub fn metric(&self, m: Metric) -> Option<&MetricResult> {
        self.metrics.iter().find(|r| r.metric == m)
    }
}

impl Comparison {
    /// True when the workloads ran at more than one load point: titles then
    /// name the load.
    pub fn has_load_points(&self) -> bool {
        let mut loads = self.workloads.iter().map(|w| w.key.load);
        let first = loads.next();
        loads.any(|l| Some(l) != first)
    }

    /// A workload's title, with its load point when loads vary.
    pub fn title_of(&self, w: &Workload) -> String {
        if self.has_load_points() {
            w.title_with_load()
        } else {
            w.title()
        }
    }
}
