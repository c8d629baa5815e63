//! How a comparison's configurations were told apart: the rule
//! `--label-by` named and the options it used. Ingest applies it
//! (`ingest::configs`); the comparison and its reports say it.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// How the configs were told apart: `config_rule` in `analyze`'s JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ConfigRule {
    /// `auto`, `name`, `folder`, `engine`, `host`, `file` or `keys`
    /// (`--label-by`).
    pub rule: String,
    /// The options that named configs, in naming order: those found to
    /// differ (`auto`) or those given (`keys`). Empty: one config per
    /// folder (or per engine, host, file).
    pub keys: Vec<String>,
    /// Each config's value of each key (null: the option was not set).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub values: IndexMap<String, IndexMap<String, Option<String>>>,
    /// Folders split into several configs (`auto`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub split_folders: Vec<String>,
    /// Folders of script logs taken one config per file (`auto`: each
    /// file held several runs of the same workloads).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub file_configs: Vec<String>,
    /// What the rule could not decide from the data (files alike in every
    /// option but named apart): said with the comparison's checks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Words some files carry that never tell two runs apart at one
    /// workload (`cpu`): roles, said in the study, not in `config_rule`.
    #[serde(skip)]
    pub roles: Vec<String>,
    /// What `--repeats` or the manifest's `repeats` declared (`attempt`,
    /// `folder:2`): said in the study.
    #[serde(skip)]
    pub declared_repeats: Vec<String>,
    /// How the runs were grouped, worked out once the rule is applied:
    /// the comparison's `study`.
    #[serde(skip)]
    pub study: super::Study,
}

impl ConfigRule {
    /// One sentence for the report: how configs were found.
    pub fn sentence(&self) -> Option<String> {
        let keys = self
            .keys
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(", ");
        match self.rule.as_str() {
            "auto" if !self.file_configs.is_empty() => Some(format!(
                "Each file of {} holds the same workloads, run by a script: one config per file, named by {keys} (--label-by folder keeps one per folder).",
                self.file_configs.join(", ")
            )),
            "auto" if !self.keys.is_empty() => Some(format!(
                "Configurations told apart by the options that differ between runs of the same workload and load: {keys} (--label-by folder keeps one per folder)."
            )),
            "keys" => Some(format!("Configurations named by {keys} (--label-by).")),
            "name" if !self.keys.is_empty() => Some(format!(
                "Configurations told apart by the options that differ between runs of the same workload and load, and by file name (--label-by name): {keys}."
            )),
            _ => None,
        }
    }
}
