//! fio's terse output (`--output-format=terse` / `--minimal`), versions 2
//! to 5: one semicolon-separated line per job, fields as in fio's
//! `show_thread_status_terse_all` / `show_ddir_status_terse` (stat.c) and
//! HOWTO "Terse output".
//!
//! A line is a header (`2;name;groupid;error` in v2,
//! `V;fio-3.33;name;groupid;error` from v3 on), one block per direction,
//! then CPU (`usr%;sys%;ctx;majf;minf`), 7 I/O depth shares, 10 usec and 12
//! msec latency shares, and from v3 on one disk-util entry per disk, then
//! optional `continue_on_error` counts and the description.
//!
//! A direction block: io (KiB), bw (KiB/s), iops, runtime (msec), all
//! integers; slat, clat (min, max as integer usec, mean, stdev as `%f`
//! usec), 20 percentile slots `p%=usec`, lat, bw samples (min, max, agg%,
//! mean, stdev, KiB/s); v5 adds the bw sample count and iops samples (min,
//! max, mean, stdev, count). Blocks are read, write, and trim in v2, v4 and
//! v5 (not v3). `unified_rw_reporting=mixed` prints one block (all
//! directions summed), `=both` appends that block after the others: the
//! number of blocks is found by looking for the first CPU field (the only
//! block-start field printed with `%`).
//!
//! Terse carries no rw, bs, iodepth, numjobs or ioengine. Rows say engine
//! `unknown`; rw, bs and iodepth come from the job name when it has them
//! (`randread-4k-qd32`) and agree with what the line shows, else from the
//! directions that did I/O, the mean I/O size and fio's I/O depth
//! distribution; numjobs is the number of lines of the same job. A warning
//! per job says what was guessed. The percentile slots hold clat
//! percentiles unless the job set `lat_percentiles=1` (then total latency):
//! the line does not say which, so they are read as clat.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use super::depth;
use super::jobname::block_size_from_mean;
use crate::ingest::identity::{NameGuess, guess_from_name};
use crate::ingest::{Parsed, ReadError, Reader};
use crate::model::figures::{DirectionFigures, Latency, Samples};
use crate::model::{Direction, Os, Row, os};
use crate::units::grammar::{self, KbBase};

/// Reader of fio's terse (semicolon) output.
pub struct TerseReader;

const FORMAT: &str = "terse";

impl Reader for TerseReader {
    fn name(&self) -> &'static str {
        FORMAT
    }

    fn sniff(&self, text: &str) -> bool {
        text.lines().any(|l| terse_version(l).is_some())
    }

    fn read_segment(&self, text: &str) -> Result<Parsed, ReadError> {
        read_in_parts(text, PART)
    }
}

/// [`TerseReader::read_segment`], the text read in parts of about `part`
/// bytes.
fn read_in_parts(text: &str, part: usize) -> Result<Parsed, ReadError> {
    // Lines are read on every core, a part of the text at a time, and
    // taken in order.
    let mut jobs: Vec<Line> = Vec::new();
    let mut errors = Vec::new();
    let parts = line_parts(text, part);
    let read: Vec<PartLines> = match parts.len() {
        1 => vec![read_lines(text)],
        _ => parts.par_iter().map(|p| read_lines(p)).collect(),
    };
    let mut before = 0;
    for part in read {
        jobs.extend(part.jobs);
        errors.extend(
            part.errors
                .into_iter()
                .map(|(n, reason)| format!("line {}: {reason}", before + n + 1)),
        );
        before += part.lines;
    }
    let (rows, mut warnings) = rows_of(jobs);
    if rows.is_empty() {
        return Err(match errors.into_iter().next() {
            Some(reason) => ReadError::Malformed {
                format: FORMAT,
                reason,
            },
            None if !warnings.is_empty() => ReadError::Malformed {
                format: FORMAT,
                reason: warnings.join("; "),
            },
            None => ReadError::NoRows,
        });
    }
    warnings.extend(errors.into_iter().map(|e| format!("{e}; line not read")));
    Ok(Parsed {
        rows,
        warnings,
        run: None,
    })
}

