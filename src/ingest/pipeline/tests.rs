//! The pipeline over the shipped fixtures and over files written to a
//! temporary folder; values are read back from the files themselves.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde_json::Value;

use super::*;
use crate::model::Row;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

fn ingest_one(path: &Path) -> Ingested {
    ingest(&[path.to_path_buf()], &IngestOptions::default()).unwrap()
}

/// Rows with the file-dependent fields blanked, to compare variants.
fn essence(rows: &[Row]) -> Vec<Row> {
    rows.iter()
        .map(|r| Row {
            source: String::new(),
            config: String::new(),
            ..r.clone()
        })
        .collect()
}

#[test]
fn every_json_fixture_gives_rows() {
    let dir = fixtures().join("fio");
    let got = ingest_one(&dir);
    for s in &got.skipped {
        assert!(
            !s.source.ends_with(".json"),
            "JSON fixture skipped: {} ({})",
            s.source,
            s.reason
        );
    }
    // every input is accounted for
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if !is_ignored(&p.file_name().unwrap().to_string_lossy()) {
                files.push(p);
            }
        }
    }
    assert_eq!(got.files_read + got.skipped.len(), files.len());
    // deterministic order: sorted sources
    let sources: Vec<_> = got.rows.iter().map(|r| r.source.clone()).collect();
    let mut sorted = sources.clone();
    sorted.sort();
    assert_eq!(sources, sorted);
}

#[test]
fn windows_wrappings_read_like_the_plain_file() {
    let plain = ingest_one(&fixtures().join("fio/linux-libaio/randread-4k.json"));
    assert_eq!(plain.rows.len(), 1);
    let doc: Value = serde_json::from_slice(
        &std::fs::read(fixtures().join("fio/linux-libaio/randread-4k.json")).unwrap(),
    )
    .unwrap();
    let r = &plain.rows[0];
    let d = &doc["jobs"][0]["read"];
    assert_eq!(r.iops, d["iops"].as_f64().unwrap());
    assert_eq!(r.bw_bytes_per_s, d["bw_bytes"].as_f64().unwrap());
    assert_eq!(
        r.clat_p99_ns,
        d["clat_ns"]["percentile"]["99.000000"].as_f64()
    );
    assert_eq!(r.config, "linux-libaio");
    for name in [
        "randread-4k.utf16le-bom-crlf.json",
        "randread-4k.utf16be-bom.json",
        "randread-4k.utf8-bom-crlf.json",
        "randread-4k.warning-crlf.json",
        "randread-4k.utf16le-warning.json",
    ] {
        let got = ingest_one(&fixtures().join("fio/windows-derived").join(name));
        assert!(got.skipped.is_empty(), "{name}: {:?}", got.skipped);
        assert_eq!(essence(&got.rows), essence(&plain.rows), "{name}");
        assert_eq!(got.rows[0].config, "windows-derived");
    }
}

#[test]
fn windows_handmade_is_windows() {
    let got = ingest_one(&fixtures().join("fio/windows-handmade"));
    assert!(got.skipped.is_empty(), "{:?}", got.skipped);
    assert!(!got.rows.is_empty());
    for r in &got.rows {
        assert_eq!(
            (r.os.as_str(), r.engine.as_str()),
            ("windows", "windowsaio"),
            "{}",
            r.source
        );
    }
}

