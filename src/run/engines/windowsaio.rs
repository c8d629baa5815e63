//! `windowsaio`: overlapped I/O reaped from an I/O completion port, named
//! and shaped as fio's `engines/windowsaio.c` and DiskSpd's I/O loop.
//!
//! - The worker's target handle is reopened (ReOpenFile) with
//!   `FILE_FLAG_OVERLAPPED` (and `FILE_FLAG_NO_BUFFERING` for `direct=1`):
//!   each engine, one per worker thread, owns its handle and its
//!   completion port, since a handle can be tied to one port only.
//! - I/O slots are `Req`s (an `OVERLAPPED` first, so the pointer a
//!   completion hands back is the slot's), allocated once and recycled;
//!   buffers are the worker's `AlignedBuf`, VirtualAlloc'd pages.
//! - `commit` issues ReadFile/WriteFile; `reap` takes completions in
//!   batches with GetQueuedCompletionStatusEx on the issuing thread (no
//!   completion thread, unlike fio's, so no hand-off between threads).
//! - Each completion's status is read from its own `OVERLAPPED`
//!   (`Internal` is the NTSTATUS, `InternalHigh` the bytes moved): fio
//!   calls GetLastError after a successful dequeue, which reports whatever
//!   the thread's last failed call left there. A short transfer is an error
//!   (EIO), as is a failed one (its errno as fio maps it).
//! - Timing is the worker's `Instant`, which on Windows is
//!   QueryPerformanceCounter, into the same histograms as every engine.
//!
//! Safety rests on ownership, as for libaio: the engine owns the buffers
//! and the `Req`s the kernel writes into, and its cleanup cancels and
//! waits for every I/O in flight before either is freed (or leaks both
//! when it cannot confirm that).

use std::fs::File;
use std::io;
use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle};
use std::ptr::NonNull;

use windows_sys::Win32::Foundation::{
    ERROR_IO_PENDING, GENERIC_READ, GENERIC_WRITE, GetLastError, HANDLE, INVALID_HANDLE_VALUE,
    RtlNtStatusToDosError, WAIT_TIMEOUT,
};
use windows_sys::Win32::Storage::FileSystem::{
    FILE_FLAG_NO_BUFFERING, FILE_FLAG_OVERLAPPED, FILE_SHARE_READ, FILE_SHARE_WRITE, ReOpenFile,
    ReadFile, WriteFile,
};
use windows_sys::Win32::System::IO::{
    CancelIoEx, CreateIoCompletionPort, GetQueuedCompletionStatusEx, OVERLAPPED, OVERLAPPED_ENTRY,
};

use super::{AlignedBuf, Completion, Dir, Engine, IoUnit, sys};

/// How long one wait for completions lasts before the Ctrl-C flag is
/// looked at again, ms.
const WAIT_SLICE_MS: u32 = 200;

/// How long cleanup waits for cancelled I/O before it gives up and leaks
/// the memory the kernel may still write, ms.
const CLEANUP_WAIT_MS: u32 = 30_000;

/// One I/O slot: the `OVERLAPPED` the kernel fills, first, so that the
/// pointer a completion returns is the `Req`'s.
#[repr(C)]
struct Req {
    ov: OVERLAPPED,
    /// Bytes asked for, to tell a short transfer.
    len: usize,
}

/// One engine instance: a worker thread's handle, port and slots.
pub struct WindowsAio<'f> {
    /// The worker's handle, kept open while the reopened one is used.
    _file: &'f File,
    handle: OwnedHandle,
    port: OwnedHandle,
    buf: AlignedBuf,
    /// `depth` `Req`s from `Box<[Req]>::into_raw`, freed in Drop: only
    /// raw pointers to them exist, so the kernel's writes through one never
    /// alias a Rust reference.
    reqs: NonNull<Req>,
    depth: usize,
    queued: Vec<IoUnit>,
    /// I/Os the kernel holds.
    inflight: usize,
    /// I/Os refused at issue, with their errno, for the next reap.
    failed: Vec<Completion>,
    entries: Vec<OVERLAPPED_ENTRY>,
}

fn last_error() -> u32 {
    // SAFETY: reads the calling thread's last-error value.
    unsafe { GetLastError() }
}

