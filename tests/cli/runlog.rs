//! `nvcmp run --log`: fio's logs written by the harness (and by fio through
//! `--engine fio`), read back by `ingest --series` line for line, and
//! agreeing with the result file they sit next to.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{assert_ok, nvcmp, require, stderr, words};

fn read_json(p: &Path) -> Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn run(args: &str, out: &Path) -> std::process::Output {
    nvcmp()
        .arg("run")
        .args(words(args))
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// Names of the `.log` files in `dir` (client/server ones included), sorted.
fn log_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".log"))
        .collect();
    names.sort();
    names
}

/// Lines of every log in `dir`.
fn log_lines(dir: &Path) -> usize {
    log_names(dir)
        .iter()
        .map(|n| {
            std::fs::read_to_string(dir.join(n))
                .unwrap()
                .lines()
                .count()
        })
        .sum()
}

/// `ingest DIR --series`: the rows, after checking that nothing was skipped
/// and no line was refused.
fn series(dir: &Path) -> Vec<Value> {
    let t = tempfile::tempdir().unwrap();
    let file = t.path().join("s.ndjson");
    let o = nvcmp()
        .arg("ingest")
        .arg(dir)
        .arg("--series")
        .arg(&file)
        .output()
        .unwrap();
    assert_ok(&o);
    let err = stderr(&o);
    assert!(err.contains(" 0 skipped"), "{err}");
    assert!(!err.contains("warning"), "{err}");
    std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn rows<'a>(rows: &'a [Value], kind: &str, dir: &str) -> impl Iterator<Item = &'a Value> {
    rows.iter()
        .filter(move |r| r["kind"] == kind && r["direction"] == dir)
}

/// The time-weighted mean of an averaged rate log, threads summed: each
/// row is the rate since the thread's previous row (from 0 for its first).
fn time_weighted_sum(rows: &[Value], kind: &str, dir: &str) -> f64 {
    let mut by_thread: BTreeMap<u64, Vec<(f64, f64)>> = BTreeMap::new();
    for r in self::rows(rows, kind, dir) {
        let thread = r["job_index"].as_u64().unwrap();
        let t = r["t_ms"].as_f64().unwrap();
        by_thread
            .entry(thread)
            .or_default()
            .push((t, r["value"].as_f64().unwrap()));
    }
    by_thread
        .values()
        .map(|pts| {
            let (mut last, mut area) = (0.0, 0.0);
            for &(t, v) in pts {
                area += v * (t - last);
                last = t;
            }
            area / last
        })
        .sum()
}

/// A time-based run with averaged logs: every line is read, and the bw and
/// iops logs agree with the result's bandwidth and IOPS.
fn averaged_logs_agree_with_the_result(engine_args: &str) {
    let t = tempfile::tempdir().unwrap();
    let args = format!(
        "{engine_args} --rw randrw --rwmixread 70 --bs 4k --iodepth 4 --numjobs 2 --size 8m \
         --runtime 1 --log --log-avg-msec 100 --label cfg"
    );
    assert_ok(&run(&args, t.path()));
    let dir = t.path().join("cfg");
    let job = read_json(&dir.join("randrw-4k-qd4-j2.json"))["jobs"][0].clone();
    assert_eq!(job["job options"]["write_bw_log"], "randrw-4k-qd4-j2");
    assert_eq!(job["job options"]["log_avg_msec"], "100");
    let names = log_names(&dir);
    for kind in ["bw", "iops", "lat", "clat", "slat"] {
        for n in [1, 2] {
            let name = format!("randrw-4k-qd4-j2_{kind}.{n}.log");
            assert!(names.contains(&name), "{name} missing in {names:?}");
        }
    }
    assert_eq!(names.len(), 10, "{names:?}");
    let rows = series(t.path());
    assert_eq!(rows.len(), log_lines(&dir), "every log line is a row");
    // The logs leave out each thread's last partial window, as fio's do:
    // within 2-3% on a quiet machine, but a thread stalled there by a busy
    // one (this test runs beside others on 2 cores) moves the log's mean.
    let close = |got: f64, want: f64| (got / want - 1.0).abs() < 0.12;
    for dir in ["read", "write"] {
        let bw = time_weighted_sum(&rows, "bw", dir);
        let want = job[dir]["bw_bytes"].as_f64().unwrap();
        assert!(close(bw, want), "{dir}: bw log {bw} vs {want}");
        let iops = time_weighted_sum(&rows, "iops", dir);
        let want = job[dir]["iops"].as_f64().unwrap();
        assert!(close(iops, want), "{dir}: iops log {iops} vs {want}");
        // Latency rows are ns; their mean lies within the job's range.
        let (min, max) = (
            job[dir]["clat_ns"]["min"].as_f64().unwrap(),
            job[dir]["clat_ns"]["max"].as_f64().unwrap(),
        );
        for r in self::rows(&rows, "clat", dir) {
            let v = r["value"].as_f64().unwrap();
            assert!(min - 1.0 <= v && v <= max + 1.0, "{v} not in {min}..{max}");
        }
    }
}