/// Every job's rows and warnings, in the jobs' order.
fn rows_of(jobs: Vec<Line>) -> (Vec<Row>, Vec<String>) {
    // The same job name on several lines of a group: clones of one
    // numjobs job, each reported alone. Counted in one pass (a file of
    // 189k lines is read at the speed of one of 10).
    let mut clones: HashMap<(&str, &str), usize> = HashMap::with_capacity(jobs.len());
    for job in &jobs {
        *clones.entry((&job.name, &job.groupid)).or_default() += 1;
    }
    let mut seen: HashSet<(&str, &str)> = HashSet::with_capacity(clones.len());
    let counted: Vec<(usize, bool)> = jobs
        .iter()
        .map(|job| {
            let key = (job.name.as_str(), job.groupid.as_str());
            (clones[&key], seen.insert(key))
        })
        .collect();
    drop((clones, seen));
    // Each job's rows moved out of its line (a row is a kilobyte), made
    // on every core, taken in order.
    let mut warnings = Vec::new();
    let mut rows = Vec::with_capacity(jobs.len());
    let make = |(job, (clones, first)): (Line, (usize, bool))| {
        let (mut r, mut w) = (Vec::new(), Vec::new());
        job_rows(job, clones, first, &mut r, &mut w);
        (r, w)
    };
    let taken: Result<(), std::convert::Infallible> =
        super::in_order_on_cores(jobs.into_iter().zip(counted), make, |(r, w)| {
            rows.extend(r);
            warnings.extend(w);
            Ok(())
        });
    let Ok(()) = taken;
    (rows, warnings)
}

/// Texts this large are cut into parts (at line ends) read on every core.
const PART: usize = 4 << 20;

/// `text` cut after line ends into parts of about `part` bytes: each
/// part's `lines()` are the text's, in order.
fn line_parts(text: &str, part: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    while text.len() - start > 2 * part {
        let Some(i) = memchr::memchr(b'\n', &text.as_bytes()[start + part..]) else {
            break;
        };
        let cut = start + part + i + 1;
        out.push(&text[start..cut]);
        start = cut;
    }
    out.push(&text[start..]);
    out
}

/// What the terse lines of one part gave.
struct PartLines {
    jobs: Vec<Line>,
    /// Lines not read: their number in the part (from 0) and why.
    errors: Vec<(usize, LineError)>,
    /// Lines in the part, every kind.
    lines: usize,
}

fn read_lines(text: &str) -> PartLines {
    let mut out = PartLines {
        jobs: Vec::new(),
        errors: Vec::new(),
        lines: 0,
    };
    // One list of fields for every line, not an allocation per line.
    let mut fields: Vec<&str> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        out.lines = n + 1;
        let line = line.trim_end_matches('\r');
        let Some(ver) = terse_version(line) else {
            continue;
        };
        fields.clear();
        fields.extend(line.split(';'));
        match read_line(ver, &fields) {
            Ok(l) => out.jobs.push(l),
            Err(reason) => out.errors.push((n, reason)),
        }
    }
    out
}

/// The terse version of a line that is a terse job line (`3;fio-3.33;...`).
pub(crate) fn terse_version(line: &str) -> Option<u32> {
    let (v, rest) = line.split_once(';')?;
    let v: u32 = v.parse().ok()?;
    match v {
        2 => (rest.matches(';').count() > 40).then_some(2),
        3..=5 => (rest.starts_with("fio-") && rest.matches(';').count() > 40).then_some(v),
        _ => None,
    }
}

/// Fields of one direction block.
fn ddir_fields(ver: u32) -> usize {
    if ver == 5 { 47 } else { 41 }
}

/// Fields after the direction blocks that every line has: CPU (5), I/O
/// depths (7), usec latencies (10), msec latencies (12).
const TAIL_FIELDS: usize = 34;

/// One job line, before the workload is guessed.
struct Line {
    name: String,
    groupid: String,
    error: i64,
    /// Rows of the directions that did I/O, measurements filled in.
    rows: Vec<Row>,
    /// Share of I/Os submitted at each of [`depth::BUCKETS`], percent.
    depths: [f64; 7],
    /// `unified_rw_reporting=both`: a summed block follows the others.
    mixed_too: bool,
}

/// Why a terse line is not read. Fields are counted from 1, as in fio's
/// HOWTO.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum LineError {
    #[error("ends before field {field} ({what})")]
    EndsBefore { field: usize, what: &'static str },
    #[error("field {field} ({what}) is `{text}`, not a number")]
    NotANumber {
        field: usize,
        what: &'static str,
        text: String,
    },
    #[error("field {field} ({what}) is {text}")]
    OutOfRange {
        field: usize,
        what: &'static str,
        text: String,
    },
    #[error("no job name")]
    NoJobName,
    #[error("no group id")]
    NoGroupId,
    #[error("no error field")]
    NoErrorField,
    #[error("ends before the CPU fields")]
    EndsBeforeCpu,
    #[error("no CPU field where one is due")]
    NoCpuField,
    #[error(
        "job {0}: only unified_rw_reporting `mixed` figures; rerun with unified_rw_reporting=0 for per-direction rows"
    )]
    OnlyMixed(String),
    #[error("{blocks} direction blocks where terse v{version} has {expected}")]
    DirectionBlocks {
        blocks: usize,
        version: u32,
        expected: usize,
    },
    #[error("ends inside the CPU and latency distribution fields")]
    EndsInsideTail,
    #[error("ends inside the percentiles")]
    EndsInsidePercentiles,
    #[error("percentile field `{0}`")]
    Percentile(String),
}

