//! A row as one line of compact JSON, byte for byte what serde_json
//! writes for it (`serde_json::to_writer(out, row)`), with its keys written
//! as they are: the derive escapes each of its 76 keys for every row, a
//! third of writing a row. Values still go through serde_json, so numbers
//! and strings are formatted as serde_json formats them.
//!
//! The fields are destructured: a field added to [`Row`] does not build
//! until it is written here, and a test holds the bytes equal to the
//! derive's.

use super::Row;

/// Destructures `row` whole (a field of [`Row`] missing from the lists
/// does not build), then writes the fields in the order given, each by
/// its type's [`Put`]; `key = field` writes a field under another key.
macro_rules! write_fields {
    ($row:expr, $w:ident, [$($key:ident $(= $field:ident)?),* $(,)?], skip[$($skip:ident),*]) => {
        let Row { $($($field:)? $key,)* $($skip: _,)* } = $row;
        $( $w.field(concat!(",\"", stringify!($key), "\":"), $key)?; )*
    };
}

impl Row {
    /// Appends the row as compact JSON (no line end) to `out`. Inside
    /// [`super::shared_text::escaped_once`], its options text is escaped
    /// once per distinct text, as with serde_json.
    #[rustfmt::skip]
    pub fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        let start = out.len();
        let mut w = Fields { out };
        // The dataset's columns in Row's order (the derive's).
        write_fields!(self, w, [
            source, label = config, os, engine, fio_version, host, job, format, rw,
            direction, bs_bytes, iodepth, numjobs, runtime_ms, io_bytes,
            bw_bytes_per_s, iops, iops_precision, lat_mean_ns, lat_stddev_ns,
            lat_min_ns, lat_max_ns, clat_mean_ns, clat_p50_ns, clat_p99_ns,
            clat_p99_9_ns, usr_cpu_pct, sys_cpu_pct, system_cpu_pct, error,
            aggregate, rwmixread, bw_precision, lat_precision_ns, slat_mean_ns,
            clat_stddev_ns, clat_p90_ns, clat_p95_ns, clat_p99_99_ns, lat_p50_ns,
            lat_p99_ns, lat_p99_9_ns, iops_samples, iops_sample_mean,
            iops_sample_stddev, bw_samples, bw_sample_mean, bw_sample_stddev,
            filename, target, cpus_allowed, precondition, timestamp,
            effective_iodepth, direct, steady_state_attained, steady_state_rule,
            steady_state_measured, steady_state_duration_ms, steady_state_iops,
            steady_state_bw_bytes_per_s, timing_options, busiest_cpu_pct, tool,
            tool_version, options, timestamp_ms, instances,
            instance_group, bs_option, bs_spread, variant, clat_percentiles,
            lat_percentiles, file_run, setup_facts,
        ], skip[clat_bins]);
        // The first key's separator opens the object.
        w.out[start] = b'{';
        w.out.push(b'}');
        Ok(())
    }
}

/// A field's value as JSON, as serde_json writes it.
trait Put {
    fn put(&self, out: &mut Vec<u8>) -> serde_json::Result<()>;
}

/// Through serde_json's own serializer.
macro_rules! put_by_serde {
    ($($t:ty),*) => {$(
        impl Put for $t {
            #[inline]
            fn put(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
                serde::Serialize::serialize(self, &mut serde_json::Serializer::new(out))
            }
        }
    )*};
}

put_by_serde!(
    String,
    Option<String>,
    u64,
    Option<u64>,
    u32,
    Option<u32>,
    i64,
    Option<i64>,
    bool,
    Option<bool>,
    super::Direction,
    super::Os
);

/// serde_json's float writer (zmij's shortest digits). A hand-written
/// short cut for whole numbers (the integer's digits and `.0`) took 0.989x
/// ingest's instructions and no wall time that alternated runs could see
/// (benches/ingest-speed.md, #57): it is gone.
impl Put for f64 {
    #[inline]
    fn put(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        serde::Serialize::serialize(self, &mut serde_json::Serializer::new(out))
    }
}

impl Put for Option<f64> {
    #[inline]
    fn put(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        match self {
            Some(v) => v.put(out),
            None => {
                out.extend_from_slice(b"null");
                Ok(())
            }
        }
    }
}

/// The options text through [`super::shared_text`], escaped once per
/// distinct text inside [`super::shared_text::escaped_once`].
impl Put for Option<std::sync::Arc<str>> {
    #[inline]
    fn put(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        super::shared_text::serialize(self, &mut serde_json::Serializer::new(out))
    }
}

impl Put for super::figures::Percentiles {
    #[inline]
    fn put(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        self.write_json(out)
    }
}

/// The members of one JSON object being written.
struct Fields<'a> {
    out: &'a mut Vec<u8>,
}

