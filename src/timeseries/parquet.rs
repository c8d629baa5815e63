//! The series dataset as parquet, written from arrow arrays built straight
//! from the rows, a row group at a time as it fills.
//!
//! A log's own columns (`source`, `label`, `job`, ... the [`Get::Log`] ones)
//! hold one value for millions of rows. Handed to polars as a string per
//! row, its parquet writer hashes every one of them to find that out (half
//! the time of `ingest --series` on per-I/O logs); here they are built as
//! the dictionary they are, one value per log and a key per row, and
//! `direction` likewise. The file is the same to a reader: the columns are
//! dictionary-encoded UTF8 as polars writes low-cardinality strings, and the
//! Arrow schema in the footer says `large_string` (as for the results
//! dataset, [`crate::dataset::write_parquet`]), so polars, pyarrow 14+ and
//! DuckDB read strings, not categoricals.

use std::io::Write;
use std::sync::Arc;

mod same;

use polars_arrow::array::{Array, DictionaryArray, PrimitiveArray, Utf8Array};
use polars_arrow::bitmap::MutableBitmap;
use polars_arrow::datatypes::IntegerType;
use polars_arrow::record_batch::RecordBatchT;
use polars_core::prelude::{
    ArrowDataType, ArrowSchema, CompatLevel, PolarsError, PolarsResult, SchemaExt, polars_err,
};
use polars_parquet::arrow::write::{
    CompressionOptions, DynIter, Encoding, FileWriter, ParquetType, RowGroupIterColumns,
    StatisticsOptions, Version, WriteOptions, get_dtype_encoding, row_group_iter,
    schema_to_metadata_key, to_parquet_schema,
};

use super::batch::{Opt, Validity};
use super::columns::{COLUMNS, FieldValue, Get, Ty, schema};
use super::{LogInfo, SeriesBatch};
use crate::model::Direction;
use same::Same;

/// Rows per row group (polars' own default): ~20 MB of columns, so memory
/// stays flat whatever the logs' length.
pub const ROW_GROUP: usize = 512 * 512;

/// One column of the row group being filled.
enum ColumnBuilder {
    U64(Vec<u64>, MutableBitmap),
    F64(Vec<f64>, MutableBitmap),
    /// Strings as a dictionary: the distinct values of this row group and
    /// a key per row (null for no value).
    Str {
        values: Vec<String>,
        keys: Vec<u32>,
        valid: MutableBitmap,
    },
}

impl ColumnBuilder {
    fn new(ty: Ty) -> ColumnBuilder {
        match ty {
            Ty::U64 => ColumnBuilder::U64(Vec::new(), MutableBitmap::new()),
            Ty::F64 => ColumnBuilder::F64(Vec::new(), MutableBitmap::new()),
            Ty::Str => ColumnBuilder::Str {
                values: Vec::new(),
                keys: Vec::new(),
                valid: MutableBitmap::new(),
            },
        }
    }

    /// Appends `cell` `n` times.
    fn push(&mut self, cell: FieldValue<'_>, n: usize) {
        match (self, cell) {
            (ColumnBuilder::U64(v, valid), FieldValue::U64(x)) => {
                v.extend(std::iter::repeat_n(x.unwrap_or(0), n));
                valid.extend_constant(n, x.is_some());
            }
            (ColumnBuilder::F64(v, valid), FieldValue::F64(x)) => {
                v.extend(std::iter::repeat_n(x.unwrap_or(0.0), n));
                valid.extend_constant(n, x.is_some());
            }
            (
                ColumnBuilder::Str {
                    values,
                    keys,
                    valid,
                },
                FieldValue::Str(x),
            ) => {
                let key = match x {
                    Some(s) => match values.iter().position(|v| v == s) {
                        Some(i) => i,
                        None => {
                            values.push(s.to_string());
                            values.len() - 1
                        }
                    },
                    None => 0,
                };
                keys.extend(std::iter::repeat_n(key as u32, n));
                valid.extend_constant(n, x.is_some());
            }
            // A getter gives its column's type (the col! table in file.rs).
            (b, _) => b.push_null(n),
        }
    }

