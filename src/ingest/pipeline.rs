//! The ingest pipeline: walk the given paths, read every file in parallel
//! (decode -> segments -> readers), then label the rows and apply the
//! manifest and sidecars. Every input file ends up either in rows or in
//! `skipped`, with a one-line reason.

use std::path::{Path, PathBuf};

use anyhow::Context;
use rayon::prelude::*;

use super::compressed;
use super::decode::{self, DecodeError, Segment, SegmentKind};
use super::diskspd;
use super::fio_error;
use super::fio_json;
use super::fio_log::LogName;
use super::manifest::{self, MANIFEST_NAME, Manifest, SIDECAR_SUFFIX};
use super::normal::NormalReader;
use super::sniff;
use super::terse::TerseReader;
use super::{ConfigNaming, FoundLog, IngestOptions, Ingested, Parsed, ReadError, Reader};
use crate::model::{Skipped, Warning};
use crate::quick_hash::QuickHash;

/// Progress of a long ingest (the CLI shows a bar); all methods optional.
pub trait Progress: Sync {
    /// Called once with the number of files about to be read.
    fn start(&self, _files: usize) {}
    /// Called after each file.
    fn inc(&self) {}
    /// Called as the `bytes` of the file `source` start to be parsed: a
    /// bar may show a file large enough to take seconds (a script's
    /// captured output of a hundred thousand jobs) while the file count
    /// stands still.
    fn reading(&self, _source: &str, _bytes: usize) {}
    fn finish(&self) {}
}

impl Progress for () {}

/// Ingests every fio result under `paths` (files or folders, walked
/// recursively in sorted order). Fails only on a bad manifest; unreadable
/// results are listed in [`Ingested::skipped`].
pub fn ingest(paths: &[PathBuf], opts: &IngestOptions) -> anyhow::Result<Ingested> {
    ingest_with_progress(paths, opts, &())
}

/// Reads every input, a batch at a time, each batch's rows moved into
/// `rows` while the next batch is read: the files' own row vectors are
/// then freed and reused batch after batch, never all held beside the
/// whole (a row is about a kilobyte: 120 MB more at 100,000 files), and
/// no core waits while the rows of a batch are moved (the move and the
/// page faults of a growing `rows` were a tenth of the wall time when the
/// cores waited for them). Each file's result holds the range of its rows
/// in `rows`.
///
/// An archive's members are inputs of their own from here on: each
/// archive's place in `inputs` is taken by its members' (in the order
/// read), so `inputs` and the results stay one to one.
fn read_in_batches(
    inputs: &mut Vec<Input>,
    opts: &IngestOptions,
    manifest: &Manifest,
    progress: &dyn Progress,
    rows: &mut Vec<crate::model::Row>,
) -> Vec<FileResult<std::ops::Range<usize>>> {
    const BATCH: usize = 1024;
    let mut results: Vec<FileResult<std::ops::Range<usize>>> = Vec::with_capacity(inputs.len());
    let mut read: Vec<FileOutcome> = Vec::new();
    // Each archive's index in `inputs` and its members' inputs.
    let mut members: Vec<(usize, Vec<Input>)> = Vec::new();
    let options = std::sync::Arc::new(fio_json::OptionTexts::default());
    for (b, batch) in inputs.chunks(BATCH).enumerate() {
        let previous = std::mem::take(&mut read);
        let base = b.saturating_sub(1) * BATCH;
        let (next, ()) = rayon::join(
            || {
                batch
                    .par_iter()
                    .map(|input| {
                        let r = read_input(input, opts, manifest, progress, &options);
                        progress.inc();
                        r
                    })
                    .collect()
            },
            || {
                place(
                    previous,
                    base,
                    inputs.len(),
                    rows,
                    &mut results,
                    &mut members,
                )
            },
        );
        read = next;
    }
    let base = inputs.len().saturating_sub(1) / BATCH * BATCH;
    place(read, base, inputs.len(), rows, &mut results, &mut members);
    if !members.is_empty() {
        let mut by_index = members.into_iter().peekable();
        let mut expanded = Vec::with_capacity(results.len());
        for (i, input) in std::mem::take(inputs).into_iter().enumerate() {
            match by_index.next_if(|(at, _)| *at == i) {
                Some((_, of_archive)) => expanded.extend(of_archive),
                None => expanded.push(input),
            }
        }
        *inputs = expanded;
    }
    results
}

/// What reading one input gave: a file's result, or an archive's
/// members, each with its own input and result.
enum FileOutcome {
    One(FileResult),
    Members(Vec<(Input, FileResult)>),
}

