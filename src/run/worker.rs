//! One job thread: keeps `iodepth` I/Os in flight through an engine,
//! stamps each one the way fio's io_u does (start when prepared, issue when
//! submitted, completion when reaped: slat = issue - start, clat =
//! completion - issue, lat = completion - start), skips the ramp, stops at
//! the runtime, the size or Ctrl-C, and drains what is in flight.

use std::fs::File;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::engines::{AlignedBuf, Completion, Dir, Engine, EngineKind, EngineOptions, IoUnit, sys};
use super::spec::JobSpec;
use super::stats::DirStats;

/// fio's `bwavgtime` / `iopsavgtime` default: one bw and iops sample every
/// 500 ms.
pub const SAMPLE_INTERVAL: Duration = Duration::from_millis(500);

/// What a worker thread needs; all of it is `Send`.
pub struct WorkerCfg {
    pub spec: Arc<JobSpec>,
    pub engine: EngineKind,
    pub opts: EngineOptions,
    /// The opened target (None for the null engine).
    pub file: Option<Arc<File>>,
    /// Bytes of the target the job may touch (a multiple of bs).
    pub region: u64,
    pub seed: u64,
    /// I/Os completed by all threads, for the progress bar.
    pub live_ios: Arc<AtomicU64>,
    /// Set by the first thread that fails, to stop the others.
    pub abort: Arc<AtomicBool>,
}

/// Counts fio reports as distributions (`iodepth_level`, `latency_ns`...).
#[derive(Debug, Clone, Default)]
pub struct Distributions {
    /// I/Os by queue depth at submission: 1, 2, 4, 8, 16, 32, >=64.
    pub depth: [u64; 7],
    /// Submit calls by I/Os submitted: 0, 4, 8, 16, 32, 64, >=64.
    pub submit: [u64; 7],
    /// Reap calls by I/Os completed, same buckets.
    pub complete: [u64; 7],
    /// Completion latencies under 1 us by fio's ns buckets.
    pub lat_ns: [u64; 10],
    pub lat_us: [u64; 10],
    pub lat_ms: [u64; 12],
}

