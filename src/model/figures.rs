//! One direction's measurements as every reader hands them over (fio's
//! JSON, normal text and terse; DiskSpd's text and XML), and the one way
//! they become a [`Row`]'s fields ([`DirectionFigures::apply`]): which
//! latencies and percentiles a row keeps is decided here, not in each
//! reader. Units are already the row's (SI base units); readers convert.

use super::Row;

/// One latency's summary (fio's `slat`, `clat` or `lat`), nanoseconds;
/// `None` where the output did not report it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Latency {
    pub mean: Option<f64>,
    pub stddev: Option<f64>,
    pub min: Option<f64>,
    pub max: Option<f64>,
}

/// fio's per-interval samples of a rate: how many, their mean and
/// standard deviation (IOPS, or bandwidth in bytes/s).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Samples {
    pub n: Option<u64>,
    pub mean: Option<f64>,
    pub stddev: Option<f64>,
}

/// A json+ completion-latency histogram: (latency ns, count) pairs sorted
/// by latency, held in a few bytes a pair and shared. The first byte says
/// how the pairs are stored, each as two LEB128 varints, the count as it
/// is (mostly below 16,384: two bytes) after:
///
/// - [`BY_BUCKET`]: every latency is the value fio prints for one of its
///   histogram buckets (`plat_idx_to_val`: 1/64 of a power of two apart,
///   each bucket's middle), as in any json+ output and the merges of
///   them. The step from the bucket before, in buckets: mostly one byte.
/// - [`BY_NS`]: any other latencies. The step from the one before, in ns
///   (exact for any u64): two or three bytes past 16 µs.
///
/// A 100,000-file json+ archive has some 40 M bins: 640 MB as pairs,
/// 130 MB by ns steps, some 90 MB by bucket steps. Rows and the runs made
/// of them hold one `Arc` of the bytes.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct LatencyBins {
    bytes: std::sync::Arc<[u8]>,
    len: u32,
}

/// [`LatencyBins`] stored by steps in ns.
const BY_NS: u8 = 0;
/// [`LatencyBins`] stored by steps in fio's buckets.
const BY_BUCKET: u8 = 1;

/// fio's histogram: 64 buckets per power of two (`FIO_IO_U_PLAT_BITS`).
const PLAT_BITS: u32 = 6;

/// The latency fio prints for histogram bucket `idx` (stat.c,
/// `plat_idx_to_val`): the bucket's middle, below 128 the value itself,
/// in the histogram's unit (json+ bins, histogram logs). `None` past
/// what a u64 holds.
pub fn bucket_value(idx: u64) -> Option<u64> {
    let plat_val = 1u64 << PLAT_BITS;
    if idx < 2 * plat_val {
        return Some(idx);
    }
    let error_bits = u32::try_from((idx >> PLAT_BITS) - 1).ok()?;
    let base = 1u64.checked_shl(error_bits + PLAT_BITS)?;
    let k = idx % plat_val;
    // (k + 0.5) << error_bits, error_bits >= 1 here: exact in integers.
    let width = 1u64.checked_shl(error_bits)?;
    base.checked_add(k.checked_mul(width)?.checked_add(width / 2)?)
}

/// The bucket whose printed value is `ns`, if one is.
fn bucket_of(ns: u64) -> Option<u64> {
    let plat_val = 1u64 << PLAT_BITS;
    if ns < 2 * plat_val {
        return Some(ns);
    }
    let msb = 63 - ns.leading_zeros();
    let error_bits = msb - PLAT_BITS;
    let k = (ns - (1u64 << msb)) >> error_bits;
    let idx = (u64::from(error_bits) + 1) * plat_val + k;
    (bucket_value(idx) == Some(ns)).then_some(idx)
}

impl LatencyBins {
    /// The histogram of `pairs`, in latency order (the readers and
    /// [`crate::compare`]'s merge give them sorted; others are sorted
    /// here).
    pub fn new(pairs: &[(u64, u64)]) -> LatencyBins {
        let sorted;
        let pairs = if pairs.windows(2).all(|w| w[0].0 <= w[1].0) {
            pairs
        } else {
            sorted = {
                let mut v = pairs.to_vec();
                v.sort_by_key(|p| p.0);
                v
            };
            &sorted
        };
        let mut bytes = Vec::with_capacity(1 + pairs.len() * 3);
        if !pairs.is_empty() && !by_bucket(pairs, &mut bytes) {
            bytes.clear();
            bytes.push(BY_NS);
            let mut last = 0u64;
            for &(ns, n) in pairs {
                varint(&mut bytes, ns - last);
                varint(&mut bytes, n);
                last = ns;
            }
        }
        LatencyBins {
            bytes: bytes.into(),
            len: u32::try_from(pairs.len()).unwrap_or(u32::MAX),
        }
    }

