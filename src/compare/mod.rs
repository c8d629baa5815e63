//! The comparison rules, in one place: workloads, metrics and their
//! direction, winners, ties (precision and significance), deltas against a
//! baseline, OS families, highlights and sanity checks. Works on the
//! dataset's rows only, never on raw files.
//!
//! - [`workload`]: which rows make one measurement (aggregates, jobs, runs).
//! - [`metric`]: each metric's direction, precision, name and scale.
//! - [`rules`]: winner and ties of one metric.
//! - [`findings`]: plain sentences from the result, ranked.
//! - `cell`: one config's runs of one workload; `result`: one metric
//!   across configs ([`MetricResult`]).
//! - [`sanity`]: checks a careful reviewer makes.
//! - [`setup`]: what was run, per config, for the top of a report.

pub mod comparison;
pub mod devices;
pub mod findings;
pub mod metric;
pub mod names;
pub mod report_units;
pub mod rules;
pub mod sanity;
pub mod setup;
pub mod shown;
pub mod sparse;
pub mod stats;
pub mod steady;
pub mod sweep;
pub mod workload;

mod cell;
mod notes;
mod result;
mod validity;

#[cfg(test)]
pub(crate) mod testdata;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};

use indexmap::IndexMap;

pub use comparison::*;
pub use workload::LoadPoint;

use crate::model::{Os, Row, Warning, is_mixed};
use cell::{ConfigCell, cells_runs};
use result::metric_results;
use workload::{Run, Shape, WorkloadKey};

/// Steady-state verdicts judged from fio's logs, by result file and
/// workload ([`crate::steady_state::snia::judge`]): kept until compare
/// meets the run, used where fio gave none.
pub type SteadyVerdicts = HashMap<(String, Shape), SteadyState>;

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
    /// `--equivalence PCT`: differences of at most PCT % of the larger
    /// value are ties; None for the default,
    /// [`rules::SINGLE_RUN_FLOOR_PCT`].
    pub equivalence_pct: Option<f64>,
    /// How many key findings to lead reports with (`--findings N`).
    pub findings: usize,
    /// `--steady-only`: IOPS and bandwidth over the steady-state window
    /// where one is known, instead of the whole run.
    pub steady_only: bool,
    /// Steady-state verdicts judged from fio's logs, used where fio gave
    /// none.
    pub log_steady: SteadyVerdicts,
    /// How the rows' configs were told apart; its keys are setup items.
    pub config_rule: crate::model::ConfigRule,
    /// House style's units (the manifest's `[units]`, `--unit`).
    pub house: report_units::HouseStyle,
    /// The tail percentile a metric flag named (`check --metric
    /// clat_p95`): the tail every table shows, over the runs' own
    /// ([`workload::tail_percentile`]) and an SLO's.
    pub tail: Option<f64>,
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
            log_steady: SteadyVerdicts::new(),
            config_rule: crate::model::ConfigRule::default(),
            house: report_units::HouseStyle::default(),
            tail: None,
        }
    }
}

impl CompareOptions {
    /// How ties are judged.
    pub fn judge(&self) -> rules::Judge {
        rules::Judge {
            alpha: self.alpha,
            equivalence_pct: Some(self.equivalence_pct()),
        }
    }

    /// The equivalence margin in force: `--equivalence`, else the floor
    /// under which one run's figures are not told apart.
    pub fn equivalence_pct(&self) -> f64 {
        self.equivalence_pct.unwrap_or(rules::SINGLE_RUN_FLOOR_PCT)
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
    let (named, config_labels) = with_short_names(rows, opts);
    let study = opts.config_rule.study.renamed(|l| named.name(l));
    compare_named(rows, &named, config_labels, RowNames::ToSet, study)
}

/// [`compare`] of rows the caller owns: each row carries its config's
/// display name during the comparison and its own label again after it,
/// so that the rows are not copied to carry the names (a second copy of
/// every row, most of `analyze`'s memory on an archive whose configs the
/// rule names at length). The rows come back as they went in; the study
/// (every file's place: 100,000 at a lab's archive) is moved from `opts`
/// into the comparison, not copied.
pub fn compare_owned(rows: &mut [Row], opts: &mut CompareOptions) -> Comparison {
    let (named, config_labels) = with_short_names(rows, opts);
    let study = std::mem::take(&mut opts.config_rule.study).into_renamed(|l| named.name(l));
    let own: Vec<String> = rows
        .iter_mut()
        .map(|r| {
            let name = named.name(&r.config);
            std::mem::replace(&mut r.config, name)
        })
        .collect();
    let cmp = compare_named(rows, &named, config_labels, RowNames::Set, study);
    for (r, label) in rows.iter_mut().zip(own) {
        r.config = label;
    }
    cmp
}

/// Whether the rows carry their configs' display names already.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RowNames {
    ToSet,
    Set,
}

