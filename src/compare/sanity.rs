//! Checks a careful reviewer makes before trusting a table: bandwidth that
//! disagrees with IOPS x block size, values that cannot be, a config that
//! lacks workloads the others have. Findings are notes, never errors: the
//! data still gets compared.

use indexmap::IndexMap;

use super::comparison::{Comparison, Metric, RunCheck, Workload};
use super::workload::{LoadPoint, Run, Shape, WorkloadKey};
use crate::numbers;

/// Relative disagreement allowed between bandwidth and IOPS x bs beyond
/// both values' rounding. fio computes both from the same I/O count but
/// over slightly different windows, and published figures are rounded
/// separately (StorageReview's Windows figures differ by up to 0.005 %).
pub const BW_IOPS_TOLERANCE: f64 = 0.001;

/// Rule of a [`RunCheck`]: bandwidth against IOPS x block size.
pub const BW_VS_IOPS: &str = "bw_vs_iops";
/// Rule of a [`RunCheck`]: more I/Os in flight than the run's slots.
pub const IN_FLIGHT: &str = "in_flight";

/// Checks on one workload's runs, per config: one [`RunCheck`] per run
/// and rule it fails.
pub fn check_workload(key: &WorkloadKey, cells: &[(&str, &[Run])]) -> Vec<RunCheck> {
    let mut notes = Vec::new();
    for (config, runs) in cells {
        for r in runs.iter() {
            let expected = r.iops * r.bs_bytes as f64;
            let tol = BW_IOPS_TOLERANCE * expected
                + r.iops_precision * r.bs_bytes as f64 / 2.0
                + r.bw_precision / 2.0;
            if r.bs_bytes > 0 && expected > 0.0 && (r.bw - expected).abs() > tol {
                let bw = Metric::BwBytesPerS.scale(r.bw.max(expected));
                let pct = (r.bw - expected).abs() / expected * 100.0;
                notes.push(RunCheck {
                    rule: BW_VS_IOPS.into(),
                    config: config.to_string(),
                    source: r.source.clone(),
                    value: pct,
                    text: format!(
                        "{config}: bandwidth {} disagrees with IOPS x block size ({}) by {} % ({})",
                        bw.with_unit(r.bw),
                        bw.with_unit(expected),
                        numbers::fixed(pct, 2),
                        r.source
                    ),
                });
            }
            // Total latency below completion latency, CPU above 100 % and
            // latency 0 are metric exclusions (`validity`), said once per
            // config in `exclusions`.
            // Little's law: I/Os in flight = IOPS x latency. More in flight
            // than iodepth x numjobs (per target) allows means a figure is
            // wrong.
            if let Some(lat) = r.lat {
                let in_flight = r.iops * lat / 1e9;
                let slots = r.iodepth.max(1) as f64
                    * r.numjobs.max(1) as f64
                    * r.targets as f64
                    * r.files as f64;
                if in_flight > slots * 1.1 + 1.0 {
                    let per = match (r.targets > 1, r.files > 1) {
                        (true, true) => " x targets x instances",
                        (true, false) => " x targets",
                        (false, true) => " x instances",
                        (false, false) => "",
                    };
                    notes.push(RunCheck {
                        rule: IN_FLIGHT.into(),
                        config: config.to_string(),
                        source: r.source.clone(),
                        value: in_flight / slots,
                        text: format!(
                            "{config}: {} I/Os in flight (IOPS x mean latency) but iodepth x numjobs{per} is {} ({})",
                            numbers::fixed(in_flight, 0),
                            numbers::fixed(slots, 0),
                            r.source
                        ),
                    });
                }
            }
        }
    }
    let _ = key;
    notes
}

/// Examples a grouped line names at most.
pub const EXAMPLES: usize = 3;

/// `checks` as a report prints them: a rule failed by one run of a
/// config as its own sentence; by several, one line with the count, the
/// range of how far off and up to [`EXAMPLES`] files ("linux: bandwidth
/// disagrees with IOPS x block size in 2,500 files, by 0.60–8.80 %;
/// e.g. a.json, b.json, c.json"). Rules and configs in first-seen order.
pub fn grouped(checks: &[RunCheck]) -> Vec<String> {
    let mut groups: IndexMap<(&str, &str), Vec<&RunCheck>> = IndexMap::new();
    for c in checks {
        groups
            .entry((c.rule.as_str(), c.config.as_str()))
            .or_default()
            .push(c);
    }
    groups
        .into_iter()
        .map(|((rule, config), group)| match group.as_slice() {
            [one] => one.text.clone(),
            many => {
                let (lo, hi) = many.iter().fold((f64::INFINITY, 0.0_f64), |(lo, hi), c| {
                    (lo.min(c.value), hi.max(c.value))
                });
                let files = numbers::count(many.len(), "file");
                let range = match rule {
                    IN_FLIGHT => format!(
                        "{}–{}x the I/Os iodepth x numjobs allows",
                        numbers::fixed(lo, 1),
                        numbers::fixed(hi, 1)
                    ),
                    _ => format!("by {}–{} %", numbers::fixed(lo, 2), numbers::fixed(hi, 2)),
                };
                let what = match rule {
                    IN_FLIGHT => "more I/Os in flight (IOPS x mean latency) than its queues hold",
                    _ => "bandwidth disagrees with IOPS x block size",
                };
                let examples: Vec<&str> = many
                    .iter()
                    .take(EXAMPLES)
                    .map(|c| c.source.as_str())
                    .collect();
                format!(
                    "{config}: {what} in {files}, {range}; e.g. {}",
                    examples.join(", ")
                )
            }
        })
        .collect()
}