#[test]
fn null_engine_averaged_logs_agree_with_the_result() {
    averaged_logs_agree_with_the_result("--engine null");
}

#[test]
fn psync_averaged_logs_agree_with_the_result() {
    averaged_logs_agree_with_the_result("--engine psync");
}

#[test]
fn fio_engine_writes_the_same_logs() {
    if require("fio") {
        averaged_logs_agree_with_the_result("--engine fio --fio-ioengine psync");
    }
}

/// Per-I/O logs (`--log-avg-msec 0`) hold each I/O once: the iops log's
/// rows are the result's I/O count, their bs its bytes, the clat log's mean
/// its clat mean.
#[test]
fn per_io_logs_hold_every_io_once() {
    let t = tempfile::tempdir().unwrap();
    let args = "--engine null --rw randrw --bs 4k --iodepth 4 --numjobs 2 --size 1m --size-based \
                --log --log-avg-msec 0 --label p";
    assert_ok(&run(args, t.path()));
    let dir = t.path().join("p");
    let job = read_json(&dir.join("randrw-4k-qd4-j2.json"))["jobs"][0].clone();
    let rows = series(t.path());
    assert_eq!(rows.len(), log_lines(&dir));
    let mut ios = 0;
    for d in ["read", "write"] {
        let iops: Vec<&Value> = self::rows(&rows, "iops", d).collect();
        assert_eq!(
            iops.len() as u64,
            job[d]["total_ios"].as_u64().unwrap(),
            "{d}"
        );
        let bytes: u64 = iops.iter().map(|r| r["bs_bytes"].as_u64().unwrap()).sum();
        assert_eq!(bytes, job[d]["io_bytes"].as_u64().unwrap(), "{d}");
        let clat: Vec<f64> = self::rows(&rows, "clat", d)
            .map(|r| r["value"].as_f64().unwrap())
            .collect();
        let mean = clat.iter().sum::<f64>() / clat.len() as f64;
        let want = job[d]["clat_ns"]["mean"].as_f64().unwrap();
        assert!(
            (mean - want).abs() <= 1e-6 * want + 1e-6,
            "{d}: {mean} vs {want}"
        );
        ios += iops.len();
    }
    // Size-based: each of the 2 threads did 1 MiB in 4 KiB I/Os.
    assert_eq!(ios, 512);
}