#[test]
fn status_interval_snapshots_count_once() {
    let path = fixtures().join("fio/linux-libaio/status-interval.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let last = text.rfind("\n{").map_or(0, |i| i + 1);
    let last_doc: Value = serde_json::from_str(&text[last..]).unwrap();
    let got = ingest_one(&path);
    let jobs = last_doc["jobs"].as_array().unwrap();
    let expected: usize = jobs
        .iter()
        .map(|j| {
            ["read", "write", "trim"]
                .iter()
                .filter(|d| j[**d]["io_bytes"].as_u64().unwrap_or(0) > 0)
                .count()
        })
        .sum();
    assert_eq!(got.rows.len(), expected);
    assert_eq!(
        got.rows[0].io_bytes,
        jobs[0]["read"]["io_bytes"].as_u64().unwrap()
    );
}

#[test]
fn json_normal_file_reads_the_json_once() {
    let path = fixtures().join("fio/linux-libaio/randread-4k.json-normal.txt");
    let got = ingest_one(&path);
    assert_eq!(got.rows.len(), 1, "{:?}", got.skipped);
    assert_eq!(got.rows[0].format, "json");
}

#[test]
fn bad_fixtures_are_skipped_with_reasons() {
    let got = ingest_one(&fixtures().join("bad"));
    assert!(
        got.rows.is_empty(),
        "{:?}",
        got.rows.iter().map(|r| &r.source).collect::<Vec<_>>()
    );
    let reason = |name: &str| {
        got.skipped
            .iter()
            .find(|s| s.source.ends_with(name))
            .unwrap_or_else(|| panic!("{name} not skipped"))
            .reason
            .clone()
    };
    assert!(reason("truncated.json").contains("truncated"));
    assert!(reason("binary.json").contains("binary"));
    assert_eq!(reason("empty.json"), "empty file");
    assert!(reason("not-fio.json").contains("not fio output"));
    assert!(reason("not-fio.txt").contains("not fio or DiskSpd output"));
    assert!(reason("string-bw.json").contains("invalid type"));
    assert!(reason("negative-runtime.json").contains("runtime_ms is -2002"));
    assert!(reason("nan-iops.json").contains("not a finite number"));
    assert!(reason("terse-mixed-only.txt").contains("unified_rw_reporting"));
    assert_eq!(
        got.skipped.len(),
        std::fs::read_dir(fixtures().join("bad")).unwrap().count()
    );
}

#[test]
fn json_normal_and_terse_in_one_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("libaio");
    std::fs::create_dir(&dir).unwrap();
    for (from, to) in [
        ("randread-4k.json", "a.json"),
        ("randread-4k.txt", "b.txt"),
        ("randread-4k.terse.txt", "c.terse"),
    ] {
        std::fs::copy(fixtures().join("fio/linux-libaio").join(from), dir.join(to)).unwrap();
    }
    let got = ingest_one(tmp.path());
    assert!(got.skipped.is_empty(), "{:?}", got.skipped);
    let formats: Vec<(&str, &str)> = got
        .rows
        .iter()
        .map(|r| {
            (
                r.source.rsplit(['/', '\\']).next().unwrap(),
                r.format.as_str(),
            )
        })
        .collect();
    assert_eq!(
        formats,
        [
            ("a.json", "json"),
            ("b.txt", "normal"),
            ("c.terse", "terse")
        ]
    );
    // The three runs are one workload to the comparison: terse's guesses
    // (from the name and the line) match what the others state.
    for r in &got.rows {
        assert_eq!(
            (
                r.config.as_str(),
                r.rw.as_str(),
                r.bs_bytes,
                r.iodepth,
                r.direction
            ),
            (
                "libaio",
                "randread",
                4096,
                32,
                crate::model::Direction::Read
            ),
            "{}",
            r.format
        );
    }
    assert!(
        got.warnings
            .iter()
            .any(|w| w.source.ends_with("c.terse") && w.message.contains("terse output"))
    );
}

#[test]
fn terse_and_normal_in_one_file_is_read_once_as_normal() {
    // `--output-format=terse,normal` prints the run twice, the terse line
    // after fio's banner; normal says more. These two fixtures are two
    // runs of one job (their I/O differs): not taken for one, so the
    // normal text's row stands alone.
    let lib = fixtures().join("fio/linux-libaio");
    let terse = std::fs::read_to_string(lib.join("randread-4k.terse.txt")).unwrap();
    let normal = std::fs::read_to_string(lib.join("randread-4k.txt")).unwrap();
    let banner = normal.find("Starting 1 process\n").unwrap() + 19;
    let both = format!("{}{terse}{}", &normal[..banner], &normal[banner..]);
    let mut warnings = Vec::new();
    let rows = read_bytes(both.as_bytes(), &mut warnings).unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (rows[0].format.as_str(), rows[0].engine.as_str()),
        ("normal", "libaio")
    );
    // A normal report cut short does not hide a complete terse line.
    let cut = &normal[..normal.find("  read:").unwrap() + 20];
    let rows = read_bytes(format!("{cut}\n{terse}").as_bytes(), &mut warnings).unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].format, "terse");
}

