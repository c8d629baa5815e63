//! Real fio runs whose options use fio's value grammar
//! (fixtures/make-grammar-fixtures.sh): every figure nvcmp reads is held
//! against the file's own numbers, read here through serde_json.

use std::path::Path;

use serde_json::Value;

use crate::common::{analyze_json, assert_ok, fixture, nvcmp, stderr};

/// `nvcmp ingest PATH` as ndjson rows, and what it said on stderr.
fn ingest(path: &Path) -> (Vec<Value>, String) {
    let out = nvcmp().arg("ingest").arg(path).output().unwrap();
    assert_ok(&out);
    let rows = std::str::from_utf8(&out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (rows, stderr(&out).into_owned())
}

/// The row of `file`'s job in `dir` direction.
fn row<'a>(rows: &'a [Value], file: &str, dir: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["source"].as_str().unwrap().ends_with(file) && r["direction"] == dir)
        .unwrap_or_else(|| panic!("no {dir} row from {file}"))
}

/// Every row's block size is fio's bytes per I/O of the same direction
/// (exact, or the mean for a varying size), and its IOPS, bandwidth and
/// bytes the file's own.
#[test]
fn block_sizes_iops_and_bandwidth_are_the_files_own() {
    let dir = fixture("grammar");
    let (rows, _) = ingest(&dir);
    let mut checked = 0;
    for entry in walk(&dir) {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&entry).unwrap()).unwrap();
        let name = entry.file_name().unwrap().to_str().unwrap();
        for job in doc["jobs"].as_array().unwrap() {
            for d in ["read", "write"] {
                let j = &job[d];
                let ios = j["total_ios"].as_f64().unwrap();
                if ios == 0.0 {
                    continue;
                }
                let io_bytes = j["io_bytes"].as_f64().unwrap();
                let r = rows
                    .iter()
                    .find(|r| {
                        r["source"].as_str().unwrap().ends_with(name)
                            && r["direction"] == d
                            && r["io_bytes"].as_f64() == Some(io_bytes)
                    })
                    .unwrap_or_else(|| panic!("no {d} row from {name} with {io_bytes} bytes"));
                let bs = r["bs_bytes"].as_f64().unwrap();
                assert_eq!(bs, (io_bytes / ios).round(), "{name} {d}");
                assert_eq!(r["iops"].as_f64(), j["iops"].as_f64(), "{name} {d}");
                assert_eq!(
                    r["bw_bytes_per_s"].as_f64(),
                    j["bw_bytes"].as_f64(),
                    "{name} {d}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 18, "{checked} rows checked");
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
    out.sort();
    out
}

#[test]
fn fios_grammar_is_read_as_fio_ran_it_and_the_measurement_wins() {
    let (rows, said) = ingest(&fixture("grammar"));
    // bs=4KiB under the default kb_base=1024: 4,000-byte I/Os; under
    // kb_base=1000, 4,096. Given after bs on the command line, kb_base
    // changed nothing: the options cannot tell, the measurement does.
    assert_eq!(row(&rows, "write-4KiB.json", "write")["bs_bytes"], 4000);
    assert_eq!(
        row(&rows, "write-4KiB-kb1000.json", "write")["bs_bytes"],
        4096
    );
    let after = row(&rows, "write-4KiB-kb1000-after.json", "write");
    assert_eq!(after["bs_bytes"], 4000);
    assert_eq!(after["bs_option"], "bs=4KiB");
    assert!(
        said.contains(
            "write block size 4000 measured (io_bytes / total_ios), not the options' 4096"
        ),
        "{said}"
    );
    // 128Ki is 131072 bytes, not a default 4k.
    assert_eq!(
        row(&rows, "randread-128Ki.json", "read")["bs_bytes"],
        131_072
    );
    // bs=4k-64k: 4k reads, 64k writes.
    assert_eq!(
        row(&rows, "randrw-bs-4k-64k.json", "read")["bs_bytes"],
        4096
    );
    assert_eq!(
        row(&rows, "randrw-bs-4k-64k.json", "write")["bs_bytes"],
        65536
    );
    // Varying sizes keep their spread.
    assert_eq!(
        row(&rows, "randread-bsrange-4k-64k.json", "read")["bs_spread"],
        "4k-64k"
    );
    assert_eq!(
        row(&rows, "randread-bssplit.json", "read")["bs_spread"],
        "4k/50:64k/50"
    );
    // The same range in normal text (`bs=(R) 4096B-64.0KiB`): its measured
    // mean (758 MiB over 31,818 issued I/Os), not the range's upper end.
    let text = row(&rows, "randread-bsrange-4k-64k.txt", "read");
    assert_eq!(text["bs_spread"], "4k-64k");
    let bs = text["bs_bytes"].as_f64().unwrap();
    assert!((bs - 758.0 * 1048576.0 / 31818.0).abs() < 0.01 * bs, "{bs}");
    // iodepth=0x10, numjobs=0x2: QD16 x 2 jobs.
    let ints: Vec<&Value> = rows
        .iter()
        .filter(|r| {
            r["source"]
                .as_str()
                .unwrap()
                .ends_with("randread-qd0x10.json")
        })
        .collect();
    assert_eq!(ints.len(), 2);
    assert!(ints.iter().all(|r| r["iodepth"] == 16 && r["numjobs"] == 2));
    // None of these runs contradicts itself.
    assert!(!said.contains("disagrees"), "{said}");
}

/// A block-size sweep written `4Ki ... 128Ki` is six block sizes, with no
/// note that bandwidth disagrees with IOPS x block size.
#[test]
fn an_iec_block_size_sweep_is_six_block_sizes() {
    let v = analyze_json(&fixture("grammar/iec"), &[]);
    let sweeps = v["bs_sweeps"].as_array().unwrap();
    assert_eq!(sweeps.len(), 1, "{sweeps:?}");
    let sizes: Vec<u64> = sweeps[0]["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["bs_bytes"].as_u64().unwrap())
        .collect();
    assert_eq!(sizes, [4096, 8192, 16384, 32768, 65536, 131_072]);
    assert!(!v.to_string().contains("disagrees with IOPS x block size"));
}

/// `percentile_list=50:95`: the tail every table, chart and finding shows
/// is p95, and says so; `--slo clat_p95=...` is a target on it; every
/// percentile fio printed is in the dataset.
#[test]
fn a_studys_own_percentiles_are_its_tail() {
    let dir = fixture("grammar/p95");
    let v = analyze_json(&dir, &[]);
    assert_eq!(v["tail_percentile"], 95.0);
    // Each workload's tail is the file's own p95.
    for w in v["workloads"].as_array().unwrap() {
        let qd = w["iodepth"].as_u64().unwrap();
        let doc: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("randread-qd{qd}.json"))).unwrap(),
        )
        .unwrap();
        let p95 = doc["jobs"][0]["read"]["clat_ns"]["percentile"]["95.000000"].as_f64();
        let tail = w["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["metric"] == "clat_p95_ns")
            .unwrap();
        // The key says the percentile it holds (#54): no p99 key for a p95.
        assert!(
            !w["metrics"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["metric"] == "clat_p99_ns"),
            "QD{qd}"
        );
        assert_eq!(tail["values"]["p95"].as_f64(), p95, "QD{qd}");
    }
    let out = nvcmp().arg("analyze").arg(&dir).output().unwrap();
    assert_ok(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("each cell: IOPS · mean latency · p95 latency"),
        "{text}"
    );
    assert!(!text.contains("p99"), "{text}");
    let out = nvcmp()
        .arg("analyze")
        .arg(&dir)
        .args(["--slo", "clat_p95=300us"])
        .output()
        .unwrap();
    assert_ok(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("with p95 completion latency at most 300 µs"),
        "{text}"
    );
    // The dataset carries every percentile fio printed.
    let (rows, _) = ingest(&fixture("grammar/p99999"));
    assert!(rows[0]["clat_percentiles"]["99.999"].as_f64().is_some());
    let (rows, _) = ingest(&dir);
    let keys: Vec<&String> = rows[0]["clat_percentiles"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(keys, ["50", "95"]);
}

/// `--metric clat_p95` (issue #54): every flag that names a metric names
/// a percentile by the percentile it holds. `check` gates the runs' p95
/// under the key `clat_p95_ns` (never `clat_p99_ns`), says a percentile no
/// run printed is not there, refuses two tails in one check; `analyze
/// --round clat_p95=...` rounds the p95; a history (p99 only) refuses p95.
#[test]
fn metric_flags_name_the_percentile_they_hold() {
    let dir = fixture("grammar/p95");
    let check = |extra: &[&str]| {
        nvcmp()
            .args(["check", "--baseline"])
            .arg(&dir)
            .arg("--candidate")
            .arg(&dir)
            .args(extra)
            .output()
            .unwrap()
    };
    let out = check(&["--metric", "clat_p95,iops", "--format", "json"]);
    assert_ok(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("p99"), "{text}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let tails: Vec<&Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["metric"] == "clat_p95_ns")
        .collect();
    assert_eq!(tails.len(), 3, "one p95 finding per queue depth: {v}");
    for f in tails {
        let qd = f["iodepth"].as_u64().unwrap();
        let doc: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("randread-qd{qd}.json"))).unwrap(),
        )
        .unwrap();
        let p95 = doc["jobs"][0]["read"]["clat_ns"]["percentile"]["95.000000"].as_f64();
        assert_eq!(f["baseline"].as_f64(), p95, "QD{qd}");
        assert_eq!(f["verdict"], "unchanged", "QD{qd}");
    }
    // The terminal's table names it so too; a threshold may name it.
    let out = check(&["--metric", "clat_p95", "--threshold", "clat_p95_ns=10%"]);
    assert_ok(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("clat_p95_ns"), "{text}");
    assert!(!text.contains("clat_p99"), "{text}");
    // A percentile the runs did not print is an error, not a pass.
    let out = check(&["--metric", "clat_p99"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no run has p99 latency"),
        "{}",
        stderr(&out)
    );
    // One tail per check.
    let out = check(&["--metric", "clat_p95", "--slo", "clat_p99=1ms"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("two tail percentiles"),
        "{}",
        stderr(&out)
    );
    // analyze --round names the tail it rounds: the p95, under its key.
    let v = analyze_json(&dir, &["--round", "clat_p95=1000"]);
    assert_eq!(v["tail_percentile"], 95.0);
    let keys: Vec<&str> = v["workloads"][0]["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["metric"].as_str())
        .collect();
    assert!(keys.contains(&"clat_p95_ns"), "{keys:?}");
    // A history follows p99 only.
    let hist = tempfile::tempdir().unwrap();
    let out = nvcmp()
        .args(["history", "show", "--history"])
        .arg(hist.path())
        .args(["--metric", "clat_p95"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("p99 tail only"), "{}", stderr(&out));
}

/// Runs alike in every option but their job names (`write`,
/// `overwrite-seq`) are variants of the workload, kept apart and named by
/// the word; repeats (`run1`, `run2`) are still averaged.
#[test]
fn job_name_variants_are_apart_and_repeats_averaged() {
    let v = analyze_json(&fixture("grammar/variants"), &[]);
    let titles: Vec<String> = v["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| match w["variant"].as_str() {
            Some(var) => format!("{} ({var})", w["rw"].as_str().unwrap()),
            None => w["rw"].as_str().unwrap().to_string(),
        })
        .collect();
    assert_eq!(titles, ["write", "write (overwrite-seq)"]);
    assert!(
        v.to_string().contains(
            "differ only in their names (overwrite-seq): kept apart as variants of the workload"
        ),
        "{}",
        v["sanity"]
    );
    assert_eq!(v["bs_sweeps"].as_array().unwrap().len(), 0);
    let out = nvcmp()
        .arg("analyze")
        .arg(fixture("grammar/variants"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("write 4k (overwrite-seq)\n"));
    // --label-by name: the word names configs, never a mangled file name.
    let v = analyze_json(&fixture("grammar/variants"), &["--label-by", "name"]);
    assert_eq!(
        crate::common::strs(&v["configs"]),
        ["overwrite-seq", "write"]
    );
    let v = analyze_json(&fixture("grammar/variants"), &["--label-by", "folder,name"]);
    assert_eq!(
        crate::common::strs(&v["configs"]),
        ["overwrite-seq", "write"]
    );
    // Repeats named run1, run2: one workload, two runs averaged.
    let v = analyze_json(&fixture("grammar/repeats"), &[]);
    assert_eq!(v["workloads"].as_array().unwrap().len(), 1);
    assert_eq!(v["workloads"][0]["params"]["repeats"]["runs"], 2);
}

/// A fio option a format does not print (normal text, terse) is unknown
/// there, `unset` only where the format prints options (JSON).
#[test]
fn an_option_reads_unset_only_where_the_format_prints_options() {
    let v = analyze_json(&fixture("fio/linux-libaio"), &["--label-by", "ioscheduler"]);
    assert_eq!(crate::common::strs(&v["configs"]), ["unknown", "unset"]);
}
