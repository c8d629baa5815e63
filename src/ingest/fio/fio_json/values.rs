//! The mirror's leaf types, read without copying: strings borrow from the
//! document's text (a copy only when fio escaped something, e.g. a Windows
//! path), option maps are small vectors of borrowed pairs instead of
//! `IndexMap<String, Value>`, and percentile and histogram maps become
//! number pairs as they are read. A file of 10,000 jobs would otherwise
//! allocate a key and a value for every job option of every job.

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;

use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Number;

/// A JSON string, borrowed from the text unless it held an escape.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Str<'a>(pub Cow<'a, str>);

impl Deref for Str<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Str<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Str<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Str<'de>, E> {
                Ok(Str(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Str<'de>, E> {
                Ok(Str(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Str<'de>, E> {
                Ok(Str(Cow::Owned(s)))
            }
        }
        d.deserialize_str(V)
    }
}

/// An option's value: fio prints every value as a string; a number or a
/// boolean is tolerated, anything else is kept only as "not a value".
#[derive(Debug, Clone, PartialEq)]
pub enum Loose<'a> {
    Text(Str<'a>),
    Number(Number),
    Bool(bool),
    /// `null`, an array or an object: skipped, not read.
    Other,
}

impl Loose<'_> {
    /// The number, as `serde_json::Value::as_f64` reads it.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Loose::Number(n) => n.as_f64(),
            _ => None,
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Loose<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Loose<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an option value")
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Loose<'de>, E> {
                Ok(Loose::Bool(b))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Loose<'de>, E> {
                Ok(Loose::Number(n.into()))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Loose<'de>, E> {
                Ok(Loose::Number(n.into()))
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<Loose<'de>, E> {
                Ok(Number::from_f64(n).map_or(Loose::Other, Loose::Number))
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Loose<'de>, E> {
                Ok(Loose::Text(Str(Cow::Borrowed(s))))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Loose<'de>, E> {
                Ok(Loose::Text(Str(Cow::Owned(s.to_owned()))))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Loose<'de>, E> {
                Ok(Loose::Text(Str(Cow::Owned(s))))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Loose<'de>, E> {
                Ok(Loose::Other)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Loose<'de>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Loose::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Loose<'de>, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Loose::Other)
            }
        }
        d.deserialize_any(V)
    }
}

/// `global options` / `job options` / `iodepth_level`, in the document's
/// order. A key printed twice keeps its last value, as a map would.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct FioOptions<'a>(pub Vec<(Str<'a>, Loose<'a>)>);

impl<'a> FioOptions<'a> {
    /// The last value given for `key`.
    pub fn get(&self, key: &str) -> Option<&Loose<'a>> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| **k == *key)
            .map(|(_, v)| v)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Every (key, value) pair as printed, duplicates included.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Loose<'a>)> {
        self.0.iter().map(|(k, v)| (&**k, v))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for FioOptions<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = FioOptions<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of options")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FioOptions<'de>, A::Error> {
                let mut out = Vec::with_capacity(map.size_hint().unwrap_or(16));
                while let Some(pair) = map.next_entry()? {
                    out.push(pair);
                }
                Ok(FioOptions(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// `global options`: one map, or (fio 3.42+ client/server with several
/// servers, `client.c`) one map per server, each carrying that server's
/// `hostname` and `port` beside its options.
#[derive(Debug, Clone, PartialEq)]
pub enum GlobalOptions<'a> {
    One(FioOptions<'a>),
    PerServer(Vec<FioOptions<'a>>),
}

impl Default for GlobalOptions<'_> {
    fn default() -> Self {
        GlobalOptions::One(FioOptions::default())
    }
}

impl<'a> GlobalOptions<'a> {
    /// The options a job of `hostname`:`port` ran with: its server's map
    /// (by hostname and port; by hostname alone when fio printed no port),
    /// none when no server matches.
    pub fn for_server(&self, hostname: Option<&str>, port: Option<f64>) -> &FioOptions<'a> {
        static NONE: FioOptions<'static> = FioOptions(Vec::new());
        let servers = match self {
            GlobalOptions::One(o) => return o,
            GlobalOptions::PerServer(servers) => servers,
        };
        let is = |o: &FioOptions<'_>, key: &str, want: Option<String>| {
            let got = o.get(key).and_then(|v| match v {
                Loose::Text(s) => Some(s.trim().to_string()),
                Loose::Number(n) => n.as_f64().map(|p| p.to_string()),
                _ => None,
            });
            want.is_none() || got.is_none() || got == want
        };
        let Some(host) = hostname else { return &NONE };
        servers
            .iter()
            .find(|o| {
                is(o, "hostname", Some(host.to_string()))
                    && is(o, "port", port.map(|p| p.to_string()))
            })
            .unwrap_or(&NONE)
    }

    /// Whether no server printed any option.
    pub fn is_empty(&self) -> bool {
        match self {
            GlobalOptions::One(o) => o.is_empty(),
            GlobalOptions::PerServer(servers) => servers.iter().all(FioOptions::is_empty),
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for GlobalOptions<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = GlobalOptions<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of options, or a list of them (one per server)")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                FioOptions::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(GlobalOptions::One)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut servers = Vec::with_capacity(seq.size_hint().unwrap_or(2));
                while let Some(o) = seq.next_element()? {
                    servers.push(o);
                }
                Ok(GlobalOptions::PerServer(servers))
            }
        }
        d.deserialize_any(V)
    }
}

