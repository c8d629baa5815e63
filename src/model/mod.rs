//! The normalized record every reader produces and everything downstream
//! consumes: one row per job (or client) and direction that did I/O.
//!
//! Units are SI base units and fixed at ingest: bytes, bytes per second,
//! nanoseconds, milliseconds for runtime, percent for CPU. Field names carry
//! the unit (`_ns`, `_bytes`, `_per_s`, `_pct`). The column names and their
//! meaning are part of nvcmp's outside contract (docs/CONTRACT.md): rename nothing.

use serde::{Deserialize, Serialize};

mod config_rule;
pub mod figures;
pub mod os;
mod row_json;
mod rw;
mod study;

pub use config_rule::ConfigRule;
pub use figures::LatencyBins;
pub use os::Os;
pub use rw::{Rw, is_mixed};
pub use study::{
    AxisValues, Disagreement, Nearest, PlacedFile, REPEATS_APART, REPEATS_GAP_FLOOR, RepeatPool,
    Study, StudyConfig, repeats_disagree,
};

/// Direction of I/O a row describes. `Default` (read) only so that
/// [`Row`] derives one: rows are made by [`Row::empty`], which always
/// names the direction.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    #[default]
    Read,
    Write,
    Trim,
}

impl Direction {
    pub const ALL: [Direction; 3] = [Direction::Read, Direction::Write, Direction::Trim];

    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Read => "read",
            Direction::Write => "write",
            Direction::Trim => "trim",
        }
    }

    pub fn parse(s: &str) -> Option<Direction> {
        match s {
            "read" => Some(Direction::Read),
            "write" => Some(Direction::Write),
            "trim" => Some(Direction::Trim),
            _ => None,
        }
    }
}

