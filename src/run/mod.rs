//! `run`: the native I/O harness. Engines (psync, libaio, io_uring, null)
//! behind one trait, or fio itself (`fio.rs`); fio-compatible measurement
//! and JSON output; the safety rules for writing to disks; and the loop
//! over a matrix that keeps results whose job spec did not change.
//!
//! The harness shares no structs with the readers: its output is read back
//! through `ingest` like any fio file.

pub mod affinity;
pub mod engines;
pub mod fio;
pub mod host;
pub mod iolog;
pub mod jobfile;
pub mod matrix;
pub mod native;
pub mod output;
pub mod placement;
pub mod precondition;
pub mod repeat;
pub mod safety;
pub mod spec;
pub mod stats;
pub mod worker;

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use engines::{EngineKind, EngineOptions};
use repeat::{Repeat, RepeatTally};
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
    /// The files or devices every job runs on at once, a set of threads
    /// each; empty: a scratch file nvcmp creates in `out_dir` and removes.
    pub targets: Vec<PathBuf>,
    /// Where each target's threads run (`--cpus-allowed`, `--numa auto`).
    pub placement: placement::PlacementRule,
    /// `--precondition`: passes of sequential writes over every target
    /// before the matrix.
    pub precondition: Option<u32>,
    pub out_dir: PathBuf,
    pub label: String,
    pub force: bool,
    pub destroy_data: bool,
    /// How many times each job runs (`--repeat`, `--until-stddev`).
    pub repeat: repeat::Repeat,
    /// `--log`: fio's bw/iops/lat logs next to each result.
    pub log: Option<iolog::LogOptions>,
}

/// Errors of a run; the CLI maps them to messages and exit codes.
///
/// `Refused`, `Target`, `FioMissing` and `LinuxOnly` are usage errors, which the CLI
/// prints as one line (`to_string`): their messages carry the OS error
/// themselves instead of as a `source()` that an error chain would print
/// twice. The others reach the CLI's error chain, which prints the source.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Refused(#[from] safety::Refusal),
    #[error(transparent)]
    Target(#[from] TargetError),
    /// One of nvcmp's own files or folders (results, job files).
    #[error("{}", .path.display())]
    Io { path: PathBuf, source: io::Error },
    /// Laying out the scratch file.
    #[error("{}: cannot create", .path.display())]
    Create { path: PathBuf, source: io::Error },
    #[error(transparent)]
    FioMissing(#[from] fio::FioMissing),
    /// Writing a target during `--precondition`.
    #[error("{}: preconditioning failed", .path.display())]
    Precondition { path: PathBuf, source: io::Error },
    /// A log file of `--log`.
    #[error(transparent)]
    Log(#[from] iolog::LogWriteError),
    /// fio ran but did not write a JSON document. The parse error stays in
    /// the message, before the job file, where it reads best.
    #[error(
        "fio exited with {status} and its output is not JSON ({parse}); job file was:\n{job_file}"
    )]
    Fio {
        status: std::process::ExitStatus,
        parse: serde_json::Error,
        job_file: String,
    },
    #[error("interrupted")]
    Interrupted,
    /// Not Linux: the harness runs nowhere else ([`engines::sys::supported`]).
    #[error("{0}")]
    LinuxOnly(&'static str),
}

impl RunError {
    /// An I/O error on `path`, one of nvcmp's own files.
    pub fn io(path: &Path) -> impl FnOnce(io::Error) -> RunError + '_ {
        move |source| RunError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Why the target cannot serve a job.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    #[error(
        "{}: the filesystem does not support O_DIRECT (tmpfs?); pass --buffered",
        .path.display()
    )]
    NoDirectIo { path: PathBuf },
    #[error("{}: cannot open: {error}", .path.display())]
    Open { path: PathBuf, error: io::Error },
    /// `path` is None for the null engine, which has no target.
    #[error("{}: the target holds less than one block of {bs} bytes", shown(.path))]
    TooSmall { path: Option<PathBuf>, bs: u64 },
}

/// A target path as messages show it (`-` when there is none).
fn shown(path: &Option<PathBuf>) -> String {
    path.as_ref()
        .map_or("-".into(), |p| p.display().to_string())
}

