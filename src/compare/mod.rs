//! The comparison rules, in one place: workloads, metrics and their
//! direction, winners, ties (precision and significance), deltas against a
//! baseline, OS families, highlights and sanity checks. Works on the
//! dataset's rows only, never on raw files.

pub mod model;
pub mod stats;

pub use model::*;
