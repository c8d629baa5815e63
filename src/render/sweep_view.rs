//! The sweep part of the [`super::view::View`]: per sweep shape a table
//! with a row per load point and a column per config (IOPS, mean and p99
//! latency, marked as the comparison decided them at that load point), a
//! line per config with its peak, knee and IOPS under the latency target,
//! and for sweeps over both iodepth and numjobs a grid per config.

use indexmap::IndexMap;
use serde::Serialize;

use super::cell::{CellView, RowFormat, cell, cell_notes, join_and, merge_metrics};
use super::sweeps::{SweepTable, is_grid};
use crate::compare::metric::{RowStyle, Scale, Units};
use crate::compare::report_units::ReportUnits;
use crate::compare::sweep::slo_target_text;
use crate::compare::{
    AtSlo, Comparison, Knee, LoadPoint, Metric, Peak, Saturation, Slo, Sweep, SweepRules, Workload,
};
use crate::numbers;

#[derive(Debug, Clone, Serialize)]
pub struct SweepView {
    /// "randread 4k".
    pub title: String,
    /// What varies: "queue depth", "numjobs", "queue depth and numjobs".
    pub axis: String,
    /// Column configs: those with a value at one load point or more.
    pub configs: Vec<String>,
    /// Unit of both latencies in the cells: the report's latency unit
    /// ("ms", "µs"; [`crate::compare::report_units`]).
    pub lat_unit: String,
    /// The tail percentile in the cells: "p99", or the highest every run
    /// shares ("p95").
    pub tail: String,
    pub rows: Vec<SweepRowView>,
    /// One line per config that has a sweep: peak, knee, IOPS at the SLO.
    pub summaries: Vec<SweepSummaryView>,
    /// Per config swept over iodepth and numjobs: IOPS on a grid.
    pub grids: Vec<GridView>,
    /// The workloads' notes that the cells do not already show.
    pub notes: Vec<String>,
    /// The table in the report's markup, written by the Markdown or HTML
    /// renderer ([`super::md`], [`super::html`]); empty in the others.
    pub table: String,
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
    /// The table in the report's markup, written by the Markdown or HTML
    /// renderer ([`super::md`], [`super::html`]); empty in the others.
    pub table: String,
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
        let styles = ColumnStyles::of(t, &cmp.units);
        let rows: Vec<SweepRowView> = t
            .workloads
            .iter()
            .map(|w| row(cmp, t, w, &styles))
            .collect();
        let mut notes = cell_footnotes(t, &styles);
        notes.extend(self::notes(t));
        SweepView {
            title: t.title.clone(),
            axis: axis_title(&t.sweeps),
            configs: t.configs.iter().map(|c| c.to_string()).collect(),
            lat_unit: styles.lat.map(|s| s.unit.to_string()).unwrap_or_default(),
            tail: crate::compare::workload::tail_name(cmp.tail_percentile),
            rows,
            summaries: t
                .sweeps
                .iter()
                .map(|s| summary(s, &cmp.sweep_rules, &cmp.units))
                .collect(),
            grids: t
                .sweeps
                .iter()
                .filter(|s| is_grid(s))
                .map(|s| grid(s))
                .collect(),
            notes,
            table: String::new(),
        }
    }
}

/// The metrics of a sweep table's cells, in cell order.
const CELL_METRICS: [Metric; 3] = [Metric::Iops, Metric::LatMeanNs, Metric::ClatP99Ns];

/// How each column of a sweep table prints: latencies in the report's one
/// unit (said once, in the caption), each column with the decimals of its
/// own values; IOPS from the table's median.
struct ColumnStyles {
    /// The table's latency unit, said once.
    lat: Option<Scale>,
    /// (config, metric) -> style.
    styles: Vec<((String, Metric), RowStyle)>,
}

impl ColumnStyles {
    fn of(t: &SweepTable, units: &ReportUnits) -> ColumnStyles {
        let pairs = |m: Metric, c: Option<&str>| -> Vec<(f64, f64)> {
            t.workloads
                .iter()
                .filter_map(|w| w.metric(m))
                .flat_map(|r| r.compared_pairs_of(c))
                .collect()
        };
        let all = |ms: &[Metric]| -> Vec<(f64, f64)> {
            ms.iter().flat_map(|m| pairs(*m, None)).collect()
        };
        let table_lat =
            Metric::LatMeanNs.row_style(units, &all(&[Metric::LatMeanNs, Metric::ClatP99Ns]));
        let iops_median =
            numbers::median(all(&[Metric::Iops]).iter().map(|(v, _)| *v)).unwrap_or(0.0);
        let mut styles = Vec::new();
        for c in &t.configs {
            for m in CELL_METRICS {
                let style = match m {
                    Metric::Iops => column_style(
                        m,
                        Metric::Iops.scale(iops_median),
                        iops_median,
                        pairs(m, Some(c)),
                    ),
                    _ => {
                        let own = m.row_style(units, &pairs(m, Some(c)));
                        RowStyle {
                            median: table_lat.median,
                            ..own
                        }
                    }
                };
                styles.push(((c.to_string(), m), style));
            }
        }
        ColumnStyles {
            lat: Some(table_lat.scale),
            styles,
        }
    }