    /// The pairs, in order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let by_bucket = self.bytes.first() == Some(&BY_BUCKET);
        let mut at = 1;
        let mut last = 0u64;
        std::iter::from_fn(move || {
            if at >= self.bytes.len() {
                return None;
            }
            let step = read_varint(&self.bytes, &mut at);
            let n = read_varint(&self.bytes, &mut at);
            last = last.wrapping_add(step);
            let ns = match by_bucket {
                true => bucket_value(last).unwrap_or(u64::MAX),
                false => last,
            };
            Some((ns, n))
        })
    }

    /// The bytes the pairs take (their encoding, not the `Arc`'s counts).
    pub fn stored_bytes(&self) -> usize {
        self.bytes.len()
    }

    /// How many bins.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The pairs as a vector.
    pub fn to_vec(&self) -> Vec<(u64, u64)> {
        let mut out = Vec::with_capacity(self.len());
        out.extend(self.iter());
        out
    }
}

/// Writes sorted `pairs` into `bytes` by bucket steps ([`BY_BUCKET`]);
/// false, `bytes` part written, when a latency is no fio bucket's value.
fn by_bucket(pairs: &[(u64, u64)], bytes: &mut Vec<u8>) -> bool {
    bytes.push(BY_BUCKET);
    let mut last = 0u64;
    for &(ns, n) in pairs {
        let Some(idx) = bucket_of(ns) else {
            return false;
        };
        varint(bytes, idx - last);
        varint(bytes, n);
        last = idx;
    }
    true
}

impl From<Vec<(u64, u64)>> for LatencyBins {
    fn from(pairs: Vec<(u64, u64)>) -> LatencyBins {
        LatencyBins::new(&pairs)
    }
}

impl From<&[(u64, u64)]> for LatencyBins {
    fn from(pairs: &[(u64, u64)]) -> LatencyBins {
        LatencyBins::new(pairs)
    }
}

impl std::fmt::Debug for LatencyBins {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// `v` as LEB128: seven bits a byte, low first, the high bit set on all
/// but the last.
fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The LEB128 number at `*at`, moving `*at` past it.
fn read_varint(bytes: &[u8], at: &mut usize) -> u64 {
    let mut v = 0u64;
    let mut shift = 0;
    while let Some(&b) = bytes.get(*at) {
        *at += 1;
        if shift < 64 {
            v |= u64::from(b & 0x7f) << shift;
        }
        shift += 7;
        if b & 0x80 == 0 {
            break;
        }
    }
    v
}

/// Every percentile fio printed for one latency, whatever its
/// `percentile_list` (`50:95`, `99.999`, `1:5:10`): (percent, ns) in the
/// output's order. In the dataset and its JSON an object of percent to ns
/// (`{"50": 81920.0, "95": 123904.0}`), null when fio printed none.
///
/// Held as the list of percents, shared by every row of a thread that
/// printed the same list (fio's default: 17 percents), and the values:
/// where each is the value fio prints for one of its histogram buckets
/// (as fio's percentiles are), the bucket's number, two bytes; else the
/// values as they are. 40 bytes for fio's default list, not 272 as
/// pairs (at 100,000 json+ files, 45 MB less).
#[derive(Clone, Default)]
pub struct Percentiles {
    percents: Option<std::sync::Arc<[f64]>>,
    /// [`BY_BUCKET`] and a varint bucket number per value, or [`BY_NS`]
    /// and each value's 8 bytes (little-endian bits); empty for none.
    values: Box<[u8]>,
}

/// Pairs equal as numbers, as the pairs themselves compare.
impl PartialEq for Percentiles {
    fn eq(&self, other: &Percentiles) -> bool {
        self.len() == other.len() && self.pairs().zip(other.pairs()).all(|(a, b)| a == b)
    }
}

/// `values` as [`Percentiles::values`] holds them.
fn percentile_values(values: &[f64]) -> Box<[u8]> {
    let bucket = |v: f64| {
        if !((0.0..9.0e15).contains(&v) && v.fract() == 0.0) {
            return None;
        }
        let idx = bucket_of(v as u64)?;
        // Bit for bit (not -0.0).
        (bucket_value(idx).map(|b| (b as f64).to_bits()) == Some(v.to_bits())).then_some(idx)
    };
    let mut out = Vec::with_capacity(1 + values.len() * 2);
    out.push(BY_BUCKET);
    for &v in values {
        let Some(idx) = bucket(v) else {
            out.clear();
            out.push(BY_NS);
            out.extend(values.iter().flat_map(|v| v.to_bits().to_le_bytes()));
            return out.into();
        };
        varint(&mut out, idx);
    }
    out.into()
}

impl std::fmt::Debug for Percentiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.pairs()).finish()
    }
}

impl From<Vec<(f64, f64)>> for Percentiles {
    fn from(pairs: Vec<(f64, f64)>) -> Percentiles {
        Percentiles::new(&pairs)
    }
}

