//! fio JSON and json+ (fio 2.x and 3.x, standalone and client/server):
//! serde mirror structs of fio's writer in `stat.c`/`client.c`, and their
//! conversion to rows.
//!
//! What differs between versions (from the history of fio's `stat.c`):
//! - fio 2.x: `io_bytes` is in KiB (`io_bytes >> 10`), bandwidth only as
//!   `bw` in KiB/s, latencies in usec under `slat`/`clat`/`lat`, the
//!   percentiles under `clat`, no `N` sample counts, no `*_samples`.
//! - fio 3.x: `io_bytes` in bytes next to `io_kbytes`, `bw_bytes` in B/s,
//!   latencies in nsec under `slat_ns`/`clat_ns`/`lat_ns` with `N`;
//!   `lat_ns.percentile` with `lat_percentiles=1`; json+ adds `bins`
//!   (latency ns -> count) to each latency object.
//! - client/server output lists jobs under `client_stats` with `hostname`
//!   and `port`, plus an `All clients` entry summing them (no `job options`).
//!
//! Every field is optional in the mirror: fio adds and moves keys between
//! releases, and a key we do not need must never make a file unreadable.
//! Numbers are read as `f64` because fio printed some of them as integers
//! in one version and floats in another.

mod non_finite;

use std::fmt;

use indexmap::IndexMap;
use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::jobname::guess_from_name;
use super::{Parsed, ReadError, Reader};
use super::{depth, steady};
use crate::model::{Direction, Row, os};
use crate::units::parse_size;
use non_finite::NonFinite;

/// One fio JSON document.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FioOutput {
    #[serde(rename = "fio version")]
    pub fio_version: Option<String>,
    pub timestamp: Option<f64>,
    #[serde(rename = "global options")]
    pub global_options: Options,
    pub jobs: Option<Vec<Job>>,
    pub client_stats: Option<Vec<Job>>,
    /// Only its presence matters (Linux builds report it; fio#1627: not always).
    pub disk_util: Option<IgnoredAny>,
    /// fio's bare `nan`/`inf` tokens, read as `null`.
    #[serde(skip)]
    pub non_finite: Vec<NonFinite>,
}

/// `global options` / `job options`: fio prints every value as a string;
/// a number is tolerated.
pub type Options = IndexMap<String, Value>;

/// One entry of `jobs[]` or `client_stats[]`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Job {
    pub jobname: Option<String>,
    pub groupid: Option<f64>,
    pub error: Option<f64>,
    #[serde(rename = "job options")]
    pub job_options: Options,
    pub read: Option<Ddir>,
    pub write: Option<Ddir>,
    pub trim: Option<Ddir>,
    /// `unified_rw_reporting=1`: all directions summed.
    pub mixed: Option<Ddir>,
    /// Percent.
    pub usr_cpu: Option<f64>,
    pub sys_cpu: Option<f64>,
    /// ms (fio >= 3.x).
    pub job_runtime: Option<f64>,
    pub hostname: Option<String>,
    pub port: Option<f64>,
    /// Whole-system CPU percent during the run: nvcmp's harness writes it
    /// (fio does not). Any JSON value, so an odd one costs a warning, not
    /// the file.
    pub system_cpu_pct: Option<Value>,
    /// Share of submissions per queue-depth bucket, percent.
    pub iodepth_level: Option<IndexMap<String, Value>>,
    /// `--steadystate` verdict; kept loose, read by `steady::from_json`.
    pub steadystate: Option<Value>,
}

/// `read` / `write` / `trim` of a job.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Ddir {
    /// Bytes in 3.x; KiB in 2.x (no `io_kbytes` there).
    pub io_bytes: Option<f64>,
    pub io_kbytes: Option<f64>,
    /// B/s (3.x).
    pub bw_bytes: Option<f64>,
    /// KiB/s.
    pub bw: Option<f64>,
    pub iops: Option<f64>,
    /// ms.
    pub runtime: Option<f64>,
    pub total_ios: Option<f64>,
    pub slat_ns: Option<Lat>,
    pub clat_ns: Option<Lat>,
    pub lat_ns: Option<Lat>,
    /// usec (2.x).
    pub slat: Option<Lat>,
    pub clat: Option<Lat>,
    pub lat: Option<Lat>,
    /// KiB/s, over fio's bandwidth samples.
    pub bw_mean: Option<f64>,
    pub bw_dev: Option<f64>,
    pub bw_samples: Option<f64>,
    pub iops_mean: Option<f64>,
    pub iops_stddev: Option<f64>,
    pub iops_samples: Option<f64>,
}