impl<'f> WindowsAio<'f> {
    /// Setup: reopens `file` for overlapped I/O (unbuffered when `direct`),
    /// makes its completion port and `depth` slots.
    pub fn new(file: &'f File, depth: u32, buf: AlignedBuf, direct: bool) -> io::Result<Self> {
        let depth = (depth as usize).max(1);
        if buf.slots() < depth {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} buffer slots for depth {depth}", buf.slots()),
            ));
        }
        let mut flags = FILE_FLAG_OVERLAPPED;
        if direct {
            flags |= FILE_FLAG_NO_BUFFERING;
        }
        // SAFETY: `file` is an open handle for as long as this call; the
        // new handle is checked before it is owned.
        let h = unsafe {
            ReOpenFile(
                file.as_raw_handle() as HANDLE,
                GENERIC_READ | GENERIC_WRITE,
                FILE_SHARE_READ | FILE_SHARE_WRITE,
                flags,
            )
        };
        // A file opened read-only cannot be reopened for writing: retry
        // for reading only (the job then only reads).
        let h = if h == INVALID_HANDLE_VALUE {
            // SAFETY: as above.
            unsafe {
                ReOpenFile(
                    file.as_raw_handle() as HANDLE,
                    GENERIC_READ,
                    FILE_SHARE_READ | FILE_SHARE_WRITE,
                    flags,
                )
            }
        } else {
            h
        };
        if h == INVALID_HANDLE_VALUE {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `h` is a fresh, valid handle nothing else owns.
        let handle = unsafe { OwnedHandle::from_raw_handle(h as _) };
        // SAFETY: ties the owned handle to a new port (null existing port);
        // the key is unused (the OVERLAPPED names the slot).
        let p = unsafe { CreateIoCompletionPort(h, std::ptr::null_mut(), 0, 1) };
        if p.is_null() {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `p` is a fresh, valid port handle nothing else owns.
        let port = unsafe { OwnedHandle::from_raw_handle(p as _) };
        let reqs: Box<[Req]> = (0..depth)
            .map(|_| Req {
                // SAFETY: OVERLAPPED is plain data; zeroed is its idle state.
                ov: unsafe { std::mem::zeroed() },
                len: 0,
            })
            .collect();
        let reqs = NonNull::new(Box::into_raw(reqs).cast::<Req>()).expect("Box is non-null");
        Ok(WindowsAio {
            _file: file,
            handle,
            port,
            buf,
            reqs,
            depth,
            queued: Vec::with_capacity(depth),
            inflight: 0,
            failed: Vec::new(),
            // SAFETY: OVERLAPPED_ENTRY is plain data; zeroed is valid.
            entries: vec![unsafe { std::mem::zeroed() }; depth],
        })
    }

    /// Every `Req` index goes through here before it becomes an address.
    fn check_slot(&self, slot: usize) -> io::Result<()> {
        if slot < self.depth {
            Ok(())
        } else {
            Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("I/O in slot {slot}: the engine has {} slots", self.depth),
            ))
        }
    }

    /// The slot index of a completed `OVERLAPPED`, checked to be one of
    /// ours.
    fn index_of(&self, ov: *mut OVERLAPPED) -> io::Result<usize> {
        let base = self.reqs.as_ptr() as usize;
        let at = ov as usize;
        let size = size_of::<Req>();
        if at < base || (at - base) % size != 0 || (at - base) / size >= self.depth {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "a completion named an OVERLAPPED that is not one of the engine's slots",
            ));
        }
        Ok((at - base) / size)
    }

    /// Issues one I/O; Ok(false) when Windows refused it at once (the
    /// completion is queued in `failed`).
    fn issue(&mut self, io: IoUnit) -> io::Result<bool> {
        self.check_slot(io.slot)?;
        let data = self.buf.slot_ptr(io.slot, io.len)?;
        let req = self.reqs.as_ptr().wrapping_add(io.slot);
        let len = u32::try_from(io.len)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "I/O over 4 GiB"))?;
        // SAFETY: `req` is in bounds (slot < depth, checked above) and not in
        // flight (the worker hands out free slots only), so this write races
        // with nothing.
        unsafe {
            req.write(Req {
                ov: std::mem::zeroed(),
                len: io.len,
            });
            (*req).ov.Anonymous.Anonymous.Offset = io.offset as u32;
            (*req).ov.Anonymous.Anonymous.OffsetHigh = (io.offset >> 32) as u32;
        }
        let h = self.handle.as_raw_handle() as HANDLE;
        // SAFETY: `data` points at `len` bytes of the engine's buffer and
        // `req` at its slot, both owned by the engine and kept until this
        // I/O completes (Drop waits for it); no byte count pointer, as
        // overlapped I/O requires.
        let ok = unsafe {
            let ov = &raw mut (*req).ov;
            match io.dir {
                Dir::Read => ReadFile(h, data, len, std::ptr::null_mut(), ov),
                Dir::Write => WriteFile(h, data, len, std::ptr::null_mut(), ov),
            }
        };
        // Done at once or pending: either way a completion packet comes
        // to the port (FILE_SKIP_COMPLETION_PORT_ON_SUCCESS is not set).
        if ok != 0 || last_error() == ERROR_IO_PENDING {
            return Ok(true);
        }
        self.failed.push(Completion {
            slot: io.slot,
            result: Err(sys::posix_errno(last_error())),
        });
        Ok(false)
    }

    /// The result of a completed slot, from its OVERLAPPED.
    fn result_of(&self, idx: usize) -> Result<usize, i32> {
        let req = self.reqs.as_ptr().wrapping_add(idx);
        // SAFETY: `idx` < depth (index_of); the completion was dequeued, so
        // the kernel is done writing this Req.
        let (status, moved, len) = unsafe {
            (
                (*req).ov.Internal as i32,
                (*req).ov.InternalHigh,
                (*req).len,
            )
        };
        if status < 0 {
            // SAFETY: a pure conversion of a status code.
            let win32 = unsafe { RtlNtStatusToDosError(status) };
            return Err(sys::posix_errno(win32));
        }
        if moved < len {
            // A short transfer (past the end of a file) is no full I/O.
            return Err(sys::posix_errno(38));
        }
        Ok(moved)
    }

    /// Waits up to `ms` for at most `max` completions and appends them.
    fn dequeue(&mut self, max: usize, ms: u32, out: &mut Vec<Completion>) -> io::Result<usize> {
        let max = max.clamp(1, self.entries.len());
        let mut got = 0u32;
        // SAFETY: `entries` has room for `max` entries; the port is ours.
        let ok = unsafe {
            GetQueuedCompletionStatusEx(
                self.port.as_raw_handle() as HANDLE,
                self.entries.as_mut_ptr(),
                max as u32,
                &mut got,
                ms,
                0,
            )
        };
        if ok == 0 {
            return match last_error() {
                WAIT_TIMEOUT => Ok(0),
                _ => Err(io::Error::last_os_error()),
            };
        }
        for k in 0..got as usize {
            let idx = self.index_of(self.entries[k].lpOverlapped)?;
            out.push(Completion {
                slot: idx,
                result: self.result_of(idx),
            });
        }
        self.inflight -= got as usize;
        Ok(got as usize)
    }
}

