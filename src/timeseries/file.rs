//! The series dataset's files: parquet, csv and ndjson, written batch by
//! batch so a log of millions of lines never has to sit in memory whole.
//! The columns they hold are declared once in [`super::columns`].

use std::io::Write;
use std::path::Path;

use anyhow::{Context, bail};
use polars_core::prelude::*;
use polars_io::prelude::*;

use super::columns::{COLUMNS, Col, FieldValue, Get, Ty, dtype, schema};
use super::{LogInfo, SeriesBatch, SeriesRow};
use crate::dataset::FileFormat;

/// Rows (with their logs) as a DataFrame of [`COLUMNS`]. The rows' own
/// cells are taken in one pass over the rows (a row is ~150 bytes; a pass
/// per column read each block 11 times over), the log's cells once per
/// run of rows from the same log.
pub fn to_dataframe(logs: &[LogInfo], rows: &[SeriesRow]) -> PolarsResult<DataFrame> {
    use rayon::prelude::*;
    let runs: Vec<(u32, usize)> = rows
        .chunk_by(|a, b| a.log == b.log)
        .map(|run| (run[0].log, run.len()))
        .collect();
    let mut built = row_columns(rows).into_iter();
    let (logged, own): (Vec<_>, Vec<_>) = COLUMNS
        .iter()
        .enumerate()
        .partition(|(_, c)| matches!(c.get, Get::Log(_)));
    let mut columns: Vec<Option<Column>> = vec![None; COLUMNS.len()];
    for (i, _) in own {
        columns[i] = built.next();
    }
    let logged: Vec<(usize, Column)> = logged
        .par_iter()
        .map(|&(i, c)| match c.get {
            Get::Log(get) => Ok((i, log_column(c, get, logs, &runs)?)),
            Get::Row(_) => unreachable!("partitioned by kind"),
        })
        .collect::<PolarsResult<_>>()?;
    for (i, col) in logged {
        columns[i] = Some(col);
    }
    DataFrame::new(rows.len(), columns.into_iter().flatten().collect())
}

/// One column's cells while the rows are walked.
enum Building {
    Str(Vec<Option<&'static str>>),
    U64(Vec<Option<u64>>),
    F64(Vec<Option<f64>>),
}

/// How a row gives its cell of a column.
type RowGet = fn(&SeriesRow) -> FieldValue<'static>;

/// The row columns of [`COLUMNS`], in order, from one pass over `rows`.
fn row_columns(rows: &[SeriesRow]) -> Vec<Column> {
    let own: Vec<(&Col, RowGet)> = COLUMNS
        .iter()
        .filter_map(|c| match c.get {
            Get::Row(get) => Some((c, get)),
            Get::Log(_) => None,
        })
        .collect();
    let mut cells: Vec<Building> = own
        .iter()
        .map(|(c, _)| match c.ty {
            Ty::Str => Building::Str(Vec::with_capacity(rows.len())),
            Ty::U64 => Building::U64(Vec::with_capacity(rows.len())),
            Ty::F64 => Building::F64(Vec::with_capacity(rows.len())),
        })
        .collect();
    for r in rows {
        for (b, (_, get)) in cells.iter_mut().zip(&own) {
            match (b, get(r)) {
                (Building::Str(v), FieldValue::Str(x)) => v.push(x),
                (Building::U64(v), FieldValue::U64(x)) => v.push(x),
                (Building::F64(v), FieldValue::F64(x)) => v.push(x),
                // A getter gives its column's type (the col! table).
                (Building::Str(v), _) => v.push(None),
                (Building::U64(v), _) => v.push(None),
                (Building::F64(v), _) => v.push(None),
            }
        }
    }
    cells
        .into_iter()
        .zip(&own)
        .map(|(b, (c, _))| finish_column(c, b))
        .collect()
}

/// Most columns of a block are all set (time, value) or all null (what a
/// log's layout lacks): those are built without validity; only a column
/// with both keeps options.
fn finish_column(c: &Col, cells: Building) -> Column {
    let name: PlSmallStr = c.name.into();
    fn split<T: Copy>(v: &[Option<T>]) -> (usize, usize) {
        let set = v.iter().filter(|x| x.is_some()).count();
        (set, v.len())
    }
    let series = match cells {
        Building::Str(v) => match split(&v) {
            (0, n) => Series::full_null(name, n, &DataType::String),
            (s, n) if s == n => {
                StringChunked::from_iter_values(name, v.into_iter().flatten()).into_series()
            }
            _ => Series::new(name, v),
        },
        Building::U64(v) => match split(&v) {
            (0, n) => Series::full_null(name, n, &DataType::UInt64),
            (s, n) if s == n => {
                UInt64Chunked::from_vec(name, v.into_iter().flatten().collect()).into_series()
            }
            _ => Series::new(name, v),
        },
        Building::F64(v) => match split(&v) {
            (0, n) => Series::full_null(name, n, &DataType::Float64),
            (s, n) if s == n => {
                Float64Chunked::from_vec(name, v.into_iter().flatten().collect()).into_series()
            }
            _ => Series::new(name, v),
        },
    };
    series.into_column()
}

/// A column whose value is the log's: one constant piece per run of rows
/// from the same log (a streamed block is one run), not a value per row.
fn log_column(
    c: &Col,
    get: for<'a> fn(&'a LogInfo) -> FieldValue<'a>,
    logs: &[LogInfo],
    runs: &[(u32, usize)],
) -> PolarsResult<Column> {
    let name: PlSmallStr = c.name.into();
    let mut out: Option<Series> = None;
    for &(log, n) in runs {
        let piece = match get(&logs[log as usize]) {
            FieldValue::Str(Some(v)) => StringChunked::full(name.clone(), v, n).into_series(),
            FieldValue::Str(None) => StringChunked::full_null(name.clone(), n).into_series(),
            FieldValue::U64(Some(v)) => UInt64Chunked::full(name.clone(), v, n).into_series(),
            FieldValue::U64(None) => UInt64Chunked::full_null(name.clone(), n).into_series(),
            FieldValue::F64(Some(v)) => Float64Chunked::full(name.clone(), v, n).into_series(),
            FieldValue::F64(None) => Float64Chunked::full_null(name.clone(), n).into_series(),
        };
        match &mut out {
            Some(s) => {
                s.append(&piece)?;
            }
            None => out = Some(piece),
        }
    }
    let series = match out {
        Some(s) if s.n_chunks() > 1 => s.rechunk(),
        Some(s) => s,
        None => Series::new_empty(name, &dtype(c.ty)),
    };
    Ok(series.into_column())
}

