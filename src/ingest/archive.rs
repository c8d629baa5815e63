//! Tar and zip archives read as folders, member by member, streaming:
//! a `.tar` from the file, a compressed tar through its decoder
//! ([`super::compressed`]), a `.zip` by its central directory. Nothing is
//! ever written: a member's name is only a name (a `../` or absolute one
//! is refused, never resolved), and each member's bytes are held only
//! while it is read.

use std::io::{BufRead, Read};
use std::path::Path;

use super::compressed::{self, ArchiveKind, Codec, Consumed, Guard, Refused};

/// A member's bytes, or why they were not read.
pub type Content<'a> = Result<&'a [u8], String>;

/// Why reading an archive stopped before its end (the members read
/// before stay read).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Stopped(pub String);

/// A member's path inside the archive, as its parts: `./a//b.json` is
/// `a`, `b.json`. `Err`: a name that would leave the archive if it were
/// unpacked (`..`, an absolute path, a drive), said as the reason.
pub fn member_parts(name: &str) -> Result<Vec<&str>, String> {
    if name.starts_with('/') || name.starts_with('\\') || name.as_bytes().get(1) == Some(&b':') {
        return Err(format!(
            "an absolute member name ({name}): not read (nvcmp reads archives in place and never unpacks)"
        ));
    }
    let parts: Vec<&str> = name
        .split(['/', '\\'])
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    if parts.contains(&"..") {
        return Err(format!(
            "a member name leaving the archive ({name}): not read (nvcmp reads archives in place and never unpacks)"
        ));
    }
    Ok(parts)
}

