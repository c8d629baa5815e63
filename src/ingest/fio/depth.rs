//! The queue depth a job really ran at, as opposed to the `iodepth` it
//! asked for.
//!
//! fio counts, at each submission, how many I/Os were in flight and prints
//! the shares in buckets (`io_u_mark_depth` in fio's `io_u.c`; `IO depths`
//! in the text report, `iodepth_level` in JSON, seven fields in terse):
//! `1`, `2` (2-3), `4` (4-7), `8` (8-15), `16` (16-31), `32` (32-63) and
//! `>=64`. A synchronous engine (psync, sync, pvsync, mmap...) is capped at
//! depth 1 whatever `iodepth` says: fio prints "queue depth will be capped
//! at 1" and its distribution shows `1=100.0%`.

use crate::model::is_sync_engine;

/// Lower bound of each bucket of fio's I/O depth distribution.
pub const BUCKETS: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];

/// Share of submissions per bucket of [`BUCKETS`], percent.
pub type Distribution = [f64; 7];

/// Index of the bucket `depth` falls into.
pub fn bucket_of(depth: u32) -> usize {
    BUCKETS.iter().rposition(|&lo| depth >= lo).unwrap_or(0)
}

/// The depth a job ran at. When the requested depth's bucket holds at least
/// half of the submissions, the job ran as asked and the requested depth is
/// returned; otherwise the lower bound of the bucket that holds the most.
/// Without a distribution, a synchronous engine ran at 1 and anything else
/// is unknown (`None`: readers never invent a value).
pub fn effective(engine: &str, requested: u32, dist: Option<&Distribution>) -> Option<u32> {
    let dist = dist.filter(|d| d.iter().all(|v| v.is_finite()) && d.iter().sum::<f64>() > 0.0);
    let Some(dist) = dist else {
        return is_sync_engine(engine).then_some(1);
    };
    let total: f64 = dist.iter().sum();
    if dist[bucket_of(requested.max(1))] / total >= 0.5 {
        return Some(requested.max(1));
    }
    let mode = (0..BUCKETS.len())
        .max_by(|&a, &b| dist[a].total_cmp(&dist[b]).then(b.cmp(&a)))
        .unwrap_or(0);
    Some(BUCKETS[mode])
}

/// The lower bound of the bucket that holds the most submissions (the
/// lower one on a tie): a depth at or below the one the job ran at.
pub fn most_used(dist: &Distribution) -> u32 {
    let k = (0..dist.len()).fold(0, |best, k| if dist[k] > dist[best] { k } else { best });
    BUCKETS[k]
}

/// `1=0.1%, 2=0.1%, 4=0.1%, 8=0.1%, 16=0.1%, 32=99.9%, >=64=0.0%`, the
/// text after `IO depths    :`.
pub fn parse_text(s: &str) -> Option<Distribution> {
    let mut dist = [0.0; 7];
    let mut seen = 0;
    for part in s.split(',') {
        let (k, v) = part.trim().rsplit_once('=')?;
        let k = k.trim().trim_start_matches(">=");
        let lo: u32 = k.parse().ok()?;
        let i = BUCKETS.iter().position(|&b| b == lo)?;
        dist[i] = v.trim().trim_end_matches('%').parse().ok()?;
        seen += 1;
    }
    (seen == BUCKETS.len()).then_some(dist)
}

/// JSON `iodepth_level`: `{"1": 0.1, ..., ">=64": 0.0}`.
pub fn from_levels<'a>(levels: impl IntoIterator<Item = (&'a str, f64)>) -> Option<Distribution> {
    let mut dist = [0.0; 7];
    let mut seen = 0;
    for (k, v) in levels {
        // As `trim_start_matches(">=")`, without a substring searcher
        // built for each of every job's seven keys.
        let mut k = k;
        while let Some(rest) = k.strip_prefix(">=") {
            k = rest;
        }
        let Ok(lo) = k.parse::<u32>() else {
            continue;
        };
        if let Some(i) = BUCKETS.iter().position(|&b| b == lo) {
            dist[i] = v;
            seen += 1;
        }
    }
    (seen > 0).then_some(dist)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_follow_fio_io_u_mark_depth() {
        assert_eq!(bucket_of(1), 0);
        assert_eq!(bucket_of(3), 1);
        assert_eq!(bucket_of(12), 3);
        assert_eq!(bucket_of(32), 5);
        assert_eq!(bucket_of(63), 5);
        assert_eq!(bucket_of(256), 6);
    }

    #[test]
    fn a_sync_engine_asked_for_32_ran_at_1() {
        let d = parse_text("1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%");
        assert_eq!(effective("psync", 32, d.as_ref()), Some(1));
        // No distribution at all: the engine alone says so.
        assert_eq!(effective("psync", 32, None), Some(1));
        assert_eq!(effective("libaio", 32, None), None);
    }

    #[test]
    fn an_async_job_that_kept_its_queue_ran_as_asked() {
        let d = parse_text("1=0.1%, 2=0.1%, 4=0.1%, 8=0.1%, 16=0.1%, 32=99.9%, >=64=0.0%").unwrap();
        assert_eq!(effective("libaio", 32, Some(&d)), Some(32));
        // 48 falls in the 32-63 bucket: as asked.
        assert_eq!(effective("libaio", 48, Some(&d)), Some(48));
        // Asked for 128, mostly submitted at 32-63.
        assert_eq!(effective("io_uring", 128, Some(&d)), Some(32));
    }

    #[test]
    fn json_levels_and_bad_text() {
        let d = from_levels([
            ("1", 0.0),
            ("2", 0.0),
            ("4", 100.0),
            ("8", 0.0),
            (">=64", 0.0),
        ])
        .unwrap();
        assert_eq!(effective("libaio", 4, Some(&d)), Some(4));
        assert_eq!(effective("libaio", 16, Some(&d)), Some(4));
        assert!(parse_text("1=100.0%, 2=x%").is_none());
        assert!(from_levels([("foo", 1.0)]).is_none());
        // An all-zero distribution (a job that did no I/O) says nothing.
        assert_eq!(effective("libaio", 8, Some(&[0.0; 7])), None);
    }
}
