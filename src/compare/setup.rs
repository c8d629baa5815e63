//! What was run, for the top of a report: the manifest's title,
//! description and test-bed facts (`[setup]`, `[config."<label>".setup]`)
//! and the facts the rows themselves carry (OS, fio version, engine, rw,
//! block sizes, iodepth, numjobs, runtime, direct, hosts), one value per
//! config. A fact every config shares collapses to one value, so a reader
//! sees at a glance what differs between the configs and what does not.
//!
//! Values are written the way people write them: runtime in whole seconds
//! ("60 s", not 60000.4 ms), several block sizes listed ("4k, 64k, 128k"),
//! a sweep's depths as a range ("1-128"). Facts nobody knows (hosts of a
//! standalone run, `direct` from text output) are left out, not printed
//! as "unknown".

use std::collections::HashMap;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::model::Row;
use crate::units::format_bs;

/// What the manifest says about the test bed; the CLI fills it in.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SetupNotes {
    /// Replaces the generated report title.
    pub title: Option<String>,
    /// A paragraph under the title.
    pub description: Option<String>,
    /// `[setup]`: facts of every config, in written order.
    pub shared: IndexMap<String, String>,
    /// `[config."<label>".setup]`, keyed by label (before display names).
    pub per_config: IndexMap<String, IndexMap<String, String>>,
}

/// What was run: `analyze --format json`'s top-level `setup`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// The manifest's title; null when it gives none.
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    /// Manifest items first, as written, then the facts from the data.
    #[serde(default)]
    pub items: Vec<SetupItem>,
}

/// Where a setup item comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SetupSource {
    /// `nvcmp.toml` (a key of the same name as a data fact replaces it,
    /// with the data's value where the manifest gives none).
    Manifest,
    /// Gathered from the result rows.
    Data,
}

/// One line of the setup table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetupItem {
    /// The manifest key as written, or the dataset column a data fact
    /// comes from (`fio_version`, `runtime_ms`, ...).
    pub key: String,
    /// Row title: the manifest key, or "fio version", "Runtime", ...
    pub name: String,
    pub source: SetupSource,
    /// The value every config shares; null when they differ.
    pub value: Option<String>,
    /// Per config in display order; null where not known.
    pub values: IndexMap<String, Option<String>>,
}

impl SetupItem {
    /// An item, collapsed to one `value` when every config has the same.
    pub fn new(
        key: &str,
        name: &str,
        source: SetupSource,
        values: IndexMap<String, Option<String>>,
    ) -> SetupItem {
        SetupItem {
            key: key.to_string(),
            name: name.to_string(),
            source,
            value: shared_value(&values),
            values,
        }
    }

    /// True when one value stands for all configs.
    pub fn is_shared(&self) -> bool {
        self.value.is_some()
    }
}

/// The value of every config when all know it and agree.
fn shared_value(values: &IndexMap<String, Option<String>>) -> Option<String> {
    let mut all = values.values();
    let first = all.next()?.as_ref()?;
    all.all(|v| v.as_ref() == Some(first))
        .then(|| first.clone())
}

impl Setup {
    /// Items every config shares.
    pub fn shared(&self) -> impl Iterator<Item = &SetupItem> {
        self.items.iter().filter(|i| i.is_shared())
    }

    /// Items whose value differs between configs.
    pub fn differing(&self) -> impl Iterator<Item = &SetupItem> {
        self.items.iter().filter(|i| !i.is_shared())
    }
}

/// The setup of `configs` (display names) from their rows (labels already
/// display names) and the manifest's notes; `name_of` turns a manifest
/// label into its display name.
pub fn build(
    rows: &[Row],
    configs: &[String],
    notes: &SetupNotes,
    option_keys: &[String],
    name_of: impl Fn(&str) -> String,
) -> Setup {
    let mut data = data_facts(rows, configs);
    // The options that tell configs apart read right after the engine.
    let at = data
        .iter()
        .position(|(f, _)| f.key == "engine")
        .map_or(data.len(), |i| i + 1);
    let options = option_items(rows, configs, option_keys);
    let per_config: IndexMap<String, &IndexMap<String, String>> = notes
        .per_config
        .iter()
        .map(|(label, s)| (name_of(label), s))
        .collect();
    let mut items = Vec::new();
    for key in manifest_keys(notes) {
        let fact = data
            .iter()
            .position(|(f, _)| f.name.eq_ignore_ascii_case(&key))
            .map(|i| data.remove(i).1);
        let values = configs
            .iter()
            .map(|c| {
                let written = per_config.get(c).and_then(|s| s.get(&key));
                let v = written.or(notes.shared.get(&key)).cloned();
                let from_data = || fact.as_ref().and_then(|f| f[c].clone());
                (c.clone(), v.or_else(from_data))
            })
            .collect();
        items.push(SetupItem::new(&key, &key, SetupSource::Manifest, values));
    }
    let mut facts: Vec<SetupItem> = data
        .into_iter()
        .map(|(f, values)| SetupItem::new(f.key, f.name, SetupSource::Data, values))
        .collect();
    let at = at.min(facts.len());
    facts.splice(at..at, options);
    items.extend(facts);
    items.extend(script_items(rows, configs));
    items.retain(|i| i.values.values().any(Option::is_some));
    // The tool says something only where one is not fio (DiskSpd results).
    items.retain(|i| i.key != "tool" || i.values.values().any(|v| v.as_deref() != Some("fio")));
    Setup {
        title: notes.title.clone(),
        description: notes.description.clone(),
        items,
    }
}

