//! The dataset: rows as a polars DataFrame with the columns of docs/CONTRACT.md,
//! and its files (parquet, csv, json, ndjson), both ways.
//!
//! Column order is [`Row`]'s field order: the contract's columns first,
//! then the additions. json/ndjson go through serde from the rows (no
//! polars json feature: it costs build minutes and gives nothing here).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use polars_core::prelude::*;
use polars_io::prelude::*;

use crate::model::figures::Percentiles;
use crate::model::{Direction, Os, Row};

/// A dataset file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFormat {
    Parquet,
    Csv,
    /// One JSON array of row objects.
    Json,
    /// One JSON object per line.
    Ndjson,
}

impl FileFormat {
    /// By file extension (`.parquet`, `.csv`, `.json`, `.ndjson`/`.jsonl`).
    pub fn from_path(path: &Path) -> Option<FileFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "parquet" | "pq" => FileFormat::Parquet,
            "csv" => FileFormat::Csv,
            "json" => FileFormat::Json,
            "ndjson" | "jsonl" => FileFormat::Ndjson,
            _ => return None,
        })
    }

    /// Whether the format is bytes a terminal should not get.
    pub fn is_binary(self) -> bool {
        self == FileFormat::Parquet
    }
}

/// Every column, once, in [`Row`]'s field order (the contract's columns
/// first): the field and the column share the name, and [`Field`] says
/// how each Rust type is stored and read back. `clat_bins` is not a column
/// (a histogram does not fit a flat table).
macro_rules! dataset_columns {
    ($($field:ident $(as $column:literal)?),* $(,)?) => {
        /// The dataset's column names, in order.
        pub const COLUMNS: &[&str] = &[$(column_name!($field $(as $column)?)),*];

        fn columns_of(rows: &[Row]) -> Vec<Column> {
            vec![$(Field::column(column_name!($field $(as $column)?), rows.iter().map(|r| &r.$field).collect())),*]
        }

        /// Fills `rows` from `df`; a column it does not have leaves the
        /// field as [`Row::empty`] has it.
        fn fill_from(df: &DataFrame, rows: &mut [Row]) -> anyhow::Result<()> {
            let empty = Row::empty("", Direction::Read);
            $(
                let name = column_name!($field $(as $column)?);
                let values = Field::read_all(df.column(name).ok(), rows.len(), empty.$field.clone())
                    .with_context(|| format!("column {name}"))?;
                for (r, v) in rows.iter_mut().zip(values) {
                    r.$field = v;
                }
            )*
            Ok(())
        }
    };
}

/// A field's column: its own name, or the one given after `as` (a name
/// kept for compatibility where the code's word changed).
macro_rules! column_name {
    ($field:ident) => {
        stringify!($field)
    };
    ($field:ident as $column:literal) => {
        $column
    };
}

dataset_columns!(
    source,
    config as "label",
    os,
    engine,
    fio_version,
    host,
    job,
    format,
    rw,
    direction,
    bs_bytes,
    iodepth,
    numjobs,
    runtime_ms,
    io_bytes,
    bw_bytes_per_s,
    iops,
    iops_precision,
    lat_mean_ns,
    lat_stddev_ns,
    lat_min_ns,
    lat_max_ns,
    clat_mean_ns,
    clat_p50_ns,
    clat_p99_ns,
    clat_p99_9_ns,
    usr_cpu_pct,
    sys_cpu_pct,
    system_cpu_pct,
    error,
    aggregate,
    rwmixread,
    bw_precision,
    lat_precision_ns,
    slat_mean_ns,
    clat_stddev_ns,
    clat_p90_ns,
    clat_p95_ns,
    clat_p99_99_ns,
    lat_p50_ns,
    lat_p99_ns,
    lat_p99_9_ns,
    iops_samples,
    iops_sample_mean,
    iops_sample_stddev,
    bw_samples,
    bw_sample_mean,
    bw_sample_stddev,
    filename,
    timestamp,
    effective_iodepth,
    direct,
    steady_state_attained,
    steady_state_rule,
    steady_state_measured,
    steady_state_duration_ms,
    steady_state_iops,
    steady_state_bw_bytes_per_s,
    timing_options,
    busiest_cpu_pct,
    tool,
    tool_version,
    target,
    cpus_allowed,
    precondition,
    options,
    timestamp_ms,
    instances,
    instance_group,
    bs_option,
    bs_spread,
    clat_percentiles,
    lat_percentiles,
    variant,
    file_run,
    setup_facts,
);

/// A field type that is a dataset column: how a column is made of the
/// fields of every row, and read back (null or missing: the default).
trait Field: Sized {
    /// The column of the rows' values, read where they are (a column of
    /// 100,000 strings is not cloned first).
    fn column(name: &str, values: Vec<&Self>) -> Column;
    fn read_all(col: Option<&Column>, n: usize, default: Self) -> anyhow::Result<Vec<Self>>;
}

/// `Option<T>` columns read as nullable values of T's storage type.
macro_rules! field_via {
    ($t:ty, $store:ty, $dtype:expr, $get:ident, $to:expr, $from:expr) => {
        impl Field for Option<$t> {
            fn column(name: &str, values: Vec<&Self>) -> Column {
                let to = $to;
                Column::new(
                    name.into(),
                    values
                        .into_iter()
                        .map(|v| v.as_ref().map(to))
                        .collect::<Vec<Option<$store>>>(),
                )
            }
            fn read_all(
                col: Option<&Column>,
                n: usize,
                default: Self,
            ) -> anyhow::Result<Vec<Self>> {
                let Some(col) = col else {
                    return Ok(vec![default; n]);
                };
                let cast = col.cast(&$dtype)?;
                let ca = cast.$get()?;
                let from = $from;
                Ok((0..n)
                    .map(|i| ca.get(i).map(&from).or(default.clone()))
                    .collect())
            }
        }

        impl Field for $t {
            fn column(name: &str, values: Vec<&Self>) -> Column {
                let to = $to;
                Column::new(
                    name.into(),
                    values.into_iter().map(to).collect::<Vec<$store>>(),
                )
            }
            fn read_all(
                col: Option<&Column>,
                n: usize,
                default: Self,
            ) -> anyhow::Result<Vec<Self>> {
                let read = <Option<$t> as Field>::read_all(col, n, None)?;
                Ok(read
                    .into_iter()
                    .map(|v| v.unwrap_or_else(|| default.clone()))
                    .collect())
            }
        }
    };
}

