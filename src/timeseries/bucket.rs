//! Time buckets: a job's log rows reduced to one value per fixed slice of
//! time, and several jobs' buckets merged as fio's group reporting merges
//! jobs (rates summed, latencies averaged). What the timeseries charts draw
//! and the SNIA steady-state rounds are cut from; a million-line per-I/O
//! log becomes a few hundred points.

use std::collections::BTreeMap;

use super::{Kind, SeriesRow};

/// One bucket: its start (ms since the job started) and value (SI units
/// of its [`Kind`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BucketPoint {
    pub t_ms: u64,
    pub value: f64,
}

/// Whether `kind` adds up across jobs running side by side.
pub fn is_rate(kind: Kind) -> bool {
    matches!(kind, Kind::Bw | Kind::Iops)
}

/// One log's rows (in time order) as one value per `width_ms` bucket.
///
/// Averaged rows (fio writes bs 0 there) are window means: a bucket holds
/// their mean. Per-I/O rows of a rate log (bs > 0) are events: a bucket's
/// IOPS is its I/O count per second and its bandwidth its bytes per second,
/// because a per-I/O bw value is one I/O's own speed, not the job's.
/// Latency rows are averaged either way.
pub fn buckets(rows: &[&SeriesRow], kind: Kind, width_ms: u64) -> Vec<BucketPoint> {
    let width_ms = width_ms.max(1);
    if !rows.is_empty() && rows.iter().all(|r| r.bs_bytes == 0) {
        return window_buckets(rows, kind, width_ms);
    }
    let width_s = width_ms as f64 / 1000.0;
    // (sum of values, rows, bytes, per-I/O rows)
    let mut acc: BTreeMap<u64, (f64, u64, u64, u64)> = BTreeMap::new();
    for r in rows {
        let a = acc.entry(r.t_ms / width_ms).or_default();
        a.0 += r.value;
        a.1 += 1;
        if r.bs_bytes > 0 {
            a.2 += r.bs_bytes;
            a.3 += 1;
        }
    }
    let last_ms = rows.iter().map(|r| r.t_ms).max().unwrap_or(0);
    let last_bucket = last_ms / width_ms;
    acc.into_iter()
        .filter_map(|(b, (sum, n, bytes, events))| {
            let start = b * width_ms;
            // The log ends inside its last bucket: a count over the whole
            // width would read as a dip. Rate it over the time it covers,
            // or leave it out when that is under half a bucket.
            let secs = if b == last_bucket && events == n {
                let covered = last_ms + 1 - start;
                if covered * 2 < width_ms {
                    return None;
                }
                covered as f64 / 1000.0
            } else {
                width_s
            };
            let value = match kind {
                Kind::Iops if events == n => events as f64 / secs,
                Kind::Bw if events == n => bytes as f64 / secs,
                _ => sum / n as f64,
            };
            Some(BucketPoint { t_ms: start, value })
        })
        .collect()
}

/// Averaged rows as time-weighted bucket values. A row is the mean of the
/// window that ends at its timestamp, so it is spread over that window,
/// not dropped into the bucket its end falls in: a window flushed a few
/// ms late (rows at 601 and 735 ms with 100 ms windows) would otherwise
/// leave the 500-600 ms bucket empty, drawn as a stall that never was.
/// A window is the time since the previous row, unless that gap is far
/// longer than the log's usual spacing: then no I/O completed for a while
/// (fio writes no row in a stall and logs the catch-up burst as one
/// window), and the row covers one usual window; the rest stays empty.
///
/// A rate (bw, IOPS) is averaged over the whole bucket, time no row
/// covers counting as no I/O, so the I/Os of a burst that straddles two
/// buckets are split between them, not counted in each (the log's last
/// bucket is rated over the time up to its last row). A latency is the
/// mean over the time rows cover.
fn window_buckets(rows: &[&SeriesRow], kind: Kind, width_ms: u64) -> Vec<BucketPoint> {
    let usual = usual_spacing(rows);
    let last_ms = rows.iter().map(|r| r.t_ms).max().unwrap_or(0);
    // bucket -> (sum of value x ms covered, ms covered)
    let mut acc: BTreeMap<u64, (f64, f64)> = BTreeMap::new();
    let mut prev = 0u64;
    for r in rows {
        let gap = r.t_ms.saturating_sub(prev);
        let span = if gap * 2 <= usual * 3 { gap } else { usual };
        let (from, to) = (r.t_ms.saturating_sub(span.max(1)), r.t_ms);
        let mut b = from / width_ms;
        while b * width_ms < to {
            let lo = from.max(b * width_ms);
            let hi = to.min((b + 1) * width_ms);
            let a = acc.entry(b).or_default();
            a.0 += r.value * (hi - lo) as f64;
            a.1 += (hi - lo) as f64;
            b += 1;
        }
        prev = prev.max(r.t_ms);
    }
    let rate = is_rate(kind);
    acc.into_iter()
        .filter(|(_, (_, ms))| *ms > 0.0)
        .map(|(b, (sum, covered))| {
            let start = b * width_ms;
            let over = if rate {
                ((start + width_ms).min(last_ms) - start) as f64
            } else {
                covered
            };
            BucketPoint {
                t_ms: start,
                value: sum / over.max(covered),
            }
        })
        .collect()
}

