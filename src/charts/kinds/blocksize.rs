//! Bandwidth and IOPS against block size, for one rw (and direction, and
//! mix) at one load point: bandwidth above, IOPS below, block size on a
//! log2 axis, one line per config. Drawn where some config measured the
//! rw at three block sizes or more: with two, the bar charts already show
//! both, and a line through two points says nothing about a trend.

use crate::charts::Plot;
use crate::charts::figure::{Body, Figure};
use crate::charts::frame::Frame;
use crate::charts::lines::{ConfigLine, LinePlot, MarkShape, Marker, Range};
use crate::charts::load;
use crate::charts::names::slug;
use crate::charts::scale::{self, ChartScale};
use crate::compare::{BsSweep, Comparison, Metric, RwLoad, Workload};
use crate::numbers;
use crate::units::format_bs;

/// Block sizes a config needs before the chart is drawn.
const MIN_BLOCK_SIZES: usize = 3;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BlockSizeCurve {
    /// Indices into `cmp.workloads`, block sizes ascending.
    pub workloads: Vec<usize>,
    /// The rw has block-size charts at several load points: the file name
    /// says which.
    pub load_in_name: bool,
}

pub(crate) fn plan(cmp: &Comparison) -> Vec<BlockSizeCurve> {
    // rw, direction, rwmixread and load: what stays fixed along the x axis.
    let mut groups: Vec<(RwLoad, Vec<usize>)> = Vec::new();
    for (i, w) in cmp.workloads.iter().enumerate() {
        let key = RwLoad::of(&w.key);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    groups.retain(|(_, v)| enough(cmp, v));
    let rw_of = |k: &RwLoad| (k.rw.clone(), k.direction, k.rwmixread);
    groups
        .iter()
        .map(|(k, v)| {
            let mut workloads = v.clone();
            workloads.sort_by_key(|i| cmp.workloads[*i].key.shape.bs_bytes);
            BlockSizeCurve {
                workloads,
                load_in_name: groups.iter().filter(|(o, _)| rw_of(o) == rw_of(k)).count() > 1,
            }
        })
        .collect()
}

/// Some config has IOPS at [`MIN_BLOCK_SIZES`] block sizes or more.
fn enough(cmp: &Comparison, workloads: &[usize]) -> bool {
    cmp.configs.iter().any(|c| {
        workloads
            .iter()
            .filter(|i| crate::render::sweeps::iops(&cmp.workloads[**i], c).is_some())
            .count()
            >= MIN_BLOCK_SIZES
    })
}

impl Plot for BlockSizeCurve {
    type Source = Comparison;

    fn stem(&self, cmp: &Comparison) -> String {
        let w = &cmp.workloads[self.workloads[0]];
        let mix = w
            .key
            .shape
            .rwmixread
            .map(|m| m.to_string())
            .unwrap_or_default();
        let mut stem = format!("bs_{}{mix}", slug(&w.key.shape.rw));
        if !names_direction(w) {
            stem.push_str(&format!("_{}", w.key.shape.direction));
        }
        if self.load_in_name {
            let l = w.key.load;
            stem.push_str(&format!("_qd{}", l.iodepth));
            if l.numjobs != 1 {
                stem.push_str(&format!("x{}", l.numjobs));
            }
        }
        stem
    }

    fn footer(&self, cmp: &Comparison) -> Option<String> {
        crate::charts::footer::line(self.workloads.iter().map(|&i| &cmp.workloads[i]), None)
    }

    fn figure(&self, cmp: &Comparison) -> Figure {
        let ws: Vec<&Workload> = self.workloads.iter().map(|i| &cmp.workloads[*i]).collect();
        let x = load::log2_range(ws.iter().map(|w| w.key.shape.bs_bytes as f64));
        let ticks = load::log2_ticks(x, |v| format_bs(v as u64));
        let sweeps = sweeps_of(cmp, ws[0]);
        let (mut top, bw_scale) = metric_plot(cmp, &ws, Metric::BwBytesPerS, x);
        top.markers = markers(cmp, &sweeps, &bw_scale);
        top.x_ticks = ticks.clone();
        let (mut bottom, _) = metric_plot(cmp, &ws, Metric::Iops, x);
        bottom.x_ticks = ticks;
        bottom.x_title = "Block size (log2 scale)".into();
        let w = ws[0];
        let frame = Frame {
            title: format!(
                "{} at {}: bandwidth and IOPS by block size",
                rw_label(w),
                w.key.load.label()
            ),
            subtitle: None,
            legend: crate::charts::legend::of(cmp, configs_drawn(cmp, &ws)),
            footnotes: marker_notes(cmp, &sweeps)
                .into_iter()
                .chain([
                    "Each point one workload of the comparison; its table has the winners and ties."
                        .into(),
                ])
                .collect(),
            ..Default::default()
        };
        Figure {
            frame,
            body: Body::Stack(vec![top, bottom]),
        }
    }
}

/// `randread`, `randrw 70/30 (write)`: the direction only where the rw
/// does not say it.
fn rw_label(w: &Workload) -> String {
    let rw = match w.key.shape.rwmixread {
        Some(m) => format!("{} {m}/{}", w.key.shape.rw, 100u32.saturating_sub(m)),
        None => w.key.shape.rw.clone(),
    };
    if names_direction(w) {
        rw
    } else {
        format!("{rw} ({})", w.key.shape.direction)
    }
}

/// The rw names the direction: `randread`, `write` (not `randrw`).
fn names_direction(w: &Workload) -> bool {
    !crate::model::is_mixed(&w.key.shape.rw)
        && w.key.shape.rw.contains(w.key.shape.direction.as_str())
}

fn configs_drawn(cmp: &Comparison, ws: &[&Workload]) -> Vec<usize> {
    (0..cmp.configs.len())
        .filter(|i| {
            ws.iter()
                .any(|w| crate::render::sweeps::iops(w, &cmp.configs[*i]).is_some())
        })
        .collect()
}

/// The lines of `metric` against block size, and the scale they are drawn
/// in (the marks on them need it).
fn metric_plot(
    cmp: &Comparison,
    ws: &[&Workload],
    metric: Metric,
    x: Range,
) -> (LinePlot, ChartScale) {
    // An excluded value is not drawn (see `MetricResult::value`).
    let value = |w: &Workload, c: &str| w.metric(metric)?.value(c);
    let all: Vec<f64> = ws
        .iter()
        .flat_map(|w| cmp.configs.iter().filter_map(|c| value(w, c)))
        .collect();
    let (scale, y, y_ticks, title) = load::value_axis_wide(metric, &all, &cmp.units);
    let lines = configs_drawn(cmp, ws)
        .into_iter()
        .map(|i| {
            let c = &cmp.configs[i];
            let pts = ws
                .iter()
                .filter_map(|w| Some((w.key.shape.bs_bytes as f64, scale.to_display(value(w, c)?))))
                .collect();
            ConfigLine::solid(crate::charts::palette::color(i), pts, true)
        })
        .collect();
    let mut plot = LinePlot::new(x, y, lines);
    plot.heading = Some(format!(
        "{} (higher is better)",
        scale::metric_name(metric, crate::compare::workload::P99)
    ));
    plot.y_ticks = y_ticks;
    plot.y_title = title;
    (plot, scale)
}

/// The block-size sweeps drawn in a chart of `w`'s rw and load point.
fn sweeps_of<'a>(cmp: &'a Comparison, w: &Workload) -> Vec<&'a BsSweep> {
    let at = RwLoad::of(&w.key);
    cmp.bs_sweeps.iter().filter(|s| s.at == at).collect()
}