field_via!(f64, f64, DataType::Float64, f64, |v: &f64| *v, |v: f64| v);
field_via!(u64, u64, DataType::UInt64, u64, |v: &u64| *v, |v: u64| v);
field_via!(i64, i64, DataType::Int64, i64, |v: &i64| *v, |v: i64| v);
field_via!(
    bool,
    bool,
    DataType::Boolean,
    bool,
    |v: &bool| *v,
    |v: bool| v
);
// Depths, job counts and mixes are i64 columns (the contract's type).
field_via!(
    u32,
    i64,
    DataType::Int64,
    i64,
    |v: &u32| i64::from(*v),
    u32_of
);

/// A depth, job count or mix as read from its i64 column.
pub(crate) fn u32_of(v: i64) -> u32 {
    u32::try_from(v.max(0)).unwrap_or(u32::MAX)
}
field_via!(
    String,
    &str,
    DataType::String,
    str,
    String::as_str,
    |v: &str| v.to_string()
);
field_via!(Os, &str, DataType::String, str, Os::as_str, Os::parse);
/// A shared text (a row's options, 2-3 KB, one for all the rows of the
/// jobs that ran alike): the column holds each distinct text once, every
/// row a view of it, as the rows hold one `Arc` (a copy per row was most
/// of `analyze --out`'s peak on an archive of multi-job files).
impl Field for Option<std::sync::Arc<str>> {
    fn column(name: &str, values: Vec<&Self>) -> Column {
        shared_text_column(name, &values)
    }
    fn read_all(col: Option<&Column>, n: usize, default: Self) -> anyhow::Result<Vec<Self>> {
        let text = <Option<String> as Field>::read_all(col, n, None)?;
        Ok(text
            .into_iter()
            .map(|t| t.map(std::sync::Arc::from).or_else(|| default.clone()))
            .collect())
    }
}
/// A string column of `values` in which equal texts of one `Arc` are
/// stored once: each distinct text laid out in one buffer, each row a
/// view of its text there (arrow's string views may share bytes).
fn shared_text_column(name: &str, values: &[&Option<std::sync::Arc<str>>]) -> Column {
    use polars_arrow::array::{MutableBinaryViewArray, Utf8ViewArray, View};
    let mut bytes: Vec<u8> = Vec::new();
    let mut views: std::collections::HashMap<*const u8, View, crate::quick_hash::QuickHash> =
        std::collections::HashMap::default();
    for text in values.iter().filter_map(|v| v.as_deref()) {
        views.entry(text.as_ptr()).or_insert_with(|| {
            let offset = bytes.len();
            bytes.extend_from_slice(text.as_bytes());
            // Offsets are u32: past 4 GiB of distinct text the view is
            // never used (the plain column below is built instead).
            View::new_from_bytes(text.as_bytes(), 0, u32::try_from(offset).unwrap_or(0))
        });
    }
    if u32::try_from(bytes.len()).is_err() {
        let texts = values.iter().map(|v| v.as_deref());
        return Column::new(name.into(), texts.collect::<Vec<Option<&str>>>());
    }
    let buffers = [polars_buffer::Buffer::from(bytes)];
    let mut array = MutableBinaryViewArray::<str>::with_capacity(values.len());
    for v in values {
        match v.as_deref() {
            Some(text) => array.push_view(views[&text.as_ptr()], &buffers),
            None => array.push_null(),
        }
    }
    let array: Utf8ViewArray = array.into();
    StringChunked::with_chunk(name.into(), array)
        .into_series()
        .into_column()
}

field_via!(
    Direction,
    &str,
    DataType::String,
    str,
    |v: &Direction| v.as_str(),
    |v: &str| { Direction::parse(v).unwrap_or(Direction::Read) }
);

/// Every percentile of a latency, as the JSON object text of
/// [`Percentiles::text`] (null when fio printed none).
impl Field for Percentiles {
    fn column(name: &str, values: Vec<&Self>) -> Column {
        Column::new(
            name.into(),
            values
                .iter()
                .map(|p| p.text())
                .collect::<Vec<Option<String>>>(),
        )
    }
    fn read_all(col: Option<&Column>, n: usize, default: Self) -> anyhow::Result<Vec<Self>> {
        let text = <Option<String> as Field>::read_all(col, n, None)?;
        Ok(text
            .into_iter()
            .map(|t| t.map_or_else(|| default.clone(), |t| Percentiles::parse(&t)))
            .collect())
    }
}

/// How text cells are written to CSV. A spreadsheet runs a cell that
/// starts with `=`, `+`, `-`, `@`, a tab or a carriage return as a formula
/// (`=HYPERLINK(...)` from a folder name, `+cmd|...` from a job name);
/// such cells get a leading `'` (OWASP's advice), which spreadsheets show
/// as text and nvcmp's own CSV reader takes off again. Numbers are not
/// text cells, and a text cell that is a number (`-1`) stays as it is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CsvCells {
    /// A `'` before cells a spreadsheet would run.
    #[default]
    Guarded,
    /// `--csv-raw`: every cell as the data has it, for programs.
    Raw,
}

/// Whether a spreadsheet would run `s` as a formula: it starts with one
/// of `= + - @`, a tab or a carriage return and is no number; or it is
/// such a cell already guarded (`'=x`), so that guarding `'=x` itself
/// gives `''=x` and reading takes off exactly the `'` writing put on.
fn runs_as_formula(s: &str) -> bool {
    match s.as_bytes().first() {
        Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r') => s.parse::<f64>().is_err(),
        Some(b'\'') => runs_as_formula(&s[1..]),
        _ => false,
    }
}