impl std::fmt::Display for Direction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One row of the dataset. Field order is column order.
///
/// `Option` fields are null in the dataset when the input did not report
/// them; readers never invent a value (no zero for "unknown").
/// `Default` is the base of [`Row::empty`], the one way rows are made.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Row {
    /// Path of the input file as found under the given PATH.
    pub source: String,
    /// Configuration this result belongs to (parent folder by default):
    /// the dataset's `label` column (its name kept for compatibility).
    #[serde(rename = "label")]
    pub config: String,
    /// `linux`, `windows` or `unknown` (any other name kept as given).
    pub os: Os,
    /// fio's ioengine (`libaio`, `io_uring`, `windowsaio`, `psync`, ...).
    pub engine: String,
    /// e.g. `fio-3.33`; `nvcmp-0.1.0` for the harness.
    pub fio_version: String,
    /// Client hostname in client/server output.
    pub host: Option<String>,
    /// fio's jobname; `All clients` for client/server aggregates.
    pub job: String,
    /// `json`, `json+`, `normal`, `terse`, `harness`, ...
    pub format: String,
    /// fio's rw option as given (`randread`, `randrw`, ...).
    pub rw: String,
    pub direction: Direction,
    /// Block size of this direction, bytes.
    pub bs_bytes: u64,
    pub iodepth: u32,
    pub numjobs: u32,
    /// Runtime of this direction, milliseconds.
    pub runtime_ms: f64,
    pub io_bytes: u64,
    pub bw_bytes_per_s: f64,
    pub iops: f64,
    /// Step the IOPS value is known to: 1 when exact, 1000 for `2411k`.
    pub iops_precision: f64,
    /// Total latency (fio `lat`), nanoseconds.
    pub lat_mean_ns: Option<f64>,
    pub lat_stddev_ns: Option<f64>,
    pub lat_min_ns: Option<f64>,
    pub lat_max_ns: Option<f64>,
    /// Completion latency (fio `clat`) mean, nanoseconds.
    pub clat_mean_ns: Option<f64>,
    pub clat_p50_ns: Option<f64>,
    pub clat_p99_ns: Option<f64>,
    pub clat_p99_9_ns: Option<f64>,
    /// fio's per-job CPU figures, percent of one CPU as fio reports them.
    pub usr_cpu_pct: f64,
    pub sys_cpu_pct: f64,
    /// Whole-system CPU usage during the run (all cores), percent.
    pub system_cpu_pct: Option<f64>,
    /// fio's error code for the job, 0 when it ran clean.
    pub error: i64,
    /// True for client/server `All clients` rows.
    pub aggregate: bool,

    // ---- columns beyond the contract (the contract allows additions) ----
    /// `rwmixread` of mixed jobs (percent of reads), when known.
    pub rwmixread: Option<u32>,
    /// Step the bandwidth is known to, bytes/s (1 when exact).
    pub bw_precision: f64,
    /// Step the latencies are known to, ns (1 when exact; text output rounds).
    pub lat_precision_ns: f64,
    /// Submission latency mean, nanoseconds.
    pub slat_mean_ns: Option<f64>,
    pub clat_stddev_ns: Option<f64>,
    pub clat_p90_ns: Option<f64>,
    pub clat_p95_ns: Option<f64>,
    pub clat_p99_99_ns: Option<f64>,
    /// Total-latency percentiles, when fio reported them (`lat_percentiles=1`).
    pub lat_p50_ns: Option<f64>,
    pub lat_p99_ns: Option<f64>,
    pub lat_p99_9_ns: Option<f64>,
    /// fio's per-interval IOPS samples: count, mean and standard deviation.
    pub iops_samples: Option<u64>,
    pub iops_sample_mean: Option<f64>,
    pub iops_sample_stddev: Option<f64>,
    /// fio's per-interval bandwidth samples, bytes/s.
    pub bw_samples: Option<u64>,
    pub bw_sample_mean: Option<f64>,
    pub bw_sample_stddev: Option<f64>,
    /// Target of the job (`/dev/nvme0n1`, `\\.\PhysicalDrive1`, a file).
    pub filename: Option<String>,
    /// The one file or device the job ran on (its `filename` when that
    /// names a single one): what the per-device view compares.
    pub target: Option<String>,
    /// CPUs the job's threads were pinned to (fio's `cpus_allowed`, or
    /// `node N` for `numa_cpu_nodes`).
    pub cpus_allowed: Option<String>,
    /// nvcmp's `--precondition` before the run, in words.
    pub precondition: Option<String>,
    /// Unix time (seconds) the run ended, from fio's `timestamp`.
    pub timestamp: Option<i64>,
    /// Queue depth the job really ran at (fio's I/O depth distribution, or
    /// 1 for a synchronous engine); null when fio did not say.
    pub effective_iodepth: Option<u32>,
    /// fio's `direct` as the job ran (true: O_DIRECT, unbuffered); null
    /// when the output does not say (normal text, terse, fio 2.x JSON).
    pub direct: Option<bool>,
    /// fio's steady-state verdict for the job (`--steadystate`): null when
    /// the job did not ask for one.
    pub steady_state_attained: Option<bool>,
    /// The rule asked for (`iops:30%`, `bw_slope:0.1%`); from text output
    /// only the metric and kind (`bw mean dev`).
    pub steady_state_rule: Option<String>,
    /// What fio measured over its last window (`16.06%`).
    pub steady_state_measured: Option<String>,
    /// The window's length, ms.
    pub steady_state_duration_ms: Option<f64>,
    /// The window's mean IOPS and bandwidth (bytes/s), all directions of
    /// the job together as fio keeps them.
    pub steady_state_iops: Option<f64>,
    pub steady_state_bw_bytes_per_s: Option<f64>,
    /// fio options that change what its latency figures mean, as the job
    /// ran them, `name=value` joined by `,` in [`TIMING_OPTIONS`] order
    /// (`sqthread_poll=1`, `gtod_reduce=1`); null when none was set or the
    /// output does not list options.
    pub timing_options: Option<String>,
    /// Busy percent of the busiest CPU during the run, from fio's
    /// `--idle-prof=percpu` (100 - the lowest per-CPU idleness): one
    /// saturated core that the whole-system figure averages away.
    pub busiest_cpu_pct: Option<f64>,
    /// The benchmark that measured the row: `fio` (fio itself or nvcmp's
    /// harness, which writes fio's format) or `diskspd`.
    pub tool: String,
    /// The tool's version as its output gives it (`fio-3.33`, `2.0.21a`);
    /// DiskSpd's text output never prints it, so its family is inferred
    /// from the layout and said so (`2.2 (from text layout)`). Null when
    /// nothing tells.
    pub tool_version: Option<String>,
    /// The job's fio options as it ran (global options under the job's
    /// own, the job's `name` left out), a JSON object of strings with its
    /// keys sorted: what tells configurations apart when they share a
    /// folder (`ingest::configs`). Null for formats that print no options
    /// (normal text, terse, DiskSpd) and fio 2.x JSON. Shared: the rows
    /// of a job's directions (and jobs that ran alike) hold one text, not a
    /// copy each (a kilobyte or more per row).
    #[serde(default, with = "shared_text")]
    pub options: Option<std::sync::Arc<str>>,
    /// When the run ended, Unix time in milliseconds (fio's `timestamp_ms`;
    /// null where fio printed seconds only, in `timestamp`).
    pub timestamp_ms: Option<i64>,
    /// fio instances (separate fio processes, one output file each) that
    /// ran at the same time on the same targets, this one included: 1 when
    /// it ran alone (`ingest::instances`).
    pub instances: u32,
    /// The first `source` (by name) of the instances it ran with, whose
    /// results make one run: null when it ran alone.
    pub instance_group: Option<String>,
    /// The job's block size options as written (`bs=128Ki`,
    /// `bsrange=4k-64k`), when the output prints options: `bs_bytes` is
    /// what fio measured where the two disagree.
    pub bs_option: Option<String>,
    /// A block size that varies from I/O to I/O (`bsrange`, `bssplit`), in
    /// fio's words (`4k-64k`, `4k/50:64k/50`); `bs_bytes` is then its mean.
    pub bs_spread: Option<String>,
    /// What tells this run from others of its config at the same workload
    /// and load point when only their names differ (`overwrite-seq`): a
    /// variant of the workload, kept apart (`ingest::configs`).
    pub variant: Option<String>,
    /// Every completion-latency percentile fio printed (its
    /// `percentile_list`, whatever it was): the fixed `clat_p*_ns` columns
    /// hold the usual ones, this the rest too.
    pub clat_percentiles: figures::Percentiles,
    /// Every total-latency percentile fio printed (`lat_percentiles=1`).
    pub lat_percentiles: figures::Percentiles,
    /// Which fio invocation of its file the row is from (1, 2, ...), when
    /// the file holds several (a wrapper script's captured output): each
    /// is a run of its own. Null when the file holds one.
    pub file_run: Option<u32>,
    /// The `KEY=value` lines a wrapper script printed before the runs of
    /// its file (`TEST_NAME`, `SYSTEMINFO`, `MOUNTPOINT`), a JSON object of
    /// strings with its keys sorted: facts of the test bed the setup table
    /// shows. Null when the file has none.
    pub setup_facts: Option<String>,
    /// Completion-latency histogram from json+ `bins`: (latency ns, count),
    /// sorted by latency. Not a dataset column (it does not fit a flat
    /// table); kept for the latency-distribution charts. Shared: a run made
    /// of the row holds the same histogram, not a copy (hundreds of bins a
    /// row, most of `analyze`'s memory on a json+ archive when copied).
    #[serde(skip)]
    pub clat_bins: Option<LatencyBins>,
}