thread_local! {
    /// The lists of percents this thread has held, the first few.
    static PERCENT_LISTS: std::cell::RefCell<Vec<std::sync::Arc<[f64]>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Most lists of percents [`PERCENT_LISTS`] keeps: a study prints one or
/// two; past these each row holds its own.
const PERCENT_LISTS_KEPT: usize = 8;

/// `percents` as a list shared with the rows before it that had the
/// same (bit for bit).
fn shared_percents(percents: &[f64]) -> std::sync::Arc<[f64]> {
    let same = |list: &[f64]| {
        list.len() == percents.len()
            && list
                .iter()
                .zip(percents)
                .all(|(a, b)| a.to_bits() == b.to_bits())
    };
    PERCENT_LISTS.with(|lists| {
        let Ok(mut lists) = lists.try_borrow_mut() else {
            return percents.into();
        };
        if let Some(list) = lists.iter().find(|l| same(l)) {
            return list.clone();
        }
        let list: std::sync::Arc<[f64]> = percents.into();
        if lists.len() < PERCENT_LISTS_KEPT {
            lists.push(list.clone());
        }
        list
    })
}

impl Percentiles {
    /// The (percent, ns) pairs `pairs`, in their order.
    pub fn new(pairs: &[(f64, f64)]) -> Percentiles {
        if pairs.is_empty() {
            return Percentiles::default();
        }
        let percents: Vec<f64> = pairs.iter().map(|p| p.0).collect();
        Percentiles {
            percents: Some(shared_percents(&percents)),
            values: percentile_values(&pairs.iter().map(|p| p.1).collect::<Vec<f64>>()),
        }
    }

    /// The (percent, ns) pairs, in their order.
    pub fn pairs(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        let percents = self.percents.as_deref().unwrap_or_default();
        let by_bucket = self.values.first() == Some(&BY_BUCKET);
        let mut at = 1;
        let values = std::iter::from_fn(move || {
            if at >= self.values.len() {
                return None;
            }
            if by_bucket {
                let idx = read_varint(&self.values, &mut at);
                return Some(bucket_value(idx).unwrap_or(u64::MAX) as f64);
            }
            let bits = self.values.get(at..at + 8)?;
            at += 8;
            Some(f64::from_bits(u64::from_le_bytes(bits.try_into().ok()?)))
        });
        percents.iter().copied().zip(values)
    }

    /// The pairs as a vector.
    pub fn to_vec(&self) -> Vec<(f64, f64)> {
        self.pairs().collect()
    }

    /// How many percentiles.
    pub fn len(&self) -> usize {
        self.percents.as_deref().map_or(0, <[f64]>::len)
    }

    /// The value at `pct` percent, if fio printed that percentile.
    pub fn get(&self, pct: f64) -> Option<f64> {
        percentile(self.pairs(), pct)
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The dataset's text: a JSON object, percents as fio's list wrote
    /// them (`99.9`, not `99.900000`).
    pub fn text(&self) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        // Written straight from the pairs (as the dataset's ndjson writes
        // them), not through a JSON map per row: one string, not twenty.
        // A percent given twice is one key, the map's way.
        let percents = self.percents.as_deref().unwrap_or_default();
        let once = percents
            .iter()
            .enumerate()
            .all(|(i, p)| percents[..i].iter().all(|q| q.to_bits() != p.to_bits()));
        if once {
            return serde_json::to_string(self).ok();
        }
        let map: serde_json::Map<String, serde_json::Value> = self
            .pairs()
            .map(|(p, v)| {
                (
                    PercentKey::of(p).as_str().to_string(),
                    serde_json::Value::from(v),
                )
            })
            .collect();
        Some(serde_json::Value::Object(map).to_string())
    }

    /// Appends the percentiles as their [`serde::Serialize`] writes them
    /// with serde_json (`null` when there are none), with each key written
    /// as it is: a percent's text is digits, a point, a sign, `e`, `inf`
    /// or `NaN`, nothing JSON escapes.
    pub fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        if self.is_empty() {
            out.extend_from_slice(b"null");
            return Ok(());
        }
        let mut separator = b'{';
        for (p, v) in self.pairs() {
            out.push(separator);
            separator = b',';
            out.push(b'"');
            out.extend_from_slice(PercentKey::of(p).as_str().as_bytes());
            out.extend_from_slice(b"\":");
            serde::Serialize::serialize(&v, &mut serde_json::Serializer::new(&mut *out))?;
        }
        out.push(b'}');
        Ok(())
    }

    /// Read back from [`Percentiles::text`]; anything else is none.
    pub fn parse(text: &str) -> Percentiles {
        let Ok(serde_json::Value::Object(map)) = serde_json::from_str(text) else {
            return Percentiles::default();
        };
        let pairs: Vec<(f64, f64)> = map
            .iter()
            .filter_map(|(k, v)| Some((k.parse().ok()?, v.as_f64()?)))
            .filter(|(p, v): &(f64, f64)| p.is_finite() && v.is_finite())
            .collect();
        Percentiles::new(&pairs)
    }
}