/// `s` as a CSV text cell in `cells` mode.
pub fn csv_cell(s: &str, cells: CsvCells) -> std::borrow::Cow<'_, str> {
    if cells == CsvCells::Guarded && runs_as_formula(s) {
        format!("'{s}").into()
    } else {
        s.into()
    }
}

/// A cell read from a CSV file nvcmp wrote: the `'` [`csv_cell`] put
/// before a formula taken off.
fn csv_cell_read(s: &str) -> Option<&str> {
    s.strip_prefix('\'').filter(|rest| runs_as_formula(rest))
}

/// `df` with every text cell guarded ([`csv_cell`]), or None when no cell
/// needs it (the frame is written as it is).
fn guarded(df: &DataFrame) -> PolarsResult<Option<DataFrame>> {
    let mut out: Option<DataFrame> = None;
    for col in df.columns() {
        let Ok(text) = col.str() else { continue };
        let cells = || (0..text.len()).map(|i| text.get(i));
        if !cells().flatten().any(runs_as_formula) {
            continue;
        }
        let safe: Vec<Option<String>> = cells()
            .map(|v| v.map(|s| csv_cell(s, CsvCells::Guarded).into_owned()))
            .collect();
        out.get_or_insert_with(|| df.clone())
            .with_column(Column::new(col.name().clone(), safe))?;
    }
    Ok(out)
}

/// `df` as read from a CSV file: each guarded text cell as it was.
fn unguarded(df: DataFrame) -> PolarsResult<DataFrame> {
    let mut df = df;
    let mut plain = Vec::new();
    for col in df.columns() {
        let Ok(text) = col.str() else { continue };
        let cells = || (0..text.len()).map(|i| text.get(i));
        if !cells().flatten().any(|s| csv_cell_read(s).is_some()) {
            continue;
        }
        let values: Vec<Option<String>> = cells()
            .map(|v| v.map(|s| csv_cell_read(s).unwrap_or(s).to_string()))
            .collect();
        plain.push(Column::new(col.name().clone(), values));
    }
    for col in plain {
        df.with_column(col)?;
    }
    Ok(df)
}

/// The rows as a DataFrame: contract columns first, then the extra fields.
pub fn to_dataframe(rows: &[Row]) -> PolarsResult<DataFrame> {
    DataFrame::new(rows.len(), columns_of(rows))
}

/// Writes rows to `path`, the format chosen by its extension (CSV
/// cells guarded).
pub fn write(rows: &[Row], path: &Path) -> anyhow::Result<()> {
    write_as(rows, format_of(path)?, CsvCells::Guarded, path)
}

/// The format `path`'s extension names, or an error that lists them.
fn format_of(path: &Path) -> anyhow::Result<FileFormat> {
    FileFormat::from_path(path).with_context(|| {
        format!(
            "{}: unknown dataset extension (use .parquet, .csv, .json or .ndjson)",
            path.display()
        )
    })
}

/// Writes rows to `path` in `format`, whatever its extension says
/// (`ingest -o FILE --format F`: the named format wins).
pub fn write_as(
    rows: &[Row],
    format: FileFormat,
    cells: CsvCells,
    path: &Path,
) -> anyhow::Result<()> {
    to_file(path, |w| write_to(rows, format, cells, w))
}

/// Creates `path` and has `write` fill it through a buffer; errors name
/// the file.
fn to_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    crate::atomic_file::write_with(path, |w| {
        write(w).map_err(|e| std::io::Error::other(format!("{e:#}")))
    })
    .with_context(|| format!("cannot write {}", path.display()))
}

/// Writes rows to each of `paths`, each in the format its extension
/// names. Parquet and csv are written side by side from one polars frame
/// of [`FRAME_ROWS`] rows at a time ([`write_frames`]).
pub fn write_each(rows: &[Row], paths: &[PathBuf], cells: CsvCells) -> anyhow::Result<()> {
    let mut framed: Vec<(&Path, FileFormat)> = Vec::new();
    for path in paths {
        match format_of(path)? {
            format @ (FileFormat::Parquet | FileFormat::Csv) => framed.push((path, format)),
            format => write_as(rows, format, cells, path)?,
        }
    }
    if framed.is_empty() {
        return Ok(());
    }
    let names: Vec<&Path> = framed.iter().map(|(p, _)| *p).collect();
    let formats: Vec<FileFormat> = framed.iter().map(|(_, f)| *f).collect();
    crate::atomic_file::write_many(&names, |ws| {
        let mut ws: Vec<&mut dyn Write> = ws.iter_mut().map(|w| w as &mut dyn Write).collect();
        write_frames(rows, &formats, &mut ws, cells, FRAME_ROWS)
            .map_err(|e| std::io::Error::other(format!("{e:#}")))
    })
    .with_context(|| {
        let shown: Vec<String> = names.iter().map(|p| p.display().to_string()).collect();
        format!("cannot write {}", shown.join(" and "))
    })
}

/// Rows per polars frame when a dataset is written as parquet or csv
/// (`analyze --out`'s dataset files, `ingest -o`, `--format`): a frame of
/// all 200,000 rows of a lab's archive took 190 MB beside the rows and
/// writing it as parquet 100 MB more (each row's percentiles as JSON
/// text, the column chunks encoded whole); in frames of 8,192 rows
/// `ingest -o dataset.csv` of it peaked 44 MB over the rows, in frames of
/// 4,096 15 MB (the writers' threads keep what a frame took). Each frame
/// is one parquet row group (polars' own are up to 262,144 rows), so a
/// dataset of fewer rows is one frame and one row group, as before.
pub const FRAME_ROWS: usize = 4_096;

