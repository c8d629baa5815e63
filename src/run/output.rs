//! Writes a measured job as fio 3.x's JSON writer (`show_thread_status_json`
//! in stat.c) would, json+ `bins` included, so `nvcmp ingest`, fio-plot and
//! other fio tools read it; marks it as nvcmp's (`"fio version":
//! "nvcmp-X"`, an `nvcmp` key with the spec hash, engine options and host
//! facts). Files are written to a temporary name and renamed, so an
//! interrupted run never leaves a partial file.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::engines::EngineOptions;
use super::engines::sys::Usage;
use super::host::HostFacts;
use super::iolog::LogOptions;
use super::placement::Placement;
use super::precondition;
use super::safety::TargetKind;
use super::spec::JobSpec;
use super::stats::{DEFAULT_PERCENTILES, DirectionStats, Stat};
use super::worker::Distributions;

/// Everything one result file holds.
#[derive(Debug, Clone)]
pub struct JobResult {
    pub spec: JobSpec,
    /// fio's name for the engine.
    pub engine: String,
    pub opts: EngineOptions,
    /// Read, write (group_reporting merge of all threads).
    pub dirs: [DirectionStats; 2],
    /// Measured time per direction, ns (the longest thread's).
    pub runtime_ns: [u64; 2],
    pub dist: Distributions,
    /// Per-direction bw (KiB/s) and iops interval samples, summed over
    /// threads the way fio's group_reporting does.
    pub bw_samples: [Stat; 2],
    pub iops_samples: [Stat; 2],
    /// CPU of the whole process during the job.
    pub usage: Usage,
    /// Wall time of the job, ramp included, ns.
    pub wall_ns: u64,
    pub system_cpu_pct: Option<f64>,
    pub error: i32,
    pub error_msg: Option<String>,
    pub host: HostFacts,
    pub target: String,
    /// None when there is no target (the null engine).
    pub target_kind: Option<TargetKind>,
    /// The CPUs the target's threads were pinned to, and why not.
    pub placement: Placement,
    /// What `--precondition` did before the matrix.
    pub precondition: Option<precondition::PreconditionReport>,
    pub spec_hash: String,
    /// Unix time the job started, ms (the report's `timestamp_ms` is
    /// this plus `wall_ns`: fio stamps its end).
    pub started_ms: u64,
    /// `run --log`: listed in the job options, as fio lists them, so
    /// ingest reads the logs as what they are (averaged or per I/O).
    pub log: Option<LogOptions>,
}

/// The version string nvcmp writes where fio writes `fio-3.33`.
pub fn version_string() -> String {
    format!("nvcmp-{}", env!("CARGO_PKG_VERSION"))
}

fn stat_json(s: &Stat) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("min".into(), json!(s.min));
    m.insert("max".into(), json!(s.max));
    m.insert("mean".into(), json!(s.mean));
    m.insert("stddev".into(), json!(s.stddev()));
    m.insert("N".into(), json!(s.n));
    m
}

