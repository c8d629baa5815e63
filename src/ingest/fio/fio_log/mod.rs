//! fio's log files (`write_bw_log`, `write_iops_log`, `write_lat_log`,
//! `write_hist_log`; HOWTO "Log File Formats", iolog.c `flush_samples`):
//! one file in, [`SeriesRow`]s in SI base units out, streamed in blocks so
//! a log of millions of lines is never held whole.
//!
//! Units, from fio's `stat.c`: averaged bw rows (`log_avg_msec`) are KiB/s
//! (`delta * 1000 / spent / 1024`); per-I/O bw rows are bytes per ms, i.e.
//! 1000 B/s (`bytes * 1000000 / nsec`); per-I/O iops rows are 1 per I/O;
//! latencies are ns in fio 3.x and us in 2.x. Averaged rows carry bs and
//! offset 0, which is how a log without its result file shows it was
//! averaged. A malformed line is a warning naming its line; the rest of
//! the file is kept.

pub mod compressed;
pub mod hist;
pub mod layout;
pub mod name;
mod parse;
mod pieces;
pub mod times;

use std::io::Read;
use std::path::Path;

use crate::timeseries::{Kind, SeriesBatch, SeriesRow};

pub use layout::{Hints, LogLayout};
pub use name::LogName;
pub(crate) use parse::{parse_i64, parse_prio, parse_u64};

/// What is known about a log before reading it (from its name and the
/// result file of its run).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogContext {
    /// Index of the log in `Logs::logs`, copied to each row.
    pub log: u32,
    pub kind: Kind,
    /// Column hints from the run's options and fio version.
    pub hints: Hints,
    /// `log_avg_msec` > 0 (bw, iops, lat logs) when the options are known.
    pub averaged: Option<bool>,
    /// `log_max_value=1` / `log_window_value=max`: the value column is the
    /// window maximum.
    pub max_only: bool,
    /// `log_unix_epoch` / `log_alternate_epoch` when the options are known.
    pub unix_epoch: Option<bool>,
    /// 1 for fio 3.x latencies (ns), 1000 for fio 2.x (us).
    pub lat_unit_ns: f64,
    /// The run's runtime, ms, when its result says it: bounds the times a
    /// row may carry ([`times::bound_for_runtime`]).
    pub runtime_ms: Option<u64>,
    /// The fio version that wrote the log, when its result says it: the
    /// sample layout of a compressed log.
    pub fio_version: Option<(u32, u32)>,
}

impl LogContext {
    /// Nothing known but the kind: fio 3.x, layout from the lines.
    pub fn new(log: u32, kind: Kind) -> LogContext {
        LogContext {
            log,
            kind,
            hints: Hints::default(),
            averaged: None,
            max_only: false,
            unix_epoch: None,
            lat_unit_ns: 1.0,
            runtime_ms: None,
            fio_version: None,
        }
    }
}

/// Why a log could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Compressed(#[from] compressed::FzError),
    #[error("binary data (NUL byte at offset {0}), not a fio log")]
    Binary(usize),
    #[error("line {line}: {fields} fields fit no fio log layout")]
    NoLayout { line: usize, fields: usize },
    /// The sink (a file being written) failed.
    #[error(transparent)]
    Sink(anyhow::Error),
}

/// Why one line was not read; the line is skipped with a warning.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogLineError {
    #[error("{found} fields, expected {expected}")]
    Fields { found: usize, expected: usize },
    #[error("{column} `{text}` is not a number")]
    Number { column: &'static str, text: String },
    #[error("direction {0} is not 0 (read), 1 (write) or 2 (trim)")]
    Direction(u64),
    #[error("{0} histogram bins: no fio version writes that many")]
    Bins(usize),
}

/// How a file went.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LogStats {
    /// Non-empty lines seen.
    pub lines: u64,
    pub rows: u64,
    /// `line N: reason`, at most [`MAX_LINE_WARNINGS`] plus a count.
    pub warnings: Vec<String>,
    /// The layout found (none for histogram or empty logs).
    pub layout: Option<LogLayout>,
    /// Whether the rows were read as averaged windows.
    pub averaged: bool,
}

/// Malformed lines named one by one; past this, only counted.
pub const MAX_LINE_WARNINGS: usize = 5;

/// Bytes read per block; rows are handed to the sink once per block.
const BLOCK: usize = 4 << 20;

