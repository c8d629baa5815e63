//! Compressed files and archives in the pipeline: a compressed file is
//! expanded (bounded) and read as the file it holds, under its own name
//! on disk; an archive's members are read as the files of a folder, each
//! an input of its own.
//!
//! An archive stands where it is as a folder: named as a PATH, it is the
//! PATH folder (its one top folder, when every member sits in one, is
//! that folder: `tar czf x.tar.gz x` reads as `x/`, and so does
//! `tar czf x.tar.gz -C x .`); found in a walked folder, it is the folder
//! named by its name without the archive's extensions (`day1.tar.gz` is
//! `day1/`, and a top folder `day1/` inside it is that same folder).

use std::path::Path;

use super::super::archive::{self, member_parts};
use super::super::compressed::{self, ArchiveKind, Codec, Packing};
use super::super::fio_log::LogName;
use super::super::sniff;
use super::{
    FileError, FileOutcome, FileResult, Input, InputPlace, ReadingCtx, finish_rows, is_ignored,
    parse,
};

/// Reads the compressed file or archive `input`, `c` by its first bytes.
pub(super) fn read(input: &Input, c: Packing, r: &ReadingCtx<'_>) -> FileOutcome {
    match c {
        Packing::Compressed(codec) => compressed_file(input, codec, r),
        Packing::Archive(kind) => read_archive(input, kind, None, r),
    }
}

/// Why the expanded head stopped the read.
enum Stop {
    /// A tar inside the stream: read as an archive.
    Archive(ArchiveKind),
    Refused(FileError),
}

/// The stream's first expanded block, judged as a file's first block is.
fn judge_head(codec: Codec, head: &[u8]) -> Result<(), Stop> {
    match ArchiveKind::of(head) {
        Some(ArchiveKind::Tar) => return Err(Stop::Archive(ArchiveKind::Tar)),
        Some(ArchiveKind::Zip) => {
            return Err(Stop::Refused(FileError::Compressed(format!(
                "a zip archive inside a {} stream: not read (decompress it once, then give the .zip)",
                codec.name()
            ))));
        }
        None => {}
    }
    if let Some(inner) = Codec::of(head) {
        return Err(Stop::Refused(FileError::Compressed(format!(
            "a {} stream inside a {} stream: not read (decompress it once first)",
            inner.name(),
            codec.name()
        ))));
    }
    if head.len() == sniff::HEAD {
        if let Some(e) = sniff::refuse(head) {
            return Err(Stop::Refused(FileError::Compressed(format!(
                "{} stream holds {e}",
                codec.name()
            ))));
        }
        if !sniff::fio_shaped(head) {
            return Err(Stop::Refused(FileError::NotFioHead));
        }
    }
    Ok(())
}

