//! Repetitions of a job (`--repeat N`, `--until-stddev PCT --max-repeats
//! N`): their result files, the stopping rule, and what each job's
//! repetitions came to.
//!
//! Each repetition is its own fio-compatible result in the label's folder
//! (`<job>-r01.json`, `<job>-r02.json`, ...), so `analyze`, `check` and
//! `history` read them as repeated runs of one workload and config and take
//! the spread from them. Without repetitions a job keeps its one
//! `<job>.json`.
//!
//! The stopping rule is the Phoronix Test Suite's: run at least
//! [`MIN_REPEATS`] times, then stop as soon as the relative standard
//! deviation (sample stddev / mean) of the job's IOPS is at most the
//! target, and after `max` repetitions whatever it is.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::compare::stats::Summary;

/// Repetitions the stopping rule always runs before it judges: two values
/// give a standard deviation, but one that a lucky pair makes tiny.
pub const MIN_REPEATS: u32 = 3;

/// `--max-repeats` when `--until-stddev` is given without it.
pub const DEFAULT_MAX_REPEATS: u32 = 10;

/// How many times each job of the matrix runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Repeat {
    /// A fixed count; 1 is a plain run with today's file names.
    Times(u32),
    /// Until the IOPS settle (see [`StopRule`]).
    UntilStddev(StopRule),
}

impl Default for Repeat {
    fn default() -> Repeat {
        Repeat::Times(1)
    }
}

impl Repeat {
    /// The most repetitions a job can take.
    pub fn most(&self) -> u32 {
        match self {
            Repeat::Times(n) => (*n).max(1),
            Repeat::UntilStddev(rule) => rule.max,
        }
    }

    /// The repetitions a job takes at least: what the progress bar plans.
    pub fn least(&self) -> u32 {
        match self {
            Repeat::Times(n) => (*n).max(1),
            Repeat::UntilStddev(rule) => MIN_REPEATS.min(rule.max),
        }
    }

    /// True when each job writes one file per repetition.
    pub fn is_repeated(&self) -> bool {
        self.most() > 1
    }

    /// The name of repetition `k` (0-based) of job `name`: `name` itself
    /// for a single run, else `<name>-r01` ..., numbered with at least two
    /// digits so that up to 99 sort by name. A repetition runs under this
    /// name, so its result file, its fio `jobname` and its `--log` logs
    /// (`<name>-r01_bw.1.log`) all say which repetition they are.
    pub fn rep_name(&self, name: &str, k: u32) -> String {
        if !self.is_repeated() {
            return name.to_string();
        }
        let width = self.most().to_string().len().max(2);
        format!("{name}-r{:0width$}", k + 1)
    }

    /// The result file of repetition `k` of job `name` in `dir`.
    pub fn result_path(&self, dir: &Path, name: &str, k: u32) -> PathBuf {
        dir.join(format!("{}.json", self.rep_name(name, k)))
    }
}

/// `--until-stddev PCT --max-repeats N`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StopRule {
    /// Relative standard deviation to reach, percent.
    pub target_pct: f64,
    /// Repetitions at most, at least [`MIN_REPEATS`].
    pub max: u32,
}

/// What the stopping rule says after a repetition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StopVerdict {
    /// Run another repetition.
    Continue,
    /// The relative stddev is at most the target.
    Met,
    /// `max` repetitions ran and the target was not reached.
    MaxReached,
}

/// Relative standard deviation of `values` in percent (sample stddev over
/// mean); None with fewer than two values or a mean that is not positive.
pub fn relative_stddev_pct(values: &[f64]) -> Option<f64> {
    let s = Summary::of(values).filter(|s| s.n >= 2 && s.mean > 0.0)?;
    Some(100.0 * s.stddev / s.mean)
}

/// The stopping rule after `ran` repetitions whose IOPS are `values` (a
/// repetition that failed ran but has no value).
pub fn judge(rule: &StopRule, ran: u32, values: &[f64]) -> StopVerdict {
    let met = relative_stddev_pct(values).is_some_and(|r| r <= rule.target_pct);
    if ran >= MIN_REPEATS && values.len() as u32 >= MIN_REPEATS && met {
        StopVerdict::Met
    } else if ran >= rule.max {
        StopVerdict::MaxReached
    } else {
        StopVerdict::Continue
    }
}

/// One job's repetitions so far.
#[derive(Debug, Clone, Default)]
pub struct RepeatTally {
    /// Repetitions done: measured now or kept from an earlier run.
    pub ran: u32,
    /// Their IOPS, read and write together (none for a failed one).
    pub values: Vec<f64>,
}

impl RepeatTally {
    pub fn add(&mut self, iops: Option<f64>) {
        self.ran += 1;
        self.values.extend(iops);
    }

    /// True when `repeat` asks for another repetition.
    pub fn wants_more(&self, repeat: &Repeat) -> bool {
        match repeat {
            Repeat::Times(n) => self.ran < (*n).max(1),
            Repeat::UntilStddev(rule) => {
                judge(rule, self.ran, &self.values) == StopVerdict::Continue
            }
        }
    }
}

/// What one job's repetitions came to, for the run's summary.
#[derive(Debug, Clone, PartialEq)]
pub struct JobRepeats {
    pub job: String,
    pub ran: u32,
    /// Relative stddev of the IOPS over the repetitions, percent.
    pub rsd_pct: Option<f64>,
    /// The stopping rule's last word; None for `--repeat N`.
    pub verdict: Option<StopVerdict>,
}

impl JobRepeats {
    pub fn of(job: &str, tally: &RepeatTally, repeat: &Repeat) -> JobRepeats {
        let verdict = match repeat {
            Repeat::UntilStddev(rule) => Some(judge(rule, tally.ran, &tally.values)),
            Repeat::Times(_) => None,
        };
        JobRepeats {
            job: job.to_string(),
            ran: tally.ran,
            rsd_pct: relative_stddev_pct(&tally.values),
            verdict,
        }
    }
}

/// IOPS of one of the harness's results (read and write summed, over every
/// job or client of the file); None when it is not readable as one.
pub fn result_iops(path: &Path) -> Option<f64> {
    let text = std::fs::read(path).ok()?;
    let v: Value = serde_json::from_slice(&text).ok()?;
    // fio client/server: one entry per client plus "All clients".
    let jobs = v
        .get("jobs")
        .or_else(|| v.get("client_stats"))?
        .as_array()?;
    let iops = |j: &Value| -> f64 {
        ["read", "write"]
            .iter()
            .filter_map(|d| j.pointer(&format!("/{d}/iops"))?.as_f64())
            .sum()
    };
    let each = jobs
        .iter()
        .filter(|j| j.get("jobname").and_then(Value::as_str) != Some("All clients"));
    Some(each.map(iops).sum::<f64>()).filter(|x| x.is_finite())
}

/// Result files in `dir` of the jobs `names` that this run neither wrote
/// nor kept: `<job>.json` or `<job>-rNN.json` left by an earlier run with
/// another repetition count. `analyze` reads them as further repetitions.
pub fn strays(dir: &Path, names: &[&str], used: &HashSet<PathBuf>) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| !used.contains(p))
        .filter(|p| {
            let file = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            names.iter().any(|n| is_result_of(file, n))
        })
        .collect();
    found.sort();
    found
}

/// True when `file` is `<job>.json` or `<job>-r<digits>.json`.
fn is_result_of(file: &str, job: &str) -> bool {
    let Some(rest) = file.strip_prefix(job) else {
        return false;
    };
    rest == ".json"
        || rest
            .strip_prefix("-r")
            .and_then(|r| r.strip_suffix(".json"))
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests;
