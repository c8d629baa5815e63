//! DiskSpd's results as dataset rows: Microsoft's storage benchmark on
//! Windows (text and `-Rxml`, versions 2.0.x to 2.2) and its Linux port
//! (microsoft/diskspd-for-linux, text only).
//!
//! Both readers ([`text`], [`xml`]) fill one [`Timespan`] per measured timespan,
//! mirroring what DiskSpd itself keeps (per thread and target counts, the
//! whole run's latency percentiles, CPU, per-interval I/O counts); [`rows`]
//! then maps a run to rows as docs/CONTRACT.md says: one row per target and
//! direction, the target's threads merged as fio's `group_reporting` does.
//!
//! DiskSpd measures each I/O from its issue to its completion, which is
//! fio's *total* latency (`lat_*`); it has no submission or completion
//! latency of its own, so `clat_*` and `slat_*` stay null and comparisons
//! show the fio side of those alone.

pub(crate) mod intervals;
pub mod text;
pub mod xml;

use crate::model::figures::{DirectionFigures, Latency, Samples, percentile};
use crate::model::{Direction, Os, Row, Rw};

pub use text::TextReader;
pub use xml::XmlReader;

/// What one DiskSpd run says about a target before it ran (`-b`, `-w`,
/// `-o`, `-t`, `-r`/`-s`).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct TargetSpec {
    pub path: String,
    pub block_size: u64,
    /// `-w`: percent of I/Os that are writes.
    pub write_ratio: u32,
    /// `-r` (or a random/sequential mix, `-rs`): random offsets.
    pub random: bool,
    /// `-o`: outstanding I/Os per thread per target.
    pub outstanding: u32,
    /// `-t`: threads per target; None with `-F` (threads shared by all targets).
    pub threads_per_file: Option<u32>,
    /// `-Sh`/`-Su`: the OS cache bypassed.
    pub direct: Option<bool>,
}

/// One direction of one thread on one target.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct DirCount {
    pub bytes: u64,
    pub ios: u64,
    /// DiskSpd's own I/O per second, where it printed it (text output).
    pub iops: Option<f64>,
    /// Mean and standard deviation of the latency, ms.
    pub lat_mean_ms: Option<f64>,
    pub lat_stddev_ms: Option<f64>,
    /// Standard deviation of the per-interval IOPS (`-D`).
    pub iops_stddev: Option<f64>,
}

/// The counts of one thread on one target.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Count {
    pub thread: u32,
    pub path: String,
    /// Read, then write.
    pub dir: [DirCount; 2],
    /// Per-interval I/O counts (XML `-D` buckets), read and write.
    pub buckets: Vec<[f64; 2]>,
}

/// Whole-run figures of one direction, as DiskSpd prints them under the
/// per-thread tables: they cover every target.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct DirTotals {
    pub count: DirCount,
    /// Latency percentiles: (percentile 0-100, ms); 0 is the minimum, 100
    /// the maximum.
    pub percentiles: Vec<(f64, f64)>,
    /// Per-interval IOPS of the whole run (XML `-D` buckets).
    pub buckets: Vec<f64>,
}

/// Latency percentiles: (percentile 0-100, ms); 0 is the minimum, 100 the
/// maximum.
pub(crate) type Percentiles = Vec<(f64, f64)>;

/// One measured timespan of one DiskSpd run.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Timespan {
    /// `2.0.21a` from the XML's `<Tool>`; text output never prints it.
    pub version: Option<String>,
    /// `diskspd-text`, `diskspd-xml`.
    pub format: &'static str,
    /// `windows` or `linux` (the port).
    pub os: Os,
    /// The I/O interface (`iocp` on Windows, `libaio`/`posixaio` on Linux).
    pub engine: String,
    /// DiskSpd's name for the section: `timespan 1`, `job 1`.
    pub name: String,
    pub targets: Vec<TargetSpec>,
    /// Measured time, seconds, as printed.
    pub time_s: f64,
    /// Step the printed time is known to (0.01 s on Windows, 1 s in the port).
    pub time_step_s: f64,
    /// `-D` interval, ms.
    pub interval_ms: Option<u32>,
    pub counts: Vec<Count>,
    /// Read, then write.
    pub totals: [DirTotals; 2],
    /// Percentile tables per target (text output before 2.2 prints one
    /// per target when there are several): path, read and write.
    pub target_percentiles: Vec<(String, [Percentiles; 2])>,
    /// Whole-system CPU usage, percent (DiskSpd's average over all CPUs).
    pub cpu_usage_pct: Option<f64>,
    /// What the reader noticed and the user should know.
    pub warnings: Vec<String>,
}

