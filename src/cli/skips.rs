//! What could not be read, said once per kind: files skipped for one
//! reason are one line with their count, the reason and up to three of
//! their paths (`--verbose` lists every one, as the JSON's `skipped`
//! does), and a read that found nothing says what it found instead and
//! what would fix it.

use std::io::Write;

use crate::model::Skipped;

/// Paths named in a kind's line.
const NAMED: usize = 3;

/// The skips by kind, in the order each kind was first met: a kind is a
/// reason with its numbers left out (`binary data (NUL byte at offset
/// 17)` and `... offset 4)` are one kind).
pub fn kinds(skipped: &[Skipped]) -> Vec<Vec<&Skipped>> {
    let mut by: indexmap::IndexMap<String, Vec<&Skipped>> = indexmap::IndexMap::new();
    for s in skipped {
        by.entry(kind_key(&s.reason)).or_default().push(s);
    }
    by.into_values().collect()
}

fn kind_key(reason: &str) -> String {
    let mut key = String::with_capacity(reason.len());
    for c in reason.chars() {
        if c.is_ascii_digit() {
            if !key.ends_with('#') {
                key.push('#');
            }
        } else {
            key.push(c);
        }
    }
    key
}

/// Prints the skips on stderr after `prefix` (`nvcmp: `): one line per
/// file when `verbose` or a kind has one file, else one line per kind.
pub fn print(skipped: &[Skipped], prefix: &str, verbose: bool) {
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    for line in lines(skipped, verbose) {
        let _ = writeln!(err, "{prefix}{line}");
    }
}

/// The lines [`print()`] prints.
pub fn lines(skipped: &[Skipped], verbose: bool) -> Vec<String> {
    if verbose {
        return skipped.iter().map(ToString::to_string).collect();
    }
    kinds(skipped)
        .into_iter()
        .map(|kind| match kind.as_slice() {
            [one] => one.to_string(),
            many => format!(
                "skipped {}: {}: {}",
                crate::numbers::count(many.len(), "file"),
                many[0].reason,
                named(many)
            ),
        })
        .collect()
}

/// Up to three paths, and how many more (which `--verbose` lists).
fn named(kind: &[&Skipped]) -> String {
    let names: Vec<&str> = kind.iter().take(NAMED).map(|s| s.source.as_str()).collect();
    match kind.len().saturating_sub(NAMED) {
        0 => names.join(", "),
        more => format!(
            "{} and {more} more (--verbose lists each)",
            names.join(", ")
        ),
    }
}

/// What a read that gave nothing found, for its one-line error: `108
/// files could not be read: 108 gzip stream truncated (...): a, b, c
/// and 105 more; <what would fix it>`. Empty when nothing was skipped.
pub fn found(skipped: &[Skipped]) -> String {
    if skipped.is_empty() {
        return String::new();
    }
    let kinds = kinds(skipped);
    let mut parts: Vec<String> = kinds
        .iter()
        .take(NAMED)
        .map(|k| format!("{} {} ({})", k.len(), k[0].reason, named(k)))
        .collect();
    if kinds.len() > NAMED {
        parts.push(format!("{} more kinds", kinds.len() - NAMED));
    }
    let mut text = format!(
        "{} could not be read: {}",
        crate::numbers::count(skipped.len(), "file"),
        parts.join("; ")
    );
    let fixes: Vec<&str> = kinds.iter().filter_map(|k| fix(&k[0].reason)).collect();
    let mut seen = std::collections::HashSet::new();
    for f in fixes.into_iter().filter(|f| seen.insert(*f)) {
        text.push_str("; ");
        text.push_str(f);
    }
    text
}

/// What would make files skipped for `reason` readable, when something would.
fn fix(reason: &str) -> Option<&'static str> {
    if reason.contains("--max-expanded") {
        return Some("a larger --max-expanded reads them, if they are trusted");
    }
    if reason.contains("decompression bomb") {
        return Some("decompress such files by hand if they are trusted");
    }
    if reason.contains("truncated") || reason.contains("corrupt") {
        return Some("damaged files: copy them again from where the runs wrote them");
    }
    if reason.contains("binary data") {
        return Some(
            "nvcmp reads fio's and DiskSpd's text, JSON and XML, also inside gzip, zstd, xz, bzip2, tar and zip; other formats must be unpacked first",
        );
    }
    if reason.contains("not fio or DiskSpd output") {
        return Some(
            "give the files fio wrote with --output-format=json (or json+, normal, terse), or DiskSpd's text or -Rxml output",
        );
    }
    if reason.contains("no such file") {
        return Some("check the PATH");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skip(source: &str, reason: &str) -> Skipped {
        Skipped {
            source: source.into(),
            reason: reason.into(),
        }
    }

    #[test]
    fn one_line_per_kind_with_three_paths() {
        let mut skipped: Vec<Skipped> = (0..108)
            .map(|i| {
                skip(
                    &format!("r/{i}.log.gz"),
                    &format!("binary data (NUL byte at offset {i})"),
                )
            })
            .collect();
        skipped.push(skip(
            "r/x.json",
            "not fio or DiskSpd output (no fio JSON document)",
        ));
        let lines = lines(&skipped, false);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(
            lines[0],
            "skipped 108 files: binary data (NUL byte at offset 0): r/0.log.gz, r/1.log.gz, r/2.log.gz and 105 more (--verbose lists each)"
        );
        assert_eq!(
            lines[1],
            "skipped r/x.json: not fio or DiskSpd output (no fio JSON document)"
        );
        assert_eq!(super::lines(&skipped, true).len(), 109);
        let found = found(&skipped);
        assert!(
            found.starts_with("109 files could not be read: 108 binary data"),
            "{found}"
        );
        assert!(found.contains("unpacked first"), "{found}");
        assert!(found.contains("--output-format=json"), "{found}");
    }
}