/// `{"99.000000": 272384, ...}` as (percent, latency) pairs.
#[derive(Debug, Default)]
pub struct FioPercentiles(pub Vec<(f64, f64)>);

/// json+ `{"44288": 1, ...}` as (latency, count) pairs.
#[derive(Debug, Default)]
pub struct Bins(pub Vec<(u64, u64)>);

/// `n / 10^d` where both are exact in an `f64` (`n` below 2^53, `d` at
/// most 22): the one division rounds as `str::parse` rounds the decimal
/// text. `None` elsewhere, where only parsing the text is exact. The
/// direct reader's numbers come here.
pub(super) fn exact_decimal(n: u64, d: u32) -> Option<f64> {
    (n < 1 << 53 && d < 23).then(|| n as f64 / EXACT_TENS[d as usize])
}

/// 10^0 to 10^22: the powers of ten an `f64` holds exactly.
const EXACT_TENS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// A number written as a map's key (a percentile, a json+ bin): the key
/// trimmed and parsed (`str::parse`), with the common case cut short.
pub(super) trait KeyNumber: Sized {
    fn from_key(key: &str) -> Option<Self>;
}

/// Trimming: only where the key starts or ends with a byte that could be
/// whitespace (ASCII up to a space, or any byte of a multi-byte character).
fn trimmed(key: &str) -> &str {
    let plain = |b: &u8| (b'!'..0x80).contains(b);
    match (key.as_bytes().first(), key.as_bytes().last()) {
        (Some(a), Some(z)) if plain(a) && plain(z) => key,
        _ => key.trim(),
    }
}

impl KeyNumber for u64 {
    fn from_key(key: &str) -> Option<u64> {
        trimmed(key).parse().ok()
    }
}

impl KeyNumber for f64 {
    /// fio's `"99.990000"`, trimmed, by `str::parse` (correctly rounded).
    /// A hand-written reader (fio's default list matched as bytes, other
    /// keys as digits over a power of ten) took 0.983x ingest's
    /// instructions and no wall time that alternated runs could see
    /// (benches/ingest-speed.md, #57): it is gone.
    fn from_key(key: &str) -> Option<f64> {
        trimmed(key).parse().ok()
    }
}

/// A map key parsed from its string without allocating.
struct NumKey<T>(T);

impl<'de, T: KeyNumber> Deserialize<'de> for NumKey<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<T: KeyNumber> Visitor<'_> for V<T> {
            type Value = NumKey<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number as a string key")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
                T::from_key(s)
                    .map(NumKey)
                    .ok_or_else(|| E::custom(format!("bad numeric key {s:?}")))
            }
        }
        d.deserialize_str(V(std::marker::PhantomData))
    }
}

fn visit_pairs<'de, A, K, V>(mut map: A) -> Result<Vec<(K, V)>, A::Error>
where
    A: MapAccess<'de>,
    K: KeyNumber,
    V: Deserialize<'de>,
{
    let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0));
    while let Some((NumKey(k), v)) = map.next_entry::<NumKey<K>, V>()? {
        out.push((k, v));
    }
    Ok(out)
}

impl<'de> Deserialize<'de> for FioPercentiles {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = FioPercentiles;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a percentile map")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<FioPercentiles, A::Error> {
                visit_pairs(map).map(FioPercentiles)
            }
        }
        d.deserialize_map(V)
    }
}

thread_local! {
    /// Whether json+ `bins` are read on this thread ([`without_bins`]).
    static READ_BINS: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Runs `f` with json+ latency bins skipped (still recognised, so the
/// `format` column says `json+`, but not read): only the CDF chart uses
/// them, and in a json+ file they are most of the bytes. A flag of the
/// thread rather than of the mirror types, so the serde mirror stays
/// plain `Deserialize`; the previous setting is restored when `f` ends.
pub fn without_bins<T>(skip: bool, f: impl FnOnce() -> T) -> T {
    if !skip {
        return f();
    }
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            READ_BINS.with(|r| r.set(self.0));
        }
    }
    let _restore = Restore(READ_BINS.with(|r| r.replace(false)));
    f()
}

