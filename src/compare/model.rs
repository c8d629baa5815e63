//! The result of a comparison: what renderers, charts and `check` consume.
//! Serializes to the `analyze --format json` shape of CONTRACT.md (extra
//! fields are allowed there).

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::model::{Direction, Skipped, Warning};

/// A metric compared per workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Bandwidth, bytes per second.
    BwBytesPerS,
    /// I/O operations per second.
    Iops,
    /// Mean total latency, nanoseconds.
    LatMeanNs,
    /// p99 completion latency, nanoseconds.
    ClatP99Ns,
    /// CPU usage, percent (`system_cpu_pct`, else usr + sys).
    CpuPct,
    /// IOPS per CPU percent.
    IopsPerCpuPct,
    /// Bandwidth (bytes/s) per CPU percent.
    BwPerCpuPct,
}

/// Which direction of a metric is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Better {
    Higher,
    Lower,
}

/// The rule that decided a winner or a tie.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// The best values differ by more than their precision, no spread known.
    Precision,
    /// The best values differ within their precision: tie.
    WithinPrecision,
    /// Welch's t-test on repeated runs or fio's samples: significant.
    Significant,
    /// Welch's t-test: not significant: tie.
    NotSignificant,
    /// Only one config has a value.
    Single,
    /// No config has a value.
    NoData,
}

/// Spread of a value: repeated runs, or fio's per-interval samples.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub n: u64,
    pub mean: f64,
    pub stddev: f64,
    /// Where the spread comes from.
    pub source: SpreadSource,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpreadSource {
    /// Several runs of the same label and workload.
    Runs,
    /// fio's per-interval samples of a single run.
    Samples,
}

/// One metric of one workload across all configs. Maps are keyed by
/// config label, in display order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricResult {
    pub metric: Metric,
    pub better: Better,
    /// Value per config, in the metric's base unit; null when missing.
    pub values: IndexMap<String, Option<f64>>,
    /// Step each value is known to (1 for exact IOPS, 1000 for `2411k`).
    pub precision: IndexMap<String, f64>,
    /// Spread per config where one is known.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub spread: IndexMap<String, Spread>,
    /// Best config; None when the best ones tie (or no data).
    pub winner: Option<String>,
    /// Configs tied for best (the winner alone is not listed).
    pub tied: Vec<String>,
    /// Relative delta vs the baseline config, percent.
    pub delta_pct: IndexMap<String, Option<f64>>,
    /// Absolute delta vs the baseline, in the metric's base unit.
    pub delta_abs: IndexMap<String, Option<f64>>,
    /// Which rule decided the winner or the tie.
    pub rule: Rule,
}

/// Percentile (e.g. 99.9) to completion latency in ns.
pub type Percentiles = Vec<(f64, f64)>;

/// One workload: rw + block size (+ rwmixread) + direction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    pub rw: String,
    pub bs_bytes: u64,
    pub direction: Direction,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rwmixread: Option<u32>,
    pub metrics: Vec<MetricResult>,
    /// Completion-latency percentiles per config, where reported.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub percentiles: IndexMap<String, Percentiles>,
    /// json+ latency histogram per config: (latency ns, count).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub clat_bins: IndexMap<String, Vec<(u64, u64)>>,
    /// Notes on this workload: iodepth/numjobs differing between configs,
    /// a config missing, sanity-check findings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A group of configs (an OS family).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Family {
    pub name: String,
    pub configs: Vec<String>,
}

/// Everything `analyze` knows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// Config labels in display order.
    pub configs: Vec<String>,
    pub baseline: Option<String>,
    /// OS of each config (`windows`, `linux`, `unknown`).
    #[serde(default)]
    pub config_os: IndexMap<String, String>,
    #[serde(default)]
    pub families: Vec<Family>,
    pub workloads: Vec<Workload>,
    pub highlights: Vec<String>,
    pub skipped: Vec<Skipped>,
    #[serde(default)]
    pub warnings: Vec<Warning>,
    /// Data-quality findings that concern the whole comparison.
    #[serde(default)]
    pub sanity: Vec<String>,
}
