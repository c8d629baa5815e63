//! Measurements the way fio keeps them: running min/max/mean/variance
//! (fio's `io_stat`, Welford's method), the 1856-bucket latency histogram
//! of `stat.h` (`FIO_IO_U_PLAT_BITS = 6`, 64 buckets per power of two,
//! 29 groups) with fio's percentile walk, and interval bw/iops samples.

/// Bits of precision kept per power of two (fio `FIO_IO_U_PLAT_BITS`).
pub const PLAT_BITS: u32 = 6;
/// Buckets per group (fio `FIO_IO_U_PLAT_VAL`).
pub const PLAT_VAL: u64 = 1 << PLAT_BITS;
/// Groups (fio `FIO_IO_U_PLAT_GROUP_NR`).
pub const PLAT_GROUP_NR: usize = 29;
/// Buckets in all (fio `FIO_IO_U_PLAT_NR`): 1856.
pub const PLAT_NR: usize = PLAT_GROUP_NR * PLAT_VAL as usize;

/// fio's default percentile list (`def_percentile_list` in options.c).
pub const DEFAULT_PERCENTILES: [f64; 17] = [
    1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95,
    99.99,
];

/// Bucket of a latency in ns (fio `plat_val_to_idx`): values below 128 get
/// a bucket each; above, the top `PLAT_BITS` bits after the leading one pick
/// the bucket, so the relative error stays under 1/64.
pub fn val_to_idx(val: u64) -> usize {
    let msb = if val == 0 {
        0
    } else {
        63 - val.leading_zeros()
    };
    if msb <= PLAT_BITS {
        return val as usize;
    }
    let error_bits = msb - PLAT_BITS;
    let base = ((error_bits + 1) as u64) << PLAT_BITS;
    let offset = (PLAT_VAL - 1) & (val >> error_bits);
    ((base + offset) as usize).min(PLAT_NR - 1)
}

/// Representative value of a bucket (fio `plat_idx_to_val`): its middle.
pub fn idx_to_val(idx: usize) -> u64 {
    let idx = idx as u64;
    if idx < (PLAT_VAL << 1) {
        return idx;
    }
    let error_bits = (idx >> PLAT_BITS) - 1;
    let base = 1u64 << (error_bits + PLAT_BITS as u64);
    let k = idx % PLAT_VAL;
    // fio computes this in double and truncates to an integer.
    base + ((k as f64 + 0.5) * (1u64 << error_bits) as f64) as u64
}

/// Running statistics of one quantity (fio `struct io_stat`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Stat {
    pub n: u64,
    pub min: u64,
    pub max: u64,
    pub mean: f64,
    /// Sum of squared deviations (Welford's M2).
    pub m2: f64,
}

impl Stat {
    pub fn add(&mut self, v: u64) {
        if self.n == 0 {
            self.min = v;
            self.max = v;
        } else {
            self.min = self.min.min(v);
            self.max = self.max.max(v);
        }
        self.n += 1;
        let delta = v as f64 - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (v as f64 - self.mean);
    }

    /// Pools two sets of samples (Chan et al.): the same result as if every
    /// sample had been added to one `Stat`.
    pub fn merge(&mut self, o: &Stat) {
        if o.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = *o;
            return;
        }
        let n = self.n + o.n;
        let delta = o.mean - self.mean;
        let mean = self.mean + delta * o.n as f64 / n as f64;
        let m2 = self.m2 + o.m2 + delta * delta * (self.n as f64 * o.n as f64) / n as f64;
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
        self.n = n;
        self.mean = mean;
        self.m2 = m2;
    }

    /// fio's `sum_stat(.., pure_sum = true)` for bw and iops samples under
    /// group_reporting: min, max, mean, sample count and M2 simply add, so
    /// the group's mean is the sum of the threads' mean bandwidths.
    pub fn pure_sum(&mut self, o: &Stat) {
        if o.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = *o;
            return;
        }
        self.min += o.min;
        self.max += o.max;
        self.n += o.n;
        self.mean += o.mean;
        self.m2 += o.m2;
    }

    /// Sample standard deviation, as fio prints it (n - 1).
    pub fn stddev(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            (self.m2 / (self.n - 1) as f64).sqrt()
        }
    }
}

/// A latency histogram in fio's bucket layout.
#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    pub buckets: Vec<u64>,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            buckets: vec![0; PLAT_NR],
        }
    }
}

impl Histogram {
    #[inline]
    pub fn add(&mut self, ns: u64) {
        self.buckets[val_to_idx(ns)] += 1;
    }

    pub fn merge(&mut self, o: &Histogram) {
        for (a, b) in self.buckets.iter_mut().zip(&o.buckets) {
            *a += b;
        }
    }

    pub fn count(&self) -> u64 {
        self.buckets.iter().sum()
    }

    /// Percentiles the way fio's `calc_clat_percentiles` walks the buckets:
    /// the value of the first bucket where the running count reaches
    /// `p / 100 * N`. `plist` must be sorted.
    pub fn percentiles(&self, plist: &[f64]) -> Vec<u64> {
        let nr = self.count();
        let mut out = vec![0; plist.len()];
        if nr == 0 || plist.is_empty() {
            return out;
        }
        let mut sum = 0u64;
        let mut j = 0;
        for (i, &c) in self.buckets.iter().enumerate() {
            sum += c;
            while j < plist.len() && sum as f64 >= plist[j] / 100.0 * nr as f64 {
                out[j] = idx_to_val(i);
                j += 1;
            }
            if j == plist.len() {
                break;
            }
        }
        out
    }

