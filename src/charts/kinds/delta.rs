//! Every config against the baseline, in percent, per workload: one chart
//! per group and metric, the deltas as the comparison computed them.

use super::bars::METRICS;
use crate::charts::Plot;
use crate::charts::figure::{Body, Figure};
use crate::charts::frame::Frame;
use crate::charts::grouped::{BarSeries, Mark, Panel};
use crate::charts::labels::lower_first;
use crate::charts::palette;
use crate::charts::scale::{ChartScale, metric_name};
use crate::compare::{Comparison, Metric, MetricResult};
use crate::model::Direction;
use crate::numbers;

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
    crate::charts::groups::metrics(cmp, &METRICS, |w, metric| {
        crate::charts::groups::result(w, metric)
            .is_some_and(|r| r.delta_pct.values().any(|d| d.is_some()))
    })
    .into_iter()
    .map(|(direction, metric)| Delta { direction, metric })
    .collect()
}

impl Plot for Delta {
    type Source = Comparison;

    fn stem(&self, cmp: &Comparison) -> String {
        crate::charts::names::group_metric_stem(
            "delta",
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
        let series = series(cmp, &results);
        let frame = self.frame(cmp, &categories, &results, &series);
        // Each workload's changes print with one count of decimals.
        let decimals = (0..results.len())
            .map(|i| {
                let row: Vec<f64> = series.iter().filter_map(|s| s.values[i]).collect();
                numbers::change_decimals(&row)
            })
            .collect();
        let panel = Panel {
            heading: None,
            y_desc: "Change vs baseline (%)".into(),
            categories,
            series,
            scale: ChartScale::delta(),
            decimals,
            log: false,
        };
        Figure {
            frame,
            body: Body::Panels(vec![panel]),
        }
    }
}

impl Delta {
    /// Title and subtitle, the configs against the baseline, the key of
    /// changes that are none, what the bars mean and what is left out.
    fn frame(
        &self,
        cmp: &Comparison,
        categories: &[String],
        results: &[&MetricResult],
        series: &[BarSeries],
    ) -> Frame {
        let baseline = cmp.baseline.clone().unwrap_or_default();
        let name = &*metric_name(self.metric, cmp.tail_percentile);
        let ratios = series
            .iter()
            .flat_map(|s| s.values.iter().flatten())
            .any(|d| *d > numbers::RATIO_FROM_PCT);
        Frame {
            title: format!(
                "{} {}{}: change vs {}",
                crate::charts::labels::group_title(self.direction),
                lower_first(name),
                crate::charts::groups::subject(cmp, self.direction)
                    .map_or(String::new(), |s| format!(" ({s})")),
                baseline
            ),
            subtitle: Some(format!(
                "Percent of the baseline's value{}",
                crate::charts::labels::better_suffix(results)
            )),
            legend: crate::charts::legend::of(cmp, others(cmp).iter().map(|(i, _)| *i)),
            keys: crate::charts::legend::baseline_tie_key(results).into_iter().collect(),
            footnotes: std::iter::once(format!(
                "Baseline: {baseline}. 0 % = same as the baseline; n/a = no value for that config.{}",
                if ratios { " x12.3 = 12.3 times the baseline's value." } else { "" }
            ))
            .chain(crate::charts::notes::excluded_notes(name, categories, results))
            .collect(),
            ..Default::default()
        }
    }
}

/// One series per config other than the baseline: its change from the
/// baseline across `results`, and which are no real change.
fn series(cmp: &Comparison, results: &[&MetricResult]) -> Vec<BarSeries> {
    others(cmp)
        .iter()
        .map(|(i, c)| BarSeries {
            name: (*c).clone(),
            color: palette::color(*i),
            // An excluded value has no change to draw, whatever
            // delta_pct holds.
            values: results
                .iter()
                .map(|r| {
                    let shown = r.exclusion(c).is_none()
                        && cmp
                            .baseline
                            .as_deref()
                            .is_none_or(|b| r.exclusion(b).is_none());
                    r.delta_pct.get(*c).copied().flatten().filter(|_| shown)
                })
                .collect(),
            marks: results
                .iter()
                .map(|r| {
                    if r.exclusion(c).is_some() {
                        Mark::Excluded
                    } else if r.baseline_ties.contains_key(*c) {
                        Mark::Same
                    } else {
                        Mark::None
                    }
                })
                .collect(),
            // A delta's spread needs both sides' and is not the
            // comparison's to give yet: no whiskers here.
            spreads: vec![None; results.len()],
        })
        .collect()
}
