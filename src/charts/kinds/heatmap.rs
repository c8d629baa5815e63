//! One config's sweep over both iodepth and numjobs as a heatmap: numjobs
//! across, iodepth up, each cell's tint its IOPS (one colour scale for
//! every config of the shape, so tints compare across the heatmaps), the
//! value printed in it and the peak outlined.

use crate::charts::Plot;
use crate::charts::figure::{Body, Figure};
use crate::charts::frame::Frame;
use crate::charts::heatgrid::HeatGrid;
use crate::charts::load;
use crate::charts::names::slug;
use crate::charts::scale::ChartScale;
use crate::compare::{Comparison, Metric, Sweep};
use crate::render::sweeps::is_grid;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Heatmap {
    /// Index into [`load::tables`].
    pub table: usize,
    /// Index into `cmp.configs`.
    pub config: usize,
}

pub(crate) fn plan(cmp: &Comparison) -> Vec<Heatmap> {
    let mut out = Vec::new();
    for (table, t) in load::tables(cmp).iter().enumerate() {
        for config in load::swept_configs(cmp, t) {
            if t.sweep_of(&cmp.configs[config]).is_some_and(is_grid) {
                out.push(Heatmap { table, config });
            }
        }
    }
    out
}

fn sorted(mut v: Vec<u32>) -> Vec<u32> {
    v.sort_unstable();
    v.dedup();
    v
}

impl Plot for Heatmap {
    type Source = Comparison;

    fn stem(&self, cmp: &Comparison) -> String {
        let t = load::table(cmp, self.table);
        format!(
            "heatmap_{}_{}",
            crate::charts::names::workload_slug(t.workloads[0]),
            slug(&cmp.configs[self.config])
        )
    }

    fn footer(&self, cmp: &Comparison) -> Option<String> {
        let config = cmp.configs[self.config].as_str();
        crate::charts::footer::line(load::table(cmp, self.table).workloads, Some(&[config]))
    }

    fn figure(&self, cmp: &Comparison) -> Figure {
        let t = load::table(cmp, self.table);
        let w = t.workloads[0];
        let config = &cmp.configs[self.config];
        let s = t.sweep_of(config).expect("planned for a swept config");
        let max = t
            .sweeps
            .iter()
            .filter(|s| is_grid(s))
            .flat_map(|s| &s.points)
            .map(|p| p.iops)
            .fold(0.0, f64::max);
        let shared = t.sweeps.iter().filter(|s| is_grid(s)).count() > 1;
        let frame = Frame {
            title: format!(
                "{} ({}): {config}, IOPS by queue depth and numjobs",
                crate::charts::labels::workload_label(w),
                w.key.shape.direction
            ),
            subtitle: Some(
                "Darker is more IOPS; under each, the mean latency; the peak is outlined".into(),
            ),
            legend: crate::charts::legend::of(cmp, [self.config]),
            footnotes: footnotes(shared),
            ..Default::default()
        };
        Figure {
            frame,
            body: Body::Heat(grid(
                s,
                max,
                crate::charts::palette::color(self.config),
                cmp.units.time(),
            )),
        }
    }
}

fn footnotes(shared: bool) -> Vec<String> {
    let mut out = vec![
        "IOPS of all jobs together at each iodepth × numjobs, the mean of the runs at that point."
            .to_string(),
    ];
    if shared {
        out.push(
            "One colour scale for every config's heatmap of this workload: equal tints are equal IOPS."
                .into(),
        );
    }
    out
}

fn grid(
    s: &Sweep,
    max: f64,
    color: plotters::style::RGBColor,
    unit: crate::numbers::Unit,
) -> HeatGrid {
    let depths = sorted(s.points.iter().map(|p| p.load.iodepth).collect());
    let jobs = sorted(s.points.iter().map(|p| p.load.numjobs).collect());
    let value = |d: u32, j: u32| {
        s.points
            .iter()
            .find(|p| p.load.iodepth == d && p.load.numjobs == j)
            .map(|p| p.iops)
    };
    // Each cell's mean latency in the report's unit, so a reader sees
    // what the IOPS cost without the sweep table.
    let latency = |d: u32, j: u32| {
        let ns = s
            .points
            .iter()
            .find(|p| p.load.iodepth == d && p.load.numjobs == j)?
            .lat_mean_ns?;
        let shown = ns / unit.div;
        Some(format!(
            "{} {}",
            crate::numbers::fixed(
                shown,
                crate::numbers::significant_decimals(shown)
                    .saturating_sub(1)
                    .max(crate::numbers::min_significant_decimals(shown))
            ),
            unit.name
        ))
    };
    let peak_row = depths.iter().position(|d| *d == s.peak.load.iodepth);
    let peak_col = jobs.iter().position(|j| *j == s.peak.load.numjobs);
    HeatGrid {
        cols: jobs.iter().map(|j| j.to_string()).collect(),
        rows: depths.iter().map(|d| format!("QD{d}")).collect(),
        values: depths
            .iter()
            .map(|&d| jobs.iter().map(|&j| value(d, j)).collect())
            .collect(),
        sub: depths
            .iter()
            .map(|&d| jobs.iter().map(|&j| latency(d, j)).collect())
            .collect(),
        max,
        color,
        peak: peak_row.zip(peak_col),
        scale: ChartScale::for_metric(Metric::Iops, max),
        x_title: "Jobs (numjobs)".into(),
        y_title: "Queue depth per job (iodepth)".into(),
        bar_title: "IOPS".into(),
    }
}
