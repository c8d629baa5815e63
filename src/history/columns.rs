//! The history's common case read straight from a part's columns, with
//! no [`Row`] made per row: a run whose rows each measure a workload of
//! their own ([`trend::is_plain`](super::trend)). Each row's fields
//! that series read are copied into one scratch [`Row`], reused (its
//! strings keep their buffers), which goes through the same
//! `Run::from_row` and `Metric::of_run` as every other row.

use std::collections::HashSet;

use polars_core::prelude::*;

use crate::dataset::u32_of;
use crate::model::{Direction, Row};
use crate::quick_hash::QuickHash;

/// The dataset columns `trend::measure` reads: grouping (file, label, shape,
/// load point with its devices and fio instances, hosts, client
/// aggregates), errors, and the metrics with what combining jobs weighs
/// them by.
pub const COLUMNS: &[&str] = &[
    "source",
    "tool",
    "filename",
    "instances",
    "instance_group",
    "label",
    "host",
    "aggregate",
    "rw",
    "direction",
    "bs_bytes",
    "rwmixread",
    "iodepth",
    "numjobs",
    "error",
    "runtime_ms",
    "io_bytes",
    "bw_bytes_per_s",
    "iops",
    "lat_mean_ns",
    "clat_mean_ns",
    "clat_p99_ns",
    "usr_cpu_pct",
    "sys_cpu_pct",
    "system_cpu_pct",
];

/// Columns of [`COLUMNS`] a history written before they existed lacks:
/// read as their defaults (one target, one instance), not as a reason to
/// read its rows one by one.
const LATER: &[&str] = &["tool", "filename", "instances", "instance_group"];

/// The numeric columns series read, by name, each of the unsigned (`U`),
/// signed (`I`) or float (`F`) kind of its dataset column: cast from the
/// frame ([`Cast`]), then as values ([`Columns`]).
struct Numbers<U, I, F> {
    bs_bytes: U,
    io_bytes: U,
    rwmixread: I,
    iodepth: I,
    numjobs: I,
    error: I,
    runtime_ms: F,
    bw_bytes_per_s: F,
    iops: F,
    lat_mean_ns: F,
    clat_mean_ns: F,
    clat_p99_ns: F,
    usr_cpu_pct: F,
    sys_cpu_pct: F,
    system_cpu_pct: F,
}

