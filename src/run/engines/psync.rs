//! `psync`: one `pread`/`pwrite` per I/O in the calling thread (fio's
//! `psync`, a `FIO_SYNCIO` engine: depth is 1 whatever `iodepth` says).

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, RawFd};

use super::{AlignedBuf, Completion, Dir, Engine, IoUnit};

pub struct Psync {
    fd: RawFd,
    base: *mut u8,
    slot_len: usize,
    done: Option<Completion>,
}

impl Psync {
    pub fn new(file: &File, buf: &AlignedBuf) -> Psync {
        Psync {
            fd: file.as_raw_fd(),
            base: buf.as_ptr(),
            slot_len: buf.slot_len(),
            done: None,
        }
    }
}

impl Engine for Psync {
    fn queue(&mut self, io: IoUnit) -> io::Result<()> {
        debug_assert!(io.len <= self.slot_len);
        let ptr = self.base.wrapping_add(io.slot * self.slot_len);
        let off = io.offset as libc::off_t;
        let r = match io.dir {
            // SAFETY: `ptr` points into the worker's AlignedBuf, which
            // outlives this engine; slot `io.slot` holds `slot_len >= len`
            // bytes and no other I/O uses that slot while this one runs.
            Dir::Read => unsafe { libc::pread(self.fd, ptr.cast(), io.len, off) },
            // SAFETY: as above; pwrite only reads the buffer.
            Dir::Write => unsafe { libc::pwrite(self.fd, ptr.cast(), io.len, off) },
        };
        let result = if r < 0 {
            Err(io::Error::last_os_error()
                .raw_os_error()
                .unwrap_or(libc::EIO))
        } else {
            Ok(r as usize)
        };
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