/// Writes the series dataset batch by batch.
pub struct SeriesWriter<W: Write + Send + 'static> {
    inner: Inner<W>,
    rows: u64,
}

enum Inner<W: Write + Send + 'static> {
    // Boxed: the parquet writer is large and there is one per file.
    Parquet(Box<super::parquet::ParquetSeries<W>>),
    Csv(polars_io::csv::write::BatchedWriter<W>),
    Ndjson(W),
}

impl SeriesWriter<std::io::BufWriter<std::fs::File>> {
    /// Creates `path`, the format chosen by its extension.
    pub fn create(path: &Path) -> anyhow::Result<Self> {
        let format = FileFormat::from_path(path)
            .filter(|f| *f != FileFormat::Json)
            .with_context(|| {
                format!(
                    "{}: unknown series extension (use .parquet, .csv or .ndjson)",
                    path.display()
                )
            })?;
        let file = std::fs::File::create(path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        SeriesWriter::new(std::io::BufWriter::with_capacity(1 << 20, file), format)
    }
}

impl<W: Write + Send + 'static> SeriesWriter<W> {
    /// A writer of `format` (not [`FileFormat::Json`]: a single array
    /// cannot be streamed in batches).
    pub fn new(w: W, format: FileFormat) -> anyhow::Result<Self> {
        let inner = match format {
            FileFormat::Parquet => Inner::Parquet(Box::new(super::parquet::ParquetSeries::new(w)?)),
            FileFormat::Csv => {
                Inner::Csv(CsvWriter::new(w).include_header(true).batched(&schema())?)
            }
            FileFormat::Ndjson => Inner::Ndjson(w),
            FileFormat::Json => bail!("the series dataset is written as parquet, csv or ndjson"),
        };
        Ok(SeriesWriter { inner, rows: 0 })
    }

    /// Appends rows; `logs` holds the [`LogInfo`] their `log` indexes.
    pub fn write(&mut self, logs: &[LogInfo], batch: &SeriesBatch) -> anyhow::Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        match &mut self.inner {
            Inner::Parquet(w) => w.write(logs, batch)?,
            Inner::Csv(w) => {
                let rows: Vec<SeriesRow> = batch.rows().collect();
                w.write_batch(&to_dataframe(logs, &rows)?)?
            }
            Inner::Ndjson(w) => write_ndjson(w, &logs[batch.log as usize], batch)?,
        }
        self.rows += batch.len() as u64;
        Ok(())
    }

    /// Finishes the file (parquet footer, csv header when no row came);
    /// returns the number of rows written.
    pub fn finish(self) -> anyhow::Result<u64> {
        match self.inner {
            Inner::Parquet(w) => {
                w.finish()?.flush()?;
            }
            Inner::Csv(mut w) => w.finish()?,
            Inner::Ndjson(mut w) => w.flush()?,
        }
        Ok(self.rows)
    }
}