/// An `Option<Arc<str>>` field as an optional string (serde's `rc`
/// feature would rebuild every crate that uses serde).
pub mod shared_text {
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::value::RawValue;

    use crate::quick_hash::QuickHash;

    /// Texts by address, each with its JSON string (quoted, escaped); the
    /// `Arc` held keeps the address from being reused by another text.
    type Escaped = HashMap<*const u8, (Arc<str>, Box<RawValue>), QuickHash>;

    thread_local! {
        static ESCAPED: RefCell<Option<Escaped>> = const { RefCell::new(None) };
    }

    /// Runs `write`, a serde_json serialisation of rows on this thread,
    /// with each distinct options text escaped once and then copied: rows
    /// share their texts (ingest shares equal ones across files), a text
    /// is 2-3 KB of JSON whose every quote is escaped, and escaping it for
    /// each row was a third of writing an ndjson dataset. Only for
    /// serde_json's serializer: the cached strings are written as raw
    /// JSON.
    pub fn escaped_once<T>(write: impl FnOnce() -> T) -> T {
        struct Off;
        impl Drop for Off {
            fn drop(&mut self) {
                ESCAPED.with(|c| c.borrow_mut().take());
            }
        }
        ESCAPED.with(|c| *c.borrow_mut() = Some(Escaped::default()));
        let _off = Off;
        write()
    }

