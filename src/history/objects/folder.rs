//! A history in a local folder: each part a file, written aside
//! (`.part-*.tmp`, which no `*.parquet` glob sees) and then hard-linked
//! to its name, which fails when the name is taken: the folder's
//! create-if-absent. A file system without hard links gets a rename to a
//! name seen free.
//!
//! Each part's CRC-32 is recorded in the name of an empty hidden file
//! beside it (`.part-00000042.parquet.crc32-1a2b3c4d`), created before the
//! part becomes visible and removed after it is gone, so a part is never
//! seen without its record (a bucket keeps it in the object's metadata
//! instead). Parts written before checksums have none and read as they are.
//!
//! Writers also take the folder's lock (`flock`, `LockFileEx`) as they
//! always have: it keeps adds in turn, so one CI machine's jobs never race,
//! and lets the next writer remove what a killed one left. The store's
//! rules are safe without it (a bucket has none).

use std::path::{Path, PathBuf};

use super::{Created, Fetched, Listed, Objects, QUARANTINE};
use crate::history::error::{StoreError, io};

/// The history in one local folder.
#[derive(Debug, Clone)]
pub struct Folder {
    dir: PathBuf,
}

/// Between a part's name and its CRC-32 in its checksum file's name.
pub const SUM_INFIX: &str = ".crc32-";

/// The checksum file of part `file_name` whose bytes have CRC-32 `crc`:
/// hidden (a leading dot), as readers of a parquet directory (pyarrow's
/// datasets, Spark) skip names starting with `.` or `_` and would
/// otherwise try to open the empty file as a part.
pub fn sum_name(file_name: &str, crc: u32) -> String {
    format!(".{file_name}{SUM_INFIX}{crc:08x}")
}

/// The part's file name and CRC-32 a checksum file's name records.
pub(crate) fn parse_sum(name: &str) -> Option<(&str, u32)> {
    let (part, hex) = sum_record(name)?;
    Some((part, parse_crc(hex)?))
}

/// The part's file name and the record of a name that is a checksum
/// file's (`.NAME.parquet.crc32-RECORD`), whether or not the record is a
/// CRC-32.
fn sum_record(name: &str) -> Option<(&str, &str)> {
    let (part, record) = name.strip_prefix('.')?.rsplit_once(SUM_INFIX)?;
    part.ends_with(".parquet").then_some((part, record))
}

/// A recorded CRC-32: exactly 8 hex digits (`1a2b3c4d`), nothing else.
pub(crate) fn parse_crc(record: &str) -> Option<u32> {
    if record.len() != 8 || !record.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(record, 16).ok()
}

/// Temporaries this process removed as stale ([`Folder::remove_stale`]):
/// what `compact` and `add` say they removed, and only that (a temporary
/// gone because its own writer renamed it is not counted).
static STALE_REMOVED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// How many stale temporaries this process has removed.
pub fn stale_removed() -> usize {
    STALE_REMOVED.load(std::sync::atomic::Ordering::Relaxed)
}

impl Folder {
    pub fn new(dir: &Path) -> Folder {
        Folder {
            dir: dir.to_path_buf(),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A name for `name` being written, which no `*.parquet` glob sees,
    /// random so that none can be planted in advance.
    fn aside(&self, name: &str) -> PathBuf {
        let stem = name.strip_suffix(".parquet").unwrap_or(name);
        let random = crate::atomic_file::random();
        self.dir.join(format!(".{stem}-{random:016x}.tmp"))
    }

    /// Writes `bytes` aside for `name`, synced.
    fn write_aside(&self, name: &str, bytes: &[u8]) -> Result<PathBuf, StoreError> {
        use std::io::Write;
        let tmp = self.aside(name);
        // Created new: a name found there (a symlink) is never written
        // through.
        let created = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp);
        let written = created.and_then(|mut f| {
            f.write_all(bytes)?;
            f.sync_all()
        });
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(io(&tmp)(e));
        }
        Ok(tmp)
    }