/// A latency object: nsec (`*_ns`) or usec (2.x).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Lat {
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub mean: Option<f64>,
    pub stddev: Option<f64>,
    #[serde(rename = "N")]
    pub n: Option<f64>,
    pub percentile: Option<Percentiles>,
    pub bins: Option<Bins>,
}

/// `{"99.000000": 272384, ...}` as (percent, latency) pairs.
#[derive(Debug, Default)]
pub struct Percentiles(pub Vec<(f64, f64)>);

/// json+ `{"44288": 1, ...}` as (latency, count) pairs.
#[derive(Debug, Default)]
pub struct Bins(pub Vec<(u64, u64)>);

/// A map key parsed from its string without allocating.
struct NumKey<T>(T);

impl<'de, T: std::str::FromStr> Deserialize<'de> for NumKey<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<T: std::str::FromStr> Visitor<'_> for V<T> {
            type Value = NumKey<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number as a string key")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
                s.trim()
                    .parse()
                    .map(NumKey)
                    .map_err(|_| E::custom(format!("bad numeric key {s:?}")))
            }
        }
        d.deserialize_str(V(std::marker::PhantomData))
    }
}

fn visit_pairs<'de, A, K, V>(mut map: A) -> Result<Vec<(K, V)>, A::Error>
where
    A: MapAccess<'de>,
    K: std::str::FromStr,
    V: Deserialize<'de>,
{
    let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0));
    while let Some((NumKey(k), v)) = map.next_entry::<NumKey<K>, V>()? {
        out.push((k, v));
    }
    Ok(out)
}

impl<'de> Deserialize<'de> for Percentiles {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Percentiles;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a percentile map")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Percentiles, A::Error> {
                visit_pairs(map).map(Percentiles)
            }
        }
        d.deserialize_map(V)
    }
}

impl<'de> Deserialize<'de> for Bins {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Bins;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a latency histogram map")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Bins, A::Error> {
                let pairs: Vec<(u64, f64)> = visit_pairs(map)?;
                let mut bins: Vec<(u64, u64)> = pairs
                    .into_iter()
                    .filter(|&(_, c)| c.is_finite() && c >= 0.0)
                    .map(|(k, c)| (k, c as u64))
                    .collect();
                bins.sort_unstable();
                Ok(Bins(bins))
            }
        }
        d.deserialize_map(V)
    }
}

/// Parses one JSON segment into the mirror, once; a second time, with
/// fio's bare `nan`/`inf` read as `null`, only when the first parse stopped
/// on a syntax error (see [`non_finite`]).
pub fn parse(text: &str) -> Result<FioOutput, ReadError> {
    let malformed = |e: serde_json::Error| {
        let reason = match e.classify() {
            serde_json::error::Category::Eof => format!("truncated JSON ({e})"),
            _ => e.to_string(),
        };
        ReadError::Malformed {
            format: "json",
            reason,
        }
    };
    let doc = match serde_json::from_str::<FioOutput>(text) {
        Ok(doc) => doc,
        Err(e) if e.classify() == serde_json::error::Category::Syntax => {
            let Some((clean, found)) = non_finite::replace(text) else {
                return Err(malformed(e));
            };
            let mut doc: FioOutput = serde_json::from_str(&clean).map_err(malformed)?;
            doc.non_finite = found;
            doc
        }
        Err(e) => return Err(malformed(e)),
    };
    if doc.jobs.is_none() && doc.client_stats.is_none() {
        return Err(ReadError::NotFio(
            "JSON without `jobs` or `client_stats`".into(),
        ));
    }
    Ok(doc)
}

/// Keys a row cannot do without: a non-finite one drops the row (CONTRACT:
/// such a value never enters the comparison) instead of being read as
/// missing. Direction keys, then job keys.
const REQUIRED_DDIR: [&str; 7] = [
    "io_bytes",
    "io_kbytes",
    "bw_bytes",
    "bw",
    "iops",
    "runtime",
    "total_ios",
];
const REQUIRED_JOB: [&str; 2] = ["usr_cpu", "sys_cpu"];

