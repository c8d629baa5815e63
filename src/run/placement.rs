//! Where each target's worker threads run: `--cpus-allowed` in fio's CPU
//! list syntax (`0-15,32-47`), or `--numa auto`, which reads the NUMA
//! node a device reports in sysfs (`/sys/block/<dev>/device/numa_node`)
//! and that node's CPUs (`/sys/devices/system/node/node<N>/cpulist`).
//! The sysfs root is a parameter so tests can hand in a fake tree. The
//! pinning itself is `affinity`.

use std::fmt;
use std::path::Path;

/// CPUs a thread may run on, ascending, without duplicates.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CpuList(Vec<usize>);

/// The most CPUs a list may name: glibc's `CPU_SETSIZE`, which
/// `sched_setaffinity` takes.
pub const MAX_CPU: usize = 1024;

impl CpuList {
    /// Parses fio's syntax: CPUs and inclusive ranges, comma-separated
    /// (`0-15,32-47`, `3`, `0,2,4`). The error says what is wrong with it.
    pub fn parse(s: &str) -> Result<CpuList, String> {
        let mut cpus = Vec::new();
        for item in s.split(',').map(str::trim) {
            let num = |t: &str| -> Result<usize, String> {
                let n: usize = t
                    .trim()
                    .parse()
                    .map_err(|_| format!("`{t}` is not a CPU number (a list is 0-15,32-47)"))?;
                if n >= MAX_CPU {
                    return Err(format!("CPU {n} is beyond the {MAX_CPU} a CPU set holds"));
                }
                Ok(n)
            };
            match item.split_once('-') {
                Some((a, b)) => {
                    let (a, b) = (num(a)?, num(b)?);
                    if b < a {
                        return Err(format!("range {a}-{b} runs downwards"));
                    }
                    cpus.extend(a..=b);
                }
                None => cpus.push(num(item)?),
            }
        }
        cpus.sort_unstable();
        cpus.dedup();
        Ok(CpuList(cpus))
    }

    pub fn cpus(&self) -> &[usize] {
        &self.0
    }

    /// The CPUs of `self` that are not in `allowed`.
    pub fn missing_from(&self, allowed: &CpuList) -> CpuList {
        CpuList(
            self.0
                .iter()
                .copied()
                .filter(|c| allowed.0.binary_search(c).is_err())
                .collect(),
        )
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for CpuList {
    /// fio's syntax with runs folded into ranges: `0-3,8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        let mut i = 0;
        while i < self.0.len() {
            let start = self.0[i];
            let mut end = start;
            while i + 1 < self.0.len() && self.0[i + 1] == end + 1 {
                i += 1;
                end = self.0[i];
            }
            if !first {
                f.write_str(",")?;
            }
            first = false;
            if end == start {
                write!(f, "{start}")?;
            } else {
                write!(f, "{start}-{end}")?;
            }
            i += 1;
        }
        Ok(())
    }
}

/// How the threads of one target are placed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Placement {
    /// The CPUs its threads are pinned to; None leaves them to the
    /// scheduler.
    pub cpus: Option<CpuList>,
    /// The NUMA node they came from (`--numa auto`).
    pub numa_node: Option<u32>,
    /// Why `--numa auto` left the target unpinned (a file, node -1).
    pub note: Option<String>,
}

/// What the user asked for: the same CPUs for every target, or each
/// device's own node.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum PlacementRule {
    #[default]
    None,
    CpusAllowed(CpuList),
    NumaAuto,
}

impl PlacementRule {
    /// The placement of `target` under this rule; `sysfs` is `/sys` outside
    /// tests.
    pub fn place(&self, target: &Path, sysfs: &Path) -> Placement {
        match self {
            PlacementRule::None => Placement::default(),
            PlacementRule::CpusAllowed(l) => Placement {
                cpus: Some(l.clone()),
                ..Placement::default()
            },
            PlacementRule::NumaAuto => numa_placement(target, sysfs),
        }
    }

    /// What the spec hash records: a result measured with other pinning is
    /// not the same measurement.
    pub fn canonical(&self) -> String {
        match self {
            PlacementRule::None => String::new(),
            PlacementRule::CpusAllowed(l) => format!(";cpus_allowed={l}"),
            PlacementRule::NumaAuto => ";numa=auto".into(),
        }
    }
}

