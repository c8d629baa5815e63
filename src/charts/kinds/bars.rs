//! Grouped bars of one metric across one group's workloads (reads or
//! writes): bandwidth, IOPS, mean latency, p99 latency, CPU.

use crate::charts::Plot;
use crate::charts::figure::{Body, Figure};
use crate::charts::frame::Frame;
use crate::charts::grouped::Panel;
use crate::charts::scale::{ChartScale, metric_name};
use crate::compare::{Comparison, Metric};
use crate::model::Direction;

/// The metrics that get a bar chart, in this order.
pub(crate) const METRICS: [Metric; 5] = [
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
    crate::charts::groups::metrics(cmp, &METRICS, |w, metric| {
        crate::charts::groups::result(w, metric).is_some()
    })
    .into_iter()
    .map(|(direction, metric)| Bars { direction, metric })
    .collect()
}

impl Plot for Bars {
    type Source = Comparison;

    fn stem(&self, cmp: &Comparison) -> String {
        crate::charts::names::group_metric_stem(
            "bars",
            self.direction,
            self.metric,
            cmp.tail_percentile,
        )
    }

    fn footer(&self, cmp: &Comparison) -> Option<String> {
        crate::charts::footer::of_group(cmp, self.direction)
    }

    fn figure(&self, cmp: &Comparison) -> Figure {
        let (categories, results) =
            crate::charts::groups::results(cmp, self.direction, self.metric);
        let scale = ChartScale::in_report(
            &cmp.units,
            self.metric,
            crate::charts::groups::max_value(&results),
        );
        let name = &*metric_name(self.metric, cmp.tail_percentile);
        let mut footnotes = crate::charts::notes::excluded_notes(name, &categories, &results);
        footnotes.extend(crate::charts::notes::precision_notes(
            cmp, name, &results, &scale,
        ));
        footnotes.extend(crate::charts::notes::marks_note(&results));
        footnotes.extend(crate::charts::notes::workload_notes(cmp, self.direction));
        footnotes.extend(crate::charts::groups::subset_note(cmp, self.direction));
        let frame = Frame {
            title: format!(
                "{} {}{}{}",
                crate::charts::labels::group_title(self.direction),
                crate::charts::labels::lower_first(name),
                crate::charts::groups::subject(cmp, self.direction)
                    .map_or(String::new(), |s| format!(": {s}")),
                crate::charts::labels::better_suffix(&results)
            ),
            subtitle: None,
            legend: crate::charts::legend::all(cmp),
            keys: crate::charts::legend::bar_keys(&results),
            footnotes,
            ..Default::default()
        };
        let log = self.metric.is_latency()
            && crate::charts::grouped::wants_log(
                results.iter().flat_map(|r| r.compared().map(|(_, v)| v)),
            );
        let y_desc = match scale.unit {
            // Each tick of a log axis carries its unit.
            _ if log => format!("{name}, log scale"),
            "" => name.to_string(),
            u => format!("{name} ({u})"),
        };
        let panel = Panel {
            heading: None,
            y_desc,
            categories,
            series: crate::charts::groups::series(cmp, &results),
            decimals: scale.row_decimals(&results),
            scale,
            log,
        };
        Figure {
            frame,
            body: Body::Panels(vec![panel]),
        }
    }
}
