//! The rules that keep `nvcmp run` from destroying data: which targets it
//! may read and write, checked before any I/O. Every refusal says why and
//! which flag (or action) overrides it.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::engines::sys;

/// What the target turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetKind {
    /// A file nvcmp creates now and removes afterwards.
    Scratch,
    /// A regular file that already existed.
    ExistingFile,
    BlockDevice,
}

impl TargetKind {
    /// The name results record (`nvcmp.target_kind`).
    pub fn as_str(self) -> &'static str {
        match self {
            TargetKind::Scratch => "scratch",
            TargetKind::ExistingFile => "file",
            TargetKind::BlockDevice => "block",
        }
    }
}

/// A refusal, with the reason and the override.
#[derive(Debug, thiserror::Error)]
#[error("refusing to use {path}: {reason}")]
pub struct Refusal {
    pub path: PathBuf,
    pub reason: String,
}

fn refuse(path: &Path, reason: impl Into<String>) -> Refusal {
    Refusal {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

/// An existing file smaller than the jobs' `--size` is refused: the jobs
/// would measure only the file (a few KiB, from the page cache) while the
/// result records the size asked for. nvcmp does not grow a file it did
/// not create.
pub fn check_file_size(path: &Path, size: u64) -> Result<(), Refusal> {
    let len = std::fs::metadata(path)
        .map_err(|e| refuse(path, format!("cannot stat it: {e}")))?
        .len();
    if len >= size {
        return Ok(());
    }
    Err(refuse(
        path,
        format!(
            "it holds {} ({len} bytes), less than --size {} ({size} bytes); \
             give --size {} or less, or a larger file",
            crate::units::format_bs(len),
            crate::units::format_bs(size),
            crate::units::format_bs(len),
        ),
    ))
}

/// Decides whether `path` may be used by a job that writes (`writes`)
/// or only reads. `destroy_data` is `--destroy-data`.
pub fn check_target(path: &Path, writes: bool, destroy_data: bool) -> Result<TargetKind, Refusal> {
    if sys::device_path(path) {
        return check_windows_device(path, writes, destroy_data);
    }
    let md = match std::fs::metadata(path) {
        Ok(md) => md,
        // Device nodes are the kernel's to make: a missing one is a typo or
        // a drive that is gone, never a place for a scratch file.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && path.starts_with("/dev") => {
            return Err(refuse(
                path,
                "no such device; check the --target name (nvcmp creates scratch files, \
                 never device nodes)",
            ));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(TargetKind::Scratch),
        Err(e) => return Err(refuse(path, format!("cannot stat it: {e}"))),
    };
    let ft = md.file_type();
    if ft.is_file() {
        // Windows keeps a read-only file read-only for everyone, so a
        // write would fail at open; said here, before any target is
        // touched (Wine run as root would write it regardless).
        if cfg!(windows) && writes && md.permissions().readonly() {
            return Err(refuse(
                path,
                "it is read-only (its read-only attribute is set) and the job writes to it; \
                 clear the attribute or give another target",
            ));
        }
        if writes && !destroy_data {
            return Err(refuse(
                path,
                "it is an existing file nvcmp did not create and the job writes to it; \
                 pass --destroy-data to overwrite it, or give a path that does not exist",
            ));
        }
        return Ok(TargetKind::ExistingFile);
    }
    let Some(rdev) = sys::block_device(&md) else {
        return Err(refuse(
            path,
            "it is neither a regular file nor a block device",
        ));
    };
    let name = block_name(rdev);
    if let Some(why) = in_use(path, rdev, name.as_deref()) {
        // Writing under a mounted filesystem corrupts it whatever the user
        // wants: no flag overrides that.
        if writes {
            return Err(refuse(
                path,
                format!("{why}; unmount it (no flag overrides writing to a device in use)"),
            ));
        }
        if !destroy_data {
            return Err(refuse(
                path,
                format!("{why}; pass --destroy-data to read it anyway"),
            ));
        }
    }
    device_contents(path, writes, destroy_data, "a block device")
}

/// A Windows disk or volume (`\\.\PhysicalDrive1`, `\\.\E:`), judged by
/// the rules of a Linux block device: a volume with a file system is in
/// use (mounted), which no flag lets a job write to, and which a job reads
/// only with --destroy-data; a disk whose first sectors hold a partition
/// table or file system needs --destroy-data, and so does any write.
fn check_windows_device(
    path: &Path,
    writes: bool,
    destroy_data: bool,
) -> Result<TargetKind, Refusal> {
    if let Some(fs) = sys::volume_file_system(path) {
        let why = format!("it is a volume holding a {fs} file system");
        if writes {
            return Err(refuse(
                path,
                format!(
                    "{why}; writing under a mounted file system corrupts it (no flag overrides \
                     that: give a disk or a volume without a file system)"
                ),
            ));
        }
        if !destroy_data {
            return Err(refuse(
                path,
                format!("{why}; pass --destroy-data to read it anyway"),
            ));
        }
    }
    if let Err(e) = File::open(path) {
        return Err(refuse(
            path,
            format!(
                "cannot open it: {e}; check the --target name (opening a disk needs an \
                 Administrator prompt)"
            ),
        ));
    }
    device_contents(path, writes, destroy_data, "a disk or volume")
}

/// The last rule for a device on either system: what its first sectors
/// hold, and any write, need --destroy-data. `what` names the device in
/// the refusal ("a block device", "a disk or volume").
fn device_contents(
    path: &Path,
    writes: bool,
    destroy_data: bool,
    what: &str,
) -> Result<TargetKind, Refusal> {
    if !destroy_data {
        if let Some(sig) = read_signature(path) {
            return Err(refuse(
                path,
                format!("it holds {sig}; pass --destroy-data if its contents may be lost"),
            ));
        }
        if writes {
            return Err(refuse(
                path,
                format!("the job writes to {what}; pass --destroy-data to allow it"),
            ));
        }
    }
    Ok(TargetKind::BlockDevice)
}

/// The kernel's name for a device number (`sda1`), from /sys/dev/block.
fn block_name(rdev: u64) -> Option<String> {
    let p = std::fs::canonicalize(format!("/sys/dev/block/{}", sys::sysfs_name(rdev))).ok()?;
    Some(p.file_name()?.to_string_lossy().into_owned())
}

/// Why the device is in use: mounted (itself or one of its partitions),
/// used as swap, or held by another device (LVM, RAID, dm-crypt).
fn in_use(path: &Path, rdev: u64, name: Option<&str>) -> Option<String> {
    let mut devs = vec![rdev];
    if let Some(name) = name {
        let sys = Path::new("/sys/class/block").join(name);
        if let Ok(rd) = std::fs::read_dir(sys.join("holders"))
            && let Some(h) = rd.flatten().next()
        {
            return Some(format!(
                "it is held by {} (LVM, RAID or dm)",
                h.file_name().to_string_lossy()
            ));
        }
        // Partitions are subdirectories with a `partition` file.
        if let Ok(rd) = std::fs::read_dir(&sys) {
            for e in rd.flatten() {
                if e.path().join("partition").exists() {
                    if let Some(d) = read_dev(&e.path().join("dev")) {
                        devs.push(d);
                    }
                    if let Ok(h) = std::fs::read_dir(e.path().join("holders"))
                        && h.flatten().next().is_some()
                    {
                        return Some(format!(
                            "its partition {} is held by another device",
                            e.file_name().to_string_lossy()
                        ));
                    }
                }
            }
        }
    }
    let dev_of = |p: &str| std::fs::metadata(p).ok().map(|m| sys::rdev(&m));
    let mounts = std::fs::read_to_string("/proc/self/mounts").unwrap_or_default();
    for line in mounts.lines() {
        let mut f = line.split_whitespace();
        let (Some(src), Some(dir)) = (f.next(), f.next()) else {
            continue;
        };
        if src.starts_with('/') && dev_of(src).is_some_and(|d| devs.contains(&d)) {
            return Some(format!("{src} is mounted on {dir}"));
        }
    }
    let swaps = std::fs::read_to_string("/proc/swaps").unwrap_or_default();
    for line in swaps.lines().skip(1) {
        if let Some(src) = line.split_whitespace().next()
            && dev_of(src).is_some_and(|d| devs.contains(&d))
        {
            return Some(format!("{src} is in use as swap"));
        }
    }
    let _ = path;
    None
}

fn read_dev(p: &Path) -> Option<u64> {
    let s = std::fs::read_to_string(p).ok()?;
    let (a, b) = s.trim().split_once(':')?;
    Some(sys::makedev(a.parse().ok()?, b.parse().ok()?))
}

/// Reads the first 68 KiB and names the first partition table or
/// filesystem signature found.
pub fn read_signature(path: &Path) -> Option<&'static str> {
    let mut f = File::open(path).ok()?;
    let mut buf = vec![0u8; 68 * 1024];
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(_) => break,
        }
    }
    detect_signature(&buf[..n])
}

