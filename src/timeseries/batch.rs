//! Rows of one log in columns: what the log reader makes and the series
//! writers take. A per-I/O log runs to millions of lines; as columns, a
//! row costs the 30-odd bytes of its own fields, where a vector of
//! [`SeriesRow`]s wrote and read back 150 bytes a row (the optional fields
//! most logs lack included), and the parquet writer copies whole columns
//! instead of gathering them row by row.
//!
//! The rows are the same as [`SeriesRow`]s: [`SeriesBatch::push`] takes one
//! and [`SeriesBatch::rows`] gives them back.

use std::ops::Range;

use super::SeriesRow;
use crate::model::Direction;

/// An optional column. A log's layout decides which optional fields its
/// rows have, so a column is usually set on every row or on none: then no
/// per-row validity is kept (and no values when none is set). A row that
/// breaks the pattern turns validity on from there.
#[derive(Debug, Clone, PartialEq)]
pub struct Opt<T> {
    /// A value per row when any row is set (0 for unset rows once
    /// `valid` is kept); empty while none is.
    values: Vec<T>,
    /// Rows.
    len: usize,
    /// Per-row validity, once rows differ.
    valid: Option<Vec<bool>>,
}

impl<T> Default for Opt<T> {
    fn default() -> Self {
        Opt {
            values: Vec::new(),
            len: 0,
            valid: None,
        }
    }
}

/// How an [`Opt`] holds its rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Validity<'a> {
    /// Every row set (also: no rows).
    All,
    /// No row set.
    None,
    /// Row by row.
    Some(&'a [bool]),
}

impl<T: Copy + Default> Opt<T> {
    #[inline(always)]
    pub fn push(&mut self, x: Option<T>) {
        match (&mut self.valid, x) {
            (Some(valid), _) => {
                valid.push(x.is_some());
                self.values.push(x.unwrap_or_default());
            }
            (None, Some(v)) if self.values.len() == self.len => self.values.push(v),
            (None, None) if self.values.is_empty() => {}
            (None, _) => self.differ(x),
        }
        self.len += 1;
    }

    /// The first row unlike the ones before it: validity from here on.
    #[cold]
    fn differ(&mut self, x: Option<T>) {
        let before = !self.values.is_empty();
        let mut valid = vec![before; self.len];
        valid.push(x.is_some());
        self.values.resize(self.len, T::default());
        self.values.push(x.unwrap_or_default());
        self.valid = Some(valid);
    }

    #[inline]
    pub fn get(&self, i: usize) -> Option<T> {
        match &self.valid {
            Some(valid) => valid[i].then(|| self.values[i]),
            None => self.values.get(i).copied(),
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The values (0 where unset), empty when no row is set.
    pub fn values(&self) -> &[T] {
        &self.values
    }

    pub fn validity(&self) -> Validity<'_> {
        match &self.valid {
            Some(valid) => Validity::Some(valid),
            None if self.values.len() == self.len => Validity::All,
            None => Validity::None,
        }
    }

    /// Appends rows `range` of `other`: a column set on all or none of
    /// them, like this one, in one copy.
    pub fn extend_from(&mut self, other: &Opt<T>, range: Range<usize>) {
        let n = range.len();
        match (self.validity(), other.validity()) {
            (_, _) if n == 0 => {}
            (Validity::All, Validity::All) => {
                self.values.extend_from_slice(&other.values[range]);
                self.len += n;
            }
            (Validity::None, Validity::None) => self.len += n,
            (Validity::All, Validity::None) if self.len == 0 => self.len += n,
            _ => range.for_each(|i| self.push(other.get(i))),
        }
    }

    /// Unset rows up to `n` rows in all.
    fn pad(&mut self, n: usize) {
        if self.valid.is_none() && self.values.is_empty() {
            self.len = self.len.max(n);
        }
        while self.len < n {
            self.push(None);
        }
    }

    /// Empties the column, keeping its buffer.
    pub fn clear(&mut self) {
        self.values.clear();
        self.len = 0;
        self.valid = None;
    }

    pub fn reserve(&mut self, n: usize) {
        self.values.reserve(n);
    }

    /// Takes the values and the per-row validity (None: every row set, or
    /// none when there are no values) out, leaving the column empty.
    pub fn take(&mut self) -> (Vec<T>, Option<Vec<bool>>) {
        self.len = 0;
        (std::mem::take(&mut self.values), self.valid.take())
    }
}

/// Which optional fields rows set. A log's layout decides it, the same for
/// all its rows: [`SeriesBatch::push_as`] touches only those columns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Has {
    pub value_max: bool,
    pub offset_bytes: bool,
    pub percentile: bool,
    pub samples: bool,
    pub priority: bool,
    pub issue_time_ns: bool,
    pub unix_ms: bool,
}

