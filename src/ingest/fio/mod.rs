//! fio's own output formats: JSON and json+ ([`fio_json`]), the normal
//! text report ([`normal`]), terse ([`terse`]), the log files
//! ([`fio_log`]), and what they share (job names, queue depths,
//! steady-state verdicts, idle profiling, fio's error lines). DiskSpd's
//! readers sit beside this folder in `ingest/diskspd/`.

pub(crate) mod block_size;
pub mod depth;
pub mod fio_error;
pub mod fio_json;
pub mod fio_log;
pub mod idle_prof;
pub(crate) mod jobname;
pub mod normal;
pub mod steady;
pub mod terse;

/// `make` over `items` on every core, [`SLICE`] items at a time, each
/// result handed to `take` in the items' order: what one pass gives
/// (rows, warnings, the first error), holding one slice's results at
/// most. A slice of a few items is made on this thread.
pub(crate) fn in_order_on_cores<T: Send, U: Send, E>(
    items: impl IntoIterator<Item = T>,
    make: impl Fn(T) -> U + Sync + Send,
    mut take: impl FnMut(U) -> Result<(), E>,
) -> Result<(), E> {
    use rayon::prelude::*;
    let mut items = items.into_iter();
    loop {
        let slice: Vec<T> = items.by_ref().take(SLICE).collect();
        if slice.is_empty() {
            return Ok(());
        }
        let made: Vec<U> = match slice.len() {
            0..=64 => slice.into_iter().map(&make).collect(),
            _ => slice.into_par_iter().map(&make).collect(),
        };
        for u in made {
            take(u)?;
        }
    }
}

/// Items made at once by [`in_order_on_cores`]: enough to keep both
/// cores busy, few enough that a slice of rows (a kilobyte each) stays
/// small.
const SLICE: usize = 4096;

/// Every file under `fixtures/` that reads as UTF-8, with its text: what
/// the text readers' tests walk to hold a change against every real output.
#[cfg(test)]
pub(crate) fn fixture_texts() -> Vec<(std::path::PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures"
    ))];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = e.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                out.push((path, text));
            }
        }
    }
    out
}