const DIRS: [Direction; 2] = [Direction::Read, Direction::Write];

/// The rows of a run: one per target and direction that did I/O. What
/// DiskSpd measured wins: a block size its parameters lack or give as 0,
/// or that its bytes per I/O contradict, is the bytes per I/O, said in
/// `warnings`.
pub(crate) fn rows(run: &Timespan, warnings: &mut Vec<String>) -> Vec<Row> {
    let mut paths: Vec<&str> = Vec::new();
    for c in &run.counts {
        if !paths.contains(&c.path.as_str()) {
            paths.push(&c.path);
        }
    }
    let single = paths.len() == 1;
    let mut out = Vec::new();
    for (t, path) in paths.iter().enumerate() {
        let counts: Vec<&Count> = run.counts.iter().filter(|c| c.path == *path).collect();
        let spec = target_spec(run, path, t);
        let threads = spec
            .and_then(|s| s.threads_per_file)
            .unwrap_or(counts.len() as u32);
        for (d, dir) in DIRS.into_iter().enumerate() {
            let whole = single.then(|| &run.totals[d]);
            let (mut merged, summed) = match whole {
                // One target: the whole run's line is the target's, and it
                // holds every thread even where a capture lost some rows.
                Some(w) if w.count.ios > 0 => (w.count, 1),
                _ => (merge(counts.iter().map(|c| &c.dir[d])), counts.len()),
            };
            if let Some(w) = whole {
                // The XML keeps the run's latency apart from its counts.
                merged.lat_mean_ms = merged.lat_mean_ms.or(w.count.lat_mean_ms);
                merged.lat_stddev_ms = merged.lat_stddev_ms.or(w.count.lat_stddev_ms);
            }
            if merged.ios == 0 {
                continue;
            }
            let mut row = base_row(run, path, spec, threads, dir);
            if spec.is_none() {
                unknown_spec(&mut row, &counts, &merged);
            } else if let Some(note) = measured_block_size(&mut row, &merged) {
                warnings.push(format!("{path} {dir}: {note}"));
            }
            let mut figures = measures(run, &merged, summed);
            let own = run
                .target_percentiles
                .iter()
                .find(|(p, _)| p == path)
                .map(|(_, t)| &t[d]);
            fill_percentiles(&mut figures, own.or(whole.map(|w| &w.percentiles)));
            fill_samples(&mut figures, run, &counts, whole, d);
            figures.apply(&mut row);
            out.push(row);
        }
    }
    out
}

/// The spec of a target by its path, else by position, else the only one.
fn target_spec<'a>(run: &'a Timespan, path: &str, index: usize) -> Option<&'a TargetSpec> {
    let by_path = run.targets.iter().find(|s| s.path == path);
    by_path
        .or_else(|| (run.targets.len() == 1).then(|| &run.targets[0]))
        .or_else(|| run.targets.get(index))
}

/// What the run and target say before any measurement.
fn base_row(
    run: &Timespan,
    path: &str,
    spec: Option<&TargetSpec>,
    threads: u32,
    dir: Direction,
) -> Row {
    let mut row = Row::empty("", dir);
    let spec = spec.cloned().unwrap_or_default();
    row.tool = "diskspd".into();
    row.tool_version = run.version.clone();
    row.format = run.format.into();
    row.engine = run.engine.clone();
    row.os = crate::model::os::infer(&run.engine, Some(path), Some(run.os.clone()));
    row.job = run.name.clone();
    row.filename = Some(path.to_string());
    row.bs_bytes = spec.block_size;
    row.iodepth = spec.outstanding.max(1);
    // Threads that reported on this target: `-t` per target, or all of
    // `-F`'s threads, each of which works on every target.
    row.numjobs = threads.max(1);
    row.rw = rw_of(spec.random, spec.write_ratio).as_str().into();
    row.rwmixread =
        (spec.write_ratio > 0 && spec.write_ratio < 100).then(|| 100 - spec.write_ratio);
    row.direct = spec.direct;
    row.system_cpu_pct = run.cpu_usage_pct;
    row
}

