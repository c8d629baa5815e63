//! What the sweep charts share: the sweep shapes they are drawn for, the
//! load axis (I/Os in flight on a log2 scale), the throughput metric a
//! block size is judged by, and latency axes that turn logarithmic when
//! the values span a wide range.

use crate::compare::report_units::ReportUnits;
use plotters::style::RGBColor;

use super::axis::linear_ticks;
use super::frame::Frame;
use super::lines::{Range, log_tick_labels};
use super::scale::{ChartScale, metric_name};
use crate::compare::sweep::curve;
use crate::compare::{Comparison, LoadPoint, Metric, Spread, Sweep, SweepPoint};
use crate::numbers;
use crate::render::sweeps::{self, SweepTable};

/// Block sizes from which a workload is judged by its bandwidth rather
/// than its IOPS (64 KiB and up: sequential and large-block work).
const BANDWIDTH_FROM_BS: u64 = 64 * 1024;

/// Latencies whose largest is this many times the smallest get a log axis.
const WIDE_RANGE: f64 = 10.0;

/// The sweep shapes of the comparison (see [`sweeps::tables`]).
pub(crate) fn tables(cmp: &Comparison) -> Vec<SweepTable<'_>> {
    sweeps::tables(cmp)
}

/// The shape at `index` of [`tables`]: chart kinds keep the index only.
pub(crate) fn table(cmp: &Comparison, index: usize) -> SweepTable<'_> {
    tables(cmp).swap_remove(index)
}

/// One chart per sweep shape, `make` given the shape's index: the plan of
/// a per-shape chart kind.
pub(crate) fn per_table<T>(cmp: &Comparison, make: impl Fn(usize) -> T) -> Vec<T> {
    (0..tables(cmp).len()).map(make).collect()
}

/// The file stem of a per-shape chart: `kind` and the shape's slug.
pub(crate) fn stem(cmp: &Comparison, kind: &str, index: usize) -> String {
    let t = table(cmp, index);
    // Sweeps along instances of one shape are one chart per held load.
    let held = t.held();
    format!(
        "{kind}_{}{}",
        super::names::workload_slug(t.workloads[0]),
        held.map(|h| super::names::load_slug(&h))
            .unwrap_or_default()
    )
}

/// The footer of a per-shape chart: the runs of every load point.
pub(crate) fn footer(cmp: &Comparison, index: usize) -> Option<String> {
    super::footer::line(table(cmp, index).workloads, None)
}

/// What the frame of a per-shape chart says: its title names the shape
/// and `what` is drawn, the legend the swept configs, the key the error
/// bars of `spreads`; the footnotes are the knee rule, `notes`, then the
/// configs that ran at another depth.
pub(crate) fn frame(
    cmp: &Comparison,
    t: &SweepTable,
    (what, subtitle): (&str, &str),
    spreads: &[Spread],
    notes: Vec<String>,
) -> Frame {
    let w = t.workloads[0];
    let mut footnotes = vec![knee_note(cmp, &t.sweeps)];
    footnotes.extend(saturation_note(cmp, &t.sweeps));
    footnotes.extend(excluded_notes(t));
    footnotes.extend(notes);
    footnotes.extend(depth_notes(&t.sweeps));
    Frame {
        // "write 4k (write): ...", a variant by its word instead
        // ("write 4k (overwrite-seq): ...").
        title: format!(
            "{}{}: {what}",
            match t.held() {
                Some(h) => format!("{} {}", super::labels::workload_label(w), h.label()),
                None => super::labels::workload_label(w),
            },
            match w.key.shape.variant {
                Some(_) => String::new(),
                None => format!(" ({})", w.key.shape.direction),
            }
        ),
        subtitle: Some(subtitle.into()),
        legend: super::legend::of(cmp, swept_configs(cmp, t)),
        keys: super::legend::spreads_key(spreads).into_iter().collect(),
        footnotes,
        ..Default::default()
    }
}

/// A sweep's points along the load axis: one per number of I/Os in flight
/// (the comparison's curve), in load order.
pub(crate) fn points(s: &Sweep) -> Vec<&SweepPoint> {
    curve(&s.points)
}

