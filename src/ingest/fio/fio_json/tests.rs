//! Each reader value checked against the file's own numbers, read
//! independently through `serde_json::Value`.

use serde_json::Value;

use super::*;

const RANDRW: &str = include_str!("../../testdata/randrw-psync.jsonplus.json");
const GROUP: &str = include_str!("../../testdata/group-reporting-libaio.json");
const CLIENTS: &str = include_str!("../../testdata/client-server-2.json");
const FIO2: &str = include_str!("../../testdata/fio2-handmade.json");

fn rows(text: &str) -> Parsed {
    JsonReader.read(text).expect("readable")
}

fn f(v: &Value) -> f64 {
    v.as_f64().expect("number")
}

/// Checks every row against the job entry it came from (fio 3.x keys).
fn check_v3(text: &str, parsed: &Parsed) {
    let doc: Value = serde_json::from_str(text).unwrap();
    let jobs: Vec<&Value> = doc["jobs"]
        .as_array()
        .into_iter()
        .chain(doc["client_stats"].as_array())
        .flatten()
        .collect();
    let mut expected_rows = 0;
    for job in &jobs {
        for dir in ["read", "write", "trim"] {
            let d = &job[dir];
            if f(&d["io_bytes"]) == 0.0 {
                continue;
            }
            expected_rows += 1;
            let name = job["jobname"].as_str().unwrap();
            // Servers sharing a hostname are told apart by their port.
            let host = job["hostname"].as_str().map(|h| {
                let same = jobs
                    .iter()
                    .filter(|o| o["hostname"].as_str() == Some(h) && o["port"] != job["port"])
                    .count();
                match same {
                    0 => h.to_string(),
                    _ => format!("{h}:{}", job["port"]),
                }
            });
            // rows come in the file's order of jobs and directions
            let row = &parsed.rows[expected_rows - 1];
            assert_eq!(row.job, name);
            assert_eq!(row.direction.as_str(), dir);
            assert_eq!(row.io_bytes, d["io_bytes"].as_u64().unwrap());
            if !row.aggregate {
                assert_eq!(row.host, host);
            }
            assert_eq!(row.bw_bytes_per_s, f(&d["bw_bytes"]));
            assert_eq!(row.iops, f(&d["iops"]));
            assert_eq!(row.runtime_ms, f(&d["runtime"]));
            assert_eq!(row.clat_mean_ns, Some(f(&d["clat_ns"]["mean"])));
            assert_eq!(row.lat_mean_ns, Some(f(&d["lat_ns"]["mean"])));
            assert_eq!(row.lat_max_ns, Some(f(&d["lat_ns"]["max"])));
            let p = &d["clat_ns"]["percentile"];
            if p.is_object() {
                assert_eq!(row.clat_p99_ns, Some(f(&p["99.000000"])));
                assert_eq!(row.clat_p99_9_ns, Some(f(&p["99.900000"])));
                assert_eq!(row.clat_p50_ns, Some(f(&p["50.000000"])));
            } else {
                assert_eq!(row.clat_p99_ns, None);
            }
            assert_eq!(row.usr_cpu_pct, f(&job["usr_cpu"]));
            assert_eq!(row.sys_cpu_pct, f(&job["sys_cpu"]));
            assert_eq!(row.fio_version, doc["fio version"].as_str().unwrap());
            assert_eq!(row.aggregate, name == "All clients");
        }
    }
    assert_eq!(parsed.rows.len(), expected_rows);
}