    fn push_null(&mut self, n: usize) {
        match self {
            ColumnBuilder::U64(v, valid) => {
                v.extend(std::iter::repeat_n(0, n));
                valid.extend_constant(n, false);
            }
            ColumnBuilder::F64(v, valid) => {
                v.extend(std::iter::repeat_n(0.0, n));
                valid.extend_constant(n, false);
            }
            ColumnBuilder::Str { keys, valid, .. } => {
                keys.extend(std::iter::repeat_n(0, n));
                valid.extend_constant(n, false);
            }
        }
    }

    /// The column as an arrow array; the builder is left empty.
    fn take(&mut self) -> Box<dyn Array> {
        match self {
            ColumnBuilder::U64(v, valid) => Box::new(PrimitiveArray::<u64>::new(
                ArrowDataType::UInt64,
                std::mem::take(v).into(),
                std::mem::take(valid).into(),
            )),
            ColumnBuilder::F64(v, valid) => Box::new(PrimitiveArray::<f64>::new(
                ArrowDataType::Float64,
                std::mem::take(v).into(),
                std::mem::take(valid).into(),
            )),
            ColumnBuilder::Str {
                values,
                keys,
                valid,
            } => {
                let keys = PrimitiveArray::<u32>::new(
                    ArrowDataType::UInt32,
                    std::mem::take(keys).into(),
                    std::mem::take(valid).into(),
                );
                let values = Utf8Array::<i64>::from_slice(std::mem::take(values));
                Box::new(
                    DictionaryArray::try_new(dictionary(), keys, values.boxed())
                        .expect("keys index the values pushed with them"),
                )
            }
        }
    }
}

/// The type of a string column as written: UTF8 values behind u32 keys.
fn dictionary() -> ArrowDataType {
    ArrowDataType::Dictionary(
        IntegerType::UInt32,
        Box::new(ArrowDataType::LargeUtf8),
        false,
    )
}

/// Writes the series dataset's parquet a row group at a time: the rows are
/// gathered into columns on the caller's thread (which also parses the
/// logs), each full row group is encoded, compressed and written on a
/// thread of its own while the next one fills. At most one group waits
/// between them, so memory stays at three row groups.
pub struct ParquetSeries<W: Write + Send + 'static> {
    encoder: Option<Encoder<W>>,
    /// The schema readers see (strings, not dictionaries).
    read_schema: ArrowSchema,
    /// The logs of the row group being filled, a run of rows each, in
    /// order: their own columns (the [`Get::Log`] ones) are built at the
    /// flush, as one value each when the group is one log's.
    runs: Vec<(LogInfo, usize)>,
    /// The rows' own columns.
    row_columns: RowColumns,
}

/// A column of a row group as the encoder takes it.
enum Column {
    Array(Box<dyn Array>),
    /// One value (or none) on every row: written as its pages directly.
    Same(Same),
}

/// A row group: its rows and a column per [`COLUMNS`] entry.
type Group = (usize, Vec<Column>);

/// The thread that encodes and writes row groups, and its queue.
struct Encoder<W: Write + Send + 'static> {
    queue: std::sync::mpsc::SyncSender<Group>,
    thread: std::thread::JoinHandle<PolarsResult<FileWriter<W>>>,
}