/// Reads every member of the archive at `path`: `each` gets each regular
/// member's name and bytes (or why not), in the archive's order.
/// `codec`: the tar is inside a compressed stream. `max`: the cap on one
/// member's bytes.
pub fn read(
    path: &Path,
    kind: ArchiveKind,
    codec: Option<Codec>,
    max: u64,
    each: &mut dyn FnMut(&str, Content<'_>),
) -> Result<(), Stopped> {
    let file = std::fs::File::open(path).map_err(|e| Stopped(format!("cannot read: {e}")))?;
    match (kind, codec) {
        (ArchiveKind::Tar, None) => read_tar(
            std::io::BufReader::with_capacity(256 << 10, file),
            None,
            max,
            each,
        ),
        (ArchiveKind::Tar, Some(codec)) => {
            let (counted, consumed) =
                compressed::Counting::new(std::io::BufReader::with_capacity(256 << 10, file));
            let decoder = compressed::decoder(codec, counted)
                .map_err(|e| Stopped(stream_error(codec, &e)))?;
            // Members are capped by their headers' sizes; the stream only
            // by the ratio.
            let guarded = Guard::new(decoder, consumed, u64::MAX, codec.ratio());
            read_tar(guarded, Some(codec), max, each)
        }
        (ArchiveKind::Zip, _) => read_zip(file, max, each),
    }
}

/// A decoder's error as a reason: refused, truncated or corrupt.
pub fn stream_error(codec: Codec, e: &std::io::Error) -> String {
    if let Some(r) = compressed::refused(e) {
        return format!("{} stream {r}", codec.name());
    }
    match e.kind() {
        std::io::ErrorKind::UnexpectedEof => {
            format!(
                "{} stream truncated (ends before its end mark)",
                codec.name()
            )
        }
        _ => format!("{} stream corrupt: {e}", codec.name()),
    }
}

fn tar_error(codec: Option<Codec>, e: &std::io::Error) -> String {
    match codec {
        Some(c) if compressed::refused(e).is_some() || e.kind() != std::io::ErrorKind::Other => {
            stream_error(c, e)
        }
        _ => format!("tar archive corrupt or truncated: {e}"),
    }
}

fn read_tar<R: Read>(
    stream: R,
    codec: Option<Codec>,
    max: u64,
    each: &mut dyn FnMut(&str, Content<'_>),
) -> Result<(), Stopped> {
    let mut archive = tar::Archive::new(stream);
    let entries = archive
        .entries()
        .map_err(|e| Stopped(tar_error(codec, &e)))?;
    let mut buf = Vec::new();
    let mut last = String::new();
    for entry in entries {
        let mut entry = entry.map_err(|e| Stopped(after(&last, tar_error(codec, &e))))?;
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let kind = entry.header().entry_type();
        if kind.is_dir() || kind.is_pax_global_extensions() {
            continue;
        }
        if !kind.is_file() {
            let what = if kind.is_symlink() {
                "a symlink"
            } else if kind.is_hard_link() {
                "a hard link"
            } else {
                "not a regular file"
            };
            each(
                &name,
                Err(format!("{what} inside the archive: not followed")),
            );
            continue;
        }
        if entry.size() > max {
            each(&name, Err(Refused::Cap(max).to_string()));
            last = name;
            continue;
        }
        buf.clear();
        buf.reserve(entry.size() as usize);
        match entry.read_to_end(&mut buf) {
            Ok(_) => each(&name, Ok(&buf)),
            Err(e) => {
                let reason = tar_error(codec, &e);
                each(&name, Err(reason.clone()));
                return Err(Stopped(after(&name, reason)));
            }
        }
        last = name;
    }
    Ok(())
}

/// `reason`, after the member `last` (when one was read).
fn after(last: &str, reason: String) -> String {
    match last {
        "" => reason,
        _ => format!("{reason} (after member {last}; the members before it are read)"),
    }
}

fn read_zip(
    file: std::fs::File,
    max: u64,
    each: &mut dyn FnMut(&str, Content<'_>),
) -> Result<(), Stopped> {
    let mut zip = zip::ZipArchive::new(std::io::BufReader::new(file))
        .map_err(|e| Stopped(format!("zip archive cannot be read: {e}")))?;
    let mut buf = Vec::new();
    for i in 0..zip.len() {
        let listed = zip
            .name_for_index(i)
            .and_then(Result::ok)
            .map_or_else(|| format!("#{}", i + 1), |n| n.into_owned());
        // A member's central directory entry (name, sizes, checksum,
        // offset) must agree with its local header: a zip whose directory
        // lies is read as far as its members agree, each other one a skip.
        let checked = zip::read::ZipReadOptions::new().enforce_header_consistency(true);
        let mut member = match zip.by_index_with_options(i, checked) {
            Ok(m) => m,
            Err(e) => {
                each(&listed, Err(zip_member_error(&e)));
                continue;
            }
        };
        let name = member.name().map(|n| n.into_owned()).unwrap_or_default();
        if member.is_dir() {
            continue;
        }
        if member.is_symlink() {
            each(
                &name,
                Err("a symlink inside the archive: not followed".into()),
            );
            continue;
        }
        // The central directory's sizes may lie: the cap and the ratio
        // are held on the bytes that come out, never on what it says.
        let consumed = Consumed::fixed(member.compressed_size());
        let ratio = match member.compression() {
            zip::CompressionMethod::Deflated => Codec::Gzip.ratio(),
            _ => compressed::LONG_RATIO,
        };
        let mut guard = Guard::new(&mut member, consumed, max, ratio);
        buf.clear();
        match guard.read_to_end(&mut buf) {
            Ok(_) => each(&name, Ok(&buf)),
            Err(e) => each(&name, Err(member_error(&e))),
        }
    }
    Ok(())
}

/// Why the zip crate would not open a member, said for people: a member
/// whose local header disagrees with the central directory, or is not
/// where the directory puts it, is what a lying or damaged directory
/// gives.
fn zip_member_error(e: &zip::result::ZipError) -> String {
    const DISAGREE: &str = "header inconsistency detected: ";
    let text = e.to_string();
    if let Some(at) = text.find(DISAGREE) {
        let what = &text[at + DISAGREE.len()..];
        let what = what.trim_end_matches(" (does not match central directory)");
        return format!(
            "zip member's central directory disagrees with its local header ({what}): not read"
        );
    }
    if text.contains("ZipLocalEntryBlock") || text.contains("Invalid local file header") {
        return "zip member's local header is not where the central directory puts it (a lying or damaged directory): not read".into();
    }
    format!("zip member cannot be read: {text}")
}

fn member_error(e: &std::io::Error) -> String {
    if let Some(r) = compressed::refused(e) {
        return r.to_string();
    }
    format!("zip member corrupt: {e}")
}

/// A stream read whole into `to` through its decoder and the guard:
/// `Err` is the reason it was not.
pub fn expand(
    codec: Codec,
    source: impl BufRead,
    max: u64,
    to: &mut Vec<u8>,
) -> Result<(), String> {
    let (counted, consumed) = compressed::Counting::new(source);
    let decoder = compressed::decoder(codec, counted).map_err(|e| stream_error(codec, &e))?;
    let mut guard = Guard::new(decoder, consumed, max, codec.ratio());
    let read = compressed::read_all::<()>(&mut guard, to, 0, &mut |_| Ok(()));
    match read {
        Ok(n) => {
            to.truncate(n);
            Ok(())
        }
        Err(compressed::ReadAllError::Io(e)) => Err(stream_error(codec, &e)),
        Err(compressed::ReadAllError::Head(())) => Ok(()),
    }
}