/// A parquet or csv writer that takes a frame at a time.
enum FrameSink<'w> {
    Parquet(Box<polars_io::parquet::write::BatchedWriter<&'w mut dyn Write>>),
    Csv(polars_io::csv::write::BatchedWriter<&'w mut dyn Write>),
}

/// Writes rows as each of `formats` (parquet or csv) to the writer of the
/// same place in `ws`, `frame_rows` rows at a time ([`FRAME_ROWS`]): each
/// frame is built once for all of them and dropped before the next.
pub fn write_frames(
    rows: &[Row],
    formats: &[FileFormat],
    ws: &mut [&mut dyn Write],
    cells: CsvCells,
    frame_rows: usize,
) -> anyhow::Result<()> {
    let mut parts: Vec<&[Row]> = rows.chunks(frame_rows.max(1)).collect();
    if parts.is_empty() {
        // No rows: the files still get their header and schema.
        parts.push(rows);
    }
    let mut frames = parts.into_iter().map(to_dataframe);
    let first = frames.next().transpose()?.unwrap_or_default();
    let mut sinks = formats
        .iter()
        .zip(ws.iter_mut())
        .map(|(format, w)| frame_sink(*format, &first, &mut **w))
        .collect::<anyhow::Result<Vec<FrameSink>>>()?;
    for df in std::iter::once(Ok(first)).chain(frames) {
        let mut df = df?;
        for sink in &mut sinks {
            match sink {
                // A frame made from rows is one chunk a column: written
                // as it is (polars' own alignment copies it, a third
                // more memory for nothing).
                FrameSink::Parquet(pq) if df.columns().iter().all(|c| c.n_chunks() == 1) => {
                    pq.write_batch(&df)?;
                }
                FrameSink::Parquet(pq) => {
                    let aligned = polars_core::frame::chunk_df_for_writing(&mut df, 512 * 512)?;
                    pq.write_batch(&aligned)?;
                }
                FrameSink::Csv(csv) => {
                    let safe = match cells {
                        CsvCells::Guarded => guarded(&df)?,
                        CsvCells::Raw => None,
                    };
                    csv.write_batch(safe.as_ref().unwrap_or(&df))?;
                }
            }
        }
    }
    for sink in &mut sinks {
        match sink {
            FrameSink::Parquet(pq) => {
                pq.finish()?;
            }
            FrameSink::Csv(csv) => csv.finish()?,
        }
    }
    Ok(())
}

/// The writer of `format` for frames shaped like `df`.
fn frame_sink<'w>(
    format: FileFormat,
    df: &DataFrame,
    w: &'w mut dyn Write,
) -> anyhow::Result<FrameSink<'w>> {
    Ok(match format {
        FileFormat::Parquet => {
            FrameSink::Parquet(Box::new(parquet_writer(df, w).batched(df.schema())?))
        }
        FileFormat::Csv => FrameSink::Csv(
            CsvWriter::new(w)
                .include_header(true)
                .batched(df.schema())?,
        ),
        FileFormat::Json | FileFormat::Ndjson => {
            anyhow::bail!("{format:?} is written from rows, not from a frame")
        }
    })
}

/// Writes rows in `format` to any writer (stdout, a file, a buffer).
pub fn write_to(
    rows: &[Row],
    format: FileFormat,
    cells: CsvCells,
    w: &mut dyn Write,
) -> anyhow::Result<()> {
    match format {
        FileFormat::Parquet | FileFormat::Csv => {
            write_frames(rows, &[format], &mut [w], cells, FRAME_ROWS)?;
        }
        FileFormat::Json => {
            crate::model::shared_text::escaped_once(|| {
                serde_json::to_writer_pretty(&mut *w, rows)
            })?;
            w.write_all(b"\n")?;
        }
        FileFormat::Ndjson => write_ndjson(rows, w)?,
    }
    Ok(())
}

/// One JSON object per line. Serialising is most of the work and the
/// caller waits for it, so rows are serialised on all cores, a chunk per
/// buffer, and the buffers written in order. The buffers are kept from one
/// round to the next: a row with its options is 2-3 KB of text, and text
/// for a whole batch, allocated afresh, cost more in page faults (the
/// kernel zeroing new pages) than the serialising itself.
fn write_ndjson(rows: &[Row], w: &mut dyn Write) -> anyhow::Result<()> {
    use rayon::prelude::*;
    const CHUNK: usize = 256;
    let mut bufs: Vec<Vec<u8>> = vec![Vec::new(); 2 * rayon::current_num_threads()];
    for round in rows.chunks(CHUNK * bufs.len()) {
        let used = round.len().div_ceil(CHUNK);
        bufs[..used]
            .par_iter_mut()
            .zip(round.par_chunks(CHUNK))
            .try_for_each(|(buf, chunk)| {
                buf.clear();
                crate::model::shared_text::escaped_once(|| {
                    for (i, r) in chunk.iter().enumerate() {
                        r.write_json(buf)?;
                        buf.push(b'\n');
                        // Room for the chunk at the first row's size, once:
                        // a buffer grown by doubling touches twice the
                        // memory, fresh pages the kernel zeroes.
                        if i == 0 {
                            buf.reserve(buf.len() * (chunk.len() + chunk.len() / 4));
                        }
                    }
                    Ok::<_, serde_json::Error>(())
                })
            })?;
        for buf in &bufs[..used] {
            w.write_all(buf)?;
        }
    }
    Ok(())
}

/// Writes `df` as parquet whose Arrow schema is at polars' oldest
/// compatibility level: strings as `large_string`, not `string_view`, which
/// pyarrow before 15 (and Spark 3.5's Arrow) reject with "Unrecognized type:
/// 24". polars 0.55's `ParquetWriter` always stores the newest schema unless
/// the `ARROW:schema` key is given, so it is given here; the column data
/// (parquet BYTE_ARRAY, UTF8) is the same at both levels.
pub fn write_parquet(df: &mut DataFrame, w: &mut dyn Write) -> PolarsResult<u64> {
    parquet_writer(df, w).finish(df)
}

/// polars' parquet writer for frames shaped like `df`, the Arrow schema in
/// the file's metadata at the oldest compatibility level (see
/// [`write_parquet`]).
fn parquet_writer<W: Write>(df: &DataFrame, w: W) -> ParquetWriter<W> {
    use polars_core::prelude::{CompatLevel, SchemaExt};
    let arrow = df.schema().to_arrow(CompatLevel::oldest());
    let key = polars_parquet::arrow::write::schema_to_metadata_key(&arrow);
    let meta = polars_io::parquet::write::KeyValueMetadata::from_static(vec![(
        key.key,
        key.value.unwrap_or_default(),
    )]);
    ParquetWriter::new(w).with_key_value_metadata(Some(meta))
}