impl<W: Write + Send + 'static> Encoder<W> {
    fn start(w: W, write_schema: ArrowSchema) -> PolarsResult<Encoder<W>> {
        let options = WriteOptions {
            statistics: StatisticsOptions::default(),
            version: Version::V1,
            compression: CompressionOptions::Zstd(None),
            data_page_size: None,
        };
        let parquet_schema = to_parquet_schema(&write_schema)?;
        // Strings are dictionaries already; numbers are written plain (a
        // per-I/O log's times and values do not repeat: polars' attempt at
        // a dictionary for them only costs time).
        let encodings: Vec<Vec<Encoding>> = write_schema
            .iter_values()
            .map(|f| match f.dtype {
                ArrowDataType::Dictionary(..) => get_dtype_encoding(&f.dtype),
                _ => vec![Encoding::Plain],
            })
            .collect();
        let layout = PageLayout {
            schema: write_schema.clone(),
            fields: parquet_schema.fields().to_vec(),
            encodings,
            options,
        };
        let mut writer =
            FileWriter::new_with_parquet_schema(w, write_schema, parquet_schema, options);
        let (queue, groups) = std::sync::mpsc::sync_channel::<Group>(1);
        let thread = std::thread::Builder::new()
            .name("parquet".into())
            .spawn(move || {
                for (rows, columns) in groups {
                    let group = layout.row_group(rows, columns)?;
                    writer.write(rows as u64, group)?;
                }
                Ok(writer)
            })
            .map_err(|e| polars_core::prelude::PolarsError::IO {
                error: Arc::new(e),
                msg: None,
            })?;
        Ok(Encoder { queue, thread })
    }

    /// The writer back once every group queued is written, or the error
    /// that stopped it.
    fn join(self) -> PolarsResult<FileWriter<W>> {
        drop(self.queue);
        self.thread.join().unwrap_or_else(|_| {
            Err(polars_core::prelude::polars_err!(ComputeError: "the parquet writer thread panicked"))
        })
    }
}

/// What the encoder needs to turn a row group's columns into pages.
struct PageLayout {
    schema: ArrowSchema,
    fields: Vec<ParquetType>,
    encodings: Vec<Vec<Encoding>>,
    options: WriteOptions,
}

impl PageLayout {
    /// The row group's columns in order: the arrays through polars' own
    /// writer, the [`Same`] ones as their pages.
    fn row_group(
        &self,
        rows: usize,
        columns: Vec<Column>,
    ) -> PolarsResult<RowGroupIterColumns<'static, PolarsError>> {
        let mut schema = ArrowSchema::default();
        let (mut arrays, mut fields, mut encodings) = (Vec::new(), Vec::new(), Vec::new());
        let mut one_value = Vec::with_capacity(columns.len());
        for (i, c) in columns.into_iter().enumerate() {
            match c {
                Column::Array(a) => {
                    if let Some((_, f)) = self.schema.get_at_index(i) {
                        schema.insert(f.name.clone(), f.clone());
                    }
                    arrays.push(a);
                    fields.push(self.fields[i].clone());
                    encodings.push(self.encodings[i].clone());
                    one_value.push(None);
                }
                Column::Same(v) => one_value.push(Some(v)),
            }
        }
        let batch = RecordBatchT::try_new(rows, Arc::new(schema), arrays)?;
        let mut encoded = row_group_iter(batch, encodings.into(), fields, self.options);
        let mut out = Vec::with_capacity(one_value.len());
        for (i, v) in one_value.iter().enumerate() {
            out.push(match v {
                Some(v) => Ok(same::column(
                    v,
                    rows,
                    &self.fields[i],
                    self.options.compression,
                )?),
                None => encoded
                    .next()
                    .ok_or_else(|| polars_err!(ComputeError: "a parquet column went missing"))?,
            });
        }
        Ok(DynIter::new(out.into_iter()))
    }
}

/// The columns a row gives (not its log), in [`RowColumns::take`]'s order,
/// with their types: [`SeriesBatch`]'s fields. A test holds them to
/// [`COLUMNS`]' row columns.
const ROW_COLUMNS: [(&str, Ty); 11] = [
    ("direction", Ty::Str),
    ("t_ms", Ty::U64),
    ("value", Ty::F64),
    ("bs_bytes", Ty::U64),
    ("value_max", Ty::F64),
    ("offset_bytes", Ty::U64),
    ("percentile", Ty::F64),
    ("samples", Ty::U64),
    ("priority", Ty::U64),
    ("issue_time_ns", Ty::U64),
    ("unix_ms", Ty::U64),
];

/// The rows' own columns of the row group being filled: whole columns of
/// the reader's batches copied in, no row gathered field by field.
struct RowColumns {
    /// The index in [`COLUMNS`] of each of [`ROW_COLUMNS`].
    at: [usize; 11],
    group: SeriesBatch,
}

