//! One test per log variant: values and units as fio defines them. Lines
//! are quoted from real fio 3.33 logs (fixtures/series/) unless a test says
//! it is a newer layout.

use super::*;
use crate::model::Direction;

fn read(text: &str, ctx: LogContext) -> (Vec<SeriesRow>, LogStats) {
    read_bytes(text.as_bytes(), &ctx).unwrap()
}

fn ctx(kind: Kind) -> LogContext {
    LogContext::new(7, kind)
}

#[test]
fn averaged_bw_is_kib_per_s_and_per_io_bw_is_bytes_per_ms() {
    // log_avg_msec=200: bs and offset columns are 0, values KiB/s.
    let (rows, stats) = read("200, 56480, 0, 0, 0\n200, 25440, 1, 0, 0\n", ctx(Kind::Bw));
    assert!(stats.averaged);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].value, 56480.0 * 1024.0);
    assert_eq!(
        (rows[1].direction, rows[1].t_ms, rows[1].log),
        (Direction::Write, 200, 7)
    );
    assert_eq!(rows[0].priority, Some(0));
    // Per I/O: 4096 bytes in 107211 ns logged as 4096e6/107211 = 38205.
    let (rows, stats) = read("32, 38205, 0, 4096, 1011712, 0\n", ctx(Kind::Bw));
    assert!(!stats.averaged);
    assert_eq!(rows[0].value, 38205.0 * 1000.0);
    assert!((rows[0].value - 4096.0 / 107211e-9).abs() / rows[0].value < 1e-3);
    assert_eq!(
        (rows[0].bs_bytes, rows[0].offset_bytes),
        (4096, Some(1011712))
    );
}

#[test]
fn latencies_are_ns_in_fio3_and_us_in_fio2() {
    let line = "216, 36777, 0, 0, 0\n";
    let (rows, _) = read(line, ctx(Kind::Clat));
    assert_eq!(rows[0].value, 36777.0);
    let fio2 = LogContext {
        lat_unit_ns: 1000.0,
        hints: Hints::from_version("fio-2.21"),
        ..ctx(Kind::Lat)
    };
    let (rows, stats) = read("216, 36, 0, 0\n", fio2);
    assert_eq!(rows[0].value, 36000.0);
    assert_eq!(stats.layout, Some(LogLayout::default()));
}

#[test]
fn per_io_iops_rows_count_one_io_each() {
    let (rows, stats) = read(
        "32, 1, 0, 4096, 1011712, 0\n33, 1, 0, 4096, 12419072, 0\n",
        ctx(Kind::Iops),
    );
    assert!(!stats.averaged);
    assert!(rows.iter().all(|r| r.value == 1.0 && r.bs_bytes == 4096));
}

#[test]
fn log_prio_is_read_as_hex() {
    let (rows, _) = read("38, 41959, 1, 4096, 0x6003\n", ctx(Kind::Clat));
    assert_eq!(rows[0].priority, Some(0x6003));
    assert_eq!(rows[0].offset_bytes, None);
}

#[test]
fn window_max_column_of_fio_3_37() {
    // Newer layout (log_window_value=both), hand-made: time, mean, max, ddir, bs, prio.
    let (rows, stats) = read(
        "200, 113800, 125180, 0, 0, 0\n200, 50080, 55088, 1, 0, 0\n",
        ctx(Kind::Lat),
    );
    assert_eq!(stats.layout.map(|l| l.max), Some(true));
    assert_eq!(
        (rows[0].value, rows[0].value_max),
        (113800.0, Some(125180.0))
    );
    assert_eq!(rows[1].direction, Direction::Write);
    // fio 3.33's log_max_value=1 logs the max alone, known from the options only.
    let max_only = LogContext {
        max_only: true,
        ..ctx(Kind::Lat)
    };
    let (rows, _) = read("250, 18326748, 1, 0, 0\n", max_only);
    assert_eq!(rows[0].value_max, Some(18326748.0));
}

#[test]
fn issue_time_column_of_fio_3_38() {
    // Newer layout (log_issue_time=1), hand-made.
    let (rows, _) = read("13, 25768, 1, 4096, 0, 12974232\n", ctx(Kind::Clat));
    assert_eq!(rows[0].issue_time_ns, Some(12974232));
    assert_eq!(rows[0].value, 25768.0);
}

#[test]
fn unix_epoch_times_start_at_the_first_row() {
    let text = "1796277263593, 2457344, 1, 0, 0\n1796277263864, 3330833, 1, 0, 0\n";
    let (rows, _) = read(text, ctx(Kind::Bw));
    assert_eq!((rows[0].t_ms, rows[1].t_ms), (0, 271));
    assert_eq!(rows[1].unix_ms, Some(1796277263864));
}