impl Engine for WindowsAio<'_> {
    fn queue(&mut self, io: IoUnit) -> io::Result<()> {
        self.check_slot(io.slot)?;
        self.buf.slot_ptr(io.slot, io.len)?;
        self.queued.push(io);
        Ok(())
    }

    fn commit(&mut self) -> io::Result<usize> {
        let queued = std::mem::take(&mut self.queued);
        for io in &queued {
            if self.issue(*io)? {
                self.inflight += 1;
            }
        }
        Ok(queued.len())
    }

    fn reap(&mut self, min: usize, max: usize, out: &mut Vec<Completion>) -> io::Result<()> {
        let mut got = self.failed.len().min(max);
        out.extend(self.failed.drain(..got));
        let min = min.min(got + self.inflight);
        // A poll first: whatever is done already, without waiting.
        if self.inflight > 0 && got < max {
            got += self.dequeue(max - got, 0, out)?;
        }
        while got < min && self.inflight > 0 {
            if sys::interrupted() {
                break;
            }
            got += self.dequeue(max - got, WAIT_SLICE_MS, out)?;
        }
        Ok(())
    }
}

impl Drop for WindowsAio<'_> {
    fn drop(&mut self) {
        // Cleanup: cancel what is in flight and wait for every completion,
        // so no buffer or OVERLAPPED is freed under the kernel's feet.
        if self.inflight > 0 {
            // SAFETY: cancels this handle's I/O of this thread and others;
            // a null OVERLAPPED means all of it.
            unsafe { CancelIoEx(self.handle.as_raw_handle() as HANDLE, std::ptr::null()) };
        }
        let mut sink = Vec::new();
        while self.inflight > 0 {
            match self.dequeue(self.depth, CLEANUP_WAIT_MS, &mut sink) {
                Ok(n) if n > 0 => sink.clear(),
                _ => {
                    // The kernel may still write: keep its memory for good.
                    self.buf.leak_on_drop();
                    return;
                }
            }
        }
        // SAFETY: made by Box::into_raw of a `[Req]` of `depth` in `new`,
        // freed once; nothing is in flight, so the kernel holds no pointer
        // into it.
        unsafe {
            drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                self.reqs.as_ptr(),
                self.depth,
            )));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BS: usize = 4096;
    const BLOCKS: u64 = 64;

    /// A file of `BLOCKS` blocks, block `i` full of byte `i + 1`, opened
    /// for reading and writing.
    fn file() -> (tempfile::TempDir, File) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let data: Vec<u8> = (0..BLOCKS)
            .flat_map(|i| std::iter::repeat_n(i as u8 + 1, BS))
            .collect();
        std::fs::write(&path, data).unwrap();
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        (dir, f)
    }

    fn engine(f: &File, depth: u32) -> WindowsAio<'_> {
        let buf = AlignedBuf::new(depth as usize, BS).unwrap();
        WindowsAio::new(f, depth, buf, true).unwrap()
    }

    fn io(slot: usize, dir: Dir, block: u64) -> IoUnit {
        IoUnit {
            slot,
            dir,
            offset: block * BS as u64,
            len: BS,
        }
    }

    /// Reaps until `n` completions came back.
    fn reap_all(e: &mut WindowsAio, n: usize) -> Vec<Completion> {
        let mut done = Vec::new();
        while done.len() < n {
            e.reap(1, n, &mut done).unwrap();
        }
        done
    }

    #[test]
    fn eight_reads_in_flight_return_the_bytes_at_their_offsets() {
        let (_dir, f) = file();
        let mut e = engine(&f, 8);
        let blocks = [5u64, 63, 0, 17, 42, 8, 31, 1];
        for (slot, &b) in blocks.iter().enumerate() {
            e.queue(io(slot, Dir::Read, b)).unwrap();
        }
        // All eight go to the kernel in one commit: the depth is honoured.
        assert_eq!(e.commit().unwrap(), 8);
        assert_eq!(e.inflight, 8);
        let mut done = reap_all(&mut e, 8);
        done.sort_by_key(|c| c.slot);
        let slots: Vec<_> = done.iter().map(|c| (c.slot, c.result)).collect();
        assert_eq!(slots, (0..8).map(|s| (s, Ok(BS))).collect::<Vec<_>>());
        let bytes = e.buf.as_mut_slice();
        for (slot, &b) in blocks.iter().enumerate() {
            let got = &bytes[slot * BS..(slot + 1) * BS];
            assert!(
                got.iter().all(|&x| x == b as u8 + 1),
                "slot {slot}, block {b}"
            );
        }
    }

    #[test]
    fn writes_land_at_their_offsets_and_nowhere_else() {
        let (dir, f) = file();
        let mut e = engine(&f, 4);
        for (slot, chunk) in e.buf.as_mut_slice().chunks_mut(BS).enumerate() {
            chunk.fill(0xA0 + slot as u8);
        }
        let blocks = [3u64, 9, 60, 10];
        for (slot, &b) in blocks.iter().enumerate() {
            e.queue(io(slot, Dir::Write, b)).unwrap();
        }
        assert_eq!(e.commit().unwrap(), 4);
        let done = reap_all(&mut e, 4);
        assert!(done.iter().all(|c| c.result == Ok(BS)), "{done:?}");
        drop(e);
        let data = std::fs::read(dir.path().join("f")).unwrap();
        assert_eq!(data.len(), BLOCKS as usize * BS, "the file grew or shrank");
        for b in 0..BLOCKS {
            let want = match blocks.iter().position(|&x| x == b) {
                Some(slot) => 0xA0 + slot as u8,
                None => b as u8 + 1,
            };
            let got = &data[b as usize * BS..(b as usize + 1) * BS];
            assert!(got.iter().all(|&x| x == want), "block {b}");
        }
    }

    #[test]
    fn a_read_past_the_end_is_an_error_not_a_short_success() {
        let (_dir, f) = file();
        let mut e = engine(&f, 2);
        e.queue(io(0, Dir::Read, BLOCKS + 10)).unwrap();
        e.queue(io(1, Dir::Read, 2)).unwrap();
        e.commit().unwrap();
        let mut done = reap_all(&mut e, 2);
        done.sort_by_key(|c| c.slot);
        assert_eq!(done[0].result, Err(5), "EIO for the read past the end");
        assert_eq!(done[1].result, Ok(BS));
    }

    #[test]
    fn slots_are_recycled_and_checked() {
        let (_dir, f) = file();
        let mut e = engine(&f, 2);
        // 100 reads through two slots: each comes back before reuse.
        for k in 0..100u64 {
            let slot = (k % 2) as usize;
            e.queue(io(slot, Dir::Read, k % BLOCKS)).unwrap();
            e.commit().unwrap();
            let done = reap_all(&mut e, 1);
            assert_eq!((done[0].slot, done[0].result), (slot, Ok(BS)));
        }
        assert!(e.queue(io(2, Dir::Read, 0)).is_err(), "slot past the depth");
        assert_eq!(e.inflight, 0);
    }
}