#[test]
fn every_terse_fixture_gives_rows() {
    let got = ingest_one(&fixtures().join("fio/linux-terse"));
    assert!(got.skipped.is_empty(), "{:?}", got.skipped);
    let files = std::fs::read_dir(fixtures().join("fio/linux-terse"))
        .unwrap()
        .count();
    assert_eq!(got.files_read, files);
    for r in &got.rows {
        let json = r.source.ends_with("terse-json.txt");
        assert_eq!(
            r.format,
            if json { "json" } else { "terse" },
            "{}",
            r.source
        );
    }
    // `terse,json` output is one run twice: read once, from the JSON.
    let tj: Vec<_> = got
        .rows
        .iter()
        .filter(|r| r.source.ends_with("terse-json.txt"))
        .collect();
    assert_eq!(tj.len(), 1);
    assert_eq!(tj[0].engine, "psync");
}

#[test]
fn fio2_without_options_guesses_from_the_name() {
    let got = ingest_one(&fixtures().join("fio/fio2-handmade/randread-4k.json"));
    let r = &got.rows[0];
    assert_eq!(
        (r.rw.as_str(), r.bs_bytes, r.iodepth),
        ("randread", 4096, 32)
    );
    assert!(
        got.warnings
            .iter()
            .any(|w| w.message.contains("no job options"))
    );
}

fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

const JOB: &str = include_str!("../testdata/group-reporting-libaio.json");

#[test]
fn labels_manifest_and_sidecars() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("results");
    // Files of one folder differ by a trailing newline: byte-for-byte
    // copies would be one result (`copies_of`).
    write(&root, "linux-libaio/a.json", JOB);
    write(&root, "linux-libaio/b.json", &format!("{JOB}\n"));
    write(
        &root,
        "linux-libaio/b.json.nvcmp.toml",
        "system_cpu_pct = 74.22\n",
    );
    write(&root, "nested/deep/c.json", JOB);
    let harness = JOB.replacen(
        "\"jobname\" :",
        "\"system_cpu_pct\" : 33.5,\n      \"jobname\" :",
        1,
    );
    assert_ne!(harness, JOB);
    write(&root, "linux-libaio/d.json", &harness);
    write(&root, "linux-libaio/e.json", &format!("{harness}\n"));
    write(
        &root,
        "linux-libaio/e.json.nvcmp.toml",
        "system_cpu_pct = 61\n",
    );
    write(&root, "linux-libaio/f.json", &format!("{harness}\n\n"));
    write(&root, "top.json", JOB);
    write(&root, "report.md", "# not a result");
    write(&root, "chart.png", "\u{1}PNG");
    write(
        &root,
        "nvcmp.toml",
        r#"baseline = "linux-libaio"
[config."linux-libaio"]
name = "Linux libaio"
iops_precision = 1000
system_cpu_pct = 45.0
[[result]]
file = "linux-libaio/a.json"
system_cpu_pct = 50.5
[[result]]
file = "linux-libaio/f.json"
system_cpu_pct = 12
[config."nested/deep"]
os = "windows"
engine = "windowsaio"
system_cpu_pct = 10
"#,
    );
    let got = ingest_one(&root);
    assert!(got.skipped.is_empty(), "{:?}", got.skipped);
    assert_eq!(got.files_read, 7);
    let by_file = |f: &str| got.rows.iter().find(|r| r.source.ends_with(f)).unwrap();
    let a = by_file("a.json");
    assert_eq!(a.config, "Linux libaio");
    assert_eq!(a.iops_precision, 1000.0);
    assert_eq!(a.system_cpu_pct, Some(50.5)); // [[result]] beats [config]
    assert_eq!(by_file("b.json").system_cpu_pct, Some(74.22)); // sidecar wins
    let c = by_file("c.json");
    assert_eq!(c.config, "nested/deep");
    assert_eq!(
        (c.os.as_str(), c.engine.as_str()),
        ("windows", "windowsaio")
    );
    assert_eq!(c.system_cpu_pct, Some(10.0));
    let top = by_file("top.json");
    assert_eq!(top.config, "results");
    assert_eq!(top.system_cpu_pct, None);
    // The harness's own figure in the JSON: beats [config], loses to a
    // sidecar and to [[result]].
    let d = by_file("d.json");
    assert_eq!(d.config, "Linux libaio");
    assert_eq!(d.system_cpu_pct, Some(33.5));
    assert_eq!(by_file("e.json").system_cpu_pct, Some(61.0));
    assert_eq!(by_file("f.json").system_cpu_pct, Some(12.0));
    assert_eq!(got.manifest.baseline.as_deref(), Some("Linux libaio"));

    for (by, want) in [
        (ConfigNaming::Engine, "libaio"),
        (ConfigNaming::File, "a"),
        (ConfigNaming::Host, "linux-libaio"),
    ] {
        let opts = IngestOptions {
            config_naming: by.clone(),
            manifest: Some(tmp.path().join("none.toml")),
            ..IngestOptions::default()
        };
        assert!(ingest(std::slice::from_ref(&root), &opts).is_err()); // missing manifest is an error
        let opts = IngestOptions {
            config_naming: by.clone(),
            ..IngestOptions::default()
        };
        let got = ingest(&[root.join("linux-libaio/a.json")], &opts).unwrap();
        assert_eq!(got.rows[0].config, want, "{by:?}");
    }
}

