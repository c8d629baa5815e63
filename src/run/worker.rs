//! One job thread: keeps `iodepth` I/Os in flight through an engine,
//! stamps each one the way fio's io_u does (start when prepared, issue when
//! submitted, completion when reaped: slat = issue - start, clat =
//! completion - issue, lat = completion - start), skips the ramp, stops at
//! the runtime, the size or Ctrl-C, and drains what is in flight.
//!
//! Each I/O lives in an `IoSlot` (fio's `io_u`: direction, offset,
//! length, times, and the buffer region of the same index), handed out and
//! taken back by `Slots`; `Worker` is the loop (fill, submit, reap,
//! drain), `Pattern` picks each I/O and `Meter` keeps the measured
//! window and its interval samples.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::engines::{AlignedBuf, Completion, Dir, Engine, EngineKind, EngineOptions, IoUnit, sys};
use super::iolog::{LogWriteError, ThreadLog};
use super::spec::JobSpec;
use super::stats::DirectionStats;

/// fio's `bwavgtime` / `iopsavgtime` default: one bw and iops sample every
/// 500 ms.
pub const SAMPLE_INTERVAL: Duration = Duration::from_millis(500);

/// What a worker thread needs; all of it is `Send`.
pub struct WorkerCfg {
    pub spec: Arc<JobSpec>,
    pub engine: EngineKind,
    pub opts: EngineOptions,
    /// The opened target (None for the null engine).
    pub file: Option<Arc<std::fs::File>>,
    /// Bytes of the target the job may touch (a multiple of bs).
    pub region: u64,
    pub seed: u64,
    /// I/Os completed by all threads, for the progress bar.
    pub live_ios: Arc<AtomicU64>,
    /// Set by the first thread that fails, to stop the others.
    pub abort: Arc<AtomicBool>,
    /// `run --log`: this thread's log files.
    pub log: Option<ThreadLog>,
    /// Pins the thread to these CPUs before its first I/O.
    pub cpus: Option<super::placement::CpuList>,
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
    /// (`"16"` holds 16..=31); the last holds 64 and up.
    fn depth_idx(d: usize) -> usize {
        bucket(d, &[1, 3, 7, 15, 31, 63])
    }

    /// fio's `io_u_mark_submit` / `io_u_mark_complete` buckets: 0, 1-4,
    /// 5-8, 9-16, 17-32, 33-64, then 65 and up.
    fn batch_idx(n: usize) -> usize {
        bucket(n, &[0, 4, 8, 16, 32, 64])
    }

    /// fio's `io_u_mark_submit` and `io_u_mark_depth`: a submit call that
    /// handed `n` I/Os over and brought the queue to `inflight`.
    fn mark_submit(&mut self, n: usize, inflight: usize) {
        self.submit[Distributions::batch_idx(n)] += 1;
        self.depth[Distributions::depth_idx(inflight)] += n as u64;
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
    pub dirs: [DirectionStats; 2],
    pub dist: Distributions,
    /// Measured time of each direction, ns (from the end of the ramp to the
    /// last completion).
    pub runtime_ns: u64,
    /// errno of the first failed I/O (0 when none).
    pub error: i32,
    pub error_msg: Option<String>,
    /// A log file that could not be written (the I/O itself went on).
    pub log_error: Option<LogWriteError>,
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

/// Where an I/O slot is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SlotState {
    Free,
    /// Prepared and given to the engine, not yet to the kernel.
    Queued,
    InFlight,
}

/// One I/O, like fio's `io_u`: what it does and when it started and was
/// issued. Slot `i` uses buffer region `i` of the engine's buffer.
#[derive(Debug, Clone, Copy)]
struct IoSlot {
    state: SlotState,
    dir: Dir,
    offset: u64,
    /// Bytes.
    len: usize,
    /// Prepared, ns since the worker's start.
    start_ns: u64,
    /// Handed to the kernel, ns since the worker's start.
    issue_ns: u64,
}

impl IoSlot {
    /// What the engine gets for slot `index`.
    fn unit(&self, index: usize) -> IoUnit {
        IoUnit {
            slot: index,
            dir: self.dir,
            offset: self.offset,
            len: self.len,
        }
    }
}

/// The I/O slots of one worker, one per buffer region.
struct Slots {
    slots: Vec<IoSlot>,
    /// Free slots, the last one taken first.
    free: Vec<usize>,
    /// Prepared slots in the order the engine got them: a commit hands
    /// over the first n.
    queued: Vec<usize>,
    inflight: usize,
}

impl Slots {
    fn new(depth: usize) -> Slots {
        let idle = IoSlot {
            state: SlotState::Free,
            dir: Dir::Read,
            offset: 0,
            len: 0,
            start_ns: 0,
            issue_ns: 0,
        };
        Slots {
            slots: vec![idle; depth],
            free: (0..depth).rev().collect(),
            queued: Vec::with_capacity(depth),
            inflight: 0,
        }
    }

