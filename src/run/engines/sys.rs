//! The OS calls the harness needs besides the I/O itself: buffers aligned
//! for O_DIRECT, the process's CPU usage (getrusage), a SIGINT flag, and
//! the system-specific calls of every part of `run` (positioned I/O,
//! O_DIRECT, device numbers), each behind platform twins with the same
//! signatures: `sys/linux.rs`, `sys/windows.rs` (issue #31: the
//! `windowsaio` engine's host), and `sys/other.rs` for every other system,
//! where `nvcmp run` is refused ([`supported`]) and the rest of nvcmp builds.

use std::alloc::Layout;
use std::sync::atomic::{AtomicBool, Ordering};

/// errno 5 (EIO) on Linux, as fio reports it: a failed I/O's `error`
/// when the OS gave no code.
pub const EIO: i32 = 5;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
pub use linux::*;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub use windows::*;
#[cfg(not(any(target_os = "linux", windows)))]
mod other;
#[cfg(not(any(target_os = "linux", windows)))]
pub use other::*;
#[cfg(not(windows))]
mod heap;
#[cfg(not(windows))]
pub use heap::*;
#[cfg(not(target_os = "linux"))]
mod no_device_numbers;
#[cfg(not(target_os = "linux"))]
pub use no_device_numbers::*;

/// Alignment of every I/O buffer: 4096 satisfies O_DIRECT on any device
/// with logical blocks up to 4 KiB.
pub const ALIGN: usize = 4096;

/// `slots` buffers of `slot_len` bytes each, in one allocation aligned to
/// [`ALIGN`]; slot `i` starts at byte `i * slot_len`.
///
/// An engine owns the buffer it hands to the kernel (see `engines`): no
/// shared view of the bytes exists, so the kernel may write any slot while
/// the engine holds it, and the memory goes only when the engine does.
pub struct AlignedBuf {
    ptr: *mut u8,
    layout: Layout,
    slot_len: usize,
    slots: usize,
    /// Set when the kernel may still write into the memory: it is then
    /// leaked instead of freed.
    leak: bool,
}

impl AlignedBuf {
    pub fn new(slots: usize, slot_len: usize) -> std::io::Result<AlignedBuf> {
        let slot_len = slot_len.div_ceil(ALIGN) * ALIGN;
        let total = slots.max(1) * slot_len.max(ALIGN);
        let layout = Layout::from_size_align(total, ALIGN)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
        // Zeroed, at least ALIGN-aligned: std's allocator on Linux,
        // VirtualAlloc's pages on Windows.
        let ptr = alloc_buf(layout);
        if ptr.is_null() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::OutOfMemory,
                format!("cannot allocate {total} bytes of I/O buffers"),
            ));
        }
        Ok(AlignedBuf {
            ptr,
            layout,
            slot_len,
            slots,
            leak: false,
        })
    }

    pub fn slot_len(&self) -> usize {
        self.slot_len
    }

    pub fn slots(&self) -> usize {
        self.slots
    }

    /// The whole allocation, to fill write buffers.
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: `ptr` is a live allocation of `layout.size()` bytes, zeroed
        // at creation, and `&mut self` makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.layout.size()) }
    }

    /// Checks that slot `slot` exists and holds `len` bytes: every pointer
    /// or slice an engine takes goes through here, so a bad index is an
    /// error, never a pointer outside the allocation.
    fn check(&self, slot: usize, len: usize) -> std::io::Result<usize> {
        if slot < self.slots && len <= self.slot_len {
            Ok(slot * self.slot_len)
        } else {
            Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "I/O of {len} bytes in buffer slot {slot}: there are {} slots of {} bytes",
                    self.slots, self.slot_len
                ),
            ))
        }
    }

    /// The first `len` bytes of slot `slot`, for an engine that does the I/O
    /// while it holds the borrow (psync).
    pub fn slot_mut(&mut self, slot: usize, len: usize) -> std::io::Result<&mut [u8]> {
        let start = self.check(slot, len)?;
        Ok(&mut self.as_mut_slice()[start..start + len])
    }

    /// The start of slot `slot` (checked to hold `len` bytes), for an engine
    /// that hands the address to the kernel and gets the I/O back later.
    /// Writing through it is up to the caller's `unsafe` block.
    pub fn slot_ptr(&self, slot: usize, len: usize) -> std::io::Result<*mut u8> {
        let start = self.check(slot, len)?;
        // In bounds: `start + len <= slots * slot_len <= layout.size()`.
        Ok(self.ptr.wrapping_add(start))
    }

    /// Keeps the memory for the life of the process: called by an engine
    /// that could not make sure the kernel is done with it, since freeing it
    /// would let a late completion write into whatever reuses it.
    pub fn leak_on_drop(&mut self) {
        self.leak = true;
    }
}

impl Drop for AlignedBuf {
    fn drop(&mut self) {
        if self.leak {
            return;
        }
        // SAFETY: allocated by `alloc_buf` in `new` with this very layout,
        // freed once; an engine that could not confirm that the kernel is
        // done with it set `leak` above.
        unsafe { free_buf(self.ptr, self.layout) }
    }
}

/// CPU use of the whole process (all threads, io_uring workers included).
#[derive(Debug, Clone, Copy, Default)]
pub struct Usage {
    /// User CPU, ns.
    pub user_ns: u64,
    /// System CPU, ns.
    pub sys_ns: u64,
    /// Voluntary + involuntary context switches.
    pub ctx: u64,
    pub majf: u64,
    pub minf: u64,
}

impl Usage {
    /// The process's use so far; zeros when the system does not say.
    pub fn now() -> Usage {
        usage().unwrap_or_default()
    }

    /// A `share` (0..=1) of this usage: one target's part of a job's CPU.
    /// Counts round to the nearest whole one.
    pub fn scaled(&self, share: f64) -> Usage {
        let part = |v: u64| (v as f64 * share).round() as u64;
        Usage {
            user_ns: part(self.user_ns),
            sys_ns: part(self.sys_ns),
            ctx: part(self.ctx),
            majf: part(self.majf),
            minf: part(self.minf),
        }
    }

    /// What was used since `earlier`.
    pub fn since(&self, earlier: &Usage) -> Usage {
        Usage {
            user_ns: self.user_ns.saturating_sub(earlier.user_ns),
            sys_ns: self.sys_ns.saturating_sub(earlier.sys_ns),
            ctx: self.ctx.saturating_sub(earlier.ctx),
            majf: self.majf.saturating_sub(earlier.majf),
            minf: self.minf.saturating_sub(earlier.minf),
        }
    }
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// True once SIGINT arrived.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Sets the flag: the SIGINT handler (an atomic store, async-signal-safe),
/// by hand in tests, and for a child fio that was interrupted.
pub fn set_interrupted() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_checked() {
        let mut b = AlignedBuf::new(2, 512).unwrap();
        assert_eq!(b.slot_len(), ALIGN);
        assert!(b.slot_ptr(1, ALIGN).is_ok());
        assert!(b.slot_ptr(2, 1).is_err());
        assert!(b.slot_ptr(0, ALIGN + 1).is_err());
        assert_eq!(b.slot_mut(1, 100).unwrap().len(), 100);
        assert!(b.slot_mut(usize::MAX, 1).is_err());
    }
}
