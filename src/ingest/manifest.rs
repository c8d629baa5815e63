//! `nvcmp.toml` in a results root: display names, order, baseline, os and
//! engine overrides, per-config facts such as published rounding, and
//! whole-system CPU.
//!
//! ```toml
//! title = "Windows Server 2025 vs Ubuntu 24.04"   # replaces the generated report title
//! description = "Four storage stacks, one server." # a paragraph under it
//! baseline = "windows-non-native"          # optional
//! order = ["windows-non-native", "windows-native", "linux-libaio"]
//! [config."linux-libaio"]                  # keyed by label
//! name = "Linux libaio"                    # display name: replaces the label
//! os = "linux"                             # override
//! engine = "libaio"                        # override
//! iops_precision = 1000                    # IOPS known only to this step
//! system_cpu_pct = 45.0                    # rows of the config without their own value
//! [config."linux-libaio".setup]            # what differs per config, same keys as [setup]
//! Kernel = "6.8"
//! [setup]                                  # free key/value pairs about the test bed, in order
//! CPU = "2x AMD EPYC 9754"
//! Drives = 15
//! [units]                                  # house style: the one unit (and decimals) of a metric
//! latency = { unit = "ms", decimals = 3 }  # or latency = "ms"
//! bandwidth = "GiB/s"
//! repeats = ["attempt", "folder:1"]       # what repeats: words of the names, folder levels (--repeats)
//! [[result]]                               # per result file, path relative to the manifest
//! file = "linux-libaio/randwrite-4k.txt"
//! system_cpu_pct = 45.76
//! ```
//!
//! A sidecar next to a result file, `<file name>.nvcmp.toml` (e.g.
//! `randread-4k.json.nvcmp.toml`), holds `system_cpu_pct = 74.22` for all
//! rows of that file. Sidecar beats `[[result]]` beats `[config]`. Unknown
//! keys are errors naming the file and the key: a typo must not silently
//! drop a published figure. `[setup]` keys are free, but their values must
//! be strings or numbers: each prints as one table cell of the report.

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::{Deserialize, Deserializer};

/// File name of a manifest in a results root.
pub const MANIFEST_NAME: &str = "nvcmp.toml";
/// Suffix of a sidecar: `<result file name>.nvcmp.toml`.
pub const SIDECAR_SUFFIX: &str = ".nvcmp.toml";

/// Why a manifest or sidecar cannot be used. Names the file.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
}

/// `[config."<label>"]` of a manifest.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigEntry {
    /// Display name; replaces the label in rows.
    pub name: Option<String>,
    pub os: Option<String>,
    pub engine: Option<String>,
    /// IOPS of this config are known only to this step (max with the file's own).
    pub iops_precision: Option<f64>,
    /// Whole-system CPU, percent, for rows without their own value.
    pub system_cpu_pct: Option<f64>,
    /// `[config."<label>".setup]`: test-bed facts of this config (kernel,
    /// driver, OS build); beat the top-level `[setup]` value of the same key.
    #[serde(default)]
    pub setup: IndexMap<String, SetupValue>,
}

/// A `[setup]` value as written: a string, or a number kept as its text
/// (`15`, `4.8`). Anything else (a table, an array, a date) is refused:
/// the report prints each value as one table cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupValue(pub String);

impl<'de> Deserialize<'de> for SetupValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let text = match toml::Value::deserialize(d)? {
            toml::Value::String(s) => s,
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Float(f) if f.is_finite() => f.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            other => {
                let kind = other.type_str();
                let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an"
                } else {
                    "a"
                };
                return Err(D::Error::custom(format!(
                    "setup values are strings or numbers (one table cell each), not {article} {kind}"
                )));
            }
        };
        Ok(SetupValue(text))
    }
}

/// A `[units]` entry: `"ms"`, or `{ unit = "ms", decimals = 3 }`. Which
/// metrics and units are known is the comparison's business
/// (`compare::report_units`); the manifest keeps what was written.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum UnitEntry {
    Unit(String),
    Styled(StyledUnit),
}

/// `{ unit = "ms", decimals = 3 }` of `[units]`, with
/// `trailing_zeros = false` where the decimals are a most and trailing
/// zeros are dropped (`6.1` beside `10.058`, as an article prints).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StyledUnit {
    pub unit: String,
    pub decimals: Option<usize>,
    #[serde(default = "keep_zeros")]
    pub trailing_zeros: bool,
}

fn keep_zeros() -> bool {
    true
}

