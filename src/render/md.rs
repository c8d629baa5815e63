//! Markdown: article-ready tables from `templates/report.md.j2`.

use std::io::Write;

use super::view::View;
use super::{Renderer, template};
use crate::compare::Comparison;

pub const BUILTIN: &str = include_str!("../../templates/report.md.j2");

pub struct Markdown {
    /// Replaces the built-in template.
    pub template: Option<String>,
}

impl Renderer for Markdown {
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()> {
        let source = self.template.as_deref().unwrap_or(BUILTIN);
        template::render(source, &View::new(cmp, &[]), false, out)
    }
}
