//! `null`: accepts every I/O and completes it at once without touching a
//! device, like fio's `engines/null.c`. It measures the harness itself.
//!
//! fio's null engine reports itself busy while a completion waits to be
//! reaped, so it runs at depth 1 whatever `iodepth` says; this one is a
//! sync engine for the same reason, so that its IOPS and latency compare
//! with fio's.

use std::io;

use super::{Completion, IoUnit, SyncIo};

pub struct Null;

impl SyncIo for Null {
    fn run(&mut self, io: IoUnit) -> io::Result<Completion> {
        Ok(Completion {
            slot: io.slot,
            result: Ok(io.len),
        })
    }
}