/// Moves one batch's rows into `rows`, each file's result then holding
/// their range.
fn place(
    read: Vec<FileOutcome>,
    base: usize,
    inputs: usize,
    rows: &mut Vec<crate::model::Row>,
    results: &mut Vec<FileResult<std::ops::Range<usize>>>,
    members: &mut Vec<(usize, Vec<Input>)>,
) {
    if read.is_empty() {
        return;
    }
    // An archive's members in its place.
    let mut flat = Vec::with_capacity(read.len());
    for (i, o) in read.into_iter().enumerate() {
        match o {
            FileOutcome::One(r) => flat.push(r),
            FileOutcome::Members(m) => {
                let (ins, rs): (Vec<Input>, Vec<FileResult>) = m.into_iter().unzip();
                members.push((base + i, ins));
                flat.extend(rs);
            }
        }
    }
    let read = flat;
    if inputs > 1 {
        // Rows are large: reserved for the rest at the rows per file so
        // far, not grown by doubling copies.
        let got = rows.len()
            + read
                .iter()
                .map(|r| r.outcome.as_ref().map_or(0, Vec::len))
                .sum::<usize>();
        let done = results.len() + read.len();
        let expected = got + got * inputs.saturating_sub(done) / done;
        // Exactly, with an eighth to spare: `reserve` would double the
        // capacity (a row is over a kilobyte: 250 MB of room never used at
        // 100,000 files), and a growth by a few rows would copy them all.
        if expected > rows.capacity() {
            rows.reserve_exact((expected + expected / 8).saturating_sub(rows.len()));
        }
    }
    for r in read {
        let outcome = r.outcome.map(|file_rows| {
            let start = rows.len();
            // One file of all the rows (a report of many jobs) is moved.
            join_rows(rows, file_rows);
            start..rows.len()
        });
        results.push(FileResult {
            source: r.source,
            outcome,
            warnings: r.warnings,
            digest: r.digest,
        });
    }
}

/// [`ingest`] reporting progress per file.
pub fn ingest_with_progress(
    paths: &[PathBuf],
    opts: &IngestOptions,
    progress: &dyn Progress,
) -> anyhow::Result<Ingested> {
    let mut phases = Phases::from_env();
    let mut out = Ingested::default();
    let mut inputs = Vec::new();
    for root in paths {
        collect(root, &mut inputs, &mut out.skipped);
    }
    phases.done("walk");
    if paths.len() > 1 {
        // The same file reached through two PATHs is read once.
        let mut seen = std::collections::HashSet::new();
        inputs.retain(|i| seen.insert(i.path.canonicalize().unwrap_or_else(|_| i.path.clone())));
    }
    // fio's logs are series inputs (read by `series`), never results nor skips.
    let (logs, inputs): (Vec<Input>, Vec<Input>) = inputs.into_iter().partition(Input::is_log);
    out.logs = logs
        .into_iter()
        .map(|i| FoundLog {
            path: i.path,
            dir_label: i.dir_label,
        })
        .collect();
    out.manifest = load_manifests(paths, opts)?;

    progress.start(inputs.len());
    let mut inputs = inputs;
    let results = read_in_batches(&mut inputs, opts, &out.manifest, progress, &mut out.rows);
    progress.finish();
    phases.done("read");

    let copies = copies_of(&inputs, &results);
    take_results(results, &copies, &mut out);
    out.warnings.extend(copies_note(&inputs, &copies));
    phases.done("copies");
    // On the cores of the pool, whose allocators hold the memory the
    // reading freed: the main thread's would take fresh pages, each zeroed
    // by the kernel first. The instances pass and the config rule read
    // the rows side by side, then each sets its fields.
    let mut declared = opts.repeats.clone();
    declared.merge(&out.manifest.repeats);
    out.config_rule = rayon::scope(|_| {
        let rows = &out.rows;
        let (marks, plan) = rayon::join(
            || super::instances::find(rows, opts.instances),
            || super::configs::plan(rows, &opts.config_naming, &declared),
        );
        phases.done("instances and configs");
        marks.apply(&mut out.rows);
        let mut rule = plan.apply(&mut out.rows);
        phases.done("configs applied");
        let (study, warnings) = super::identity::study(&out.rows, &rule, out.files_read);
        rule.study = study;
        out.warnings.extend(warnings);
        phases.done("study");
        rule
    });
    apply_configs(&mut out.rows, &out.manifest);
    Ok(out)
}

/// Each file's warnings, skip or count into `out`, and the rows of files
/// that are copies of another (`copies`) left out.
fn take_results(
    results: Vec<FileResult<std::ops::Range<usize>>>,
    copies: &[Option<usize>],
    out: &mut Ingested,
) {
    // Rows of copies, left out below.
    let mut copied = Vec::new();
    for (r, copy) in results.into_iter().zip(copies) {
        if copy.is_some() {
            copied.extend(r.outcome.ok());
            continue;
        }
        out.warnings
            .extend(r.warnings.into_iter().map(|message| Warning {
                source: r.source.clone(),
                message,
            }));
        match r.outcome {
            // An archive's note of the logs it holds gives no rows and
            // counts as no file read.
            Ok(range) if range.is_empty() && r.digest.is_none() => {}
            Ok(_) => out.files_read += 1,
            Err(reason) => out.skipped.push(Skipped {
                source: r.source,
                reason: reason.to_string(),
            }),
        }
    }
    if !copied.is_empty() {
        let mut keep = vec![true; out.rows.len()];
        for range in copied {
            keep[range].fill(false);
        }
        let mut kept = keep.into_iter();
        out.rows.retain(|_| kept.next().unwrap_or(true));
    }
}

/// With `NVCMP_TIMINGS` set, each phase's wall time on stderr
/// (`nvcmp: timing: read 212.4 ms`): where a slow ingest spends its time,
/// on the user's machine, without a profiler.
pub struct Phases(Option<std::time::Instant>);

impl Phases {
    pub fn from_env() -> Phases {
        Phases(std::env::var_os("NVCMP_TIMINGS").map(|_| std::time::Instant::now()))
    }

