//! Lines to rows: the hot loop of the log reader. No allocation per line:
//! fields are slices of the block, numbers are parsed from bytes.

use super::hist::{BinLayout, PERCENTILES};
use super::times::TimeCheck;
use super::{LogContext, LogError, LogLayout, LogLineError, LogStats, MAX_LINE_WARNINGS};
use crate::model::Direction;
use crate::timeseries::{Has, Kind, SeriesBatch, SeriesRow};

/// Lines looked at to decide the layout, averaging and time base.
const SAMPLE_LINES: usize = 64;
/// A log time above this many ms (3 years of runtime) is a Unix time.
const EPOCH_MS: u64 = 100_000_000_000;
/// Most fields a bw/iops/lat line has (all optional columns).
const MAX_FIELDS: usize = 8;

/// A priority field: `0x6003` with `log_prio=1`, else 0/1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Prio {
    pub value: u32,
    pub is_hex: bool,
}

fn trim(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t' | b'\r', rest @ ..] = s {
        s = rest;
    }
    while let [rest @ .., b' ' | b'\t' | b'\r'] = s {
        s = rest;
    }
    s
}

/// A decimal integer, blanks around it allowed.
pub(crate) fn parse_u64(s: &[u8]) -> Option<u64> {
    let s = trim(s);
    if s.is_empty() || s.len() > 20 {
        return None;
    }
    s.iter().try_fold(0u64, |acc, &b| {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        acc.checked_mul(10)?.checked_add(u64::from(d))
    })
}

/// fio prints values with `PRId64`: a sign is possible.
pub(crate) fn parse_i64(s: &[u8]) -> Option<i64> {
    let s = trim(s);
    match s.strip_prefix(b"-") {
        Some(digits) => parse_u64(digits).and_then(|v| 0i64.checked_sub_unsigned(v)),
        None => parse_u64(s).and_then(|v| i64::try_from(v).ok()),
    }
}

pub(crate) fn parse_prio(s: &[u8]) -> Option<Prio> {
    let s = trim(s);
    if let Some(hex) = s.strip_prefix(b"0x").or_else(|| s.strip_prefix(b"0X")) {
        let text = std::str::from_utf8(hex).ok()?;
        let value = u32::from_str_radix(text, 16).ok()?;
        return Some(Prio {
            value,
            is_hex: true,
        });
    }
    let value = u32::try_from(parse_u64(s)?).ok()?;
    Some(Prio {
        value,
        is_hex: false,
    })
}

/// The fields of a line as fio writes them (`%lu, %ld, %u, ...`: plain
/// decimals of at most 19 digits, each but the last followed by `,` and
/// at most one space; a final `\r` allowed), into `out`; their count, or
/// None for anything else (a sign, a hex priority, other blanks, an empty
/// field, more than [`MAX_FIELDS`], 20 digits), which the field-by-field
/// path then reads. The common per-I/O line, millions of them: no overflow
/// check per digit (19 digits cannot overflow) and no jump per separator.
#[inline]
fn plain_fields(line: &[u8], out: &mut [u64; MAX_FIELDS]) -> Option<usize> {
    let (mut n, mut i, len) = (0, 0, line.len());
    loop {
        let start = i;
        let mut v: u64 = 0;
        while i < len {
            let d = line[i].wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            v = v.wrapping_mul(10).wrapping_add(u64::from(d));
            i += 1;
        }
        if i == start || i - start > 19 || n == MAX_FIELDS {
            return None;
        }
        out[n] = v;
        n += 1;
        if i == len || (i + 1 == len && line[i] == b'\r') {
            return Some(n);
        }
        if line[i] != b',' {
            return None;
        }
        i += 1;
        if i < len && line[i] == b' ' {
            i += 1;
        }
    }
}

fn number(s: &[u8], column: &'static str) -> Result<u64, LogLineError> {
    parse_u64(s).ok_or_else(|| LogLineError::Number {
        column,
        text: String::from_utf8_lossy(trim(s)).into_owned(),
    })
}

fn direction(s: &[u8]) -> Result<Direction, LogLineError> {
    direction_of(number(s, "direction")?)
}

fn direction_of(ddir: u64) -> Result<Direction, LogLineError> {
    match ddir {
        0 => Ok(Direction::Read),
        1 => Ok(Direction::Write),
        2 => Ok(Direction::Trim),
        d => Err(LogLineError::Direction(d)),
    }
}