/// Signature detection on the first bytes of a device.
pub fn detect_signature(b: &[u8]) -> Option<&'static str> {
    let at = |off: usize, magic: &[u8]| b.get(off..off + magic.len()) == Some(magic);
    // GPT header in LBA 1, for 512- and 4096-byte sectors.
    if at(512, b"EFI PART") || at(4096, b"EFI PART") {
        return Some("a GPT partition table");
    }
    if at(0, b"XFSB") {
        return Some("an XFS filesystem");
    }
    if at(0, b"LUKS\xba\xbe") {
        return Some("a LUKS encrypted volume");
    }
    if at(0x438, &[0x53, 0xef]) {
        return Some("an ext2/3/4 filesystem");
    }
    if at(0x10040, b"_BHRfS_M") {
        return Some("a btrfs filesystem");
    }
    if (0..4).any(|s| at(512 * s, b"LABELONE")) {
        return Some("an LVM physical volume");
    }
    for page in [4096usize, 8192, 16384, 65536] {
        if at(page - 10, b"SWAPSPACE2") || at(page - 10, b"SWAP-SPACE") {
            return Some("a swap area");
        }
    }
    if at(3, b"NTFS    ") {
        return Some("an NTFS filesystem");
    }
    if at(0x52, b"FAT32   ") || at(0x36, b"FAT16   ") || at(0x36, b"FAT12   ") {
        return Some("a FAT filesystem");
    }
    if at(0x8001, b"CD001") {
        return Some("an ISO 9660 filesystem");
    }
    if at(0x1000, &[0xfc, 0x4e, 0x2b, 0xa9]) {
        return Some("a Linux RAID (md) member");
    }
    // An MBR (or a protective MBR) last: filesystems above also end their
    // boot sector with 0x55AA.
    if at(510, &[0x55, 0xaa]) {
        return Some("an MBR partition table or boot sector");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(off: usize, magic: &[u8]) -> Vec<u8> {
        let mut b = vec![0u8; 68 * 1024];
        b[off..off + magic.len()].copy_from_slice(magic);
        b
    }

    #[test]
    fn signatures() {
        assert_eq!(detect_signature(&vec![0u8; 68 * 1024]), None);
        assert_eq!(
            detect_signature(&with(510, &[0x55, 0xaa])).unwrap(),
            "an MBR partition table or boot sector"
        );
        assert!(
            detect_signature(&with(512, b"EFI PART"))
                .unwrap()
                .contains("GPT")
        );
        assert!(
            detect_signature(&with(1080, &[0x53, 0xef]))
                .unwrap()
                .contains("ext")
        );
        assert!(detect_signature(&with(0, b"XFSB")).unwrap().contains("XFS"));
        assert!(
            detect_signature(&with(65600, b"_BHRfS_M"))
                .unwrap()
                .contains("btrfs")
        );
        assert!(
            detect_signature(&with(4086, b"SWAPSPACE2"))
                .unwrap()
                .contains("swap")
        );
        assert!(
            detect_signature(&with(512, b"LABELONE"))
                .unwrap()
                .contains("LVM")
        );
        // Short reads never panic.
        assert_eq!(detect_signature(&[0x55]), None);
    }

    #[test]
    fn files() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        assert_eq!(check_target(&p, true, false).unwrap(), TargetKind::Scratch);
        std::fs::write(&p, b"precious").unwrap();
        assert_eq!(
            check_target(&p, false, false).unwrap(),
            TargetKind::ExistingFile
        );
        let e = check_target(&p, true, false).unwrap_err().to_string();
        assert!(e.contains("--destroy-data"), "{e}");
        assert_eq!(
            check_target(&p, true, true).unwrap(),
            TargetKind::ExistingFile
        );
        let e = check_target(Path::new("/dev/nvcmp-no-such-disk"), false, true)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no such device") && e.contains("--target"),
            "{e}"
        );
        let e = check_target(dir.path(), false, false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("neither"), "{e}");
    }

    #[test]
    fn the_root_disk_is_refused() {
        // The device holding / is mounted on every machine this runs on.
        let md = std::fs::metadata("/").unwrap();
        let Some(name) = sys::holding_device(&md).and_then(block_name) else {
            eprintln!("skipped: / is not on a block device here");
            return;
        };
        let dev = Path::new("/dev").join(&name);
        if !dev.exists() {
            eprintln!("skipped: {} does not exist", dev.display());
            return;
        }
        let e = check_target(&dev, true, true).unwrap_err().to_string();
        assert!(e.contains("mounted") || e.contains("held"), "{e}");
    }
}