impl Fields<'_> {
    /// `,"key":` (made at compile time: one copy, where pushing the
    /// separator, quotes and name one by one made writing 10,000 rows
    /// take 29-34 ms, not 23-24), then the value. Row keys are plain
    /// identifiers: nothing in them is escaped.
    #[inline]
    fn field(&mut self, key: &str, value: &impl Put) -> serde_json::Result<()> {
        self.out.extend_from_slice(key.as_bytes());
        value.put(self.out)
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;

    use super::super::{Direction, Os, figures::Percentiles, shared_text};
    use super::*;

    fn written(rows: &[Row]) -> (Vec<u8>, Vec<u8>) {
        let mut by_hand = Vec::new();
        let mut derived = Vec::new();
        for r in rows {
            r.write_json(&mut by_hand).unwrap();
            by_hand.push(b'\n');
            serde_json::to_writer(&mut derived, r).unwrap();
            derived.push(b'\n');
        }
        (by_hand, derived)
    }

    /// Every field set, and values whose text is easy to get wrong.
    fn every_field_set() -> Row {
        let text = |s: &str| Some(format!("{s} \"q\" \\ \u{1} é\n"));
        Row {
            source: "C:\\results\\\"a\".json".into(),
            config: "label \u{7f} ü".into(),
            os: Os::Other("solaris".into()),
            engine: "windowsaio".into(),
            fio_version: "fio-3.38".into(),
            host: text("host"),
            job: "job\t1".into(),
            format: "json+".into(),
            rw: "randrw".into(),
            direction: Direction::Trim,
            bs_bytes: u64::MAX,
            iodepth: u32::MAX,
            numjobs: 7,
            runtime_ms: -0.0,
            io_bytes: 1 << 40,
            bw_bytes_per_s: 1e300,
            iops: f64::NAN,
            iops_precision: 1000.0,
            lat_mean_ns: Some(1.5e-7),
            lat_stddev_ns: Some(f64::INFINITY),
            lat_min_ns: Some(0.1 + 0.2),
            lat_max_ns: Some(123_456_789_012_345_680.0),
            clat_mean_ns: Some(-3.25),
            clat_p50_ns: Some(66048.0),
            clat_p99_ns: Some(1e16),
            clat_p99_9_ns: Some(1e15),
            usr_cpu_pct: 3.590833,
            sys_cpu_pct: 12.8575,
            system_cpu_pct: Some(99.0),
            error: -5,
            aggregate: true,
            rwmixread: Some(70),
            bw_precision: 1024.0,
            lat_precision_ns: 1000.0,
            slat_mean_ns: Some(6017.613935),
            clat_stddev_ns: Some(13332.308462),
            clat_p90_ns: Some(78336.0),
            clat_p95_ns: Some(84480.0),
            clat_p99_99_ns: Some(156672.0),
            lat_p50_ns: Some(1.0),
            lat_p99_ns: Some(2.0),
            lat_p99_9_ns: Some(3.0),
            iops_samples: Some(239),
            iops_sample_mean: Some(13396.723849),
            iops_sample_stddev: Some(71.813828),
            bw_samples: Some(0),
            bw_sample_mean: Some(54874270.527488),
            bw_sample_stddev: Some(294183.985152),
            filename: text("/dev/nvme0n1:/dev/nvme1n1"),
            target: text("nvme0n1"),
            cpus_allowed: text("0-3"),
            precondition: text("seq fill"),
            timestamp: Some(i64::MIN),
            effective_iodepth: Some(0),
            direct: Some(false),
            steady_state_attained: Some(true),
            steady_state_rule: text("iops:5%"),
            steady_state_measured: text("3.2%"),
            steady_state_duration_ms: Some(60000.0),
            steady_state_iops: Some(1.25),
            steady_state_bw_bytes_per_s: Some(5.0e9),
            timing_options: text("gtod_reduce=1"),
            busiest_cpu_pct: Some(100.0),
            tool: "fio".into(),
            tool_version: text("3.38"),
            options: Some(Arc::from(r#"{"bs":"4k","filename":"C\\:\\x"}"#)),
            timestamp_ms: Some(i64::MAX),
            instances: 3,
            instance_group: text("group"),
            bs_option: text("bs=4k"),
            bs_spread: text("4k-64k"),
            variant: text("overwrite"),
            clat_percentiles: Percentiles::new(&[(1.0, 2.0), (99.99, 1e20), (1e300, f64::NAN)]),
            lat_percentiles: Percentiles::new(&[(50.0, 3.0), (50.0, 4.0), (0.000001, 1.5)]),
            file_run: Some(2),
            setup_facts: text(r#"{"TEST_NAME":"x"}"#),
            clat_bins: Some(vec![(1, 2)].into()),
        }
    }

    #[test]
    fn rows_are_written_as_serde_json_writes_them() {
        let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let ingested = crate::ingest::ingest(&[fixtures], &Default::default()).unwrap();
        assert!(ingested.rows.len() > 100, "{} rows", ingested.rows.len());
        let mut rows = ingested.rows;
        rows.push(every_field_set());
        rows.push(Row::default());
        let (by_hand, derived) = written(&rows);
        assert_eq!(
            String::from_utf8_lossy(&by_hand),
            String::from_utf8_lossy(&derived)
        );
        // With options texts escaped once, as the dataset writers run it.
        let (by_hand, derived) = shared_text::escaped_once(|| written(&rows));
        assert_eq!(
            String::from_utf8_lossy(&by_hand),
            String::from_utf8_lossy(&derived)
        );
        let line = by_hand.split(|b| *b == b'\n').nth(rows.len() - 2).unwrap();
        let back: serde_json::Map<String, serde_json::Value> =
            serde_json::from_slice(line).unwrap();
        assert_eq!(back.len(), 76, "every field but clat_bins");
    }
}
