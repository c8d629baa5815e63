//! The dataset: rows as a polars DataFrame with the columns of CONTRACT.md,
//! and its files (parquet, csv, json, ndjson), both ways.

// TEMPORARY (compare branch): stand-in until the ingest branch lands the
// dataset writer on main. Drop on merge.
/// Writes `rows` to `path` (stand-in: always fails).
pub fn write(rows: &[crate::model::Row], path: &std::path::Path) -> anyhow::Result<()> {
    let _ = rows;
    anyhow::bail!("{}: this build cannot write datasets yet", path.display())
}
