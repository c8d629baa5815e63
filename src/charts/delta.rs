//! Every config against the baseline, in percent, per workload: one chart
//! per group and metric, the deltas as the comparison computed them.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::bars::lower_first;
use super::frame::{Frame, Sizes};
use super::grouped::{Mark, Panel, Series};
use super::palette;
use super::scale::{Scale, better_text, metric_name, metric_slug};
use crate::compare::{Comparison, Metric};
use crate::model::Direction;

const METRICS: [Metric; 5] = [
    Metric::BwBytesPerS,
    Metric::Iops,
    Metric::LatMeanNs,
    Metric::ClatP99Ns,
    Metric::CpuPct,
];

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Delta {
    pub direction: Direction,
    pub metric: Metric,
}

/// Configs other than the baseline, with their display index.
fn others(cmp: &Comparison) -> Vec<(usize, &String)> {
    cmp.configs
        .iter()
        .enumerate()
        .filter(|(_, c)| Some(c.as_str()) != cmp.baseline.as_deref())
        .collect()
}

pub(crate) fn plan(cmp: &Comparison) -> Vec<Delta> {
    let has_baseline = cmp
        .baseline
        .as_ref()
        .is_some_and(|b| cmp.configs.contains(b));
    if !has_baseline || others(cmp).is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for direction in super::groups(cmp) {
        for metric in METRICS {
            let any = cmp.workloads.iter().any(|w| {
                w.direction == direction
                    && super::result(w, metric)
                        .is_some_and(|r| r.delta_pct.values().any(|d| d.is_some()))
            });
            if any {
                out.push(Delta { direction, metric });
            }
        }
    }
    out
}

impl Delta {
    pub fn stem(&self) -> String {
        format!(
            "delta_{}_{}",
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
        let baseline = cmp.baseline.clone().unwrap_or_default();
        let (categories, results): (Vec<_>, Vec<_>) = cmp
            .workloads
            .iter()
            .filter(|w| w.direction == self.direction)
            .filter_map(|w| Some((super::workload_label(w), super::result(w, self.metric)?)))
            .unzip();
        let others = others(cmp);
        let series = others
            .iter()
            .map(|(i, c)| Series {
                color: palette::color(*i),
                values: results
                    .iter()
                    .map(|r| r.delta_pct.get(*c).copied().flatten())
                    .collect(),
                marks: vec![Mark::None; results.len()],
            })
            .collect();
        let name = metric_name(self.metric);
        let better = results.first().map(|r| better_text(r.better));
        let frame = Frame {
            title: format!(
                "{} {}: change vs {}",
                super::group_title(self.direction),
                lower_first(name),
                baseline
            ),
            subtitle: Some(format!(
                "Percent of the baseline's value{}",
                better.map(|b| format!(" ({b})")).unwrap_or_default()
            )),
            legend: others
                .iter()
                .map(|(i, c)| (c.to_string(), palette::color(*i)))
                .collect(),
            footnotes: vec![format!(
                "Baseline: {baseline}. 0 % = same as the baseline; n/a = no value for that config."
            )],
        };
        let plot = frame.draw(root)?;
        Panel {
            heading: None,
            y_desc: "Change vs baseline (%)".into(),
            categories,
            series,
            scale: Scale::delta(),
        }
        .draw(&plot, Sizes::of(root))
    }
}