/// Whether json+ `bins` are read on this thread ([`without_bins`]).
pub(super) fn reading_bins() -> bool {
    READ_BINS.with(|r| r.get())
}

impl Bins {
    /// The histogram of (latency, count) pairs as fio printed them: a
    /// count that is not a finite non-negative number is left out, and the
    /// rest sorted by latency.
    pub(super) fn of(pairs: Vec<(u64, f64)>) -> Bins {
        let mut bins: Vec<(u64, u64)> = pairs
            .into_iter()
            .filter(|&(_, c)| c.is_finite() && c >= 0.0)
            .map(|(k, c)| (k, c as u64))
            .collect();
        bins.sort_unstable();
        Bins(bins)
    }
}

impl<'de> Deserialize<'de> for Bins {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if !reading_bins() {
            serde::de::IgnoredAny::deserialize(d)?;
            return Ok(Bins(Vec::new()));
        }
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Bins;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a latency histogram map")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Bins, A::Error> {
                visit_pairs(map).map(Bins::of)
            }
        }
        d.deserialize_map(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn strings_borrow_unless_escaped() {
        let s: Str = serde_json::from_str(r#""libaio""#).unwrap();
        assert!(matches!(s.0, Cow::Borrowed("libaio")));
        let s: Str = serde_json::from_str(r#""\\\\.\\PhysicalDrive1""#).unwrap();
        assert!(matches!(&s.0, Cow::Owned(p) if p == r"\\.\PhysicalDrive1"));
    }

    #[test]
    fn options_read_as_a_value_map_would() {
        let text = r#"{"bs": "4k", "iodepth": 32, "direct": true, "x": null,
            "y": [1, {"z": 2}], "bs": "8k", "rate": 1.5, "neg": -3}"#;
        let opts: FioOptions = serde_json::from_str(text).unwrap();
        let map: indexmap::IndexMap<String, Value> = serde_json::from_str(text).unwrap();
        for (key, want) in &map {
            let got = match opts.get(key).unwrap() {
                Loose::Text(s) => Value::String(s.to_string()),
                Loose::Number(n) => Value::Number(n.clone()),
                Loose::Bool(b) => Value::Bool(*b),
                Loose::Other => Value::Null,
            };
            let want = if want.is_array() { &Value::Null } else { want };
            assert_eq!(&got, want, "{key}");
        }
        assert_eq!(opts.get("iodepth").and_then(Loose::as_f64), Some(32.0));
        assert_eq!(opts.get("missing"), None);
    }
}

#[cfg(test)]
mod key_tests {
    use super::KeyNumber;

    /// What `NumKey` read before the short cut: the key trimmed, parsed.
    fn parsed<T: std::str::FromStr>(key: &str) -> Option<T> {
        key.trim().parse().ok()
    }

    #[test]
    fn percent_and_long_keys_read_as_parse_reads_them() {
        // fio's default list as it writes it (`%f`), and other lists'.
        let keys = [
            "1.000000",
            "5.000000",
            "10.000000",
            "20.000000",
            "30.000000",
            "40.000000",
            "50.000000",
            "60.000000",
            "70.000000",
            "80.000000",
            "90.000000",
            "95.000000",
            "99.000000",
            "99.500000",
            "99.900000",
            "99.950000",
            "99.990000",
            "99.999000",
            "99.999900",
            "0.100000",
            "33.333333",
            "66.666667",
            "12.345678",
            "100.000000",
            // Digits past 2^53, where the integer's own rounding and the
            // division's would round twice (found by search).
            "13524489.454439869",
            "27273470.8257344239",
            "35762612911702.175",
            "4662135835888.23084",
            "9007199254740993",
            "900719925474099.3",
        ];
        for key in keys {
            let got = f64::from_key(key).map(f64::to_bits);
            assert_eq!(got, parsed::<f64>(key).map(f64::to_bits), "{key}");
        }
    }

    proptest::proptest! {
        /// Any key of digits, points, signs, exponents and spaces (ASCII
        /// and not), bit for bit as `trim().parse()` gives it, or refused
        /// as it refuses.
        #[test]
        fn number_keys_read_as_parse_reads_them(
            key in "[ \t\u{a0}]?[+-]?[0-9]{0,22}\\.?[0-9]{0,22}([eE][+-]?[0-9]{1,3})?[ \u{2003}]?",
        ) {
            let f = f64::from_key(&key).map(f64::to_bits);
            proptest::prop_assert_eq!(f, parsed::<f64>(&key).map(f64::to_bits), "{:?}", key);
            proptest::prop_assert_eq!(u64::from_key(&key), parsed::<u64>(&key), "{:?}", key);
        }
    }
}
