//! Every DiskSpd fixture against what DiskSpd itself printed in it, read
//! here the simple way (split on `|`, columns found by their header text)
//! rather than through the readers; and the mapping's arithmetic.

use std::path::{Path, PathBuf};

use super::*;
use crate::ingest::{IngestOptions, ingest};
use crate::model::Row;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/diskspd")
}

fn rows_of(path: &Path) -> Vec<Row> {
    let got = ingest(&[path.to_path_buf()], &IngestOptions::default()).unwrap();
    assert!(got.skipped.is_empty(), "{:?}", got.skipped);
    got.rows
}

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(fixtures().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no .{ext} in {dir}");
    out
}

/// One direction of one target as DiskSpd printed it.
#[derive(Debug, Default)]
struct Printed {
    iops: f64,
    /// How many printed IOPS figures were summed (each known to 0.01).
    summed: usize,
    lat_mean_ms: Option<f64>,
}

/// The `Read IO` / `Write IO` table of one run: per target, the sum of the
/// thread rows' `I/O per s` (the `total:` line when there is one target),
/// and the total line's `AvgLat`.
fn printed(run: &str, heading: &str) -> Vec<(String, Printed)> {
    let lines: Vec<&str> = run.lines().collect();
    let at = lines.iter().position(|l| l.trim() == heading).unwrap();
    let header: Vec<String> = lines[at + 1]
        .split('|')
        .map(|c| c.trim().to_string())
        .collect();
    let col = |name: &str| header.iter().position(|h| h.starts_with(name));
    let (iops, lat) = (col("I/O per s").unwrap(), col("AvgLat"));
    let mut out: Vec<(String, Printed)> = Vec::new();
    let mut total = None;
    for line in &lines[at + 3..] {
        if line.starts_with("---") {
            continue;
        }
        if let Some(rest) = line.strip_prefix("total:") {
            total = Some(
                rest.split('|')
                    .map(|c| c.trim().to_string())
                    .collect::<Vec<_>>(),
            );
            break;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let file = cells.last().unwrap();
        let file = file.rsplit_once(" (").map_or(*file, |(f, _)| f).to_string();
        let v: f64 = cells[iops].parse().unwrap();
        if v == 0.0 {
            continue;
        }
        match out.iter_mut().find(|(f, _)| *f == file) {
            Some((_, p)) => (p.iops, p.summed) = (p.iops + v, p.summed + 1),
            None => out.push((
                file,
                Printed {
                    iops: v,
                    summed: 1,
                    lat_mean_ms: None,
                },
            )),
        }
    }
    if let (Some(total), [(_, one)]) = (total, out.as_mut_slice()) {
        // The total line's cells sit one column left of the header's.
        one.iops = total[iops - 1].parse().unwrap();
        one.summed = 1;
        one.lat_mean_ms = lat.and_then(|c| total[c - 1].parse().ok());
    }
    out
}

/// The runs of a capture, each from its `Command Line:`.
fn runs(text: &str) -> Vec<&str> {
    let starts: Vec<usize> = text
        .match_indices("Command Line:")
        .map(|(i, _)| i)
        .collect();
    if starts.is_empty() {
        return vec![text];
    }
    (0..starts.len())
        .map(|i| &text[starts[i]..*starts.get(i + 1).unwrap_or(&text.len())])
        .collect()
}

/// `-b4K` -> 4096 and friends, from the run's command line.
fn flag(run: &str, name: &str) -> Option<String> {
    let cmd = run.lines().next()?.strip_prefix("Command Line:")?;
    cmd.split_whitespace()
        .find_map(|w| w.strip_prefix(name))
        .map(str::to_string)
}

fn cpu_avg(run: &str) -> f64 {
    let line = run
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("avg"))
        .unwrap();
    let first = line.split('|').find_map(|c| {
        c.trim()
            .trim_start_matches("avg.")
            .trim_start_matches("avg:")
            .trim()
            .strip_suffix('%')
    });
    first.unwrap().trim().parse().unwrap()
}