impl RowColumns {
    /// None when [`COLUMNS`]' row columns are not [`ROW_COLUMNS`].
    fn find() -> Option<RowColumns> {
        let own = COLUMNS
            .iter()
            .filter(|c| matches!(c.get, Get::Row(_)))
            .count();
        let mut at = [0; 11];
        for (i, (name, ty)) in ROW_COLUMNS.iter().enumerate() {
            at[i] = COLUMNS
                .iter()
                .position(|c| c.name == *name && c.ty == *ty)?;
        }
        let mut group = SeriesBatch::default();
        group.reserve(ROW_GROUP);
        (own == ROW_COLUMNS.len()).then_some(RowColumns { at, group })
    }

    /// The columns into `columns` at their places in [`COLUMNS`]: one
    /// that holds one value on every row as that value, the others as
    /// arrays. The group is left empty, its buffers at full size again.
    fn take(&mut self, columns: &mut [Option<Column>]) {
        use ArrowDataType::{Float64 as F, UInt64 as U};
        let g = &mut self.group;
        let direction = match same(&g.direction, |a, b| a == b) {
            Some(d) => Column::Same(Same::Str(d.as_str().to_string())),
            None => {
                let keys: Vec<u32> = g.direction.iter().map(|d| *d as u32).collect();
                let keys = PrimitiveArray::<u32>::new(ArrowDataType::UInt32, keys.into(), None);
                let names = Utf8Array::<i64>::from_slice(Direction::ALL.map(Direction::as_str));
                let direction = DictionaryArray::try_new(dictionary(), keys, names.boxed())
                    .expect("a direction's number indexes Direction::ALL");
                Column::Array(Box::new(direction))
            }
        };
        g.direction.clear();
        let taken: [Column; 11] = [
            direction,
            all_set(&mut g.t_ms, U),
            all_set(&mut g.value, F),
            all_set(&mut g.bs_bytes, U),
            take(&mut g.value_max, |v, valid| array(v, valid, F)),
            take(&mut g.offset_bytes, |v, valid| array(v, valid, U)),
            take(&mut g.percentile, |v, valid| array(v, valid, F)),
            take(&mut g.samples, |v, valid| array(v, valid, U)),
            // Priorities are u32 in a row, u64 in the file: widened only
            // when they are not one value.
            take(&mut g.priority, |v, valid| {
                array(v.into_iter().map(u64::from).collect(), valid, U)
            }),
            take(&mut g.issue_time_ns, |v, valid| array(v, valid, U)),
            take(&mut g.unix_ms, |v, valid| array(v, valid, U)),
        ];
        for (i, c) in self.at.iter().zip(taken) {
            columns[*i] = Some(c);
        }
        // The next group's columns at their full size at once: no growing
        // (a copy each time) while it fills.
        g.reserve(ROW_GROUP);
    }
}

/// The value every item of `v` holds, if they hold one (and there is one).
fn same<T: Copy>(v: &[T], eq: impl Fn(&T, &T) -> bool) -> Option<T> {
    let first = v.first()?;
    v.iter().all(|x| eq(x, first)).then_some(*first)
}

/// A number column of a row group, by the bits of its values (0.0 and
/// -0.0 differ, as they do in the file).
trait Number: polars_arrow::types::NativeType + Default {
    fn same(v: &[Self]) -> Option<Same>;
}

impl Number for u64 {
    fn same(v: &[u64]) -> Option<Same> {
        same(v, |a, b| a == b).map(Same::U64)
    }
}

impl Number for u32 {
    fn same(v: &[u32]) -> Option<Same> {
        same(v, |a, b| a == b).map(|p| Same::U64(u64::from(p)))
    }
}

impl Number for f64 {
    fn same(v: &[f64]) -> Option<Same> {
        same(v, |a, b| a.to_bits() == b.to_bits()).map(Same::F64)
    }
}

