//! A column that holds one value, or none, on every row of a row group,
//! written as its pages directly. Most series columns are such: a log's
//! own (source, label, job, ...), the optional fields its layout lacks,
//! and often the direction, block size and priority. Through polars'
//! writer each costs a pass or two per row (dictionary keys found and
//! encoded, definition levels from a validity bitmap, 8 bytes per row for
//! zstd); written here they are two runs of the parquet hybrid encoding
//! whatever the row count: the same file to a reader, as polars would
//! write it for a one-value dictionary (definition levels, then keys of
//! bit width 0) or an all-null column.

use polars_core::prelude::{PolarsError, PolarsResult, polars_bail};
use polars_parquet::arrow::write::{
    CompressedPage, CompressionOptions, Compressor, Descriptor, DynIter, DynStreamingIterator,
    Encoding, FallibleStreamingIterator, Page, ParquetPhysicalType, ParquetType,
};
use polars_parquet::parquet::CowBuffer;
use polars_parquet::parquet::page::{DataPage, DataPageHeader, DataPageHeaderV1, DictPage};
use polars_parquet::parquet::schema::types::PrimitiveType;
use polars_parquet::parquet::statistics::{
    BinaryStatistics, ParquetStatistics, PrimitiveStatistics,
};

/// The one value of a column over a row group.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Same {
    /// Every row null.
    Null,
    Str(String),
    U64(u64),
    F64(f64),
}

/// The compressed pages of a column of `rows` rows that all hold `same`,
/// as the row group writer takes them.
pub(super) fn column(
    same: &Same,
    rows: usize,
    type_: &ParquetType,
    compression: CompressionOptions,
) -> PolarsResult<DynStreamingIterator<'static, CompressedPage, PolarsError>> {
    let pages = pages(same, rows, type_)?;
    let compressed = Compressor::new(
        DynIter::new(pages.into_iter().map(Ok)),
        compression,
        Vec::new(),
    )
    .map_err(|e| PolarsError::ComputeError(e.to_string().into()));
    Ok(DynStreamingIterator::new(compressed))
}

/// A one-value dictionary page and a data page of two runs (definition
/// levels, keys); for nulls, a data page of one run.
fn pages(same: &Same, rows: usize, type_: &ParquetType) -> PolarsResult<Vec<Page>> {
    let ParquetType::PrimitiveType(primitive) = type_ else {
        polars_bail!(ComputeError: "a series column is not a primitive parquet column");
    };
    let Ok(n) = i32::try_from(rows) else {
        polars_bail!(ComputeError: "a row group of {rows} rows is too large for one page");
    };
    // Version 1 pages: the definition levels behind their byte length.
    let levels = run(rows, u8::from(*same != Same::Null), 1);
    let mut buffer = Vec::with_capacity(levels.len() + 16);
    buffer.extend_from_slice(&(levels.len() as u32).to_le_bytes());
    buffer.extend_from_slice(&levels);
    let (dict, encoding) = match plain(same, &primitive.physical_type)? {
        None => (None, Encoding::Plain),
        Some(value) => {
            // Every key is 0, the dictionary's one value: bit width 0.
            buffer.push(0);
            buffer.extend_from_slice(&run(rows, 0, 0));
            let dict = DictPage::new(CowBuffer::Owned(value), 1, false);
            (Some(Page::Dict(dict)), Encoding::RleDictionary)
        }
    };
    let header = DataPageHeader::V1(DataPageHeaderV1 {
        num_values: n,
        encoding: encoding.into(),
        definition_level_encoding: Encoding::Rle.into(),
        repetition_level_encoding: Encoding::Rle.into(),
        statistics: Some(statistics(same, rows, primitive)),
    });
    let descriptor = Descriptor {
        primitive_type: primitive.clone(),
        max_def_level: 1,
        max_rep_level: 0,
    };
    let data = DataPage::new(header, CowBuffer::Owned(buffer), descriptor, rows);
    Ok(dict.into_iter().chain([Page::Data(data)]).collect())
}

/// One run of the RLE/bit-packing hybrid: `n` times `value`, `bits` (at
/// most 8) wide.
fn run(n: usize, value: u8, bits: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(11);
    let mut header = (n as u64) << 1;
    loop {
        let byte = (header & 0x7f) as u8;
        header >>= 7;
        if header == 0 {
            out.push(byte);
            break;
        }
        out.push(byte | 0x80);
    }
    if bits > 0 {
        out.push(value);
    }
    out
}

/// The value, plain-encoded for a dictionary page (None for nulls).
fn plain(same: &Same, physical: &ParquetPhysicalType) -> PolarsResult<Option<Vec<u8>>> {
    Ok(Some(match (same, physical) {
        (Same::Null, _) => return Ok(None),
        (Same::Str(s), ParquetPhysicalType::ByteArray) => {
            let Ok(len) = u32::try_from(s.len()) else {
                polars_bail!(ComputeError: "a string of {} bytes in a series column", s.len());
            };
            let mut out = len.to_le_bytes().to_vec();
            out.extend_from_slice(s.as_bytes());
            out
        }
        // UInt64 is stored as INT64 (the bits as they are).
        (Same::U64(v), ParquetPhysicalType::Int64) => (*v as i64).to_le_bytes().to_vec(),
        (Same::F64(v), ParquetPhysicalType::Double) => v.to_le_bytes().to_vec(),
        (same, physical) => {
            polars_bail!(ComputeError: "{same:?} in a parquet column of {physical:?}")
        }
    }))
}

/// The page's statistics, as polars writes them: nulls counted, the one
/// value as both minimum and maximum.
fn statistics(same: &Same, rows: usize, primitive: &PrimitiveType) -> ParquetStatistics {
    let null_count = Some(if *same == Same::Null { rows as i64 } else { 0 });
    let primitive_type = primitive.clone();
    match (same, primitive.physical_type) {
        (Same::F64(v), _) => number(primitive_type, null_count, Some(*v)),
        (Same::Null, ParquetPhysicalType::Double) => {
            number::<f64>(primitive_type, null_count, None)
        }
        // UInt64 is stored as INT64 (the bits as they are).
        (Same::U64(v), _) => number(primitive_type, null_count, Some(*v as i64)),
        (Same::Null, ParquetPhysicalType::Int64) => number::<i64>(primitive_type, null_count, None),
        (Same::Str(_) | Same::Null, _) => {
            let value = match same {
                Same::Str(s) => Some(s.as_bytes().to_vec()),
                _ => None,
            };
            BinaryStatistics {
                primitive_type,
                null_count,
                distinct_count: None,
                max_value: value.clone(),
                min_value: value,
            }
            .serialize()
        }
    }
}

fn number<T: polars_parquet::parquet::types::NativeType>(
    primitive_type: PrimitiveType,
    null_count: Option<i64>,
    value: Option<T>,
) -> ParquetStatistics {
    PrimitiveStatistics::<T> {
        primitive_type,
        null_count,
        distinct_count: None,
        min_value: value,
        max_value: value,
    }
    .serialize()
}
