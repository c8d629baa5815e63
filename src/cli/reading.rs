//! Reading the sides a command compares (`check`'s baseline and
//! candidate, `history add`'s run, `check --history`'s candidate): what
//! could not be read is said on stderr, nothing readable is a usage error.

use std::path::PathBuf;

use super::CliError;
use crate::ingest::{ConfigNaming, IngestOptions, Instances};
use crate::input;

/// How results are read into configs and runs: the flags `analyze` and
/// `ingest` share, declared once.
#[derive(Debug, clap::Args)]
pub struct ReadArgs {
    /// How results get their config label when no manifest says otherwise.
    #[arg(long, default_value = "auto", value_name = "RULE", value_parser = super::parse_label_by, long_help = super::LABEL_BY_HELP)]
    pub label_by: ConfigNaming,
    /// Whether result files that ran at the same time on the same targets (separate fio processes) are one run.
    #[arg(long, default_value = "auto", value_name = "RULE", value_parser = super::parse_instances, long_help = super::INSTANCES_HELP)]
    pub instances: Instances,
    /// What repeats: words of the names or folder levels that tell repeats apart, not configs.
    #[arg(long, value_name = "WORD|folder[:N]", value_parser = super::parse_repeats, long_help = super::REPEATS_HELP)]
    pub repeats: Option<crate::ingest::Repeats>,
    /// Manifest (nvcmp.toml) to use instead of the one in each PATH.
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,
    /// Exit 2 when any file is skipped.
    #[arg(long)]
    pub strict: bool,
}

impl ReadArgs {
    /// The ingest options these flags ask for; json+ latency bins are
    /// read unless `skip_bins` (what uses no histogram leaves them).
    pub fn ingest_options(&self, skip_bins: bool) -> IngestOptions {
        IngestOptions {
            config_naming: self.label_by.clone(),
            instances: self.instances,
            manifest: self.manifest.clone(),
            skip_bins,
            max_expanded: super::max_expanded(),
            repeats: self.repeats.clone().unwrap_or_default(),
        }
    }
}

/// Result files, folders or dataset files for `flag` ([`input::read`]): what could not be read is printed,
/// and nothing readable at all is a usage error starting with `empty`.
pub(super) fn read_side(
    paths: &[PathBuf],
    flag: &str,
    empty: &str,
) -> anyhow::Result<input::Inputs> {
    let mut opts = input::ReadOptions::default();
    opts.ingest.max_expanded = super::max_expanded();
    let inputs =
        input::read(paths, &opts, &()).map_err(|e| CliError::usage(format!("{flag}: {e:#}")))?;
    super::skips::print(
        &inputs.skipped,
        &format!("nvcmp: {flag}: "),
        super::verbose(),
    );
    for w in &inputs.warnings {
        eprintln!("nvcmp: {flag}: {w}");
    }
    if inputs.rows.is_empty() {
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let found = match super::skips::found(&inputs.skipped) {
            f if f.is_empty() => String::new(),
            f => format!(": {f}"),
        };
        return Err(CliError::usage(format!("{empty} {flag} {}{found}", names.join(" "))).into());
    }
    Ok(inputs)
}
