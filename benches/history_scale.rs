//! Writes a synthetic history as `nvcmp history add` would have left it
//! after RUNS adds (default 100,000) of a 50-row CI matrix
//! ([`synth::matrix_run`]): the same merged parts, written once each
//! instead of by 100,000 processes. `benches/history-scale.sh` then times
//! `nvcmp history show` over it.
//!
//! Run: `HISTORY_DIR=/var/tmp/h RUNS=100000 cargo bench --bench history_scale`.

use std::path::PathBuf;

use nvcmp::history::compact::Policy;
use nvcmp::history::store::{self, Part, RunMeta, StoredRun};
use nvcmp::history::{synth, time};

fn main() -> anyhow::Result<()> {
    // No default folder: `cargo test --benches` must not write 208 MB
    // into the working tree.
    let Ok(dir) = std::env::var("HISTORY_DIR").map(PathBuf::from) else {
        eprintln!("history_scale: set HISTORY_DIR to a new folder (and RUNS, default 100000)");
        return Ok(());
    };
    let runs: u64 = std::env::var("RUNS").map_or(Ok(100_000), |v| v.parse())?;
    if dir.exists() {
        anyhow::bail!("{}: exists; give a new HISTORY_DIR", dir.display());
    }
    std::fs::create_dir_all(&dir)?;
    let step_at = runs * 3 / 5;
    let layout = Policy::default().layout(runs);
    let t = std::time::Instant::now();
    // One part after the other: polars writes each with its own threads,
    // and a rayon worker waiting for them would start another part meanwhile.
    layout.iter().try_for_each(|&(first, last)| {
        let runs = (first..=last).map(|seq| StoredRun {
            meta: RunMeta {
                id: format!("run-{seq:06}"),
                commit: Some(format!(
                    "{:012x}",
                    seq.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 16
                )),
                // A run every hour, from 2015 on.
                time: time::format_utc(1_420_070_400 + seq as i64 * 3600),
                seq,
            },
            rows: synth::matrix_run(seq, step_at),
        });
        store::write_part(&dir.join(Part::file_name(first, last)), runs.collect())
    })?;
    println!(
        "{}: {runs} runs x 50 rows in {} parts, step at run {step_at}, written in {:.1} s",
        dir.display(),
        layout.len(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