/// A rerun replaces the job's logs: with fewer threads no `.2` is left to
/// be read as part of the new run; without --log none is left at all.
#[test]
fn a_rerun_replaces_the_jobs_logs() {
    let t = tempfile::tempdir().unwrap();
    let jf = t.path().join("a.fio");
    std::fs::write(&jf, "[a]\nrw=read\nbs=4k\nsize=256k\nnumjobs=2\n").unwrap();
    let base = format!("--engine null --label r --job-file {}", jf.display());
    assert_ok(&run(&format!("{base} --log --log-avg-msec 0"), t.path()));
    let dir = t.path().join("r");
    std::fs::write(dir.join("b_bw.1.log"), "1, 2, 0, 4096, 0\n").unwrap();
    let two = log_names(&dir);
    assert!(two.contains(&"a_bw.2.log".to_string()), "{two:?}");
    assert_ok(&run(
        &format!("{base} --numjobs 1 --log --log-avg-msec 0"),
        t.path(),
    ));
    let one = log_names(&dir);
    assert_eq!(
        one,
        [
            "a_bw.1.log",
            "a_clat.1.log",
            "a_iops.1.log",
            "a_lat.1.log",
            "a_slat.1.log",
            "b_bw.1.log"
        ]
    );
    // 256 KiB in 4 KiB reads by one thread.
    let iops = std::fs::read_to_string(dir.join("a_iops.1.log")).unwrap();
    assert_eq!(iops.lines().count(), 64);
    assert_ok(&run(&format!("{base} --numjobs 1"), t.path()));
    assert_eq!(log_names(&dir), ["b_bw.1.log"]);
    // Nothing of the staging folders is left.
    let hidden: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    assert!(hidden.is_empty(), "{hidden:?}");
}

/// Logs are part of the result: a result without them is not kept for a
/// run that asks for them.
#[test]
fn asking_for_logs_reruns_a_kept_job() {
    let t = tempfile::tempdir().unwrap();
    let args = "--engine null --bs 4k --size 256k --size-based --label k";
    assert_ok(&run(args, t.path()));
    let again = run(&format!("{args} --log"), t.path());
    assert_ok(&again);
    assert!(stderr(&again).contains("wrote"), "{}", stderr(&again));
    assert_eq!(log_names(&t.path().join("k")).len(), 5);
    let kept = run(&format!("{args} --log"), t.path());
    assert!(stderr(&kept).contains("kept"), "{}", stderr(&kept));
}