#[test]
fn jsonplus_randrw_one_row_per_direction() {
    let p = rows(RANDRW);
    check_v3(RANDRW, &p);
    assert_eq!(p.rows.len(), 2);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let r = &p.rows[0];
    assert_eq!(r.format, "json+");
    assert_eq!((r.rw.as_str(), r.engine.as_str()), ("randrw", "psync"));
    assert_eq!(r.bs_bytes, 4096);
    assert_eq!(r.os, Os::Linux); // disk_util present
    // psync: no submission latency (N = 0)
    assert_eq!(r.slat_mean_ns, None);
    let bins = r.clat_bins.as_ref().expect("json+ bins").to_vec();
    let doc: Value = serde_json::from_str(RANDRW).unwrap();
    let total: u64 = doc["jobs"][0]["read"]["clat_ns"]["bins"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(bins.iter().map(|b| b.1).sum::<u64>(), total);
    assert!(bins.windows(2).all(|w| w[0].0 < w[1].0));
}

#[test]
fn group_reporting_numjobs_and_engine() {
    let p = rows(GROUP);
    check_v3(GROUP, &p);
    let r = &p.rows[0];
    assert_eq!(r.format, "json");
    assert_eq!((r.engine.as_str(), r.os.as_str()), ("libaio", "linux"));
    assert_eq!((r.iodepth, r.numjobs), (4, 2));
    assert!(r.slat_mean_ns.is_some());
}

#[test]
fn client_server_aggregate_is_marked() {
    let p = rows(CLIENTS);
    check_v3(CLIENTS, &p);
    assert_eq!(p.rows.len(), 3);
    let agg: Vec<_> = p.rows.iter().filter(|r| r.aggregate).collect();
    assert_eq!(agg.len(), 1);
    assert_eq!(agg[0].job, "All clients");
    assert_eq!(agg[0].host, None);
    // options inherited from the clients' job file
    assert_eq!(
        (agg[0].rw.as_str(), agg[0].engine.as_str()),
        ("randread", "psync")
    );
    // the aggregate sums the clients: never count both
    let clients: u64 = p
        .rows
        .iter()
        .filter(|r| !r.aggregate)
        .map(|r| r.io_bytes)
        .sum();
    assert_eq!(clients, agg[0].io_bytes);
    // Two servers on one address: hostname and port.
    let hosts: Vec<_> = p.rows.iter().map(|r| r.host.as_deref()).collect();
    assert_eq!(
        hosts,
        [Some("127.0.0.1:8765"), Some("127.0.0.1:8766"), None]
    );
}

/// fixtures/wild/clientserver-3.43/two-servers.json: fio 3.42+ prints
/// `global options` as one object per server (hand-made from the real
/// 3.33 run: same numbers, 3.43's layout).
#[test]
fn fio_3_43_global_options_per_server() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/wild/clientserver-3.43/two-servers.json"
    ))
    .unwrap();
    let p = rows(&text);
    check_v3(&text, &p);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let got: Vec<_> = p
        .rows
        .iter()
        .map(|r| (r.host.as_deref(), r.iops, r.engine.as_str(), r.direct))
        .collect();
    assert_eq!(
        got,
        [
            (Some("127.0.0.1:8766"), 29070.464768, "libaio", Some(true)),
            (Some("127.0.0.1:8767"), 29289.355322, "libaio", Some(true)),
            (None, 58359.82009, "libaio", Some(true)),
        ]
    );
    // The options are each server's own: a server with other options is
    // read with them, not with the first server's.
    let (head, tail) = text.split_once("\"port\" : 8767,").unwrap();
    let tail = tail.replacen("\"libaio\"", "\"io_uring\"", 1);
    let other = format!("{head}\"port\" : 8767,{tail}");
    let p = rows(&other);
    let engines: Vec<_> = p.rows.iter().map(|r| r.engine.as_str()).collect();
    assert_eq!(engines, ["libaio", "io_uring", "libaio"]);
}

#[test]
fn fio2_usec_and_kib_are_converted() {
    let p = rows(FIO2);
    assert_eq!(p.rows.len(), 2, "{:?}", p.warnings);
    let doc: Value = serde_json::from_str(FIO2).unwrap();
    for r in &p.rows {
        let d = &doc["jobs"][0][r.direction.as_str()];
        assert_eq!(r.io_bytes as f64, f(&d["io_bytes"]) * 1024.0);
        assert_eq!(r.bw_bytes_per_s, f(&d["bw"]) * 1024.0);
        assert_eq!(r.iops, f(&d["iops"]));
        assert_eq!(r.clat_mean_ns, Some(f(&d["clat"]["mean"]) * 1000.0));
        assert_eq!(r.slat_mean_ns, Some(f(&d["slat"]["mean"]) * 1000.0));
        assert_eq!(r.lat_mean_ns, Some(f(&d["lat"]["mean"]) * 1000.0));
        assert_eq!(r.lat_min_ns, Some(f(&d["lat"]["min"]) * 1000.0));
        assert_eq!(
            r.clat_p99_ns,
            Some(f(&d["clat"]["percentile"]["99.000000"]) * 1000.0)
        );
        assert_eq!(
            r.clat_p99_9_ns,
            Some(f(&d["clat"]["percentile"]["99.900000"]) * 1000.0)
        );
        assert_eq!(r.bw_sample_mean, Some(f(&d["bw_mean"]) * 1024.0));
        assert_eq!(r.iops_samples, None);
        assert_eq!(r.fio_version, "fio-2.2.10");
        // options from global options (numjobs only there, fio#237)
        assert_eq!((r.numjobs, r.iodepth, r.rwmixread), (4, 32, Some(70)));
        assert_eq!(r.engine, "libaio");
    }
    let write = p
        .rows
        .iter()
        .find(|r| r.direction == Direction::Write)
        .unwrap();
    assert_eq!(write.bs_bytes, 64 * 1024);
    assert_eq!(p.rows[0].bs_bytes, 4096);
    assert_eq!(p.rows[0].clat_p99_99_ns, Some(5_000_000.0));
    assert_eq!(write.clat_p90_ns, None);
}

