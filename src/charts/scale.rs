//! From base units (bytes/s, ns, IOPS, percent) to what a chart prints:
//! each metric's name, its display unit picked from the largest value, and
//! number formatting (thousands separators, fixed decimals).

use crate::compare::{Better, Metric};
use crate::units::GIB;

/// How a metric is printed on one chart.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Scale {
    /// Unit shown after values and on the axis; empty for plain counts.
    pub unit: &'static str,
    /// Base units per display unit.
    pub div: f64,
    pub decimals: usize,
    /// Signed values (deltas) print a `+`.
    pub signed: bool,
}

impl Scale {
    /// The scale for `metric` given the largest absolute value (base units)
    /// the chart shows.
    pub fn for_metric(metric: Metric, max: f64) -> Scale {
        let plain = |unit, div, decimals| Scale {
            unit,
            div,
            decimals,
            signed: false,
        };
        match metric {
            Metric::BwBytesPerS | Metric::BwPerCpuPct => {
                let per_cpu = metric == Metric::BwPerCpuPct;
                if max >= GIB / 10.0 {
                    plain(if per_cpu { "GiB/s per CPU %" } else { "GiB/s" }, GIB, 3)
                } else if max >= (1u64 << 20) as f64 / 10.0 {
                    let unit = if per_cpu { "MiB/s per CPU %" } else { "MiB/s" };
                    plain(unit, (1u64 << 20) as f64, 2)
                } else {
                    plain(if per_cpu { "KiB/s per CPU %" } else { "KiB/s" }, 1024.0, 1)
                }
            }
            Metric::Iops => plain("", 1.0, 0),
            Metric::IopsPerCpuPct => plain("", 1.0, if max >= 100.0 { 0 } else { 2 }),
            // Latency tables print ms; below 10 us that would be all zeros.
            Metric::LatMeanNs | Metric::ClatP99Ns => latency(max),
            Metric::CpuPct => plain("%", 1.0, 2),
        }
    }

    /// Percent change, for delta charts.
    pub fn delta() -> Scale {
        Scale {
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

    /// The step, in base units, that the printed value resolves.
    pub fn step(&self) -> f64 {
        self.div / 10f64.powi(self.decimals as i32)
    }

    /// `base` in display units, number only (bar labels: the unit is on
    /// the axis).
    pub fn format_bare(&self, base: f64) -> String {
        number(self.to_display(base), self.decimals, self.signed)
    }
}

/// Latency in the largest unit that keeps values readable.
pub(crate) fn latency(max_ns: f64) -> Scale {
    let (unit, div, decimals) = if max_ns >= 10_000.0 {
        ("ms", 1e6, 3)
    } else if max_ns >= 10.0 {
        ("µs", 1e3, 1)
    } else {
        ("ns", 1.0, 0)
    };
    Scale {
        unit,
        div,
        decimals,
        signed: false,
    }
}

/// `x` with `decimals` decimals and `,` between thousands.
pub(crate) fn number(x: f64, decimals: usize, signed: bool) -> String {
    if !x.is_finite() {
        return "n/a".into();
    }
    let s = format!("{:.*}", decimals, x.abs());
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (s.as_str(), None),
    };
    let mut grouped = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let negative = x < 0.0 && s.chars().any(|c| c.is_ascii_digit() && c != '0');
    let sign = if negative {
        "-"
    } else if signed && x > 0.0 {
        "+"
    } else {
        ""
    };
    match frac {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

/// Axis tick label: up to three decimals, trailing zeros dropped.
pub(crate) fn tick(x: f64) -> String {
    let decimals = if x.abs() >= 100.0 || x == 0.0 { 0 } else { 3 };
    let s = number(x, decimals, false);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Human name of a metric, for titles.
pub(crate) fn metric_name(metric: Metric) -> &'static str {
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

    #[test]
    fn numbers_are_grouped_and_signed() {
        assert_eq!(number(2636516.0, 0, false), "2,636,516");
        assert_eq!(number(999.0, 0, false), "999");
        assert_eq!(number(10.0576, 3, false), "10.058");
        assert_eq!(number(-17.34, 1, true), "-17.3");
        assert_eq!(number(5.0, 1, true), "+5.0");
        assert_eq!(number(-0.01, 1, true), "0.0");
        assert_eq!(tick(0.25), "0.25");
        assert_eq!(tick(1500.0), "1,500");
    }

    #[test]
    fn scales_follow_the_largest_value() {
        let bw = Scale::for_metric(Metric::BwBytesPerS, 10.058 * GIB);
        assert_eq!(bw.unit, "GiB/s");
        assert_eq!(bw.format_bare(10.058 * GIB), "10.058");
        let lat = Scale::for_metric(Metric::LatMeanNs, 3_828_000.0);
        assert_eq!(lat.format_bare(104_000.0), "0.104");
        assert_eq!(latency(5_000.0).format_bare(4_200.0), "4.2");
        assert_eq!(latency(5_000.0).unit, "µs");
        assert_eq!(Scale::for_metric(Metric::Iops, 1e6).step(), 1.0);
    }
}