/// The x of a point of shape `t`: its device count where the shape's
/// sweeps vary devices alone (a count read as one: 1, 2, 3 devices), its
/// instances where they vary fio instances alone, else I/Os in flight
/// (iodepth x numjobs x hosts x instances) times the devices each job
/// spreads over (`LoadPoint::units`).
pub(crate) fn x_of(t: &SweepTable, p: &SweepPoint) -> f64 {
    match only_axis(&t.sweeps) {
        Some(Only::Devices) => f64::from(p.load.devices),
        // Apps beside a probe count as apps (like for like), not with it.
        Some(Only::Instances) if !p.load.probe => {
            f64::from(p.load.instances.saturating_sub(p.load.beside))
        }
        Some(Only::Instances) => f64::from(p.load.instances),
        Some(Only::Numjobs) => f64::from(p.load.numjobs),
        None => p.load.units() as f64,
    }
}

/// A load axis that varies alone and reads as a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Only {
    Devices,
    Instances,
    /// Jobs at one depth (on one device or several): drawn against
    /// numjobs (1-15 jobs), not I/Os in flight (x devices: 1,024-15,360).
    Numjobs,
}

/// Whether every point of `sweeps` shares its load but for the device
/// count, or but for the instances count (and that count varies).
fn only_axis(sweeps: &[&Sweep]) -> Option<Only> {
    let first = sweeps.first().and_then(|s| s.points.first())?.load;
    let points = || sweeps.iter().flat_map(|s| &s.points);
    let jobs_only = points().all(|p| {
        let l = p.load;
        (l.iodepth, l.hosts, l.devices, l.instances)
            == (first.iodepth, first.hosts, first.devices, first.instances)
    });
    if jobs_only && points().any(|p| p.load.numjobs != first.numjobs) {
        return Some(Only::Numjobs);
    }
    let rest = |p: &SweepPoint| (p.load.iodepth, p.load.numjobs, p.load.hosts);
    let fixed = points().all(|p| rest(p) == (first.iodepth, first.numjobs, first.hosts));
    if !fixed {
        return None;
    }
    let varies = |f: fn(&LoadPoint) -> u32| points().any(|p| f(&p.load) != f(&first));
    match (varies(|l| l.devices), varies(|l| l.instances)) {
        (true, false) => Some(Only::Devices),
        (false, true) => Some(Only::Instances),
        _ => None,
    }
}

/// The comparison's spread of `metric` for `config` at point `p` of the
/// shape `t`: what its error bar is drawn from.
pub(crate) fn spread_at(
    t: &SweepTable,
    config: &str,
    p: &SweepPoint,
    metric: Metric,
) -> Option<Spread> {
    let w = t.workloads.iter().find(|w| w.key.load == p.load)?;
    let s = w.metric(metric)?.spread.get(config).copied()?;
    (s.stddev.is_finite() && s.stddev > 0.0).then_some(s)
}

/// The colour of a config: its place in the comparison's display order.
pub(crate) fn color_of(cmp: &Comparison, config: &str) -> RGBColor {
    let i = cmp.configs.iter().position(|c| c == config).unwrap_or(0);
    super::palette::color(i)
}

/// Indices (display order) of the configs with a sweep in `t`.
pub(crate) fn swept_configs(cmp: &Comparison, t: &SweepTable) -> Vec<usize> {
    (0..cmp.configs.len())
        .filter(|i| t.sweep_of(&cmp.configs[*i]).is_some())
        .collect()
}

/// A log2 axis over `xs` with a little room on both sides.
pub(crate) fn log2_range(xs: impl Iterator<Item = f64>) -> Range {
    let (lo, hi) = xs.fold((f64::INFINITY, 0.0f64), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (1.0, 2.0) };
    Range::Log(lo / 1.3, hi * 1.3)
}

/// Ticks at the powers of two inside `range`, every other one when there
/// would be more than twelve; `label` prints one.
pub(crate) fn log2_ticks(range: Range, label: impl Fn(f64) -> String) -> Vec<(f64, String)> {
    let Range::Log(lo, hi) = range else {
        return Vec::new();
    };
    if !(lo > 0.0 && lo <= hi && hi.is_finite()) {
        return Vec::new();
    }
    let (a, b) = (lo.log2().ceil() as i32, hi.log2().floor() as i32);
    // Every other power past twelve; fewer still on a range no load
    // sweep makes (data never sizes the list).
    let step = match b - a {
        ..=12 => 1,
        13..=24 => 2,
        n => n as usize / 12 + 1,
    };
    (a..=b)
        .step_by(step)
        .map(|e| 2f64.powi(e))
        .map(|x| (x, label(x)))
        .collect()
}

