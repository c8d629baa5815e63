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

mod direct;
mod non_finite;
mod values;

use std::sync::Arc;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use super::block_size::{self, Asked, BlockSizes};
use super::fio_error;
use super::idle_prof::IdleProf;
use super::jobname::block_size_from_mean;
use super::{depth, steady};
use crate::ingest::identity::guess_from_name;
use crate::ingest::{JobKey, Parsed, ReadError, Reader, RunKey};
use crate::model::figures::{DirectionFigures, Latency, Samples};
use crate::model::{Direction, Os, Row, os};
use crate::quick_hash::QuickHash;
use crate::units::grammar::{self, ValueError};
use non_finite::NonFinite;
pub use values::{Bins, FioOptions, FioPercentiles, GlobalOptions, Loose, Str, without_bins};

/// One fio JSON document.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FioOutput<'a> {
    #[serde(rename = "fio version", borrow)]
    pub fio_version: Option<Str<'a>>,
    pub timestamp: Option<f64>,
    /// The same moment in milliseconds (fio 3.x).
    pub timestamp_ms: Option<f64>,
    #[serde(rename = "global options", borrow)]
    pub global_options: GlobalOptions<'a>,
    #[serde(borrow)]
    pub jobs: Option<Vec<Job<'a>>>,
    #[serde(borrow)]
    pub client_stats: Option<Vec<Job<'a>>>,
    /// `--idle-prof`: percent idle, for the system and per CPU.
    #[serde(borrow)]
    pub cpu_idleness: Option<FioOptions<'a>>,
    /// Only its presence matters (Linux builds report it; fio#1627: not always).
    pub disk_util: Option<IgnoredAny>,
    /// What nvcmp's harness adds to fio's own JSON (`--engine fio`).
    pub nvcmp: Option<Value>,
    /// fio's bare `nan`/`inf` tokens, read as `null`.
    #[serde(skip)]
    pub non_finite: Vec<NonFinite>,
}

/// One entry of `jobs[]` or `client_stats[]`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Job<'a> {
    #[serde(borrow)]
    pub jobname: Option<Str<'a>>,
    pub groupid: Option<f64>,
    pub error: Option<f64>,
    #[serde(rename = "job options", borrow)]
    pub job_options: FioOptions<'a>,
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
    #[serde(borrow)]
    pub hostname: Option<Str<'a>>,
    pub port: Option<f64>,
    /// Whole-system CPU percent during the run: nvcmp's harness writes it
    /// (fio does not). Any JSON value, so an odd one costs a warning, not
    /// the file.
    pub system_cpu_pct: Option<Value>,
    /// Share of submissions per queue-depth bucket, percent.
    #[serde(borrow)]
    pub iodepth_level: Option<FioOptions<'a>>,
    /// `--steadystate` verdict; kept loose, read by `steady::from_json`.
    pub steadystate: Option<Value>,
    /// What nvcmp's native harness adds to each job (precondition, ...).
    pub nvcmp: Option<Value>,
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
    /// Boxed: three of the six are absent in every document (fio 3.x
    /// writes the `_ns` ones, 2.x the others), and inline each absent one
    /// held a latency object's 128 bytes, 1.5 KB a job in all, 200 MB of
    /// a document of 128,904 jobs while its rows are made (issue #55).
    pub slat_ns: Option<Box<Lat>>,
    pub clat_ns: Option<Box<Lat>>,
    pub lat_ns: Option<Box<Lat>>,
    /// usec (2.x).
    pub slat: Option<Box<Lat>>,
    pub clat: Option<Box<Lat>>,
    pub lat: Option<Box<Lat>>,
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
    pub percentile: Option<FioPercentiles>,
    pub bins: Option<Bins>,
}

