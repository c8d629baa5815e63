//! How the study was read ([`Study`]), worked out from the rows once
//! their configs are set: grouped and counted so that thousands of files
//! read on one screen, and every file's place.

use std::collections::{BTreeMap, BTreeSet};

use indexmap::IndexMap;

use super::{class, stem, tokens};
use crate::model::{
    AxisValues, ConfigRule, PlacedFile, RepeatPool, Row, Study, StudyConfig, Warning,
};

use crate::model::REPEATS_APART;

/// A row's workload and load point, as a reader names it.
type At = (String, u64, u32, u32, String, Option<u32>);

fn at(r: &Row) -> At {
    (
        r.rw.clone(),
        r.bs_bytes,
        r.iodepth,
        r.numjobs,
        r.direction.to_string(),
        r.rwmixread,
    )
}

/// The study as `rows` were read under `rule`, and a warning (naming the
/// files) for each point where pooled repeats disagree.
pub(crate) fn study(rows: &[Row], rule: &ConfigRule, files: usize) -> (Study, Vec<Warning>) {
    let mut study = Study {
        rule: rule.rule.clone(),
        files,
        kept_apart: rule.notes.clone(),
        roles: rule.roles.clone(),
        ..Study::default()
    };
    study.configs = configs(rows, rule);
    for k in &rule.keys {
        let values: BTreeSet<String> = rule
            .values
            .values()
            .map(|v| {
                v.get(k)
                    .cloned()
                    .flatten()
                    .unwrap_or_else(|| "unset".into())
            })
            .collect();
        study.set_apart_by.push(AxisValues {
            name: k.clone(),
            count: values.len(),
            values: values.into_iter().collect(),
        });
    }
    let mut workloads: IndexMap<String, usize> = IndexMap::new();
    let mut depths: BTreeSet<u32> = BTreeSet::new();
    let mut jobs: BTreeSet<u32> = BTreeSet::new();
    let mut variants: BTreeSet<String> = BTreeSet::new();
    for r in rows {
        *workloads
            .entry(format!("{} {}", r.rw, crate::units::format_bs(r.bs_bytes)))
            .or_default() += 1;
        depths.insert(r.iodepth);
        jobs.insert(r.numjobs);
        variants.extend(r.variant.clone());
    }
    study.workloads = workloads
        .into_iter()
        .map(|(name, count)| AxisValues {
            name,
            values: Vec::new(),
            count,
        })
        .collect();
    for (name, set) in [("iodepth", depths), ("numjobs", jobs)] {
        study.loads.push(AxisValues {
            name: name.into(),
            count: set.len(),
            values: set.iter().map(u32::to_string).collect(),
        });
    }
    study.variants = variants.into_iter().collect();
    let warnings = repeats(rows, &mut study);
    study.placed = placed(rows, &rule.roles);
    (study, warnings)
}

/// Each config in the order first met, with what defines it.
fn configs(rows: &[Row], rule: &ConfigRule) -> Vec<StudyConfig> {
    let mut by: IndexMap<&str, (BTreeSet<&str>, BTreeSet<&str>)> = IndexMap::new();
    for r in rows {
        let (files, folders) = by.entry(r.config.as_str()).or_default();
        files.insert(&r.source);
        folders.insert(folder_of(&r.source));
    }
    by.into_iter()
        .map(|(name, (files, folders))| {
            let defined_by = match rule.values.get(name) {
                Some(values) => values
                    .iter()
                    .map(|(k, v)| match v {
                        Some(v) if v.is_empty() => k.clone(),
                        Some(v) => format!("{k}={v}"),
                        None => format!("{k}=unset"),
                    })
                    .collect(),
                None => vec![format!(
                    "{} (--label-by {})",
                    match rule.rule.as_str() {
                        "auto" | "name" | "folder" => "its folder",
                        other => other,
                    },
                    rule.rule
                )],
            };
            StudyConfig {
                name: name.to_string(),
                defined_by,
                files: files.len(),
                folders: folders.into_iter().map(str::to_string).collect(),
            }
        })
        .collect()
}

/// A source's folder (`.` for none).
fn folder_of(source: &str) -> &str {
    match source.rfind(['/', '\\']) {
        Some(i) => &source[..i],
        None => ".",
    }
}

/// One run of a pooled group: its file, job and invocation.
type Run<'a> = (&'a str, &'a str, Option<u32>);

