//! A history chart: one metric of one workload over the runs of a
//! history, one line per config, each change point ringed and labelled
//! with its change, and the mean of each segment between change points
//! drawn dashed. The change points are `history show`'s; nothing here
//! finds any.

use plotters::prelude::*;

use crate::charts::Plot;
use crate::charts::axis::linear_ticks;
use crate::charts::figure::{Body, Figure};
use crate::charts::frame::Frame;
use crate::charts::lines::{ConfigLine, LinePlot, MarkShape, Marker, PointLabel, Range, Stroke};
use crate::charts::{load, names, palette, scale};
use crate::compare::Metric;
use crate::history::show::{HistoryReport, SeriesReport};
use crate::numbers;

/// Dots on the line only while they do not merge into one.
const MAX_DOTS: usize = 80;
/// Points a line keeps (the lowest and highest of each bucket of runs):
/// a plot about 1,400 pixels wide shows no more, and 100,000 runs drawn
/// one by one make charts of megabytes each.
const MAX_POINTS: usize = 600;

/// The series of one chart: one workload and metric, every config.
pub(crate) struct HistoryChart<'a> {
    series: Vec<&'a SeriesReport>,
    /// Index of each series' config among the report's configs (colour).
    colors: Vec<usize>,
    alpha: f64,
}

/// Charts of `report`, in its order: one per workload (with load point)
/// and metric.
pub(crate) fn plan(report: &HistoryReport) -> Vec<HistoryChart<'_>> {
    let mut configs: Vec<&str> = Vec::new();
    for s in &report.series {
        if !configs.contains(&s.config.as_str()) {
            configs.push(&s.config);
        }
    }
    let mut charts: Vec<HistoryChart> = Vec::new();
    for s in &report.series {
        let color = configs.iter().position(|c| *c == s.config).unwrap_or(0);
        let same = |c: &HistoryChart| {
            c.series[0].workload.title == s.workload.title && c.series[0].metric == s.metric
        };
        match charts.iter_mut().find(|c| same(c)) {
            Some(c) => {
                c.series.push(s);
                c.colors.push(color);
            }
            None => charts.push(HistoryChart {
                series: vec![s],
                colors: vec![color],
                alpha: report.alpha,
            }),
        }
    }
    charts
}

impl Plot for HistoryChart<'_> {
    type Source = HistoryReport;

    /// `history_randread_4k_read_qd32_iops`, the load as analyze's chart
    /// names spell it (`_qd8x2d` over two devices: [`names::load_slug`]).
    fn stem(&self, _: &HistoryReport) -> String {
        let s = self.series[0];
        let (shape, at) = (&s.workload.key.shape, s.workload.key.load);
        let mix = shape.rwmixread.map(|m| m.to_string()).unwrap_or_default();
        // A variant's word, as analyze's names carry it: two variants of
        // one workload are two charts.
        let variant = shape
            .variant
            .as_deref()
            .map(|v| format!("_{}", names::slug(v)))
            .unwrap_or_default();
        format!(
            "history_{}{mix}_{}_{}{variant}{}_{}",
            names::slug(&shape.rw),
            names::slug(&crate::units::format_bs(shape.bs_bytes)),
            shape.direction.as_str(),
            names::load_slug(&at),
            scale::metric_slug(s.metric)
        )
    }

    /// None: a history chart names the runs it draws in its footnote.
    fn footer(&self, _: &HistoryReport) -> Option<String> {
        None
    }

    fn figure(&self, _: &HistoryReport) -> Figure {
        let first = self.series[0];
        let metric = first.metric;
        let n = self.series.iter().map(|s| s.runs.len()).max().unwrap_or(1);
        let max = self
            .series
            .iter()
            .flat_map(|s| s.runs.iter().map(|p| p.value))
            .fold(0.0, f64::max);
        let (sc, y, y_ticks, y_title) = load::value_axis(metric, max, None);
        let (ticks, _) = linear_ticks(1.0, n as f64, 8);
        let mut plot = LinePlot::new(Range::Linear(0.5, n as f64 + 0.5), y, Vec::new());
        plot.x_ticks = ticks
            .into_iter()
            .filter(|t| *t >= 1.0 && t.fract() == 0.0)
            .map(|t| (t, numbers::fixed(t, 0)))
            .collect();
        plot.x_title = "Run, in the order added".into();
        plot.y_ticks = y_ticks;
        plot.y_title = y_title;
        for (s, &c) in self.series.iter().zip(&self.colors) {
            self.draw_series(&mut plot, s, palette::color(c), |v| sc.to_display(v));
        }
        let cps: usize = self.series.iter().map(|s| s.change_points.len()).sum();
        let frame = Frame {
            title: format!(
                "{}: {} over runs",
                first.workload.title,
                metric_human(metric)
            ),
            subtitle: Some(format!(
                "{} ({}); rings: change points (E-Divisive means, t-test p < {}); dashed: segment means",
                better_text(metric),
                match cps {
                    0 => "no change point".to_string(),
                    1 => "1 change point".to_string(),
                    k => format!("{k} change points"),
                },
                self.alpha
            )),
            legend: self
                .series
                .iter()
                .zip(&self.colors)
                .map(|(s, &c)| (s.config.clone(), palette::color(c)))
                .collect(),
            footnotes: vec![runs_note(first)],
            ..Default::default()
        };
        Figure {
            frame,
            body: Body::Lines(plot),
        }
    }
}