    /// Paths of the checksum files of the part `name` with CRC-32s `sums`.
    fn sum_paths(&self, name: &str, sums: &[u32]) -> Vec<PathBuf> {
        sums.iter()
            .map(|c| self.dir.join(sum_name(name, *c)))
            .collect()
    }

    /// Temporaries of this store's naming (`.part-*.tmp`).
    pub fn temporaries(&self) -> Vec<PathBuf> {
        files_named(&self.dir, |n| {
            n.starts_with(".part-") && n.ends_with(".tmp")
        })
    }

    /// Checksum files whose part is not there.
    pub fn orphan_sums(&self) -> Vec<PathBuf> {
        let dir = &self.dir;
        files_named(dir, |name| {
            parse_sum(name).is_some_and(|(part, _)| !dir.join(part).exists())
        })
    }

    /// Removes what an add or compaction killed mid-write left behind.
    /// Called with the history's [`Lock`] held: every writer takes it
    /// before writing a temporary, so none present belongs to a live
    /// process. On a system with no lock (neither Unix nor Windows)
    /// writers are not serialized: only temporaries an hour old go.
    fn remove_stale(&self, _lock: &Lock) {
        for tmp in self.temporaries() {
            let stale = cfg!(any(unix, windows))
                || std::fs::metadata(&tmp)
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| t.elapsed().is_ok_and(|age| age.as_secs() > 3600));
            if stale && std::fs::remove_file(&tmp).is_ok() {
                STALE_REMOVED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        }
        // Checksum files whose part is gone: a merge or retire killed
        // between removing a part and its record, or an add that lost a name.
        for sum in self.orphan_sums() {
            let _ = std::fs::remove_file(sum);
        }
    }

    /// Waits for the folder's lock, then removes the temporaries a killed
    /// writer left.
    pub(crate) fn lock_and_clean(&self) -> Result<Lock, StoreError> {
        let lock = Lock::take(&self.dir)?;
        self.remove_stale(&lock);
        Ok(lock)
    }
}

impl Objects for Folder {
    fn list(&self) -> Result<Vec<Listed>, StoreError> {
        let dir = &self.dir;
        let mut out = Vec::new();
        let mut sums: std::collections::HashMap<String, Vec<u32>> = Default::default();
        let mut bad: std::collections::HashMap<String, Vec<String>> = Default::default();
        for entry in std::fs::read_dir(dir).map_err(io(dir))? {
            let entry = entry.map_err(io(dir))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            match sum_record(&name) {
                Some((part, record)) => match parse_crc(record) {
                    Some(crc) => sums.entry(part.to_string()).or_default().push(crc),
                    None => bad.entry(part.to_string()).or_default().push(name),
                },
                None => out.push(Listed {
                    name,
                    sums: Vec::new(),
                    bad_sums: Vec::new(),
                }),
            }
        }
        for l in &mut out {
            if let Some(mut s) = sums.remove(&l.name) {
                s.sort_unstable();
                l.sums = s;
            }
            if let Some(b) = bad.remove(&l.name) {
                l.bad_sums = b;
            }
        }
        Ok(out)
    }