#[test]
fn windows_build_is_recognised() {
    let text = RANDRW
        .replace("\"psync\"", "\"windowsaio\"")
        .replace("\"/tmp/fs/f\"", r#""\\\\.\\PhysicalDrive1""#);
    let cut = text.find("\"disk_util\"").unwrap();
    let text = format!("{}\"x\" : 0\n}}\n", &text[..cut]);
    let p = rows(&text);
    assert_eq!(p.rows[0].os, Os::Windows);
    assert_eq!(p.rows[0].engine, "windowsaio");
    assert_eq!(p.rows[0].filename.as_deref(), Some(r"\\.\PhysicalDrive1"));
    // engine absent: fio's Windows default
    let no_engine = text.replace("\"ioengine\" : \"windowsaio\",", "");
    assert_eq!(rows(&no_engine).rows[0].engine, "windowsaio");
}

#[test]
fn job_error_keeps_rows_and_warns() {
    let text = GROUP.replacen("\"error\" : 0", "\"error\" : 5", 1);
    let p = rows(&text);
    assert_eq!(p.rows[0].error, 5);
    assert!(
        p.warnings.iter().any(|w| w.contains("error 5")),
        "{:?}",
        p.warnings
    );
}

#[test]
fn negative_values_drop_the_row_with_a_warning() {
    let text = RANDRW.replacen("\"runtime\" : 178", "\"runtime\" : -178", 1);
    let p = rows(&text);
    assert_eq!(p.rows.len(), 1);
    assert_eq!(p.rows[0].direction, Direction::Write);
    assert!(
        p.warnings[0].contains("runtime_ms is -178"),
        "{:?}",
        p.warnings
    );
}

#[test]
fn bad_documents_give_reasons() {
    let truncated = &RANDRW[..RANDRW.len() / 2];
    let e = JsonReader.read(truncated).unwrap_err().to_string();
    assert!(e.contains("truncated"), "{e}");
    let wrong = RANDRW.replacen("\"io_bytes\" : 8159232", "\"io_bytes\" : \"lots\"", 1);
    let e = JsonReader.read(&wrong).unwrap_err().to_string();
    assert!(e.contains("invalid type"), "{e}");
    // A syntax error that is not fio's nan keeps serde's message.
    let e = JsonReader
        .read(&RANDRW.replacen("82254.265562", "nope", 1))
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 42"), "{e}");
    let e = JsonReader.read("{\"a\": 1}").unwrap_err();
    assert!(matches!(e, ReadError::NotFio(_)));
    let e = JsonReader
        .read("{\"fio version\": \"fio-3.33\", \"jobs\": []}")
        .unwrap_err();
    assert_eq!(e, ReadError::NoRows);
}

/// The randrw fixture (fio 3.33, bs=4k, psync: 4096 bytes per I/O in
/// both directions) with some of its job options replaced.
fn randrw_with(options: &[(&str, &str)]) -> Parsed {
    let mut doc: Value = serde_json::from_str(RANDRW).unwrap();
    let o = doc["jobs"][0]["job options"].as_object_mut().unwrap();
    for (k, v) in options {
        o.insert(k.to_string(), Value::String(v.to_string()));
    }
    rows(&doc.to_string())
}

#[test]
fn options_are_read_by_fios_grammar_and_the_measurement_wins() {
    let bs = |p: &Parsed| p.rows.iter().map(|r| r.bs_bytes).collect::<Vec<_>>();
    // The options agree with the measured 4096 B per I/O: they stand.
    for same in ["4Ki", "4k", "0x1000", "4096", "4k,4k", "4k-4k"] {
        let p = randrw_with(&[("bs", same)]);
        assert_eq!(bs(&p), [4096, 4096], "{same}");
        assert!(p.warnings.is_empty(), "{same}: {:?}", p.warnings);
    }
    // Under kb_base=1024 `4KiB` is 4000 B; the file moved 4096 B per I/O:
    // the measurement wins and a note says so.
    let p = randrw_with(&[("bs", "4KiB")]);
    assert_eq!(bs(&p), [4096, 4096]);
    assert!(
        p.warnings
            .iter()
            .any(|w| w.contains("block size 4096 measured") && w.contains("not the options' 4000")),
        "{:?}",
        p.warnings
    );
    assert_eq!(p.rows[0].bs_option.as_deref(), Some("bs=4KiB"));
    // An unreadable size is never 4k by default: measured, and named.
    let p = randrw_with(&[("bs", "abc")]);
    assert_eq!(bs(&p), [4096, 4096]);
    assert!(
        p.warnings
            .iter()
            .any(|w| w.contains("bs `abc` is not a number fio reads")),
        "{:?}",
        p.warnings
    );
    // Integers through the size grammar: iodepth=0x10 is 16, numjobs=0x1 is 1.
    let p = randrw_with(&[("iodepth", "0x10"), ("numjobs", "0x1")]);
    assert_eq!((p.rows[0].iodepth, p.rows[0].numjobs), (16, 1));
    // An unreadable iodepth: the depth distribution's bucket, named.
    let p = randrw_with(&[("iodepth", "abc")]);
    assert_eq!(p.rows[0].iodepth, 1);
    assert!(
        p.warnings.iter().any(|w| w.contains(
            "iodepth `abc` is not a number fio reads; QD1 from fio's I/O depth distribution"
        )),
        "{:?}",
        p.warnings
    );
    // A varying size is its mean, with its spread kept.
    let p = randrw_with(&[("bssplit", "4k/100")]);
    assert_eq!(bs(&p), [4096, 4096]);
    let p = randrw_with(&[("bsrange", "4k-64k")]);
    assert_eq!(
        p.rows[0].bs_bytes, 4096,
        "measured 4096 per I/O, not the range's mean"
    );
    assert_eq!(p.rows[0].bs_spread.as_deref(), Some("4k-64k"));
}

#[test]
fn snapshots_have_the_same_job_set() {
    let a = parse(GROUP).unwrap();
    let b = parse(CLIENTS).unwrap();
    assert_eq!(job_set(&a), job_set(&parse(GROUP).unwrap()));
    assert_ne!(job_set(&a), job_set(&b));
}

/// GROUP with `system_cpu_pct` set to `v` in its job object, where nvcmp's
/// harness writes it.
fn with_system_cpu(v: Value) -> String {
    let mut doc: Value = serde_json::from_str(GROUP).unwrap();
    doc["jobs"][0]["system_cpu_pct"] = v;
    serde_json::to_string_pretty(&doc).unwrap()
}

#[test]
fn harness_system_cpu_is_read_from_the_job() {
    let p = rows(&with_system_cpu(serde_json::json!(37.25)));
    assert!(!p.rows.is_empty());
    assert!(p.rows.iter().all(|r| r.system_cpu_pct == Some(37.25)));
    assert!(p.warnings.iter().all(|w| !w.contains("system_cpu_pct")));
    // fio's own output has no such key; the harness writes null when unknown.
    assert!(rows(GROUP).rows.iter().all(|r| r.system_cpu_pct.is_none()));
    let p = rows(&with_system_cpu(Value::Null));
    assert!(p.rows.iter().all(|r| r.system_cpu_pct.is_none()));
    // A value that is not a usable number is named, and the rows stay.
    for bad in [serde_json::json!("high"), serde_json::json!(-3.0)] {
        let p = rows(&with_system_cpu(bad.clone()));
        assert!(!p.rows.is_empty());
        assert!(p.rows.iter().all(|r| r.system_cpu_pct.is_none()));
        assert!(
            p.warnings
                .iter()
                .any(|w| w.contains("system_cpu_pct is") && w.contains(&bad.to_string())),
            "{:?}",
            p.warnings
        );
    }
}

#[test]
fn bare_nan_in_an_optional_value_is_missing_and_named() {
    let plain = rows(RANDRW);
    for bad in ["nan", "-nan", "NaN", "inf", "-inf", "1.#QNAN0"] {
        // clat mean of the first job's read direction (line 42).
        let text = RANDRW.replacen("82254.265562", bad, 1);
        let p = rows(&text);
        assert_eq!(p.rows.len(), plain.rows.len(), "{bad}");
        assert_eq!(p.rows[0].clat_mean_ns, None, "{bad}");
        assert_eq!(p.rows[0].iops, plain.rows[0].iops);
        assert_eq!(p.rows[1], plain.rows[1]);
        let w: Vec<_> = p.warnings.iter().filter(|w| w.contains(bad)).collect();
        assert_eq!(w.len(), 1, "{bad}: {:?}", p.warnings);
        assert!(
            w[0].contains("`jobs[0].read.clat_ns.mean` at line 42")
                && w[0].contains("read as missing"),
            "{}",
            w[0]
        );
    }
}

#[test]
fn bare_nan_in_a_required_value_drops_the_row() {
    let plain = rows(RANDRW);
    // iops of the read direction: that row goes, write stays.
    let text = RANDRW.replacen("\"iops\" : 11191.011236", "\"iops\" : -nan", 1);
    let p = rows(&text);
    assert_eq!(p.rows.len(), plain.rows.len() - 1);
    assert!(p.rows.iter().all(|r| r.direction != Direction::Read));
    assert!(
        p.warnings.iter().any(
            |w| w.contains("read: jobs[0].read.iops at line 27 is `-nan`")
                && w.contains("row dropped")
        ),
        "{:?}",
        p.warnings
    );
    // usr_cpu: all rows of the job go (fio's CPU figure would be invented).
    let cpu = RANDRW.replacen("\"usr_cpu\" : ", "\"usr_cpu\" : nan, \"x\" : ", 1);
    assert_ne!(cpu, RANDRW);
    let p = JsonReader.read(&cpu).unwrap();
    assert!(p.rows.is_empty());
    assert!(
        p.warnings
            .iter()
            .any(|w| w.contains("usr_cpu") && w.contains("rows dropped"))
    );
}

#[test]
fn direct_is_read_from_job_or_global_options() {
    let direct =
        |text: &str| -> Vec<Option<bool>> { rows(text).rows.iter().map(|r| r.direct).collect() };
    // Options printed, no `direct`: the job ran with fio's default (buffered).
    assert_eq!(direct(GROUP), [Some(false)]);
    let job = GROUP.replace(
        "\"numjobs\" : \"2\",",
        "\"numjobs\" : \"2\",\n        \"direct\" : \"1\",",
    );
    assert_ne!(job, GROUP);
    assert_eq!(direct(&job), [Some(true)]);
    // `buffered` is its inverse.
    let buffered = GROUP.replace(
        "\"numjobs\" : \"2\",",
        "\"numjobs\" : \"2\",\n        \"buffered\" : \"0\",",
    );
    assert_eq!(direct(&buffered), [Some(true)]);
    // Global options count too, and the aggregate inherits them.
    let clients = CLIENTS.replace(
        "\"global options\" : {\n\n  }",
        "\"global options\" : {\n    \"direct\" : \"1\"\n  }",
    );
    assert_ne!(clients, CLIENTS);
    assert_eq!(direct(&clients), [Some(true); 3]);
    // The 2.x file states it in its global options.
    assert!(direct(FIO2).iter().all(|d| *d == Some(true)));
}

#[test]
fn direct_is_unknown_without_printed_options() {
    let doc: Value = serde_json::from_str(GROUP).unwrap();
    let mut doc = doc;
    doc["jobs"][0]["job options"] = serde_json::json!({});
    doc["global options"] = serde_json::json!({});
    let text = serde_json::to_string_pretty(&doc).unwrap();
    let p = rows(&text);
    assert!(!p.rows.is_empty());
    assert!(p.rows.iter().all(|r| r.direct.is_none()));
}

#[test]
fn a_segment_without_io_is_empty_not_an_error_and_keyed_by_its_jobs() {
    let none = "{\"fio version\": \"fio-3.33\", \"jobs\": []}";
    let p = JsonReader.read_segment(none).unwrap();
    assert!(p.rows.is_empty() && p.warnings.is_empty());
    assert_eq!(p.run, Some(RunKey(Vec::new())));
    // Read alone, the same segment is an error (see bad_documents_give_reasons).
    assert_eq!(JsonReader.read(none).unwrap_err(), ReadError::NoRows);
    let group = JsonReader.read_segment(GROUP).unwrap();
    assert_eq!(group.run, Some(job_set(&parse(GROUP).unwrap())));
    assert_ne!(group.run, JsonReader.read_segment(CLIENTS).unwrap().run);
}

#[test]
fn rows_are_dropped_for_typed_reasons() {
    let doc = parse(GROUP).unwrap();
    let d = doc.jobs.as_ref().unwrap()[0].read.as_ref().unwrap();
    let mut row = Row::empty("", Direction::Read);
    assert_eq!(fill_ddir(&mut row, d), Ok(()));
    assert_eq!(check_finite(&row), Ok(()));
    row.iops = f64::NAN;
    let e = check_finite(&row).unwrap_err();
    assert!(
        matches!(e, RowError::NotFinite { column: "iops", .. }),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "iops is NaN, not a finite non-negative number"
    );
    let no_runtime = GROUP.replace("\"runtime\"", "\"runtime_gone\"");
    let doc = parse(&no_runtime).unwrap();
    let d = doc.jobs.as_ref().unwrap()[0].read.as_ref().unwrap();
    assert_eq!(fill_ddir(&mut row, d), Err(RowError::NoRuntime));
}

#[test]
fn escaped_strings_and_nan_documents_are_read_as_copies() {
    // An escaped jobname cannot be borrowed; a `nan` forces the second
    // parse, whose strings are copies: both give the same rows.
    let escaped = GROUP.replacen("\"jobname\" : \"", "\"jobname\" : \"a\\\\b-", 1);
    let p = rows(&escaped);
    assert!(p.rows[0].job.starts_with("a\\b-"), "{}", p.rows[0].job);
    let with_nan = escaped.replacen("\"usr_cpu\"", "\"x\" : nan, \"usr_cpu\"", 1);
    let q = rows(&with_nan);
    assert_eq!(q.rows, p.rows);
    assert!(
        q.warnings.iter().any(|w| w.contains("`nan`")),
        "{:?}",
        q.warnings
    );
}

/// PerfKitBenchmarker's own fio parser fixture (fio-2.1.4, no job
/// options; fixtures/wild/fio2-perfkit): the figures its tests expect, and
/// the workload from the names' words and the mean I/O size.
#[test]
fn fio2_without_options_takes_the_workload_from_names_and_sizes() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/wild/fio2-perfkit/fio-parser-sample-result.json"
    ))
    .unwrap();
    let p = rows(&text);
    let got: Vec<_> = p
        .rows
        .iter()
        .map(|r| (r.job.as_str(), r.rw.as_str(), r.bs_bytes, r.iodepth))
        .collect();
    assert_eq!(
        got,
        [
            ("sequential_write", "write", 512 << 10, 64),
            ("sequential_read", "read", 512 << 10, 64),
            ("random_write_test", "randwrite", 4096, 1),
            ("random_read_test", "randread", 4096, 1),
            ("random_read_test_parallel", "randread", 4096, 64),
        ]
    );
    // fio 2.x units: KiB/s and usec.
    let w = &p.rows[0];
    assert_eq!((w.bw_bytes_per_s, w.iops), (68118.0 * 1024.0, 133.0));
    assert_eq!(w.io_bytes, 361984 * 1024);
    assert_eq!(w.lat_mean_ns, Some(478737.47 * 1000.0));
    assert_eq!(w.clat_p99_ns, Some(823296.0 * 1000.0));
    // One warning per job says where each value came from.
    assert_eq!(p.warnings.len(), 5, "{:?}", p.warnings);
    let w0 = &p.warnings[0];
    assert!(w0.contains("no job options (fio 2.x)"), "{w0}");
    assert!(w0.contains("rw=write from the job name"), "{w0}");
    assert!(
        w0.contains("bs=524288 from the mean I/O size (68118 KiB/s / 133 IOPS = 512.2 KiB"),
        "{w0}"
    );
    assert!(
        w0.contains("iodepth=64 from fio's I/O depth distribution"),
        "{w0}"
    );
}

