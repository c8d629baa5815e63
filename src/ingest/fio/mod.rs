//! fio's own output formats: JSON and json+ ([`fio_json`]), the normal
//! text report ([`normal`]), terse ([`terse`]), the log files
//! ([`fio_log`]), and what they share (job names, queue depths,
//! steady-state verdicts, idle profiling, fio's error lines). DiskSpd's
//! readers sit beside this folder in `ingest/diskspd/`.

pub(crate) mod block_size;
pub mod depth;
pub mod fio_error;
pub mod fio_json;
pub mod fio_log;
pub mod idle_prof;
pub(crate) mod jobname;
pub mod normal;
pub mod steady;
pub mod terse;
