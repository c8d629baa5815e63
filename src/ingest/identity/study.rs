//! How the study was read ([`Study`]), worked out from the rows once
//! their configs are set: grouped and counted so that thousands of files
//! read on one screen, and every file's place.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use indexmap::IndexMap;

use super::{Repeats, class, stem, tokens};
use crate::model::{
    AxisValues, ConfigRule, Direction, Disagreement, Nearest, PlacedFile, RepeatPool, Row, Study,
    StudyConfig, Warning,
};
use crate::quick_hash::QuickHash;

/// A row's workload and load point, as a reader names it.
type At<'a> = (&'a str, u64, u32, u32, Direction, Option<u32>);

fn at(r: &Row) -> At<'_> {
    (
        r.rw.as_str(),
        r.bs_bytes,
        r.iodepth,
        r.numjobs,
        r.direction,
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
    // Counted by rw and block size, each named once (not a name per row).
    let mut counted: IndexMap<(&str, u64), usize, QuickHash> = IndexMap::default();
    let mut depths: BTreeSet<u32> = BTreeSet::new();
    let mut jobs: BTreeSet<u32> = BTreeSet::new();
    let mut variants: BTreeSet<&str> = BTreeSet::new();
    for r in rows {
        *counted.entry((r.rw.as_str(), r.bs_bytes)).or_default() += 1;
        depths.insert(r.iodepth);
        jobs.insert(r.numjobs);
        variants.extend(r.variant.as_deref());
    }
    let mut workloads: IndexMap<String, usize> = IndexMap::new();
    for ((rw, bs), n) in counted {
        *workloads
            .entry(format!("{rw} {}", crate::units::format_bs(bs)))
            .or_default() += n;
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
    study.variants = variants.into_iter().map(str::to_string).collect();
    let declared = Repeats::parse(&rule.declared_repeats.join(",")).unwrap_or_default();
    study.declared_repeats = rule.declared_repeats.clone();
    let warnings = repeats(rows, &mut study, &declared);
    study.placed = placed(rows, &rule.roles);
    (study, warnings)
}

/// Each config in the order first met, with what defines it.
fn configs(rows: &[Row], rule: &ConfigRule) -> Vec<StudyConfig> {
    let mut by: IndexMap<&str, (BTreeSet<&str>, BTreeSet<&str>)> = IndexMap::new();
    for (i, r) in rows.iter().enumerate() {
        // A file's rows of one config come together: counted once.
        if i > 0 && rows[i - 1].source == r.source && rows[i - 1].config == r.config {
            continue;
        }
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

/// A config's runs at one point (instances that ran together are one run,
/// and a run of 16 instances is at another load than one alone): by
/// config, variant, point and instances.
type GroupKey<'a> = (&'a str, Option<&'a str>, At<'a>, u32);

/// A point every config's runs are at: variant, point and instances.
type PointKey<'a> = (Option<&'a str>, &'a At<'a>, u32);

/// Each config's runs at each point, each run's IOPS (its rows summed: a
/// run's jobs).
fn run_groups(rows: &[Row]) -> IndexMap<GroupKey<'_>, BTreeMap<Run<'_>, f64>> {
    let mut groups: IndexMap<GroupKey, BTreeMap<Run, f64>> = IndexMap::new();
    for r in rows.iter().filter(|r| !r.aggregate && r.host.is_none()) {
        let run = (
            r.instance_group.as_deref().unwrap_or(&r.source),
            r.job.as_str(),
            r.file_run,
        );
        *groups
            .entry((r.config.as_str(), r.variant.as_deref(), at(r), r.instances))
            .or_default()
            .entry(run)
            .or_default() += r.iops;
    }
    groups
}

/// The repeats pooled per config and evidence, and the disagreements
/// ([`crate::model::repeats_disagree`]: more than 25 % apart, or a spread
/// wider than the gap to the next config).
fn repeats(rows: &[Row], study: &mut Study, declared: &Repeats) -> Vec<Warning> {
    let groups = run_groups(rows);
    // Each config's mean IOPS at each point, for the gap to the next; and
    // each group's point and place there, in the groups' order.
    let mut at_point: IndexMap<PointKey, Vec<(&str, f64)>> = IndexMap::new();
    let mut placed: Vec<(usize, usize)> = Vec::with_capacity(groups.len());
    for ((config, variant, at, n), runs) in &groups {
        let mean = runs.values().sum::<f64>() / runs.len() as f64;
        let point = at_point.entry((*variant, at, *n));
        let p = point.index();
        let there = point.or_default();
        placed.push((p, there.len()));
        there.push((config, mean));
    }
    // The other configs' values nearest a pool's mean, found in each
    // point's values sorted once, where some config there pools runs.
    let nearest: Vec<std::cell::OnceCell<Nearest>> =
        (0..at_point.len()).map(|_| Default::default()).collect();
    let mut pools: IndexMap<(String, String), RepeatPool> = IndexMap::new();
    let mut warnings = Vec::new();
    // A config's runs are the same at most of its points: each set's
    // evidence is worked out once.
    let mut said: HashMap<Vec<Run>, (String, String), QuickHash> = HashMap::default();
    // Each file's words, read once for every point it pools at.
    let mut words_of: HashMap<&str, Vec<&str>, QuickHash> = HashMap::default();
    for (((config, _, at, _), iops), &(p, own)) in groups.iter().zip(&placed) {
        if iops.len() < 2 {
            continue;
        }
        let runs: BTreeSet<Run> = iops.keys().copied().collect();
        let (kind, evidence) = said
            .entry(runs.iter().copied().collect())
            .or_insert_with(|| evidence(&runs, declared, &mut words_of))
            .clone();
        let (kind, evidence) = one_run(kind, evidence, iops);
        let pool = pools
            .entry((config.to_string(), kind.clone()))
            .or_insert_with(|| RepeatPool {
                config: config.to_string(),
                evidence,
                ..RepeatPool::default()
            });
        pool.points += 1;
        pool.runs = pool.runs.max(runs.len());
        let there = &at_point[p];
        let mean = there[own].1;
        let others: Vec<(&str, f64)> = nearest[p]
            .get_or_init(|| Nearest::new(there.iter().map(|c| c.1).enumerate()))
            .others(own, mean)
            .into_iter()
            .map(|(i, _)| there[i])
            .collect();
        if let Some(what) = disagreement(config, at, iops, &others) {
            let hi_run = iops.iter().max_by(|a, b| a.1.total_cmp(b.1)).map(|r| r.0.0);
            study.disagreeing.push(what.clone());
            warnings.push(Warning {
                source: hi_run.unwrap_or_default().to_string(),
                message: format!("{what}: they disagree beyond run-to-run noise, so no tie is drawn from their spread; {}", advice(&runs, &kind)),
            });
        }
    }
    study.repeats = pools.into_values().collect();
    warnings
}

/// Files in several formats whose figures agree within a rounding
/// (normal text prints three digits): one fio run written several times
/// (`-utf16le`, `-crlf` copies of one result), not repeats; said so.
fn one_run(kind: String, evidence: String, iops: &BTreeMap<Run, f64>) -> (String, String) {
    let lo = iops.values().copied().fold(f64::INFINITY, f64::min);
    let hi = iops.values().copied().fold(0.0, f64::max);
    match kind == "format" && lo > 0.0 && hi / lo - 1.0 <= SAME_RUN {
        true => (
            "one run".into(),
            format!("one fio run written in several formats, the same figures in each: {evidence}"),
        ),
        false => (kind, evidence),
    }
}

/// The most two copies of one run's IOPS differ by: a normal text's
/// figures are rounded to three digits.
const SAME_RUN: f64 = 0.005;

/// A source's file name, its folders left out.
fn file_name(source: &str) -> &str {
    source.rsplit(['/', '\\']).next().unwrap_or(source)
}

/// Whether `files` share one name but for the extensions results carry
/// (`percentiles.json`, `percentiles.txt`): one job's results in several
/// output formats.
fn in_formats(files: &BTreeSet<&str>) -> bool {
    let names: BTreeSet<&str> = files.iter().map(|f| file_name(f)).collect();
    let stems: BTreeSet<&str> = files.iter().map(|f| stem(f)).collect();
    names.len() > 1 && stems.len() == 1
}

/// What to do about disagreeing repeats: nvcmp's own repeats (`run
/// --repeat`, files `-r01` ..) are repeats by declaration, other runs may
/// not be repeats at all; files of one name in several formats that
/// disagree are separate fio runs (one run written twice reports the same
/// figures).
fn advice(runs: &BTreeSet<Run>, kind: &str) -> &'static str {
    if kind == "format" {
        return "one fio run written in two formats reports the same figures, so these are separate runs of one job, one per format, and the machine changed between them; analyze one format's files";
    }
    let own = runs.iter().all(|r| {
        tokens(stem(r.0)).last().is_some_and(|t| {
            t.len() == 3 && t.starts_with('r') && t[1..].bytes().all(|b| b.is_ascii_digit())
        })
    });
    match own {
        true => {
            "repeats of nvcmp run --repeat this far apart measured the machine changing under the runs (rerun with --until-stddev PCT to repeat until they agree)"
        }
        false => {
            "if they are not repeats, tell them apart (--label-by, or a manifest); if they are, the machine changed under the runs"
        }
    }
}