    pub fn serialize<S: Serializer>(v: &Option<Arc<str>>, s: S) -> Result<S::Ok, S::Error> {
        let Some(text) = v else {
            return s.serialize_none();
        };
        // A text no other row holds is escaped once whatever is done, and
        // straight into the output: not into a string kept and copied.
        if std::sync::Arc::strong_count(text) == 1 {
            return s.serialize_some(&**text);
        }
        // The serializer comes back unused where no cache is on.
        let cached: Result<Result<S::Ok, S::Error>, S> = ESCAPED.with(move |cell| {
            let Ok(mut cache) = cell.try_borrow_mut() else {
                return Err(s);
            };
            let Some(cache) = cache.as_mut() else {
                return Err(s);
            };
            let (_, raw) = cache
                .entry(text.as_ptr())
                .or_insert_with(|| (text.clone(), escaped(text)));
            Ok(raw.serialize(s))
        });
        match cached {
            Ok(done) => done,
            Err(s) => s.serialize_some(&**text),
        }
    }

    /// The text as a JSON string, not parsed again to be checked.
    fn escaped(text: &str) -> Box<RawValue> {
        serde_json::value::to_raw_value(text).unwrap_or_else(|_| RawValue::NULL.to_owned())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Arc<str>>, D::Error> {
        Ok(Option::<String>::deserialize(d)?.map(Arc::from))
    }
}

/// fio options after which some of its latency figures are not what their
/// names say (HOWTO): `sqthread_poll` (io_uring's kernel thread submits, so
/// fio's completion latency is not measured from submission),
/// `gtod_reduce` and the `disable_*lat` options (no timestamps taken: the
/// latencies are zero), `disable_bw_measurement`.
pub const TIMING_OPTIONS: [&str; 6] = [
    "sqthread_poll",
    "gtod_reduce",
    "disable_lat",
    "disable_clat",
    "disable_slat",
    "disable_bw_measurement",
];

impl Row {
    /// Whether `timing_options` has `name` set to anything but 0/false.
    pub fn timing_option(&self, name: &str) -> bool {
        self.timing_options.as_deref().is_some_and(|all| {
            all.split(',').any(|kv| {
                let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
                k == name && !matches!(v, "0" | "false" | "off" | "no")
            })
        })
    }

    /// Files or devices the job spread its I/O over: fio's `filename` is a
    /// `:`-separated list (`\\:` is a colon inside a name, as in a Windows
    /// drive letter; an empty part adds none). A drive letter written
    /// without the escape (`D:\\t.dat`) is one name, not two; DiskSpd's
    /// targets are not fio's list, so its rows count one.
    pub fn devices(&self) -> u32 {
        target_count(&self.tool, self.filename.as_deref())
    }

    /// The files or devices of fio's `filename` list, as [`Row::devices`]
    /// counts them (escaped colons unescaped); empty when the job named
    /// none or the row is not fio's.
    pub fn target_names(&self) -> Vec<String> {
        target_names(&self.tool, self.filename.as_deref())
    }

    /// `options` as a map (empty when the format printed none, or the
    /// text is not the JSON object nvcmp writes there).
    pub fn option_map(&self) -> std::collections::BTreeMap<String, String> {
        self.options
            .as_deref()
            .and_then(|o| serde_json::from_str(o).ok())
            .unwrap_or_default()
    }