fn dir_json(d: &DirectionStats, runtime_ns: u64, bw: &Stat, io: &Stat) -> Value {
    // fio works in whole milliseconds here and so do we, to stay comparable.
    let runt_ms = if d.total_ios == 0 {
        0
    } else {
        (runtime_ns / 1_000_000).max(1)
    };
    let bw_bytes = (1000 * d.io_bytes).checked_div(runt_ms).unwrap_or(0);
    let iops = if runt_ms == 0 {
        0.0
    } else {
        1000.0 * d.total_ios as f64 / runt_ms as f64
    };
    let mut clat = stat_json(&d.clat);
    if d.clat.n > 0 {
        let vals = d.clat_hist.percentiles(&DEFAULT_PERCENTILES);
        let mut p = Map::new();
        for (k, v) in DEFAULT_PERCENTILES.iter().zip(vals) {
            p.insert(format!("{k:.6}"), json!(v));
        }
        clat.insert("percentile".into(), Value::Object(p));
        let mut bins = Map::new();
        for (v, c) in d.clat_hist.bins() {
            bins.insert(v.to_string(), json!(c));
        }
        clat.insert("bins".into(), Value::Object(bins));
    }
    let mut m = Map::new();
    m.insert("io_bytes".into(), json!(d.io_bytes));
    m.insert("io_kbytes".into(), json!(d.io_bytes / 1024));
    m.insert("bw_bytes".into(), json!(bw_bytes));
    m.insert("bw".into(), json!(bw_bytes / 1024));
    m.insert("iops".into(), json!(iops));
    m.insert("runtime".into(), json!(runt_ms));
    m.insert("total_ios".into(), json!(d.total_ios));
    m.insert("short_ios".into(), json!(d.short_ios));
    m.insert("drop_ios".into(), json!(0));
    m.insert("slat_ns".into(), Value::Object(stat_json(&d.slat)));
    m.insert("clat_ns".into(), Value::Object(clat));
    m.insert("lat_ns".into(), Value::Object(stat_json(&d.lat)));
    m.insert("bw_min".into(), json!(bw.min));
    m.insert("bw_max".into(), json!(bw.max));
    // fio: the mean sample as a share of the group's aggregate bandwidth
    // (one job per group here), capped at 100.
    let agg_kib = bw_bytes as f64 / 1024.0;
    let p_of_agg = if bw.n > 0 && agg_kib > 0.0 {
        (bw.mean * 100.0 / agg_kib).min(100.0)
    } else {
        0.0
    };
    m.insert("bw_agg".into(), json!(p_of_agg));
    m.insert("bw_mean".into(), json!(bw.mean));
    m.insert("bw_dev".into(), json!(bw.stddev()));
    m.insert("bw_samples".into(), json!(bw.n));
    m.insert("iops_min".into(), json!(io.min));
    m.insert("iops_max".into(), json!(io.max));
    m.insert("iops_mean".into(), json!(io.mean));
    m.insert("iops_stddev".into(), json!(io.stddev()));
    m.insert("iops_samples".into(), json!(io.n));
    Value::Object(m)
}

fn pct_map(keys: &[&str], counts: &[u64], total: u64) -> Value {
    let mut m = Map::new();
    for (k, c) in keys.iter().zip(counts) {
        let v = if total == 0 {
            0.0
        } else {
            100.0 * *c as f64 / total as f64
        };
        m.insert((*k).to_string(), json!(v));
    }
    Value::Object(m)
}

/// The fio `job options` of a spec, as fio prints them (all strings).
pub fn job_options(spec: &JobSpec, engine: &str, target: &str) -> Map<String, Value> {
    let mut o = Map::new();
    let mut put = |k: &str, v: String| {
        o.insert(k.into(), Value::String(v));
    };
    put("name", spec.name.clone());
    put("filename", target.to_string());
    put("rw", spec.rw.to_string());
    put("bs", crate::units::format_bs(spec.bs));
    put("iodepth", spec.iodepth.to_string());
    if spec.iodepth_batch != 1 {
        put("iodepth_batch_submit", spec.iodepth_batch.to_string());
    }
    if spec.iodepth_batch_complete != 1 {
        put(
            "iodepth_batch_complete_max",
            spec.iodepth_batch_complete.to_string(),
        );
    }
    put("numjobs", spec.numjobs.to_string());
    put("ioengine", engine.to_string());
    put("direct", (spec.direct as u8).to_string());
    put("size", crate::units::format_bs(spec.size));
    if spec.runtime_s > 0 {
        put("runtime", spec.runtime_s.to_string());
    }
    if spec.ramp_s > 0 {
        put("ramp_time", spec.ramp_s.to_string());
    }
    if spec.time_based {
        put("time_based", "1".into());
    }
    if matches!(
        spec.rw,
        super::spec::HarnessRw::ReadWrite | super::spec::HarnessRw::RandRw
    ) {
        put("rwmixread", spec.rwmixread.to_string());
    }
    if spec.numjobs > 1 {
        put("group_reporting", "1".into());
    }
    o
}

/// fio's bucket names of `iodepth_level`.
const DEPTH_KEYS: [&str; 7] = ["1", "2", "4", "8", "16", "32", ">=64"];
/// fio's bucket names of `iodepth_submit` and `iodepth_complete`.
const BATCH_KEYS: [&str; 7] = ["0", "4", "8", "16", "32", "64", ">=64"];
/// fio's bucket names of `latency_ns` and `latency_us`.
const LAT_KEYS: [&str; 10] = [
    "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
];
/// fio's bucket names of `latency_ms`.
const LAT_MS_KEYS: [&str; 12] = [
    "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000",
];