/// A run whose parameters were not captured: the block size from the
/// bytes per I/O where that is exact (DiskSpd does one size per target),
/// the pattern from the directions that did I/O (sequential, DiskSpd's
/// default). The reader warns.
fn unknown_spec(row: &mut Row, counts: &[&Count], merged: &DirCount) {
    if merged.ios > 0 && merged.bytes.is_multiple_of(merged.ios) {
        row.bs_bytes = merged.bytes / merged.ios;
    }
    let did = |d: usize| counts.iter().any(|c| c.dir[d].ios > 0);
    row.rw = match (did(0), did(1)) {
        (true, true) => Rw::ReadWrite,
        (false, true) => Rw::Write,
        _ => Rw::Read,
    }
    .as_str()
    .into();
}

/// The block size DiskSpd's bytes per I/O give, where the parameters'
/// is missing (0) or more than 1 % away from it: what was measured wins.
fn measured_block_size(row: &mut Row, merged: &DirCount) -> Option<String> {
    if merged.ios == 0 {
        return None;
    }
    let measured = merged.bytes as f64 / merged.ios as f64;
    let asked = row.bs_bytes as f64;
    if asked > 0.0 && crate::ingest::fio::block_size::agrees(asked, measured) {
        return None;
    }
    let was = row.bs_bytes;
    row.bs_bytes = measured.round() as u64;
    Some(match was {
        0 => format!(
            "block size {} from bytes per I/O (the parameters give none)",
            row.bs_bytes
        ),
        b => format!(
            "block size {} measured (bytes per I/O), not the parameters' {b}",
            row.bs_bytes
        ),
    })
}

/// fio's name for the access pattern.
fn rw_of(random: bool, write_ratio: u32) -> Rw {
    match (random, write_ratio) {
        (true, 0) => Rw::RandRead,
        (true, 100) => Rw::RandWrite,
        (true, _) => Rw::RandRw,
        (false, 0) => Rw::Read,
        (false, 100) => Rw::Write,
        (false, _) => Rw::ReadWrite,
    }
}

/// The threads of one target in one direction as one: counts summed,
/// latency averaged by I/Os, its spread pooled (within and between
/// threads), printed IOPS summed when every thread has one.
fn merge<'a>(parts: impl Iterator<Item = &'a DirCount>) -> DirCount {
    let parts: Vec<&DirCount> = parts.collect();
    let ios: u64 = parts.iter().map(|p| p.ios).sum();
    let bytes = parts.iter().map(|p| p.bytes).sum();
    let iops = parts.iter().map(|p| p.iops).sum::<Option<f64>>();
    let busy: Vec<&&DirCount> = parts.iter().filter(|p| p.ios > 0).collect();
    let weighted = |f: fn(&DirCount) -> Option<f64>| -> Option<f64> {
        let sum = busy
            .iter()
            .map(|p| f(p).map(|v| v * p.ios as f64))
            .sum::<Option<f64>>()?;
        (ios > 0).then(|| sum / ios as f64)
    };
    let lat_mean_ms = weighted(|p| p.lat_mean_ms);
    let lat_stddev_ms = lat_mean_ms.and_then(|m| {
        let second = weighted(|p| Some(p.lat_stddev_ms?.powi(2) + p.lat_mean_ms?.powi(2)))?;
        Some((second - m * m).max(0.0).sqrt())
    });
    DirCount {
        bytes,
        ios,
        iops,
        lat_mean_ms,
        lat_stddev_ms,
        // Threads' IOPS move together, so their spreads do not add; only
        // a lone thread's (or the printed total's) is known.
        iops_stddev: if parts.len() == 1 {
            parts[0].iops_stddev
        } else {
            None
        },
    }
}

