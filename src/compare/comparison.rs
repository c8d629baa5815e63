//! The result of a comparison: what renderers, charts and `check` consume.
//! Serializes to the `analyze --format json` shape of docs/CONTRACT.md (extra
//! fields are allowed there).

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

pub use super::steady::{SteadySource, SteadyState};
use super::workload::key::{LoadPoint, Shape, WorkloadKey};
use crate::model::{Os, Skipped, Warning};

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

impl Better {
    /// As the JSON spells it (serde's name): report.html's `data-better`.
    pub fn as_str(self) -> &'static str {
        match self {
            Better::Higher => "higher",
            Better::Lower => "lower",
        }
    }
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
    /// Within the `--equivalence` margin: tie.
    Equivalent,
    /// Only one config has a value.
    Single,
    /// CPU usage where every config is at
    /// [`super::findings::CPU_SATURATED_PCT`] or more: the figures say
    /// nothing about the configs, so none is best.
    Saturated,
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

/// One metric of one workload across the configs that ran it. Maps are
/// keyed by config label, in display order; a config with no run at the
/// workload has no entry in any of them (issue #55: 128,900 configs and
/// four variant workloads one config ran held 128,899 nulls per map).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricResult {
    pub metric: Metric,
    pub better: Better,
    /// Value per config that ran the workload, in the metric's base
    /// unit; null when its runs give none (absent: no run here).
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
    /// Relative delta vs the baseline config, percent; keyed as `values`.
    pub delta_pct: IndexMap<String, Option<f64>>,
    /// Absolute delta vs the baseline, in the metric's base unit; keyed
    /// as `values`.
    pub delta_abs: IndexMap<String, Option<f64>>,
    /// Which rule decided the winner or the tie.
    pub rule: Rule,
    /// Configs whose value cannot be told apart from the baseline's (within
    /// rounding, or not significant), with the rule that tied them: their
    /// delta is no real change.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub baseline_ties: IndexMap<String, Rule>,
    /// Configs whose value of this metric a sanity check found invalid
    /// (fio measured it wrongly, or could not measure it), with the reason.
    /// Their value stays in `values` for the table, marked; it enters no
    /// winner, tie, delta, finding, outlier or chart.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub excluded: IndexMap<String, String>,
    /// Configs whose value is approximate: a p99 of several jobs without
    /// json+ histograms to pool is the worst job's, an upper bound.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub approximate: Vec<String>,
    /// The percentile of the tail metric (`clat_p99_ns`): 99, or the
    /// highest every run shares (`workload::tail_percentile`). Named in
    /// the comparison's `tail_percentile`, not per metric.
    #[serde(skip, default = "super::workload::p99")]
    pub tail_pct: f64,
    /// The metric whose verdict this one carries: the other figure of the
    /// same measurement, known more precisely (`compare::result::COUPLED`:
    /// IOPS take bandwidth's winner and ties at one block size). None
    /// where the metric decided by its own figures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<Metric>,
}

impl MetricResult {
    /// The metric's name in sentences, the tail at its percentile.
    pub fn human(&self) -> std::borrow::Cow<'static, str> {
        self.metric.human_at(self.tail_pct)
    }

    /// Whether two or more configs have a value that is compared: a lone
    /// value is the "winner" of nothing, so reports and charts do not mark
    /// it best.
    pub fn contested(&self) -> bool {
        self.compared().count() > 1
    }

    /// `config`'s value if it is compared: None when missing or excluded.
    /// What findings and charts read.
    pub fn value(&self, config: &str) -> Option<f64> {
        if self.excluded.contains_key(config) {
            return None;
        }
        self.values.get(config).copied().flatten()
    }

    /// The compared values, in display order: present and not excluded.
    pub fn compared(&self) -> impl Iterator<Item = (&str, f64)> {
        self.values
            .iter()
            .filter(|(c, _)| !self.excluded.contains_key(c.as_str()))
            .filter_map(|(c, v)| v.map(|v| (c.as_str(), v)))
    }

    /// Why `config`'s value is left out of the comparison, if it is.
    pub fn exclusion(&self, config: &str) -> Option<&str> {
        self.excluded.get(config).map(String::as_str)
    }
}

/// How one config's runs of a workload were made, as fio reported them:
/// what a chart's footer quotes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunParams {
    /// Runs (files) behind the config's value.
    pub runs: u64,
    /// fio's ioengines, sorted, without repeats.
    pub engines: Vec<String>,
    /// fio versions (`fio-3.33`), sorted, without repeats.
    pub fio_versions: Vec<String>,
    /// Shortest and longest run, milliseconds.
    pub runtime_ms: [f64; 2],
}

