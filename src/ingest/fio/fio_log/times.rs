//! Times a log cannot hold: a time beyond any the run could reach (left
//! out, so one hostile line cannot stretch a time axis or a bucket
//! vector to 2^64 ms), a time going backwards within one direction,
//! an averaged line written twice, a log whose every time is 0. Each is
//! counted and reported once per log, naming its first line; only the
//! first kind drops rows.
//!
//! fio writes each direction's rows in completion order (iolog.c
//! `add_sample` appends, `flush_samples` writes them in order), so a time
//! below an earlier one of the same direction was not written by fio.
//! Identical lines are normal in per-I/O logs (two I/Os of the same size
//! and latency in one ms, and every line of a per-I/O iops log is `t, 1,
//! ddir, bs, prio`), so only averaged and histogram lines are checked.

use crate::model::Direction;

/// Largest time a log may carry, ms, when the run's runtime is unknown:
/// 2^53, beyond which an f64 axis cannot place a millisecond (and 285,000
/// years of runtime).
/// A run at least this long (ms) cannot log every I/O at time 0.
const ALL_ZERO_RUNTIME_MS: u64 = 1000;

pub const MAX_T_MS: u64 = 1 << 53;

/// The bound for a run that ran `runtime_ms`: logs end with the job, so a
/// time past twice its runtime plus a minute (for `ramp_time`, a slow
/// final flush) is not one fio logged.
pub fn bound_for_runtime(runtime_ms: u64) -> u64 {
    runtime_ms
        .saturating_mul(2)
        .saturating_add(60_000)
        .min(MAX_T_MS)
}

/// The first line and count of one kind of oddity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Seen {
    count: u64,
    line: usize,
    /// A time worth quoting (the bad one, or where the log went back from).
    t: u64,
    to: u64,
}

impl Seen {
    fn note(&mut self, line: usize, t: u64, to: u64) {
        if self.count == 0 {
            (self.line, self.t, self.to) = (line, t, to);
        }
        self.count += 1;
    }

    /// Counts of a later piece of the log (the earliest first line wins).
    fn absorb(&mut self, later: Seen) {
        if later.count > 0 && (self.count == 0 || later.line < self.line) {
            (self.line, self.t, self.to) = (later.line, later.t, later.to);
        }
        self.count += later.count;
    }
}

/// Per-log state of the checks.
#[derive(Debug, Clone)]
pub(super) struct TimeCheck {
    max_t_ms: u64,
    /// Why `max_t_ms`: the run's runtime, when known.
    runtime_ms: Option<u64>,
    last: [Option<u64>; 3],
    /// Line and time of each direction's first row (to join pieces).
    first: [Option<(usize, u64)>; 3],
    beyond: Seen,
    backwards: Seen,
    duplicated: Seen,
    rows: u64,
    any_nonzero: bool,
    prev_line: Vec<u8>,
}

impl TimeCheck {
    pub(super) fn new(runtime_ms: Option<u64>) -> TimeCheck {
        TimeCheck {
            max_t_ms: runtime_ms.map_or(MAX_T_MS, bound_for_runtime),
            runtime_ms,
            last: [None; 3],
            first: [None; 3],
            beyond: Seen::default(),
            backwards: Seen::default(),
            duplicated: Seen::default(),
            rows: 0,
            any_nonzero: false,
            prev_line: Vec::new(),
        }
    }

    /// Whether a row at `t_ms` (`raw` as logged) of `direction` can be
    /// placed on the time axis; counts what is odd about it.
    #[inline]
    pub(super) fn place(&mut self, line: usize, raw: u64, t_ms: u64, direction: Direction) -> bool {
        if t_ms > self.max_t_ms {
            self.beyond.note(line, raw, 0);
            return false;
        }
        self.rows += 1;
        self.any_nonzero |= t_ms > 0;
        // Against the previous row, not the largest time so far: one stray
        // time far ahead must not make every line after it "go back".
        let d = direction as usize % 3;
        self.first[d].get_or_insert((line, t_ms));
        let slot = &mut self.last[d];
        if let Some(last) = slot.filter(|last| t_ms < *last) {
            self.backwards.note(line, last, t_ms);
        }
        *slot = Some(t_ms);
        true
    }

    /// A fresh check for a piece of the same log (same bound).
    pub(super) fn piece(&self) -> TimeCheck {
        TimeCheck::new(self.runtime_ms)
    }

    /// Adds a piece's counts, pieces in file order: a piece's first row of
    /// a direction is compared with the last row before the piece.
    pub(super) fn absorb(&mut self, p: TimeCheck) {
        for d in 0..3 {
            if let (Some(last), Some((line, t))) = (self.last[d], p.first[d])
                && t < last
            {
                self.backwards.note(line, last, t);
            }
            self.first[d] = self.first[d].or(p.first[d]);
            self.last[d] = p.last[d].or(self.last[d]);
        }
        self.beyond.absorb(p.beyond);
        self.backwards.absorb(p.backwards);
        self.duplicated.absorb(p.duplicated);
        self.rows += p.rows;
        self.any_nonzero |= p.any_nonzero;
    }