/// The row's options text as a sorted map of the options prints it: the
/// job's value over the global one, the last of a key printed twice,
/// `null` and lists leaving the value before them, `name` left out,
/// numbers and booleans as text, escapes as serde_json writes them.
fn options_as_map(global: &FioOptions<'_>, job: &FioOptions<'_>) -> Option<String> {
    let mut all = std::collections::BTreeMap::new();
    for (k, v) in global.iter().chain(job.iter()) {
        let v = match v {
            Loose::Text(s) => s.trim().to_string(),
            Loose::Number(n) => n.to_string(),
            Loose::Bool(b) => b.to_string(),
            Loose::Other => continue,
        };
        if k != "name" {
            all.insert(k, v);
        }
    }
    (!all.is_empty()).then(|| serde_json::to_string(&all).unwrap())
}

fn options_text(global: &str, job: &str) -> (Option<String>, Option<String>) {
    let global: FioOptions = serde_json::from_str(global).unwrap();
    let job: FioOptions = serde_json::from_str(job).unwrap();
    (
        JobOpts::new(&global, &job).all(),
        options_as_map(&global, &job),
    )
}

#[test]
fn options_text_is_the_sorted_map_of_the_options() {
    let cases = [
        (r#"{}"#, r#"{}"#),
        (r#"{"name": "only"}"#, r#"{"name": "x"}"#),
        (
            r#"{"rw": "randread", "bs": "4k", "size": "100%", "bs": " 8k "}"#,
            r#"{"name": "j", "iodepth": "32", "rw": "read", "zz": null, "a": "1"}"#,
        ),
        (
            r#"{"bs": "4k", "filename": "C\\:\\\\nvme0 \"x\"\t", "k\u0001": "é ü"}"#,
            r#"{"bs": null, "depth": 16, "f": 1.5, "on": true, "off": false, "list": [1]}"#,
        ),
    ];
    for (global, job) in cases {
        let (text, map) = options_text(global, job);
        assert_eq!(text, map, "{global} {job}");
        if let Some(text) = text {
            let back: Value = serde_json::from_str(&text).unwrap();
            assert!(back.is_object(), "{text}");
        }
    }
    assert_eq!(options_text("{}", "{}").0, None);
    assert_eq!(
        options_text(
            r#"{"bs": "4k", "rw": "read"}"#,
            r#"{"bs": "8k", "bs": null}"#
        )
        .0,
        Some(r#"{"bs":"8k","rw":"read"}"#.to_string())
    );
}

proptest::proptest! {
    #[test]
    fn options_texts_match_the_map_for_any_options(
        pairs in proptest::collection::vec(
            (
                proptest::bool::ANY,
                proptest::sample::select(vec!["bs", "rw", "name", "a\"b", "k\u{1}", "é"]),
                proptest::sample::select(vec![
                    "\"4k\"", "\" x \"", "null", "7", "2.5", "true", "[1]", "\"a\\\\b\\n\"", "\"\\u0002é\"",
                ]),
            ),
            0..12,
        )
    ) {
        let object = |global: bool| {
            let pairs: Vec<String> = pairs
                .iter()
                .filter(|p| p.0 == global)
                .map(|(_, k, v)| format!("{}: {v}", serde_json::to_string(k).unwrap()))
                .collect();
            format!("{{{}}}", pairs.join(", "))
        };
        let (text, map) = options_text(&object(true), &object(false));
        proptest::prop_assert_eq!(text, map);
    }
}

/// What the options say is worked out once per pairs hash, so it must
/// not depend on where the hash cannot see: how the pairs split between
/// global and job options. Every split of each list gives the same facts
/// (the job's option over the global one, the last of a key given twice).
#[test]
fn option_facts_are_the_same_for_every_split_of_the_same_pairs() {
    let lists = [
        r#""rw": "randrw", "bs": "4k", "iodepth": "32", "rwmixread": "70", "ioengine": "libaio", "filename": "/dev/nvme0n1:/dev/nvme1n1""#,
        r#""bs": "4k", "bs": "8k,16k", "numjobs": "x", "group_reporting": "1", "direct": "1", "direct": "0""#,
        r#""readwrite": "read:8", "blocksize": "1m", "iodepth": "0x10", "cpus_allowed": "0-3", "sqthread_poll": "", "gtod_reduce": "1""#,
        r#""rw": null, "rwmixwrite": "250", "buffered": "1", "numa_cpu_nodes": "1", "filename": "C:\fio.dat", "kb_base": "1000""#,
        r#""ioengine": "io_uring", "bssplit": "4k/50:64k/50", "bsrange": "4k-16k", "iodepth": "1k", "numjobs": "4""#,
    ];
    for list in lists {
        let pairs: Vec<&str> = list.split(", ").collect();
        let object = |part: &[&str]| format!("{{{}}}", part.join(", "));
        let facts = |at: usize| {
            let (global, job) = (object(&pairs[..at]), object(&pairs[at..]));
            let global: FioOptions = serde_json::from_str(&global).unwrap();
            let job: FioOptions = serde_json::from_str(&job).unwrap();
            let opts = JobOpts::new(&global, &job);
            (opts.pairs_hash(), format!("{:?}", OptionFacts::of(&opts)))
        };
        let all_global = facts(pairs.len());
        assert!(all_global.1.contains("engine"), "{}", all_global.1);
        for at in 0..pairs.len() {
            assert_eq!(facts(at), all_global, "{list} split at {at}");
        }
    }
}

/// Pairs that read alike hash alike; moving a byte from a key to its
/// value, or a pair from global to job options where the text is the
/// same, is told apart or not as the text is.
#[test]
fn options_pairs_hash_as_their_text_differs() {
    let hash = |global: &str, job: &str| {
        let global: FioOptions = serde_json::from_str(global).unwrap();
        let job: FioOptions = serde_json::from_str(job).unwrap();
        JobOpts::new(&global, &job).pairs_hash()
    };
    let base = hash(r#"{"ab": "c"}"#, r#"{"rw": "read"}"#);
    assert_eq!(base, hash(r#"{"ab": "c"}"#, r#"{"rw": "read"}"#));
    assert_eq!(
        base,
        hash(r#"{"ab": "c"}"#, r#"{"name": "x", "rw": "read"}"#)
    );
    assert_ne!(base, hash(r#"{"a": "bc"}"#, r#"{"rw": "read"}"#));
    assert_ne!(base, hash(r#"{"ab": "c"}"#, r#"{"rw": "write"}"#));
    assert_ne!(base, hash(r#"{"ab": "c"}"#, r#"{"rw": null}"#));
    assert_ne!(hash(r#"{"d": "1"}"#, "{}"), hash(r#"{"d": 1}"#, "{}"));
}

/// A row names its target exactly when it counts one device, whatever
/// the list: a drive path written without an escape (`C:\fio.dat`) is one
/// target, named, where it was counted as one device with no name.
#[test]
fn a_single_target_is_named_where_one_device_is_counted() {
    let lists = [
        "/dev/nvme0n1",
        "/dev/nvme0n1:/dev/nvme1n1",
        "C:\\fio.dat",
        "C\\:\\fio.dat",
        "d:/x",
        "d:/x:e:/y",
        "\\\\.\\PhysicalDrive1",
        "a\\:b",
        "a:",
        ":a",
        "::",
        "",
        "   ",
        " : /dev/sdb",
    ];
    for f in lists {
        let named = single_target(Some(f));
        let count = crate::model::target_count("fio", Some(f));
        let names = crate::model::target_names("fio", Some(f));
        assert_eq!(named.is_some(), names.len() == 1, "{f:?}");
        if named.is_some() {
            assert_eq!(count, 1, "{f:?}");
        }
    }
    assert_eq!(
        single_target(Some("C:\\fio.dat")).as_deref(),
        Some("C:\\fio.dat")
    );
    assert_eq!(
        single_target(Some("C\\:\\fio.dat")).as_deref(),
        Some("C:\\fio.dat")
    );
    assert_eq!(single_target(Some("a:")).as_deref(), Some("a"));
    assert_eq!(single_target(Some("a:b")), None);
    assert_eq!(single_target(None), None);
}

/// A document of 128,904 jobs is held whole while its rows are made
/// (issue #55): a direction's three absent latency objects (fio 3.x
/// writes `clat_ns`, 2.x `clat`) cost a pointer each, not 128 bytes.
/// Inline, a direction was 960 bytes and the document 200 MB larger.
#[test]
fn a_directions_absent_latencies_cost_a_pointer() {
    let size = std::mem::size_of::<Ddir>();
    assert!(size <= 256, "Ddir is {size} bytes");
    assert_eq!(std::mem::size_of::<Option<Box<Lat>>>(), 8);
}