/// Reads the log at `path`, handing rows to `sink` a block at a time (the
/// vector is cleared after each call), with the bytes of the file that
/// block took (for a progress bar; they add up to the file's size).
pub fn read_file(
    path: &Path,
    ctx: &LogContext,
    sink: &mut dyn FnMut(&SeriesBatch, u64) -> anyhow::Result<()>,
) -> Result<LogStats, LogError> {
    let compressed = LogName::parse(&path.file_name().unwrap_or_default().to_string_lossy())
        .is_some_and(|n| n.compressed);
    let mut file = std::fs::File::open(path)?;
    if compressed {
        return read_compressed(file, ctx, sink);
    }
    // A log gzip'd (zstd, xz, bzip2) after the run, known by its bytes:
    // expanded as it is read, a block at a time, refused past the ratio
    // of a bomb (a log is streamed, never held: no cap on its size).
    let mut magic = [0u8; 10]; // bzip2 is known by its first 10 bytes
    let n = file.read(&mut magic)?;
    std::io::Seek::rewind(&mut file)?;
    if let Some(codec) = crate::ingest::compressed::Codec::of(&magic[..n]) {
        use crate::ingest::compressed as c;
        let (counted, consumed) =
            c::Counting::new(std::io::BufReader::with_capacity(256 << 10, file));
        let decoder = c::decoder(codec, counted)?;
        let mut guard = c::Guard::new(decoder, consumed, u64::MAX, codec.ratio());
        return read_text(&mut guard, ctx, sink).map_err(|e| match e {
            LogError::Io(io) => LogError::Io(std::io::Error::other(
                crate::ingest::archive::stream_error(codec, &io),
            )),
            e => e,
        });
    }
    read_text(&mut file, ctx, sink)
}

/// A text log, a block at a time.
fn read_text(
    file: &mut dyn Read,
    ctx: &LogContext,
    sink: &mut dyn FnMut(&SeriesBatch, u64) -> anyhow::Result<()>,
) -> Result<LogStats, LogError> {
    let mut parser = parse::LogParser::new(*ctx);
    let mut block = Unparsed::default();
    let mut parts = pieces::Parts::default();
    let mut eof = false;
    while !eof {
        eof = block.fill(file)?;
        // Whole lines only; the tail waits for the next block.
        let end = match (eof, memchr::memrchr(b'\n', block.bytes())) {
            (true, _) => block.bytes().len(),
            (false, Some(nl)) => nl + 1,
            (false, None) => continue,
        };
        pieces::feed(&mut parser, &block.bytes()[..end], &mut parts)?;
        hand_on(&parts, end as u64, sink)?;
        parts.clear();
        block.consume(end);
    }
    Ok(parser.finish())
}

/// Hands a block's rows to `sink` part by part, the block's `bytes` with
/// the first call (with no rows when the block gave none).
fn hand_on(
    parts: &pieces::Parts,
    bytes: u64,
    sink: &mut dyn FnMut(&SeriesBatch, u64) -> anyhow::Result<()>,
) -> Result<(), LogError> {
    let mut bytes = Some(bytes);
    for rows in parts.iter().filter(|p| !p.is_empty()) {
        sink(rows, bytes.take().unwrap_or(0)).map_err(LogError::Sink)?;
    }
    match bytes {
        Some(b) => sink(&SeriesBatch::default(), b).map_err(LogError::Sink),
        None => Ok(()),
    }
}

/// A `.log.fz`: inflated a block at a time and parsed as its text.
fn read_compressed(
    file: std::fs::File,
    ctx: &LogContext,
    sink: &mut dyn FnMut(&SeriesBatch, u64) -> anyhow::Result<()>,
) -> Result<LogStats, LogError> {
    let mut parser = parse::LogParser::new(*ctx);
    let mut parts = pieces::Parts::default();
    let mut failed: Option<LogError> = None;
    let inflated = compressed::inflate(file, ctx.fio_version, &mut |text, bytes| {
        let fed =
            pieces::feed(&mut parser, text, &mut parts).and_then(|()| hand_on(&parts, bytes, sink));
        parts.clear();
        fed.map_err(|e| {
            failed = Some(e);
            anyhow::anyhow!("stopped")
        })
    })?;
    match inflated {
        Ok(done) => {
            parser.warn(done.warning);
            Ok(parser.finish())
        }
        Err(e) => Err(failed.unwrap_or(LogError::Sink(e))),
    }
}

/// The bytes read and not yet parsed. The buffer only grows: bytes are
/// read into what is there (zeroing 4 MiB for every block read cost as
/// much as a fifth of the read itself).
#[derive(Default)]
struct Unparsed {
    buf: Vec<u8>,
    len: usize,
}

impl Unparsed {
    /// Reads until a block is held or the file ends; true at the end.
    fn fill(&mut self, file: &mut dyn Read) -> std::io::Result<bool> {
        let target = self.len + BLOCK;
        if self.buf.len() < target {
            self.buf.resize(target, 0);
        }
        while self.len < target {
            match file.read(&mut self.buf[self.len..target]) {
                Ok(0) => return Ok(true),
                Ok(n) => self.len += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(false)
    }

    fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// Drops the first `n` bytes (parsed), keeping the rest.
    fn consume(&mut self, n: usize) {
        self.buf.copy_within(n..self.len, 0);
        self.len -= n;
    }
}

/// Reads a whole log from memory (tests, small inputs).
pub fn read_bytes(bytes: &[u8], ctx: &LogContext) -> Result<(Vec<SeriesRow>, LogStats), LogError> {
    let mut parser = parse::LogParser::new(*ctx);
    let mut parts = pieces::Parts::default();
    pieces::feed(&mut parser, bytes, &mut parts)?;
    Ok((parts.into_rows(), parser.finish()))
}

#[cfg(test)]
mod tests;
