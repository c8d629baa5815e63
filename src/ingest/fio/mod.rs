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