fn num(fields: &[&str], i: usize, what: &'static str) -> Result<f64, LineError> {
    let field = i + 1;
    let s = fields.get(i).ok_or(LineError::EndsBefore { field, what })?;
    let v: f64 = s
        .trim()
        .trim_end_matches('%')
        .parse()
        .map_err(|_| LineError::NotANumber {
            field,
            what,
            text: s.to_string(),
        })?;
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(LineError::OutOfRange {
            field,
            what,
            text: s.to_string(),
        })
    }
}

/// How many direction blocks of `ver`'s width the line holds from
/// `start`, up to the first CPU field (`1.400000%`: a block starts with
/// an integer, never with `%`), and whether the last is fio's mixed
/// block (`unified_rw_reporting=both`). A line of the mixed block alone,
/// or of another count, cannot be read per direction.
fn direction_blocks(
    ver: u32,
    f: &[&str],
    start: usize,
    dirs: usize,
    name: &str,
) -> Result<(usize, bool), LineError> {
    let width = ddir_fields(ver);
    let mut blocks = 0;
    while !f
        .get(start + blocks * width)
        .ok_or(LineError::EndsBeforeCpu)?
        .ends_with('%')
    {
        blocks += 1;
        if blocks > dirs + 1 {
            return Err(LineError::NoCpuField);
        }
    }
    match blocks {
        b if b == dirs => Ok((b, false)),
        b if b == dirs + 1 => Ok((b, true)),
        1 => Err(LineError::OnlyMixed(name.to_string())),
        b => Err(LineError::DirectionBlocks {
            blocks: b,
            version: ver,
            expected: dirs,
        }),
    }
}

fn read_line(ver: u32, f: &[&str]) -> Result<Line, LineError> {
    let (version, base) = if ver == 2 {
        (String::new(), 1)
    } else {
        (f.get(1).map(|s| s.to_string()).unwrap_or_default(), 2)
    };
    let name = f.get(base).ok_or(LineError::NoJobName)?.to_string();
    let groupid = f.get(base + 1).ok_or(LineError::NoGroupId)?;
    let groupid = groupid.trim().to_string();
    let error = f
        .get(base + 2)
        .and_then(|e| e.trim().parse::<i64>().ok())
        .ok_or(LineError::NoErrorField)?;
    let start = base + 3;
    let dirs: &[Direction] = if ver == 3 {
        &[Direction::Read, Direction::Write]
    } else {
        &[Direction::Read, Direction::Write, Direction::Trim]
    };
    let width = ddir_fields(ver);
    let (blocks, mixed_too) = direction_blocks(ver, f, start, dirs.len(), &name)?;
    let cpu = start + blocks * width;
    if f.len() < cpu + TAIL_FIELDS {
        return Err(LineError::EndsInsideTail);
    }
    let usr = num(f, cpu, "cpu user")?;
    let sys = num(f, cpu + 1, "cpu system")?;
    let mut depths = [0.0; 7];
    for (k, d) in depths.iter_mut().enumerate() {
        *d = num(f, cpu + 5 + k, "I/O depth share")?;
    }
    // A disk-util entry (name, 8 counters, `util%`): only fio's Linux
    // build measures disk utilization.
    let du = cpu + TAIL_FIELDS;
    let disk_util = ver >= 3
        && f.get(du)
            .is_some_and(|n| n.parse::<f64>().is_err() && !n.is_empty())
        && f.get(du + 8).is_some_and(|u| u.ends_with('%'));
    let mut rows = Vec::new();
    for (k, &dir) in dirs.iter().enumerate() {
        let o = start + k * width;
        let io_kib = num(f, o, "io KiB")?;
        let runtime = num(f, o + 3, "runtime")?;
        if io_kib == 0.0 || runtime == 0.0 {
            continue;
        }
        let mut r = ddir_row(ver, f, o, dir)?;
        r.fio_version = version.clone();
        r.job = name.clone();
        r.error = error;
        r.usr_cpu_pct = usr;
        r.sys_cpu_pct = sys;
        // Terse names no engine and no target: disk statistics, which
        // fio prints on Linux only, are the one hint.
        r.os = os::infer(&r.engine, None, disk_util.then_some(Os::Linux));
        rows.push(r);
    }
    Ok(Line {
        name,
        groupid,
        error,
        rows,
        depths,
        mixed_too,
    })
}