/// The node of the device holding `target` and that node's CPUs, or a
/// note why there is none.
fn numa_placement(target: &Path, sysfs: &Path) -> Placement {
    let unpinned = |note: String| Placement {
        note: Some(note),
        ..Placement::default()
    };
    let Some(disk) = crate::run::host::whole_disk(target) else {
        return unpinned(format!(
            "{}: not a block device, so no NUMA node; its threads are not pinned",
            target.display()
        ));
    };
    match node_cpus(sysfs, &disk) {
        Ok((node, cpus)) => Placement {
            cpus: Some(cpus),
            numa_node: Some(node),
            note: None,
        },
        Err(why) => unpinned(format!(
            "{}: {why}; its threads are not pinned",
            target.display()
        )),
    }
}

/// The NUMA node of block device `disk` (`nvme0n1`) and its CPUs, read
/// under `sysfs`; the error says why they are unknown.
pub fn node_cpus(sysfs: &Path, disk: &str) -> Result<(u32, CpuList), String> {
    let node_file = sysfs.join("block").join(disk).join("device/numa_node");
    let text = std::fs::read_to_string(&node_file)
        .map_err(|_| format!("the kernel reports no NUMA node for {disk}"))?;
    let node: i64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{} holds `{}`", node_file.display(), text.trim()))?;
    if node < 0 {
        return Err(format!(
            "the NUMA node of {disk} is unknown (-1: one node, or the firmware does not say)"
        ));
    }
    let list_file = sysfs.join(format!("devices/system/node/node{node}/cpulist"));
    let list =
        std::fs::read_to_string(&list_file).map_err(|e| format!("{}: {e}", list_file.display()))?;
    let cpus = CpuList::parse(list.trim()).map_err(|e| format!("{}: {e}", list_file.display()))?;
    if cpus.is_empty() {
        return Err(format!("NUMA node {node} has no CPUs"));
    }
    Ok((node as u32, cpus))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_in_fios_syntax() {
        let l = CpuList::parse("0-3,32-33, 8").unwrap();
        assert_eq!(l.cpus(), [0, 1, 2, 3, 8, 32, 33]);
        assert_eq!(l.to_string(), "0-3,8,32-33");
        assert_eq!(CpuList::parse("5").unwrap().to_string(), "5");
        assert_eq!(CpuList::parse("1,1,0").unwrap().to_string(), "0-1");
        assert!(CpuList::parse("3-1").unwrap_err().contains("downwards"));
        assert!(CpuList::parse("a").unwrap_err().contains("not a CPU"));
        assert!(CpuList::parse("0,").unwrap_err().contains("not a CPU"));
        assert!(CpuList::parse("2048").unwrap_err().contains("1024"));
        let allowed = CpuList::parse("0-1").unwrap();
        assert_eq!(l.missing_from(&allowed).to_string(), "2-3,8,32-33");
    }

    /// A sysfs tree with two nodes and three devices: nvme0n1 on node 1,
    /// nvme1n1 with node -1, loop0 without a `device` folder.
    fn fake_sysfs() -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        let put = |p: &str, text: &str| {
            let path = root.path().join(p);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        put("devices/system/node/node0/cpulist", "0-15,32-47\n");
        put("devices/system/node/node1/cpulist", "16-31,48-63\n");
        put("block/nvme0n1/device/numa_node", "1\n");
        put("block/nvme1n1/device/numa_node", "-1\n");
        std::fs::create_dir_all(root.path().join("block/loop0")).unwrap();
        root
    }

    #[test]
    fn numa_node_to_cpus_from_sysfs() {
        let sys = fake_sysfs();
        let (node, cpus) = node_cpus(sys.path(), "nvme0n1").unwrap();
        assert_eq!(node, 1);
        assert_eq!(cpus.to_string(), "16-31,48-63");
        assert_eq!(cpus.cpus().len(), 32);
        let e = node_cpus(sys.path(), "nvme1n1").unwrap_err();
        assert!(e.contains("-1"), "{e}");
        let e = node_cpus(sys.path(), "loop0").unwrap_err();
        assert!(e.contains("no NUMA node"), "{e}");
    }

    #[test]
    fn numa_auto_leaves_files_unpinned_with_a_note() {
        let sys = fake_sysfs();
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("data");
        std::fs::write(&f, b"x").unwrap();
        let p = PlacementRule::NumaAuto.place(&f, sys.path());
        assert_eq!(p.cpus, None);
        assert!(p.note.unwrap().contains("not a block device"));
        let every = CpuList::parse("0-3").unwrap();
        let p = PlacementRule::CpusAllowed(every.clone()).place(&f, sys.path());
        assert_eq!(p.cpus, Some(every));
    }
}