/// Progress of a run (the CLI draws it; tests ignore it).
pub trait Progress {
    /// Called once before the first job: `points` jobs will be measured,
    /// taking about `total` together (kept results take no time and are
    /// not counted).
    fn plan(&self, points: usize, total: Duration);
    /// A job starts; it should take about `total`.
    fn start(&self, job: &str, total: Duration);
    /// Time since the job's start, and the IOPS of the last half second
    /// when the engine reports them live (fio does not).
    fn tick(&self, elapsed: Duration, iops: Option<f64>);
    fn finish(&self);
    /// `points` more jobs, taking `more` together, than `plan` announced:
    /// `--until-stddev` found a job still too noisy after the planned
    /// repetitions.
    fn grow(&self, _points: usize, _more: Duration) {}
    /// `--precondition` has written `done` of `total` bytes (`done ==
    /// total` when it is over).
    fn fill(&self, _done: u64, _total: u64) {}
    /// A line for the user before the jobs run (a target `--numa auto`
    /// cannot place, what preconditioning took).
    fn note(&self, _text: &str) {}
}

/// A progress sink that shows nothing.
pub struct NoProgress;

impl Progress for NoProgress {
    fn plan(&self, _: usize, _: Duration) {}
    fn start(&self, _: &str, _: Duration) {}
    fn tick(&self, _: Duration, _: Option<f64>) {}
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
pub struct RunSummary {
    pub results: Vec<(String, PathBuf, Outcome)>,
    pub interrupted: bool,
    pub dir: PathBuf,
    /// Per job, what its repetitions came to (empty for single runs).
    pub repeats: Vec<repeat::JobRepeats>,
    /// Results of these jobs in `dir` that this run neither wrote nor kept
    /// (another repetition count before): `analyze` reads them too.
    pub strays: Vec<PathBuf>,
    /// What `--precondition` did, when it ran.
    pub precondition: Option<precondition::PreconditionReport>,
}

/// Removes the scratch files on every way out (errors, Ctrl-C, panics).
#[derive(Default)]
struct Scratch(Vec<PathBuf>);

impl Drop for Scratch {
    fn drop(&mut self) {
        for p in &self.0 {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Creates `path` (it must not exist) and writes `size` bytes to it so
/// reads hit allocated blocks, as fio lays out a new file. The file stays
/// open: jobs reach it through this descriptor, never its name again.
fn lay_out(path: &Path, size: u64) -> Result<std::fs::File, RunError> {
    let err = |source: io::Error| RunError::Create {
        path: path.to_path_buf(),
        source,
    };
    let mut f = OpenOptions::new()
        .read(true)
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
    res.map(|()| f)
}

/// The spec hash of every job: what its result file must carry to be kept.
fn spec_hashes(opts: &RunOptions) -> Result<Vec<String>, RunError> {
    let fio_opts = match &opts.engine {
        EngineChoice::Fio(f) => {
            fio::version(&f.bin)?;
            format!("ioengine={};clients={}", f.ioengine, f.clients.join(","))
        }
        EngineChoice::Native(_) => String::new(),
    };
    let log = opts.log.map_or(String::new(), |l| l.canonical());
    // Added only when given, so results of runs without them stay current.
    let precondition = opts
        .precondition
        .map_or(String::new(), |n| format!(";precondition={n}"));
    let engine_opts = format!(
        "{}{fio_opts}{log}{}{precondition}",
        opts.engine_opts.canonical(),
        opts.placement.canonical()
    );
    let target = if opts.targets.is_empty() {
        "scratch".to_string()
    } else {
        let names: Vec<String> = opts
            .targets
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        names.join(",")
    };
    Ok(opts
        .jobs
        .iter()
        .map(|j| spec::spec_hash(&j.canonical(opts.engine.name(), &engine_opts, &target)))
        .collect())
}

/// One target of a run on this machine, checked and placed.
#[derive(Debug, Clone)]
pub struct LocalTarget {
    /// None for the null engine run without `--target`: nothing to name.
    pub path: Option<PathBuf>,
    /// None when nothing is opened (the null engine).
    pub kind: Option<TargetKind>,
    pub placement: placement::Placement,
    /// The scratch file as nvcmp created it: jobs open this descriptor
    /// again, so a name swapped in the folder meanwhile is never measured
    /// or written.
    pub scratch: Option<std::sync::Arc<std::fs::File>>,
}

impl LocalTarget {
    /// The name results give the target (`(null)` when there is none).
    pub fn name(&self) -> String {
        self.path
            .as_ref()
            .map_or("(null)".into(), |p| p.display().to_string())
    }
}

/// The targets of a run, checked once for the whole matrix, before any I/O.
enum Targets {
    /// Every result is current: nothing to open.
    None,
    /// fio servers open the files on their side; nvcmp cannot check them.
    /// `unlink`: fio removes it at the end (nvcmp's default path).
    Remote { paths: Vec<PathBuf>, unlink: bool },
    /// Files or devices here, checked by `safety` (or named only, for the
    /// null engine).
    Local {
        list: Vec<LocalTarget>,
        /// Removes scratch files when the run ends, however it ends.
        _scratch: Scratch,
    },
}

/// Where the placement rule reads device NUMA nodes.
const SYSFS: &str = "/sys";

impl Targets {
    fn prepare(opts: &RunOptions, progress: &dyn Progress) -> Result<Targets, RunError> {
        if let EngineChoice::Fio(f) = &opts.engine
            && !f.clients.is_empty()
        {
            let unlink = opts.targets.is_empty();
            let paths = if unlink {
                vec![PathBuf::from("/tmp/nvcmp-scratch.dat")]
            } else {
                opts.targets.clone()
            };
            return Ok(Targets::Remote { paths, unlink });
        }
        if matches!(opts.engine, EngineChoice::Native(EngineKind::Null)) {
            return Ok(Targets::Local {
                list: null_targets(opts, progress),
                _scratch: Scratch::default(),
            });
        }
        let paths = match opts.targets.as_slice() {
            [] => vec![
                opts.out_dir
                    .join(format!(".nvcmp-scratch-{}.dat", std::process::id())),
            ],
            given => given.to_vec(),
        };
        let writes = opts.precondition.is_some() || opts.jobs.iter().any(|j| j.rw.writes());
        // Every target is judged before anything is created or written, so
        // one refused target leaves all of them as they were.
        let kinds = paths
            .iter()
            .map(|p| safety::check_target(p, writes, opts.destroy_data))
            .collect::<Result<Vec<_>, _>>()?;
        let size = opts.jobs.iter().map(|j| j.size).max().unwrap_or(0);
        for (path, kind) in paths.iter().zip(&kinds) {
            if *kind == TargetKind::ExistingFile {
                safety::check_file_size(path, size)?;
            }
        }
        std::fs::create_dir_all(&opts.out_dir).map_err(RunError::io(&opts.out_dir))?;
        let mut scratch = Scratch::default();
        let mut list = Vec::with_capacity(paths.len());
        for (path, kind) in paths.into_iter().zip(kinds) {
            let mut laid_out = None;
            if kind == TargetKind::Scratch {
                // Laid out here for fio too rather than left to fio's
                // `unlink=1`: fio unlinks per job, so with numjobs > 1 the
                // first thread to finish removed the file under a sibling
                // that had not opened it yet (fio error 2, ENOENT).
                scratch.0.push(path.clone());
                laid_out = Some(std::sync::Arc::new(lay_out(&path, size)?));
            }
            let mut target = placed(opts, path, Some(kind), progress);
            target.scratch = laid_out;
            list.push(target);
        }
        Ok(Targets::Local {
            list,
            _scratch: scratch,
        })
    }

    /// The paths fio is given.
    fn paths(&self) -> Vec<PathBuf> {
        match self {
            Targets::None => Vec::new(),
            Targets::Remote { paths, .. } => paths.clone(),
            Targets::Local { list, .. } => list.iter().filter_map(|t| t.path.clone()).collect(),
        }
    }

    /// The targets on this machine.
    fn local(&self) -> &[LocalTarget] {
        match self {
            Targets::Local { list, .. } => list,
            _ => &[],
        }
    }
}

/// The null engine opens nothing: targets are names that give each its
/// own set of threads (one set when none is given).
fn null_targets(opts: &RunOptions, progress: &dyn Progress) -> Vec<LocalTarget> {
    if opts.targets.is_empty() {
        return vec![LocalTarget {
            path: None,
            kind: None,
            placement: opts.placement.place(Path::new("(null)"), Path::new(SYSFS)),
            scratch: None,
        }];
    }
    opts.targets
        .iter()
        .map(|p| placed(opts, p.clone(), None, progress))
        .collect()
}

/// `path` with its placement; a target `--numa auto` cannot place is said.
fn placed(
    opts: &RunOptions,
    path: PathBuf,
    kind: Option<TargetKind>,
    progress: &dyn Progress,
) -> LocalTarget {
    let placement = opts.placement.place(&path, Path::new(SYSFS));
    if let Some(note) = &placement.note {
        progress.note(note);
    }
    LocalTarget {
        path: Some(path),
        kind,
        placement,
        scratch: None,
    }
}

/// What every job of a run shares.
struct Bench<'a> {
    opts: &'a RunOptions,
    targets: Targets,
    host: host::HostFacts,
    dir: PathBuf,
    precondition: Option<precondition::PreconditionReport>,
}

impl Bench<'_> {
    /// Measures one job and writes its result to `path`.
    fn run_job(
        &self,
        job: &JobSpec,
        hash: &str,
        path: &Path,
        progress: &dyn Progress,
    ) -> Result<Outcome, RunError> {
        // Logs move next to the result just before it is written: a job
        // that fails or is stopped leaves its previous logs and result.
        let logs = iolog::JobLogs::create(&self.dir, &job.name, self.opts.log)?;
        let log = logs.staging().zip(self.opts.log);
        match &self.opts.engine {
            EngineChoice::Native(engine) => {
                let native = native::Native {
                    engine: *engine,
                    opts: self.opts.engine_opts,
                    targets: self.targets.local(),
                    host: &self.host,
                    log,
                    precondition: self.precondition.as_ref(),
                };
                let results = native.run_job(job, hash, progress)?;
                logs.publish()?;
                output::write_result(path, &results).map_err(RunError::io(path))?;
                Ok(match results.iter().find(|r| r.error != 0) {
                    None => Outcome::Written,
                    Some(r) => Outcome::Errored(
                        r.error,
                        format!("{}: {}", r.target, r.error_msg.clone().unwrap_or_default()),
                    ),
                })
            }
            EngineChoice::Fio(setup) => {
                let v = self.fio(setup).run_job(job, hash, log, progress)?;
                logs.publish()?;
                write_fio_result(path, &v).map_err(RunError::io(path))?;
                Ok(fio_outcome(&v))
            }
        }
    }

    /// A result's IOPS when jobs repeat (the rule and the summary read
    /// them); single runs need none.
    fn iops_of(&self, path: &Path) -> Option<f64> {
        self.opts
            .repeat
            .is_repeated()
            .then(|| repeat::result_iops(path))
            .flatten()
    }

    fn fio<'s>(&'s self, setup: &'s fio::FioSetup) -> fio::FioRun<'s> {
        // fio servers' targets were not placed here: `--cpus-allowed`
        // applies to them as given (`--numa auto` is refused with them).
        let remote = placement::Placement {
            cpus: match &self.opts.placement {
                placement::PlacementRule::CpusAllowed(l) => Some(l.clone()),
                _ => None,
            },
            ..placement::Placement::default()
        };
        let placements = self.targets.local().iter().map(|t| t.placement.clone());
        let sections = self
            .targets
            .paths()
            .into_iter()
            .map(|p| p.display().to_string())
            .zip(placements.chain(std::iter::repeat(remote)))
            .collect();
        fio::FioRun {
            setup,
            sections,
            unlink: matches!(self.targets, Targets::Remote { unlink: true, .. }),
            work_dir: &self.dir,
            host: &self.host,
            precondition: self.precondition.as_ref(),
        }
    }
}

/// The first job fio reports an error for, with its target.
fn fio_outcome(v: &serde_json::Value) -> Outcome {
    let jobs = v.get("jobs").and_then(|j| j.as_array());
    for job in jobs.into_iter().flatten() {
        if let Some(e) = job
            .get("error")
            .and_then(|e| e.as_i64())
            .filter(|e| *e != 0)
        {
            let target = job
                .pointer("/job options/filename")
                .and_then(|f| f.as_str())
                .unwrap_or("?");
            return Outcome::Errored(e as i32, format!("{target}: fio reported an error"));
        }
    }
    Outcome::Written
}

/// fio's JSON as the result, and the system CPU in the sidecar ingest reads.
fn write_fio_result(path: &Path, v: &serde_json::Value) -> std::io::Result<()> {
    let mut text = serde_json::to_vec_pretty(v)?;
    text.push(b'\n');
    if let Some(pct) = v.pointer("/nvcmp/system_cpu_pct").and_then(|x| x.as_f64()) {
        output::write_atomic(
            &output::sidecar_path(path),
            format!("system_cpu_pct = {pct}\n").as_bytes(),
        )?;
    }
    output::write_atomic(path, &text)
}

/// One job of the matrix: the spec hash its results must carry, and the
/// result file of each repetition it may take (one without repetitions).
struct Planned<'a> {
    job: &'a JobSpec,
    hash: String,
    reps: Vec<Rep>,
}

/// One repetition's result file, and whether it is current: there with the
/// job's spec hash (and no `--force`), so kept rather than measured.
struct Rep {
    path: PathBuf,
    current: bool,
}

impl Planned<'_> {
    /// The first repetition the run will measure, walking the kept ones in
    /// order as the run does; None when the kept results satisfy `repeat`.
    fn first_to_measure(&self, repeat: &Repeat) -> Option<usize> {
        let mut tally = RepeatTally::default();
        for (k, rep) in self.reps.iter().enumerate() {
            if !tally.wants_more(repeat) {
                return None;
            }
            if !rep.current {
                return Some(k);
            }
            // Only the stopping rule looks at the values.
            let iops = match repeat {
                Repeat::UntilStddev(_) => repeat::result_iops(&rep.path),
                Repeat::Times(_) => None,
            };
            tally.add(iops);
        }
        None
    }

