//! Each metric's meaning in one place: its direction, how a run yields its
//! value and precision, its human name, and how it is shown (unit scale,
//! decimals). Renderers and highlights format through here so a figure
//! reads the same everywhere.

use super::comparison::{Better, Comparison, Metric, MetricResult};
use super::report_units::{HouseUnit, ReportUnits};
use super::workload::Run;
use crate::numbers;

/// Precision of CPU figures, percent (they are printed to 2 decimals).
pub const CPU_PRECISION: f64 = 0.01;

impl Metric {
    /// The report's unit of this metric; None for IOPS and CPU %, whose
    /// unit is fixed.
    pub fn report_unit(self, units: &ReportUnits) -> Option<HouseUnit> {
        match self {
            Metric::LatMeanNs | Metric::ClatP99Ns => Some(units.latency),
            Metric::BwBytesPerS | Metric::BwPerCpuPct => Some(units.bandwidth),
            _ => None,
        }
    }

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

    /// Mean and p99 latency: times, printed in µs, ms or s.
    pub fn is_latency(self) -> bool {
        matches!(self, Metric::LatMeanNs | Metric::ClatP99Ns)
    }

    pub fn better(self) -> Better {
        match self {
            Metric::LatMeanNs | Metric::ClatP99Ns | Metric::CpuPct => Better::Lower,
            _ => Better::Higher,
        }
    }

    /// The column name of docs/CONTRACT.md (`bw_bytes_per_s`, ...).
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

