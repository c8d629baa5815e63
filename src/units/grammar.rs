//! fio's value grammar, as fio's own `parse.c` and `options.c` read an
//! option's value: sizes with their suffixes under `kb_base`, integers
//! (which fio reads with the same size grammar: `iodepth=0x10` is 16),
//! times, booleans, ranges (`bsrange`), `bssplit`, per-direction values
//! (`bs=4k,64k`: read, write, trim), `rw=randread:8` and the read mix.
//!
//! Every reader (JSON, normal text, terse, job files) and the harness
//! parse option values here and nowhere else. Where fio's HOWTO and its
//! code disagree, the code wins, because it is what ran: with the default
//! `kb_base=1024` fio reads `4Ki` as 4096 (its `k` rule matches first)
//! but `4KiB` as 4000 (IEC prefixes are powers of ten in its compatibility
//! mode), and `runtime=30sec` as 30 microseconds (only `s` exactly means
//! seconds). A value fio would not read is an error here, never a
//! default: the caller says it is unknown and names it.

use std::fmt;

/// Why a value could not be read the way fio reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueError {
    /// The value as written.
    pub value: String,
    /// What is wrong with it, in words.
    pub reason: &'static str,
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` {}", self.value, self.reason)
    }
}

impl std::error::Error for ValueError {}

fn err<T>(value: &str, reason: &'static str) -> Result<T, ValueError> {
    Err(ValueError {
        value: value.to_string(),
        reason,
    })
}

/// fio's `kb_base`: how unit prefixes of data sizes are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KbBase {
    /// `kb_base=1024`, fio's default: `k`, `m`, ... are powers of two and,
    /// for compatibility with old job files, `KiB`, `MiB`, ... powers of
    /// ten.
    #[default]
    Compat1024,
    /// `kb_base=1000`: SI prefixes are powers of ten, IEC ones (`Ki`,
    /// `KiB`) powers of two.
    Si1000,
}

impl KbBase {
    /// The job's `kb_base` option (absent: fio's default, 1024).
    pub fn of(value: Option<&str>) -> Result<KbBase, ValueError> {
        match value.map(str::trim) {
            None => Ok(KbBase::Compat1024),
            Some("1024") => Ok(KbBase::Compat1024),
            Some("1000") => Ok(KbBase::Si1000),
            Some(v) => err(v, "is not a kb_base fio accepts (1024 or 1000)"),
        }
    }

    fn base(self) -> u64 {
        match self {
            KbBase::Compat1024 => 1024,
            KbBase::Si1000 => 1000,
        }
    }
}

/// A data quantity as fio reads it: bytes, or a percentage where fio
/// takes one (`size=50%`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    Bytes(u64),
    Percent(u64),
}

/// fio's separators of multi-part values: a unit prefix ends at one.
fn is_separator(c: u8) -> bool {
    matches!(c, b':' | b'-' | b',' | b'/')
}

/// The leading integer of `s` as C's `strtoll` reads it (leading blanks,
/// a sign, `0x` in base 16), and where it ended. fio reads hexadecimal
/// whenever `0x` appears anywhere in the value.
fn strtoll(s: &str) -> Option<(i128, usize)> {
    let b = s.as_bytes();
    // Byte pairs, not a substring search: every size and integer option
    // of every job comes here, and a searcher is built per call.
    let hex = b
        .windows(2)
        .any(|w| w[0] == b'0' && matches!(w[1], b'x' | b'X'));
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    let neg = match b.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let radix = if hex { 16 } else { 10 };
    if hex && b.get(i) == Some(&b'0') && matches!(b.get(i + 1), Some(b'x' | b'X')) {
        // `0x` counts only when a hex digit follows; else `0` is the number.
        if b.get(i + 2).is_some_and(u8::is_ascii_hexdigit) {
            i += 2;
        }
    }
    let start = i;
    let mut v: i128 = 0;
    while let Some(d) = b.get(i).and_then(|&c| (c as char).to_digit(radix)) {
        v = v
            .checked_mul(i128::from(radix))?
            .checked_add(i128::from(d))?;
        if v > i128::from(i64::MAX) + 1 {
            return None;
        }
        i += 1;
    }
    (i > start).then_some((if neg { -v } else { v }, i))
}

/// The multiplier of the unit after the number, as fio's
/// `get_mult_bytes`: the first character after the digits (and signs)
/// must be a letter or `%`, else the value is bytes. `None` means percent.
fn size_multiplier(s: &str, kb: KbBase) -> Option<u64> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut digit_seen = false;
    if b.len() >= 2 {
        while i < b.len() {
            let c = b[i];
            if !c.is_ascii_digit() && ((c != b'+' && c != b'-') || digit_seen) {
                break;
            }
            digit_seen |= c.is_ascii_digit();
            i += 1;
        }
        match b.get(i) {
            Some(c) if c.is_ascii_alphabetic() || *c == b'%' => {}
            _ => return Some(1),
        }
    }
    // The unit's bytes up to a separator, compared without regard to
    // case (not copied into a lowercased string).
    let unit = &b[i..];
    let unit = &unit[..unit
        .iter()
        .position(|&c| is_separator(c))
        .unwrap_or(unit.len())];
    let starts = |p: &[u8]| unit.len() >= p.len() && unit[..p.len()].eq_ignore_ascii_case(p);
    let base = kb.base();
    let opposite = if base == 1000 { 1024 } else { 1000 };
    const IEC: [&[u8]; 5] = [b"kib", b"mib", b"gib", b"tib", b"pib"];
    const SI: [&[u8]; 5] = [b"k", b"m", b"g", b"t", b"p"];
    let (mult, pow) = if let Some(p) = IEC.iter().position(|p| starts(p)) {
        (opposite, p as u32 + 1)
    } else if let Some(p) = SI.iter().position(|p| starts(p)) {
        (base, p as u32 + 1)
    } else if starts(b"%") {
        return None;
    } else {
        (base, 0)
    };
    Some(mult.pow(pow))
}

/// A data quantity as fio's `str_to_decimal` reads it with size units:
/// `4k`, `4KiB`, `128Ki`, `1m`, `0x1000`, `4096`, `50%`. A fraction is
/// read as fio reads it, up to the point (`1.5k` is 1 byte). Negative
/// values are refused: no data quantity fio takes is negative.
pub fn quantity(s: &str, kb: KbBase) -> Result<Quantity, ValueError> {
    let t = s.trim();
    if t.is_empty() {
        return err(s, "is empty");
    }
    if t.starts_with('(') {
        return err(s, "is an arithmetic expression nvcmp does not evaluate");
    }
    let Some((n, _)) = strtoll(t) else {
        return err(s, "is not a number fio reads");
    };
    if n < 0 {
        return err(s, "is negative");
    }
    match size_multiplier(t, kb) {
        None => Ok(Quantity::Percent(n as u64)),
        Some(m) => u64::try_from(n)
            .ok()
            .and_then(|n| n.checked_mul(m))
            .filter(|&v| v <= i64::MAX as u64)
            .map(Quantity::Bytes)
            .map_or_else(|| err(s, "is too large"), Ok),
    }
}

/// A size in bytes (a percentage is an error here).
pub fn size(s: &str, kb: KbBase) -> Result<u64, ValueError> {
    match quantity(s, kb)? {
        Quantity::Bytes(b) => Ok(b),
        Quantity::Percent(_) => err(s, "is a percentage, not a size"),
    }
}

/// An integer option (`iodepth`, `numjobs`, `rwmixread`): fio reads these
/// with the size grammar too (`iodepth=0x10` is 16, `iodepth=1k` 1024),
/// up to the first `,`, `:` or `-` after the first character (the other
/// values of a multi-value option). Must be at least `min`.
pub fn int(s: &str, min: u64) -> Result<u64, ValueError> {
    let t = s.trim();
    let first = first_of_many(t);
    let v = size(first, KbBase::Compat1024).map_err(|e| ValueError {
        value: s.to_string(),
        ..e
    })?;
    if v < min {
        return err(s, "is below the least value fio accepts");
    }
    Ok(v)
}

/// The first of the values fio splits a multi-value option into.
fn first_of_many(s: &str) -> &str {
    match separator(s) {
        Some(i) => &s[..i],
        None => s,
    }
}

/// Where `handle_option` splits a multi-value option's value: at the first
/// `,`, else `:`, else a `-` that is not a leading sign.
fn separator(s: &str) -> Option<usize> {
    s.find(',')
        .or_else(|| s.find(':'))
        .or_else(|| s.get(1..).and_then(|r| r.find('-')).map(|i| i + 1))
}

/// What fio reads a multi-value option's value as, per direction (read,
/// write, trim), following `handle_option`: parts split at `,` (else `:`,
/// else `-`); a part that does not parse leaves fio's default for its
/// direction, and the last part given also sets the directions after it.
/// `None` for a direction is fio's default (the caller knows it).
pub fn per_direction<T: Copy>(
    s: &str,
    mut parse: impl FnMut(&str) -> Result<T, ValueError>,
) -> Result<[Option<T>; 3], ValueError> {
    let mut out = [None; 3];
    let mut any_ok = false;
    let mut first_err = None;
    let mut rest = s;
    let mut curr = 0usize;
    loop {
        let (part, next) = split_next(rest);
        let more = next.is_some();
        let value = part.split(',').next().unwrap_or("");
        match parse(value) {
            Ok(v) => {
                any_ok = true;
                if curr < 3 {
                    out[curr] = Some(v);
                }
                if !more {
                    for slot in out.iter_mut().skip(curr + 1) {
                        *slot = Some(v);
                    }
                }
            }
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
        match next {
            Some(n) => rest = n,
            None => break,
        }
        curr += 1;
    }
    if any_ok {
        Ok(out)
    } else {
        Err(first_err.unwrap_or(ValueError {
            value: s.to_string(),
            reason: "is empty",
        }))
    }
}

/// One step of `handle_option`'s split: the part to parse now and what
/// follows the separator. A trailing `,` ends the value but still marks
/// more to come (so `bs=8k,32k,` leaves trims at the default).
fn split_next(s: &str) -> (&str, Option<&str>) {
    match separator(s) {
        Some(i) => (s, Some(&s[i + 1..])),
        None => (s, None),
    }
}

/// A size range (`bsrange=4k-64k`, `1k:4k`), low first (fio swaps them).
pub fn range(s: &str, kb: KbBase) -> Result<(u64, u64), ValueError> {
    let t = s.split(',').next().unwrap_or("");
    let cut = t.find('-').or_else(|| t.find(':'));
    let Some(i) = cut else {
        return err(s, "is not a range (low-high)");
    };
    let lo = size(&t[..i], kb).map_err(|e| ValueError {
        value: s.to_string(),
        ..e
    })?;
    let hi = size(&t[i + 1..], kb).map_err(|e| ValueError {
        value: s.to_string(),
        ..e
    })?;
    Ok((lo.min(hi), lo.max(hi)))
}

/// A range option per direction (`bsrange=1k-4k,2k-8k`): parts split at
/// `,` only; the last part given sets the directions after it.
pub fn ranges(s: &str, kb: KbBase) -> Result<[Option<(u64, u64)>; 3], ValueError> {
    let parts: Vec<&str> = s.split(',').collect();
    let mut out = [None; 3];
    let mut last = None;
    let mut first_err = None;
    for (i, part) in parts.iter().enumerate() {
        match range(part, kb) {
            Ok(r) => {
                if i < 3 {
                    out[i] = Some(r);
                }
                last = Some((i, r));
            }
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    match last {
        Some((i, r)) => {
            if i + 1 == parts.len() {
                for slot in out.iter_mut().skip(i + 1) {
                    *slot = Some(r);
                }
            }
            Ok(out)
        }
        None => Err(first_err.unwrap_or(ValueError {
            value: s.to_string(),
            reason: "is empty",
        })),
    }
}

/// One direction's `bssplit`: (block size, percent) pairs, the percent
/// missing from an entry shared out as fio does (`(100 - given) /
/// missing`).
pub type Split = Vec<(u64, u32)>;

