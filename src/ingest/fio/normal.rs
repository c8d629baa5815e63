//! fio's normal (human-readable) text output, fio 2.x and 3.x, standalone
//! and client/server.
//!
//! The layout follows fio's writers (axboe/fio): the job header line from
//! `init.c` (`name: (g=0): rw=..., bs=..., ioengine=..., iodepth=...`), and
//! per job `show_thread_status_normal` / `show_ddir_status` in `stat.c`.
//! Numbers there go through `lib/num2str.c`, which keeps a few significant
//! digits and a k/M/Ki/Mi prefix, so every value read here carries the step
//! it is known to (`IOPS=31.8k` is 31,800 known to 100). Where the text also
//! holds the exact counts (`issued rwts: total=` and the runtime in msec),
//! IOPS and bandwidth are recomputed from them exactly the way fio computes
//! them, and their precision becomes 1.
//!
//! One pass over the lines, no regex: each line is recognised by the fixed
//! words fio prints at its start.

use std::collections::HashMap;

use indexmap::IndexSet;
use rayon::prelude::*;

use super::fio_error;
use super::idle_prof::IdleProf;
use super::jobname::block_size_from_mean;
use super::{depth, steady};
use crate::ingest::{Parsed, ReadError, Reader};
use crate::model::figures::{self, DirectionFigures, Latency};
use crate::model::{Direction, Os, Row, os};

/// Reader of fio's `--output-format=normal` text.
pub struct NormalReader;

const FORMAT: &str = "normal";

impl Reader for NormalReader {
    fn name(&self) -> &'static str {
        FORMAT
    }

    /// A job's status line (`name: (groupid=0, jobs=1): err= 0: pid=...`):
    /// a report even when the job failed and printed no figures.
    fn sniff(&self, text: &str) -> bool {
        text.contains(": (groupid=") && text.contains("err=")
    }

    fn read_segment(&self, text: &str) -> Result<Parsed, ReadError> {
        let doc = parse(text)?;
        doc.into_rows()
    }
}

fn malformed(reason: impl Into<String>) -> ReadError {
    ReadError::Malformed {
        format: FORMAT,
        reason: reason.into(),
    }
}

/// A value printed by fio's `num2str`, with the step its digits imply.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Num {
    value: f64,
    precision: f64,
}

/// How to read an un-suffixed `K`/`M` prefix: fio 2.x printed byte sizes
/// as `KB`/`MB` meaning KiB/MiB (kb_base=1024); 3.x prints `KiB` for those
/// and `kB`/`MB` for powers of ten.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prefix {
    Si,
    LegacyBytes,
}

/// Parses the number at the start of `s` with an optional unit prefix.
/// Returns the value, its precision and the rest of the string (unit).
fn parse_num2str(s: &str, prefix: Prefix) -> Option<(Num, &str)> {
    let s = s.trim_start();
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let digits = &s[..end];
    if digits.is_empty() || digits.starts_with('.') {
        return None;
    }
    let base: f64 = digits.parse().ok()?;
    let decimals = digits.find('.').map(|i| digits.len() - i - 1).unwrap_or(0);
    let rest = &s[end..];
    let mut chars = rest.chars();
    let power = match chars.next() {
        Some('k' | 'K') => 1,
        Some('M') => 2,
        Some('G') => 3,
        Some('T') => 4,
        Some('P') => 5,
        Some('E') => 6,
        _ => 0,
    };
    let (thousand, rest) = if power == 0 {
        (1000.0, rest)
    } else if chars.next() == Some('i') {
        (1024.0, &rest[2..])
    } else {
        let t = match prefix {
            Prefix::LegacyBytes => 1024.0,
            Prefix::Si => 1000.0,
        };
        (t, &rest[1..])
    };
    let mult = f64::powi(thousand, power);
    let value = base * mult;
    let precision = mult / f64::powi(10.0, decimals as i32);
    (value.is_finite()).then_some((Num { value, precision }, rest))
}

/// Text after `key` up to the next `,` (or the end), trimmed.
/// Where `needle` starts in `hay`, as `str::find` says: memchr's searcher
/// instead of building the standard one anew on each of millions of lines
/// (a tenth of reading a 200 MB report). A UTF-8 needle found in UTF-8
/// text starts on a character boundary.
///
/// memchr's `memmem::find` builds a searcher (with its SIMD tables) at
/// every call, itself a twentieth of reading a report of 140,000 jobs:
/// lines are short, so the needle's first byte is found with `memchr`
/// and the rest compared there.
fn find_in(hay: &str, needle: &str) -> Option<usize> {
    let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = needle.split_first() else {
        return Some(0);
    };
    let mut from = 0;
    while let Some(i) = memchr::memchr(first, &hay[from..]) {
        let at = from + i;
        if hay[at + 1..].starts_with(rest) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let start = find_in(line, key)? + key.len();
    let rest = &line[start..];
    let end = rest.find(',').unwrap_or(rest.len());
    Some(rest[..end].trim())
}

fn field_f64(line: &str, key: &str) -> Option<f64> {
    let v = field(line, key)?.trim_end_matches('%');
    let x: f64 = v.trim().parse().ok()?;
    x.is_finite().then_some(x)
}

/// The integer right after `key` (`jobs=4): err=` gives 4).
fn field_u64(line: &str, key: &str) -> Option<u64> {
    let v = field(line, key)?;
    let end = v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len());
    v[..end].parse().ok()
}

/// Nanoseconds per unit for fio's `(nsec)`/`(usec)`/`(msec)` labels.
fn time_unit_ns(unit: &str) -> Option<f64> {
    match unit.trim() {
        "nsec" => Some(1.0),
        "usec" => Some(1e3),
        "msec" => Some(1e6),
        "sec" => Some(1e9),
        _ => None,
    }
}

/// The text between the first `(` and the following `)`.
fn paren(s: &str) -> Option<&str> {
    let a = s.find('(')?;
    let b = s[a..].find(')')? + a;
    Some(&s[a + 1..b])
}

/// One job header line from the preamble.
#[derive(Debug, Clone, Default)]
struct Header {
    host: Option<String>,
    name: String,
    group: u32,
    rw: String,
    /// Block size per direction (read, write, trim), bytes: the upper end
    /// of a range.
    bs: [Option<u64>; 3],
    /// A direction's block size range where its ends differ (`bsrange`,
    /// `bssplit`: `4k-64k`): the row's size is then the measured mean.
    spread: [Option<String>; 3],
    engine: String,
    iodepth: Option<u32>,
}

#[derive(Debug, Clone, Copy, Default)]
struct LatStats {
    min: f64,
    max: f64,
    mean: f64,
    stddev: f64,
    /// Step of the printed mean (`avg=%5.02f` in the unit), ns.
    precision: f64,
}

#[derive(Debug, Clone, Copy)]
struct Sampled {
    n: Option<u64>,
    mean: f64,
    stddev: f64,
}

#[derive(Debug, Clone)]
struct DirStats {
    dir: Direction,
    iops: Num,
    bw: Num,
    io: Num,
    runtime_ms: f64,
    slat: Option<LatStats>,
    clat: Option<LatStats>,
    lat: Option<LatStats>,
    /// clat percentiles: (percent, ns).
    clat_pct: Vec<(f64, f64)>,
    bw_samples: Option<Sampled>,
    iops_samples: Option<Sampled>,
}

#[derive(Debug, Clone, Default)]
struct Block {
    host: Option<String>,
    name: String,
    group: u32,
    /// `pid=`: with the name, host and group, which job this report is of.
    pid: Option<u64>,
    jobs: u32,
    error: i64,
    /// fio's text for the error (`file:ioengines.c:399, func=..., error=...`).
    verror: String,
    aggregate: bool,
    dirs: Vec<DirStats>,
    /// Inside a `mixed:` section (unified_rw_reporting=both), whose numbers
    /// would otherwise land on the direction before it.
    in_mixed: bool,
    saw_mixed: bool,
    usr: Option<f64>,
    sys: Option<f64>,
    /// `issued rwts: total=` counts per direction.
    issued: Option<[u64; 3]>,
    short: Option<[u64; 3]>,
    /// `IO depths    :` shares per bucket.
    depths: Option<depth::Distribution>,
    /// `steadystate  :` fio's verdict.
    steady: Option<steady::SteadyVerdict>,
}

/// Which percentile block the `|` lines belong to.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
enum PctBlock {
    #[default]
    None,
    /// clat percentiles, ns per printed unit.
    Clat(f64),
    /// slat/lat/prio percentiles: read past, not kept.
    Other,
}

#[derive(Debug, Default)]
struct Doc {
    version: String,
    /// OS from a client/server `hostname=..., os=Linux, ...` line.
    os: Option<Os>,
    headers: Vec<Header>,
    blocks: Vec<Block>,
    warnings: Vec<String>,
    /// `CPU idleness:` (`--idle-prof`), printed once after the groups.
    idle: IdleProf,
}

/// Splits the `<host> ` prefix fio's client puts before server text.
fn strip_host(line: &str) -> (Option<&str>, &str) {
    if let Some(rest) = line.strip_prefix('<')
        && let Some(end) = rest.find("> ")
    {
        return (Some(&rest[..end]), &rest[end + 2..]);
    }
    if line == "<" || !line.starts_with('<') {
        return (None, line);
    }
    // `<host>` alone at the end of the text.
    match line.strip_prefix('<').and_then(|r| r.strip_suffix('>')) {
        Some(h) if !h.contains(' ') => (Some(h), ""),
        _ => (None, line),
    }
}

/// A line that ends with `<host> ` (the client glues the prefix of the next
/// message onto its eta line).
fn trailing_host(line: &str) -> Option<&str> {
    let t = line.strip_suffix('>').or_else(|| line.strip_suffix("> "))?;
    let start = t.rfind('<')?;
    let h = &t[start + 1..];
    (!h.is_empty() && !h.contains(' ')).then_some(h)
}

/// Reports this large are cut into parts read on every core
/// ([`parts`]); smaller ones are read in one.
const PART: usize = 4 << 20;

fn parse(text: &str) -> Result<Doc, ReadError> {
    parse_in_parts(text, PART)
}