/// One JSON object per row, keys in [`COLUMNS`] order, nulls included.
fn write_ndjson(w: &mut dyn Write, info: &LogInfo, batch: &SeriesBatch) -> anyhow::Result<()> {
    let mut line = Vec::with_capacity(512);
    for r in batch.rows() {
        let r = &r;
        line.clear();
        line.push(b'{');
        for (i, c) in COLUMNS.iter().enumerate() {
            if i > 0 {
                line.push(b',');
            }
            line.push(b'"');
            line.extend_from_slice(c.name.as_bytes());
            line.extend_from_slice(b"\":");
            match c.cell(info, r) {
                FieldValue::Str(Some(s)) => serde_json::to_writer(&mut line, s)?,
                FieldValue::U64(Some(v)) => write!(line, "{v}")?,
                // Values are finite (the readers drop the rest); JSON has no NaN.
                FieldValue::F64(Some(v)) if v.is_finite() => write!(line, "{v}")?,
                _ => line.extend_from_slice(b"null"),
            }
        }
        line.extend_from_slice(b"}\n");
        w.write_all(&line)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Direction;
    use crate::timeseries::Kind;

    fn sample() -> (Vec<LogInfo>, Vec<SeriesRow>) {
        let info = LogInfo {
            source: "d/j_bw.2.log.h\"x".into(),
            result: Some("d/result.json".into()),
            label: "d".into(),
            job: "j".into(),
            job_index: Some(2),
            host: Some("h".into()),
            kind: Kind::Bw,
            window_ms: Some(200),
        };
        let mut a = SeriesRow::new(0, Direction::Write, 200, 1024.0 * 1000.0);
        a.value_max = Some(2e6);
        let b = SeriesRow::new(0, Direction::Read, 400, 512.5);
        (vec![info], vec![a, b])
    }

    #[test]
    fn contract_columns_come_first() {
        let names: Vec<_> = COLUMNS.iter().take(8).map(|c| c.name).collect();
        assert_eq!(
            names,
            [
                "source",
                "label",
                "job",
                "kind",
                "direction",
                "t_ms",
                "value",
                "bs_bytes"
            ]
        );
        let (logs, rows) = sample();
        let df = to_dataframe(&logs, &rows).unwrap();
        assert_eq!(df.height(), 2);
        assert_eq!(df.width(), COLUMNS.len());
        let v = df.column("value_max").unwrap().f64().unwrap();
        assert_eq!((v.get(0), v.get(1)), (Some(2e6), None));
    }

    /// Log columns are built a run of rows at a time: rows of several
    /// logs, interleaved, each get their own log's values.
    #[test]
    fn rows_of_several_logs_get_their_own_logs_values() {
        let (mut logs, _) = sample();
        let mut other = logs[0].clone();
        other.source = "e/k_lat.1.log".into();
        other.job_index = None;
        other.host = None;
        other.window_ms = Some(0);
        logs.push(other);
        let rows: Vec<SeriesRow> = [0, 0, 1, 0, 1, 1]
            .iter()
            .enumerate()
            .map(|(t, &log)| SeriesRow::new(log, Direction::Read, t as u64, 1.0))
            .collect();
        let df = to_dataframe(&logs, &rows).unwrap();
        let source = df.column("source").unwrap().str().unwrap();
        let index = df.column("job_index").unwrap().u64().unwrap();
        let host = df.column("host").unwrap().str().unwrap();
        let window = df.column("window_ms").unwrap().u64().unwrap();
        for (i, row) in rows.iter().enumerate() {
            let log = &logs[row.log as usize];
            assert_eq!(source.get(i), Some(log.source.as_str()), "row {i}");
            assert_eq!(index.get(i), log.job_index.map(u64::from), "row {i}");
            assert_eq!(host.get(i), log.host.as_deref(), "row {i}");
            assert_eq!(window.get(i), log.window_ms, "row {i}");
        }
        assert_eq!(df.column("t_ms").unwrap().u64().unwrap().get(5), Some(5));
        let empty = to_dataframe(&logs, &[]).unwrap();
        assert_eq!((empty.height(), empty.width()), (0, COLUMNS.len()));
        assert_eq!(empty.column("source").unwrap().dtype(), &DataType::String);
    }

    #[test]
    fn every_format_writes_every_row() {
        let (logs, rows) = sample();
        let dir = tempfile::tempdir().unwrap();
        for ext in ["parquet", "csv", "ndjson"] {
            let path = dir.path().join(format!("s.{ext}"));
            let mut w = SeriesWriter::create(&path).unwrap();
            w.write(&logs, &SeriesBatch::from_rows(&rows)).unwrap();
            w.write(&logs, &SeriesBatch::from_rows(&rows[..1])).unwrap();
            assert_eq!(w.finish().unwrap(), 3, "{ext}");
        }
        let csv = std::fs::read_to_string(dir.path().join("s.csv")).unwrap();
        assert_eq!(csv.lines().count(), 4, "{csv}");
        let nd = std::fs::read_to_string(dir.path().join("s.ndjson")).unwrap();
        let first: serde_json::Value = serde_json::from_str(nd.lines().next().unwrap()).unwrap();
        assert_eq!(first["source"], "d/j_bw.2.log.h\"x");
        assert_eq!(first["value"], 1024000.0);
        assert_eq!(first["percentile"], serde_json::Value::Null);
        let file = std::fs::File::open(dir.path().join("s.parquet")).unwrap();
        let df = ParquetReader::new(file).finish().unwrap();
        assert_eq!(df.height(), 3);
        assert!(SeriesWriter::create(&dir.path().join("s.json")).is_err());
    }
}