/// A percent as `{p}` prints it (`99.9`, `50`), fio's on the stack:
/// fio's percents (six decimals at most) are written digit by digit,
/// anything else as `Display` writes it. Every row writes a dozen or more
/// of them, and formatting each through `format!` cost an allocation and
/// a shortest-float search apiece.
enum PercentKey {
    /// One of fio's default `percentile_list`, written as it is.
    Listed(&'static str),
    /// Up to 9 digits, a point and 6 decimals.
    Short {
        buf: [u8; 16],
        len: usize,
    },
    Other(String),
}

impl PercentKey {
    fn of(p: f64) -> PercentKey {
        // fio's default list, as nearly every result prints it: found by
        // the percent's bits (the i-th key is usually the i-th percent).
        if let Some((_, text)) = FIO_DEFAULT_LIST
            .iter()
            .find(|(q, _)| q.to_bits() == p.to_bits())
        {
            return PercentKey::Listed(text);
        }
        // Below 1e9 and on a millionth: the trimmed decimal is the
        // shortest text that reads back as `p` (neighbouring doubles are
        // far closer than a millionth), which is what `Display` prints.
        let micro = (p * 1e6).round();
        if !(p.is_sign_positive() && (0.0..1e15).contains(&micro) && micro / 1e6 == p) {
            return PercentKey::Other(format!("{p}"));
        }
        let mut key = PercentKey::Short {
            buf: [0; 16],
            len: 0,
        };
        let micro = micro as u64;
        let (whole, mut frac) = (micro / 1_000_000, micro % 1_000_000);
        key.push_digits(whole, 1);
        if frac != 0 {
            let mut places = 6;
            while frac % 10 == 0 {
                frac /= 10;
                places -= 1;
            }
            key.push(b'.');
            key.push_digits(frac, places);
        }
        key
    }

    /// `n` in decimal, zero-padded to at least `width` digits.
    fn push_digits(&mut self, mut n: u64, width: usize) {
        let mut digits = [0u8; 20];
        let mut count = 0;
        while n > 0 || count < width {
            digits[count] = b'0' + (n % 10) as u8;
            n /= 10;
            count += 1;
        }
        for &d in digits[..count].iter().rev() {
            self.push(d);
        }
    }

    fn push(&mut self, byte: u8) {
        if let PercentKey::Short { buf, len } = self {
            buf[*len] = byte;
            *len += 1;
        }
    }

    fn as_str(&self) -> &str {
        match self {
            PercentKey::Listed(text) => text,
            PercentKey::Short { buf, len } => std::str::from_utf8(&buf[..*len]).unwrap_or_default(),
            PercentKey::Other(text) => text,
        }
    }
}

/// fio's default `percentile_list` (`stat.c`), each percent with its
/// `Display` text.
const FIO_DEFAULT_LIST: [(f64, &str); 17] = [
    (1.0, "1"),
    (5.0, "5"),
    (10.0, "10"),
    (20.0, "20"),
    (30.0, "30"),
    (40.0, "40"),
    (50.0, "50"),
    (60.0, "60"),
    (70.0, "70"),
    (80.0, "80"),
    (90.0, "90"),
    (95.0, "95"),
    (99.0, "99"),
    (99.5, "99.5"),
    (99.9, "99.9"),
    (99.95, "99.95"),
    (99.99, "99.99"),
];

impl serde::Serialize for Percentiles {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        if self.is_empty() {
            return s.serialize_none();
        }
        let mut m = s.serialize_map(Some(self.len()))?;
        for (p, v) in self.pairs() {
            m.serialize_entry(PercentKey::of(p).as_str(), &v)?;
        }
        m.end()
    }
}

impl<'de> serde::Deserialize<'de> for Percentiles {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map: Option<indexmap::IndexMap<String, f64>> = serde::Deserialize::deserialize(d)?;
        let pairs: Vec<(f64, f64)> = map
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| Some((k.parse().ok()?, v)))
            .collect();
        Ok(Percentiles::new(&pairs))
    }
}

/// One direction's figures. `Default` is an exact, empty measurement
/// (precisions 1, as [`Row::empty`] has them).
#[derive(Debug, Clone, PartialEq)]
pub struct DirectionFigures {
    /// Milliseconds.
    pub runtime_ms: f64,
    pub io_bytes: u64,
    pub bw_bytes_per_s: f64,
    pub iops: f64,
    /// Steps the figures are known to (1 when exact): IOPS, bytes/s, ns.
    pub iops_precision: f64,
    pub bw_precision: f64,
    pub lat_precision_ns: f64,
    /// Submission, completion and total latency.
    pub slat: Latency,
    pub clat: Latency,
    pub lat: Latency,
    /// Completion- and total-latency percentiles: (percent, ns), in any
    /// order; the row keeps those it has columns for.
    pub clat_percentiles: Vec<(f64, f64)>,
    pub lat_percentiles: Vec<(f64, f64)>,
    pub iops_samples: Samples,
    /// Bandwidth samples, bytes/s.
    pub bw_samples: Samples,
}

