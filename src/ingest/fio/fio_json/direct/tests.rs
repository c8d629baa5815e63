//! The direct reader against serde_json: the same mirror (compared by its
//! `Debug` text, which shows every field, `-0.0` and NaN included) and
//! the same end offset, or `None`. Never a document serde_json refuses.

use std::path::{Path, PathBuf};

use super::*;

/// What serde_json's stream reader makes of the document at the start of
/// `text`, as `read_leading` reads it.
fn by_serde(text: &str) -> Option<(String, usize)> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<FioOutput>();
    let doc = stream.next()?.ok()?;
    Some((format!("{doc:?}"), stream.byte_offset()))
}

fn direct(text: &str) -> Option<(String, usize)> {
    leading(text).map(|(doc, end)| (format!("{doc:?}"), end))
}

/// Whether the direct reader agrees with serde_json on `text`; whether it
/// read it.
#[track_caller]
fn agrees(text: &str, what: &str) -> bool {
    let Some(got) = direct(text) else {
        return false;
    };
    match by_serde(text) {
        Some(want) => assert_eq!(got, want, "{what}"),
        None => panic!("{what}: read directly, refused by serde_json:\n{text}"),
    }
    true
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let path = e.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Every document in the fixtures (each `{` that starts a line): the
/// ones serde_json reads, read directly too, equal, unless they hold what
/// the direct reader leaves to serde_json.
#[test]
fn every_fixture_document_reads_as_serde_reads_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    files(&root.join("fixtures"), &mut paths);
    files(&root.join("src/ingest/testdata"), &mut paths);
    let (mut documents, mut direct_reads, mut left) = (0, 0, Vec::new());
    for path in paths {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(text) = crate::ingest::decode::decode(&bytes) else {
            continue;
        };
        let starts = text.match_indices('\n').map(|(i, _)| i + 1);
        for start in std::iter::once(0).chain(starts) {
            let rest = &text[start..];
            if !rest.trim_start_matches([' ', '\t']).starts_with('{') {
                continue;
            }
            let what = format!("{} at byte {start}", path.display());
            let read = agrees(rest, &what);
            if by_serde(rest).is_some() {
                documents += 1;
                direct_reads += usize::from(read);
                if !read {
                    left.push(what);
                }
            }
        }
    }
    assert!(documents > 1000, "{documents} documents in the fixtures");
    // fio never escapes a key nor prints an integer of 19 digits in an
    // option, so every document is read directly (one with fio's bare
    // `nan` is refused by serde_json's stream too, and not counted).
    assert!(
        left.is_empty(),
        "{} of {documents} not read directly: {left:#?}",
        left.len()
    );
    assert_eq!(direct_reads, documents);
}

/// A small generator, so the damaged copies are the same on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % below.max(1)
    }
}

/// One damage: a byte replaced, inserted or removed, a span removed, the
/// text cut short, or a line given twice (a key twice).
fn damaged(text: &str, rng: &mut Lcg) -> String {
    const BYTES: &[u8] = b"{}[]\":,0123456789.-+eE \\nultrfasN\t\n/u";
    let mut b = text.as_bytes().to_vec();
    let at = rng.next(b.len());
    match rng.next(6) {
        0 => b[at] = BYTES[rng.next(BYTES.len())],
        1 => b.insert(at, BYTES[rng.next(BYTES.len())]),
        2 => {
            b.remove(at);
        }
        3 => {
            let end = (at + rng.next(40)).min(b.len());
            b.drain(at..end);
        }
        4 => b.truncate(at),
        _ => {
            let start = b[..at]
                .iter()
                .rposition(|&c| c == b'\n')
                .map_or(0, |i| i + 1);
            let end = b[at..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |i| at + i + 1);
            let line = b[start..end].to_vec();
            b.splice(end..end, line);
        }
    }
    // Damage inside a multi-byte character: the copy is not text.
    String::from_utf8(b).unwrap_or_default()
}

