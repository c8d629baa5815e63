//! `null`: accepts every I/O and completes it at once without touching a
//! device, like fio's `engines/null.c`. It measures the harness itself.

use std::io;

use super::{Caps, Completion, Engine, IoUnit};

pub struct Null {
    queued: Vec<IoUnit>,
    done: Vec<Completion>,
}

impl Null {
    pub fn new(depth: u32) -> Null {
        Null {
            queued: Vec::with_capacity(depth as usize),
            done: Vec::with_capacity(depth as usize),
        }
    }
}

impl Engine for Null {
    fn caps(&self) -> Caps {
        Caps {
            sync: false,
            no_io: true,
        }
    }

    fn queue(&mut self, io: IoUnit) -> io::Result<()> {
        self.queued.push(io);
        Ok(())
    }

    fn commit(&mut self) -> io::Result<usize> {
        let n = self.queued.len();
        self.done.extend(self.queued.drain(..).map(|io| Completion {
            slot: io.slot,
            result: Ok(io.len),
        }));
        Ok(n)
    }

    fn reap(&mut self, _min: usize, out: &mut Vec<Completion>) -> io::Result<()> {
        out.append(&mut self.done);
        Ok(())
    }
}
