//! `nvcmp analyze`: arguments and their validation into core options.

use super::Global;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Result files or folders (walked recursively).
    #[arg(value_name = "PATH")]
    pub paths: Vec<std::path::PathBuf>,
}

pub fn run(_args: Args, _global: Global) -> anyhow::Result<u8> {
    Err(super::CliError::usage("`nvcmp analyze` is not implemented yet").into())
}