/// Percentile (e.g. 99.9) to completion latency in ns.
pub type Percentiles = Vec<(f64, f64)>;

/// One workload: rw + block size (+ rwmixread) + direction + load point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    #[serde(flatten)]
    pub key: WorkloadKey,
    /// Depth each config really ran at, listed only when some config's
    /// differs from the requested one (a synchronous engine runs at 1).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub effective_iodepth: IndexMap<String, u32>,
    pub metrics: Vec<MetricResult>,
    /// Completion-latency percentiles per config, where reported.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub percentiles: IndexMap<String, Percentiles>,
    /// json+ latency histogram per config: (latency ns, count).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub clat_bins: IndexMap<String, Vec<(u64, u64)>>,
    /// Steady state per config, where fio judged it (`--steadystate`) or
    /// its logs could be judged by the SNIA rule.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub steady_state: IndexMap<String, SteadyState>,
    /// Notes on this workload: a config missing (and at which load points
    /// it ran instead), a depth other than the requested one, engines
    /// mixed in one config, steady state not reached, sanity-check findings.
    #[serde(default)]
    pub notes: Vec<String>,
    /// Checks on single runs (result files) of this workload, one per
    /// run and rule: reports group them by rule and config
    /// ([`super::sanity::grouped`]), the JSON and `checks.csv` keep each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<RunCheck>,
    /// How each config's runs were made (engine, fio version, runtime).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub params: IndexMap<String, RunParams>,
}

/// A group of configs (an OS family).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Family {
    pub name: Os,
    pub configs: Vec<String>,
}

/// One check a run (a result file) failed: which rule, its config, the
/// file, how far off (`value`, in `unit`), and the note as a sentence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunCheck {
    /// `bw_vs_iops` (bandwidth against IOPS x block size, `value` in %),
    /// `in_flight` (IOPS x mean latency against the I/O slots, `value`
    /// the ratio).
    pub rule: String,
    pub config: String,
    pub source: String,
    pub value: f64,
    /// The note as it reads alone.
    pub text: String,
}

/// Everything `analyze` knows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// Config labels in display order.
    pub configs: Vec<String>,
    pub baseline: Option<String>,
    /// OS family of each config (`windows`, `linux`, `unknown`).
    #[serde(default)]
    pub config_os: IndexMap<String, Os>,
    #[serde(default)]
    pub families: Vec<Family>,
    pub workloads: Vec<Workload>,
    /// Every finding's sentence, strongest first.
    pub highlights: Vec<String>,
    /// The strongest findings, none implied by another (`--findings N`).
    #[serde(default)]
    pub key_findings: Vec<Finding>,
    pub skipped: Vec<Skipped>,
    #[serde(default)]
    pub warnings: Vec<Warning>,
    /// Data-quality findings that concern the whole comparison.
    #[serde(default)]
    pub sanity: Vec<String>,
    /// One entry per config and rw/bs/rwmixread/direction measured at two
    /// or more load points.
    #[serde(default)]
    pub sweeps: Vec<Sweep>,
    /// One entry per config and rw/direction/rwmixread/load point measured
    /// at two or more block sizes (`compare::sweep::blocksize`).
    #[serde(default)]
    pub bs_sweeps: Vec<BsSweep>,
    /// The rules the sweeps' knee and SLO answers were found with.
    #[serde(default)]
    pub sweep_rules: SweepRules,
    /// What was run: title, description and the setup table's items.
    #[serde(default)]
    pub setup: super::setup::Setup,
    /// Per config and workload run on several targets at once: each
    /// target's figure and their spread (`compare::devices`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub devices: Vec<DeviceSpread>,
    /// `--equivalence PCT` when given: differences within it are ties.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equivalence_pct: Option<f64>,
    /// How the configs were told apart (`--label-by`): the rule and the
    /// fio options it used.
    #[serde(default)]
    pub config_rule: crate::model::ConfigRule,
    /// How the runs were grouped: each config and what defines it, what
    /// was pooled as repeats and why, what was kept apart (`--explain`).
    /// Left out where nothing was ingested (a dataset file).
    #[serde(default, skip_serializing_if = "crate::model::Study::is_empty")]
    pub study: crate::model::Study,
    /// The completion-latency percentile the tail metric (`clat_p99_ns`,
    /// "p99 latency") holds: 99, or where fio printed no p99 (a study's
    /// `percentile_list=50:95`) the highest percentile every run shares.
    /// Left out of the JSON when 99.
    #[serde(
        default = "super::workload::p99",
        skip_serializing_if = "super::workload::is_p99"
    )]
    pub tail_percentile: f64,
    /// The one unit of latency and of bandwidth every table, finding and
    /// chart of the report prints in ([`super::report_units`]).
    #[serde(default)]
    pub units: super::report_units::ReportUnits,
    /// Each config's full label (what ingest named it by) where its
    /// display name is shorter (`bfq` for `results/fio_output
    /// ioscheduler=bfq`); left out of the JSON when every name is its
    /// label.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub config_labels: IndexMap<String, String>,
    /// Why the baseline is the one it is, where no `--baseline` or
    /// manifest chose it, said after "the baseline because" ("it runs the
    /// oldest kernel").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline_why: Option<String>,
    /// How many configs the whole comparison holds, set only on the view a
    /// report shows of a study of very many ([`super::shown::bounded`]):
    /// `configs` then holds the shown ones. Never in the JSON, which holds
    /// every config.
    #[serde(skip)]
    pub all_configs: Option<usize>,
}

