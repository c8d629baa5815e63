//! Facts about the machine a result was measured on (kernel, CPU model,
//! the target's device model) and whole-system CPU use from /proc/stat
//! (on Windows, per-processor times from the system: `sys::system_cpu_times`).

use std::path::Path;

use super::engines::sys;

/// Host facts written under the `nvcmp` key of each result.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct HostFacts {
    pub os: String,
    pub kernel: String,
    pub hostname: String,
    pub cpu_model: String,
    pub cpus: usize,
    /// Model of the block device holding the target, when found.
    pub device_model: Option<String>,
    /// That device's name (`nvme0n1`, `vda`).
    pub device: Option<String>,
}

fn read_trim(p: impl AsRef<Path>) -> Option<String> {
    std::fs::read_to_string(p)
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

impl HostFacts {
    pub fn gather(target: Option<&Path>) -> HostFacts {
        let cpu_model = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, v)| v.trim().to_string())
            })
            .unwrap_or_default();
        let (device, device_model) = target.and_then(device_of).unzip();
        HostFacts {
            os: std::env::consts::OS.to_string(),
            kernel: read_trim("/proc/sys/kernel/osrelease").unwrap_or_default(),
            hostname: read_trim("/proc/sys/kernel/hostname").unwrap_or_default(),
            cpu_model,
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            device,
            device_model: device_model.flatten(),
        }
    }
}

/// The whole-disk device holding `path` and its model, through
/// /sys/dev/block/MAJ:MIN (a partition's model is its parent's).
fn device_of(path: &Path) -> Option<(String, Option<String>)> {
    let md = std::fs::metadata(path).ok()?;
    let dev = sys::holding_device(&md)?;
    let sys = std::fs::canonicalize(format!("/sys/dev/block/{}", sys::sysfs_name(dev))).ok()?;
    let disk = if sys.join("partition").exists() {
        sys.parent()?.to_path_buf()
    } else {
        sys
    };
    let name = disk.file_name()?.to_string_lossy().into_owned();
    let model =
        read_trim(disk.join("device/model")).or_else(|| read_trim(disk.join("device/name")));
    Some((name, model))
}

/// The whole-disk name (`nvme0n1`) of a block device (a partition's
/// parent); None for anything that is not a block device.
pub fn whole_disk(path: &Path) -> Option<String> {
    let md = std::fs::metadata(path).ok()?;
    sys::block_device(&md)?;
    device_of(path).map(|(name, _)| name)
}

/// Jiffies from the `cpu` line of /proc/stat: (busy, total).
#[derive(Debug, Clone, Copy, Default)]
pub struct CpuTimes {
    busy: u64,
    total: u64,
}

impl CpuTimes {
    #[cfg(not(windows))]
    pub fn now() -> Option<CpuTimes> {
        let s = std::fs::read_to_string("/proc/stat").ok()?;
        parse_proc_stat(&s)
    }

    /// Windows: every processor's busy and total time (100 ns units) from
    /// NtQuerySystemInformation, not /proc/stat.
    #[cfg(windows)]
    pub fn now() -> Option<CpuTimes> {
        let (busy, total) = sys::system_cpu_times()?;
        Some(CpuTimes { busy, total })
    }

    /// Busy share of all CPUs between `earlier` and `self`, percent.
    pub fn busy_pct_since(&self, earlier: &CpuTimes) -> Option<f64> {
        let total = self.total.checked_sub(earlier.total)?;
        let busy = self.busy.checked_sub(earlier.busy)?;
        (total > 0).then(|| 100.0 * busy as f64 / total as f64)
    }
}

/// user nice system idle iowait irq softirq steal (guest time is already
/// in user): idle and iowait are the idle part.
// Windows reads its own counters (`CpuTimes::now`); the parser is still
// tested there.
#[cfg_attr(windows, allow(dead_code))]
fn parse_proc_stat(s: &str) -> Option<CpuTimes> {
    let line = s.lines().find(|l| l.starts_with("cpu "))?;
    let v: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .take(8)
        .filter_map(|x| x.parse().ok())
        .collect();
    if v.len() < 4 {
        return None;
    }
    let total: u64 = v.iter().sum();
    let idle = v[3] + v.get(4).copied().unwrap_or(0);
    Some(CpuTimes {
        busy: total - idle,
        total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_stat_busy_share() {
        let a = parse_proc_stat("cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 1 2 3 4\n").unwrap();
        let b = parse_proc_stat("cpu  150 0 150 850 50 0 0 0 0 0\n").unwrap();
        // 100 busy jiffies out of 200.
        assert_eq!(b.busy_pct_since(&a), Some(50.0));
        assert!(parse_proc_stat("intr 1 2").is_none());
    }

    #[test]
    fn host_facts_on_this_machine() {
        let h = HostFacts::gather(Some(Path::new("/")));
        assert_eq!(h.os, std::env::consts::OS);
        if cfg!(target_os = "linux") {
            assert!(!h.kernel.is_empty());
        }
    }
}
