//! Runs one job with a native engine on every target at once: opens the
//! targets, starts `numjobs` worker threads per target (pinned where the
//! placement says), reports progress, merges each target's threads
//! (group_reporting) into its own result and takes the process and system
//! CPU around them. A target whose I/O fails stops its own threads only.

use std::fs::{File, OpenOptions};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::LocalTarget;
use super::engines::sys::{self, Usage};
use super::engines::{EngineKind, EngineOptions};
use super::host::{CpuTimes, HostFacts};
use super::iolog::{LogOptions, LogWriteError, ThreadLog};
use super::output::JobResult;
use super::precondition;
use super::spec::JobSpec;
use super::worker::{self, WorkerCfg, WorkerResult};
use super::{Progress, RunError, TargetError};

/// What every native job of a run shares.
pub struct Native<'a> {
    pub engine: EngineKind,
    pub opts: EngineOptions,
    /// The checked targets, each with its placement (for the null engine,
    /// names only).
    pub targets: &'a [LocalTarget],
    pub host: &'a HostFacts,
    /// `run --log`: the folder the threads' logs go to while the job runs.
    pub log: Option<(&'a Path, LogOptions)>,
    /// What `--precondition` did before the matrix, recorded in results.
    pub precondition: Option<&'a precondition::PreconditionReport>,
}

/// Opens the target the way the job needs it: the scratch file through
/// the descriptor nvcmp created it with ([`sys::reopen_path`]), any other
/// target by its path.
fn open(t: &LocalTarget, path: &Path, spec: &JobSpec) -> Result<File, TargetError> {
    let by = t.scratch.as_deref().and_then(sys::reopen_path);
    let opened = by.as_deref().unwrap_or(path);
    let mut o = OpenOptions::new();
    o.read(true).write(spec.rw.writes());
    if spec.direct {
        sys::direct(&mut o).map_err(|error| TargetError::Open {
            path: path.to_path_buf(),
            error,
        })?;
    }
    o.open(opened).map_err(|error| {
        let path = path.to_path_buf();
        if spec.direct && sys::no_direct_io(&error) {
            TargetError::NoDirectIo { path }
        } else {
            TargetError::Open { path, error }
        }
    })
}

/// Usable bytes of an opened target (a device's too, whose metadata says 0).
fn target_len(f: &File) -> u64 {
    sys::target_len(f)
}

/// One target opened for a job: the file (None for the null engine) and
/// the bytes the job may touch.
struct Opened<'a> {
    target: &'a LocalTarget,
    file: Option<Arc<File>>,
    region: u64,
}

/// What the job's threads measured, per target, and what the process and
/// the machine spent meanwhile.
struct JobMeasured {
    /// The threads of target `i` in `workers[i]`.
    workers: Vec<Vec<WorkerResult>>,
    /// Unix time the job started, ms.
    started_ms: u64,
    /// Wall time, ns.
    wall_ns: u64,
    usage: Usage,
    system_cpu_pct: Option<f64>,
}