fn parse_in_parts(text: &str, part: usize) -> Result<Doc, ReadError> {
    let parts = parts(text, part);
    if parts.len() < 2 {
        return parse_part(text);
    }
    // The first error in the text's order, as one pass would meet it.
    let docs: Vec<Doc> = parts
        .par_iter()
        .map(|part| parse_part(part))
        .collect::<Result<_, _>>()?;
    Ok(join_parts(docs))
}

/// `text` cut before job status lines (`name: (groupid=...`) into parts
/// of about `part` bytes, each read as a report of its own, or one part
/// where that could read otherwise than one pass: a line's meaning
/// depends on the lines before it only through the job block it is in
/// (which a status line ends), a client's host names (`<host>`), the
/// `CPU idleness:` block and the client header (`hostname=`), and texts
/// with the latter three are read in one pass.
fn parts(text: &str, part: usize) -> Vec<&str> {
    let bytes = text.as_bytes();
    if text.len() < 2 * part
        || memchr::memchr(b'<', bytes).is_some()
        || memchr::memmem::find(bytes, b"CPU idleness:").is_some()
        || memchr::memmem::find(bytes, b"hostname=").is_some()
    {
        return vec![text];
    }
    let status = memchr::memmem::Finder::new(": (groupid=");
    let mut out = Vec::new();
    let mut start = 0;
    while text.len() - start > part {
        let Some(found) = status.find(&bytes[start + part..]) else {
            break;
        };
        let at = start + part + found;
        // The start of the status line.
        let cut = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |n| n + 1);
        if cut <= start {
            break;
        }
        out.push(&text[start..cut]);
        start = cut;
    }
    out.push(&text[start..]);
    out
}

/// The parts' documents as one pass would have read them: version from
/// the first part that printed one, headers, blocks and warnings in
/// order, and a job reported again (`--status-interval`) in a later part
/// replacing its earlier report where that stood ([`keep_block`]).
fn join_parts(docs: Vec<Doc>) -> Doc {
    let total = docs.iter().map(|d| d.blocks.len()).sum();
    let mut out = Doc::default();
    out.blocks.reserve(total);
    out.headers
        .reserve(docs.iter().map(|d| d.headers.len()).sum());
    let mut reported = HashMap::with_capacity(total);
    for d in docs {
        if out.version.is_empty() {
            out.version = d.version;
        }
        out.headers.extend(d.headers);
        out.warnings.extend(d.warnings);
        for b in d.blocks {
            keep_block(&mut out.blocks, &mut reported, b);
        }
    }
    out
}

fn parse_part(text: &str) -> Result<Doc, ReadError> {
    let mut p = Parser::default();
    // Job blocks and headers are a few hundred bytes each: counted first
    // (one fast scan) and reserved once, not grown by doubling copies
    // (hundreds of MB touched for 140,000 jobs).
    let count = |mark: &str| memchr::memmem::find_iter(text.as_bytes(), mark).count();
    p.doc.blocks.reserve(count(": (groupid="));
    p.doc.headers.reserve(count(": (g="));
    for raw in text.lines() {
        p.line(raw.trim_end_matches('\r'))?;
    }
    p.end_block();
    Ok(p.doc)
}

/// The text report read line by line: the document so far, the job block
/// being read, whether percentile lines follow, and a client's host name
/// waiting for the job block it introduces.
#[derive(Default)]
struct Parser {
    doc: Doc,
    block: Option<Block>,
    pct: PctBlock,
    pending_host: Option<String>,
    /// Inside the `CPU idleness:` block.
    in_idle: bool,
    /// Where each job report with a pid stands in `doc.blocks`: a later
    /// report of the same job is found without a scan of them all.
    reported: HashMap<BlockId, usize>,
}

/// What tells one job's report from another's: name, group, host, pid.
type BlockId = (String, u32, Option<String>, u64);

/// `b` after `blocks`, or in place of an earlier report of the same job
/// (`reported`: where each job with a pid stands).
fn keep_block(blocks: &mut Vec<Block>, reported: &mut HashMap<BlockId, usize>, b: Block) {
    let Some(pid) = b.pid else {
        blocks.push(b);
        return;
    };
    let id = (b.name.clone(), b.group, b.host.clone(), pid);
    match reported.get(&id) {
        Some(&at) => blocks[at] = b,
        None => {
            reported.insert(id, blocks.len());
            blocks.push(b);
        }
    }
}

impl Parser {
    /// Keeps the block just read. `--status-interval` prints every job's
    /// full report at each interval and then the final one: figures are
    /// cumulative, so a later report of the same job (name, group, host and
    /// pid) replaces the earlier one where it stood.
    fn end_block(&mut self) {
        let Some(b) = self.block.take() else { return };
        keep_block(&mut self.doc.blocks, &mut self.reported, b);
    }