/// How knees, saturation and latency targets are judged (`--knee-gain`,
/// `--knee-latency`, `--saturation`, `--slo`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SweepRules {
    /// The method that places the knee on the curve: `kneedle`
    /// (Satopää et al. 2011, <https://doi.org/10.1109/ICDCSW.2011.20>) on
    /// IOPS against I/Os in flight (log2 where the loads double).
    #[serde(default)]
    pub knee_method: KneeMethod,
    /// Kneedle's sensitivity S (1 in the paper): how far the difference
    /// curve must fall after a candidate for it to count.
    #[serde(default = "one_f64")]
    pub knee_sensitivity: f64,
    /// A knee's IOPS are at least this much (percent) above the lightest
    /// point's: the curve rose to get there...
    pub knee_min_gain_pct: f64,
    /// ...past it the curve climbs at most this percent as steeply as up
    /// to it (IOPS per unit of the load axis)...
    #[serde(default = "default_flatness_pct")]
    pub knee_flatness_pct: f64,
    /// ...and mean latency grows from it to the heaviest load by more than
    /// this (percent), the second signal that more load only queues.
    pub knee_lat_growth_pct: f64,
    /// Saturation is the lightest load point whose IOPS reach this percent
    /// of the config's peak.
    #[serde(default = "default_saturation_pct")]
    pub saturation_pct: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slo: Option<Slo>,
}

fn one_f64() -> f64 {
    1.0
}

fn default_flatness_pct() -> f64 {
    33.0
}

fn default_saturation_pct() -> f64 {
    95.0
}

/// How a sweep's knee is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KneeMethod {
    /// Kneedle (Satopää, Albrecht, Irwin, Raghavan 2011): the point of
    /// largest distance between the normalized curve and the straight line
    /// from its first to its last point.
    #[default]
    Kneedle,
}

impl Default for SweepRules {
    fn default() -> Self {
        SweepRules {
            knee_method: KneeMethod::Kneedle,
            knee_sensitivity: 1.0,
            knee_min_gain_pct: 10.0,
            knee_flatness_pct: default_flatness_pct(),
            knee_lat_growth_pct: 50.0,
            saturation_pct: default_saturation_pct(),
            slo: None,
        }
    }
}

/// A latency target: `clat_p99=1ms`, `clat_p95=2ms`, `lat_mean=200us`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Slo {
    pub metric: SloMetric,
    pub target_ns: f64,
    /// The completion-latency percentile of a `clat_pNN` target (99 unless
    /// given otherwise; left out of the JSON when 99): the comparison's
    /// tail is then this percentile.
    #[serde(
        default = "super::workload::p99",
        skip_serializing_if = "super::workload::is_p99"
    )]
    pub percentile: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SloMetric {
    /// p99 completion latency.
    ClatP99,
    /// Mean total latency.
    LatMean,
}

