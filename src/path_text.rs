//! How a path reads in nvcmp's outputs (the dataset's `source`, the files
//! skipped or warned about): as the system writes paths. On Windows a path
//! joined from an argument spelled with `/` and the folder names below it
//! mixes separators (`fixtures/x\cfg\a.json`); it is shown with
//! backslashes throughout, as Windows tools print paths. Elsewhere it is
//! the path as given.

use std::path::Path;

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