/// The whole JSON document of one workload: a job per target, each its
/// own group (fio's `new_group`), as fio writes a job file with a section
/// per target. `results` is never empty.
pub fn to_json(results: &[JobResult]) -> Value {
    let r = &results[0];
    let mut global = Map::new();
    global.insert("ioengine".into(), json!(r.engine));
    global.insert("direct".into(), json!((r.spec.direct as u8).to_string()));
    // fio stamps its report when it writes it, at the end of the run
    // (stat.c); ingest takes the stamp as the end of the run window, so
    // runs one after another never look as if they ran together.
    let ended_ms = r.started_ms + r.wall_ns / 1_000_000;
    let secs = ended_ms / 1000;
    json!({
        "fio version": version_string(),
        "timestamp": secs,
        "timestamp_ms": ended_ms,
        "time": ctime(secs),
        "global options": global,
        "jobs": results
            .iter()
            .enumerate()
            .map(|(group, r)| Value::Object(job_json(r, group)))
            .collect::<Vec<_>>(),
        "disk_util": [],
    })
}

/// The one entry of `jobs`, in fio's key order.
fn job_json(r: &JobResult, group: usize) -> Map<String, Value> {
    let mut job = Map::new();
    job.insert("jobname".into(), json!(r.spec.name));
    job.insert("groupid".into(), json!(group));
    job.insert("error".into(), json!(r.error));
    job.insert("eta".into(), json!(0));
    job.insert("elapsed".into(), json!(r.wall_ns.div_ceil(1_000_000_000)));
    let mut options = job_options(&r.spec, &r.engine, &r.target);
    if let Some(cpus) = &r.placement.cpus {
        options.insert("cpus_allowed".into(), Value::String(cpus.to_string()));
    }
    for (k, v) in r.log.iter().flat_map(|l| l.fio_options(&r.spec.name)) {
        options.insert(k.into(), Value::String(v));
    }
    job.insert("job options".into(), Value::Object(options));
    // Direction i of the result: 0 is read, 1 is write.
    for (i, name) in ["read", "write"].into_iter().enumerate() {
        let d = dir_json(
            &r.dirs[i],
            r.runtime_ns[i],
            &r.bw_samples[i],
            &r.iops_samples[i],
        );
        job.insert(name.into(), d);
    }
    let none = Stat::default();
    job.insert(
        "trim".into(),
        dir_json(&DirectionStats::default(), 0, &none, &none),
    );
    job.insert(
        "sync".into(),
        json!({"total_ios": 0, "lat_ns": stat_json(&Stat::default())}),
    );
    job.insert(
        "job_runtime".into(),
        json!(r.runtime_ns.iter().max().copied().unwrap_or(0) / 1_000_000),
    );
    cpu_json(r, &mut job);
    dist_json(r, &mut job);
    job.insert("latency_depth".into(), json!(r.spec.iodepth));
    job.insert("latency_target".into(), json!(0));
    job.insert("latency_percentile".into(), json!(100.0));
    job.insert("latency_window".into(), json!(0));
    job.insert("system_cpu_pct".into(), json!(r.system_cpu_pct));
    job.insert("nvcmp".into(), nvcmp_json(r));
    job
}

/// `usr_cpu` .. `minf`: the process's CPU as a share of the wall time.
fn cpu_json(r: &JobResult, job: &mut Map<String, Value>) {
    let wall_ms = (r.wall_ns / 1_000_000).max(1) as f64;
    let usr = 100.0 * r.usage.user_ns as f64 / 1e6 / wall_ms;
    let sys = 100.0 * r.usage.sys_ns as f64 / 1e6 / wall_ms;
    job.insert("usr_cpu".into(), json!(usr));
    job.insert("sys_cpu".into(), json!(sys));
    job.insert("ctx".into(), json!(r.usage.ctx));
    job.insert("majf".into(), json!(r.usage.majf));
    job.insert("minf".into(), json!(r.usage.minf));
}