impl Default for DirectionFigures {
    fn default() -> DirectionFigures {
        DirectionFigures {
            runtime_ms: 0.0,
            io_bytes: 0,
            bw_bytes_per_s: 0.0,
            iops: 0.0,
            iops_precision: 1.0,
            bw_precision: 1.0,
            lat_precision_ns: 1.0,
            slat: Latency::default(),
            clat: Latency::default(),
            lat: Latency::default(),
            clat_percentiles: Vec::new(),
            lat_percentiles: Vec::new(),
            iops_samples: Samples::default(),
            bw_samples: Samples::default(),
        }
    }
}

/// The value at `want` percent, if the table has it. Percents are read
/// from decimals (`99.900000` in fio's output), so they equal the wanted
/// value to the last bits; the bound is that close because DiskSpd's
/// nine nines (99.9999999) sit 1e-7 from its maximum (100).
pub fn percentile(
    table: impl IntoIterator<Item = impl std::borrow::Borrow<(f64, f64)>>,
    want: f64,
) -> Option<f64> {
    table.into_iter().find_map(|pair| {
        let (p, v) = *pair.borrow();
        ((p - want).abs() < 1e-9).then_some(v)
    })
}

impl DirectionFigures {
    /// Sets every measurement field of `row` from these figures (all of
    /// them, so a figure not reported is `None` in the row).
    pub fn apply(&self, row: &mut Row) {
        row.runtime_ms = self.runtime_ms;
        row.io_bytes = self.io_bytes;
        row.bw_bytes_per_s = self.bw_bytes_per_s;
        row.iops = self.iops;
        row.iops_precision = self.iops_precision;
        row.bw_precision = self.bw_precision;
        row.lat_precision_ns = self.lat_precision_ns;
        row.slat_mean_ns = self.slat.mean;
        row.clat_mean_ns = self.clat.mean;
        row.clat_stddev_ns = self.clat.stddev;
        row.lat_mean_ns = self.lat.mean;
        row.lat_stddev_ns = self.lat.stddev;
        row.lat_min_ns = self.lat.min;
        row.lat_max_ns = self.lat.max;
        let clat = |p| percentile(&self.clat_percentiles, p);
        row.clat_p50_ns = clat(50.0);
        row.clat_p90_ns = clat(90.0);
        row.clat_p95_ns = clat(95.0);
        row.clat_p99_ns = clat(99.0);
        row.clat_p99_9_ns = clat(99.9);
        row.clat_p99_99_ns = clat(99.99);
        let lat = |p| percentile(&self.lat_percentiles, p);
        row.lat_p50_ns = lat(50.0);
        row.lat_p99_ns = lat(99.0);
        row.lat_p99_9_ns = lat(99.9);
        Samples {
            n: row.iops_samples,
            mean: row.iops_sample_mean,
            stddev: row.iops_sample_stddev,
        } = self.iops_samples;
        Samples {
            n: row.bw_samples,
            mean: row.bw_sample_mean,
            stddev: row.bw_sample_stddev,
        } = self.bw_samples;
        row.clat_percentiles = Percentiles::new(&self.clat_percentiles);
        row.lat_percentiles = Percentiles::new(&self.lat_percentiles);
    }

    /// Copies the fields [`DirectionFigures::apply`] sets from one row to
    /// another: the same run read from two of fio's outputs keeps one's
    /// figures (the more exact) and the other's options.
    pub fn copy(from: &Row, into: &mut Row) {
        into.runtime_ms = from.runtime_ms;
        into.io_bytes = from.io_bytes;
        into.bw_bytes_per_s = from.bw_bytes_per_s;
        into.iops = from.iops;
        into.iops_precision = from.iops_precision;
        into.bw_precision = from.bw_precision;
        into.lat_precision_ns = from.lat_precision_ns;
        into.slat_mean_ns = from.slat_mean_ns;
        into.clat_mean_ns = from.clat_mean_ns;
        into.clat_stddev_ns = from.clat_stddev_ns;
        into.lat_mean_ns = from.lat_mean_ns;
        into.lat_stddev_ns = from.lat_stddev_ns;
        into.lat_min_ns = from.lat_min_ns;
        into.lat_max_ns = from.lat_max_ns;
        into.clat_p50_ns = from.clat_p50_ns;
        into.clat_p90_ns = from.clat_p90_ns;
        into.clat_p95_ns = from.clat_p95_ns;
        into.clat_p99_ns = from.clat_p99_ns;
        into.clat_p99_9_ns = from.clat_p99_9_ns;
        into.clat_p99_99_ns = from.clat_p99_99_ns;
        into.lat_p50_ns = from.lat_p50_ns;
        into.lat_p99_ns = from.lat_p99_ns;
        into.lat_p99_9_ns = from.lat_p99_9_ns;
        into.iops_samples = from.iops_samples;
        into.iops_sample_mean = from.iops_sample_mean;
        into.iops_sample_stddev = from.iops_sample_stddev;
        into.bw_samples = from.bw_samples;
        into.bw_sample_mean = from.bw_sample_mean;
        into.bw_sample_stddev = from.bw_sample_stddev;
    }
}

