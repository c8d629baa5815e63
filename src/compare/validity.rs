//! Which metric values fio measured wrongly, or could not measure, for a
//! config: those values stay in the tables, marked, and enter no winner,
//! tie, delta, finding, outlier or chart (`MetricResult::excluded`).
//!
//! The checks, each a reason a reviewer would accept:
//!
//! - **Completion latency not measured from submission.** Total latency
//!   (submission to completion) can never be below completion latency
//!   (a part of it). fio's io_uring engine with `sqthread_poll=1` lets a
//!   kernel thread submit, and fio's clat then runs from a stale
//!   timestamp: measured here with fio 3.33, clat 607 s against a total
//!   latency of 1.5 ms. The clat percentiles (the p99 row) are then not
//!   latencies at all.
//! - **No latency measured.** `gtod_reduce=1` (or `disable_lat`) makes fio
//!   take no timestamps: every latency reads 0 while I/O was done. A 0 ms
//!   mean latency would otherwise "win".
//! - **Whole-system CPU above 100 %.** Not a share of the machine.
//! - **Figures that contradict what fio measured.** fio computes
//!   bandwidth as `io_bytes / runtime` and IOPS as `total_ios / runtime`;
//!   a bandwidth or IOPS more than [`CONSISTENCY_TOLERANCE`] away from
//!   those (IOPS 1e308 beside a few megabytes moved), or a runtime of 0
//!   (or of centuries) with I/O done, is not a measurement.
//! - **No figure at all.** A value that is not finite, negative, a
//!   denormal or absurdly large ([`numbers::is_plausible`]): a hostile or
//!   corrupt file's IOPS of 1e308 would otherwise win, and a p99 of
//!   1e-320 ns size a chart's axis.
//! - **A p99 from too few I/Os.** Under [`MIN_IOS_FOR_P99`] completions the
//!   99th percentile is the slowest one or two I/Os: noise, not a tail.

use super::cell::ConfigCell;
use super::comparison::Metric;
use super::workload::Run;
use crate::numbers;

/// Fewest I/Os whose 99th percentile means something: a hundred puts at
/// least one I/O above it.
pub const MIN_IOS_FOR_P99: f64 = 100.0;

/// How far bandwidth and IOPS may stray from bytes and I/Os over runtime
/// and still be fio's own figures: jobs combined into one run keep the
/// longest runtime, and text output rounds each figure separately, but
/// neither moves a figure by a quarter.
pub const CONSISTENCY_TOLERANCE: f64 = 0.25;

/// The longest runtime a run can have, ms (about three years): a longer
/// one is a broken figure (`TestTimeSeconds` of 1e308).
const MAX_RUNTIME_MS: f64 = 1e11;

/// Why `m`'s value for this config is not a measurement, if it is not.
pub(super) fn exclusion(m: Metric, cell: &ConfigCell) -> Option<String> {
    let runs = &cell.runs;
    if let Some(why) = not_a_figure(m, runs) {
        return Some(why);
    }
    match m {
        Metric::ClatP99Ns => clat_not_from_submission(runs)
            .or_else(|| no_latency(runs))
            .or_else(|| too_few_ios(runs)),
        Metric::LatMeanNs => no_latency(runs),
        Metric::CpuPct => cpu_over_100(runs),
        Metric::IopsPerCpuPct => cpu_over_100(runs).or_else(|| inconsistent(Metric::Iops, runs)),
        Metric::BwPerCpuPct => {
            cpu_over_100(runs).or_else(|| inconsistent(Metric::BwBytesPerS, runs))
        }
        Metric::BwBytesPerS | Metric::Iops => inconsistent(m, runs),
    }
}

/// Bandwidth or IOPS that bytes (or I/Os) over runtime contradict, or a
/// runtime no run can have with I/O done.
fn inconsistent(m: Metric, runs: &[Run]) -> Option<String> {
    runs.iter().find_map(|r| {
        if r.io_bytes <= 0.0 {
            return None;
        }
        if !(r.runtime_ms > 0.0 && r.runtime_ms < MAX_RUNTIME_MS) {
            return Some(format!(
                "a runtime of {} ms with {} bytes done is not a measurement ({})",
                numbers::short(r.runtime_ms),
                numbers::fixed(r.io_bytes, 0),
                r.source
            ));
        }
        let (value, precision, derived, what) = match m {
            Metric::BwBytesPerS => (
                r.bw,
                r.bw_precision,
                r.io_bytes * 1000.0 / r.runtime_ms,
                "io_bytes / runtime",
            ),
            Metric::Iops if r.bs_bytes > 0 => (
                r.iops,
                r.iops_precision,
                r.ios * 1000.0 / r.runtime_ms,
                "I/Os / runtime",
            ),
            _ => return None,
        };
        ((value - derived).abs() > CONSISTENCY_TOLERANCE * derived + precision).then(|| {
            format!(
                "{} {} contradicts {what} ({}) ({})",
                m.human(),
                numbers::short(value),
                numbers::short(derived),
                r.source
            )
        })
    })
}

