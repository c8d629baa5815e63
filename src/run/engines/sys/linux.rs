//! The Linux side of [`super`]: the process's CPU use (getrusage), the
//! SIGINT handler, dropping cached pages, positioned I/O, O_DIRECT and
//! device numbers. `other.rs` has the same functions for every other
//! system, where `nvcmp run` is refused before any of them is called.

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::os::unix::fs::{FileExt, FileTypeExt, MetadataExt, OpenOptionsExt};

use super::{Usage, set_interrupted};

/// `nvcmp run` works here.
pub fn supported() -> Result<(), &'static str> {
    Ok(())
}

/// CPU use of the whole process (all threads, io_uring workers included);
/// None when the kernel does not say.
pub fn usage() -> Option<Usage> {
    // SAFETY: rusage is plain data; zeroed is a valid value.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `ru` is a valid, writable rusage for the call to fill.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    if rc != 0 {
        return None;
    }
    let tv = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1000;
    Some(Usage {
        user_ns: tv(ru.ru_utime),
        sys_ns: tv(ru.ru_stime),
        ctx: (ru.ru_nvcsw + ru.ru_nivcsw) as u64,
        majf: ru.ru_majflt as u64,
        minf: ru.ru_minflt as u64,
    })
}

/// Makes Ctrl-C set a flag instead of killing the process, so the current
/// job stops at its next loop turn and no half-written file is left.
pub fn catch_sigint() {
    extern "C" fn handler(_sig: libc::c_int) {
        set_interrupted();
    }
    // SAFETY: sigaction is plain data; zeroed means no flags, empty mask.
    let mut sa: libc::sigaction = unsafe { std::mem::zeroed() };
    sa.sa_sigaction = handler as *const () as libc::sighandler_t;
    // SAFETY: `sa` is initialised, its handler only stores to an atomic;
    // a null old-action pointer is allowed.
    unsafe {
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(libc::SIGINT, &sa, std::ptr::null_mut());
    }
}

/// Drops the target's cached pages before a job, like fio's default
/// `invalidate=1`, so buffered reads start cold.
pub fn drop_cache(f: &File) {
    use std::os::fd::AsRawFd;
    // SAFETY: a plain advisory call on an open descriptor; errors (e.g. on
    // a pipe) are harmless and ignored.
    unsafe {
        libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED);
    }
}

/// One `pread` at `offset`.
pub fn read_at(f: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    f.read_at(buf, offset)
}

/// One `pwrite` at `offset`.
pub fn write_at(f: &File, buf: &[u8], offset: u64) -> io::Result<usize> {
    f.write_at(buf, offset)
}

/// All of `buf` at `offset`, in as many `pwrite`s as it takes.
pub fn write_all_at(f: &File, buf: &[u8], offset: u64) -> io::Result<()> {
    f.write_all_at(buf, offset)
}

/// Opens with O_DIRECT: I/O bypasses the page cache.
pub fn direct(o: &mut OpenOptions) -> io::Result<()> {
    o.custom_flags(libc::O_DIRECT);
    Ok(())
}

/// A path that opens the file `f` is, whatever its name now names:
/// `/proc/self/fd/N` reopens the inode itself, with new flags (O_DIRECT).
pub fn reopen_path(f: &File) -> Option<std::path::PathBuf> {
    use std::os::fd::AsRawFd;
    Some(format!("/proc/self/fd/{}", f.as_raw_fd()).into())
}

/// Whether opening with O_DIRECT failed because the filesystem has no
/// direct I/O (EINVAL, tmpfs).
pub fn no_direct_io(error: &io::Error) -> bool {
    error.raw_os_error() == Some(libc::EINVAL)
}

/// The device number of a block device; None for anything else.
pub fn block_device(md: &Metadata) -> Option<u64> {
    md.file_type().is_block_device().then(|| md.rdev())
}

/// The device a file is: its own number for a device (`st_rdev`).
pub fn rdev(md: &Metadata) -> u64 {
    md.rdev()
}

/// The device a file lives on: a block device's own number, else the
/// number of the filesystem's device (`st_dev`).
pub fn holding_device(md: &Metadata) -> Option<u64> {
    Some(block_device(md).unwrap_or_else(|| md.dev()))
}

/// `MAJ:MIN` of a device number, as /sys/dev/block names it.
pub fn sysfs_name(dev: u64) -> String {
    format!("{}:{}", libc::major(dev), libc::minor(dev))
}

/// The device number of `MAJ:MIN`.
pub fn makedev(major: u32, minor: u32) -> u64 {
    libc::makedev(major, minor)
}