    /// Prints `phase`'s time, since the last phase done (or since made),
    /// and where the system says (Linux) the memory resident after it and
    /// the peak so far: `nvcmp: timing: read 212.4 ms, 310 MB resident,
    /// 352 MB peak`.
    pub fn done(&mut self, phase: &str) {
        if let Some(since) = self.0 {
            let ms = since.elapsed().as_secs_f64() * 1e3;
            match resident_mb() {
                Some((now, peak)) => eprintln!(
                    "nvcmp: timing: {phase} {ms:.1} ms, {now} MB resident, {peak} MB peak"
                ),
                None => eprintln!("nvcmp: timing: {phase} {ms:.1} ms"),
            }
            self.0 = Some(std::time::Instant::now());
        }
    }
}

/// The process's resident memory and its peak so far, MB (`VmRSS` and
/// `VmHWM` of /proc/self/status); None where there is no such file.
fn resident_mb() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = |key: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(key))?;
        line[key.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()
    };
    Some((kb("VmRSS:")? / 1024, kb("VmHWM:")? / 1024))
}

/// The manifest's `[config."label"]` settings, once every row has its
/// config's label.
fn apply_configs(rows: &mut [crate::model::Row], manifest: &Manifest) {
    if manifest.configs.is_empty() {
        return;
    }
    for row in rows {
        let Some(c) = manifest.configs.get(&row.config) else {
            continue;
        };
        if let Some(os) = &c.os {
            row.os = crate::model::Os::parse(os);
        }
        if let Some(engine) = &c.engine {
            row.engine = engine.clone();
        }
        if let Some(p) = c.iops_precision {
            row.iops_precision = row.iops_precision.max(p);
        }
        row.system_cpu_pct = row.system_cpu_pct.or(c.system_cpu_pct);
        if let Some(name) = &c.name {
            row.config = name.clone();
        }
    }
}

/// A result file and where it was found.
#[derive(Debug, Clone)]
struct Input {
    path: PathBuf,
    /// Default label (`ConfigNaming::Dir`).
    dir_label: String,
    /// Whether a sidecar may sit next to it: the walk saw one, or the file
    /// was named on the command line (not looked for yet). Saves a failed
    /// open per file in a folder of thousands.
    sidecar: bool,
    /// Where the walk found it: what an archive's members are labelled by.
    place: InputPlace,
}

/// Where a file was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InputPlace {
    /// Named as a PATH; `stream`: not a regular file (a FIFO, a device),
    /// read up to `--max-expanded`.
    Named { stream: bool },
    /// Directly in a PATH folder (its label is the folder's name).
    InRoot,
    /// In a subfolder of a PATH folder (its label is the folder's path
    /// from the PATH).
    InSub,
    /// A member of an archive.
    Member,
}

impl InputPlace {
    fn stream(self) -> bool {
        matches!(self, InputPlace::Named { stream: true })
    }
}

impl Input {
    /// A fio log by its name (`job_bw.1.log`) whose text is not a JSON
    /// document: a result saved under a log's name is read as a result,
    /// never left out for its name.
    fn is_log(&self) -> bool {
        self.path
            .file_name()
            .is_some_and(|n| LogName::parse(&n.to_string_lossy()).is_some())
            && !starts_like_json(&self.path)
    }
}

/// Whether the file's first character that is not white space (after a
/// UTF-8 or UTF-16 byte order mark) is `{`: fio's logs are lines of
/// numbers (or fio's compressed `.fz` blocks), its JSON output starts
/// with `{`.
/// A compressed file's first expanded bytes are asked (a gzip'd result
/// named like a log is a result).
fn starts_like_json(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 256];
    let Ok(n) = std::fs::File::open(path).and_then(|mut f| f.read(&mut head)) else {
        return false;
    };
    if let Some(codec) = compressed::Codec::of(&head[..n]) {
        let mut expanded = [0u8; 256];
        let read = std::fs::File::open(path).and_then(|f| {
            let mut d = compressed::decoder(codec, std::io::BufReader::new(f))?;
            fill_from(&mut d, &mut expanded)
        });
        return read.is_ok_and(|n| head_is_json(&expanded[..n]));
    }
    head_is_json(&head[..n])
}

/// Whether `head`'s first character that is not white space (after a
/// byte order mark) is `{`.
fn head_is_json(head: &[u8]) -> bool {
    let head = &head[..head.len().min(256)];
    let text: String = match head {
        [0xFF, 0xFE, ..] | [0xFE, 0xFF, ..] => head[2..]
            .iter()
            .copied()
            .filter(|b| *b != 0)
            .map(char::from)
            .collect(),
        _ => String::from_utf8_lossy(head).into_owned(),
    };
    let text = text.trim_start_matches('\u{feff}').trim_start();
    text.starts_with('{')
}

/// What reading one file gave: its rows, or (once they are moved into the
/// whole) where they are there.
struct FileResult<R = Vec<crate::model::Row>> {
    source: String,
    outcome: Result<R, FileError>,
    warnings: Vec<String>,
    /// xxh3-128 of the file's bytes, when they were read.
    digest: Option<u128>,
}