/// The load axis' title: queue depth when only iodepth varies, else I/Os
/// in flight; the scale when it is log2. Along fio instances, whether
/// each instance ran this workload or some ran others beside it (a
/// latency probe beside throughput jobs), counted all the same.
pub(crate) fn x_title(cmp: &Comparison, sweeps: &[&Sweep], log: bool) -> String {
    let points = || sweeps.iter().flat_map(|s| &s.points);
    let depth_only = points().all(|p| p.load.numjobs == 1 && p.load.hosts == 1);
    let scale = if log { ", log2 scale" } else { "" };
    let first = sweeps[0].points[0].load;
    match only_axis(sweeps) {
        Some(Only::Devices) => {
            let each = LoadPoint {
                devices: 1,
                ..first
            };
            return format!("Devices per job (each job at {})", each.label());
        }
        Some(Only::Numjobs) => {
            let each = LoadPoint {
                numjobs: 1,
                ..first
            };
            return format!("Jobs (numjobs; each job at {}{scale})", each.label());
        }
        Some(Only::Instances) => {
            let each = LoadPoint {
                instances: 1,
                beside: 0,
                probe: false,
                ..first
            };
            // Apps beside a probe: the axis counts the apps (x_of).
            if points().all(|p| p.load.beside > 0 && !p.load.probe) {
                return format!(
                    "Apps running together (fio instances, each at {}{scale}), a latency probe beside them",
                    each.label()
                );
            }
            return match beside_others(cmp, sweeps) {
                true => format!(
                    "fio instances running together, every workload counted ({} here{scale})",
                    each.label()
                ),
                false => format!(
                    "fio instances running together (each at {}{scale})",
                    each.label()
                ),
            };
        }
        None => {}
    }
    if points().any(|p| p.load.devices > 1) {
        format!("I/Os in flight × devices per job (iodepth × numjobs × devices{scale})")
    } else if depth_only {
        format!("Queue depth (iodepth{scale})")
    } else {
        format!("I/Os in flight (iodepth × numjobs{scale})")
    }
}

/// Whether some point of these instance sweeps ran beside instances of
/// another workload: the comparison has another workload (another shape,
/// or this shape at another depth, jobs or devices) at the same count of
/// instances. Two separate groups of that size would read as one mixed
/// group, and the title then says only what is true of both.
fn beside_others(cmp: &Comparison, sweeps: &[&Sweep]) -> bool {
    let alone = |l: LoadPoint| LoadPoint { instances: 1, ..l };
    sweeps
        .iter()
        .flat_map(|s| s.points.iter().map(move |p| (s, p)))
        .any(|(s, p)| {
            p.load.instances > 1
                && cmp.workloads.iter().any(|w| {
                    w.key.load.instances == p.load.instances
                        && (w.key.shape != s.shape || alone(w.key.load) != alone(p.load))
                })
        })
}

/// What a shape's throughput is shown as: IOPS for small blocks,
/// bandwidth for large ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Throughput {
    Iops,
    Bandwidth,
}

impl Throughput {
    pub fn of(bs_bytes: u64) -> Throughput {
        if bs_bytes >= BANDWIDTH_FROM_BS {
            Throughput::Bandwidth
        } else {
            Throughput::Iops
        }
    }

    pub fn metric(self) -> Metric {
        match self {
            Throughput::Iops => Metric::Iops,
            Throughput::Bandwidth => Metric::BwBytesPerS,
        }
    }

    /// The point's value, base units.
    pub fn value(self, p: &SweepPoint) -> f64 {
        match self {
            Throughput::Iops => p.iops,
            Throughput::Bandwidth => p.bw_bytes_per_s,
        }
    }
}