fn p99_ms(run: &str, dir: usize) -> Option<f64> {
    let line = run.lines().find(|l| l.trim_start().starts_with("99th"))?;
    line.split('|').nth(1 + dir)?.trim().parse().ok()
}

/// Text fixtures whose figures are DiskSpd's own (not the cp1251 and
/// UTF-16 copies, checked against their originals below).
fn text_fixtures() -> Vec<PathBuf> {
    let mut all = files("windows", "txt");
    all.extend(files("linux-port", "txt"));
    all.extend(files("compare/diskspd-linux", "txt"));
    all
}

#[test]
fn every_text_fixture_gives_diskspds_own_figures() {
    for path in text_fixtures() {
        let text = std::fs::read_to_string(&path).unwrap();
        let text = text.trim_start_matches('\u{feff}');
        let rows = rows_of(&path);
        let mut seen = 0;
        for (r, run) in runs(text).into_iter().enumerate() {
            let single = printed(run, "Read IO")
                .len()
                .max(printed(run, "Write IO").len())
                == 1;
            for (d, (heading, dir)) in [("Read IO", "read"), ("Write IO", "write")]
                .iter()
                .enumerate()
            {
                for (file, p) in printed(run, heading) {
                    let what = format!("{} run {r} {dir} {file}", path.display());
                    let row = rows
                        .iter()
                        .filter(|x| {
                            x.direction.as_str() == *dir
                                && x.filename.as_deref() == Some(file.as_str())
                        })
                        .nth(if single { r } else { 0 })
                        .unwrap_or_else(|| panic!("{what}: no row"));
                    seen += 1;
                    assert!(
                        (row.iops - p.iops).abs() <= 0.01 * p.summed as f64 / 2.0 + 1e-9,
                        "{what}: {} vs {}",
                        row.iops,
                        p.iops
                    );
                    assert_eq!(row.tool, "diskspd", "{what}");
                    assert!(
                        row.clat_mean_ns.is_none() && row.clat_p99_ns.is_none(),
                        "{what}"
                    );
                    if let Some(ms) = p.lat_mean_ms {
                        assert_eq!(row.lat_mean_ns, Some(ms * 1e6), "{what}");
                    }
                    if single && let Some(ms) = p99_ms(run, d) {
                        assert!((row.lat_p99_ns.unwrap() - ms * 1e6).abs() < 1.0, "{what}");
                    }
                    assert_eq!(row.system_cpu_pct, Some(cpu_avg(run)), "{what}");
                    check_flags(run, row, &what);
                }
            }
        }
        assert_eq!(
            seen,
            rows.len(),
            "{}: rows beyond the printed ones",
            path.display()
        );
    }
}

/// Block size, `-o`, threads, write ratio and random or sequential as the
/// command line asked, where the capture has it.
fn check_flags(run: &str, row: &Row, what: &str) {
    if !run.starts_with("Command Line:") {
        return;
    }
    if let Some(b) = flag(run, "-b") {
        assert_eq!(Some(row.bs_bytes), parse_size(&b), "{what}: -b{b}");
    }
    if let Some(o) = flag(run, "-o") {
        assert_eq!(row.iodepth.to_string(), o, "{what}: -o");
    }
    if let Some(t) = flag(run, "-t") {
        assert_eq!(row.numjobs.to_string(), t, "{what}: -t");
    }
    if let Some(w) = flag(run, "-w") {
        let w: u32 = w.parse().unwrap();
        let mix = (w > 0 && w < 100).then(|| 100 - w);
        assert_eq!(row.rwmixread, mix, "{what}: -w{w}");
        assert_eq!(row.rw.contains("rw"), mix.is_some(), "{what}: {}", row.rw);
    }
    let random = flag(run, "-r").is_some();
    assert_eq!(row.rw.starts_with("rand"), random, "{what}: {}", row.rw);
}

