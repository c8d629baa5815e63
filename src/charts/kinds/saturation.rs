//! The saturation curve of one sweep shape: mean latency against IOPS, one
//! line per config, each point labelled with its load ("QD16"). Latency
//! stays flat while the device has room and turns up where it saturates;
//! the knee is ringed. With `--slo` the target is a dashed rule and a
//! diamond marks the most IOPS each config sustains within it; a p99
//! target brings the p99 lines (dashed) it is read against.

use crate::charts::Plot;
use crate::charts::figure::Figure;
use crate::charts::lines::{
    ConfigLine, HRule, LinePlot, MarkShape, Marker, PointLabel, Stroke, Whisker,
};
use crate::charts::load;
use crate::charts::scale::ChartScale;
use crate::compare::sweep::slo_target_text;
use crate::compare::{Comparison, Metric, SloMetric, Spread, Sweep, SweepPoint};
use crate::render::sweeps::SweepTable;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SaturationChart {
    /// Index into [`load::tables`].
    pub table: usize,
}

pub(crate) fn plan(cmp: &Comparison) -> Vec<SaturationChart> {
    load::per_table(cmp, |table| SaturationChart { table })
}

/// True when the p99 lines are drawn: the target is a p99 one.
fn shows_p99(cmp: &Comparison) -> bool {
    cmp.sweep_rules
        .slo
        .is_some_and(|s| s.metric == SloMetric::ClatP99)
}

impl Plot for SaturationChart {
    type Source = Comparison;

    fn stem(&self, cmp: &Comparison) -> String {
        load::stem(cmp, "iops_latency", self.table)
    }

    fn footer(&self, cmp: &Comparison) -> Option<String> {
        load::footer(cmp, self.table)
    }

    fn figure(&self, cmp: &Comparison) -> Figure {
        let t = load::table(cmp, self.table);
        let p99 = shows_p99(cmp);
        let slo = cmp.sweep_rules.slo.map(|slo| format!(
            "Dashed rule: the latency target {} (--slo); diamonds: the most IOPS each config sustains within it, interpolated between load points where the report says so.",
            slo_target_text(&slo, &cmp.units)
        ));
        let subtitle = if p99 {
            format!(
                "Mean latency solid, {} dashed; lower and further right is better",
                crate::compare::workload::tail_name(cmp.tail_percentile)
            )
        } else {
            "Lower and further right is better; latency turns up where a config saturates".into()
        };
        let spreads: Vec<Spread> = iops_spreads(&t).into_iter().map(|(_, s)| s).collect();
        let what = ("latency against IOPS", subtitle.as_str());
        let frame = load::frame(cmp, &t, what, &spreads, slo.into_iter().collect());
        Figure::lines(frame, plot(cmp, &t, p99))
    }
}

/// (point, IOPS spread) of every drawn point that has a mean latency and
/// whose IOPS spread the comparison knows: the points with an error bar.
fn iops_spreads<'a>(t: &SweepTable<'a>) -> Vec<(&'a SweepPoint, Spread)> {
    t.sweeps
        .iter()
        .flat_map(|s| {
            load::points(s).into_iter().filter_map(|p| {
                p.lat_mean_ns?;
                Some((p, load::spread_at(t, &s.config, p, Metric::Iops)?))
            })
        })
        .collect()
}