/// A `99.000000%=272` field: (percent, usec).
fn percentile(s: &str) -> Result<(f64, f64), LineError> {
    let bad = || LineError::Percentile(s.to_string());
    let (p, v) = s.split_once("%=").ok_or_else(bad)?;
    match (p.parse::<f64>(), v.parse::<f64>()) {
        (Ok(p), Ok(v)) if v.is_finite() && v >= 0.0 => Ok((p, v)),
        _ => Err(bad()),
    }
}

/// The measurements of the direction block at `o`.
fn ddir_row(ver: u32, f: &[&str], o: usize, dir: Direction) -> Result<Row, LineError> {
    let mut r = Row::empty("", dir);
    r.format = FORMAT.into();
    r.engine = "unknown".into();
    figures(ver, f, o)?.apply(&mut r);
    Ok(r)
}

/// One direction block's figures: sizes in KiB, latencies in usec.
fn figures(ver: u32, f: &[&str], o: usize) -> Result<DirectionFigures, LineError> {
    // min, max, mean, stdev in usec; fio prints zeros for a latency it did
    // not measure (slat of a sync engine): that is "not reported".
    let lat = |at: usize, what: &'static str| -> Result<Latency, LineError> {
        let mut v = [0.0; 4];
        for (k, x) in v.iter_mut().enumerate() {
            *x = num(f, o + at + k, what)? * 1000.0;
        }
        let [min, max, mean, stddev] = v.map(Some);
        let reported = v[1] > 0.0 || v[2] > 0.0;
        Ok(match reported {
            true => Latency {
                mean,
                stddev,
                min,
                max,
            },
            false => Latency::default(),
        })
    };
    // Read in the line's order, so a broken line names its first bad field.
    let io_bytes = (num(f, o, "io KiB")? * 1024.0) as u64;
    let bw_bytes_per_s = num(f, o + 1, "bw KiB/s")? * 1024.0;
    let iops = num(f, o + 2, "iops")?;
    let runtime_ms = num(f, o + 3, "runtime")?;
    let slat = lat(4, "slat")?;
    let clat = lat(8, "clat")?;
    let mut clat_percentiles = Vec::new();
    for slot in 0..20 {
        let s = f.get(o + 12 + slot);
        let (p, v) = percentile(s.ok_or(LineError::EndsInsidePercentiles)?)?;
        clat_percentiles.push((p, v * 1000.0));
    }
    let mut fig = DirectionFigures {
        io_bytes,
        bw_bytes_per_s,
        // Both printed as truncated integers (KiB/s, I/Os per second).
        bw_precision: 1024.0,
        iops,
        runtime_ms,
        slat,
        clat,
        clat_percentiles,
        lat: lat(32, "lat")?,
        // Means are printed `%f` in usec: six decimals.
        lat_precision_ns: 0.001,
        ..DirectionFigures::default()
    };
    let bw_mean = num(f, o + 39, "bw mean")?;
    let bw_stddev = num(f, o + 40, "bw stdev")?;
    let bw_count = if ver == 5 {
        Some(num(f, o + 41, "bw samples")? as u64)
    } else {
        None
    };
    if bw_count.map_or(bw_mean > 0.0, |n| n > 0) {
        fig.bw_samples = Samples {
            n: bw_count,
            mean: Some(bw_mean * 1024.0),
            stddev: Some(bw_stddev * 1024.0),
        };
    }
    if ver == 5 {
        let n = num(f, o + 46, "iops samples")? as u64;
        let mean = num(f, o + 44, "iops mean")?;
        let stddev = num(f, o + 45, "iops stdev")?;
        if n > 0 {
            fig.iops_samples = Samples {
                n: Some(n),
                mean: Some(mean),
                stddev: Some(stddev),
            };
        }
    }
    Ok(fig)
}

/// The directions an `rw` value can do I/O in (none for an unknown one).
fn rw_directions(rw: &str) -> &'static [Direction] {
    crate::model::Rw::parse(rw).map_or(&[], crate::model::Rw::directions)
}

/// The block size a row's mean I/O size stands for (a common size when
/// near one, else to the sector), when the line gives enough to count its
/// I/Os (iops is truncated to an integer).
fn mean_io_size(r: &Row) -> Option<u64> {
    let ios = r.iops * r.runtime_ms / 1000.0;
    (ios >= 1.0)
        .then(|| block_size_from_mean(r.io_bytes as f64 / ios))
        .flatten()
        .map(|(bs, _)| bs)
}