/// A number in `<Name>` of an XML text, the n-th occurrence (the XML
/// reader's and the series' tests read their expectations with it too).
pub(super) fn xml_num(text: &str, name: &str, n: usize) -> Option<f64> {
    let open = format!("<{name}>");
    let at = text.match_indices(&open).nth(n)?.0 + open.len();
    text[at..].split('<').next()?.trim().parse().ok()
}

fn xml_sum(text: &str, name: &str) -> f64 {
    (0..).map_while(|n| xml_num(text, name, n)).sum()
}

#[test]
fn every_xml_fixture_gives_counts_over_the_measured_time() {
    let mut paths = files("windows", "xml");
    paths.extend(files("windows-writer-tests", "xml"));
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let rows = rows_of(&path);
        let time = xml_num(&text, "TestTimeSeconds", 0).unwrap();
        for (dir, count) in [("read", "ReadCount"), ("write", "WriteCount")] {
            let ios = xml_sum(&text, count);
            let row = rows.iter().find(|r| r.direction.as_str() == dir);
            let what = format!("{} {dir}", path.display());
            let Some(row) = row else {
                assert_eq!(ios, 0.0, "{what}");
                continue;
            };
            assert!((row.iops - ios / time).abs() < 1e-9, "{what}");
            // The parameters' block size where the bytes per I/O agree;
            // else what was measured (DiskSpd's own writer tests hold
            // made-up counts: 699,051 bytes per 64 KiB I/O).
            let bytes = xml_sum(
                &text,
                if dir == "read" {
                    "ReadBytes"
                } else {
                    "WriteBytes"
                },
            );
            let asked = xml_num(&text, "BlockSize", 0).unwrap();
            let per_io = bytes / ios;
            let want = if (per_io - asked).abs() <= 0.01 * asked {
                asked
            } else {
                per_io.round()
            };
            assert_eq!(row.bs_bytes as f64, want, "{what}");
            // The target's RequestCount comes after the timespan's.
            assert_eq!(
                f64::from(row.iodepth),
                xml_num(&text, "RequestCount", 1).unwrap(),
                "{what}"
            );
            assert_eq!(
                f64::from(row.numjobs),
                xml_num(&text, "ThreadsPerFile", 0).unwrap(),
                "{what}"
            );
            let cpu = text
                .split("<Average>")
                .nth(1)
                .and_then(|a| xml_num(a, "UsagePercent", 0));
            assert_eq!(row.system_cpu_pct, cpu, "{what}");
            let mean = if dir == "read" {
                "AverageReadMilliseconds"
            } else {
                "AverageWriteMilliseconds"
            };
            assert_eq!(
                row.lat_mean_ns,
                xml_num(&text, mean, 0).map(|ms| ms * 1e6),
                "{what}"
            );
            assert!(
                row.tool_version
                    .as_deref()
                    .is_some_and(|v| v.starts_with("2.")),
                "{what}"
            );
        }
    }
}

#[test]
fn console_captures_read_as_their_originals() {
    let same = |a: &str, b: &str| {
        let strip = |mut rows: Vec<Row>| {
            for r in &mut rows {
                (r.source, r.config) = (String::new(), String::new());
            }
            rows
        };
        let (a, b) = (rows_of(&fixtures().join(a)), rows_of(&fixtures().join(b)));
        assert!(!a.is_empty());
        assert_eq!(strip(a), strip(b));
    };
    same(
        "windows-console/ru-cp1251-console.txt",
        "windows/v2.2.0-randwrite-4k-o16-t4.txt",
    );
    same(
        "windows-console/powershell-utf16le.txt",
        "windows/v2.1-randrw60-64k-o2-t8.txt",
    );
    same(
        "windows-console/powershell-utf16le.xml",
        "windows/v2.0.21a-seqread-64k-o2-t4.xml",
    );
}