/// One config's results for one rw/bs/rwmixread/direction across load
/// points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sweep {
    pub config: String,
    /// The rw/bs/direction/rwmixread this sweep measured.
    #[serde(flatten, serialize_with = "shape_with_mix")]
    pub shape: Shape,
    /// What varies: `iodepth`, `numjobs`, `hosts`, or several joined by
    /// `+` (`iodepth+numjobs` for a grid).
    pub axis: String,
    /// In load order (hosts, numjobs, iodepth).
    pub points: Vec<SweepPoint>,
    pub peak: Peak,
    pub knee: Option<Knee>,
    /// The lightest load point that reaches `sweep_rules.saturation_pct`
    /// of the peak's IOPS: how much load the config needs.
    pub saturation: Option<Saturation>,
    pub at_slo: Option<AtSlo>,
    /// The curve falls after its peak by more than the noise band (below
    /// `sweep_rules.saturation_pct` of the peak) and stays there at its
    /// heaviest load: where it ends and how far below the peak.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fall: Option<Fall>,
}

/// A curve that rises, peaks and falls: its heaviest load point, below
/// the peak by more than the noise band.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Fall {
    #[serde(flatten)]
    pub load: LoadPoint,
    pub iops: f64,
    /// How far below the peak's IOPS, percent.
    pub pct_below_peak: f64,
}

/// A sweep's shape as docs/CONTRACT.md lists a sweep's fields:
/// `rwmixread` always present (null unless rw mixes reads and writes),
/// where a workload leaves it out.
fn shape_with_mix<S: serde::Serializer>(shape: &Shape, s: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct WithMix<'a> {
        rw: &'a str,
        bs_bytes: u64,
        direction: crate::model::Direction,
        rwmixread: Option<u32>,
    }
    WithMix {
        rw: &shape.rw,
        bs_bytes: shape.bs_bytes,
        direction: shape.direction,
        rwmixread: shape.rwmixread,
    }
    .serialize(s)
}

/// Where a config reaches (nearly) its peak: the lightest load point whose
/// IOPS are at least `saturation_pct` of the peak's.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Saturation {
    #[serde(flatten)]
    pub load: LoadPoint,
    pub iops: f64,
    /// Its IOPS as a percentage of the peak's.
    pub pct_of_peak: f64,
}

/// One measured load point of a sweep (the mean of its runs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    #[serde(flatten)]
    pub load: LoadPoint,
    /// Where it differs from `iodepth`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effective_iodepth: Option<u32>,
    pub iops: f64,
    pub bw_bytes_per_s: f64,
    pub lat_mean_ns: Option<f64>,
    pub clat_p99_ns: Option<f64>,
}

/// The load point with the most IOPS.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Peak {
    pub iops: f64,
    #[serde(flatten)]
    pub load: LoadPoint,
}

/// The knee: where the curve of IOPS against load bends from rising to
/// flat (see [`SweepRules`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Knee {
    #[serde(flatten)]
    pub load: LoadPoint,
    pub iops: f64,
    pub lat_mean_ns: f64,
    /// The next load point of the curve.
    pub next_iodepth: u32,
    pub next_numjobs: u32,
    /// IOPS gained past the knee (its best later point), percent...
    pub iops_gain_pct: f64,
    /// ...and mean latency grown from the knee to the heaviest load.
    pub lat_growth_pct: f64,
}

/// The most IOPS whose latency meets the target.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AtSlo {
    pub metric: SloMetric,
    pub target_ns: f64,
    pub iops: f64,
    /// Latency at that IOPS: measured, or the target when interpolated.
    pub lat_ns: f64,
    /// True when `iops` lies between two measured points (linear in
    /// latency between the last point that meets the target and the first
    /// that misses it).
    pub interpolated: bool,
    /// The measured point; when interpolated, the one below the target.
    #[serde(flatten)]
    pub load: LoadPoint,
    /// When interpolated: the first point above the target (its hosts,
    /// devices and fio instances only where not 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper_iodepth: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper_numjobs: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper_hosts: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper_devices: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper_instances: Option<u32>,
}

impl AtSlo {
    /// When interpolated, the first point above the target, whole.
    pub fn upper(&self) -> Option<LoadPoint> {
        // Along instances beside others, the probe keeps its one instance
        // (the apps beside it grow), the apps keep their probes.
        let instances = self.upper_instances.unwrap_or(1);
        let own = self.load.instances.saturating_sub(self.load.beside);
        let beside = match (self.load.beside, self.load.probe) {
            (0, _) => 0,
            (_, true) => instances.saturating_sub(own),
            (b, false) => b,
        };
        Some(LoadPoint {
            iodepth: self.upper_iodepth?,
            numjobs: self.upper_numjobs.unwrap_or(self.load.numjobs),
            hosts: self.upper_hosts.unwrap_or(1),
            devices: self.upper_devices.unwrap_or(1),
            instances,
            beside,
            probe: self.load.probe,
        })
    }
}