/// Each sidecar is found beside its own file, whatever their names' order
/// once the suffix is gone (`x-y.json` sorts before `x.json`, and
/// `x-y.json.nvcmp.toml` before `x.json.nvcmp.toml`, but not as stems:
/// `x.json` < `x.json-y`), and a file without one gets none.
#[test]
fn sidecars_are_found_whatever_their_names_order() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("r");
    // Names that differ in more than case: Windows' file systems fold it.
    let names = ["x.json", "x-y.json", "x.json-y", "Y.JSON", "w.json"];
    for (i, name) in names.iter().enumerate() {
        // Each file its own bytes: copies would be one result.
        write(&root, name, &format!("{JOB}{}", "\n".repeat(i)));
        if *name != "w.json" {
            write(
                &root,
                &format!("{name}.nvcmp.toml"),
                &format!("system_cpu_pct = {}\n", i + 1),
            );
        }
    }
    let got = ingest_one(&root);
    assert!(got.skipped.is_empty(), "{:?}", got.skipped);
    assert_eq!(got.files_read, names.len());
    for (i, name) in names.iter().enumerate() {
        let want = (*name != "w.json").then_some(i as f64 + 1.0);
        let rows: Vec<_> = got
            .rows
            .iter()
            .filter(|r| Path::new(&r.source).file_name() == Some(std::ffi::OsStr::new(name)))
            .collect();
        assert!(!rows.is_empty(), "{name}");
        assert!(rows.iter().all(|r| r.system_cpu_pct == want), "{name}");
    }
}

#[test]
fn bad_manifest_fails_naming_the_key() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "x/a.json", JOB);
    write(tmp.path(), "nvcmp.toml", "[config.x]\nsystem_cpu = 4\n");
    let e = format!(
        "{:#}",
        ingest(&[tmp.path().to_path_buf()], &IngestOptions::default()).unwrap_err()
    );
    assert!(e.contains("nvcmp.toml") && e.contains("system_cpu"), "{e}");
}

#[test]
fn missing_path_and_bad_sidecar_are_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    let a = write(tmp.path(), "x/a.json", JOB);
    write(tmp.path(), "x/a.json.nvcmp.toml", "cpu = 1\n");
    let got = ingest(&[tmp.path().join("nope"), a], &IngestOptions::default()).unwrap();
    assert_eq!(got.skipped.len(), 2);
    assert_eq!(got.skipped[0].reason, "no such file or directory");
    assert!(
        got.skipped[1].reason.contains("a.json.nvcmp.toml"),
        "{:?}",
        got.skipped
    );
}

