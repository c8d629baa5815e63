//! Grouped bars of one metric across one group's workloads (reads or
//! writes): bandwidth, IOPS, mean latency, p99 latency, CPU.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::frame::{Frame, Sizes};
use super::grouped::Panel;
use super::scale::{Scale, better_text, metric_name, metric_slug};
use crate::compare::{Comparison, Metric};
use crate::model::Direction;

/// The metrics that get a bar chart, in this order.
const METRICS: [Metric; 5] = [
    Metric::BwBytesPerS,
    Metric::Iops,
    Metric::LatMeanNs,
    Metric::ClatP99Ns,
    Metric::CpuPct,
];

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bars {
    pub direction: Direction,
    pub metric: Metric,
}

pub(crate) fn plan(cmp: &Comparison) -> Vec<Bars> {
    let mut out = Vec::new();
    for direction in super::groups(cmp) {
        for metric in METRICS {
            let any = cmp
                .workloads
                .iter()
                .any(|w| w.direction == direction && super::result(w, metric).is_some());
            if any {
                out.push(Bars { direction, metric });
            }
        }
    }
    out
}

impl Bars {
    pub fn stem(&self) -> String {
        format!(
            "bars_{}_{}",
            self.direction.as_str(),
            metric_slug(self.metric)
        )
    }

    pub fn draw<DB: DrawingBackend>(
        &self,
        cmp: &Comparison,
        root: &DrawingArea<DB, Shift>,
    ) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let (categories, results): (Vec<_>, Vec<_>) = cmp
            .workloads
            .iter()
            .filter(|w| w.direction == self.direction)
            .filter_map(|w| Some((super::workload_label(w), super::result(w, self.metric)?)))
            .unzip();
        let scale = Scale::for_metric(self.metric, super::max_value(&results));
        let name = metric_name(self.metric);
        let better = results.first().map(|r| r.better);
        let mut footnotes = super::precision_notes(cmp, name, &results, &scale);
        footnotes.extend(super::marks_note(&results));
        footnotes.extend(super::workload_notes(cmp, self.direction));
        let frame = Frame {
            title: format!(
                "{} {}{}",
                super::group_title(self.direction),
                lower_first(name),
                better
                    .map(|b| format!(" ({})", better_text(b)))
                    .unwrap_or_default()
            ),
            subtitle: None,
            legend: super::legend(cmp),
            footnotes,
        };
        let plot = frame.draw(root)?;
        let y_desc = match scale.unit {
            "" => name.to_string(),
            u => format!("{name} ({u})"),
        };
        Panel {
            heading: None,
            y_desc,
            categories,
            series: super::series(cmp, &results),
            scale,
        }
        .draw(&plot, Sizes::of(root))
    }
}

/// "Mean latency" -> "mean latency" after the group name; acronyms stay.
pub(crate) fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match (c.next(), s.chars().nth(1)) {
        (Some(f), Some(n)) if n.is_lowercase() => f.to_lowercase().chain(c).collect(),
        _ => s.to_string(),
    }
}