/// For each input, the input of its folder whose bytes it repeats, if
/// any: the copy with the shortest name (`x.json` before `x copy.json`,
/// `x (1).json`), then the first in walk order, is the one kept. Copies
/// are one result counted once, never fio instances that ran together:
/// two fio processes do not write the same bytes (timestamps, latencies
/// differ). A 128-bit hash of the bytes stands for the bytes; only files
/// that gave rows count. Folders apart are configs of their own, so a
/// folder copied beside another stays.
fn copies_of<R>(inputs: &[Input], results: &[FileResult<R>]) -> Vec<Option<usize>> {
    // By content first (a path's hash walks its components), then by
    // folder within the few files of one content.
    let mut alike: std::collections::HashMap<u128, Vec<usize>, QuickHash> =
        std::collections::HashMap::with_capacity_and_hasher(results.len(), QuickHash::default());
    for (i, r) in results.iter().enumerate() {
        if let Some(digest) = r.digest.filter(|_| r.outcome.is_ok()) {
            alike.entry(digest).or_default().push(i);
        }
    }
    let mut out = vec![None; results.len()];
    let name_len = |i: usize| inputs[i].path.file_name().map_or(0, |n| n.len());
    for mut left in alike.into_values().filter(|m| m.len() > 1) {
        while let Some(&first) = left.first() {
            let folder = inputs[first].path.parent();
            let (members, rest): (Vec<usize>, Vec<usize>) = left
                .iter()
                .partition(|&&i| inputs[i].path.parent() == folder);
            left = rest;
            let kept = members.iter().copied().min_by_key(|&i| (name_len(i), i));
            for &i in members.iter().filter(|&&i| Some(i) != kept) {
                out[i] = kept;
            }
        }
    }
    out
}

/// One warning per result that has copies: `N byte-for-byte copies in its
/// folder, counted once: a, b, c (and K more)`.
fn copies_note(inputs: &[Input], copies: &[Option<usize>]) -> Vec<Warning> {
    const NAMED: usize = 3;
    let mut of: indexmap::IndexMap<usize, Vec<usize>> = indexmap::IndexMap::new();
    for (i, c) in copies.iter().enumerate() {
        if let Some(original) = c {
            of.entry(*original).or_default().push(i);
        }
    }
    of.into_iter()
        .map(|(original, dups)| {
            let named: Vec<String> = dups
                .iter()
                .take(NAMED)
                .map(|&i| crate::path_text::shown(&inputs[i].path))
                .collect();
            let more = match dups.len().saturating_sub(NAMED) {
                0 => String::new(),
                n => format!(" (and {n} more)"),
            };
            let copies = match dups.len() {
                1 => "a byte-for-byte copy".to_string(),
                n => format!("{n} byte-for-byte copies"),
            };
            Warning {
                source: crate::path_text::shown(&inputs[original].path),
                message: format!(
                    "{copies} in its folder, counted once (not fio instances): {}{more}",
                    named.join(", ")
                ),
            }
        })
        .collect()
}

fn collect(root: &Path, inputs: &mut Vec<Input>, skipped: &mut Vec<Skipped>) {
    let meta = match std::fs::metadata(root) {
        Ok(m) => m,
        Err(e) => {
            skipped.push(Skipped {
                source: crate::path_text::shown(root),
                reason: io_reason(&e),
            });
            return;
        }
    };
    if meta.is_dir() {
        // The folder's real path: a symlinked folder inside it that leads
        // back to it (or to a folder above) is a loop, not walked again.
        let real = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        walk(root, root, &[real], inputs, skipped);
    } else {
        // A file named on the command line is read whatever its name.
        let parent = root.parent().filter(|p| !p.as_os_str().is_empty());
        let label = parent
            .map(dir_name)
            .unwrap_or_else(|| dir_name(Path::new(".")));
        inputs.push(Input {
            path: root.to_path_buf(),
            dir_label: label,
            sidecar: true,
            place: InputPlace::Named {
                stream: !meta.is_file(),
            },
        });
    }
}

/// The label files directly in `dir` share: its path below `root`, or the
/// root's own name for files in the root.
fn folder_label(root: &Path, dir: &Path) -> String {
    match dir
        .strip_prefix(root)
        .ok()
        .filter(|p| !p.as_os_str().is_empty())
    {
        Some(rel) => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        None => dir_name(root),
    }
}

/// Walks `dir`; `reals`: the real paths (symlinks resolved) of the
/// folders from the PATH down to `dir`, the last `dir`'s own.
fn walk(
    root: &Path,
    dir: &Path,
    reals: &[PathBuf],
    inputs: &mut Vec<Input>,
    skipped: &mut Vec<Skipped>,
) {
    let real = reals.last().map_or(dir, PathBuf::as_path);
    let entries = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => {
            skipped.push(Skipped {
                source: crate::path_text::shown(dir),
                reason: io_reason(&e),
            });
            return;
        }
    };
    // Each name is fetched once: sorting by `DirEntry::file_name` would
    // allocate it at every comparison. The entry itself (a second copy of
    // the name) is dropped at once, its memory used again for the next.
    let mut entries: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| (e.file_name(), e.file_type()))
        .collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    // Files directly in this folder share one label.
    let dir_label = folder_label(root, dir);
    // The names the folder's sidecars stand beside, sorted (`a-b` sorts
    // before `a` once the suffix is gone): most folders have none, and a
    // file's own name is then never copied to look for one.
    let mut sidecar_of: Vec<&[u8]> = entries
        .iter()
        .filter_map(|(n, _)| n.as_encoded_bytes().strip_suffix(SIDECAR_SUFFIX.as_bytes()))
        .collect();
    sidecar_of.sort_unstable();
    let has_sidecar = |name: &std::ffi::OsStr| {
        !sidecar_of.is_empty() && sidecar_of.binary_search(&name.as_encoded_bytes()).is_ok()
    };
    let place = match dir == root {
        true => InputPlace::InRoot,
        false => InputPlace::InSub,
    };
    let mut found: Vec<Found> = Vec::with_capacity(entries.len());
    for (os_name, file_type) in &entries {
        let name = os_name.to_string_lossy();
        // Hidden: one leading dot. `..x` is a name like any other.
        if name.starts_with('.') && !name.starts_with("..") {
            continue;
        }
        let path = dir.join(os_name);
        let Ok(ft) = file_type else { continue };
        if ft.is_dir() {
            let real = real.join(os_name);
            found.push(Found::Folder(path, real));
        } else if ft.is_file() {
            if !is_ignored(&name) {
                found.push(Found::File(Input {
                    path,
                    dir_label: dir_label.clone(),
                    sidecar: has_sidecar(os_name),
                    place,
                }));
            }
        } else if let Some(folder) = odd_entry(&path, *ft, reals, &name, skipped) {
            found.push(folder);
        } else if ft.is_symlink() && path.is_file() && !is_ignored(&name) {
            found.push(Found::File(Input {
                path,
                dir_label: dir_label.clone(),
                sidecar: has_sidecar(os_name),
                place,
            }));
        }
    }
    join_walks(root, reals, found, inputs, skipped);
}