/// The sentence for pooled runs (`iops` by run) of `config` at `at` that
/// disagree, the other configs there being `others`; None where they
/// agree within run-to-run noise.
fn disagreement(
    config: &str,
    at: &At<'_>,
    iops: &BTreeMap<Run, f64>,
    others: &[(&str, f64)],
) -> Option<String> {
    let vals: Vec<f64> = iops.values().copied().collect();
    let other_vals: Vec<f64> = others.iter().map(|o| o.1).collect();
    let how = crate::model::repeats_disagree(&vals, &other_vals)?;
    let (lo_run, lo) = iops.iter().min_by(|a, b| a.1.total_cmp(b.1))?;
    let (hi_run, hi) = iops.iter().max_by(|a, b| a.1.total_cmp(b.1))?;
    let (rw, bs, depth, jobs, dir, _) = at;
    let apart = match how {
        Disagreement::Apart => format!("{:.0} % apart", (hi / lo - 1.0) * 100.0),
        Disagreement::WiderThanGap { other, gap } => {
            let (name, value) = others[other];
            format!(
                "a spread of {} wider than the gap of {} ({:.0} %) to {name} ({})",
                round(hi - lo),
                round(gap),
                gap / value.min(vals.iter().sum::<f64>() / vals.len() as f64) * 100.0,
                round(value)
            )
        }
    };
    Some(format!(
        "{config}: {rw} {} iodepth {depth} numjobs {jobs} ({dir}): IOPS {} in {} against {} in {}, {apart}, pooled as repeats",
        crate::units::format_bs(*bs),
        round(*lo),
        lo_run.0,
        round(*hi),
        hi_run.0,
    ))
}

