//! How a path reads in nvcmp's outputs (the dataset's `source`, the files
//! skipped or warned about): as the system writes paths. On Windows a path
//! joined from an argument spelled with `/` and the folder names below it
//! mixes separators (`fixtures/x\cfg\a.json`); it is shown with
//! backslashes throughout, as Windows tools print paths. Elsewhere it is
//! the path as given.

use std::path::Path;

/// `path` for output.
pub fn shown(path: &Path) -> String {
    let text = path.display().to_string();
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
}