/// `bssplit=4k/10:64k/50:32k/40[,write[,trim]]` per direction, as fio's
/// `str_split_parse`: no `,` means the same split for all three; one `,`
/// means read, then write and trim alike.
pub fn bssplit(s: &str, kb: KbBase) -> Result<[Option<Split>; 3], ValueError> {
    let parts: Vec<&str> = s.trim().split(',').collect();
    let (r, w, t) = match parts.as_slice() {
        [all] => (*all, *all, *all),
        [r, w] => (*r, *w, *w),
        [r, w, t, ..] => (*r, *w, *t),
        [] => return err(s, "is empty"),
    };
    let one = |part: &str| -> Result<Option<Split>, ValueError> {
        let mut entries: Vec<(u64, Option<u32>)> = Vec::new();
        for entry in part.split(':') {
            if entry.is_empty() {
                break;
            }
            let (bs, perc) = match entry.split_once('/') {
                Some((b, p)) => (b, Some(p)),
                None => (entry, None),
            };
            let bs = size(bs, kb).map_err(|e| ValueError {
                value: s.to_string(),
                ..e
            })?;
            // fio's `atoi`: leading digits, 0 or none meaning "share the rest".
            let perc = perc
                .map(|p| {
                    p.trim()
                        .bytes()
                        .take_while(u8::is_ascii_digit)
                        .fold(0u32, |a, d| {
                            a.saturating_mul(10).saturating_add(u32::from(d - b'0'))
                        })
                        .min(100)
                })
                .filter(|&p| p > 0);
            entries.push((bs, perc));
        }
        if entries.is_empty() {
            return Ok(None);
        }
        let given: u32 = entries.iter().filter_map(|e| e.1).sum();
        let missing = entries.iter().filter(|e| e.1.is_none()).count() as u32;
        if given > 100 && missing > 1 {
            return err(s, "has percentages adding to more than 100");
        }
        let share = if missing == 0 {
            0
        } else if missing == 1 && entries.len() == 1 {
            100
        } else {
            100u32.saturating_sub(given) / missing
        };
        Ok(Some(
            entries
                .into_iter()
                .map(|(b, p)| (b, p.unwrap_or(share)))
                .collect(),
        ))
    };
    Ok([one(r)?, one(w)?, one(t)?])
}