/// What a folder's walk finds, in walk order.
enum Found {
    File(Input),
    /// A subfolder, standing for its own inputs, and its real path.
    Folder(PathBuf, PathBuf),
}

/// An entry that is neither a folder nor a regular file: a symlinked
/// folder is followed (its real path the target's) unless it leads to a
/// folder the walk is in or above one (`reals`: a loop, skipped with the
/// reason); a FIFO,
/// socket or device node is skipped with what it is, as is a broken
/// symlink. `None` for a symlink to a regular file (read as a file) and
/// for what was skipped.
fn odd_entry(
    path: &Path,
    ft: std::fs::FileType,
    reals: &[PathBuf],
    name: &str,
    skipped: &mut Vec<Skipped>,
) -> Option<Found> {
    let mut skip = |reason: String| {
        skipped.push(Skipped {
            source: crate::path_text::shown(path),
            reason,
        })
    };
    if ft.is_symlink() {
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) => {
                skip(format!("a broken symlink ({})", io_reason(&e)));
                return None;
            }
        };
        if meta.is_file() {
            return None;
        }
        if meta.is_dir() {
            let target = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
            if reals.iter().any(|r| r.starts_with(&target)) {
                skip(format!(
                    "a symlink loop (leads back to {}): not followed",
                    crate::path_text::shown(&target)
                ));
                return None;
            }
            return Some(Found::Folder(path.to_path_buf(), target));
        }
        skip(format!(
            "a symlink to {}: not read (not a regular file)",
            special_kind(meta.file_type())
        ));
        return None;
    }
    if is_ignored(name) {
        return None;
    }
    skip(format!(
        "{}: not read (not a regular file)",
        special_kind(ft)
    ));
    None
}

/// What a file that is not a regular file is: `a FIFO`, `a socket`, ...
fn special_kind(ft: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO";
        }
        if ft.is_socket() {
            return "a socket";
        }
        if ft.is_block_device() {
            return "a block device";
        }
        if ft.is_char_device() {
            return "a character device";
        }
    }
    let _ = ft;
    "a special file"
}

/// Each input found in a folder, and each of its subfolders' inputs in
/// its place. Subfolders are walked on every core (an archive of a
/// folder per lab or day lists its folders' thousands of names in
/// parallel), and joined in walk order.
fn join_walks(
    root: &Path,
    reals: &[PathBuf],
    found: Vec<Found>,
    inputs: &mut Vec<Input>,
    skipped: &mut Vec<Skipped>,
) {
    let subfolders: Vec<(&PathBuf, &PathBuf)> = found
        .iter()
        .filter_map(|f| match f {
            Found::Folder(dir, real) => Some((dir, real)),
            Found::File(_) => None,
        })
        .collect();
    let mut walked = match subfolders.len() {
        0 => Vec::new(),
        1 => vec![walked_folder(root, subfolders[0].0, reals, subfolders[0].1)],
        _ => subfolders
            .par_iter()
            .map(|(d, real)| walked_folder(root, d, reals, real))
            .collect(),
    }
    .into_iter();
    for f in found {
        match f {
            Found::File(input) => inputs.push(input),
            Found::Folder(..) => {
                let (sub_inputs, sub_skipped) = walked.next().unwrap_or_default();
                inputs.extend(sub_inputs);
                skipped.extend(sub_skipped);
            }
        }
    }
}

/// The inputs and skips of one folder's walk.
fn walked_folder(
    root: &Path,
    dir: &Path,
    above: &[PathBuf],
    real: &Path,
) -> (Vec<Input>, Vec<Skipped>) {
    let (mut inputs, mut skipped) = (Vec::new(), Vec::new());
    let mut reals = above.to_vec();
    reals.push(real.to_path_buf());
    walk(root, dir, &reals, &mut inputs, &mut skipped);
    (inputs, skipped)
}

/// Files in a results folder that are never fio output: nvcmp's own
/// manifest, sidecars and outputs, and documents.
fn is_ignored(name: &str) -> bool {
    const EXT: [&str; 12] = [
        "png", "svg", "md", "html", "htm", "parquet", "csv", "toml", "fio", "sh", "py", "pdf",
    ];
    if name == MANIFEST_NAME || name.ends_with(SIDECAR_SUFFIX) {
        return true;
    }
    let ext = name.rsplit_once('.').map(|(_, e)| e);
    ext.is_some_and(|e| EXT.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// Name of a folder, resolving `.` and `..` through the file system.
fn dir_name(dir: &Path) -> String {
    let named = dir
        .file_name()
        .filter(|_| !matches!(dir.to_str(), Some("." | "..")) && !dir.ends_with(".."));
    match named {
        Some(n) => n.to_string_lossy().into_owned(),
        None => dir
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| ".".into()),
    }
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => format!("cannot read: {e}"),
    }
}