/// Fills in the workload of a line's rows (the guesses) and pushes them.
fn job_rows(
    job: Line,
    clones: usize,
    first_clone: bool,
    rows: &mut Vec<Row>,
    warnings: &mut Vec<String>,
) {
    let name = &job.name;
    // Clones share one warning.
    let mut say = |w: String| {
        if first_clone {
            warnings.push(w);
        }
    };
    if job.rows.is_empty() {
        if job.error != 0 {
            say(format!(
                "job `{name}` failed with error {} and did no I/O",
                job.error
            ));
        } else {
            say(format!("job `{name}` did no I/O; no row"));
        }
        return;
    }
    if job.error != 0 {
        say(format!(
            "job `{name}` reported error {}; its rows are kept but left out of winners",
            job.error
        ));
    }
    if job.mixed_too {
        say(format!(
            "job `{name}`: unified_rw_reporting `mixed` figures not read (the read/write rows are)"
        ));
    }
    let guess = guess_from_name(name);
    let mut notes = Vec::new();
    let rw = rw_of(&job, &guess, &mut notes);
    let bs_by_dir = block_sizes(&job, &guess, &mut notes);
    let iodepth = iodepth_of(&job, &guess, &mut notes);
    let numjobs = match (clones, guess.numjobs) {
        (1, Some(n)) => {
            notes.push(format!("numjobs={n} from the job name"));
            n
        }
        (n, _) => {
            notes.push(format!("numjobs={n} from the lines of this job"));
            n as u32
        }
    };
    say(format!(
        "job `{name}`: terse output names no job options: {}; engine unknown",
        notes.join(", ")
    ));
    let depths = job.depths;
    for (mut r, bs) in job.rows.into_iter().zip(bs_by_dir) {
        r.rw = rw.clone();
        r.bs_bytes = bs;
        r.iodepth = iodepth;
        r.numjobs = numjobs;
        r.effective_iodepth = depth::effective(&r.engine, iodepth, Some(&depths));
        rows.push(r);
    }
}

/// Terse names no options: rw from the job name when it fits the
/// directions that did I/O, else from those directions.
fn rw_of(job: &Line, guess: &NameGuess, notes: &mut Vec<String>) -> String {
    let did: Vec<Direction> = job.rows.iter().map(|r| r.direction).collect();
    match guess.rw {
        Some(rw) if did.iter().all(|d| rw_directions(rw).contains(d)) => {
            notes.push(format!("rw={rw} from the job name"));
            rw.to_string()
        }
        named => {
            let rw = if did.len() == 1 {
                did[0].as_str()
            } else {
                "rw"
            };
            notes.push(match named {
                Some(n) => format!(
                    "rw={rw} from the directions that did I/O (the name says {n}, which does not fit)"
                ),
                None => format!(
                    "rw={rw} from the directions that did I/O (random or sequential unknown)"
                ),
            });
            rw.to_string()
        }
    }
}

/// Each direction's block size: the name's when the mean I/O size agrees
/// with it (the measured size is rounded from truncated KiB and iops),
/// else the measured one. Said once when all directions agree.
fn block_sizes(job: &Line, guess: &NameGuess, notes: &mut Vec<String>) -> Vec<u64> {
    let named_bs = guess
        .bs
        .as_deref()
        .and_then(|b| grammar::size(b, KbBase::default()).ok());
    let mut sizes = Vec::new();
    let mut bs_notes: Vec<(Direction, String)> = Vec::new();
    for r in &job.rows {
        let (bs, note) = match (named_bs, mean_io_size(r)) {
            (Some(n), Some(m)) if (m as f64 - n as f64).abs() <= 0.05 * n as f64 => {
                (n, format!("bs={n} from the job name"))
            }
            (Some(n), None) => (n, format!("bs={n} from the job name")),
            (Some(n), Some(m)) => (
                m,
                format!("bs={m} from the mean I/O size (the name says {n})"),
            ),
            (None, Some(m)) => (m, format!("bs={m} from the mean I/O size")),
            (None, None) => (0, "bs unknown (too few I/Os to tell)".to_string()),
        };
        sizes.push(bs);
        bs_notes.push((r.direction, note));
    }
    if bs_notes.iter().all(|(_, n)| *n == bs_notes[0].1) {
        notes.push(bs_notes[0].1.clone());
    } else {
        notes.extend(bs_notes.iter().map(|(d, n)| format!("{d} {n}")));
    }
    sizes
}

