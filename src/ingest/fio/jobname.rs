//! Workload hints where the job options are missing: a job name's words
//! (`randread-4k-qd32`, `seqwrite-128k-nj4`, `random_write_test`, read by
//! `identity::guess_from_name`) and the block size a mean I/O size
//! stands for.
//!
//! The last resort of readers whose input does not carry the job options:
//! fio 2.x JSON (no `job options`) and terse output (no options at all).
//! Callers say in a warning that they used it.

/// The block size a mean I/O size (bytes) stands for, and whether it was
/// rounded to a common size: 512 or a power-of-two KiB within 10% of the
/// mean (fio 2.x prints IOPS and KiB/s as integers, so 512 KiB I/Os come
/// out as 512.2 KiB), else the mean to the sector (a 12k job stays 12k).
pub(crate) fn block_size_from_mean(mean: f64) -> Option<(u64, bool)> {
    if !(mean.is_finite() && mean >= 256.0) {
        return None;
    }
    let common = std::iter::once(512u64).chain((0..20).map(|p| 1024u64 << p));
    let nearest = common
        .min_by(|a, b| {
            let d = |x: u64| (x as f64 / mean).ln().abs();
            d(*a).total_cmp(&d(*b))
        })
        .expect("non-empty");
    if (nearest as f64 - mean).abs() <= 0.1 * nearest as f64 {
        return Some((nearest, true));
    }
    Some((((mean / 512.0).round() as u64).max(1) * 512, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_size_from_the_mean_io_size() {
        // PerfKitBenchmarker's sequential_write: 68,118 KiB/s at 133 IOPS.
        assert_eq!(
            block_size_from_mean(68118.0 / 133.0 * 1024.0),
            Some((512 << 10, true))
        );
        assert_eq!(
            block_size_from_mean(6443.0 / 1610.0 * 1024.0),
            Some((4096, true))
        );
        assert_eq!(block_size_from_mean(530.0), Some((512, true)));
        assert_eq!(block_size_from_mean(12288.0), Some((12288, false)));
        assert_eq!(block_size_from_mean(100.0), None);
        assert_eq!(block_size_from_mean(f64::NAN), None);
    }
}