    /// Takes a free slot for `len` bytes at `offset`, started at `now`;
    /// None when all are busy.
    fn fill(&mut self, dir: Dir, offset: u64, len: usize, now: u64) -> Option<IoUnit> {
        let slot = self.free.pop()?;
        self.slots[slot] = IoSlot {
            state: SlotState::Queued,
            dir,
            offset,
            len,
            start_ns: now,
            issue_ns: 0,
        };
        self.queued.push(slot);
        Some(self.slots[slot].unit(slot))
    }

    /// The first `n` queued I/Os went to the kernel at `t`.
    fn submit(&mut self, n: usize, t: u64) -> io::Result<()> {
        if n > self.queued.len() {
            return Err(io::Error::other(format!(
                "the engine submitted {n} I/Os but only {} were queued",
                self.queued.len()
            )));
        }
        for slot in self.queued.drain(..n) {
            let s = &mut self.slots[slot];
            s.state = SlotState::InFlight;
            s.issue_ns = t;
        }
        self.inflight += n;
        Ok(())
    }

    /// Takes slot `slot` back from a completion. The index comes from the
    /// kernel: one that names no I/O in flight is an error.
    fn reap(&mut self, slot: usize) -> io::Result<IoSlot> {
        let Some(s) = self
            .slots
            .get_mut(slot)
            .filter(|s| s.state == SlotState::InFlight)
        else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "the engine completed slot {slot}, which is not in flight ({} slots)",
                    self.slots.len()
                ),
            ));
        };
        s.state = SlotState::Free;
        self.inflight -= 1;
        self.free.push(slot);
        Ok(*s)
    }

    fn any_free(&self) -> bool {
        !self.free.is_empty()
    }
}

/// Picks each I/O: the direction by the read share, the offset at random
/// or in sequence, in blocks of `bs` within the job's region.
struct Pattern {
    rng: Rng,
    read_pct: u64,
    random: bool,
    bs: u64,
    blocks: u64,
    next_block: u64,
}

impl Pattern {
    fn new(spec: &JobSpec, region: u64, rng: Rng) -> Pattern {
        Pattern {
            rng,
            read_pct: u64::from(spec.rw.read_pct(spec.rwmixread)),
            random: spec.rw.is_random(),
            bs: spec.bs,
            blocks: (region / spec.bs).max(1),
            next_block: 0,
        }
    }

    fn next(&mut self) -> (Dir, u64) {
        let read =
            self.read_pct == 100 || (self.read_pct > 0 && self.rng.next() % 100 < self.read_pct);
        let dir = if read { Dir::Read } else { Dir::Write };
        let block = if self.random {
            self.rng.next() % self.blocks
        } else {
            let b = self.next_block;
            self.next_block = (b + 1) % self.blocks;
            b
        };
        (dir, block * self.bs)
    }
}

/// The measured window (after the ramp) and its interval samples, fio's
/// `bwavgtime` / `iopsavgtime`.
struct Meter {
    /// ns since the worker's start.
    ramp_end: u64,
    /// When measuring began, ns; None during the ramp.
    start: Option<u64>,
    last_sample: u64,
    last_bytes: [u64; 2],
    last_ios: [u64; 2],
}

impl Meter {
    fn new(ramp_end: u64) -> Meter {
        let mut m = Meter {
            ramp_end,
            start: None,
            last_sample: 0,
            last_bytes: [0; 2],
            last_ios: [0; 2],
        };
        m.tick(0);
        m
    }