impl Has {
    /// What `r` sets.
    pub fn of(r: &SeriesRow) -> Has {
        Has {
            value_max: r.value_max.is_some(),
            offset_bytes: r.offset_bytes.is_some(),
            percentile: r.percentile.is_some(),
            samples: r.samples.is_some(),
            priority: r.priority.is_some(),
            issue_time_ns: r.issue_time_ns.is_some(),
            unix_ms: r.unix_ms.is_some(),
        }
    }
}

/// Rows of one log, column by column (the fields of [`SeriesRow`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SeriesBatch {
    /// Index into [`super::Logs::logs`] of every row.
    pub log: u32,
    pub direction: Vec<Direction>,
    pub t_ms: Vec<u64>,
    pub value: Vec<f64>,
    pub bs_bytes: Vec<u64>,
    pub value_max: Opt<f64>,
    pub offset_bytes: Opt<u64>,
    pub percentile: Opt<f64>,
    pub samples: Opt<u64>,
    pub priority: Opt<u32>,
    pub issue_time_ns: Opt<u64>,
    pub unix_ms: Opt<u64>,
}

impl SeriesBatch {
    /// An empty batch of `log`'s rows.
    pub fn new(log: u32) -> SeriesBatch {
        SeriesBatch {
            log,
            ..SeriesBatch::default()
        }
    }

    /// The rows of `rows`, which all come from one log (the first's).
    pub fn from_rows(rows: &[SeriesRow]) -> SeriesBatch {
        let mut batch = SeriesBatch::new(rows.first().map_or(0, |r| r.log));
        rows.iter().for_each(|r| batch.push(r));
        batch
    }

    pub fn len(&self) -> usize {
        self.t_ms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.t_ms.is_empty()
    }

    /// Appends a row (its `log` is the batch's): the log reader's hot
    /// path, inlined into it.
    #[inline(always)]
    pub fn push(&mut self, r: &SeriesRow) {
        self.direction.push(r.direction);
        self.t_ms.push(r.t_ms);
        self.value.push(r.value);
        self.bs_bytes.push(r.bs_bytes);
        self.value_max.push(r.value_max);
        self.offset_bytes.push(r.offset_bytes);
        self.percentile.push(r.percentile);
        self.samples.push(r.samples);
        self.priority.push(r.priority);
        self.issue_time_ns.push(r.issue_time_ns);
        self.unix_ms.push(r.unix_ms);
    }

    /// Appends a row that sets the optional fields `has` says and no
    /// other: the columns it does not set are left short until
    /// [`SeriesBatch::even`] (a per-I/O log's line sets two or three of
    /// seven: the others cost nothing per row).
    #[inline(always)]
    pub fn push_as(&mut self, r: &SeriesRow, has: Has) {
        debug_assert_eq!(Has::of(r), has);
        self.direction.push(r.direction);
        self.t_ms.push(r.t_ms);
        self.value.push(r.value);
        self.bs_bytes.push(r.bs_bytes);
        if has.value_max {
            self.value_max.push(r.value_max);
        }
        if has.offset_bytes {
            self.offset_bytes.push(r.offset_bytes);
        }
        if has.percentile {
            self.percentile.push(r.percentile);
        }
        if has.samples {
            self.samples.push(r.samples);
        }
        if has.priority {
            self.priority.push(r.priority);
        }
        if has.issue_time_ns {
            self.issue_time_ns.push(r.issue_time_ns);
        }
        if has.unix_ms {
            self.unix_ms.push(r.unix_ms);
        }
    }

    /// Every column as long as the batch again: the optional columns
    /// [`SeriesBatch::push_as`] left short are unset on those rows.
    pub fn even(&mut self) {
        let n = self.len();
        self.value_max.pad(n);
        self.offset_bytes.pad(n);
        self.percentile.pad(n);
        self.samples.pad(n);
        self.priority.pad(n);
        self.issue_time_ns.pad(n);
        self.unix_ms.pad(n);
    }

    /// Row `i`.
    #[inline]
    pub fn row(&self, i: usize) -> SeriesRow {
        SeriesRow {
            log: self.log,
            direction: self.direction[i],
            t_ms: self.t_ms[i],
            value: self.value[i],
            value_max: self.value_max.get(i),
            bs_bytes: self.bs_bytes[i],
            offset_bytes: self.offset_bytes.get(i),
            percentile: self.percentile.get(i),
            samples: self.samples.get(i),
            priority: self.priority.get(i),
            issue_time_ns: self.issue_time_ns.get(i),
            unix_ms: self.unix_ms.get(i),
        }
    }

