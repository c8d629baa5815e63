//! HTML: one self-contained file (inline CSS, no scripts) from
//! `templates/report.html.j2`; every value is HTML-escaped.

use std::io::Write;

use super::view::View;
use super::{Renderer, template};
use crate::compare::Comparison;

pub const BUILTIN: &str = include_str!("../../templates/report.html.j2");

pub struct Html {
    /// Replaces the built-in template.
    pub template: Option<String>,
    /// Chart paths, one `<img>` each.
    pub charts: Vec<String>,
}

impl Renderer for Html {
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()> {
        let source = self.template.as_deref().unwrap_or(BUILTIN);
        template::render(source, &View::new(cmp, &self.charts), true, out)
    }
}
