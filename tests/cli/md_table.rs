//! Reads a cell of a Markdown report's per-workload tables. Shared by the
//! CLI tests and the renderer's unit tests (`src/render/tests.rs` includes
//! this file by path), which check the same tables at two layers: the
//! integration tests cannot see the library's test code, so the one copy
//! lives here.

/// The cell in `config`'s column and the row titled `row` of the table
/// under `### {workload}` in `md`, without its bold marks.
pub fn cell(md: &str, workload: &str, config: &str, row: &str) -> String {
    try_cell(md, workload, config, row).unwrap_or_else(|| panic!("no {row} row for {workload}"))
}

/// [`cell`], or None where the table has no row titled `row` (a latency
/// row is titled in the unit its values need: "(µs)" or "(ms)").
pub fn try_cell(md: &str, workload: &str, config: &str, row: &str) -> Option<String> {
    let section = md
        .split("### ")
        .find(|s| s.starts_with(&format!("{workload}\n")))
        .unwrap_or_else(|| panic!("no table for {workload}"));
    let header = section.lines().find(|l| l.starts_with("| |")).unwrap();
    let col = header
        .split('|')
        .position(|c| c.trim() == config)
        .unwrap_or_else(|| panic!("no {config} column for {workload}"));
    let line = section
        .lines()
        .find(|l| l.starts_with(&format!("| {row} |")))?;
    Some(
        line.split('|')
            .nth(col)
            .unwrap()
            .trim()
            .trim_matches('*')
            .to_string(),
    )
}