#[test]
fn no_diskspd_fixture_is_skipped() {
    fn count(dir: &Path) -> usize {
        let entries = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path());
        // Every file but a manifest is a result.
        let result = |p: &Path| usize::from(!p.ends_with("nvcmp.toml"));
        entries
            .map(|p| if p.is_dir() { count(&p) } else { result(&p) })
            .sum()
    }
    let got = ingest(&[fixtures()], &IngestOptions::default()).unwrap();
    assert!(got.skipped.is_empty(), "{:?}", got.skipped);
    assert_eq!(got.files_read, count(&fixtures()));
    let tools = |t: &str| got.rows.iter().filter(|r| r.tool == t).count();
    assert_eq!(tools("diskspd") + tools("fio"), got.rows.len());
    // fio's are the comparison runs only.
    assert!(
        got.rows
            .iter()
            .filter(|r| r.tool == "fio")
            .all(|r| r.source.contains("fio"))
    );
}

fn dir(ios: u64, lat: f64, sd: f64) -> DirCount {
    DirCount {
        bytes: ios * 4096,
        ios,
        lat_mean_ms: Some(lat),
        lat_stddev_ms: Some(sd),
        iops: Some(ios as f64 / 10.0),
        iops_stddev: Some(1.0),
    }
}

#[test]
fn threads_merge_as_one_population() {
    // 100 I/Os at mean 1 ms sd 0, 300 at mean 3 ms sd 0: mean 2.5 ms, and
    // the spread is the one between the two groups, sqrt(0.75).
    let m = merge([dir(100, 1.0, 0.0), dir(300, 3.0, 0.0)].iter());
    assert_eq!((m.ios, m.bytes), (400, 400 * 4096));
    assert_eq!(m.lat_mean_ms, Some(2.5));
    assert!((m.lat_stddev_ms.unwrap() - 0.75f64.sqrt()).abs() < 1e-12);
    assert_eq!(m.iops, Some(40.0));
    // Threads' IOPS spreads do not add up: unknown for two, kept for one.
    assert_eq!(m.iops_stddev, None);
    assert_eq!(merge([dir(5, 1.0, 0.5)].iter()).iops_stddev, Some(1.0));
}

#[test]
fn sizes_and_patterns() {
    assert_eq!(parse_size("4096"), Some(4096));
    assert_eq!(parse_size("4KiB"), Some(4096));
    assert_eq!(parse_size("1.50MiB"), Some(1_572_864));
    assert_eq!(parse_size("67108864B"), Some(67_108_864));
    assert_eq!(parse_size("8K"), Some(8192));
    assert_eq!(parse_size("fast"), None);
    assert_eq!(rw_of(true, 0), Rw::RandRead);
    assert_eq!(rw_of(true, 30), Rw::RandRw);
    assert_eq!(rw_of(false, 100), Rw::Write);
    assert_eq!(rw_of(false, 40).as_str(), "rw");
}

/// What DiskSpd measured wins: a `<BlockSize>` that is missing, empty or
/// negative is never a block size of 0 or a default; bytes per I/O stand
/// in, and a warning says so.
#[test]
fn a_missing_or_broken_block_size_is_the_bytes_per_io() {
    let path = fixtures().join("windows/v2.0.21a-seqread-64k-o2-t4.xml");
    let text = std::fs::read_to_string(&path).unwrap();
    for broken in ["", "-4096", "abc"] {
        let edited = text.replacen(
            "<BlockSize>65536</BlockSize>",
            &format!("<BlockSize>{broken}</BlockSize>"),
            1,
        );
        assert_ne!(
            edited, text,
            "the fixture holds <BlockSize>65536</BlockSize>"
        );
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("run.xml");
        std::fs::write(&file, &edited).unwrap();
        let got = ingest(&[file], &IngestOptions::default()).unwrap();
        assert!(!got.rows.is_empty());
        assert!(got.rows.iter().all(|r| r.bs_bytes == 65536), "{broken:?}");
        assert!(
            got.warnings.iter().any(|w| w
                .to_string()
                .contains("block size 65536 from bytes per I/O")),
            "{broken:?}: {:?}",
            got.warnings
        );
    }
}
