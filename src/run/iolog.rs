//! `run --log`: the log files fio writes for `write_bw_log=<job>
//! write_iops_log=<job> write_lat_log=<job>` (`<job>_bw.N.log`, `_iops`,
//! `_lat`, `_clat`, `_slat`, one `.N` per thread), made from the harness's
//! own measurements, in fio 3.x's line format (iolog.c `flush_samples`
//! with fio's defaults: `time, value, ddir, bs, prio`).
//!
//! What goes in a line follows stat.c:
//! - per-I/O (`log_avg_msec=0`): lat/clat/slat in ns and bs of the I/O;
//!   bw is `bytes * 1000000 / clat_ns` (fio's `add_bw_sample`, bytes per
//!   ms); iops is 1 per I/O.
//! - averaged: lat/clat/slat windows closed by the first sample at or past
//!   the window's end (`add_log_sample`), written as the rounded mean with
//!   bs 0 (`__add_stat_to_log`), and whatever is left at the end written at
//!   the job's end (`finalize_logs`); bw (KiB/s, `delta * 1000 / spent /
//!   1024`) and iops (I/Os per s, `delta * 1000 / spent`) rates over each
//!   window (`__add_samples`: fio sets `bw_avg_time` to `log_avg_msec`, so
//!   each window holds one rate and its mean is that rate).
//! - histogram (`--log-hist-msec`, fio's `write_hist_log` with
//!   `log_hist_msec`): `<job>_clat_hist.N.log`, a line per direction every
//!   window (`add_clat_sample`), `time, ddir, bs,` then the 1856 clat
//!   buckets' counts since the previous line (`flush_hist_samples`); as in
//!   fio, the window the job ends in is not written.
//!
//! Each thread's lines go to a printer thread of its own in batches
//! (`writer`), so formatting stays off the I/O loop and memory stays
//! bounded however long the run. The files are written into a hidden
//! staging folder next to the result (`JobLogs`) and moved into place only
//! when the job's result is, replacing the logs of the job's previous run.

mod staging;
mod writer;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::engines::Dir;
use super::stats::Histogram;
pub use staging::{JobLogs, is_job_log};
use writer::{Lines, LogFile, Sample};

/// `--log-avg-msec` when not given: fio's `bwavgtime` default, the
/// interval of the result's own bw/iops samples, so a log's mean is the
/// result's `bw_mean`, and a 10 s job writes 20 lines per file instead of
/// one per I/O (fio's `log_avg_msec=0`, millions of lines at NVMe rates).
pub const DEFAULT_AVG_MSEC: u64 = 500;

/// fio's `LOG_MSEC_SLACK`: a bw/iops interval this close to its end counts
/// as over.
const MSEC_SLACK: u64 = 1;

/// `run --log`: log every job, averaged over `avg_msec` (0: every I/O),
/// and with `hist_msec` a clat histogram log every `hist_msec` ms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogOptions {
    pub avg_msec: u64,
    pub hist_msec: Option<u64>,
}

impl LogOptions {
    /// Text for the spec hash: a result with logs is another result.
    pub fn canonical(&self) -> String {
        let hist = self
            .hist_msec
            .map_or(String::new(), |ms| format!(";log_hist_msec={ms}"));
        format!(";log_avg_msec={}{hist}", self.avg_msec)
    }

    /// fio's options for these logs, as the job file and the result's `job
    /// options` spell them; `prefix` is the log files' name before `_bw`.
    pub fn fio_options(&self, prefix: &str) -> Vec<(&'static str, String)> {
        let mut o = vec![
            ("write_bw_log", prefix.to_string()),
            ("write_iops_log", prefix.to_string()),
            ("write_lat_log", prefix.to_string()),
            ("log_avg_msec", self.avg_msec.to_string()),
            ("per_job_logs", "1".to_string()),
        ];
        if let Some(ms) = self.hist_msec {
            o.push(("write_hist_log", prefix.to_string()));
            o.push(("log_hist_msec", ms.to_string()));
        }
        o
    }
}

/// The logs one thread writes, in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LogKind {
    Bw,
    Iops,
    Lat,
    Clat,
    Slat,
}

const KINDS: [LogKind; 5] = [
    LogKind::Bw,
    LogKind::Iops,
    LogKind::Lat,
    LogKind::Clat,
    LogKind::Slat,
];