#[cfg(test)]
mod tests {
    use super::LatencyBins;

    /// fio's buckets, as stat.c computes them (in floating point).
    fn fio_value(idx: u64) -> u64 {
        if idx < 128 {
            return idx;
        }
        let error_bits = (idx >> 6) - 1;
        let base = 1u64 << (error_bits + 6);
        let k = idx % 64;
        (base as f64 + (k as f64 + 0.5) * (1u64 << error_bits) as f64) as u64
    }

    #[test]
    fn bins_of_fio_buckets_are_stored_by_bucket_and_read_back_exactly() {
        // fio 3.x has 29 groups of 64 buckets (1,856).
        for idx in 0..(29 * 64) {
            let ns = fio_value(idx);
            assert_eq!(super::bucket_value(idx), Some(ns), "bucket {idx}");
            assert_eq!(super::bucket_of(ns), Some(idx), "value {ns}");
        }
        // The encoding takes any bucket whose value fits a u64.
        for idx in (29 * 64)..(59 * 64) {
            let ns = super::bucket_value(idx).unwrap();
            assert_eq!(super::bucket_of(ns), Some(idx), "value {ns}");
        }
        assert_eq!(super::bucket_value(59 * 64), None);
        // Between two buckets' middles: no bucket's value.
        assert_eq!(super::bucket_of(78335), None);
        assert_eq!(super::bucket_of(78337), None);
        // A json+ histogram (the fixture's first and last bins, a gap).
        let pairs: Vec<(u64, u64)> = [78336, 79360, 80384, 9764864, 29229056, 45875200]
            .into_iter()
            .zip([1, 2, 2, 12, 15, 1])
            .collect();
        let bins = LatencyBins::new(&pairs);
        assert_eq!(bins.to_vec(), pairs);
        assert_eq!(bins.bytes[0], super::BY_BUCKET);
        // Three buckets in a row take a byte a step and a byte a count.
        let steps = LatencyBins::new(&pairs[..3]);
        assert!(
            steps.stored_bytes() <= 1 + 3 + 3 * 2,
            "{}",
            steps.stored_bytes()
        );
        let mut by_ns = vec![super::BY_NS];
        let mut last = 0;
        for &(ns, n) in &pairs {
            super::varint(&mut by_ns, ns - last);
            super::varint(&mut by_ns, n);
            last = ns;
        }
        assert!(
            bins.stored_bytes() < by_ns.len(),
            "{} {}",
            bins.stored_bytes(),
            by_ns.len()
        );
    }

    #[test]
    fn bins_of_other_latencies_are_stored_by_ns_and_read_back_exactly() {
        for pairs in [
            vec![(78335, 1), (78336, 2)],
            vec![(1000, 5), (1000, 6), (u64::MAX, u64::MAX)],
            vec![(0, 0), (5, 1), (127, 3), (129, 4)],
            vec![(130, 1)],
        ] {
            let bins = LatencyBins::new(&pairs);
            assert_eq!(bins.to_vec(), pairs);
            assert_eq!(bins.len(), pairs.len());
        }
        // (0, 0), (5, 1), (127, 3), (129, 4) are all buckets' values.
        assert_eq!(
            LatencyBins::new(&[(0, 0), (5, 1), (127, 3), (129, 4)]).bytes[0],
            super::BY_BUCKET
        );
        assert_eq!(LatencyBins::new(&[(130, 1)]).bytes[0], super::BY_NS);
        // Unsorted pairs are sorted; none is stored as nothing.
        let bins = LatencyBins::new(&[(79360, 2), (78336, 1)]);
        assert_eq!(bins.to_vec(), vec![(78336, 1), (79360, 2)]);
        assert!(LatencyBins::new(&[]).is_empty());
        assert_eq!(LatencyBins::new(&[]).to_vec(), vec![]);
        assert_eq!(LatencyBins::new(&[]), LatencyBins::default());
    }

