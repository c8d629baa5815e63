//! The history's errors ([`StoreError`]): each names the history, part or
//! URL, and what fixes it. Below both the store and where it keeps its
//! parts (`objects`), which both say them.

use std::path::{Path, PathBuf};

/// Errors of the history store; each names the path and what fixes it.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: run `{run}` is already in the history (use another --run, or --replace)")]
    DuplicateRun { run: String, path: PathBuf },
    #[error("{0}: --history must name a directory of parquet parts, not a file")]
    NotADirectory(PathBuf),
    #[error("{0}: no history here (add runs with `nvcmp history add PATH --history DIR|URL`)")]
    Missing(PathBuf),
    #[error("{path}: cannot read history part: {source}")]
    Part {
        path: PathBuf,
        #[source]
        source: anyhow::Error,
    },
    #[error("{a} and {b} hold some of the same runs; move one of them out of the history")]
    Overlap { a: PathBuf, b: PathBuf },
    #[error(
        "{path}: the run was added, but merging parts failed (the history is whole; `nvcmp history compact` retries): {source}"
    )]
    Merge {
        path: PathBuf,
        #[source]
        source: Box<StoreError>,
    },
    #[error(
        "{path}: damaged ({reason}); `nvcmp history compact --history DIR|URL` sets it aside in .quarantine/"
    )]
    Damaged { path: PathBuf, reason: String },
    #[error("{path}: {}", super::io_text::cause(source))]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("--history {url}: {reason}")]
    Url { url: String, reason: String },
    /// A part listed a moment ago and gone when fetched: a merge retired
    /// it (its runs are in the merged part), readers list again.
    #[error("{0}: removed while being read (a merge retired it); try again")]
    Gone(PathBuf),
    #[error("{url}: {reason}")]
    Remote { url: String, reason: String },
}

pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}
