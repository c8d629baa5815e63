//! A subset of fio's job-file syntax (`--job-file`): `[global]` and job
//! sections with rw, bs, iodepth, numjobs, runtime, size, filename,
//! ioengine, direct, rwmixread, time_based and ramp_time. Anything else is
//! an error naming the line, so nobody believes an option was honoured.
//!
//! Every `filename` (`a:b:c` lists, in `[global]` or a section) is a target
//! of the run, and every job runs on all targets at once. Sections that
//! differ only in their name and filename, as in fio's usual file with a
//! section per drive, are one job on those drives.

use super::spec::{HarnessRw, JobSpec};
use crate::units::grammar::{self, KbBase};

/// Jobs of a file, plus the targets and ioengine it asks for (the last
/// ioengine given wins: nvcmp runs one engine per invocation).
#[derive(Debug, Default)]
pub struct JobFile {
    pub jobs: Vec<JobSpec>,
    /// Every filename, in the order given, each once.
    pub filenames: Vec<String>,
    pub ioengine: Option<String>,
}

/// fio's `filename` list: `:` separates files, `\:` is a colon in a name
/// (Windows drive letters).
pub fn split_filenames(v: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = v.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&':') => {
                out.last_mut().unwrap_or(&mut String::new()).push(':');
                chars.next();
            }
            ':' => out.push(String::new()),
            c => {
                if let Some(last) = out.last_mut() {
                    last.push(c);
                }
            }
        }
    }
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Sections that are the same workload under another name and filename
/// become one job (the first section's name): fio runs such sections side
/// by side, and so does nvcmp, as one job on several targets.
fn merge_per_drive_sections(jobs: Vec<(JobSpec, bool)>) -> Vec<JobSpec> {
    let mut out: Vec<(JobSpec, bool)> = Vec::new();
    for (job, own_file) in jobs {
        let same = out.iter().any(|(kept, kept_file)| {
            own_file
                && *kept_file
                && JobSpec {
                    name: kept.name.clone(),
                    ..job.clone()
                } == *kept
        });
        if !same {
            out.push((job, own_file));
        }
    }
    out.into_iter().map(|(j, _)| j).collect()
}

/// A `runtime` or `ramp_time` in whole seconds (rounded up), as fio's
/// time grammar reads it.
fn parse_secs(v: &str) -> Option<u64> {
    grammar::time_us(v, true)
        .ok()
        .map(|us| us.div_ceil(1_000_000))
}

/// One block size for every direction: the harness runs one size.
fn parse_bs(v: &str) -> Option<u64> {
    let sizes = grammar::per_direction(v, |p| grammar::size(p, KbBase::default())).ok()?;
    let mut known = sizes.iter().flatten();
    let first = *known.next()?;
    known.all(|&b| b == first).then_some(first)
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.trim() {
        "" | "1" | "true" => Some(true),
        "0" | "false" => Some(false),
        _ => None,
    }
}

/// Sets one workload option of a section (or `[global]`).
fn set_option(target: &mut JobSpec, key: &str, val: &str, lineno: usize) -> Result<(), String> {
    let bad = || format!("line {lineno}: bad value `{val}` for {key}");
    let int = |v: &str| {
        grammar::int(v, 1)
            .ok()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(bad)
    };
    match key {
        "rw" | "readwrite" => target.rw = HarnessRw::parse(val).ok_or_else(bad)?,
        "bs" | "blocksize" => target.bs = parse_bs(val).ok_or_else(bad)?,
        "iodepth" => target.iodepth = int(val)?,
        "iodepth_batch" | "iodepth_batch_submit" => {
            target.iodepth_batch = val.parse().map_err(|_| bad())?
        }
        "iodepth_batch_complete_max" => {
            target.iodepth_batch_complete = val.parse().map_err(|_| bad())?
        }
        "numjobs" => target.numjobs = int(val)?,
        "runtime" | "timeout" => target.runtime_s = parse_secs(val).ok_or_else(bad)?,
        "ramp_time" => target.ramp_s = parse_secs(val).ok_or_else(bad)?,
        "size" => target.size = grammar::size(val, KbBase::default()).map_err(|_| bad())?,
        "rwmixread" => {
            target.rwmixread = grammar::rwmix(Some(val), None)
                .ok()
                .flatten()
                .and_then(|p| u8::try_from(p).ok())
                .ok_or_else(bad)?
        }
        "direct" => target.direct = parse_bool(val).ok_or_else(bad)?,
        "buffered" => target.direct = !parse_bool(val).ok_or_else(bad)?,
        "time_based" => target.time_based = parse_bool(val).ok_or_else(bad)?,
        // Accepted because nvcmp always does this.
        "group_reporting" | "name" | "thread" => {}
        _ => {
            return Err(format!(
                "line {lineno}: option `{key}` is not supported by nvcmp's job files \
                 (supported: rw bs iodepth iodepth_batch iodepth_batch_complete_max numjobs runtime size filename ioengine direct \
                 rwmixread time_based ramp_time)"
            ));
        }
    }
    Ok(())
}

