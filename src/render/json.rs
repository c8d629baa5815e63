//! JSON: the Comparison as serde writes it, the shape of docs/CONTRACT.md.

use std::io::Write;

use super::Renderer;
use crate::compare::Comparison;

pub struct Json;

impl Renderer for Json {
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()> {
        serde_json::to_writer_pretty(&mut *out, cmp)?;
        out.write_all(b"\n")?;
        Ok(())
    }
}