    fn line(&mut self, raw: &str) -> Result<(), ReadError> {
        let (host, line) = strip_host(raw);
        if let Some(h) = host {
            self.pending_host = Some(h.to_string());
        }
        let t = line.trim();
        if t.starts_with('|') {
            return self.percentile_line(t);
        }
        self.pct = PctBlock::None;
        if let Some(i) = find_in(line, ": (groupid=") {
            self.end_block();
            self.block = Some(self.job_status(line[..i].trim(), &line[i..])?);
            return Ok(());
        }
        if let Some(i) = find_in(line, ": (g=")
            && find_in(line, "rw=").is_some()
        {
            let host = self.pending_host.take();
            self.doc
                .headers
                .push(parse_header(line[..i].trim(), &line[i..], host));
            return Ok(());
        }
        if t == "CPU idleness:" {
            self.end_block();
            self.in_idle = true;
            return Ok(());
        }
        if std::mem::take(&mut self.in_idle) && self.doc.idle.text_line(t) {
            self.in_idle = true;
            return Ok(());
        }
        if self.document_line(t) {
            return Ok(());
        }
        if let Some(h) = trailing_host(t) {
            self.pending_host = Some(h.to_string());
        }
        match self.block.as_mut() {
            Some(b) => {
                let (warning, pct) = block_line(b, t)?;
                self.doc.warnings.extend(warning);
                self.pct = pct.unwrap_or(self.pct);
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// `| 1.00th=[  221], ...` under a `clat percentiles` line.
    fn percentile_line(&mut self, t: &str) -> Result<(), ReadError> {
        if let (PctBlock::Clat(mult), Some(b)) = (self.pct, self.block.as_mut())
            && !b.in_mixed
            && let Some(d) = b.dirs.last_mut()
        {
            parse_percentile_line(t, mult, &mut d.clat_pct)
                .ok_or_else(|| malformed(format!("bad percentile line `{t}`")))?;
        }
        Ok(())
    }

    /// `name: (groupid=0, jobs=1): err= 0: pid=...`: a job block starts.
    fn job_status(&mut self, name: &str, rest: &str) -> Result<Block, ReadError> {
        let group = field_u64(rest, "groupid=").unwrap_or(0) as u32;
        let jobs = field_u64(rest, "jobs=")
            .and_then(|j| u32::try_from(j).ok())
            .unwrap_or(1);
        let error = field(rest, "err=")
            .and_then(|e| e.split_whitespace().next())
            .and_then(|e| e.trim_end_matches(':').parse::<i64>().ok())
            .ok_or_else(|| malformed(format!("job {name}: no `err=` in its status line")))?;
        let verror = rest
            .find("err=")
            .map(|i| &rest[i..])
            .and_then(|e| e.split_once(" ("))
            .and_then(|(_, v)| v.split_once("): pid="))
            .map(|(v, _)| v.to_string())
            .unwrap_or_default();
        let aggregate = name == "All clients";
        // ` pid=`: `groupid=` holds `pid=` too.
        let pid = field_u64(rest, " pid=");
        Ok(Block {
            pid,
            host: if aggregate {
                None
            } else {
                self.pending_host.take()
            },
            name: name.to_string(),
            group,
            jobs: jobs.max(1),
            error,
            verror,
            aggregate,
            // Most jobs do I/O in one direction: a first push would make
            // room for four (a kilobyte per job, touched for nothing).
            dirs: Vec::with_capacity(1),
            ..Block::default()
        })
    }

    /// Lines about the whole report: the client header with fio's version
    /// and OS, a bare `fio-3.33`, the group summaries that end a block.
    fn document_line(&mut self, t: &str) -> bool {
        if t.starts_with("hostname=") && t.contains(", os=") {
            if let Some(v) = field(t, "fio=") {
                self.doc.version = v.to_string();
            }
            self.doc.os = field(t, "os=").map(|o| Os::from(o.to_ascii_lowercase()));
            return true;
        }
        if self.doc.version.is_empty()
            && t.starts_with("fio-")
            && !t.contains(' ')
            && t[4..].starts_with(|c: char| c.is_ascii_digit())
        {
            self.doc.version = t.to_string();
            return true;
        }
        if t.starts_with("Run status group") || t.starts_with("Disk stats") {
            self.end_block();
            return true;
        }
        false
    }
}

/// One line inside a job block. Returns a warning to keep, and what the
/// lines after it are when it opens a percentile list.
fn block_line(b: &mut Block, t: &str) -> Result<(Option<String>, Option<PctBlock>), ReadError> {
    if t.starts_with("mixed:") {
        b.in_mixed = true;
        b.saw_mixed = true;
        let w = format!(
            "job {}: unified_rw_reporting `mixed` figures not read (the read/write rows are)",
            b.name
        );
        return Ok((Some(w), None));
    }
    if let Some(d) = parse_direction_line(t, &b.name)? {
        b.dirs.push(d);
        b.in_mixed = false;
        return Ok((None, None));
    }
    if b.in_mixed {
        return Ok((None, None));
    }
    if let Some((kind, l)) = parse_lat_line(t)? {
        if let Some(d) = b.dirs.last_mut() {
            match kind {
                "slat" => d.slat = Some(l),
                "clat" => d.clat = Some(l),
                _ => d.lat = Some(l),
            }
        }
        return Ok((None, None));
    }
    if find_in(t, "percentiles (").is_some() {
        let unit = t
            .rfind('(')
            .map(|i| &t[i + 1..])
            .and_then(|u| u.split(')').next())
            .and_then(time_unit_ns);
        let pct = match unit {
            Some(m) if t.starts_with("clat percentiles") => PctBlock::Clat(m),
            _ => PctBlock::Other,
        };
        return Ok((None, Some(pct)));
    }
    job_figures_line(b, t)?;
    Ok((None, None))
}

/// Samples, CPU, steady state, depths and issued counts of a job block.
fn job_figures_line(b: &mut Block, t: &str) -> Result<(), ReadError> {
    if t.starts_with("bw (") && t.contains("avg=") {
        if let Some(d) = b.dirs.last_mut() {
            d.bw_samples = Some(parse_bw_samples(t).ok_or_else(|| {
                malformed(format!("job {}: bad bandwidth samples line `{t}`", b.name))
            })?);
        }
    } else if t.starts_with("iops") && t.contains("avg=") {
        if let Some(d) = b.dirs.last_mut() {
            d.iops_samples = Some(Sampled {
                n: field_u64(t, "samples="),
                mean: field_f64(t, "avg=")
                    .ok_or_else(|| malformed(format!("job {}: bad iops samples line", b.name)))?,
                stddev: field_f64(t, "stdev=").unwrap_or(0.0),
            });
        }
    } else if t.starts_with("cpu") && t.contains("usr=") {
        b.usr = field_f64(t, "usr=");
        b.sys = field_f64(t, "sys=");
    } else if let Some(rest) = t.strip_prefix("steadystate") {
        b.steady = steady::from_text(rest);
    } else if let Some(rest) = t.strip_prefix("IO depths") {
        b.depths = rest
            .trim_start()
            .strip_prefix(':')
            .and_then(depth::parse_text);
    } else if t.starts_with("issued") && t.contains("total=") {
        b.issued = parse_counts(t, "total=");
        b.short = parse_counts(t, "short=");
    }
    Ok(())
}

/// `total=11589,4979,0,0` (3.x) or `total=r=77805/w=0/d=0` (2.x).
fn parse_counts(line: &str, key: &str) -> Option<[u64; 3]> {
    let start = line.find(key)? + key.len();
    let v = line[start..]
        .split_whitespace()
        .next()?
        .trim_end_matches(',');
    let parts: Vec<&str> = if v.contains('/') {
        v.split('/')
            .map(|p| p.split_once('=').map(|(_, n)| n).unwrap_or(p))
            .collect()
    } else {
        v.split(',').collect()
    };
    let mut out = [0u64; 3];
    for (slot, p) in out.iter_mut().zip(parts.iter()) {
        *slot = p.parse().ok()?;
    }
    Some(out)
}

/// `name: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) ..., ioengine=libaio, iodepth=32`
/// and fio 2.x `bs=4K-4K/4K-4K/4K-4K`.
fn parse_header(name: &str, rest: &str, host: Option<String>) -> Header {
    let group = rest
        .strip_prefix(": (g=")
        .and_then(|r| r.split(')').next())
        .and_then(|g| g.parse().ok())
        .unwrap_or(0);
    let mut bs = [None; 3];
    let mut spread: [Option<String>; 3] = Default::default();
    let mut read = |i: usize, v: &str, prefix: Prefix| {
        bs[i] = bs_range(v, prefix);
        let lo = v.split('-').next().and_then(|lo| bs_range(lo, prefix));
        if let (Some(lo), Some(hi)) = (lo, bs[i])
            && lo != hi
        {
            spread[i] = Some(format!(
                "{}-{}",
                crate::units::format_bs(lo),
                crate::units::format_bs(hi)
            ));
        }
    };
    if rest.contains("bs=(R)") {
        for (i, tag) in ["(R) ", "(W) ", "(T) "].iter().enumerate() {
            if let Some(v) = field(rest, tag) {
                read(i, v, Prefix::Si);
            }
        }
    } else if let Some(v) = field(rest, "bs=") {
        // fio 2.x: `4K-4K/4K-4K/4K-4K`, K meaning 1024.
        for (i, part) in v.split('/').take(3).enumerate() {
            read(i, part, Prefix::LegacyBytes);
        }
    }
    Header {
        host,
        name: name.to_string(),
        group,
        rw: field(rest, "rw=").unwrap_or_default().to_string(),
        bs,
        spread,
        engine: field(rest, "ioengine=").unwrap_or_default().to_string(),
        iodepth: field_u64(rest, "iodepth=").and_then(|d| u32::try_from(d).ok()),
    }
}

/// `4096B-4096B`, `64.0KiB-64.0KiB`, `131kB-131kB`, `4K-4K`: the block size
/// (the upper end of a range). A rounded print (`131kB` is 128 KiB with
/// kb_base=1000) is taken as the power of two it can stand for.
fn bs_range(s: &str, prefix: Prefix) -> Option<u64> {
    let hi = s.rsplit('-').next()?;
    let (n, _) = parse_num2str(hi, prefix)?;
    if !(n.value >= 1.0 && n.value < (1u64 << 62) as f64) {
        return None;
    }
    if n.precision > 1.0 {
        let pow2 = 2f64.powi(n.value.log2().round() as i32);
        if (pow2 - n.value).abs() <= n.precision / 2.0 {
            return Some(pow2 as u64);
        }
    }
    Some(n.value.round() as u64)
}

/// `read: IOPS=31.8k, BW=124MiB/s (130MB/s)(248MiB/2001msec)` (3.x) or
/// `read : io=311220KB, bw=155455KB/s, iops=38863, runt=  2002msec` (2.x).
/// `Ok(None)` when the line is not a direction line.
fn parse_direction_line(t: &str, job: &str) -> Result<Option<DirStats>, ReadError> {
    let Some((key, rest)) = t.split_once(':') else {
        return Ok(None);
    };
    let dir = match key.trim() {
        "read" => Direction::Read,
        "write" => Direction::Write,
        "trim" => Direction::Trim,
        _ => return Ok(None),
    };
    let rest = rest.trim_start();
    let bad = |what: &str| malformed(format!("job {job}: {dir} line without {what}: `{t}`"));
    let (iops, bw, io, runtime_ms);
    if let Some(v) = rest.strip_prefix("IOPS=") {
        iops = parse_num2str(v, Prefix::Si)
            .ok_or_else(|| bad("a number after IOPS="))?
            .0;
        let b = field(rest, "BW=").ok_or_else(|| bad("BW="))?;
        let (n, unit) = parse_num2str(b, Prefix::Si).ok_or_else(|| bad("a number after BW="))?;
        bw = bits_to_bytes(n, unit);
        // `(alt bw)(io/runtime msec)`: the second parenthesis.
        let after_bw = &rest[rest.find("BW=").unwrap_or(0)..];
        let second = after_bw
            .find(")(")
            .map(|i| &after_bw[i + 1..])
            .and_then(paren)
            .ok_or_else(|| bad("(io/runtime)"))?;
        let (io_s, rt_s) = second.split_once('/').ok_or_else(|| bad("(io/runtime)"))?;
        io = parse_num2str(io_s, Prefix::Si)
            .ok_or_else(|| bad("io size"))?
            .0;
        runtime_ms = rt_s
            .trim()
            .strip_suffix("msec")
            .and_then(|r| r.trim().parse::<f64>().ok())
            .ok_or_else(|| bad("runtime in msec"))?;
    } else if rest.starts_with("io=") {
        let v = field(rest, "io=").ok_or_else(|| bad("io="))?;
        io = parse_num2str(v, Prefix::LegacyBytes)
            .ok_or_else(|| bad("io size"))?
            .0;
        let v = field(rest, "bw=").ok_or_else(|| bad("bw="))?;
        let (n, unit) = parse_num2str(v, Prefix::LegacyBytes).ok_or_else(|| bad("bw"))?;
        bw = bits_to_bytes(n, unit);
        let v = field(rest, "iops=").ok_or_else(|| bad("iops="))?;
        iops = parse_num2str(v, Prefix::Si).ok_or_else(|| bad("iops"))?.0;
        runtime_ms = field(rest, "runt=")
            .and_then(|r| r.strip_suffix("msec"))
            .and_then(|r| r.trim().parse::<f64>().ok())
            .ok_or_else(|| bad("runt= in msec"))?;
    } else {
        return Ok(None);
    }
    Ok(Some(DirStats {
        dir,
        iops,
        bw,
        io,
        runtime_ms,
        slat: None,
        clat: None,
        lat: None,
        clat_pct: Vec::new(),
        bw_samples: None,
        iops_samples: None,
    }))
}

/// fio prints bandwidth in bits with `unit_base=1` (`bit/s`).
fn bits_to_bytes(n: Num, unit: &str) -> Num {
    if unit.starts_with("bit") {
        Num {
            value: n.value / 8.0,
            precision: n.precision / 8.0,
        }
    } else {
        n
    }
}

/// `slat (usec): min=3, max=3385, avg=22.74, stdev=58.88` (also `clat`,
/// `lat`). Per-priority lines (`clat prio 0/0 (usec)`) are not kept.
fn parse_lat_line(t: &str) -> Result<Option<(&'static str, LatStats)>, ReadError> {
    let kind = if t.starts_with("slat (") {
        "slat"
    } else if t.starts_with("clat (") {
        "clat"
    } else if t.starts_with("lat (") && t.contains("min=") {
        "lat"
    } else {
        return Ok(None);
    };
    let bad = || malformed(format!("bad {kind} line `{t}`"));
    let mult = paren(t).and_then(time_unit_ns).ok_or_else(bad)?;
    let num = |key: &str| {
        field(t, key)
            .and_then(|v| parse_num2str(v, Prefix::Si))
            .map(|(n, _)| n.value * mult)
    };
    Ok(Some((
        kind,
        LatStats {
            min: num("min=").ok_or_else(bad)?,
            max: num("max=").ok_or_else(bad)?,
            mean: field_f64(t, "avg=").ok_or_else(bad)? * mult,
            stddev: field_f64(t, "stdev=").ok_or_else(bad)? * mult,
            precision: 0.01 * mult,
        },
    )))
}

/// `|  1.00th=[  215],  5.00th=[  237], ...`: appends (percent, ns).
fn parse_percentile_line(t: &str, mult: f64, out: &mut Vec<(f64, f64)>) -> Option<()> {
    for entry in t.trim_start_matches('|').split(',') {
        let entry = entry.trim();
        if entry.is_empty() {
            continue;
        }
        let (p, v) = entry.split_once("th=[")?;
        let p: f64 = p.trim().parse().ok()?;
        // `%llu` in fio, but read a k/M suffix too rather than fail on it.
        let (v, _) = parse_num2str(v.trim_end_matches(']'), Prefix::Si)?;
        if !p.is_finite() {
            return None;
        }
        out.push((p, v.value * mult));
    }
    Some(())
}

/// `bw (  KiB/s): min=98000, max=110267, per=100.00%, avg=103289.00, stdev=6305.50, samples=3`
/// and fio 2.x `bw (KB  /s): ...` without `samples=`.
fn parse_bw_samples(t: &str) -> Option<Sampled> {
    let unit = paren(t)?.trim().trim_end_matches("/s").trim();
    let mult = match unit {
        "KiB" | "KB" => 1024.0,
        "kB" => 1000.0,
        "MiB" | "MB" => 1024.0 * 1024.0,
        "Kibit" => 1024.0 / 8.0,
        "kbit" => 1000.0 / 8.0,
        "Mibit" | "Mbit" => 1024.0 * 1024.0 / 8.0,
        "Kbit" => 1024.0 / 8.0,
        _ => return None,
    };
    Some(Sampled {
        n: field_u64(t, "samples="),
        mean: field_f64(t, "avg=")? * mult,
        stddev: field_f64(t, "stdev=").unwrap_or(0.0) * mult,
    })
}

/// The percentile `p` from a list of (percent, ns).
impl LatStats {
    fn latency(self) -> Latency {
        Latency {
            mean: Some(self.mean),
            stddev: Some(self.stddev),
            min: Some(self.min),
            max: Some(self.max),
        }
    }
}

impl Sampled {
    fn figures(self) -> figures::Samples {
        figures::Samples {
            n: self.n,
            mean: Some(self.mean),
            stddev: Some(self.stddev),
        }
    }
}

impl DirStats {
    /// The direction's figures, each at its most exact: fio computes
    /// iops = 1000 * total_ios / runtime and bw = 1000 * io_bytes / runtime
    /// (stat.c, `show_ddir_status`) and then rounds them for print
    /// (`num2str`), so where the job's I/O count is printed (`issued`,
    /// none `short`), IOPS and bandwidth are computed from it as fio did.
    /// A printed figure further from that, or from what the printed byte
    /// count gives, than both their steps allow is fio's rounding gone
    /// wrong (`num2str` drops the carry: 23,992 prints as `23.0k`):
    /// corrected, and said in `notes`.
    fn figures(
        &self,
        issued: Option<u64>,
        short: u64,
        bs_bytes: u64,
        job: &str,
        notes: &mut Vec<String>,
    ) -> DirectionFigures {
        let mut f = DirectionFigures {
            runtime_ms: self.runtime_ms,
            iops: self.iops.value,
            iops_precision: self.iops.precision,
            bw_bytes_per_s: self.bw.value,
            bw_precision: self.bw.precision,
            io_bytes: self.io.value.round() as u64,
            lat_precision_ns: self.lat.or(self.clat).map_or(1.0, |l| l.precision),
            slat: Latency {
                mean: self.slat.map(|s| s.mean),
                ..Latency::default()
            },
            clat: self.clat.map(LatStats::latency).unwrap_or_default(),
            lat: self.lat.map(LatStats::latency).unwrap_or_default(),
            clat_percentiles: self.clat_pct.clone(),
            iops_samples: self.iops_samples.map(Sampled::figures).unwrap_or_default(),
            bw_samples: self.bw_samples.map(Sampled::figures).unwrap_or_default(),
            ..DirectionFigures::default()
        };
        // As fio divides: 1000 * count / runtime.
        let rate = |count: f64| count * 1000.0 / self.runtime_ms;
        // The bytes moved, and the step they are known to: the count times
        // the block size where both agree with the printed size, else the
        // printed size.
        let mut bytes = Num {
            value: self.io.value,
            precision: self.io.precision,
        };
        if let Some(n) = issued
            && bs_bytes > 0
            && short == 0
        {
            let counted = n.saturating_mul(bs_bytes);
            if (counted as f64 - self.io.value).abs() <= self.io.precision.max(1.0) {
                f.io_bytes = counted;
                bytes = Num {
                    value: counted as f64,
                    precision: 0.0,
                };
            }
        }
        let iops = match issued {
            Some(n) => Some(Num {
                value: rate(n as f64),
                precision: 0.0,
            }),
            None if bs_bytes > 0 => Some(Num {
                value: rate(bytes.value / bs_bytes as f64),
                precision: rate(bytes.precision / bs_bytes as f64),
            }),
            None => None,
        };
        if let Some(exact) = iops {
            (f.iops, f.iops_precision) = more_exact(
                self.iops,
                exact,
                || format!("job {job}: {} IOPS", self.dir),
                notes,
            );
        }
        let bw = Num {
            value: rate(bytes.value),
            precision: rate(bytes.precision),
        };
        (f.bw_bytes_per_s, f.bw_precision) = more_exact(
            self.bw,
            bw,
            || format!("job {job}: {} bandwidth", self.dir),
            notes,
        );
        f
    }
}

/// A printed figure, or the one computed from fio's counts (value and
/// step; step 0 when computed from the I/O count, exact). The exact one
/// replaces the print (its step becomes 1, fio's own being an integer).
/// One computed from a printed size replaces the print only where the two
/// disagree by more than both steps allow, with a note: otherwise the
/// printed figure stands, as its size may have been typed to more digits
/// than were measured.
fn more_exact(
    printed: Num,
    computed: Num,
    what: impl FnOnce() -> String,
    notes: &mut Vec<String>,
) -> (f64, f64) {
    if !computed.value.is_finite() || computed.precision >= printed.precision {
        return (printed.value, printed.precision);
    }
    let off = (computed.value - printed.value).abs();
    let wrong = off > printed.precision + computed.precision + 1.0;
    if wrong {
        notes.push(format!(
            "{} printed as {} is off by more than its rounding ({}) from what its I/O count and runtime give, {}: fio's rounding dropped a carry; corrected to {}",
            what(),
            plain(printed.value),
            plain(printed.precision),
            plain(computed.value),
            plain(computed.value),
        ));
    }
    if wrong || computed.precision == 0.0 {
        return (computed.value, computed.precision.max(1.0));
    }
    (printed.value, printed.precision)
}

/// A figure in a note: whole when it is, else to two decimals.
fn plain(v: f64) -> String {
    if v.fract() == 0.0 || v.abs() >= 1e6 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// The headers and job reports looked up by name, group and host, built
/// once per report: a report of 139k jobs is read in one pass, not with a
/// scan of every header per job.
#[derive(Default)]
struct Index<'d> {
    /// Headers of each name, in the order printed.
    headers: HashMap<&'d str, Vec<&'d Header>>,
    /// The first header of each group.
    group_first: HashMap<u32, &'d Header>,
    /// Distinct header names of each group, every host's, first seen first.
    group_names: HashMap<u32, IndexSet<&'d str>>,
    /// The same for one host of client/server output.
    host_names: HashMap<u32, HashMap<&'d str, IndexSet<&'d str>>>,
    /// Reports of each (name, group) without a host: clones of one job.
    clones: HashMap<(&'d str, u32), u32>,
}

impl<'d> Index<'d> {
    fn new(doc: &'d Doc) -> Index<'d> {
        let mut ix = Index::default();
        for h in &doc.headers {
            ix.headers.entry(&h.name).or_default().push(h);
            ix.group_first.entry(h.group).or_insert(h);
            ix.group_names.entry(h.group).or_default().insert(&h.name);
            if let Some(host) = h.host.as_deref() {
                ix.host_names
                    .entry(h.group)
                    .or_default()
                    .entry(host)
                    .or_default()
                    .insert(&h.name);
            }
        }
        for b in doc.blocks.iter().filter(|b| b.host.is_none()) {
            *ix.clones.entry((&b.name, b.group)).or_default() += 1;
        }
        ix
    }

    fn header(&self, name: &str, group: u32, host: Option<&str>) -> Option<&'d Header> {
        let named = self.headers.get(name)?;
        let same = |h: &&&Header| h.group == group;
        named
            .iter()
            .filter(same)
            .find(|h| host.is_none() || h.host.as_deref() == host)
            .or_else(|| named.iter().find(same))
            .or_else(|| named.first())
            .copied()
    }

    /// The distinct header names of a group (of one host in client/server).
    fn names(&self, group: u32, host: Option<&str>) -> Option<&IndexSet<&'d str>> {
        match host {
            None => self.group_names.get(&group),
            Some(h) => self.host_names.get(&group)?.get(h),
        }
    }

    /// fio's `numjobs` for a block: `jobs=N` folded by group_reporting
    /// (divided among the different jobs folded in), or the number of
    /// blocks with the same name when each clone is reported alone.
    fn numjobs(&self, b: &Block) -> u32 {
        if b.jobs > 1 {
            let names = self
                .names(b.group, b.host.as_deref())
                .map_or(0, IndexSet::len);
            let names = names.max(1) as u32;
            if b.jobs.is_multiple_of(names) {
                return b.jobs / names;
            }
            return b.jobs;
        }
        // Client/server text names servers by hostname only, and two servers
        // on one machine share it: blocks cannot be told apart as clones.
        if b.host.is_some() {
            return 1;
        }
        self.clones
            .get(&(b.name.as_str(), b.group))
            .copied()
            .unwrap_or(1)
            .max(1)
    }
}

/// What one job block gave ([`Doc::block_rows`]).
enum BlockRows {
    /// The job failed and did no I/O: the warning said after all rows, and
    /// its rows (no figures), kept after every other.
    Failed(String, Vec<Row>),
    /// Its rows, and the warnings they cost.
    Rows(Vec<Row>, Vec<String>),
    /// The block cannot be read, nor then the whole report.
    Bad(ReadError),
}

impl Doc {
    /// Rows the blocks make, one per direction: reserved at once, a row
    /// being about a kilobyte (doubling copied hundreds of MB for 140,000
    /// jobs).
    fn row_count(&self) -> usize {
        self.blocks.iter().map(|b| b.dirs.len()).sum()
    }

    fn into_rows(mut self) -> Result<Parsed, ReadError> {
        if self.blocks.is_empty() {
            return Err(ReadError::NoRows);
        }
        let mut warnings = std::mem::take(&mut self.warnings);
        let ix = Index::new(&self);
        let mut rows = Vec::with_capacity(self.row_count());
        let mut failed = Vec::new();
        let mut failed_rows = Vec::new();
        // Blocks are made rows on every core and taken in order: rows,
        // warnings and the first error are those of one pass.
        let make = |b: &Block| self.block_rows(b, &ix);
        super::in_order_on_cores(&self.blocks, make, |out| {
            match out {
                BlockRows::Failed(message, r) => {
                    failed.push(message);
                    failed_rows.extend(r);
                }
                BlockRows::Rows(r, notes) => {
                    warnings.extend(notes);
                    rows.extend(r);
                }
                BlockRows::Bad(e) => return Err(e),
            }
            Ok(())
        })?;
        if rows.is_empty() {
            return Err(ReadError::EveryJobFailed(self.failures()));
        }
        rows.extend(failed_rows);
        warnings.extend(failed);
        Ok(Parsed {
            rows,
            warnings,
            run: None,
        })
    }

    /// One block's rows and the warnings they cost, in the order one
    /// pass over the blocks says them.
    fn block_rows(&self, b: &Block, ix: &Index<'_>) -> BlockRows {
        let mut warnings = Vec::new();
        if b.dirs.is_empty() && b.error != 0 {
            let message = format!(
                "job {} failed with error {} ({}) and did no I/O",
                b.name, b.error, b.verror
            );
            let header = ix.header(&b.name, b.group, b.host.as_deref());
            return BlockRows::Failed(message, self.failed_rows(b, header, ix));
        }
        if b.dirs.is_empty() && b.saw_mixed {
            return BlockRows::Bad(malformed(format!(
                "job {}: only unified_rw_reporting `mixed` figures; rerun with unified_rw_reporting=0 for per-direction rows",
                b.name
            )));
        }
        if b.dirs.is_empty() {
            return BlockRows::Bad(malformed(format!(
                "job {}: status line without any read/write/trim line",
                b.name
            )));
        }
        let header = ix.header(&b.name, b.group, b.host.as_deref());
        // All-clients aggregates take the header of the job they add up.
        let header = header.or_else(|| {
            (b.aggregate)
                .then(|| ix.group_first.get(&b.group).copied())
                .flatten()
        });
        if header.is_none() && !b.aggregate {
            warnings.push(format!(
                "job {}: no job header line (`{}: (g=...): rw=...`): rw, bs and ioengine unknown",
                b.name, b.name
            ));
        }
        let numjobs = ix.numjobs(b);
        if b.jobs > 1 && !b.aggregate {
            let names: Vec<&str> = ix
                .names(b.group, b.host.as_deref())
                .map_or_else(Vec::new, |n| n.iter().copied().collect());
            if names.len() > 1 {
                warnings.push(format!(
                    "job {}: group_reporting folds {} different jobs ({}); rw/bs/iodepth are those of {}",
                    b.name,
                    names.len(),
                    names.join(", "),
                    b.name
                ));
            }
        }
        if b.error != 0 {
            warnings.push(format!(
                "job {} reported error {} ({})",
                b.name, b.error, b.verror
            ));
        }
        let mut rows = Vec::with_capacity(b.dirs.len());
        for d in &b.dirs {
            match self.row(b, d, header, numjobs, &mut warnings) {
                Ok(r) => rows.push(r),
                Err(e) => return BlockRows::Bad(e),
            }
        }
        BlockRows::Rows(rows, warnings)
    }

    /// A failed job's rows, as fio's JSON has them: each direction it
    /// issued I/O in (`issued rwts`), with no figures and `error` set, so
    /// the job stays in the dataset and `check` sees it failed (docs/
    /// CONTRACT.md: a job with an error keeps its rows).
    fn failed_rows(&self, b: &Block, header: Option<&Header>, ix: &Index<'_>) -> Vec<Row> {
        let issued = b.issued.unwrap_or_default();
        Direction::ALL
            .into_iter()
            .zip(issued)
            .filter(|&(_, n)| n > 0)
            .map(|(dir, _)| {
                let mut r = Row::empty("", dir);
                r.format = FORMAT.into();
                r.fio_version = self.version.clone();
                r.job = b.name.clone();
                r.host = b.host.clone();
                r.error = b.error;
                r.numjobs = ix.numjobs(b);
                if let Some(h) = header {
                    r.rw = h.rw.clone();
                    r.engine = h.engine.clone();
                    r.iodepth = h.iodepth.unwrap_or(1);
                    r.bs_bytes = h.bs[dir as usize].unwrap_or(0);
                }
                r.os = os::infer(&r.engine, None, self.os.clone());
                r.usr_cpu_pct = b.usr.unwrap_or(0.0);
                r.sys_cpu_pct = b.sys.unwrap_or(0.0);
                r
            })
            .collect()
    }

    /// Each failed job's error as `err=25: Inappropriate ioctl for
    /// device` (fio's own text after `error=`), each once.
    fn failures(&self) -> String {
        let mut seen: IndexSet<String> = IndexSet::new();
        for b in self.blocks.iter().filter(|b| b.error != 0) {
            let text = b.verror.rsplit_once("error=").map(|(_, t)| t.trim());
            let e = match text.filter(|t| !t.is_empty()) {
                Some(t) => format!("err={}: {t}", b.error),
                None => fio_error::describe(b.error),
            };
            seen.insert(e);
        }
        seen.into_iter().collect::<Vec<_>>().join("; ")
    }

    fn row(
        &self,
        b: &Block,
        d: &DirStats,
        header: Option<&Header>,
        numjobs: u32,
        notes: &mut Vec<String>,
    ) -> Result<Row, ReadError> {
        let idx = match d.dir {
            Direction::Read => 0,
            Direction::Write => 1,
            Direction::Trim => 2,
        };
        let mut r = Row::empty("", d.dir);
        r.format = FORMAT.into();
        r.fio_version = self.version.clone();
        r.job = b.name.clone();
        r.host = b.host.clone();
        r.aggregate = b.aggregate;
        r.error = b.error;
        r.numjobs = numjobs;
        if let Some(h) = header {
            r.rw = h.rw.clone();
            r.engine = h.engine.clone();
            r.iodepth = h.iodepth.unwrap_or(1);
            // A range's size is its measured mean, found below.
            r.bs_bytes = if h.spread[idx].is_some() {
                0
            } else {
                h.bs[idx].unwrap_or(0)
            };
            r.bs_spread = h.spread[idx].clone();
        }
        r.effective_iodepth = depth::effective(&r.engine, r.iodepth, b.depths.as_ref());
        if let Some(s) = &b.steady {
            s.apply(&mut r);
        }
        r.os = os::infer(&r.engine, None, self.os.clone());
        if d.runtime_ms <= 0.0 {
            return Err(malformed(format!(
                "job {}: {} runtime is {} msec",
                b.name, d.dir, d.runtime_ms
            )));
        }
        let issued = b.issued.map(|c| c[idx]).filter(|&n| n > 0);
        let short = b.short.map(|s| s[idx]).unwrap_or(0);
        d.figures(issued, short, r.bs_bytes, &b.name, notes)
            .apply(&mut r);
        if r.bs_bytes == 0
            && let Some(n) = b.issued.map(|c| c[idx]).filter(|&n| n > 0)
        {
            let mean = r.io_bytes as f64 / n as f64;
            r.bs_bytes = if r.bs_spread.is_some() {
                // What fio issued over a range: its measured mean.
                mean.round() as u64
            } else {
                // No header: the mean I/O size (a common size when near one).
                block_size_from_mean(mean).map_or(512, |(bs, _)| bs)
            };
        }
        if r.rw.is_empty() {
            r.rw = d.dir.as_str().to_string();
        }
        r.usr_cpu_pct = b.usr.unwrap_or(0.0);
        r.sys_cpu_pct = b.sys.unwrap_or(0.0);
        self.idle.apply(&mut r);
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every normal-text fixture read in parts of a few hundred bytes (a
    /// job or two each, status-interval reports of one job in different
    /// parts) gives what one pass gives: rows, warnings, errors.
    #[test]
    fn reading_in_parts_is_reading_in_one_pass() {
        let mut texts = 0;
        for (path, text) in crate::ingest::fio::fixture_texts() {
            if !NormalReader.sniff(&text) || !text.contains(": (groupid=") {
                continue;
            }
            let whole = format!("{:?}", parse_part(&text).and_then(Doc::into_rows));
            for part in [64, 300, 2000] {
                let split = parts(&text, part);
                let in_parts =
                    format!("{:?}", parse_in_parts(&text, part).and_then(Doc::into_rows));
                assert_eq!(
                    whole,
                    in_parts,
                    "{} in {} parts",
                    path.display(),
                    split.len()
                );
                if split.len() > 1 {
                    texts += 1;
                }
            }
        }
        assert!(texts > 10, "only {texts} texts were cut into parts");
    }

    #[test]
    fn find_in_finds_what_str_find_finds() {
        for (hay, needle) in [
            ("abc: (groupid=0, jobs=1)", ": (groupid="),
            ("", "x"),
            ("x", ""),
            ("aaa", "aa"),
            ("read: IOPS=1, BW=2", "BW="),
            ("no such", "thing"),
            ("ends with a", "a"),
            ("żółw: (g=0)", ": (g="),
        ] {
            assert_eq!(find_in(hay, needle), hay.find(needle), "{hay:?} {needle:?}");
        }
    }

    fn fixture(rel: &str) -> String {
        let path = format!("{}/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn read(text: &str) -> Parsed {
        NormalReader.read(text).expect("readable")
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn num2str_precision_follows_printed_digits() {
        let n = |s| parse_num2str(s, Prefix::Si).unwrap().0;
        assert_eq!(
            n("24.1k"),
            Num {
                value: 24100.0,
                precision: 100.0
            }
        );
        assert_eq!(
            n("2411k"),
            Num {
                value: 2_411_000.0,
                precision: 1000.0
            }
        );
        assert_eq!(
            n("512"),
            Num {
                value: 512.0,
                precision: 1.0
            }
        );
        assert_eq!(n("1.23M").value, 1_230_000.0);
        assert_eq!(n("1.23M").precision, 10_000.0);
        let mib = 1024.0 * 1024.0;
        assert_eq!(
            n("9198MiB/s"),
            Num {
                value: 9198.0 * mib,
                precision: mib
            }
        );
        let (bw, unit) = parse_num2str("94.4MiB/s", Prefix::Si).unwrap();
        assert!(close(bw.value, 94.4 * mib, 1e-3) && close(bw.precision, mib / 10.0, 1e-6));
        assert_eq!(unit, "B/s");
        // fio 2.x printed KiB as `KB`; 3.x `MB` in the alternate figure is SI.
        assert_eq!(
            parse_num2str("311220KB", Prefix::LegacyBytes)
                .unwrap()
                .0
                .value,
            311220.0 * 1024.0
        );
        assert_eq!(n("130MB/s").value, 130e6);
        assert!(parse_num2str("abc", Prefix::Si).is_none());
        assert!(parse_num2str(".5k", Prefix::Si).is_none());
    }

    /// Hand-made in fio 3.36's layout (fixtures/README.md, "constructed/"):
    /// an NVMe drive's figures, slat in nsec with a `k` maximum, no
    /// `issued rwts` line.
    fn constructed() -> String {
        fixture("constructed/nvme-io_uring.txt")
    }

    /// The study (fio 3.21): 23,992 IOPS printed `23.0k`, its
    /// `num2str` having dropped the carry.
    const CARRY: &str = "\
j: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=16
fio-3.21
Starting 1 process

j: (groupid=0, jobs=1): err= 0: pid=1: Mon Jan  1 00:00:00 2024
  read: IOPS=23.0k, BW=93.7MiB/s (98.3MB/s)(1874MiB/20001msec)
";

    #[test]
    fn a_figure_printed_off_by_more_than_its_rounding_is_corrected_with_a_note() {
        // From the byte count: 1874 MiB / 4 KiB / 20.001 s, known to the
        // MiB the size is printed to.
        let p = read(CARRY);
        let r = &p.rows[0];
        let from_bytes = 1874.0 * 256.0 * 1000.0 / 20001.0;
        assert!(close(r.iops, from_bytes, 1e-6), "{}", r.iops);
        assert!(close(r.iops_precision, 256.0 * 1000.0 / 20001.0, 1e-9));
        assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
        assert!(
            p.warnings[0].starts_with(
                "job j: read IOPS printed as 23000 is off by more than its rounding (100)"
            ),
            "{}",
            p.warnings[0]
        );
        // From the I/O count: exact.
        let counted = format!(
            "{CARRY}  cpu          : usr=1.00%, sys=2.00%, ctx=1, majf=0, minf=1\n     issued rwts: total=479850,0,0,0 short=0,0,0,0 dropped=0,0,0,0\n"
        );
        let p = read(&counted);
        let r = &p.rows[0];
        assert_eq!(
            (r.iops, r.iops_precision),
            (479850.0 * 1000.0 / 20001.0, 1.0)
        );
        assert_eq!(r.io_bytes, 479850 * 4096);
        assert_eq!(r.bw_bytes_per_s, 479850.0 * 4096.0 * 1000.0 / 20001.0);
        assert!(
            p.warnings[0].contains("corrected to 23991.30"),
            "{:?}",
            p.warnings
        );
        // A figure within its rounding is made exact without a word.
        let fine = counted.replace("IOPS=23.0k", "IOPS=24.0k");
        let p = read(&fine);
        assert_eq!(p.rows[0].iops, 479850.0 * 1000.0 / 20001.0);
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    }

    #[test]
    fn constructed_line_keeps_printed_precision() {
        let p = read(&constructed());
        assert_eq!(p.rows.len(), 1);
        let r = &p.rows[0];
        assert_eq!(
            (r.job.as_str(), r.rw.as_str(), r.engine.as_str()),
            ("nvme", "randread", "io_uring")
        );
        assert_eq!(
            (r.os.as_str(), r.fio_version.as_str(), r.format.as_str()),
            ("linux", "fio-3.36", "normal")
        );
        assert_eq!((r.bs_bytes, r.iodepth, r.numjobs), (4096, 128, 1));
        assert_eq!(r.direction, Direction::Read);
        // No `issued rwts` line: the printed figures are all there is.
        assert_eq!((r.iops, r.iops_precision), (2_411_000.0, 1000.0));
        assert_eq!(r.bw_bytes_per_s, 9418.0 * 1024.0 * 1024.0);
        assert_eq!(r.bw_precision, 1024.0 * 1024.0);
        assert_eq!(r.io_bytes, 552 << 30);
        assert_eq!(r.runtime_ms, 60001.0);
        assert_eq!(r.slat_mean_ns, Some(1203.5));
        assert_eq!(r.lat_min_ns, Some(13_000.0));
        assert_eq!(r.lat_max_ns, Some(3_151_000.0));
        assert!(close(r.lat_mean_ns.unwrap(), 53_260.0, 1e-6));
        assert!(close(r.lat_stddev_ns.unwrap(), 18_210.0, 1e-6));
        assert!(close(r.lat_precision_ns, 10.0, 1e-9));
        assert!(close(r.clat_mean_ns.unwrap(), 52_060.0, 1e-6));
        assert_eq!(r.clat_p50_ns, Some(50_000.0));
        assert_eq!(r.clat_p90_ns, Some(74_000.0));
        assert_eq!(r.clat_p95_ns, Some(84_000.0));
        assert_eq!(r.clat_p99_ns, Some(108_000.0));
        assert_eq!(r.clat_p99_9_ns, Some(157_000.0));
        assert_eq!(r.clat_p99_99_ns, Some(1_188_000.0));
        assert_eq!((r.usr_cpu_pct, r.sys_cpu_pct), (12.5, 87.4));
        assert_eq!(r.bw_samples, Some(119));
        assert!(close(
            r.bw_sample_mean.unwrap(),
            9418.5 * 1024.0 * 1024.0,
            1e-3
        ));
        assert_eq!(r.iops_samples, Some(119));
        assert_eq!(r.iops_sample_mean, Some(2_411_136.0));
        assert_eq!(r.iops_sample_stddev, Some(5248.0));
        // slat in nsec with a `k` maximum: 4307.3k nsec.
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    }

    #[test]
    fn crlf_text_reads_the_same() {
        let crlf = constructed().replace('\n', "\r\n");
        assert_eq!(read(&crlf).rows, read(&constructed()).rows);
    }

    #[test]
    fn real_randread_uses_exact_counts() {
        // fixtures/fio/linux-libaio/randread-4k.txt:
        //   read: IOPS=31.8k, BW=124MiB/s (130MB/s)(248MiB/2001msec)
        //   issued rwts: total=63576,0,0,0
        let p = read(&fixture("fio/linux-libaio/randread-4k.txt"));
        assert_eq!(p.rows.len(), 1);
        let r = &p.rows[0];
        assert_eq!(r.job, "randread-4k-qd32");
        assert_eq!((r.engine.as_str(), r.os.as_str()), ("libaio", "linux"));
        assert_eq!((r.bs_bytes, r.iodepth, r.runtime_ms), (4096, 32, 2001.0));
        assert_eq!(r.iops, 63576.0 * 1000.0 / 2001.0);
        assert_eq!(r.iops_precision, 1.0);
        assert!(close(r.iops, 31_800.0, 100.0), "agrees with IOPS=31.8k");
        assert_eq!(r.io_bytes, 63576 * 4096);
        assert_eq!(r.bw_bytes_per_s, (63576.0 * 4096.0) * 1000.0 / 2001.0);
        assert!(
            close(r.bw_bytes_per_s, 124.0 * 1048576.0, 1048576.0),
            "agrees with BW=124MiB/s"
        );
        assert!(close(r.lat_mean_ns.unwrap(), 1_006_050.0, 1e-6));
        assert!(close(r.clat_mean_ns.unwrap(), 990_440.0, 1e-6));
        assert_eq!(r.lat_min_ns, Some(68_000.0));
        assert_eq!(r.clat_p50_ns, Some(570_000.0));
        assert_eq!(r.clat_p99_ns, Some(4_948_000.0));
        assert_eq!(r.clat_p99_9_ns, Some(10_028_000.0));
        assert_eq!((r.usr_cpu_pct, r.sys_cpu_pct), (2.35, 34.95));
        assert_eq!(r.iops_samples, Some(3));
        assert_eq!(r.iops_sample_mean, Some(35726.33));
        assert_eq!(r.bw_sample_mean, Some(142906.0 * 1024.0));
        assert_eq!(r.fio_version, "fio-3.33");
    }

    /// The json,normal file holds both renderings of one run: every value
    /// the text gives must agree with the JSON within the text's precision.
    #[test]
    fn normal_agrees_with_json_of_the_same_run() {
        let text = fixture("fio/linux-libaio/randread-4k.json-normal.txt");
        let start = text.find("\n{").expect("json start") + 1;
        let end = text.find("\n}\n").expect("json end") + 2;
        let json: serde_json::Value = serde_json::from_str(&text[start..end]).expect("json");
        // The job header lines come before the JSON, the report after it.
        let normal = format!("{}{}", &text[..start], &text[end..]);
        let r = &read(&normal).rows[0];
        // The JSON states direct=1; normal text never prints it: unknown, not false.
        assert_eq!(json["jobs"][0]["job options"]["direct"], "1");
        assert_eq!(r.direct, None);
        let j = &json["jobs"][0]["read"];
        let f = |v: &serde_json::Value| v.as_f64().unwrap();
        assert!(close(r.iops, f(&j["iops"]), 1e-6));
        assert_eq!(r.io_bytes as f64, f(&j["io_bytes"]));
        assert_eq!(r.runtime_ms, f(&j["runtime"]));
        assert!(close(r.bw_bytes_per_s, f(&j["bw_bytes"]), 1.0));
        let tol = r.lat_precision_ns / 2.0 + 1e-6;
        assert!(close(r.lat_mean_ns.unwrap(), f(&j["lat_ns"]["mean"]), tol));
        assert!(close(
            r.clat_mean_ns.unwrap(),
            f(&j["clat_ns"]["mean"]),
            tol
        ));
        assert!(close(
            r.slat_mean_ns.unwrap(),
            f(&j["slat_ns"]["mean"]),
            tol
        ));
        // Percentiles are printed rounded up to the unit (usec here).
        let p99 = f(&j["clat_ns"]["percentile"]["99.000000"]);
        assert_eq!(r.clat_p99_ns.unwrap(), (p99 / 1000.0).ceil() * 1000.0);
        let job = &json["jobs"][0];
        assert!(close(r.usr_cpu_pct, f(&job["usr_cpu"]), 0.005 + 1e-9));
        assert!(close(r.sys_cpu_pct, f(&job["sys_cpu"]), 0.005 + 1e-9));
        assert_eq!(r.iops_samples, j["iops_samples"].as_u64());
        assert!(close(
            r.iops_sample_mean.unwrap(),
            f(&j["iops_mean"]),
            0.005 + 1e-9
        ));
        assert!(close(
            r.bw_sample_mean.unwrap(),
            f(&j["bw_mean"]) * 1024.0,
            0.005 * 1024.0
        ));
    }

    #[test]
    fn mixed_job_gives_one_row_per_direction() {
        let p = read(&fixture("fio/linux-libaio/mixed-rw70.txt"));
        let got: Vec<(&str, &str, Direction, u64)> = p
            .rows
            .iter()
            .map(|r| (r.job.as_str(), r.rw.as_str(), r.direction, r.bs_bytes))
            .collect();
        assert_eq!(
            got,
            [
                ("randrw-4k", "randrw", Direction::Read, 4096),
                ("randrw-4k", "randrw", Direction::Write, 4096),
                ("rw-64k", "rw", Direction::Read, 65536),
                ("rw-64k", "rw", Direction::Write, 65536),
            ]
        );
        // randrw-4k: `write: IOPS=2485, ...(19.4MiB/2003msec); 0 zone resets`,
        // issued total=11589,4979.
        let w = &p.rows[1];
        assert_eq!(w.iops, 4979.0 * 1000.0 / 2003.0);
        assert_eq!(w.io_bytes, 4979 * 4096);
        assert!(close(w.lat_mean_ns.unwrap(), 2_062_140.0, 1e-6));
        assert_eq!(w.iops_sample_mean, Some(2487.0));
    }

    /// fixtures/wild/status-interval/normal.txt: `--status-interval=1`,
    /// four reports of three jobs (randwrite-4k as two clones, pids 12459
    /// and 12460). One row per job, equal to its last report.
    #[test]
    fn status_interval_keeps_each_jobs_last_report() {
        let text = fixture("wild/status-interval/normal.txt");
        let p = read(&text);
        let got: Vec<_> = p
            .rows
            .iter()
            .map(|r| (r.job.as_str(), r.numjobs, r.iops, r.runtime_ms))
            .collect();
        // The final report: `issued rwts: total=` over the runtime in msec.
        assert_eq!(
            got,
            [
                ("randread-4k", 1, 3616.0 * 1000.0 / 3001.0, 3001.0),
                ("seqwrite-64k", 1, 137217.0 * 1000.0 / 3001.0, 3001.0),
                ("randwrite-4k", 2, 227213.0 * 1000.0 / 3002.0, 3002.0),
                ("randwrite-4k", 2, 212993.0 * 1000.0 / 3004.0, 3004.0),
            ],
            "{:?}",
            p.warnings
        );
        // The job headers and the final report alone read the same.
        let headers = &text[..text.find("randread-4k: (groupid").unwrap()];
        let last = &text[text.rfind("Disk stats").unwrap()..];
        let tail = &text[text[..text.len() - last.len()].rfind("Disk stats").unwrap()..];
        let alone = read(&format!("{headers}{tail}"));
        assert_eq!(alone.rows.len(), 4);
        for (a, b) in alone.rows.iter().zip(&p.rows) {
            assert_eq!(
                (a.iops, a.io_bytes, a.clat_p99_ns),
                (b.iops, b.io_bytes, b.clat_p99_ns)
            );
        }
    }

    #[test]
    fn numjobs_from_group_reporting_and_from_clones() {
        let g = read(&fixture("fio/linux-libaio/numjobs4-group.txt"));
        assert_eq!(g.rows.len(), 1);
        assert_eq!((g.rows[0].numjobs, g.rows[0].iodepth), (4, 8));
        // `read: IOPS=26.9k ... (213MiB/2033msec)`, total=54632
        assert_eq!(g.rows[0].iops, 54632.0 * 1000.0 / 2033.0);

        let n = read(&fixture("fio/linux-libaio/numjobs2-nogroup.txt"));
        assert_eq!(n.rows.len(), 2);
        assert!(
            n.rows
                .iter()
                .all(|r| r.numjobs == 2 && r.direction == Direction::Write)
        );
        assert_eq!(n.rows[0].iops, 20379.0 * 1000.0 / 2001.0);
        assert_eq!(n.rows[1].iops, 25197.0 * 1000.0 / 2001.0);
    }

    #[test]
    fn group_reporting_of_different_jobs_warns_and_keeps_printed_bw() {
        let p = read(&fixture("fio/linux-libaio/multijob-group.txt"));
        assert_eq!(p.rows.len(), 2);
        assert_eq!(p.rows[0].job, "randread-4k");
        assert_eq!(p.rows[0].numjobs, 1, "jobs=3 over three different jobs");
        assert!(
            p.warnings
                .iter()
                .any(|w| w.contains("group_reporting folds 3"))
        );
        // Writes of 128k and 4k jobs: io is not total*bs, so the printed
        // `BW=499MiB/s (524MB/s)(999MiB/2001msec)` stays, with its step.
        let w = &p.rows[1];
        assert_eq!(w.bw_bytes_per_s, 499.0 * 1048576.0);
        assert_eq!(w.bw_precision, 1048576.0);
        assert_eq!(w.iops, 25629.0 * 1000.0 / 2001.0);

        let ng = read(&fixture("fio/linux-libaio/multijob-nogroup.txt"));
        let jobs: Vec<(&str, u64, u32)> = ng
            .rows
            .iter()
            .map(|r| (r.job.as_str(), r.bs_bytes, r.iodepth))
            .collect();
        assert_eq!(
            jobs,
            [
                ("randread-4k", 4096, 32),
                ("seqwrite-128k", 131072, 8),
                ("randwrite-4k", 4096, 16)
            ]
        );
        assert!(ng.warnings.is_empty(), "{:?}", ng.warnings);
    }

    #[test]
    fn stonewall_groups_and_lat_percentiles() {
        let s = read(&fixture("fio/linux-libaio/stonewall.txt"));
        let names: Vec<&str> = s.rows.iter().map(|r| r.job.as_str()).collect();
        assert_eq!(names, ["prefill", "randread-after", "randwrite-after"]);
        assert_eq!(s.rows[0].bs_bytes, 131072);

        // `clat percentiles` and `lat percentiles` both printed: clat kept.
        let p = read(&fixture("fio/linux-libaio/percentiles.txt"));
        let r = &p.rows[0];
        assert_eq!(r.clat_p50_ns, Some(490_000.0));
        assert_eq!(r.clat_p90_ns, Some(1_844_000.0));
        assert_eq!(r.clat_p99_9_ns, Some(18_482_000.0));
        assert_eq!(r.clat_p99_99_ns, Some(22_414_000.0));
        assert_eq!(r.clat_p95_ns, None, "95 is not in percentile_list");
    }

    #[test]
    fn client_server_hosts_and_all_clients() {
        let p = read(&fixture("fio/linux-clientserver/two-servers.txt"));
        assert_eq!(p.rows.len(), 3);
        assert!(
            p.rows[..2]
                .iter()
                .all(|r| r.host.as_deref() == Some("vm") && !r.aggregate)
        );
        let all = &p.rows[2];
        assert_eq!(
            (all.job.as_str(), all.aggregate, all.host.clone()),
            ("All clients", true, None)
        );
        // `read: IOPS=52.0k, BW=203Mi (213M)(407MiB/2001msec)`, total=104151
        assert_eq!(all.iops, 104151.0 * 1000.0 / 2001.0);
        assert_eq!((all.rw.as_str(), all.bs_bytes), ("randread", 4096));
        assert_eq!(all.fio_version, "fio-3.33");
        assert_eq!(p.rows[0].iops, 48338.0 * 1000.0 / 2001.0);
        assert_eq!(p.rows[1].iops, 55813.0 * 1000.0 / 2001.0);
        assert_eq!(p.rows[0].clat_p50_ns, Some(490_000.0));
        assert_eq!(p.rows[0].numjobs, 1);

        let one = read(&fixture("fio/linux-clientserver/one-server.txt"));
        assert_eq!(one.rows.len(), 1);
        assert_eq!(one.rows[0].host.as_deref(), Some("vm"));
    }

    #[test]
    fn fio2_text() {
        // fixtures/fio/fio2-handmade/randread-4k.txt (hand-made, fio-2.2.10 shape):
        //   read : io=311220KB, bw=155455KB/s, iops=38863, runt=  2002msec
        //   issued    : total=r=77805/w=0/d=0
        let p = read(&fixture("fio/fio2-handmade/randread-4k.txt"));
        let r = &p.rows[0];
        assert_eq!(
            (r.fio_version.as_str(), r.bs_bytes, r.iodepth),
            ("fio-2.2.10", 4096, 32)
        );
        assert_eq!(r.runtime_ms, 2002.0);
        assert_eq!(r.iops, 77805.0 * 1000.0 / 2002.0);
        assert_eq!(r.io_bytes, 77805 * 4096);
        assert!(close(r.lat_mean_ns.unwrap(), 822_420.0, 1e-6));
        assert_eq!(r.clat_p99_ns, Some(4_685_000.0));
        assert_eq!(r.bw_sample_mean, Some(174339.0 * 1024.0));
        assert_eq!(r.bw_samples, None, "2.x prints no sample count");
        assert_eq!((r.usr_cpu_pct, r.sys_cpu_pct), (5.75, 33.53));

        // Without the issued line the 2.x figures are read as printed.
        let bare: String = fixture("fio/fio2-handmade/randread-4k.txt")
            .lines()
            .filter(|l| !l.contains("issued"))
            .map(|l| format!("{l}\n"))
            .collect();
        let r = &read(&bare).rows[0];
        assert_eq!((r.iops, r.iops_precision), (38863.0, 1.0));
        assert_eq!(
            (r.bw_bytes_per_s, r.bw_precision),
            (155455.0 * 1024.0, 1024.0)
        );
        assert_eq!(r.io_bytes, 311220 * 1024);
    }

    #[test]
    fn failed_job_is_named_and_the_clean_one_kept() {
        // fixtures/fio/linux-psync/error-trim.txt: randtrim on a regular file
        // fails with err=25; randread-ok ran (IOPS=4577, total=9159).
        let p = read(&fixture("fio/linux-psync/error-trim.txt"));
        assert_eq!(p.rows.len(), 2);
        // The failed job keeps a row of the direction it issued I/O in
        // (`issued rwts: total=0,0,1,0`), error set and no figures, as
        // the JSON of the same run has it.
        let f = &p.rows[1];
        assert_eq!(
            (f.job.as_str(), f.error, f.direction, f.rw.as_str()),
            ("randtrim-fails", 25, Direction::Trim, "randtrim")
        );
        assert_eq!((f.iops, f.io_bytes, f.runtime_ms), (0.0, 0, 0.0));
        let r = &p.rows[0];
        assert_eq!(
            (r.job.as_str(), r.error, r.engine.as_str()),
            ("randread-ok", 0, "psync")
        );
        assert_eq!(r.iops, 9159.0 * 1000.0 / 2001.0);
        assert_eq!(r.slat_mean_ns, None, "psync prints no slat");
        assert_eq!(
            r.os,
            crate::model::Os::Unknown,
            "psync alone does not tell the OS"
        );
        assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
        assert!(p.warnings[0].contains("randtrim-fails failed with error 25"));
        assert!(p.warnings[0].contains("Inappropriate ioctl for device"));

        // Only the failed job: the file yields nothing, and says why.
        let only: String = fixture("fio/linux-psync/error-trim.txt")
            .split("randtrim-fails: (groupid")
            .nth(1)
            .map(|rest| format!("randtrim-fails: (groupid{rest}"))
            .unwrap();
        let e = NormalReader.read(&only).unwrap_err().to_string();
        assert_eq!(
            e,
            "fio output: every job failed (err=25: Inappropriate ioctl for device)"
        );
    }

    #[test]
    fn mixed_section_does_not_leak_into_write() {
        let text = constructed().replace(
            "  cpu ",
            "  mixed: IOPS=1k, BW=4MiB/s (4MB/s)(8MiB/2000msec)\n     lat (usec): min=1, max=2, avg=99.00, stdev=1.00\n  cpu ",
        );
        let p = read(&text);
        assert_eq!(p.rows.len(), 1);
        assert!(close(p.rows[0].lat_mean_ns.unwrap(), 53_260.0, 1e-6));
        assert!(p.warnings[0].contains("mixed"));

        let only_mixed = "j: (groupid=0, jobs=1): err= 0: pid=1: now\n  mixed: IOPS=1k, BW=4MiB/s (4MB/s)(8MiB/2000msec)\n";
        let e = NormalReader.read(only_mixed).unwrap_err().to_string();
        assert!(e.contains("unified_rw_reporting=0"), "{e}");
    }

    #[test]
    fn bad_text_is_an_error_not_a_panic() {
        let t = fixture("bad/truncated.txt");
        assert!(
            matches!(NormalReader.read(&t), Err(ReadError::Malformed { .. })),
            "{:?}",
            NormalReader.read(&t)
        );
        assert!(!NormalReader.sniff(&fixture("bad/not-fio.txt")));
        assert_eq!(NormalReader.read("hello\n").unwrap_err(), ReadError::NoRows);
        let no_dirs =
            "x: (groupid=0, jobs=1): err= 0: pid=1: now\n  cpu          : usr=1.00%, sys=2.00%\n";
        let e = NormalReader.read(no_dirs).unwrap_err().to_string();
        assert!(e.contains("job x") && !e.contains('\n'), "{e}");
        // Every prefix of a real file: an answer, never a panic.
        let real = fixture("fio/linux-clientserver/two-servers.txt");
        for (i, _) in real.char_indices().step_by(7) {
            let _ = NormalReader.read(&real[..i]);
        }
    }

    /// Every normal-text fixture: rows with the numbers a reader needs, in
    /// the job order of the file. UTF-16 files are decoded here the simple
    /// way (the pipeline's decoder is tested on its own).
    #[test]
    fn every_text_fixture_reads() {
        let root = format!("{}/fixtures/fio", env!("CARGO_MANIFEST_DIR"));
        let mut seen = 0;
        for dir in std::fs::read_dir(&root).unwrap() {
            for f in std::fs::read_dir(dir.unwrap().path()).unwrap() {
                let path = f.unwrap().path();
                let name = path.to_string_lossy().to_string();
                if !name.ends_with(".txt") || name.contains("terse") {
                    continue;
                }
                let bytes = std::fs::read(&path).unwrap();
                let text = match bytes.as_slice() {
                    [0xff, 0xfe, rest @ ..] => String::from_utf16(
                        &rest
                            .chunks(2)
                            .map(|c| u16::from_le_bytes([c[0], c[1]]))
                            .collect::<Vec<_>>(),
                    )
                    .unwrap(),
                    _ => String::from_utf8(bytes).unwrap(),
                };
                // Jobs that ran clean; a failed job may have no rows.
                let groups = text.matches("): err= 0:").count();
                let p = NormalReader
                    .read(&text)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                assert!(
                    p.rows.len() >= groups,
                    "{name}: {} rows for {groups} jobs",
                    p.rows.len()
                );
                // A failed job's rows carry its error and no figures.
                for r in p.rows.iter().filter(|r| r.error == 0) {
                    assert!(
                        r.iops > 0.0 && r.bw_bytes_per_s > 0.0 && r.runtime_ms > 0.0,
                        "{name}: {r:?}"
                    );
                    assert!(
                        r.bs_bytes > 0 && !r.engine.is_empty() && !r.rw.is_empty(),
                        "{name}: {r:?}"
                    );
                    assert!(r.lat_mean_ns.is_some() && r.io_bytes > 0, "{name}: {r:?}");
                    assert!(r.fio_version.starts_with("fio-"), "{name}");
                }
                seen += 1;
            }
        }
        assert!(seen >= 15, "only {seen} text fixtures");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// Mutated real output (bytes replaced, lines dropped or doubled)
        /// gets an answer, never a panic.
        #[test]
        fn mutated_text_never_panics(
            edits in proptest::collection::vec((0usize..4000, 0u8..128), 0..12),
            drop_line in 0usize..40,
            dup_line in 0usize..40,
        ) {
            let base = fixture("fio/linux-libaio/mixed-rw70.txt");
            let mut bytes = base.into_bytes();
            for (pos, b) in edits {
                if let Some(slot) = bytes.get_mut(pos) {
                    *slot = b;
                }
            }
            let text = String::from_utf8_lossy(&bytes).to_string();
            let mut lines: Vec<&str> = text.lines().collect();
            if drop_line < lines.len() {
                lines.remove(drop_line);
            }
            if dup_line < lines.len() {
                lines.insert(dup_line, lines[dup_line]);
            }
            let _ = NormalReader.read(&lines.join("\n"));
        }

        #[test]
        fn arbitrary_text_never_panics(s in "\\PC{0,400}") {
            let _ = NormalReader.read(&s);
            let _ = NormalReader.read(&format!("x: (groupid=0, jobs=1): err= 0: pid=1\n  read: {s}\n"));
        }
    }

    #[test]
    fn kb_base_1000_sizes_are_si() {
        // `bs=(R) 131kB-131kB` for bs=128k, `read: IOPS=6208, BW=814MB/s
        // (776MiB/s)(1628MB/2001msec)`, `bw (   kB/s): ... avg=814308.33`,
        // `issued rwts: total=12424,0,0,0`.
        let r = &read(&fixture("fio/linux-libaio/kb-base-1000.txt")).rows[0];
        assert_eq!(r.bs_bytes, 131072);
        assert_eq!(r.io_bytes, 12424 * 131072);
        assert!(
            close(r.io_bytes as f64, 1628e6, 0.5e6),
            "agrees with 1628MB"
        );
        assert_eq!(r.iops, 12424.0 * 1000.0 / 2001.0);
        assert!(
            close(r.bw_bytes_per_s, 814e6, 0.5e6),
            "agrees with BW=814MB/s"
        );
        assert!(close(r.bw_sample_mean.unwrap(), 814_308_330.0, 1e-3));
        assert_eq!(bs_range("1536KiB-1536KiB", Prefix::Si), Some(1536 * 1024));
        assert_eq!(bs_range("4K-4K", Prefix::LegacyBytes), Some(4096));
    }

    #[test]
    fn sniff_finds_every_real_text_fixture() {
        for f in [
            "fio/linux-libaio/randread-4k.txt",
            "fio/linux-psync/randread-4k.txt",
            "fio/linux-io_uring/randwrite-4k.txt",
            "fio/fio2-handmade/randread-4k.txt",
            "fio/linux-libaio/randread-4k.json-normal.txt",
        ] {
            assert!(NormalReader.sniff(&fixture(f)), "{f}");
        }
        assert!(!NormalReader.sniff(&fixture("fio/linux-libaio/randread-4k.json")));
    }
}