    /// `setup_facts` as a map (empty when null or unreadable).
    pub fn setup_fact_map(&self) -> std::collections::BTreeMap<String, String> {
        self.setup_facts
            .as_deref()
            .and_then(|o| serde_json::from_str(o).ok())
            .unwrap_or_default()
    }

    /// A row with every measurement empty, for readers to fill in.
    pub fn empty(source: &str, direction: Direction) -> Row {
        // Every measurement unknown (None, or 0 where fio always reports
        // one); fio's defaults for the load (one job at depth 1) and exact
        // precisions until a reader knows its figures' rounding.
        Row {
            source: source.to_string(),
            direction,
            iodepth: 1,
            numjobs: 1,
            iops_precision: 1.0,
            bw_precision: 1.0,
            lat_precision_ns: 1.0,
            tool: "fio".into(),
            instances: 1,
            ..Row::default()
        }
    }

    /// `cpu_pct` of docs/CONTRACT.md: whole-system CPU where known, else fio's
    /// usr + sys.
    pub fn cpu_pct(&self) -> f64 {
        self.system_cpu_pct
            .unwrap_or(self.usr_cpu_pct + self.sys_cpu_pct)
    }
}

/// fio's engines that do one I/O at a time (`FIO_SYNCIO` in fio's
/// engines): fio caps their queue depth at 1 whatever `iodepth` says.
pub fn is_sync_engine(engine: &str) -> bool {
    matches!(
        engine,
        "sync" | "psync" | "vsync" | "pvsync" | "pvsync2" | "mmap" | "splice" | "ftruncate"
    )
}

/// A file that was not ingested, and why (one line).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    pub source: String,
    pub reason: String,
}

/// Something the user should know about an ingested file (a dropped row,
/// a job with an error, a snapshot that was superseded). One line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    pub source: String,
    pub message: String,
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "skipped {}: {}", self.source, self.reason)
    }
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "warning: {}: {}", self.source, self.message)
    }
}

/// How many files or devices a row's `filename` names, 1 for none
/// ([`Row::devices`] from a row's `tool` and `filename` columns).
pub fn target_count(tool: &str, filename: Option<&str>) -> u32 {
    // Counted, not named: every row's load point counts its devices.
    let Some(f) = filename.filter(|_| tool == "fio") else {
        return 1;
    };
    (targets(f).count() as u32).max(1)
}

/// The files or devices of a row's `filename` (`tool` its `tool` column),
/// as [`Row::target_names`] reads them: what a history's columns count
/// without making a row.
pub fn target_names(tool: &str, filename: Option<&str>) -> Vec<String> {
    let Some(f) = filename.filter(|_| tool == "fio") else {
        return Vec::new();
    };
    targets(f).map(|t| t.replace("\\:", ":")).collect()
}

/// Each target of fio's `filename` as it is written there: the list cut
/// at each `:` that no `\\` escapes, a one-letter drive joined to the
/// path after it (`C:\\fio.dat`, `d:/x`), blank names left out.
fn targets(f: &str) -> impl Iterator<Item = &str> {
    let mut parts = unescaped_parts(f).peekable();
    std::iter::from_fn(move || {
        loop {
            let p = parts.next()?;
            let drive = p.len() == 1
                && f.as_bytes()[p.start].is_ascii_alphabetic()
                && parts.peek().is_some_and(|next| {
                    let next = &f[next.clone()];
                    next.starts_with('/') || (next.starts_with('\\') && !next.starts_with("\\:"))
                });
            if drive {
                // The drive, its `:` and the path are one run of `f`.
                let path = parts.next()?;
                return Some(&f[p.start..path.end]);
            }
            if !f[p.clone()].trim().is_empty() {
                return Some(&f[p]);
            }
        }
    })
}

/// Where `filename`'s parts lie: cut at each `:` that no `\\` escapes,
/// as fio cuts it.
fn unescaped_parts(f: &str) -> impl Iterator<Item = std::ops::Range<usize>> {
    let b = f.as_bytes();
    let (mut start, mut i) = (0, 0);
    std::iter::from_fn(move || {
        if start > f.len() {
            return None;
        }
        while i < b.len() {
            if b[i] == b':' && (i == 0 || b[i - 1] != b'\\') {
                let part = start..i;
                i += 1;
                start = i;
                return Some(part);
            }
            i += 1;
        }
        let part = start..f.len();
        start = f.len() + 1;
        Some(part)
    })
}

