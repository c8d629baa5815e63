//! From base units (bytes/s, ns, IOPS, percent) to what a chart prints:
//! each metric's name, and its display unit: the report's one unit of
//! latency and of bandwidth ([`ReportUnits`]), as every table of the
//! report prints them; IOPS and CPU as the tables do. The numbers
//! themselves are written by [`crate::numbers`], as everywhere.

use crate::compare::report_units::ReportUnits;
use crate::compare::{Better, Metric, MetricResult};
use crate::numbers;

/// How a metric is printed on one chart.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ChartScale {
    /// Unit shown after values and on the axis; empty for plain counts.
    pub unit: &'static str,
    /// Base units per display unit.
    pub div: f64,
    /// Decimals of a lone value (a heat-grid cell); bars print their
    /// workload's row decimals ([`ChartScale::row_decimals`]).
    pub decimals: usize,
    /// Signed values (deltas) print a `+`.
    pub signed: bool,
}

impl ChartScale {
    /// The scale for `metric` given the largest absolute value (base units)
    /// the chart shows.
    pub fn for_metric(metric: Metric, max: f64) -> ChartScale {
        ChartScale::of_scale(metric, metric.scale(max))
    }

    /// The scale of `metric` in a report: its one unit of latency or
    /// bandwidth, else as [`ChartScale::for_metric`] from `max`.
    pub fn in_report(units: &ReportUnits, metric: Metric, max: f64) -> ChartScale {
        match metric.report_unit(units) {
            Some(_) => ChartScale::of_scale(metric, metric.scale_in(units)),
            None => ChartScale::for_metric(metric, max),
        }
    }

    fn of_scale(metric: Metric, s: crate::compare::metric::Scale) -> ChartScale {
        let unit = match (metric, s.unit) {
            (Metric::BwPerCpuPct, "GiB/s") => "GiB/s per CPU %",
            (Metric::BwPerCpuPct, "MiB/s") => "MiB/s per CPU %",
            (Metric::BwPerCpuPct, "B/s") => "B/s per CPU %",
            (Metric::BwPerCpuPct, _) => "KiB/s per CPU %",
            (_, unit) => unit,
        };
        ChartScale {
            unit,
            div: s.div,
            decimals: s.decimals,
            signed: false,
        }
    }

    /// Percent change, for delta charts.
    pub fn delta() -> ChartScale {
        ChartScale {
            unit: "%",
            div: 1.0,
            decimals: 1,
            signed: true,
        }
    }

    /// Value in display units.
    pub fn to_display(self, base: f64) -> f64 {
        base / self.div
    }

    /// The step, in base units, that a lone value resolves.
    pub fn step(&self) -> f64 {
        self.div / 10f64.powi(self.decimals as i32)
    }

    /// `base` in display units with `decimals`, number only (bar labels:
    /// the unit is on the axis).
    pub fn label(&self, base: f64, decimals: usize) -> String {
        let shown = self.to_display(base);
        if self.signed && self.unit == "%" && shown > numbers::RATIO_FROM_PCT {
            // Past +1000 % a ratio, as the tables print it.
            numbers::ratio(1.0 + shown / 100.0)
        } else if self.signed {
            numbers::signed(shown, decimals)
        } else {
            numbers::fixed(shown, decimals)
        }
    }

    /// Per result (a workload: one group of bars), the decimals its bars
    /// print with: one count across the configs, as a table row.
    pub fn row_decimals(&self, results: &[&MetricResult]) -> Vec<usize> {
        let table = crate::compare::metric::Scale {
            div: self.div,
            unit: self.unit,
            decimals: self.decimals,
            trim: false,
        };
        results.iter().map(|r| r.row_decimals(&table)).collect()
    }
}

/// Latency in the report's unit, the one its tables use.
pub(crate) fn latency(units: &ReportUnits) -> ChartScale {
    ChartScale::in_report(units, Metric::LatMeanNs, 0.0)
}

