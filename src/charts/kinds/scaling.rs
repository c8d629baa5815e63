//! How one sweep shape scales with load: throughput (IOPS, or bandwidth
//! from 64 KiB blocks) against I/Os in flight on a log2 axis, one line per
//! config with its knee ringed; below it mean (solid) and p99 (dashed)
//! latency against the same axis.

use crate::charts::Plot;
use crate::charts::figure::{Body, Figure};
use crate::charts::lines::{
    ConfigLine, LinePlot, MarkShape, Marker, PointLabel, Range, Stroke, Whisker,
};
use crate::charts::load::{self, Throughput};
use crate::charts::scale::ChartScale;
use crate::compare::{Comparison, LoadPoint, Spread, Sweep, SweepPoint};
use crate::render::sweeps::SweepTable;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Scaling {
    /// Index into [`load::tables`].
    pub table: usize,
}

pub(crate) fn plan(cmp: &Comparison) -> Vec<Scaling> {
    load::per_table(cmp, |table| Scaling { table })
}

impl Plot for Scaling {
    type Source = Comparison;

    fn stem(&self, cmp: &Comparison) -> String {
        load::stem(cmp, "scaling", self.table)
    }

    fn footer(&self, cmp: &Comparison) -> Option<String> {
        load::footer(cmp, self.table)
    }

    fn figure(&self, cmp: &Comparison) -> Figure {
        let t = load::table(cmp, self.table);
        // The load axis as the sweep varies it: doubling depths on log2, a
        // linear numjobs range linear.
        let (x, ticks, log) = load::load_axis(&t);
        let mut top = throughput_plot(cmp, &t, x);
        top.x_ticks = ticks.clone();
        let mut bottom = latency_plot(cmp, &t, x);
        bottom.x_ticks = ticks;
        bottom.x_title = load::x_title(cmp, &t.sweeps, log);
        let grid_note = t.is_grid().then(|| {
            "Where several iodepth × numjobs reach the same number of I/Os in flight, the one with the most IOPS is drawn."
                .to_string()
        });
        let spreads: Vec<Spread> = spreads(&t, Throughput::of(t.workloads[0].key.shape.bs_bytes))
            .into_iter()
            .map(|(_, _, s)| s)
            .collect();
        let what = (
            "scaling with load",
            "Each point a measured load point; more throughput and less latency are better",
        );
        let frame = load::frame(cmp, &t, what, &spreads, grid_note.into_iter().collect());
        Figure {
            frame,
            body: Body::Stack(vec![top, bottom]),
        }
    }
}

/// (config, point, spread) of every drawn throughput point whose spread
/// the comparison knows: the points that get an error bar.
fn spreads<'a>(t: &SweepTable<'a>, kind: Throughput) -> Vec<(&'a str, &'a SweepPoint, Spread)> {
    t.sweeps
        .iter()
        .flat_map(|s| {
            load::points(s).into_iter().filter_map(|p| {
                let sd = load::spread_at(t, &s.config, p, kind.metric())?;
                Some((s.config.as_str(), p, sd))
            })
        })
        .collect()
}

fn throughput_plot(cmp: &Comparison, t: &SweepTable, x: Range) -> LinePlot {
    let kind = Throughput::of(t.shape.bs_bytes);
    let spreads = spreads(t, kind);
    // The axis holds the error bars' tops as well as the points.
    let tops = spreads.iter().map(|(_, p, s)| kind.value(p) + s.stddev);
    let max = t
        .sweeps
        .iter()
        .flat_map(|s| load::points(s))
        .map(|p| kind.value(p))
        .chain(tops)
        .fold(0.0, f64::max);
    let (scale, y, y_ticks, title) = load::value_axis(kind.metric(), max, Some(&cmp.units));
    let line = |s: &&Sweep| {
        let pts = load::points(s)
            .into_iter()
            .map(|p| (load::x_of(t, p), scale.to_display(kind.value(p))))
            .collect();
        ConfigLine::solid(load::color_of(cmp, &s.config), pts, true)
    };
    let mut plot = LinePlot::new(x, y, t.sweeps.iter().map(line).collect());
    plot.heading = Some(format!("{} (higher is better)", title));
    plot.y_ticks = y_ticks;
    plot.y_title = title;
    let knees: Vec<(Marker, &str)> = t
        .sweeps
        .iter()
        .filter_map(|s| {
            let at = &s.knee.as_ref()?.load;
            let ring = marker_at(cmp, t, s, (kind, &scale), at, MarkShape::Ring)?;
            Some((ring, s.config.as_str()))
        })
        .collect();
    let (hi, lo) = (plot.y.bounds_hi(), 0.0);
    let (knees, labels) = merge_rings(knees, (hi - lo) * 0.02);
    plot.labels.extend(labels);
    plot.markers = knees
        .into_iter()
        .chain(t.sweeps.iter().filter_map(|s| {
            let at = &s.saturation.as_ref()?.load;
            marker_at(cmp, t, s, (kind, &scale), at, MarkShape::Square)
        }))
        .collect();
    plot.whiskers = spreads
        .iter()
        .map(|(_, p, s)| {
            let v = kind.value(p);
            Whisker {
                at: (load::x_of(t, p), scale.to_display(v)),
                lo: scale.to_display((v - s.stddev).max(0.0)),
                hi: scale.to_display(v + s.stddev),
                across: false,
            }
        })
        .collect();
    plot
}

