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
/// by latency, held in a fifth of their 16 bytes and shared. Each pair is
/// stored as two LEB128 varints, the latency as its step from the one
/// before (exact for any u64) (fio's buckets are 1/64 of a power of two apart, a byte or two)
/// and the count as it is (mostly below 16,384: two bytes). A 100,000-file
/// json+ archive has some 40 M bins: 600 MB as pairs, 120-150 MB so.
/// Rows and the runs made of them hold one `Arc` of the bytes.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct LatencyBins {
    bytes: std::sync::Arc<[u8]>,
    len: u32,
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
        let mut bytes = Vec::with_capacity(pairs.len() * 4);
        let mut last = 0u64;
        for &(ns, n) in pairs {
            varint(&mut bytes, ns - last);
            varint(&mut bytes, n);
            last = ns;
        }
        LatencyBins {
            bytes: bytes.into(),
            len: u32::try_from(pairs.len()).unwrap_or(u32::MAX),
        }
    }

    /// The pairs, in order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let mut at = 0;
        let mut last = 0u64;
        std::iter::from_fn(move || {
            if at >= self.bytes.len() {
                return None;
            }
            let step = read_varint(&self.bytes, &mut at);
            let n = read_varint(&self.bytes, &mut at);
            last = last.wrapping_add(step);
            Some((last, n))
        })
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
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Percentiles(pub Vec<(f64, f64)>);

impl Percentiles {
    /// The value at `pct` percent, if fio printed that percentile.
    pub fn get(&self, pct: f64) -> Option<f64> {
        percentile(&self.0, pct)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The dataset's text: a JSON object, percents as fio's list wrote
    /// them (`99.9`, not `99.900000`).
    pub fn text(&self) -> Option<String> {
        if self.0.is_empty() {
            return None;
        }
        // Written straight from the pairs (as the dataset's ndjson writes
        // them), not through a JSON map per row: one string, not twenty.
        // A percent given twice is one key, the map's way.
        let once = self
            .0
            .iter()
            .enumerate()
            .all(|(i, (p, _))| self.0[..i].iter().all(|(q, _)| q.to_bits() != p.to_bits()));
        if once {
            return serde_json::to_string(self).ok();
        }
        let map: serde_json::Map<String, serde_json::Value> = self
            .0
            .iter()
            .map(|&(p, v)| {
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
        if self.0.is_empty() {
            out.extend_from_slice(b"null");
            return Ok(());
        }
        let mut separator = b'{';
        for &(p, v) in &self.0 {
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
        Percentiles(
            map.iter()
                .filter_map(|(k, v)| Some((k.parse().ok()?, v.as_f64()?)))
                .filter(|(p, v): &(f64, f64)| p.is_finite() && v.is_finite())
                .collect(),
        )
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
        if self.0.is_empty() {
            return s.serialize_none();
        }
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for &(p, v) in &self.0 {
            m.serialize_entry(PercentKey::of(p).as_str(), &v)?;
        }
        m.end()
    }
}

impl<'de> serde::Deserialize<'de> for Percentiles {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map: Option<indexmap::IndexMap<String, f64>> = serde::Deserialize::deserialize(d)?;
        Ok(Percentiles(
            map.into_iter()
                .flatten()
                .filter_map(|(k, v)| Some((k.parse().ok()?, v)))
                .collect(),
        ))
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
pub fn percentile(table: &[(f64, f64)], want: f64) -> Option<f64> {
    table
        .iter()
        .find(|(p, _)| (p - want).abs() < 1e-9)
        .map(|&(_, v)| v)
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
        row.clat_percentiles = Percentiles(self.clat_percentiles.clone());
        row.lat_percentiles = Percentiles(self.lat_percentiles.clone());
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
    #[test]
    fn percentile_text_is_the_json_maps() {
        let map_text = |p: &super::Percentiles| {
            let map: serde_json::Map<String, serde_json::Value> =
                p.0.iter()
                    .map(|&(p, v)| (format!("{p}"), serde_json::Value::from(v)))
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
            let p = super::Percentiles(pairs);
            assert_eq!(p.text(), Some(map_text(&p)), "{:?}", p.0);
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
            let p = super::Percentiles(chunk.to_vec());
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
