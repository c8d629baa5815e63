//! Steady state judged from fio's logs, after reading and before
//! comparing: each log joined to the run it measured ([`run_logs`]), and
//! each run that logged IOPS or bandwidth judged by SNIA's rule ([`snia`])
//! where fio itself gave no verdict. [`crate::input`] calls both once per
//! command; `compare` takes the verdicts ([`crate::compare::SteadyVerdicts`])
//! and the timeseries charts take the runs' logs.
//!
//! fio's own verdict (its `steadystate` option) is read with the row, and
//! the verdict's type ([`crate::compare::SteadyState`]) is the comparison's:
//! this module only produces verdicts, so it sits above `compare`.

pub mod run_logs;
pub mod snia;

pub use run_logs::RunLogs;