fn compare_named(
    rows: &[Row],
    opts: &CompareOptions,
    config_labels: IndexMap<String, String>,
    names: RowNames,
    study: crate::model::Study,
) -> Comparison {
    let (kept, mut warnings) = admit(rows, opts, names);
    // A `--slo clat_p95=...` target makes p95 the tail every table shows.
    let tail = match (opts.tail, opts.sweep_rules.slo) {
        (Some(named), _) => named,
        (None, Some(slo)) if slo.metric == SloMetric::ClatP99 => slo.percentile,
        _ => workload::tail_percentile(&kept),
    };
    // Which rows make each run; the runs themselves are made one
    // workload at a time and dropped once it is compared.
    let plan = workload::plan_at(&kept, tail);
    let configs = order_configs(&plan.configs, opts);
    let config_os = os_of_configs(&plan, &configs);
    let families = families(&configs, &config_os);
    let (baseline, baseline_why) = pick_baseline(&configs, opts, &config_labels, &mut warnings);
    let setup = setup_of(&kept, &configs, opts, &config_labels);
    let workloads = compare_workloads(&plan, &configs, baseline.as_deref(), opts);
    let engines = sanity::mixed_engines(&plan);
    drop(plan);

    let devices = devices::build(&kept, &configs);
    let units = units_of(&workloads, opts.house);
    let mut cmp = Comparison {
        configs,
        baseline,
        config_os,
        families,
        workloads: mark_probes(workloads),
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
        equivalence_pct: Some(opts.equivalence_pct()),
        config_rule: renamed_rule(&opts.config_rule, |l| opts.name(l)),
        study,
        tail_percentile: tail,
        config_labels,
        baseline_why,
        units,
        all_configs: None,
    };
    cmp.sweeps = sweep::build(&cmp);
    cmp.bs_sweeps = sweep::blocksize::build(&cmp);
    cmp.sanity = sanity::names_as_variants(&kept);
    cmp.sanity.extend(sanity::check_comparison(&cmp));
    cmp.sanity.extend(engines);
    cmp.sanity.extend(sanity::ran_together(&kept));
    cmp.sanity.extend(opts.config_rule.notes.iter().cloned());
    cmp.sanity.extend(sparse::notes(&cmp));
    let mut all = findings::build(&cmp, opts.judge());
    all.extend(devices::findings(&cmp.devices));
    let headline = |f: &findings::Finding| findings::headline_of(&cmp, f);
    // Families mixed (4k and 128k): the win counts across them lead.
    let one = findings::one_family(&cmp);
    let headline = |f: &findings::Finding| headline(f).filter(|_| one);
    let (key, ordered) = findings::select(all, opts.findings, &headline);
    cmp.key_findings = key;
    cmp.highlights = ordered.into_iter().map(|f| f.text).collect();
    cmp
}

/// The setup table, with the full identity a display name shortens first
/// when configs were given short names.
fn setup_of(
    kept: &[Row],
    configs: &[String],
    opts: &CompareOptions,
    config_labels: &IndexMap<String, String>,
) -> setup::Setup {
    let mut setup = setup::build(kept, configs, &opts.setup, &opts.config_rule.keys, |l| {
        opts.name(l)
    });
    if !config_labels.is_empty() {
        let values = configs
            .iter()
            .map(|c| (c.clone(), Some(config_labels.get(c).unwrap_or(c).clone())))
            .collect();
        let item = setup::SetupItem::new("label", "Config", setup::SetupSource::Data, values);
        setup.items.insert(0, item);
    }
    setup
}

/// The rule with its configs under their display names.
fn renamed_rule(
    rule: &crate::model::ConfigRule,
    name_of: impl Fn(&str) -> String,
) -> crate::model::ConfigRule {
    // Its study (every file's place) is the comparison's `study`, renamed
    // on its own: not copied here too.
    crate::model::ConfigRule {
        rule: rule.rule.clone(),
        keys: rule.keys.clone(),
        values: rule
            .values
            .iter()
            .map(|(label, v)| (name_of(label), v.clone()))
            .collect(),
        split_folders: rule.split_folders.clone(),
        file_configs: rule.file_configs.clone(),
        notes: rule.notes.clone(),
        roles: rule.roles.clone(),
        declared_repeats: rule.declared_repeats.clone(),
        study: crate::model::Study::default(),
    }
}

