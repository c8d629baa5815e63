//! The OS calls the harness needs besides the I/O itself: buffers aligned
//! for O_DIRECT, the process's CPU usage (getrusage), and a SIGINT flag.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::sync::atomic::{AtomicBool, Ordering};

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
        // SAFETY: `layout` has a non-zero size (at least ALIGN bytes).
        let ptr = unsafe { alloc_zeroed(layout) };
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
        // SAFETY: allocated in `new` with this very layout, freed once; an
        // engine that could not confirm that the kernel is done with it set
        // `leak` above.
        unsafe { dealloc(self.ptr, self.layout) }
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
    pub fn now() -> Usage {
        // SAFETY: rusage is plain data; zeroed is a valid value.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `ru` is a valid, writable rusage for the call to fill.
        let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
        if rc != 0 {
            return Usage::default();
        }
        let tv = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1000;
        Usage {
            user_ns: tv(ru.ru_utime),
            sys_ns: tv(ru.ru_stime),
            ctx: (ru.ru_nvcsw + ru.ru_nivcsw) as u64,
            majf: ru.ru_majflt as u64,
            minf: ru.ru_minflt as u64,
        }
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

extern "C" fn on_sigint(_sig: libc::c_int) {
    // Only an atomic store: async-signal-safe.
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Makes Ctrl-C set a flag instead of killing the process, so the current
/// job stops at its next loop turn and no half-written file is left.
pub fn catch_sigint() {
    // SAFETY: sigaction is plain data; zeroed means no flags, empty mask.
    let mut sa: libc::sigaction = unsafe { std::mem::zeroed() };
    sa.sa_sigaction = on_sigint as *const () as libc::sighandler_t;
    // SAFETY: `sa` is initialised, its handler only stores to an atomic;
    // a null old-action pointer is allowed.
    unsafe {
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(libc::SIGINT, &sa, std::ptr::null_mut());
    }
}

/// True once SIGINT arrived.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Sets the flag by hand (tests, and a child fio that was interrupted).
pub fn set_interrupted() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Drops the target's cached pages before a job, like fio's default
/// `invalidate=1`, so buffered reads start cold.
pub fn drop_cache(f: &std::fs::File) {
    use std::os::fd::AsRawFd;
    // SAFETY: a plain advisory call on an open descriptor; errors (e.g. on
    // a pipe) are harmless and ignored.
    unsafe {
        libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED);
    }
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
