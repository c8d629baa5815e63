//! What a run measures: the built-in matrices (`article`, `sweep`), the
//! load levels of `--iodepth`/`--numjobs` (lists and doubling ranges), and
//! the expansion of a job set over every load point.
//!
//! Each point is a job of its own with its own name, so its own result
//! file and spec hash: a rerun keeps finished points and runs the rest.

use super::spec::{HarnessRw, JobSpec};

const K: u64 = 1024;

/// The rw/bs cells of the article nvcmp's comparisons were first built for.
pub const ARTICLE_CELLS: [(HarnessRw, u64); 8] = [
    (HarnessRw::RandRead, 4 * K),
    (HarnessRw::RandRead, 64 * K),
    (HarnessRw::Read, 64 * K),
    (HarnessRw::Read, 128 * K),
    (HarnessRw::RandWrite, 4 * K),
    (HarnessRw::RandWrite, 64 * K),
    (HarnessRw::Write, 64 * K),
    (HarnessRw::Write, 128 * K),
];

/// The cells of the `sweep` preset: small random I/O is where queue depth
/// moves latency and IOPS the most.
pub const SWEEP_CELLS: [(HarnessRw, u64); 2] =
    [(HarnessRw::RandRead, 4 * K), (HarnessRw::RandWrite, 4 * K)];

/// The depths of the `sweep` preset: 1 to 128, doubling.
pub const SWEEP_DEPTHS: [u32; 8] = [1, 2, 4, 8, 16, 32, 64, 128];

/// Why a list of load levels was refused; the CLI prefixes the flag.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LevelsError {
    #[error("an empty value (a list is 1,4,16; a range 1-128)")]
    Empty,
    #[error("`{0}` is not a number (a list is 1,4,16; a range 1-128)")]
    NotANumber(String),
    #[error("0 is not allowed (levels start at 1)")]
    Zero,
    #[error("{0} is given twice")]
    Duplicate(u32),
    #[error("range {0}-{1} runs downwards")]
    Downwards(u32, u32),
    #[error(
        "range {start}-{end} doubles from {start} and misses {end} (did you mean {start}-{last}?)"
    )]
    NotDoubling { start: u32, end: u32, last: u32 },
}

fn number(s: &str) -> Result<u32, LevelsError> {
    if s.trim().is_empty() {
        return Err(LevelsError::Empty);
    }
    match s.trim().parse::<u32>() {
        Ok(0) => Err(LevelsError::Zero),
        Ok(n) => Ok(n),
        Err(_) => Err(LevelsError::NotANumber(s.trim().to_string())),
    }
}

/// `A-B`: A, 2A, 4A, ... up to B, which must be one of them. Powers of two
/// are what load sweeps use (fio-plot's `-d 1 2 4 ... 128`); a linear
/// range would be a surprise at 1-128.
fn doubling(item: &str, start: &str, end: &str) -> Result<Vec<u32>, LevelsError> {
    if start.trim().is_empty() {
        return Err(LevelsError::NotANumber(item.trim().to_string()));
    }
    let (start, end) = (number(start)?, number(end)?);
    if end < start {
        return Err(LevelsError::Downwards(start, end));
    }
    let mut out = vec![start];
    while let Some(next) = out.last().and_then(|l| l.checked_mul(2)) {
        if next > end {
            break;
        }
        out.push(next);
    }
    match out.last() {
        Some(&last) if last != end => Err(LevelsError::NotDoubling { start, end, last }),
        _ => Ok(out),
    }
}

/// Parses `8`, `1,4,16`, `1-128` or a mix (`1-8,12`) into ascending levels.
pub fn parse_levels(s: &str) -> Result<Vec<u32>, LevelsError> {
    let mut out = Vec::new();
    for item in s.split(',') {
        let values = match item.split_once('-') {
            Some((a, b)) => doubling(item, a, b)?,
            None => vec![number(item)?],
        };
        for v in values {
            if out.contains(&v) {
                return Err(LevelsError::Duplicate(v));
            }
            out.push(v);
        }
    }
    out.sort_unstable();
    Ok(out)
}

/// The load points of a run: every thread count times every depth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Load {
    pub iodepths: Vec<u32>,
    pub numjobs: Vec<u32>,
}