/// A linear axis from 0 to a little above `max` (display units), its
/// ticks and the title "IOPS" or "Bandwidth (GiB/s)".
pub(crate) fn value_axis(
    metric: Metric,
    max_base: f64,
    units: Option<&ReportUnits>,
) -> (ChartScale, Range, Vec<(f64, String)>, String) {
    let scale = match units {
        Some(u) => ChartScale::in_report(u, metric, max_base),
        None => ChartScale::for_metric(metric, max_base),
    };
    let hi = (scale.to_display(max_base) * 1.1).max(f64::MIN_POSITIVE);
    let (ticks, decimals) = linear_ticks(0.0, hi, 6);
    let ticks = ticks
        .into_iter()
        .map(|t| (t, numbers::fixed(t, decimals)))
        .collect();
    let title = match scale.unit {
        "" => metric_name(metric, crate::compare::workload::P99).to_string(),
        u => format!(
            "{} ({u})",
            metric_name(metric, crate::compare::workload::P99)
        ),
    };
    (scale, Range::Linear(0.0, hi), ticks, title)
}

/// Like [`value_axis`], but logarithmic when `values` (base units) span
/// [`WIDE_RANGE`] or more: IOPS across block sizes fall a hundredfold.
pub(crate) fn value_axis_wide(
    metric: Metric,
    values: &[f64],
    units: &ReportUnits,
) -> (ChartScale, Range, Vec<(f64, String)>, String) {
    let (min, max) = span(values);
    let (scale, range, ticks, title) = value_axis(metric, max, Some(units));
    if !(min.is_finite() && max / min >= WIDE_RANGE) {
        return (scale, range, ticks, title);
    }
    let (lo, hi) = (scale.to_display(min) / 1.4, scale.to_display(max) * 1.4);
    (
        scale,
        Range::Log(lo, hi),
        log_tick_labels(lo, hi),
        format!("{title}, log scale"),
    )
}

/// A latency axis over `values` (ns), in the report's latency unit: log
/// when they span [`WIDE_RANGE`] or more, else linear from 0. Returns the
/// scale, range, ticks and whether it is log.
pub(crate) fn latency_axis(
    values: &[f64],
    units: &ReportUnits,
) -> (ChartScale, Range, Vec<(f64, String)>, bool) {
    let (min, max) = span(values);
    let scale = super::scale::latency(units);
    let (lo, hi) = (scale.to_display(min), scale.to_display(max));
    if min.is_finite() && max / min >= WIDE_RANGE {
        let (lo, hi) = (lo / 1.4, hi * 1.4);
        // Each tick with the unit (0.05 ms, 1 ms): the title names none.
        let ticks = super::lines::latency_log_ticks(lo, hi, scale);
        return (scale, Range::Log(lo, hi), ticks, true);
    }
    let hi = (hi * 1.1).max(f64::MIN_POSITIVE);
    let (ticks, decimals) = linear_ticks(0.0, hi, 6);
    let ticks = ticks
        .into_iter()
        .map(|t| (t, numbers::fixed(t, decimals)))
        .collect();
    (scale, Range::Linear(0.0, hi), ticks, false)
}

/// The smallest positive value (infinite when there is none) and the
/// largest (0 when there is none) of `values`: the span that decides
/// whether an axis turns logarithmic.
fn span(values: &[f64]) -> (f64, f64) {
    let max = values.iter().copied().fold(0.0, f64::max);
    let min = values
        .iter()
        .copied()
        .filter(|v| *v > 0.0)
        .fold(f64::INFINITY, f64::min);
    (min, max)
}

/// The knee rule as a footnote, or that no config reached one.
pub(crate) fn knee_note(cmp: &Comparison, sweeps: &[&Sweep]) -> String {
    let r = &cmp.sweep_rules;
    let method = "Kneedle, Satopää et al. 2011";
    if sweeps.iter().any(|s| s.knee.is_some()) {
        format!(
            "Knee (ringed): where the IOPS curve turns flat ({method}) while mean latency grows more than {} % past it.",
            numbers::fixed(r.knee_lat_growth_pct, 0)
        )
    } else {
        format!("No knee: no IOPS curve rises and then turns flat ({method}).")
    }
}

/// The values of the shape left out of the comparison, so not drawn: one
/// line per metric, config and reason, with the load points it covers.
pub(crate) fn excluded_notes(t: &SweepTable) -> Vec<String> {
    let notes = [Metric::Iops, Metric::LatMeanNs, Metric::ClatP99Ns]
        .into_iter()
        .flat_map(|m| {
            let (loads, results): (Vec<String>, Vec<_>) = t
                .workloads
                .iter()
                .filter_map(|w| Some((w.key.load.label(), w.metric(m)?)))
                .unzip();
            let tail = results
                .first()
                .map_or(crate::compare::workload::P99, |r| r.tail_pct);
            super::notes::excluded_notes(&metric_name(m, tail), &loads, &results)
        })
        .collect();
    crate::render::cell::merge_metrics(notes)
}