impl UnitEntry {
    /// The unit's name, the decimals if given, and whether trailing
    /// zeros are dropped.
    pub fn parts(&self) -> (&str, Option<usize>, bool) {
        match self {
            UnitEntry::Unit(u) => (u, None, false),
            UnitEntry::Styled(s) => (&s.unit, s.decimals, !s.trailing_zeros),
        }
    }
}

/// `[[result]]` of a manifest.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultEntry {
    /// Path of the result file relative to the manifest.
    pub file: PathBuf,
    pub system_cpu_pct: Option<f64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ManifestFile {
    title: Option<String>,
    description: Option<String>,
    baseline: Option<String>,
    order: Option<Vec<String>>,
    #[serde(default)]
    config: IndexMap<String, ConfigEntry>,
    #[serde(default)]
    result: Vec<ResultEntry>,
    #[serde(default)]
    setup: IndexMap<String, SetupValue>,
    #[serde(default)]
    units: IndexMap<String, UnitEntry>,
    /// What repeats (`--repeats`): words of the names and folder levels.
    #[serde(default)]
    repeats: Vec<String>,
}

/// A sidecar file's contents.
#[derive(Debug, Default, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sidecar {
    pub system_cpu_pct: Option<f64>,
}

/// Settings from a manifest (empty when there is none).
#[derive(Debug, Clone, Default)]
pub struct Manifest {
    /// Report title replacing the generated "X, Y and Z compared".
    pub title: Option<String>,
    /// A paragraph under the title: what was measured and why.
    pub description: Option<String>,
    /// `[setup]`: test-bed facts shared by every config, in written order.
    pub setup: IndexMap<String, String>,
    /// Baseline config as it appears in rows' `label` (display name applied).
    pub baseline: Option<String>,
    /// Display order of configs as they appear in rows' `label`.
    pub order: Vec<String>,
    /// Label (folder name) -> display name.
    pub names: IndexMap<String, String>,
    /// Per-config settings, keyed by label (before renaming).
    pub configs: IndexMap<String, ConfigEntry>,
    /// `[[result]]` entries with their file resolved against the manifest's
    /// folder (canonical when the file exists).
    pub results: Vec<(PathBuf, ResultEntry)>,
    /// Manifest files that were read.
    pub files: Vec<PathBuf>,
    /// `[units]`: metric name -> house unit, as written, with the
    /// manifest it came from (errors name it).
    pub units: Vec<(String, UnitEntry, PathBuf)>,
    /// `repeats`: the words of the names and folder levels that mark
    /// repeats, as `--repeats` gives them.
    pub repeats: crate::ingest::Repeats,
}

