//! The sweep part of the [`super::view::View`]: per sweep shape a table
//! with a row per load point and a column per config (IOPS, mean and p99
//! latency, marked as the comparison decided them at that load point), a
//! line per config with its peak, knee and IOPS under the latency target,
//! and for sweeps over both iodepth and numjobs a grid per config.

use serde::Serialize;

use super::sweeps::{SweepTable, is_grid};
use super::view::{CellView, RowFormat, cell};
use crate::compare::metric::Scale;
use crate::compare::{
    AtSlo, Comparison, Knee, LoadPoint, Metric, MetricResult, Peak, Saturation, SloMetric, Sweep,
    SweepRules, Workload,
};
use crate::format;

#[derive(Debug, Clone, Serialize)]
pub struct SweepView {
    /// "randread 4k".
    pub title: String,
    /// What varies: "queue depth", "numjobs", "queue depth and numjobs".
    pub axis: String,
    /// Column configs: those with a value at one load point or more.
    pub configs: Vec<String>,
    /// Unit of both latencies in the cells: "ms", "µs".
    pub lat_unit: String,
    pub rows: Vec<SweepRowView>,
    /// One line per config that has a sweep: peak, knee, IOPS at the SLO.
    pub summaries: Vec<SweepSummaryView>,
    /// Per config swept over iodepth and numjobs: IOPS on a grid.
    pub grids: Vec<GridView>,
    /// The workloads' notes that the cells do not already show.
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SweepRowView {
    /// "QD16", "QD4 x 2 jobs".
    pub load: String,
    pub cells: Vec<SweepCellView>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SweepCellView {
    pub config: String,
    /// No result at this load point: every value is "–".
    pub missing: bool,
    pub iops: CellView,
    pub lat_mean: CellView,
    /// None when no config reported p99 at this load point.
    pub clat_p99: Option<CellView>,
    /// Where the config ran at another queue depth than the row's: "QD1".
    pub ran_at: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct SweepSummaryView {
    pub config: String,
    /// "peak 306,000 IOPS at QD128".
    pub peak: String,
    /// "knee at QD16 (280,000 IOPS): past it at most 9.3 % more IOPS for
    /// 631 % more mean latency", or "no knee up to QD128".
    pub knee: String,
    /// "95 % of peak from QD32 (300,000 IOPS)": the lightest load point at
    /// `sweep_rules.saturation_pct` of the peak; empty without one.
    pub saturation: String,
    /// "305,193 IOPS at p99 ≤ 0.5 ms (interpolated between QD64 and
    /// QD128)"; empty without `--slo`.
    pub at_slo: String,
    /// The three joined: "fast: peak ...; knee ...; ...".
    pub line: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct GridView {
    pub config: String,
    /// Column heads, ascending.
    pub numjobs: Vec<u32>,
    /// One row per iodepth, ascending.
    pub rows: Vec<GridRowView>,
}

#[derive(Debug, Clone, Serialize)]
pub struct GridRowView {
    pub iodepth: u32,
    pub cells: Vec<GridCellView>,
}

#[derive(Debug, Clone, Serialize)]
pub struct GridCellView {
    /// IOPS as printed; "–" where not measured.
    pub text: String,
    /// The config's peak.
    pub peak: bool,
}

impl SweepView {
    pub fn new(cmp: &Comparison, t: &SweepTable) -> SweepView {
        let lat = lat_scale(&t.workloads);
        let iops = Metric::Iops.scale(0.0);
        SweepView {
            title: t.shape.title(),
            axis: axis_title(&t.sweeps),
            configs: t.configs.iter().map(|c| c.to_string()).collect(),
            lat_unit: lat.unit.to_string(),
            rows: t
                .workloads
                .iter()
                .map(|w| row(cmp, t, w, iops, lat))
                .collect(),
            summaries: t
                .sweeps
                .iter()
                .map(|s| summary(s, &cmp.sweep_rules))
                .collect(),
            grids: t
                .sweeps
                .iter()
                .filter(|s| is_grid(s))
                .map(|s| grid(s))
                .collect(),
            notes: notes(t),
        }
    }
}

/// One latency unit for the whole table, from its largest mean or p99.
fn lat_scale(workloads: &[&Workload]) -> Scale {
    let max = workloads
        .iter()
        .flat_map(|w| [w.metric(Metric::LatMeanNs), w.metric(Metric::ClatP99Ns)])
        .flatten()
        .flat_map(|m| m.values.values().flatten().copied())
        .fold(0.0, f64::max);
    Metric::LatMeanNs.scale(max)
}

fn axis_title(sweeps: &[&Sweep]) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for s in sweeps {
        for p in s.axis.split('+') {
            if !parts.contains(&p) {
                parts.push(p);
            }
        }
    }
    let named: Vec<String> = ["iodepth", "numjobs", "hosts"]
        .into_iter()
        .filter(|p| parts.contains(p))
        .map(|p| if p == "iodepth" { "queue depth" } else { p }.to_string())
        .collect();
    super::view::join_and(&named)
}

fn row(cmp: &Comparison, t: &SweepTable, w: &Workload, iops: Scale, lat: Scale) -> SweepRowView {
    let base = cmp.baseline.as_deref();
    // A row is a load point: each metric's values across configs print
    // with one count of decimals.
    let formats = [
        (Metric::Iops, iops),
        (Metric::LatMeanNs, lat),
        (Metric::ClatP99Ns, lat),
    ]
    .map(|(m, s)| w.metric(m).map(|r| (r, RowFormat::of(r, s))));
    let [iops_row, mean_row, p99_row] = formats;
    let at = |row: Option<(&MetricResult, RowFormat)>, c: &str| {
        row.map(|(r, f)| cell(r, c, &f, base == Some(c)))
            .unwrap_or_else(|| missing_cell(c))
    };
    let cells = t
        .configs
        .iter()
        .map(|c| SweepCellView {
            config: c.to_string(),
            missing: super::sweeps::iops(w, c).is_none(),
            iops: at(iops_row, c),
            lat_mean: at(mean_row, c),
            clat_p99: p99_row.map(|(r, f)| cell(r, c, &f, base == Some(*c))),
            ran_at: ran_at(w, c),
        })
        .collect();
    SweepRowView {
        load: w.load().label(),
        cells,
    }
}

fn missing_cell(config: &str) -> CellView {
    CellView {
        config: config.to_string(),
        text: format::MISSING.into(),
        best: false,
        winner: false,
        tied: false,
        delta: String::new(),
    }
}

/// "QD1" when the config ran at another depth than the row asked for.
fn ran_at(w: &Workload, config: &str) -> String {
    match w.effective_iodepth.get(config) {
        Some(d) if *d != w.iodepth => format!("QD{d}"),
        _ => String::new(),
    }
}

fn at(iodepth: u32, numjobs: u32) -> String {
    LoadPoint::of(iodepth, numjobs).label()
}

fn iops_text(v: f64) -> String {
    format::fixed(v, 0)
}

fn summary(s: &Sweep, rules: &SweepRules) -> SweepSummaryView {
    let peak = peak_text(&s.peak);
    let knee = match &s.knee {
        Some(k) => knee_text(k),
        None => no_knee_text(s),
    };
    let at_slo = match rules.slo {
        Some(slo) => slo_text(s.at_slo.as_ref(), slo.metric, slo.target_ns),
        None => String::new(),
    };
    let saturation = s
        .saturation
        .map(|sat| saturation_text(&sat, rules.saturation_pct))
        .unwrap_or_default();
    let mut parts = vec![peak.clone()];
    if !saturation.is_empty() {
        parts.push(saturation.clone());
    }
    parts.push(knee.clone());
    if !at_slo.is_empty() {
        parts.push(at_slo.clone());
    }
    SweepSummaryView {
        config: s.config.clone(),
        line: format!("{}: {}", s.config, parts.join("; ")),
        peak,
        knee,
        saturation,
        at_slo,
    }
}

/// "95 % of peak from QD4 x 6 jobs (58,906 IOPS)".
pub fn saturation_text(s: &Saturation, pct: f64) -> String {
    format!(
        "{} % of peak from {} ({} IOPS)",
        format::trimmed(pct, 1),
        s.load().label(),
        iops_text(s.iops)
    )
}

fn peak_text(p: &Peak) -> String {
    format!(
        "peak {} IOPS at {}",
        iops_text(p.iops),
        at(p.iodepth, p.numjobs)
    )
}

fn knee_text(k: &Knee) -> String {
    format!(
        "knee at {} ({} IOPS): past it at most {} % more IOPS for {} % more mean latency",
        at(k.iodepth, k.numjobs),
        iops_text(k.iops),
        format::fixed(k.iops_gain_pct, 1),
        format::fixed(k.lat_growth_pct, 0)
    )
}

fn no_knee_text(s: &Sweep) -> String {
    let last = s
        .points
        .iter()
        .map(|p| p.load())
        .max_by_key(|l| (l.outstanding(), *l));
    format!(
        "no knee up to {}",
        last.map_or(String::new(), |l| l.label())
    )
}

/// "p99 ≤ 0.5 ms".
pub fn slo_target_text(metric: SloMetric, target_ns: f64) -> String {
    let name = match metric {
        SloMetric::ClatP99 => "p99",
        SloMetric::LatMean => "mean latency",
    };
    let target = Metric::LatMeanNs.scale(target_ns).with_unit(target_ns);
    format!("{name} ≤ {target}")
}

fn slo_text(a: Option<&AtSlo>, metric: SloMetric, target_ns: f64) -> String {
    let target = slo_target_text(metric, target_ns);
    let Some(a) = a else {
        return format!("meets {target} at no load point");
    };
    let lower = at(a.iodepth, a.numjobs);
    let r#where = match (a.interpolated, a.upper_iodepth) {
        (true, Some(up)) => {
            let upper = at(up, a.upper_numjobs.unwrap_or(a.numjobs));
            format!("interpolated between {lower} and {upper}")
        }
        _ => format!("at {lower}"),
    };
    format!("{} IOPS at {target} ({where})", iops_text(a.iops))
}

fn grid(s: &Sweep) -> GridView {
    let mut depths: Vec<u32> = s.points.iter().map(|p| p.iodepth).collect();
    let mut jobs: Vec<u32> = s.points.iter().map(|p| p.numjobs).collect();
    depths.sort_unstable();
    depths.dedup();
    jobs.sort_unstable();
    jobs.dedup();
    let cell = |d: u32, j: u32| {
        let p = s.points.iter().find(|p| p.iodepth == d && p.numjobs == j);
        GridCellView {
            text: p.map_or(format::MISSING.into(), |p| iops_text(p.iops)),
            peak: p.is_some() && s.peak.iodepth == d && s.peak.numjobs == j,
        }
    };
    GridView {
        config: s.config.clone(),
        rows: depths
            .iter()
            .map(|&d| GridRowView {
                iodepth: d,
                cells: jobs.iter().map(|&j| cell(d, j)).collect(),
            })
            .collect(),
        numjobs: jobs,
    }
}

/// The workloads' notes, each with its load point, except those the table
/// shows itself: a config missing at a load point (its cells read "–"),
/// and a config's other-depth note after its first (the cells say where it
/// ran). Notes name the config first ("psync ran at queue depth 1, ..."),
/// which is how these are told apart.
fn notes(t: &SweepTable) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth_noted: Vec<&str> = Vec::new();
    for w in &t.workloads {
        let load = w.load().label();
        for n in &w.notes {
            if n.starts_with("no result from ") {
                continue;
            }
            let about = t
                .configs
                .iter()
                .find(|c| n.starts_with(&format!("{c} ran ")));
            if let Some(c) = about {
                if super::sweeps::iops(w, c).is_none() {
                    continue;
                }
                if !ran_at(w, c).is_empty() {
                    if depth_noted.contains(c) {
                        continue;
                    }
                    depth_noted.push(c);
                }
            }
            out.push(format!("{load}: {n}"));
        }
    }
    out
}