/// The name's iodepth, else the depth bucket most I/Os were submitted at
/// (a power of two at or below the real iodepth).
fn iodepth_of(job: &Line, guess: &NameGuess, notes: &mut Vec<String>) -> u32 {
    if let Some(d) = guess.iodepth {
        notes.push(format!("iodepth={d} from the job name"));
        return d;
    }
    let (k, _) =
        job.depths.iter().enumerate().fold(
            (0, -1.0),
            |best, (k, &v)| if v > best.1 { (k, v) } else { best },
        );
    let d = depth::BUCKETS[k];
    notes.push(format!("iodepth={d} from fio's I/O depth distribution"));
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every terse fixture read in parts of a line or two gives what one
    /// pass gives, line numbers of errors included.
    #[test]
    fn reading_in_parts_is_reading_in_one_pass() {
        let mut texts = 0;
        for (path, text) in crate::ingest::fio::fixture_texts() {
            if !TerseReader.sniff(&text) {
                continue;
            }
            let whole = format!("{:?}", read_in_parts(&text, usize::MAX / 4));
            for part in [1, 40, 700] {
                let got = format!("{:?}", read_in_parts(&text, part));
                assert_eq!(whole, got, "{} in parts of {part}", path.display());
            }
            texts += 1;
        }
        assert!(texts > 3, "only {texts} terse fixtures");
        // An unreadable line in a later part is named by its line in the text.
        let good = fixture("fio/linux-libaio/randread-4k.terse.txt");
        let line = good.lines().find(|l| terse_version(l).is_some()).unwrap();
        let mut fields: Vec<&str> = line.split(';').collect();
        fields[7] = "not-a-number";
        let text = format!("{good}\n{good}\n{}\n", fields.join(";"));
        let got = read_in_parts(&text, 1).unwrap();
        let whole = read_in_parts(&text, usize::MAX / 4).unwrap();
        assert_eq!(got.warnings, whole.warnings);
        assert!(
            got.warnings.iter().any(|w| w.starts_with("line ")),
            "{:?}",
            got.warnings
        );
    }

    /// Parts cut at line ends hold the text's lines, in order, each once,
    /// so the line numbers of errors counted part by part are the text's.
    #[test]
    fn parts_hold_the_lines_of_the_text() {
        let text = "3;a;b\r\n\n3;c\nxx\n\n\nlast without end";
        let whole: Vec<&str> = text.lines().collect();
        for part in 1..text.len() {
            let parts = line_parts(text, part);
            assert_eq!(parts.concat(), text);
            let lines: Vec<&str> = parts.iter().flat_map(|p| p.lines()).collect();
            assert_eq!(lines, whole, "parts of {part}: {parts:?}");
        }
    }

    fn fixture(rel: &str) -> String {
        let path = format!("{}/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    #[test]
    fn real_terse_v3_line() {
        let text = fixture("fio/linux-libaio/randread-4k.terse.txt");
        let f: Vec<&str> = text.trim_end().split(';').collect();
        let p = TerseReader.read(&text).unwrap();
        assert_eq!(p.rows.len(), 1);
        let r = &p.rows[0];
        // Checked against the line's own fields (HOWTO positions, v3).
        assert_eq!(r.fio_version, f[1]);
        assert_eq!(r.job, f[2]);
        assert_eq!(r.io_bytes, f[5].parse::<u64>().unwrap() * 1024);
        assert_eq!(r.bw_bytes_per_s, f[6].parse::<f64>().unwrap() * 1024.0);
        assert_eq!(r.iops, f[7].parse::<f64>().unwrap());
        assert_eq!(r.runtime_ms, f[8].parse::<f64>().unwrap());
        assert_eq!(
            r.lat_mean_ns,
            Some(f[5 + 34].parse::<f64>().unwrap() * 1000.0)
        );
        assert_eq!(
            r.clat_mean_ns,
            Some(f[5 + 10].parse::<f64>().unwrap() * 1000.0)
        );
        assert_eq!(
            r.bw_sample_mean,
            Some(f[5 + 39].parse::<f64>().unwrap() * 1024.0)
        );
        let p50 = f.iter().find(|s| s.starts_with("50.000000%=")).unwrap();
        assert_eq!(
            r.clat_p50_ns,
            Some(p50[11..].parse::<f64>().unwrap() * 1000.0)
        );
        let cpu = 5 + 2 * 41;
        assert_eq!(
            r.usr_cpu_pct,
            f[cpu].trim_end_matches('%').parse::<f64>().unwrap()
        );
        // rw, bs and iodepth from the name `randread-4k-qd32`, which the
        // line agrees with (only reads, 4 KiB mean I/O size).
        assert_eq!(
            (r.rw.as_str(), r.direction, r.bs_bytes, r.iodepth),
            ("randread", Direction::Read, 4096, 32)
        );
        assert_eq!((r.engine.as_str(), r.os.as_str()), ("unknown", "linux"));
        assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
        assert!(p.warnings[0].contains("rw=randread from the job name"));
    }

    /// Start of the direction blocks and their width, from fio's
    /// `show_thread_status_terse_all`, independent of the reader's code.
    fn layout(ver: u32) -> (usize, usize, usize) {
        let (start, width) = match ver {
            2 => (4, 41),
            5 => (5, 47),
            _ => (5, 41),
        };
        let blocks = if ver == 3 { 2 } else { 3 };
        (start, width, start + blocks * width)
    }

    #[test]
    fn every_terse_version_reads() {
        for ver in 2..=5 {
            let text = fixture(&format!("fio/linux-terse/randrw-4k-v{ver}.terse.txt"));
            let f: Vec<&str> = text.trim_end().split(';').collect();
            assert_eq!(f[0], ver.to_string());
            let p = TerseReader
                .read(&text)
                .unwrap_or_else(|e| panic!("v{ver}: {e}"));
            let dirs: Vec<Direction> = p.rows.iter().map(|r| r.direction).collect();
            assert_eq!(dirs, [Direction::Read, Direction::Write], "v{ver}");
            let (start, width, cpu) = layout(ver);
            for (k, r) in p.rows.iter().enumerate() {
                let o = start + k * width;
                let n = |i: usize| f[i].trim_end_matches('%').parse::<f64>().unwrap();
                assert_eq!(r.io_bytes as f64, n(o) * 1024.0, "v{ver} {k}");
                assert_eq!(r.bw_bytes_per_s, n(o + 1) * 1024.0);
                assert_eq!(r.iops, n(o + 2));
                assert_eq!(r.runtime_ms, n(o + 3));
                assert_eq!(r.clat_mean_ns, Some(n(o + 10) * 1000.0));
                assert_eq!(r.lat_max_ns, Some(n(o + 33) * 1000.0));
                assert_eq!(r.lat_mean_ns, Some(n(o + 34) * 1000.0));
                // psync: no submission latency, printed as zeros.
                assert_eq!(r.slat_mean_ns, None);
                assert!(r.clat_p99_ns.is_some() && r.clat_p50_ns <= r.clat_p99_ns);
                assert_eq!(r.usr_cpu_pct, n(cpu));
                assert_eq!(r.sys_cpu_pct, n(cpu + 1));
                if ver == 5 {
                    assert_eq!(r.bw_samples, Some(n(o + 41) as u64));
                    assert_eq!(r.iops_samples, Some(n(o + 46) as u64));
                    assert_eq!(r.iops_sample_mean, Some(n(o + 44)));
                } else {
                    assert_eq!(r.iops_samples, None);
                }
                assert_eq!(
                    (r.rw.as_str(), r.bs_bytes, r.iodepth, r.numjobs),
                    ("randrw", 4096, 1, 1),
                    "v{ver}"
                );
                assert_eq!(r.job, "randrw-4k-qd1");
                assert_eq!(r.fio_version, if ver == 2 { "" } else { "fio-3.33" });
                // Disk util (Linux only) is printed from v3 on.
                assert_eq!(r.os.as_str(), if ver == 2 { "unknown" } else { "linux" });
            }
        }
    }

    #[test]
    fn clones_mixed_block_and_anonymous_names() {
        let p = TerseReader
            .read(&fixture("fio/linux-terse/randread-4k-nj2.terse.txt"))
            .unwrap();
        assert_eq!(p.rows.len(), 2);
        assert!(p.rows.iter().all(|r| r.numjobs == 2 && r.rw == "randread"));
        assert_eq!(p.warnings.len(), 1, "one warning for both clones");

        let p = TerseReader
            .read(&fixture("fio/linux-terse/randrw-4k-both.terse.txt"))
            .unwrap();
        let dirs: Vec<_> = p.rows.iter().map(|r| r.direction).collect();
        assert_eq!(dirs, [Direction::Read, Direction::Write]);
        assert!(
            p.warnings
                .iter()
                .any(|w| w.contains("`mixed` figures not read"))
        );

        let text = fixture("fio/linux-terse/noname-desc.terse.txt");
        assert!(text.trim_end().ends_with(";sequential 128k"));
        let p = TerseReader.read(&text).unwrap();
        let r = &p.rows[0];
        assert_eq!((r.rw.as_str(), r.bs_bytes, r.iodepth), ("read", 131072, 1));
        let w = &p.warnings[0];
        assert!(w.contains("random or sequential unknown"), "{w}");
        assert!(w.contains("bs=131072 from the mean I/O size"), "{w}");
        assert!(
            w.contains("iodepth=1 from fio's I/O depth distribution"),
            "{w}"
        );

        let e = TerseReader
            .read(&fixture("bad/terse-mixed-only.txt"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("only unified_rw_reporting `mixed`"), "{e}");
    }

    #[test]
    fn failed_job_and_bad_line_leave_the_others() {
        let text = fixture("fio/linux-terse/error-trim.terse.txt");
        let p = TerseReader.read(&text).unwrap();
        assert_eq!(p.rows.len(), 1);
        assert_eq!(p.rows[0].job, "randread-ok");
        assert!(
            p.warnings
                .iter()
                .any(|w| w.contains("randtrim-fails` failed with error 25")),
            "{:?}",
            p.warnings
        );

        // A second line with a NaN iops: its job is named, the first kept.
        let line = fixture("fio/linux-terse/randrw-4k-v3.terse.txt");
        let mut g: Vec<&str> = line.trim_end().split(';').collect();
        g[2] = "other";
        g[7] = "-nan";
        let text = format!("{}\n{}\n", line.trim_end(), g.join(";"));
        let p = TerseReader.read(&text).unwrap();
        assert_eq!(p.rows.len(), 2);
        assert!(p.rows.iter().all(|r| r.job == "randrw-4k-qd1"));
        let w = p
            .warnings
            .iter()
            .find(|w| w.starts_with("line 2:"))
            .unwrap();
        assert!(
            w.contains("iops") && w.contains("-nan") && w.contains("not read"),
            "{w}"
        );
    }

    #[test]
    fn name_that_contradicts_the_line_is_not_used() {
        let line = fixture("fio/linux-terse/randrw-4k-v3.terse.txt");
        let text = line.replacen("randrw-4k-qd1", "randwrite-64k", 1);
        let p = TerseReader.read(&text).unwrap();
        let r = &p.rows[0];
        assert_eq!((r.rw.as_str(), r.bs_bytes), ("rw", 4096));
        assert!(p.warnings[0].contains("the name says randwrite, which does not fit"));
        assert!(p.warnings[0].contains("bs=4096 from the mean I/O size (the name says 65536)"));
    }

    proptest::proptest! {
        /// Real terse lines with fields replaced or dropped: an answer, never
        /// a panic.
        #[test]
        fn mutated_terse_never_panics(
            edits in proptest::collection::vec((0usize..140, "[0-9a-z%=.;-]{0,6}"), 0..8),
            cut in 0usize..140,
        ) {
            let text = fixture("fio/linux-libaio/randread-4k.terse.txt");
            let mut f: Vec<String> = text.trim_end().split(';').map(str::to_string).collect();
            for (i, v) in edits {
                if let Some(slot) = f.get_mut(i) {
                    *slot = v;
                }
            }
            f.truncate(cut.max(3));
            let _ = TerseReader.read(&f.join(";"));
        }
    }

    #[test]
    fn bad_terse_is_malformed_not_a_panic() {
        let text = fixture("fio/linux-libaio/randread-4k.terse.txt");
        let cut = &text[..text.len() / 2];
        assert!(TerseReader.sniff(cut));
        assert!(matches!(
            TerseReader.read(cut),
            Err(ReadError::Malformed { .. })
        ));
        let mut g: Vec<&str> = text.split(';').collect();
        g[7] = "NaN";
        let e = TerseReader.read(&g.join(";")).unwrap_err().to_string();
        assert!(e.contains("iops") && e.contains("NaN"), "{e}");
        assert!(!TerseReader.sniff("a;b;c\n"));
        for i in (0..text.len()).step_by(13) {
            let _ = TerseReader.read(&text[..i]);
        }
    }

    #[test]
    fn bad_lines_fail_for_typed_reasons() {
        let text = fixture("fio/linux-libaio/randread-4k.terse.txt");
        let f: Vec<&str> = text.trim_end().split(';').collect();
        let cut = &f[..f.len() - 40];
        assert_eq!(read_line(3, cut).err(), Some(LineError::EndsInsideTail));
        let mut bad = f.clone();
        bad[5] = "lots";
        let e = read_line(3, &bad).err().unwrap();
        assert!(
            matches!(
                e,
                LineError::NotANumber {
                    field: 6,
                    what: "io KiB",
                    ..
                }
            ),
            "{e:?}"
        );
        assert_eq!(e.to_string(), "field 6 (io KiB) is `lots`, not a number");
    }
}
