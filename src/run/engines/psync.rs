//! `psync`: one `pread`/`pwrite` per I/O in the calling thread (fio's
//! `psync`, a `FIO_SYNCIO` engine: depth is 1 whatever `iodepth` says).
//!
//! The I/O is over before `queue` returns, so it can go through std's
//! positioned reads and writes (`pread64`/`pwrite64`, one call each, via
//! [`super::sys`]) on a slice of the buffer: this engine needs no `unsafe`.

use std::fs::File;
use std::io;

use super::{AlignedBuf, Completion, Dir, IoUnit, SyncIo, sys};

pub struct Psync<'f> {
    file: &'f File,
    buf: AlignedBuf,
}

impl<'f> Psync<'f> {
    pub fn new(file: &'f File, buf: AlignedBuf) -> Psync<'f> {
        Psync { file, buf }
    }
}

impl SyncIo for Psync<'_> {
    fn run(&mut self, io: IoUnit) -> io::Result<Completion> {
        let data = self.buf.slot_mut(io.slot, io.len)?;
        let r = match io.dir {
            Dir::Read => sys::read_at(self.file, data, io.offset),
            Dir::Write => sys::write_at(self.file, data, io.offset),
        };
        // An I/O error belongs to the I/O (fio's `error=`), not to the engine.
        let result = r.map_err(|e| e.raw_os_error().unwrap_or(sys::EIO));
        Ok(Completion {
            slot: io.slot,
            result,
        })
    }
}