fn all_set<T: Number>(v: &mut Vec<T>, dtype: ArrowDataType) -> Column {
    let values = std::mem::take(v);
    match T::same(&values) {
        Some(same) => {
            // The buffer is kept for the next group.
            *v = values;
            v.clear();
            Column::Same(same)
        }
        None => Column::Array(Box::new(PrimitiveArray::<T>::new(
            dtype,
            values.into(),
            None,
        ))),
    }
}

/// An optional column: one of one value or none as that value (its buffer
/// kept for the next group), any other as the array `array` makes of its
/// values and validity.
fn take<T: Number>(
    o: &mut Opt<T>,
    array: impl FnOnce(Vec<T>, Option<Vec<bool>>) -> Box<dyn Array>,
) -> Column {
    let same = match o.validity() {
        Validity::None => Some(Same::Null),
        Validity::All => T::same(o.values()),
        Validity::Some(_) => None,
    };
    match same {
        Some(same) => {
            o.clear();
            Column::Same(same)
        }
        None => {
            let (values, valid) = o.take();
            Column::Array(array(values, valid))
        }
    }
}

/// A number column's array, with its validity when rows differ in it.
fn array<T: polars_arrow::types::NativeType>(
    values: Vec<T>,
    valid: Option<Vec<bool>>,
    dtype: ArrowDataType,
) -> Box<dyn Array> {
    let bits = valid.map(|v| v.into_iter().collect::<MutableBitmap>().into());
    Box::new(PrimitiveArray::<T>::new(dtype, values.into(), bits))
}

/// A log's own column over a row group's runs of rows: the log's one
/// value when the group is one log's (the usual case: a per-I/O log runs
/// to millions of rows), else a value per row.
fn log_column(i: usize, get: fn(&LogInfo) -> FieldValue<'_>, runs: &[(LogInfo, usize)]) -> Column {
    if let [(info, _)] = runs {
        return Column::Same(match get(info) {
            FieldValue::Str(Some(s)) => Same::Str(s.to_string()),
            FieldValue::U64(Some(v)) => Same::U64(v),
            FieldValue::F64(Some(v)) => Same::F64(v),
            FieldValue::Str(None) | FieldValue::U64(None) | FieldValue::F64(None) => Same::Null,
        });
    }
    let mut b = ColumnBuilder::new(COLUMNS[i].ty);
    for (info, n) in runs {
        b.push(get(info), *n);
    }
    Column::Array(b.take())
}