/// Every log kind fio names `<job>_<kind>.N.log`: what a rerun replaces.
const ALL_SUFFIXES: [&str; 6] = ["bw", "iops", "lat", "clat", "slat", "clat_hist"];

impl LogKind {
    fn suffix(self) -> &'static str {
        ALL_SUFFIXES[self as usize]
    }
}

/// `<job>_<kind>.<index>.log`, fio's `gen_log_name` with `per_job_logs=1`.
fn file_name(job: &str, kind: &str, index: u32) -> String {
    format!("{job}_{kind}.{index}.log")
}

/// A log file that could not be written.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}: cannot write the log", .path.display())]
pub struct LogWriteError {
    pub path: PathBuf,
    /// Shared so a thread's result stays `Clone`.
    #[source]
    pub source: Arc<io::Error>,
}

impl LogWriteError {
    pub(super) fn at(path: &Path) -> impl FnOnce(io::Error) -> LogWriteError + '_ {
        move |e| LogWriteError {
            path: path.to_path_buf(),
            source: Arc::new(e),
        }
    }
}

/// An averaging window of one latency log and direction (fio's
/// `avg_window` and `avg_last`).
#[derive(Debug, Clone, Copy, Default)]
struct LogWindow {
    sum: u128,
    n: u64,
    /// Start of the window, ms.
    last_ms: u64,
}

impl LogWindow {
    /// fio's mean rounded to the nearest integer (`mean + 0.50`).
    fn mean(&self) -> u64 {
        (self.sum as f64 / self.n as f64 + 0.5) as u64
    }
}

/// bw and iops over the current rate interval (fio's `bw_sample_time`,
/// `stat_io_bytes`, `stat_io_blocks`).
#[derive(Debug, Clone, Copy, Default)]
struct Rates {
    last_ms: u64,
    bytes: [u64; 2],
    ios: [u64; 2],
}

/// The logs of one worker thread.
pub struct ThreadLog {
    lines: Lines,
    avg_msec: u64,
    /// lat, clat, slat windows per direction (averaged logs only).
    windows: [[LogWindow; 2]; 3],
    rates: Rates,
    hist: Option<HistLog>,
    /// The first histogram line that failed; none is written after it.
    error: Option<LogWriteError>,
}

/// The clat histogram log of one thread (fio's `clat_hist_log` and its
/// `hist_window`).
struct HistLog {
    file: LogFile,
    msec: u64,
    /// Start of each direction's window, ms; 0 until its first I/O.
    last_ms: [u64; 2],
    /// Each direction's histogram when its last line was written.
    before: [Histogram; 2],
}

impl HistLog {
    /// Writes a line when `dir`'s window is over at `t_ms`; `now` is the
    /// direction's histogram since the job began.
    fn sample(&mut self, t_ms: u64, dir: Dir, bs: u64, now: &Histogram) -> io::Result<()> {
        let last = &mut self.last_ms[dir as usize];
        if *last == 0 {
            *last = t_ms;
        }
        let window = t_ms - *last;
        if window < self.msec {
            return Ok(());
        }
        // fio keeps the windows on their grid however late the I/O came.
        *last = t_ms - (window - self.msec);
        let before = &mut self.before[dir as usize];
        let out = &mut self.file.out;
        write!(out, "{t_ms}, {}, {bs}", dir as u8)?;
        for (n, b) in now.buckets.iter().zip(&before.buckets) {
            write!(out, ", {}", n - b)?;
        }
        writeln!(out)?;
        before.buckets.copy_from_slice(&now.buckets);
        Ok(())
    }
}

impl ThreadLog {
    /// Creates thread `index`'s (1-based) logs of `job` in `dir`.
    pub fn create(
        dir: &Path,
        job: &str,
        index: u32,
        opts: LogOptions,
    ) -> Result<Self, LogWriteError> {
        let files = KINDS
            .iter()
            .map(|&k| LogFile::create(dir.join(file_name(job, k.suffix(), index))))
            .collect::<Result<_, _>>()?;
        let hist = match opts.hist_msec {
            Some(msec) => Some(HistLog {
                file: LogFile::create(dir.join(file_name(job, "clat_hist", index)))?,
                msec,
                last_ms: [0; 2],
                before: Default::default(),
            }),
            None => None,
        };
        Ok(ThreadLog {
            lines: Lines::start(files)?,
            avg_msec: opts.avg_msec,
            windows: Default::default(),
            rates: Rates::default(),
            hist,
            error: None,
        })
    }