#[test]
fn appended_runs_with_different_jobs_are_all_read() {
    let tmp = tempfile::tempdir().unwrap();
    let other = include_str!("../testdata/randrw-psync.jsonplus.json");
    let p = write(tmp.path(), "x/both.json", &format!("{JOB}\n{other}\n{JOB}"));
    let got = ingest_one(&p);
    // JOB, then randrw (2 rows), then JOB again: different from its
    // predecessor, so a new run and read.
    assert_eq!(got.rows.len(), 4);
    let p = write(tmp.path(), "x/snap.json", &format!("{JOB}\n{JOB}"));
    assert_eq!(ingest_one(&p).rows.len(), 1);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let mut w = Vec::new();
        let _ = read_bytes(&bytes, &mut w);
        if let Ok(text) = decode::decode(&bytes) {
            for seg in decode::segments(&text) {
                let _ = fio_json::JsonReader.read(seg.text);
                let _ = NormalReader.read(seg.text);
            }
        }
    }

    #[test]
    fn mutated_fio_json_never_panics(
        edits in proptest::collection::vec((0usize..6700, any::<u8>()), 1..8),
        cut in 0usize..6700,
    ) {
        let mut bytes = JOB.as_bytes().to_vec();
        for (pos, b) in edits {
            let pos = pos % bytes.len();
            bytes[pos] = b;
        }
        bytes.truncate(cut.max(1));
        let mut w = Vec::new();
        if let Ok(rows) = read_bytes(&bytes, &mut w) {
            for r in rows {
                prop_assert!(r.iops.is_finite() && r.iops >= 0.0);
                prop_assert!(r.runtime_ms.is_finite() && r.runtime_ms >= 0.0);
                prop_assert!(r.bw_bytes_per_s.is_finite() && r.bw_bytes_per_s >= 0.0);
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        let _ = NormalReader.read(&text);
        let _ = fio_json::JsonReader.read(&text);
    }
}

#[test]
fn files_without_rows_fail_for_typed_reasons() {
    let mut w = Vec::new();
    let e = read_bytes(b"", &mut w).unwrap_err();
    assert!(matches!(e, FileError::Decode(DecodeError::Empty)), "{e:?}");
    let e = read_bytes(b"hello\n", &mut w).unwrap_err();
    assert!(matches!(e, FileError::NotFio), "{e:?}");
    let none = b"{\"fio version\": \"fio-3.33\", \"jobs\": []}\n";
    let e = read_bytes(none, &mut w).unwrap_err();
    assert!(matches!(e, FileError::NoRows), "{e:?}");
    assert_eq!(e.to_string(), "no job did any I/O");
    let e = read_bytes(&JOB.as_bytes()[..JOB.len() / 2], &mut w).unwrap_err();
    assert!(
        matches!(&e, FileError::Segment(s) if s.line == 1 && matches!(s.error, ReadError::Malformed { .. })),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .starts_with("JSON document at line 1: malformed json output: truncated")
    );
    assert!(w.is_empty(), "{w:?}");
}

#[test]
fn a_snapshot_with_no_io_after_one_with_rows_replaces_it() {
    // The last snapshot of a run counts, even when it reports nothing.
    let none = JOB
        .replace("\"io_bytes\" : ", "\"io_bytes\" : 0, \"was\" : ")
        .replace("\"io_kbytes\" : ", "\"io_kbytes\" : 0, \"was_k\" : ")
        .replace("\"total_ios\" : ", "\"total_ios\" : 0, \"was_t\" : ");
    let mut w = Vec::new();
    assert!(!read_bytes(JOB.as_bytes(), &mut w).unwrap().is_empty());
    let e = read_bytes(format!("{JOB}\n{none}").as_bytes(), &mut w).unwrap_err();
    assert!(matches!(e, FileError::NoRows), "{e:?}");
    let rows = read_bytes(format!("{none}\n{JOB}").as_bytes(), &mut w).unwrap();
    assert_eq!(rows, read_bytes(JOB.as_bytes(), &mut w).unwrap());
}

#[test]
fn documents_cut_by_the_parser_match_those_cut_by_counting_braces() {
    // Every JSON fixture, twice in a row and inside text, as one file.
    let dir = fixtures().join("fio");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir.join("linux-libaio")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let doc = std::fs::read_to_string(&path).unwrap();
        let text = format!(
            "fio: note\n{doc}\n{doc}\nmore text {{\n{}",
            &doc[..doc.len() / 2]
        );
        let mut lens = 0;
        let by_parser = decode::segments_with(&text, |rest| {
            let len = fio_json::JsonReader.read_leading(rest).map(|(_, len)| len);
            lens += len.is_some() as usize;
            len
        });
        assert_eq!(by_parser, decode::segments(&text), "{}", path.display());
        // Every document that reads at all was cut by the parser.
        let readable = by_parser
            .iter()
            .filter(|s| s.kind == SegmentKind::Json && fio_json::parse(s.text).is_ok())
            .count();
        assert!(readable >= 2, "{}", path.display());
        assert_eq!(lens, readable, "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 5, "{checked}");
}

#[test]
fn skipped_bins_leave_every_other_field_and_the_format_as_read() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/fio/linux-libaio/randread-4k.jsonplus.json");
    let read = |skip_bins| {
        let opts = IngestOptions {
            skip_bins,
            ..IngestOptions::default()
        };
        ingest(std::slice::from_ref(&file), &opts).unwrap().rows
    };
    let (full, lean) = (read(false), read(true));
    assert!(full[0].clat_bins.as_ref().is_some_and(|b| b.len() > 100));
    assert_eq!(lean[0].clat_bins, None);
    assert_eq!(lean[0].format, "json+");
    let mut full = full;
    full[0].clat_bins = None;
    assert_eq!(full, lean);
    // The flag is the ingest's own: a later read on the same thread sees bins.
    assert!(read(false)[0].clat_bins.is_some());
}

/// The real failed runs in fixtures/wild/failed (fio 3.33, stdout and
/// stderr together): each skipped with what it is, none "not fio output".
#[test]
fn failed_runs_are_named_for_what_they_are() {
    let dir = fixtures().join("wild/failed");
    let got = ingest_one(&dir);
    assert!(got.rows.is_empty());
    let reasons: Vec<(String, String)> = got
        .skipped
        .iter()
        .map(|s| {
            let name = Path::new(&s.source).file_name().unwrap();
            (name.to_string_lossy().into_owned(), s.reason.clone())
        })
        .collect();
    let want = [
        (
            "error-only.txt",
            "fio error output only: fio: failed parsing rw=bogus",
        ),
        (
            "every-job-failed.json",
            "fio output: every job failed (err=25: Inappropriate ioctl for device)",
        ),
        (
            "every-job-failed.txt",
            "fio output: every job failed (err=25: Inappropriate ioctl for device)",
        ),
        (
            "no-job-report.txt",
            "fio output with no job report (fio: pid=0, err=2/file:filesetup.c:174, func=open, error=No such file or directory)",
        ),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(f, r)| (f.to_string(), r.to_string()))
        .collect();
    assert_eq!(reasons, want);
    // A failed job beside one that ran: its rows are kept with `error`
    // set (the contract), and named.
    let mixed = ingest_one(&fixtures().join("fio/linux-psync/error-trim.json"));
    let jobs: Vec<_> = mixed
        .rows
        .iter()
        .map(|r| (r.job.as_str(), r.error))
        .collect();
    assert_eq!(jobs, [("randread-ok", 0), ("randtrim-fails", 25)]);
    assert!(mixed.warnings[0].message.contains("reported error 25"));
}

/// Hostile inputs beside good ones: a large binary and a large text that
/// is not fio's are refused from their first block; `..x` is a folder
/// like any other, `.hidden` is hidden.
#[test]
fn hostile_files_are_refused_early_and_dotdot_folders_read() {
    let tmp = tempfile::tempdir().unwrap();
    let good = fixtures().join("fio/linux-libaio/randread-4k.json");
    for dir in ["cfg", "..x", ".hidden"] {
        std::fs::create_dir(tmp.path().join(dir)).unwrap();
        std::fs::copy(&good, tmp.path().join(dir).join("randread-4k.json")).unwrap();
    }
    // xorshift bytes, NULs included: 1 MiB.
    let mut x: u64 = 88172645463325252;
    let random: Vec<u8> = (0..1 << 20)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 56) as u8
        })
        .collect();
    std::fs::write(tmp.path().join("cfg/random.json"), &random).unwrap();
    let lorem = "lorem ipsum dolor sit amet\n".repeat(100_000);
    std::fs::write(tmp.path().join("cfg/notes.log.txt"), lorem).unwrap();
    let got = ingest_one(tmp.path());
    let labels: Vec<&str> = got.rows.iter().map(|r| r.config.as_str()).collect();
    assert_eq!(labels, ["..x", "cfg"]);
    let reasons: Vec<(&str, &str)> = got
        .skipped
        .iter()
        .map(|s| {
            (
                s.source.rsplit(['/', '\\']).next().unwrap(),
                s.reason.as_str(),
            )
        })
        .collect();
    assert_eq!(reasons.len(), 2, "{reasons:?}");
    assert_eq!(
        reasons[0],
        (
            "notes.log.txt",
            "not fio or DiskSpd output (nothing either writes in its first 64 KiB; not read further)"
        )
    );
    assert_eq!(reasons[1].0, "random.json");
    assert!(
        reasons[1].1.starts_with("binary data (NUL byte at offset "),
        "{reasons:?}"
    );
}

