//! fio's JSON document read straight into the mirror ([`FioOutput`]),
//! without serde's visitors. Reading the mirror through serde_json was
//! half of ingest's time: each token passes through a visitor and each
//! struct through a field matcher, and a job (kilobytes of `Option`s) is
//! moved through every layer. Read here, the same 10,000 documents take
//! 0.75x the time on one thread (in cache), and ingest 0.92x the
//! instructions (benches/ingest-speed.md, eighth round).
//!
//! The result is exactly the mirror serde_json makes, or nothing. What
//! this reader does not read exactly as serde_json would (an escape in a
//! key, a key given twice, a value of another type than the mirror's,
//! fio's bare `nan`, nesting deeper than [`DEPTH`], anything malformed) it
//! gives up on, and the caller reads the document with serde_json, whose
//! result or error is then the file's. A test holds the two equal on
//! every fixture and on thousands of damaged copies of them.
//!
//! Values it keeps whole (`nvcmp`, `steadystate`, `system_cpu_pct`: any
//! JSON) and strings with escapes are parsed by serde_json from their own
//! text, once this reader has found where they end.

use std::borrow::Cow;

use serde::de::IgnoredAny;
use serde_json::{Number, Value};

use super::values::{self, Bins, FioOptions, FioPercentiles, GlobalOptions, Loose, Str};
use super::{Ddir, FioOutput, Job, Lat};

/// Nesting at which the reader gives up: below serde_json's limit (128),
/// so a document read here is never one serde_json refuses as too deep.
const DEPTH: u32 = 100;

/// The document at the start of `text` (after whitespace) and the offset
/// just past its closing brace, as serde_json's stream reader gives them;
/// `None` when it is left to serde_json.
pub fn leading(text: &str) -> Option<(FioOutput<'_>, usize)> {
    let mut r = Reader {
        text,
        b: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    if r.peek()? != b'{' {
        return None;
    }
    let doc = r.document()?;
    Some((doc, r.at))
}

struct Reader<'a> {
    text: &'a str,
    b: &'a [u8],
    at: usize,
    depth: u32,
}

/// The keys of one object that the mirror reads: a key given twice is an
/// error to serde's derive, so the reader gives up on it.
#[derive(Default)]
struct FieldsRead(u32);

impl FieldsRead {
    fn once(&mut self, field: u32) -> Option<()> {
        let bit = 1 << field;
        if self.0 & bit != 0 {
            return None;
        }
        self.0 |= bit;
        Some(())
    }
}

/// The members of a mirror struct: each key's field number (for
/// [`FieldsRead`]), and how its value is read into the struct; any other
/// key's value is skipped.
macro_rules! members {
    ($r:ident, $key:ident, $fields:ident, { $($name:literal => $read:expr,)* }) => {{
        const NAMES: &[&[u8]] = &[$($name),*];
        match $key {
            $($name => {
                $fields.once(const { field(NAMES, $name) })?;
                $read;
                Some(())
            })*
            _ => $r.skip(),
        }
    }};
}

/// Where `name` is in `names`: a member's field number, at compile time.
const fn field(names: &[&[u8]], name: &[u8]) -> u32 {
    assert!(names.len() <= 32, "a field is a bit of a u32");
    let mut i = 0;
    while i < names.len() {
        if names[i].len() == name.len() {
            let (a, b) = (names[i], name);
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return i as u32;
            }
        }
        i += 1;
    }
    panic!("a member's name is in its list")
}

/// In one little-endian word of a string's bytes, a high bit in each byte
/// that ends a plain string (a quote), starts an escape, or is a control
/// character; the lowest set bit is always a true one (the borrow of the
/// subtraction only marks bytes above a true match).
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline]
fn string_stops(word: u64) -> u64 {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS;
    let quote = zero(word ^ (ONES * u64::from(b'"')));
    let backslash = zero(word ^ (ONES * u64::from(b'\\')));
    let control = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
    quote | backslash | control
}