fn round(v: f64) -> String {
    match v {
        v if v >= 10_000.0 => format!("{:.1}k", v / 1000.0),
        v => format!("{v:.0}"),
    }
}

/// Why runs are repeats: what alone tells them apart, as a kind (to group
/// by) and a sentence with examples.
fn evidence<'a>(
    runs: &BTreeSet<Run<'a>>,
    declared: &Repeats,
    known: &mut HashMap<&'a str, Vec<&'a str>, QuickHash>,
) -> (String, String) {
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
    // The words of each file's folder and name (borrowed from its
    // source, each once); those not every file has.
    let folder_words = |f: &'a str| -> Vec<&'a str> {
        let folder = folder_of(f);
        tokens(folder.rsplit(['/', '\\']).next().unwrap_or(folder))
    };
    // Each word counted once per file that has it: not every word looked
    // for in every file (a pool of thousands of files).
    let mut carried: BTreeMap<&str, usize> = BTreeMap::new();
    for f in &files {
        let words = known.entry(f).or_insert_with(|| {
            let mut w = folder_words(f);
            w.extend(tokens(stem(f)));
            w.sort_unstable();
            w.dedup();
            w
        });
        for w in words.iter() {
            *carried.entry(w).or_default() += 1;
        }
    }
    let differ: Vec<&str> = carried
        .into_iter()
        .filter(|(_, n)| *n < files.len())
        .map(|(w, _)| w)
        .collect();
    if differ.is_empty() {
        return same_words(&files, declared);
    }
    // A word of a folder only, where --repeats declared a folder level, is
    // told apart by that declaration.
    let in_folder_only = |w: &str| {
        !declared.levels.is_empty()
            && files.iter().all(|f| !tokens(stem(f)).contains(&w))
            && files.iter().any(|f| folder_words(f).contains(&w))
    };
    let class_of = |w: &str| match declared.marks(w) || in_folder_only(w) {
        true => "declared",
        false => class(w).name(),
    };
    let classes: BTreeSet<&'static str> = differ.iter().map(|w| class_of(w)).collect();
    let classes: Vec<&str> = classes.into_iter().collect();
    let examples: Vec<&str> = differ.iter().take(4).copied().collect();
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

/// Why files whose names share every word are repeats: declared folders,
/// one name in several formats, or one name in one folder.
fn same_words(files: &BTreeSet<&str>, declared: &Repeats) -> (String, String) {
    let folders: BTreeSet<&str> = files.iter().map(|f| folder_of(f)).collect();
    match folders.len() > 1 && !declared.levels.is_empty() {
        true => (
            "declared".into(),
            "folders declared repeats (--repeats)".into(),
        ),
        false if in_formats(files) => {
            let names: Vec<&str> = files.iter().take(4).map(|f| file_name(f)).collect();
            (
                "format".into(),
                format!(
                    "the same name in several output formats ({})",
                    names.join(" / ")
                ),
            )
        }
        false => (
            "same name".into(),
            "files of the same name in one folder".into(),
        ),
    }
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
            "declared" => "what --repeats declares",
            _ => "words",
        })
        .collect();
    said.join(" and ")
}

