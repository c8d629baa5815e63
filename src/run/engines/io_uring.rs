//! `io_uring`: one ring per worker through the `io-uring` crate, with
//! fio's options to register the buffers (`fixedbufs`: the kernel maps
//! them once instead of per I/O) and the file (`registerfiles`), and
//! kernel-side submission polling (`sqthread_poll`).
//!
//! The engine owns the buffers the kernel reads and writes and borrows the
//! file, so neither can go while it lives; dropping it waits for what is in
//! flight, and leaks the buffers if the kernel will not say it is done.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};

use io_uring::{IoUring, opcode, squeue, types};

use super::{AlignedBuf, Completion, Dir, Engine, EngineOptions, IoUnit};

/// How many times cleanup asks the kernel for the I/O still in flight
/// before it gives up on it and leaks the buffers.
const DRAIN_TRIES: usize = 10_000;

pub struct Uring<'f> {
    /// Declared before `buf`: fields drop in order, so the ring (and its
    /// registration of the buffers) goes first.
    ring: IoUring,
    fd: BorrowedFd<'f>,
    buf: AlignedBuf,
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

impl<'f> Uring<'f> {
    pub fn new(
        file: &'f File,
        depth: u32,
        buf: AlignedBuf,
        opts: EngineOptions,
    ) -> io::Result<Uring<'f>> {
        let entries = depth.next_power_of_two().max(1);
        let ring = setup(entries, opts.sqpoll)
            .map_err(|e| io::Error::new(e.kind(), format!("io_uring_setup({entries}): {e}")))?;
        if opts.fixedbufs {
            let iovecs = (0..buf.slots())
                .map(|i| {
                    Ok(libc::iovec {
                        iov_base: buf.slot_ptr(i, buf.slot_len())?.cast(),
                        iov_len: buf.slot_len(),
                    })
                })
                .collect::<io::Result<Vec<_>>>()?;
            // SAFETY: the iovecs cover `buf`, which moves into the engine
            // below: its heap memory does not move with it, and it is freed
            // only after the ring is closed (field order) and nothing is in
            // flight (`drop`).
            unsafe { ring.submitter().register_buffers(&iovecs) }
                .map_err(|e| io::Error::new(e.kind(), format!("io_uring register_buffers: {e}")))?;
        }
        if opts.registerfiles {
            ring.submitter()
                .register_files(&[file.as_raw_fd()])
                .map_err(|e| io::Error::new(e.kind(), format!("io_uring register_files: {e}")))?;
        }
        Ok(Uring {
            ring,
            fd: file.as_fd(),
            buf,
            opts,
            queued: 0,
            inflight: 0,
        })
    }

    fn entry(&self, io: IoUnit) -> io::Result<squeue::Entry> {
        let ptr = self.buf.slot_ptr(io.slot, io.len)?;
        let len = u32::try_from(io.len).map_err(io::Error::other)?;
        // Registered buffers are named by a u16 index.
        let idx = if self.opts.fixedbufs {
            u16::try_from(io.slot).map_err(io::Error::other)?
        } else {
            0
        };
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
            build!(types::Fd(self.fd.as_raw_fd()))
        };
        Ok(e.user_data(io.slot as u64))
    }

    /// Waits until the kernel has completed everything it was given: with
    /// SQPOLL it may have taken queued entries already, so those count too.
    /// False when it would not say so.
    fn wait_all(&mut self) -> bool {
        let mut left = self.inflight + self.queued;
        for _ in 0..DRAIN_TRIES {
            if left == 0 {
                return true;
            }
            match self.ring.submit_and_wait(left) {
                Ok(_) => {}
                Err(e) if matches!(e.raw_os_error(), Some(libc::EINTR | libc::EAGAIN)) => {}
                Err(_) => return false,
            }
            left -= self.ring.completion().count().min(left);
        }
        left == 0
    }
}

impl Engine for Uring<'_> {
    fn queue(&mut self, io: IoUnit) -> io::Result<()> {
        let e = self.entry(io)?;
        // SAFETY: the SQE names slot `io.slot` of `self.buf`, checked by
        // `slot_ptr` to hold `io.len` bytes; the engine owns the buffer and
        // nothing else reads or writes it, and `drop` frees it only once
        // the kernel has completed every SQE (or leaks it); `self.fd` is
        // borrowed, so the file stays open as long as the engine.
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

impl Drop for Uring<'_> {
    fn drop(&mut self) {
        // Closing the ring does not wait for the I/O in flight: the kernel
        // would still write into the buffers after they are freed.
        if !self.wait_all() {
            self.buf.leak_on_drop();
        }
    }
}
