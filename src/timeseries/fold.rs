//! One trace (a log's rows of one direction and percentile) folded into
//! fine time cells as the rows are read, so a log of any length takes the
//! same memory: at most [`MAX_CELLS`] cells per trace. Charts and the SNIA
//! rounds then cut their buckets from the cells ([`Folded::points`]), with
//! the same rules as [`super::bucket::buckets`] applies to rows.
//!
//! Cells start 1 ms wide; when a row lands past the last cell allowed,
//! cells are merged ten at a time (10 ms, 100 ms, ...). A chart bucket
//! (1, 2, 5 × 10^k ms, about 300 per run) is then always a whole number of
//! cells, so charts come out as from the rows; a SNIA round of another
//! length can be off by at most one cell at each end, under 1/400 of a
//! round.

use super::bucket::{BucketPoint, is_rate};
use super::{Kind, LogInfo, SeriesBatch, SeriesRow};
use crate::model::{Direction, Warning};

/// Most cells a trace holds (each 48 bytes at most).
pub const MAX_CELLS: u64 = 16_384;

/// Averaged rows held before the log's usual spacing is taken from them.
const HEAD_ROWS: usize = 4096;

/// Per-I/O view of a cell: the rows that ended in it.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Events {
    sum: f64,
    rows: u64,
    bytes: u64,
    /// Rows with bs > 0 (per-I/O rows).
    ios: u64,
}

/// Averaged view of a cell: the windows that cover it.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Cover {
    /// Sum of value × ms covered.
    weighted: f64,
    ms: f64,
}

/// Averaged rows spread over the windows they stand for.
#[derive(Debug, Clone, Default)]
struct Windows {
    cells: Vec<Cover>,
    /// The first rows (t, value), until the usual spacing is known.
    head: Vec<(u64, f64)>,
    usual: Option<u64>,
    prev: u64,
}

/// A trace in cells.
#[derive(Debug, Clone)]
pub struct Folded {
    pub kind: Kind,
    cell_ms: u64,
    events: Vec<Events>,
    /// While every row is averaged (bs 0); dropped at the first per-I/O row.
    windows: Option<Windows>,
    last_ms: Option<u64>,
}

impl Folded {
    pub fn new(kind: Kind) -> Folded {
        Folded {
            kind,
            cell_ms: 1,
            events: Vec::new(),
            windows: Some(Windows::default()),
            last_ms: None,
        }
    }

    /// Time of the last row, ms.
    pub fn last_ms(&self) -> Option<u64> {
        self.last_ms
    }

    /// Width of a cell now, ms.
    pub fn cell_ms(&self) -> u64 {
        self.cell_ms
    }

    pub fn is_empty(&self) -> bool {
        self.last_ms.is_none()
    }

    /// Adds one row (rows need not come in time order).
    pub fn add(&mut self, row: &SeriesRow) {
        self.add_value(row.t_ms, row.value, row.bs_bytes);
    }

    /// A row's time, value and block size (all the fold keeps of it).
    #[inline]
    fn add_value(&mut self, t: u64, value: f64, bs_bytes: u64) {
        self.last_ms = Some(self.last_ms.map_or(t, |l| l.max(t)));
        self.cover(t);
        let e = &mut self.events[(t / self.cell_ms) as usize];
        e.sum += value;
        e.rows += 1;
        if bs_bytes > 0 {
            e.bytes += bs_bytes;
            e.ios += 1;
            self.windows = None;
        }
        if self.windows.is_some() {
            self.add_window(t, value);
        }
    }

    /// Makes the cells reach `t`, merging them while it lies too far out.
    fn cover(&mut self, t: u64) {
        while t / self.cell_ms >= MAX_CELLS {
            self.cell_ms *= 10;
            merge_tens(&mut self.events, |a, b| Events {
                sum: a.sum + b.sum,
                rows: a.rows + b.rows,
                bytes: a.bytes + b.bytes,
                ios: a.ios + b.ios,
            });
            if let Some(w) = &mut self.windows {
                merge_tens(&mut w.cells, |a, b| Cover {
                    weighted: a.weighted + b.weighted,
                    ms: a.ms + b.ms,
                });
            }
        }
        let need = (t / self.cell_ms + 1) as usize;
        if self.events.len() < need {
            self.events.resize(need, Events::default());
        }
    }

    fn add_window(&mut self, t: u64, value: f64) {
        let Some(w) = &mut self.windows else { return };
        if w.usual.is_none() {
            w.head.push((t, value));
            if w.head.len() >= HEAD_ROWS {
                self.flush_head();
            }
            return;
        }
        self.spread(t, value);
    }