/// How many of the sixteen bytes `b` starts with belong to a plain string
/// (16 when none ends it): the first quote, backslash or control character
/// found by three vector compares and a mask. Keys and most of fio's values
/// are shorter than sixteen bytes, so a string costs one round, where the
/// word-at-a-time scan took two or three of more work each (plain strings
/// were 16 % of ingest's instructions).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline]
fn string_run(b: &[u8; 16]) -> usize {
    use safe_arch::{cmp_eq_mask_i8_m128i as eq, min_u8_m128i};
    let v = safe_arch::load_unaligned_m128i(b);
    let is = |c: u8| eq(v, safe_arch::set_splat_i8_m128i(c as i8));
    // Below 0x20, unsigned: the byte is its own minimum with 0x1f.
    let control = eq(min_u8_m128i(v, safe_arch::set_splat_i8_m128i(0x1f)), v);
    let stop = is(b'"') | is(b'\\') | control;
    let mask = safe_arch::move_mask_i8_m128i(stop) as u32;
    (mask | 1 << 16).trailing_zeros() as usize
}

/// [`string_run`] on other processors: a word at a time.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline]
fn string_run(b: &[u8; 16]) -> usize {
    let word = |i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[i..i + 8]);
        string_stops(u64::from_le_bytes(w))
    };
    match (word(0), word(8)) {
        (0, 0) => 16,
        (0, hi) => 8 + (hi.trailing_zeros() / 8) as usize,
        (lo, _) => (lo.trailing_zeros() / 8) as usize,
    }
}

/// 10^0 to 10^8: what the integer read so far is multiplied by for each
/// count of digits [`digit_run`] adds to it.
const TENS: [u64; 9] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
];

/// How many of the eight bytes of `w` (the text's, little-endian: its
/// first byte lowest) are ASCII digits before the first that is not, and
/// their value as a decimal integer: a number's digits eight at a time,
/// where a byte at a time cost four instructions a digit (3 % of ingest).
/// A byte is a digit when its high half is 3 and adding 6 leaves it 3; a
/// carry out of a byte past 0xF9 only reaches bytes after a non-digit.
#[inline]
fn digit_run(w: u64) -> (usize, u64) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const THREES: u64 = 0x30 * ONES;
    let high = |x: u64| x & (0xF0 * ONES);
    let not_digit = (high(w) ^ THREES) | (high(w.wrapping_add(6 * ONES)) ^ THREES);
    let n = (not_digit.trailing_zeros() / 8) as usize;
    if n == 0 {
        return (0, 0);
    }
    // The n digits moved to the top bytes, zeros (as leading zeros)
    // below them; then pairs, fours and the eight combined.
    let v = (w & (0x0F * ONES)) << (8 * (8 - n));
    let v = (v.wrapping_mul((10 << 8) | 1) >> 8) & 0x00FF_00FF_00FF_00FF;
    let v = (v.wrapping_mul((100 << 16) | 1) >> 16) & 0x0000_FFFF_0000_FFFF;
    let v = v.wrapping_mul((10_000 << 32) | 1) >> 32;
    (n, v)
}

/// How many of the sixteen bytes `b` starts with are JSON whitespace,
/// found without a branch per byte: four vector compares and a mask
/// (10,000 documents read in cache: 70 against 79 ms a byte at a time).
/// fio's indentation runs vary from line to line, and a byte loop's exit
/// is mispredicted at nearly every line. Eight bytes compared in a word
/// was slower than the byte loop (115 against 85 ms for 10,000 documents
/// read in cache), and the compiler does not make the portable loop below
/// vector code.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline]
fn blank_run(b: &[u8; 16]) -> usize {
    use safe_arch::cmp_eq_mask_i8_m128i as eq;
    let v = safe_arch::load_unaligned_m128i(b);
    let is = |c: u8| eq(v, safe_arch::set_splat_i8_m128i(c as i8));
    let blank = (is(b' ') | is(b'\n')) | (is(b'\r') | is(b'\t'));
    let mask = safe_arch::move_mask_i8_m128i(blank) as u32;
    (!mask).trailing_zeros() as usize
}

/// [`blank_run`] on other processors: a byte at a time.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline]
fn blank_run(b: &[u8; 16]) -> usize {
    blanks(b)
}

/// How many bytes `b` starts with are JSON whitespace, a byte at a time.
#[inline]
fn blanks(b: &[u8]) -> usize {
    b.iter()
        .position(|c| !matches!(c, b' ' | b'\n' | b'\r' | b'\t'))
        .unwrap_or(b.len())
}

