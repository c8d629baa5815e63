//! `nvcmp run`: arguments and their validation into `run::RunOptions`,
//! the progress bar, and the summary on stderr.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use indicatif::{HumanDuration, ProgressBar};

use super::{CliError, Global};
use crate::path_text::shown;
use crate::run::engines::{EngineKind, EngineOptions};
use crate::run::matrix;
use crate::run::placement::{CpuList, PlacementRule};
use crate::run::repeat::{
    DEFAULT_MAX_REPEATS, JobRepeats, MIN_REPEATS, Repeat, StopRule, StopVerdict,
};
use crate::run::spec::{HarnessRw, JobSpec};
use crate::run::{self, EngineChoice, Outcome, Progress, RunError, RunOptions};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineArg {
    Psync,
    Libaio,
    #[value(name = "io_uring", alias = "io-uring")]
    IoUring,
    /// Windows: overlapped I/O on a completion port (fio's windowsaio).
    Windowsaio,
    Null,
    Fio,
}

/// `--engine`'s default: the system's asynchronous engine.
#[cfg(not(windows))]
const DEFAULT_ENGINE: &str = "io_uring";
#[cfg(windows)]
const DEFAULT_ENGINE: &str = "windowsaio";

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum NumaArg {
    /// Pin each target's threads to the CPUs of the NUMA node its device
    /// reports in sysfs.
    Auto,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MatrixArg {
    /// randread 4k & 64k, read 64k & 128k, randwrite 4k & 64k, write 64k & 128k.
    Article,
    /// randread 4k and randwrite 4k at iodepth 1,2,4,...,128: a load sweep
    /// (--iodepth replaces the depths; --numjobs, default 1, multiplies them).
    Sweep,
}

// Its doc comments are `--help` text, written for the terminal: `<job>`
// and `HOST[:PORT]` are placeholders there, not HTML or links.
#[allow(rustdoc::invalid_html_tags, rustdoc::broken_intra_doc_links)]
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  nvcmp run --matrix article --engine io_uring --out results/
  nvcmp run --matrix sweep --numjobs 1,4 --runtime 30 --out results/
  nvcmp run --rw randread --bs 4k --iodepth 1-128 --numjobs 1,2,4 --out results/
  nvcmp run --rw randread --bs 4k --iodepth 32 --runtime 30 --out results/ --label linux-libaio --engine libaio
  nvcmp run --engine fio --clients 10.0.0.1,10.0.0.2:8765 --matrix article --out results/
  nvcmp run --matrix article --repeat 3 --runtime 30 --out results/
  nvcmp run --rw randread --bs 4k --until-stddev 3.5 --max-repeats 10 --out results/
  nvcmp run --rw randwrite --bs 128k --runtime 600 --log --out results/   # then: nvcmp analyze results/ --out report/
  nvcmp run --engine psync --numjobs 2 --log --log-avg-msec 0 --runtime 5 --out results/
  nvcmp run --target /dev/nvme1n1,/dev/nvme2n1 --target /dev/nvme3n1 --matrix article --out results/
  nvcmp run --target /dev/nvme1n1 --target /dev/nvme2n1 --numa auto --numjobs 4 --out results/
  nvcmp run --target /dev/nvme1n1 --cpus-allowed 0-15,32-47 --engine fio --out results/
  nvcmp run --target /dev/nvme1n1 --target /dev/nvme2n1 --precondition --destroy-data \\
            --rw randwrite --bs 4k --runtime 600 --out results/

Test beds: --target may be given many times and takes a comma list; a job file's
filename=a:b:c and per-section filenames add targets too. Every job runs on all
targets at once, --numjobs threads each, and writes one result with a job per
target (fio's group_reporting per target); analyze sums the targets into the
config's figure and compares the devices with each other. --cpus-allowed pins
every thread (fio's syntax); --numa auto pins each target's threads to its
device's NUMA node (a note where sysfs does not say: files, loop devices, -1).
--precondition fills every target with sequential 128k writes, twice (SNIA PTS
preconditioning; --precondition-passes N), before the first job; it needs
--destroy-data for devices and existing files, as any write does.

Sweeps: --iodepth and --numjobs take one value, a list (1,4,16) or a doubling
range (1-128 = 1,2,4,8,16,32,64,128), or a mix (1-8,12). Every combination runs,
for every rw/bs of the job set, depth ascending within each thread count; each
point writes its own file (randread-4k-qd8-j4.json) and a rerun keeps the
finished ones. With --job-file, a flag given on the command line overrides the
file's value for every job; a job that becomes several points is named
<section>-qd<N>-j<M>.

Repeats: --repeat N writes <job>-r01.json .. <job>-rNN.json, one result per
repetition (run as job <job>-r01 .., so --log logs are each repetition's own),
and analyze, check and history take the spread from the runs. They
run in rounds (every job once, then every job again), so slow drift of the
machine spreads over all jobs alike instead of favouring the ones run first. A
rerun keeps the repetitions already there. --until-stddev PCT repeats a job
until the relative standard deviation of its IOPS is at most PCT %: at least 3
runs, at most --max-repeats (default 10); a job that reaches it is named in a
warning and its results are kept (exit 0).

Logs: --log writes fio's logs of each job next to its result (<job>_bw.N.log,
_iops, _lat, _clat, _slat; N = thread), averaged over --log-avg-msec (500 ms,
fio's bw/iops sample interval, so a 10 s job writes 20 lines a file; 0 writes a
line per I/O as fio does by default); --log-hist-msec adds fio's clat histogram
log (<job>_clat_hist.N.log). `nvcmp analyze` draws them (timeseries_* charts,
latency percentiles over time, SNIA steady state); a rerun of a job replaces
its logs.

Safety: without --target, nvcmp creates a scratch file under --out and removes it.
An existing file is only written with --destroy-data; a block device is refused when
mounted, when it holds a partition table or filesystem, or when the job writes,
unless --destroy-data is given. A missing device is refused. Every target is
checked before anything is written to any of them; a device that fails during
a job ends its own part of the result with fio's error field, the others are kept.")]
pub struct RunArgs {
    /// File or block device to test; give it many times or as a comma list
    /// to run every job on all of them at once (default: a scratch file
    /// nvcmp creates and removes).
    #[arg(long, value_name = "PATH[,PATH...]", value_delimiter = ',')]
    pub target: Vec<PathBuf>,
    /// Pin every worker thread to these CPUs (fio's cpus_allowed syntax:
    /// 0-15,32-47).
    #[arg(long, value_name = "LIST", conflicts_with = "numa")]
    pub cpus_allowed: Option<String>,
    /// NUMA placement of each target's threads.
    #[arg(long, value_enum, value_name = "auto")]
    pub numa: Option<NumaArg>,
    /// Before the first job, fill every target with sequential 128k writes
    /// (SNIA PTS preconditioning), --precondition-passes times.
    #[arg(long)]
    pub precondition: bool,
    /// With --precondition: how many times each target is filled.
    #[arg(long, value_name = "N", requires = "precondition",
          default_value_t = run::precondition::DEFAULT_PASSES,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub precondition_passes: u32,
    /// I/O engine: native psync, libaio, io_uring (Linux), windowsaio
    /// (Windows) or null, or fio itself.
    #[arg(long, value_enum, default_value = DEFAULT_ENGINE)]
    pub engine: EngineArg,
    /// Run a built-in matrix instead of one job.
    #[arg(long, value_enum, conflicts_with = "job_file")]
    pub matrix: Option<MatrixArg>,
    /// Jobs from a fio job file (a subset of fio's options).
    #[arg(long, value_name = "FILE")]
    pub job_file: Option<PathBuf>,
    /// fio's rw: read, write, randread, randwrite, rw, randrw.
    #[arg(long, default_value = "randread")]
    pub rw: String,
    /// Block size (4k, 64k, 1m).
    #[arg(long, default_value = "4k")]
    pub bs: String,
    /// I/Os in flight per thread: N, a list (1,4,16) or a doubling range
    /// (1-128) [default: 32; --matrix sweep: 1-128].
    #[arg(long, value_name = "N[,N...]|A-B")]
    pub iodepth: Option<String>,
    /// I/Os per submit call (fio's iodepth_batch_submit). 1, as in fio,
    /// keeps the device queue full; larger batches save syscalls but make
    /// I/Os reach the device in bursts.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub iodepth_batch: u32,
    /// Most completions reaped per call (fio's iodepth_batch_complete_max).
    /// 1, as in fio, refills the queue as each I/O completes.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub iodepth_batch_complete: u32,
    /// Threads per job (results are merged as fio's group_reporting does):
    /// N, a list or a doubling range like --iodepth [default: 1].
    #[arg(long, value_name = "N[,N...]|A-B")]
    pub numjobs: Option<String>,
    /// Measured seconds per job (after the ramp).
    #[arg(long, default_value_t = 10)]
    pub runtime: u64,
    /// Seconds of warm-up before measuring.
    #[arg(long, default_value_t = 0)]
    pub ramp_time: u64,
    /// Region of the target to use (and size of the scratch file).
    #[arg(long, default_value = "1g")]
    pub size: String,
    /// Stop after --size bytes per thread instead of running for --runtime.
    #[arg(long)]
    pub size_based: bool,
    /// Percent of reads in rw/randrw jobs.
    #[arg(long, default_value_t = 50)]
    pub rwmixread: u8,
    /// O_DIRECT (the default).
    #[arg(long, overrides_with = "buffered")]
    pub direct: bool,
    /// Through the page cache.
    #[arg(long, overrides_with = "direct")]
    pub buffered: bool,
    /// Results root: files go to DIR/LABEL/<job>.json.
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub out: PathBuf,
    /// Configuration name (default: <os>-<engine>).
    #[arg(long, value_name = "NAME")]
    pub label: Option<String>,
    /// Rerun jobs whose result is already there with the same spec.
    #[arg(long)]
    pub force: bool,
    /// Run each job N times, one result per repetition (<job>-r01.json ...),
    /// in rounds: every job once, then every job again (drift of the machine
    /// spreads over all jobs alike). analyze, check and history take the
    /// spread from the repetitions [default: 1, one <job>.json].
    #[arg(long, value_name = "N")]
    pub repeat: Option<u32>,
    /// Repeat each job until the relative standard deviation (stddev / mean)
    /// of its IOPS (read + write; bandwidth moves with it) is at most PCT %:
    /// at least 3 runs, at most --max-repeats (the Phoronix Test Suite's
    /// rule; it uses 3.5).
    #[arg(long, value_name = "PCT")]
    pub until_stddev: Option<String>,
    /// With --until-stddev: stop after N repetitions of a job even when its
    /// spread is still above PCT (a warning, exit 0) [default: 10].
    #[arg(long, value_name = "N")]
    pub max_repeats: Option<u32>,
    /// Allow writing to an existing file or a block device (destroys its data).
    #[arg(long)]
    pub destroy_data: bool,
    /// io_uring: register the I/O buffers (fio's fixedbufs).
    #[arg(long)]
    pub fixedbufs: bool,
    /// io_uring: register the file (fio's registerfiles).
    #[arg(long)]
    pub registerfiles: bool,
    /// io_uring: kernel submission-queue polling thread (fio's sqthread_poll).
    #[arg(long)]
    pub sqthread_poll: bool,
    /// --engine fio: fio servers to run on, HOST[:PORT] or HOST[,PORT], comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "HOST[:PORT],...")]
    pub clients: Vec<String>,
    /// --engine fio: fio's ioengine for the jobs.
    #[arg(long, default_value = "libaio", value_name = "NAME")]
    pub fio_ioengine: String,
    /// --engine fio: the fio binary.
    #[arg(long, default_value = "fio", value_name = "PATH", env = "NVCMP_FIO")]
    pub fio: PathBuf,
    /// Write fio's bw, iops and lat/clat/slat logs of each job next to its
    /// result (<job>_bw.N.log ..., one N per thread), as fio's
    /// write_bw_log/write_iops_log/write_lat_log do.
    #[arg(long)]
    pub log: bool,
    /// With --log: average the logs over MS milliseconds (fio's
    /// log_avg_msec); 0 logs every I/O.
    #[arg(long, value_name = "MS", requires = "log", default_value_t = run::iolog::DEFAULT_AVG_MSEC)]
    pub log_avg_msec: u64,
    /// With --log: also a completion-latency histogram log every MS
    /// milliseconds (<job>_clat_hist.N.log, fio's write_hist_log and
    /// log_hist_msec), for latency percentiles over time.
    #[arg(long, value_name = "MS", requires = "log", value_parser = clap::value_parser!(u64).range(1..))]
    pub log_hist_msec: Option<u64>,
}

fn usage(msg: impl Into<String>) -> anyhow::Error {
    CliError::usage(msg).into()
}

/// fio's client syntax is `host,port`; `host:port` is accepted too.
fn client_spec(c: &str) -> String {
    match c.rsplit_once(':') {
        Some((h, p)) if !h.contains(':') && p.parse::<u16>().is_ok() => format!("{h},{p}"),
        _ => c.to_string(),
    }
}

/// The levels a load flag asks for; None when it is not on the command line.
fn levels(flag: &str, value: Option<&str>) -> anyhow::Result<Option<Vec<u32>>> {
    value
        .map(|v| matrix::parse_levels(v).map_err(|e| usage(format!("{flag} {v}: {e}"))))
        .transpose()
}

/// The job that single jobs, built-in matrices and job files start from.
fn template(args: &RunArgs, iodepth: u32, numjobs: u32) -> anyhow::Result<JobSpec> {
    let rw = HarnessRw::parse(&args.rw).ok_or_else(|| {
        usage(format!(
            "--rw {}: expected read, write, randread, randwrite, rw or randrw",
            args.rw
        ))
    })?;
    let bs = crate::units::grammar::size(&args.bs, Default::default())
        .map_err(|e| usage(format!("--bs {e} (4k, 64k, 1m)")))?;
    let size = crate::units::grammar::size(&args.size, Default::default())
        .map_err(|e| usage(format!("--size {e} (64m, 1g)")))?;
    Ok(JobSpec {
        name: JobSpec::default_name(rw, bs, iodepth, numjobs),
        rw,
        bs,
        iodepth,
        iodepth_batch: args.iodepth_batch,
        iodepth_batch_complete: args.iodepth_batch_complete,
        numjobs,
        runtime_s: args.runtime,
        ramp_s: args.ramp_time,
        size,
        rwmixread: args.rwmixread,
        direct: !args.buffered,
        time_based: !args.size_based,
    })
}

/// The jobs of a run, and the targets and ioengine a job file names.
struct JobSet {
    jobs: Vec<JobSpec>,
    filenames: Vec<PathBuf>,
    ioengine: Option<String>,
}

/// Expands the job set (one job, a built-in matrix or a job file) over
/// the load levels. Levels not given: the preset's depths, else 32 and 1
/// threads, else (job files) each job's own.
fn job_set(args: &RunArgs) -> anyhow::Result<JobSet> {
    let iodepths = levels("--iodepth", args.iodepth.as_deref())?;
    let numjobs = levels("--numjobs", args.numjobs.as_deref())?;
    let first = |l: &Option<Vec<u32>>, default| l.as_ref().map_or(default, |l| l[0]);
    let template = template(args, first(&iodepths, 32), first(&numjobs, 1))?;
    if let Some(path) = &args.job_file {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("--job-file {}", path.display()))
            .map_err(|e| usage(format!("{e:#}")))?;
        let f = run::jobfile::parse(&text, &template)
            .map_err(|e| usage(format!("{}: {e}", path.display())))?;
        return Ok(JobSet {
            jobs: matrix::expand_jobs(&f.jobs, iodepths.as_deref(), numjobs.as_deref()),
            filenames: f.filenames.into_iter().map(PathBuf::from).collect(),
            ioengine: f.ioengine,
        });
    }
    let single = [(template.rw, template.bs)];
    let (cells, depths): (&[_], &[u32]) = match args.matrix {
        Some(MatrixArg::Article) => (&matrix::ARTICLE_CELLS, &[32]),
        Some(MatrixArg::Sweep) => (&matrix::SWEEP_CELLS, &matrix::SWEEP_DEPTHS),
        None => (&single, &[32]),
    };
    let load = matrix::Load {
        iodepths: iodepths.unwrap_or_else(|| depths.to_vec()),
        numjobs: numjobs.unwrap_or_else(|| vec![1]),
    };
    Ok(JobSet {
        jobs: matrix::expand_cells(&template, cells, &load),
        filenames: Vec::new(),
        ioengine: None,
    })
}

/// The engine from --engine, or from the job file's ioengine.
fn engine(args: &RunArgs, file_ioengine: Option<String>) -> anyhow::Result<EngineChoice> {
    let mut engine_arg = args.engine;
    let mut fio_ioengine = args.fio_ioengine.clone();
    if let Some(e) = file_ioengine {
        if engine_arg == EngineArg::Fio {
            fio_ioengine = e;
        } else {
            engine_arg = match e.as_str() {
                "psync" | "pvsync" | "sync" => EngineArg::Psync,
                "libaio" => EngineArg::Libaio,
                "io_uring" => EngineArg::IoUring,
                "windowsaio" => EngineArg::Windowsaio,
                "null" => EngineArg::Null,
                other => {
                    let file = args.job_file.as_deref().unwrap_or(Path::new("--job-file"));
                    return Err(usage(format!(
                        "{}: ioengine={other} has no native engine; use --engine fio",
                        file.display()
                    )));
                }
            };
        }
    }
    if !args.clients.is_empty() && engine_arg != EngineArg::Fio {
        return Err(usage("--clients needs --engine fio"));
    }
    let choice = match engine_arg {
        EngineArg::Psync => EngineChoice::Native(EngineKind::Psync),
        EngineArg::Libaio => EngineChoice::Native(EngineKind::Libaio),
        EngineArg::IoUring => EngineChoice::Native(EngineKind::IoUring),
        EngineArg::Windowsaio => EngineChoice::Native(EngineKind::WindowsAio),
        EngineArg::Null => EngineChoice::Native(EngineKind::Null),
        EngineArg::Fio => EngineChoice::Fio(run::fio::FioSetup {
            bin: args.fio.clone(),
            ioengine: fio_ioengine,
            clients: args.clients.iter().map(|c| client_spec(c)).collect(),
        }),
    };
    if let EngineChoice::Native(kind) = &choice {
        kind.available().map_err(usage)?;
    }
    Ok(choice)
}

/// Validates the flags once into the core's options.
pub fn options(args: &RunArgs) -> anyhow::Result<RunOptions> {
    let set = job_set(args)?;
    for j in &set.jobs {
        j.validate().map_err(usage)?;
    }
    if let Some(name) = matrix::duplicate_name(&set.jobs) {
        return Err(usage(format!(
            "two jobs are named {name}: their results would overwrite each other"
        )));
    }
    let engine = engine(args, set.ioengine)?;
    let label = args
        .label
        .clone()
        .unwrap_or_else(|| format!("{}-{}", std::env::consts::OS, engine.name()));
    if let Some(why) = crate::path_text::plain_name_problem(&label) {
        return Err(usage(format!(
            "--label {label:?}: must be a plain folder name: {why}"
        )));
    }
    let placement = placement(args, &engine)?;
    let precondition = precondition(args, &engine)?;
    Ok(RunOptions {
        jobs: set.jobs,
        engine,
        engine_opts: EngineOptions {
            fixedbufs: args.fixedbufs,
            registerfiles: args.registerfiles,
            sqpoll: args.sqthread_poll,
        },
        targets: targets(args, set.filenames)?,
        placement,
        precondition,
        out_dir: args.out.clone(),
        label,
        force: args.force,
        destroy_data: args.destroy_data,
        repeat: repeat(args)?,
        log: args.log.then_some(run::iolog::LogOptions {
            avg_msec: args.log_avg_msec,
            hist_msec: args.log_hist_msec,
        }),
    })
}

/// The targets: --target, else the job file's filenames; each once.
fn targets(args: &RunArgs, from_file: Vec<PathBuf>) -> anyhow::Result<Vec<PathBuf>> {
    let list = if args.target.is_empty() {
        from_file
    } else {
        args.target.clone()
    };
    let mut seen = std::collections::HashSet::new();
    for t in &list {
        if t.as_os_str().is_empty() {
            return Err(usage("--target: an empty path (a list is /dev/a,/dev/b)"));
        }
        if !seen.insert(t) {
            return Err(usage(format!(
                "--target {} is given twice: each target runs once",
                t.display()
            )));
        }
    }
    Ok(list)
}

/// --cpus-allowed or --numa, checked against the CPUs nvcmp may use.
fn placement(args: &RunArgs, engine: &EngineChoice) -> anyhow::Result<PlacementRule> {
    let remote = matches!(engine, EngineChoice::Fio(f) if !f.clients.is_empty());
    if args.numa.is_some() {
        if remote {
            return Err(usage(
                "--numa auto reads this machine's sysfs, not the fio servers'; \
                 with --clients give --cpus-allowed",
            ));
        }
        return Ok(PlacementRule::NumaAuto);
    }
    let Some(text) = &args.cpus_allowed else {
        return Ok(PlacementRule::None);
    };
    let list = CpuList::parse(text).map_err(|e| usage(format!("--cpus-allowed {text}: {e}")))?;
    if list.is_empty() {
        return Err(usage(format!("--cpus-allowed {text}: names no CPU")));
    }
    // fio servers have their own CPUs; here the list must be usable.
    if let (false, Some(allowed)) = (remote, crate::run::affinity::allowed_cpus()) {
        let missing = list.missing_from(&allowed);
        if !missing.is_empty() {
            return Err(usage(format!(
                "--cpus-allowed {text}: CPU {missing} is not available to nvcmp here \
                 (it may use {allowed})"
            )));
        }
    }
    Ok(PlacementRule::CpusAllowed(list))
}

/// --precondition's passes; refused where nothing here would be written.
fn precondition(args: &RunArgs, engine: &EngineChoice) -> anyhow::Result<Option<u32>> {
    if !args.precondition {
        return Ok(None);
    }
    match engine {
        EngineChoice::Native(EngineKind::Null) => Err(usage(
            "--precondition: the null engine does no I/O; pick a real engine with --engine",
        )),
        EngineChoice::Fio(f) if !f.clients.is_empty() => Err(usage(
            "--precondition writes targets on this machine; with --clients precondition \
             on the servers",
        )),
        _ => Ok(Some(args.precondition_passes)),
    }
}

/// --repeat, or --until-stddev with --max-repeats, checked together.
fn repeat(args: &RunArgs) -> anyhow::Result<Repeat> {
    let Some(pct) = &args.until_stddev else {
        if let Some(n) = args.max_repeats {
            return Err(usage(format!(
                "--max-repeats {n} needs --until-stddev PCT; for a fixed count use --repeat {n}"
            )));
        }
        return match args.repeat {
            Some(0) => Err(usage(
                "--repeat 0: each job runs at least once (--repeat 1)",
            )),
            n => Ok(Repeat::Times(n.unwrap_or(1))),
        };
    };
    if args.repeat.is_some() {
        return Err(usage(
            "--repeat and --until-stddev cannot be combined: --repeat N runs N times, \
             --until-stddev PCT --max-repeats N stops early when the runs agree",
        ));
    }
    let target_pct = pct
        .trim()
        .trim_end_matches('%')
        .parse::<f64>()
        .ok()
        .filter(|p| p.is_finite() && *p > 0.0)
        .ok_or_else(|| {
            usage(format!(
                "--until-stddev {pct}: expected a percentage above 0 (3.5)"
            ))
        })?;
    let max = args.max_repeats.unwrap_or(DEFAULT_MAX_REPEATS);
    if max < MIN_REPEATS {
        return Err(usage(format!(
            "--max-repeats {max}: the rule runs each job {MIN_REPEATS} times before it judges; \
             give {MIN_REPEATS} or more, or use --repeat {max}"
        )));
    }
    Ok(Repeat::UntilStddev(StopRule { target_pct, max }))
}

/// Where the bar is in the run, in planned milliseconds.
#[derive(Debug, Default, Clone, Copy)]
struct Place {
    points: usize,
    /// 1-based index of the running point.
    index: usize,
    /// Planned time of the points already measured.
    done_ms: u64,
    /// Planned time of the running point.
    job_ms: u64,
}

/// One indicatif bar on stderr over the whole run: the point, elapsed
/// time, live IOPS and the ETA. Its length is the planned time of the
/// points to measure (runtime + ramp each); a point that ends early or
/// late moves the bar to its planned end, so one slow point does not make
/// the bar run backwards.
///
/// The ETA is the planned time left, stretched by how much longer than
/// planned the run has taken so far (engine setup, writing results):
/// indicatif's own `{eta}` knows no rate before the first tick (it shows
/// 0s) and swings with each point's start.
#[derive(Default)]
struct RunBar {
    bar: std::cell::OnceCell<ProgressBar>,
    place: std::cell::Cell<Place>,
    /// `--precondition`'s bar over the bytes to write, while it runs.
    fill: std::cell::RefCell<Option<ProgressBar>>,
}

impl RunBar {
    fn clear(&self) {
        if let Some(pb) = self.bar.get() {
            pb.finish_and_clear();
        }
    }

    /// Moves the bar to `pos` planned ms and shows the IOPS and the ETA.
    fn show(&self, pos: u64, iops: Option<f64>) {
        let Some(pb) = self.bar.get() else {
            return;
        };
        pb.set_position(pos);
        let left = pb.length().unwrap_or(0).saturating_sub(pos);
        let taken = pb.elapsed().as_millis() as u64;
        // Before a second of the plan is done the ratio is noise.
        let stretch = if pos >= 1000 {
            (taken as f64 / pos as f64).max(1.0)
        } else {
            1.0
        };
        let eta = Duration::from_millis((left as f64 * stretch) as u64);
        let iops = iops.map_or(String::new(), |i| format!("{i:.0} IOPS "));
        pb.set_message(format!("{iops}ETA {:#}", HumanDuration(eta)));
    }
}

impl Progress for RunBar {
    fn plan(&self, points: usize, total: Duration) {
        if points == 0 {
            return;
        }
        let pb = super::progress::bar(
            total.as_millis().max(1) as u64,
            "{prefix:>28} [{elapsed_precise}] {wide_bar} {msg:>22}",
        );
        // Keeps the elapsed time moving between ticks.
        pb.enable_steady_tick(Duration::from_millis(250));
        let _ = self.bar.set(pb);
        self.place.set(Place {
            points,
            ..Place::default()
        });
        self.show(0, None);
    }
    fn start(&self, job: &str, total: Duration) {
        let mut p = self.place.get();
        p.index += 1;
        p.job_ms = total.as_millis() as u64;
        self.place.set(p);
        if let Some(pb) = self.bar.get() {
            pb.set_prefix(if p.points > 1 {
                format!("{}/{} {job}", p.index, p.points)
            } else {
                job.to_string()
            });
        }
        self.show(p.done_ms, None);
    }
    fn tick(&self, elapsed: Duration, iops: Option<f64>) {
        let p = self.place.get();
        self.show(p.done_ms + (elapsed.as_millis() as u64).min(p.job_ms), iops);
    }
    fn finish(&self) {
        let mut p = self.place.get();
        p.done_ms += p.job_ms;
        p.job_ms = 0;
        self.place.set(p);
        self.show(p.done_ms, None);
    }
    fn fill(&self, done: u64, total: u64) {
        let mut fill = self.fill.borrow_mut();
        if done >= total {
            if let Some(pb) = fill.take() {
                pb.finish_and_clear();
            }
            return;
        }
        let pb = fill.get_or_insert_with(|| {
            let pb = super::progress::bar(
                total,
                "{prefix:>28} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} ETA {eta}",
            );
            pb.set_prefix("preconditioning");
            pb
        });
        pb.set_position(done);
    }
    fn note(&self, text: &str) {
        eprintln!("nvcmp: {text}");
    }
    fn grow(&self, points: usize, more: Duration) {
        let mut p = self.place.get();
        p.points += points;
        self.place.set(p);
        match self.bar.get() {
            Some(pb) => pb.inc_length(more.as_millis() as u64),
            // Every planned point was kept: the bar starts now.
            None => self.plan(points, more),
        }
    }
}

/// Per job: repetitions and the spread of their IOPS; for --until-stddev
/// a warning for each job that reached --max-repeats, and a summary line.
/// Results of these jobs left by an earlier run are named, as analyze
/// counts them as repetitions too.
fn report_repeats(summary: &run::RunSummary, repeat: &Repeat, quiet: bool) {
    for path in &summary.strays {
        eprintln!(
            "nvcmp: warning: {} is from an earlier run with other repetitions; \
             analyze reads it as one more repetition (move it away if it should not count)",
            path.display()
        );
    }
    if summary.interrupted {
        return;
    }
    for r in summary.repeats.iter().filter(|_| !quiet) {
        eprintln!("{}", repeat_line(r, repeat));
    }
    let Repeat::UntilStddev(rule) = repeat else {
        return;
    };
    let missed: Vec<&JobRepeats> = summary
        .repeats
        .iter()
        .filter(|r| r.verdict == Some(StopVerdict::MaxReached))
        .collect();
    for r in &missed {
        eprintln!(
            "nvcmp: warning: {}: --max-repeats {} reached with IOPS relative stddev {} above \
             --until-stddev {}; its results are kept",
            r.job,
            rule.max,
            rsd(r.rsd_pct),
            pct(rule.target_pct)
        );
    }
    if !quiet || !missed.is_empty() {
        eprintln!(
            "until-stddev {}: {} of {} met it; {} reached --max-repeats {}",
            pct(rule.target_pct),
            summary.repeats.len() - missed.len(),
            crate::numbers::count(summary.repeats.len(), "job"),
            missed.len(),
            rule.max
        );
    }
}

/// `randread-4k-qd32-j1: 4 repetitions, IOPS relative stddev 2.9 %`.
fn repeat_line(r: &JobRepeats, repeat: &Repeat) -> String {
    let verdict = match (r.verdict, repeat) {
        (Some(StopVerdict::Met), Repeat::UntilStddev(rule)) => {
            format!(" (target {}: met)", pct(rule.target_pct))
        }
        (Some(_), Repeat::UntilStddev(rule)) => {
            format!(" (target {}: not met)", pct(rule.target_pct))
        }
        _ => String::new(),
    };
    format!(
        "{}: {} repetitions, IOPS relative stddev {}{verdict}",
        r.job,
        r.ran,
        rsd(r.rsd_pct)
    )
}

fn pct(x: f64) -> String {
    format!("{x} %")
}

/// A relative stddev, or why there is none.
fn rsd(x: Option<f64>) -> String {
    x.map_or("unknown (fewer than 2 results)".into(), |x| {
        format!("{x:.2} %")
    })
}

/// No bars (stderr is not a terminal), but the notes a user should read.
struct NotesOnly;

impl Progress for NotesOnly {
    fn plan(&self, _: usize, _: Duration) {}
    fn start(&self, _: &str, _: Duration) {}
    fn tick(&self, _: Duration, _: Option<f64>) {}
    fn finish(&self) {}
    fn note(&self, text: &str) {
        eprintln!("nvcmp: {text}");
    }
}

pub fn run(args: RunArgs, global: Global) -> anyhow::Result<u8> {
    let opts = options(&args)?;
    let bar = RunBar::default();
    let progress: &dyn Progress = match (global.progress, global.quiet) {
        (true, _) => &bar,
        (false, false) => &NotesOnly,
        (false, true) => &run::NoProgress,
    };
    let result = run::run_matrix(&opts, progress);
    bar.clear();
    let summary = match result {
        Ok(s) => s,
        Err(RunError::Interrupted) => {
            eprintln!("nvcmp: interrupted; no partial result was written");
            return Ok(130);
        }
        Err(
            e @ (RunError::Refused(_)
            | RunError::Target(_)
            | RunError::FioMissing(_)
            | RunError::LinuxOnly(_)),
        ) => {
            return Err(usage(e.to_string()));
        }
        Err(e) => return Err(anyhow::Error::new(e).context("nvcmp run")),
    };
    let mut errors = 0;
    for (name, path, outcome) in &summary.results {
        match outcome {
            Outcome::Written if !global.quiet => eprintln!("wrote {}", shown(path)),
            Outcome::Kept if !global.quiet => {
                eprintln!("kept  {} (same job spec; --force reruns it)", shown(path))
            }
            Outcome::Errored(errno, msg) => {
                errors += 1;
                eprintln!(
                    "nvcmp: warning: job {name} failed with error {errno} ({msg}); written to {}",
                    shown(path)
                );
            }
            _ => {}
        }
    }
    report_repeats(&summary, &opts.repeat, global.quiet);
    if summary.interrupted {
        eprintln!(
            "nvcmp: interrupted; {} kept in {}, no partial file",
            crate::numbers::count(summary.results.len(), "completed result"),
            shown(&summary.dir)
        );
        return Ok(130);
    }
    Ok(if errors > 0 {
        super::exit::USAGE
    } else {
        super::exit::OK
    })
}