fn load_manifests(paths: &[PathBuf], opts: &IngestOptions) -> anyhow::Result<Manifest> {
    if let Some(path) = &opts.manifest {
        return Manifest::read(path).with_context(|| "--manifest".to_string());
    }
    let mut merged = Manifest::default();
    for root in paths.iter().filter(|p| p.is_dir()) {
        let path = root.join(MANIFEST_NAME);
        if path.is_file() {
            merged.merge(Manifest::read(&path)?);
        }
    }
    Ok(merged)
}

fn read_input(
    input: &Input,
    opts: &IngestOptions,
    manifest: &Manifest,
    progress: &dyn Progress,
    options: &std::sync::Arc<fio_json::OptionTexts>,
) -> FileOutcome {
    let source = crate::path_text::shown(&input.path);
    let mut warnings = Vec::new();
    let mut digest = None;
    let bound = input.place.stream().then(|| opts.max_expanded());
    let outcome = with_contents(&input.path, bound, |bytes| {
        parse(
            bytes,
            &source,
            opts,
            progress,
            options,
            &mut warnings,
            &mut digest,
        )
    });
    let outcome = match outcome {
        Err(FileError::Container(c)) => {
            let read = ReadingCtx {
                opts,
                manifest,
                progress,
                options,
            };
            return containers::read(input, c, &read);
        }
        outcome => outcome.and_then(|rows| Ok(finish_rows(rows, input, &source, opts, manifest)?)),
    };
    FileOutcome::One(FileResult {
        source,
        outcome,
        warnings,
        digest,
    })
}

/// What reading any file or member needs besides its bytes.
struct ReadingCtx<'a> {
    opts: &'a IngestOptions,
    manifest: &'a Manifest,
    progress: &'a dyn Progress,
    options: &'a std::sync::Arc<fio_json::OptionTexts>,
}

/// One file's (or member's) bytes read into rows, their digest kept.
fn parse(
    bytes: &[u8],
    source: &str,
    opts: &IngestOptions,
    progress: &dyn Progress,
    options: &std::sync::Arc<fio_json::OptionTexts>,
    warnings: &mut Vec<String>,
    digest: &mut Option<u128>,
) -> Result<Vec<crate::model::Row>, FileError> {
    progress.reading(source, bytes.len());
    *digest = Some(xxhash_rust::xxh3::xxh3_128(bytes));
    // Options texts are shared with every file read (`OptionTexts`).
    fio_json::sharing_options(options, || {
        fio_json::without_bins(opts.skip_bins, || read_bytes(bytes, warnings))
    })
}

/// Calls `f` with the file's bytes, read into a buffer each worker thread
/// keeps. A folder of thousands of small results then costs no allocation
/// and no fresh pages per file, and no size query either: `fs::read` asks
/// for the size and position (`statx`, `lseek`) before reading.
///
/// The buffer's whole length is initialized (zeroed once, when made) and
/// read into as it is: a file smaller than its first block costs two
/// reads, its bytes and the end. `read_to_end` would take three for most
/// of fio's results, as it reads 8 KiB at first when it cannot ask the
/// size. A file larger than the buffer is read on by `read_to_end`, which
/// sizes the rest from the file's length (one `statx` and `lseek`) and
/// reads into room it does not zero: growing by doubling (and zero-filling
/// each new half) was a third of the time of a 200 MB text file, in copies
/// and in the kernel zeroing fresh pages.
///
/// A compressed file or an archive is [`FileError::Container`] from its
/// first block (the caller reads it its own way). `bound`: the most bytes
/// read from a stream named as a PATH (a FIFO, a device), which has no
/// end a size could tell.
fn with_contents<T>(
    path: &Path,
    bound: Option<u64>,
    f: impl FnOnce(&[u8]) -> Result<T, FileError>,
) -> Result<T, FileError> {
    use std::io::Read;
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    /// A larger buffer is dropped after its file, not kept for the thread's life.
    const KEEP: usize = 16 << 20;
    BUF.with(|cell| {
        // Never reentered today; if it were, the inner call reads into its own.
        let mut own = Vec::new();
        let mut kept = cell.try_borrow_mut();
        let buf = kept.as_deref_mut().unwrap_or(&mut own);
        if buf.len() < sniff::HEAD {
            buf.resize(sniff::HEAD, 0);
        }
        let mut file = std::fs::File::open(path)?;
        // The first block alone: a large file that is not text, or holds
        // nothing of fio's there, is refused before the rest is read.
        let mut len = fill(&mut file, &mut buf[..sniff::HEAD])?;
        if let Some(c) = compressed::Packing::of(&buf[..len]) {
            return Err(FileError::Container(c));
        }
        if len == sniff::HEAD {
            if let Some(e) = sniff::refuse(&buf[..len]) {
                return Err(e.into());
            }
            if !sniff::fio_shaped(&buf[..len]) {
                return Err(FileError::NotFioHead);
            }
            len += fill(&mut file, &mut buf[len..])?;
            if len == buf.len() {
                match bound {
                    None => file.read_to_end(buf)?,
                    Some(max) => (&mut file).take(max + 1).read_to_end(buf)?,
                };
                len = buf.len();
                if let Some(max) = bound.filter(|&max| len as u64 > max) {
                    if buf.len() > KEEP {
                        *buf = Vec::new();
                    }
                    return Err(FileError::StreamCap(max));
                }
            }
        }
        let out = f(&buf[..len]);
        if buf.len() > KEEP {
            *buf = Vec::new();
        }
        out
    })
}