    /// [`Metric::key`] with the tail named at its percentile
    /// (`clat_p95_ns` where the runs' tail is p95): what the JSON, the
    /// CSVs and chart file names call this metric.
    pub fn key_at(self, tail: f64) -> std::borrow::Cow<'static, str> {
        match self {
            Metric::ClatP99Ns => super::workload::tail_key(tail).into(),
            _ => self.key().into(),
        }
    }

    /// Every name a user may give a metric on the command line (`analyze
    /// --round`, `check --threshold`/`--slo`, `history show --metric`): the
    /// dataset/JSON key first, then short aliases. The one list of them.
    pub const NAMES: &'static [(&'static str, Metric)] = &[
        ("bw_bytes_per_s", Metric::BwBytesPerS),
        ("bw", Metric::BwBytesPerS),
        ("bandwidth", Metric::BwBytesPerS),
        ("iops", Metric::Iops),
        ("lat_mean_ns", Metric::LatMeanNs),
        ("lat", Metric::LatMeanNs),
        ("latency", Metric::LatMeanNs),
        ("clat_p99_ns", Metric::ClatP99Ns),
        ("p99", Metric::ClatP99Ns),
        ("clat_p99", Metric::ClatP99Ns),
        ("cpu_pct", Metric::CpuPct),
        ("cpu", Metric::CpuPct),
        ("iops_per_cpu_pct", Metric::IopsPerCpuPct),
        ("bw_per_cpu_pct", Metric::BwPerCpuPct),
    ];

    /// Parses a key or a short alias (`bw`, `lat`, `cpu`, `p99`), any case,
    /// and any completion-latency percentile by its name (`clat_p95`,
    /// `clat_p95_ns`, `p99.9`, `clat_p99_9`): the tail metric, whose
    /// percentile [`Metric::percentile_named`] gives.
    pub fn parse(s: &str) -> Option<Metric> {
        let s = s.trim().to_ascii_lowercase();
        Metric::NAMES
            .iter()
            .find(|(n, _)| *n == s)
            .map(|(_, m)| *m)
            .or_else(|| Metric::percentile_named(&s).map(|_| Metric::ClatP99Ns))
    }

    /// The percentile a metric name holds: 95 for `clat_p95`,
    /// `clat_p95_ns` or `p95`, 99.9 for `clat_p99.9` or `clat_p99_9`; None
    /// for a name of no percentile (`lat`, `iops`).
    pub fn percentile_named(s: &str) -> Option<f64> {
        let name = s.trim().to_ascii_lowercase();
        name.strip_suffix("_ns")
            .unwrap_or(&name)
            .strip_prefix("clat_p")
            .or_else(|| name.strip_prefix('p'))
            .map(|p| p.replacen('_', ".", 1))
            .and_then(|p| p.parse::<f64>().ok())
            .filter(|p| p.is_finite() && *p > 0.0 && *p < 100.0)
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

    /// [`Metric::human`] with the tail named at its percentile: "p95
    /// latency" where the runs' tail is p95.
    pub fn human_at(self, tail: f64) -> std::borrow::Cow<'static, str> {
        match self {
            Metric::ClatP99Ns if !super::workload::is_p99(&tail) => {
                format!("{} latency", super::workload::tail_name(tail)).into()
            }
            _ => self.human().into(),
        }
    }

    /// Efficiency metrics are derived; they get no highlights of their own.
    pub fn is_derived(self) -> bool {
        matches!(self, Metric::IopsPerCpuPct | Metric::BwPerCpuPct)
    }

    /// Value of this metric for one run, base units.
    pub fn of_run(self, r: &Run) -> Option<f64> {
        self.raw_of_run(r)
            .filter(|v| *v >= 0.0 && crate::numbers::is_plausible(*v))
    }

    /// The run's figure as read, whatever it is: what [`Metric::of_run`]
    /// keeps only when it can be a measurement (finite, not negative,
    /// plausible in size); the comparison names the others as invalid.
    pub(crate) fn raw_of_run(self, r: &Run) -> Option<f64> {
        match self {
            Metric::BwBytesPerS => Some(r.bw),
            Metric::Iops => Some(r.iops),
            Metric::LatMeanNs => r.lat,
            Metric::ClatP99Ns => r.clat_p99,
            Metric::CpuPct => Some(r.cpu),
            Metric::IopsPerCpuPct => (r.cpu > 0.0).then(|| r.iops / r.cpu),
            Metric::BwPerCpuPct => (r.cpu > 0.0).then(|| r.bw / r.cpu),
        }
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

    /// The scale for values up to `max` (base units).
    pub fn scale(self, max: f64) -> Scale {
        let s = |u: numbers::Unit, decimals, trim| Scale {
            div: u.div,
            unit: u.name,
            decimals,
            trim,
        };
        let count = numbers::Unit { name: "", div: 1.0 };
        match self {
            Metric::BwBytesPerS | Metric::BwPerCpuPct => s(numbers::binary_rate(max), 3, true),
            Metric::Iops | Metric::IopsPerCpuPct => s(count, 0, false),
            Metric::LatMeanNs | Metric::ClatP99Ns => {
                let u = numbers::time_ns(max);
                s(u, if u.name == "µs" { 2 } else { 3 }, true)
            }
            Metric::CpuPct => s(
                numbers::Unit {
                    name: "%",
                    div: 1.0,
                },
                2,
                false,
            ),
        }
    }

    /// A value and its precision (base units) as one reading of a row in
    /// `scale`. Whether the precision was stated is this metric's fact.
    pub fn reading(self, scale: &Scale, value: f64, precision: f64) -> numbers::Reading {
        let stated = match self {
            Metric::BwBytesPerS | Metric::LatMeanNs | Metric::ClatP99Ns => precision > UNROUNDED,
            // Counts print whole whatever their step; fio prints CPU to 2
            // decimals.
            Metric::Iops | Metric::CpuPct => true,
            // Ratios of two figures: their digits are arithmetic.
            Metric::IopsPerCpuPct | Metric::BwPerCpuPct => false,
        };
        numbers::Reading {
            value: value / scale.div,
            step: precision / scale.div,
            stated,
        }
    }

    /// The decimals of a row of (value, precision) pairs, base units, in
    /// `scale`: one count for all, enough that no non-zero value prints
    /// as 0 (see [`numbers::readable_decimals`]).
    pub fn row_decimals(self, scale: &Scale, row: impl IntoIterator<Item = (f64, f64)>) -> usize {
        let readings: Vec<numbers::Reading> = row
            .into_iter()
            .map(|(v, p)| self.reading(scale, v, p))
            .collect();
        match self {
            // IOPS are whole operations, whatever a derived step says;
            // only a rate below one a second needs a fraction to not read 0.
            Metric::Iops => readings
                .iter()
                .filter(|r| r.value.is_finite() && r.value != 0.0 && r.value.abs() < 1.0)
                .map(|r| numbers::min_significant_decimals(r.value))
                .max()
                .unwrap_or(0),
            // A latency keeps at most four significant digits of the row's
            // largest (fio's `15.252` ms reads `15.25`); the smallest keeps
            // two where the largest can take a fifth (`0.20` beside `4.42`,
            // `9.4` beside `125.8`), and from four digits before the point
            // none (`2,543` beside `25`, never fio's `2,542.64`).
            Metric::LatMeanNs | Metric::ClatP99Ns => {
                let shown = readings
                    .iter()
                    .map(|r| r.value.abs())
                    .filter(|v| v.is_finite() && *v > 0.0);
                let (lo, hi) = shown.fold((f64::INFINITY, 0.0_f64), |(lo, hi), v| {
                    (lo.min(v), hi.max(v))
                });
                let four = numbers::significant_decimals(hi);
                let cap = if hi >= 1000.0 {
                    0
                } else {
                    four.max(numbers::min_significant_decimals(lo).min(four + 1))
                };
                numbers::readable_decimals(&readings).min(cap)
            }
            _ => numbers::readable_decimals(&readings),
        }
    }

    /// The decimals a row would print with before a latency's cap on
    /// significant digits ([`Metric::row_decimals`]).
    fn uncapped_decimals(self, scale: &Scale, row: &[(f64, f64)]) -> usize {
        let readings: Vec<numbers::Reading> = row
            .iter()
            .map(|(v, p)| self.reading(scale, *v, *p))
            .collect();
        numbers::readable_decimals(&readings)
    }

    /// How a row (or a table column) of this metric prints, from its
    /// (value, precision) pairs in base units: latency and bandwidth in
    /// the report's one unit ([`ReportUnits`]), with house style's
    /// decimals where it gives them, else the decimals of every value not
    /// [`numbers::is_far`] from the row's median; IOPS and CPU % as
    /// counts and percent.
    pub fn row_style(self, units: &ReportUnits, row: &[(f64, f64)]) -> RowStyle {
        let median = numbers::median(row.iter().map(|(v, _)| v.abs())).unwrap_or(0.0);
        // A far value is flagged whatever the rest do: it sets no
        // decimals of the rest.
        let near: Vec<(f64, f64)> = row
            .iter()
            .copied()
            .filter(|(v, _)| !numbers::is_far(*v, median))
            .collect();
        let house = self.report_unit(units);
        let scale = match house {
            Some(_) => self.scale_in(units),
            None => self.scale(median),
        };
        let decimals = house
            .and_then(|h| h.decimals)
            .unwrap_or_else(|| self.row_decimals(&scale, near.iter().copied()));
        // The significant-digit cap of a latency row spanning thousands
        // (`2,543` beside `0.48`) leaves its smallest values their own two
        // significant digits.
        let capped = house.and_then(|h| h.decimals).is_none()
            && self.is_latency()
            && decimals < self.uncapped_decimals(&scale, &near);
        RowStyle {
            metric: self,
            decimals,
            scale,
            median,
            units: Units::Row,
            one_unit: house.is_some(),
            trim_zeros: house.is_some_and(|h| h.trim_zeros && h.decimals.is_some()),
            capped,
        }
    }

    /// The scale of this metric in a report: the report's unit
    /// ([`ReportUnits`]) for latency and bandwidth, with house style's
    /// decimals for a lone value where it gives them; IOPS and CPU % as
    /// [`Metric::scale`].
    pub fn scale_in(self, units: &ReportUnits) -> Scale {
        let Some(house) = self.report_unit(units) else {
            return self.scale(0.0);
        };
        let unit = if self.is_latency() {
            units.time()
        } else {
            units.rate()
        };
        let lone = match unit.name {
            "ns" => 0,
            "µs" => 2,
            _ => 3,
        };
        Scale {
            div: unit.div,
            unit: unit.name,
            decimals: house.decimals.unwrap_or(lone),
            trim: true,
        }
    }

    /// [`Metric::title`] with the tail at its percentile ("p95 latency (µs)").
    pub fn title_at(self, scale: &Scale, tail: f64) -> String {
        match self {
            Metric::ClatP99Ns => format!("{} ({})", self.human_at(tail), scale.unit),
            _ => self.title(scale),
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

    /// Name at the start of a sentence: "IOPS", "Bandwidth".
    pub fn human_title(self) -> String {
        let h = self.human();
        let mut c = h.chars();
        match c.next() {
            Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
            None => String::new(),
        }
    }
}

/// How a metric is shown: divisor from base units, unit, and the decimals
/// of a lone value in a sentence. Tables and charts print rows, whose
/// decimals come from the values ([`Metric::row_decimals`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    pub div: f64,
    pub unit: &'static str,
    pub decimals: usize,
    /// Drop trailing zeros of a lone value (`97.050` -> `97.05`), as the
    /// article's sentences print.
    pub trim: bool,
}

/// Precision ingest gives a bandwidth or latency that fio wrote out in
/// full (JSON): the value is exact as far as ties go, but nobody rounded
/// it, so its trailing digits are arithmetic (see [`numbers::Reading`]).
const UNROUNDED: f64 = 1.0;

/// Where a row's unit is said.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Units {
    /// One unit for the row, in its title (or its table's caption).
    Row,
    /// One unit for the row, after each value.
    Cell,
}