/// The mean I/O size a split asks for (what `io_bytes / total_ios` tends
/// to), or `None` when its percentages are all zero.
pub fn split_mean(split: &[(u64, u32)]) -> Option<f64> {
    let total: u32 = split.iter().map(|e| e.1).sum();
    (total > 0).then(|| {
        split
            .iter()
            .map(|&(b, p)| b as f64 * f64::from(p))
            .sum::<f64>()
            / f64::from(total)
    })
}

/// A time option as fio's `check_str_time` reads it, in microseconds.
/// `seconds`: a bare number is seconds (`runtime`, `ramp_time`), else
/// microseconds. Units: `us`/`usec`, `ms`/`msec`, `s`, `m`, `h`, `d`;
/// any other letters leave the number in microseconds, as fio does.
pub fn time_us(s: &str, seconds: bool) -> Result<u64, ValueError> {
    let t = s.trim();
    let t = t.split(',').next().unwrap_or("");
    if t.starts_with('(') {
        return err(s, "is an arithmetic expression nvcmp does not evaluate");
    }
    let Some((n, _)) = strtoll(t) else {
        return err(s, "is not a time fio reads");
    };
    if n < 0 {
        return err(s, "is negative");
    }
    let b = t.as_bytes();
    let i = b
        .iter()
        .position(|&c| !(c.is_ascii_digit() || c == b'+' || c == b'-'))
        .unwrap_or(b.len());
    let unit = t[i..].to_ascii_lowercase();
    let mult: u64 = if !unit.starts_with(|c: char| c.is_ascii_alphabetic()) {
        if seconds { 1_000_000 } else { 1 }
    } else if unit.starts_with("us") {
        1
    } else if unit.starts_with("ms") {
        1_000
    } else {
        match unit.as_str() {
            "s" => 1_000_000,
            "m" => 60_000_000,
            "h" => 3_600_000_000,
            "d" => 86_400_000_000,
            _ => 1,
        }
    };
    u64::try_from(n)
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .map_or_else(|| err(s, "is too large"), Ok)
}