/// What the saturation square means, when some config has one.
pub(crate) fn saturation_note(cmp: &Comparison, sweeps: &[&Sweep]) -> Option<String> {
    sweeps.iter().any(|s| s.saturation.is_some()).then(|| {
        format!(
            "Saturation (square): the lightest load point at {} % of the config's peak IOPS.",
            numbers::trimmed(cmp.sweep_rules.saturation_pct, 1)
        )
    })
}

/// The load axis of a shape's charts, as its sweeps vary the load: log2
/// where every config's loads double ([`crate::compare::sweep::log_axis`]),
/// else linear; ticked at the measured loads when they are few (on log2,
/// when they are not all powers of two), else at round values.
pub(crate) fn load_axis(t: &SweepTable) -> (Range, Vec<(f64, String)>, bool) {
    let curves: Vec<Vec<u64>> = t
        .sweeps
        .iter()
        .map(|s| points(s).iter().map(|p| p.load.units()).collect())
        .collect();
    // A device count reads as counted: 1, 2, 3 devices, linear.
    let log = match only_axis(&t.sweeps) {
        Some(Only::Devices) | Some(Only::Numjobs) => false,
        Some(Only::Instances) => {
            let mut counts: Vec<u64> = t
                .sweeps
                .iter()
                .flat_map(|s| points(s))
                .map(|p| x_of(t, p) as u64)
                .collect();
            counts.sort_unstable();
            counts.dedup();
            crate::compare::sweep::log_axis(&counts)
        }
        None => curves.iter().all(|c| crate::compare::sweep::log_axis(c)),
    };
    let xs = || t.sweeps.iter().flat_map(|s| points(s)).map(|p| x_of(t, p));
    let mut loads: Vec<f64> = xs().collect();
    loads.sort_by(f64::total_cmp);
    loads.dedup();
    let measured = || loads.iter().map(|v| (*v, numbers::fixed(*v, 0))).collect();
    if log {
        let x = log2_range(loads.iter().copied());
        // Loads that double from other than a power of two (1, 2, 3, 5,
        // 9, 17 instances; 3, 6, 12 jobs) are ticked where they are.
        let off_powers = loads.iter().any(|v| v.log2().fract() != 0.0);
        let ticks = match off_powers && loads.len() <= 12 {
            true => measured(),
            false => log2_ticks(x, |v| numbers::fixed(v, 0)),
        };
        return (x, ticks, true);
    }
    // Sorted: the first load is the lightest, the last the heaviest.
    let (lo, hi) = match (loads.first(), loads.last()) {
        (Some(lo), Some(hi)) => (*lo, *hi),
        _ => (0.0, 1.0),
    };
    let pad = ((hi - lo) * 0.05).max(0.5);
    let ticks = if loads.len() <= 12 {
        measured()
    } else {
        let (ticks, decimals) = linear_ticks(lo, hi, 8);
        ticks
            .into_iter()
            .filter(|t| (lo..=hi).contains(t))
            .map(|t| (t, numbers::fixed(t, decimals)))
            .collect()
    };
    (Range::Linear((lo - pad).max(0.0), hi + pad), ticks, false)
}

/// "psync ran at queue depth 1 at 5 of its load points": configs whose
/// points ran at another depth than asked, so a reader does not take
/// their x for their real depth.
pub(crate) fn depth_notes(sweeps: &[&Sweep]) -> Vec<String> {
    sweeps
        .iter()
        .filter_map(|s| {
            let other: Vec<u32> = s
                .points
                .iter()
                .filter_map(|p| p.effective_iodepth.filter(|d| *d != p.load.iodepth))
                .collect();
            let first = *other.first()?;
            let depth = if other.iter().all(|d| *d == first) {
                format!("queue depth {first}")
            } else {
                "another queue depth".into()
            };
            Some(format!(
                "{} ran at {depth} at {} of its {} load points, not the depth drawn.",
                s.config,
                other.len(),
                s.points.len()
            ))
        })
        .collect()
}