/// Whether a non-finite value at `path` drops rows rather than reading as
/// missing.
fn is_required(path: &str) -> bool {
    let Some((_, rest)) = path.split_once("].") else {
        return false;
    };
    match rest.split_once('.') {
        Some((dir, key)) => {
            matches!(dir, "read" | "write" | "trim") && REQUIRED_DDIR.contains(&key)
        }
        None => REQUIRED_JOB.contains(&rest),
    }
}

/// The jobs a document reports, to recognise `--status-interval`
/// snapshots: successive documents with the same set are one run.
pub fn job_set(doc: &FioOutput) -> Vec<(String, i64, Option<String>, Option<i64>)> {
    let mut set: Vec<_> = doc
        .all_jobs()
        .map(|j| {
            (
                j.jobname.clone().unwrap_or_default(),
                j.groupid.unwrap_or(0.0) as i64,
                j.hostname.clone(),
                j.port.map(|p| p as i64),
            )
        })
        .collect();
    set.sort();
    set
}

impl FioOutput {
    fn all_jobs(&self) -> impl Iterator<Item = &Job> {
        self.jobs
            .iter()
            .flatten()
            .chain(self.client_stats.iter().flatten())
    }

    /// True when any latency object carries json+ `bins`.
    fn has_bins(&self) -> bool {
        self.all_jobs().any(|j| {
            [&j.read, &j.write, &j.trim, &j.mixed]
                .into_iter()
                .flatten()
                .any(|d| {
                    [&d.clat_ns, &d.lat_ns, &d.slat_ns, &d.clat, &d.lat, &d.slat]
                        .into_iter()
                        .flatten()
                        .any(|l| l.bins.is_some())
                })
        })
    }
}

const AGGREGATE_NAME: &str = "All clients";

/// Converts one document to rows (`source` and `label` left empty).
pub fn to_parsed(doc: &FioOutput) -> Parsed {
    let mut out = Parsed::default();
    for nf in doc.non_finite.iter().filter(|nf| !is_required(&nf.path)) {
        out.warnings.push(format!(
            "`{}` at line {} is `{}`, not a finite number; read as missing",
            nf.path, nf.line, nf.token
        ));
    }
    let format = if doc.has_bins() { "json+" } else { "json" };
    let version = doc.fio_version.as_deref().unwrap_or("unknown");
    let jobs: Vec<&Job> = doc.all_jobs().collect();
    // Where each job sits in the document, to match `non_finite` paths.
    let places = (0..doc.jobs.as_ref().map_or(0, Vec::len))
        .map(|i| format!("jobs[{i}]"))
        .chain(
            (0..doc.client_stats.as_ref().map_or(0, Vec::len))
                .map(|i| format!("client_stats[{i}]")),
        );
    for (job, place) in jobs.iter().zip(places) {
        let aggregate = job.jobname.as_deref() == Some(AGGREGATE_NAME);
        // The `All clients` entry has no options of its own: it sums the
        // clients of its group, which ran the same job file.
        let template = if aggregate && job.job_options.is_empty() {
            jobs.iter()
                .find(|j| j.jobname.as_deref() != Some(AGGREGATE_NAME) && j.groupid == job.groupid)
                .copied()
        } else {
            None
        };
        let opts = JobOpts::new(&doc.global_options, &template.unwrap_or(job).job_options);
        let ctx = JobCtx {
            opts: &opts,
            place: &place,
            aggregate,
            format,
            version,
        };
        job_rows(doc, job, &ctx, &mut out);
    }
    out
}

/// Job options over global options (job options win), as fio applies them.
struct JobOpts<'a> {
    global: &'a Options,
    job: &'a Options,
}

