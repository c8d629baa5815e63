//! Reading the sides a command compares (`check`'s baseline and
//! candidate, `history add`'s run, `check --history`'s candidate): what
//! could not be read is said on stderr, nothing readable is a usage error.

use std::path::PathBuf;

use super::CliError;
use crate::input;

/// Result files, folders or dataset files for `flag` ([`input::load`]): what could not be read is printed,
/// and nothing readable at all is a usage error starting with `empty`.
pub(super) fn read_side(
    paths: &[PathBuf],
    flag: &str,
    empty: &str,
) -> anyhow::Result<input::Loaded> {
    let opts = input::LoadOptions::default();
    let loaded =
        input::load(paths, &opts, &()).map_err(|e| CliError::usage(format!("{flag}: {e:#}")))?;
    for s in &loaded.skipped {
        eprintln!("nvcmp: {flag}: {s}");
    }
    for w in &loaded.warnings {
        eprintln!("nvcmp: {flag}: {w}");
    }
    if loaded.rows.is_empty() {
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(CliError::usage(format!("{empty} {flag} {}", names.join(" "))).into());
    }
    Ok(loaded)
}
