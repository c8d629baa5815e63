//! `--precondition`: fills every target with sequential 128 KiB writes,
//! `passes` times over, before the matrix runs: SNIA's Solid State
//! Storage Performance Test Specification (PTS) calls this
//! workload-independent preconditioning (twice the user capacity in
//! sequential 128 KiB writes), so a fresh or trimmed drive is measured in
//! the state it will be used in, not its empty out-of-box state. All
//! targets are filled at once, a thread each, as the jobs run them.

use std::fs::{File, OpenOptions};
use std::io::{self, Seek, SeekFrom};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::engines::{AlignedBuf, sys};
use super::{Progress, RunError};

/// SNIA PTS' preconditioning block size.
pub const BLOCK: usize = 128 * 1024;
/// SNIA PTS writes the capacity twice.
pub const DEFAULT_PASSES: u32 = 2;

/// What preconditioning did; recorded in every result of the run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PreconditionReport {
    pub passes: u32,
    /// Block size of the writes, bytes.
    pub bs: u64,
    /// Bytes written over all targets and passes.
    pub bytes: u64,
    pub targets: usize,
    pub seconds: f64,
}

impl PreconditionReport {
    /// One line for people: `2 passes of sequential 128k writes`.
    pub fn describe(passes: u32) -> String {
        let s = if passes == 1 { "" } else { "es" };
        format!(
            "{passes} pass{s} of sequential {} writes",
            crate::units::format_bs(BLOCK as u64)
        )
    }
}

/// Writes `passes` sequential passes over each of `targets` at once;
/// `progress` hears the bytes written of the total.
pub fn run(
    targets: &[&Path],
    passes: u32,
    progress: &dyn Progress,
) -> Result<PreconditionReport, RunError> {
    let files = targets
        .iter()
        .map(|p| open(p).map(|(f, len)| (*p, f, len)))
        .collect::<Result<Vec<_>, _>>()?;
    let total: u64 = files
        .iter()
        .map(|(_, _, len)| len * u64::from(passes))
        .sum();
    let done = AtomicU64::new(0);
    let t0 = Instant::now();
    let results: Vec<Result<(), RunError>> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .iter()
            .map(|(p, f, len)| {
                let done = &done;
                s.spawn(move || fill(p, f, *len, passes, done))
            })
            .collect();
        while !handles.iter().all(|h| h.is_finished()) {
            progress.fill(done.load(Ordering::Relaxed), total);
            std::thread::sleep(Duration::from_millis(100));
        }
        files
            .iter()
            .zip(handles)
            .map(|((p, _, _), h)| {
                h.join().unwrap_or_else(|_| {
                    Err(failed(p)(io::Error::other("the writing thread panicked")))
                })
            })
            .collect()
    });
    progress.fill(total, total);
    results.into_iter().collect::<Result<Vec<()>, _>>()?;
    Ok(PreconditionReport {
        passes,
        bs: BLOCK as u64,
        bytes: done.load(Ordering::Relaxed),
        targets: targets.len(),
        seconds: t0.elapsed().as_secs_f64(),
    })
}

fn failed(path: &Path) -> impl FnOnce(io::Error) -> RunError + '_ {
    move |source| RunError::Precondition {
        path: path.to_path_buf(),
        source,
    }
}

/// Opens a target for direct writes (buffered where O_DIRECT is refused or
/// the length is not in whole sectors) and gives its length in bytes.
fn open(path: &Path) -> Result<(File, u64), RunError> {
    let plain = || OpenOptions::new().write(true).open(path);
    let mut f = plain().map_err(failed(path))?;
    let len = f.seek(SeekFrom::End(0)).map_err(failed(path))?;
    if len % 512 == 0 {
        let mut o = OpenOptions::new();
        o.write(true);
        if let Ok(direct) = sys::direct(&mut o).and_then(|()| o.open(path)) {
            f = direct;
        }
    }
    Ok((f, len))
}

/// The passes over one target; stops at Ctrl-C.
fn fill(path: &Path, f: &File, len: u64, passes: u32, done: &AtomicU64) -> Result<(), RunError> {
    let mut buf = AlignedBuf::new(1, BLOCK).map_err(failed(path))?;
    // Incompressible data, so a drive that compresses is filled for real.
    let mut x = 0x2545_f491_4f6c_dd1du64 ^ len;
    for chunk in buf.as_mut_slice().chunks_mut(8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        chunk.copy_from_slice(&x.to_le_bytes()[..chunk.len()]);
    }
    let block = &buf.as_mut_slice()[..BLOCK];
    for _ in 0..passes {
        let mut off = 0u64;
        while off < len {
            if sys::interrupted() {
                return Err(RunError::Interrupted);
            }
            let n = (len - off).min(BLOCK as u64) as usize;
            sys::write_all_at(f, &block[..n], off).map_err(failed(path))?;
            off += n as u64;
            done.fetch_add(n as u64, Ordering::Relaxed);
        }
    }
    f.sync_all().map_err(failed(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_is_written_each_pass() {
        let dir = tempfile::tempdir().unwrap();
        // Not a whole number of blocks: the tail is written too.
        let p = dir.path().join("t");
        let len = 3 * BLOCK as u64 + 4096;
        std::fs::write(&p, vec![0u8; len as usize]).unwrap();
        let r = run(&[p.as_path()], 2, &super::super::NoProgress).unwrap();
        assert_eq!((r.passes, r.bytes, r.targets), (2, 2 * len, 1));
        let data = std::fs::read(&p).unwrap();
        assert_eq!(data.len() as u64, len);
        // The last KiB is no longer zero.
        assert!(data[data.len() - 1024..].iter().any(|&b| b != 0));
        assert_eq!(
            PreconditionReport::describe(2),
            "2 passes of sequential 128k writes"
        );
    }

    #[test]
    fn a_target_that_cannot_be_opened_is_named() {
        let e = run(&[Path::new("/nonexistent/x")], 1, &super::super::NoProgress).unwrap_err();
        assert!(e.to_string().contains("/nonexistent/x"), "{e}");
    }
}