impl<'a> JobOpts<'a> {
    fn new(global: &'a Options, job: &'a Options) -> JobOpts<'a> {
        JobOpts { global, job }
    }

    fn get(&self, key: &str) -> Option<String> {
        let v = self.job.get(key).or_else(|| self.global.get(key))?;
        match v {
            Value::String(s) => Some(s.trim().to_string()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    fn get_any(&self, keys: &[&str]) -> Option<String> {
        keys.iter().find_map(|k| self.get(k))
    }

    fn get_u32(&self, key: &str) -> Option<u32> {
        self.get(key).and_then(|s| s.parse::<u32>().ok())
    }

    /// `direct`, or its inverse `buffered`. fio's JSON lists every option
    /// the job was given, so when options were printed and neither is
    /// there the job ran with fio's default, buffered I/O. Without
    /// printed options (fio 2.x) nothing is known.
    fn direct(&self, printed_options: bool) -> Option<bool> {
        let flag = |s: String| match s.to_ascii_lowercase().as_str() {
            "1" | "true" | "on" | "yes" => Some(true),
            "0" | "false" | "off" | "no" => Some(false),
            _ => None,
        };
        if let Some(d) = self.get("direct") {
            return flag(d);
        }
        if let Some(b) = self.get("buffered") {
            return flag(b).map(|buffered| !buffered);
        }
        printed_options.then_some(false)
    }
}

/// Block size per direction from `bs=4k` or `bs=4k,64k[,8k]` (read,
/// write, trim; a missing trailing value repeats the last one given, an
/// empty one means fio's default of 4k).
fn bs_for(bs: Option<&str>, dir: Direction) -> u64 {
    const DEFAULT: u64 = 4096;
    let Some(bs) = bs else { return DEFAULT };
    let parts: Vec<&str> = bs.split(',').collect();
    let idx = match dir {
        Direction::Read => 0,
        Direction::Write => 1,
        Direction::Trim => 2,
    };
    let part = parts.get(idx).or(parts.last()).copied().unwrap_or("");
    // `bsrange`-style `4k-64k` is reported by its lower bound.
    let part = part.split('-').next().unwrap_or("");
    if part.trim().is_empty() {
        DEFAULT
    } else {
        parse_size(part).unwrap_or(DEFAULT)
    }
}

/// What [`job_rows`] needs to know about a job besides the job itself.
struct JobCtx<'a> {
    opts: &'a JobOpts<'a>,
    /// `jobs[0]`, `client_stats[2]`: where the job is in the document.
    place: &'a str,
    aggregate: bool,
    format: &'a str,
    version: &'a str,
}

fn job_rows(doc: &FioOutput, job: &Job, ctx: &JobCtx<'_>, out: &mut Parsed) {
    let JobCtx {
        opts,
        place,
        aggregate,
        format,
        version,
    } = *ctx;
    // A required value fio printed as `nan`/`inf` (read as null).
    let non_finite = |prefix: &str, keys: &[&str]| {
        doc.non_finite.iter().find(|nf| {
            nf.path
                .strip_prefix(place)
                .and_then(|r| r.strip_prefix(prefix))
                .is_some_and(|k| keys.contains(&k))
        })
    };
    let name = job.jobname.clone().unwrap_or_default();
    let filename = opts.get("filename");
    let engine_opt = opts.get("ioengine");
    // fio's default engine: psync, windowsaio on Windows (HOWTO `ioengine`).
    let windows_hint = filename.as_deref().is_some_and(os::is_windows_path);
    // fio before 2.99 printed no options: then the engine is not known.
    let printed_options = !(opts.job.is_empty() && opts.global.is_empty());
    let engine = engine_opt.unwrap_or_else(|| {
        match (printed_options, windows_hint) {
            (false, _) => "unknown",
            (true, true) => "windowsaio",
            (true, false) => "psync",
        }
        .to_string()
    });
    // Disk statistics are printed by fio on Linux only.
    let os = os::infer(
        &engine,
        filename.as_deref(),
        doc.disk_util.as_ref().map(|_| "linux"),
    );
    // `rw=randread:8` carries an offset modifier that is not part of the
    // workload's identity.
    let rw = opts
        .get_any(&["rw", "readwrite"])
        .map(|s| s.split(':').next().unwrap_or("").to_string());
    let mut bs = opts.get_any(&["bs", "blocksize"]);
    let mut iodepth = opts.get_u32("iodepth");
    // fio before 2.99 printed no options at all: absent keys then mean
    // "not written", not fio's defaults. Job names such as
    // `randread-4k-qd32` are the only hint left; say that we used it.
    let no_options = opts.job.is_empty() && opts.global.is_empty();
    let rw = match rw {
        Some(rw) => rw,
        None if no_options => {
            let guess = guess_from_name(&name);
            bs = bs.or(guess.bs);
            iodepth = iodepth.or(guess.iodepth);
            let rw = guess.rw.unwrap_or("read").to_string();
            out.warnings.push(format!(
                "job `{name}`: the file has no job options (fio 2.x); rw={rw}, bs={}, iodepth={} taken from the job name or fio's defaults",
                bs.as_deref().unwrap_or("4k"),
                iodepth.unwrap_or(1)
            ));
            rw
        }
        None => "read".into(),
    };
    let iodepth = iodepth.unwrap_or(1);
    let numjobs = opts.get_u32("numjobs").unwrap_or(1);
    let direct = opts.direct(printed_options);
    let levels = job.iodepth_level.as_ref().and_then(|l| {
        depth::from_levels(
            l.iter()
                .filter_map(|(k, v)| Some((k.as_str(), v.as_f64()?))),
        )
    });
    let effective_iodepth = depth::effective(&engine, iodepth, levels.as_ref());
    let steady = job.steadystate.as_ref().and_then(steady::from_json);
    let rwmixread = opts
        .get_u32("rwmixread")
        .or_else(|| opts.get_u32("rwmixwrite").map(|w| 100u32.saturating_sub(w)));
    let error = job.error.unwrap_or(0.0) as i64;
    let who = match &job.hostname {
        Some(h) if !aggregate => format!("job `{name}` on {h}"),
        _ => format!("job `{name}`"),
    };

    let system_cpu_pct = match &job.system_cpu_pct {
        None | Some(Value::Null) => None,
        Some(v) => match v.as_f64() {
            Some(x) if x.is_finite() && x >= 0.0 => Some(x),
            _ => {
                out.warnings.push(format!(
                    "{who}: system_cpu_pct is {v}, not a finite non-negative number; ignored"
                ));
                None
            }
        },
    };

    if job.mixed.as_ref().is_some_and(did_io) {
        out.warnings.push(format!(
            "{who}: unified_rw_reporting (`mixed`) output is not split by direction; not read"
        ));
    }

    if let Some(nf) = non_finite(".", &REQUIRED_JOB) {
        out.warnings.push(format!(
            "{who}: {} at line {} is `{}`, not a finite number; its rows dropped",
            nf.path, nf.line, nf.token
        ));
        return;
    }

    let mut directions = Vec::new();
    for (dir, d) in [
        (Direction::Read, &job.read),
        (Direction::Write, &job.write),
        (Direction::Trim, &job.trim),
    ] {
        if let Some(nf) = non_finite(&format!(".{dir}."), &REQUIRED_DDIR) {
            out.warnings.push(format!(
                "{who} {dir}: {} at line {} is `{}`, not a finite number; row dropped",
                nf.path, nf.line, nf.token
            ));
            continue;
        }
        let Some(d) = d.as_ref().filter(|d| did_io(d)) else {
            continue;
        };
        directions.push(dir);
        let mut row = Row::empty("", dir);
        row.os = os.clone();
        row.engine = engine.clone();
        row.fio_version = version.into();
        row.host = if aggregate {
            None
        } else {
            job.hostname.clone()
        };
        row.job = name.clone();
        row.format = format.into();
        row.rw = rw.clone();
        row.bs_bytes = bs_for(bs.as_deref(), dir);
        row.iodepth = iodepth;
        row.numjobs = numjobs;
        row.rwmixread = rwmixread;
        row.error = error;
        row.aggregate = aggregate;
        row.filename = filename.clone();
        row.timestamp = doc.timestamp.filter(|t| t.is_finite()).map(|t| t as i64);
        row.effective_iodepth = effective_iodepth;
        row.direct = direct;
        if let Some(s) = &steady {
            s.apply(&mut row);
        }
        row.usr_cpu_pct = job.usr_cpu.unwrap_or(0.0);
        row.sys_cpu_pct = job.sys_cpu.unwrap_or(0.0);
        row.system_cpu_pct = system_cpu_pct;
        match fill_ddir(&mut row, d) {
            Ok(()) => match check_finite(&row) {
                Ok(()) => out.rows.push(row),
                Err(what) => out
                    .warnings
                    .push(format!("{who} {dir}: {what}; row dropped")),
            },
            Err(what) => out
                .warnings
                .push(format!("{who} {dir}: {what}; row dropped")),
        }
    }
    if directions.is_empty() {
        return;
    }
    if error != 0 {
        out.warnings.push(format!(
            "{who} reported error {error}; its rows are kept but left out of winners"
        ));
    }
    // fio#2132: with group_reporting the options shown are the last job's,
    // which may not be the ones that did this I/O.
    let only_reads = matches!(rw.as_str(), "read" | "randread");
    let only_writes = matches!(rw.as_str(), "write" | "randwrite");
    if (only_reads && directions.iter().any(|d| *d != Direction::Read))
        || (only_writes && directions.iter().any(|d| *d != Direction::Write))
    {
        out.warnings.push(format!(
            "{who}: rw={rw} but I/O was done in {} (group_reporting over jobs with different options?)",
            directions.iter().map(|d| d.as_str()).collect::<Vec<_>>().join(" and ")
        ));
    }
}

fn did_io(d: &Ddir) -> bool {
    d.io_bytes.unwrap_or(0.0) > 0.0
        || d.io_kbytes.unwrap_or(0.0) > 0.0
        || d.total_ios.unwrap_or(0.0) > 0.0
}

/// Fills the measurements of one direction, converting units once.
fn fill_ddir(row: &mut Row, d: &Ddir) -> Result<(), String> {
    // fio 2.x has none of these keys, and its io_bytes is in KiB.
    let v3 = d.io_kbytes.is_some()
        || d.bw_bytes.is_some()
        || d.clat_ns.is_some()
        || d.lat_ns.is_some()
        || d.slat_ns.is_some();
    let io_bytes = match (d.io_bytes, d.io_kbytes) {
        (Some(b), _) if v3 => b,
        (Some(kib), _) => kib * 1024.0,
        (None, Some(kib)) => kib * 1024.0,
        (None, None) => return Err("no io_bytes".into()),
    };
    if !(io_bytes.is_finite() && (0.0..9.0e18).contains(&io_bytes)) {
        return Err(format!("io_bytes {io_bytes} out of range"));
    }
    row.io_bytes = io_bytes as u64;
    row.runtime_ms = d.runtime.ok_or("no runtime")?;
    row.bw_bytes_per_s = match (d.bw_bytes, d.bw) {
        (Some(b), _) => b,
        (None, Some(kib)) => kib * 1024.0,
        (None, None) => return Err("no bandwidth (bw_bytes or bw)".into()),
    };
    // fio#519: `iops` is total I/Os over runtime; `iops_mean` is the mean
    // of per-interval samples and differs with numjobs. Use the former.
    row.iops = match (d.iops, d.total_ios) {
        (Some(i), _) => i,
        (None, Some(n)) if row.runtime_ms > 0.0 => n * 1000.0 / row.runtime_ms,
        _ => return Err("no iops".into()),
    };

    let (slat, clat, lat, scale) = if v3 {
        (&d.slat_ns, &d.clat_ns, &d.lat_ns, 1.0)
    } else {
        (&d.slat, &d.clat, &d.lat, 1000.0)
    };
    if let Some(s) = slat.as_ref().filter(|l| has_samples(l)) {
        row.slat_mean_ns = s.mean.map(|v| v * scale);
    }
    if let Some(c) = clat.as_ref().filter(|l| has_samples(l)) {
        row.clat_mean_ns = c.mean.map(|v| v * scale);
        row.clat_stddev_ns = c.stddev.map(|v| v * scale);
    }
    if let Some(p) = clat.as_ref().and_then(|l| l.percentile.as_ref()) {
        row.clat_p50_ns = pct(p, 50.0, scale);
        row.clat_p90_ns = pct(p, 90.0, scale);
        row.clat_p95_ns = pct(p, 95.0, scale);
        row.clat_p99_ns = pct(p, 99.0, scale);
        row.clat_p99_9_ns = pct(p, 99.9, scale);
        row.clat_p99_99_ns = pct(p, 99.99, scale);
    }
    if let Some(b) = clat.as_ref().and_then(|l| l.bins.as_ref()) {
        row.clat_bins = Some(b.0.clone());
    }
    if let Some(l) = lat.as_ref().filter(|l| has_samples(l)) {
        row.lat_mean_ns = l.mean.map(|v| v * scale);
        row.lat_stddev_ns = l.stddev.map(|v| v * scale);
        row.lat_min_ns = l.min.map(|v| v * scale);
        row.lat_max_ns = l.max.map(|v| v * scale);
    }
    if let Some(p) = lat.as_ref().and_then(|l| l.percentile.as_ref()) {
        row.lat_p50_ns = pct(p, 50.0, scale);
        row.lat_p99_ns = pct(p, 99.0, scale);
        row.lat_p99_9_ns = pct(p, 99.9, scale);
    }

    // Sample statistics: with zero samples fio prints zeros, not unknowns.
    match d.iops_samples {
        Some(n) if n > 0.0 => {
            row.iops_samples = Some(n as u64);
            row.iops_sample_mean = d.iops_mean;
            row.iops_sample_stddev = d.iops_stddev;
        }
        _ => {}
    }
    let bw_known = d
        .bw_samples
        .map_or(d.bw_mean.unwrap_or(0.0) > 0.0, |n| n > 0.0);
    if bw_known {
        row.bw_samples = d.bw_samples.map(|n| n as u64);
        row.bw_sample_mean = d.bw_mean.map(|v| v * 1024.0);
        row.bw_sample_stddev = d.bw_dev.map(|v| v * 1024.0);
    }
    Ok(())
}

/// 3.x counts samples in `N`; 2.x has no `N`, and reports zeros when a
/// latency was not measured (e.g. slat of a synchronous engine).
fn has_samples(l: &Lat) -> bool {
    match l.n {
        Some(n) => n > 0.0,
        None => l.mean.unwrap_or(0.0) > 0.0 || l.max.unwrap_or(0.0) > 0.0,
    }
}

fn pct(p: &Percentiles, want: f64, scale: f64) -> Option<f64> {
    p.0.iter()
        .find(|(k, _)| (k - want).abs() < 1e-6)
        .map(|&(_, v)| v * scale)
}

/// Contract: only finite, non-negative numbers enter the dataset.
fn check_finite(row: &Row) -> Result<(), String> {
    let required = [
        ("runtime_ms", row.runtime_ms),
        ("bw_bytes_per_s", row.bw_bytes_per_s),
        ("iops", row.iops),
        ("usr_cpu_pct", row.usr_cpu_pct),
        ("sys_cpu_pct", row.sys_cpu_pct),
    ];
    let optional = [
        ("lat_mean_ns", row.lat_mean_ns),
        ("lat_stddev_ns", row.lat_stddev_ns),
        ("lat_min_ns", row.lat_min_ns),
        ("lat_max_ns", row.lat_max_ns),
        ("clat_mean_ns", row.clat_mean_ns),
        ("clat_stddev_ns", row.clat_stddev_ns),
        ("slat_mean_ns", row.slat_mean_ns),
        ("clat_p50_ns", row.clat_p50_ns),
        ("clat_p90_ns", row.clat_p90_ns),
        ("clat_p95_ns", row.clat_p95_ns),
        ("clat_p99_ns", row.clat_p99_ns),
        ("clat_p99_9_ns", row.clat_p99_9_ns),
        ("clat_p99_99_ns", row.clat_p99_99_ns),
        ("lat_p50_ns", row.lat_p50_ns),
        ("lat_p99_ns", row.lat_p99_ns),
        ("lat_p99_9_ns", row.lat_p99_9_ns),
        ("iops_sample_mean", row.iops_sample_mean),
        ("iops_sample_stddev", row.iops_sample_stddev),
        ("bw_sample_mean", row.bw_sample_mean),
        ("bw_sample_stddev", row.bw_sample_stddev),
    ];
    let bad = required
        .into_iter()
        .map(|(n, v)| (n, Some(v)))
        .chain(optional)
        .find(|(_, v)| v.is_some_and(|v| !(v.is_finite() && v >= 0.0)));
    match bad {
        Some((name, Some(v))) => Err(format!("{name} is {v}, not a finite non-negative number")),
        _ => Ok(()),
    }
}

/// fio JSON as a [`Reader`] of one document.
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonReader;

impl Reader for JsonReader {
    fn name(&self) -> &'static str {
        "json"
    }

    fn sniff(&self, text: &str) -> bool {
        text.trim_start().starts_with('{')
    }

    fn read(&self, text: &str) -> Result<Parsed, ReadError> {
        let parsed = to_parsed(&parse(text)?);
        if parsed.rows.is_empty() && parsed.warnings.is_empty() {
            return Err(ReadError::NoRows);
        }
        Ok(parsed)
    }
}

#[cfg(test)]
mod tests;