/// What a block-size sweep holds fixed: an rw (its direction and read
/// mix) at one load point. Serializes flattened, `rwmixread` always
/// present (null unless rw mixes reads and writes), the load as
/// [`WorkloadKey`] spells it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RwLoad {
    pub rw: String,
    pub direction: crate::model::Direction,
    pub rwmixread: Option<u32>,
    /// The workload's variant (`Shape::variant`): variants are swept apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    #[serde(flatten)]
    pub load: LoadPoint,
}

impl RwLoad {
    pub fn of(key: &WorkloadKey) -> RwLoad {
        RwLoad {
            rw: key.shape.rw.clone(),
            direction: key.shape.direction,
            rwmixread: key.shape.rwmixread,
            variant: key.shape.variant.clone(),
            load: key.load,
        }
    }

    /// The workload shape of this rw at `bs_bytes`.
    pub fn shape(&self, bs_bytes: u64) -> Shape {
        Shape {
            variant: self.variant.clone(),
            ..Shape::new(&self.rw, bs_bytes, self.direction, self.rwmixread)
        }
    }

    /// `randread at QD8`, `randrw (read, 70 % reads) at QD8 x 4 jobs`.
    pub fn title(&self) -> String {
        let rw = match self.rwmixread {
            Some(mix) => format!("{} ({}, {mix} % reads)", self.rw, self.direction),
            None if crate::model::is_mixed(&self.rw)
                || !self.rw.contains(self.direction.as_str()) =>
            {
                format!("{} ({})", self.rw, self.direction)
            }
            None => self.rw.clone(),
        };
        let rw = match &self.variant {
            Some(v) => format!("{rw} ({v})"),
            None => rw,
        };
        format!("{rw} at {}", self.load.label())
    }
}

/// One config's bandwidth curve against block size, at one rw and load
/// point: peak, knee, saturation, fall and the most bandwidth under the
/// latency target, by the rules of the load sweeps ([`Sweep`]) with
/// bandwidth as the value and log2 of the block size as the axis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BsSweep {
    pub config: String,
    #[serde(flatten)]
    pub at: RwLoad,
    /// Always `bs`.
    pub axis: String,
    /// Block sizes ascending.
    pub points: Vec<BsPoint>,
    /// The block size of most bandwidth.
    pub peak: BsPeak,
    /// The block size of most IOPS (usually the smallest).
    pub iops_peak: BsPeak,
    /// Where the bandwidth curve bends from rising to flat.
    pub knee: Option<BsKnee>,
    /// The smallest block size whose bandwidth reaches
    /// `sweep_rules.saturation_pct` of the peak's: from where the config is
    /// bandwidth-bound.
    pub saturation: Option<BsSaturation>,
    pub at_slo: Option<BsAtSlo>,
    /// The bandwidth at the largest block size, when it lies below the
    /// noise band under the peak.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fall: Option<BsFall>,
}

/// One block size of a [`BsSweep`] (the mean of its runs).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BsPoint {
    pub bs_bytes: u64,
    pub iops: f64,
    pub bw_bytes_per_s: f64,
    pub lat_mean_ns: Option<f64>,
    pub clat_p99_ns: Option<f64>,
}

/// A block size with its bandwidth and IOPS.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BsPeak {
    pub bs_bytes: u64,
    pub bw_bytes_per_s: f64,
    pub iops: f64,
}

/// The knee of a bandwidth curve against block size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BsKnee {
    pub bs_bytes: u64,
    pub bw_bytes_per_s: f64,
    pub lat_mean_ns: f64,
    /// The next block size of the curve.
    pub next_bs_bytes: u64,
    /// Bandwidth gained past the knee (its best larger block size),
    /// percent...
    pub bw_gain_pct: f64,
    /// ...and mean latency grown from the knee to the largest block size.
    pub lat_growth_pct: f64,
}

/// The smallest block size at `saturation_pct` of the peak bandwidth.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BsSaturation {
    pub bs_bytes: u64,
    pub bw_bytes_per_s: f64,
    /// Its bandwidth as a percentage of the peak's.
    pub pct_of_peak: f64,
}