impl Distributions {
    pub fn merge(&mut self, o: &Distributions) {
        fn add<const N: usize>(a: &mut [u64; N], b: &[u64; N]) {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
        add(&mut self.depth, &o.depth);
        add(&mut self.submit, &o.submit);
        add(&mut self.complete, &o.complete);
        add(&mut self.lat_ns, &o.lat_ns);
        add(&mut self.lat_us, &o.lat_us);
        add(&mut self.lat_ms, &o.lat_ms);
    }

    /// fio's `io_u_mark_depth`: a bucket is named by its lowest depth
    /// (`"16"` holds 16..=31).
    fn depth_idx(d: usize) -> usize {
        match d {
            0..=1 => 0,
            2..=3 => 1,
            4..=7 => 2,
            8..=15 => 3,
            16..=31 => 4,
            32..=63 => 5,
            _ => 6,
        }
    }

    /// fio's `io_u_mark_submit` / `io_u_mark_complete` buckets.
    fn batch_idx(n: usize) -> usize {
        match n {
            0 => 0,
            1..=4 => 1,
            5..=8 => 2,
            9..=16 => 3,
            17..=32 => 4,
            33..=64 => 5,
            _ => 6,
        }
    }

    /// fio's `io_u_mark_latency`: the bucket key is the exclusive upper
    /// bound (`"4"` holds 2 and 3).
    fn mark_latency(&mut self, ns: u64) {
        const EDGES: [u64; 11] = [2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000];
        let idx = |v: u64, n: usize| EDGES[..n].iter().filter(|&&e| v >= e).count();
        if ns < 1000 {
            self.lat_ns[idx(ns, 10)] += 1;
        } else if ns < 1_000_000 {
            self.lat_us[idx(ns / 1000, 10)] += 1;
        } else {
            self.lat_ms[idx(ns / 1_000_000, 11)] += 1;
        }
    }
}

/// What one thread measured.
#[derive(Debug, Clone, Default)]
pub struct WorkerResult {
    /// Read, write.
    pub dirs: [DirStats; 2],
    pub dist: Distributions,
    /// Measured time of each direction, ns (from the end of the ramp to the
    /// last completion).
    pub runtime_ns: u64,
    /// errno of the first failed I/O (0 when none).
    pub error: i32,
    pub error_msg: Option<String>,
}

/// A small, fast generator (xorshift64*) for offsets and the read/write
/// mix: fio uses its own tausworthe generator; the distribution is what
/// matters here, not the sequence.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// Hands what is queued to the engine and stamps the issue time of what
/// the kernel took; the rest stays queued in the engine for the next call.
fn submit(
    engine: &mut dyn Engine,
    queued: &mut Vec<usize>,
    issue_ns: &mut [u64],
    inflight: &mut usize,
    dist: &mut Distributions,
    now: impl Fn() -> u64,
) -> io::Result<()> {
    let n = engine.commit()?;
    let t = now();
    for &slot in &queued[..n] {
        issue_ns[slot] = t;
    }
    dist.submit[Distributions::batch_idx(n)] += 1;
    *inflight += n;
    // fio's io_u_mark_depth: the batch counts at the depth it brought the
    // queue to.
    dist.depth[Distributions::depth_idx(*inflight)] += n as u64;
    queued.drain(..n);
    Ok(())
}

/// Runs one thread of a job to its end.
pub fn run(cfg: WorkerCfg) -> WorkerResult {
    match run_inner(&cfg) {
        Ok(r) => r,
        Err(e) => {
            cfg.abort.store(true, Ordering::SeqCst);
            WorkerResult {
                error: e.raw_os_error().unwrap_or(libc::EIO),
                error_msg: Some(e.to_string()),
                ..WorkerResult::default()
            }
        }
    }
}

fn run_inner(cfg: &WorkerCfg) -> io::Result<WorkerResult> {
    let spec = &*cfg.spec;
    let bs = spec.bs as usize;
    let caps = cfg.engine.caps();
    let depth = if caps.sync { 1 } else { spec.iodepth as usize };
    // Declared before the engine so it is dropped after it: the kernel may
    // hold pointers into it until the engine's cleanup.
    let mut buf = AlignedBuf::new(depth, bs)?;
    let mut rng = Rng(cfg.seed | 1);
    if spec.rw.writes() {
        // Incompressible data, so a drive that compresses or dedups is not
        // flattered (fio's default `buffer_pattern`-less random refill).
        for chunk in buf.as_mut_slice().chunks_mut(8) {
            let v = rng.next().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
    let mut engine = cfg
        .engine
        .setup(cfg.file.as_deref(), depth as u32, &buf, cfg.opts)?;

    let blocks = (cfg.region / spec.bs).max(1);
    let read_pct = u64::from(spec.rw.read_pct(spec.rwmixread));
    let t0 = Instant::now();
    let ns = |t: Instant| t.duration_since(t0).as_nanos() as u64;
    let ramp_end = Duration::from_secs(spec.ramp_s).as_nanos() as u64;
    let end = ramp_end + Duration::from_secs(spec.runtime_s).as_nanos() as u64;
    let size_limit = if spec.time_based { u64::MAX } else { spec.size };

    let mut res = WorkerResult::default();
    let mut free: Vec<usize> = (0..depth).rev().collect();
    let mut start_ns = vec![0u64; depth];
    let mut issue_ns = vec![0u64; depth];
    let mut dir_of = vec![Dir::Read; depth];
    let mut queued: Vec<usize> = Vec::with_capacity(depth);
    let mut done: Vec<Completion> = Vec::with_capacity(depth);
    let mut inflight = 0usize;
    let mut seq_next = 0u64;
    let mut issued_bytes = 0u64;
    let mut measuring = ramp_end == 0;
    let mut mstart = 0u64;
    let mut last_sample = 0u64;
    let mut last_bytes = [0u64; 2];
    let mut last_ios = [0u64; 2];
    let mut last_done = 0u64;
    let interval = SAMPLE_INTERVAL.as_nanos() as u64;
    let mut stopping = false;
    let batch = (spec.iodepth_batch as usize).clamp(1, depth);
    let reap_max = (spec.iodepth_batch_complete as usize).clamp(1, depth);

    let outcome = (|| -> io::Result<()> {
        macro_rules! submit_queued {
            () => {
                submit(
                    &mut *engine,
                    &mut queued,
                    &mut issue_ns,
                    &mut inflight,
                    &mut res.dist,
                    || ns(Instant::now()),
                )?
            };
        }
        loop {
            let now = ns(Instant::now());
            if !measuring && now >= ramp_end {
                measuring = true;
                mstart = now;
                last_sample = now;
            }
            if now >= end || issued_bytes >= size_limit || sys::interrupted() {
                stopping = true;
            }
            if cfg.abort.load(Ordering::Relaxed) {
                stopping = true;
            }
            if stopping && inflight == 0 {
                break;
            }
            // Fill the queue.
            if !stopping {
                while let Some(slot) = free.pop() {
                    if issued_bytes >= size_limit {
                        free.push(slot);
                        break;
                    }
                    let dir = if read_pct == 100 || (read_pct > 0 && rng.next() % 100 < read_pct) {
                        Dir::Read
                    } else {
                        Dir::Write
                    };
                    let offset = if spec.rw.is_random() {
                        (rng.next() % blocks) * spec.bs
                    } else {
                        let o = seq_next;
                        seq_next = (seq_next + 1) % blocks;
                        o * spec.bs
                    };
                    dir_of[slot] = dir;
                    start_ns[slot] = ns(Instant::now());
                    engine.queue(IoUnit {
                        slot,
                        dir,
                        offset,
                        len: bs,
                    })?;
                    issued_bytes += spec.bs;
                    if caps.sync {
                        // The I/O is already done: issue = start, as fio's
                        // sync engines have no submission latency.
                        issue_ns[slot] = start_ns[slot];
                        inflight += 1;
                        res.dist.depth[0] += 1;
                        break;
                    }
                    queued.push(slot);
                    // Submit as soon as `batch` I/Os are ready (fio's
                    // `iodepth_batch_submit`, 1 by default): holding a whole
                    // refill back until it is prepared makes the I/Os reach
                    // the device in bursts that complete together, and the
                    // queue then runs in lockstep instead of staying full.
                    if queued.len() >= batch {
                        submit_queued!();
                    }
                }
                if !queued.is_empty() {
                    submit_queued!();
                } else if caps.sync {
                    res.dist.submit[1] += 1;
                }
            }
            // Reap: wait for one when the queue is full or we are draining.
            let min = if free.is_empty() || stopping { 1 } else { 0 };
            done.clear();
            engine.reap(min, reap_max, &mut done)?;
            if done.is_empty() {
                continue;
            }
            let t = ns(Instant::now());
            res.dist.complete[Distributions::batch_idx(done.len())] += 1;
            for c in &done {
                inflight -= 1;
                free.push(c.slot);
                let moved = match c.result {
                    Ok(n) => n,
                    Err(errno) => {
                        if res.error == 0 {
                            res.error = errno;
                            res.error_msg = Some(format!(
                                "{} at slot {}: {}",
                                if dir_of[c.slot] == Dir::Read {
                                    "read"
                                } else {
                                    "write"
                                },
                                c.slot,
                                io::Error::from_raw_os_error(errno)
                            ));
                        }
                        cfg.abort.store(true, Ordering::SeqCst);
                        continue;
                    }
                };
                if !measuring {
                    continue;
                }
                let d = &mut res.dirs[dir_of[c.slot] as usize];
                d.io_bytes += moved as u64;
                d.total_ios += 1;
                if moved < bs {
                    d.short_ios += 1;
                }
                let (s, i) = (start_ns[c.slot], issue_ns[c.slot]);
                if !caps.sync {
                    d.slat.add(i.saturating_sub(s));
                }
                let clat = t.saturating_sub(i);
                d.clat.add(clat);
                d.clat_hist.add(clat);
                d.lat.add(t.saturating_sub(s));
                res.dist.mark_latency(clat);
                res.runtime_ns = t - mstart;
            }
            let total_done = res.dirs[0].total_ios + res.dirs[1].total_ios;
            cfg.live_ios
                .fetch_add(total_done - last_done, Ordering::Relaxed);
            last_done = total_done;
            if measuring && t >= last_sample + interval {
                for (k, d) in res.dirs.iter_mut().enumerate() {
                    d.interval_bytes.push(d.io_bytes - last_bytes[k]);
                    d.interval_ios.push(d.total_ios - last_ios[k]);
                    d.interval_ns.push(t - last_sample);
                    last_bytes[k] = d.io_bytes;
                    last_ios[k] = d.total_ios;
                }
                last_sample = t;
            }
        }
        Ok(())
    })();
    if let Err(e) = outcome {
        // Wait for what is in flight before the engine and the buffers go:
        // the kernel may still write into them.
        for _ in 0..10_000 {
            if inflight == 0 {
                break;
            }
            done.clear();
            if engine.reap(1, depth, &mut done).is_err() {
                break;
            }
            inflight = inflight.saturating_sub(done.len());
        }
        drop(engine);
        if inflight > 0 {
            // Leaked on purpose: freeing memory the device may still DMA
            // into would corrupt whatever reuses it.
            std::mem::forget(buf);
        }
        return Err(e);
    }
    drop(engine);
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latency_buckets_follow_fio() {
        let mut d = Distributions::default();
        for ns in [
            0,
            1,
            2,
            3,
            999,
            1000,
            1999,
            2000,
            999_999,
            1_000_000,
            2_500_000_000,
        ] {
            d.mark_latency(ns);
        }
        assert_eq!(d.lat_ns[0], 2); // 0, 1
        assert_eq!(d.lat_ns[1], 2); // 2, 3
        assert_eq!(d.lat_ns[9], 1); // 999
        assert_eq!(d.lat_us[0], 2); // 1 us, 1.999 us
        assert_eq!(d.lat_us[1], 1); // 2 us
        assert_eq!(d.lat_us[9], 1); // 999 us
        assert_eq!(d.lat_ms[0], 1); // 1 ms
        assert_eq!(d.lat_ms[11], 1); // >= 2000 ms
    }

    #[test]
    fn depth_and_batch_buckets() {
        assert_eq!(Distributions::depth_idx(1), 0);
        assert_eq!(Distributions::depth_idx(3), 1);
        assert_eq!(Distributions::depth_idx(31), 4);
        assert_eq!(Distributions::depth_idx(32), 5);
        assert_eq!(Distributions::depth_idx(63), 5);
        assert_eq!(Distributions::depth_idx(64), 6);
        assert_eq!(Distributions::batch_idx(0), 0);
        assert_eq!(Distributions::batch_idx(4), 1);
        assert_eq!(Distributions::batch_idx(65), 6);
    }
}
