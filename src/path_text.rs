//! How a path reads in nvcmp's outputs (the dataset's `source`, the files
//! skipped or warned about): as the system writes paths. On Windows a path
//! joined from an argument spelled with `/` and the folder names below it
//! mixes separators (`fixtures/x\cfg\a.json`); it is shown with
//! backslashes throughout, as Windows tools print paths. Elsewhere it is
//! the path as given.

use std::path::Path;

/// Names Windows gives to devices in every folder (`NUL`, `COM1.txt`):
/// a file of that name cannot be made there.
const WINDOWS_DEVICES: [&str; 22] = [
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8",
    "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

/// Why `name`, which came from data (a job file's section, a label),
/// cannot be one file name in a folder nvcmp writes, or None when it can:
/// a plain name names one entry of that folder on every system, and never
/// a path elsewhere. Refused: nothing, `.` and `..`, a separator (`/`,
/// `\`), NUL and other control characters, the characters Windows forbids
/// in names (`: * ? " < > |`), a trailing dot or space (Windows drops
/// them) and Windows' device names (`CON`, `nul.json`).
pub fn plain_name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        return Some("it is empty");
    }
    if name == "." || name == ".." {
        return Some("it names a folder, not a file");
    }
    if name.contains(['/', '\\']) {
        return Some("it holds a path separator (/ or \\)");
    }
    if name.chars().any(char::is_control) {
        return Some("it holds a control character");
    }
    if name.contains([':', '*', '?', '"', '<', '>', '|']) {
        return Some("it holds a character Windows forbids in names (: * ? \" < > |)");
    }
    if name.ends_with(['.', ' ']) {
        return Some("it ends with a dot or a space, which Windows drops");
    }
    let stem = name.split('.').next().unwrap_or(name).trim_end();
    if WINDOWS_DEVICES.iter().any(|d| d.eq_ignore_ascii_case(stem)) {
        return Some("it is a device name on Windows (CON, NUL, COM1...)");
    }
    None
}

/// `path` for output.
pub fn shown(path: &Path) -> String {
    // A name in UTF-8 (nearly all) is copied as it is: through `display`,
    // each was formatted and checked a chunk at a time.
    let text = match path.to_str() {
        Some(text) => text.to_owned(),
        None => path.display().to_string(),
    };
    if cfg!(windows) {
        text.replace('/', "\\")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_name_one_entry() {
        for ok in [
            "randread-4k-qd32-j1",
            "d1",
            "a..b",
            ".hidden",
            "nulls",
            "com10",
            "é",
        ] {
            assert_eq!(plain_name_problem(ok), None, "{ok}");
        }
        for bad in [
            "", ".", "..", "../x", "/abs/x", "a\\b", "a\0b", "a\nb", "a\u{1b}b", "C:x", "a|b",
            "a.", "a ", "CON", "nul.json", "Com1", "lpt9.x",
        ] {
            assert!(plain_name_problem(bad).is_some(), "{bad:?}");
        }
    }

    #[test]
    fn separators_are_the_systems() {
        let p = Path::new("fixtures/x").join("cfg").join("a.json");
        let want = if cfg!(windows) {
            r"fixtures\x\cfg\a.json"
        } else {
            "fixtures/x/cfg/a.json"
        };
        assert_eq!(shown(&p), want);
        // A drive letter and backslashes stay as they are.
        if cfg!(windows) {
            assert_eq!(shown(Path::new(r"C:\runs\b.json")), r"C:\runs\b.json");
        }
    }

    /// A name that is not UTF-8 is shown as `display` shows it: each bad
    /// byte a replacement character.
    #[cfg(unix)]
    #[test]
    fn a_name_not_in_utf8_is_shown_with_replacements() {
        use std::os::unix::ffi::OsStrExt;
        let p = Path::new(std::ffi::OsStr::from_bytes(b"runs/a\xffb.json"));
        assert_eq!(shown(p), "runs/a\u{fffd}b.json");
        assert_eq!(shown(p), p.display().to_string());
    }
}
