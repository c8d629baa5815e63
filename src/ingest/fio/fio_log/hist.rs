//! Completion-latency histogram logs (`write_hist_log`): each line is
//! `time, ddir, bs, count0, count1, ...`, the counts being the I/Os that
//! completed in each latency bin since the previous line (iolog.c
//! `flush_hist_samples`). They become percentiles over time.
//!
//! The bins are fio's log-linear `io_u_plat` buckets (stat.h,
//! `plat_idx_to_val` in stat.c): 64 buckets per power of two, the first
//! 128 one unit wide. fio 3.x has 29 groups (1856 bins) in ns; fio 2.x had
//! 19 (1216 bins) in us. `log_hist_coarseness=c` sums 2^c neighbours, so
//! the bin count says both the version and the coarseness.

/// Percentiles written per histogram line (the `percentile` column).
pub const PERCENTILES: [f64; 3] = [50.0, 99.0, 99.9];

const PLAT_BITS: u32 = 6;
const PLAT_VAL: u64 = 1 << PLAT_BITS;
/// fio 3.x bins (`FIO_IO_U_PLAT_NR`), ns.
const BINS_FIO3: usize = 29 * PLAT_VAL as usize;
/// fio 2.x bins, us.
const BINS_FIO2: usize = 19 * PLAT_VAL as usize;
/// fio's largest `log_hist_coarseness`.
const MAX_COARSENESS: u32 = 6;

/// How to read a line's bins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BinLayout {
    /// Nanoseconds per bin unit: 1 (fio 3.x) or 1000 (fio 2.x, us).
    pub unit_ns: u64,
    /// `log_hist_coarseness`.
    pub coarseness: u32,
}

impl BinLayout {
    /// The shape of a line with `bins` counts; `None` when no fio writes that.
    pub fn of(bins: usize) -> Option<BinLayout> {
        (0..=MAX_COARSENESS).find_map(|c| {
            if bins == BINS_FIO3 >> c {
                Some(BinLayout {
                    unit_ns: 1,
                    coarseness: c,
                })
            } else if bins == BINS_FIO2 >> c {
                Some(BinLayout {
                    unit_ns: 1000,
                    coarseness: c,
                })
            } else {
                None
            }
        })
    }

    /// The latency a (possibly coarse) bin stands for, ns: fio's value for
    /// its fine bin, or the middle of the fine bins it sums.
    pub fn value_ns(&self, bin: usize) -> f64 {
        let stride = 1usize << self.coarseness;
        let first = plat_idx_to_val((bin * stride) as u64);
        let last = plat_idx_to_val((bin * stride + stride - 1) as u64);
        (first + last) / 2.0 * self.unit_ns as f64
    }

    /// The `p`th percentile of `counts`, ns, as fio computes it: the value
    /// of the first bin where the running count reaches p% of the total.
    /// `None` when no I/O completed.
    pub fn percentile(&self, counts: &[u64], total: u64, p: f64) -> Option<f64> {
        if total == 0 {
            return None;
        }
        let rank = p / 100.0 * total as f64;
        let mut sum = 0u64;
        counts.iter().enumerate().find_map(|(i, c)| {
            sum += c;
            (sum as f64 >= rank).then(|| self.value_ns(i))
        })
    }
}

/// The value fio gives fine bin `idx` (stat.c `plat_idx_to_val`): the
/// middle of the bucket, in the histogram's unit. fio's bins stop long
/// before a value outgrows a u64 (1,856 of them).
fn plat_idx_to_val(idx: u64) -> f64 {
    crate::model::figures::bucket_value(idx).unwrap_or(u64::MAX) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bin_counts_give_version_and_coarseness() {
        // (bins, ns per unit, coarseness): fio 3.x ns, fio 2.x µs.
        for (bins, unit_ns, coarseness) in
            [(1856, 1, 0), (232, 1, 3), (1216, 1000, 0), (19, 1000, 6)]
        {
            assert_eq!(
                BinLayout::of(bins),
                Some(BinLayout {
                    unit_ns,
                    coarseness
                }),
                "{bins} bins"
            );
        }
        assert_eq!(BinLayout::of(1000), None);
    }

    #[test]
    fn bin_values_follow_fio() {
        let fine = BinLayout::of(1856).unwrap();
        // One unit wide below 128, then 64 buckets per power of two.
        assert_eq!(fine.value_ns(5), 5.0);
        assert_eq!(fine.value_ns(128), 128.0 + 1.0); // base 128, width 2: middle 129
        assert_eq!(fine.value_ns(192), 256.0 + 2.0);
        // Last bin of fio 3.x: group 28, width 2^27.
        let last = (1u64 << 33) as f64 + 63.5 * (1u64 << 27) as f64;
        assert_eq!(fine.value_ns(1855), last);
        let coarse = BinLayout::of(928).unwrap();
        assert_eq!(coarse.value_ns(2), 4.5); // fine bins 4 and 5
        let fio2 = BinLayout::of(1216).unwrap();
        assert_eq!(fio2.value_ns(7), 7000.0);
    }

    #[test]
    fn percentile_is_the_first_bin_reaching_the_rank() {
        let s = BinLayout::of(1856).unwrap();
        let mut counts = vec![0u64; 1856];
        counts[10] = 50;
        counts[20] = 49;
        counts[300] = 1;
        assert_eq!(s.percentile(&counts, 100, 50.0), Some(10.0));
        assert_eq!(s.percentile(&counts, 100, 99.0), Some(20.0));
        assert_eq!(s.percentile(&counts, 100, 99.9), Some(s.value_ns(300)));
        assert_eq!(s.percentile(&[0; 1856], 0, 50.0), None);
    }
}