/// Files are read by what they hold: fio JSON named `.txt`, `.log`, with
/// no extension, or even with a fio log's name, is a result; a real fio
/// log beside them is still a log.
#[test]
fn fio_json_is_read_whatever_its_name() {
    let tmp = tempfile::tempdir().unwrap();
    let json = fixtures().join("fio/linux-libaio/randread-4k.json");
    let text = std::fs::read_to_string(&json).unwrap();
    for (k, name) in [
        "proc_1_sche_bfq.txt",
        "result.log",
        "result",
        "job_bw.1.log",
    ]
    .into_iter()
    .enumerate()
    {
        // Not byte-for-byte copies, which would be one result.
        let text = format!("{text}{}", "\n".repeat(k));
        std::fs::write(tmp.path().join(name), text).unwrap();
    }
    std::fs::write(tmp.path().join("real_bw.1.log"), "1000, 4096, 0, 4096\n").unwrap();
    let got = ingest_one(tmp.path());
    assert!(got.skipped.is_empty(), "{:?}", got.skipped);
    let mut read: Vec<&str> = got
        .rows
        .iter()
        .map(|r| r.source.rsplit(['/', '\\']).next().unwrap())
        .collect();
    read.sort_unstable();
    assert_eq!(
        read,
        [
            "job_bw.1.log",
            "proc_1_sche_bfq.txt",
            "result",
            "result.log"
        ]
    );
    assert_eq!(got.logs.len(), 1);
    assert!(got.logs[0].path.ends_with("real_bw.1.log"));
}

