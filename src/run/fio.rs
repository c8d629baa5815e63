//! `--engine fio`: writes a fio job file for each job of the matrix, runs
//! the fio binary (`--output-format=json+`), locally or on many hosts at
//! once through fio's client/server mode (`--client=HOST[,PORT]`), and
//! keeps fio's JSON as the result, with an `nvcmp` key added.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::engines::sys;
use super::host::{CpuTimes, HostFacts};
use super::iolog::LogOptions;
use super::placement::Placement;
use super::precondition;
use super::spec::{HarnessRw, JobSpec};
use super::{Progress, RunError};

/// How to run fio.
#[derive(Debug, Clone)]
pub struct FioSetup {
    /// The fio binary.
    pub bin: PathBuf,
    /// fio's `ioengine` for the jobs (`libaio`, `io_uring`, `psync`...).
    pub ioengine: String,
    /// `HOST[,PORT]` of fio servers; empty runs fio locally.
    pub clients: Vec<String>,
}

/// The fio binary cannot be run (a usage error: the message carries the
/// OS error, see `RunError`).
#[derive(Debug, thiserror::Error)]
pub enum FioMissing {
    /// `fio --version` failed, before any job.
    #[error(
        "cannot run `{}` ({error}); install fio (apt-get install fio, or fio.exe on Windows) \
         or pick a native engine with --engine psync|libaio|io_uring|null",
        .bin.display()
    )]
    Probe { bin: PathBuf, error: std::io::Error },
    /// Starting fio for a job failed.
    #[error("cannot run `{}`: {error}", .bin.display())]
    Spawn { bin: PathBuf, error: std::io::Error },
}

/// fio's version line (`fio-3.33`), or a clear error when it is missing.
pub fn version(bin: &Path) -> Result<String, RunError> {
    let out = Command::new(bin)
        .arg("--version")
        .output()
        .map_err(|error| FioMissing::Probe {
            bin: bin.to_path_buf(),
            error,
        })?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The job file for one job (fio ini syntax): `[global]` with the engine,
/// then a section per target with its `filename`, its own group
/// (`new_group`, so `group_reporting` merges each target's threads but
/// keeps the targets apart), its CPUs (`numa_cpu_nodes` where `--numa
/// auto` found the device's node, else `cpus_allowed`), the workload and
/// `extra` options (logs). The workload stays in each section, not in
/// `[global]`, so fio lists it in every job's `job options`, where fio
/// tools look for it.
pub fn job_file(
    spec: &JobSpec,
    ioengine: &str,
    sections: &[(String, Placement)],
    unlink: bool,
    extra: &[(&str, String)],
) -> String {
    let mut s = String::from("; written by nvcmp run --engine fio\n[global]\n");
    s += &format!("ioengine={ioengine}\ndirect={}\n", spec.direct as u8);
    s += "group_reporting=1\n";
    for (filename, placement) in sections {
        s += &format!("\n[{}]\nfilename={filename}\n", spec.name);
        if sections.len() > 1 {
            s += "new_group\n";
        }
        match (placement.numa_node, &placement.cpus) {
            (Some(node), _) => s += &format!("numa_cpu_nodes={node}\n"),
            (None, Some(cpus)) => s += &format!("cpus_allowed={cpus}\n"),
            (None, None) => {}
        }
        s += &job_lines(spec);
        if unlink {
            s += "unlink=1\n";
        }
        for (k, v) in extra {
            s += &format!("{k}={v}\n");
        }
    }
    s
}

/// The workload's options, one `key=value` line each.
fn job_lines(spec: &JobSpec) -> String {
    let mut s = String::new();
    s += &format!("rw={}\n", spec.rw);
    s += &format!("bs={}\n", spec.bs);
    s += &format!("iodepth={}\n", spec.iodepth);
    if spec.iodepth_batch != 1 {
        s += &format!("iodepth_batch_submit={}\n", spec.iodepth_batch);
    }
    if spec.iodepth_batch_complete != 1 {
        s += &format!(
            "iodepth_batch_complete_max={}\n",
            spec.iodepth_batch_complete
        );
    }
    s += &format!("numjobs={}\n", spec.numjobs);
    s += &format!("size={}\n", spec.size);
    if spec.runtime_s > 0 {
        s += &format!("runtime={}\n", spec.runtime_s);
    }
    if spec.time_based {
        s += "time_based=1\n";
    }
    if spec.ramp_s > 0 {
        s += &format!("ramp_time={}\n", spec.ramp_s);
    }
    if matches!(spec.rw, HarnessRw::ReadWrite | HarnessRw::RandRw) {
        s += &format!("rwmixread={}\n", spec.rwmixread);
    }
    s
}

/// A job of the matrix run through fio: what every point shares.
pub struct FioRun<'a> {
    pub setup: &'a FioSetup,
    /// fio's `filename` of each target, with its placement.
    pub sections: Vec<(String, Placement)>,
    /// fio removes the file at the end (nvcmp's scratch file).
    pub unlink: bool,
    /// Where the job file and fio's output live while fio runs.
    pub work_dir: &'a Path,
    pub host: &'a HostFacts,
    /// What `--precondition` did before the matrix, recorded in results.
    pub precondition: Option<&'a precondition::PreconditionReport>,
}

