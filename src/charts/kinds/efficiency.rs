//! CPU efficiency per group: IOPS per CPU percent and bandwidth per CPU
//! percent side by side, with the comparison's winners marked. The figure
//! a CPU-bound comparison cares about most.

use crate::charts::Plot;
use crate::charts::figure::{Body, Figure};
use crate::charts::frame::Frame;
use crate::charts::grouped::Panel;
use crate::charts::scale::{ChartScale, metric_name};
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
        .filter(|m| crate::compare::sparse::sparse(cmp, direction, *m).is_none())
        .filter(|m| {
            cmp.workloads.iter().any(|w| {
                w.key.shape.direction == direction && crate::charts::groups::result(w, *m).is_some()
            })
        })
        .collect()
}

pub(crate) fn plan(cmp: &Comparison) -> Vec<Efficiency> {
    crate::charts::groups::directions(cmp)
        .into_iter()
        .filter(|d| !metrics_in(cmp, *d).is_empty())
        .map(|direction| Efficiency { direction })
        .collect()
}

impl Plot for Efficiency {
    type Source = Comparison;

    fn stem(&self, _: &Comparison) -> String {
        format!("efficiency_{}", self.direction.as_str())
    }

    fn footer(&self, cmp: &Comparison) -> Option<String> {
        crate::charts::footer::of_group(cmp, self.direction)
    }

    fn figure(&self, cmp: &Comparison) -> Figure {
        let metrics = metrics_in(cmp, self.direction);
        let mut panels = Vec::new();
        let mut footnotes = Vec::new();
        let mut all_results = Vec::new();
        for metric in &metrics {
            let (categories, results) =
                crate::charts::groups::results(cmp, self.direction, *metric);
            let scale = ChartScale::in_report(
                &cmp.units,
                *metric,
                crate::charts::groups::max_value(&results),
            );
            let name = &*metric_name(*metric, cmp.tail_percentile);
            footnotes.extend(crate::charts::notes::precision_notes(
                cmp, name, &results, &scale,
            ));
            let unit = if scale.unit.is_empty() {
                "IOPS per CPU %"
            } else {
                scale.unit
            };
            panels.push(Panel {
                heading: Some(format!(
                    "{name}{}",
                    crate::charts::labels::better_suffix(&results)
                )),
                y_desc: unit.to_string(),
                categories,
                series: crate::charts::groups::series(cmp, &results),
                decimals: scale.row_decimals(&results),
                scale,
                log: false,
            });
            all_results.extend(results);
        }
        footnotes.extend(crate::charts::notes::marks_note(&all_results));
        footnotes.push(
            "CPU % is whole-system CPU usage where the input reports it, else fio's usr + sys."
                .into(),
        );
        let frame = Frame {
            title: format!(
                "{} CPU efficiency",
                crate::charts::labels::group_title(self.direction)
            ),
            subtitle: Some("Work done per percent of CPU".into()),
            legend: crate::charts::legend::all(cmp),
            keys: crate::charts::legend::bar_keys(&all_results),
            footnotes,
            ..Default::default()
        };
        Figure {
            frame,
            body: Body::Panels(panels),
        }
    }
}