    /// The rows, in order.
    pub fn rows(&self) -> impl ExactSizeIterator<Item = SeriesRow> + '_ {
        (0..self.len()).map(|i| self.row(i))
    }

    /// Appends rows `range` of `other` (rows of the same log), column by
    /// column.
    pub fn extend_from(&mut self, other: &SeriesBatch, range: Range<usize>) {
        self.direction
            .extend_from_slice(&other.direction[range.clone()]);
        self.t_ms.extend_from_slice(&other.t_ms[range.clone()]);
        self.value.extend_from_slice(&other.value[range.clone()]);
        self.bs_bytes
            .extend_from_slice(&other.bs_bytes[range.clone()]);
        self.value_max.extend_from(&other.value_max, range.clone());
        self.offset_bytes
            .extend_from(&other.offset_bytes, range.clone());
        self.percentile
            .extend_from(&other.percentile, range.clone());
        self.samples.extend_from(&other.samples, range.clone());
        self.priority.extend_from(&other.priority, range.clone());
        self.issue_time_ns
            .extend_from(&other.issue_time_ns, range.clone());
        self.unix_ms.extend_from(&other.unix_ms, range);
    }

    /// Empties the batch, keeping its buffers.
    pub fn clear(&mut self) {
        self.direction.clear();
        self.t_ms.clear();
        self.value.clear();
        self.bs_bytes.clear();
        self.value_max.clear();
        self.offset_bytes.clear();
        self.percentile.clear();
        self.samples.clear();
        self.priority.clear();
        self.issue_time_ns.clear();
        self.unix_ms.clear();
    }

    /// Room for `n` more rows in the columns every row has.
    pub fn reserve(&mut self, n: usize) {
        self.direction.reserve(n);
        self.t_ms.reserve(n);
        self.value.reserve(n);
        self.bs_bytes.reserve(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(i: u64) -> SeriesRow {
        let mut r = SeriesRow::new(3, Direction::ALL[i as usize % 3], i, i as f64 / 2.0);
        r.bs_bytes = 4096;
        r.priority = Some(1);
        r.offset_bytes = (i % 4 == 1).then_some(i * 4096);
        r.percentile = (i >= 5).then_some(99.0);
        r.unix_ms = (i < 5).then_some(1_700_000_000_000 + i);
        r
    }

    #[test]
    fn rows_come_back_as_pushed_whatever_their_optional_fields() {
        let rows: Vec<SeriesRow> = (0..10).map(row).collect();
        let batch = SeriesBatch::from_rows(&rows);
        assert_eq!(batch.log, 3);
        assert_eq!(batch.rows().collect::<Vec<_>>(), rows);
        assert_eq!(batch.priority.validity(), Validity::All);
        assert_eq!(batch.value_max.validity(), Validity::None);
        assert!(batch.value_max.values().is_empty());
        assert!(matches!(batch.offset_bytes.validity(), Validity::Some(_)));
        assert!(matches!(batch.unix_ms.validity(), Validity::Some(_)));
    }

    #[test]
    fn extending_by_ranges_gives_the_rows_of_the_ranges() {
        let rows: Vec<SeriesRow> = (0..10).map(row).collect();
        let batch = SeriesBatch::from_rows(&rows);
        for cut in [0, 1, 4, 5, 9, 10] {
            let mut joined = SeriesBatch::new(3);
            joined.extend_from(&batch, 0..cut);
            joined.extend_from(&batch, cut..10);
            assert_eq!(joined.rows().collect::<Vec<_>>(), rows, "cut at {cut}");
        }
        // Uniform columns stay without validity across extends.
        let mut twice = SeriesBatch::new(3);
        twice.extend_from(&batch, 0..3);
        twice.extend_from(&batch, 0..3);
        assert_eq!(twice.priority.validity(), Validity::All);
        assert_eq!(twice.value_max.validity(), Validity::None);
        assert_eq!(twice.len(), 6);
        twice.clear();
        assert!(twice.is_empty() && twice.priority.is_empty());
    }

    /// Rows pushed with only the columns they set, evened out, are the
    /// rows pushed whole; a row that sets a column the rows before did not
    /// keeps it.
    #[test]
    fn rows_pushed_as_they_are_set_then_evened_are_the_rows() {
        let rows: Vec<SeriesRow> = (0..10)
            .map(|i| {
                let mut r = row(i);
                r.percentile = None;
                r.offset_bytes = None;
                r.unix_ms = Some(i);
                r
            })
            .collect();
        let mut batch = SeriesBatch::new(3);
        rows.iter().for_each(|r| batch.push_as(r, Has::of(r)));
        batch.even();
        assert_eq!(batch, SeriesBatch::from_rows(&rows));
        // Then a row of other fields.
        let mut other = row(3);
        other.value_max = Some(2.0);
        batch.push(&other);
        let mut want = rows.clone();
        want.push(other);
        assert_eq!(batch.rows().collect::<Vec<_>>(), want);
    }

    #[test]
    fn a_column_unset_then_set_keeps_its_nulls() {
        let mut o = Opt::<u64>::default();
        o.push(None);
        o.push(None);
        o.push(Some(7));
        o.push(None);
        assert_eq!(
            (0..4).map(|i| o.get(i)).collect::<Vec<_>>(),
            [None, None, Some(7), None]
        );
        let mut all = Opt::<u64>::default();
        all.push(Some(1));
        all.push(None);
        assert_eq!(all.validity(), Validity::Some(&[true, false]));
        assert_eq!(all.len(), 2);
    }
}
