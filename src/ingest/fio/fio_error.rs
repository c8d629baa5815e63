//! Why fio produced no report: its error codes and error lines, so a file
//! of a failed run is named for what it is ("every job failed", "fio error
//! output only") rather than "not fio output".
//!
//! fio reports a job's failure as an errno (`td->error`, `"error" : 121` in
//! JSON, `err=121 (file:..., error=Remote I/O error)` in normal text) and
//! prints its own errors on lines that start with `fio: ` (`log_err`).

/// Linux's text for the errno values fio jobs fail with most (glibc's
/// `strerror`): JSON gives the number only. fio builds for other systems
/// map their errors onto these POSIX numbers too.
const ERRNO: [(i64, &str); 22] = [
    (1, "Operation not permitted"),
    (2, "No such file or directory"),
    (5, "Input/output error"),
    (6, "No such device or address"),
    (9, "Bad file descriptor"),
    (11, "Resource temporarily unavailable"),
    (12, "Cannot allocate memory"),
    (13, "Permission denied"),
    (14, "Bad address"),
    (16, "Device or resource busy"),
    (19, "No such device"),
    (21, "Is a directory"),
    (22, "Invalid argument"),
    (25, "Inappropriate ioctl for device"),
    (27, "File too large"),
    (28, "No space left on device"),
    (30, "Read-only file system"),
    (61, "No data available"),
    (84, "Invalid or incomplete multibyte or wide character"),
    (95, "Operation not supported"),
    (110, "Connection timed out"),
    (121, "Remote I/O error"),
];

/// `err=121: Remote I/O error`, or `err=N` for a code not in the table.
pub fn describe(code: i64) -> String {
    match ERRNO.iter().find(|(n, _)| *n == code) {
        Some((_, text)) => format!("err={code}: {text}"),
        None => format!("err={code}"),
    }
}

/// The first of fio's own error lines (`fio: ...`) in `text`, trimmed.
pub fn first_error_line(text: &str) -> Option<&str> {
    text.lines()
        .map(str::trim)
        .find(|l| l.starts_with("fio: ") && l.len() > 5)
}

/// Why a text with no job report is still fio's: it printed a group's
/// summary (`Run status group`) or its job headers without any job's
/// report, or it holds only fio's error lines. `None`: nothing says fio.
pub fn without_report(text: &str) -> Option<crate::ingest::ReadError> {
    use crate::ingest::ReadError;
    let error = first_error_line(text).map(str::to_string);
    let report = text.contains("Run status group ")
        || text
            .lines()
            .any(|l| l.contains(": (g=") && l.contains("rw="));
    if report {
        return Some(ReadError::NoJobReport(error));
    }
    // Only fio's messages: its error lines and their indented details
    // (`valid values: ...`), nothing else.
    let only_fio = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .all(|l| l.starts_with("fio: ") || l.starts_with("valid values:") || l.starts_with(": "));
    match error {
        Some(e) if only_fio => Some(ReadError::ErrorOnly(e)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::ReadError;

    fn fixture(name: &str) -> String {
        let path = format!("{}/fixtures/wild/failed/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn codes_are_named() {
        assert_eq!(describe(121), "err=121: Remote I/O error");
        assert_eq!(describe(25), "err=25: Inappropriate ioctl for device");
        assert_eq!(describe(4242), "err=4242");
    }

    /// The real failed runs in fixtures/wild/failed (fio 3.33).
    #[test]
    fn real_runs_without_a_report() {
        assert_eq!(
            without_report(&fixture("no-job-report.txt")),
            Some(ReadError::NoJobReport(Some(
                "fio: pid=0, err=2/file:filesetup.c:174, func=open, error=No such file or directory"
                    .into()
            )))
        );
        assert_eq!(
            without_report(&fixture("error-only.txt")),
            Some(ReadError::ErrorOnly("fio: failed parsing rw=bogus".into()))
        );
        // Text that merely mentions fio is not fio's.
        assert_eq!(without_report("notes\nfio: see the wiki\n"), None);
        assert_eq!(without_report("{\"a\": 1}"), None);
    }
}
