//! Results over time: a history of runs kept as parquet parts in a
//! folder or a bucket ([`store`] over [`objects`], added to by [`add()`], merged by [`compact`] and checked
//! by [`verify`]), the series each workload, config and metric makes over the
//! runs ([`trend`]), their change points ([`changepoint`], E-Divisive
//! means with a t-test), `history show`'s report ([`show`]), the
//! history-aware CI gate of `check --history` ([`gate`]). Their reports
//! are written by [`crate::render::history`].
//!
//! Workloads are `compare`'s ([`crate::compare::workload::WorkloadKey`]:
//! rw, block size, mix, direction and load point), so runs at different
//! load points are never one series.

mod add;
pub mod changepoint;
mod columns;
pub mod compact;
mod error;
pub mod gate;
mod guard;
mod io_text;
pub mod objects;
pub mod show;
pub mod store;
#[doc(hidden)]
pub mod synth;
pub mod time;
pub mod trend;
pub mod verify;

pub use add::{Added, add, add_with};
pub use store::{RunMeta, Store, StoredRun};
