//! `run`: the native I/O harness. Engines (psync, libaio, io_uring, null)
//! behind one trait, or fio itself (`fio.rs`); fio-compatible measurement
//! and JSON output; the safety rules for writing to disks; and the loop
//! over a matrix that keeps results whose job spec did not change.
//!
//! The harness shares no structs with the readers: its output is read back
//! through `ingest` like any fio file.

pub mod engines;
pub mod fio;
pub mod host;
pub mod jobfile;
pub mod native;
pub mod output;
pub mod safety;
pub mod spec;
pub mod stats;
pub mod worker;

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use engines::{EngineKind, EngineOptions};
use safety::TargetKind;
use spec::JobSpec;

/// Which engine runs the jobs.
#[derive(Debug, Clone)]
pub enum EngineChoice {
    Native(EngineKind),
    Fio(fio::FioSetup),
}

impl EngineChoice {
    pub fn name(&self) -> &'static str {
        match self {
            EngineChoice::Native(k) => k.name(),
            EngineChoice::Fio(_) => "fio",
        }
    }
}

/// Plain options of `nvcmp run`, validated by the CLI.
#[derive(Debug, Clone)]
pub struct RunOptions {
    pub jobs: Vec<JobSpec>,
    pub engine: EngineChoice,
    pub engine_opts: EngineOptions,
    /// None: a scratch file nvcmp creates in `out_dir` and removes.
    pub target: Option<PathBuf>,
    pub out_dir: PathBuf,
    pub label: String,
    pub force: bool,
    pub destroy_data: bool,
}

/// Errors of a run; the CLI maps them to messages and exit codes.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Refused(#[from] safety::Refusal),
    #[error("{0}")]
    Target(String),
    #[error("{0}")]
    Io(String),
    #[error("{0}")]
    FioMissing(String),
    #[error("{0}")]
    Fio(String),
    #[error("interrupted")]
    Interrupted,
}

/// Progress of the running job (the CLI draws it; tests ignore it).
pub trait Progress {
    /// A job starts; it should take about `total`.
    fn start(&self, job: &str, total: Duration);
    /// Time since the start and the IOPS of the last half second.
    fn tick(&self, elapsed: Duration, iops: f64);
    fn finish(&self);
}

/// A progress sink that shows nothing.
pub struct NoProgress;

impl Progress for NoProgress {
    fn start(&self, _: &str, _: Duration) {}
    fn tick(&self, _: Duration, _: f64) {}
    fn finish(&self) {}
}

/// What happened to one job.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Measured and written.
    Written,
    /// Its result was already there with the same spec hash.
    Kept,
    /// Written, but the job reported an I/O error (errno).
    Errored(i32, String),
}

/// The result of a run: one entry per job, in matrix order, up to the
/// point where a Ctrl-C stopped it.
#[derive(Debug, Default)]
pub struct Summary {
    pub results: Vec<(String, PathBuf, Outcome)>,
    pub interrupted: bool,
    pub dir: PathBuf,
}