/// Every file's configs and role.
fn placed(rows: &[Row], roles: &[String]) -> Vec<PlacedFile> {
    let mut by: IndexMap<&str, BTreeSet<&str>> = IndexMap::new();
    for (i, r) in rows.iter().enumerate() {
        if i > 0 && rows[i - 1].source == r.source && rows[i - 1].config == r.config {
            continue;
        }
        by.entry(r.source.as_str()).or_default().insert(&r.config);
    }
    by.into_iter()
        .map(|(source, configs)| {
            let role = match roles.is_empty() {
                true => None,
                false => tokens(stem(source))
                    .into_iter()
                    .map(str::to_lowercase)
                    .find(|w| roles.contains(w)),
            };
            PlacedFile {
                source: source.to_string(),
                configs: configs.into_iter().map(str::to_string).collect(),
                role,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// nvcmp's own repeats (`run --repeat`: `-r01`, `-r02`) are repeats by
    /// declaration: their disagreement points to `--until-stddev`; other
    /// pooled runs may not be repeats at all.
    #[test]
    fn disagreeing_repeats_are_advised_by_where_they_come_from() {
        let own: BTreeSet<Run> = [
            ("out/randread-4k-qd4-r01.json", "job", None),
            ("out/randread-4k-qd4-r02.json", "job", None),
        ]
        .into_iter()
        .collect();
        assert!(
            advice(&own, "repeat").contains("--until-stddev"),
            "{}",
            advice(&own, "repeat")
        );
        let found: BTreeSet<Run> = [
            ("d/ssd-run1.json", "job", None),
            ("d/ssd-run2.json", "job", None),
        ]
        .into_iter()
        .collect();
        assert!(
            advice(&found, "repeat").contains("tell them apart"),
            "{}",
            advice(&found, "repeat")
        );
    }
}