/// Damaged copies of documents of every kind: whatever the direct reader
/// reads, serde_json reads the same; what serde_json refuses, the direct
/// reader never reads.
#[test]
fn damaged_documents_read_as_serde_reads_them_or_not_at_all() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = [
        "src/ingest/testdata/randrw-psync.jsonplus.json",
        "src/ingest/testdata/group-reporting-libaio.json",
        "src/ingest/testdata/client-server-2.json",
        "src/ingest/testdata/fio2-handmade.json",
        "fixtures/fio/linux-libaio/randread-4k.json",
    ];
    let mut rng = Lcg(42);
    let (mut tried, mut read) = (0, 0);
    for doc in docs {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        // json+ bins are most of a json+ file: read both ways.
        for skip_bins in [false, true] {
            for i in 0..600 {
                let copy = damaged(&text, &mut rng);
                tried += 1;
                let what = format!("{doc}, damage {i}, bins skipped: {skip_bins}");
                read += usize::from(values::without_bins(skip_bins, || agrees(&copy, &what)));
            }
        }
    }
    // Most damage (a digit for a digit, a space for a space) leaves a
    // document serde_json reads: those must have been compared.
    assert!(
        read * 4 > tried,
        "{read} of {tried} damaged copies read directly"
    );
}

#[track_caller]
fn same(text: &str) {
    assert!(agrees(text, text), "not read directly: {text}");
}

#[track_caller]
fn left_to_serde(text: &str) {
    assert_eq!(direct(text), None, "{text}");
}

/// Numbers serde_json reads, the edges of each of the reader's paths.
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "7",
    "-7",
    "123456789012345678",
    "-123456789012345678",
    "1234567890123456789",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "99999999999999999999999",
    "0.1",
    "-0.0",
    "1e5",
    "1E+5",
    "2.5e-3",
    "1e-400",
    "9007199254740993",
    "0.30000000000000004",
    "4.9406564584124654e-324",
    "1.7976931348623157e308",
];

/// What JSON's grammar refuses: a leading zero, a bare point, a sign or
/// an exponent alone, fio's bare nan.
const NOT_NUMBERS: &[&str] = &["01", "1.", ".5", "-", "1e", "+1", "nan", "-inf"];