    fn fetch(&self, names: &[String]) -> Vec<Result<Fetched, StoreError>> {
        names
            .iter()
            .map(|n| {
                let path = self.dir.join(n);
                match std::fs::read(&path) {
                    Ok(bytes) => Ok(Fetched {
                        bytes,
                        sums: Vec::new(),
                        bad_sums: Vec::new(),
                    }),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        Err(StoreError::Gone(path))
                    }
                    Err(e) => Err(io(&path)(e)),
                }
            })
            .collect()
    }

    /// A hard link never replaces a part another writer placed at the
    /// same moment. The part's checksum is recorded before the link: a
    /// part is never visible without it. A name another writer took
    /// leaves our record an orphan, removed here (and, if we are killed
    /// first, by the next writer).
    fn create(&self, name: &str, bytes: &[u8], crc: u32) -> Result<Created, StoreError> {
        let tmp = self.write_aside(name, bytes)?;
        let path = self.dir.join(name);
        let placed = (|| {
            let sum = record_sum(&path, crc)?;
            match std::fs::hard_link(&tmp, &path) {
                Ok(()) => Ok(Created::Ours),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    // Unless the part there is ours to the byte, the
                    // record is only ours: another writer's has another name.
                    if !part_has_crc(&path, crc) {
                        let _ = std::fs::remove_file(&sum);
                    }
                    Ok(Created::Taken)
                }
                // File systems without hard links: a rename to a free name.
                Err(_) if !path.exists() => {
                    std::fs::rename(&tmp, &path).map_err(io(&path))?;
                    Ok(Created::Ours)
                }
                Err(e) => {
                    let _ = std::fs::remove_file(&sum);
                    Err(io(&path)(e))
                }
            }
        })();
        // The aside copy goes whatever happened; a failed write leaves nothing.
        let _ = std::fs::remove_file(&tmp);
        sync_dir(&self.dir);
        placed
    }

    /// Renames the new bytes over `name`, their checksum recorded first;
    /// the old checksums go after, so a kill at any point leaves the part
    /// matching one of its records.
    fn overwrite(&self, name: &str, bytes: &[u8], crc: u32, old: &[u32]) -> Result<(), StoreError> {
        let tmp = self.write_aside(name, bytes)?;
        let path = self.dir.join(name);
        let placed = record_sum(&path, crc).and_then(|sum| {
            std::fs::rename(&tmp, &path).map_err(io(&path))?;
            for old in self.sum_paths(name, old).into_iter().filter(|p| *p != sum) {
                let _ = std::fs::remove_file(old);
            }
            Ok(())
        });
        let _ = std::fs::remove_file(&tmp);
        sync_dir(&self.dir);
        placed
    }

    /// The part before its checksum files: a kill between leaves a record
    /// without a part (removed by the next writer), never a part without
    /// its record.
    fn delete(&self, name: &str, sums: &[u32]) -> Result<(), StoreError> {
        let path = self.dir.join(name);
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(io(&path)(e));
            }
            _ => {}
        }
        for sum in self.sum_paths(name, sums) {
            let _ = std::fs::remove_file(sum);
        }
        Ok(())
    }

    /// A name taken in `.quarantine/` gets `.1`, `.2`, ... after it.
    fn quarantine(&self, name: &str, sums: &[u32]) -> Result<PathBuf, StoreError> {
        let aside = self.dir.join(QUARANTINE);
        std::fs::create_dir_all(&aside).map_err(io(&aside))?;
        let free = |name: &str| {
            let mut to = aside.join(name);
            let mut k = 0;
            while to.exists() {
                k += 1;
                to = aside.join(format!("{name}.{k}"));
            }
            to
        };
        let from = self.dir.join(name);
        let to = free(name);
        std::fs::rename(&from, &to).map_err(io(&from))?;
        for sum in self.sum_paths(name, sums) {
            let sum_file = sum
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let _ = std::fs::rename(&sum, free(&sum_file));
        }
        sync_dir(&self.dir);
        Ok(to)
    }

    fn quarantined(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(self.dir.join(QUARANTINE)) else {
            return Vec::new();
        };
        entries
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect()
    }

    fn locate(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn check(&self) -> Result<(), StoreError> {
        if self.dir.is_file() {
            return Err(StoreError::NotADirectory(self.dir.clone()));
        }
        if !self.dir.is_dir() {
            return Err(StoreError::Missing(self.dir.clone()));
        }
        Ok(())
    }

    fn exists(&self) -> Result<bool, StoreError> {
        Ok(self.dir.exists())
    }

    fn prepare(&self) -> Result<(), StoreError> {
        if self.dir.is_file() {
            return Err(StoreError::NotADirectory(self.dir.clone()));
        }
        std::fs::create_dir_all(&self.dir).map_err(io(&self.dir))
    }

    fn folder(&self) -> Option<&Folder> {
        Some(self)
    }
}