impl<U, I, F> Numbers<U, I, F> {
    /// Each column turned by the function of its kind.
    fn map<'s, U2, I2, F2>(
        &'s self,
        u: impl Fn(&'s U) -> U2,
        i: impl Fn(&'s I) -> I2,
        f: impl Fn(&'s F) -> F2,
    ) -> Numbers<U2, I2, F2> {
        Numbers {
            bs_bytes: u(&self.bs_bytes),
            io_bytes: u(&self.io_bytes),
            rwmixread: i(&self.rwmixread),
            iodepth: i(&self.iodepth),
            numjobs: i(&self.numjobs),
            error: i(&self.error),
            runtime_ms: f(&self.runtime_ms),
            bw_bytes_per_s: f(&self.bw_bytes_per_s),
            iops: f(&self.iops),
            lat_mean_ns: f(&self.lat_mean_ns),
            clat_mean_ns: f(&self.clat_mean_ns),
            clat_p99_ns: f(&self.clat_p99_ns),
            usr_cpu_pct: f(&self.usr_cpu_pct),
            sys_cpu_pct: f(&self.sys_cpu_pct),
            system_cpu_pct: f(&self.system_cpu_pct),
        }
    }
}

/// The columns of one frame, cast once to the types the fields have.
pub(super) struct Cast {
    label: StringChunked,
    rw: StringChunked,
    direction: StringChunked,
    host: StringChunked,
    aggregate: BooleanChunked,
    /// [`LATER`]'s, None where the frame lacks them.
    tool: Option<StringChunked>,
    filename: Option<StringChunked>,
    instances: Option<Int64Chunked>,
    instance_group: Option<StringChunked>,
    numbers: Numbers<UInt64Chunked, Int64Chunked, Float64Chunked>,
}

impl Cast {
    /// None when the frame lacks one of [`COLUMNS`] (a history written by
    /// an older nvcmp): its rows are then read as rows.
    pub(super) fn of(df: &DataFrame) -> Option<Cast> {
        let mut needed = COLUMNS.iter().filter(|c| !LATER.contains(c));
        if needed.any(|c| df.column(c).is_err()) {
            return None;
        }
        let col = |name: &str, t: &DataType| df.column(name).ok()?.cast(t).ok();
        let text = |name: &str| Some(col(name, &DataType::String)?.str().ok()?.clone());
        let int = |name: &str| Some(col(name, &DataType::Int64)?.i64().ok()?.clone());
        let uint = |name: &str| Some(col(name, &DataType::UInt64)?.u64().ok()?.clone());
        let float = |name: &str| Some(col(name, &DataType::Float64)?.f64().ok()?.clone());
        Some(Cast {
            label: text("label")?,
            rw: text("rw")?,
            direction: text("direction")?,
            host: text("host")?,
            aggregate: col("aggregate", &DataType::Boolean)?.bool().ok()?.clone(),
            tool: text("tool"),
            filename: text("filename"),
            instances: int("instances"),
            instance_group: text("instance_group"),
            numbers: Numbers {
                bs_bytes: uint("bs_bytes")?,
                io_bytes: uint("io_bytes")?,
                rwmixread: int("rwmixread")?,
                iodepth: int("iodepth")?,
                numjobs: int("numjobs")?,
                error: int("error")?,
                runtime_ms: float("runtime_ms")?,
                bw_bytes_per_s: float("bw_bytes_per_s")?,
                iops: float("iops")?,
                lat_mean_ns: float("lat_mean_ns")?,
                clat_mean_ns: float("clat_mean_ns")?,
                clat_p99_ns: float("clat_p99_ns")?,
                usr_cpu_pct: float("usr_cpu_pct")?,
                sys_cpu_pct: float("sys_cpu_pct")?,
                system_cpu_pct: float("system_cpu_pct")?,
            },
        })
    }

    /// The columns as plain vectors, read in one pass each: a row's fields
    /// are then an index away (a chunked array looks up its chunk on every
    /// `get`).
    pub(super) fn columns(&self) -> Columns<'_> {
        fn all<T>(it: impl Iterator<Item = T>) -> Vec<T> {
            it.collect()
        }
        let n = self.label.len();
        // Few distinct filename lists: each counted once.
        let mut counted: std::collections::HashMap<(Option<&str>, Option<&str>), u32> =
            Default::default();
        let devices = match (&self.tool, &self.filename) {
            (Some(tool), Some(filename)) => all(tool.iter().zip(filename.iter()).map(|k| {
                *counted
                    .entry(k)
                    .or_insert_with(|| crate::model::target_count(k.0.unwrap_or_default(), k.1))
            })),
            _ => vec![1; n],
        };
        let instanced = match (&self.instances, &self.instance_group) {
            (Some(count), Some(group)) => all(count
                .iter()
                .zip(group.iter())
                .map(|(c, g)| c.unwrap_or(1) > 1 || g.is_some())),
            _ => vec![false; n],
        };
        Columns {
            devices,
            instanced,
            label: all(self.label.iter()),
            rw: all(self.rw.iter()),
            direction: all(self.direction.iter().map(|d| d.and_then(Direction::parse))),
            host: all(self.host.iter().map(|h| h.is_some())),
            aggregate: all(self.aggregate.iter().map(|a| a == Some(true))),
            numbers: self.numbers.map(Values::of, Values::of, Values::of),
            empty: Row::empty("", Direction::Read),
        }
    }
}

/// A numeric column by index: the array itself when it is one chunk
/// without nulls (the usual case, no copy), else its values copied out.
enum Values<'a, T> {
    Slice(&'a [T]),
    Copied(Vec<Option<T>>),
}

impl<'a, N: Copy> Values<'a, N> {
    fn of<T: PolarsNumericType<Native = N>>(c: &'a ChunkedArray<T>) -> Self {
        match c.cont_slice() {
            Ok(s) => Values::Slice(s),
            Err(_) => Values::Copied(c.iter().collect()),
        }
    }

