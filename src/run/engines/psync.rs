//! `psync`: one `pread`/`pwrite` per I/O in the calling thread (fio's
//! `psync`, a `FIO_SYNCIO` engine: depth is 1 whatever `iodepth` says).
//!
//! The I/O is over before `queue` returns, so it can go through std's
//! positioned reads and writes (`pread64`/`pwrite64`, one call each) on a
//! slice of the buffer: this engine needs no `unsafe`.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;

use super::{AlignedBuf, Completion, Dir, Engine, IoUnit};

pub struct Psync<'f> {
    file: &'f File,
    buf: AlignedBuf,
    done: Option<Completion>,
}

impl<'f> Psync<'f> {
    pub fn new(file: &'f File, buf: AlignedBuf) -> Psync<'f> {
        Psync {
            file,
            buf,
            done: None,
        }
    }
}

impl Engine for Psync<'_> {
    fn queue(&mut self, io: IoUnit) -> io::Result<()> {
        let data = self.buf.slot_mut(io.slot, io.len)?;
        let r = match io.dir {
            Dir::Read => self.file.read_at(data, io.offset),
            Dir::Write => self.file.write_at(data, io.offset),
        };
        // An I/O error belongs to the I/O (fio's `error=`), not to the engine.
        let result = r.map_err(|e| e.raw_os_error().unwrap_or(libc::EIO));
        self.done = Some(Completion {
            slot: io.slot,
            result,
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
