//! `psync`: one `pread`/`pwrite` per I/O in the calling thread (fio's
//! `psync`, a `FIO_SYNCIO` engine: depth is 1 whatever `iodepth` says).
//!
//! The I/O is over before `queue` returns, so it can go through std's
//! positioned reads and writes (`pread64`/`pwrite64`, one call each) on a
//! slice of the buffer: this engine needs no `unsafe`.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;

use super::{AlignedBuf, Completion, Dir, IoUnit, SyncIo};

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
            Dir::Read => self.file.read_at(data, io.offset),
            Dir::Write => self.file.write_at(data, io.offset),
        };
        // An I/O error belongs to the I/O (fio's `error=`), not to the engine.
        let result = r.map_err(|e| e.raw_os_error().unwrap_or(libc::EIO));
        Ok(Completion {
            slot: io.slot,
            result,
        })
    }
}