#[test]
fn numbers_read_as_serde_reads_them() {
    for n in NUMBERS {
        same(&format!(
            r#"{{"timestamp": {n}, "jobs": [{{"read": {{"iops": {n}}}}}]}}"#
        ));
        // An option's number keeps serde_json's kind (u64, i64, f64); an
        // integer of 19 digits or more is left to serde_json.
        let option = format!(r#"{{"jobs": [{{"job options": {{"x": {n}}}}}]}}"#);
        let long = n.trim_start_matches('-').len() > 18;
        match !long || n.contains(['.', 'e', 'E']) {
            true => same(&option),
            false => left_to_serde(&option),
        }
    }
    // serde_json's errors: out of range, and the grammar's.
    for n in ["1e400", "-1e400"].iter().chain(NOT_NUMBERS) {
        let text = format!(r#"{{"timestamp": {n}, "jobs": []}}"#);
        left_to_serde(&text);
        assert_eq!(by_serde(&text), None, "{text}");
    }
}

/// Numbers the mirror does not keep (`ctx`, `latency_ns`, `disk_util`:
/// half of a document's) are skipped as serde_json skips them: by their
/// grammar alone, so out of range is no error there, and a leading zero,
/// a bare point or a sign alone is.
#[test]
fn numbers_skipped_as_serde_skips_them() {
    let skipped = |n: &str| {
        [
            format!(r#"{{"jobs": [{{"ctx": {n}, "read": {{"iops": 1, "bw_min": {n}}}}}]}}"#),
            format!(r#"{{"jobs": [{{"latency_ns": {{"2": {n}, "4": [{n}, {n}]}}}}]}}"#),
            format!(r#"{{"jobs": [], "disk_util": [{{"util": {n}}}], "time": {n}}}"#),
        ]
    };
    for n in NUMBERS.iter().chain(&["1e400", "-1e400", "0e0", "-0.5E-0"]) {
        for text in skipped(n) {
            same(&text);
        }
    }
    for n in NOT_NUMBERS
        .iter()
        .chain(&["-01", "1e+", "1.e5", "0x10", "1_0"])
    {
        for text in skipped(n) {
            left_to_serde(&text);
            assert_eq!(by_serde(&text), None, "{text}");
        }
    }
}

#[test]
fn values_of_every_kind_read_as_serde_reads_them() {
    same(
        r#"{"jobs": null, "client_stats": [], "disk_util": [{"a": 1}], "nvcmp": {"x": [1, "y", null, true]}}"#,
    );
    same(
        r#"{"global options": [{"hostname": "a", "bs": "4k"}, {}], "jobs": [{"jobname": "j\u00e9", "job options": {"k": "\"1\""}}]}"#,
    );
    same(
        r#"{"jobs": [{"job options": {"a": true, "b": false, "c": null, "d": [1, {"e": 2}], "f": "C:\\x"}}]}"#,
    );
    same(
        r#"{"jobs": [{"read": {"clat_ns": {"percentile": {" 99.000000 ": 5, "1e1": 2.5}, "bins": {"3": 2, "1": 1.5, "9": -1}}}, "write": null}]}"#,
    );
    same(
        r#"{"jobs": [{"steadystate": {"ss": "iops_slope"}, "system_cpu_pct": "x", "iodepth_level": {"1": 100.0, ">=64": 0.0}}]}"#,
    );
    same(" \n\t{\"jobs\": []}\n{\"jobs\": []}");
    same(r#"{"unknown": {"deep": [[[[{"x": "\/\b\f\n\r\t\u12aB"}]]]]}, "jobs": []}"#);
}

#[test]
fn what_serde_refuses_or_reads_otherwise_is_left_to_it() {
    // A key twice: serde's derive refuses it.
    left_to_serde(r#"{"jobs": [], "jobs": []}"#);
    left_to_serde(r#"{"jobs": [{"read": {"iops": 1, "iops": 2}}]}"#);
    // Another type than the mirror's.
    left_to_serde(r#"{"jobs": [{"read": {"iops": "1"}}]}"#);
    left_to_serde(r#"{"jobs": [{"read": [1, 2]}]}"#);
    left_to_serde(r#"{"jobs": {}}"#);
    left_to_serde(r#"{"global options": null, "jobs": []}"#);
    left_to_serde(r#"{"jobs": [{"read": {"clat_ns": {"percentile": {"x": 1}}}}]}"#);
    // An escaped key, fio's bare nan, control characters, trailing commas.
    left_to_serde(r#"{"j\u006fbs": []}"#);
    left_to_serde(r#"{"jobs": [{"job options": {"k\"": 1}}]}"#);
    left_to_serde(r#"{"jobs": [{"read": {"iops": nan}}]}"#);
    left_to_serde("{\"jobs\": [], \"x\": \"a\tb\"}");
    left_to_serde(r#"{"jobs": [1,]}"#);
    left_to_serde(r#"{"jobs": [], }"#);
    left_to_serde(r#"{"jobs": [], "x": "\x"}"#);
    left_to_serde(r#"{"jobs": [], "x": "\u12G4"}"#);
    left_to_serde(r#"{"jobs": [], "x": tru}"#);
    left_to_serde("[]");
    // Cut inside a string, a key, a number.
    left_to_serde(r#"{"jobs": [], "x": "abcdefghijklm"#);
    left_to_serde(r#"{"jobs": [], "abcdefghijklm"#);
    left_to_serde(r#"{"jobs": [], "x": 12"#);
    left_to_serde("{\"jobs\": [");
    // Nesting past the reader's limit (serde_json's is 128).
    let deep = format!(
        r#"{{"jobs": [], "x": {}{}}}"#,
        "[".repeat(120),
        "]".repeat(120)
    );
    left_to_serde(&deep);
    let within = format!(
        r#"{{"jobs": [], "x": {}{}}}"#,
        "[".repeat(90),
        "]".repeat(90)
    );
    same(&within);
}

/// The word-at-a-time scan finds the first quote, backslash or control
/// character of every word, as a byte-by-byte scan does.
#[test]
fn string_stops_finds_the_first_stop_of_a_word() {
    let mut rng = Lcg(7);
    let interesting = [
        b'"', b'\\', 0x00, 0x1f, 0x20, 0x21, b'a', 0x7f, 0x80, 0xff, 0x5b, 0x5d,
    ];
    for _ in 0..200_000 {
        let mut bytes = [0u8; 8];
        for b in &mut bytes {
            *b = match rng.next(3) {
                0 => interesting[rng.next(interesting.len())],
                _ => rng.next(256) as u8,
            };
        }
        let want = bytes
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20);
        let stops = string_stops(u64::from_le_bytes(bytes));
        let got = (stops != 0).then(|| (stops.trailing_zeros() / 8) as usize);
        assert_eq!(got, want, "{bytes:?}");
    }
}

/// The sixteen-at-a-time string scan stops where a byte-by-byte scan
/// stops, on runs of every length, with bytes that compare as negative
/// (0x80 and up) or sit next to a stop in value.
#[test]
fn string_run_stops_where_a_byte_scan_stops() {
    let mut rng = Lcg(13);
    let stops = [b'"', b'\\', 0x00, 0x01, 0x0a, 0x1f];
    let others = [
        0x20, 0x21, b'#', b'[', b']', 0x7f, 0x80, 0x9f, 0xa0, 0xe2, 0xff, b'a',
    ];
    for _ in 0..200_000 {
        let mut bytes = [0u8; 16];
        let run = rng.next(17);
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = match (i < run, rng.next(4)) {
                (true, 0) | (true, 1) => others[rng.next(others.len())],
                (true, _) => 0x20 + rng.next(0xe0) as u8,
                (false, 0) => stops[rng.next(stops.len())],
                (false, 1) => others[rng.next(others.len())],
                _ => rng.next(256) as u8,
            };
        }
        let want = bytes
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
            .unwrap_or(16);
        assert_eq!(string_run(&bytes), want, "{bytes:?}");
    }
}

/// The eight-at-a-time digit run agrees with a byte-by-byte one, in its
/// count and its value, on runs of every length followed by bytes next to
/// the digits in value (`/`, `:`), bytes that carry when 6 is added (0xfa
/// and up), and anything.
#[test]
fn digit_run_reads_what_a_byte_loop_reads() {
    let mut rng = Lcg(17);
    let near = [
        b'/',
        b':',
        b'.',
        b'e',
        b'-',
        b',',
        0x00,
        0x3a,
        0x3f,
        0xfa,
        0xff,
        0x30 - 6,
    ];
    for _ in 0..200_000 {
        let mut bytes = [0u8; 8];
        let run = rng.next(9);
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = match (i < run, rng.next(3)) {
                (true, _) => b'0' + rng.next(10) as u8,
                (false, 0) => near[rng.next(near.len())],
                (false, 1) => b'0' + rng.next(10) as u8,
                _ => rng.next(256) as u8,
            };
        }
        let n = bytes.iter().position(|c| !c.is_ascii_digit()).unwrap_or(8);
        let value = bytes[..n]
            .iter()
            .fold(0u64, |v, c| v * 10 + u64::from(c - b'0'));
        assert_eq!(
            digit_run(u64::from_le_bytes(bytes)),
            (n, value),
            "{bytes:?}"
        );
    }
}

/// The sixteen-at-a-time whitespace count agrees with a byte-by-byte
/// scan, on runs of every length and with bytes that are next to
/// whitespace in value or compare as negative (0x80 and up).
#[test]
fn blank_run_counts_the_whitespace_a_byte_scan_counts() {
    let mut rng = Lcg(11);
    let blanks = [b' ', b'\n', b'\r', b'\t'];
    let others = [
        0x00, 0x08, 0x0b, 0x0c, 0x1f, 0x21, b'"', 0x7f, 0x80, 0xa0, 0xff, b'{',
    ];
    for _ in 0..200_000 {
        let mut bytes = [0u8; 16];
        let run = rng.next(17);
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = match (i < run, rng.next(4)) {
                (true, _) | (false, 0) => blanks[rng.next(blanks.len())],
                (false, 1) => others[rng.next(others.len())],
                _ => rng.next(256) as u8,
            };
        }
        let want = bytes
            .iter()
            .position(|c| !matches!(c, b' ' | b'\n' | b'\r' | b'\t'))
            .unwrap_or(16);
        assert_eq!(blank_run(&bytes), want, "{bytes:?}");
    }
}

/// Every key the mirror reads, at any level, and some it does not.
const KEYS: &[&str] = &[
    "fio version",
    "timestamp",
    "timestamp_ms",
    "global options",
    "jobs",
    "client_stats",
    "cpu_idleness",
    "disk_util",
    "nvcmp",
    "jobname",
    "groupid",
    "error",
    "job options",
    "read",
    "write",
    "trim",
    "mixed",
    "usr_cpu",
    "sys_cpu",
    "job_runtime",
    "hostname",
    "port",
    "system_cpu_pct",
    "iodepth_level",
    "steadystate",
    "io_bytes",
    "io_kbytes",
    "bw_bytes",
    "bw",
    "iops",
    "runtime",
    "total_ios",
    "slat_ns",
    "clat_ns",
    "lat_ns",
    "slat",
    "clat",
    "lat",
    "bw_mean",
    "bw_dev",
    "bw_samples",
    "iops_mean",
    "iops_stddev",
    "iops_samples",
    "min",
    "max",
    "mean",
    "stddev",
    "N",
    "percentile",
    "bins",
    "99.000000",
    "1",
    " 5.0 ",
    "other",
    "latency_ns",
];

/// A random JSON value of any kind, shaped like fio's output often enough
/// (objects of the mirror's keys, numbers as fio prints them) to be read.
fn value(rng: &mut Lcg, depth: usize, out: &mut String) {
    let kinds = if depth > 5 { 6 } else { 9 };
    match rng.next(kinds) {
        0 | 1 => {
            const NUMBERS: &[&str] = &[
                "0",
                "-0",
                "7",
                "4096",
                "-12",
                "13384.180132",
                "0.000000",
                "-0.5",
                "1e3",
                "2.5E-2",
                "123456789012345678",
                "12345678901234567890",
                "9007199254740993.0",
                "1e400",
            ];
            out.push_str(NUMBERS[rng.next(NUMBERS.len())]);
        }
        2 | 3 => {
            const STRINGS: &[&str] = &[
                r#""4k""#,
                r#""libaio""#,
                r#""""#,
                r#""C:\\fio\\x""#,
                r#""\u00e9\n""#,
                r#""99.0""#,
            ];
            out.push_str(STRINGS[rng.next(STRINGS.len())]);
        }
        4 => out.push_str(["null", "true", "false"][rng.next(3)]),
        5 => out.push_str(["nan", "-inf", "tru", "01", "\"a\tb\""][rng.next(5)]),
        6 | 7 => {
            out.push('{');
            for i in 0..rng.next(6) {
                if i > 0 {
                    out.push_str([",", ",\n  "][rng.next(2)]);
                }
                out.push('"');
                out.push_str(KEYS[rng.next(KEYS.len())]);
                out.push_str(["\" : ", "\":"][rng.next(2)]);
                value(rng, depth + 1, out);
            }
            out.push('}');
        }
        _ => {
            out.push('[');
            for i in 0..rng.next(4) {
                if i > 0 {
                    out.push(',');
                }
                value(rng, depth + 1, out);
            }
            out.push(']');
        }
    }
}

/// Random documents of the mirror's keys with values of every kind: what
/// the direct reader reads, serde_json reads the same; what serde_json
/// refuses, it never reads.
#[test]
fn random_documents_read_as_serde_reads_them_or_not_at_all() {
    let mut rng = Lcg(2026);
    let (mut tried, mut read) = (0, 0);
    for i in 0..20_000 {
        let mut text = String::from("{\"jobs\" : [");
        for j in 0..rng.next(3) {
            if j > 0 {
                text.push(',');
            }
            value(&mut rng, 1, &mut text);
        }
        text.push_str("], ");
        let mut rest = String::new();
        value(&mut rng, 0, &mut rest);
        // The rest's members after `jobs`, when it is an object.
        text.push_str(
            rest.strip_prefix('{')
                .filter(|r| r.len() > 1)
                .unwrap_or("\"x\": 1}"),
        );
        tried += 1;
        read += usize::from(agrees(&text, &format!("document {i}")));
    }
    // A third are read (6,504 of 20,000): the rest hold a value serde_json
    // refuses or one of another type than the mirror's.
    assert!(
        read * 5 > tried,
        "{read} of {tried} random documents read directly"
    );
}