/// Parses `text`; `defaults` gives what neither `[global]` nor the job sets.
pub fn parse(text: &str, defaults: &JobSpec) -> Result<JobFile, String> {
    let mut out = JobFile::default();
    let mut global = defaults.clone();
    global.time_based = false;
    let mut current: Option<JobSpec> = None;
    let mut in_global = false;
    // Per section: whether it named its own filename.
    let mut sections: Vec<(JobSpec, bool)> = Vec::new();
    let mut own_file = false;
    for (no, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let lineno = no + 1;
        if line.is_empty() || line.starts_with(';') || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if let Some(j) = current.take() {
                sections.push((j, own_file));
            }
            own_file = false;
            // A section's name becomes its result's file name: checked
            // before anything is opened or written.
            if let Some(why) = crate::path_text::plain_name_problem(name) {
                return Err(format!(
                    "line {lineno}: section [{}] cannot name a result file: {why}",
                    name.escape_debug()
                ));
            }
            if name == "global" {
                in_global = true;
            } else {
                in_global = false;
                current = Some(JobSpec {
                    name: name.to_string(),
                    ..global.clone()
                });
            }
            continue;
        }
        let (key, val) = line.split_once('=').unwrap_or((line, ""));
        let (key, val) = (key.trim(), val.trim());
        let target: &mut JobSpec = match (&mut current, in_global) {
            (Some(j), false) => j,
            (_, true) => &mut global,
            (None, false) => return Err(format!("line {lineno}: `{key}` outside any section")),
        };
        match key {
            "filename" => {
                own_file = !in_global;
                for f in split_filenames(val) {
                    if !out.filenames.contains(&f) {
                        out.filenames.push(f);
                    }
                }
            }
            "ioengine" => out.ioengine = Some(val.to_string()),
            _ => set_option(target, key, val, lineno)?,
        }
    }
    if let Some(j) = current.take() {
        sections.push((j, own_file));
    }
    out.jobs = merge_per_drive_sections(sections);
    if out.jobs.is_empty() {
        return Err("no job section (`[name]`) in the file".into());
    }
    for j in &out.jobs {
        j.validate()?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> JobSpec {
        JobSpec {
            name: String::new(),
            rw: HarnessRw::Read,
            bs: 4096,
            iodepth: 1,
            iodepth_batch: 1,
            iodepth_batch_complete: 1,
            numjobs: 1,
            runtime_s: 0,
            ramp_s: 0,
            size: 1 << 30,
            rwmixread: 50,
            direct: false,
            time_based: false,
        }
    }

    #[test]
    fn global_and_jobs() {
        let f = parse(
            "; comment\n[global]\nioengine=libaio\ndirect=1\nruntime=1m\ntime_based\nsize=64m\n\
             [rr]\nrw=randread\nbs=4k\niodepth=32\n[mix]\nrw=randrw\nrwmixread=70\nnumjobs=2\nfilename=/tmp/x\n",
            &defaults(),
        )
        .unwrap();
        assert_eq!(f.ioengine.as_deref(), Some("libaio"));
        assert_eq!(f.filenames, ["/tmp/x"]);
        assert_eq!(f.jobs.len(), 2);
        let rr = &f.jobs[0];
        assert_eq!(
            (rr.name.as_str(), rr.rw, rr.bs, rr.iodepth),
            ("rr", HarnessRw::RandRead, 4096, 32)
        );
        assert!(rr.direct && rr.time_based);
        assert_eq!((rr.runtime_s, rr.size), (60, 64 << 20));
        let mix = &f.jobs[1];
        assert_eq!(
            (mix.rw, mix.rwmixread, mix.numjobs, mix.iodepth),
            (HarnessRw::RandRw, 70, 2, 1)
        );
    }

    #[test]
    fn filename_lists_and_a_section_per_drive() {
        assert_eq!(split_filenames("/dev/a:/dev/b"), ["/dev/a", "/dev/b"]);
        assert_eq!(split_filenames("C\\:\\x.dat"), ["C:\\x.dat"]);
        assert!(split_filenames("").is_empty());
        let f = parse(
            "[global]\nrw=randread\nfilename=/dev/a:/dev/b\n[d1]\nfilename=/dev/c\n[d2]\nfilename=/dev/d\n\
             [w]\nrw=write\nfilename=/dev/a\n",
            &defaults(),
        )
        .unwrap();
        assert_eq!(f.filenames, ["/dev/a", "/dev/b", "/dev/c", "/dev/d"]);
        // d1 and d2 are one workload on two drives: one job; w is another.
        let names: Vec<&str> = f.jobs.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(names, ["d1", "w"]);
    }

    #[test]
    fn batch_options() {
        let f = parse(
            "[a]\niodepth=16\niodepth_batch_submit=4\niodepth_batch_complete_max=8\n\
             [b]\niodepth=16\niodepth_batch=16\n",
            &defaults(),
        )
        .unwrap();
        let (a, b) = (&f.jobs[0], &f.jobs[1]);
        assert_eq!((a.iodepth_batch, a.iodepth_batch_complete), (4, 8));
        assert_eq!((b.iodepth_batch, b.iodepth_batch_complete), (16, 1));
        // A batch deeper than the queue is what fio would quietly shrink;
        // nvcmp says so instead.
        let e = parse(
            "[a]\niodepth=4\niodepth_batch_complete_max=8\n",
            &defaults(),
        )
        .unwrap_err();
        assert!(e.contains("--iodepth-batch-complete"), "{e}");
    }

    #[test]
    fn unsupported_options_are_named() {
        let e = parse("[a]\nverify=md5\n", &defaults()).unwrap_err();
        assert!(e.contains("line 2") && e.contains("verify"), "{e}");
        let e = parse("[a]\nbs=huge\n", &defaults()).unwrap_err();
        assert!(e.contains("bad value"), "{e}");
        assert!(parse("[global]\nrw=read\n", &defaults()).is_err());
    }

    #[test]
    fn a_section_is_a_plain_file_name() {
        for section in ["../../x/victim", "/abs/victim", "a\\b", "..", "con"] {
            let e = parse(&format!("[ok]\n[{section}]\nrw=read\n"), &defaults()).unwrap_err();
            assert!(
                e.starts_with("line 2: section [") && e.contains("result file"),
                "{e}"
            );
        }
    }
}
