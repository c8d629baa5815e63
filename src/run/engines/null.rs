//! `null`: accepts every I/O and completes it at once without touching a
//! device, like fio's `engines/null.c`. It measures the harness itself.
//!
//! fio's null engine reports itself busy while a completion waits to be
//! reaped, so it runs at depth 1 whatever `iodepth` says; this one is a
//! sync engine for the same reason, so that its IOPS and latency compare
//! with fio's.

use std::io;

use super::{Completion, Engine, IoUnit};

#[derive(Default)]
pub struct Null {
    done: Option<Completion>,
}

impl Null {
    pub fn new() -> Null {
        Null::default()
    }
}

impl Engine for Null {
    fn queue(&mut self, io: IoUnit) -> io::Result<()> {
        self.done = Some(Completion {
            slot: io.slot,
            result: Ok(io.len),
        });
        Ok(())
    }

    fn commit(&mut self) -> io::Result<usize> {
        Ok(0)
    }

    fn reap(&mut self, _min: usize, _max: usize, out: &mut Vec<Completion>) -> io::Result<()> {
        out.extend(self.done.take());
        Ok(())
    }
}