fn compressed_file(input: &Input, codec: Codec, r: &ReadingCtx<'_>) -> FileOutcome {
    thread_local! {
        /// The expanded bytes, kept from file to file (zeroed once).
        static EXPANDED: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    /// A larger buffer is dropped after its file, not kept for the thread's life.
    const KEEP: usize = 16 << 20;
    let source = crate::path_text::shown(&input.path);
    let mut warnings = Vec::new();
    let mut digest = None;
    let outcome = EXPANDED.with(|cell| {
        let mut own = Vec::new();
        let mut kept = cell.try_borrow_mut();
        let buf = kept.as_deref_mut().unwrap_or(&mut own);
        let outcome = match expand_file(input, codec, r, buf) {
            Ok(Expanded::Archive(kind)) => Err(kind),
            Ok(Expanded::Bytes(0)) => Ok(Err(FileError::Compressed(format!(
                "{} stream of nothing (no bytes in it)",
                codec.name()
            )))),
            Ok(Expanded::Bytes(n)) => Ok(parse(
                &buf[..n],
                &source,
                r.opts,
                r.progress,
                r.options,
                &mut warnings,
                &mut digest,
            )
            .and_then(|rows| Ok(finish_rows(rows, input, &source, r.opts, r.manifest)?))),
            Err(e) => Ok(Err(e)),
        };
        if buf.len() > KEEP {
            *buf = Vec::new();
        }
        outcome
    });
    match outcome {
        Err(kind) => read_archive(input, kind, Some(codec), r),
        Ok(outcome) => FileOutcome::One(FileResult {
            source,
            outcome,
            warnings,
            digest,
        }),
    }
}

/// What a compressed file held.
enum Expanded {
    /// Its first `n` bytes of the buffer.
    Bytes(usize),
    /// A tar: read as an archive.
    Archive(ArchiveKind),
}

/// The compressed file `input` expanded into `buf`, bounded, its head
/// judged as a file's is.
fn expand_file(
    input: &Input,
    codec: Codec,
    r: &ReadingCtx<'_>,
    buf: &mut Vec<u8>,
) -> Result<Expanded, FileError> {
    let file = std::fs::File::open(&input.path).map_err(FileError::Io)?;
    let source = std::io::BufReader::with_capacity(64 << 10, file);
    let (counted, consumed) = compressed::Counting::new(source);
    let decoder = compressed::decoder(codec, counted)
        .map_err(|e| FileError::Compressed(archive::stream_error(codec, &e)))?;
    let mut guard = compressed::Guard::new(decoder, consumed, r.opts.max_expanded(), codec.ratio());
    let mut judge = |head: &[u8]| judge_head(codec, head);
    match compressed::read_all(&mut guard, buf, sniff::HEAD, &mut judge) {
        Ok(n) => Ok(Expanded::Bytes(n)),
        Err(compressed::ReadAllError::Head(Stop::Archive(kind))) => Ok(Expanded::Archive(kind)),
        Err(compressed::ReadAllError::Head(Stop::Refused(e))) => Err(e),
        Err(compressed::ReadAllError::Io(e)) => {
            Err(FileError::Compressed(archive::stream_error(codec, &e)))
        }
    }
}

/// One member read (or not), with its path's parts in the archive.
struct Member {
    parts: Vec<String>,
    result: FileResult,
}

/// Every member of the archive `input` as an input of its own; the
/// archive itself too when it could not be read to its end, or held no
/// file.
fn read_archive(
    input: &Input,
    kind: ArchiveKind,
    codec: Option<Codec>,
    r: &ReadingCtx<'_>,
) -> FileOutcome {
    let max = r.opts.max_expanded();
    let mut members: Vec<Member> = Vec::new();
    let mut refused: Vec<(String, String)> = Vec::new();
    // fio logs among the members: set aside, as a folder's are, and said once.
    let mut logs = 0usize;
    let stopped = archive::read(&input.path, kind, codec, max, &mut |name, content| {
        let parts = match member_parts(name) {
            Ok(p) => p,
            Err(reason) => {
                refused.push((name.to_string(), reason));
                return;
            }
        };
        let Some(file) = parts.last() else { return };
        // What a folder's walk leaves aside, left aside here too.
        let hidden = |p: &&str| p.starts_with('.') && !p.starts_with("..");
        if parts.iter().any(hidden) || parts.contains(&"__MACOSX") || is_ignored(file) {
            return;
        }
        let source = crate::path_text::shown(&input.path.join(parts.join("/")));
        let mut warnings = Vec::new();
        let mut digest = None;
        let outcome = match content
            .map_err(FileError::Archive)
            .and_then(|bytes| member_rows(bytes, file, &source, r, &mut warnings, &mut digest))
        {
            Ok(None) => {
                logs += 1;
                return;
            }
            Ok(Some(rows)) => Ok(rows),
            Err(e) => Err(e),
        };
        members.push(Member {
            parts: parts.iter().map(|p| p.to_string()).collect(),
            result: FileResult {
                source,
                outcome,
                warnings,
                digest,
            },
        });
    });
    let mut out = label_members(input, members, r);
    for (name, reason) in refused {
        out.push((
            input.clone(),
            FileResult {
                source: format!("{}:{name}", crate::path_text::shown(&input.path)),
                outcome: Err(FileError::Archive(reason)),
                warnings: Vec::new(),
                digest: None,
            },
        ));
    }
    let what = match codec {
        Some(c) => format!("{} archive ({})", kind.name(), c.name()),
        None => format!("{} archive", kind.name()),
    };
    let empty = out.is_empty();
    out.extend(archive_notes(input, &what, stopped, empty, logs));
    FileOutcome::Members(out)
}

/// What is said of the archive itself: why it was not read to its end or
/// gave nothing (a skip), and the fio logs it holds (not results, so
/// never a skip: one warning, on an entry of no rows that counts as no
/// file read).
fn archive_notes(
    input: &Input,
    what: &str,
    stopped: Result<(), archive::Stopped>,
    empty: bool,
    logs: usize,
) -> Vec<(Input, FileResult)> {
    let logs_text = crate::numbers::count(logs, "fio log");
    let whole = match stopped {
        Err(stop) => Some(format!("{what}: {stop}")),
        Ok(()) if empty && logs > 0 => Some(format!(
            "{what} of {logs_text} and no result files (logs are series, read from folders: unpack it for --series)"
        )),
        Ok(()) if empty => Some(format!("{what} with no result files in it")),
        Ok(()) => None,
    };
    let note = (logs > 0 && !empty).then(|| {
        format!(
            "{logs_text} inside the archive not read: logs are series, read from folders (unpack it for --series and timeseries charts)"
        )
    });
    let entry = |outcome, warnings| {
        (
            input.clone(),
            FileResult {
                source: crate::path_text::shown(&input.path),
                outcome,
                warnings,
                digest: None,
            },
        )
    };
    let mut out = Vec::new();
    if let Some(note) = note {
        out.push(entry(Ok(Vec::new()), vec![note]));
    }
    if let Some(reason) = whole {
        out.push(entry(Err(FileError::Archive(reason)), Vec::new()));
    }
    out
}

/// A member's bytes (expanded again when the member is itself compressed)
/// read into rows; `None`: a fio log (set aside); an archive inside the
/// archive is refused.
fn member_rows(
    bytes: &[u8],
    file: &str,
    source: &str,
    r: &ReadingCtx<'_>,
    warnings: &mut Vec<String>,
    digest: &mut Option<u128>,
) -> Result<Option<Vec<crate::model::Row>>, FileError> {
    let mut own = Vec::new();
    let bytes = match Codec::of(bytes) {
        Some(codec) => {
            archive::expand(codec, bytes, r.opts.max_expanded(), &mut own)
                .map_err(FileError::Compressed)?;
            &own[..]
        }
        None => bytes,
    };
    if let Some(kind) = ArchiveKind::of(bytes) {
        return Err(FileError::Archive(format!(
            "a {} archive inside the archive: not read (unpack the outer one)",
            kind.name()
        )));
    }
    if LogName::parse(file).is_some() && !super::head_is_json(bytes) {
        return Ok(None);
    }
    parse(
        bytes, source, r.opts, r.progress, r.options, warnings, digest,
    )
    .map(Some)
}

/// The members' inputs, labelled as the files of the folder the archive
/// stands for, with their rows finished.
fn label_members(
    input: &Input,
    members: Vec<Member>,
    r: &ReadingCtx<'_>,
) -> Vec<(Input, FileResult)> {
    let top = members
        .first()
        .and_then(|m| m.parts.first().filter(|_| m.parts.len() > 1))
        .filter(|t| {
            members
                .iter()
                .all(|m| m.parts.len() > 1 && &m.parts[0] == *t)
        })
        .cloned();
    let stem = archive_stem(&input.path);
    let (folder, strip) = match input.place {
        InputPlace::Named { .. } | InputPlace::Member => {
            (top.clone().unwrap_or(stem), top.is_some())
        }
        InputPlace::InRoot => {
            let strip = top.as_deref() == Some(stem.as_str());
            (stem, strip)
        }
        InputPlace::InSub => {
            let strip = top.as_deref() == Some(stem.as_str());
            (format!("{}/{stem}", input.dir_label), strip)
        }
    };
    let named = matches!(input.place, InputPlace::Named { .. } | InputPlace::Member);
    members
        .into_iter()
        .map(|m| {
            let dirs = &m.parts[usize::from(strip)..m.parts.len() - 1];
            let dir_label = match (dirs.is_empty(), named) {
                (true, _) => folder.clone(),
                (false, true) => dirs.join("/"),
                (false, false) => format!("{folder}/{}", dirs.join("/")),
            };
            let member = Input {
                path: input.path.join(m.parts.join("/")),
                dir_label,
                sidecar: false,
                place: InputPlace::Member,
            };
            let mut result = m.result;
            result.outcome = result.outcome.and_then(|rows| {
                Ok(finish_rows(
                    rows,
                    &member,
                    &result.source,
                    r.opts,
                    r.manifest,
                )?)
            });
            (member, result)
        })
        .collect()
}

/// An archive's name without its archive extensions: `x.tar.gz`, `x.tgz`,
/// `x.zip` are `x`.
fn archive_stem(path: &Path) -> String {
    const ENDS: [&str; 12] = [
        ".tar.gz",
        ".tgz",
        ".tar.zst",
        ".tzst",
        ".tar.zstd",
        ".tar.xz",
        ".txz",
        ".tar.bz2",
        ".tbz2",
        ".tbz",
        ".tar",
        ".zip",
    ];
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let lower = name.to_ascii_lowercase();
    for end in ENDS {
        if lower.ends_with(end) && lower.len() > end.len() {
            return name[..name.len() - end.len()].to_string();
        }
    }
    match name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_string(),
        _ => name,
    }
}
