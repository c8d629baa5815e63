//! The CI reports of a gate: `--junit` and `--markdown` files, and
//! GitHub's step summary appended to. `check` and `check --history` write
//! the same files through [`write()`]; the formats are
//! [`CiFormat`]'s, the CLI says where they go.

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::render::check::{CiFormat, Outcome};

/// Where the CI reports go; None writes nothing.
#[derive(Debug, Clone, Default)]
pub struct CiReports {
    /// `--junit`.
    pub junit: Option<PathBuf>,
    /// `--markdown`.
    pub markdown: Option<PathBuf>,
    /// GitHub's step summary (`GITHUB_STEP_SUMMARY`), appended to, as
    /// GitHub expects of every step.
    pub step_summary: Option<PathBuf>,
}

/// Writes `outcome` to every report of `to`.
pub fn write(to: &CiReports, outcome: &dyn Outcome) -> anyhow::Result<()> {
    let files = [
        (&to.junit, CiFormat::Junit),
        (&to.markdown, CiFormat::Markdown),
    ];
    for (path, format) in files {
        if let Some(path) = path {
            write_file(path, format, outcome)?;
        }
    }
    if let Some(path) = &to.step_summary {
        append_summary(path, outcome)
            .with_context(|| format!("GITHUB_STEP_SUMMARY {}", path.display()))?;
    }
    Ok(())
}

/// One report file, written whole once rendered.
fn write_file(path: &Path, format: CiFormat, outcome: &dyn Outcome) -> anyhow::Result<()> {
    let mut buf = Vec::new();
    format.write(outcome, &mut buf)?;
    crate::atomic_file::write(path, &buf)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The Markdown report added to the end of the step summary.
fn append_summary(path: &Path, outcome: &dyn Outcome) -> anyhow::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    CiFormat::Markdown.write(outcome, &mut f)
}
