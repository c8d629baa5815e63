//! Every system but Linux and Windows: the same functions as `linux.rs`, so that
//! everything but `nvcmp run` builds and works there. `run` is refused
//! first ([`supported`]); should another caller reach an I/O function, it
//! gets an error saying the harness is Linux-only, never a wrong number.

use std::fs::{File, Metadata, OpenOptions};
use std::io;

use super::Usage;

/// Why `nvcmp run` does not run here.
const LINUX_ONLY: &str = "nvcmp run works on Linux and Windows only: its engines and safety \
     checks use their interfaces (O_DIRECT, libaio, io_uring, /sys, /proc; overlapped I/O); \
     ingest, analyze, check and history work on this system";

fn linux_only(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::Unsupported,
        format!("{what} is Linux-only (nvcmp run)"),
    )
}

pub fn supported() -> Result<(), &'static str> {
    Err(LINUX_ONLY)
}

pub fn usage() -> Option<Usage> {
    None
}

/// Ctrl-C keeps its default (the process ends).
pub fn catch_sigint() {}

pub fn drop_cache(_f: &File) {}

pub fn read_at(_f: &File, _buf: &mut [u8], _offset: u64) -> io::Result<usize> {
    Err(linux_only("positioned I/O"))
}

pub fn write_at(_f: &File, _buf: &[u8], _offset: u64) -> io::Result<usize> {
    Err(linux_only("positioned I/O"))
}

pub fn write_all_at(_f: &File, _buf: &[u8], _offset: u64) -> io::Result<()> {
    Err(linux_only("positioned I/O"))
}

pub fn direct(_o: &mut OpenOptions) -> io::Result<()> {
    Err(linux_only("O_DIRECT"))
}

pub fn no_direct_io(_error: &io::Error) -> bool {
    false
}

pub fn block_device(_md: &Metadata) -> Option<u64> {
    None
}

pub fn rdev(_md: &Metadata) -> u64 {
    0
}

pub fn holding_device(_md: &Metadata) -> Option<u64> {
    None
}

pub fn sysfs_name(dev: u64) -> String {
    format!("{dev}")
}

pub fn makedev(_major: u32, _minor: u32) -> u64 {
    0
}

/// A zeroed allocation of `layout` (aligned for O_DIRECT by the caller's
/// layout); null when memory is short.
pub fn alloc_buf(layout: std::alloc::Layout) -> *mut u8 {
    // SAFETY: `layout` has a non-zero size (AlignedBuf asks for at least
    // ALIGN bytes).
    unsafe { std::alloc::alloc_zeroed(layout) }
}

/// Frees what [`alloc_buf`] returned.
///
/// # Safety
/// `ptr` came from `alloc_buf` with this very `layout` and is freed once.
pub unsafe fn free_buf(ptr: *mut u8, layout: std::alloc::Layout) {
    // SAFETY: the caller's promise.
    unsafe { std::alloc::dealloc(ptr, layout) }
}

/// Usable bytes of an opened target: a block device reports 0 in its
/// metadata; seeking to the end works for files and devices alike.
pub fn target_len(f: &File) -> u64 {
    use std::io::{Seek, SeekFrom};
    let mut f = f;
    f.seek(SeekFrom::End(0)).unwrap_or(0)
}

/// The text of a failed I/O's errno.
pub fn errno_text(errno: i32) -> String {
    io::Error::from_raw_os_error(errno).to_string()
}

/// Devices are judged by their metadata here (`block_device`): no path
/// needs recognising by its spelling (Windows' `\\.\PhysicalDriveN`).
pub fn device_path(_path: &std::path::Path) -> bool {
    false
}

/// Windows' volume file systems; mounts are read from /proc here.
pub fn volume_file_system(_path: &std::path::Path) -> Option<String> {
    None
}