/// A log's averaging window as its rows show it: the 10th percentile of
/// the time between rows. Not the median: in a log of a job that stalls
/// more often than not, most gaps are stalls (fio's `snia/stalls` fixture:
/// 100 ms windows, 8 of 13 gaps a second long). A short final flush is
/// one gap of many. 1 ms at least.
fn usual_spacing(rows: &[&SeriesRow]) -> u64 {
    let mut gaps: Vec<u64> = rows
        .windows(2)
        .map(|w| w[1].t_ms.saturating_sub(w[0].t_ms))
        .filter(|g| *g > 0)
        .collect();
    if gaps.is_empty() {
        return rows.first().map_or(1, |r| r.t_ms.max(1));
    }
    gaps.sort_unstable();
    gaps[gaps.len() / 10]
}

/// Several jobs' buckets merged per bucket: summed for bw and IOPS,
/// averaged for latencies (a mean of the jobs' means, as close as fio's
/// logs allow to its group figure). A bucket counts where any job has one.
pub fn merge(jobs: &[Vec<BucketPoint>], kind: Kind) -> Vec<BucketPoint> {
    let mut acc: BTreeMap<u64, (f64, u32)> = BTreeMap::new();
    for p in jobs.iter().flatten() {
        let a = acc.entry(p.t_ms).or_default();
        a.0 += p.value;
        a.1 += 1;
    }
    acc.into_iter()
        .map(|(t_ms, (sum, n))| BucketPoint {
            t_ms,
            value: if is_rate(kind) { sum } else { sum / n as f64 },
        })
        .collect()
}

/// Rate buckets with the empty ones between the first and the last put
/// back as 0: a bucket at least as long as the logs' averaging window with
/// no row in it saw no I/O complete (a stall), and dropping it would join
/// the buckets around it as if there had been none.
pub fn fill_gaps(points: &[BucketPoint], width_ms: u64) -> Vec<BucketPoint> {
    let width_ms = width_ms.max(1);
    let (Some(first), Some(last)) = (points.first(), points.last()) else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(((last.t_ms - first.t_ms) / width_ms + 1) as usize);
    let mut next = points.iter().peekable();
    let mut t = first.t_ms;
    while t <= last.t_ms {
        let value = match next.peek() {
            Some(p) if p.t_ms == t => next.next().map_or(0.0, |p| p.value),
            _ => 0.0,
        };
        out.push(BucketPoint { t_ms: t, value });
        t += width_ms;
    }
    out
}

/// A trailing moving average over `span_ms` (the bucket itself and those
/// that started less than `span_ms` before it): smooths noise without
/// shifting a cliff earlier than it happened.
pub fn smooth(points: &[BucketPoint], span_ms: u64) -> Vec<BucketPoint> {
    let mut out = Vec::with_capacity(points.len());
    let (mut from, mut sum) = (0, 0.0);
    for (i, p) in points.iter().enumerate() {
        sum += p.value;
        while points[from].t_ms + span_ms <= p.t_ms {
            sum -= points[from].value;
            from += 1;
        }
        out.push(BucketPoint {
            t_ms: p.t_ms,
            value: sum / (i + 1 - from) as f64,
        });
    }
    out
}