/// A boolean option as fio's `check_int` reads it: a decimal or `0x`
/// integer, zero false and anything else true. An option given with no
/// value (`direct` alone) is true.
pub fn boolean(s: &str) -> Result<bool, ValueError> {
    let t = s.trim();
    if t.is_empty() {
        return Ok(true);
    }
    let digits = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(
            &h[..h.bytes().take_while(u8::is_ascii_hexdigit).count()],
            16,
        )
    } else {
        t[..t.bytes().take_while(u8::is_ascii_digit).count()].parse()
    };
    digits
        .map(|v| v != 0)
        .or_else(|_| err(s, "is not a boolean fio reads (0 or 1)"))
}

/// `rw=randread:8`: the pattern and its modifier (the offset step or the
/// sequential run length after `:`), if any.
pub fn rw(s: &str) -> (&str, Option<&str>) {
    let t = s.trim();
    match t.split_once(':') {
        Some((rw, m)) => (rw.trim(), Some(m.trim())),
        None => (t, None),
    }
}

/// Percent reads of a mixed job from `rwmixread` / `rwmixwrite` (fio sets
/// one from the other; `rwmixread` is taken when both are given).
pub fn rwmix(read: Option<&str>, write: Option<&str>) -> Result<Option<u32>, ValueError> {
    let pct = |s: &str| -> Result<u32, ValueError> {
        let v = int(s, 0)?;
        if v > 100 {
            return err(s, "is above 100 percent");
        }
        Ok(v as u32)
    };
    match (read, write) {
        (Some(r), _) => pct(r).map(Some),
        (None, Some(w)) => pct(w).map(|w| Some(100 - w)),
        (None, None) => Ok(None),
    }
}

/// `percentile_list=50:95:99.9`: the percentiles asked for, in order.
pub fn percentile_list(s: &str) -> Result<Vec<f64>, ValueError> {
    let mut out = Vec::new();
    for p in s.split(':') {
        match p.trim().parse::<f64>() {
            Ok(v) if (0.0..=100.0).contains(&v) => out.push(v),
            _ => return err(s, "is not a list of percentiles fio reads (50:95:99.9)"),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
