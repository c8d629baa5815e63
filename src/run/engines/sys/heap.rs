//! What Linux and every other system but Windows share: buffers from
//! std's allocator (aligned by the layout asked), a target's length by
//! seeking to its end, errno's text from std, and no device paths or
//! volume file systems to recognise by name (those are Windows' alone).
//! One copy, where each twin had its own.

use std::fs::File;
use std::io;

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