    /// Takes the usual spacing from the rows held and spreads them.
    fn flush_head(&mut self) {
        let Some(w) = &mut self.windows else { return };
        let mut head = std::mem::take(&mut w.head);
        // Stable: fio's repeated final timestamp keeps its order.
        head.sort_by_key(|(t, _)| *t);
        w.usual = Some(usual_spacing(&head));
        for (t, v) in head {
            self.spread(t, v);
        }
    }

    /// An averaged row as the mean of the window ending at `t` (see
    /// [`super::bucket::buckets`] for the rule), added to the cells it covers.
    fn spread(&mut self, t: u64, value: f64) {
        let Some(w) = &mut self.windows else { return };
        let usual = w.usual.unwrap_or(1);
        let gap = t.saturating_sub(w.prev);
        let span = if gap.saturating_mul(2) <= usual.saturating_mul(3) {
            gap
        } else {
            usual
        };
        let (from, to) = (t.saturating_sub(span.max(1)), t);
        w.prev = w.prev.max(t);
        let cell = self.cell_ms;
        let Some(w) = &mut self.windows else { return };
        let need = (to.saturating_sub(1) / cell + 1) as usize;
        if w.cells.len() < need {
            w.cells.resize(need, Cover::default());
        }
        let mut b = from / cell;
        while b.saturating_mul(cell) < to {
            let lo = from.max(b * cell);
            let hi = to.min((b + 1).saturating_mul(cell));
            let c = &mut w.cells[b as usize];
            c.weighted += value * (hi - lo) as f64;
            c.ms += (hi - lo) as f64;
            b += 1;
        }
    }

    /// Ends the fold: rows still held are spread.
    pub fn finish(&mut self) {
        if self.windows.as_ref().is_some_and(|w| w.usual.is_none()) {
            self.flush_head();
        }
    }

    /// One value per `width_ms` bucket, as [`super::bucket::buckets`] gives
    /// for the same rows. Call [`Folded::finish`] first.
    pub fn points(&self, width_ms: u64) -> Vec<BucketPoint> {
        let Some(last_ms) = self.last_ms else {
            return Vec::new();
        };
        let width_ms = width_ms.max(1);
        match &self.windows {
            Some(w) => window_points(&w.cells, self.cell_ms, self.kind, width_ms, last_ms),
            None => event_points(&self.events, self.cell_ms, self.kind, width_ms, last_ms),
        }
    }
}

/// One trace: a log's rows of one direction (and percentile, for
/// histogram logs), folded.
#[derive(Debug, Clone)]
pub struct FoldedTrace {
    /// Index into [`Folds::logs`].
    pub log: u32,
    pub direction: Direction,
    pub percentile: Option<f64>,
    pub fold: Folded,
}

/// Every log folded: what the charts and the steady-state judge keep of
/// the logs, whatever their length.
#[derive(Debug, Clone, Default)]
pub struct Folds {
    pub logs: Vec<LogInfo>,
    /// Per log in log order, then in order of first appearance.
    pub traces: Vec<FoldedTrace>,
    /// Malformed lines, odd times, logs not read.
    pub warnings: Vec<Warning>,
}

/// Folds the rows of one log as they are read.
#[derive(Debug, Clone)]
pub struct LogFolder {
    kind: Kind,
    traces: Vec<FoldedTrace>,
    /// The trace of the last row added.
    at: usize,
}

impl LogFolder {
    pub fn new(kind: Kind) -> LogFolder {
        LogFolder {
            kind,
            traces: Vec::new(),
            at: 0,
        }
    }

    /// Adds rows of this log (any block of them).
    pub fn add(&mut self, rows: &[SeriesRow]) {
        rows.iter().for_each(|r| self.add_row(r));
    }

    /// Adds a batch of this log's rows, read column by column.
    pub fn add_batch(&mut self, b: &SeriesBatch) {
        for i in 0..b.len() {
            let at = self.trace(b.log, b.direction[i], b.percentile.get(i));
            self.traces[at]
                .fold
                .add_value(b.t_ms[i], b.value[i], b.bs_bytes[i]);
        }
    }

    fn add_row(&mut self, r: &SeriesRow) {
        let at = self.trace(r.log, r.direction, r.percentile);
        self.traces[at].fold.add(r);
    }

