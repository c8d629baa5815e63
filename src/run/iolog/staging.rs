//! Where a job's logs are while it runs and how they replace the previous
//! run's: a hidden folder beside the result, moved in with it.

use std::io;
use std::path::{Path, PathBuf};

use super::{ALL_SUFFIXES, LogOptions, LogWriteError};

/// Whether `name` is one of `job`'s logs: `<job>_<kind>.<N>.log`, or with
/// fio's client/server `.<host>` after it.
pub fn is_job_log(name: &str, job: &str) -> bool {
    let Some(rest) = name.strip_prefix(job).and_then(|r| r.strip_prefix('_')) else {
        return false;
    };
    ALL_SUFFIXES.iter().any(|kind| {
        let Some(rest) = rest.strip_prefix(kind).and_then(|r| r.strip_prefix('.')) else {
            return false;
        };
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let tail = &rest[digits..];
        digits > 0 && (tail == ".log" || tail.strip_prefix(".log.").is_some_and(|h| !h.is_empty()))
    })
}

/// The logs of one job while it runs: a hidden staging folder in the
/// result's folder, removed on every way out; `publish` moves its files
/// next to the result.
pub struct JobLogs {
    dir: PathBuf,
    job: String,
    /// None when the run does not log: publishing then only removes the
    /// logs of the job's previous run.
    staging: Option<PathBuf>,
}

impl JobLogs {
    /// Makes the staging folder of `job` in `dir` when `log` asks for logs.
    pub fn create(
        dir: &Path,
        job: &str,
        log: Option<LogOptions>,
    ) -> Result<JobLogs, LogWriteError> {
        let staging = match log {
            Some(_) => {
                let s = dir.join(format!(".{job}.logs-{}", std::process::id()));
                // Left by a run of the same process id that was killed.
                let _ = std::fs::remove_dir_all(&s);
                std::fs::create_dir_all(dir).map_err(LogWriteError::at(dir))?;
                // Made new, never one found there (a planted symlink to a
                // folder elsewhere): the logs are written into it by name.
                std::fs::create_dir(&s).map_err(LogWriteError::at(&s))?;
                Some(s)
            }
            None => None,
        };
        Ok(JobLogs {
            dir: dir.to_path_buf(),
            job: job.to_string(),
            staging,
        })
    }

    /// Where the logs are written while the job runs.
    pub fn staging(&self) -> Option<&Path> {
        self.staging.as_deref()
    }

    /// Replaces the job's logs in the result folder by the new ones (none
    /// when the job ran without `--log`): a rerun with fewer threads, or
    /// without logs, leaves no log of the previous run to be read as this
    /// one's.
    pub fn publish(self) -> Result<(), LogWriteError> {
        for old in self.files_in(&self.dir)? {
            std::fs::remove_file(&old).map_err(LogWriteError::at(&old))?;
        }
        if let Some(staging) = &self.staging {
            for new in self.files_in(staging)? {
                let to = self.dir.join(new.file_name().unwrap_or_default());
                std::fs::rename(&new, &to).map_err(LogWriteError::at(&to))?;
            }
        }
        Ok(())
    }

    /// The job's log files in `dir`, sorted.
    fn files_in(&self, dir: &Path) -> Result<Vec<PathBuf>, LogWriteError> {
        let entries = match std::fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(LogWriteError::at(dir)(e)),
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter(|e| is_job_log(&e.file_name().to_string_lossy(), &self.job))
            .map(|e| e.path())
            .collect();
        files.sort();
        Ok(files)
    }
}

impl Drop for JobLogs {
    fn drop(&mut self) {
        if let Some(s) = &self.staging {
            let _ = std::fs::remove_dir_all(s);
        }
    }
}