/// The latency scale of the report for `values_ns`, with their range in
/// display units (`(lowest, highest)`): the span a log latency axis pads
/// around.
pub(crate) fn latency_span(
    units: &ReportUnits,
    values_ns: impl Iterator<Item = f64> + Clone,
) -> (ChartScale, f64, f64) {
    let max_ns = values_ns.clone().fold(0.0, f64::max);
    let min_ns = values_ns.fold(f64::INFINITY, f64::min);
    let scale = latency(units);
    (scale, scale.to_display(min_ns), scale.to_display(max_ns))
}

/// Axis tick label: up to three decimals, trailing zeros dropped.
pub(crate) fn tick(x: f64) -> String {
    let decimals = if x.abs() >= 100.0 || x == 0.0 { 0 } else { 3 };
    numbers::trimmed(x, decimals)
}

/// Human name of a metric, for titles; the tail at its percentile
/// (`tail`: the comparison's `tail_percentile`).
pub(crate) fn metric_name(metric: Metric, tail: f64) -> std::borrow::Cow<'static, str> {
    match metric {
        Metric::ClatP99Ns => format!(
            "{} completion latency",
            crate::compare::workload::tail_name(tail)
        )
        .into(),
        m => metric_name_fixed(m).into(),
    }
}

fn metric_name_fixed(metric: Metric) -> &'static str {
    match metric {
        Metric::BwBytesPerS => "Bandwidth",
        Metric::Iops => "IOPS",
        Metric::LatMeanNs => "Mean latency",
        Metric::ClatP99Ns => "p99 completion latency",
        Metric::CpuPct => "CPU usage",
        Metric::IopsPerCpuPct => "IOPS per CPU %",
        Metric::BwPerCpuPct => "Bandwidth per CPU %",
    }
}

/// Short, path-safe name of a metric, for file names.
pub(crate) fn metric_slug(metric: Metric) -> &'static str {
    match metric {
        Metric::BwBytesPerS => "bw",
        Metric::Iops => "iops",
        Metric::LatMeanNs => "lat_mean",
        Metric::ClatP99Ns => "clat_p99",
        Metric::CpuPct => "cpu",
        Metric::IopsPerCpuPct => "iops_per_cpu",
        Metric::BwPerCpuPct => "bw_per_cpu",
    }
}

pub(crate) fn better_text(better: Better) -> &'static str {
    match better {
        Better::Higher => "higher is better",
        Better::Lower => "lower is better",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::GIB;

    #[test]
    fn scales_follow_the_largest_value_as_tables_do() {
        let bw = ChartScale::for_metric(Metric::BwBytesPerS, 10.058 * GIB);
        assert_eq!(bw.unit, "GiB/s");
        assert_eq!(bw.label(10.058 * GIB, 3), "10.058");
        assert_eq!(bw.label(6.1 * GIB, 3), "6.100");
        let lat = ChartScale::for_metric(Metric::LatMeanNs, 3_828_000.0);
        assert_eq!(lat.label(104_000.0, 3), "0.104");
        let us = ReportUnits::chosen(&[5_000.0], &[], Default::default());
        assert_eq!(latency(&us).unit, "µs");
        assert_eq!(latency(&us).label(4_200.0, 2), "4.20");
        let ms = ReportUnits::chosen(&[5e6], &[GIB], Default::default());
        assert_eq!(
            ChartScale::in_report(&ms, Metric::ClatP99Ns, 1.0).unit,
            "ms"
        );
        assert_eq!(
            ChartScale::in_report(&ms, Metric::BwBytesPerS, 1.0).unit,
            "GiB/s"
        );
        let per_cpu = ChartScale::for_metric(Metric::BwPerCpuPct, 200.0 * 1024.0 * 1024.0);
        assert_eq!(per_cpu.unit, "MiB/s per CPU %");
        assert_eq!(ChartScale::for_metric(Metric::Iops, 1e6).step(), 1.0);
        assert_eq!(ChartScale::delta().label(-17.34, 1), "-17.3");
        assert_eq!(ChartScale::delta().label(5.0, 2), "+5.00");
        assert_eq!(tick(0.25), "0.25");
        assert_eq!(tick(1500.0), "1,500");
    }
}