#[cfg(test)]
mod target_tests {
    use super::{target_count, target_names};

    #[test]
    fn targets_are_counted_as_they_are_named() {
        for f in [
            "/dev/nvme0n1",
            "/dev/nvme2n1:/dev/nvme3n1:/dev/nvme4n1",
            "\\\\.\\PhysicalDrive1:\\\\.\\PhysicalDrive2",
            "C:\\fio\\test.dat",
            "C:\\a.dat:D:\\b.dat",
            "d:/x:e:/y",
            "a\\:b:c",
            "x:\\:y",
            "::",
            "",
            " : /dev/sdb",
        ] {
            assert_eq!(
                target_count("fio", Some(f)) as usize,
                target_names("fio", Some(f)).len().max(1),
                "{f:?}"
            );
        }
        // The names as fio's list gives them (as read before counting
        // and naming shared one walk of it).
        let names = |f| target_names("fio", Some(f));
        assert_eq!(names("C:\\a.dat:D:\\b.dat"), ["C:\\a.dat", "D:\\b.dat"]);
        assert_eq!(names("d:/x:e:/y"), ["d:/x", "e:/y"]);
        assert_eq!(names("a\\:b:c"), ["a:b", "c"]);
        assert_eq!(names("x:\\:y"), ["x", ":y"]);
        assert_eq!(names(" : /dev/sdb"), [" /dev/sdb"]);
        assert_eq!(names("/dev/sdb::/dev/sdc"), ["/dev/sdb", "/dev/sdc"]);
        assert_eq!(names("/dev/sdb:"), ["/dev/sdb"]);
        assert_eq!(names(":/dev/sdb"), ["/dev/sdb"]);
        assert_eq!(names("a\\:"), ["a:"]);
        assert!(names("").is_empty());
        assert_eq!(target_count("fio", Some("/dev/sda:/dev/sdb")), 2);
        assert_eq!(target_count("diskspd", Some("/dev/sda:/dev/sdb")), 1);
        assert_eq!(target_count("fio", None), 1);
    }
}

#[cfg(test)]
mod shared_text_tests {
    use super::{Direction, Row, shared_text};

    #[test]
    fn options_escaped_once_are_written_as_escaped_each_time() {
        let text: std::sync::Arc<str> =
            r#"{"bs":"4k","filename":"\\\\.\\PhysicalDrive1","name":"a \"quoted\" job","x":"é\u0001"}"#
                .into();
        let mut rows = vec![Row::empty("a.json", Direction::Read); 4];
        rows[0].options = Some(text.clone());
        rows[1].options = Some(text);
        rows[2].options = None;
        // A text of one row only: written straight, not through the cache.
        rows[3].options = Some(r#"{"name":"only \"one\"","x":"\\y\u0002"}"#.into());
        assert_eq!(
            rows[3].options.as_ref().map(std::sync::Arc::strong_count),
            Some(1)
        );
        let plain = serde_json::to_string(&rows).unwrap_or_default();
        let pretty = serde_json::to_string_pretty(&rows).unwrap_or_default();
        let once = shared_text::escaped_once(|| serde_json::to_string(&rows).unwrap_or_default());
        let once_pretty =
            shared_text::escaped_once(|| serde_json::to_string_pretty(&rows).unwrap_or_default());
        // The text's own escapes escaped again: it is a string in the row.
        assert!(plain.contains(r#"a \\\"quoted\\\" job"#), "{plain}");
        assert!(plain.contains(r#"only \\\"one\\\""#), "{plain}");
        assert_eq!(once, plain);
        assert_eq!(once_pretty, pretty);
        // Off again after the call: a value serializer gets a string.
        let v = serde_json::to_value(&rows[0]).unwrap_or_default();
        assert!(v["options"].is_string());
    }
}