#[test]
fn malformed_lines_are_named_and_the_rest_is_kept() {
    let text = "200, 28450, 0, 0, 0\n412, twelve, 0, 0, 0\n\n400, 12115, 1, 0\n600, 1, 5, 0, 0\n600, 11985, 1, 0, 0\n";
    let (rows, stats) = read(text, ctx(Kind::Iops));
    assert_eq!(rows.len(), 2);
    assert_eq!(stats.lines, 5);
    assert_eq!(stats.warnings.len(), 3, "{:?}", stats.warnings);
    assert!(
        stats.warnings[0].starts_with("line 2: value `twelve`"),
        "{}",
        stats.warnings[0]
    );
    assert!(
        stats.warnings[1].starts_with("line 4: 4 fields, expected 5"),
        "{}",
        stats.warnings[1]
    );
    assert!(
        stats.warnings[2].starts_with("line 5: direction 5"),
        "{}",
        stats.warnings[2]
    );
    let many: String = (0..9).map(|i| format!("{i}, x, 0, 0, 0\n")).collect();
    let (_, stats) = read(&format!("1, 2, 0, 0, 0\n{many}"), ctx(Kind::Iops));
    assert_eq!(stats.warnings.len(), MAX_LINE_WARNINGS + 1);
    assert_eq!(
        stats.warnings.last().unwrap(),
        "4 more malformed lines skipped"
    );
}

#[test]
fn repeated_final_timestamp_keeps_both_rows() {
    // fio's final flush may log a second window ending at the same ms.
    let text = "1803, 28375, 0, 0, 0\n1803, 12585, 1, 0, 0\n1803, 4195, 1, 0, 0\n";
    let (rows, _) = read(text, ctx(Kind::Iops));
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[2].value, 4195.0);
}

#[test]
fn a_line_no_layout_fits_fails_the_file() {
    let err = read_bytes(b"1, 2, 3\n", &ctx(Kind::Bw)).unwrap_err();
    assert_eq!(err.to_string(), "line 1: 3 fields fit no fio log layout");
    let (rows, stats) = read("", ctx(Kind::Slat));
    assert_eq!((rows.len(), stats.lines), (0, 0));
}

#[test]
fn histogram_lines_become_percentiles() {
    let mut counts = vec![0u64; 1856];
    counts[100] = 60;
    counts[200] = 39;
    counts[900] = 1;
    let bins: Vec<String> = counts.iter().map(u64::to_string).collect();
    let zeros = vec!["0"; 1856].join(", ");
    let text = format!(
        "511, 0, 4096, {}\n1011, 1, 4096, {zeros}\n",
        bins.join(", ")
    );
    let (rows, stats) = read(&text, ctx(Kind::Hist));
    assert_eq!(stats.lines, 2);
    // The empty interval has no percentiles.
    assert_eq!(rows.len(), hist::PERCENTILES.len());
    let shape = hist::BinLayout::of(1856).unwrap();
    let got: Vec<_> = rows
        .iter()
        .map(|r| (r.percentile.unwrap(), r.value))
        .collect();
    assert_eq!(
        got,
        vec![
            (50.0, 100.0),
            (99.0, shape.value_ns(200)),
            (99.9, shape.value_ns(900))
        ]
    );
    assert!(
        rows.iter()
            .all(|r| r.samples == Some(100) && r.t_ms == 511 && r.bs_bytes == 4096)
    );
    let (_, stats) = read("1, 0, 4096, 1, 2, 3\n", ctx(Kind::Hist));
    assert_eq!(
        stats.warnings,
        vec!["line 1: 3 histogram bins: no fio version writes that many; line skipped"]
    );
}

#[test]
fn histogram_fixture_sums_to_the_result_and_matches_its_percentiles() {
    // The same run's json+ result: total I/Os and fio's own percentiles.
    let log = include_str!("../../../../fixtures/series/hist/randread-hist_clat_hist.1.log");
    let json = include_str!("../../../../fixtures/series/hist/result.json");
    let doc: serde_json::Value = serde_json::from_str(json).unwrap();
    let clat = &doc["jobs"][0]["read"]["clat_ns"];
    let mut sum = vec![0u64; 1856];
    for line in log.lines() {
        for (i, c) in line.split(", ").skip(3).enumerate() {
            sum[i] += c.trim().parse::<u64>().unwrap();
        }
    }
    let total: u64 = sum.iter().sum();
    let n = clat["N"].as_u64().unwrap();
    let shape = hist::BinLayout::of(1856).unwrap();
    if total == n {
        for (p, key) in [
            (50.0, "50.000000"),
            (99.0, "99.000000"),
            (99.9, "99.900000"),
        ] {
            let expected = clat["percentile"][key].as_f64().unwrap();
            assert_eq!(shape.percentile(&sum, total, p), Some(expected), "p{p}");
        }
    } else {
        // fio 3.33 drops the last interval when the job ends inside it;
        // at most one 500 ms interval (of a 2 s run) is missing.
        let runtime = doc["jobs"][0]["job_runtime"].as_f64().unwrap();
        assert!(
            total < n && (n - total) as f64 <= n as f64 * 600.0 / runtime,
            "{total} of {n}"
        );
    }
    // json+ lists the whole run's bins by fio's value: each logged bin's
    // value is one of them, with at least the logged count.
    let bins = clat["bins"].as_object().unwrap();
    for (i, c) in sum.iter().enumerate().filter(|(_, c)| **c > 0) {
        let key = format!("{}", shape.value_ns(i));
        let full = bins.get(&key).and_then(|v| v.as_u64());
        assert!(
            full.is_some_and(|f| f >= *c),
            "bin {i} = {key} ns: log {c}, json+ {full:?}"
        );
    }
    let (rows, stats) = read(log, ctx(Kind::Hist));
    assert!(stats.warnings.is_empty(), "{:?}", stats.warnings);
    let per_line: u64 = rows
        .iter()
        .filter(|r| r.percentile == Some(50.0))
        .map(|r| r.samples.unwrap())
        .sum();
    assert_eq!(per_line, total);
}