impl FioRun<'_> {
    /// Runs one job through fio and returns its JSON with the `nvcmp` key;
    /// with `log`, fio writes the job's logs into its folder.
    pub fn run_job(
        &self,
        spec: &JobSpec,
        spec_hash: &str,
        log: Option<(&Path, LogOptions)>,
        progress: &dyn Progress,
    ) -> Result<Value, RunError> {
        let (setup, work_dir) = (self.setup, self.work_dir);
        let job_text = self.job_text(spec, log.map(|(_, o)| o));
        std::fs::create_dir_all(work_dir).map_err(RunError::io(work_dir))?;
        // Both made new under random names: fio opens them by path, and a
        // name planted in the folder (a symlink) is never what it opens.
        let temporary = |name: String| {
            let at = work_dir.join(name);
            crate::atomic_file::temporary(&at).map_err(RunError::io(&at))
        };
        let (jobpath, mut jobfile) = temporary(format!("{}.fio", spec.name))?;
        let (outpath, _) = temporary(format!("{}.fio-out", spec.name))?;
        let written = std::io::Write::write_all(&mut jobfile, job_text.as_bytes());
        drop(jobfile);
        if let Err(e) = written {
            let _ = std::fs::remove_file(&outpath);
            let _ = std::fs::remove_file(&jobpath);
            return Err(RunError::io(&jobpath)(e));
        }
        let mut cmd = match self.command(&jobpath, &outpath, log.map(|(dir, _)| dir)) {
            Ok(cmd) => cmd,
            Err(e) => {
                let _ = std::fs::remove_file(&outpath);
                let _ = std::fs::remove_file(&jobpath);
                return Err(e);
            }
        };
        let cpu0 = CpuTimes::now();
        progress.start(
            &spec.name,
            Duration::from_secs(spec.runtime_s + spec.ramp_s),
        );
        let status = wait(&mut cmd, progress).map_err(|error| FioMissing::Spawn {
            bin: setup.bin.clone(),
            error,
        });
        progress.finish();
        let cpu = match (cpu0, CpuTimes::now()) {
            (Some(a), Some(b)) => b.busy_pct_since(&a),
            _ => None,
        };
        let text = std::fs::read_to_string(&outpath).unwrap_or_default();
        let _ = std::fs::remove_file(&outpath);
        let _ = std::fs::remove_file(&jobpath);
        let status = status?;
        if sys::interrupted() {
            return Err(RunError::Interrupted);
        }
        // fio may print warnings before the document.
        let doc = text.find('{').map(|i| &text[i..]).unwrap_or("");
        let mut v: Value = serde_json::from_str(doc).map_err(|parse| RunError::Fio {
            status,
            parse,
            job_file: job_text.clone(),
        })?;
        self.annotate(&mut v, spec_hash, cpu);
        Ok(v)
    }

    /// The job file, with fio's log options when the run logs. The logs are
    /// named by the job (fio's default prefix) and land in fio's working
    /// folder, so the result's `write_bw_log` is the job name, and with
    /// `--clients` fio writes each server's logs here as `<log>.<host>`.
    fn job_text(&self, spec: &JobSpec, log: Option<LogOptions>) -> String {
        let sections: Vec<(String, Placement)> = self
            .sections
            .iter()
            .map(|(filename, placement)| {
                let filename = match log {
                    // fio runs in the log folder: a relative target must not move.
                    Some(_) if self.setup.clients.is_empty() => std::path::absolute(filename)
                        .map_or(filename.clone(), |p| p.display().to_string()),
                    _ => filename.clone(),
                };
                (filename, placement.clone())
            })
            .collect();
        let extra: Vec<(&str, String)> =
            log.iter().flat_map(|l| l.fio_options(&spec.name)).collect();
        job_file(spec, &self.setup.ioengine, &sections, self.unlink, &extra)
    }

    /// fio's command line for one job; run in `log_dir` when logging.
    fn command(
        &self,
        jobpath: &Path,
        outpath: &Path,
        log_dir: Option<&Path>,
    ) -> Result<Command, RunError> {
        let absolute = |p: &Path| std::path::absolute(p).map_err(RunError::io(p));
        let (jobpath, outpath) = (absolute(jobpath)?, absolute(outpath)?);
        let mut cmd = match log_dir {
            Some(dir) => {
                // A relative `--fio ./fio` names a file from here, not from `dir`.
                let bin = &self.setup.bin;
                let bin = if bin.components().count() > 1 {
                    absolute(bin)?
                } else {
                    bin.clone()
                };
                let mut cmd = Command::new(bin);
                cmd.current_dir(dir);
                cmd
            }
            None => Command::new(&self.setup.bin),
        };
        // fio's own status line on a terminal would fight nvcmp's bar.
        cmd.arg("--output-format=json+")
            .arg("--eta=never")
            .arg(format!("--output={}", outpath.display()));
        // fio 3.x sends a job file to the --client named before it: with
        // `--client=a --client=b job.fio` only b runs it, so each client gets
        // its own copy of the argument.
        for c in &self.setup.clients {
            cmd.arg(format!("--client={c}")).arg(&jobpath);
        }
        if self.setup.clients.is_empty() {
            cmd.arg(&jobpath);
        }
        Ok(cmd)
    }

    /// Adds the `nvcmp` key (and the job's system CPU when fio ran here).
    fn annotate(&self, v: &mut Value, spec_hash: &str, cpu: Option<f64>) {
        let local = self.setup.clients.is_empty();
        let Value::Object(m) = v else {
            return;
        };
        m.insert(
            "nvcmp".into(),
            json!({
                "version": env!("CARGO_PKG_VERSION"),
                "spec_hash": spec_hash,
                "engine": "fio",
                "fio_ioengine": self.setup.ioengine,
                "clients": self.setup.clients,
                // Whole-system CPU means this machine's only when fio ran here.
                "system_cpu_pct": if local { cpu } else { None },
                "host": self.host,
                "precondition": self.precondition,
            }),
        );
        if local {
            let jobs = m.get_mut("jobs").and_then(|j| j.as_array_mut());
            for job in jobs.into_iter().flatten() {
                if let Value::Object(job) = job {
                    job.insert("system_cpu_pct".into(), json!(cpu));
                }
            }
        }
    }
}

