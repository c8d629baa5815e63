//! The Windows side of [`super`], the same functions as `linux.rs` (and a
//! few of Windows' own the `windowsaio` engine, the safety rules and the
//! host facts call): the process's CPU (GetProcessTimes), Ctrl-C
//! (SetConsoleCtrlHandler), positioned I/O, `FILE_FLAG_NO_BUFFERING` for
//! `direct=1`, buffers from VirtualAlloc, a device's size
//! (`IOCTL_DISK_GET_LENGTH_INFO`), whole-system CPU per processor
//! (NtQuerySystemInformation) and thread affinity (SetThreadGroupAffinity).
//!
//! Device numbers do not exist here: devices are `\\.\PhysicalDriveN` or
//! `\\.\X:` paths, which [`device_path`] recognises and the safety rules
//! judge by their contents and file system instead.

use std::alloc::Layout;
use std::ffi::OsStr;
use std::fs::{File, OpenOptions};
use std::io;
use std::os::windows::ffi::OsStrExt;
use std::os::windows::fs::{FileExt, OpenOptionsExt};
use std::os::windows::io::AsRawHandle;
use std::path::Path;

use windows_sys::Win32::Foundation::{FILETIME, HANDLE};
use windows_sys::Win32::Storage::FileSystem::{FILE_FLAG_NO_BUFFERING, GetVolumeInformationW};
use windows_sys::Win32::System::Console::SetConsoleCtrlHandler;
use windows_sys::Win32::System::IO::DeviceIoControl;
use windows_sys::Win32::System::Ioctl::{GET_LENGTH_INFORMATION, IOCTL_DISK_GET_LENGTH_INFO};
use windows_sys::Win32::System::Memory::{
    MEM_COMMIT, MEM_RELEASE, MEM_RESERVE, PAGE_READWRITE, VirtualAlloc, VirtualFree,
};
use windows_sys::Win32::System::SystemInformation::GROUP_AFFINITY;
use windows_sys::Win32::System::Threading::{
    GetActiveProcessorCount, GetCurrentProcess, GetCurrentThread, GetProcessAffinityMask,
    GetProcessTimes, SetThreadGroupAffinity,
};
use windows_sys::Win32::System::WindowsProgramming::SYSTEM_PROCESSOR_PERFORMANCE_INFORMATION;
use windows_sys::core::BOOL;

use super::{Usage, set_interrupted};

/// `nvcmp run` works here (engines windowsaio, psync and null).
pub fn supported() -> Result<(), &'static str> {
    Ok(())
}

/// 100 ns ticks of a FILETIME, in ns.
fn filetime_ns(t: FILETIME) -> u64 {
    ((u64::from(t.dwHighDateTime) << 32) | u64::from(t.dwLowDateTime)) * 100
}

/// CPU use of the whole process, all threads; Windows gives no context
/// switch or fault counts here, so those stay 0.
pub fn usage() -> Option<Usage> {
    let zero = FILETIME {
        dwLowDateTime: 0,
        dwHighDateTime: 0,
    };
    let (mut created, mut exited, mut kernel, mut user) = (zero, zero, zero, zero);
    // SAFETY: the pseudo handle of the current process is always valid and
    // the four FILETIMEs are writable locals.
    let ok = unsafe {
        GetProcessTimes(
            GetCurrentProcess(),
            &mut created,
            &mut exited,
            &mut kernel,
            &mut user,
        )
    };
    (ok != 0).then(|| Usage {
        user_ns: filetime_ns(user),
        sys_ns: filetime_ns(kernel),
        ..Usage::default()
    })
}

/// Makes Ctrl-C and Ctrl-Break set the flag instead of ending the process,
/// so the current job stops at its next loop turn, as on Linux.
pub fn catch_sigint() {
    unsafe extern "system" fn handler(kind: u32) -> BOOL {
        // CTRL_C_EVENT 0, CTRL_BREAK_EVENT 1; the others (close, logoff,
        // shutdown) keep their default.
        if kind <= 1 {
            set_interrupted();
            1
        } else {
            0
        }
    }
    // SAFETY: `handler` lives as long as the program and only stores to an
    // atomic; it runs on a thread Windows creates for it.
    unsafe {
        SetConsoleCtrlHandler(Some(handler), 1);
    }
}

/// Nothing to drop: direct jobs bypass the cache (NO_BUFFERING), and
/// Windows has no call to evict one file's cached pages.
pub fn drop_cache(_f: &File) {}

/// One positioned read (ReadFile with an offset; the file pointer moves,
/// which no other part of the harness relies on).
pub fn read_at(f: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    f.seek_read(buf, offset)
}