/// Removes the scratch file on every way out (errors, Ctrl-C, panics).
struct Scratch(Option<PathBuf>);

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(p) = &self.0 {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Creates `path` (it must not exist) and writes `size` bytes to it so
/// reads hit allocated blocks, as fio lays out a new file.
fn lay_out(path: &Path, size: u64) -> Result<(), RunError> {
    let err = |e: std::io::Error| RunError::Io(format!("{}: cannot create: {e}", path.display()));
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(err)?;
    let mut chunk = vec![0u8; 1 << 20];
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for b in chunk.chunks_mut(8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        b.copy_from_slice(&x.to_le_bytes());
    }
    let mut fill = || {
        let mut left = size;
        while left > 0 {
            if engines::sys::interrupted() {
                return Err(RunError::Interrupted);
            }
            let n = left.min(chunk.len() as u64) as usize;
            f.write_all(&chunk[..n]).map_err(err)?;
            left -= n as u64;
        }
        f.sync_all().map_err(err)
    };
    let res = fill();
    if res.is_err() {
        // Created above by us: a half-laid-out file is not left behind.
        let _ = std::fs::remove_file(path);
    }
    res
}

/// Runs every job of `opts`, skipping those whose result is current.
pub fn run_matrix(opts: &RunOptions, progress: &dyn Progress) -> Result<Summary, RunError> {
    engines::sys::catch_sigint();
    let dir = opts.out_dir.join(&opts.label);
    let mut summary = Summary {
        dir: dir.clone(),
        ..Summary::default()
    };
    let any_writes = opts.jobs.iter().any(|j| j.rw.writes());
    let max_size = opts.jobs.iter().map(|j| j.size).max().unwrap_or(0);
    let engine_name = opts.engine.name();
    let fio_opts = match &opts.engine {
        EngineChoice::Fio(f) => {
            fio::version(&f.bin)?;
            format!("ioengine={};clients={}", f.ioengine, f.clients.join(","))
        }
        EngineChoice::Native(_) => String::new(),
    };
    let remote = matches!(&opts.engine, EngineChoice::Fio(f) if !f.clients.is_empty());
    let is_null = matches!(opts.engine, EngineChoice::Native(EngineKind::Null));
    let is_fio = matches!(opts.engine, EngineChoice::Fio(_));

    // Which jobs need running at all: decided before any file is created.
    let hashes: Vec<String> = opts
        .jobs
        .iter()
        .map(|j| {
            let target = opts
                .target
                .as_ref()
                .map_or("scratch".into(), |p| p.display().to_string());
            spec::spec_hash(&j.canonical(
                engine_name,
                &format!("{}{fio_opts}", opts.engine_opts.canonical()),
                &target,
            ))
        })
        .collect();
    let todo: Vec<bool> = opts
        .jobs
        .iter()
        .zip(&hashes)
        .map(|(j, h)| {
            let path = dir.join(format!("{}.json", j.name));
            opts.force || output::stored_spec_hash(&path).as_deref() != Some(h.as_str())
        })
        .collect();

    // The target: checked once for the whole matrix, before any I/O.
    let mut scratch = Scratch(None);
    let (target, kind): (Option<PathBuf>, &str) = if is_null || !todo.contains(&true) {
        (None, "none")
    } else if remote {
        // fio servers open the file on their side; nvcmp cannot check it.
        let t = opts
            .target
            .clone()
            .unwrap_or_else(|| PathBuf::from("/tmp/nvcmp-scratch.dat"));
        (Some(t), "remote")
    } else {
        std::fs::create_dir_all(&opts.out_dir)
            .map_err(|e| RunError::Io(format!("{}: {e}", opts.out_dir.display())))?;
        let path = match &opts.target {
            Some(p) => p.clone(),
            None => opts
                .out_dir
                .join(format!(".nvcmp-scratch-{}.dat", std::process::id())),
        };
        match safety::check_target(&path, any_writes, opts.destroy_data)? {
            TargetKind::Scratch => {
                if !is_fio {
                    lay_out(&path, max_size)?;
                }
                scratch.0 = Some(path.clone());
                (Some(path), "scratch")
            }
            TargetKind::ExistingFile => (Some(path), "file"),
            TargetKind::BlockDevice => (Some(path), "block"),
        }
    };
    let host = host::HostFacts::gather(target.as_deref().filter(|_| !remote));

    for ((job, hash), run) in opts.jobs.iter().zip(&hashes).zip(&todo) {
        let path = dir.join(format!("{}.json", job.name));
        if !run {
            summary
                .results
                .push((job.name.clone(), path, Outcome::Kept));
            continue;
        }
        if engines::sys::interrupted() {
            summary.interrupted = true;
            break;
        }
        let res = match &opts.engine {
            EngineChoice::Native(kind_) => native::run_job(
                job,
                *kind_,
                opts.engine_opts,
                target.as_deref(),
                kind,
                hash,
                &host,
                progress,
            )
            .and_then(|r| {
                output::write_result(&path, &r)
                    .map_err(|e| RunError::Io(format!("{}: {e}", path.display())))?;
                Ok(if r.error != 0 {
                    Outcome::Errored(r.error, r.error_msg.clone().unwrap_or_default())
                } else {
                    Outcome::Written
                })
            }),
            EngineChoice::Fio(setup) => {
                let filename = target
                    .as_ref()
                    .map_or(String::new(), |p| p.display().to_string());
                let unlink = kind == "scratch" || (remote && opts.target.is_none());
                progress.start(&job.name, Duration::from_secs(job.runtime_s + job.ramp_s));
                let r = fio::run_job(setup, job, &filename, unlink, &dir, hash, &host);
                progress.finish();
                r.and_then(|v| {
                    let err = v
                        .pointer("/jobs/0/error")
                        .and_then(|e| e.as_i64())
                        .unwrap_or(0);
                    let mut text =
                        serde_json::to_vec_pretty(&v).map_err(|e| RunError::Io(e.to_string()))?;
                    text.push(b'\n');
                    if let Some(pct) = v.pointer("/nvcmp/system_cpu_pct").and_then(|x| x.as_f64()) {
                        output::write_atomic(
                            &output::sidecar_path(&path),
                            format!("system_cpu_pct = {pct}\n").as_bytes(),
                        )
                        .map_err(|e| RunError::Io(format!("{}: {e}", path.display())))?;
                    }
                    output::write_atomic(&path, &text)
                        .map_err(|e| RunError::Io(format!("{}: {e}", path.display())))?;
                    Ok(if err != 0 {
                        Outcome::Errored(err as i32, "fio reported an error".into())
                    } else {
                        Outcome::Written
                    })
                })
            }
        };
        match res {
            Ok(o) => summary.results.push((job.name.clone(), path, o)),
            Err(RunError::Interrupted) => {
                summary.interrupted = true;
                break;
            }
            Err(e) => return Err(e),
        }
    }
    drop(scratch);
    Ok(summary)
}
