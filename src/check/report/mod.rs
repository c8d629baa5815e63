//! Reports of a check, one file per format. Each writes to a `Write` and
//! never prints; none decides anything (the verdicts are in the [`Report`]).

mod json;
mod junit;
mod markdown;
mod term;

use std::io::Write;

use super::{Finding, Report};
use crate::compare::Metric;

pub use json::Json;
pub use junit::Junit;
pub use markdown::Markdown;
pub use term::Term;

/// One report format.
pub trait CheckRenderer {
    fn render(&self, report: &Report, out: &mut dyn Write) -> anyhow::Result<()>;
}

/// A value in the unit people read for its metric.
pub fn format_value(metric: Metric, v: Option<f64>) -> String {
    let Some(v) = v else {
        return "-".into();
    };
    match metric {
        Metric::Iops => thousands(v),
        Metric::BwBytesPerS => format!("{:.1} MiB/s", v / (1024.0 * 1024.0)),
        Metric::LatMeanNs | Metric::ClatP99Ns => {
            if v >= 1e6 {
                format!("{:.2} ms", v / 1e6)
            } else if v >= 1e3 {
                format!("{:.2} µs", v / 1e3)
            } else {
                format!("{v:.0} ns")
            }
        }
        Metric::CpuPct => format!("{v:.1}%"),
        Metric::IopsPerCpuPct | Metric::BwPerCpuPct => format!("{v:.1}"),
    }
}

/// `-15.0%`, `+2.3%`, or `-` when undefined.
pub fn format_change(f: &Finding) -> String {
    match f.change_pct {
        Some(c) => format!("{c:+.1}%"),
        None if f.baseline.is_some() && f.candidate.is_some() => "from 0".into(),
        None => "-".into(),
    }
}

fn thousands(v: f64) -> String {
    let digits = format!("{:.0}", v.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if v < 0.0 { format!("-{out}") } else { out }
}

/// The findings a report shows: all, or only those that fail.
fn shown(report: &Report, only_failures: bool) -> impl Iterator<Item = &Finding> {
    report
        .findings
        .iter()
        .filter(move |f| !only_failures || f.fails)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_in_their_units() {
        assert_eq!(format_value(Metric::Iops, Some(320_457.04)), "320,457");
        assert_eq!(format_value(Metric::Iops, Some(999.0)), "999");
        assert_eq!(
            format_value(Metric::BwBytesPerS, Some(1_048_576.0 * 1.5)),
            "1.5 MiB/s"
        );
        assert_eq!(format_value(Metric::LatMeanNs, Some(2_778.31)), "2.78 µs");
        assert_eq!(
            format_value(Metric::LatMeanNs, Some(1_500_000.0)),
            "1.50 ms"
        );
        assert_eq!(format_value(Metric::LatMeanNs, None), "-");
    }
}