    /// Repetitions to measure as planned: those missing up to the least
    /// count `repeat` takes (the stopping rule may ask for more later).
    fn planned_runs(&self, repeat: &Repeat) -> usize {
        let Some(first) = self.first_to_measure(repeat) else {
            return 0;
        };
        let least = (repeat.least() as usize).max(first + 1);
        self.reps[first..least]
            .iter()
            .filter(|r| !r.current)
            .count()
    }
}

/// Planned time of one repetition of `job`.
fn job_time(job: &JobSpec) -> Duration {
    Duration::from_secs(job.runtime_s + job.ramp_s)
}

/// Which repetitions need running at all: decided before any file is
/// created.
fn plan<'a>(opts: &'a RunOptions, dir: &Path) -> Result<Vec<Planned<'a>>, RunError> {
    Ok(opts
        .jobs
        .iter()
        .zip(spec_hashes(opts)?)
        .map(|(job, hash)| {
            let reps = (0..opts.repeat.most())
                .map(|k| {
                    let path = opts.repeat.result_path(dir, &job.name, k);
                    let current =
                        !opts.force && output::stored_spec_hash(&path).as_deref() == Some(&hash);
                    Rep { path, current }
                })
                .collect();
            Planned { job, hash, reps }
        })
        .collect())
}