#[test]
fn log_avg_msec_needs_log() {
    let t = tempfile::tempdir().unwrap();
    let o = run("--engine null --log-avg-msec 100", t.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--log"), "{}", stderr(&o));
}

/// The harness's logs feed `analyze`'s time-series charts, its histogram
/// log the latency percentiles over time.
#[test]
fn analyze_draws_timeseries_charts_from_the_harness_logs() {
    let t = tempfile::tempdir().unwrap();
    let args = "--engine null --rw randread --bs 4k --iodepth 4 --runtime 1 --log \
                --log-avg-msec 100 --log-hist-msec 200 --label ts";
    assert_ok(&run(args, t.path()));
    let rows = series(t.path());
    let hist = std::fs::read_to_string(t.path().join("ts/randread-4k-qd4-j1_clat_hist.1.log"));
    let hist_lines = hist.unwrap().lines().count();
    assert!(hist_lines >= 3, "{hist_lines} histogram lines in 1 s");
    // Each histogram line gives a row per percentile (p50, p99, p99.9).
    let pct = rows.iter().filter(|r| r["kind"] == "hist").count();
    assert_eq!(pct, 3 * hist_lines);
    let report = t.path().join("report");
    let o = nvcmp()
        .arg("analyze")
        .arg(t.path())
        .arg("--out")
        .arg(&report)
        .output()
        .unwrap();
    assert_ok(&o);
    let charts: Vec<PathBuf> = std::fs::read_dir(report.join("charts"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with("timeseries_") && n.ends_with(".png")
        })
        .collect();
    assert!(!charts.is_empty(), "no timeseries chart");
    assert!(
        charts
            .iter()
            .any(|c| c.to_string_lossy().ends_with("_clat_percentiles.png")),
        "{charts:?}"
    );
    for c in &charts {
        assert!(
            std::fs::metadata(c).unwrap().len() > 1000,
            "{}",
            c.display()
        );
    }
}

/// Client/server: fio writes each server's logs here with `.<host>` after
/// the name, and they are moved next to the result like local ones.
#[test]
fn fio_client_server_logs_keep_the_host_suffix() {
    if !require("fio") {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let pidfile = t.path().join("s.pid");
    let st = std::process::Command::new("fio")
        .arg("--server=ip:127.0.0.1,18811")
        .arg(format!("--daemonize={}", pidfile.display()))
        .status()
        .unwrap();
    assert!(st.success());
    std::thread::sleep(std::time::Duration::from_millis(500));
    let target = t.path().join("cs.dat");
    let args = format!(
        "--engine fio --fio-ioengine psync --rw read --bs 64k --iodepth 1 --size 1m --size-based \
         --label cs --clients 127.0.0.1:18811 --log --log-avg-msec 0 --target {}",
        target.display()
    );
    let o = run(&args, t.path());
    if let Ok(pid) = std::fs::read_to_string(&pidfile) {
        let _ = std::process::Command::new("kill").arg(pid.trim()).status();
    }
    assert_ok(&o);
    let dir = t.path().join("cs");
    let names = log_names(&dir);
    assert!(
        names.contains(&"read-64k-qd1-j1_bw.1.log.127.0.0.1".to_string()),
        "{names:?}"
    );
    // 1 MiB in 64 KiB reads: 16 per-I/O lines.
    let iops = std::fs::read_to_string(dir.join("read-64k-qd1-j1_iops.1.log.127.0.0.1")).unwrap();
    assert_eq!(iops.lines().count(), 16);
}

/// Ctrl-C during a logged job: the finished job keeps its logs, the
/// stopped one leaves none and no staging folder.
#[test]
fn ctrl_c_leaves_no_logs_of_the_stopped_job() {
    let t = tempfile::tempdir().unwrap();
    let jf = t.path().join("two.fio");
    std::fs::write(
        &jf,
        "[quick]\nrw=read\nbs=4k\nsize=256k\n[long]\nrw=randread\nbs=4k\nsize=1m\nruntime=60\ntime_based=1\n",
    )
    .unwrap();
    let out = t.path().join("out");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("nvcmp"))
        .args(words("run --engine null --log --label c --job-file"))
        .arg(&jf)
        .arg("--out")
        .arg(&out)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let quick = out.join("c/quick.json");
    let t0 = std::time::Instant::now();
    while !quick.exists() && t0.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(700));
    let st = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let mut left: Vec<String> = std::fs::read_dir(out.join("c"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".nvcmp.toml"))
        .collect();
    left.sort();
    assert_eq!(
        left,
        [
            "quick.json",
            "quick_bw.1.log",
            "quick_clat.1.log",
            "quick_iops.1.log",
            "quick_lat.1.log",
            "quick_slat.1.log"
        ]
    );
}

#[test]
fn repeated_runs_with_logs_are_a_line_each_in_the_timeseries_charts() {
    let t = tempfile::tempdir().unwrap();
    let args = "--engine null --rw randread --bs 4k --iodepth 1 --runtime 1 --repeat 2 \
                --log --log-avg-msec 100 --label cfg";
    assert_ok(&run(args, t.path()));
    let out = t.path().join("report");
    let analyzed = nvcmp()
        .args(["-q", "analyze"])
        .arg(t.path())
        .arg("--out")
        .arg(&out)
        .args(["--chart-format", "svg"])
        .output()
        .unwrap();
    assert_ok(&analyzed);
    let svg =
        std::fs::read_to_string(out.join("charts/timeseries_randread_4k_read_iops.svg")).unwrap();
    assert!(svg.contains("a line per run of a config (the first solid)"));
    // Each repetition named in the footnote, and at its line's end unless
    // the chart says a label was left out (two runs of a loaded machine can
    // end on the same spot: the placer then drops one, never silently).
    let left_out = svg.contains("Some point labels left out");
    for n in [1, 2] {
        assert!(
            left_out || svg.contains(&format!(">\nrun {n}\n<")),
            "run {n} label"
        );
        assert!(svg.contains(&format!("cfg run {n} mean ")), "run {n} mean");
    }
    // Not "at least one label": when both runs end where their lines
    // cross, the placer can leave both out, and the chart then says so
    // (a full test run on a loaded machine did).
    assert!(!svg.contains("run 3"));
}
