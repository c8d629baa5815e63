//! Runs one job with a native engine: opens the target, starts `numjobs`
//! worker threads, reports progress, merges their measurements
//! (group_reporting) and takes the process and system CPU around them.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::engines::sys::{self, Usage};
use super::engines::{EngineKind, EngineOptions};
use super::host::{CpuTimes, HostFacts};
use super::iolog::{LogError, LogOptions, ThreadLog};
use super::output::JobResult;
use super::safety::TargetKind;
use super::spec::JobSpec;
use super::worker::{self, WorkerCfg, WorkerResult};
use super::{Progress, RunError, TargetError};

/// What every native job of a run shares.
pub struct Native<'a> {
    pub engine: EngineKind,
    pub opts: EngineOptions,
    /// The checked target and its kind; None for the null engine.
    pub target: Option<(&'a Path, TargetKind)>,
    pub host: &'a HostFacts,
    /// `run --log`: the folder the threads' logs go to while the job runs.
    pub log: Option<(&'a Path, LogOptions)>,
}

/// Opens the target the way the job needs it.
fn open(path: &Path, spec: &JobSpec) -> Result<File, TargetError> {
    let mut o = OpenOptions::new();
    o.read(true).write(spec.rw.writes());
    if spec.direct {
        o.custom_flags(libc::O_DIRECT);
    }
    o.open(path).map_err(|error| {
        let path = path.to_path_buf();
        if spec.direct && error.raw_os_error() == Some(libc::EINVAL) {
            TargetError::NoDirectIo { path }
        } else {
            TargetError::Open { path, error }
        }
    })
}

/// Usable bytes of an opened target.
fn target_len(f: &File) -> u64 {
    use std::io::{Seek, SeekFrom};
    // A block device reports 0 in metadata; seeking to the end works for both.
    let mut f = f;
    f.seek(SeekFrom::End(0)).unwrap_or(0)
}

/// What the job's threads measured, and what the process and the machine
/// spent meanwhile.
struct Measured {
    workers: Vec<WorkerResult>,
    /// Unix time the job started, ms.
    started_ms: u64,
    /// Wall time, ns.
    wall_ns: u64,
    usage: Usage,
    system_cpu_pct: Option<f64>,
}

impl Native<'_> {
    /// Runs `spec` and returns its result; `spec_hash` also seeds the
    /// offsets, so a rerun of the same job does the same I/O.
    pub fn run_job(
        &self,
        spec: &JobSpec,
        spec_hash: &str,
        progress: &dyn Progress,
    ) -> Result<JobResult, RunError> {
        let file = self.open(spec)?;
        let region = self.region(file.as_deref(), spec)?;
        if let Some(f) = &file {
            sys::drop_cache(f);
        }
        let logs = self.thread_logs(spec)?;
        let seed = u64::from_str_radix(spec_hash, 16).unwrap_or(0x9e37_79b9_7f4a_7c15);
        let m = self.measure(spec, file, region, seed, logs, progress);
        if sys::interrupted() {
            return Err(RunError::Interrupted);
        }
        if let Some(e) = m.workers.iter().find_map(|w| w.log_error.clone()) {
            return Err(e.into());
        }
        Ok(self.result(spec, spec_hash, m))
    }

    /// One set of log files per thread (`.1` to `.numjobs`, as fio numbers
    /// its clones) when the run logs; created before any I/O so a folder
    /// that cannot take them fails the job at once.
    fn thread_logs(&self, spec: &JobSpec) -> Result<Vec<ThreadLog>, LogError> {
        let Some((dir, opts)) = self.log else {
            return Ok(Vec::new());
        };
        (1..=spec.numjobs)
            .map(|i| ThreadLog::create(dir, &spec.name, i, opts))
            .collect()
    }

    /// The opened target (None for the null engine, which has none).
    fn open(&self, spec: &JobSpec) -> Result<Option<Arc<File>>, RunError> {
        match (self.engine, self.target) {
            (EngineKind::Null, _) | (_, None) => Ok(None),
            (_, Some((p, _))) => Ok(Some(Arc::new(open(p, spec)?))),
        }
    }

    /// Bytes the job may touch: its size, within the target, in whole
    /// blocks.
    fn region(&self, file: Option<&File>, spec: &JobSpec) -> Result<u64, TargetError> {
        let len = file.map_or(spec.size, |f| target_len(f).min(spec.size));
        let region = len - len % spec.bs;
        if region < spec.bs {
            return Err(TargetError::TooSmall {
                path: self.target.map(|(p, _)| p.to_path_buf()),
                bs: spec.bs,
            });
        }
        Ok(region)
    }

    /// Runs the worker threads, with the CPU taken around them.
    fn measure(
        &self,
        spec: &JobSpec,
        file: Option<Arc<File>>,
        region: u64,
        seed: u64,
        logs: Vec<ThreadLog>,
        progress: &dyn Progress,
    ) -> Measured {
        let spec_arc = Arc::new(spec.clone());
        let mut logs = logs.into_iter();
        let cfg = |i: u32, live: &Arc<AtomicU64>, abort: &Arc<AtomicBool>| WorkerCfg {
            spec: spec_arc.clone(),
            engine: self.engine,
            opts: self.opts,
            file: file.clone(),
            region,
            seed: seed ^ (u64::from(i) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            live_ios: live.clone(),
            abort: abort.clone(),
            log: logs.next(),
        };
        let started_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        progress.start(
            &spec.name,
            Duration::from_secs(spec.runtime_s + spec.ramp_s),
        );
        let cpu0 = CpuTimes::now();
        let use0 = Usage::now();
        let t0 = Instant::now();
        let workers = run_threads(spec, cfg, t0, progress);
        let wall_ns = t0.elapsed().as_nanos() as u64;
        let usage = Usage::now().since(&use0);
        let system_cpu_pct = match (cpu0, CpuTimes::now()) {
            (Some(a), Some(b)) => b.busy_pct_since(&a),
            _ => None,
        };
        progress.finish();
        Measured {
            workers,
            started_ms,
            wall_ns,
            usage,
            system_cpu_pct,
        }
    }

    /// The job's result: the threads merged as fio's group_reporting does.
    fn result(&self, spec: &JobSpec, spec_hash: &str, m: Measured) -> JobResult {
        let mut r = JobResult {
            spec: spec.clone(),
            engine: self.engine.name().to_string(),
            opts: self.opts,
            dirs: Default::default(),
            runtime_ns: [0; 2],
            dist: Default::default(),
            bw_samples: Default::default(),
            iops_samples: Default::default(),
            usage: m.usage,
            wall_ns: m.wall_ns,
            system_cpu_pct: m.system_cpu_pct,
            error: 0,
            error_msg: None,
            host: self.host.clone(),
            target: self
                .target
                .map_or("(null)".into(), |(p, _)| p.display().to_string()),
            target_kind: self.target.map(|(_, k)| k),
            spec_hash: spec_hash.to_string(),
            started_ms: m.started_ms,
            log: self.log.map(|(_, o)| o),
        };
        for w in &m.workers {
            merge(&mut r, w);
        }
        r
    }
}

/// Starts `numjobs` threads (thread `i` gets `cfg(i, ...)`) and moves the
/// progress bar on with their live IOPS until all are done.
fn run_threads(
    spec: &JobSpec,
    mut cfg: impl FnMut(u32, &Arc<AtomicU64>, &Arc<AtomicBool>) -> WorkerCfg,
    t0: Instant,
    progress: &dyn Progress,
) -> Vec<WorkerResult> {
    let live = Arc::new(AtomicU64::new(0));
    let abort = Arc::new(AtomicBool::new(false));
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..spec.numjobs)
            .map(|i| {
                let cfg = cfg(i, &live, &abort);
                std::thread::Builder::new()
                    .name(format!("{}.{i}", spec.name))
                    .spawn_scoped(s, move || worker::run(cfg))
                    .expect("spawn worker thread")
            })
            .collect();
        let mut last = (Instant::now(), 0u64);
        while !handles.iter().all(|h| h.is_finished()) {
            std::thread::sleep(Duration::from_millis(100));
            let (t, n) = (Instant::now(), live.load(Ordering::Relaxed));
            let dt = t.duration_since(last.0).as_secs_f64();
            if dt >= 0.5 {
                progress.tick(t0.elapsed(), Some((n - last.1) as f64 / dt));
                last = (t, n);
            }
        }
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// Adds one thread's measurements to the job's (fio's group_reporting:
/// sums, and the longest runtime per direction); keeps the first error.
fn merge(r: &mut JobResult, w: &WorkerResult) {
    for k in 0..2 {
        r.dirs[k].merge(&w.dirs[k]);
        let (bw, iops) = w.dirs[k].samples();
        r.bw_samples[k].pure_sum(&bw);
        r.iops_samples[k].pure_sum(&iops);
        if w.dirs[k].total_ios > 0 {
            r.runtime_ns[k] = r.runtime_ns[k].max(w.runtime_ns);
        }
    }
    r.dist.merge(&w.dist);
    if r.error == 0 && w.error != 0 {
        r.error = w.error;
        r.error_msg = w.error_msg.clone();
    }
}