impl Manifest {
    /// Reads a manifest file.
    pub fn read(path: &Path) -> Result<Manifest, ManifestError> {
        let text = std::fs::read_to_string(path).map_err(|source| ManifestError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Manifest::parse(&text, path)
    }

    /// Parses manifest text; `path` names it in errors and anchors `[[result]]` files.
    pub fn parse(text: &str, path: &Path) -> Result<Manifest, ManifestError> {
        let invalid = |message: String| ManifestError::Invalid {
            path: path.display().to_string(),
            message,
        };
        let file: ManifestFile =
            toml::from_str(text).map_err(|e| invalid(one_line(&e.to_string())))?;
        for (label, c) in &file.config {
            check_number(
                c.iops_precision,
                &format!("config.\"{label}\".iops_precision"),
                true,
            )
            .map_err(&invalid)?;
            check_number(
                c.system_cpu_pct,
                &format!("config.\"{label}\".system_cpu_pct"),
                false,
            )
            .map_err(&invalid)?;
        }
        let mut repeats = crate::ingest::Repeats::default();
        for r in &file.repeats {
            repeats
                .add(r.trim())
                .map_err(|e| invalid(format!("repeats: {e}")))?;
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut results = Vec::new();
        for r in file.result {
            check_number(
                r.system_cpu_pct,
                &format!("result {:?} system_cpu_pct", r.file),
                false,
            )
            .map_err(&invalid)?;
            let joined = dir.join(&r.file);
            let resolved = joined.canonicalize().unwrap_or(joined);
            results.push((resolved, r));
        }
        let display = |label: String| {
            file.config
                .get(&label)
                .and_then(|c| c.name.clone())
                .unwrap_or(label)
        };
        let names = file
            .config
            .iter()
            .filter_map(|(k, c)| c.name.clone().map(|n| (k.clone(), n)))
            .collect();
        Ok(Manifest {
            title: file.title.clone(),
            description: file.description.clone(),
            setup: file.setup.into_iter().map(|(k, v)| (k, v.0)).collect(),
            baseline: file.baseline.clone().map(display),
            order: file
                .order
                .clone()
                .unwrap_or_default()
                .into_iter()
                .map(display)
                .collect(),
            names,
            configs: file.config,
            results,
            files: vec![path.to_path_buf()],
            repeats,
            units: file
                .units
                .into_iter()
                .map(|(k, v)| (k, v, path.to_path_buf()))
                .collect(),
        })
    }

    /// Adds another manifest's settings; the first one read wins on conflicts.
    pub fn merge(&mut self, other: Manifest) {
        if self.baseline.is_none() {
            self.baseline = other.baseline;
        }
        if self.title.is_none() {
            self.title = other.title;
        }
        if self.description.is_none() {
            self.description = other.description;
        }
        for (k, v) in other.setup {
            self.setup.entry(k).or_insert(v);
        }
        for o in other.order {
            if !self.order.contains(&o) {
                self.order.push(o);
            }
        }
        for (k, v) in other.names {
            self.names.entry(k).or_insert(v);
        }
        for (k, v) in other.configs {
            self.configs.entry(k).or_insert(v);
        }
        self.results.extend(other.results);
        self.files.extend(other.files);
        self.repeats.merge(&other.repeats);
        for u in other.units {
            if !self.units.iter().any(|(k, _, _)| *k == u.0) {
                self.units.push(u);
            }
        }
    }

    /// `system_cpu_pct` of a `[[result]]` entry for this file (canonical path).
    pub fn result_cpu(&self, canonical: &Path) -> Option<f64> {
        self.results
            .iter()
            .find(|(p, _)| p == canonical)
            .and_then(|(_, r)| r.system_cpu_pct)
    }
}

/// Reads the sidecar of a result file, if there is one.
pub fn load_sidecar(result_file: &Path) -> Result<Option<Sidecar>, ManifestError> {
    let mut name = result_file.as_os_str().to_owned();
    name.push(SIDECAR_SUFFIX);
    let path = PathBuf::from(name);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(ManifestError::Io {
                path: path.display().to_string(),
                source,
            });
        }
    };
    let invalid = |message: String| ManifestError::Invalid {
        path: path.display().to_string(),
        message,
    };
    let sidecar: Sidecar = toml::from_str(&text).map_err(|e| invalid(one_line(&e.to_string())))?;
    check_number(sidecar.system_cpu_pct, "system_cpu_pct", false).map_err(invalid)?;
    Ok(Some(sidecar))
}

fn check_number(v: Option<f64>, what: &str, positive: bool) -> Result<(), String> {
    match v {
        Some(x) if !x.is_finite() || x < 0.0 || (positive && x == 0.0) => Err(format!(
            "{what} = {x} is not a {} number",
            if positive {
                "positive"
            } else {
                "finite non-negative"
            }
        )),
        _ => Ok(()),
    }
}