impl Load {
    /// The job's own depth and thread count: one point.
    pub fn of(job: &JobSpec) -> Load {
        Load {
            iodepths: vec![job.iodepth],
            numjobs: vec![job.numjobs],
        }
    }

    /// `(iodepth, numjobs)` in run order: depth ascending within each
    /// thread count, so one curve is measured in one stretch of time.
    pub fn points(&self) -> Vec<(u32, u32)> {
        self.numjobs
            .iter()
            .flat_map(|&nj| self.iodepths.iter().map(move |&qd| (qd, nj)))
            .collect()
    }
}

/// Every cell at every load point, in cell order, named as single jobs
/// always were (`randread-4k-qd8-j4`), so a one-point run keeps the file
/// names of earlier versions.
pub fn expand_cells(template: &JobSpec, cells: &[(HarnessRw, u64)], load: &Load) -> Vec<JobSpec> {
    let points = load.points();
    cells
        .iter()
        .flat_map(|&(rw, bs)| {
            points.iter().map(move |&(iodepth, numjobs)| JobSpec {
                name: JobSpec::default_name(rw, bs, iodepth, numjobs),
                rw,
                bs,
                iodepth,
                numjobs,
                ..template.clone()
            })
        })
        .collect()
}

/// Job-file jobs at the levels given on the command line; a dimension not
/// given keeps each job's own value. A job that becomes several points
/// gets `-qd{N}-j{M}` after its section name; a job that stays one point
/// keeps its name, so existing result folders stay valid.
pub fn expand_jobs(
    jobs: &[JobSpec],
    iodepths: Option<&[u32]>,
    numjobs: Option<&[u32]>,
) -> Vec<JobSpec> {
    let mut out = Vec::new();
    for job in jobs {
        let load = Load {
            iodepths: iodepths.map_or_else(|| vec![job.iodepth], <[u32]>::to_vec),
            numjobs: numjobs.map_or_else(|| vec![job.numjobs], <[u32]>::to_vec),
        };
        let points = load.points();
        let suffix = points.len() > 1;
        out.extend(points.into_iter().map(|(iodepth, numjobs)| JobSpec {
            name: if suffix {
                format!("{}-qd{iodepth}-j{numjobs}", job.name)
            } else {
                job.name.clone()
            },
            iodepth,
            numjobs,
            ..job.clone()
        }));
    }
    out
}