impl<'a> Reader<'a> {
    /// Skips whitespace: sixteen bytes at a time where the text has them
    /// (fio's line breaks and indentation, 42 % of its bytes), else a byte
    /// at a time.
    #[inline]
    fn ws(&mut self) {
        match self.b.get(self.at) {
            Some(&c) if c > b' ' => return,
            None => return,
            Some(_) => {}
        }
        while let Some(run) = self.sixteen().map(blank_run) {
            self.at += run;
            if run < 16 {
                return;
            }
        }
        // The text's last fifteen bytes or fewer.
        self.at += blanks(&self.b[self.at..]);
    }

    /// The sixteen bytes at the reader.
    #[inline]
    fn sixteen(&self) -> Option<&'a [u8; 16]> {
        self.b.get(self.at..self.at + 16)?.try_into().ok()
    }

    /// The next byte after whitespace, not consumed.
    #[inline]
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.b.get(self.at).copied()
    }

    #[inline]
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.at += 1)
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.at + word.len();
        (self.b.get(self.at..end)? == word).then(|| self.at = end)
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= DEPTH).then_some(())
    }

    /// An optional value: `null` is `None`, anything else is read by `read`.
    #[inline]
    fn opt<T>(&mut self, read: impl FnOnce(&mut Self) -> Option<T>) -> Option<Option<T>> {
        if self.null()? {
            return Some(None);
        }
        read(self).map(Some)
    }

    /// Whether the next value is `null` (then read); `None` on a value
    /// that starts like it and is not.
    #[inline]
    fn null(&mut self) -> Option<bool> {
        if self.peek()? != b'n' {
            return Some(false);
        }
        self.literal(b"null").map(|()| true)
    }

    /// An optional struct, read in place rather than moved up through
    /// `Option`s and returns (a job is kilobytes): `null` is `None`.
    #[inline]
    fn opt_in<T: Default>(
        &mut self,
        slot: &mut Option<T>,
        read: impl FnOnce(&mut Self, &mut T) -> Option<()>,
    ) -> Option<()> {
        if self.null()? {
            *slot = None;
            return Some(());
        }
        read(self, slot.insert(T::default()))
    }

    /// An object, each member's key given to `member` with the reader at
    /// its value, which `member` reads.
    fn object(&mut self, mut member: impl FnMut(&mut Self, &'a [u8]) -> Option<()>) -> Option<()> {
        self.eat(b'{')?;
        self.enter()?;
        if self.peek()? == b'}' {
            self.at += 1;
        } else {
            loop {
                if self.peek()? != b'"' {
                    return None;
                }
                let key = self.plain_key()?;
                // fio writes `"key" : value`.
                match self.b.get(self.at..self.at + 3) {
                    Some(b" : ") => self.at += 3,
                    _ => self.eat(b':')?,
                }
                member(self, key)?;
                match self.peek()? {
                    b',' => self.at += 1,
                    b'}' => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    /// An array, each element read by `element`.
    fn array(&mut self, mut element: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.eat(b'[')?;
        self.enter()?;
        if self.peek()? == b']' {
            self.at += 1;
        } else {
            loop {
                element(self)?;
                match self.peek()? {
                    b',' => self.at += 1,
                    b']' => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    /// A string without escapes, borrowed, the reader at its opening
    /// quote; `None` on an escape or on a control character, which JSON
    /// refuses (the reader left at the quote, for [`Reader::string`] to
    /// read it again), and on a string the text ends in (the reader
    /// anywhere: the document is given up).
    ///
    /// Restoring the reader on that last path too cost 1.6 % of ingest's
    /// instructions (measured): codegen.
    #[inline]
    fn plain_str(&mut self) -> Option<&'a str> {
        let span = self.plain_span()?;
        self.text.get(span)
    }

    /// A key as [`Reader::plain_str`] reads it, as bytes: matched against
    /// the mirror's names as it is, never checked as a `str` (two
    /// char-boundary checks for each of a document's 330 keys).
    #[inline]
    fn plain_key(&mut self) -> Option<&'a [u8]> {
        let span = self.plain_span()?;
        self.b.get(span)
    }

    /// A key [`Reader::plain_key`] read, as the text's `str`: found by its
    /// place in the text, so only its ends are checked (`from_utf8` read
    /// every byte again, 2 % of ingest).
    #[inline]
    fn key_str(&self, key: &'a [u8]) -> Option<&'a str> {
        let start = (key.as_ptr() as usize).checked_sub(self.b.as_ptr() as usize)?;
        self.text.get(start..start + key.len())
    }

    /// Where the plain string at the reader lies (its quotes left out), the
    /// reader past it; see [`Reader::plain_str`].
    #[inline]
    fn plain_span(&mut self) -> Option<std::ops::Range<usize>> {
        let start = self.at + 1;
        self.at = start;
        let end = loop {
            let Some(chunk) = self.sixteen() else {
                // The text's last fifteen bytes or fewer.
                let len = self.b[self.at..]
                    .iter()
                    .position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
                break self.at + len;
            };
            let run = string_run(chunk);
            if run < 16 {
                break self.at + run;
            }
            self.at += 16;
        };
        if self.b[end] != b'"' {
            self.at = start - 1;
            return None;
        }
        self.at = end + 1;
        Some(start..end)
    }

    /// Any string, checked as serde_json checks a string it skips.
    fn skip_str(&mut self) -> Option<()> {
        self.at += 1;
        loop {
            let c = *self.b.get(self.at)?;
            self.at += 1;
            match c {
                b'"' => return Some(()),
                b'\\' => {
                    let e = *self.b.get(self.at)?;
                    self.at += 1;
                    match e {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                        b'u' => {
                            let hex = self.b.get(self.at..self.at + 4)?;
                            if !hex.iter().all(u8::is_ascii_hexdigit) {
                                return None;
                            }
                            self.at += 4;
                        }
                        _ => return None,
                    }
                }
                0..=0x1f => return None,
                _ => {}
            }
        }
    }

    /// A string value: borrowed, or with escapes, unescaped by serde_json.
    fn string(&mut self) -> Option<Str<'a>> {
        if self.peek()? != b'"' {
            return None;
        }
        match self.plain_str() {
            Some(s) => Some(Str(Cow::Borrowed(s))),
            None => self.by_serde(),
        }
    }

    /// A number, consumed: JSON's grammar exactly (a sign, no leading
    /// zero, digits after a point and in an exponent), its digits gathered
    /// as they are scanned.
    fn number(&mut self) -> Option<NumberRead<'a>> {
        self.ws();
        let start = self.at;
        let n = self.scan_number::<true>()?;
        self.at = n.end;
        let exact = match n.decimals {
            // At most 18 digits: no overflow in a `u64`, nor in an `i64`.
            _ if n.exponent || n.digits > 18 => Exact::No,
            0 => Exact::Integer(n.mantissa),
            d => Exact::Decimal(n.mantissa, d),
        };
        Some(NumberRead {
            text: self.b.get(start..n.end)?,
            negative: n.negative,
            exact,
        })
    }

    /// A number skipped (half of a document's numbers are): the grammar
    /// checked as [`Reader::number`] checks it, its digits not gathered.
    fn skip_number(&mut self) -> Option<()> {
        self.at = self.scan_number::<false>()?.end;
        Some(())
    }

    /// The number at the reader by JSON's grammar, the reader not moved:
    /// where it ends, and with `GATHER` its digits as an integer (wrapping
    /// past 19), how many there are and how many follow the point.
    #[inline(always)]
    fn scan_number<const GATHER: bool>(&self) -> Option<NumberScan> {
        let b = self.b;
        let negative = b.get(self.at) == Some(&b'-');
        let mut i = self.at + usize::from(negative);
        let (mut mantissa, mut digits) = (0u64, 0u32);
        let mut gather = |i: &mut usize| {
            let from = *i;
            'run: {
                // Eight bytes at a time where the text has them, the
                // digits among them gathered at once ([`digit_run`]).
                while let Some(eight) = b.get(*i..*i + 8).and_then(|e| <[u8; 8]>::try_from(e).ok())
                {
                    let (n, value) = digit_run(u64::from_le_bytes(eight));
                    if GATHER {
                        mantissa = mantissa.wrapping_mul(TENS[n]).wrapping_add(value);
                    }
                    *i += n;
                    if n < 8 {
                        break 'run;
                    }
                }
                // The text's last seven bytes or fewer.
                while let Some(&c @ b'0'..=b'9') = b.get(*i) {
                    if GATHER {
                        mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
                    }
                    *i += 1;
                }
            }
            digits += (*i - from) as u32;
            (*i - from) as u32
        };
        match b.get(i)? {
            b'0' => i += 1,
            b'1'..=b'9' => {
                gather(&mut i);
            }
            _ => return None,
        }
        let mut decimals = 0;
        if b.get(i) == Some(&b'.') {
            i += 1;
            decimals = gather(&mut i);
            if decimals == 0 {
                return None;
            }
        }
        let mut exponent = false;
        if matches!(b.get(i), Some(b'e' | b'E')) {
            exponent = true;
            i += 1 + usize::from(matches!(b.get(i + 1), Some(b'+' | b'-')));
            let from = i;
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
            if i == from {
                return None;
            }
        }
        Some(NumberScan {
            end: i,
            negative,
            mantissa,
            digits,
            decimals,
            exponent,
        })
    }

    /// A number as serde_json gives it to an `f64` (see [`NumberRead::f64`]).
    #[inline]
    fn f64(&mut self) -> Option<f64> {
        self.number()?.f64()
    }

    /// Any value, checked as serde_json checks a value it skips.
    fn skip(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.skip_str(),
            b'{' => self.object(|r, _| r.skip()),
            b'[' => self.array(Self::skip),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => self.skip_number(),
        }
    }

    /// A value kept whole, parsed by serde_json from its text.
    fn value(&mut self) -> Option<Value> {
        self.by_serde()
    }

    /// The next value, found by [`Reader::skip`] and then parsed by
    /// serde_json from its own text (its strings borrowed from it).
    fn by_serde<T: serde::Deserialize<'a>>(&mut self) -> Option<T> {
        self.ws();
        let start = self.at;
        self.skip()?;
        serde_json::from_str(self.text.get(start..self.at)?).ok()
    }

    /// An option's value, as [`Loose`]'s `Deserialize` reads it.
    fn loose(&mut self) -> Option<Loose<'a>> {
        Some(match self.peek()? {
            b'"' => Loose::Text(self.string()?),
            b't' => self.literal(b"true").map(|()| Loose::Bool(true))?,
            b'f' => self.literal(b"false").map(|()| Loose::Bool(false))?,
            b'n' => self.literal(b"null").map(|()| Loose::Other)?,
            b'{' | b'[' => self.skip().map(|()| Loose::Other)?,
            _ => self.number()?.loose()?,
        })
    }

    fn options(&mut self) -> Option<FioOptions<'a>> {
        let mut pairs = Vec::with_capacity(16);
        self.object(|r, key| {
            pairs.push((Str(Cow::Borrowed(r.key_str(key)?)), r.loose()?));
            Some(())
        })?;
        Some(FioOptions(pairs))
    }

    fn global_options(&mut self) -> Option<GlobalOptions<'a>> {
        match self.peek()? {
            b'{' => self.options().map(GlobalOptions::One),
            b'[' => {
                let mut servers = Vec::new();
                self.array(|r| {
                    servers.push(r.options()?);
                    Some(())
                })?;
                Some(GlobalOptions::PerServer(servers))
            }
            _ => None,
        }
    }

    /// A map of numbers keyed by numbers written as strings (percentiles,
    /// json+ bins), as `values::visit_pairs` reads it: a key that does not
    /// parse is serde's error.
    fn number_pairs<K: values::KeyNumber>(&mut self, room: usize) -> Option<Vec<(K, f64)>> {
        let mut pairs = Vec::with_capacity(room);
        self.object(|r, key| {
            pairs.push((K::from_key(r.key_str(key)?)?, r.f64()?));
            Some(())
        })?;
        Some(pairs)
    }

    fn percentiles(&mut self) -> Option<FioPercentiles> {
        // fio's default list is 17 percentiles.
        self.number_pairs(20).map(FioPercentiles)
    }

    /// json+ `bins`; skipped (read as none) where [`values::without_bins`]
    /// says so.
    fn bins(&mut self) -> Option<Bins> {
        if !values::reading_bins() {
            return self.skip().map(|()| Bins(Vec::new()));
        }
        self.number_pairs(0).map(Bins::of)
    }

    fn document(&mut self) -> Option<FioOutput<'a>> {
        let mut doc = FioOutput::default();
        let mut fields = FieldsRead::default();
        self.object(|r, key| {
            members!(r, key, fields, {
                b"fio version" => doc.fio_version = r.opt(Self::string)?,
                b"timestamp" => doc.timestamp = r.opt(Self::f64)?,
                b"timestamp_ms" => doc.timestamp_ms = r.opt(Self::f64)?,
                b"global options" => doc.global_options = r.global_options()?,
                b"jobs" => r.opt_in(&mut doc.jobs, Self::jobs)?,
                b"client_stats" => r.opt_in(&mut doc.client_stats, Self::jobs)?,
                b"cpu_idleness" => doc.cpu_idleness = r.opt(Self::options)?,
                b"disk_util" => doc.disk_util = r.opt(|r| r.skip().map(|()| IgnoredAny))?,
                b"nvcmp" => doc.nvcmp = r.opt(Self::value)?,
            })
        })?;
        Some(doc)
    }

    fn jobs(&mut self, jobs: &mut Vec<Job<'a>>) -> Option<()> {
        self.array(|r| {
            jobs.push(Job::default());
            r.job(jobs.last_mut()?)
        })
    }

    fn job(&mut self, job: &mut Job<'a>) -> Option<()> {
        let mut fields = FieldsRead::default();
        self.object(|r, key| {
            members!(r, key, fields, {
                b"jobname" => job.jobname = r.opt(Self::string)?,
                b"groupid" => job.groupid = r.opt(Self::f64)?,
                b"error" => job.error = r.opt(Self::f64)?,
                b"job options" => job.job_options = r.options()?,
                b"read" => r.opt_in(&mut job.read, Self::ddir)?,
                b"write" => r.opt_in(&mut job.write, Self::ddir)?,
                b"trim" => r.opt_in(&mut job.trim, Self::ddir)?,
                b"mixed" => r.opt_in(&mut job.mixed, Self::ddir)?,
                b"usr_cpu" => job.usr_cpu = r.opt(Self::f64)?,
                b"sys_cpu" => job.sys_cpu = r.opt(Self::f64)?,
                b"job_runtime" => job.job_runtime = r.opt(Self::f64)?,
                b"hostname" => job.hostname = r.opt(Self::string)?,
                b"port" => job.port = r.opt(Self::f64)?,
                b"system_cpu_pct" => job.system_cpu_pct = r.opt(Self::value)?,
                b"iodepth_level" => job.iodepth_level = r.opt(Self::options)?,
                b"steadystate" => job.steadystate = r.opt(Self::value)?,
                b"nvcmp" => job.nvcmp = r.opt(Self::value)?,
            })
        })
    }

    fn ddir(&mut self, d: &mut Ddir) -> Option<()> {
        let mut fields = FieldsRead::default();
        self.object(|r, key| {
            members!(r, key, fields, {
                b"io_bytes" => d.io_bytes = r.opt(Self::f64)?,
                b"io_kbytes" => d.io_kbytes = r.opt(Self::f64)?,
                b"bw_bytes" => d.bw_bytes = r.opt(Self::f64)?,
                b"bw" => d.bw = r.opt(Self::f64)?,
                b"iops" => d.iops = r.opt(Self::f64)?,
                b"runtime" => d.runtime = r.opt(Self::f64)?,
                b"total_ios" => d.total_ios = r.opt(Self::f64)?,
                b"slat_ns" => r.opt_in(&mut d.slat_ns, Self::boxed_lat)?,
                b"clat_ns" => r.opt_in(&mut d.clat_ns, Self::boxed_lat)?,
                b"lat_ns" => r.opt_in(&mut d.lat_ns, Self::boxed_lat)?,
                b"slat" => r.opt_in(&mut d.slat, Self::boxed_lat)?,
                b"clat" => r.opt_in(&mut d.clat, Self::boxed_lat)?,
                b"lat" => r.opt_in(&mut d.lat, Self::boxed_lat)?,
                b"bw_mean" => d.bw_mean = r.opt(Self::f64)?,
                b"bw_dev" => d.bw_dev = r.opt(Self::f64)?,
                b"bw_samples" => d.bw_samples = r.opt(Self::f64)?,
                b"iops_mean" => d.iops_mean = r.opt(Self::f64)?,
                b"iops_stddev" => d.iops_stddev = r.opt(Self::f64)?,
                b"iops_samples" => d.iops_samples = r.opt(Self::f64)?,
            })
        })
    }

    /// A latency object, in its box ([`Ddir`]'s latencies are boxed).
    fn boxed_lat(&mut self, lat: &mut Box<Lat>) -> Option<()> {
        self.lat(lat)
    }

    fn lat(&mut self, lat: &mut Lat) -> Option<()> {
        let mut fields = FieldsRead::default();
        self.object(|r, key| {
            members!(r, key, fields, {
                b"min" => lat.min = r.opt(Self::f64)?,
                b"max" => lat.max = r.opt(Self::f64)?,
                b"mean" => lat.mean = r.opt(Self::f64)?,
                b"stddev" => lat.stddev = r.opt(Self::f64)?,
                b"N" => lat.n = r.opt(Self::f64)?,
                b"percentile" => lat.percentile = r.opt(Self::percentiles)?,
                b"bins" => lat.bins = r.opt(Self::bins)?,
            })
        })
    }
}