    /// Whether `line` repeats the previous line byte for byte (averaged and
    /// histogram logs only: see the module notes).
    pub(super) fn repeated(&mut self, line_no: usize, line: &[u8]) -> bool {
        let same = !self.prev_line.is_empty() && self.prev_line == line;
        if same {
            self.duplicated.note(line_no, 0, 0);
        } else {
            self.prev_line.clear();
            self.prev_line.extend_from_slice(line);
        }
        same
    }

    /// One warning per kind of oddity found.
    pub(super) fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        let more = |s: &Seen, what: &str| match s.count {
            0 | 1 => String::new(),
            n => format!(" ({n} {what} in all)"),
        };
        if self.beyond.count > 0 {
            let why = match self.runtime_ms {
                Some(r) => format!("the run's runtime of {r} ms by far"),
                None => format!("{MAX_T_MS} ms (2^53)"),
            };
            out.push(format!(
                "line {}: time {} ms is beyond {why}; {} left out of the time axis{}",
                self.beyond.line,
                self.beyond.t,
                crate::numbers::count(self.beyond.count as usize, "row"),
                more(&self.beyond, "such lines"),
            ));
        }
        if self.backwards.count > 0 {
            out.push(format!(
                "line {}: time goes back from {} to {} ms within one direction; kept{}",
                self.backwards.line,
                self.backwards.t,
                self.backwards.to,
                more(&self.backwards, "such lines"),
            ));
        }
        if self.duplicated.count > 0 {
            out.push(format!(
                "line {}: the previous line repeated; kept{}",
                self.duplicated.line,
                more(&self.duplicated, "repeated lines"),
            ));
        }
        // A short run (fio's null engine, a tiny size) rightly logs every
        // I/O at 0, and a thread may finish in its first millisecond while
        // the job's runtime, which counts the slowest thread's start on a
        // busy machine, reads a few ms: only a run of a second or more
        // whose every time is 0 is a broken log.
        let lasted = self.runtime_ms.is_none_or(|r| r >= ALL_ZERO_RUNTIME_MS);
        if self.rows > 1 && !self.any_nonzero && lasted {
            out.push(format!(
                "every time is 0 ({} rows): the log cannot be told apart over time",
                self.rows
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_oddity_is_named_once_with_its_first_line_and_counted() {
        let mut c = TimeCheck::new(Some(10_000));
        assert!(c.place(1, 100, 100, Direction::Read));
        assert!(c.place(2, 200, 200, Direction::Read));
        // The other direction keeps its own clock.
        assert!(c.place(3, 50, 50, Direction::Write));
        assert!(c.place(4, 150, 150, Direction::Read));
        assert!(c.place(5, 120, 120, Direction::Read));
        assert!(!c.place(6, u64::MAX, u64::MAX, Direction::Read));
        assert!(!c.place(7, 90_000, 90_000, Direction::Read));
        assert!(c.place(8, 80_000, 80_000, Direction::Read));
        let w = c.warnings();
        assert_eq!(w.len(), 2, "{w:?}");
        assert_eq!(
            w[0],
            "line 6: time 18446744073709551615 ms is beyond the run's runtime of 10000 ms by far; \
             2 rows left out of the time axis (2 such lines in all)"
        );
        assert_eq!(
            w[1],
            "line 4: time goes back from 200 to 150 ms within one direction; kept (2 such lines in all)"
        );
    }

    #[test]
    fn repeated_lines_and_all_zero_times() {
        let mut c = TimeCheck::new(None);
        assert!(!c.repeated(1, b"0, 5, 0, 0, 0"));
        assert!(c.repeated(2, b"0, 5, 0, 0, 0"));
        assert!(!c.repeated(3, b"0, 6, 0, 0, 0"));
        for line in 1..=3 {
            assert!(c.place(line, 0, 0, Direction::Read));
        }
        let w = c.warnings();
        assert_eq!(w[0], "line 2: the previous line repeated; kept");
        assert_eq!(
            w[1],
            "every time is 0 (3 rows): the log cannot be told apart over time"
        );
        assert_eq!(bound_for_runtime(u64::MAX), MAX_T_MS);
        // A run that took a few milliseconds logs every I/O at 0: nothing
        // odd; one of a second cannot have.
        for (runtime, warned) in [(1, false), (7, false), (999, false), (1000, true)] {
            let mut quick = TimeCheck::new(Some(runtime));
            for line in 1..=3 {
                assert!(quick.place(line, 0, 0, Direction::Read));
            }
            assert_eq!(!quick.warnings().is_empty(), warned, "{runtime} ms");
        }
        assert!(!TimeCheck::new(None).place(1, MAX_T_MS + 1, MAX_T_MS + 1, Direction::Read));
    }
}
