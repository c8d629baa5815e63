//! Each metric's meaning in one place: its direction, how a run yields its
//! value and precision, its human name, and how it is shown (unit scale,
//! decimals). Renderers and highlights format through here so a figure
//! reads the same everywhere.

use super::model::{Better, Comparison, Metric};
use super::workload::Run;

/// Precision of CPU figures, percent (they are printed to 2 decimals).
pub const CPU_PRECISION: f64 = 0.01;

impl Metric {
    /// Every metric, in table order.
    pub const ALL: [Metric; 7] = [
        Metric::BwBytesPerS,
        Metric::Iops,
        Metric::LatMeanNs,
        Metric::ClatP99Ns,
        Metric::CpuPct,
        Metric::IopsPerCpuPct,
        Metric::BwPerCpuPct,
    ];

    pub fn better(self) -> Better {
        match self {
            Metric::LatMeanNs | Metric::ClatP99Ns | Metric::CpuPct => Better::Lower,
            _ => Better::Higher,
        }
    }

    /// The column name of CONTRACT.md (`bw_bytes_per_s`, ...).
    pub fn key(self) -> &'static str {
        match self {
            Metric::BwBytesPerS => "bw_bytes_per_s",
            Metric::Iops => "iops",
            Metric::LatMeanNs => "lat_mean_ns",
            Metric::ClatP99Ns => "clat_p99_ns",
            Metric::CpuPct => "cpu_pct",
            Metric::IopsPerCpuPct => "iops_per_cpu_pct",
            Metric::BwPerCpuPct => "bw_per_cpu_pct",
        }
    }

    /// Parses a key or a short alias (`bw`, `lat`, `cpu`, `p99`).
    pub fn parse(s: &str) -> Option<Metric> {
        let s = s.trim().to_ascii_lowercase();
        Metric::ALL
            .into_iter()
            .find(|m| m.key() == s)
            .or(match s.as_str() {
                "bw" | "bandwidth" => Some(Metric::BwBytesPerS),
                "lat" | "latency" => Some(Metric::LatMeanNs),
                "p99" | "clat_p99" => Some(Metric::ClatP99Ns),
                "cpu" => Some(Metric::CpuPct),
                _ => None,
            })
    }

    /// Name in sentences: "bandwidth", "mean latency".
    pub fn human(self) -> &'static str {
        match self {
            Metric::BwBytesPerS => "bandwidth",
            Metric::Iops => "IOPS",
            Metric::LatMeanNs => "mean latency",
            Metric::ClatP99Ns => "p99 latency",
            Metric::CpuPct => "CPU usage",
            Metric::IopsPerCpuPct => "IOPS per CPU %",
            Metric::BwPerCpuPct => "bandwidth per CPU %",
        }
    }

    /// Efficiency metrics are derived; they get no highlights of their own.
    pub fn is_derived(self) -> bool {
        matches!(self, Metric::IopsPerCpuPct | Metric::BwPerCpuPct)
    }

    /// Value of this metric for one run, base units.
    pub fn of_run(self, r: &Run) -> Option<f64> {
        let v = match self {
            Metric::BwBytesPerS => Some(r.bw),
            Metric::Iops => Some(r.iops),
            Metric::LatMeanNs => r.lat,
            Metric::ClatP99Ns => r.clat_p99,
            Metric::CpuPct => Some(r.cpu),
            Metric::IopsPerCpuPct => (r.cpu > 0.0).then(|| r.iops / r.cpu),
            Metric::BwPerCpuPct => (r.cpu > 0.0).then(|| r.bw / r.cpu),
        };
        v.filter(|v| v.is_finite() && *v >= 0.0)
    }

    /// Step a run's value is known to, base units.
    pub fn precision_of_run(self, r: &Run) -> f64 {
        // A ratio's rounding error is at most the sum of its parts' relative
        // errors (first-order propagation).
        let ratio = |num: f64, pnum: f64| {
            if r.cpu > 0.0 && num > 0.0 {
                num / r.cpu * (pnum / num + CPU_PRECISION / r.cpu)
            } else {
                0.0
            }
        };
        match self {
            Metric::BwBytesPerS => r.bw_precision,
            Metric::Iops => r.iops_precision,
            Metric::LatMeanNs | Metric::ClatP99Ns => r.lat_precision,
            Metric::CpuPct => CPU_PRECISION,
            Metric::IopsPerCpuPct => ratio(r.iops, r.iops_precision),
            Metric::BwPerCpuPct => ratio(r.bw, r.bw_precision),
        }
    }
}

/// How a metric is shown: divisor from base units, unit, decimals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    pub div: f64,
    pub unit: &'static str,
    pub decimals: usize,
    /// Drop trailing zeros (`97.050` -> `97.05`), as the article prints.
    pub trim: bool,
}

const KIB: f64 = 1024.0;
const MIB: f64 = KIB * 1024.0;
const GIB: f64 = MIB * 1024.0;

