//! Exporters to the CI dashboards users already have: Bencher's metric
//! format ([`bmf`]) and github-action-benchmark's custom JSON ([`gab`]).
//! One benchmark per workload (with its load point), config and metric,
//! its value the mean over the config's files and its range the spread:
//! across repeated runs where there are several, else fio's per-interval
//! samples (IOPS, bandwidth), else none.

pub mod bmf;
pub mod gab;

use std::io::Write;

use crate::compare::Metric;
use crate::history::trend::{self, Measured};
use crate::model::Row;

/// An export format, picked by `ingest --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// Bencher Metric Format.
    Bmf,
    /// github-action-benchmark, `tool: customBiggerIsBetter` (IOPS, bandwidth).
    Gab,
    /// github-action-benchmark, `tool: customSmallerIsBetter` (latency).
    GabSmaller,
}

/// One way of writing measurements.
pub trait Exporter {
    fn write(&self, measured: &[Measured], w: &mut dyn Write) -> anyhow::Result<()>;
}

impl ExportFormat {
    fn exporter(self) -> Box<dyn Exporter> {
        match self {
            ExportFormat::Bmf => Box::new(bmf::Bmf),
            ExportFormat::Gab => Box::new(gab::Gab {
                bigger_is_better: true,
            }),
            ExportFormat::GabSmaller => Box::new(gab::Gab {
                bigger_is_better: false,
            }),
        }
    }
}

/// Metrics exported: those a history follows.
pub const METRICS: &[Metric] = trend::DEFAULT_METRICS;

/// Writes `rows` in `format`.
pub fn export(rows: &[Row], format: ExportFormat, w: &mut dyn Write) -> anyhow::Result<()> {
    format.exporter().write(&trend::measure(rows, METRICS), w)
}

/// `ssd/randread 4k read QD32`: a benchmark's name, config first so a
/// dashboard groups by it.
pub fn benchmark_name(m: &Measured) -> String {
    let w = &m.key.workload;
    let mix = w
        .shape
        .rwmixread
        .map(|r| format!(" rwmixread={r}"))
        .unwrap_or_default();
    format!(
        "{}/{} {} {}{mix} {}",
        m.key.config,
        w.shape.rw,
        crate::units::format_bs(w.shape.bs_bytes),
        w.shape.direction,
        w.load.label()
    )
}

/// Standard deviation of a measurement: across runs when there are 2 or
/// more, else of fio's samples within the one run.
pub fn spread(m: &Measured) -> Option<f64> {
    if m.values.n >= 2 {
        Some(m.values.stddev)
    } else {
        m.samples.map(|s| s.stddev)
    }
}

/// The unit of a metric's base value.
pub fn unit(metric: Metric) -> &'static str {
    match metric {
        Metric::Iops | Metric::IopsPerCpuPct => "ops/s",
        Metric::BwBytesPerS | Metric::BwPerCpuPct => "bytes/s",
        Metric::LatMeanNs | Metric::ClatP99Ns => "ns",
        Metric::CpuPct => "%",
    }
}

/// `v` with 4 significant digits and no separators: `1234`, `12.35`.
fn plain(v: f64) -> String {
    let d = crate::numbers::significant_decimals(v.abs());
    format!("{v:.d$}")
}

#[cfg(test)]
mod tests;