/// Parses one JSON segment into the mirror, once; a second time, with
/// fio's bare `nan`/`inf` read as `null`, only when the first parse stopped
/// on a syntax error (see [`non_finite`]). Strings borrow from `text`.
pub fn parse(text: &str) -> Result<FioOutput<'_>, ReadError> {
    let doc = match serde_json::from_str::<FioOutput>(text) {
        Ok(doc) => doc,
        Err(e) if e.classify() == serde_json::error::Category::Syntax => {
            let Some((clean, found)) = non_finite::replace(text) else {
                return Err(malformed(e));
            };
            let mut doc = parse_owned(&clean).map_err(malformed)?;
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

fn malformed(e: serde_json::Error) -> ReadError {
    let reason = match e.classify() {
        serde_json::error::Category::Eof => format!("truncated JSON ({e})"),
        _ => e.to_string(),
    };
    ReadError::Malformed {
        format: "json",
        reason,
    }
}

/// Parses text that the returned mirror cannot borrow from (the cleaned
/// copy of a document with `nan`s): through serde_json's reader, whose
/// strings are always copies, with the errors (and positions) of
/// `from_str`. Rare, so its slower reading does not matter.
fn parse_owned<'a>(text: &str) -> Result<FioOutput<'a>, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_reader(text.as_bytes());
    let doc = FioOutput::deserialize(&mut de)?;
    de.end()?;
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
pub fn job_set(doc: &FioOutput<'_>) -> RunKey {
    let mut set: Vec<_> = doc
        .all_jobs()
        .map(|j| JobKey {
            name: j.jobname.as_deref().unwrap_or_default().to_string(),
            group: j.groupid.unwrap_or(0.0) as i64,
            host: j.hostname.as_deref().map(str::to_string),
            port: j.port.map(|p| p as i64),
        })
        .collect();
    set.sort();
    RunKey(set)
}

impl<'a> FioOutput<'a> {
    pub(crate) fn all_jobs(&self) -> impl Iterator<Item = &Job<'a>> {
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

pub(crate) const AGGREGATE_NAME: &str = "All clients";

/// Converts one document to rows (`source` and `label` left empty).
pub fn to_parsed(doc: &FioOutput<'_>) -> Parsed {
    let mut out = Parsed::default();
    for nf in doc.non_finite.iter().filter(|nf| !is_required(&nf.path)) {
        out.warnings.push(format!(
            "`{}` at line {} is `{}`, not a finite number; read as missing",
            nf.path, nf.line, nf.token
        ));
    }
    let format = if doc.has_bins() { "json+" } else { "json" };
    let version = doc.fio_version.as_deref().unwrap_or("unknown");
    let jobs: Vec<&Job<'_>> = doc.all_jobs().collect();
    // Rows are large and most files have one: no spare capacity.
    let at_most: usize = jobs.iter().map(|j| j.directions_with_io()).sum();
    out.rows.reserve_exact(at_most);
    // Where each job sits in the document, to match `non_finite` paths:
    // named only in a document that has any.
    let named = !doc.non_finite.is_empty();
    let place_of = |what: &str, i: usize| match named {
        true => format!("{what}[{i}]"),
        false => String::new(),
    };
    let places = (0..doc.jobs.as_ref().map_or(0, Vec::len))
        .map(|i| place_of("jobs", i))
        .chain(
            (0..doc.client_stats.as_ref().map_or(0, Vec::len)).map(|i| place_of("client_stats", i)),
        );
    let shared = shared_hostnames(&jobs);
    let shared_options = OptionTexts::for_document();
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
        let owner = template.unwrap_or(job);
        let global = doc
            .global_options
            .for_server(owner.hostname.as_deref(), owner.port);
        let opts = JobOpts::new(global, &owner.job_options);
        let ctx = JobCtx {
            opts: &opts,
            shared: &shared_options,
            host: (!aggregate).then(|| host_name(job, &shared)).flatten(),
            place: &place,
            aggregate,
            format,
            version,
        };
        job_rows(doc, job, &ctx, &mut out);
    }
    if let Some(idle) = &doc.cpu_idleness {
        let pairs = idle.iter().map(|(k, v)| (k, v.as_f64()));
        let idle = IdleProf::from_pairs(pairs, &mut out.warnings);
        out.rows.iter_mut().for_each(|r| idle.apply(r));
    }
    out
}

/// Hostnames that several servers of one document share (fio servers on
/// one machine, told apart by their ports only).
fn shared_hostnames<'d>(jobs: &[&'d Job<'_>]) -> Vec<&'d str> {
    let mut seen: Vec<(&str, Option<i64>)> = Vec::new();
    for j in jobs {
        if let Some(h) = j.hostname.as_deref() {
            let server = (h, j.port.map(|p| p as i64));
            if !seen.contains(&server) {
                seen.push(server);
            }
        }
    }
    let mut shared: Vec<&str> = seen
        .iter()
        .filter(|(h, _)| seen.iter().filter(|(o, _)| o == h).count() > 1)
        .map(|(h, _)| *h)
        .collect();
    shared.dedup();
    shared
}

/// A job's host as the dataset names it: its hostname, with `:port` where
/// another server of the document has the same hostname.
fn host_name(job: &Job<'_>, shared: &[&str]) -> Option<String> {
    let h = job.hostname.as_deref()?;
    match job.port {
        Some(p) if shared.contains(&h) => Some(format!("{h}:{}", p as i64)),
        _ => Some(h.to_string()),
    }
}

/// What a job's options say ([`OptionFacts`]) by a 128-bit hash of the
/// option pairs they are read from.
type FactsByPairs = std::collections::HashMap<u128, Arc<OptionFacts>, QuickHash>;

/// The options texts, and what the options say, of every file read under
/// [`sharing_options`], on any thread, each held once: copies of one
/// result (a baseline folder copied, runs repeated with one job file)
/// print the same options, 2-3 KB a row. Shared, the rows hold one text
/// per distinct set of options instead of one per file, the config rule
/// tells texts apart by address before it compares them, and a text (its
/// options merged, sorted and quoted, a twentieth of ingest) and the
/// job's engine, workload and sizes (two dozen options looked up and read
/// by fio's grammar, another twentieth) are worked out once per set, not
/// once per file.
#[derive(Default)]
pub struct OptionTexts(std::sync::Mutex<FactsByPairs>);

thread_local! {
    /// The texts shared on this thread, while [`sharing_options`] runs.
    static ACROSS_FILES: std::cell::RefCell<Option<Arc<OptionTexts>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` (reading files) with options texts taken from and added to
/// `texts`; the previous setting is restored when `f` ends.
pub fn sharing_options<T>(texts: &Arc<OptionTexts>, f: impl FnOnce() -> T) -> T {
    struct PreviousTexts(Option<Arc<OptionTexts>>);
    impl Drop for PreviousTexts {
        fn drop(&mut self) {
            ACROSS_FILES.with(|a| *a.borrow_mut() = self.0.take());
        }
    }
    let _restore = PreviousTexts(ACROSS_FILES.with(|a| a.borrow_mut().replace(texts.clone())));
    f()
}

impl OptionTexts {
    /// The texts a document's jobs share: those of [`sharing_options`] on
    /// this thread (every file read), else the document's own. Jobs that
    /// ran with the same options (numjobs' clones, a job file's sections
    /// that differ in name only) share one text, as the directions of one
    /// job do.
    fn for_document() -> Arc<OptionTexts> {
        ACROSS_FILES
            .with(|a| a.borrow().clone())
            .unwrap_or_default()
    }

    /// What the job's options say, worked out only where these pairs were
    /// not seen.
    fn facts(&self, opts: &JobOpts<'_>) -> Arc<OptionFacts> {
        let key = opts.pairs_hash();
        let lock = || {
            self.0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        if let Some(known) = lock().get(&key) {
            return known.clone();
        }
        // Worked out outside the lock; facts another thread worked out
        // meanwhile win.
        let facts = Arc::new(OptionFacts::of(opts));
        lock().entry(key).or_insert(facts).clone()
    }
}

/// What a job's options alone say: read once per distinct set of options
/// ([`OptionTexts`]), and only the job's own figures and names per job.
#[derive(Debug, PartialEq)]
struct OptionFacts {
    /// The row's `options` ([`JobOpts::all`]).
    text: Option<Arc<str>>,
    filename: Option<String>,
    engine: String,
    /// fio's `filename` when it names one file ([`single_target`]).
    target: Option<String>,
    /// rw, bs and iodepth; `None` when the file printed no options (the
    /// job's name and figures stand in: [`guessed_workload`]).
    workload: Option<JobWorkload>,
    /// `numjobs` as fio's grammar reads it; `None` when not set.
    numjobs: Option<Result<u32, ValueError>>,
    group_reporting: bool,
    rwmix: Result<Option<u32>, ValueError>,
    /// The block size options (`None` when the file printed no options).
    sizes: Option<BlockSizes>,
    direct: Option<bool>,
    timing_options: Option<String>,
    cpus_allowed: Option<String>,
}

impl OptionFacts {
    fn of(opts: &JobOpts<'_>) -> OptionFacts {
        let printed = opts.printed();
        let filename = opts.get("filename");
        OptionFacts {
            text: opts.all().map(Arc::from),
            engine: engine_of(opts, filename.as_deref()),
            target: single_target(filename.as_deref()),
            workload: workload_of(opts),
            numjobs: opts.int("numjobs"),
            group_reporting: opts.get("group_reporting").is_some(),
            rwmix: grammar::rwmix(
                opts.get("rwmixread").as_deref(),
                opts.get("rwmixwrite").as_deref(),
            ),
            sizes: printed.then(|| BlockSizes::of(|k| opts.get(k))),
            direct: opts.direct(printed),
            timing_options: timing_options(opts),
            cpus_allowed: cpus_of(opts),
            filename,
        }
    }
}

/// Job options over global options (job options win), as fio applies them.
struct JobOpts<'a> {
    global: &'a FioOptions<'a>,
    job: &'a FioOptions<'a>,
}

impl<'a> JobOpts<'a> {
    fn new(global: &'a FioOptions<'a>, job: &'a FioOptions<'a>) -> JobOpts<'a> {
        JobOpts { global, job }
    }

    /// Whether the file printed any option (fio 2.x printed none: then an
    /// absent option is unknown, not fio's default).
    fn printed(&self) -> bool {
        !(self.job.is_empty() && self.global.is_empty())
    }

    fn get(&self, key: &str) -> Option<String> {
        let v = self.job.get(key).or_else(|| self.global.get(key))?;
        match v {
            Loose::Text(s) => Some(s.trim().to_string()),
            Loose::Number(n) => Some(n.to_string()),
            Loose::Bool(b) => Some(b.to_string()),
            Loose::Other => None,
        }
    }

    /// Every option the job ran with (its own over the global ones), its
    /// `name` left out, as a JSON object with sorted keys: the row's
    /// `options`. None when the file printed no options (fio 2.x).
    fn all(&self) -> Option<String> {
        // As a map filled in order would hold them: the last value of a
        // key wins (the job's over the global one), and a value that is
        // not read (`null`, a list) leaves the one before it standing.
        let mut all: Vec<(&str, std::borrow::Cow<'_, str>)> = self
            .named()
            .filter_map(|(k, v)| {
                let v = match v {
                    Loose::Text(s) => s.trim().into(),
                    Loose::Number(n) => n.to_string().into(),
                    Loose::Bool(b) => if *b { "true" } else { "false" }.into(),
                    Loose::Other => return None,
                };
                Some((k, v))
            })
            .collect();
        if all.is_empty() {
            return None;
        }
        all.sort_by(|a, b| a.0.cmp(b.0));
        let size = all.iter().map(|(k, v)| k.len() + v.len() + 6).sum();
        let mut text = String::with_capacity(size);
        text.push('{');
        for (i, (k, v)) in all.iter().enumerate() {
            if all.get(i + 1).is_some_and(|next| next.0 == *k) {
                continue;
            }
            if text.len() > 1 {
                text.push(',');
            }
            json_string(&mut text, k);
            text.push(':');
            json_string(&mut text, v);
        }
        text.push('}');
        Some(text)
    }

    /// The options as printed, global then the job's, the job's `name`
    /// left out: what [`JobOpts::all`] and [`JobOpts::pairs_hash`] read.
    fn named(&self) -> impl Iterator<Item = (&str, &Loose<'a>)> {
        self.global
            .iter()
            .chain(self.job.iter())
            .filter(|(k, _)| *k != "name")
    }

    /// A 128-bit hash of the pairs [`JobOpts::all`] reads (global, then
    /// the job's, `name` left out), each piece with its length before it:
    /// pairs that hash alike make one text.
    fn pairs_hash(&self) -> u128 {
        let mut bytes: Vec<u8> = Vec::with_capacity(1024);
        let mut piece = |tag: u8, text: &[u8]| {
            bytes.push(tag);
            bytes.extend_from_slice(&(text.len() as u64).to_le_bytes());
            bytes.extend_from_slice(text);
        };
        for (k, v) in self.named() {
            piece(b'k', k.as_bytes());
            match v {
                Loose::Text(s) => piece(b't', s.as_bytes()),
                Loose::Number(n) => piece(b'n', n.to_string().as_bytes()),
                Loose::Bool(b) => piece(b'b', &[u8::from(*b)]),
                Loose::Other => piece(b'o', &[]),
            }
        }
        xxhash_rust::xxh3::xxh3_128(&bytes)
    }

    fn get_any(&self, keys: &[&str]) -> Option<String> {
        keys.iter().find_map(|k| self.get(k))
    }

    /// An integer option as fio reads it (`iodepth=0x10` is 16): `None`
    /// when absent, `Err` when fio's grammar does not read it.
    fn int(&self, key: &str) -> Option<Result<u32, ValueError>> {
        let v = self.get(key)?;
        Some(grammar::int(&v, 1).and_then(|n| {
            u32::try_from(n).map_err(|_| ValueError {
                value: v.clone(),
                reason: "is too large",
            })
        }))
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

/// `s` as a JSON string, as serde_json writes it: a string with nothing
/// to escape (fio's options, nearly always) is copied whole.
fn json_string(out: &mut String, s: &str) {
    let plain = s.bytes().fold(true, |plain, b| {
        plain & (b >= 0x20) & (b != b'"') & (b != b'\\')
    });
    if plain {
        out.push('"');
        out.push_str(s);
        out.push('"');
    } else {
        // Writing to a String cannot fail.
        let escaped = serde_json::to_string(s).unwrap_or_default();
        out.push_str(&escaped);
    }
}

/// What [`job_rows`] needs to know about a job besides the job itself.
struct JobCtx<'a> {
    opts: &'a JobOpts<'a>,
    /// The document's option texts so far, shared by the jobs that ran alike.
    shared: &'a OptionTexts,
    /// The job's host (`None` for `All clients` and standalone jobs).
    host: Option<String>,
    /// `jobs[0]`, `client_stats[2]`: where the job is in the document.
    place: &'a str,
    aggregate: bool,
    format: &'a str,
    version: &'a str,
}

/// What one job's rows share: the workload, the engine and OS, the load
/// point and the job-level figures, read once from its options.
struct JobFacts {
    name: String,
    /// The fio server that ran the job (client/server output).
    host: Option<String>,
    /// What the job's options say, shared by every job that ran with them:
    /// its engine, target, block size options (`None` when the file
    /// printed no options: then `guessed` says how sizes were found).
    opts: Arc<OptionFacts>,
    os: Os,
    rw: String,
    bs: Option<String>,
    iodepth: u32,
    /// The file printed no options: how rw, bs and iodepth were found.
    guessed: Option<Vec<String>>,
    /// Options fio's grammar does not read, and what stood in for them.
    value_notes: Vec<String>,
    /// Why the job's rows cannot be placed (an unreadable option nothing
    /// measured stands in for).
    unplaceable: Option<String>,
    numjobs: u32,
    rwmixread: Option<u32>,
    effective_iodepth: Option<u32>,
    steady: Option<steady::SteadyVerdict>,
    precondition: Option<String>,
    error: i64,
    system_cpu_pct: Option<f64>,
}

/// The one file a job ran on: fio's `filename` when it names a single
/// file, read as the row's device count reads it
/// ([`crate::model::target_names`]: `a:b` spreads one job over two, `\:`
/// is a colon in a name, a drive letter stays with its path, a blank part
/// is no file), so a row of one device names it.
fn single_target(filename: Option<&str>) -> Option<String> {
    let mut names = crate::model::target_names("fio", filename);
    names.pop().filter(|_| names.is_empty())
}

/// Where the job's threads were pinned: fio's `cpus_allowed`, or the NUMA
/// node of `numa_cpu_nodes`.
fn cpus_of(opts: &JobOpts<'_>) -> Option<String> {
    opts.get("cpus_allowed")
        .or_else(|| opts.get("numa_cpu_nodes").map(|n| format!("node {n}")))
}

/// `--precondition` of nvcmp's harness, in words, from the job's or the
/// document's `nvcmp` key.
fn precondition_of(doc: &FioOutput<'_>, job: &Job<'_>) -> Option<String> {
    let p = [job.nvcmp.as_ref(), doc.nvcmp.as_ref()]
        .into_iter()
        .flatten()
        .find_map(|n| n.get("precondition").filter(|p| !p.is_null()))?;
    let passes = p.get("passes")?.as_u64()?;
    let bs = p.get("bs")?.as_u64()?;
    let s = if passes == 1 { "" } else { "es" };
    Some(format!(
        "{passes} pass{s} of sequential {} writes",
        crate::units::format_bs(bs)
    ))
}

/// fio's default engine when the options name none: psync, windowsaio on
/// Windows (HOWTO `ioengine`); unknown when fio (before 2.99) printed no
/// options at all.
fn engine_of(opts: &JobOpts<'_>, filename: Option<&str>) -> String {
    if let Some(e) = opts.get("ioengine") {
        return e;
    }
    let printed_options = opts.printed();
    let windows = filename.is_some_and(os::is_windows_path);
    match (printed_options, windows) {
        (false, _) => "unknown",
        (true, true) => "windowsaio",
        (true, false) => "psync",
    }
    .to_string()
}

/// The options of [`crate::model::TIMING_OPTIONS`] the job set, as
/// `name=value` (a flag given without a value reads `name=1`).
fn timing_options(opts: &JobOpts<'_>) -> Option<String> {
    let set: Vec<String> = crate::model::TIMING_OPTIONS
        .iter()
        .filter_map(|k| {
            let v = opts.get(k)?;
            Some(format!(
                "{k}={}",
                if v.is_empty() { "1" } else { v.as_str() }
            ))
        })
        .collect();
    (!set.is_empty()).then(|| set.join(","))
}

/// Where a job's iodepth or numjobs is a value fio's grammar does not
/// read: what fio measured stands in (the depth distribution, the jobs
/// the file reports), said in `notes`; where nothing did, the run cannot
/// be placed at a load point (`unplaceable`) and 1 is only a placeholder.
struct Unread<'n> {
    notes: &'n mut Vec<String>,
    unplaceable: &'n mut Option<String>,
}

impl Unread<'_> {
    fn iodepth(
        &mut self,
        asked: Result<u32, ValueError>,
        levels: Option<&depth::Distribution>,
    ) -> u32 {
        let e = match asked {
            Ok(d) => return d,
            Err(e) => e,
        };
        match levels.map(depth::most_used) {
            Some(d) => {
                self.notes.push(format!(
                    "iodepth {e}; QD{d} from fio's I/O depth distribution"
                ));
                d
            }
            None => {
                *self.unplaceable = Some(format!("iodepth {e}, and no I/O depth distribution"));
                1
            }
        }
    }

    /// `asked`: `numjobs` as fio's grammar reads it ([`OptionFacts`]).
    fn numjobs(
        &mut self,
        doc: &FioOutput<'_>,
        asked: Option<&Result<u32, ValueError>>,
        group_reporting: bool,
        name: &str,
    ) -> u32 {
        let e = match asked {
            None => return 1,
            Some(Ok(n)) => return *n,
            Some(Err(e)) => e,
        };
        let clones = doc
            .jobs
            .iter()
            .flatten()
            .filter(|j| j.jobname.as_deref() == Some(name))
            .count();
        if !group_reporting && clones > 0 {
            self.notes.push(format!(
                "numjobs {e}; {clones} from the jobs the file reports"
            ));
            clones as u32
        } else {
            self.unplaceable.get_or_insert(format!(
                "numjobs {e}, and group_reporting hides the job count"
            ));
            1
        }
    }
}

/// A job's workload as its options give it. fio before 2.99 printed no
/// options at all: absent keys then mean "not written", not fio's
/// defaults; the job name's words and, per direction, the mean I/O size
/// are the hints left (`notes` says which were used, for one warning).
#[derive(Debug, Clone, PartialEq)]
struct JobWorkload {
    rw: String,
    bs: Option<String>,
    /// fio's default (1) when absent; `Err` when the value is not one
    /// fio's grammar reads.
    iodepth: Result<u32, ValueError>,
    /// `Some` when the file printed no options: how each value was found.
    notes: Option<Vec<String>>,
}

/// `None` when the file printed no options ([`guessed_workload`] then).
fn workload_of(opts: &JobOpts<'_>) -> Option<JobWorkload> {
    // `rw=randread:8` carries an offset modifier that is not part of the
    // workload's identity.
    let rw = opts
        .get_any(&["rw", "readwrite"])
        .map(|s| grammar::rw(&s).0.to_string());
    let bs = opts.get_any(&["bs", "blocksize"]);
    // Absent, fio ran its own default depth (1); present, fio's grammar reads it.
    let iodepth = opts.int("iodepth").unwrap_or(Ok(1));
    let rw = match rw {
        Some(rw) => rw,
        None if !opts.printed() => return None,
        None => "read".into(),
    };
    Some(JobWorkload {
        rw,
        bs,
        iodepth,
        notes: None,
    })
}

/// The workload of a job without printed options: rw from the name's
/// words (else the directions that did I/O), bs from the name (else, per
/// row, the mean I/O size: see [`derive_bs`]), iodepth from the name.
fn guessed_workload(job: &Job<'_>, name: &str) -> JobWorkload {
    let guess = guess_from_name(name);
    let mut notes = Vec::new();
    let rw = match guess.rw {
        Some(rw) => {
            notes.push(format!("rw={rw} from the job name"));
            rw.to_string()
        }
        None => {
            let did: Vec<&str> = [
                ("read", &job.read),
                ("write", &job.write),
                ("trim", &job.trim),
            ]
            .into_iter()
            .filter(|(_, d)| d.as_ref().is_some_and(did_io))
            .map(|(n, _)| n)
            .collect();
            let rw = if did.len() == 1 { did[0] } else { "rw" };
            notes.push(format!(
                "rw={rw} from the directions that did I/O (random or sequential unknown)"
            ));
            rw.to_string()
        }
    };
    if let Some(bs) = &guess.bs {
        notes.push(format!("bs={bs} from the job name"));
    }
    let levels = job
        .iodepth_level
        .as_ref()
        .and_then(|l| depth::from_levels(l.iter().filter_map(|(k, v)| Some((k, v.as_f64()?)))));
    let iodepth = match (guess.iodepth, levels) {
        (Some(d), _) => {
            notes.push(format!("iodepth={d} from the job name"));
            d
        }
        (None, Some(dist)) => {
            // The bucket most I/Os were submitted at: a power of two at or
            // below the real iodepth.
            let d = depth::most_used(&dist);
            notes.push(format!("iodepth={d} from fio's I/O depth distribution"));
            d
        }
        (None, None) => {
            notes.push("iodepth=1 (fio's default)".into());
            1
        }
    };
    JobWorkload {
        rw,
        bs: guess.bs,
        iodepth: Ok(iodepth),
        notes: Some(notes),
    }
}

/// The row's block size from what fio measured (bytes over I/Os) and
/// what the options asked ([`block_size::decide`]): a note where they
/// differ, an error where no size can be told.
fn decide_block_size(
    row: &mut Row,
    sizes: &BlockSizes,
    d: &Ddir,
    dir: Direction,
) -> Result<Option<String>, String> {
    let measured = d
        .total_ios
        .filter(|&n| n >= 1.0)
        .map(|n| row.io_bytes as f64 / n);
    let decided = block_size::decide(sizes.asked(dir), measured, dir).map_err(|e| e.to_string())?;
    row.bs_bytes = decided.bs_bytes;
    row.bs_spread = decided.spread;
    Ok(decided.note)
}

/// A row's block size from its mean I/O size (io_bytes / total_ios, or
/// bandwidth / IOPS where fio 2.x printed no I/O count), and how it was
/// found; `None` when the row holds too little to tell.
fn derive_bs(row: &Row, d: &Ddir) -> Option<(u64, String)> {
    let (mean, how) = match d.total_ios.filter(|&n| n >= 1.0) {
        Some(n) => (
            row.io_bytes as f64 / n,
            format!("{} B / {n} I/Os", row.io_bytes),
        ),
        None if row.iops > 0.0 => (
            row.bw_bytes_per_s / row.iops,
            format!("{} KiB/s / {} IOPS", row.bw_bytes_per_s / 1024.0, row.iops),
        ),
        None => return None,
    };
    let (bs, common) = block_size_from_mean(mean)?;
    let rounded = if common {
        "rounded to a common size"
    } else {
        "to the sector"
    };
    let kib = mean / 1024.0;
    Some((
        bs,
        format!(
            "{} bs={bs} from the mean I/O size ({how} = {kib:.1} KiB, {rounded})",
            row.direction
        ),
    ))
}

/// `system_cpu_pct` as the harness writes it; anything odd costs a warning.
fn system_cpu_of(job: &Job<'_>, who: Who<'_>, out: &mut Parsed) -> Option<f64> {
    match &job.system_cpu_pct {
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
    }
}

/// `job `x`` or `job `x` on host`, for warnings: written only where one
/// is, not for every job read.
#[derive(Clone, Copy)]
struct Who<'a> {
    name: &'a str,
    host: Option<&'a str>,
}

impl<'a> Who<'a> {
    fn of(name: &'a str, host: Option<&'a str>) -> Who<'a> {
        Who { name, host }
    }
}

impl std::fmt::Display for Who<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.host {
            Some(h) => write!(f, "job `{}` on {h}", self.name),
            None => write!(f, "job `{}`", self.name),
        }
    }
}

impl JobFacts {
    /// Who the job is, for its warnings.
    fn who(&self) -> Who<'_> {
        Who::of(&self.name, self.host.as_deref())
    }

    fn of(doc: &FioOutput<'_>, job: &Job<'_>, ctx: &JobCtx<'_>, out: &mut Parsed) -> JobFacts {
        let f = ctx.shared.facts(ctx.opts);
        let name = job.jobname.as_deref().unwrap_or_default().to_string();
        // Disk statistics are printed by fio on Linux only.
        let linux_hint = doc.disk_util.as_ref().map(|_| Os::Linux);
        let os = os::infer(&f.engine, f.filename.as_deref(), linux_hint);
        let JobWorkload {
            rw,
            bs,
            iodepth,
            notes: guessed,
        } = match &f.workload {
            Some(w) => w.clone(),
            None => guessed_workload(job, &name),
        };
        let levels = job
            .iodepth_level
            .as_ref()
            .and_then(|l| depth::from_levels(l.iter().filter_map(|(k, v)| Some((k, v.as_f64()?)))));
        let mut value_notes = Vec::new();
        let mut unplaceable = None;
        let mut unread = Unread {
            notes: &mut value_notes,
            unplaceable: &mut unplaceable,
        };
        let iodepth = unread.iodepth(iodepth, levels.as_ref());
        let numjobs = unread.numjobs(doc, f.numjobs.as_ref(), f.group_reporting, &name);
        let rwmixread = match &f.rwmix {
            Ok(m) => *m,
            Err(e) => {
                value_notes.push(format!("rwmixread {e}; the read mix is unknown"));
                None
            }
        };
        JobFacts {
            numjobs,
            rwmixread,
            value_notes,
            unplaceable,
            effective_iodepth: depth::effective(&f.engine, iodepth, levels.as_ref()),
            steady: job.steadystate.as_ref().and_then(steady::from_json),
            error: job.error.unwrap_or(0.0) as i64,
            system_cpu_pct: system_cpu_of(job, Who::of(&name, ctx.host.as_deref()), out),
            precondition: precondition_of(doc, job),
            name,
            host: ctx.host.clone(),
            opts: f,
            os,
            rw,
            bs,
            iodepth,
            guessed,
        }
    }

    /// The row of one direction, before its figures.
    fn row(&self, doc: &FioOutput<'_>, job: &Job<'_>, ctx: &JobCtx<'_>, dir: Direction) -> Row {
        let mut row = Row::empty("", dir);
        row.os = self.os.clone();
        let opts = &*self.opts;
        row.engine = opts.engine.clone();
        row.fio_version = ctx.version.into();
        row.host = ctx.host.clone();
        row.job = self.name.clone();
        row.format = ctx.format.into();
        row.rw = self.rw.clone();
        // Decided per direction once fio's figures are read (`decide`);
        // a job without printed options has its size from the name.
        row.bs_bytes = match (&opts.sizes, &self.bs) {
            (Some(sizes), _) => match sizes.asked(dir) {
                Asked::Fixed(b) => *b,
                _ => 0,
            },
            (None, Some(named)) => {
                grammar::size(named, grammar::KbBase::default()).unwrap_or_default()
            }
            (None, None) => 0,
        };
        row.bs_option = opts.sizes.as_ref().and_then(|s| s.written.clone());
        row.iodepth = self.iodepth;
        row.numjobs = self.numjobs;
        row.rwmixread = self.rwmixread;
        row.error = self.error;
        row.aggregate = ctx.aggregate;
        row.filename = opts.filename.clone();
        row.target = opts.target.clone();
        row.cpus_allowed = opts.cpus_allowed.clone();
        row.precondition = self.precondition.clone();
        row.timestamp = doc.timestamp.filter(|t| t.is_finite()).map(|t| t as i64);
        row.timestamp_ms = doc.timestamp_ms.filter(|t| t.is_finite()).map(|t| t as i64);
        row.effective_iodepth = self.effective_iodepth;
        row.direct = opts.direct;
        row.timing_options = opts.timing_options.clone();
        row.options = opts.text.clone();
        if let Some(s) = &self.steady {
            s.apply(&mut row);
        }
        row.usr_cpu_pct = job.usr_cpu.unwrap_or(0.0);
        row.sys_cpu_pct = job.sys_cpu.unwrap_or(0.0);
        row.system_cpu_pct = self.system_cpu_pct;
        row
    }
}

fn job_rows(doc: &FioOutput<'_>, job: &Job<'_>, ctx: &JobCtx<'_>, out: &mut Parsed) {
    // A required value fio printed as `nan`/`inf` (read as null).
    let non_finite = |prefix: &str, keys: &[&str]| {
        doc.non_finite.iter().find(|nf| {
            nf.path
                .strip_prefix(ctx.place)
                .and_then(|r| r.strip_prefix(prefix))
                .is_some_and(|k| keys.contains(&k))
        })
    };
    let facts = JobFacts::of(doc, job, ctx, out);
    let who = facts.who();
    if let Some(why) = &facts.unplaceable {
        out.warnings.push(format!("{who}: {why}; its rows dropped"));
        return;
    }
    let mut value_notes = facts.value_notes.clone();
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
    let mut notes = facts.guessed.clone();
    for (dir, d) in [
        (Direction::Read, &job.read),
        (Direction::Write, &job.write),
        (Direction::Trim, &job.trim),
    ] {
        let nf = match doc.non_finite.is_empty() {
            true => None,
            false => non_finite(&format!(".{dir}."), &REQUIRED_DDIR),
        };
        if let Some(nf) = nf {
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
        let mut row = facts.row(doc, job, ctx, dir);
        match fill_ddir(&mut row, d).and_then(|()| check_finite(&row)) {
            Ok(()) => {
                if let Some(sizes) = &facts.opts.sizes {
                    match decide_block_size(&mut row, sizes, d, dir) {
                        Ok(note) => value_notes.extend(note),
                        Err(why) => {
                            out.warnings
                                .push(format!("{who} {dir}: {why}; row dropped"));
                            continue;
                        }
                    }
                }
                if let Some(notes) = notes.as_mut().filter(|_| facts.bs.is_none()) {
                    notes.push(guess_bs(&mut row, d, dir));
                }
                out.rows.push(row)
            }
            Err(what) => out
                .warnings
                .push(format!("{who} {dir}: {what}; row dropped")),
        }
    }
    notes_said(&facts, &directions, value_notes, notes, out);
}

/// The job's notes as warnings: values read otherwise than written, and
/// how a job without options (fio 2.x) was placed; then the job's own
/// warnings, where it has rows.
fn notes_said(
    facts: &JobFacts,
    directions: &[Direction],
    mut value_notes: Vec<String>,
    notes: Option<Vec<String>>,
    out: &mut Parsed,
) {
    let who = facts.who();
    if !value_notes.is_empty() {
        value_notes.dedup();
        out.warnings
            .push(format!("{who}: {}", value_notes.join("; ")));
    }
    if directions.is_empty() {
        return;
    }
    if let Some(notes) = notes {
        out.warnings.push(format!(
            "{who}: the file has no job options (fio 2.x): {}",
            notes.join(", ")
        ));
    }
    job_warnings(facts, directions, out);
}

/// A job without options (fio 2.x): its block size from its mean I/O
/// size ([`derive_bs`]), or fio's default where too few I/Os tell; says how.
fn guess_bs(row: &mut Row, d: &Ddir, dir: Direction) -> String {
    match derive_bs(row, d) {
        Some((bs, how)) => {
            row.bs_bytes = bs;
            how
        }
        None => format!("{dir} bs=4k (fio's default; too few I/Os to tell)"),
    }
}

/// An errored job, and rw that disagrees with the directions that did I/O:
/// fio#2132, with group_reporting the options shown are the last job's,
/// which may not be the ones that did this I/O.
fn job_warnings(facts: &JobFacts, directions: &[Direction], out: &mut Parsed) {
    let (who, rw, error) = (facts.who(), &facts.rw, facts.error);
    if error != 0 {
        out.warnings.push(format!(
            "{who} reported error {error}; its rows are kept but left out of winners"
        ));
    }
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

impl Job<'_> {
    /// Reported an error and moved no bytes: fio counts the I/Os it
    /// issued (`total_ios`) even when each one failed.
    fn failed(&self) -> bool {
        let moved = |d: &Option<Ddir>| {
            d.as_ref().is_some_and(|d| {
                d.io_bytes.unwrap_or(0.0) > 0.0 || d.io_kbytes.unwrap_or(0.0) > 0.0
            })
        };
        self.error.unwrap_or(0.0) != 0.0
            && ![&self.read, &self.write, &self.trim, &self.mixed]
                .into_iter()
                .any(moved)
    }

    /// How many of read, write and trim did I/O: the job's rows at most.
    fn directions_with_io(&self) -> usize {
        [&self.read, &self.write, &self.trim]
            .into_iter()
            .filter(|d| d.as_ref().is_some_and(did_io))
            .count()
    }
}

fn did_io(d: &Ddir) -> bool {
    d.io_bytes.unwrap_or(0.0) > 0.0
        || d.io_kbytes.unwrap_or(0.0) > 0.0
        || d.total_ios.unwrap_or(0.0) > 0.0
}

/// Why one direction's row is dropped (the job's other rows are kept).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RowError {
    #[error("no io_bytes")]
    NoIoBytes,
    #[error("io_bytes {0} out of range")]
    IoBytesOutOfRange(f64),
    #[error("no runtime")]
    NoRuntime,
    #[error("no bandwidth (bw_bytes or bw)")]
    NoBandwidth,
    #[error("no iops")]
    NoIops,
    /// Contract: only finite, non-negative numbers enter the dataset.
    #[error("{column} is {value}, not a finite non-negative number")]
    NotFinite { column: &'static str, value: f64 },
}

/// Fills the measurements of one direction, converting units once.
fn fill_ddir(row: &mut Row, d: &Ddir) -> Result<(), RowError> {
    let (figures, clat) = figures(d)?;
    figures.apply(row);
    if let Some(b) = clat
        .and_then(|l| l.bins.as_ref())
        .filter(|b| !b.0.is_empty())
    {
        row.clat_bins = Some(crate::model::LatencyBins::new(&b.0));
    }
    Ok(())
}

/// One direction's figures in the row's units, and the completion
/// latency they were read from (its histogram is JSON's alone).
fn figures(d: &Ddir) -> Result<(DirectionFigures, Option<&Lat>), RowError> {
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
        (None, None) => return Err(RowError::NoIoBytes),
    };
    if !(io_bytes.is_finite() && (0.0..9.0e18).contains(&io_bytes)) {
        return Err(RowError::IoBytesOutOfRange(io_bytes));
    }
    let runtime_ms = d.runtime.ok_or(RowError::NoRuntime)?;
    let bw_bytes_per_s = match (d.bw_bytes, d.bw) {
        (Some(b), _) => b,
        (None, Some(kib)) => kib * 1024.0,
        (None, None) => return Err(RowError::NoBandwidth),
    };
    // fio#519: `iops` is total I/Os over runtime; `iops_mean` is the mean
    // of per-interval samples and differs with numjobs. Use the former.
    let iops = match (d.iops, d.total_ios) {
        (Some(i), _) => i,
        (None, Some(n)) if runtime_ms > 0.0 => n * 1000.0 / runtime_ms,
        _ => return Err(RowError::NoIops),
    };
    let (slat, clat, lat, scale) = if v3 {
        (&d.slat_ns, &d.clat_ns, &d.lat_ns, 1.0)
    } else {
        (&d.slat, &d.clat, &d.lat, 1000.0)
    };
    let latency = |l: &Option<Box<Lat>>| {
        l.as_ref()
            .filter(|l| has_samples(l))
            .map_or_else(Latency::default, |l| Latency {
                mean: l.mean.map(|v| v * scale),
                stddev: l.stddev.map(|v| v * scale),
                min: l.min.map(|v| v * scale),
                max: l.max.map(|v| v * scale),
            })
    };
    let percentiles = |l: &Option<Box<Lat>>| -> Vec<(f64, f64)> {
        l.as_ref()
            .and_then(|l| l.percentile.as_ref())
            .map_or_else(Vec::new, |p| {
                p.0.iter().map(|&(k, v)| (k, v * scale)).collect()
            })
    };
    let mut f = DirectionFigures {
        runtime_ms,
        io_bytes: io_bytes as u64,
        bw_bytes_per_s,
        iops,
        slat: latency(slat),
        clat: latency(clat),
        lat: latency(lat),
        clat_percentiles: percentiles(clat),
        lat_percentiles: percentiles(lat),
        ..DirectionFigures::default()
    };
    (f.iops_samples, f.bw_samples) = samples(d);
    Ok((f, clat.as_deref()))
}

/// IOPS and bandwidth samples (bytes/s). With zero samples fio prints
/// zeros, not unknowns.
fn samples(d: &Ddir) -> (Samples, Samples) {
    let mut iops = Samples::default();
    if d.iops_samples.is_some_and(|n| n > 0.0) {
        iops = Samples {
            n: d.iops_samples.map(|n| n as u64),
            mean: d.iops_mean,
            stddev: d.iops_stddev,
        };
    }
    let mut bw = Samples::default();
    let bw_known = d
        .bw_samples
        .map_or(d.bw_mean.unwrap_or(0.0) > 0.0, |n| n > 0.0);
    if bw_known {
        bw = Samples {
            n: d.bw_samples.map(|n| n as u64),
            mean: d.bw_mean.map(|v| v * 1024.0),
            stddev: d.bw_dev.map(|v| v * 1024.0),
        };
    }
    (iops, bw)
}

/// 3.x counts samples in `N`; 2.x has no `N`, and reports zeros when a
/// latency was not measured (e.g. slat of a synchronous engine).
fn has_samples(l: &Lat) -> bool {
    match l.n {
        Some(n) => n > 0.0,
        None => l.mean.unwrap_or(0.0) > 0.0 || l.max.unwrap_or(0.0) > 0.0,
    }
}

/// Contract: only finite, non-negative numbers enter the dataset.
fn check_finite(row: &Row) -> Result<(), RowError> {
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
        Some((column, Some(value))) => Err(RowError::NotFinite { column, value }),
        _ => Ok(()),
    }
}

/// A document's rows, keyed by its jobs: `--status-interval` snapshots
/// repeat the same jobs. A run whose every job failed (and moved no
/// bytes) is an error that says so; a failed job beside others keeps its
/// rows, with `error` set (docs/CONTRACT.md).
fn keyed_rows(doc: &FioOutput<'_>) -> Result<Parsed, ReadError> {
    let mut parsed = to_parsed(doc);
    let jobs: Vec<&Job<'_>> = doc
        .all_jobs()
        .filter(|j| j.jobname.as_deref() != Some(AGGREGATE_NAME))
        .collect();
    if !jobs.is_empty() && jobs.iter().all(|j| j.failed()) {
        let mut codes: Vec<String> = Vec::new();
        for j in doc.all_jobs().filter(|j| j.failed()) {
            let e = fio_error::describe(j.error.unwrap_or(0.0) as i64);
            if !codes.contains(&e) {
                codes.push(e);
            }
        }
        return Err(ReadError::EveryJobFailed(codes.join("; ")));
    }
    parsed.run = Some(job_set(doc));
    Ok(parsed)
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

    fn read_segment(&self, text: &str) -> Result<Parsed, ReadError> {
        keyed_rows(&parse(text)?)
    }

    /// The document at the start of `text`, read directly where it can be
    /// (exactly as serde_json reads it, [`direct`]), by serde_json's stream
    /// reader otherwise; both stop at its closing brace and say where that
    /// is. Anything short of a fio document is left to `read_segment`, so
    /// its errors stay those of the cut segment.
    fn read_leading(&self, text: &str) -> Option<(Parsed, usize)> {
        let (doc, end) = direct::leading(text).or_else(|| {
            let mut stream = serde_json::Deserializer::from_str(text).into_iter::<FioOutput>();
            let doc = stream.next()?.ok()?;
            Some((doc, stream.byte_offset()))
        })?;
        if doc.jobs.is_none() && doc.client_stats.is_none() {
            return None;
        }
        Some((keyed_rows(&doc).ok()?, end))
    }
}

#[cfg(test)]
mod tests;