/// The fio options the configs were told apart by (`config_rule.keys`),
/// each config's value from its rows' `options` (several listed); the OS,
/// engine and `direct` have their own items.
fn option_items(rows: &[Row], configs: &[String], keys: &[String]) -> Vec<SetupItem> {
    let keys: Vec<&String> = keys
        .iter()
        .filter(|k| !matches!(k.as_str(), "os" | "ioengine" | "direct" | "folder" | "dir"))
        .collect();
    if keys.is_empty() {
        return Vec::new();
    }
    // Each row's values of these keys only: every row's whole map of
    // options, held at once, was 250 MB of `analyze` at 100,000 files.
    let options: Vec<(&str, Vec<Option<String>>)> = rows
        .iter()
        .map(|r| {
            let o = r.option_map();
            let values = keys.iter().map(|k| o.get(k.as_str()).cloned()).collect();
            (r.config.as_str(), values)
        })
        .collect();
    let of_config = by_config(options.iter().map(|(l, _)| *l));
    keys.into_iter()
        .enumerate()
        .map(|(ki, k)| {
            let values = configs
                .iter()
                .map(|c| {
                    let mut seen: Vec<&str> = of_config
                        .get(c.as_str())
                        .into_iter()
                        .flatten()
                        .filter_map(|&i| options[i].1[ki].as_deref())
                        .collect();
                    seen.sort_unstable();
                    seen.dedup();
                    (c.clone(), (!seen.is_empty()).then(|| seen.join(", ")))
                })
                .collect();
            SetupItem::new(k, k, SetupSource::Data, values)
        })
        .collect()
}

/// The `KEY=value` facts wrapper scripts printed before their runs (the
/// `setup_facts` column), a line each in key order: `SYSTEMINFO` (`uname
/// -a`) shown as the kernel release, `MOUNTPOINT` as the file system
/// where it is a mount line (`none on /mnt type 9p (rw,cache=none)`),
/// any other as written.
fn script_items(rows: &[Row], configs: &[String]) -> Vec<SetupItem> {
    let maps: Vec<(&str, std::collections::BTreeMap<String, String>)> = rows
        .iter()
        .filter(|r| r.setup_facts.is_some())
        .map(|r| (r.config.as_str(), r.setup_fact_map()))
        .collect();
    let keys: std::collections::BTreeSet<&String> =
        maps.iter().flat_map(|(_, m)| m.keys()).collect();
    let of_config = by_config(maps.iter().map(|(l, _)| *l));
    keys.into_iter()
        .map(|key| {
            let (name, show): (&str, fn(&str) -> String) = match key.as_str() {
                "SYSTEMINFO" => ("Kernel", kernel),
                "MOUNTPOINT" => ("File system", file_system),
                _ => (key.as_str(), str::to_string),
            };
            let values = configs
                .iter()
                .map(|c| {
                    let seen = of_config
                        .get(c.as_str())
                        .into_iter()
                        .flatten()
                        .filter_map(|&i| maps[i].1.get(key).map(|v| show(v)));
                    (c.clone(), listed(distinct(seen)))
                })
                .collect();
            SetupItem::new(
                &format!("setup_facts.{key}"),
                name,
                SetupSource::Data,
                values,
            )
        })
        .collect()
}

/// The indexes of each config's entries in `labels`, first seen first:
/// one pass, where a scan of every entry per config was quadratic at
/// 10,000 configs (issue #55).
fn by_config<'a>(labels: impl Iterator<Item = &'a str>) -> HashMap<&'a str, Vec<usize>> {
    let mut out: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, l) in labels.enumerate() {
        out.entry(l).or_default().push(i);
    }
    out
}

