//! Which column is which in a bw/iops/lat log line. fio writes
//! `time, value[, max], ddir, bs[, offset][, prio][, issue]` (iolog.c
//! `flush_samples`), and which optional columns appear depends on the
//! version and on options the log does not record:
//!
//! | fio | columns after `bs` |
//! | --- | --- |
//! | < 3.18 | `[offset]` |
//! | 3.18 - 3.36 | `[offset], prio` (`0x%04x` with `log_prio=1`, else 0/1) |
//! | 3.37 | `max` after `value` with `log_window_value=both` |
//! | >= 3.38 | `issue` (ns) last with `log_issue_time=1` |
//!
//! So the field count alone is ambiguous (6 fields: offset+prio, max+prio
//! or prio+issue). The result file of the run, when found, settles it
//! ([`Hints`]); otherwise the first lines decide: the direction column
//! holds 0-2, the priority 0/1 or hex, the max is at least the mean.

/// The optional columns a log has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LogLayout {
    pub max: bool,
    pub offset: bool,
    pub prio: bool,
    pub issue: bool,
}

/// What the run's options and version say about the columns; `None` where
/// they say nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Hints {
    pub max: Option<bool>,
    pub offset: Option<bool>,
    pub prio: Option<bool>,
    pub issue: Option<bool>,
}

impl Hints {
    /// What a fio version (`fio-3.33`) rules out or in.
    pub fn from_version(version: &str) -> Hints {
        let Some((major, minor)) = parse_version(version) else {
            return Hints::default();
        };
        let at_least = |a: u32, b: u32| (major, minor) >= (a, b);
        Hints {
            prio: Some(at_least(3, 18)),
            max: (!at_least(3, 37)).then_some(false),
            issue: (!at_least(3, 38)).then_some(false),
            offset: None,
        }
    }

    fn allows(&self, l: &LogLayout) -> bool {
        let ok = |hint: Option<bool>, v: bool| hint.is_none_or(|h| h == v);
        ok(self.max, l.max)
            && ok(self.offset, l.offset)
            && ok(self.prio, l.prio)
            && ok(self.issue, l.issue)
    }
}

/// `fio-3.33` -> (3, 33); `fio-2.21-12-gabc` -> (2, 21).
pub fn parse_version(version: &str) -> Option<(u32, u32)> {
    let v = version
        .trim()
        .strip_prefix("fio-")
        .unwrap_or(version.trim());
    let mut parts = v.split(|c: char| !c.is_ascii_digit());
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next().and_then(|m| m.parse().ok()).unwrap_or(0);
    Some((major, minor))
}

const fn l(max: bool, offset: bool, prio: bool, issue: bool) -> LogLayout {
    LogLayout {
        max,
        offset,
        prio,
        issue,
    }
}

const F: bool = false;
const T: bool = true;
const C4: [LogLayout; 1] = [l(F, F, F, F)];
const C5: [LogLayout; 2] = [l(F, F, T, F), l(F, T, F, F)];
const C6: [LogLayout; 3] = [l(F, T, T, F), l(T, F, T, F), l(F, F, T, T)];
const C7: [LogLayout; 3] = [l(T, T, T, F), l(F, T, T, T), l(T, F, T, T)];
const C8: [LogLayout; 1] = [l(T, T, T, T)];

/// Layouts with `n` fields, most common first.
fn candidates(n: usize) -> &'static [LogLayout] {
    match n {
        4 => &C4,
        5 => &C5,
        6 => &C6,
        7 => &C7,
        8 => &C8,
        _ => &[],
    }
}

impl LogLayout {
    /// Number of fields in a line.
    pub fn fields(&self) -> usize {
        4 + usize::from(self.max)
            + usize::from(self.offset)
            + usize::from(self.prio)
            + usize::from(self.issue)
    }

    /// Index of the direction column (bs follows it).
    pub fn ddir(&self) -> usize {
        2 + usize::from(self.max)
    }

    pub fn offset_col(&self) -> Option<usize> {
        self.offset.then(|| self.ddir() + 2)
    }

    pub fn prio_col(&self) -> Option<usize> {
        self.prio
            .then(|| self.ddir() + 2 + usize::from(self.offset))
    }

    pub fn issue_col(&self) -> Option<usize> {
        self.issue.then(|| self.fields() - 1)
    }