    /// Starts measuring once the ramp is over.
    fn tick(&mut self, now: u64) {
        if self.start.is_none() && now >= self.ramp_end {
            self.start = Some(now);
            self.last_sample = now;
        }
    }

    /// Closes an interval sample at `t` when one is due.
    fn sample(&mut self, t: u64, dirs: &mut [DirectionStats; 2]) {
        if self.start.is_none() || t < self.last_sample + SAMPLE_INTERVAL.as_nanos() as u64 {
            return;
        }
        for (k, d) in dirs.iter_mut().enumerate() {
            d.interval_bytes.push(d.io_bytes - self.last_bytes[k]);
            d.interval_ios.push(d.total_ios - self.last_ios[k]);
            d.interval_ns.push(t - self.last_sample);
            self.last_bytes[k] = d.io_bytes;
            self.last_ios[k] = d.total_ios;
        }
        self.last_sample = t;
    }
}

/// Runs one thread of a job to its end.
pub fn run(mut cfg: WorkerCfg) -> WorkerResult {
    let log = cfg.log.take();
    match run_inner(&cfg, log) {
        Ok(r) => r,
        Err(e) => {
            cfg.abort.store(true, Ordering::SeqCst);
            WorkerResult {
                error: e.raw_os_error().unwrap_or(sys::EIO),
                error_msg: Some(e.to_string()),
                ..WorkerResult::default()
            }
        }
    }
}

fn run_inner(cfg: &WorkerCfg, log: Option<ThreadLog>) -> io::Result<WorkerResult> {
    if let Some(cpus) = &cfg.cpus {
        // Before the buffers are allocated, so they come from the node the
        // thread runs on (first touch).
        super::affinity::pin_current_thread(cpus)
            .map_err(|e| io::Error::new(e.kind(), format!("pinning to CPUs {cpus}: {e}")))?;
    }
    let spec = &*cfg.spec;
    let depth = if cfg.engine.caps().sync {
        1
    } else {
        spec.iodepth as usize
    };
    let mut rng = Rng(cfg.seed | 1);
    let buf = buffers(depth, spec, &mut rng)?;
    let engine = cfg.engine.setup(
        cfg.file.as_deref(),
        depth as u32,
        buf,
        cfg.opts,
        spec.direct,
    )?;
    let mut worker = Worker::new(cfg, engine, depth, rng);
    worker.log = log;
    worker.run()
}