    fn at(&self, i: usize) -> Option<N> {
        match self {
            Values::Slice(s) => Some(s[i]),
            Values::Copied(v) => v[i],
        }
    }
}

/// One frame's columns that series read, as vectors.
pub(super) struct Columns<'a> {
    /// Targets each row's job spread over ([`crate::model::Row::devices`]).
    devices: Vec<u32>,
    /// Whether the row is one of fio instances that ran together.
    instanced: Vec<bool>,
    label: Vec<Option<&'a str>>,
    rw: Vec<Option<&'a str>>,
    /// None where missing or not a direction.
    direction: Vec<Option<Direction>>,
    /// Whether the row names a host.
    host: Vec<bool>,
    aggregate: Vec<bool>,
    numbers: Numbers<Values<'a, u64>, Values<'a, i64>, Values<'a, f64>>,
    /// What a null leaves in a field: what `dataset::from_dataframe` leaves.
    empty: Row,
}

impl Columns<'_> {
    /// Whether rows `range` are a plain run: no client aggregates, no
    /// hosts, no fio instances, a direction each, one row per config,
    /// workload and load point.
    pub(super) fn is_plain(&self, range: std::ops::Range<usize>) -> bool {
        let mut seen: HashSet<_, QuickHash> =
            HashSet::with_capacity_and_hasher(range.len(), Default::default());
        range.into_iter().all(|i| {
            !self.host[i]
                && !self.aggregate[i]
                && !self.instanced[i]
                && self.direction[i].is_some()
                && seen.insert((
                    self.label[i],
                    self.rw[i],
                    self.numbers.bs_bytes.at(i),
                    self.direction[i],
                    self.numbers.rwmixread.at(i),
                    self.numbers.iodepth.at(i),
                    self.numbers.numjobs.at(i),
                    self.devices[i],
                ))
        })
    }

    /// Targets row `i`'s job spread over.
    pub(super) fn devices(&self, i: usize) -> u32 {
        self.devices[i]
    }

    /// Row `i`'s fields that series read, into `r` (the others untouched).
    pub(super) fn fill(&self, i: usize, r: &mut Row) {
        let e = &self.empty;
        let text = |c: &[Option<&str>], to: &mut String| {
            to.clear();
            to.push_str(c[i].unwrap_or_default());
        };
        text(&self.label, &mut r.config);
        text(&self.rw, &mut r.rw);
        r.direction = self.direction[i].unwrap_or(e.direction);
        r.host = None;
        r.aggregate = false;
        let n = &self.numbers;
        r.bs_bytes = n.bs_bytes.at(i).unwrap_or(e.bs_bytes);
        r.io_bytes = n.io_bytes.at(i).unwrap_or(e.io_bytes);
        r.rwmixread = n.rwmixread.at(i).map(u32_of).or(e.rwmixread);
        r.iodepth = n.iodepth.at(i).map_or(e.iodepth, u32_of);
        r.numjobs = n.numjobs.at(i).map_or(e.numjobs, u32_of);
        r.error = n.error.at(i).unwrap_or(e.error);
        r.runtime_ms = n.runtime_ms.at(i).unwrap_or(e.runtime_ms);
        r.bw_bytes_per_s = n.bw_bytes_per_s.at(i).unwrap_or(e.bw_bytes_per_s);
        r.iops = n.iops.at(i).unwrap_or(e.iops);
        r.lat_mean_ns = n.lat_mean_ns.at(i).or(e.lat_mean_ns);
        r.clat_mean_ns = n.clat_mean_ns.at(i).or(e.clat_mean_ns);
        r.clat_p99_ns = n.clat_p99_ns.at(i).or(e.clat_p99_ns);
        r.usr_cpu_pct = n.usr_cpu_pct.at(i).unwrap_or(e.usr_cpu_pct);
        r.sys_cpu_pct = n.sys_cpu_pct.at(i).unwrap_or(e.sys_cpu_pct);
        r.system_cpu_pct = n.system_cpu_pct.at(i).or(e.system_cpu_pct);
    }
}
