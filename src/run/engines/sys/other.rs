//! Every system but Linux: the same functions as `linux.rs`, so that
//! everything but `nvcmp run` builds and works there. `run` is refused
//! first ([`supported`]); should another caller reach an I/O function, it
//! gets an error saying the harness is Linux-only, never a wrong number.

use std::fs::{File, Metadata, OpenOptions};
use std::io;

use super::Usage;

/// Why `nvcmp run` does not run here.
const LINUX_ONLY: &str = "nvcmp run is Linux-only: its engines and safety checks use Linux's \
     interfaces (O_DIRECT, libaio, io_uring, /sys, /proc); ingest, analyze, check and history \
     work on this system";

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