/// Each config's knee (a ring) and saturation point (a square) on its
/// bandwidth line, as the scaling charts mark a load sweep's.
fn markers(cmp: &Comparison, sweeps: &[&BsSweep], scale: &ChartScale) -> Vec<Marker> {
    let mark = |s: &BsSweep, bs: u64, bw: f64, shape: MarkShape| Marker {
        at: (bs as f64, scale.to_display(bw)),
        color: load::color_of(cmp, &s.config),
        shape,
    };
    sweeps
        .iter()
        .flat_map(|s| {
            let knee = s
                .knee
                .map(|k| mark(s, k.bs_bytes, k.bw_bytes_per_s, MarkShape::Ring));
            let sat = s
                .saturation
                .map(|x| mark(s, x.bs_bytes, x.bw_bytes_per_s, MarkShape::Square));
            knee.into_iter().chain(sat)
        })
        .collect()
}

/// What the rings and squares mean, for the marks drawn.
fn marker_notes(cmp: &Comparison, sweeps: &[&BsSweep]) -> Vec<String> {
    let r = &cmp.sweep_rules;
    let mut notes = Vec::new();
    if sweeps.iter().any(|s| s.knee.is_some()) {
        notes.push(format!(
            "Knee (ringed): where the bandwidth curve turns flat (Kneedle, Satopää et al. 2011) while mean latency grows more than {} % past it.",
            numbers::fixed(r.knee_lat_growth_pct, 0)
        ));
    }
    if sweeps.iter().any(|s| s.saturation.is_some()) {
        notes.push(format!(
            "Saturation (square): the smallest block size at {} % of the config's peak bandwidth.",
            numbers::trimmed(r.saturation_pct, 1)
        ));
    }
    notes
}