    /// The index of the trace of rows of `direction` and `percentile`
    /// (made on its first row).
    #[inline]
    fn trace(&mut self, log: u32, direction: Direction, percentile: Option<f64>) -> usize {
        let same = |t: &FoldedTrace| t.direction == direction && t.percentile == percentile;
        if !self.traces.get(self.at).is_some_and(same) {
            self.at = match self.traces.iter().position(same) {
                Some(i) => i,
                None => {
                    self.traces.push(FoldedTrace {
                        log,
                        direction,
                        percentile,
                        fold: Folded::new(self.kind),
                    });
                    self.traces.len() - 1
                }
            };
        }
        self.at
    }

    /// The log's traces, finished.
    pub fn finish(mut self) -> Vec<FoldedTrace> {
        for t in &mut self.traces {
            t.fold.finish();
        }
        self.traces
    }
}

/// Cells ten at a time into one (cell `i` goes to `i / 10`).
fn merge_tens<T: Copy + Default>(cells: &mut Vec<T>, add: impl Fn(T, T) -> T) {
    let merged: Vec<T> = cells
        .chunks(10)
        .map(|c| c.iter().fold(T::default(), |a, b| add(a, *b)))
        .collect();
    *cells = merged;
}

/// The bucket a cell falls in (by its start).
fn bucket_of(cell: usize, cell_ms: u64, width_ms: u64) -> u64 {
    cell as u64 * cell_ms / width_ms
}

fn event_points(
    cells: &[Events],
    cell_ms: u64,
    kind: Kind,
    width: u64,
    last_ms: u64,
) -> Vec<BucketPoint> {
    let mut acc: Vec<(u64, Events)> = Vec::new();
    for (i, c) in cells.iter().enumerate().filter(|(_, c)| c.rows > 0) {
        let b = bucket_of(i, cell_ms, width);
        match acc.last_mut() {
            Some((lb, a)) if *lb == b => {
                a.sum += c.sum;
                a.rows += c.rows;
                a.bytes += c.bytes;
                a.ios += c.ios;
            }
            _ => acc.push((b, *c)),
        }
    }
    let last_bucket = last_ms / width;
    acc.into_iter()
        .filter_map(|(b, a)| {
            let start = b * width;
            // As for rows: a last bucket the log ends inside is rated over
            // the time it covers, or left out under half a bucket.
            let secs = if b == last_bucket && a.ios == a.rows {
                let covered = last_ms + 1 - start;
                if covered * 2 < width {
                    return None;
                }
                covered as f64 / 1000.0
            } else {
                width as f64 / 1000.0
            };
            let value = match kind {
                Kind::Iops if a.ios == a.rows => a.ios as f64 / secs,
                Kind::Bw if a.ios == a.rows => a.bytes as f64 / secs,
                _ => a.sum / a.rows as f64,
            };
            Some(BucketPoint { t_ms: start, value })
        })
        .collect()
}

fn window_points(
    cells: &[Cover],
    cell_ms: u64,
    kind: Kind,
    width: u64,
    last_ms: u64,
) -> Vec<BucketPoint> {
    let mut acc: Vec<(u64, Cover)> = Vec::new();
    for (i, c) in cells.iter().enumerate().filter(|(_, c)| c.ms > 0.0) {
        let b = bucket_of(i, cell_ms, width);
        match acc.last_mut() {
            Some((lb, a)) if *lb == b => {
                a.weighted += c.weighted;
                a.ms += c.ms;
            }
            _ => acc.push((b, *c)),
        }
    }
    let rate = is_rate(kind);
    acc.into_iter()
        .map(|(b, a)| {
            let start = b * width;
            let over = if rate {
                ((start.saturating_add(width))
                    .min(last_ms)
                    .saturating_sub(start)) as f64
            } else {
                a.ms
            };
            BucketPoint {
                t_ms: start,
                value: a.weighted / over.max(a.ms),
            }
        })
        .collect()
}

/// The 10th percentile of the time between rows (in time order), as
/// `bucket::usual_spacing` takes it; 1 ms at least.
fn usual_spacing(rows: &[(u64, f64)]) -> u64 {
    let mut gaps: Vec<u64> = rows
        .windows(2)
        .map(|w| w[1].0.saturating_sub(w[0].0))
        .filter(|g| *g > 0)
        .collect();
    if gaps.is_empty() {
        return rows.first().map_or(1, |r| r.0.max(1));
    }
    gaps.sort_unstable();
    gaps[gaps.len() / 10]
}

#[cfg(test)]
mod tests;