/// How one row of a table prints: its unit (the report's, or for IOPS
/// and CPU the row median's), one count of decimals, and which values
/// are too far from the median to share them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RowStyle {
    pub metric: Metric,
    pub scale: Scale,
    pub decimals: usize,
    /// The row's median, base units.
    pub median: f64,
    /// Whether the unit is the row's, said once, or printed in the cells.
    pub units: Units,
    /// The unit is the report's one unit of the metric: even a far value
    /// prints in it.
    pub one_unit: bool,
    /// House style's "as printed": `decimals` is a most, trailing zeros
    /// dropped (`6.1` beside `10.058`; [`HouseUnit::trim_zeros`]).
    pub trim_zeros: bool,
    /// The row's decimals were cut by the cap on significant digits: a
    /// value they would show with fewer than two significant digits
    /// keeps two of its own (`0.48` in a row of `2,543`).
    pub capped: bool,
}

impl RowStyle {
    /// Over [`numbers::FAR_FROM_MEDIAN`] times the row's median.
    pub fn is_far(&self, v: f64) -> bool {
        numbers::is_far(v, self.median)
    }

    /// Whether `v` prints in its own unit whatever the row's: a far value
    /// of a metric without a report-wide unit.
    pub fn in_own_unit(&self, v: f64) -> bool {
        !self.one_unit && self.is_far(v)
    }

