//! The series dataset's columns, declared once in [`COLUMNS`]: their
//! names, types and how a row (or its log) gives each cell. The csv and
//! ndjson writer ([`super::file`]) and the parquet writer
//! ([`super::parquet`]) both read them; neither imports the other for it.

use polars_core::prelude::{DataType, Field, Schema};

use super::{LogInfo, SeriesRow};

/// A column's type in every file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    Str,
    U64,
    F64,
}

/// One cell, borrowed from the row or its log.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FieldValue<'a> {
    Str(Option<&'a str>),
    U64(Option<u64>),
    F64(Option<f64>),
}

/// A column: name, type, and how a row gives its cell.
pub struct Col {
    pub name: &'static str,
    pub ty: Ty,
    pub get: Get,
}

/// Where a column's cell comes from: the log (the same for all its rows,
/// so a block of rows from one log makes the column in one step) or the row.
#[derive(Clone, Copy)]
pub enum Get {
    Log(for<'a> fn(&'a LogInfo) -> FieldValue<'a>),
    Row(fn(&SeriesRow) -> FieldValue<'static>),
}

impl Col {
    /// The cell of `row`, whose log is `info`.
    pub fn cell<'a>(&self, info: &'a LogInfo, row: &SeriesRow) -> FieldValue<'a> {
        match self.get {
            Get::Log(f) => f(info),
            Get::Row(f) => f(row),
        }
    }
}

macro_rules! col {
    ($name:literal, $ty:ident, log |$i:ident| $e:expr) => {
        Col {
            name: $name,
            ty: Ty::$ty,
            get: Get::Log(|$i| FieldValue::$ty($e)),
        }
    };
    ($name:literal, $ty:ident, row |$r:ident| $e:expr) => {
        Col {
            name: $name,
            ty: Ty::$ty,
            get: Get::Row(|$r| FieldValue::$ty($e)),
        }
    };
}

/// The columns, in file order: the contract's first (docs/CONTRACT.md,
/// `ingest --series`), then the additions. Units are SI base units.
#[rustfmt::skip]
pub const COLUMNS: [Col; 19] = [
    col!("source", Str, log |i| Some(&i.source)),
    col!("label", Str, log |i| Some(&i.label)),
    col!("job", Str, log |i| Some(&i.job)),
    col!("kind", Str, log |i| Some(i.kind.as_str())),
    col!("direction", Str, row |r| Some(r.direction.as_str())),
    col!("t_ms", U64, row |r| Some(r.t_ms)),
    col!("value", F64, row |r| Some(r.value)),
    col!("bs_bytes", U64, row |r| Some(r.bs_bytes)),
    // ---- beyond the contract ----
    col!("job_index", U64, log |i| i.job_index.map(u64::from)),
    col!("host", Str, log |i| i.host.as_deref()),
    col!("value_max", F64, row |r| r.value_max),
    col!("offset_bytes", U64, row |r| r.offset_bytes),
    col!("percentile", F64, row |r| r.percentile),
    col!("samples", U64, row |r| r.samples),
    col!("window_ms", U64, log |i| i.window_ms),
    col!("priority", U64, row |r| r.priority.map(u64::from)),
    col!("issue_time_ns", U64, row |r| r.issue_time_ns),
    col!("unix_ms", U64, row |r| r.unix_ms),
    col!("result", Str, log |i| i.result.as_deref()),
];

pub(super) fn dtype(ty: Ty) -> DataType {
    match ty {
        Ty::Str => DataType::String,
        Ty::U64 => DataType::UInt64,
        Ty::F64 => DataType::Float64,
    }
}

pub(super) fn schema() -> Schema {
    COLUMNS
        .iter()
        .map(|c| Field::new(c.name.into(), dtype(c.ty)))
        .collect()
}