/// A line's fields as [`LogParser::build`] reads them: [`Text`] parses each
/// and names what is wrong; [`Plain`] has them parsed already (every field
/// a plain decimal) and only refuses, the line then read as text.
trait Fields {
    type Error;
    fn number(&self, i: usize, column: &'static str) -> Result<u64, Self::Error>;
    fn direction(&self, i: usize) -> Result<Direction, Self::Error>;
    /// A value column: fio prints it signed; a negative one is refused.
    fn value(&self, i: usize, column: &'static str) -> Result<i64, Self::Error>;
    fn priority(&self, i: usize) -> Result<u32, Self::Error>;
}

/// A line's fields, as text.
struct Text<'a, 'b>(&'a [&'b [u8]; MAX_FIELDS]);

impl Fields for Text<'_, '_> {
    type Error = LogLineError;
    fn number(&self, i: usize, column: &'static str) -> Result<u64, LogLineError> {
        number(self.0[i], column)
    }
    fn direction(&self, i: usize) -> Result<Direction, LogLineError> {
        direction(self.0[i])
    }
    fn value(&self, i: usize, column: &'static str) -> Result<i64, LogLineError> {
        let s = self.0[i];
        parse_i64(s)
            .filter(|v| *v >= 0)
            .ok_or_else(|| LogLineError::Number {
                column,
                text: String::from_utf8_lossy(trim(s)).into_owned(),
            })
    }
    fn priority(&self, i: usize) -> Result<u32, LogLineError> {
        let s = self.0[i];
        parse_prio(s)
            .map(|p| p.value)
            .ok_or_else(|| LogLineError::Number {
                column: "priority",
                text: String::from_utf8_lossy(trim(s)).into_owned(),
            })
    }
}

/// A line's fields, every one a plain decimal ([`plain_fields`]).
struct Plain<'a>(&'a [u64; MAX_FIELDS]);

impl Fields for Plain<'_> {
    type Error = ();
    #[inline]
    fn number(&self, i: usize, _: &'static str) -> Result<u64, ()> {
        Ok(self.0[i])
    }
    #[inline]
    fn direction(&self, i: usize) -> Result<Direction, ()> {
        direction_of(self.0[i]).map_err(|_| ())
    }
    #[inline]
    fn value(&self, i: usize, _: &'static str) -> Result<i64, ()> {
        i64::try_from(self.0[i]).map_err(|_| ())
    }
    #[inline]
    fn priority(&self, i: usize) -> Result<u32, ()> {
        u32::try_from(self.0[i]).map_err(|_| ())
    }
}

/// What the first lines decided about the whole file.
#[derive(Debug, Clone, Copy)]
struct FileFacts {
    layout: LogLayout,
    /// SI units per unit in the value column.
    scale: f64,
    /// First time in the file when times are Unix times.
    epoch_base: Option<u64>,
    /// The optional fields a bw/iops/lat line sets ([`LogParser::build`]).
    has: Has,
}

pub(super) struct LogParser {
    ctx: LogContext,
    decided: Option<FileFacts>,
    line: usize,
    stats: LogStats,
    malformed: usize,
    /// Histogram counts of the current line, reused.
    counts: Vec<u64>,
    /// The rows of the current histogram line, reused.
    hist: Vec<SeriesRow>,
    times: TimeCheck,
}

impl LogParser {
    pub(super) fn new(ctx: LogContext) -> LogParser {
        LogParser {
            ctx,
            decided: None,
            line: 0,
            stats: LogStats::default(),
            malformed: 0,
            counts: Vec::new(),
            hist: Vec::new(),
            times: TimeCheck::new(ctx.runtime_ms),
        }
    }

    /// Decides the log's layout from its first lines, once. Blocks are fed
    /// by [`super::pieces::feed`], which cuts large per-I/O blocks into
    /// pieces for the threads: this file knows nothing of pieces.
    pub(super) fn decide_once(&mut self, text: &[u8]) -> Result<(), LogError> {
        if self.decided.is_none() {
            self.decided = self.decide(text)?;
        }
        Ok(())
    }

    /// Lines seen so far.
    pub(super) fn line(&self) -> usize {
        self.line
    }

    /// Per-I/O bw/iops/lat lines: one row each, no line compared with the
    /// one before but for its time, so a block can be cut into pieces.
    pub(super) fn per_io(&self) -> bool {
        self.decided.is_some() && !self.stats.averaged && self.ctx.kind != Kind::Hist
    }