impl Metric {
    /// The scale for values up to `max` (base units).
    pub fn scale(self, max: f64) -> Scale {
        let s = |div, unit, decimals, trim| Scale {
            div,
            unit,
            decimals,
            trim,
        };
        let bw = |max: f64| {
            if max >= GIB {
                (GIB, "GiB/s")
            } else if max >= MIB {
                (MIB, "MiB/s")
            } else {
                (KIB, "KiB/s")
            }
        };
        match self {
            Metric::BwBytesPerS => {
                let (div, unit) = bw(max);
                s(div, unit, 3, true)
            }
            Metric::BwPerCpuPct => {
                let (div, unit) = bw(max);
                s(div, unit, 3, true)
            }
            Metric::Iops | Metric::IopsPerCpuPct => s(1.0, "", 0, false),
            Metric::LatMeanNs | Metric::ClatP99Ns => {
                if max >= 100_000.0 {
                    s(1e6, "ms", 3, true)
                } else {
                    s(1e3, "µs", 2, true)
                }
            }
            Metric::CpuPct => s(1.0, "%", 2, false),
        }
    }

    /// Row title with its unit: "Bandwidth (GiB/s)", "CPU (%)".
    pub fn title(self, scale: &Scale) -> String {
        match self {
            Metric::BwBytesPerS => format!("Bandwidth ({})", scale.unit),
            Metric::Iops => "IOPS".into(),
            Metric::LatMeanNs => format!("Mean latency ({})", scale.unit),
            Metric::ClatP99Ns => format!("p99 latency ({})", scale.unit),
            Metric::CpuPct => "CPU (%)".into(),
            Metric::IopsPerCpuPct => "IOPS per CPU %".into(),
            Metric::BwPerCpuPct => format!("Bandwidth per CPU % ({})", scale.unit),
        }
    }
}

impl Scale {
    /// A value in this scale, without unit: `10.058`, `2,636,516`.
    pub fn format(&self, v: f64) -> String {
        format_number(v / self.div, self.decimals, self.trim)
    }

    /// A value with its unit: `0.207 ms`, `49.56 %`, `2,411,000`.
    pub fn with_unit(&self, v: f64) -> String {
        match self.unit {
            "" => self.format(v),
            u => format!("{} {u}", self.format(v)),
        }
    }
}

/// The scale of a metric over a whole comparison, so one table column
/// never mixes units.
pub fn scale_in(cmp: &Comparison, metric: Metric) -> Scale {
    let max = cmp
        .workloads
        .iter()
        .flat_map(|w| w.metrics.iter().filter(|m| m.metric == metric))
        .flat_map(|m| m.values.values().flatten().copied())
        .fold(0.0, f64::max);
    metric.scale(max)
}

/// [`scale_in`] of each of a list of metrics, computed once per comparison.
pub struct Scales(Vec<(Metric, Scale)>);

impl Scales {
    pub fn of(cmp: &Comparison, metrics: &[Metric]) -> Scales {
        Scales(metrics.iter().map(|m| (*m, scale_in(cmp, *m))).collect())
    }

    /// The scale of `metric`, which must be one of the list given to `of`.
    pub fn get(&self, metric: Metric) -> Scale {
        self.0
            .iter()
            .find(|(m, _)| *m == metric)
            .map(|(_, s)| *s)
            .expect("metric not among the scaled ones")
    }

    /// Each metric with its scale, in the order given to `of`.
    pub fn iter(&self) -> impl Iterator<Item = &(Metric, Scale)> {
        self.0.iter()
    }
}

/// `1234567.891` with 2 decimals -> `1,234,567.89`; `trim` drops trailing
/// zeros of the fraction.
pub fn format_number(v: f64, decimals: usize, trim: bool) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    let s = format!("{:.*}", decimals, v.abs());
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i.to_string(), f.to_string()),
        None => (s.clone(), String::new()),
    };
    let frac = if trim {
        frac.trim_end_matches('0').to_string()
    } else {
        frac
    };
    let mut grouped = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let sign = if v < 0.0 && s.chars().any(|c| c.is_ascii_digit() && c != '0') {
        "-"
    } else {
        ""
    };
    if frac.is_empty() {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped}.{frac}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_printed() {
        assert_eq!(format_number(2_636_516.0, 0, false), "2,636,516");
        assert_eq!(format_number(97.0499, 3, true), "97.05");
        assert_eq!(format_number(97.0, 3, true), "97");
        assert_eq!(format_number(76.9, 2, false), "76.90");
        assert_eq!(format_number(-0.0004, 3, true), "0");
        assert_eq!(format_number(-1234.5, 1, false), "-1,234.5");
        let s = Metric::BwBytesPerS.scale(10.058 * GIB);
        assert_eq!(s.format(10.058 * GIB), "10.058");
        assert_eq!(Metric::BwBytesPerS.title(&s), "Bandwidth (GiB/s)");
        assert_eq!(Metric::parse("iops"), Some(Metric::Iops));
        assert_eq!(Metric::parse("lat"), Some(Metric::LatMeanNs));
        assert_eq!(Metric::parse("nope"), None);
    }
}