    /// Whether `v`'s text carries a unit.
    pub fn prints_unit(&self, v: f64) -> bool {
        self.in_own_unit(v) || self.unit_in_cells()
    }

    /// Whether the cells print their unit, so the title does not.
    pub fn unit_in_cells(&self) -> bool {
        self.units != Units::Row
    }

    /// The row's title: with its unit where the cells leave it out
    /// ("Mean latency (µs)"), without where they print it.
    pub fn title_at(&self, tail: f64) -> String {
        if self.unit_in_cells() {
            let h = self.metric.human_at(tail);
            let mut c = h.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        } else {
            self.metric.title_at(&self.scale, tail)
        }
    }

    /// A value as its cell prints it: without unit where the row says it
    /// once, else with it ([`Units`]); a far value of a metric without a
    /// report-wide unit in its own unit, with it, four significant digits.
    pub fn text(&self, v: f64) -> String {
        if self.in_own_unit(v) {
            return self.own_text(v);
        }
        match self.units {
            Units::Row => self.row_text(v),
            Units::Cell => self.scale.unit_after(self.row_text(v)),
        }
    }

    /// `v` in the row's unit, without it.
    fn row_text(&self, v: f64) -> String {
        // A value the row's decimals would print as 0 (an excluded IOPS of
        // 0.05 in a row of thousands, 50 ns in a row of ms) gets the
        // decimals it needs.
        let shown = v / self.scale.div;
        let at_row = (shown * crate::units::pow10(self.decimals as i32)).abs();
        if v != 0.0 && self.capped && at_row < 10.0 {
            let own = numbers::min_significant_decimals(shown.abs()).max(self.decimals);
            return self.scale.fixed(v, own);
        }
        if v != 0.0 && at_row < 0.5 {
            return self.scale.fixed(
                v,
                self.decimals
                    .max(numbers::min_significant_decimals(shown.abs())),
            );
        }
        if self.trim_zeros {
            return numbers::trimmed(shown, self.decimals);
        }
        self.scale.fixed(v, self.decimals)
    }

    /// `v` in its own unit, with it: four significant digits (IOPS whole).
    pub fn own_text(&self, v: f64) -> String {
        let own = self.metric.scale(v.abs());
        let shown = v / own.div;
        let decimals = match self.metric {
            Metric::Iops => 0,
            _ => numbers::significant_decimals(shown.abs()),
        };
        own.unit_after(numbers::fixed(shown, decimals))
    }
}

impl Scale {
    /// A lone value in this scale, without unit: `10.058`, `2,636,516`.
    pub fn format(&self, v: f64) -> String {
        if self.trim {
            numbers::trimmed(v / self.div, self.decimals)
        } else {
            numbers::fixed(v / self.div, self.decimals)
        }
    }