/// Runs every job of `opts`, skipping repetitions whose result is current.
pub fn run_matrix(opts: &RunOptions, progress: &dyn Progress) -> Result<RunSummary, RunError> {
    engines::sys::supported().map_err(RunError::LinuxOnly)?;
    engines::sys::catch_sigint();
    let dir = opts.out_dir.join(&opts.label);
    let jobs = plan(opts, &dir)?;
    let planned: Vec<usize> = jobs.iter().map(|j| j.planned_runs(&opts.repeat)).collect();
    let targets = if planned.iter().all(|&n| n == 0) {
        Targets::None
    } else {
        Targets::prepare(opts, progress)?
    };
    let precondition = match opts.precondition {
        Some(passes) if !targets.local().is_empty() => {
            Some(precondition(&targets, passes, progress)?)
        }
        _ => None,
    };
    let first = targets
        .local()
        .iter()
        .find_map(|t| t.kind.and(t.path.as_deref()));
    let host = host::HostFacts::gather(first);
    let bench = Bench {
        opts,
        targets,
        host,
        dir: dir.clone(),
        precondition: precondition.clone(),
    };
    progress.plan(
        planned.iter().sum(),
        jobs.iter()
            .zip(&planned)
            .map(|(j, &n)| job_time(j.job) * n as u32)
            .sum(),
    );
    let mut summary = RunSummary {
        dir,
        precondition,
        ..RunSummary::default()
    };
    let tallies = run_rounds(&bench, &jobs, &planned, progress, &mut summary)?;
    if opts.repeat.is_repeated() {
        summary.repeats = jobs
            .iter()
            .zip(&tallies)
            .map(|(j, t)| repeat::JobRepeats::of(&j.job.name, t, &opts.repeat))
            .collect();
    }
    if !summary.interrupted {
        // Repetitions the rule did not reach count as strays too.
        let names: Vec<&str> = jobs.iter().map(|j| j.job.name.as_str()).collect();
        let used: HashSet<PathBuf> = summary.results.iter().map(|r| r.1.clone()).collect();
        summary.strays = repeat::strays(&summary.dir, &names, &used);
    }
    Ok(summary)
}