/// The largest block size, below the peak's bandwidth by more than the
/// noise band.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BsFall {
    pub bs_bytes: u64,
    pub bw_bytes_per_s: f64,
    /// How far below the peak's bandwidth, percent.
    pub pct_below_peak: f64,
}

/// The most bandwidth whose latency meets the target.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BsAtSlo {
    pub metric: SloMetric,
    pub target_ns: f64,
    pub bw_bytes_per_s: f64,
    /// Latency there: measured, or the target when interpolated.
    pub lat_ns: f64,
    /// True when the bandwidth lies between two measured block sizes.
    pub interpolated: bool,
    /// The measured block size; when interpolated, the one below the
    /// target.
    pub bs_bytes: u64,
    /// When interpolated: the first block size above the target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper_bs_bytes: Option<u64>,
}

/// What a finding claims.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// A config has the most wins of a metric in one or both directions.
    Wins,
    /// An OS family has the most wins.
    FamilyWins,
    /// Every config is within a fraction of a percent.
    Tie,
    /// The largest gap of a metric, best against worst.
    Gap,
    /// A config's largest lead over the other OS family's best.
    Lead,
    /// A value far above its peers (median absolute deviation rule).
    Outlier,
    /// The highest peak IOPS of a sweep against the next config's.
    SweepPeak,
    /// Where a config's IOPS curve bends in a sweep.
    Knee,
    /// IOPS each config sustains under the latency target.
    Slo,
    /// Who is best at a workload's headline metric, and by how much (a
    /// workload measured at one load point).
    Winner,
    /// Which config of a sweep needs the least load to reach (nearly) its
    /// peak, ranked.
    Saturation,
    /// One target of a test bed off the others (`compare::devices`).
    DeviceOutlier,
    /// A sweep's curve that peaks and then falls by more than the noise
    /// band.
    Fall,
}

/// One highlight with what it rests on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub text: String,
    pub kind: FindingKind,
    /// 0..~1.1: effect x reach x weight (module docs).
    pub score: f64,
    /// Workload titles ("randread 4k", "randread 4k QD32").
    pub workloads: Vec<String>,
    /// Metric keys (`bw_bytes_per_s`, ...).
    pub metrics: Vec<Metric>,
    pub configs: Vec<String>,
    /// Direction(s) a win count covers (`read`, `write`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub directions: Vec<String>,
    /// Win count for `wins`/`family_wins`: [won, of].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<(usize, usize)>,
}

impl Finding {
    pub fn new(kind: FindingKind, text: String) -> Finding {
        Finding {
            text,
            kind,
            score: 0.0,
            workloads: Vec::new(),
            metrics: Vec::new(),
            configs: Vec::new(),
            directions: Vec::new(),
            count: None,
        }
    }

    pub fn on(
        mut self,
        workloads: Vec<String>,
        metrics: Vec<Metric>,
        configs: Vec<String>,
    ) -> Self {
        self.workloads = workloads;
        self.metrics = metrics;
        self.configs = configs;
        self
    }
}

/// The per-device view of a test bed ([`super::devices`] builds it).
/// One config and workload run on several targets at once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceSpread {
    pub config: String,
    /// `randread 4k QD32`.
    pub workload: String,
    /// One host always: fio's client/server runs name no targets.
    #[serde(flatten)]
    pub key: WorkloadKey,
    /// Each target's figures, in the order the results list them.
    pub targets: Vec<TargetFigure>,
    /// The targets' IOPS summed: the config's figure.
    pub total_iops: f64,
    pub slowest: String,
    pub fastest: String,
    /// (fastest - slowest) / median, percent.
    pub spread_pct: f64,
}

/// One target's figures (means over repetitions).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetFigure {
    /// The job's filename (`host:filename` in client/server runs).
    pub target: String,
    pub iops: f64,
    pub bw_bytes_per_s: f64,
    pub lat_mean_ns: Option<f64>,
    /// Results it was measured in.
    pub runs: u32,
    /// fio's error code, when a run of it failed (left out of the rule).
    pub error: i64,
    /// Percent off the median of the other targets, when the rule calls it
    /// off; negative is slower.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub off_pct: Option<f64>,
    /// The gap the rule needed (percent of that median).
    pub threshold_pct: f64,
}

#[cfg(test)]
mod better_tests {
    use super::Better;

    #[test]
    fn as_str_is_the_json_name() {
        for b in [Better::Higher, Better::Lower] {
            assert_eq!(serde_json::to_value(b).unwrap(), b.as_str());
        }
    }
}