/// Rows that may enter the comparison, renamed to their display names; a
/// warning for each row left out or kept out of winners. The rows are
/// borrowed as they are when none is left out or renamed: a copy of every
/// row (about a kilobyte each) was a third of `analyze`'s memory at
/// 100,000 files.
fn admit<'r>(
    rows: &'r [Row],
    opts: &CompareOptions,
    names: RowNames,
) -> (Cow<'r, [Row]>, Vec<Warning>) {
    let mut warnings = Vec::new();
    let mut as_they_are = true;
    for r in rows {
        if !admissible(r) {
            warnings.push(Warning {
                source: r.source.clone(),
                message: format!(
                    "job {:?} ({} {}) has a value that is not a finite, non-negative number; left out",
                    r.job, r.rw, r.direction
                ),
            });
            as_they_are = false;
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
        as_they_are &= names == RowNames::Set || opts.name(&r.config) == r.config;
    }
    if as_they_are {
        return (Cow::Borrowed(rows), warnings);
    }
    let kept = rows
        .iter()
        .filter(|r| admissible(r))
        .map(|r| {
            let mut r = r.clone();
            if names == RowNames::ToSet {
                r.config = opts.name(&r.config);
            }
            r
        })
        .collect();
    (Cow::Owned(kept), warnings)
}

/// Whether a row's figures can be compared: finite and not negative.
fn admissible(r: &Row) -> bool {
    [r.bw_bytes_per_s, r.iops, r.runtime_ms, r.cpu_pct()]
        .iter()
        .all(|v| v.is_finite() && *v >= 0.0)
}

/// Every workload compared, in the workloads' order, each one's runs
/// made for it and dropped once it is compared.
fn compare_workloads(
    plan: &workload::RunPlan<'_>,
    configs: &[String],
    baseline: Option<&str>,
    opts: &CompareOptions,
) -> Vec<Workload> {
    let keys: BTreeSet<&WorkloadKey> = plan.configs.values().flat_map(|m| m.keys()).collect();
    keys.into_iter()
        .map(|key| {
            let runs = runs_at(plan, key, configs, opts);
            compare_workload(key, &runs, plan, configs, baseline, opts)
        })
        .collect()
}

/// Each config's runs at `key` (the configs that ran it), made now,
/// with their logs' steady-state verdicts and, with `--steady-only`, the
/// steady windows' figures.
fn runs_at<'c>(
    plan: &workload::RunPlan<'_>,
    key: &WorkloadKey,
    configs: &'c [String],
    opts: &CompareOptions,
) -> IndexMap<&'c str, Vec<Run>> {
    configs
        .iter()
        .filter_map(|c| {
            let mut runs = plan.runs(c, key)?;
            attach_log_steady(key, &mut runs, &opts.log_steady);
            if opts.steady_only {
                to_steady_windows(key, &mut runs);
            }
            Some((c.as_str(), runs))
        })
        .collect()
}

/// The manifest's order first, then configs in the order first seen.
fn order_configs<V>(grouped: &IndexMap<String, V>, opts: &CompareOptions) -> Vec<String> {
    let mut configs: Vec<String> = opts
        .order
        .iter()
        .map(|l| opts.name(l))
        .filter(|c| grouped.contains_key(c))
        .collect();
    configs.dedup();
    let ordered: std::collections::HashSet<String> = configs.iter().cloned().collect();
    for c in grouped.keys() {
        if !ordered.contains(c) {
            configs.push(c.clone());
        }
    }
    configs
}