#[test]
fn byte_for_byte_copies_in_one_folder_are_one_result_with_a_note() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("results");
    write(&root, "a/x.json", JOB);
    write(&root, "a/y.json", JOB);
    write(&root, "a/z.json", &format!("{JOB}\n"));
    // Another folder is another config: its copy stays.
    write(&root, "b/x.json", JOB);
    let got = ingest_one(&root);
    assert!(got.skipped.is_empty(), "{:?}", got.skipped);
    assert_eq!(got.files_read, 3);
    let sources: std::collections::BTreeSet<&str> = got
        .rows
        .iter()
        .map(|r| r.source.rsplit_once("results").unwrap().1)
        .collect();
    let sep = std::path::MAIN_SEPARATOR;
    let want: std::collections::BTreeSet<String> = ["a/x.json", "a/z.json", "b/x.json"]
        .iter()
        .map(|p| format!("{sep}{}", p.replace('/', &sep.to_string())))
        .collect();
    assert_eq!(
        sources,
        want.iter().map(String::as_str).collect(),
        "{:?}",
        got.warnings
    );
    let notes: Vec<&Warning> = got
        .warnings
        .iter()
        .filter(|w| w.message.contains("byte-for-byte"))
        .collect();
    assert_eq!(notes.len(), 1, "{:?}", got.warnings);
    assert!(notes[0].source.ends_with("x.json"), "{:?}", notes[0]);
    assert!(
        notes[0]
            .message
            .starts_with("a byte-for-byte copy in its folder, counted once")
            && notes[0].message.ends_with("y.json"),
        "{:?}",
        notes[0]
    );
}

#[test]
fn rows_keep_file_order_across_read_batches_and_copies_leave_theirs() {
    // More files than one read batch (1,024): each file's rows follow the
    // file before's, and a copy's rows (here in the second batch, its
    // original in the first) are left out wherever they sit.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("results");
    let n = 1030;
    for i in 0..n {
        // Trailing blanks make each file's bytes its own.
        let text = format!("{JOB}{}", " ".repeat(if i == 1025 { 3 } else { i }));
        write(&root, &format!("f{i:04}.json"), &text);
    }
    let got = ingest_one(&root);
    assert!(got.skipped.is_empty(), "{:?}", got.skipped);
    assert_eq!(got.files_read, n - 1);
    let per_file = ingest_one(&root.join("f0000.json")).rows.len();
    assert_eq!(got.rows.len(), (n - 1) * per_file);
    let mut order: Vec<&str> = got.rows.iter().map(|r| r.source.as_str()).collect();
    order.dedup();
    let want: Vec<String> = (0..n)
        .filter(|&i| i != 1025)
        .map(|i| format!("f{i:04}.json"))
        .collect();
    let names: Vec<&str> = order
        .iter()
        .map(|s| s.rsplit(['/', '\\']).next().unwrap())
        .collect();
    assert_eq!(names, want);
}