/// Result files read as fio instances that ran side by side
/// (`ingest::instances`): how many, and the flag that reads them apart.
pub fn ran_together(rows: &[crate::model::Row]) -> Option<String> {
    let mut files = std::collections::BTreeSet::new();
    let mut groups = std::collections::BTreeSet::new();
    for r in rows {
        if let Some(g) = &r.instance_group {
            files.insert(r.source.as_str());
            groups.insert(g.as_str());
        }
    }
    (!files.is_empty()).then(|| {
        format!(
            "{} result files ran as {} groups of fio instances at once on the same targets (their run times overlap): each group is one run, its I/O summed, at load `instances` (the group's files, every workload counted); --instances apart reads each file as its own run",
            files.len(),
            groups.len()
        )
    })
}

/// Job names that are one config because their words name none (a
/// workload's `read`, a variant's `aged`, an output format's `crlf`): at
/// one workload and load point of one file they are told apart only as
/// variants of the workload. 128,904 distinct names made 128,900 configs,
/// and only this says which names went where. One line per config and
/// workload, first among the checks (the configs' missing workloads
/// follow, one line each).
pub fn names_as_variants(rows: &[crate::model::Row]) -> Vec<String> {
    use std::collections::hash_map::Entry;
    use std::hash::BuildHasher;
    type At<'a> = (&'a str, &'a str, Shape, (u32, u32));
    fn at_of(r: &crate::model::Row) -> At<'_> {
        let mut shape = Shape::of(r);
        shape.variant = None;
        let source = super::workload::run_source(r);
        (r.config.as_str(), source, shape, (r.iodepth, r.numjobs))
    }
    // A first pass keeps each place's hash and first job name: nearly
    // every file of an archive has one name per place, and all the places
    // at once (150,000 with their shapes) were a tenth of analyze's peak.
    // Only places where another name turns up (or that share a hash with
    // one) are then gathered in full.
    let hasher = crate::quick_hash::QuickHash::default();
    let mut first: std::collections::HashMap<u64, (&str, bool), crate::quick_hash::QuickHash> =
        std::collections::HashMap::default();
    for r in rows {
        match first.entry(hasher.hash_one(at_of(r))) {
            Entry::Vacant(e) => {
                e.insert((r.job.as_str(), false));
            }
            Entry::Occupied(mut e) => e.get_mut().1 |= e.get().0 != r.job,
        }
    }
    let mut jobs: IndexMap<At, IndexMap<&str, Option<&str>>> = IndexMap::new();
    for r in rows {
        let at = at_of(r);
        if !first.get(&hasher.hash_one(&at)).is_some_and(|f| f.1) {
            continue;
        }
        jobs.entry(at)
            .or_default()
            .entry(r.job.as_str())
            .or_insert(r.variant.as_deref());
    }
    drop(first);
    jobs.into_iter()
        .filter(|(_, names)| {
            let variants: std::collections::HashSet<_> = names.values().collect();
            names.len() >= 2 && variants.len() >= 2
        })
        .map(|((config, _, shape, _), names)| {
            let mut listed: Vec<String> = names
                .iter()
                .take(NAMES_LISTED)
                .map(|(job, v)| format!("{job} ({})", v.unwrap_or("no variant")))
                .collect();
            if names.len() > NAMES_LISTED {
                let more = (names.len() - NAMES_LISTED) as u64;
                listed.push(format!("{} more", numbers::whole(more)));
            }
            format!(
                "{config}: {} job names are this one config, their other words naming none \
                 (a workload, a variant of it or an output format), told apart as variants of \
                 {}: {}",
                numbers::whole(names.len() as u64),
                shape.title(),
                listed.join(", ")
            )
        })
        .collect()
}

/// The most job names [`names_as_variants`] lists; the rest counted.
const NAMES_LISTED: usize = 8;

/// Findings about the comparison as a whole: what each config did not
/// run, and the metrics left out of it, each said once per config.
pub fn check_comparison(cmp: &Comparison) -> Vec<String> {
    let mut out = Vec::new();
    for c in &cmp.configs {
        out.extend(not_run(cmp, c));
    }
    out.extend(exclusions(cmp));
    out
}