impl Native<'_> {
    /// Runs `spec` on every target and returns one result per target;
    /// `spec_hash` also seeds the offsets, so a rerun of the same job does
    /// the same I/O.
    pub fn run_job(
        &self,
        spec: &JobSpec,
        spec_hash: &str,
        progress: &dyn Progress,
    ) -> Result<Vec<JobResult>, RunError> {
        let opened = self.open_all(spec)?;
        let logs = self.thread_logs(spec)?;
        let seed = u64::from_str_radix(spec_hash, 16).unwrap_or(0x9e37_79b9_7f4a_7c15);
        let m = self.measure(spec, &opened, seed, logs, progress);
        if sys::interrupted() {
            return Err(RunError::Interrupted);
        }
        let log_error = m.workers.iter().flatten().find_map(|w| w.log_error.clone());
        if let Some(e) = log_error {
            return Err(e.into());
        }
        Ok(self.results(spec, spec_hash, &opened, m))
    }

    /// Every target opened and sized, before any thread starts.
    fn open_all(&self, spec: &JobSpec) -> Result<Vec<Opened<'_>>, RunError> {
        self.targets
            .iter()
            .map(|t| {
                let file = match (self.engine, &t.path, t.kind) {
                    (EngineKind::Null, _, _) | (_, None, _) | (_, _, None) => None,
                    (_, Some(p), Some(_)) => Some(Arc::new(open(t, p, spec)?)),
                };
                if let Some(f) = &file {
                    sys::drop_cache(f);
                }
                let region = region(t, file.as_deref(), spec)?;
                Ok(Opened {
                    target: t,
                    file,
                    region,
                })
            })
            .collect()
    }

    /// One set of log files per thread, numbered `.1` on across all
    /// targets as fio numbers the threads of all its jobs; created before
    /// any I/O so a folder that cannot take them fails the job at once.
    fn thread_logs(&self, spec: &JobSpec) -> Result<Vec<ThreadLog>, LogWriteError> {
        let Some((dir, opts)) = self.log else {
            return Ok(Vec::new());
        };
        let threads = spec.numjobs * self.targets.len().max(1) as u32;
        (1..=threads)
            .map(|i| ThreadLog::create(dir, &spec.name, i, opts))
            .collect()
    }

    /// Runs the worker threads of every target, with the CPU taken around
    /// them.
    fn measure(
        &self,
        spec: &JobSpec,
        opened: &[Opened],
        seed: u64,
        logs: Vec<ThreadLog>,
        progress: &dyn Progress,
    ) -> JobMeasured {
        let spec_arc = Arc::new(spec.clone());
        let mut logs = logs.into_iter();
        let live = Arc::new(AtomicU64::new(0));
        let mut n = 0u64;
        // Per target: its threads' configurations, sharing one abort flag,
        // so a failing device stops only its own threads.
        let cfgs: Vec<Vec<WorkerCfg>> = opened
            .iter()
            .map(|o| {
                let abort = Arc::new(AtomicBool::new(false));
                (0..spec.numjobs)
                    .map(|_| {
                        n += 1;
                        WorkerCfg {
                            spec: spec_arc.clone(),
                            engine: self.engine,
                            opts: self.opts,
                            file: o.file.clone(),
                            region: o.region,
                            seed: seed ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                            live_ios: live.clone(),
                            abort: abort.clone(),
                            log: logs.next(),
                            cpus: o.target.placement.cpus.clone(),
                        }
                    })
                    .collect()
            })
            .collect();
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
        let workers = run_threads(&spec.name, cfgs, &live, t0, progress);
        let wall_ns = t0.elapsed().as_nanos() as u64;
        let usage = Usage::now().since(&use0);
        let system_cpu_pct = match (cpu0, CpuTimes::now()) {
            (Some(a), Some(b)) => b.busy_pct_since(&a),
            _ => None,
        };
        progress.finish();
        JobMeasured {
            workers,
            started_ms,
            wall_ns,
            usage,
            system_cpu_pct,
        }
    }

    /// One result per target: its threads merged as fio's group_reporting
    /// does. The process CPU is the whole job's, shared out by the
    /// targets' I/O counts, so the results' CPU adds up to what was spent.
    fn results(
        &self,
        spec: &JobSpec,
        spec_hash: &str,
        opened: &[Opened],
        m: JobMeasured,
    ) -> Vec<JobResult> {
        let ios: Vec<u64> = m
            .workers
            .iter()
            .map(|ws| {
                ws.iter()
                    .map(|w| w.dirs[0].total_ios + w.dirs[1].total_ios)
                    .sum()
            })
            .collect();
        let all: u64 = ios.iter().sum();
        let share = |i: usize| match all {
            0 => 1.0 / opened.len().max(1) as f64,
            _ => ios[i] as f64 / all as f64,
        };
        opened
            .iter()
            .zip(&m.workers)
            .enumerate()
            .map(|(i, (o, threads))| {
                let mut r = JobResult {
                    spec: spec.clone(),
                    engine: self.engine.name().to_string(),
                    opts: self.opts,
                    dirs: Default::default(),
                    runtime_ns: [0; 2],
                    dist: Default::default(),
                    bw_samples: Default::default(),
                    iops_samples: Default::default(),
                    usage: m.usage.scaled(share(i)),
                    wall_ns: m.wall_ns,
                    system_cpu_pct: m.system_cpu_pct,
                    error: 0,
                    error_msg: None,
                    host: self.host.clone(),
                    target: o.target.name(),
                    target_kind: o.target.kind,
                    placement: o.target.placement.clone(),
                    precondition: self.precondition.cloned(),
                    spec_hash: spec_hash.to_string(),
                    started_ms: m.started_ms,
                    log: self.log.map(|(_, o)| o),
                };
                for w in threads {
                    merge(&mut r, w);
                }
                r
            })
            .collect()
    }
}

/// Bytes the job may touch on `t`: its size, within the target, in whole
/// blocks.
fn region(t: &LocalTarget, file: Option<&File>, spec: &JobSpec) -> Result<u64, TargetError> {
    let len = file.map_or(spec.size, |f| target_len(f).min(spec.size));
    let region = len - len % spec.bs;
    if region < spec.bs {
        return Err(TargetError::TooSmall {
            path: file.and(t.path.clone()),
            bs: spec.bs,
        });
    }
    Ok(region)
}

/// Starts every target's threads and moves the progress bar on with their
/// live IOPS until all are done; returns each target's thread results.
fn run_threads(
    name: &str,
    cfgs: Vec<Vec<WorkerCfg>>,
    live: &AtomicU64,
    t0: Instant,
    progress: &dyn Progress,
) -> Vec<Vec<WorkerResult>> {
    std::thread::scope(|s| {
        let mut thread_no = 0;
        let handles: Vec<Vec<_>> = cfgs
            .into_iter()
            .map(|target| {
                target
                    .into_iter()
                    .map(|cfg| {
                        thread_no += 1;
                        std::thread::Builder::new()
                            .name(format!("{name}.{thread_no}"))
                            .spawn_scoped(s, move || worker::run(cfg))
                            .expect("spawn worker thread")
                    })
                    .collect()
            })
            .collect();
        let mut last = (Instant::now(), 0u64);
        while !handles.iter().flatten().all(|h| h.is_finished()) {
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
            .map(|hs| {
                hs.into_iter()
                    .map(|h| h.join().unwrap_or_default())
                    .collect()
            })
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

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The scratch file is opened through the descriptor it was made with:
    /// a file swapped in under its name meanwhile is never measured.
    #[test]
    fn the_scratch_file_is_opened_through_its_first_descriptor() {
        use std::io::{Read, Write};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("scratch.dat");
        let mut made = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .unwrap();
        made.write_all(b"ours").unwrap();
        std::fs::rename(&path, dir.path().join("moved")).unwrap();
        std::fs::write(&path, b"planted").unwrap();
        let t = LocalTarget {
            path: Some(path.clone()),
            kind: Some(super::super::safety::TargetKind::Scratch),
            placement: super::super::placement::Placement::default(),
            scratch: Some(Arc::new(made)),
        };
        let spec = JobSpec {
            direct: false,
            ..super::super::spec::tests::job()
        };
        let mut text = String::new();
        open(&t, &path, &spec)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "ours");
    }
}
