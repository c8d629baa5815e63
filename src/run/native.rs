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
use super::output::JobResult;
use super::spec::JobSpec;
use super::worker::{self, WorkerCfg, WorkerResult};
use super::{Progress, RunError};

/// Opens the target the way the job needs it.
fn open(path: &Path, spec: &JobSpec) -> Result<File, RunError> {
    let mut o = OpenOptions::new();
    o.read(true).write(spec.rw.writes());
    if spec.direct {
        o.custom_flags(libc::O_DIRECT);
    }
    o.open(path).map_err(|e| {
        if spec.direct && e.raw_os_error() == Some(libc::EINVAL) {
            RunError::Target(format!(
                "{}: the filesystem does not support O_DIRECT (tmpfs?); pass --buffered",
                path.display()
            ))
        } else {
            RunError::Target(format!("{}: cannot open: {e}", path.display()))
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

/// Runs `spec` on `target` (None for the null engine).
#[allow(clippy::too_many_arguments)]
pub fn run_job(
    spec: &JobSpec,
    engine: EngineKind,
    opts: EngineOptions,
    target: Option<&Path>,
    target_kind: &str,
    spec_hash: &str,
    host: &HostFacts,
    progress: &dyn Progress,
) -> Result<JobResult, RunError> {
    let file = match (engine, target) {
        (EngineKind::Null, _) | (_, None) => None,
        (_, Some(p)) => Some(Arc::new(open(p, spec)?)),
    };
    let region = match &file {
        Some(f) => {
            let len = target_len(f).min(spec.size);
            len - len % spec.bs
        }
        None => spec.size - spec.size % spec.bs,
    };
    if region < spec.bs {
        return Err(RunError::Target(format!(
            "{}: the target holds less than one block of {} bytes",
            target.map_or("-".into(), |p| p.display().to_string()),
            spec.bs
        )));
    }
    if let Some(f) = &file {
        sys::drop_cache(f);
    }
    let spec_arc = Arc::new(spec.clone());
    let live = Arc::new(AtomicU64::new(0));
    let abort = Arc::new(AtomicBool::new(false));
    let started_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let total = Duration::from_secs(spec.runtime_s + spec.ramp_s);
    progress.start(&spec.name, total);
    let cpu0 = CpuTimes::now();
    let use0 = Usage::now();
    let t0 = Instant::now();
    let seed = u64::from_str_radix(spec_hash, 16).unwrap_or(0x9e37_79b9_7f4a_7c15);

    let results: Vec<WorkerResult> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..spec.numjobs)
            .map(|i| {
                let cfg = WorkerCfg {
                    spec: spec_arc.clone(),
                    engine,
                    opts,
                    file: file.clone(),
                    region,
                    seed: seed ^ (u64::from(i) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                    live_ios: live.clone(),
                    abort: abort.clone(),
                };
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
    });

    let wall_ns = t0.elapsed().as_nanos() as u64;
    let usage = Usage::now().since(&use0);
    let system_cpu_pct = match (cpu0, CpuTimes::now()) {
        (Some(a), Some(b)) => b.busy_pct_since(&a),
        _ => None,
    };
    progress.finish();
    if sys::interrupted() {
        return Err(RunError::Interrupted);
    }
    let mut r = JobResult {
        spec: spec.clone(),
        engine: engine.name().to_string(),
        opts,
        dirs: Default::default(),
        runtime_ns: [0; 2],
        dist: Default::default(),
        bw_samples: Default::default(),
        iops_samples: Default::default(),
        usage,
        wall_ns,
        system_cpu_pct,
        error: 0,
        error_msg: None,
        host: host.clone(),
        target: target.map_or("(null)".into(), |p| p.display().to_string()),
        target_kind: target_kind.to_string(),
        spec_hash: spec_hash.to_string(),
        started_ms,
    };
    for w in &results {
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
    Ok(r)
}