    /// A copy that parses a piece of a block starting at line `line + 1`:
    /// same decisions, its own counts ([`LogParser::absorb`] adds them up).
    pub(super) fn piece(&self, line: usize) -> LogParser {
        LogParser {
            ctx: self.ctx,
            decided: self.decided,
            line,
            stats: LogStats {
                layout: self.stats.layout,
                averaged: self.stats.averaged,
                ..LogStats::default()
            },
            malformed: 0,
            counts: Vec::new(),
            hist: Vec::new(),
            times: self.times.piece(),
        }
    }

    /// Adds what a piece's parser counted, the pieces taken in file order.
    pub(super) fn absorb(&mut self, piece: LogParser) {
        self.line = piece.line;
        self.stats.lines += piece.stats.lines;
        self.stats.rows += piece.stats.rows;
        for w in piece.stats.warnings {
            if self.malformed < MAX_LINE_WARNINGS {
                self.stats.warnings.push(w);
            }
            self.malformed += 1;
        }
        // Malformed lines past the piece's own named ones.
        self.malformed += piece.malformed.saturating_sub(MAX_LINE_WARNINGS);
        self.times.absorb(piece.times);
    }

    /// Parses whole lines of `text` one after another into `out`.
    pub(super) fn feed_lines(&mut self, text: &[u8], out: &mut SeriesBatch) {
        out.log = self.ctx.log;
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', text).chain([text.len()]) {
            let line = &text[start..end];
            start = end + 1;
            self.line += 1;
            if trim(line).is_empty() {
                continue;
            }
            self.stats.lines += 1;
            let result = match self.decided {
                Some(d) if self.ctx.kind != Kind::Hist => self
                    .row(line, &d)
                    .map(|r| self.place_one(line, &r, d.has, out)),
                _ => {
                    let mut rows = std::mem::take(&mut self.hist);
                    rows.clear();
                    let read = self.hist_rows(line, &mut rows);
                    let placed = read.map(|()| self.place(line, &rows, out));
                    self.hist = rows;
                    placed
                }
            };
            if let Err(e) = result {
                self.malformed(e);
            }
        }
        out.even();
    }

    /// The one row of a bw/iops/lat line, which sets the optional fields
    /// `has` says, to `out` unless its time is beyond the bound.
    #[inline(always)]
    fn place_one(&mut self, line: &[u8], r: &SeriesRow, has: Has, out: &mut SeriesBatch) {
        if self.admit(line, Some(r)) {
            self.stats.rows += 1;
            out.push_as(r, has);
        }
    }

    /// The rows a histogram line gave (one time) to `out`, unless that
    /// time is beyond the bound.
    fn place(&mut self, line: &[u8], rows: &[SeriesRow], out: &mut SeriesBatch) {
        if self.admit(line, rows.first()) {
            self.stats.rows += rows.len() as u64;
            rows.iter().for_each(|r| out.push(r));
        }
    }

    /// Whether the rows of `line`, at the time of their first `first`
    /// (None: the line gave none), go on the time axis; counts what is
    /// odd about the line and its time.
    #[inline(always)]
    fn admit(&mut self, line: &[u8], first: Option<&SeriesRow>) -> bool {
        if self.stats.averaged || self.ctx.kind == Kind::Hist {
            self.times.repeated(self.line, line);
        }
        let Some(r) = first else {
            return false;
        };
        let raw = r.unix_ms.unwrap_or(r.t_ms);
        self.times.place(self.line, raw, r.t_ms, r.direction)
    }

    fn malformed(&mut self, e: LogLineError) {
        self.malformed += 1;
        if self.malformed <= MAX_LINE_WARNINGS {
            self.stats
                .warnings
                .push(format!("line {}: {e}; line skipped", self.line));
        }
    }

    /// A warning about the file as a whole (not a line).
    pub(super) fn warn(&mut self, warning: Option<String>) {
        self.stats.warnings.extend(warning);
    }

    pub(super) fn finish(mut self) -> LogStats {
        if self.malformed > MAX_LINE_WARNINGS {
            self.stats.warnings.push(format!(
                "{} more malformed lines skipped",
                self.malformed - MAX_LINE_WARNINGS
            ));
        }
        self.stats.warnings.extend(self.times.warnings());
        self.stats
    }

    /// Layout, averaging and time base from the first lines of the file.
    fn decide(&mut self, text: &[u8]) -> Result<Option<FileFacts>, LogError> {
        let sample: Vec<Vec<&[u8]>> = text
            .split(|&b| b == b'\n')
            .filter(|l| !trim(l).is_empty())
            .take(SAMPLE_LINES)
            .map(|l| l.split(|&b| b == b',').collect())
            .collect();
        let Some(first) = sample.first() else {
            return Ok(None);
        };
        let epoch_base = parse_u64(first[0]).filter(|&t| match self.ctx.unix_epoch {
            Some(epoch) => epoch,
            None => t >= EPOCH_MS,
        });
        if self.ctx.kind == Kind::Hist {
            // Histogram lines have their own layout; only the time base applies.
            let layout = LogLayout::default();
            return Ok(Some(FileFacts {
                layout,
                scale: 1.0,
                epoch_base,
                has: Has::default(),
            }));
        }
        // The most common field count: a malformed first line must not decide.
        let mut by_count = std::collections::BTreeMap::new();
        for f in &sample {
            *by_count.entry(f.len()).or_insert(0usize) += 1;
        }
        let n = by_count
            .iter()
            .max_by_key(|(_, c)| **c)
            .map_or(0, |(n, _)| *n);
        let same: Vec<Vec<&[u8]>> = sample.into_iter().filter(|f| f.len() == n).collect();
        let layout = LogLayout::infer(&same, &self.ctx.hints).ok_or(LogError::NoLayout {
            line: self.line + 1,
            fields: n,
        })?;
        let averaged = self.ctx.averaged.unwrap_or_else(|| {
            same.iter()
                .all(|f| parse_u64(f[layout.ddir() + 1]) == Some(0))
        });
        self.stats.layout = Some(layout);
        self.stats.averaged = averaged;
        let scale = match self.ctx.kind {
            Kind::Bw if averaged => 1024.0,
            Kind::Bw => 1000.0,
            Kind::Iops => 1.0,
            _ => self.ctx.lat_unit_ns,
        };
        let has = Has {
            value_max: layout.max || self.ctx.max_only,
            offset_bytes: layout.offset_col().is_some(),
            priority: layout.prio_col().is_some(),
            issue_time_ns: layout.issue_col().is_some(),
            unix_ms: epoch_base.is_some(),
            ..Has::default()
        };
        Ok(Some(FileFacts {
            layout,
            scale,
            epoch_base,
            has,
        }))
    }

    /// One bw/iops/lat line: the common one (every field a plain decimal)
    /// in one pass over its bytes, anything else field by field, which
    /// also words what is wrong with a line. Both build the row with
    /// [`LogParser::build`].
    fn row(&self, line: &[u8], d: &FileFacts) -> Result<SeriesRow, LogLineError> {
        let mut nums = [0u64; MAX_FIELDS];
        if plain_fields(line, &mut nums) == Some(d.layout.fields())
            && let Ok(row) = self.build(&Plain(&nums), d)
        {
            return Ok(row);
        }
        self.general_row(line, d)
    }

    /// One bw/iops/lat line, field by field.
    fn general_row(&self, line: &[u8], d: &FileFacts) -> Result<SeriesRow, LogLineError> {
        let l = &d.layout;
        let mut f: [&[u8]; MAX_FIELDS] = [&[]; MAX_FIELDS];
        let mut n = 0;
        let mut start = 0;
        for end in memchr::memchr_iter(b',', line).chain([line.len()]) {
            if n < MAX_FIELDS {
                f[n] = &line[start..end];
            }
            start = end + 1;
            n += 1;
        }
        if n != l.fields() {
            return Err(LogLineError::Fields {
                found: n,
                expected: l.fields(),
            });
        }
        self.build(&Text(&f), d)
    }

    /// The row of a line's fields, read in the order a line's errors are
    /// named: time, direction, value, block size, then the optional
    /// columns the layout has.
    #[inline]
    fn build<F: Fields>(&self, f: &F, d: &FileFacts) -> Result<SeriesRow, F::Error> {
        let l = &d.layout;
        let t = f.number(0, "time")?;
        let direction = f.direction(l.ddir())?;
        let value = f.value(1, "value")? as f64 * d.scale;
        let mut row = SeriesRow::new(self.ctx.log, direction, t, value);
        (row.t_ms, row.unix_ms) = self.time(t, d);
        row.bs_bytes = f.number(l.ddir() + 1, "block size")?;
        if l.max {
            row.value_max = Some(f.value(2, "max value")? as f64 * d.scale);
        } else if self.ctx.max_only {
            row.value_max = Some(row.value);
        }
        if let Some(i) = l.offset_col() {
            row.offset_bytes = Some(f.number(i, "offset")?);
        }
        if let Some(i) = l.prio_col() {
            row.priority = Some(f.priority(i)?);
        }
        if let Some(i) = l.issue_col() {
            row.issue_time_ns = Some(f.number(i, "issue time")?);
        }
        Ok(row)
    }

    /// (t_ms, unix_ms) of a logged time.
    fn time(&self, t: u64, d: &FileFacts) -> (u64, Option<u64>) {
        match d.epoch_base {
            Some(base) => (t.saturating_sub(base), Some(t)),
            None => (t, None),
        }
    }

    /// One histogram line: a row per percentile, none when no I/O completed.
    fn hist_rows(&mut self, line: &[u8], rows: &mut Vec<SeriesRow>) -> Result<(), LogLineError> {
        let mut fields = line.split(|&b| b == b',');
        let mut next = |column| number(fields.next().unwrap_or_default(), column);
        let t = next("time")?;
        let ddir = next("direction")?;
        let bs = next("block size")?;
        let direction = direction_of(ddir)?;
        self.counts.clear();
        for (i, c) in fields.enumerate() {
            let count = parse_u64(c).ok_or_else(|| LogLineError::Number {
                column: "bin count",
                text: format!("{} (bin {i})", String::from_utf8_lossy(trim(c))),
            })?;
            self.counts.push(count);
        }
        let shape =
            BinLayout::of(self.counts.len()).ok_or(LogLineError::Bins(self.counts.len()))?;
        let total: u64 = self.counts.iter().sum();
        let (t_ms, unix_ms) = match self.decided {
            Some(d) => self.time(t, &d),
            None => (t, None),
        };
        for p in PERCENTILES {
            let Some(ns) = shape.percentile(&self.counts, total, p) else {
                break;
            };
            let mut row = SeriesRow::new(self.ctx.log, direction, t_ms, ns);
            row.unix_ms = unix_ms;
            row.bs_bytes = bs;
            row.percentile = Some(p);
            row.samples = Some(total);
            rows.push(row);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass path gives what the field-by-field one gives, row or
    /// error, on plain lines and on each kind of odd one, in every layout.
    #[test]
    fn plain_lines_read_as_the_general_path_reads_them() {
        let cases: [(&str, &[&str]); 3] = [
            (
                "5, 1200, 0, 4096",
                &[
                    "5, 1200, 0, 4096",
                    "5,1200,0,4096\r",
                    "  7 ,\t9, 1, 512 ",
                    "5,  1200, 0, 4096",
                    "5, 1200, 0, 4096\r\r",
                    "5, 1200, 0, 4096,",
                    "9999999999999999999, 1, 0, 4096",
                    "10000000000000000000, 1, 0, 4096",
                    "5, -3, 0, 4096",
                    "5, 9223372036854775808, 0, 4096",
                    "18446744073709551615, 1, 0, 4096",
                    "18446744073709551616, 1, 0, 4096",
                    "000000000000000000005, 1, 0, 4096",
                    "5, 1200, 3, 4096",
                    "5, 1200, 0",
                    "5, 1200, 0, 4096, 9",
                    "5, , 0, 4096",
                    "5, 12x, 0, 4096",
                ],
            ),
            (
                "5, 1200, 0, 4096, 0, 1",
                &[
                    "5, 1200, 0, 4096, 0, 1",
                    "5, 1200, 1, 4096, 8192, 0x6003",
                    "5, 1200, 1, 4096, 8192, 4294967296",
                    "5, 1200, 1, 4096, 8192, 4294967295",
                ],
            ),
            (
                "5, 1200, 1300, 0, 4096, 0, 1",
                &[
                    "5, 1200, 1300, 0, 4096, 0, 1",
                    "5, 1200, 99999999999999999999, 0, 4096, 0, 1",
                ],
            ),
        ];
        for (first, lines) in cases {
            for kind in [Kind::Clat, Kind::Bw] {
                let mut parser = LogParser::new(LogContext::new(0, kind));
                parser.decide_once(first.as_bytes()).unwrap();
                let d = parser.decided.unwrap();
                for line in lines {
                    let fast = parser.row(line.as_bytes(), &d);
                    let general = parser.general_row(line.as_bytes(), &d);
                    assert_eq!(fast, general, "{kind:?} {line:?}");
                }
                let mut nums = [0; MAX_FIELDS];
                assert_eq!(
                    plain_fields(first.as_bytes(), &mut nums),
                    Some(d.layout.fields())
                );
            }
        }
    }
}