fn os_of_configs(plan: &workload::RunPlan<'_>, configs: &[String]) -> IndexMap<String, Os> {
    configs
        .iter()
        .map(|c| {
            // A run's OS is its first row's.
            let os = plan.configs[c]
                .values()
                .flatten()
                .find_map(|(rows, _)| Some(rows.first()?.os.family()));
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

/// The options with every config's display name decided: `--name` and the
/// manifest's names first (by label or by the short name), else the
/// shortest distinguishing part of the label ([`names::short_names`]).
/// Also each display name's full label, where the two differ.
fn with_short_names(
    rows: &[Row],
    opts: &CompareOptions,
) -> (CompareOptions, IndexMap<String, String>) {
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let labels: Vec<String> = rows
        .iter()
        .filter(|r| seen.insert(r.config.as_str()))
        .map(|r| r.config.clone())
        .collect();
    let short = names::short_names(&labels);
    // Every field but the study, which the caller renames on its own.
    let mut out = CompareOptions {
        order: opts.order.clone(),
        baseline: opts.baseline.clone(),
        display_names: opts.display_names.clone(),
        alpha: opts.alpha,
        round: opts.round.clone(),
        sweep_rules: opts.sweep_rules,
        setup: opts.setup.clone(),
        equivalence_pct: opts.equivalence_pct,
        findings: opts.findings,
        steady_only: opts.steady_only,
        log_steady: opts.log_steady.clone(),
        config_rule: renamed_rule(&opts.config_rule, str::to_string),
        house: opts.house,
        tail: opts.tail,
    };
    let mut full = IndexMap::new();
    for (label, auto) in &short {
        let given = opts
            .display_names
            .get(label)
            .or_else(|| opts.display_names.get(auto));
        let name = given.cloned().unwrap_or_else(|| auto.clone());
        if name != *label {
            full.insert(name.clone(), label.clone());
        }
        out.display_names.insert(label.clone(), name);
    }
    (out, full)
}

/// The baseline and, where no flag or manifest chose it, why it is the
/// one ([`names::default_baseline`]).
fn pick_baseline(
    configs: &[String],
    opts: &CompareOptions,
    labels: &IndexMap<String, String>,
    warnings: &mut Vec<Warning>,
) -> (Option<String>, Option<String>) {
    let by_rule = || {
        let kernels = kernels(configs, opts);
        match names::default_baseline(configs, labels, &kernels) {
            Some(b) => (Some(b.config), Some(b.why)),
            None => (None, None),
        }
    };
    let given = opts.baseline.as_ref().map(|b| {
        // `--baseline` may name a config by its label or its display name.
        let named = configs.iter().find(|c| *c == b).cloned();
        named.unwrap_or_else(|| opts.name(b))
    });
    match (&opts.baseline, given) {
        (Some(_), Some(b)) if configs.contains(&b) => (Some(b), None),
        (Some(b), _) => {
            let chosen = by_rule();
            warnings.push(Warning {
                source: b.clone(),
                message: format!(
                    "baseline {b:?} is not one of the configs ({}); deltas are against {:?}",
                    configs.join(", "),
                    chosen.0.as_deref().unwrap_or("")
                ),
            });
            chosen
        }
        _ => by_rule(),
    }
}

/// Each config's kernel release where the manifest's `[setup]` gives one
/// ("Kernel" = "6.8.0-45-generic").
fn kernels(configs: &[String], opts: &CompareOptions) -> IndexMap<String, String> {
    let mut out = IndexMap::new();
    for (label, setup) in &opts.setup.per_config {
        let kernel = setup.iter().find(|(k, _)| k.eq_ignore_ascii_case("kernel"));
        let name = opts.name(label);
        if let Some((_, v)) = kernel
            && configs.contains(&name)
        {
            out.insert(name, v.clone());
        }
    }
    out
}

/// `--steady-only`: a run with a known steady-state window reports that
/// window's IOPS and bandwidth. fio's per-second samples cover the whole
/// run, so they no longer describe the figure and are dropped. fio keeps
/// the window for the job as a whole, so a mixed job's directions, which
/// it cannot be split into, keep the whole run's figures.
fn to_steady_windows(key: &WorkloadKey, runs: &mut [Run]) {
    if is_mixed(&key.shape.rw) {
        return;
    }
    for r in runs.iter_mut() {
        let Some(s) = &r.steady else { continue };
        if let (Some(iops), Some(bw)) = (s.iops, s.bw_bytes_per_s) {
            (r.iops, r.bw) = (iops, bw);
            (r.iops_samples, r.bw_samples) = (None, None);
        }
    }
}

/// Gives each run that fio did not judge the verdict its logs gave: fio's
/// own verdict is never overridden.
fn attach_log_steady(key: &WorkloadKey, runs: &mut [Run], verdicts: &SteadyVerdicts) {
    if verdicts.is_empty() {
        return;
    }
    for r in runs.iter_mut().filter(|r| r.steady.is_none()) {
        r.steady = verdicts
            .get(&(r.source.clone(), key.shape.clone()))
            .cloned()
            .map(Box::new);
    }
}

/// Each config's steady state: every run's verdict combined.
fn steady_states(cells: &IndexMap<&str, ConfigCell>) -> IndexMap<String, SteadyState> {
    cells
        .iter()
        .filter_map(|(c, cell)| {
            let all: Vec<&SteadyState> = cell
                .runs
                .iter()
                .filter_map(|r| r.steady.as_deref())
                .collect();
            Some((c.to_string(), SteadyState::combine(&all)?))
        })
        .collect()
}

/// Of the workloads that ran beside others in a group of one size, the
/// one of least load per instance (iodepth x numjobs x devices) is the
/// probe: a QD1 latency job beside QD128 apps, as such studies run them.
fn mark_probes(mut workloads: Vec<Workload>) -> Vec<Workload> {
    let per_instance =
        |l: &LoadPoint| u64::from(l.iodepth) * u64::from(l.numjobs) * u64::from(l.devices.max(1));
    let sizes: BTreeSet<u32> = workloads
        .iter()
        .filter(|w| w.key.load.beside > 0)
        .map(|w| w.key.load.instances)
        .collect();
    for n in sizes {
        let least = workloads
            .iter()
            .filter(|w| w.key.load.beside > 0 && w.key.load.instances == n)
            .map(|w| per_instance(&w.key.load))
            .min();
        let others = workloads
            .iter()
            .filter(|w| w.key.load.beside > 0 && w.key.load.instances == n)
            .any(|w| Some(per_instance(&w.key.load)) != least);
        for w in workloads.iter_mut().filter(|w| w.key.load.instances == n) {
            let l = &mut w.key.load;
            l.probe = others && l.beside > 0 && Some(per_instance(l)) == least;
        }
    }
    workloads
}

/// One workload: every metric across configs, and what a reader should
/// know about it.
fn compare_workload(
    key: &WorkloadKey,
    runs: &IndexMap<&str, Vec<Run>>,
    plan: &workload::RunPlan<'_>,
    configs: &[String],
    baseline: Option<&str>,
    opts: &CompareOptions,
) -> Workload {
    let mut cells: IndexMap<&str, ConfigCell> = configs
        .iter()
        .filter_map(|c| {
            runs.get(c.as_str())
                .map(|runs| (c.as_str(), ConfigCell::new(runs)))
        })
        .collect();
    let mut notes = notes::missing(key, &plan.configs, configs, &cells);
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
    let mut metrics = metric_results(&cells, configs, baseline, opts);
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
            let bins = cell.runs.first()?.clat_bins.as_ref()?;
            (cell.runs.len() == 1).then(|| (c.to_string(), bins.to_vec()))
        })
        .collect();
    let checks = sanity::check_workload(key, &cells_runs(&cells));
    let params = cells
        .iter()
        .map(|(c, cell)| (c.to_string(), run_params(&cell.runs)))
        .collect();
    // Files of this workload in its instance group: the rest ran another
    // workload beside it (a probe beside apps).
    let mut key = key.clone();
    if key.load.instances > 1 {
        let own = cells
            .values()
            .flat_map(|c| c.runs.iter())
            .map(|r| r.files)
            .max();
        key.load.beside = key
            .load
            .instances
            .saturating_sub(own.unwrap_or(key.load.instances));
    }
    Workload {
        key,
        effective_iodepth,
        metrics,
        percentiles,
        clat_bins,
        steady_state,
        notes,
        checks,
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
fn effective_depths(
    key: &WorkloadKey,
    cells: &IndexMap<&str, ConfigCell>,
) -> IndexMap<String, u32> {
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

impl Workload {
    /// The notes a report prints under this workload: its notes, then its
    /// runs' checks grouped by rule and config ([`sanity::grouped`]).
    pub fn note_lines(&self) -> Vec<String> {
        let mut lines = self.notes.clone();
        lines.extend(sanity::grouped(&self.checks));
        lines
    }

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

/// The units of a comparison's workloads: every compared latency (mean and
/// tail) and bandwidth of every config.
fn units_of(workloads: &[Workload], house: report_units::HouseStyle) -> report_units::ReportUnits {
    let values = |ms: &[Metric]| -> Vec<f64> {
        workloads
            .iter()
            .flat_map(|w| w.metrics.iter().filter(|m| ms.contains(&m.metric)))
            .flat_map(|m| m.compared().map(|(_, v)| v.abs()).collect::<Vec<_>>())
            .collect()
    };
    report_units::ReportUnits::chosen(
        &values(&[Metric::LatMeanNs, Metric::ClatP99Ns]),
        &values(&[Metric::BwBytesPerS]),
        house,
    )
}