/// The kernel release of a `uname -a` line (`Linux host 5.10.0-rc1+ #1
/// SMP ...` -> `Linux 5.10.0-rc1+`); any other text as written.
fn kernel(uname: &str) -> String {
    let words: Vec<&str> = uname.split_whitespace().collect();
    match words.as_slice() {
        [os, _host, release, ..] if release.starts_with(|c: char| c.is_ascii_digit()) => {
            format!("{os} {release}")
        }
        _ => uname.to_string(),
    }
}

/// The file system of a mount line (`none on /mnt type 9p (rw,cache=none)`
/// -> `9p (rw,cache=none) on /mnt`); a path or other text as written.
fn file_system(mount: &str) -> String {
    let Some((_, rest)) = mount.split_once(" on ") else {
        return mount.to_string();
    };
    let Some((path, kind)) = rest.split_once(" type ") else {
        return mount.to_string();
    };
    format!("{} on {path}", kind.trim())
}

/// `[setup]` keys as written, then keys only some configs set, first seen.
fn manifest_keys(notes: &SetupNotes) -> Vec<String> {
    let mut keys: Vec<String> = notes.shared.keys().cloned().collect();
    for key in notes.per_config.values().flat_map(|s| s.keys()) {
        if !keys.contains(key) {
            keys.push(key.clone());
        }
    }
    keys
}

/// A fact the rows carry: the column it comes from, its row title, and
/// one config's value.
struct Fact {
    key: &'static str,
    name: &'static str,
    of: fn(&[&Row]) -> Option<String>,
}

/// The facts from the data, in the order a test-bed description reads.
const FACTS: [Fact; 14] = [
    Fact {
        key: "os",
        name: "OS",
        of: os,
    },
    Fact {
        key: "tool",
        name: "Tool",
        of: tool,
    },
    Fact {
        key: "fio_version",
        name: "fio version",
        of: fio_version,
    },
    Fact {
        key: "engine",
        name: "Engine",
        of: engine,
    },
    Fact {
        key: "rw",
        name: "rw",
        of: rw,
    },
    Fact {
        key: "bs_bytes",
        name: "Block size",
        of: block_sizes,
    },
    Fact {
        key: "iodepth",
        name: "iodepth",
        of: iodepth,
    },
    Fact {
        key: "numjobs",
        name: "numjobs",
        of: numjobs,
    },
    Fact {
        key: "runtime_ms",
        name: "Runtime",
        of: runtime,
    },
    Fact {
        key: "direct",
        name: "direct",
        of: direct,
    },
    Fact {
        key: "host",
        name: "Hosts",
        of: hosts,
    },
    Fact {
        key: "target",
        name: "Targets",
        of: targets,
    },
    Fact {
        key: "cpus_allowed",
        name: "CPUs",
        of: cpus_allowed,
    },
    Fact {
        key: "precondition",
        name: "Preconditioning",
        of: precondition,
    },
];

/// Each fact's value per config.
fn data_facts(
    rows: &[Row],
    configs: &[String],
) -> Vec<(&'static Fact, IndexMap<String, Option<String>>)> {
    // Rows by config in one pass (a scan of every row per config was
    // quadratic at 10,000 configs, issue #55).
    let mut of_config: HashMap<&str, Vec<&Row>> = HashMap::new();
    for r in rows {
        of_config.entry(r.config.as_str()).or_default().push(r);
    }
    let by_config: Vec<(&String, Vec<&Row>)> = configs
        .iter()
        .map(|c| (c, of_config.remove(c.as_str()).unwrap_or_default()))
        .collect();
    FACTS
        .iter()
        .map(|f| {
            let values = by_config
                .iter()
                .map(|(c, rows)| ((*c).clone(), (f.of)(rows)))
                .collect();
            (f, values)
        })
        .collect()
}

/// More distinct numbers than this read as a range ("1-128").
const LIST_MAX: usize = 4;