    /// A lone value with its unit: `0.207 ms`, `49.56 %`, `2,411,000`.
    pub fn with_unit(&self, v: f64) -> String {
        self.unit_after(self.format(v))
    }

    /// A value of a row, without unit, with the row's `decimals`.
    pub fn fixed(&self, v: f64, decimals: usize) -> String {
        numbers::fixed(v / self.div, decimals)
    }

    /// A value with `decimals` and its unit: `2.51 ms`.
    pub fn with_unit_decimals(&self, v: f64, decimals: usize) -> String {
        self.unit_after(self.fixed(v, decimals))
    }

    /// `text` followed by the unit, if any.
    pub fn unit_after(&self, text: String) -> String {
        match self.unit {
            "" => text,
            u => format!("{text} {u}"),
        }
    }

    /// The step a lone value resolves, base units.
    pub fn step(&self) -> f64 {
        self.div / 10f64.powi(self.decimals as i32)
    }
}

impl MetricResult {
    /// The decimals this result's row prints with in `scale`: every
    /// config's value and precision.
    pub fn row_decimals(&self, scale: &Scale) -> usize {
        self.metric.row_decimals(scale, self.compared_pairs())
    }

    /// The row's style ([`Metric::row_style`]) from its compared values:
    /// an excluded value sets neither the unit nor the decimals.
    pub fn row_style(&self, units: &ReportUnits) -> RowStyle {
        self.metric.row_style(units, &self.compared_pairs())
    }

    /// (value, precision) of every compared config, base units.
    pub fn compared_pairs(&self) -> Vec<(f64, f64)> {
        self.compared_pairs_of(None)
    }

    /// [`Self::compared_pairs`] of one config, or of all when None.
    pub fn compared_pairs_of(&self, config: Option<&str>) -> Vec<(f64, f64)> {
        self.compared()
            .filter(|(c, _)| config.is_none_or(|only| only == *c))
            .map(|(c, v)| (v, self.precision.get(c).copied().unwrap_or(0.0)))
            .collect()
    }
}

/// The scale of a metric over a whole comparison, so one table column
/// never mixes units: the report's unit ([`Comparison::units`]) for
/// latency and bandwidth, else the scale of the largest value.
pub fn scale_in(cmp: &Comparison, metric: Metric) -> Scale {
    if metric.report_unit(&cmp.units).is_some() {
        return metric.scale_in(&cmp.units);
    }
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

/// Configs whose values in `results` are known only to a step coarser
/// than `finer_than` (base units), grouped by that step: each config's
/// coarsest over the results where it has a value, configs in display
/// order. Tables and charts footnote these.
pub fn coarse_precisions<'a>(
    configs: &'a [String],
    results: &[&MetricResult],
    finer_than: f64,
) -> Vec<(f64, Vec<&'a str>)> {
    let mut by_step: Vec<(f64, Vec<&str>)> = Vec::new();
    for c in configs {
        let p = results
            .iter()
            .filter(|r| r.values.get(c).copied().flatten().is_some())
            .filter_map(|r| r.precision.get(c).copied())
            .filter(|p| p.is_finite())
            .fold(0.0, f64::max);
        // The slack keeps a step equal to the printed one out.
        if p > finer_than * 1.0001 {
            match by_step.iter_mut().find(|(s, _)| *s == p) {
                Some((_, cs)) => cs.push(c),
                None => by_step.push((p, vec![c])),
            }
        }
    }
    by_step
}