/// Waits for fio, moving the progress bar on: fio tells nvcmp nothing
/// while it runs, so only the time is known.
fn wait(cmd: &mut Command, progress: &dyn Progress) -> std::io::Result<ExitStatus> {
    let mut child = cmd.spawn()?;
    let t0 = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status);
        }
        std::thread::sleep(Duration::from_millis(250));
        progress.tick(t0.elapsed(), None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_file_has_the_spec() {
        let spec = JobSpec {
            name: "randrw-4k-qd8-j2".into(),
            rw: HarnessRw::RandRw,
            bs: 4096,
            iodepth: 8,
            iodepth_batch: 1,
            iodepth_batch_complete: 1,
            numjobs: 2,
            runtime_s: 5,
            ramp_s: 1,
            size: 1 << 20,
            rwmixread: 70,
            direct: true,
            time_based: true,
        };
        let sections = [("/tmp/x".to_string(), Placement::default())];
        let f = job_file(&spec, "libaio", &sections, true, &[]);
        for line in [
            "[randrw-4k-qd8-j2]",
            "ioengine=libaio",
            "direct=1",
            "rw=randrw",
            "bs=4096",
            "iodepth=8",
            "numjobs=2",
            "size=1048576",
            "runtime=5",
            "time_based=1",
            "ramp_time=1",
            "rwmixread=70",
            "unlink=1",
            "filename=/tmp/x",
        ] {
            assert!(f.lines().any(|l| l == line), "{line} missing in\n{f}");
        }
    }
    #[test]
    fn a_section_per_target_with_its_cpus() {
        let spec = JobSpec {
            name: "rr".into(),
            ..crate::run::spec::tests::job()
        };
        let cpus = crate::run::placement::CpuList::parse("0-3").unwrap();
        let sections = [
            ("/dev/a".to_string(), Placement::default()),
            (
                "/dev/b".to_string(),
                Placement {
                    cpus: Some(cpus.clone()),
                    ..Placement::default()
                },
            ),
            (
                "/dev/c".to_string(),
                Placement {
                    cpus: Some(cpus),
                    numa_node: Some(1),
                    note: None,
                },
            ),
        ];
        let f = job_file(
            &spec,
            "libaio",
            &sections,
            false,
            &[("log_avg_msec", "500".into())],
        );
        let body: Vec<&str> = f.split("\n[rr]\n").collect();
        assert_eq!(body.len(), 4, "{f}");
        let head = |i: usize| body[i].lines().take(3).collect::<Vec<_>>();
        assert_eq!(head(1), ["filename=/dev/a", "new_group", "rw=randread"]);
        assert_eq!(
            head(2),
            ["filename=/dev/b", "new_group", "cpus_allowed=0-3"]
        );
        assert_eq!(
            head(3),
            ["filename=/dev/c", "new_group", "numa_cpu_nodes=1"]
        );
        // Every section carries the workload and the extra options.
        for b in &body[1..] {
            assert!(b.lines().any(|l| l == "log_avg_msec=500"), "{f}");
            assert!(b.lines().any(|l| l == "iodepth=32"), "{f}");
        }
    }

    #[test]
    fn log_options_name_the_logs_after_the_job() {
        let spec = JobSpec {
            name: "read-4k".into(),
            rw: HarnessRw::Read,
            bs: 4096,
            iodepth: 1,
            iodepth_batch: 1,
            iodepth_batch_complete: 1,
            numjobs: 2,
            runtime_s: 1,
            ramp_s: 0,
            size: 1 << 20,
            rwmixread: 50,
            direct: true,
            time_based: true,
        };
        let setup = FioSetup {
            bin: "fio".into(),
            ioengine: "psync".into(),
            clients: Vec::new(),
        };
        let host = HostFacts::default();
        let run = FioRun {
            setup: &setup,
            sections: vec![("scratch.dat".into(), Placement::default())],
            unlink: false,
            work_dir: Path::new("out"),
            host: &host,
            precondition: None,
        };
        let plain = run.job_text(&spec, None);
        assert!(
            plain.lines().any(|l| l == "filename=scratch.dat"),
            "{plain}"
        );
        assert!(!plain.contains("_log"), "{plain}");
        let logged = run.job_text(
            &spec,
            Some(LogOptions {
                avg_msec: 250,
                hist_msec: None,
            }),
        );
        for line in [
            "write_bw_log=read-4k",
            "write_iops_log=read-4k",
            "write_lat_log=read-4k",
            "log_avg_msec=250",
            "per_job_logs=1",
        ] {
            assert!(
                logged.lines().any(|l| l == line),
                "{line} missing in\n{logged}"
            );
        }
        let hist = run.job_text(
            &spec,
            Some(LogOptions {
                avg_msec: 0,
                hist_msec: Some(200),
            }),
        );
        for line in [
            "write_hist_log=read-4k",
            "log_hist_msec=200",
            "log_avg_msec=0",
        ] {
            assert!(hist.lines().any(|l| l == line), "{line} missing in\n{hist}");
        }
        // fio runs in the log folder then: the target is named from here.
        let abs = std::path::absolute("scratch.dat").unwrap();
        let want = format!("filename={}", abs.display());
        assert!(
            logged.lines().any(|l| l == want),
            "{want} missing in\n{logged}"
        );
    }
}