/// The I/O buffers, one region per slot; for a job that writes, full of
/// incompressible data, so a drive that compresses or dedups is not
/// flattered (fio's default `buffer_pattern`-less random refill).
fn buffers(depth: usize, spec: &JobSpec, rng: &mut Rng) -> io::Result<AlignedBuf> {
    let mut buf = AlignedBuf::new(depth, spec.bs as usize)?;
    if spec.rw.writes() {
        for chunk in buf.as_mut_slice().chunks_mut(8) {
            let v = rng.next().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
    Ok(buf)
}

/// The loop of one thread: fill the free slots, submit them, reap what is
/// done, until the job is over; then drain.
struct Worker<'a> {
    cfg: &'a WorkerCfg,
    /// Borrows the file in `cfg`, owns the buffers.
    engine: Box<dyn Engine + 'a>,
    /// The engine does the I/O in `queue` (psync, null).
    sync: bool,
    bs: usize,
    /// I/Os handed over per submit (fio's `iodepth_batch_submit`).
    batch: usize,
    /// Most completions taken per reap (`iodepth_batch_complete_max`).
    reap_max: usize,
    slots: Slots,
    pattern: Pattern,
    t0: Instant,
    meter: Meter,
    /// ns since `t0`.
    end_ns: u64,
    size_limit: u64,
    issued_bytes: u64,
    /// Completed I/Os already added to `cfg.live_ios`.
    reported: u64,
    done: Vec<Completion>,
    res: WorkerResult,
    /// `run --log`; None keeps the loop as it is without logs.
    log: Option<ThreadLog>,
}

/// ns to the whole ms fio's logs count in.
fn ms(ns: u64) -> u64 {
    ns / 1_000_000
}

impl<'a> Worker<'a> {
    fn new(cfg: &'a WorkerCfg, engine: Box<dyn Engine + 'a>, depth: usize, rng: Rng) -> Worker<'a> {
        let spec = &*cfg.spec;
        let ramp_end = Duration::from_secs(spec.ramp_s).as_nanos() as u64;
        Worker {
            cfg,
            engine,
            sync: cfg.engine.caps().sync,
            bs: spec.bs as usize,
            batch: (spec.iodepth_batch as usize).clamp(1, depth),
            reap_max: (spec.iodepth_batch_complete as usize).clamp(1, depth),
            slots: Slots::new(depth),
            pattern: Pattern::new(spec, cfg.region, rng),
            t0: Instant::now(),
            meter: Meter::new(ramp_end),
            end_ns: ramp_end + Duration::from_secs(spec.runtime_s).as_nanos() as u64,
            size_limit: if spec.time_based { u64::MAX } else { spec.size },
            issued_bytes: 0,
            reported: 0,
            done: Vec::with_capacity(depth),
            res: WorkerResult::default(),
            log: None,
        }
    }

    /// ns since the worker started.
    fn now(&self) -> u64 {
        self.t0.elapsed().as_nanos() as u64
    }

    fn run(mut self) -> io::Result<WorkerResult> {
        loop {
            let now = self.now();
            self.meter.tick(now);
            if self.over(now) {
                break;
            }
            self.fill()?;
            // Wait for a completion only when no slot is free.
            self.reap(usize::from(!self.slots.any_free()))?;
        }
        self.drain()?;
        if let Some(log) = self.log.take() {
            let start = self.meter.start.unwrap_or(0);
            self.res.log_error = log.finish(ms(self.now().saturating_sub(start))).err();
        }
        Ok(self.res)
    }

    /// The runtime or the size is reached, Ctrl-C came, or another thread
    /// failed.
    fn over(&self, now: u64) -> bool {
        now >= self.end_ns
            || self.issued_bytes >= self.size_limit
            || sys::interrupted()
            || self.cfg.abort.load(Ordering::Relaxed)
    }

    /// Prepares an I/O in every free slot (one for a sync engine, which
    /// does it at once) and submits them.
    fn fill(&mut self) -> io::Result<()> {
        while self.issued_bytes < self.size_limit && self.slots.any_free() {
            let (dir, offset) = self.pattern.next();
            let now = self.now();
            let io = self
                .slots
                .fill(dir, offset, self.bs, now)
                .expect("a free slot");
            self.engine.queue(io)?;
            self.issued_bytes += self.bs as u64;
            if self.sync {
                // The I/O is already done: issue = start, as fio's sync
                // engines have no submission latency.
                self.slots.submit(1, now)?;
                self.res.dist.depth[0] += 1;
                break;
            }
            // Submit as soon as `batch` I/Os are ready (fio's
            // `iodepth_batch_submit`, 1 by default): holding a whole refill
            // back until it is prepared makes the I/Os reach the device in
            // bursts that complete together, and the queue then runs in
            // lockstep instead of staying full.
            if self.slots.queued.len() >= self.batch {
                self.submit()?;
            }
        }
        if !self.slots.queued.is_empty() {
            self.submit()?;
        } else if self.sync {
            self.res.dist.submit[1] += 1;
        }
        Ok(())
    }

    /// Hands what is queued to the kernel and stamps the issue time of what
    /// it took; the rest stays queued in the engine for the next call.
    fn submit(&mut self) -> io::Result<()> {
        let n = self.engine.commit()?;
        let t = self.now();
        if self.log.is_some() {
            self.log_slat(n, t);
        }
        self.slots.submit(n, t)?;
        // fio's io_u_mark_depth: the batch counts at the depth it brought
        // the queue to.
        self.res.dist.mark_submit(n, self.slots.inflight);
        Ok(())
    }

    /// Logs the slat of the first `n` queued I/Os, submitted at `t`, as
    /// fio does at submission (nothing during the ramp).
    fn log_slat(&mut self, n: usize, t: u64) {
        let (Some(log), Some(start)) = (&mut self.log, self.meter.start) else {
            return;
        };
        for &slot in self.slots.queued.iter().take(n) {
            let io = &self.slots.slots[slot];
            let slat = t.saturating_sub(io.start_ns);
            log.submitted(ms(t.saturating_sub(start)), io.dir, io.len as u64, slat);
        }
    }

    /// Waits for at least `min` completions and accounts what came back.
    fn reap(&mut self, min: usize) -> io::Result<()> {
        self.done.clear();
        self.engine.reap(min, self.reap_max, &mut self.done)?;
        if self.done.is_empty() {
            return Ok(());
        }
        let t = self.now();
        self.res.dist.complete[Distributions::batch_idx(self.done.len())] += 1;
        for i in 0..self.done.len() {
            let c = self.done[i];
            let io = self.slots.reap(c.slot)?;
            match c.result {
                Ok(moved) => self.account(&io, moved, t),
                Err(errno) => self.fail(&io, c.slot, errno),
            }
        }
        let total = self.res.dirs[0].total_ios + self.res.dirs[1].total_ios;
        self.cfg
            .live_ios
            .fetch_add(total - self.reported, Ordering::Relaxed);
        self.reported = total;
        self.meter.sample(t, &mut self.res.dirs);
        if let (Some(log), Some(start)) = (&mut self.log, self.meter.start) {
            let d = &self.res.dirs;
            let bytes = [d[0].io_bytes, d[1].io_bytes];
            log.counters(
                ms(t.saturating_sub(start)),
                bytes,
                [d[0].total_ios, d[1].total_ios],
            );
        }
        Ok(())
    }

    /// Adds a completed I/O to the measurement (nothing during the ramp).
    fn account(&mut self, io: &IoSlot, moved: usize, t: u64) {
        let Some(start) = self.meter.start else {
            return;
        };
        let d = &mut self.res.dirs[io.dir as usize];
        d.io_bytes += moved as u64;
        d.total_ios += 1;
        if moved < io.len {
            d.short_ios += 1;
        }
        if !self.sync {
            d.slat.add(io.issue_ns.saturating_sub(io.start_ns));
        }
        let clat = t.saturating_sub(io.issue_ns);
        d.clat.add(clat);
        d.clat_hist.add(clat);
        let lat = t.saturating_sub(io.start_ns);
        d.lat.add(lat);
        if let Some(log) = &mut self.log {
            let io_done = (io.dir, moved as u64);
            log.completed(ms(t - start), io_done, clat, lat, &d.clat_hist);
        }
        self.res.dist.mark_latency(clat);
        self.res.runtime_ns = t - start;
    }

    /// Keeps the first I/O error and stops every thread of the job.
    fn fail(&mut self, io: &IoSlot, slot: usize, errno: i32) {
        if self.res.error == 0 {
            self.res.error = errno;
            self.res.error_msg = Some(format!(
                "{} at slot {slot}: {}",
                io.dir.as_str(),
                sys::errno_text(errno)
            ));
        }
        self.cfg.abort.store(true, Ordering::SeqCst);
    }

    /// The job is over: waits for what is in flight and counts it as usual.
    /// (On an error the engine's own cleanup waits for it instead.)
    fn drain(&mut self) -> io::Result<()> {
        while self.slots.inflight > 0 {
            let now = self.now();
            self.meter.tick(now);
            self.reap(1)?;
        }
        Ok(())
    }
}

/// The first of fio's buckets whose upper bound `v` does not pass; one
/// past the last for anything above them all.
fn bucket(v: usize, upper: &[usize]) -> usize {
    upper.iter().position(|&u| v <= u).unwrap_or(upper.len())
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
    fn a_completion_must_name_a_slot_in_flight() {
        let mut s = Slots::new(2);
        let a = s.fill(Dir::Write, 4096, 512, 7).unwrap();
        assert_eq!((a.slot, a.dir, a.offset, a.len), (0, Dir::Write, 4096, 512));
        // Queued but not submitted: not in flight yet.
        assert!(s.reap(a.slot).is_err());
        s.submit(1, 9).unwrap();
        // Out of range, and a second completion of one I/O.
        assert!(s.reap(2).is_err());
        let io = s.reap(a.slot).unwrap();
        assert_eq!((io.start_ns, io.issue_ns, s.inflight), (7, 9, 0));
        assert!(s.reap(a.slot).is_err());
        // An engine cannot submit more than was queued.
        s.fill(Dir::Read, 0, 512, 10).unwrap();
        assert!(s.submit(2, 11).is_err());
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