#[test]
fn each_file_read_is_reported_with_its_size() {
    // What a bar learns: each result's size as it starts to be parsed.
    #[derive(Default)]
    struct SizesSeen(std::sync::Mutex<Vec<(String, usize)>>);
    impl Progress for SizesSeen {
        fn reading(&self, source: &str, bytes: usize) {
            self.0.lock().unwrap().push((source.to_string(), bytes));
        }
    }
    let dir = fixtures().join("fio/linux-libaio");
    let sizes = SizesSeen::default();
    let got = ingest_with_progress(
        std::slice::from_ref(&dir),
        &IngestOptions::default(),
        &sizes,
    )
    .unwrap();
    let mut seen = sizes.0.into_inner().unwrap();
    seen.sort();
    let mut on_disk: Vec<(String, usize)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !is_ignored(&p.file_name().unwrap().to_string_lossy()))
        .map(|p| {
            let len = std::fs::metadata(&p).unwrap().len() as usize;
            (crate::path_text::shown(&p), len)
        })
        .collect();
    on_disk.sort();
    assert!(got.files_read > 0);
    assert_eq!(seen, on_disk);
}

/// Files that ran the same job file hold one options text between them,
/// whichever worker read them; a file with other options has its own.
#[test]
fn equal_options_are_one_text_across_files() {
    let tmp = tempfile::tempdir().unwrap();
    let plain =
        std::fs::read_to_string(fixtures().join("fio/linux-libaio/randread-4k.json")).unwrap();
    let mut doc: Value = serde_json::from_str(&plain).unwrap();
    for i in 0..40i64 {
        // Each file its own run (timestamps apart), as a series of runs is.
        doc["timestamp"] = Value::from(1_700_000_000 + i * 1000);
        doc["timestamp_ms"] = Value::from((1_700_000_000 + i * 1000) * 1000);
        write(
            tmp.path(),
            &format!("runs/run-{i:02}.json"),
            &doc.to_string(),
        );
    }
    doc["jobs"][0]["job options"]["iodepth"] = Value::from("64");
    write(tmp.path(), "runs/deeper.json", &doc.to_string());
    let got = ingest(&[tmp.path().to_path_buf()], &IngestOptions::default()).unwrap();
    assert_eq!(got.files_read, 41, "{:?}", got.skipped);
    let text_of = |name: &str| {
        let r = got.rows.iter().find(|r| r.source.ends_with(name)).unwrap();
        r.options.clone().expect("fio 3.x prints its options")
    };
    let first = text_of("run-00.json");
    for i in 1..40 {
        let other = text_of(&format!("run-{i:02}.json"));
        assert!(std::sync::Arc::ptr_eq(&first, &other), "run-{i:02}");
    }
    let deeper = text_of("deeper.json");
    assert!(!std::sync::Arc::ptr_eq(&first, &deeper));
    assert!(deeper.contains(r#""iodepth":"64""#), "{deeper}");
    assert!(!first.contains(r#""iodepth":"64""#), "{first}");
}

/// Each file reaches the reader whole and alone, whatever the sizes
/// before it: below, at and past the first block, past the buffer kept
/// from the file before (read on by `read_to_end`), past the size a buffer
/// is kept at, and small again after each (no byte of a longer file
/// before it shows).
#[test]
fn contents_are_each_file_whole_in_any_order_of_sizes() {
    let head = sniff::HEAD;
    let sizes = [
        0,
        1,
        100,
        head - 1,
        head,
        head + 1,
        7,
        3 * head + 5,
        2 * head,
        40,
        (16 << 20) + 3,
        head + 2,
        9,
    ];
    let tmp = tempfile::tempdir().unwrap();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for (i, &size) in sizes.iter().enumerate() {
        // fio-shaped where a first block is judged; letters after.
        let mut bytes = br#"{"fio version" : "fio-3.36", "pad" : ""#.to_vec();
        bytes.truncate(size);
        while bytes.len() < size {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            bytes.push(b'a' + (seed % 26) as u8);
        }
        let path = tmp.path().join(format!("f{i}.json"));
        std::fs::write(&path, &bytes).unwrap();
        let got = with_contents(&path, None, |read| Ok(read.to_vec())).unwrap();
        assert_eq!(got.len(), size, "file {i} of {size} bytes");
        assert!(got == bytes, "file {i} of {size} bytes read wrong");
    }
}