impl<W: Write + Send + 'static> ParquetSeries<W> {
    pub fn new(w: W) -> PolarsResult<Self> {
        let read_schema = schema().to_arrow(CompatLevel::oldest());
        let write_schema: ArrowSchema = read_schema
            .iter_values()
            .map(|f| match f.dtype {
                ArrowDataType::LargeUtf8 | ArrowDataType::Utf8View | ArrowDataType::Utf8 => {
                    f.clone().with_dtype(dictionary())
                }
                _ => f.clone(),
            })
            .collect();
        let row_columns = RowColumns::find().ok_or_else(
            || polars_core::prelude::polars_err!(ComputeError: "the series columns are not SeriesBatch's"),
        )?;
        Ok(ParquetSeries {
            encoder: Some(Encoder::start(w, write_schema)?),
            read_schema,
            runs: Vec::new(),
            row_columns,
        })
    }

    /// Appends a batch of rows (its `log` indexes `logs`), writing each
    /// row group as it fills.
    pub fn write(&mut self, logs: &[LogInfo], batch: &SeriesBatch) -> PolarsResult<()> {
        if self.encoder.is_none() {
            polars_core::prelude::polars_bail!(ComputeError: "the parquet writer stopped");
        }
        let info = &logs[batch.log as usize];
        let mut from = 0;
        while from < batch.len() {
            let group = &mut self.row_columns.group;
            let n = (batch.len() - from).min(ROW_GROUP - group.len());
            group.extend_from(batch, from..from + n);
            match self.runs.last_mut() {
                Some((last, rows)) if last == info => *rows += n,
                _ => self.runs.push((info.clone(), n)),
            }
            from += n;
            if self.row_columns.group.len() == ROW_GROUP {
                self.flush()?;
            }
        }
        Ok(())
    }

    /// Hands the rows gathered so far to the encoder as one row group.
    fn flush(&mut self) -> PolarsResult<()> {
        let rows = self.row_columns.group.len();
        if rows == 0 {
            return Ok(());
        }
        let mut columns: Vec<Option<Column>> = COLUMNS.iter().map(|_| None).collect();
        self.row_columns.take(&mut columns);
        for ((c, slot), i) in COLUMNS.iter().zip(&mut columns).zip(0..) {
            if let Get::Log(get) = c.get {
                *slot = Some(log_column(i, get, &self.runs));
            }
        }
        self.runs.clear();
        let columns: Vec<Column> = columns.into_iter().flatten().collect();
        let Some(encoder) = &self.encoder else {
            return Ok(());
        };
        if encoder.queue.send((rows, columns)).is_err() {
            // The thread stopped: its error says why.
            if let Some(encoder) = self.encoder.take() {
                encoder.join()?;
            }
            polars_core::prelude::polars_bail!(ComputeError: "the parquet writer stopped");
        }
        Ok(())
    }

    /// Writes the last row group and the footer, whose Arrow schema names
    /// strings (what the dictionaries hold).
    pub fn finish(mut self) -> PolarsResult<W> {
        self.flush()?;
        let encoder = self.encoder.take().ok_or_else(
            || polars_core::prelude::polars_err!(ComputeError: "the parquet writer stopped"),
        )?;
        let mut writer = encoder.join()?;
        let key = schema_to_metadata_key(&self.read_schema);
        writer.end(Some(vec![key]))?;
        Ok(writer.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Direction;
    use crate::timeseries::{Kind, SeriesRow};
    use polars_core::prelude::DataFrame;
    use polars_io::prelude::{ParquetReader, SerReader};

    fn logs() -> Vec<LogInfo> {
        let info = |source: &str, kind| LogInfo {
            source: source.into(),
            result: Some("d/result.json".into()),
            label: "d".into(),
            job: "j".into(),
            job_index: Some(1),
            host: None,
            kind,
            window_ms: Some(0),
        };
        vec![
            info("d/j_clat.1.log", Kind::Clat),
            info("d/j_bw.1.log", Kind::Bw),
        ]
    }

    /// Rows of both logs, with every optional field set on some rows.
    fn rows(n: usize) -> Vec<SeriesRow> {
        (0..n)
            .map(|i| {
                let dir = [Direction::Read, Direction::Write, Direction::Trim][i % 3];
                let mut r = SeriesRow::new((i / 1000 % 2) as u32, dir, i as u64, i as f64 * 0.5);
                r.bs_bytes = 4096;
                r.offset_bytes = (i % 7 == 0).then_some(i as u64 * 4096);
                r.priority = Some((i % 2) as u32);
                r.value_max = (i % 5 == 3).then_some(i as f64);
                r.samples = (i >= 4000).then_some(7);
                r.unix_ms = (i % 11 == 0).then_some(1_700_000_000_000 + i as u64);
                r
            })
            .collect()
    }

    /// `rows` in batches of at most `batch` rows of one log.
    fn batches(rows: &[SeriesRow], batch: usize) -> Vec<SeriesBatch> {
        rows.chunk_by(|a, b| a.log == b.log)
            .flat_map(|run| run.chunks(batch))
            .map(SeriesBatch::from_rows)
            .collect()
    }

    fn write(rows: &[SeriesRow], batch: usize) -> Vec<u8> {
        let logs = logs();
        let mut w = ParquetSeries::new(Vec::new()).unwrap();
        for b in batches(rows, batch) {
            w.write(&logs, &b).unwrap();
        }
        w.finish().unwrap()
    }

    fn read(bytes: Vec<u8>) -> DataFrame {
        ParquetReader::new(std::io::Cursor::new(bytes))
            .finish()
            .unwrap()
    }

    #[test]
    fn a_directions_number_is_its_place_in_all() {
        for (i, d) in Direction::ALL.into_iter().enumerate() {
            assert_eq!(d as usize, i);
        }
    }

    /// The batch's columns are [`COLUMNS`]' row columns, and how the rows
    /// come in batches does not change the file.
    #[test]
    fn batches_of_any_size_write_the_same_file() {
        assert!(RowColumns::find().is_some(), "COLUMNS' row columns changed");
        let rows = rows(5000);
        assert_eq!(write(&rows, 777), write(&rows, 5000));
        assert_eq!(write(&rows, 1), write(&rows, 5000));
    }

    /// Past a row group the file holds several, every row once, in order,
    /// and reads back as the DataFrame the other formats are written from.
    #[test]
    fn rows_past_a_row_group_read_back_as_written() {
        let rows = rows(ROW_GROUP + 1234);
        let bytes = write(&rows, 100_000);
        let meta = polars_parquet::read::read_metadata(&mut std::io::Cursor::new(&bytes)).unwrap();
        assert_eq!(meta.row_groups.len(), 2);
        let back = read(bytes);
        let want = super::super::file::to_dataframe(&logs(), &rows).unwrap();
        assert_eq!(back.schema(), want.schema());
        assert!(back.equals_missing(&want));
        let source = back.column("source").unwrap().str().unwrap();
        assert_eq!(source.get(1500), Some("d/j_bw.1.log"));
        assert_eq!(back.column("host").unwrap().null_count(), rows.len());
    }

    /// A group of one log's rows holds most columns as one value (the
    /// log's own, the direction, block size and priority) or none (the
    /// optional fields it lacks): written as their pages directly, they
    /// read back as every other column does (`.ci/parquet-compat.sh` has
    /// pyarrow read their statistics).
    #[test]
    fn columns_of_one_value_read_back_as_written() {
        let rows: Vec<SeriesRow> = (0..ROW_GROUP + 10)
            .map(|i| {
                let mut r = SeriesRow::new(0, Direction::Write, i as u64 / 100, 1e3 + i as f64);
                r.bs_bytes = 4096;
                r.priority = Some(0);
                // The second group's times are all one value too.
                if i >= ROW_GROUP {
                    r.t_ms = 7;
                }
                r
            })
            .collect();
        let bytes = write(&rows, 50_000);
        let meta = polars_parquet::read::read_metadata(&mut std::io::Cursor::new(&bytes)).unwrap();
        assert_eq!(meta.row_groups.len(), 2);
        // Direction, block size, priority and the log's own columns are
        // one-value dictionaries: a dictionary page each.
        let dictionaries = meta.row_groups[0]
            .parquet_columns()
            .iter()
            .filter(|c| c.dictionary_page_offset().is_some())
            .count();
        assert!(dictionaries >= 7, "{dictionaries}");
        let back = read(bytes);
        let want = super::super::file::to_dataframe(&logs(), &rows).unwrap();
        assert_eq!(back.schema(), want.schema());
        assert!(back.equals_missing(&want));
        assert_eq!(back.column("value_max").unwrap().null_count(), rows.len());
        let source = back.column("source").unwrap().str().unwrap();
        assert_eq!(source.get(ROW_GROUP + 9), Some("d/j_clat.1.log"));
    }

    #[test]
    fn no_rows_is_an_empty_file_of_the_columns() {
        let back = read(write(&[], 1));
        assert_eq!((back.height(), back.width()), (0, COLUMNS.len()));
    }

    /// A disk that fails mid-file is an error, not a panic or a file cut
    /// short without a word.
    #[test]
    fn a_failing_writer_is_an_error() {
        struct Full(usize);
        impl Write for Full {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                if self.0 + b.len() > 10_000 {
                    return Err(std::io::Error::other("disk full"));
                }
                self.0 += b.len();
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let rows = rows(3 * ROW_GROUP);
        let mut w = ParquetSeries::new(Full(0)).unwrap();
        let logs = logs();
        let written = batches(&rows, 100_000)
            .iter()
            .try_for_each(|b| w.write(&logs, b))
            .and_then(|()| w.finish().map(|_| ()));
        let e = written.unwrap_err().to_string();
        assert!(e.contains("disk full"), "{e}");
    }
}
