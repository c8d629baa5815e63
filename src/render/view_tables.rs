//! The tables of analyze's report pages, walked once: report.md and
//! report.html differ in how each table's cells read, not in which tables
//! there are or where they go in the [`View`].

use super::bs_sweep_view::BsSweepView;
use super::devices_view::DeviceTableView;
use super::setup_view::SetupView;
use super::sweep_view::{GridView, SweepView};
use super::table::{Markup, Table};
use super::view::{View, WorkloadView};

/// A page's markup with the tables it makes of the view.
pub trait ViewTables: Markup {
    /// What every config shares.
    fn shared_table(s: &SetupView) -> Table;
    /// What differs between configs.
    fn differing_table(s: &SetupView) -> Table;
    /// A workload's metrics, config by config.
    fn workload_table(w: &WorkloadView, configs: &[String]) -> Table;
    /// A sweep: load points by config.
    fn sweep_table(s: &SweepView) -> Table;
    /// A grid of a sweep over two loads.
    fn grid_table(g: &GridView) -> Table;
    /// A block-size sweep.
    fn bs_sweep_table(b: &BsSweepView) -> Table;
    /// The devices of each config.
    fn device_table(d: &DeviceTableView) -> Table;

    /// Writes every table into the view, where the template takes them.
    fn set_tables(&self, view: &mut View)
    where
        Self: Sized,
    {
        let write = |t: Table| self.table(&t);
        view.setup.shared_table = write(Self::shared_table(&view.setup));
        view.setup.differing_table = write(Self::differing_table(&view.setup));
        let configs = view.configs.clone();
        for g in &mut view.groups {
            for w in &mut g.workloads {
                w.table = write(Self::workload_table(w, &configs));
            }
            for s in &mut g.sweeps {
                s.table = write(Self::sweep_table(s));
                for gr in &mut s.grids {
                    gr.table = write(Self::grid_table(gr));
                }
            }
        }
        for b in &mut view.bs_sweeps {
            b.table = write(Self::bs_sweep_table(b));
        }
        for d in &mut view.devices {
            d.table = write(Self::device_table(d));
        }
    }
}

/// Every table [`ViewTables::set_tables`] wrote into `view`: the texts a
/// Markdown template inserts as they are (any other text it escapes).
pub fn written(view: &View) -> std::collections::HashSet<&str> {
    let mut all = vec![
        view.setup.shared_table.as_str(),
        view.setup.differing_table.as_str(),
    ];
    for g in &view.groups {
        all.extend(g.workloads.iter().map(|w| w.table.as_str()));
        for s in &g.sweeps {
            all.push(s.table.as_str());
            all.extend(s.grids.iter().map(|gr| gr.table.as_str()));
        }
    }
    all.extend(view.bs_sweeps.iter().map(|b| b.table.as_str()));
    all.extend(view.devices.iter().map(|d| d.table.as_str()));
    all.into_iter().filter(|t| !t.is_empty()).collect()
}