    /// fio's default list of percents is held once for all the rows of a
    /// thread that printed it, and values that are fio's bucket values
    /// take two bytes each; any other value is kept bit for bit. Fails
    /// when each row holds its own list or its values as pairs.
    #[test]
    fn percentiles_share_their_percents_and_hold_bucket_values_small() {
        let percents = [
            1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9,
            99.95, 99.99,
        ];
        let row = |shift: u64| -> Vec<(f64, f64)> {
            percents
                .iter()
                .enumerate()
                .map(|(i, &p)| (p, fio_value(900 + 3 * i as u64 + shift) as f64))
                .collect()
        };
        let (a, b) = (
            super::Percentiles::new(&row(0)),
            super::Percentiles::new(&row(1)),
        );
        assert_eq!(a.to_vec(), row(0));
        assert_eq!(b.to_vec(), row(1));
        assert_ne!(a, b);
        let (pa, pb) = (a.percents.clone().unwrap(), b.percents.clone().unwrap());
        assert!(std::sync::Arc::ptr_eq(&pa, &pb), "one list of percents");
        assert_eq!(a.values[0], super::BY_BUCKET);
        assert!(
            a.values.len() <= 1 + 2 * percents.len(),
            "{}",
            a.values.len()
        );
        // Not a bucket's value (81920.5, NaN, -0.0, 78335): every value
        // as it is, bit for bit.
        for odd in [81920.5, f64::NAN, -0.0, 78335.0, 1e300, -5.0] {
            let mut pairs = row(0);
            pairs[3].1 = odd;
            let p = super::Percentiles::new(&pairs);
            assert_eq!(p.values[0], super::BY_NS);
            assert!(
                p.pairs()
                    .zip(&pairs)
                    .all(|(x, y)| x.1.to_bits() == y.1.to_bits()),
                "{odd}"
            );
            assert_eq!(p.len(), pairs.len());
        }
        assert!(super::Percentiles::new(&[]).is_empty());
        assert_eq!(super::Percentiles::new(&[]).len(), 0);
    }

    #[test]
    fn percentile_text_is_the_json_maps() {
        let map_text = |p: &super::Percentiles| {
            let map: serde_json::Map<String, serde_json::Value> = p
                .pairs()
                .map(|(p, v)| (format!("{p}"), serde_json::Value::from(v)))
                .collect();
            serde_json::Value::Object(map).to_string()
        };
        for pairs in [
            vec![(1.0, 987136.0), (99.9, 2834432.0), (99.99, 3489792.5)],
            vec![
                (50.0, f64::NAN),
                (99.0, f64::INFINITY),
                (0.000001, 1e-7),
                (5.0, 1e300),
            ],
            vec![(50.0, 1.0), (99.0, 2.0), (50.0, 3.0)],
            vec![(0.0, -0.0)],
        ] {
            let p = super::Percentiles::new(&pairs);
            assert_eq!(p.text(), Some(map_text(&p)), "{p:?}");
            assert_eq!(p.to_vec().len(), pairs.len());
            assert!(
                p.pairs()
                    .zip(&pairs)
                    .all(|(a, b)| a.0.to_bits() == b.0.to_bits() && a.1.to_bits() == b.1.to_bits())
            );
        }
        assert_eq!(super::Percentiles::default().text(), None);
    }

    #[test]
    fn percent_keys_print_as_display_does() {
        let mut percents = vec![
            0.0,
            1.0,
            5.0,
            10.0,
            50.0,
            99.0,
            99.5,
            99.9,
            99.95,
            99.99,
            99.999,
            99.9999,
            0.000001,
            0.1,
            0.25,
            12.345678,
            100.0,
            123456.5,
            999_999_999.999999,
            -1.0,
            -0.0,
            1e-7,
            1e20,
            1.0 / 3.0,
            f64::INFINITY,
            f64::NAN,
            // Longer than any percent fio prints, written in full.
            1e300,
            f64::MAX,
        ];
        // fio's own list and every millionth-step percent it can print.
        percents.extend((0..=1000).map(|i| i as f64 * 0.1));
        percents.extend(
            [
                "1.000000",
                "99.990000",
                "99.999900",
                "0.000100",
                "33.333333",
            ]
            .iter()
            .map(|t| t.parse::<f64>().unwrap_or_default()),
        );
        for &p in &percents {
            assert_eq!(super::PercentKey::of(p).as_str(), format!("{p}"), "{p:e}");
        }
        // fio's default list, as fio prints it, read back to the texts
        // the list gives them.
        for (p, text) in super::FIO_DEFAULT_LIST {
            assert_eq!(format!("{p}"), text);
            let printed = format!("{p:.6}").parse::<f64>().unwrap_or_default();
            assert!(
                matches!(super::PercentKey::of(printed), super::PercentKey::Listed(t) if t == text)
            );
        }
        // Written by hand as serde_json writes them: every key, values that
        // are not finite (null), a percent given twice.
        let values = [66048.0, f64::NAN, 0.5, -0.0, 1e300, f64::NEG_INFINITY];
        let pairs: Vec<(f64, f64)> = percents
            .iter()
            .enumerate()
            .map(|(i, &p)| (p, values[i % values.len()]))
            .collect();
        for chunk in pairs
            .chunks(17)
            .chain([&[][..], &[(50.0, 1.0), (50.0, 2.0)]])
        {
            let p = super::Percentiles::new(chunk);
            let mut by_hand = Vec::new();
            p.write_json(&mut by_hand).unwrap();
            assert_eq!(
                String::from_utf8(by_hand).unwrap(),
                serde_json::to_string(&p).unwrap(),
                "{chunk:?}"
            );
        }
    }

