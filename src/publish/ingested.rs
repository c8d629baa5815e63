//! What `ingest` writes: the dataset (`-o FILE`, or stdout), a CI
//! dashboard's file (`--format bmf|gab|gab-smaller`) and fio's logs as a
//! series dataset (`--series FILE`). The CLI chooses the format and hands
//! over stdout; the files are opened, written and named in errors here.

use std::io::Write;
use std::path::Path;

use anyhow::Context;

use crate::dataset::{self, CsvCells, FileFormat};
use crate::export::ExportFormat;
use crate::ingest::logs::{self, Plan, Streamed};
use crate::model::Row;
use crate::timeseries::file::SeriesWriter;

/// Where one output goes.
pub enum Output<'a> {
    /// `-o FILE`.
    File(&'a Path),
    /// The stream the CLI opened (stdout), flushed once written.
    Stream(&'a mut dyn Write),
}

/// The rows as a dataset in `format`, to the file or the stream (the CLI
/// decides the format: `--format`, else -o's extension).
pub fn dataset(
    rows: &[Row],
    format: FileFormat,
    cells: CsvCells,
    to: Output<'_>,
) -> anyhow::Result<()> {
    match to {
        Output::File(path) => dataset::write_as(rows, format, cells, path),
        Output::Stream(w) => {
            dataset::write_to(rows, format, cells, w)?;
            w.flush()?;
            Ok(())
        }
    }
}

/// The rows' measurements as a CI dashboard reads them.
pub fn export(rows: &[Row], format: ExportFormat, to: Output<'_>) -> anyhow::Result<()> {
    let mut buf = Vec::new();
    crate::export::export(rows, format, &mut buf)?;
    match to {
        Output::File(path) => crate::atomic_file::write(path, &buf)
            .map_err(|e| anyhow::anyhow!("-o {}: cannot write: {e}", path.display())),
        Output::Stream(w) => {
            w.write_all(&buf)?;
            w.flush()?;
            Ok(())
        }
    }
}

/// Streams every log of `plan` into the series file at `path`, its
/// format by the extension; `read` is told the bytes of each batch read
/// (the CLI's progress bar).
pub fn series(plan: &Plan, path: &Path, read: &mut dyn FnMut(u64)) -> anyhow::Result<Streamed> {
    // Streamed into a new temporary beside `path` (its extension kept, so
    // the format is the same) and renamed over it: see crate::atomic_file.
    let mut streamed = None;
    crate::atomic_file::write_via_path(path, |tmp| {
        let mut writer = SeriesWriter::create(tmp)?;
        streamed = Some(logs::stream_logs(plan, &mut |logs, rows, bytes| {
            read(bytes);
            writer.write(logs, rows)
        })?);
        writer.finish().map(|_| ())
    })
    .with_context(|| format!("cannot write {}", path.display()))?;
    streamed.context("no series written")
}