impl HistoryChart<'_> {
    fn draw_series(
        &self,
        plot: &mut LinePlot,
        s: &SeriesReport,
        color: RGBColor,
        to_display: impl Fn(f64) -> f64,
    ) {
        let values: Vec<f64> = s.runs.iter().map(|p| to_display(p.value)).collect();
        let pts = thin(&values, MAX_POINTS);
        plot.lines
            .push(ConfigLine::solid(color, pts, s.runs.len() <= MAX_DOTS));
        for (a, b, mean) in s.segments() {
            plot.lines.push(ConfigLine {
                color,
                points: vec![
                    (a as f64 + 0.7, to_display(mean)),
                    (b as f64 + 0.3, to_display(mean)),
                ],
                dots: false,
                stroke: Stroke::Dashed,
            });
        }
        for c in &s.change_points {
            let at = (c.index as f64 + 1.0, to_display(s.runs[c.index].value));
            plot.markers.push(Marker {
                at,
                color,
                shape: MarkShape::Ring,
            });
            let pct = c
                .change_pct
                .map_or(String::new(), |p| format!(": {}", numbers::lone_change(p)));
            plot.labels.push(PointLabel {
                at,
                text: format!("{}{pct}", c.run),
                color,
                strong: true,
            });
        }
    }
}

/// `values` as (run number from 1, value), at most about `max` of them:
/// beyond that, each bucket of consecutive runs keeps its lowest and its
/// highest value in run order, so a spike or a dip still shows.
fn thin(values: &[f64], max: usize) -> Vec<(f64, f64)> {
    let at = |i: usize| (i as f64 + 1.0, values[i]);
    if values.len() <= max {
        return (0..values.len()).map(at).collect();
    }
    let bucket = values.len().div_ceil(max / 2);
    let mut out = Vec::with_capacity(max + 2);
    for start in (0..values.len()).step_by(bucket) {
        let idx = start..(start + bucket).min(values.len());
        let lo = idx.clone().min_by(|a, b| values[*a].total_cmp(&values[*b]));
        let hi = idx.max_by(|a, b| values[*a].total_cmp(&values[*b]));
        if let (Some(lo), Some(hi)) = (lo, hi) {
            out.push(at(lo.min(hi)));
            if lo != hi {
                out.push(at(lo.max(hi)));
            }
        }
    }
    out
}

fn metric_human(metric: Metric) -> &'static str {
    metric.human()
}

fn better_text(metric: Metric) -> String {
    let b = scale::better_text(metric.better());
    let mut c = b.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// "Runs 1–30: from r1 (2026-12-01T08:30:00Z) to r30 (...)".
fn runs_note(s: &SeriesReport) -> String {
    match (s.runs.first(), s.runs.last()) {
        (Some(a), Some(b)) => format!(
            "{} runs, from {} ({}) to {} ({}).",
            s.runs.len(),
            a.run.id,
            a.run.time,
            b.run.id,
            b.run.time
        ),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::thin;

    #[test]
    fn thinning_keeps_short_lines_and_the_extremes_of_long_ones() {
        let short = [3.0, 1.0, 2.0];
        assert_eq!(thin(&short, 10), [(1.0, 3.0), (2.0, 1.0), (3.0, 2.0)]);
        let mut long: Vec<f64> = (0..10_000).map(|i| 100.0 + (i % 7) as f64).collect();
        long[4321] = 5.0;
        long[8765] = 900.0;
        let pts = thin(&long, 200);
        assert!(pts.len() <= 202, "{}", pts.len());
        assert!(pts.contains(&(4322.0, 5.0)), "the dip is kept");
        assert!(pts.contains(&(8766.0, 900.0)), "the spike is kept");
        assert!(pts.windows(2).all(|w| w[0].0 < w[1].0), "in run order");
    }
}