    /// The layout of `lines` (each split into its fields, all with the
    /// same count): of the candidates `hints` allow, the one most lines fit,
    /// the more common layout on a tie (a malformed line must not decide).
    /// `None` when no line fits any.
    pub fn infer(lines: &[Vec<&[u8]>], hints: &Hints) -> Option<LogLayout> {
        let n = lines.first()?.len();
        let mut best: Option<(usize, LogLayout)> = None;
        for c in candidates(n).iter().filter(|c| hints.allows(c)) {
            let fit = lines.iter().filter(|f| f.len() == n && c.fits(f)).count();
            if fit > 0 && best.is_none_or(|(b, _)| fit > b) {
                best = Some((fit, *c));
            }
        }
        best.map(|(_, c)| c)
    }

    fn fits(&self, f: &[&[u8]]) -> bool {
        let ddir_ok = super::parse_u64(f[self.ddir()]).is_some_and(|d| d <= 2);
        let prio_ok = self
            .prio_col()
            .is_none_or(|i| super::parse_prio(f[i]).is_some_and(|p| p.is_hex || p.value <= 1));
        let max_ok = !self.max
            || matches!((super::parse_i64(f[1]), super::parse_i64(f[2])), (Some(v), Some(m)) if m >= v);
        ddir_ok && prio_ok && max_ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(lines: &[&'static str]) -> Vec<Vec<&'static [u8]>> {
        lines
            .iter()
            .map(|l| l.split(',').map(|f| f.trim().as_bytes()).collect())
            .collect()
    }

    #[test]
    fn five_fields_are_prio_unless_the_column_says_offset() {
        let none = Hints::default();
        let modern = split(&["200, 56480, 0, 0, 0", "200, 25440, 1, 0, 0"]);
        assert_eq!(
            LogLayout::infer(&modern, &none),
            Some(l(false, false, true, false))
        );
        let hex = split(&["38, 41959, 1, 4096, 0x6003"]);
        assert_eq!(
            LogLayout::infer(&hex, &none),
            Some(l(false, false, true, false))
        );
        // fio < 3.18 with log_offset: the fifth column is an offset.
        let old = split(&["32, 107211, 0, 4096, 1011712"]);
        assert_eq!(
            LogLayout::infer(&old, &none),
            Some(l(false, true, false, false))
        );
        // ... and the version says so even when offsets happen to be 0/1.
        let zeros = split(&["32, 107211, 0, 4096, 0"]);
        assert_eq!(
            LogLayout::infer(&zeros, &Hints::from_version("fio-3.10")),
            Some(l(false, true, false, false))
        );
    }

    #[test]
    fn six_fields_offset_max_or_issue() {
        let none = Hints::default();
        let offset = split(&["32, 38205, 0, 4096, 1011712, 0"]);
        assert_eq!(
            LogLayout::infer(&offset, &none),
            Some(l(false, true, true, false))
        );
        let max = split(&["200, 113800, 125180, 0, 0, 0", "200, 50080, 55088, 1, 0, 0"]);
        assert_eq!(
            LogLayout::infer(&max, &none),
            Some(l(true, false, true, false))
        );
        let issue = split(&["13, 25768, 1, 4096, 0, 12974232"]);
        assert_eq!(
            LogLayout::infer(&issue, &none),
            Some(l(false, false, true, true))
        );
        // fio 3.33 cannot write max or issue columns.
        assert_eq!(
            LogLayout::infer(&max, &Hints::from_version("fio-3.33")),
            None
        );
    }

    #[test]
    fn column_positions() {
        let all = l(true, true, true, true);
        assert_eq!(
            (
                all.fields(),
                all.ddir(),
                all.offset_col(),
                all.prio_col(),
                all.issue_col()
            ),
            (8, 3, Some(5), Some(6), Some(7))
        );
        let plain = l(false, false, true, false);
        assert_eq!(
            (
                plain.fields(),
                plain.ddir(),
                plain.offset_col(),
                plain.prio_col()
            ),
            (5, 2, None, Some(4))
        );
        assert_eq!(parse_version("fio-2.21-12-gabc"), Some((2, 21)));
        assert_eq!(parse_version("fio-3.33"), Some((3, 33)));
    }
}