/// Throughput and latency. IOPS are DiskSpd's own where it printed them
/// (they come from its exact measured time, which it prints rounded);
/// otherwise I/Os over the printed time, known to the time's rounding.
fn measures(run: &Timespan, merged: &DirCount, threads: usize) -> DirectionFigures {
    let ios = merged.ios as f64;
    // A sum of per-thread figures printed to 0.01 is known to 0.01 each.
    let printed = merged.iops.map(|v| (v, 0.01 * threads.max(1) as f64));
    let secs = run.time_s;
    let from_time = (ios / secs, ios * run.time_step_s / (secs * secs));
    // Whichever is known more closely, relative to its size: the printed
    // IOPS of a busy run, the printed time of a run of a few I/Os.
    let (iops, precision, secs) = match printed {
        Some((iops, step)) if iops > 0.0 && step / iops <= from_time.1 / from_time.0 => {
            (iops, step, ios / iops)
        }
        _ => (from_time.0, from_time.1.max(f64::EPSILON), secs),
    };
    DirectionFigures {
        iops,
        iops_precision: precision,
        runtime_ms: secs * 1000.0,
        io_bytes: merged.bytes,
        bw_bytes_per_s: merged.bytes as f64 / secs,
        bw_precision: precision * merged.bytes as f64 / ios,
        lat: Latency {
            mean: merged.lat_mean_ms.map(ms_to_ns),
            stddev: merged.lat_stddev_ms.map(ms_to_ns),
            ..Latency::default()
        },
        // Printed to the microsecond (`%.3f` ms), in text and XML alike.
        lat_precision_ns: 1000.0,
        ..DirectionFigures::default()
    }
}

fn ms_to_ns(ms: f64) -> f64 {
    ms * 1e6
}

/// DiskSpd's percentiles are of the latency from issue to completion:
/// fio's total latency (`lat_p*`), never `clat`; its 0th and 100th are
/// the minimum and maximum.
fn fill_percentiles(f: &mut DirectionFigures, table: Option<&Vec<(f64, f64)>>) {
    let Some(table) = table else { return };
    f.lat_percentiles = table.iter().map(|&(p, ms)| (p, ms_to_ns(ms))).collect();
    f.lat.min = percentile(&f.lat_percentiles, 0.0);
    f.lat.max = percentile(&f.lat_percentiles, 100.0);
}

/// The per-interval spread (`-D`): the intervals themselves where the XML
/// lists them, else DiskSpd's printed standard deviation with the number
/// of intervals the run's length holds.
fn fill_samples(
    f: &mut DirectionFigures,
    run: &Timespan,
    counts: &[&Count],
    whole: Option<&DirTotals>,
    d: usize,
) {
    let series: Vec<f64> = match whole {
        Some(w) if !w.buckets.is_empty() => w.buckets.clone(),
        _ => summed_buckets(counts, d),
    };
    let printed = whole.and_then(|w| w.count.iops_stddev).or(match counts {
        [one] => one.dir[d].iops_stddev,
        _ => None,
    });
    // DiskSpd writes each interval already as I/Os per second.
    if series.len() >= 2 {
        let n = series.len() as f64;
        let mean = series.iter().sum::<f64>() / n;
        // DiskSpd's own figure where it printed one: it divides by n (the
        // intervals are the whole run, not a sample of it).
        let var = series.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        f.iops_samples = Samples {
            n: Some(series.len() as u64),
            mean: Some(mean),
            stddev: Some(printed.unwrap_or(var.sqrt())),
        };
        return;
    }
    let stddev = printed;
    if let (Some(sd), Some(ms)) = (stddev, run.interval_ms) {
        let n = (f.runtime_ms / f64::from(ms.max(1))).round() as u64;
        f.iops_samples = Samples {
            n: Some(n),
            mean: Some(f.iops),
            stddev: Some(sd),
        };
    }
}

/// Per-interval I/O counts of a target's threads, summed interval by interval.
fn summed_buckets(counts: &[&Count], d: usize) -> Vec<f64> {
    let len = counts.iter().map(|c| c.buckets.len()).min().unwrap_or(0);
    (0..len)
        .map(|i| counts.iter().map(|c| c.buckets[i][d]).sum())
        .collect()
}

/// A size as DiskSpd prints it: `4096`, `4KiB`, `1.50MiB`, `67108864B`.
pub(crate) fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let value: f64 = num.parse().ok()?;
    let shift = match unit.trim() {
        "" | "B" => 0,
        "KiB" | "K" | "KB" => 10,
        "MiB" | "M" | "MB" => 20,
        "GiB" | "G" | "GB" => 30,
        "TiB" | "T" | "TB" => 40,
        _ => return None,
    };
    let bytes = value * (1u64 << shift) as f64;
    (bytes.is_finite() && bytes >= 0.0).then(|| bytes.round() as u64)
}

#[cfg(test)]
mod tests;
