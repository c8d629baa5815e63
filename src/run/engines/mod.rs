//! I/O engines, one file each, picked by a closed enum: like fio's
//! `ioengines.h`, an engine is a few hooks (setup, queue, commit, reap,
//! cleanup) plus capability flags. The worker loop in `run::worker` owns
//! the buffers, the clock and the statistics; an engine only moves I/O.
//!
//! `sys.rs` holds the few OS calls the rest of the harness needs (aligned
//! buffers, rusage, SIGINT): they are `unsafe` and live here so that every
//! `unsafe` block of the crate is in this folder.
//!
//! Ownership carries the safety of the asynchronous engines: an engine
//! *owns* the buffers it hands to the kernel and *borrows* the file
//! (`Box<dyn Engine + 'f>`), so the compiler keeps both alive as long as
//! the engine, and the engine's cleanup waits for what is in flight before
//! its buffers are freed. A borrowed buffer could not promise that:
//! `mem::forget` of the engine is safe, and would end the borrow while the
//! kernel still writes into the memory; forgetting an owning engine only
//! leaks the buffer. Every slot index is checked (`AlignedBuf::slot_ptr`)
//! before it becomes an address.

pub mod null;
pub mod psync;
pub mod sys;

#[cfg(target_os = "linux")]
pub mod io_uring;
#[cfg(target_os = "linux")]
pub mod libaio;
#[cfg(windows)]
pub mod windowsaio;

use std::fs::File;
use std::io;

pub use sys::AlignedBuf;

/// Which way an I/O goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    Read,
    Write,
}

impl Dir {
    /// fio's name for the direction.
    pub fn as_str(self) -> &'static str {
        match self {
            Dir::Read => "read",
            Dir::Write => "write",
        }
    }
}

/// One I/O to do: buffer slot `slot` of the engine's buffer, `len` bytes
/// at byte `offset` of the target.
#[derive(Debug, Clone, Copy)]
pub struct IoUnit {
    pub slot: usize,
    pub dir: Dir,
    pub offset: u64,
    pub len: usize,
}

/// A finished I/O: its slot and the bytes moved (or the errno). The slot
/// comes back from the kernel (`user_data`): the worker checks it.
#[derive(Debug, Clone, Copy)]
pub struct Completion {
    pub slot: usize,
    pub result: Result<usize, i32>,
}

/// What an engine can do (fio's `FIO_SYNCIO` and friends), known from its
/// kind before it is set up: the worker sizes its buffers by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// The I/O is done inside `queue` (no submission latency, depth 1).
    pub sync: bool,
}

/// Options some engines take (io_uring's registered buffers and files).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EngineOptions {
    /// io_uring: register the worker's buffers (`fixedbufs` in fio).
    pub fixedbufs: bool,
    /// io_uring: register the file (`registerfiles` in fio).
    pub registerfiles: bool,
    /// io_uring: kernel-side submission polling (`sqthread_poll`).
    pub sqpoll: bool,
}

impl EngineOptions {
    /// Stable text for the spec hash and the JSON.
    pub fn canonical(&self) -> String {
        format!(
            "fixedbufs={};registerfiles={};sqthread_poll={}",
            self.fixedbufs as u8, self.registerfiles as u8, self.sqpoll as u8
        )
    }
}

/// The hooks of one engine instance (one per worker thread).
pub trait Engine {
    /// Queues one I/O. A sync engine does it here.
    fn queue(&mut self, io: IoUnit) -> io::Result<()>;
    /// Hands everything queued to the kernel; returns how many went.
    fn commit(&mut self) -> io::Result<usize>;
    /// Waits for at least `min` completions and appends what is done, at
    /// most `max` of them.
    fn reap(&mut self, min: usize, max: usize, out: &mut Vec<Completion>) -> io::Result<()>;
}

/// An engine that does each I/O inside `queue` (fio's `FIO_SYNCIO`): it
/// hands back one completion per call, and [`Synchronous`] makes it an
/// [`Engine`] whose commit has nothing to hand over and whose reap returns
/// that completion.
pub trait SyncIo {
    fn run(&mut self, io: IoUnit) -> io::Result<Completion>;
}

/// A [`SyncIo`] engine with the completion it has not reaped yet.
pub struct Synchronous<T> {
    inner: T,
    done: Option<Completion>,
}

impl<T> Synchronous<T> {
    pub fn new(inner: T) -> Synchronous<T> {
        Synchronous { inner, done: None }
    }
}

