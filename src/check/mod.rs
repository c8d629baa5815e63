//! `check`: verdicts of a candidate against a baseline (regression,
//! improvement, unchanged) per workload and metric, with the noise rules of
//! [`crate::compare::stats`].