/// toml's errors span several lines (a source excerpt); keep the message
/// and the position.
fn one_line(msg: &str) -> String {
    let mut lines = msg.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("invalid TOML").to_string();
    // The last line is the message itself in toml's excerpt format.
    match msg.lines().map(str::trim).rfind(|l| !l.is_empty()) {
        Some(last) if last != first && !last.starts_with('|') && !last.starts_with('^') => {
            format!("{first}: {last}")
        }
        _ => first,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = r#"
baseline = "windows-non-native"
order = ["windows-non-native", "windows-native", "linux-libaio"]
[config."linux-libaio"]
name = "Linux libaio"
os = "linux"
engine = "libaio"
iops_precision = 1000
system_cpu_pct = 45.0
[config."windows-non-native"]
name = "Windows (non-native)"
[[result]]
file = "linux-libaio/randwrite-4k.txt"
system_cpu_pct = 45.76
"#;

    #[test]
    fn parses_the_documented_schema() {
        let m = Manifest::parse(EXAMPLE, Path::new("/r/nvcmp.toml")).unwrap();
        assert_eq!(m.baseline.as_deref(), Some("Windows (non-native)"));
        assert_eq!(
            m.order,
            ["Windows (non-native)", "windows-native", "Linux libaio"]
        );
        let c = &m.configs["linux-libaio"];
        assert_eq!(c.iops_precision, Some(1000.0));
        assert_eq!(c.system_cpu_pct, Some(45.0));
        assert_eq!(m.names["linux-libaio"], "Linux libaio");
        assert_eq!(
            m.result_cpu(Path::new("/r/linux-libaio/randwrite-4k.txt")),
            Some(45.76)
        );
    }

    #[test]
    fn unknown_keys_name_file_and_key() {
        let e = Manifest::parse(
            "baseline = \"a\"\nbaseilne = \"b\"\n",
            Path::new("x/nvcmp.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("x/nvcmp.toml:"), "{e}");
        assert!(e.contains("baseilne"), "{e}");
        assert!(!e.contains('\n'), "{e}");
        let e = Manifest::parse("[config.a]\nsystem_cpu = 3\n", Path::new("m.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("system_cpu"), "{e}");
    }

    const WITH_SETUP: &str = r#"
title = "Four stacks compared"
description = "One server, two operating systems."
[setup]
Memory = "768 GB DDR5-4800"
CPU = "2x AMD EPYC 9754"
Drives = 15
"Drive size (TB)" = 30.72
[config.win.setup]
Driver = "nvmedisk.sys"
Memory = "512 GB"
"#;

    #[test]
    fn title_description_and_setup_keep_their_order() {
        let m = Manifest::parse(WITH_SETUP, Path::new("r/nvcmp.toml")).unwrap();
        assert_eq!(m.title.as_deref(), Some("Four stacks compared"));
        assert_eq!(
            m.description.as_deref(),
            Some("One server, two operating systems.")
        );
        // As written, not sorted: Memory comes before CPU.
        let shared: Vec<(&str, &str)> = m
            .setup
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            shared,
            [
                ("Memory", "768 GB DDR5-4800"),
                ("CPU", "2x AMD EPYC 9754"),
                ("Drives", "15"),
                ("Drive size (TB)", "30.72"),
            ]
        );
        let win = &m.configs["win"].setup;
        assert_eq!(win["Driver"], SetupValue("nvmedisk.sys".into()));
        assert_eq!(win.keys().collect::<Vec<_>>(), ["Driver", "Memory"]);
    }

    #[test]
    fn non_scalar_setup_values_are_refused_naming_the_file() {
        for (text, kind) in [
            ("[setup]\nCPU = [\"a\", \"b\"]\n", "array"),
            ("[setup.CPU]\nmodel = \"a\"\n", "table"),
            ("[config.a.setup]\nKernel = { v = 6 }\n", "table"),
            ("[setup]\nDate = 2026-04-03\n", "datetime"),
        ] {
            let e = Manifest::parse(text, Path::new("lab/nvcmp.toml"))
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("lab/nvcmp.toml:"), "{e}");
            assert!(e.contains("strings or numbers"), "{e}");
            assert!(e.contains(kind), "{kind}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn unknown_keys_stay_errors_next_to_setup() {
        let e = Manifest::parse("titel = \"x\"\n", Path::new("m.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("titel"), "{e}");
        let e = Manifest::parse("[config.a]\nsetpu = 1\n", Path::new("m.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("setpu"), "{e}");
    }

    #[test]
    fn merge_keeps_the_first_title_and_setup_value() {
        let mut a =
            Manifest::parse("title = \"A\"\n[setup]\nCPU = \"x\"\n", Path::new("a")).unwrap();
        let b = Manifest::parse(
            "title = \"B\"\ndescription = \"d\"\n[setup]\nCPU = \"y\"\nRAM = \"z\"\n",
            Path::new("b"),
        )
        .unwrap();
        a.merge(b);
        assert_eq!(a.title.as_deref(), Some("A"));
        assert_eq!(a.description.as_deref(), Some("d"));
        assert_eq!(a.setup["CPU"], "x");
        assert_eq!(a.setup["RAM"], "z");
    }

    #[test]
    fn bad_numbers_are_rejected() {
        let e = Manifest::parse("[config.a]\nsystem_cpu_pct = -1\n", Path::new("m.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("system_cpu_pct"), "{e}");
        assert!(Manifest::parse("[config.a]\niops_precision = 0\n", Path::new("m")).is_err());
        assert!(Manifest::parse("[config.a]\niops_precision = nan\n", Path::new("m")).is_err());
    }

    #[test]
    fn sidecar_is_read_next_to_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("randread-4k.json");
        assert_eq!(load_sidecar(&f).unwrap(), None);
        std::fs::write(
            dir.path().join("randread-4k.json.nvcmp.toml"),
            "system_cpu_pct = 74.22\n",
        )
        .unwrap();
        assert_eq!(
            load_sidecar(&f).unwrap().unwrap().system_cpu_pct,
            Some(74.22)
        );
        std::fs::write(dir.path().join("randread-4k.json.nvcmp.toml"), "cpu = 1\n").unwrap();
        let e = load_sidecar(&f).unwrap_err().to_string();
        assert!(
            e.contains("randread-4k.json.nvcmp.toml") && e.contains("cpu"),
            "{e}"
        );
    }
}
