//! The history's common case read straight from a part's columns, with
//! no [`Row`] made per row: a run whose rows each measure a workload of
//! their own ([`series::is_plain`](super::series)). Each row's fields
//! that series read are copied into one scratch [`Row`], reused (its
//! strings keep their buffers), which goes through the same
//! `Run::from_row` and `Metric::of_run` as every other row.

use std::collections::HashSet;

use polars::prelude::*;

use super::series::COLUMNS;
use crate::dataset::u32_of;
use crate::model::{Direction, Row};

/// The columns of one frame, cast once to the types the fields have.
pub(super) struct Columns {
    label: StringChunked,
    rw: StringChunked,
    direction: StringChunked,
    host: StringChunked,
    aggregate: BooleanChunked,
    bs_bytes: UInt64Chunked,
    io_bytes: UInt64Chunked,
    /// rwmixread, iodepth, numjobs, error.
    ints: [Int64Chunked; 4],
    /// runtime_ms, bw, iops, lat_mean, clat_mean, clat_p99, usr, sys, system cpu.
    floats: [Float64Chunked; 9],
    /// What a null leaves in a field: what `dataset::from_dataframe` leaves.
    empty: Row,
}

impl Columns {
    /// None when the frame lacks one of [`COLUMNS`] (a history written by
    /// an older nvcmp): its rows are then read as rows.
    pub(super) fn of(df: &DataFrame) -> Option<Columns> {
        if COLUMNS.iter().any(|c| df.column(c).is_err()) {
            return None;
        }
        let col = |name: &str, t: &DataType| df.column(name).ok()?.cast(t).ok();
        let text = |name: &str| Some(col(name, &DataType::String)?.str().ok()?.clone());
        let int = |name: &str| Some(col(name, &DataType::Int64)?.i64().ok()?.clone());
        let uint = |name: &str| Some(col(name, &DataType::UInt64)?.u64().ok()?.clone());
        let float = |name: &str| Some(col(name, &DataType::Float64)?.f64().ok()?.clone());
        Some(Columns {
            label: text("label")?,
            rw: text("rw")?,
            direction: text("direction")?,
            host: text("host")?,
            aggregate: col("aggregate", &DataType::Boolean)?.bool().ok()?.clone(),
            bs_bytes: uint("bs_bytes")?,
            io_bytes: uint("io_bytes")?,
            ints: [
                int("rwmixread")?,
                int("iodepth")?,
                int("numjobs")?,
                int("error")?,
            ],
            floats: [
                float("runtime_ms")?,
                float("bw_bytes_per_s")?,
                float("iops")?,
                float("lat_mean_ns")?,
                float("clat_mean_ns")?,
                float("clat_p99_ns")?,
                float("usr_cpu_pct")?,
                float("sys_cpu_pct")?,
                float("system_cpu_pct")?,
            ],
            empty: Row::empty("", Direction::Read),
        })
    }

    /// Whether rows `range` are a plain run: no client aggregates, no
    /// hosts, a direction each, one row per config, workload and load point.
    pub(super) fn is_plain(&self, range: std::ops::Range<usize>) -> bool {
        let mut seen = HashSet::with_capacity(range.len());
        range.into_iter().all(|i| {
            self.host.get(i).is_none()
                && self.aggregate.get(i) != Some(true)
                && self.direction.get(i).and_then(Direction::parse).is_some()
                && seen.insert((
                    self.label.get(i),
                    self.rw.get(i),
                    self.bs_bytes.get(i),
                    self.direction.get(i),
                    self.ints[0].get(i),
                    self.ints[1].get(i),
                    self.ints[2].get(i),
                ))
        })
    }

    /// Row `i`'s fields that series read, into `r` (the others untouched).
    pub(super) fn fill(&self, i: usize, r: &mut Row) {
        let e = &self.empty;
        let text = |c: &StringChunked, to: &mut String| {
            to.clear();
            to.push_str(c.get(i).unwrap_or_default());
        };
        text(&self.label, &mut r.label);
        text(&self.rw, &mut r.rw);
        r.direction = self
            .direction
            .get(i)
            .and_then(Direction::parse)
            .unwrap_or(e.direction);
        r.host = None;
        r.aggregate = false;
        r.bs_bytes = self.bs_bytes.get(i).unwrap_or(e.bs_bytes);
        r.io_bytes = self.io_bytes.get(i).unwrap_or(e.io_bytes);
        let [mix, depth, jobs, error] = &self.ints;
        r.rwmixread = mix.get(i).map(u32_of).or(e.rwmixread);
        r.iodepth = depth.get(i).map_or(e.iodepth, u32_of);
        r.numjobs = jobs.get(i).map_or(e.numjobs, u32_of);
        r.error = error.get(i).unwrap_or(e.error);
        let [runtime, bw, iops, lat, clat, p99, usr, sys, system] = &self.floats;
        r.runtime_ms = runtime.get(i).unwrap_or(e.runtime_ms);
        r.bw_bytes_per_s = bw.get(i).unwrap_or(e.bw_bytes_per_s);
        r.iops = iops.get(i).unwrap_or(e.iops);
        r.lat_mean_ns = lat.get(i).or(e.lat_mean_ns);
        r.clat_mean_ns = clat.get(i).or(e.clat_mean_ns);
        r.clat_p99_ns = p99.get(i).or(e.clat_p99_ns);
        r.usr_cpu_pct = usr.get(i).unwrap_or(e.usr_cpu_pct);
        r.sys_cpu_pct = sys.get(i).unwrap_or(e.sys_cpu_pct);
        r.system_cpu_pct = system.get(i).or(e.system_cpu_pct);
    }
}
