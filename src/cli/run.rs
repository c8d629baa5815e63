//! `nvcmp run`: arguments and their validation into `run::RunOptions`,
//! the progress bar, and the summary on stderr.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};

use super::{CliError, Global};
use crate::run::engines::{EngineKind, EngineOptions};
use crate::run::spec::{JobSpec, Rw};
use crate::run::{self, EngineChoice, Outcome, Progress, RunError, RunOptions};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineArg {
    Psync,
    Libaio,
    #[value(name = "io_uring", alias = "io-uring")]
    IoUring,
    Null,
    Fio,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MatrixArg {
    /// randread 4k & 64k, read 64k & 128k, randwrite 4k & 64k, write 64k & 128k.
    Article,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  nvcmp run --matrix article --engine io_uring --out results/
  nvcmp run --rw randread --bs 4k --iodepth 32 --runtime 30 --out results/ --label linux-libaio --engine libaio
  nvcmp run --engine fio --clients 10.0.0.1,10.0.0.2:8765 --matrix article --out results/

Safety: without --target, nvcmp creates a scratch file under --out and removes it.
An existing file is only written with --destroy-data; a block device is refused when
mounted, when it holds a partition table or filesystem, or when the job writes,
unless --destroy-data is given.")]
pub struct Args {
    /// File or block device to test (default: a scratch file nvcmp creates and removes).
    #[arg(long, value_name = "PATH")]
    pub target: Option<PathBuf>,
    /// I/O engine: native psync, libaio, io_uring or null, or fio itself.
    #[arg(long, value_enum, default_value = "io_uring")]
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
    #[arg(long, default_value_t = 32)]
    pub iodepth: u32,
    /// I/Os per submit call (fio's iodepth_batch_submit). 1, as in fio,
    /// keeps the device queue full; larger batches save syscalls but make
    /// I/Os reach the device in bursts.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub iodepth_batch: u32,
    /// Most completions reaped per call (fio's iodepth_batch_complete_max).
    /// 1, as in fio, refills the queue as each I/O completes.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub iodepth_batch_complete: u32,
    /// Threads per job (results are merged as fio's group_reporting does).
    #[arg(long, default_value_t = 1)]
    pub numjobs: u32,
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

/// Validates the flags once into the core's options.
pub fn options(args: &Args) -> anyhow::Result<RunOptions> {
    let rw = Rw::parse(&args.rw).ok_or_else(|| {
        usage(format!(
            "--rw {}: expected read, write, randread, randwrite, rw or randrw",
            args.rw
        ))
    })?;
    let bs = crate::units::parse_size(&args.bs)
        .ok_or_else(|| usage(format!("--bs {}: not a size (4k, 64k, 1m)", args.bs)))?;
    let size = crate::units::parse_size(&args.size)
        .ok_or_else(|| usage(format!("--size {}: not a size (64m, 1g)", args.size)))?;
    let template = JobSpec {
        name: JobSpec::default_name(rw, bs, args.iodepth, args.numjobs),
        rw,
        bs,
        iodepth: args.iodepth,
        iodepth_batch: args.iodepth_batch,
        iodepth_batch_complete: args.iodepth_batch_complete,
        numjobs: args.numjobs,
        runtime_s: args.runtime,
        ramp_s: args.ramp_time,
        size,
        rwmixread: args.rwmixread,
        direct: !args.buffered,
        time_based: !args.size_based,
    };
    let mut target = args.target.clone();
    let mut engine_arg = args.engine;
    let mut fio_ioengine = args.fio_ioengine.clone();
    let jobs = if let Some(path) = &args.job_file {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("--job-file {}", path.display()))
            .map_err(|e| usage(format!("{e:#}")))?;
        let f = run::jobfile::parse(&text, &template)
            .map_err(|e| usage(format!("{}: {e}", path.display())))?;
        if target.is_none() {
            target = f.filename.map(PathBuf::from);
        }
        if let Some(e) = f.ioengine {
            if engine_arg == EngineArg::Fio {
                fio_ioengine = e;
            } else {
                engine_arg = match e.as_str() {
                    "psync" | "pvsync" | "sync" => EngineArg::Psync,
                    "libaio" => EngineArg::Libaio,
                    "io_uring" => EngineArg::IoUring,
                    "null" => EngineArg::Null,
                    other => {
                        return Err(usage(format!(
                            "{}: ioengine={other} has no native engine; use --engine fio",
                            path.display()
                        )));
                    }
                };
            }
        }
        f.jobs
    } else if args.matrix == Some(MatrixArg::Article) {
        run::spec::article_matrix(&template)
    } else {
        vec![template]
    };
    for j in &jobs {
        j.validate().map_err(usage)?;
    }
    if !args.clients.is_empty() && engine_arg != EngineArg::Fio {
        return Err(usage("--clients needs --engine fio"));
    }
    let engine = match engine_arg {
        EngineArg::Psync => EngineChoice::Native(EngineKind::Psync),
        EngineArg::Libaio => EngineChoice::Native(EngineKind::Libaio),
        EngineArg::IoUring => EngineChoice::Native(EngineKind::IoUring),
        EngineArg::Null => EngineChoice::Native(EngineKind::Null),
        EngineArg::Fio => EngineChoice::Fio(run::fio::FioSetup {
            bin: args.fio.clone(),
            ioengine: fio_ioengine,
            clients: args.clients.iter().map(|c| client_spec(c)).collect(),
        }),
    };
    let label = args
        .label
        .clone()
        .unwrap_or_else(|| format!("{}-{}", std::env::consts::OS, engine.name()));
    if label.is_empty() || label.contains(['/', '\\']) || label == "." || label == ".." {
        return Err(usage(format!(
            "--label {label:?}: must be a plain folder name"
        )));
    }
    Ok(RunOptions {
        jobs,
        engine,
        engine_opts: EngineOptions {
            fixedbufs: args.fixedbufs,
            registerfiles: args.registerfiles,
            sqpoll: args.sqthread_poll,
        },
        target,
        out_dir: args.out.clone(),
        label,
        force: args.force,
        destroy_data: args.destroy_data,
    })
}

/// The indicatif bar on stderr: job, elapsed time, live IOPS. A fresh bar
/// per job, cleared at its end, so the summary lines print cleanly.
struct Bar(std::cell::RefCell<Option<ProgressBar>>);

impl Progress for Bar {
    fn start(&self, job: &str, total: Duration) {
        let pb = ProgressBar::new(total.as_millis().max(1) as u64);
        pb.set_style(
            ProgressStyle::with_template("{prefix:>24} [{elapsed_precise}] {wide_bar} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        pb.set_prefix(job.to_string());
        // Keeps the elapsed time moving when no IOPS come (fio jobs).
        pb.enable_steady_tick(Duration::from_millis(250));
        *self.0.borrow_mut() = Some(pb);
    }
    fn tick(&self, elapsed: Duration, iops: f64) {
        if let Some(pb) = self.0.borrow().as_ref() {
            pb.set_position(elapsed.as_millis() as u64);
            pb.set_message(format!("{iops:.0} IOPS"));
        }
    }
    fn finish(&self) {
        if let Some(pb) = self.0.borrow_mut().take() {
            pb.finish_and_clear();
        }
    }
}

pub fn run(args: Args, global: Global) -> anyhow::Result<u8> {
    let opts = options(&args)?;
    let bar = Bar(std::cell::RefCell::new(None));
    let progress: &dyn Progress = if global.progress {
        &bar
    } else {
        &run::NoProgress
    };
    let summary = match run::run_matrix(&opts, progress) {
        Ok(s) => s,
        Err(RunError::Interrupted) => {
            eprintln!("nvcmp: interrupted; no partial result was written");
            return Ok(130);
        }
        Err(e @ (RunError::Refused(_) | RunError::Target(_) | RunError::FioMissing(_))) => {
            return Err(usage(e.to_string()));
        }
        Err(e) => return Err(anyhow::Error::new(e).context("nvcmp run")),
    };
    let mut errors = 0;
    for (name, path, outcome) in &summary.results {
        match outcome {
            Outcome::Written if !global.quiet => eprintln!("wrote {}", path.display()),
            Outcome::Kept if !global.quiet => {
                eprintln!(
                    "kept  {} (same job spec; --force reruns it)",
                    path.display()
                )
            }
            Outcome::Errored(errno, msg) => {
                errors += 1;
                eprintln!(
                    "nvcmp: warning: job {name} failed with error {errno} ({msg}); written to {}",
                    path.display()
                );
            }
            _ => {}
        }
    }
    if summary.interrupted {
        eprintln!(
            "nvcmp: interrupted; {} completed result(s) kept in {}, no partial file",
            summary.results.len(),
            summary.dir.display()
        );
        return Ok(130);
    }
    Ok(if errors > 0 {
        super::exit::USAGE
    } else {
        super::exit::OK
    })
}