/// Knee rings of several configs on one point (the same load, throughput
/// within `tol` display units): one ring, in ink, labelled with the
/// configs ("knee: bfq, kyber, none"), rather than rings piled on one
/// another. A ring alone stays as it is.
fn merge_rings(rings: Vec<(Marker, &str)>, tol: f64) -> (Vec<Marker>, Vec<PointLabel>) {
    let mut groups: Vec<Vec<(Marker, &str)>> = Vec::new();
    for (m, config) in rings {
        let near = |g: &Vec<(Marker, &str)>| {
            let (x, y) = g[0].0.at;
            x == m.at.0 && (y - m.at.1).abs() <= tol
        };
        match groups.iter_mut().find(|g| near(g)) {
            Some(g) => g.push((m, config)),
            None => groups.push(vec![(m, config)]),
        }
    }
    let mut markers = Vec::new();
    let mut labels = Vec::new();
    for g in groups {
        if g.len() == 1 {
            markers.extend(g.into_iter().map(|(m, _)| m));
            continue;
        }
        let y = g.iter().map(|(m, _)| m.at.1).sum::<f64>() / g.len() as f64;
        let at = (g[0].0.at.0, y);
        let names: Vec<&str> = g.iter().map(|(_, c)| *c).collect();
        markers.push(Marker {
            at,
            color: crate::charts::palette::INK,
            shape: MarkShape::Ring,
        });
        labels.push(PointLabel {
            at,
            text: format!("knee: {}", names.join(", ")),
            color: crate::charts::palette::INK,
            strong: true,
        });
    }
    (markers, labels)
}

/// A mark of `shape` on the throughput line at `load` (a sweep's knee:
/// a ring; its saturation: a square).
fn marker_at(
    cmp: &Comparison,
    t: &SweepTable,
    s: &Sweep,
    (kind, scale): (Throughput, &ChartScale),
    at: &LoadPoint,
    shape: MarkShape,
) -> Option<Marker> {
    let p = s.points.iter().find(|p| &p.load == at)?;
    Some(Marker {
        at: (load::x_of(t, p), scale.to_display(kind.value(p))),
        color: load::color_of(cmp, &s.config),
        shape,
    })
}

fn latency_plot(cmp: &Comparison, t: &SweepTable, x: Range) -> LinePlot {
    let all: Vec<f64> = t
        .sweeps
        .iter()
        .flat_map(|s| load::points(s))
        .flat_map(|p| [p.lat_mean_ns, p.clat_p99_ns])
        .flatten()
        .collect();
    let (scale, y, y_ticks, log) = load::latency_axis(&all, &cmp.units);
    let mut lines = Vec::new();
    for s in &t.sweeps {
        let color = load::color_of(cmp, &s.config);
        let pts = load::points(s);
        let series = |f: fn(&crate::compare::SweepPoint) -> Option<f64>| -> Vec<(f64, f64)> {
            pts.iter()
                .filter_map(|p| Some((load::x_of(t, p), scale.to_display(f(p)?))))
                .collect()
        };
        lines.push(ConfigLine::solid(color, series(|p| p.lat_mean_ns), true));
        let p99 = series(|p| p.clat_p99_ns);
        if !p99.is_empty() {
            lines.push(ConfigLine {
                color,
                points: p99,
                dots: true,
                stroke: Stroke::Dashed,
            });
        }
    }
    let mut plot = LinePlot::new(x, y, lines);
    plot.heading = Some(format!(
        "Latency: mean solid, {} dashed (lower is better)",
        crate::compare::workload::tail_name(cmp.tail_percentile)
    ));
    plot.y_ticks = y_ticks;
    plot.y_title = match log {
        true => "Latency (log scale)".to_string(),
        false => format!("Latency ({})", scale.unit),
    };
    plot
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_on_one_point_merge_and_rings_apart_stay() {
        let ring = |x, y| Marker {
            at: (x, y),
            color: crate::charts::palette::color(0),
            shape: MarkShape::Ring,
        };
        let rings = vec![
            (ring(3.0, 785.0), "kyber"),
            (ring(3.0, 790.0), "none"),
            (ring(3.0, 300.0), "bfq"),
            (ring(2.0, 785.0), "spdk"),
        ];
        let (markers, labels) = merge_rings(rings, 16.0);
        assert_eq!(markers.len(), 3);
        assert_eq!(labels.len(), 1);
        assert_eq!(labels[0].text, "knee: kyber, none");
        assert_eq!(labels[0].at, (3.0, 787.5));
    }
}