fn has_result(w: &Workload, config: &str) -> bool {
    w.metrics
        .first()
        .is_some_and(|m| m.values.get(config).copied().flatten().is_some())
}

/// What `config` did not run, per shape: "psync ran randread 4k at QD1 x
/// 1-4 jobs only" where it ran some load points of a shape (a sweep it
/// took part in), "io_uring has no result for randread 64k at QD32" where
/// it ran none.
fn not_run(cmp: &Comparison, config: &str) -> Vec<String> {
    let mut by_shape: IndexMap<&Shape, (Vec<LoadPoint>, Vec<LoadPoint>)> = IndexMap::new();
    for w in &cmp.workloads {
        let (ran, missed) = by_shape.entry(&w.key.shape).or_default();
        if has_result(w, config) {
            ran.push(w.key.load);
        } else {
            missed.push(w.key.load);
        }
    }
    let mut none = Vec::new();
    let mut out = Vec::new();
    for (shape, (ran, missed)) in &by_shape {
        if missed.is_empty() {
            continue;
        }
        if ran.is_empty() {
            none.push(match cmp.has_load_points() {
                true => format!("{} at {}", shape.title(), LoadPoint::condense(missed)),
                false => shape.title(),
            });
        } else {
            out.push(format!(
                "{config} ran {} at {} only (not at {})",
                shape.title(),
                LoadPoint::condense(ran),
                LoadPoint::condense(missed)
            ));
        }
    }
    if !none.is_empty() {
        out.insert(0, format!("{config} has no result for {}", none.join(", ")));
    }
    out
}

/// "io_uring-sqpoll: p99 latency left out at randread 4k QD1 and QD8:
/// fio's completion latency is not measured from submission with
/// sqthread_poll=1 (...)": one note per config and reason, with the
/// metrics and load points it covers.
pub fn exclusions(cmp: &Comparison) -> Vec<String> {
    type Covered = (Vec<Metric>, IndexMap<Shape, Vec<LoadPoint>>);
    let mut by: IndexMap<(String, String), Covered> = IndexMap::new();
    for w in &cmp.workloads {
        for r in &w.metrics {
            for (config, reason) in &r.excluded {
                let (metrics, loads) = by.entry((config.clone(), reason.clone())).or_default();
                if !metrics.contains(&r.metric) {
                    metrics.push(r.metric);
                }
                let at = loads.entry(w.key.shape.clone()).or_default();
                if !at.contains(&w.key.load) {
                    at.push(w.key.load);
                }
            }
        }
    }
    by.into_iter()
        .map(|((config, reason), (metrics, loads))| {
            let names: Vec<std::borrow::Cow<str>> = metrics
                .iter()
                .filter(|m| !m.is_derived())
                .map(|m| m.human_at(cmp.tail_percentile))
                .collect();
            let names = if names.is_empty() {
                metrics
                    .iter()
                    .map(|m| m.human_at(cmp.tail_percentile))
                    .collect()
            } else {
                names
            };
            let at: Vec<String> = loads
                .iter()
                .map(|(shape, l)| match cmp.has_load_points() {
                    true => format!("{} at {}", shape.title(), LoadPoint::condense(l)),
                    false => shape.title(),
                })
                .collect();
            format!(
                "{config}: {} left out of the comparison in {}: {reason}",
                names.join(", "),
                at.join("; ")
            )
        })
        .collect()
}

/// A config (label) whose files come from several engines: its figures
/// mix stacks. Names them with their file counts and the flag that
/// separates them.
pub fn mixed_engines(plan: &super::workload::RunPlan<'_>) -> Vec<String> {
    let mut out = Vec::new();
    for (config, heads) in plan.heads() {
        // Per engine, each run's first file and the files it was read from
        // (fio instances that ran together are one run of several files).
        let mut files: indexmap::IndexMap<&str, std::collections::BTreeMap<&str, u32>> =
            indexmap::IndexMap::new();
        for (r, run_files) in heads {
            if !r.engine.is_empty() && r.engine != "unknown" {
                files
                    .entry(r.engine.as_str())
                    .or_default()
                    .insert(&r.source, run_files);
            }
        }
        // A file that ran several engines (a script's suite of job files)
        // chose them per workload: not stacks mixed by mistake.
        let suite = files.values().enumerate().any(|(i, f)| {
            files
                .values()
                .skip(i + 1)
                .any(|g| f.keys().any(|s| g.contains_key(s)))
        });
        if files.len() > 1 && !suite {
            let parts: Vec<String> = files
                .iter()
                .map(|(e, f)| {
                    let n: u32 = f.values().sum();
                    format!("{e} ({n} file{})", if n == 1 { "" } else { "s" })
                })
                .collect();
            out.push(format!(
                "{config} holds results from several engines: {}; `--label-by engine` (or one folder per engine) compares them",
                parts.join(", ")
            ));
        }
    }
    out
}
