//! Every system but Linux and Windows: the same functions as `linux.rs`, so that
//! everything but `nvcmp run` builds and works there. `run` is refused
//! first ([`supported`]); should another caller reach an I/O function, it
//! gets an error saying the harness is Linux-only, never a wrong number.

use std::fs::{File, OpenOptions};
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

/// No way to reopen a descriptor here: the harness runs on Linux.
pub fn reopen_path(_f: &File) -> Option<std::path::PathBuf> {
    None
}

pub fn no_direct_io(_error: &io::Error) -> bool {
    false
}