    /// json+ `bins`: bucket value -> count, non-empty buckets only.
    pub fn bins(&self) -> Vec<(u64, u64)> {
        self.buckets
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(i, c)| (idx_to_val(i), *c))
            .collect()
    }
}

/// Everything measured for one direction (read, write) of one job.
#[derive(Debug, Clone, Default)]
pub struct DirectionStats {
    pub io_bytes: u64,
    pub total_ios: u64,
    pub short_ios: u64,
    pub slat: Stat,
    pub clat: Stat,
    pub lat: Stat,
    pub clat_hist: Histogram,
    /// Bytes completed in each sample interval, in order.
    pub interval_bytes: Vec<u64>,
    /// I/Os completed in each sample interval, in order.
    pub interval_ios: Vec<u64>,
    /// Length of each interval, ns.
    pub interval_ns: Vec<u64>,
}

impl DirectionStats {
    /// Merges another thread's stats (fio's group_reporting): counters add,
    /// latency stats pool. Interval samples stay per thread: fio sums the
    /// threads' sample statistics instead (see [`Stat::pure_sum`]).
    pub fn merge(&mut self, o: &DirectionStats) {
        self.io_bytes += o.io_bytes;
        self.total_ios += o.total_ios;
        self.short_ios += o.short_ios;
        self.slat.merge(&o.slat);
        self.clat.merge(&o.clat);
        self.lat.merge(&o.lat);
        self.clat_hist.merge(&o.clat_hist);
    }

    /// Bandwidth samples in KiB/s and IOPS samples, one per interval.
    pub fn samples(&self) -> (Stat, Stat) {
        let mut bw = Stat::default();
        let mut iops = Stat::default();
        for i in 0..self.interval_bytes.len() {
            let ns = self.interval_ns[i].max(1) as f64;
            bw.add((self.interval_bytes[i] as f64 * 1e9 / ns / 1024.0) as u64);
            iops.add((self.interval_ios[i] as f64 * 1e9 / ns) as u64);
        }
        (bw, iops)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_fio() {
        assert_eq!(PLAT_NR, 1856);
        // Exact up to 127.
        for v in 0..128 {
            assert_eq!(val_to_idx(v), v as usize);
            assert_eq!(idx_to_val(v as usize), v);
        }
        // 128..255 is the first group with 2-ns buckets.
        assert_eq!(val_to_idx(128), 128);
        assert_eq!(val_to_idx(129), 128);
        assert_eq!(val_to_idx(130), 129);
        assert_eq!(idx_to_val(128), 129);
        // Buckets are monotonic and each value lies within 1/64 of its bucket's.
        let mut last = 0;
        for v in (1..10_000_000_000u64).step_by(9_999_991) {
            let i = val_to_idx(v);
            assert!(i >= last);
            last = i;
            let back = idx_to_val(i) as f64;
            assert!(
                (back - v as f64).abs() / v as f64 <= 1.0 / 64.0,
                "{v} -> {back}"
            );
        }
        // Values past the last group land in the last bucket.
        assert_eq!(val_to_idx(u64::MAX), PLAT_NR - 1);
    }

    #[test]
    fn values_from_a_real_fio_json_plus_are_bucket_values() {
        // Bins printed by fio 3.33 (json+, io_uring randread on this host).
        for v in [462u64, 772, 1032, 2608, 38656] {
            assert_eq!(idx_to_val(val_to_idx(v)), v);
        }
        // fio 3.33 percentiles from the same file.
        for v in [140288u64, 374784, 1302528, 12124160, 22413312] {
            assert_eq!(idx_to_val(val_to_idx(v)), v);
        }
    }

    #[test]
    fn stat_merge_equals_one_pass() {
        let xs: Vec<u64> = (0..1000).map(|i| (i * 7919) % 1013).collect();
        let mut all = Stat::default();
        xs.iter().for_each(|&x| all.add(x));
        let (a, b) = xs.split_at(317);
        let mut sa = Stat::default();
        let mut sb = Stat::default();
        a.iter().for_each(|&x| sa.add(x));
        b.iter().for_each(|&x| sb.add(x));
        sa.merge(&sb);
        assert_eq!(sa.n, all.n);
        assert_eq!((sa.min, sa.max), (all.min, all.max));
        assert!((sa.mean - all.mean).abs() < 1e-9);
        assert!((sa.stddev() - all.stddev()).abs() < 1e-9);
    }

    #[test]
    fn pure_sum_adds_like_fio_group_reporting() {
        let mut a = Stat::default();
        [100u64, 200].iter().for_each(|&x| a.add(x));
        let mut b = Stat::default();
        [10u64, 30].iter().for_each(|&x| b.add(x));
        let mut g = Stat::default();
        g.pure_sum(&a);
        g.pure_sum(&b);
        assert_eq!((g.n, g.min, g.max), (4, 110, 230));
        assert_eq!(g.mean, 150.0 + 20.0);
    }

    #[test]
    fn percentiles_walk_like_fio() {
        let mut h = Histogram::default();
        for v in 1..=100u64 {
            h.add(v);
        }
        let p = h.percentiles(&[1.0, 50.0, 99.0, 100.0]);
        assert_eq!(p, vec![1, 50, 99, 100]);
        assert_eq!(h.bins().len(), 100);
    }
}
