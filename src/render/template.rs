//! The minijinja environment shared by the Markdown and HTML renderers.

use std::io::Write;

use minijinja::{AutoEscape, Environment};

use super::view::View;

/// The script of the built-in HTML report (and of any `--template` that
/// includes it).
pub const SCRIPT: &str = include_str!("../../templates/report.js");

/// Renders `source` with the view as context. `html` turns on escaping of
/// every interpolated value, so input-derived text (labels, paths,
/// reasons) can never inject markup.
pub fn render(source: &str, view: &View, html: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut env = Environment::new();
    env.set_auto_escape_callback(move |_| {
        if html {
            AutoEscape::Html
        } else {
            AutoEscape::None
        }
    });
    // Markdown table cells: a `|` in a label would end the cell. Safe: the
    // formatter below does not escape it twice.
    env.add_filter("mdcell", |s: String| {
        minijinja::Value::from_safe_string(super::table::escape(&s))
    });
    if !html {
        // Markdown passes HTML through and reads its own syntax: every
        // interpolated text is escaped ([`super::table::markdown_text`]),
        // so a label or path read from a file is never markup. Tables come
        // written (their cells escaped, their `<br>` and `**` kept): the
        // tables nvcmp wrote into the view go as they are, and only they
        // (a title that merely starts with `|` is escaped).
        let tables: std::collections::HashSet<String> = super::view_tables::written(view)
            .into_iter()
            .map(str::to_string)
            .collect();
        env.set_formatter(move |out, state, value| match value.as_str() {
            Some(text) if !value.is_safe() && !tables.contains(text) => {
                out.write_str(&super::table::markdown_text(text))?;
                Ok(())
            }
            _ => minijinja::escape_formatter(out, state, value),
        });
    }
    // report.html's script, for `{% include "report.js" %}`; raw, so the
    // braces of JavaScript are never read as template syntax.
    env.add_template_owned("report.js", format!("{{% raw %}}{SCRIPT}{{% endraw %}}"))
        .map_err(|e| anyhow::anyhow!("template: {e:#}"))?;
    env.add_template("report", source)
        .map_err(|e| anyhow::anyhow!("template: {e:#}"))?;
    let text = env
        .get_template("report")
        .and_then(|t| t.render(view))
        .map_err(|e| anyhow::anyhow!("template: {e:#}"))?;
    out.write_all(text.as_bytes())?;
    Ok(())
}
