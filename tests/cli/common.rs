//! Helpers shared by the CLI tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The project root (where `fixtures/` is).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A path under `fixtures/`.
pub fn fixture(rel: &str) -> PathBuf {
    root().join("fixtures").join(rel)
}

/// `nvcmp` with colors off and a clean environment for the bits we read.
pub fn nvcmp() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("nvcmp").expect("nvcmp binary");
    cmd.env("NO_COLOR", "1").env_remove("GITHUB_STEP_SUMMARY");
    cmd
}