/// The repeats pooled per config and evidence, and the disagreements.
fn repeats(rows: &[Row], study: &mut Study) -> Vec<Warning> {
    // Instances that ran together are one run, and a run of 16 instances
    // is at another load than one alone.
    type Key<'a> = (&'a str, Option<&'a str>, At, u32);
    let mut groups: IndexMap<Key, Vec<(Run, f64)>> = IndexMap::new();
    for r in rows.iter().filter(|r| !r.aggregate && r.host.is_none()) {
        groups
            .entry((r.config.as_str(), r.variant.as_deref(), at(r), r.instances))
            .or_default()
            .push((
                (
                    r.instance_group.as_deref().unwrap_or(&r.source),
                    r.job.as_str(),
                    r.file_run,
                ),
                r.iops,
            ));
    }
    let mut pools: IndexMap<(String, String), RepeatPool> = IndexMap::new();
    let mut warnings = Vec::new();
    for ((config, _, at, _), members) in &groups {
        let runs: BTreeSet<Run> = members.iter().map(|(run, _)| *run).collect();
        if runs.len() < 2 {
            continue;
        }
        let (kind, evidence) = evidence(&runs);
        let pool = pools
            .entry((config.to_string(), kind))
            .or_insert_with(|| RepeatPool {
                config: config.to_string(),
                evidence,
                ..RepeatPool::default()
            });
        pool.points += 1;
        pool.runs = pool.runs.max(runs.len());
        // The runs' IOPS, each run's rows summed (a run's jobs).
        let mut iops: BTreeMap<Run, f64> = BTreeMap::new();
        for (run, v) in members {
            *iops.entry(*run).or_default() += v;
        }
        let lo = iops.iter().min_by(|a, b| a.1.total_cmp(b.1));
        let hi = iops.iter().max_by(|a, b| a.1.total_cmp(b.1));
        if let (Some((lo_run, lo)), Some((hi_run, hi))) = (lo, hi)
            && *lo > 0.0
            && hi / lo - 1.0 > REPEATS_APART
        {
            let (rw, bs, depth, jobs, dir, _) = at;
            let what = format!(
                "{config}: {rw} {} iodepth {depth} numjobs {jobs} ({dir}): IOPS {} in {} against {} in {}, {:.0} % apart, pooled as repeats",
                crate::units::format_bs(*bs),
                round(*lo),
                lo_run.0,
                round(*hi),
                hi_run.0,
                (hi / lo - 1.0) * 100.0
            );
            study.disagreeing.push(what.clone());
            warnings.push(Warning {
                source: hi_run.0.to_string(),
                message: format!("{what}: they disagree beyond run-to-run noise, so no tie is drawn from their spread; if they are not repeats, tell them apart (--label-by, or a manifest)"),
            });
        }
    }
    study.repeats = pools.into_values().collect();
    warnings
}

fn round(v: f64) -> String {
    match v {
        v if v >= 10_000.0 => format!("{:.1}k", v / 1000.0),
        v => format!("{v:.0}"),
    }
}

/// Why runs are repeats: what alone tells them apart, as a kind (to group
/// by) and a sentence with examples.
fn evidence(runs: &BTreeSet<Run>) -> (String, String) {
    let files: BTreeSet<&str> = runs.iter().map(|r| r.0).collect();
    if files.len() == 1 {
        let invocations: BTreeSet<Option<u32>> = runs.iter().map(|r| r.2).collect();
        return match invocations.len() > 1 {
            true => (
                "invocations".into(),
                "several fio runs in one file (a script's log)".into(),
            ),
            false => (
                "jobs".into(),
                "jobs of one file with the same options".into(),
            ),
        };
    }
    // The words of each file's folder and name; those not every file has.
    let words: Vec<BTreeSet<String>> = files
        .iter()
        .map(|f| {
            let folder = folder_of(f);
            let last = folder.rsplit(['/', '\\']).next().unwrap_or(folder);
            tokens(last)
                .into_iter()
                .chain(tokens(stem(f)))
                .map(str::to_string)
                .collect()
        })
        .collect();
    let all: BTreeSet<&String> = words.iter().flatten().collect();
    let differ: Vec<&String> = all
        .into_iter()
        .filter(|w| !words.iter().all(|s| s.contains(*w)))
        .collect();
    if differ.is_empty() {
        return (
            "same name".into(),
            "files of the same name in one folder".into(),
        );
    }
    let classes: BTreeSet<&'static str> = differ.iter().map(|w| class(w).name()).collect();
    let classes: Vec<&str> = classes.into_iter().collect();
    let examples: Vec<&str> = differ.iter().take(4).map(|w| w.as_str()).collect();
    let more = if differ.len() > 4 { ", ..." } else { "" };
    (
        classes.join("+"),
        format!(
            "names differ only by {} ({}{more})",
            plural(&classes),
            examples.join(" / ")
        ),
    )
}

/// `repeat marks and dates`.
fn plural(classes: &[&str]) -> String {
    let said: Vec<&str> = classes
        .iter()
        .map(|c| match *c {
            "repeat" => "repeat marks",
            "number" => "numbers",
            "date" => "dates",
            "time" => "times",
            "load" => "load words",
            "workload" => "workload words",
            "format" => "format words",
            "variant" => "variant words",
            "host" => "hosts",
            _ => "words",
        })
        .collect();
    said.join(" and ")
}

/// Every file's configs and role.
fn placed(rows: &[Row], roles: &[String]) -> Vec<PlacedFile> {
    let mut by: IndexMap<&str, BTreeSet<&str>> = IndexMap::new();
    for r in rows {
        by.entry(r.source.as_str()).or_default().insert(&r.config);
    }
    by.into_iter()
        .map(|(source, configs)| {
            let role = tokens(stem(source))
                .into_iter()
                .map(str::to_lowercase)
                .find(|w| roles.contains(w));
            PlacedFile {
                source: source.to_string(),
                configs: configs.into_iter().map(str::to_string).collect(),
                role,
            }
        })
        .collect()
}