    fn get(&self, config: &str, metric: Metric) -> RowStyle {
        self.styles
            .iter()
            .find(|((c, m), _)| c == config && *m == metric)
            .map(|(_, s)| *s)
            .expect("every column of the table has a style")
    }
}

/// An IOPS column in a unit the table shares (`scale`, from the table's
/// `median`): the decimals of its values not far from that median.
fn column_style(m: Metric, scale: Scale, median: f64, column: Vec<(f64, f64)>) -> RowStyle {
    let near: Vec<(f64, f64)> = column
        .into_iter()
        .filter(|(v, _)| !numbers::is_far(*v, median))
        .collect();
    RowStyle {
        metric: m,
        decimals: m.row_decimals(&scale, near),
        scale,
        median,
        units: Units::Row,
        one_unit: false,
        trim_zeros: false,
        capped: false,
    }
}

/// The footnotes of the table's marked cells, one per config, metric and
/// reason with the load points it covers ("† p99 latency of X at QD1
/// and QD8: ...").
fn cell_footnotes(t: &SweepTable, styles: &ColumnStyles) -> Vec<String> {
    // Where the load points go, so one note at several load points is
    // said once.
    const AT: &str = "\u{0}";
    let mut grouped: Vec<(String, Vec<String>)> = Vec::new();
    for w in &t.workloads {
        for m in CELL_METRICS {
            let Some(r) = w.metric(m) else { continue };
            for c in &t.configs {
                let one = [c.to_string()];
                let over = match m {
                    Metric::Iops => "the table's IOPS",
                    _ => "the table's latencies",
                };
                for n in cell_notes(r, &one, &styles.get(c, m), (AT, over)) {
                    let load = w.key.load.label();
                    match grouped.iter_mut().find(|(k, _)| *k == n) {
                        Some((_, loads)) => loads.push(load),
                        None => grouped.push((n, vec![load])),
                    }
                }
            }
        }
    }
    merge_metrics(
        grouped
            .into_iter()
            .map(|(n, loads)| n.replace(AT, &format!(" at {}", join_and(&loads))))
            .collect(),
    )
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
    let named: Vec<String> = ["iodepth", "numjobs", "hosts", "devices", "instances"]
        .into_iter()
        .filter(|p| parts.contains(p))
        .map(|p| match p {
            "iodepth" => "queue depth",
            "devices" => "device count",
            "instances" => "fio instances running together",
            p => p,
        })
        .map(str::to_string)
        .collect();
    join_and(&named)
}

fn row(cmp: &Comparison, t: &SweepTable, w: &Workload, styles: &ColumnStyles) -> SweepRowView {
    let base = cmp.baseline.as_deref();
    // Each value prints in its column's style: one count of decimals per
    // config and metric down the table.
    let at = |m: Metric, c: &str| -> Option<CellView> {
        let r = w.metric(m)?;
        let f = RowFormat::with_style(r, styles.get(c, m));
        Some(cell(r, c, &f, base == Some(c)))
    };
    let cells = t
        .configs
        .iter()
        .map(|c| SweepCellView {
            config: c.to_string(),
            missing: super::sweeps::iops(w, c).is_none(),
            iops: at(Metric::Iops, c).unwrap_or_else(|| missing_cell(c)),
            lat_mean: at(Metric::LatMeanNs, c).unwrap_or_else(|| missing_cell(c)),
            clat_p99: at(Metric::ClatP99Ns, c),
            ran_at: ran_at(w, c),
        })
        .collect();
    SweepRowView {
        load: w.key.load.label(),
        cells,
    }
}

fn missing_cell(config: &str) -> CellView {
    CellView {
        config: config.to_string(),
        text: numbers::MISSING.into(),
        best: false,
        winner: false,
        tied: false,
        delta: String::new(),
        own_unit: false,
    }
}

