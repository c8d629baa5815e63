//! `libaio`: Linux native AIO through the raw syscalls (io_setup,
//! io_submit, io_getevents, io_destroy), without libaio.so. The structs
//! mirror `linux/aio_abi.h`; AIO is only asynchronous with O_DIRECT.
//!
//! The engine owns the buffers the kernel reads and writes and borrows the
//! file, so neither can go while it lives; its cleanup (`io_destroy`)
//! waits for what is in flight before the buffers are freed.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};

use super::{AlignedBuf, Completion, Dir, Engine, IoUnit};

const IOCB_CMD_PREAD: u16 = 0;
const IOCB_CMD_PWRITE: u16 = 1;

/// `struct iocb` of aio_abi.h (64 bytes). `aio_key` and `aio_rw_flags`
/// swap places on big-endian machines (the kernel's PADDED macro).
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Iocb {
    aio_data: u64,
    #[cfg(target_endian = "little")]
    aio_key: u32,
    aio_rw_flags: i32,
    #[cfg(target_endian = "big")]
    aio_key: u32,
    aio_lio_opcode: u16,
    aio_reqprio: i16,
    aio_fildes: u32,
    aio_buf: u64,
    aio_nbytes: u64,
    aio_offset: i64,
    aio_reserved2: u64,
    aio_flags: u32,
    aio_resfd: u32,
}

/// `struct io_event` of aio_abi.h.
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct IoEvent {
    data: u64,
    obj: u64,
    res: i64,
    res2: i64,
}

const _: () = assert!(std::mem::size_of::<Iocb>() == 64);
const _: () = assert!(std::mem::size_of::<IoEvent>() == 32);

pub struct Libaio<'f> {
    ctx: libc::c_ulong,
    fd: BorrowedFd<'f>,
    buf: AlignedBuf,
    /// One iocb per buffer slot. The kernel copies an iocb at io_submit but
    /// keeps its address to name the I/O (io_event.obj, io_cancel), so it
    /// stays put: the Vec is never resized.
    iocbs: Vec<Iocb>,
    /// Slots queued since the last commit.
    pending: Vec<usize>,
    ptrs: Vec<*mut Iocb>,
    events: Vec<IoEvent>,
    inflight: usize,
}

fn check(r: libc::c_long) -> io::Result<libc::c_long> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

impl<'f> Libaio<'f> {
    pub fn new(file: &'f File, depth: u32, buf: AlignedBuf) -> io::Result<Libaio<'f>> {
        let mut ctx: libc::c_ulong = 0;
        // SAFETY: io_setup writes one aio_context_t to the pointer given;
        // `ctx` is zero as the syscall requires.
        check(unsafe { libc::syscall(libc::SYS_io_setup, depth as libc::c_long, &mut ctx) })
            .map_err(|e| io::Error::new(e.kind(), format!("io_setup({depth}): {e}")))?;
        Ok(Libaio {
            ctx,
            fd: file.as_fd(),
            iocbs: vec![Iocb::default(); buf.slots()],
            pending: Vec::with_capacity(depth as usize),
            ptrs: Vec::with_capacity(depth as usize),
            events: vec![IoEvent::default(); depth as usize],
            inflight: 0,
            buf,
        })
    }
}

impl Engine for Libaio<'_> {
    fn queue(&mut self, io: IoUnit) -> io::Result<()> {
        let data = self.buf.slot_ptr(io.slot, io.len)?;
        // One iocb per buffer slot: `slot_ptr` checked the index.
        let cb = &mut self.iocbs[io.slot];
        *cb = Iocb {
            aio_data: io.slot as u64,
            aio_lio_opcode: match io.dir {
                Dir::Read => IOCB_CMD_PREAD,
                Dir::Write => IOCB_CMD_PWRITE,
            },
            aio_fildes: self.fd.as_raw_fd() as u32,
            aio_buf: data as u64,
            aio_nbytes: io.len as u64,
            aio_offset: io.offset as i64,
            ..Iocb::default()
        };
        self.pending.push(io.slot);
        Ok(())
    }

    fn commit(&mut self) -> io::Result<usize> {
        let mut sent = 0;
        while sent < self.pending.len() {
            self.ptrs.clear();
            for &slot in &self.pending[sent..] {
                self.ptrs.push(&mut self.iocbs[slot]);
            }
            // SAFETY: every pointer is to an iocb in `self.iocbs`, which is
            // never resized (the kernel copies the iocb and keeps only its
            // address as a tag); each iocb names a slot of `self.buf`,
            // checked by `slot_ptr`, which this engine owns and nothing else
            // reads or writes, and which is not freed before `drop` has
            // waited for the I/O (io_destroy); `self.fd` is borrowed, so the
            // file stays open as long as the engine.
            let r = unsafe {
                libc::syscall(
                    libc::SYS_io_submit,
                    self.ctx,
                    self.ptrs.len() as libc::c_long,
                    self.ptrs.as_mut_ptr(),
                )
            };
            match check(r) {
                Ok(0) => break,
                Ok(n) => sent += n as usize,
                Err(e) if e.raw_os_error() == Some(libc::EAGAIN) && self.inflight + sent > 0 => {
                    break;
                }
                Err(e) => return Err(io::Error::new(e.kind(), format!("io_submit: {e}"))),
            }
        }
        self.pending.drain(..sent);
        self.inflight += sent;
        Ok(sent)
    }

    fn reap(&mut self, min: usize, max: usize, out: &mut Vec<Completion>) -> io::Result<()> {
        if self.inflight == 0 {
            return Ok(());
        }
        let min = min.min(self.inflight);
        let max = max.clamp(min.max(1), self.events.len());
        let r = loop {
            // SAFETY: `events` has room for `max` <= `events.len()`
            // io_events; a null timeout waits until `min` are done.
            let r = unsafe {
                libc::syscall(
                    libc::SYS_io_getevents,
                    self.ctx,
                    min as libc::c_long,
                    max as libc::c_long,
                    self.events.as_mut_ptr(),
                    std::ptr::null_mut::<libc::timespec>(),
                )
            };
            match check(r) {
                Err(e) if e.raw_os_error() == Some(libc::EINTR) => {
                    if super::sys::interrupted() {
                        break 0;
                    }
                }
                other => break other? as usize,
            }
        };
        for ev in &self.events[..r] {
            out.push(Completion {
                slot: ev.data as usize,
                result: if ev.res < 0 {
                    Err(-ev.res as i32)
                } else {
                    Ok(ev.res as usize)
                },
            });
        }
        self.inflight -= r;
        Ok(())
    }
}

impl Drop for Libaio<'_> {
    fn drop(&mut self) {
        // Cleanup: io_destroy waits for what is still in flight, so no
        // buffer is freed under the kernel's feet (the fields, the buffer
        // among them, drop after this).
        // SAFETY: `ctx` came from io_setup and is destroyed once.
        let r = unsafe { libc::syscall(libc::SYS_io_destroy, self.ctx) };
        if r < 0 && self.inflight > 0 {
            // The kernel did not say it is done: better leak than free.
            self.buf.leak_on_drop();
        }
    }
}
