//! What Windows and every other system but Linux share: no device
//! numbers (`st_rdev`, sysfs), so a target is never judged by one. One
//! copy, where each twin had its own.

use std::fs::Metadata;

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