/// Why a file is not a dataset nvcmp wrote: most of [`COLUMNS`] are
/// missing. One line, no file name (the caller adds it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a dataset nvcmp wrote: no column `{column}`{}", more_of(*.more))]
pub struct NotNvcmp {
    pub column: String,
    pub more: usize,
}

/// How a dataset's columns differ from this nvcmp's: columns are only ever
/// added (docs/CONTRACT.md), so a file from an older nvcmp lacks some (read
/// as empty) and one from a newer nvcmp has some more (not read). Either
/// way the rows are read, with a note.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ColumnSet {
    pub missing: Vec<String>,
    pub unknown: Vec<String>,
}

impl ColumnSet {
    /// One line saying what differs, or nothing when the columns are this
    /// nvcmp's.
    pub fn note(&self) -> Option<String> {
        let list = |names: &[String]| match names.split_first() {
            Some((first, rest)) => format!("`{first}`{}", more_of(rest.len())),
            None => String::new(),
        };
        let mut parts = Vec::new();
        if !self.missing.is_empty() {
            parts.push(format!(
                "no column {} (written by an older nvcmp): read as empty",
                list(&self.missing)
            ));
        }
        if !self.unknown.is_empty() {
            parts.push(format!(
                "unknown column {} (written by a newer nvcmp): not read",
                list(&self.unknown)
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

fn more_of(more: usize) -> String {
    if more > 0 {
        format!(" (and {more} more)")
    } else {
        String::new()
    }
}

/// How `names` differ from the columns this nvcmp writes (any order); an
/// error when most of them are missing (another tool's file).
pub fn check_columns<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<ColumnSet, NotNvcmp> {
    let names: Vec<&str> = names.into_iter().collect();
    let missing: Vec<String> = COLUMNS
        .iter()
        .filter(|c| !names.contains(c))
        .map(|c| c.to_string())
        .collect();
    if missing.len() * 2 > COLUMNS.len() {
        return Err(NotNvcmp {
            column: missing[0].clone(),
            more: missing.len() - 1,
        });
    }
    let unknown = names
        .iter()
        .filter(|n| !COLUMNS.contains(n))
        .map(|n| n.to_string())
        .collect();
    Ok(ColumnSet { missing, unknown })
}

/// A dataset file's rows, and how its columns differ from this nvcmp's.
#[derive(Debug, Default)]
pub struct DatasetFile {
    pub rows: Vec<Row>,
    pub columns: ColumnSet,
}

/// Reads a dataset written by [`write`](fn@write) (parquet, csv, json or ndjson), e.g. a
/// saved baseline for `nvcmp check` or a PATH of `nvcmp analyze`. A file of
/// this nvcmp's columns reads back exactly as it was ingested; one of an
/// older or newer nvcmp is read with [`ColumnSet::note`] to say so; one of
/// another tool is an error.
pub fn read(path: &Path) -> anyhow::Result<DatasetFile> {
    let ctx = || format!("cannot read dataset {}", path.display());
    match FileFormat::from_path(path) {
        Some(FileFormat::Parquet) => {
            let file = std::fs::File::open(path).with_context(ctx)?;
            let df = ParquetReader::new(file)
                .finish()
                .map_err(|e| {
                    anyhow::anyhow!("not a parquet file nvcmp can read ({})", one_line(&e))
                })
                .with_context(ctx)?;
            let columns = check_columns(df.get_column_names().into_iter().map(|n| n.as_str()))
                .map_err(anyhow::Error::from)
                .with_context(ctx)?;
            let rows = from_dataframe(&df).with_context(ctx)?;
            Ok(DatasetFile { rows, columns })
        }
        Some(FileFormat::Json | FileFormat::Ndjson) => {
            let text = std::fs::read_to_string(path).with_context(ctx)?;
            from_json_checked(&text).with_context(ctx)
        }
        Some(FileFormat::Csv) => read_csv(path).with_context(ctx),
        None => bail!(
            "{}: unknown dataset extension (use .parquet, .csv, .json or .ndjson)",
            path.display()
        ),
    }
}

/// polars' messages may span lines; a skip reason is one.
fn one_line(e: &PolarsError) -> String {
    e.to_string()
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Rows of a csv file [`write`](fn@write) made: the header names the columns, and
/// each is read as the type it is written from (a null is an empty field,
/// an empty string `""`), not as polars would guess it; a column this
/// nvcmp does not know is read as text and left out.
fn read_csv(path: &Path) -> anyhow::Result<DatasetFile> {
    use std::io::BufRead;
    let mut header = String::new();
    std::io::BufReader::new(std::fs::File::open(path)?).read_line(&mut header)?;
    let names: Vec<&str> = header.trim_end().split(',').collect();
    let columns = check_columns(names.iter().copied())?;
    let types = to_dataframe(&[])?;
    let mut schema = Schema::with_capacity(names.len());
    for name in &names {
        let dtype = types
            .column(name)
            .map_or(DataType::String, |c| c.dtype().clone());
        schema.insert((*name).into(), dtype);
    }
    let df = CsvReadOptions::default()
        .with_has_header(true)
        .with_schema(Some(std::sync::Arc::new(schema)))
        .try_into_reader_with_file_path(Some(path.to_path_buf()))?
        .finish()
        .map_err(|e| anyhow::anyhow!("not a csv file nvcmp can read ({})", one_line(&e)))?;
    let rows = from_dataframe(&unguarded(df)?)?;
    Ok(DatasetFile { rows, columns })
}

/// Rows from a JSON array or from JSON lines, the columns judged by the
/// first row (serde names every field a later row lacks).
fn from_json_checked(text: &str) -> anyhow::Result<DatasetFile> {
    let first = if text.trim_start().starts_with('[') {
        let all: Vec<serde_json::Map<String, serde_json::Value>> = serde_json::from_str(text)?;
        all.into_iter().next()
    } else {
        let line = text.lines().enumerate().find(|(_, l)| !l.trim().is_empty());
        match line {
            Some((i, l)) => {
                Some(serde_json::from_str(l).with_context(|| format!("line {}", i + 1))?)
            }
            None => None,
        }
    };
    let columns = match &first {
        Some(first) => check_columns(first.keys().map(String::as_str))?,
        None => ColumnSet::default(),
    };
    Ok(DatasetFile {
        rows: from_json(text)?,
        columns,
    })
}

/// Rows from a JSON array or from JSON lines.
pub fn from_json(text: &str) -> anyhow::Result<Vec<Row>> {
    if text.trim_start().starts_with('[') {
        return Ok(serde_json::from_str(text)?);
    }
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).with_context(|| format!("line {}", i + 1)))
        .collect()
}

/// Rows from a DataFrame written by [`to_dataframe`] (or by an older
/// nvcmp: missing columns keep [`Row::empty`]'s values). Every row must
/// name a direction.
pub fn from_dataframe(df: &DataFrame) -> anyhow::Result<Vec<Row>> {
    let n = df.height();
    let directions = <Option<String> as Field>::read_all(df.column("direction").ok(), n, None)
        .context("column direction")?;
    let mut rows = Vec::with_capacity(n);
    for (i, d) in directions.iter().enumerate() {
        let dir = d
            .as_deref()
            .and_then(Direction::parse)
            .with_context(|| format!("row {i}: bad or missing direction"))?;
        rows.push(Row::empty("", dir));
    }
    fill_from(df, &mut rows)?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows that share one options text (jobs that ran alike) give a
    /// column holding it once, each row reading it whole; rows of other
    /// texts and none read theirs. Fails when each row's text is copied.
    #[test]
    fn an_options_text_rows_share_is_one_text_in_the_column() {
        let shared: std::sync::Arc<str> = format!("{{\"bs\":\"4k\",{}}}", "x".repeat(3000)).into();
        let other: std::sync::Arc<str> = "{\"bs\":\"128k\",\"rw\":\"read\"}".into();
        let short: std::sync::Arc<str> = "{}".into();
        let texts = [
            Some(shared.clone()),
            None,
            Some(other.clone()),
            Some(shared.clone()),
            Some(short.clone()),
            Some(shared.clone()),
        ];
        let rows: Vec<Row> = texts
            .iter()
            .map(|t| {
                let mut r = Row::empty("f.json", Direction::Read);
                r.options = t.clone();
                r
            })
            .collect();
        let df = to_dataframe(&rows).unwrap();
        let column = df.column("options").unwrap().str().unwrap();
        let read: Vec<Option<&str>> = column.iter().collect();
        let want: Vec<Option<&str>> = texts.iter().map(|t| t.as_deref()).collect();
        assert_eq!(read, want);
        let held: usize = column.downcast_iter().map(|a| a.total_buffer_len()).sum();
        assert_eq!(
            held,
            shared.len() + other.len() + short.len(),
            "each text once"
        );
        // And back from a file as written.
        let back = from_dataframe(&df).unwrap();
        let back: Vec<Option<&str>> = back.iter().map(|r| r.options.as_deref()).collect();
        assert_eq!(back, want);
    }

    /// Parquet and csv written a frame of a few rows at a time read back
    /// as written from one frame: csv byte for byte (its header once, a
    /// formula guarded in every frame), parquet row for row, one row group
    /// per frame. Fails when a frame is lost, repeated or written with
    /// its own header.
    #[test]
    fn datasets_written_a_frame_at_a_time_are_the_dataset_of_one_frame() {
        let mut rows = sample();
        rows.extend(sample());
        rows.extend(sample());
        rows[4].job = "=HYPERLINK(\"x\")".into();
        let n = rows.len();
        assert!(n >= 7, "{n}");
        let formats = [FileFormat::Parquet, FileFormat::Csv];
        let written = |frame_rows: usize| {
            let (mut pq, mut csv) = (Vec::new(), Vec::new());
            let mut ws: Vec<&mut dyn Write> = vec![&mut pq, &mut csv];
            write_frames(&rows, &formats, &mut ws, CsvCells::Guarded, frame_rows).unwrap();
            (pq, csv)
        };
        let (pq_one, csv_one) = written(FRAME_ROWS);
        let (pq_by_3, csv_by_3) = written(3);
        assert_eq!(
            String::from_utf8_lossy(&csv_by_3),
            String::from_utf8_lossy(&csv_one)
        );
        assert!(String::from_utf8_lossy(&csv_one).contains("'=HYPERLINK"));
        // The frame of all rows is written as before: one row group.
        let mut whole = Vec::new();
        write_parquet(&mut to_dataframe(&rows).unwrap(), &mut whole).unwrap();
        assert_eq!(pq_one, whole);
        let read = |bytes: Vec<u8>| {
            let mut r = ParquetReader::new(std::io::Cursor::new(bytes));
            let groups = r.get_metadata().unwrap().row_groups.len();
            (from_dataframe(&r.finish().unwrap()).unwrap(), groups)
        };
        let (one, one_groups) = read(pq_one);
        let (by_3, groups) = read(pq_by_3);
        assert_eq!((one_groups, groups), (1, n.div_ceil(3)));
        assert_eq!(by_3.len(), n);
        assert_eq!(by_3, one);
        // No rows: a header, and a parquet file of none.
        let (pq, csv) = {
            let (mut pq, mut csv) = (Vec::new(), Vec::new());
            let mut ws: Vec<&mut dyn Write> = vec![&mut pq, &mut csv];
            write_frames(&[], &formats, &mut ws, CsvCells::Guarded, 3).unwrap();
            (pq, csv)
        };
        assert_eq!(read(pq).0.len(), 0);
        assert_eq!(String::from_utf8_lossy(&csv).lines().count(), 1);
    }

    fn sample() -> Vec<Row> {
        let text = include_str!("ingest/testdata/client-server-2.json");
        let mut rows =
            crate::ingest::fio_json::to_parsed(&crate::ingest::fio_json::parse(text).unwrap()).rows;
        for (i, r) in rows.iter_mut().enumerate() {
            r.source = format!("dir/f{i}.json");
            r.config = "lab".into();
            r.clat_bins = None; // not a column
        }
        rows[0].system_cpu_pct = Some(45.76);
        rows[1].rwmixread = Some(70);
        // direct in all three states, so each survives the round trip.
        rows[0].direct = Some(true);
        rows[1].direct = None;
        let ss = crate::ingest::steady::SteadyVerdict {
            attained: true,
            rule: "iops:30%".into(),
            measured: Some("6.518%".into()),
            duration_ms: Some(3000.0),
            iops: Some(16769.0),
            bw_bytes_per_s: Some(68688183.0),
        };
        ss.apply(&mut rows[1]);
        rows
    }

    const CONTRACT: [(&str, &str); 31] = [
        ("source", "str"),
        ("label", "str"),
        ("os", "str"),
        ("engine", "str"),
        ("fio_version", "str"),
        ("host", "str"),
        ("job", "str"),
        ("format", "str"),
        ("rw", "str"),
        ("direction", "str"),
        ("bs_bytes", "u64"),
        ("iodepth", "i64"),
        ("numjobs", "i64"),
        ("runtime_ms", "f64"),
        ("io_bytes", "u64"),
        ("bw_bytes_per_s", "f64"),
        ("iops", "f64"),
        ("iops_precision", "f64"),
        ("lat_mean_ns", "f64"),
        ("lat_stddev_ns", "f64"),
        ("lat_min_ns", "f64"),
        ("lat_max_ns", "f64"),
        ("clat_mean_ns", "f64"),
        ("clat_p50_ns", "f64"),
        ("clat_p99_ns", "f64"),
        ("clat_p99_9_ns", "f64"),
        ("usr_cpu_pct", "f64"),
        ("sys_cpu_pct", "f64"),
        ("system_cpu_pct", "f64"),
        ("error", "i64"),
        ("aggregate", "bool"),
    ];

    #[test]
    fn contract_columns_come_first_with_their_types() {
        let rows = sample();
        let df = to_dataframe(&rows).unwrap();
        assert_eq!(df.height(), rows.len());
        for (i, (name, ty)) in CONTRACT.iter().enumerate() {
            let col = &df.columns()[i];
            assert_eq!(col.name().as_str(), *name);
            assert_eq!(col.dtype().to_string(), *ty, "{name}");
        }
        let iops = df.column("iops").unwrap().f64().unwrap();
        assert_eq!(iops.get(0), Some(rows[0].iops));
        let host = df.column("host").unwrap().str().unwrap();
        assert_eq!(host.get(2), None); // the aggregate has no host
        let direct = df.column("direct").unwrap();
        assert_eq!(direct.dtype().to_string(), "bool");
        let direct = direct.bool().unwrap();
        assert_eq!(
            (direct.get(0), direct.get(1), direct.get(2)),
            (Some(true), None, Some(false))
        );
    }

    /// The `ARROW:schema` value stored in a parquet file's footer.
    fn stored_arrow_schema(path: &Path) -> String {
        let mut f = std::fs::File::open(path).unwrap();
        let meta = polars_parquet::arrow::read::read_metadata(&mut f).unwrap();
        meta.key_value_metadata()
            .as_ref()
            .unwrap()
            .iter()
            .find(|kv| kv.key == "ARROW:schema")
            .and_then(|kv| kv.value.clone())
            .unwrap()
    }

    #[test]
    fn parquet_schema_is_at_the_oldest_compat_level() {
        use polars_core::prelude::{CompatLevel, SchemaExt};
        use polars_parquet::arrow::write::schema_to_metadata_key;
        let rows = sample();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("d.parquet");
        write(&rows, &p).unwrap();
        let schema = to_dataframe(&rows).unwrap().schema().clone();
        let at = |level| {
            schema_to_metadata_key(&schema.to_arrow(level))
                .value
                .unwrap()
        };
        // The two levels differ exactly by the string columns' Arrow type:
        // large_string (oldest) or string_view (newest, type 24).
        assert_ne!(at(CompatLevel::oldest()), at(CompatLevel::newest()));
        assert_eq!(stored_arrow_schema(&p), at(CompatLevel::oldest()));
        assert!(
            schema
                .to_arrow(CompatLevel::oldest())
                .iter_values()
                .all(|f| !matches!(
                    f.dtype,
                    polars_core::prelude::ArrowDataType::Utf8View
                        | polars_core::prelude::ArrowDataType::BinaryView
                ))
        );
        assert_eq!(read(&p).unwrap().rows, rows);
    }

    #[test]
    fn files_round_trip() {
        let rows = sample();
        let dir = tempfile::tempdir().unwrap();
        for ext in ["parquet", "json", "ndjson", "csv"] {
            let p = dir.path().join(format!("d.{ext}"));
            write(&rows, &p).unwrap();
            let file = read(&p).unwrap();
            assert_eq!(file.rows, rows, "{ext}");
            assert_eq!(file.columns, ColumnSet::default(), "{ext}");
        }
        // An empty string and a null stay apart in csv.
        let mut odd = rows.clone();
        odd[0].host = Some(String::new());
        odd[1].host = None;
        odd[0].job = String::new();
        let p = dir.path().join("odd.csv");
        write(&odd, &p).unwrap();
        assert_eq!(read(&p).unwrap().rows, odd);
        let p = dir.path().join("d.csv");
        write(&rows, &p).unwrap();
        let csv = std::fs::read_to_string(&p).unwrap();
        let header = csv.lines().next().unwrap();
        assert!(header.starts_with(
            "source,label,os,engine,fio_version,host,job,format,rw,direction,bs_bytes"
        ));
        assert_eq!(csv.lines().count(), rows.len() + 1);
        assert!(write(&rows, &dir.path().join("d.xlsx")).is_err());
    }

    #[test]
    fn a_row_as_json_has_exactly_the_columns() {
        let rows = sample();
        let v = serde_json::to_value(&rows[0]).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        // The same names; serde keeps Row's field order, the files COLUMNS'.
        let (mut sorted, mut columns) = (keys.clone(), COLUMNS.to_vec());
        sorted.sort_unstable();
        columns.sort_unstable();
        assert_eq!(sorted, columns);
        assert_eq!(check_columns(keys), Ok(ColumnSet::default()));
    }

    #[test]
    fn another_column_set_is_named() {
        fn without(gone: &[&str]) -> Vec<&'static str> {
            COLUMNS
                .iter()
                .copied()
                .filter(|c| !gone.contains(c))
                .collect()
        }
        let one = check_columns(without(&["iops"])).unwrap();
        assert_eq!(one.missing, ["iops"]);
        assert_eq!(
            one.note().unwrap(),
            "no column `iops` (written by an older nvcmp): read as empty"
        );
        let two = check_columns(without(&["precondition", "tool"])).unwrap();
        assert_eq!(
            two.note().unwrap(),
            "no column `tool` (and 1 more) (written by an older nvcmp): read as empty"
        );
        let extra = check_columns(COLUMNS.iter().copied().chain(["zz"])).unwrap();
        assert_eq!(
            extra.note().unwrap(),
            "unknown column `zz` (written by a newer nvcmp): not read"
        );
        assert_eq!(check_columns(COLUMNS.iter().copied()).unwrap().note(), None);
        let n = COLUMNS.len();
        assert_eq!(
            check_columns(["a", "b"]),
            Err(NotNvcmp {
                column: "source".into(),
                more: n - 1
            })
        );
        assert_eq!(
            check_columns(["label", "iops"]).unwrap_err().to_string(),
            format!(
                "not a dataset nvcmp wrote: no column `source` (and {} more)",
                n - 3
            )
        );
    }

    /// Columns are only ever added: a baseline saved by an older nvcmp (a
    /// column less) or a newer one (a column more) is still read, in every
    /// file format, its other values intact.
    #[test]
    fn a_file_of_an_older_or_newer_nvcmp_is_read_with_a_note() {
        let rows = sample();
        let dir = tempfile::tempdir().unwrap();
        let mut df = to_dataframe(&rows).unwrap();
        let _ = df.drop_in_place("target").unwrap();
        let p = dir.path().join("old.parquet");
        write_parquet(&mut df, &mut std::fs::File::create(&p).unwrap()).unwrap();
        let old = read(&p).unwrap();
        assert_eq!(old.columns.missing, ["target"]);
        assert_eq!(old.rows.len(), rows.len());
        assert_eq!(old.rows[0].iops, rows[0].iops);
        assert_eq!(old.rows[0].target, None);
        // A JSON array whose rows lack a column and have one more.
        let mut v = serde_json::to_value(&rows).unwrap();
        for r in v.as_array_mut().unwrap() {
            let r = r.as_object_mut().unwrap();
            r.remove("target");
            r.insert("zz_new".into(), serde_json::json!(7));
        }
        let p = dir.path().join("mixed.json");
        std::fs::write(&p, v.to_string()).unwrap();
        let mixed = read(&p).unwrap();
        assert_eq!(mixed.columns.missing, ["target"]);
        assert_eq!(mixed.columns.unknown, ["zz_new"]);
        assert_eq!(mixed.rows.len(), rows.len());
        assert_eq!(mixed.rows[0].target, None);
        assert_eq!(mixed.rows[0].iops, rows[0].iops);
        assert_eq!(mixed.rows[0].bw_bytes_per_s, rows[0].bw_bytes_per_s);
        // A csv with a column more.
        let mut out = Vec::new();
        write_to(&rows, FileFormat::Csv, CsvCells::Guarded, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let csv: String = text
            .lines()
            .enumerate()
            .map(|(i, l)| match i {
                0 => format!("{l},zz_new\n"),
                _ => format!("{l},x\n"),
            })
            .collect();
        let p = dir.path().join("new.csv");
        std::fs::write(&p, csv).unwrap();
        let new = read(&p).unwrap();
        assert_eq!(new.columns.unknown, ["zz_new"]);
        assert_eq!(new.rows.len(), rows.len());
        assert_eq!(new.rows[1].iops, rows[1].iops);
        // Another tool's file is refused, naming the file.
        std::fs::write(dir.path().join("other.json"), r#"[{"a": 1, "b": 2}]"#).unwrap();
        let e = format!("{:#}", read(&dir.path().join("other.json")).unwrap_err());
        assert!(
            e.contains("other.json") && e.contains("not a dataset nvcmp wrote"),
            "{e}"
        );
        assert!(!e.contains('\n'), "{e}");
    }

    #[test]
    fn an_os_nvcmp_has_no_rule_for_reads_back_as_written() {
        let mut rows = sample();
        rows[0].os = Os::from("FreeBSD");
        rows[1].os = Os::Windows;
        let dir = tempfile::tempdir().unwrap();
        for ext in ["parquet", "json", "ndjson"] {
            let p = dir.path().join(format!("d.{ext}"));
            write(&rows, &p).unwrap();
            let back = read(&p).unwrap().rows;
            assert_eq!(back[0].os, Os::Other("FreeBSD".into()), "{ext}");
            assert_eq!(back[1].os, Os::Windows, "{ext}");
        }
        write(&rows, &dir.path().join("d.csv")).unwrap();
        let csv = std::fs::read_to_string(dir.path().join("d.csv")).unwrap();
        assert!(csv.lines().nth(1).unwrap().contains(",FreeBSD,"), "{csv}");
    }

    #[test]
    fn ndjson_batches_are_written_in_row_order() {
        // More rows than one batch, each told apart by its job name.
        let base = sample();
        let rows: Vec<Row> = (0..20_000)
            .map(|i| Row {
                job: format!("job-{i}"),
                ..base[i % base.len()].clone()
            })
            .collect();
        let mut out = Vec::new();
        write_to(&rows, FileFormat::Ndjson, CsvCells::Guarded, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), rows.len());
        for (i, (line, row)) in lines.iter().zip(&rows).enumerate() {
            assert_eq!(*line, serde_json::to_string(row).unwrap(), "row {i}");
        }
        assert!(text.ends_with('\n'));
    }
}
