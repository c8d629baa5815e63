//! Renderers: a [`crate::compare::Comparison`] to bytes, one file per
//! format. Renderers write to any `Write` and never print; they compute no
//! winners of their own.

use std::io::Write;

use crate::compare::Comparison;

/// One output format.
pub trait Renderer {
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()>;
}

/// The output formats of `analyze --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Term,
    Md,
    Html,
    Csv,
    Json,
}