/// Reads into `to` until it is full or the file ends: the count read.
fn fill(file: &mut std::fs::File, to: &mut [u8]) -> std::io::Result<usize> {
    fill_from(file, to)
}

/// [`fill`] from any reader.
fn fill_from(file: &mut dyn std::io::Read, to: &mut [u8]) -> std::io::Result<usize> {
    let mut done = 0;
    while done < to.len() {
        match file.read(&mut to[done..]) {
            Ok(0) => break,
            Ok(n) => done += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

/// Readers of JSON documents. fio writes one format of JSON; the seam is
/// the same as the text readers'.
const JSON_READERS: [&dyn Reader; 1] = [&fio_json::JsonReader];

/// Readers of the text around (or instead of) JSON documents, in the
/// order they are tried. DiskSpd's output (text or XML) has no JSON
/// document, so the whole file reaches them as one text segment.
const TEXT_READERS: [&dyn Reader; 4] = [
    &NormalReader,
    &TerseReader,
    &diskspd::TextReader,
    &diskspd::XmlReader,
];

/// Why a whole file gave no rows: the one-line reason after its path in
/// `skipped`.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FileError {
    #[error("{}", io_reason(.0))]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// The first segment that could not be read, when none gave rows.
    #[error("{0}")]
    Segment(SegmentError),
    /// Rows were there, and each was dropped; the first reason.
    #[error("every row was dropped ({0})")]
    EveryRowDropped(String),
    #[error("{}", ReadError::NoRows)]
    NoRows,
    #[error(
        "not fio or DiskSpd output (no fio JSON document, normal or terse output, nor DiskSpd text or XML found)"
    )]
    NotFio,
    /// A large file with nothing of fio's in its first block: not read on.
    #[error("not fio or DiskSpd output (nothing either writes in its first {} KiB; not read further)", sniff::HEAD >> 10)]
    NotFioHead,
    /// fio's output of a run that failed: what the run was.
    #[error("{0}")]
    Run(ReadError),
    #[error(transparent)]
    Manifest(#[from] manifest::ManifestError),
    /// A compressed file or an archive, known from its first block: read
    /// by [`containers`], never shown as a reason.
    #[error("{}", match .0 {
        compressed::Packing::Compressed(c) => c.name(),
        compressed::Packing::Archive(a) => a.name(),
    })]
    Container(compressed::Packing),
    /// A stream named as a PATH, past the bound.
    #[error("a stream (not a regular file) longer than {} (--max-expanded): not read", compressed::size_text(*.0))]
    StreamCap(u64),
    /// A compressed file that could not be read to its end.
    #[error("{0}")]
    Compressed(String),
    /// An archive that could not be read (or not to its end).
    #[error("{0}")]
    Archive(String),
}

/// A segment a reader refused, and where it starts.
#[derive(Debug, thiserror::Error)]
#[error("{} at line {line}: {error}", what(*.kind))]
pub(crate) struct SegmentError {
    kind: SegmentKind,
    line: usize,
    error: ReadError,
}

fn what(kind: SegmentKind) -> &'static str {
    match kind {
        SegmentKind::Json => "JSON document",
        SegmentKind::Text => "text",
    }
}

impl SegmentError {
    fn new(seg: &Segment<'_>, error: ReadError) -> SegmentError {
        SegmentError {
            kind: seg.kind,
            line: seg.line,
            error,
        }
    }
}

/// What the segments of one file gave.
#[derive(Default)]
struct FileRead {
    parsed: Parsed,
    /// JSON documents read (snapshots of one run counted once).
    documents: usize,
    first_error: Option<SegmentError>,
}

/// Reads one file's bytes into rows (label and manifest not applied yet).
pub(crate) fn read_bytes(
    bytes: &[u8],
    warnings: &mut Vec<String>,
) -> Result<Vec<crate::model::Row>, FileError> {
    let text = decode::decode(bytes)?;
    // Documents are read as they are found: the JSON parser finds where
    // each one ends, which saves counting braces over the whole file.
    let mut leading: Vec<Option<Parsed>> = Vec::new();
    let segments = decode::segments_with(&text, |rest| {
        let reader = JSON_READERS.iter().find(|r| r.sniff(rest));
        let (parsed, len) = reader.and_then(|r| r.read_leading(rest)).unzip();
        leading.push(parsed);
        len
    });
    // Run by run (a script's output holds many); in each, text is read
    // only when no document gave rows: `json,normal` and `json,terse`
    // carry the same run twice.
    let file = runs::read(&segments, leading, warnings);
    let FileRead {
        parsed,
        documents,
        first_error,
    } = file;
    if parsed.rows.is_empty() {
        let reason = if let Some(e) = first_error {
            match e.error.is_about_the_run() {
                true => FileError::Run(e.error),
                false => FileError::Segment(e),
            }
        } else if let Some(w) = parsed.warnings.first() {
            FileError::EveryRowDropped(w.clone())
        } else if documents > 0 {
            FileError::NoRows
        } else if let Some(e) = fio_error::without_report(&text) {
            FileError::Run(e)
        } else {
            FileError::NotFio
        };
        warnings.extend(parsed.warnings.into_iter().skip(1));
        return Err(reason);
    }
    if let Some(e) = first_error {
        warnings.push(format!("{e}; not read"));
    }
    warnings.extend(parsed.warnings);
    Ok(parsed.rows)
}

