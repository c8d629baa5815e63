//! Which workloads make one sweep table: a shape (rw, bs, direction,
//! rwmixread) that some config measured at two or more load points, its
//! load points in order and the configs that have values there. Shared by
//! the table renderers and the charts, so both show the same rows; neither
//! decides anything here, they only group what the comparison holds.

use crate::compare::workload::Shape;
use crate::compare::{Comparison, LoadPoint, Metric, Sweep, Workload, sweep};

/// One sweep shape of a comparison.
#[derive(Debug, Clone)]
pub struct SweepTable<'a> {
    pub shape: Shape,
    /// `randread 4k`, with the load a sweep along instances holds.
    pub title: String,
    /// The shape's workloads, one per load point, in load order.
    pub workloads: Vec<&'a Workload>,
    /// Configs (display order) with a value at one load point or more.
    pub configs: Vec<&'a str>,
    /// The shape's sweeps, one per config measured at two load points or
    /// more, in display order.
    pub sweeps: Vec<&'a Sweep>,
}

/// Every shape with a sweep, in the comparison's workload order.
pub fn tables(cmp: &Comparison) -> Vec<SweepTable<'_>> {
    sweep::by_shape(cmp)
        .into_iter()
        .map(|(shape, sweeps)| table(cmp, shape, sweeps))
        .collect()
}

fn table<'a>(cmp: &'a Comparison, shape: Shape, sweeps: Vec<&'a Sweep>) -> SweepTable<'a> {
    let mut workloads: Vec<&Workload> = cmp
        .workloads
        .iter()
        .filter(|w| sweep::covers(sweeps[0], &w.key))
        .collect();
    workloads.sort_by_key(|w| w.key.load);
    let configs = cmp
        .configs
        .iter()
        .filter(|c| workloads.iter().any(|w| iops(w, c).is_some()))
        .map(String::as_str)
        .collect();
    SweepTable {
        title: sweep::title(&shape, &sweeps),
        shape,
        workloads,
        configs,
        sweeps,
    }
}

/// A config's IOPS in a workload, when it has one.
pub fn iops(w: &Workload, config: &str) -> Option<f64> {
    w.metric(Metric::Iops)?
        .values
        .get(config)
        .copied()
        .flatten()
}

impl SweepTable<'_> {
    /// True when some sweep of the shape varies both iodepth and numjobs:
    /// it gets an iodepth x numjobs grid.
    pub fn is_grid(&self) -> bool {
        self.sweeps.iter().any(|s| is_grid(s))
    }

    /// Whether the workload is one of the table's rows.
    pub fn holds(&self, w: &Workload) -> bool {
        self.sweeps
            .first()
            .is_some_and(|s| sweep::covers(s, &w.key))
    }

    /// The load its sweeps hold when they run along instances
    /// ([`sweep::held`]).
    pub fn held(&self) -> Option<LoadPoint> {
        self.sweeps.first().and_then(|s| sweep::held(s))
    }

    /// The workload at `load`, when the shape was measured there.
    pub fn at(&self, load: LoadPoint) -> Option<&Workload> {
        self.workloads.iter().copied().find(|w| w.key.load == load)
    }

    /// The config's sweep in this shape.
    pub fn sweep_of(&self, config: &str) -> Option<&Sweep> {
        self.sweeps.iter().copied().find(|s| s.config == config)
    }
}

/// A sweep over both iodepth and numjobs.
pub fn is_grid(s: &Sweep) -> bool {
    let parts: Vec<&str> = s.axis.split('+').collect();
    parts.contains(&"iodepth") && parts.contains(&"numjobs")
}