/// `--precondition` over every local target that is opened, with its
/// timing line.
fn precondition(
    targets: &Targets,
    passes: u32,
    progress: &dyn Progress,
) -> Result<precondition::PreconditionReport, RunError> {
    let paths: Vec<&Path> = targets
        .local()
        .iter()
        .filter(|t| t.kind.is_some())
        .filter_map(|t| t.path.as_deref())
        .collect();
    let r = precondition::run(&paths, passes, progress)?;
    progress.note(&format!(
        "preconditioned {} ({}, {:.0} MiB) in {:.1} s",
        crate::numbers::count(r.targets, "target"),
        precondition::PreconditionReport::describe(r.passes),
        r.bytes as f64 / (1u64 << 20) as f64,
        r.seconds
    ));
    Ok(r)
}

/// Runs the repetitions in rounds: repetition k of every job that still
/// wants one, then round k + 1. Rounds spread slow drift of the machine
/// (other load, heat, caches) over all jobs alike, where all of one job's
/// repetitions in a row would pin the drift on that job and bias a
/// comparison between jobs. Returns each job's tally, also when a Ctrl-C
/// stopped the run (`summary.interrupted`).
fn run_rounds(
    bench: &Bench,
    jobs: &[Planned],
    planned: &[usize],
    progress: &dyn Progress,
    summary: &mut RunSummary,
) -> Result<Vec<RepeatTally>, RunError> {
    let repeat = &bench.opts.repeat;
    let mut tallies = vec![RepeatTally::default(); jobs.len()];
    let mut measured = vec![0usize; jobs.len()];
    for k in 0..repeat.most() as usize {
        for (j, p) in jobs.iter().enumerate() {
            if !tallies[j].wants_more(repeat) {
                continue;
            }
            let rep = &p.reps[k];
            let name = p.job.name.clone();
            if rep.current {
                tallies[j].add(bench.iops_of(&rep.path));
                summary
                    .results
                    .push((name, rep.path.clone(), Outcome::Kept));
                continue;
            }
            if engines::sys::interrupted() {
                summary.interrupted = true;
                return Ok(tallies);
            }
            if measured[j] >= planned[j] {
                progress.grow(1, job_time(p.job));
            }
            measured[j] += 1;
            // The spec hash stays the job's: every repetition measures it.
            let job = JobSpec {
                name: repeat.rep_name(&p.job.name, k as u32),
                ..p.job.clone()
            };
            match bench.run_job(&job, &p.hash, &rep.path, progress) {
                Ok(o) => {
                    let ok = !matches!(o, Outcome::Errored(..));
                    tallies[j].add(if ok { bench.iops_of(&rep.path) } else { None });
                    summary.results.push((name, rep.path.clone(), o));
                }
                Err(RunError::Interrupted) => {
                    summary.interrupted = true;
                    return Ok(tallies);
                }
                Err(e) => return Err(e),
            }
        }
    }
    Ok(tallies)
}

#[cfg(test)]
mod tests;