/// Width of fio's latency histogram bucket holding `ns` (stat.h:
/// `FIO_IO_U_PLAT_BITS` = 6, so 64 buckets per power of two above 128 ns,
/// exact below): the step a percentile fio reports is known to.
pub fn fio_bucket_width(ns: f64) -> f64 {
    const BITS: i32 = 6;
    if !ns.is_finite() || ns < f64::from(2 << BITS) {
        return 1.0;
    }
    2f64.powi(ns.log2().floor() as i32 - BITS)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: f64 = (1u64 << 30) as f64;

    #[test]
    fn lone_values_read_as_printed() {
        let s = Metric::BwBytesPerS.scale(10.058 * GIB);
        assert_eq!(s.format(10.058 * GIB), "10.058");
        assert_eq!(s.format(97.0499 * GIB), "97.05");
        assert_eq!(Metric::BwBytesPerS.title(&s), "Bandwidth (GiB/s)");
        assert_eq!(Metric::CpuPct.scale(80.0).with_unit(76.9), "76.90 %");
        assert_eq!(Metric::parse("iops"), Some(Metric::Iops));
        assert_eq!(Metric::parse("lat"), Some(Metric::LatMeanNs));
        assert_eq!(Metric::parse("nope"), None);
        // A percentile is named by the percentile it holds.
        for (name, pct) in [
            ("clat_p95", 95.0),
            ("clat_p95_ns", 95.0),
            ("P95", 95.0),
            ("clat_p99", 99.0),
            ("clat_p99_9", 99.9),
            ("clat_p99.9_ns", 99.9),
        ] {
            assert_eq!(Metric::parse(name), Some(Metric::ClatP99Ns), "{name}");
            assert_eq!(Metric::percentile_named(name), Some(pct), "{name}");
        }
        for name in ["lat", "iops", "clat_p100", "clat_p0", "clat_pxx", "p"] {
            assert_eq!(Metric::percentile_named(name), None, "{name}");
        }
        assert_eq!(Metric::parse("clat_p100"), None);
    }

    #[test]
    fn a_row_prints_one_count_of_decimals() {
        // The published read 128k bandwidth: Windows exact from JSON,
        // Linux known to 1 MiB/s from fio's text output.
        let s = Metric::BwBytesPerS.scale(97.05 * GIB);
        let mib = GIB / 1024.0;
        let row = [
            ((86.791 * GIB).round(), 1.0),
            ((92.562 * GIB).round(), 1.0),
            (97.05 * GIB, mib),
            (97.0 * GIB, mib),
        ];
        let d = Metric::BwBytesPerS.row_decimals(&s, row);
        let printed: Vec<String> = row.iter().map(|(v, _)| s.fixed(*v, d)).collect();
        assert_eq!(printed, ["86.791", "92.562", "97.050", "97.000"]);
        // fio JSON latencies (ns floats, exact): four significant digits,
        // not the six decimals 1 ns allows in ms.
        let lat = Metric::LatMeanNs.scale(3_828_123.456);
        let row = [(3_828_123.456789, 1.0), (1_022_456.123456, 1.0)];
        let d = Metric::LatMeanNs.row_decimals(&lat, row);
        assert_eq!(lat.fixed(row[1].0, d), "1.022");
        // A row prints in the report's unit: latencies in hundreds of µs
        // and one of 1.2 ms print in µs where the report's median is.
        let row = [(250_123.4, 1.0), (361_987.6, 1.0), (1_212_345.6, 1.0)];
        let units = ReportUnits::chosen(&[250_000.0, 300_000.0], &[], Default::default());
        let style = Metric::LatMeanNs.row_style(&units, &row);
        assert_eq!((style.scale.unit, style.units), ("µs", Units::Row));
        assert_eq!(style.title_at(99.0), "Mean latency (µs)");
        assert_eq!(style.text(250_123.4), "250");
        assert_eq!(style.text(1_212_345.6), "1,212");
        // Over 1000x the median: flagged by the cell, still in the
        // report's unit.
        assert!(style.is_far(800_000_000_000.0));
        assert_eq!(style.text(80_123_456_789.0), "80,123,457");
        // The same row in a report of milliseconds: ms, as many decimals
        // as the row needs, 2 significant digits for the smallest.
        let ms = ReportUnits::chosen(&[2e6, 3e6], &[], Default::default());
        let style = Metric::ClatP99Ns.row_style(&ms, &[(86_000.0, 1.0), (13_042_000.0, 1.0)]);
        assert_eq!(style.scale.unit, "ms");
        assert_eq!(style.text(13_042_000.0), "13.042");
        assert_eq!(style.text(86_000.0), "0.086");
        // House style's decimals win over the row's.
        let mut house = super::super::report_units::HouseStyle::default();
        house.set("latency", "ms", Some(3)).unwrap();
        let house = ReportUnits::chosen(&[], &[], house);
        let style =
            Metric::LatMeanNs.row_style(&house, &[(169_000.0, 1000.0), (3_814_000.0, 1000.0)]);
        assert_eq!(style.text(169_000.0), "0.169");
        assert_eq!(style.text(3_814_000.0), "3.814");
        // IOPS stay whole even with a fractional step.
        let iops = Metric::Iops.scale(10.0);
        assert_eq!(Metric::Iops.row_decimals(&iops, [(12.5, 0.1)]), 0);
    }
}