/// Bytes written by the end of each bucket, from bandwidth × bucket
/// length: the x axis on which an SSD's write cache running out shows as
/// a cliff at a fixed amount of data, whatever the speed before it.
pub fn cumulative_bytes(bw: &[BucketPoint], width_ms: u64) -> Vec<f64> {
    let mut total = 0.0;
    bw.iter()
        .map(|p| {
            total += p.value * width_ms as f64 / 1000.0;
            total
        })
        .collect()
}

/// A bucket width giving about `target` buckets over `span_ms`, rounded
/// up to a readable step (1, 2, 5 × 10^k ms) and never finer than
/// `floor_ms` (the logs' own averaging window).
pub fn adaptive_width(span_ms: u64, target: u64, floor_ms: u64) -> u64 {
    let raw = (span_ms / target.max(1)).max(floor_ms).max(1);
    let mut step = 1;
    loop {
        for m in [1, 2, 5] {
            if step * m >= raw {
                return step * m;
            }
        }
        step *= 10;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Direction;

    fn row(t_ms: u64, value: f64, bs: u64) -> SeriesRow {
        let mut r = SeriesRow::new(0, Direction::Read, t_ms, value);
        r.bs_bytes = bs;
        r
    }

    #[test]
    fn per_io_rows_count_as_events_and_averaged_rows_as_means() {
        let per_io: Vec<SeriesRow> = (0..30).map(|i| row(i * 100, 1.0, 4096)).collect();
        let refs: Vec<&SeriesRow> = per_io.iter().collect();
        let iops = buckets(&refs, Kind::Iops, 1000);
        assert_eq!(iops.len(), 3);
        // The last bucket covers 2000..=2900 ms: 10 I/Os in 0.901 s.
        assert!((iops[2].value - 10.0 / 0.901).abs() < 1e-9);
        // One under half a bucket is left out rather than read as a dip.
        let short: Vec<&SeriesRow> = refs[..22].to_vec();
        assert_eq!(buckets(&short, Kind::Iops, 1000).len(), 2);
        assert_eq!(iops[0].value, 10.0);
        let bw = buckets(&refs, Kind::Bw, 1000);
        assert_eq!(bw[1].value, 40960.0);
        let avg = [row(200, 100.0, 0), row(400, 300.0, 0)];
        let refs: Vec<&SeriesRow> = avg.iter().collect();
        assert_eq!(buckets(&refs, Kind::Iops, 1000)[0].value, 200.0);
    }

    #[test]
    fn a_window_flushed_late_fills_the_buckets_it_covers() {
        // 100 ms windows; the one ending at 735 started at 601, and the one
        // ending at 601 covers 499..601: no bucket between is empty.
        let ts = [99, 198, 299, 398, 499, 601, 735, 834, 933];
        let log: Vec<SeriesRow> = ts.iter().map(|t| row(*t, 1000.0, 0)).collect();
        let refs: Vec<&SeriesRow> = log.iter().collect();
        let b = buckets(&refs, Kind::Iops, 100);
        let starts: Vec<u64> = b.iter().map(|p| p.t_ms).collect();
        assert_eq!(starts, (0..10).map(|i| i * 100).collect::<Vec<_>>());
        assert!(b.iter().all(|p| p.value == 1000.0));
        // Means are time-weighted: 800 over 499..601, 1400 over 601..735.
        let mut log = log;
        log[5].value = 800.0;
        log[6].value = 1400.0;
        let refs: Vec<&SeriesRow> = log.iter().collect();
        let b = buckets(&refs, Kind::Iops, 100);
        let at = |t: u64| b.iter().find(|p| p.t_ms == t).unwrap().value;
        assert!((at(400) - (1000.0 * 99.0 + 800.0 * 1.0) / 100.0).abs() < 1e-9);
        assert_eq!(at(500), 800.0);
        assert!((at(600) - (800.0 * 1.0 + 1400.0 * 99.0) / 100.0).abs() < 1e-9);
    }

    #[test]
    fn a_stall_stays_empty_and_its_burst_covers_one_window() {
        // Rows every 100 ms, nothing for a second, then the catch-up burst,
        // and more stalls than windows after it.
        let mut ts: Vec<u64> = (1..=5).map(|i| i * 100).collect();
        ts.extend([1600, 2600, 3600, 4600]);
        let log: Vec<SeriesRow> = ts.iter().map(|t| row(*t, 500.0, 0)).collect();
        let refs: Vec<&SeriesRow> = log.iter().collect();
        let filled = fill_gaps(&buckets(&refs, Kind::Iops, 100), 100);
        let zeros: Vec<u64> = filled
            .iter()
            .filter(|p| p.value == 0.0)
            .map(|p| p.t_ms)
            .collect();
        // Each burst row covers the 100 ms before it only.
        let want: Vec<u64> = [(5, 15), (16, 25), (26, 35), (36, 45)]
            .into_iter()
            .flat_map(|(a, b)| (a..b).map(|i| i * 100))
            .collect();
        assert_eq!(zeros, want);
    }

    #[test]
    fn a_burst_across_two_buckets_is_split_between_them() {
        // 100 ms windows, a second with no row, then a burst of 5,000 IOPS
        // over 1,241..1,341 ms: 59 ms of it in one bucket, 41 in the next.
        let log: Vec<SeriesRow> = [(100, 500.0), (200, 500.0), (300, 500.0), (1341, 5000.0)]
            .iter()
            .map(|&(t, v)| row(t, v, 0))
            .collect();
        let refs: Vec<&SeriesRow> = log.iter().collect();
        let b = buckets(&refs, Kind::Iops, 100);
        let at = |t: u64| b.iter().find(|p| p.t_ms == t).unwrap().value;
        assert!((at(1200) - 5000.0 * 0.59).abs() < 1e-9);
        // The last bucket is rated over the 41 ms up to the last row.
        assert!((at(1300) - 5000.0).abs() < 1e-9);
        // I/Os are kept: 3 windows of 500/s and one of 5,000/s, 650 in all.
        let ios: f64 = b
            .iter()
            .map(|p| p.value * if p.t_ms == 1300 { 0.041 } else { 0.1 })
            .sum();
        assert!((ios - 650.0).abs() < 1e-9, "{ios}");
        // A latency log over the same windows is the mean where rows cover.
        let clat = buckets(&refs, Kind::Clat, 100);
        let first_burst = clat.iter().find(|p| p.t_ms == 1200).unwrap();
        assert!((first_burst.value - 5000.0).abs() < 1e-9);
    }

    #[test]
    fn rates_add_up_across_jobs_and_latencies_average() {
        let a = vec![BucketPoint {
            t_ms: 0,
            value: 10.0,
        }];
        let b = vec![BucketPoint {
            t_ms: 0,
            value: 30.0,
        }];
        let jobs = [a, b];
        assert_eq!(merge(&jobs, Kind::Iops)[0].value, 40.0);
        assert_eq!(merge(&jobs, Kind::Clat)[0].value, 20.0);
    }

    #[test]
    fn smoothing_trails_and_bytes_accumulate() {
        let pts: Vec<BucketPoint> = [0.0, 10.0, 20.0, 30.0]
            .iter()
            .enumerate()
            .map(|(i, v)| BucketPoint {
                t_ms: i as u64 * 1000,
                value: *v,
            })
            .collect();
        let s: Vec<f64> = smooth(&pts, 2000).iter().map(|p| p.value).collect();
        assert_eq!(s, vec![0.0, 5.0, 15.0, 25.0]);
        assert_eq!(cumulative_bytes(&pts, 500), vec![0.0, 5.0, 15.0, 30.0]);
        let gappy = [pts[0], pts[3]];
        let filled: Vec<f64> = fill_gaps(&gappy, 1000).iter().map(|p| p.value).collect();
        assert_eq!(filled, vec![0.0, 0.0, 0.0, 30.0]);
        assert_eq!(adaptive_width(60_000, 300, 0), 200);
        assert_eq!(adaptive_width(3_000, 300, 200), 200);
        assert_eq!(adaptive_width(700_000, 300, 0), 5000);
    }
}