#[test]
fn compressed_logs_of_a_layout_not_read_say_how_to_inflate_them() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/series/compressed/fz_clat.1.log.fz");
    // fio 3.38 widened the samples: the bytes would be misread.
    let newer = LogContext {
        fio_version: Some((3, 38)),
        ..ctx(Kind::Clat)
    };
    let err = read_file(&path, &newer, &mut |_, _| Ok(())).unwrap_err();
    assert!(err.to_string().contains("fio --inflate-log="), "{err}");
    assert!(err.to_string().contains("fio 3.38"), "{err}");
    // A text log named .fz is not zlib.
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("t_clat.1.log.fz");
    std::fs::write(&text, "1, 2, 0, 4096, 0\n").unwrap();
    let err = read_file(&text, &ctx(Kind::Clat), &mut |_, _| Ok(())).unwrap_err();
    assert!(
        err.to_string().starts_with("not fio's compressed log"),
        "{err}"
    );
}

#[test]
fn files_stream_in_blocks_and_agree_with_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big_clat.1.log");
    // Past one block, so a line straddles two reads.
    let line = "1234, 56789, 0, 4096, 0\n";
    let n = BLOCK / line.len() + 1000;
    std::fs::write(&path, line.repeat(n)).unwrap();
    let mut got = 0usize;
    let mut calls = 0;
    let mut bytes = 0u64;
    let stats = read_file(&path, &ctx(Kind::Clat), &mut |rows, b| {
        got += rows.len();
        calls += 1;
        bytes += b;
        assert!(rows.value.iter().all(|v| *v == 56789.0));
        Ok(())
    })
    .unwrap();
    assert_eq!((got, stats.rows, stats.lines), (n, n as u64, n as u64));
    assert!(calls >= 2);
    // The blocks' bytes add up to the file: what a progress bar counts.
    assert_eq!(bytes, std::fs::metadata(&path).unwrap().len());
    assert!(stats.warnings.is_empty());
}

/// Every compressed log fixture (real, `log_store_compressed=1`) inflates
/// to the text `fio --inflate-log` printed for it, and reads to the rows
/// that text reads to.
#[test]
fn compressed_logs_read_as_fio_inflates_them() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut compared = 0;
    for folder in ["compressed", "fz"] {
        for entry in std::fs::read_dir(root.join("series").join(folder)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let Some(log) = LogName::parse(&name).filter(|n| n.compressed) else {
                continue;
            };
            let want = std::fs::read(
                root.join("fz-inflated")
                    .join(folder)
                    .join(format!("{name}.txt")),
            )
            .unwrap();
            let mut text = Vec::new();
            let file = std::fs::File::open(&path).unwrap();
            let done = compressed::inflate(file, Some((3, 33)), &mut |t, _| {
                text.extend_from_slice(t);
                Ok(())
            })
            .unwrap()
            .unwrap();
            assert_eq!(
                String::from_utf8_lossy(&text),
                String::from_utf8_lossy(&want),
                "{name}"
            );
            assert_eq!(done.warning, None, "{name}");
            let ctx = LogContext {
                fio_version: Some((3, 33)),
                averaged: Some(false),
                ..LogContext::new(0, log.kind)
            };
            let mut rows = Vec::new();
            let mut bytes = 0;
            let stats = read_file(&path, &ctx, &mut |r, b| {
                rows.extend(r.rows());
                bytes += b;
                Ok(())
            })
            .unwrap();
            let (want_rows, want_stats) = read_bytes(&want, &ctx).unwrap();
            assert_eq!(rows, want_rows, "{name}");
            assert_eq!(stats, want_stats, "{name}");
            assert_eq!(bytes, std::fs::metadata(&path).unwrap().len(), "{name}");
            compared += usize::from(!rows.is_empty());
        }
    }
    // fz_clat, mixed bw/iops/lat/clat (offsets, both directions), prio_clat (log_prio).
    assert_eq!(compared, 6);
}