fn plot(cmp: &Comparison, t: &SweepTable, p99: bool) -> LinePlot {
    let pts = || t.sweeps.iter().flat_map(|s| load::points(s));
    let spreads = iops_spreads(t);
    // The axis holds the error bars' right ends as well as the points.
    let ends = spreads.iter().map(|(p, s)| p.iops + s.stddev);
    let max_iops = pts().map(|p| p.iops).chain(ends).fold(0.0, f64::max);
    let mut lat: Vec<f64> = pts().filter_map(|p| p.lat_mean_ns).collect();
    if p99 {
        lat.extend(pts().filter_map(|p| p.clat_p99_ns));
    }
    if let Some(slo) = cmp.sweep_rules.slo {
        lat.push(slo.target_ns);
    }
    let (lat_scale, y, y_ticks, log) = load::latency_axis(&lat, &cmp.units);
    let (x_scale, x, x_ticks, x_title) = load::value_axis(Metric::Iops, max_iops, None);
    let mut plot = LinePlot::new(x, y, Vec::new());
    for s in &t.sweeps {
        add_sweep(&mut plot, cmp, s, (&x_scale, &lat_scale), p99);
    }
    if let Some(slo) = cmp.sweep_rules.slo {
        plot.rules.push(HRule {
            y: lat_scale.to_display(slo.target_ns),
            text: format!("target: {}", slo_target_text(&slo, &cmp.units)),
        });
    }
    plot.whiskers = spreads
        .iter()
        .filter_map(|(p, s)| {
            Some(Whisker {
                at: (
                    x_scale.to_display(p.iops),
                    lat_scale.to_display(p.lat_mean_ns?),
                ),
                lo: x_scale.to_display((p.iops - s.stddev).max(0.0)),
                hi: x_scale.to_display(p.iops + s.stddev),
                across: true,
            })
        })
        .collect();
    plot.x_ticks = x_ticks;
    plot.y_ticks = y_ticks;
    plot.x_title = x_title;
    let what = if p99 { "Latency" } else { "Mean latency" };
    plot.y_title = match log {
        true => format!("{what} (log scale)"),
        false => format!("{what} ({})", lat_scale.unit),
    };
    plot.y_label_width = 6.0;
    plot
}

/// One config's lines, its point labels, its knee ring and SLO diamond.
fn add_sweep(
    plot: &mut LinePlot,
    cmp: &Comparison,
    s: &Sweep,
    (xs, ys): (&ChartScale, &ChartScale),
    p99: bool,
) {
    let color = load::color_of(cmp, &s.config);
    let pts = load::points(s);
    let at = |p: &SweepPoint, lat: Option<f64>| Some((xs.to_display(p.iops), ys.to_display(lat?)));
    let mean: Vec<(f64, f64)> = pts.iter().filter_map(|p| at(p, p.lat_mean_ns)).collect();
    if p99 {
        let points: Vec<(f64, f64)> = pts.iter().filter_map(|p| at(p, p.clat_p99_ns)).collect();
        plot.lines.push(ConfigLine {
            color,
            points,
            dots: true,
            stroke: Stroke::Dashed,
        });
    }
    plot.lines.push(ConfigLine::solid(color, mean, true));
    let is_knee = |p: &SweepPoint| s.knee.is_some_and(|k| k.load == p.load);
    let is_saturation = |p: &SweepPoint| s.saturation.is_some_and(|x| x.load == p.load);
    for p in &pts {
        let Some(xy) = at(p, p.lat_mean_ns) else {
            continue;
        };
        let (knee, sat) = (is_knee(p), is_saturation(p));
        for (yes, shape) in [(knee, MarkShape::Ring), (sat, MarkShape::Square)] {
            if yes {
                plot.markers.push(Marker {
                    at: xy,
                    color,
                    shape,
                });
            }
        }
        let marks: Vec<&str> = [(knee, "knee"), (sat, "saturation")]
            .into_iter()
            .filter_map(|(yes, name)| yes.then_some(name))
            .collect();
        let mut text = p.load.label();
        if !marks.is_empty() {
            text = format!("{text} {}", marks.join(", "));
        }
        plot.labels.push(PointLabel {
            at: xy,
            text,
            color,
            strong: knee || sat,
        });
    }
    if let Some(a) = s.at_slo {
        plot.markers.push(Marker {
            at: (xs.to_display(a.iops), ys.to_display(a.lat_ns)),
            color,
            shape: MarkShape::Diamond,
        });
    }
}