/// The JSON documents, each parsed once (`leading`: those read while the
/// file was cut into segments, one entry per document); a document that
/// reports the same run as the one before it (a `--status-interval`
/// snapshot) replaces it. Documents after the first that cannot be read
/// cost a warning.
fn read_documents(
    segments: &[Segment<'_>],
    leading: Vec<Option<Parsed>>,
    warnings: &mut Vec<String>,
) -> FileRead {
    let mut docs: Vec<Parsed> = Vec::new();
    let mut first_error = None;
    let json = segments.iter().filter(|s| s.kind == SegmentKind::Json);
    for (seg, read) in json.zip(leading) {
        let Some(reader) = JSON_READERS.iter().find(|r| r.sniff(seg.text)) else {
            continue;
        };
        match read.map_or_else(|| reader.read_segment(seg.text), Ok) {
            Ok(doc) => match docs.last_mut() {
                Some(last) if doc.run.is_some() && last.run == doc.run => *last = doc,
                _ => docs.push(doc),
            },
            // A `{` line in fio's text that is not a document at all.
            Err(ReadError::NotFio(_)) if segments.len() > 1 => {}
            Err(e) => {
                let e = SegmentError::new(seg, e);
                if first_error.is_none() {
                    first_error = Some(e);
                } else {
                    warnings.push(format!("{e}; not read"));
                }
            }
        }
    }
    let documents = docs.len();
    // Most files are one document: its rows are taken, not copied.
    let mut docs = docs.into_iter();
    let mut parsed = docs.next().unwrap_or_default();
    for mut doc in docs {
        parsed.rows.append(&mut doc.rows);
        parsed.warnings.append(&mut doc.warnings);
    }
    FileRead {
        parsed,
        documents,
        first_error,
    }
}

/// The text segments, each by the first reader that recognises and reads
/// it; one with both normal text and terse lines is one run twice, read
/// once ([`runs::normal_and_terse`]).
fn read_text(segments: &[Segment<'_>], file: &mut FileRead) {
    for seg in segments.iter().filter(|s| s.kind == SegmentKind::Text) {
        if let Some(read) = runs::normal_and_terse(seg.text) {
            match read {
                Ok(p) => {
                    join_rows(&mut file.parsed.rows, p.rows);
                    file.parsed.warnings.extend(p.warnings);
                }
                Err(e) => {
                    file.first_error.get_or_insert(SegmentError::new(seg, e));
                }
            }
            continue;
        }
        let mut seg_error = None;
        for reader in TEXT_READERS.iter().filter(|r| r.sniff(seg.text)) {
            match reader.read(seg.text) {
                Ok(p) => {
                    join_rows(&mut file.parsed.rows, p.rows);
                    file.parsed.warnings.extend(p.warnings);
                    seg_error = None;
                    break;
                }
                Err(e) => {
                    seg_error.get_or_insert_with(|| SegmentError::new(seg, e));
                }
            }
        }
        if let Some(e) = seg_error {
            file.first_error.get_or_insert(e);
        }
    }
}

/// `rows` after `to`: moved, not copied, when `to` is empty and has no
/// room reserved for them (a text report's rows are hundreds of MB at
/// 100,000 jobs).
fn join_rows(to: &mut Vec<crate::model::Row>, mut rows: Vec<crate::model::Row>) {
    if to.is_empty() && to.capacity() < rows.len() {
        std::mem::swap(to, &mut rows);
    } else {
        to.append(&mut rows);
    }
}

/// A result's file name without its extension, nor a compressed file's
/// (`randread.json.gz` is `randread`, as `randread.json` is).
fn result_stem(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let name = [".gz", ".zst", ".zstd", ".xz", ".bz2"]
        .iter()
        .find_map(|end| name.strip_suffix(end))
        .unwrap_or(&name);
    Path::new(name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Source, label, manifest and sidecar settings.
fn finish_rows(
    mut rows: Vec<crate::model::Row>,
    input: &Input,
    source: &str,
    opts: &IngestOptions,
    manifest: &Manifest,
) -> Result<Vec<crate::model::Row>, manifest::ManifestError> {
    let sidecar_cpu = match input.sidecar {
        true => manifest::load_sidecar(&input.path)?.and_then(|s| s.system_cpu_pct),
        false => None,
    };
    let result_cpu = if manifest.results.is_empty() {
        None
    } else {
        input
            .path
            .canonicalize()
            .ok()
            .and_then(|p| manifest.result_cpu(&p))
    };
    let file_label = result_stem(&input.path);
    for row in &mut rows {
        row.source = source.to_string();
        // fio's readers keep fio's own column; the tool's is the same value.
        if row.tool_version.is_none() && !row.fio_version.is_empty() {
            row.tool_version = Some(row.fio_version.clone());
        }
        row.config = match opts.config_naming {
            ConfigNaming::Auto | ConfigNaming::Name | ConfigNaming::Dir | ConfigNaming::Keys(_) => {
                input.dir_label.clone()
            }
            ConfigNaming::Engine => row.engine.clone(),
            ConfigNaming::Host => match (&row.host, row.aggregate) {
                (Some(h), _) => h.clone(),
                (None, true) => row.job.clone(),
                (None, false) => input.dir_label.clone(),
            },
            ConfigNaming::File => file_label.clone(),
        };
        row.system_cpu_pct = sidecar_cpu.or(result_cpu).or(row.system_cpu_pct);
    }
    Ok(rows)
}

mod containers;
mod runs;
#[cfg(test)]
mod tests;