/// A figure no measurement can have: not finite, negative, a denormal,
/// or beyond [`numbers::MAX_MAGNITUDE`] (IOPS 1e308, a latency of
/// 1e-320 ns). It would win every comparison, or size an axis.
fn not_a_figure(m: Metric, runs: &[Run]) -> Option<String> {
    let bad = runs
        .iter()
        .filter_map(|r| m.raw_of_run(r))
        .find(|v| !(*v >= 0.0 && numbers::is_plausible(*v)))?;
    Some(format!(
        "{bad:e} is no measurement (a figure is finite, not negative, and 0 or {:e} to {:e})",
        numbers::MIN_MAGNITUDE,
        numbers::MAX_MAGNITUDE
    ))
}

/// "with sqthread_poll=1" when the options say why, else nothing.
fn because(runs: &[Run], options: &[&str]) -> String {
    options
        .iter()
        .find_map(|o| runs.iter().find_map(|r| r.timing_option(o)))
        .map(|kv| format!(" with {kv}"))
        .unwrap_or_default()
}

fn clat_not_from_submission(runs: &[Run]) -> Option<String> {
    let bad = runs.iter().any(|r| match (r.lat, r.clat) {
        (Some(lat), Some(clat)) => lat + r.lat_precision < clat,
        _ => false,
    });
    bad.then(|| {
        format!(
            "fio's completion latency is not measured from submission{} (mean total latency is below mean completion latency)",
            because(runs, &["sqthread_poll"])
        )
    })
}

/// Latency read 0 with I/O done, or left out because the job's options
/// turned fio's timestamps off. A reader that has no latency to give (an
/// output that does not print it) is not this: its cell is simply empty.
fn no_latency(runs: &[Run]) -> Option<String> {
    const OFF: [&str; 3] = ["gtod_reduce", "disable_lat", "disable_clat"];
    let none = runs.iter().all(|r| {
        let off = OFF.iter().any(|o| r.timing_option(o).is_some());
        r.iops > 0.0 && (r.lat == Some(0.0) || (off && r.lat.is_none_or(|l| l <= 0.0)))
    });
    none.then(|| {
        format!(
            "fio measured no latency{} (every latency reads 0)",
            because(runs, &OFF)
        )
    })
}

fn cpu_over_100(runs: &[Run]) -> Option<String> {
    let worst = runs
        .iter()
        .filter(|r| r.system_cpu)
        .map(|r| r.cpu)
        .fold(0.0, f64::max);
    (worst > 100.0 + 1e-9).then(|| {
        format!(
            "whole-system CPU {} % is above 100 % of the machine",
            numbers::fixed(worst, 2)
        )
    })
}

/// A tail percentile from too few I/Os: p99 needs [`MIN_IOS_FOR_P99`],
/// any p-th percentile 1 / (1 - p/100) (20 for p95), so that at least one
/// I/O lies above it.
fn too_few_ios(runs: &[Run]) -> Option<String> {
    let ios: f64 = runs.iter().map(|r| r.ios).sum();
    let has_tail = runs.iter().any(|r| r.clat_p99.is_some());
    let tail = runs.first().map_or(super::workload::P99, |r| r.tail_pct);
    let least = if super::workload::is_p99(&tail) {
        MIN_IOS_FOR_P99
    } else {
        (1.0 / (1.0 - tail / 100.0).max(1e-9)).ceil()
    };
    (has_tail && ios > 0.0 && ios < least).then(|| {
        format!(
            "its {} rests on {} I/Os (fewer than {})",
            super::workload::tail_name(tail),
            numbers::fixed(ios, 0),
            numbers::fixed(least, 0)
        )
    })
}
