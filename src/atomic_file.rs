//! How nvcmp writes a file it makes (results, reports, charts, datasets):
//! into a temporary in the same folder, created new (`O_EXCL`: never an
//! existing file, never through a symlink) under a random name nobody can
//! plant in advance, synced, then renamed over the file's name. A rename
//! replaces whatever had the name, a symlink included, and never writes
//! through it; a reader sees the old file or the whole new one; a failed
//! write leaves no temporary.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `bytes` as the file at `path`.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_with(path, |f| f.write_all(bytes))
}

/// Has `fill` write the file at `path` through a buffer: [`write_many`]
/// of one file.
pub fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut io::BufWriter<&File>) -> io::Result<()>,
) -> io::Result<()> {
    write_many(&[path], |ws| fill(&mut ws[0]))
}

/// [`write_with`] for several files filled side by side: `fill` gets a
/// buffer per path, in order. Each is synced, then each renamed, once all
/// are written: an error while filling or syncing renames none, and no
/// temporary is left (a rename that fails leaves the ones before it).
pub fn write_many(
    paths: &[&Path],
    fill: impl FnOnce(&mut [io::BufWriter<&File>]) -> io::Result<()>,
) -> io::Result<()> {
    let mut made: Vec<(PathBuf, File)> = Vec::with_capacity(paths.len());
    let res = (|| {
        for path in paths {
            made.push(temporary(path)?);
        }
        let mut ws: Vec<io::BufWriter<&File>> =
            made.iter().map(|(_, f)| io::BufWriter::new(f)).collect();
        fill(&mut ws)?;
        for w in &mut ws {
            w.flush()?;
        }
        drop(ws);
        for (_, file) in &made {
            file.sync_all()?;
        }
        for ((tmp, _), path) in made.iter().zip(paths) {
            std::fs::rename(tmp, path)?;
        }
        Ok(())
    })();
    if res.is_err() {
        for (tmp, _) in &made {
            let _ = std::fs::remove_file(tmp);
        }
    }
    res
}

/// For writers that take a path (a PNG encoder): `fill` writes the
/// temporary it is given, which is then renamed to `path`. The temporary
/// was created new by nvcmp under a random name, so the path `fill` opens
/// is nvcmp's own file.
pub fn write_via_path<E>(path: &Path, fill: impl FnOnce(&Path) -> Result<(), E>) -> Result<(), E>
where
    E: From<io::Error>,
{
    let (tmp, file) = temporary(path)?;
    drop(file);
    let res = fill(&tmp).and_then(|()| Ok(std::fs::rename(&tmp, path)?));
    if res.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    res
}

/// A new file beside `path`, `.tmp-RANDOM.NAME`: created exclusively, so
/// a name planted there (a symlink to a victim) fails the create instead
/// of being written through; another random name is tried then.
pub fn temporary(path: &Path) -> io::Result<(PathBuf, File)> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or("out".into(), |n| n.to_string_lossy());
    let mut last = None;
    for _ in 0..16 {
        // The name last, so its extension stays the file's (an encoder
        // that picks the format by it).
        let tmp = dir.join(format!(".tmp-{:016x}.{name}", random()));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

/// Makes the folder `dir` (and its parents) for nvcmp's files; a symlink
/// of that name is removed and replaced by a folder, not followed, so an
/// output folder's `charts` cannot point writes elsewhere.
pub fn own_dir(dir: &Path) -> io::Result<()> {
    if std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink()) {
        std::fs::remove_file(dir)?;
    }
    std::fs::create_dir_all(dir)
}

/// 64 bits nobody can guess: std's hasher is keyed with random numbers
/// from the OS, and each call hashes a new count and the time.
pub fn random() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(COUNT.fetch_add(1, Ordering::Relaxed));
    h.write_u32(std::process::id());
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    h.write_u128(now.as_nanos());
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_leaves_the_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.json");
        write(&p, b"old").unwrap();
        write(&p, b"{}").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"{}");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_replaced_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"precious").unwrap();
        let p = dir.path().join("report.html");
        std::os::unix::fs::symlink(&victim, &p).unwrap();
        write(&p, b"new").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        assert!(
            !std::fs::symlink_metadata(&p)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let charts = dir.path().join("charts");
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &charts).unwrap();
        own_dir(&charts).unwrap();
        assert!(std::fs::symlink_metadata(&charts).unwrap().is_dir());
    }

    #[test]
    fn temporaries_differ_and_a_failed_fill_leaves_none() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x");
        let (a, _) = temporary(&p).unwrap();
        let (b, _) = temporary(&p).unwrap();
        assert_ne!(a, b);
        std::fs::remove_file(&a).unwrap();
        std::fs::remove_file(&b).unwrap();
        let e = write_with(&p, |_| Err(io::Error::other("no"))).unwrap_err();
        assert_eq!(e.to_string(), "no");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// Files filled side by side each get their own bytes, over what had
    /// their names; a failed fill leaves the old files and no temporary.
    #[test]
    fn files_filled_side_by_side_are_renamed_together_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.parquet"));
        std::fs::write(&a, "old").unwrap();
        write_many(&[&a, &b], |ws| {
            for (i, w) in ws.iter_mut().enumerate() {
                write!(w, "file {i}")?;
            }
            write!(ws[0], " and more")
        })
        .unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "file 0 and more");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "file 1");
        let e = write_many(&[&a, &b], |ws| {
            ws[1].write_all(b"half")?;
            Err(io::Error::other("no"))
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "no");
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "file 0 and more");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "file 1");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }
}