/// Creates the checksum file of the part at `path` with CRC-32 `crc`,
/// synced; returns its path.
fn record_sum(path: &Path, crc: u32) -> Result<PathBuf, StoreError> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let sum = path.with_file_name(sum_name(&name, crc));
    // An empty file: one already there is kept as it is, never truncated
    // (a symlink planted at the name would truncate its target).
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(&sum);
    let file = match file {
        Ok(f) if f.metadata().is_ok_and(|m| m.is_file() && m.len() == 0) => f,
        Ok(_) => {
            return Err(io(&sum)(std::io::Error::other(
                "a checksum record's name holds something other than an empty file",
            )));
        }
        Err(e) => return Err(io(&sum)(e)),
    };
    file.sync_all().map_err(io(&sum))?;
    Ok(sum)
}

fn part_has_crc(path: &Path, crc: u32) -> bool {
    std::fs::read(path).is_ok_and(|b| crc32fast::hash(&b) == crc)
}

/// A new name must survive a crash too: sync the directory.
pub(crate) fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// The files of `dir` whose name `keep` takes, sorted (none when `dir`
/// cannot be read).
fn files_named(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(&keep))
        .collect();
    out.sort();
    out
}

/// Writes `bytes` (CRC-32 `crc`) as the part at `path` with its checksum
/// recorded, not aside first: for tools that make a whole history at once
/// (benches).
pub(crate) fn write_in_place(path: &Path, bytes: &[u8], crc: u32) -> Result<(), StoreError> {
    std::fs::write(path, bytes).map_err(io(path))?;
    record_sum(path, crc).map(|_| ())
}

/// The lock file of a history: hidden, so no `*.parquet` glob or listing
/// of parts sees it.
pub(crate) const LOCK_FILE: &str = ".nvcmp-history.lock";

/// An exclusive lock on a history folder for one add or compaction.
/// `flock` (Unix) and `LockFileEx` (Windows) are released by the kernel
/// when the process ends, so a killed add never leaves the history locked.
pub(crate) struct Lock {
    _file: std::fs::File,
}

impl Lock {
    /// Waits for the history in `dir` (which exists) to be free.
    pub(crate) fn take(dir: &Path) -> Result<Lock, StoreError> {
        let path = dir.join(LOCK_FILE);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io(&path))?;
        lock_exclusive(&file).map_err(|source| StoreError::Io { path, source })?;
        Ok(Lock { _file: file })
    }
}