/// Distinct values, first seen first.
fn distinct<T: PartialEq>(values: impl Iterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for v in values {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// "a, b"; None when there is nothing to say.
fn listed(values: Vec<String>) -> Option<String> {
    (!values.is_empty()).then(|| values.join(", "))
}

/// Whole numbers as people write a set of them, ascending: "32",
/// "1, 4, 16", or past [`LIST_MAX`] values a range, "1-128" (a sweep).
fn numbers(mut values: Vec<u64>, fmt: fn(u64) -> String) -> Option<String> {
    values.sort_unstable();
    values.dedup();
    if values.len() <= LIST_MAX {
        return listed(values.into_iter().map(fmt).collect());
    }
    let (first, last) = (values[0], values[values.len() - 1]);
    Some(format!("{}-{}", fmt(first), fmt(last)))
}

fn os(rows: &[&Row]) -> Option<String> {
    let names = rows
        .iter()
        .filter_map(|r| r.os.display_name().map(str::to_string));
    listed(distinct(names))
}

/// `fio`, or `DiskSpd 2.2.0` with the version as the output gave it.
fn tool(rows: &[&Row]) -> Option<String> {
    let names = rows
        .iter()
        .map(|r| match (r.tool.as_str(), &r.tool_version) {
            ("diskspd", Some(v)) => format!("DiskSpd {v}"),
            ("diskspd", None) => "DiskSpd".to_string(),
            (tool, _) => tool.to_string(),
        });
    listed(distinct(names))
}

fn fio_version(rows: &[&Row]) -> Option<String> {
    let versions = rows.iter().map(|r| r.fio_version.trim());
    listed(distinct(
        versions.filter(|v| !v.is_empty()).map(String::from),
    ))
}

fn engine(rows: &[&Row]) -> Option<String> {
    let engines = rows.iter().map(|r| r.engine.as_str());
    let known = engines.filter(|e| !e.is_empty() && *e != "unknown");
    listed(distinct(known.map(String::from)))
}

fn rw(rows: &[&Row]) -> Option<String> {
    listed(distinct(rows.iter().map(|r| r.rw.clone())))
}

fn block_sizes(rows: &[&Row]) -> Option<String> {
    numbers(rows.iter().map(|r| r.bs_bytes).collect(), format_bs)
}

fn iodepth(rows: &[&Row]) -> Option<String> {
    let depths = rows.iter().map(|r| u64::from(r.iodepth)).collect();
    numbers(depths, |v| v.to_string())
}

fn numjobs(rows: &[&Row]) -> Option<String> {
    let jobs = rows.iter().map(|r| u64::from(r.numjobs)).collect();
    numbers(jobs, |v| v.to_string())
}

/// Whole seconds, as `runtime=` is written ("60 s"); a range when runs
/// differ ("1-2 s"); milliseconds only for runs under a second.
fn runtime(rows: &[&Row]) -> Option<String> {
    let ms: Vec<f64> = rows
        .iter()
        .map(|r| r.runtime_ms)
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    let longest = ms.iter().copied().fold(0.0, f64::max);
    let (div, unit) = if longest >= 1000.0 {
        (1000.0, "s")
    } else {
        (1.0, "ms")
    };
    let mut rounded: Vec<u64> = ms.iter().map(|v| (v / div).round() as u64).collect();
    rounded.sort_unstable();
    rounded.dedup();
    match rounded.as_slice() {
        [] => None,
        [one] => Some(format!("{one} {unit}")),
        [first, .., last] => Some(format!("{first}-{last} {unit}")),
    }
}

/// fio's own spelling, `1` or `0`; unknown rows (text output) say nothing.
fn direct(rows: &[&Row]) -> Option<String> {
    let known = rows.iter().filter_map(|r| r.direct).map(u64::from);
    numbers(known.collect(), |v| v.to_string())
}

/// Client hosts of client/server runs; a count when there are many.
fn hosts(rows: &[&Row]) -> Option<String> {
    let names = rows
        .iter()
        .filter(|r| !r.aggregate)
        .filter_map(|r| r.host.clone());
    let names = distinct(names);
    if names.len() > LIST_MAX {
        return Some(format!("{} hosts", names.len()));
    }
    listed(names)
}

/// The devices of a test bed: named when one result ran several targets
/// at once (a count past [`LIST_MAX`]); a single target says nothing.
fn targets(rows: &[&Row]) -> Option<String> {
    let mut per_file: IndexMap<&str, Vec<&str>> = IndexMap::new();
    for r in rows {
        if let Some(t) = r.target.as_deref() {
            let ts = per_file.entry(r.source.as_str()).or_default();
            if !ts.contains(&t) {
                ts.push(t);
            }
        }
    }
    if per_file.values().all(|ts| ts.len() < 2) {
        return None;
    }
    let names = distinct(rows.iter().filter_map(|r| r.target.clone()));
    if names.len() > LIST_MAX {
        return Some(format!("{} targets at once", names.len()));
    }
    listed(names)
}

fn cpus_allowed(rows: &[&Row]) -> Option<String> {
    listed(distinct(rows.iter().filter_map(|r| r.cpus_allowed.clone())))
}

fn precondition(rows: &[&Row]) -> Option<String> {
    listed(distinct(rows.iter().filter_map(|r| r.precondition.clone())))
}

#[cfg(test)]
mod tests;