impl<T: SyncIo> Engine for Synchronous<T> {
    fn queue(&mut self, io: IoUnit) -> io::Result<()> {
        self.done = Some(self.inner.run(io)?);
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

/// The engines `nvcmp run --engine` offers natively (`fio` is handled by
/// `run::fio`, which drives the fio binary instead).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineKind {
    Null,
    Psync,
    Libaio,
    IoUring,
    /// Overlapped I/O and a completion port per thread (Windows).
    WindowsAio,
}

impl EngineKind {
    /// fio's name for the engine.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Null => "null",
            EngineKind::Psync => "psync",
            EngineKind::Libaio => "libaio",
            EngineKind::IoUring => "io_uring",
            EngineKind::WindowsAio => "windowsaio",
        }
    }

    /// Whether this system has the engine: checked when the options are
    /// validated, so a run with an engine of another system stops before it
    /// creates or opens anything.
    pub fn available(self) -> Result<(), String> {
        let linux_only = matches!(self, EngineKind::Libaio | EngineKind::IoUring);
        if linux_only && !cfg!(target_os = "linux") {
            return Err(format!("--engine {} needs Linux", self.name()));
        }
        if self == EngineKind::WindowsAio && !cfg!(windows) {
            return Err("--engine windowsaio needs Windows".into());
        }
        Ok(())
    }

    pub fn caps(self) -> Caps {
        Caps {
            // psync does the I/O in the call; null completes it there, and
            // like fio's null (busy until reaped) runs at depth 1.
            sync: matches!(self, EngineKind::Psync | EngineKind::Null),
        }
    }

    /// Setup: one engine instance for `file` (None for `null`), `depth`
    /// I/Os in flight, buffers in `buf`, which the engine keeps. `direct`
    /// is the job's: the engines that open their own handle (windowsaio)
    /// open it unbuffered then.
    pub fn setup<'f>(
        self,
        file: Option<&'f File>,
        depth: u32,
        buf: AlignedBuf,
        opts: EngineOptions,
        direct: bool,
    ) -> io::Result<Box<dyn Engine + 'f>> {
        let need_file = || {
            file.ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "engine needs a file"))
        };
        Ok(match self {
            EngineKind::Null => Box::new(Synchronous::new(null::Null)),
            EngineKind::Psync => Box::new(Synchronous::new(psync::Psync::new(need_file()?, buf))),
            #[cfg(target_os = "linux")]
            EngineKind::Libaio => Box::new(libaio::Libaio::new(need_file()?, depth, buf)?),
            #[cfg(target_os = "linux")]
            EngineKind::IoUring => Box::new(io_uring::Uring::new(need_file()?, depth, buf, opts)?),
            #[cfg(windows)]
            EngineKind::WindowsAio => Box::new(windowsaio::WindowsAio::new(
                need_file()?,
                depth,
                buf,
                direct,
            )?),
            #[cfg(not(target_os = "linux"))]
            EngineKind::Libaio | EngineKind::IoUring => {
                let _ = (opts, depth, buf);
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    format!("engine {} needs Linux", self.name()),
                ));
            }
            #[cfg(not(windows))]
            EngineKind::WindowsAio => {
                let _ = (depth, buf, direct);
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    "engine windowsaio needs Windows",
                ));
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each engine that uses a file and that the kernel allows here, over
    /// `file`, with 4 slots of 4 KiB.
    fn engines(file: &File) -> Vec<(EngineKind, Box<dyn Engine + '_>)> {
        let kinds = [
            EngineKind::Psync,
            EngineKind::Libaio,
            EngineKind::IoUring,
            EngineKind::WindowsAio,
        ];
        kinds
            .into_iter()
            .filter_map(|k| {
                let buf = AlignedBuf::new(4, 4096).unwrap();
                match k.setup(Some(file), 4, buf, EngineOptions::default(), false) {
                    Ok(e) => Some((k, e)),
                    Err(e) => {
                        eprintln!("skipped {}: {e}", k.name());
                        None
                    }
                }
            })
            .collect()
    }

    /// A 64 KiB file, opened for reading.
    fn file() -> (tempfile::TempDir, File) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, vec![7u8; 64 << 10]).unwrap();
        let f = File::open(&path).unwrap();
        (dir, f)
    }

    fn read(slot: usize, len: usize) -> IoUnit {
        IoUnit {
            slot,
            dir: Dir::Read,
            offset: 0,
            len,
        }
    }

    #[test]
    fn a_slot_outside_the_buffer_is_an_error() {
        let (_dir, f) = file();
        for (kind, mut e) in engines(&f) {
            assert!(e.queue(read(4, 4096)).is_err(), "{}", kind.name());
            assert!(e.queue(read(0, 4097)).is_err(), "{}", kind.name());
        }
    }

    #[test]
    fn dropping_an_engine_with_io_in_flight_waits_for_it() {
        let (_dir, f) = file();
        for (kind, mut e) in engines(&f) {
            for slot in 0..4 {
                e.queue(read(slot, 4096)).unwrap();
            }
            e.commit().unwrap();
            // Cleanup waits for the four reads (or leaks the buffer) before
            // the buffer is freed; nothing to observe but that it returns.
            drop(e);
            eprintln!("{} dropped", kind.name());
        }
    }

    #[test]
    fn reads_come_back_with_their_slots() {
        let (_dir, f) = file();
        for (kind, mut e) in engines(&f) {
            let mut done = Vec::new();
            for slot in [2, 0] {
                e.queue(read(slot, 4096)).unwrap();
                e.commit().unwrap();
                e.reap(1, 4, &mut done).unwrap();
            }
            let mut slots: Vec<_> = done.iter().map(|c| (c.slot, c.result)).collect();
            slots.sort();
            assert_eq!(slots, [(0, Ok(4096)), (2, Ok(4096))], "{}", kind.name());
        }
    }
}