/// A number as [`Reader::scan_number`] found it.
struct NumberScan {
    end: usize,
    negative: bool,
    mantissa: u64,
    digits: u32,
    decimals: u32,
    exponent: bool,
}

/// A number's text, and its value where its digits give it exactly.
struct NumberRead<'a> {
    /// The number's bytes (ASCII by its grammar): made a `str` only where
    /// the digits do not give the value, not for every number.
    text: &'a [u8],
    negative: bool,
    exact: Exact,
}

/// What a number's digits give without the text parsed again.
enum Exact {
    /// No point, no exponent, at most 18 digits: the magnitude.
    Integer(u64),
    /// A point, no exponent, at most 18 digits: the digits as an integer,
    /// and how many of them follow the point.
    Decimal(u64, u32),
    /// Anything else: the text is parsed.
    No,
}

impl NumberRead<'_> {
    /// The number as serde_json gives it to an `f64`: an integer as its
    /// `u64` or `i64` converts, anything else correctly rounded, as
    /// serde_json's `float_roundtrip` (which nvcmp builds with) and Rust's
    /// parse both round. Out of an `f64`'s range is serde_json's error:
    /// `None`.
    #[inline]
    fn f64(&self) -> Option<f64> {
        let exact = match self.exact {
            Exact::Integer(n) => Some(n as f64),
            Exact::Decimal(n, d) => values::exact_decimal(n, d),
            Exact::No => None,
        };
        let Some(magnitude) = exact else {
            let f: f64 = std::str::from_utf8(self.text).ok()?.parse().ok()?;
            return f.is_finite().then_some(f);
        };
        Some(if self.negative { -magnitude } else { magnitude })
    }

    /// The number as [`Loose`] holds it: serde_json gives a positive
    /// integer as a `u64`, a negative one as an `i64` (`-0` as the float
    /// `-0.0`), anything else as an `f64`. An integer of 19 digits or more
    /// is left to serde_json.
    fn loose(&self) -> Option<Loose<'static>> {
        let number = match self.exact {
            Exact::Integer(n) if !self.negative => Number::from(n),
            Exact::Integer(0) => Number::from_f64(-0.0)?,
            Exact::Integer(n) => Number::from(-(n as i64)),
            Exact::No if !self.text.iter().any(|c| matches!(c, b'.' | b'e' | b'E')) => return None,
            _ => return Some(Number::from_f64(self.f64()?).map_or(Loose::Other, Loose::Number)),
        };
        Some(Loose::Number(number))
    }
}

#[cfg(test)]
mod tests;
