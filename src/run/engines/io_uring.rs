//! `io_uring`: one ring per worker through the `io-uring` crate, with
//! fio's options to register the buffers (`fixedbufs`: the kernel maps
//! them once instead of per I/O) and the file (`registerfiles`), and
//! kernel-side submission polling (`sqthread_poll`).

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;

use io_uring::{IoUring, opcode, squeue, types};

use super::{AlignedBuf, Completion, Dir, Engine, EngineOptions, IoUnit};

pub struct Uring {
    ring: IoUring,
    fd: i32,
    base: *mut u8,
    slot_len: usize,
    opts: EngineOptions,
    /// SQEs pushed since the last submit.
    queued: usize,
    inflight: usize,
}

/// Sets the ring up as fio's io_uring engine does: completion queue as deep
/// as the submission queue, no IPIs for completions (`COOP_TASKRUN`), and
/// completion work run only when the one thread that uses the ring asks for
/// events (`SINGLE_ISSUER | DEFER_TASKRUN`); each flag is dropped again when
/// the kernel is too old for it (EINVAL). Without them, I/O that the kernel
/// hands to its io-wq workers (buffered reads on tmpfs, for one) costs
/// several times the CPU and a quarter of fio's IOPS.
fn setup(entries: u32, sqpoll: bool) -> io::Result<IoUring> {
    // Most to least: defer+coop, coop only, none.
    let mut last = None;
    for level in (0..3).rev() {
        let mut b = IoUring::builder();
        b.setup_cqsize(entries);
        if sqpoll {
            // DEFER_TASKRUN cannot go with a kernel submission thread.
            b.setup_sqpoll(1000);
        } else if level == 2 {
            b.setup_single_issuer().setup_defer_taskrun();
        }
        if level >= 1 {
            b.setup_coop_taskrun();
        }
        match b.build(entries) {
            Ok(ring) => return Ok(ring),
            Err(e) if e.raw_os_error() == Some(libc::EINVAL) => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::from_raw_os_error(libc::EINVAL)))
}

impl Uring {
    pub fn new(
        file: &File,
        depth: u32,
        buf: &AlignedBuf,
        opts: EngineOptions,
    ) -> io::Result<Uring> {
        let entries = depth.next_power_of_two().max(1);
        let ring = setup(entries, opts.sqpoll)
            .map_err(|e| io::Error::new(e.kind(), format!("io_uring_setup({entries}): {e}")))?;
        let fd = file.as_raw_fd();
        if opts.fixedbufs {
            let iovecs: Vec<libc::iovec> = (0..buf.slots())
                .map(|i| libc::iovec {
                    iov_base: buf.as_ptr().wrapping_add(i * buf.slot_len()).cast(),
                    iov_len: buf.slot_len(),
                })
                .collect();
            // SAFETY: the iovecs cover the worker's AlignedBuf, which is
            // declared before this engine and so outlives the ring (the
            // registration ends when the ring is dropped).
            unsafe { ring.submitter().register_buffers(&iovecs) }
                .map_err(|e| io::Error::new(e.kind(), format!("io_uring register_buffers: {e}")))?;
        }
        if opts.registerfiles {
            ring.submitter()
                .register_files(&[fd])
                .map_err(|e| io::Error::new(e.kind(), format!("io_uring register_files: {e}")))?;
        }
        Ok(Uring {
            ring,
            fd,
            base: buf.as_ptr(),
            slot_len: buf.slot_len(),
            opts,
            queued: 0,
            inflight: 0,
        })
    }

    fn entry(&self, io: IoUnit) -> squeue::Entry {
        let ptr = self.base.wrapping_add(io.slot * self.slot_len);
        let len = io.len as u32;
        let idx = io.slot as u16;
        macro_rules! build {
            ($target:expr) => {
                match (io.dir, self.opts.fixedbufs) {
                    (Dir::Read, false) => opcode::Read::new($target, ptr, len)
                        .offset(io.offset)
                        .build(),
                    (Dir::Read, true) => opcode::ReadFixed::new($target, ptr, len, idx)
                        .offset(io.offset)
                        .build(),
                    (Dir::Write, false) => opcode::Write::new($target, ptr, len)
                        .offset(io.offset)
                        .build(),
                    (Dir::Write, true) => opcode::WriteFixed::new($target, ptr, len, idx)
                        .offset(io.offset)
                        .build(),
                }
            };
        }
        let e = if self.opts.registerfiles {
            build!(types::Fixed(0))
        } else {
            build!(types::Fd(self.fd))
        };
        e.user_data(io.slot as u64)
    }
}

impl Engine for Uring {
    fn queue(&mut self, io: IoUnit) -> io::Result<()> {
        let e = self.entry(io);
        // SAFETY: the SQE's buffer is slot `io.slot` of the worker's
        // AlignedBuf, which outlives the ring, and the worker does not
        // reuse the slot until its completion is reaped.
        unsafe { self.ring.submission().push(&e) }
            .map_err(|_| io::Error::other("io_uring submission queue full"))?;
        self.queued += 1;
        Ok(())
    }

    fn commit(&mut self) -> io::Result<usize> {
        if self.queued == 0 {
            return Ok(0);
        }
        let n = self.ring.submit()?;
        self.queued -= n.min(self.queued);
        self.inflight += n;
        Ok(n)
    }

    fn reap(&mut self, min: usize, max: usize, out: &mut Vec<Completion>) -> io::Result<()> {
        let min = min.min(self.inflight);
        if min > 0 && self.ring.completion().len() < min {
            match self.ring.submit_and_wait(min) {
                Ok(_) => {}
                Err(e) if e.raw_os_error() == Some(libc::EINTR) => {}
                Err(e) => return Err(e),
            }
        }
        for cqe in self.ring.completion().take(max.max(1)) {
            let r = cqe.result();
            out.push(Completion {
                slot: cqe.user_data() as usize,
                result: if r < 0 { Err(-r) } else { Ok(r as usize) },
            });
            self.inflight -= 1;
        }
        Ok(())
    }
}