/// "QD1" when the config ran at another depth than the row asked for.
fn ran_at(w: &Workload, config: &str) -> String {
    match w.effective_iodepth.get(config) {
        Some(d) if *d != w.key.load.iodepth => format!("QD{d}"),
        _ => String::new(),
    }
}

fn iops_text(v: f64) -> String {
    numbers::fixed(v, 0)
}

fn summary(s: &Sweep, rules: &SweepRules, units: &ReportUnits) -> SweepSummaryView {
    let peak = peak_text(&s.peak);
    let knee = match &s.knee {
        Some(k) => knee_text(k),
        None => no_knee_text(s),
    };
    let at_slo = match rules.slo {
        Some(slo) => slo_text(s.at_slo.as_ref(), &slo, units),
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
        numbers::trimmed(pct, 1),
        s.load.label(),
        iops_text(s.iops)
    )
}

fn peak_text(p: &Peak) -> String {
    format!("peak {} IOPS at {}", iops_text(p.iops), p.load.label())
}

/// A gain that rounds to 0.0 % is no gain; a latency grown past 10x is
/// said as a factor ("526x the mean latency"), as the findings say it.
fn knee_text(k: &Knee) -> String {
    let gain = numbers::fixed(k.iops_gain_pct, 1);
    let gain = if gain == "0.0" {
        "no further IOPS gain".to_string()
    } else {
        format!("at most {gain} % more IOPS")
    };
    let factor = 1.0 + k.lat_growth_pct / 100.0;
    let growth = if factor >= 10.0 {
        format!("{}x the mean latency", numbers::fixed(factor, 0))
    } else {
        format!(
            "{} % more mean latency",
            numbers::fixed(k.lat_growth_pct, 0)
        )
    };
    format!(
        "knee at {} ({} IOPS): past it {gain} for {growth}",
        k.load.label(),
        iops_text(k.iops),
    )
}

fn no_knee_text(s: &Sweep) -> String {
    let last = s
        .points
        .iter()
        .map(|p| p.load)
        .max_by_key(|l| (l.outstanding(), *l));
    format!(
        "no knee up to {}",
        last.map_or(String::new(), |l| l.label())
    )
}

fn slo_text(a: Option<&AtSlo>, slo: &Slo, units: &ReportUnits) -> String {
    let target = slo_target_text(slo, units);
    let Some(a) = a else {
        return format!("meets {target} at no load point");
    };
    let lower = a.load.label();
    let r#where = match (a.interpolated, a.upper()) {
        (true, Some(up)) => {
            format!("interpolated between {lower} and {}", up.label())
        }
        _ => format!("at {lower}"),
    };
    format!("{} IOPS at {target} ({where})", iops_text(a.iops))
}

fn grid(s: &Sweep) -> GridView {
    let mut depths: Vec<u32> = s.points.iter().map(|p| p.load.iodepth).collect();
    let mut jobs: Vec<u32> = s.points.iter().map(|p| p.load.numjobs).collect();
    depths.sort_unstable();
    depths.dedup();
    jobs.sort_unstable();
    jobs.dedup();
    let cell = |d: u32, j: u32| {
        let p = s
            .points
            .iter()
            .find(|p| p.load.iodepth == d && p.load.numjobs == j);
        GridCellView {
            text: p.map_or(numbers::MISSING.into(), |p| iops_text(p.iops)),
            peak: p.is_some() && s.peak.load.iodepth == d && s.peak.load.numjobs == j,
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
        table: String::new(),
    }
}

/// The workloads' notes, each with its load point, except those the table
/// shows itself: a config missing at a load point (its cells read "–"),
/// and a config's other-depth note after its first (the cells say where it
/// ran). Notes name the config first ("psync ran at queue depth 1, ..."),
/// which is how these are told apart. A note said at several load points
/// is said once, naming them all (`QD128 x 3, 5, 9, 17 instances: ...`).
fn notes(t: &SweepTable) -> Vec<String> {
    // Each note once, in first-seen order, with its load points.
    let mut out: IndexMap<String, Vec<LoadPoint>> = IndexMap::new();
    let mut depth_noted: Vec<&str> = Vec::new();
    for w in &t.workloads {
        let load = w.key.load;
        let lines = w.note_lines();
        for n in &lines {
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
            out.entry(n.clone()).or_default().push(load);
        }
    }
    out.into_iter()
        .map(|(n, loads)| format!("{}: {n}", LoadPoint::condense(&loads)))
        .collect()
}