/// Waits for an exclusive `flock` on `file`, which keeps it until closed.
#[cfg(unix)]
fn lock_exclusive(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    loop {
        // SAFETY: `flock` only takes the descriptor, which `file` owns
        // and keeps open for as long as the lock is held.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Windows' twin: waits for an exclusive `LockFileEx` lock on the whole
/// of `file` (std's `File::lock` needs Rust 1.89, past nvcmp's 1.85).
#[cfg(windows)]
fn lock_exclusive(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::windows::io::AsRawHandle;
    use windows_sys::Win32::Storage::FileSystem::{LOCKFILE_EXCLUSIVE_LOCK, LockFileEx};
    // SAFETY: OVERLAPPED is plain data; zeroed locks from offset 0.
    let mut ov: windows_sys::Win32::System::IO::OVERLAPPED = unsafe { std::mem::zeroed() };
    // SAFETY: `file` owns its handle, opened synchronously, so the call
    // blocks until the lock is granted and `ov` outlives it; the range is
    // every byte, locked past the end of the empty file as Windows allows.
    let ok = unsafe {
        LockFileEx(
            file.as_raw_handle() as _,
            LOCKFILE_EXCLUSIVE_LOCK,
            0,
            u32::MAX,
            u32::MAX,
            &mut ov,
        )
    };
    if ok == 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// The twin for systems with neither lock: adds are not serialized, and
/// [`Folder::remove_stale`] leaves temporaries younger than an hour.
#[cfg(not(any(unix, windows)))]
fn lock_exclusive(_file: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A second writer waits for the first one's lock (flock on Unix,
    /// LockFileEx on Windows), each through its own open of the lock file
    /// as two nvcmp processes would: told by the order the two write in
    /// (the second only after the first let go), never by a time in
    /// which nothing happened.
    #[cfg(any(unix, windows))]
    #[test]
    fn a_second_writer_waits_for_the_first() {
        use std::sync::{Arc, Mutex};
        let dir = tempfile::tempdir().unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let log = |order: &Mutex<Vec<&'static str>>, what| order.lock().unwrap().push(what);
        let first = Lock::take(dir.path()).unwrap();
        log(&order, "first writes");
        let second = std::thread::spawn({
            let (path, order) = (dir.path().to_path_buf(), Arc::clone(&order));
            move || {
                log(&order, "second asks");
                let lock = Lock::take(&path).unwrap();
                log(&order, "second writes");
                drop(lock);
            }
        });
        // Until the second writer is seen waiting for the lock, or seen
        // writing, which a lock that works never lets it do yet.
        let start = std::time::Instant::now();
        loop {
            let now = order.lock().unwrap().clone();
            if now.contains(&"second writes") || waits_for(dir.path(), &now) {
                break;
            }
            assert!(
                start.elapsed().as_secs() < 60,
                "in 60 s the second writer neither waited nor wrote: {now:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        log(&order, "first lets go");
        drop(first);
        second.join().unwrap();
        assert_eq!(
            *order.lock().unwrap(),
            [
                "first writes",
                "second asks",
                "first lets go",
                "second writes"
            ],
            "two writers held the history's lock at once"
        );
    }

    /// Whether a second taker of the lock in `dir` waits for it, as the
    /// kernel says: a `->` line of /proc/locks (a blocked flock) on the
    /// lock file's inode.
    #[cfg(target_os = "linux")]
    fn waits_for(dir: &Path, _order: &[&str]) -> bool {
        use std::os::unix::fs::MetadataExt;
        let inode = std::fs::metadata(dir.join(LOCK_FILE))
            .unwrap()
            .ino()
            .to_string();
        let locks = std::fs::read_to_string("/proc/locks").unwrap();
        locks.lines().any(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            f.get(1..3) == Some(&["->", "FLOCK"][..])
                && f.get(6).and_then(|d| d.rsplit(':').next()) == Some(inode.as_str())
        })
    }

    /// Elsewhere no system says who waits for a lock: a fifth of a second
    /// after the second taker asked (`order`), in which a lock that does
    /// not hold lets it write.
    #[cfg(not(target_os = "linux"))]
    fn waits_for(_dir: &Path, order: &[&str]) -> bool {
        if !order.contains(&"second asks") {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
        true
    }

    #[test]
    fn create_if_absent_never_replaces_a_part() {
        let dir = tempfile::tempdir().unwrap();
        let f = Folder::new(dir.path());
        assert_eq!(
            f.create("part-00000001.parquet", b"one", 1).unwrap(),
            Created::Ours
        );
        assert_eq!(
            f.create("part-00000001.parquet", b"two", 2).unwrap(),
            Created::Taken
        );
        assert_eq!(
            std::fs::read(dir.path().join("part-00000001.parquet")).unwrap(),
            b"one"
        );
        // The loser's record is gone, the winner's kept; nothing aside left.
        let listed = f.list().unwrap();
        assert_eq!(listed.len(), 1, "{listed:?}");
        assert_eq!(listed[0].sums, [1]);
    }
}