/// The first name that two jobs share: their results would overwrite
/// each other.
pub fn duplicate_name(jobs: &[JobSpec]) -> Option<&str> {
    let mut seen = std::collections::HashSet::new();
    jobs.iter()
        .map(|j| j.name.as_str())
        .find(|n| !seen.insert(*n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::spec::tests::job;

    fn names(jobs: &[JobSpec]) -> Vec<&str> {
        jobs.iter().map(|j| j.name.as_str()).collect()
    }

    #[test]
    fn levels_lists_and_ranges() {
        assert_eq!(parse_levels("8"), Ok(vec![8]));
        assert_eq!(parse_levels("1,4, 16"), Ok(vec![1, 4, 16]));
        assert_eq!(parse_levels("16,1"), Ok(vec![1, 16]));
        assert_eq!(parse_levels("1-128"), Ok(SWEEP_DEPTHS.to_vec()));
        assert_eq!(parse_levels("4-4"), Ok(vec![4]));
        assert_eq!(parse_levels("3-12"), Ok(vec![3, 6, 12]));
        assert_eq!(parse_levels("1-4,12"), Ok(vec![1, 2, 4, 12]));
    }

    #[test]
    fn levels_errors() {
        use LevelsError::*;
        assert_eq!(parse_levels("0,4"), Err(Zero));
        assert_eq!(parse_levels("0-8"), Err(Zero));
        assert_eq!(parse_levels("4,4"), Err(Duplicate(4)));
        assert_eq!(parse_levels("1-8,8"), Err(Duplicate(8)));
        assert_eq!(parse_levels("x"), Err(NotANumber("x".into())));
        assert_eq!(parse_levels("1,,2"), Err(Empty));
        assert_eq!(parse_levels(""), Err(Empty));
        assert_eq!(parse_levels("-4"), Err(NotANumber("-4".into())));
        assert_eq!(parse_levels("1-x"), Err(NotANumber("x".into())));
        assert_eq!(parse_levels("8-1"), Err(Downwards(8, 1)));
        let e = parse_levels("1-100").unwrap_err();
        assert_eq!(
            e,
            NotDoubling {
                start: 1,
                end: 100,
                last: 64
            }
        );
        assert!(e.to_string().contains("1-64"), "{e}");
        // Doubling stops at u32::MAX instead of overflowing.
        assert!(matches!(
            parse_levels("1-4294967295"),
            Err(NotDoubling {
                last: 2147483648,
                ..
            })
        ));
    }

    #[test]
    fn article_matrix_has_the_eight_cells() {
        let m = expand_cells(&job(), &ARTICLE_CELLS, &Load::of(&job()));
        assert_eq!(
            names(&m),
            [
                "randread-4k-qd32-j1",
                "randread-64k-qd32-j1",
                "read-64k-qd32-j1",
                "read-128k-qd32-j1",
                "randwrite-4k-qd32-j1",
                "randwrite-64k-qd32-j1",
                "write-64k-qd32-j1",
                "write-128k-qd32-j1"
            ]
        );
        assert!(m.iter().all(|j| j.validate().is_ok()));
    }

    #[test]
    fn sweep_runs_depth_ascending_within_thread_count() {
        let load = Load {
            iodepths: vec![1, 4],
            numjobs: vec![1, 2],
        };
        let m = expand_cells(&job(), &[(HarnessRw::RandRead, 4096)], &load);
        assert_eq!(
            names(&m),
            [
                "randread-4k-qd1-j1",
                "randread-4k-qd4-j1",
                "randread-4k-qd1-j2",
                "randread-4k-qd4-j2"
            ]
        );
        let levels: Vec<_> = m.iter().map(|j| (j.iodepth, j.numjobs)).collect();
        assert_eq!(levels, [(1, 1), (4, 1), (1, 2), (4, 2)]);
        assert!(m.iter().all(|j| j.runtime_s == 10 && j.size == 1 << 30));
    }

    #[test]
    fn sweep_preset_is_sixteen_unique_points() {
        let load = Load {
            iodepths: SWEEP_DEPTHS.to_vec(),
            numjobs: vec![1],
        };
        let m = expand_cells(&job(), &SWEEP_CELLS, &load);
        assert_eq!(m.len(), 16);
        assert_eq!(duplicate_name(&m), None);
        assert_eq!(m[0].name, "randread-4k-qd1-j1");
        assert_eq!(m[7].name, "randread-4k-qd128-j1");
        assert_eq!(m[8].name, "randwrite-4k-qd1-j1");
        assert!(m.iter().all(|j| j.validate().is_ok()));
        // Two thread counts double it, still unique.
        let load = Load {
            numjobs: vec![1, 4],
            ..load
        };
        let m = expand_cells(&job(), &SWEEP_CELLS, &load);
        assert_eq!((m.len(), duplicate_name(&m)), (32, None));
    }

    #[test]
    fn job_file_jobs_keep_their_names_unless_swept() {
        let mut b = job();
        b.name = "b".into();
        b.numjobs = 3;
        let jobs = [job(), b];
        // Nothing given: the jobs as they are.
        assert_eq!(expand_jobs(&jobs, None, None), jobs);
        // One explicit level: overridden, name kept.
        let one = expand_jobs(&jobs, Some(&[8]), None);
        assert_eq!(names(&one), ["x", "b"]);
        assert_eq!((one[1].iodepth, one[1].numjobs), (8, 3));
        // A list: one point per level, suffixed; numjobs stays the file's.
        let many = expand_jobs(&jobs, Some(&[1, 8]), None);
        assert_eq!(
            names(&many),
            ["x-qd1-j1", "x-qd8-j1", "b-qd1-j3", "b-qd8-j3"]
        );
        let both = expand_jobs(&jobs[..1], Some(&[2]), Some(&[1, 2]));
        assert_eq!(names(&both), ["x-qd2-j1", "x-qd2-j2"]);
    }

    #[test]
    fn duplicate_names_are_found() {
        let jobs = [job(), job()];
        assert_eq!(duplicate_name(&jobs), Some("x"));
    }
}