/// `iodepth_level` .. `latency_ms`: each distribution in percent.
fn dist_json(r: &JobResult, job: &mut Map<String, Value>) {
    let d = &r.dist;
    let total_ios = r.dirs[0].total_ios + r.dirs[1].total_ios;
    let sum = |c: &[u64]| c.iter().sum::<u64>();
    let maps = [
        (
            "iodepth_level",
            pct_map(&DEPTH_KEYS, &d.depth, sum(&d.depth)),
        ),
        (
            "iodepth_submit",
            pct_map(&BATCH_KEYS, &d.submit, sum(&d.submit)),
        ),
        (
            "iodepth_complete",
            pct_map(&BATCH_KEYS, &d.complete, sum(&d.complete)),
        ),
        ("latency_ns", pct_map(&LAT_KEYS, &d.lat_ns, total_ios)),
        ("latency_us", pct_map(&LAT_KEYS, &d.lat_us, total_ios)),
        ("latency_ms", pct_map(&LAT_MS_KEYS, &d.lat_ms, total_ios)),
    ];
    for (k, v) in maps {
        job.insert(k.into(), v);
    }
}

/// The `nvcmp` key: what fio's JSON does not carry.
fn nvcmp_json(r: &JobResult) -> Value {
    json!({
        "version": env!("CARGO_PKG_VERSION"),
        "spec_hash": r.spec_hash,
        "engine": r.engine,
        "engine_options": {
            "fixedbufs": r.opts.fixedbufs,
            "registerfiles": r.opts.registerfiles,
            "sqthread_poll": r.opts.sqpoll,
        },
        "target": r.target,
        "target_kind": r.target_kind.map_or("none", TargetKind::as_str),
        "placement": placement_json(&r.placement),
        "precondition": r.precondition,
        "cpu_seconds": (r.usage.user_ns + r.usage.sys_ns) as f64 / 1e9,
        "system_cpu_pct": r.system_cpu_pct,
        "error_message": r.error_msg,
        "host": r.host,
    })
}

/// Where the target's threads ran: the CPU list, the NUMA node it came
/// from, and why there is none.
pub fn placement_json(p: &Placement) -> Value {
    json!({
        "cpus_allowed": p.cpus.as_ref().map(ToString::to_string),
        "numa_node": p.numa_node,
        "note": p.note,
    })
}

/// `Wed Dec  2 14:26:54 2026`, in UTC (fio prints local time; the
/// timestamp fields are the exact values).
fn ctime(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (y, m, d) = crate::units::civil_from_days(days);
    const WD: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MO: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{} {} {:2} {:02}:{:02}:{:02} {}",
        WD[(days.rem_euclid(7)) as usize],
        MO[(m - 1) as usize],
        d,
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        y
    )
}

/// Writes `bytes` to `path` through a new temporary file with a random
/// name in the same folder and a rename ([`crate::atomic_file`]), so
/// readers see the old file or the whole new one, and a symlink planted
/// at the name is replaced, not written through.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    crate::atomic_file::write(path, bytes)
}

/// Writes the result file (a job per target) and its `<file>.nvcmp.toml`
/// sidecar (whole-system CPU for ingest's manifest reader).
pub fn write_result(path: &Path, results: &[JobResult]) -> std::io::Result<()> {
    let Some(r) = results.first() else {
        return Err(std::io::Error::other("no target was measured"));
    };
    let mut text = serde_json::to_vec_pretty(&to_json(results)).map_err(std::io::Error::other)?;
    text.push(b'\n');
    if let Some(pct) = r.system_cpu_pct {
        let side = sidecar_path(path);
        write_atomic(&side, format!("system_cpu_pct = {pct}\n").as_bytes())?;
    }
    write_atomic(path, &text)
}

/// `<file>.nvcmp.toml`.
pub fn sidecar_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".nvcmp.toml");
    PathBuf::from(s)
}

/// The spec hash stored in an existing result, if it is one of ours.
pub fn stored_spec_hash(path: &Path) -> Option<String> {
    let text = std::fs::read(path).ok()?;
    let v: Value = serde_json::from_slice(&text).ok()?;
    v.pointer("/jobs/0/nvcmp/spec_hash")
        .or_else(|| v.pointer("/nvcmp/spec_hash"))?
        .as_str()
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ctime_like_fio() {
        // fio 3.33 wrote timestamp 1796221614 as "Wed Dec  2 14:26:54 2026".
        assert_eq!(ctime(1_796_221_614), "Wed Dec  2 14:26:54 2026");
        assert_eq!(ctime(0), "Thu Jan  1 00:00:00 1970");
    }

    #[test]
    fn atomic_write_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.json");
        write_atomic(&p, b"{}").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"{}");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1);
    }
}