/// One positioned write.
pub fn write_at(f: &File, buf: &[u8], offset: u64) -> io::Result<usize> {
    f.seek_write(buf, offset)
}

/// All of `buf` at `offset`, in as many writes as it takes.
pub fn write_all_at(f: &File, mut buf: &[u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match f.seek_write(buf, offset)? {
            0 => return Err(io::Error::from(io::ErrorKind::WriteZero)),
            n => {
                buf = &buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

/// Opens with FILE_FLAG_NO_BUFFERING, Windows' O_DIRECT: sector-aligned
/// offsets, lengths and buffers (the harness's are 4 KiB aligned).
pub fn direct(o: &mut OpenOptions) -> io::Result<()> {
    o.custom_flags(FILE_FLAG_NO_BUFFERING);
    Ok(())
}

/// Windows has no path to a handle: the scratch file is opened by name.
pub fn reopen_path(_f: &File) -> Option<std::path::PathBuf> {
    None
}

/// NTFS, ReFS and FAT all take unbuffered I/O: no refusal to explain.
pub fn no_direct_io(_error: &io::Error) -> bool {
    false
}

/// A zeroed, page-aligned allocation from VirtualAlloc: pages are 4 KiB,
/// a multiple of every sector size, so NO_BUFFERING I/O may use any slot.
pub fn alloc_buf(layout: Layout) -> *mut u8 {
    // SAFETY: reserving and committing fresh pages has no preconditions;
    // a failure returns null, which the caller checks.
    unsafe {
        VirtualAlloc(
            std::ptr::null(),
            layout.size(),
            MEM_COMMIT | MEM_RESERVE,
            PAGE_READWRITE,
        )
        .cast()
    }
}

/// Frees what [`alloc_buf`] returned.
///
/// # Safety
/// `ptr` came from `alloc_buf` and is freed once.
pub unsafe fn free_buf(ptr: *mut u8, _layout: Layout) {
    // SAFETY: the caller's promise; MEM_RELEASE takes size 0.
    unsafe {
        VirtualFree(ptr.cast(), 0, MEM_RELEASE);
    }
}

/// Usable bytes of an opened target: a file's length, or a disk's or
/// volume's from IOCTL_DISK_GET_LENGTH_INFO (their metadata says 0).
pub fn target_len(f: &File) -> u64 {
    if let Ok(md) = f.metadata() {
        if md.is_file() {
            return md.len();
        }
    }
    let mut info = GET_LENGTH_INFORMATION { Length: 0 };
    let mut got = 0u32;
    // SAFETY: `f` is an open handle; `info` is a writable buffer of the
    // size passed; no OVERLAPPED (the handle is synchronous).
    let ok = unsafe {
        DeviceIoControl(
            f.as_raw_handle() as HANDLE,
            IOCTL_DISK_GET_LENGTH_INFO,
            std::ptr::null(),
            0,
            (&raw mut info).cast(),
            size_of::<GET_LENGTH_INFORMATION>() as u32,
            &mut got,
            std::ptr::null_mut(),
        )
    };
    if ok != 0 {
        info.Length.max(0) as u64
    } else {
        0
    }
}

/// The text of a failed I/O's errno (the POSIX numbers fio's results
/// carry, which `io::Error` would read as Windows error codes here).
pub fn errno_text(errno: i32) -> String {
    let what = match errno {
        5 => "Input/output error",
        13 => "Permission denied",
        22 => "Invalid argument",
        28 => "No space left on device",
        30 => "Read-only file system",
        _ => "I/O error",
    };
    format!("{what} (errno {errno})")
}

/// The POSIX errno fio reports for a Windows error code (fio's
/// `win_to_posix_error`), for the `error` of a result.
pub fn posix_errno(win32: u32) -> i32 {
    match win32 {
        5 | 32 | 33 => 13, // access denied, sharing or lock violation: EACCES
        19 => 30,          // write protected: EROFS
        38 => 5,           // end of file: EIO (a short transfer)
        87 | 1784 => 22,   // invalid parameter or user buffer: EINVAL
        39 | 112 => 28,    // disk full: ENOSPC
        _ => 5,            // EIO
    }
}

/// A Windows device path (`\\.\PhysicalDrive1`, `\\.\E:`,
/// `\\?\Volume{...}`), which has no metadata to judge it by.
pub fn device_path(path: &Path) -> bool {
    let s = path.as_os_str().to_string_lossy();
    s.starts_with(r"\\.\") || (s.starts_with(r"\\?\Volume{") && !s.ends_with('\\'))
}

fn wide(s: &str) -> Vec<u16> {
    OsStr::new(s).encode_wide().chain([0]).collect()
}

/// The file system a volume device (`\\.\E:`, `\\?\Volume{...}`) holds,
/// by name (`NTFS`); None for a disk (`\\.\PhysicalDriveN`) or a raw
/// volume.
pub fn volume_file_system(path: &Path) -> Option<String> {
    let s = path.as_os_str().to_string_lossy();
    let rest = s
        .strip_prefix(r"\\.\")
        .or_else(|| s.strip_prefix(r"\\?\"))?;
    if rest.to_ascii_lowercase().starts_with("physicaldrive") {
        return None;
    }
    let root = if rest.len() == 2 && rest.ends_with(':') {
        format!("{rest}\\")
    } else {
        format!(r"\\?\{rest}\")
    };
    let root = wide(&root);
    let mut fs = [0u16; 64];
    // SAFETY: `root` is NUL-terminated; `fs` is a writable buffer of the
    // length passed; the other out-pointers may be null.
    let ok = unsafe {
        GetVolumeInformationW(
            root.as_ptr(),
            std::ptr::null_mut(),
            0,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            fs.as_mut_ptr(),
            fs.len() as u32,
        )
    };
    if ok == 0 {
        return None;
    }
    let end = fs.iter().position(|&c| c == 0).unwrap_or(fs.len());
    Some(String::from_utf16_lossy(&fs[..end])).filter(|n| !n.is_empty() && n != "RAW")
}

/// Busy and total time of every processor of this processor group, 100 ns
/// units, from NtQuerySystemInformation(SystemProcessorPerformanceInformation):
/// kernel time includes idle time, so total = kernel + user and busy =
/// total - idle.
pub fn system_cpu_times() -> Option<(u64, u64)> {
    const MAX: usize = 64;
    let mut per = [SYSTEM_PROCESSOR_PERFORMANCE_INFORMATION::default(); MAX];
    let mut got = 0u32;
    // SAFETY: `per` is a writable array of the byte size passed; `got`
    // receives how many bytes were filled.
    let status = unsafe {
        windows_sys::Wdk::System::SystemInformation::NtQuerySystemInformation(
            windows_sys::Wdk::System::SystemInformation::SystemProcessorPerformanceInformation,
            per.as_mut_ptr().cast(),
            size_of_val(&per) as u32,
            &mut got,
        )
    };
    if status < 0 {
        return None;
    }
    let n = (got as usize / size_of::<SYSTEM_PROCESSOR_PERFORMANCE_INFORMATION>()).min(MAX);
    let (mut busy, mut total) = (0u64, 0u64);
    for p in &per[..n] {
        let all = (p.KernelTime + p.UserTime).max(0) as u64;
        total += all;
        busy += all.saturating_sub(p.IdleTime.max(0) as u64);
    }
    (total > 0).then_some((busy, total))
}

/// Pins the calling thread to `cpus` (logical processor numbers counted
/// across groups in order: group 0's first, then group 1's ...). Windows
/// runs a thread in one processor group, so the CPUs must share one.
pub fn pin_current_thread(cpus: &[usize]) -> io::Result<()> {
    let mut group_of = Vec::new();
    for g in 0..64u16 {
        // SAFETY: a plain query; 0 for a group that does not exist.
        let n = unsafe { GetActiveProcessorCount(g) } as usize;
        if n == 0 {
            break;
        }
        group_of.extend((0..n).map(|k| (g, k)));
    }
    let mut group = None;
    let mut mask = 0usize;
    for &c in cpus {
        let Some(&(g, k)) = group_of.get(c) else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "CPU {c} does not exist (this machine has {})",
                    group_of.len()
                ),
            ));
        };
        if *group.get_or_insert(g) != g {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the CPUs span processor groups; a Windows thread runs in one group",
            ));
        }
        mask |= 1 << k;
    }
    let ga = GROUP_AFFINITY {
        Mask: mask,
        Group: group.unwrap_or(0),
        Reserved: [0; 3],
    };
    // SAFETY: the pseudo handle of the calling thread; `ga` is initialised
    // and the previous-affinity pointer may be null.
    let ok = unsafe { SetThreadGroupAffinity(GetCurrentThread(), &ga, std::ptr::null_mut()) };
    if ok == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The CPUs the process may run on, numbered as [`pin_current_thread`]
/// takes them (its primary processor group's); None when Windows does not
/// say.
pub fn allowed_cpus() -> Option<Vec<usize>> {
    let (mut process, mut system) = (0usize, 0usize);
    // SAFETY: the current process's pseudo handle; two writable masks.
    let ok = unsafe { GetProcessAffinityMask(GetCurrentProcess(), &mut process, &mut system) };
    if ok == 0 || process == 0 {
        return None;
    }
    Some(
        (0..usize::BITS as usize)
            .filter(|b| process >> b & 1 == 1)
            .collect(),
    )
}