    #[inline]
    fn write(&mut self, kind: LogKind, t_ms: u64, value: u64, dir: Dir, bs: u64) {
        self.lines.push(Sample {
            kind,
            dir,
            t_ms,
            value,
            bs,
        });
    }

    /// A latency sample: written at once, or added to its window, which is
    /// written when the sample closes it.
    fn latency(&mut self, kind: LogKind, t_ms: u64, ns: u64, dir: Dir, bs: u64) {
        if self.avg_msec == 0 {
            self.write(kind, t_ms, ns, dir, bs);
            return;
        }
        let w = &mut self.windows[kind as usize - LogKind::Lat as usize][dir as usize];
        w.sum += u128::from(ns);
        w.n += 1;
        if t_ms < w.last_ms + self.avg_msec {
            return;
        }
        let mean = w.mean();
        *w = LogWindow {
            last_ms: t_ms - t_ms % self.avg_msec,
            ..LogWindow::default()
        };
        self.write(kind, t_ms, mean, dir, 0);
    }

    /// An I/O completed at `t_ms` (since the end of the ramp); `clat_hist`
    /// is its direction's histogram, this I/O included.
    pub fn completed(
        &mut self,
        t_ms: u64,
        io: (Dir, u64),
        clat_ns: u64,
        lat_ns: u64,
        clat_hist: &Histogram,
    ) {
        let (dir, bytes) = io;
        self.latency(LogKind::Lat, t_ms, lat_ns, dir, bytes);
        self.latency(LogKind::Clat, t_ms, clat_ns, dir, bytes);
        if let (Some(h), None) = (&mut self.hist, &self.error)
            && let Err(e) = h.sample(t_ms, dir, bytes, clat_hist)
        {
            let path = h.file.path.clone();
            self.error.get_or_insert(LogWriteError::at(&path)(e));
        }
        if self.avg_msec == 0 {
            let rate = (bytes * 1_000_000).checked_div(clat_ns).unwrap_or(0);
            self.write(LogKind::Bw, t_ms, rate, dir, bytes);
            self.write(LogKind::Iops, t_ms, 1, dir, bytes);
        }
    }

    /// An I/O was submitted at `t_ms` after waiting `slat_ns`.
    pub fn submitted(&mut self, t_ms: u64, dir: Dir, bytes: u64, slat_ns: u64) {
        self.latency(LogKind::Slat, t_ms, slat_ns, dir, bytes);
    }

    /// The thread's byte and I/O counters at `t_ms`: closes a bw/iops
    /// interval when one is due (averaged logs only).
    pub fn counters(&mut self, t_ms: u64, bytes: [u64; 2], ios: [u64; 2]) {
        let spent = t_ms.saturating_sub(self.rates.last_ms);
        if self.avg_msec == 0 || spent + MSEC_SLACK < self.avg_msec {
            return;
        }
        for (k, dir) in [Dir::Read, Dir::Write].into_iter().enumerate() {
            let delta = (bytes[k] - self.rates.bytes[k], ios[k] - self.rates.ios[k]);
            if delta.0 == 0 {
                continue;
            }
            let bw = (delta.0 * 1000).checked_div(spent).unwrap_or(0) / 1024;
            let iops = (delta.1 * 1000).checked_div(spent).unwrap_or(0);
            self.write(LogKind::Bw, t_ms, bw, dir, 0);
            self.write(LogKind::Iops, t_ms, iops, dir, 0);
        }
        self.rates = Rates {
            last_ms: t_ms,
            bytes,
            ios,
        };
    }

    /// The job ended at `t_ms`: writes the latency windows that hold
    /// samples (fio's `finalize_logs`) and flushes every file.
    pub fn finish(mut self, t_ms: u64) -> Result<(), LogWriteError> {
        if self.avg_msec > 0 {
            for (i, kind) in [LogKind::Lat, LogKind::Clat, LogKind::Slat]
                .into_iter()
                .enumerate()
            {
                for dir in [Dir::Read, Dir::Write] {
                    let w = self.windows[i][dir as usize];
                    if w.n > 0 {
                        self.write(kind, t_ms, w.mean(), dir, 0);
                    }
                }
            }
        }
        self.lines.finish()?;
        if let Some(e) = self.error {
            return Err(e);
        }
        if let Some(h) = &mut self.hist {
            h.file
                .out
                .flush()
                .map_err(LogWriteError::at(&h.file.path))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
