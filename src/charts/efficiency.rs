//! CPU efficiency per group: IOPS per CPU percent and bandwidth per CPU
//! percent side by side, with the comparison's winners marked. The figure
//! a CPU-bound comparison cares about most.

use super::figure::{Body, Figure};
use super::frame::Frame;
use super::grouped::Panel;
use super::scale::{Scale, metric_name};
use crate::compare::{Comparison, Metric};
use crate::model::Direction;

const METRICS: [Metric; 2] = [Metric::IopsPerCpuPct, Metric::BwPerCpuPct];

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Efficiency {
    pub direction: Direction,
}

fn metrics_in(cmp: &Comparison, direction: Direction) -> Vec<Metric> {
    METRICS
        .into_iter()
        .filter(|m| {
            cmp.workloads
                .iter()
                .any(|w| w.key.shape.direction == direction && super::result(w, *m).is_some())
        })
        .collect()
}

pub(crate) fn plan(cmp: &Comparison) -> Vec<Efficiency> {
    super::groups(cmp)
        .into_iter()
        .filter(|d| !metrics_in(cmp, *d).is_empty())
        .map(|direction| Efficiency { direction })
        .collect()
}

impl Efficiency {
    pub fn stem(&self) -> String {
        format!("efficiency_{}", self.direction.as_str())
    }

    pub fn figure(&self, cmp: &Comparison) -> Figure {
        let metrics = metrics_in(cmp, self.direction);
        let mut panels = Vec::new();
        let mut footnotes = Vec::new();
        let mut all_results = Vec::new();
        for metric in &metrics {
            let (categories, results) = super::group_results(cmp, self.direction, *metric);
            let scale = Scale::for_metric(*metric, super::max_value(&results));
            let name = metric_name(*metric);
            footnotes.extend(super::precision_notes(cmp, name, &results, &scale));
            let unit = if scale.unit.is_empty() {
                "IOPS per CPU %"
            } else {
                scale.unit
            };
            panels.push(Panel {
                heading: Some(format!("{name}{}", super::better_suffix(&results))),
                y_desc: unit.to_string(),
                categories,
                series: super::series(cmp, &results),
                decimals: scale.row_decimals(&results),
                scale,
            });
            all_results.extend(results);
        }
        footnotes.extend(super::marks_note(&all_results));
        footnotes.push(
            "CPU % is whole-system CPU usage where the input reports it, else fio's usr + sys."
                .into(),
        );
        let frame = Frame {
            title: format!("{} CPU efficiency", super::group_title(self.direction)),
            subtitle: Some("Work done per percent of CPU".into()),
            legend: super::legend(cmp),
            keys: super::spread_key(&all_results)
                .into_iter()
                .chain(super::tie_key(&all_results))
                .collect(),
            footnotes,
            ..Default::default()
        };
        Figure {
            frame,
            body: Body::Panels(panels),
        }
    }
}