    use super::*;
    use crate::model::Direction;

    #[test]
    fn apply_sets_the_rows_fields_and_keeps_the_percentiles_it_has_columns_for() {
        let f = DirectionFigures {
            runtime_ms: 2000.0,
            io_bytes: 8192,
            bw_bytes_per_s: 4096.0,
            iops: 1.0,
            lat_precision_ns: 1000.0,
            slat: Latency {
                mean: Some(5.0),
                ..Latency::default()
            },
            clat: Latency {
                mean: Some(10.0),
                stddev: Some(2.0),
                min: Some(1.0),
                max: Some(99.0),
            },
            lat: Latency {
                mean: Some(15.0),
                stddev: Some(3.0),
                min: Some(4.0),
                max: Some(150.0),
            },
            clat_percentiles: vec![(99.9, 70.0), (50.0, 9.0), (99.5, 60.0)],
            lat_percentiles: vec![(99.9999999, 41.0), (99.0, 40.0), (100.0, 42.0)],
            iops_samples: Samples {
                n: Some(20),
                mean: Some(1.1),
                stddev: Some(0.1),
            },
            ..DirectionFigures::default()
        };
        let mut row = Row::empty("a", Direction::Read);
        row.clat_p99_ns = Some(1.0);
        f.apply(&mut row);
        assert_eq!(
            (row.runtime_ms, row.io_bytes, row.iops),
            (2000.0, 8192, 1.0)
        );
        assert_eq!((row.iops_precision, row.lat_precision_ns), (1.0, 1000.0));
        assert_eq!(row.slat_mean_ns, Some(5.0));
        assert_eq!(
            (row.clat_mean_ns, row.clat_stddev_ns),
            (Some(10.0), Some(2.0))
        );
        assert_eq!((row.lat_min_ns, row.lat_max_ns), (Some(4.0), Some(150.0)));
        assert_eq!(
            (row.clat_p50_ns, row.clat_p99_9_ns),
            (Some(9.0), Some(70.0))
        );
        // Not reported: cleared, not left from before.
        assert_eq!(row.clat_p99_ns, None);
        assert_eq!((row.lat_p99_ns, row.lat_p50_ns), (Some(40.0), None));
        // Nine nines are not the maximum.
        assert_eq!(percentile(&f.lat_percentiles, 100.0), Some(42.0));
        assert_eq!(row.iops_samples, Some(20));
        assert_eq!((row.bw_samples, row.bw_sample_mean), (None, None));
    }
}

#[cfg(test)]
mod bins_tests {
    use super::LatencyBins;

    /// fio's bucket values (stat.c `plat_idx_to_val`: 64 buckets a power
    /// of two) for the indices given, as json+ prints them.
    fn fio_bucket(idx: u64) -> u64 {
        let (bits, sub) = (6u64, 64u64);
        if idx < 2 * sub {
            return idx;
        }
        let error_bits = (idx >> bits) - 1;
        let base = 1u64 << (error_bits + bits);
        let k = idx % sub;
        base + ((k as f64 + 0.5) * (1u64 << error_bits) as f64) as u64
    }

    #[test]
    fn pairs_come_back_exactly_in_a_fraction_of_their_size() {
        let fio: Vec<(u64, u64)> = (100..1500)
            .step_by(3)
            .map(|i| (fio_bucket(i), (i * 7919) % 20_000 + 1))
            .collect();
        let edges = vec![
            (0, 0),
            (1, u64::MAX),
            (u64::MAX - 1, 3),
            (u64::MAX, u64::MAX),
        ];
        for pairs in [fio.clone(), edges, Vec::new()] {
            let bins = LatencyBins::new(&pairs);
            assert_eq!(bins.to_vec(), pairs);
            assert_eq!(bins.len(), pairs.len());
        }
        let bins = LatencyBins::new(&fio);
        assert!(
            bins.bytes.len() <= fio.len() * 5,
            "{} bytes for {} bins",
            bins.bytes.len(),
            fio.len()
        );
    }

    #[test]
    fn pairs_out_of_order_are_kept_in_latency_order() {
        let bins = LatencyBins::new(&[(500, 1), (100, 2), (300, 3)]);
        assert_eq!(bins.to_vec(), vec![(100, 2), (300, 3), (500, 1)]);
    }
}
