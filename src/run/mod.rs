//! `run`: the native I/O harness. Engines (psync, libaio, io_uring, null,
//! fio) behind one trait, fio-compatible measurement and JSON output, and
//! the safety rules for writing to disks.

pub mod engines;
