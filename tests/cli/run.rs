//! `nvcmp run` end to end: every engine on small files in a temp dir, the
//! written JSON checked against its own numbers, the safety refusals, the
//! keep-unchanged-results rule, and `--engine fio` (local and client/server)
//! when fio is installed.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common::{assert_ok, nvcmp, require, require_that, stderr, words};

mod repeat;
#[cfg(windows)]
mod windows;

fn read_json(p: &Path) -> Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn u(v: &Value, ptr: &str) -> u64 {
    v.pointer(ptr)
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("{ptr} missing or not an integer"))
}

fn f(v: &Value, ptr: &str) -> f64 {
    v.pointer(ptr)
        .and_then(Value::as_f64)
        .unwrap_or_else(|| panic!("{ptr} missing or not a number"))
}

/// Checks one direction's numbers against each other, as fio defines them.
fn check_direction(job: &Value, dir: &str, bs: u64) {
    let d = &job[dir];
    let ios = u(d, "/total_ios");
    let bytes = u(d, "/io_bytes");
    let runt = u(d, "/runtime");
    assert!(ios > 0, "{dir}: no I/O");
    assert_eq!(bytes, ios * bs, "{dir}: io_bytes = total_ios * bs");
    assert_eq!(u(d, "/io_kbytes"), bytes / 1024);
    assert!(runt > 0);
    assert_eq!(
        u(d, "/bw_bytes"),
        bytes * 1000 / runt,
        "{dir}: bw = io_bytes / runtime"
    );
    assert_eq!(u(d, "/bw"), u(d, "/bw_bytes") / 1024);
    let iops = f(d, "/iops");
    assert!((iops - 1000.0 * ios as f64 / runt as f64).abs() < 1e-6);
    for lat in ["clat_ns", "lat_ns"] {
        assert_eq!(u(d, &format!("/{lat}/N")), ios, "{dir}.{lat}.N");
        let (min, max, mean) = (
            u(d, &format!("/{lat}/min")) as f64,
            u(d, &format!("/{lat}/max")) as f64,
            f(d, &format!("/{lat}/mean")),
        );
        assert!(
            min <= mean && mean <= max,
            "{dir}.{lat}: {min} <= {mean} <= {max}"
        );
    }
    // lat = slat + clat per I/O, so for the means too (fio's sync engines
    // keep no slat and their lat starts a little before clat: within 1%).
    let lat = f(d, "/lat_ns/mean");
    let sum = f(d, "/slat_ns/mean") + f(d, "/clat_ns/mean");
    assert!(lat + 1.0 >= f(d, "/clat_ns/mean"), "lat {lat} < clat");
    assert!(
        (lat - sum).abs() <= 0.01 * lat.max(1.0) + 1.0,
        "{lat} vs {sum}"
    );
    // Percentiles: fio's keys, monotonic, inside [min bucket, max bucket].
    let p = d["clat_ns"]["percentile"].as_object().expect("percentile");
    assert_eq!(p.len(), 17);
    assert!(p.contains_key("99.000000") && p.contains_key("99.990000"));
    let vals: Vec<u64> = p.values().map(|v| v.as_u64().unwrap()).collect();
    assert!(vals.windows(2).all(|w| w[0] <= w[1]), "{vals:?}");
    let max = u(d, "/clat_ns/max") as f64;
    assert!(*vals.last().unwrap() as f64 <= max * 1.02 + 128.0);
    // json+ bins hold every I/O.
    let bins: u64 = d["clat_ns"]["bins"]
        .as_object()
        .expect("bins")
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(bins, ios);
}

struct Run {
    _dir: tempfile::TempDir,
    out: PathBuf,
}

fn tmp() -> Run {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    Run { _dir: dir, out }
}

/// `nvcmp run ARGS [--target TARGET] --out OUT`, whatever its exit.
fn nvcmp_run(args: &[&str], target: Option<&Path>, out: &Path) -> Output {
    let mut cmd = nvcmp();
    cmd.arg("run").args(args);
    if let Some(target) = target {
        cmd.arg("--target").arg(target);
    }
    cmd.arg("--out").arg(out).output().unwrap()
}

/// Names in `dir`, unsorted.
fn entries(dir: &Path) -> Vec<std::ffi::OsString> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect()
}

/// Starts `cmd`, waits (30 s at most) for `appears` to exist, lets it run
/// `settle_ms` more, then interrupts it as Ctrl-C does (SIGINT): its
/// output once it has stopped, and how long that took from the start.
fn interrupted(
    mut cmd: std::process::Command,
    appears: &Path,
    settle_ms: u64,
) -> (Output, std::time::Duration) {
    let child = cmd.stderr(std::process::Stdio::piped()).spawn().unwrap();
    let t0 = std::time::Instant::now();
    while !appears.exists() && t0.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(settle_ms));
    let st = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    (child.wait_with_output().unwrap(), t0.elapsed())
}

/// Runs nvcmp; None (with a note) when the kernel refuses the engine,
/// outside CI ([`require_that`]; in CI that fails the test).
fn run_engine(engine: &str, extra: &[&str], out: &Path) -> Option<Output> {
    let o = nvcmp_run(&[&["--engine", engine], extra].concat(), None, out);
    let err = stderr(&o);
    let refused = ["io_setup", "io_uring_setup"]
        .iter()
        .any(|s| err.contains(s))
        && ["not permitted", "not implemented", "Function not", "denied"]
            .iter()
            .any(|s| err.contains(s));
    if !o.status.success() && refused {
        require_that(
            &format!("the {engine} engine"),
            false,
            &format!("the kernel refuses it here: {err}"),
        );
        return None;
    }
    assert!(o.status.success(), "{engine}: {err}");
    Some(o)
}

fn engine_round_trip(engine: &str) {
    let t = tmp();
    let args = words(
        "--rw randrw --rwmixread 70 --bs 4k --iodepth 4 --numjobs 2 --size 1m --size-based --label cfg",
    );
    let Some(o) = run_engine(engine, &args, &t.out) else {
        return;
    };
    let file = t.out.join("cfg/randrw-4k-qd4-j2.json");
    assert!(stderr(&o).contains("wrote"));
    let v = read_json(&file);
    assert_eq!(
        v["fio version"],
        format!("nvcmp-{}", env!("CARGO_PKG_VERSION"))
    );
    let job = &v["jobs"][0];
    assert_eq!(job["error"], 0);
    assert_eq!(job["job options"]["ioengine"], engine);
    assert_eq!(job["job options"]["rw"], "randrw");
    assert_eq!(job["job options"]["numjobs"], "2");
    assert_eq!(job["nvcmp"]["engine"], engine);
    assert!(job["nvcmp"]["spec_hash"].as_str().unwrap().len() == 16);
    check_direction(job, "read", 4096);
    check_direction(job, "write", 4096);
    // Size-based: each of the 2 threads does exactly 1 MiB.
    let total = u(job, "/read/io_bytes") + u(job, "/write/io_bytes");
    assert_eq!(total, 2 << 20);
    // 70% reads, give or take the draw.
    let reads = u(job, "/read/total_ios") as f64 / 512.0;
    assert!((0.6..0.8).contains(&reads), "read share {reads}");
    // Sidecar for ingest's manifest, when the run was long enough for
    // /proc/stat to tick (10 ms): a null-engine run on a busy machine may
    // not be, and then neither the JSON nor a sidecar claims a figure.
    let side = std::fs::read_to_string(t.out.join("cfg/randrw-4k-qd4-j2.json.nvcmp.toml"));
    match side {
        Ok(side) => {
            let pct: f64 = side
                .trim()
                .strip_prefix("system_cpu_pct = ")
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(Some(pct), job["system_cpu_pct"].as_f64());
        }
        Err(_) => assert!(job["system_cpu_pct"].is_null(), "{}", job["system_cpu_pct"]),
    }
    // The scratch file is gone; only the results are left.
    assert_eq!(entries(&t.out), ["cfg"], "scratch file left behind");
}

#[test]
fn null_engine_round_trip() {
    engine_round_trip("null");
}

/// A result is stamped when the run ends, as fio stamps its report
/// (`timestamp_ms`, stat.c): ingest takes the stamp as the end of the run
/// window, so two runs one after another never read as files that ran
/// together. Stamped at the start, a one-second run's window began a
/// second before it did.
#[test]
fn a_result_is_stamped_at_the_end_of_its_run() {
    let t = tmp();
    let now_ms = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64
    };
    let before = now_ms();
    let args = words("--rw randread --bs 4k --size 1m --runtime 1 --label end");
    run_engine("null", &args, &t.out).unwrap();
    let after = now_ms();
    let v = read_json(&t.out.join("end/randread-4k-qd32-j1.json"));
    let stamp = u(&v, "/timestamp_ms");
    let runtime = u(&v, "/jobs/0/read/runtime");
    assert!(runtime >= 900, "runtime {runtime} ms");
    assert!(
        stamp >= before + runtime && stamp <= after,
        "stamp {stamp}, run from {before} to {after}, runtime {runtime}"
    );
    assert_eq!(u(&v, "/timestamp"), stamp / 1000);
}

#[test]
fn psync_round_trip() {
    engine_round_trip("psync");
}

#[test]
fn libaio_round_trip() {
    engine_round_trip("libaio");
}

#[test]
fn io_uring_round_trip() {
    engine_round_trip("io_uring");
}

#[test]
fn io_uring_registered_buffers_and_files() {
    let t = tmp();
    let args = words(
        "--rw read --bs 64k --iodepth 8 --size 2m --size-based --fixedbufs --registerfiles --label reg",
    );
    if run_engine("io_uring", &args, &t.out).is_none() {
        return;
    }
    let v = read_json(&t.out.join("reg/read-64k-qd8-j1.json"));
    let job = &v["jobs"][0];
    assert_eq!(job["nvcmp"]["engine_options"]["fixedbufs"], true);
    assert_eq!(job["nvcmp"]["engine_options"]["registerfiles"], true);
    check_direction(job, "read", 65536);
    assert_eq!(u(job, "/read/io_bytes"), 2 << 20);
}

#[test]
fn time_based_run_has_interval_samples() {
    let t = tmp();
    let args = words("--runtime 2 --ramp-time 1 --size 1m --label tb");
    run_engine("null", &args, &t.out).unwrap();
    let v = read_json(&t.out.join("tb/randread-4k-qd32-j1.json"));
    let r = &v["jobs"][0]["read"];
    // 2 s of 500 ms intervals: 3 or 4 full samples.
    let n = u(r, "/iops_samples");
    assert!((3..=4).contains(&n), "{n} samples");
    assert_eq!(u(r, "/bw_samples"), n);
    assert!(f(r, "/iops_min") <= f(r, "/iops_mean") && f(r, "/iops_mean") <= f(r, "/iops_max"));
    // Runtime excludes the ramp.
    let runt = u(r, "/runtime");
    assert!((1900..=2200).contains(&runt), "runtime {runt} ms");
    assert_eq!(v["jobs"][0]["job options"]["ramp_time"], "1");
}

#[test]
fn unchanged_results_are_kept_and_force_reruns() {
    let t = tmp();
    let args = words("--size 256k --size-based --label k");
    run_engine("null", &args, &t.out).unwrap();
    let file = t.out.join("k/randread-4k-qd32-j1.json");
    let first = std::fs::read(&file).unwrap();
    let o = run_engine("null", &args, &t.out).unwrap();
    assert!(stderr(&o).contains("kept"));
    assert_eq!(
        std::fs::read(&file).unwrap(),
        first,
        "a kept result was rewritten"
    );
    let forced = [&args[..], &["--force"]].concat();
    let o = run_engine("null", &forced, &t.out).unwrap();
    assert!(stderr(&o).contains("wrote"));
    // A changed spec is a different job and reruns.
    let changed = words(
        "--size 256k --size-based --label k --iodepth 32 --bs 4k --numjobs 1 --rw randread --buffered",
    );
    let o = run_engine("null", &changed, &t.out).unwrap();
    assert!(stderr(&o).contains("wrote"));
}

#[test]
fn article_matrix_writes_eight_files() {
    let t = tmp();
    let args = words("--matrix article --size 1m --size-based --label a");
    run_engine("null", &args, &t.out).unwrap();
    let names = json_names(&t.out.join("a"));
    assert_eq!(names.len(), 8, "{names:?}");
    for (n, bs) in [
        ("randwrite-64k-qd32-j1.json", 65536),
        ("read-128k-qd32-j1.json", 131072),
    ] {
        let v = read_json(&t.out.join("a").join(n));
        let dir = if n.contains("write") { "write" } else { "read" };
        check_direction(&v["jobs"][0], dir, bs);
    }
}

#[test]
fn an_existing_file_is_not_written_without_destroy_data() {
    let t = tmp();
    std::fs::create_dir_all(&t.out).unwrap();
    let target = t.out.join("precious.dat");
    let data = vec![7u8; 1 << 20];
    std::fs::write(&target, &data).unwrap();
    let psync = |args: &str| {
        let line = format!("--engine psync --size 1m --size-based {args}");
        nvcmp_run(&words(&line), Some(&target), &t.out)
    };
    let o = psync("--rw randwrite");
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("precious.dat") && err.contains("--destroy-data"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&target).unwrap(),
        data,
        "the file was touched"
    );
    // Reading it is fine, and it is left in place.
    assert_ok(&psync("--rw read --buffered"));
    assert_eq!(std::fs::read(&target).unwrap(), data);
    // With --destroy-data it is written.
    assert_ok(&psync("--rw write --destroy-data"));
    assert_ne!(std::fs::read(&target).unwrap(), data);
}

// Linux's /sys and device numbers; Windows' devices are tested by hand
// (docs/guide.md, "The harness on a real Windows Server").
#[cfg(unix)]
#[test]
fn a_mounted_disk_is_refused() {
    use std::os::unix::fs::MetadataExt;
    let dev = std::fs::metadata("/").unwrap().dev();
    let sys = format!("/sys/dev/block/{}:{}", libc::major(dev), libc::minor(dev));
    let Some(name) = std::fs::canonicalize(&sys)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
    else {
        eprintln!("skipped: / is not on a block device here");
        return;
    };
    let t = tmp();
    let args = words("--engine psync --rw read --size 1m --size-based");
    let o = nvcmp_run(&args, Some(Path::new(&format!("/dev/{name}"))), &t.out);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("mounted") || err.contains("held"), "{err}");
    assert!(err.contains("--destroy-data"), "{err}");
}

/// An engine of another system is refused before anything is made.
#[test]
fn an_engine_of_another_system_is_a_usage_error() {
    let t = tmp();
    let (engine, os) = if cfg!(windows) {
        ("io_uring", "Linux")
    } else {
        ("windowsaio", "Windows")
    };
    let o = nvcmp_run(&["--engine", engine, "--size", "1m"], None, &t.out);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("--engine {engine} needs {os}")),
        "{err}"
    );
    assert!(!t.out.exists(), "the run made its output folder");
}

#[test]
fn bad_flags_are_usage_errors() {
    for (args, needle) in [
        (vec!["--rw", "sideways"], "--rw"),
        (vec!["--bs", "1000"], "--bs"),
        (vec!["--clients", "h1"], "--engine fio"),
        (
            vec!["--engine", "fio", "--fio", "/nonexistent/fio"],
            "install fio",
        ),
    ] {
        let t = tmp();
        let o = nvcmp_run(&args, None, &t.out);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn job_file_subset() {
    let t = tmp();
    std::fs::create_dir_all(&t.out).unwrap();
    let jf = t.out.join("jobs.fio");
    std::fs::write(
        &jf,
        "[global]\nioengine=null\nsize=512k\n[seq]\nrw=read\nbs=64k\niodepth=2\n[rand]\nrw=randwrite\nbs=4k\n",
    )
    .unwrap();
    let o = nvcmp_run(
        &["--label", "jf", "--job-file", jf.to_str().unwrap()],
        None,
        &t.out,
    );
    assert_ok(&o);
    let seq = read_json(&t.out.join("jf/seq.json"));
    assert_eq!(seq["jobs"][0]["job options"]["ioengine"], "null");
    check_direction(&seq["jobs"][0], "read", 65536);
    // Not time_based in the file: stops after size.
    assert_eq!(u(&seq["jobs"][0], "/read/io_bytes"), 512 << 10);
    let rand = read_json(&t.out.join("jf/rand.json"));
    check_direction(&rand["jobs"][0], "write", 4096);
}

#[test]
fn fio_engine_local() {
    if !require("fio") {
        return;
    }
    let t = tmp();
    let args = words(
        "--engine fio --fio-ioengine psync --rw randread --bs 4k --iodepth 1 --size 1m --size-based --label fio",
    );
    assert_ok(&nvcmp_run(&args, None, &t.out));
    let v = read_json(&t.out.join("fio/randread-4k-qd1-j1.json"));
    assert!(v["fio version"].as_str().unwrap().starts_with("fio-"));
    assert_eq!(v["nvcmp"]["engine"], "fio");
    let job = &v["jobs"][0];
    assert_eq!(v["global options"]["ioengine"], "psync");
    check_direction(job, "read", 4096);
    assert_eq!(u(job, "/read/io_bytes"), 1 << 20);
    assert_eq!(entries(&t.out), ["fio"], "scratch file left behind");
}

#[test]
fn fio_engine_runs_fio_once_per_sweep_point() {
    if !require("fio") {
        return;
    }
    let t = tmp();
    let args = words(
        "--engine fio --fio-ioengine psync --rw read --bs 4k --iodepth 1,2 --numjobs 1,2 \
         --size 256k --size-based --label fs",
    );
    assert_ok(&nvcmp_run(&args, None, &t.out));
    for (qd, nj) in [(1, 1), (2, 1), (1, 2), (2, 2)] {
        let v = read_json(&t.out.join(format!("fs/read-4k-qd{qd}-j{nj}.json")));
        let job = &v["jobs"][0];
        assert_eq!(job["job options"]["iodepth"], qd.to_string());
        assert_eq!(job["job options"]["numjobs"], nj.to_string());
        // group_reporting: every thread read the whole 256k.
        assert_eq!(u(job, "/read/io_bytes"), nj * (256 << 10));
    }
    assert_eq!(json_names(&t.out.join("fs")).len(), 4);
    assert_eq!(entries(&t.out), ["fs"], "scratch file left behind");
}

#[test]
fn fio_client_server_on_two_ports() {
    if !require("fio") {
        return;
    }
    let t = tmp();
    std::fs::create_dir_all(&t.out).unwrap();
    let mut pids = Vec::new();
    for port in [18801, 18802] {
        let pidfile = t.out.join(format!("s{port}.pid"));
        let st = std::process::Command::new("fio")
            .arg(format!("--server=ip:127.0.0.1,{port}"))
            .arg(format!("--daemonize={}", pidfile.display()))
            .status()
            .unwrap();
        assert!(st.success());
        pids.push(pidfile);
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let target = t.out.join("cs.dat");
    let args = words(
        "--engine fio --fio-ioengine psync --rw read --bs 64k --iodepth 1 --size 1m --size-based \
         --label cs --clients 127.0.0.1:18801,127.0.0.1:18802",
    );
    let o = nvcmp_run(&args, Some(&target), &t.out);
    for p in &pids {
        if let Ok(pid) = std::fs::read_to_string(p) {
            let _ = std::process::Command::new("kill").arg(pid.trim()).status();
        }
    }
    assert_ok(&o);
    let v = read_json(&t.out.join("cs/read-64k-qd1-j1.json"));
    let stats = v["client_stats"].as_array().expect("client_stats");
    let mut ports: Vec<u64> = stats
        .iter()
        .filter(|s| s["jobname"] != "All clients")
        .filter_map(|s| s["port"].as_u64())
        .collect();
    ports.sort();
    assert_eq!(ports, [18801, 18802]);
    assert!(stats.iter().any(|s| s["jobname"] == "All clients"));
    for s in stats.iter().filter(|s| s["jobname"] != "All clients") {
        assert_eq!(u(s, "/read/io_bytes"), 1 << 20);
    }
    assert_eq!(v["nvcmp"]["clients"].as_array().unwrap().len(), 2);
}

#[test]
fn ctrl_c_keeps_completed_results_and_leaves_no_partial_file() {
    let t = tmp();
    // Two jobs: the first (size-based, quick) completes, the second runs
    // for a minute and is interrupted.
    std::fs::create_dir_all(&t.out).unwrap();
    let jf = t.out.join("two.fio");
    std::fs::write(
        &jf,
        "[quick]\nrw=read\nbs=4k\nsize=256k\n[long]\nrw=randread\nbs=4k\nsize=1m\nruntime=60\ntime_based=1\n",
    )
    .unwrap();
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("nvcmp"));
    cmd.args(words("run --engine psync --buffered --label c --job-file"))
        .arg(&jf)
        .arg("--out")
        .arg(&t.out);
    let quick = t.out.join("c/quick.json");
    let (out, took) = interrupted(cmd, &quick, 700);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(took.as_secs() < 30, "did not stop on SIGINT");
    assert!(err.contains("interrupted"), "{err}");
    check_direction(&read_json(&quick)["jobs"][0], "read", 4096);
    let mut left: Vec<String> = std::fs::read_dir(&t.out)
        .unwrap()
        .chain(std::fs::read_dir(t.out.join("c")).unwrap())
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    // No long.json, no temporary file, no scratch file.
    assert_eq!(
        left,
        ["c", "quick.json", "quick.json.nvcmp.toml", "two.fio"],
        "{left:?}"
    );
}

/// `nvcmp run` output read back by ingest's JSON reader (the `ingest`
/// command itself is driven once it is implemented on main).
#[test]
fn run_output_reads_back_through_ingest() {
    use nvcmp::ingest::Reader;
    let t = tmp();
    let args = words("--rw randrw --bs 4k --size 1m --size-based --label linux-psync");
    run_engine("psync", &args, &t.out).unwrap();
    let file = t.out.join("linux-psync/randrw-4k-qd32-j1.json");
    let text = std::fs::read_to_string(&file).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let reader = nvcmp::ingest::fio_json::JsonReader;
    assert!(reader.sniff(&text));
    let parsed = reader.read(&text).unwrap();
    assert_eq!(parsed.rows.len(), 2, "{:?}", parsed.warnings);
    for row in &parsed.rows {
        let d = &v["jobs"][0][row.direction.as_str()];
        assert_eq!(row.engine, "psync");
        assert_eq!(row.rw, "randrw");
        assert_eq!(row.bs_bytes, 4096);
        assert_eq!(row.io_bytes, u(d, "/io_bytes"));
        assert_eq!(row.runtime_ms, u(d, "/runtime") as f64);
        assert!((row.iops - f(d, "/iops")).abs() < 1e-6);
        assert_eq!(row.bw_bytes_per_s, u(d, "/bw_bytes") as f64);
        assert_eq!(row.clat_mean_ns, Some(f(d, "/clat_ns/mean")));
        assert_eq!(
            row.clat_p99_ns,
            Some(u(d, "/clat_ns/percentile/99.000000") as f64)
        );
        assert_eq!(row.error, 0);
    }
}

#[test]
fn group_reporting_sums_thread_samples_like_fio() {
    let t = tmp();
    let args = words("--runtime 2 --numjobs 2 --size 1m --label g");
    run_engine("null", &args, &t.out).unwrap();
    let v = read_json(&t.out.join("g/randread-4k-qd32-j2.json"));
    let r = &v["jobs"][0]["read"];
    // fio's pure_sum: the sample counts of the 2 threads add (3-4 each) and
    // the mean is the sum of their means, i.e. the group's IOPS.
    let n = u(r, "/iops_samples");
    assert!((6..=8).contains(&n), "{n} samples");
    let (mean, iops) = (f(r, "/iops_mean"), f(r, "/iops"));
    assert!(
        (mean - iops).abs() / iops < 0.5,
        "iops_mean {mean} vs iops {iops}"
    );
    assert!(f(r, "/bw_agg") > 0.0 && f(r, "/bw_agg") <= 100.0);
}

/// Keys of a JSON object, in order.
fn keys(v: &Value) -> Vec<String> {
    v.as_object()
        .map_or(vec![], |m| m.keys().cloned().collect())
}

#[test]
fn json_has_the_shape_of_fio_json_plus() {
    if !require("fio") {
        return;
    }
    let t = tmp();
    std::fs::create_dir_all(&t.out).unwrap();
    // The same job through fio 3.x (json+) and through nvcmp.
    let fio_out = t.out.join("fio.json");
    let st = std::process::Command::new("fio")
        .args([
            "--name=shape",
            "--ioengine=psync",
            "--rw=randread",
            "--bs=4k",
            "--size=1m",
            "--output-format=json+",
        ])
        .arg(format!("--filename={}", t.out.join("shape.dat").display()))
        .arg(format!("--output={}", fio_out.display()))
        .status()
        .unwrap();
    assert!(st.success());
    let fio = read_json(&fio_out);
    let args = words("--rw randread --size 1m --size-based --label s");
    run_engine("psync", &args, &t.out).unwrap();
    let ours = read_json(&t.out.join("s/randread-4k-qd32-j1.json"));
    // Every key fio writes is there, in fio's order (nvcmp adds its own).
    let subseq = |fio_keys: Vec<String>, our_keys: Vec<String>, what: &str| {
        let mut it = our_keys.iter();
        for k in &fio_keys {
            assert!(
                it.any(|o| o == k),
                "{what}: `{k}` missing or out of order; ours: {our_keys:?}"
            );
        }
    };
    subseq(keys(&fio), keys(&ours), "top level");
    let (fj, oj) = (&fio["jobs"][0], &ours["jobs"][0]);
    subseq(keys(fj), keys(oj), "job");
    for dir in ["read", "write", "trim"] {
        subseq(keys(&fj[dir]), keys(&oj[dir]), dir);
    }
    for part in ["clat_ns", "lat_ns", "slat_ns"] {
        subseq(keys(&fj["read"][part]), keys(&oj["read"][part]), part);
    }
    for part in [
        "iodepth_level",
        "iodepth_submit",
        "iodepth_complete",
        "latency_ns",
        "latency_us",
        "latency_ms",
    ] {
        assert_eq!(keys(&fj[part]), keys(&oj[part]), "{part}");
    }
    assert_eq!(
        keys(&fj["read"]["clat_ns"]["percentile"]),
        keys(&oj["read"]["clat_ns"]["percentile"])
    );
}

/// The whole loop a user runs: `nvcmp run` for two configurations of the
/// same workload, then `nvcmp analyze` on what it wrote.
#[test]
fn run_then_analyze_compares_the_configs() {
    let t = tmp();
    let target = t.out.parent().unwrap().join("target.dat");
    std::fs::write(&target, vec![7u8; 1 << 20]).unwrap();
    for (engine, label) in [("psync", "linux-psync"), ("null", "linux-null")] {
        let line = format!(
            "--engine {engine} --rw randread --bs 4k --iodepth 1 --size 1m --runtime 1 \
             --buffered --label {label}"
        );
        let o = nvcmp_run(&words(&line), Some(&target), &t.out);
        assert_ok(&o);
    }
    let o = nvcmp()
        .args(["analyze", "--format", "json"])
        .arg(&t.out)
        .output()
        .unwrap();
    assert_ok(&o);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut configs: Vec<&str> = v["configs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    configs.sort();
    assert_eq!(configs, ["linux-null", "linux-psync"]);
    assert_eq!(v["skipped"].as_array().unwrap().len(), 0, "{v}");
    let wl = v["workloads"].as_array().unwrap();
    assert_eq!(wl.len(), 1, "one workload: randread 4k read");
    assert_eq!(wl[0]["rw"], "randread");
    assert_eq!(wl[0]["bs_bytes"], 4096);
    let metric = |name: &str| {
        wl[0]["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["metric"] == name)
            .unwrap_or_else(|| panic!("no {name} in {}", wl[0]))
            .clone()
    };
    // Each config's IOPS is the one its result file holds.
    let iops = metric("iops");
    for label in ["linux-psync", "linux-null"] {
        let file = read_json(&t.out.join(label).join("randread-4k-qd1-j1.json"));
        let want = f(&file["jobs"][0], "/read/iops");
        let got = iops["values"][label].as_f64().unwrap();
        assert!(
            (got - want).abs() <= want * 1e-9,
            "{label}: {got} vs {want}"
        );
    }
    // The null engine does no I/O: it is faster than reading a file, and
    // the comparison says so.
    let (n, p) = (
        iops["values"]["linux-null"].as_f64().unwrap(),
        iops["values"]["linux-psync"].as_f64().unwrap(),
    );
    assert!(n > p, "null {n} vs psync {p}");
    // With two 1 s samples a side on a loaded machine, Welch may not
    // separate them; then it must say so rather than name psync.
    match iops["winner"].as_str() {
        Some(w) => assert_eq!(w, "linux-null", "{iops}"),
        None => assert_eq!(iops["rule"], "not_significant", "{iops}"),
    }
    // Whole-system CPU came through from the harness: cpu_pct has a value
    // for both.
    let cpu = metric("cpu_pct");
    for label in ["linux-psync", "linux-null"] {
        assert!(cpu["values"][label].as_f64().is_some(), "{cpu}");
    }
    assert!(!v["highlights"].as_array().unwrap().is_empty());
}

/// fio's defaults: one I/O per submit call and one completion per reap
/// call; `--iodepth-batch` / `--iodepth-batch-complete` batch both, and
/// the JSON's submit/complete distributions show which was done.
#[test]
fn submit_and_reap_batches_follow_the_flags() {
    for (extra, batched) in [
        ("", false),
        ("--iodepth-batch 8 --iodepth-batch-complete 8", true),
    ] {
        let t = tmp();
        let line = format!(
            "--rw randread --bs 4k --iodepth 8 --size 1m --size-based --buffered --label b {extra}"
        );
        let Some(_) = run_engine("libaio", &words(&line), &t.out) else {
            return;
        };
        let job = &read_json(&t.out.join("b/randread-4k-qd8-j1.json"))["jobs"][0];
        check_direction(job, "read", 4096);
        let opt = &job["job options"];
        let (sub, comp) = (&job["iodepth_submit"], &job["iodepth_complete"]);
        if batched {
            assert_eq!(opt["iodepth_batch_submit"], "8");
            assert_eq!(opt["iodepth_batch_complete_max"], "8");
            // Buffered libaio completes inside io_submit: refills go 8 at a time.
            assert!(f(sub, "/8") > 50.0, "{sub}");
            assert!(f(comp, "/8") > 50.0, "{comp}");
        } else {
            assert!(opt.get("iodepth_batch_submit").is_none(), "{opt}");
            assert_eq!(f(sub, "/4"), 100.0, "{sub}");
            assert_eq!(f(comp, "/4"), 100.0, "{comp}");
            // The queue stays at its depth: fio's "8" bucket is 8..=15.
            assert!(
                f(&job["iodepth_level"], "/8") > 90.0,
                "{}",
                job["iodepth_level"]
            );
        }
    }
}

/// The result files (`*.json`) in `dir`, sorted.
fn json_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = entries(dir)
        .into_iter()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    names
}

/// The lines of stderr that start with `word` (`wrote`, `kept`).
fn lines_with<'a>(err: &'a str, word: &str) -> Vec<&'a str> {
    err.lines().filter(|l| l.starts_with(word)).collect()
}

#[test]
fn sweep_writes_one_file_per_point_and_keeps_them_on_rerun() {
    let t = tmp();
    let args = words("--iodepth 1,4 --numjobs 1,2 --runtime 1 --size 1m --label sw");
    let o = run_engine("null", &args, &t.out).unwrap();
    let err = stderr(&o);
    // Depth ascending within each thread count.
    let order = ["qd1-j1", "qd4-j1", "qd1-j2", "qd4-j2"];
    let wrote = lines_with(&err, "wrote");
    assert_eq!(wrote.len(), 4, "{err}");
    for (line, point) in wrote.iter().zip(order) {
        assert!(
            line.ends_with(&format!("randread-4k-{point}.json")),
            "{err}"
        );
    }
    let dir = t.out.join("sw");
    assert_eq!(json_names(&dir).len(), 4);
    for (qd, nj) in [(1, 1), (4, 1), (1, 2), (4, 2)] {
        let v = read_json(&dir.join(format!("randread-4k-qd{qd}-j{nj}.json")));
        let job = &v["jobs"][0];
        assert_eq!(job["job options"]["iodepth"], qd.to_string());
        assert_eq!(job["job options"]["numjobs"], nj.to_string());
        check_direction(job, "read", 4096);
    }
    // The same sweep again: every point is kept, none measured.
    let o = run_engine("null", &args, &t.out).unwrap();
    let err = stderr(&o);
    assert_eq!(lines_with(&err, "kept").len(), 4, "{err}");
    assert!(lines_with(&err, "wrote").is_empty(), "{err}");
    // A wider sweep measures only the points it adds.
    let wider = words("--iodepth 1-8 --numjobs 1 --runtime 1 --size 1m --label sw");
    let o = run_engine("null", &wider, &t.out).unwrap();
    let err = stderr(&o);
    let wrote = lines_with(&err, "wrote");
    assert_eq!(lines_with(&err, "kept").len(), 2, "{err}");
    assert!(
        wrote.len() == 2 && wrote[0].ends_with("qd2-j1.json") && wrote[1].ends_with("qd8-j1.json"),
        "{err}"
    );
    assert_eq!(json_names(&dir).len(), 6);
}

#[test]
fn sweep_preset_runs_sixteen_points() {
    let t = tmp();
    let args = words("--matrix sweep --size 64k --size-based --label p");
    run_engine("null", &args, &t.out).unwrap();
    let names = json_names(&t.out.join("p"));
    assert_eq!(names.len(), 16, "{names:?}");
    for qd in [1, 2, 4, 8, 16, 32, 64, 128] {
        for rw in ["randread", "randwrite"] {
            let n = format!("{rw}-4k-qd{qd}-j1.json");
            assert!(names.contains(&n), "{n} missing: {names:?}");
        }
    }
}

#[test]
fn job_file_jobs_sweep_only_over_flags_given() {
    let t = tmp();
    std::fs::create_dir_all(&t.out).unwrap();
    let jf = t.out.join("jobs.fio");
    std::fs::write(
        &jf,
        "[seq]\nrw=read\nbs=64k\nsize=256k\niodepth=2\nnumjobs=2\n",
    )
    .unwrap();
    let jf = jf.to_str().unwrap();
    let o = nvcmp_run(
        &[
            "--engine",
            "null",
            "--label",
            "j",
            "--job-file",
            jf,
            "--iodepth",
            "1,8",
        ],
        None,
        &t.out,
    );
    assert_ok(&o);
    assert_eq!(
        json_names(&t.out.join("j")),
        ["seq-qd1-j2.json", "seq-qd8-j2.json"]
    );
    let v = read_json(&t.out.join("j/seq-qd8-j2.json"));
    assert_eq!(v["jobs"][0]["job options"]["iodepth"], "8");
    // Without the flags the file is run as written, under its own name.
    let o = nvcmp_run(
        &["--engine", "null", "--label", "k", "--job-file", jf],
        None,
        &t.out,
    );
    assert_ok(&o);
    let v = read_json(&t.out.join("k/seq.json"));
    assert_eq!(v["jobs"][0]["job options"]["iodepth"], "2");
}

#[test]
fn bad_load_levels_name_the_flag() {
    for (line, needle) in [
        ("--iodepth 0,4", "--iodepth 0,4: 0 is not allowed"),
        ("--iodepth 4,4", "4 is given twice"),
        ("--numjobs 1,x", "--numjobs 1,x: `x` is not a number"),
        ("--iodepth 1-100", "did you mean 1-64?"),
    ] {
        let t = tmp();
        let o = nvcmp_run(&words(&format!("--engine null {line}")), None, &t.out);
        assert_eq!(o.status.code(), Some(2), "{line}");
        let err = stderr(&o);
        assert!(err.contains(needle), "{line}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{line}: {err}");
        assert!(!t.out.exists(), "{line}: wrote something");
    }
}

#[test]
fn ctrl_c_during_a_sweep_keeps_the_finished_points() {
    let t = tmp();
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("nvcmp"));
    cmd.args(words(
        "run --engine null --iodepth 1,2,4 --runtime 1 --size 1m --label c --out",
    ))
    .arg(&t.out);
    let dir = t.out.join("c");
    let second = dir.join("randread-4k-qd2-j1.json");
    // The third point is 1 s long: 300 ms in lands in the middle of it.
    let (out, _) = interrupted(cmd, &second, 300);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("2 completed results kept"), "{err}");
    let mut left: Vec<String> = entries(&dir)
        .into_iter()
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left,
        [
            "randread-4k-qd1-j1.json",
            "randread-4k-qd1-j1.json.nvcmp.toml",
            "randread-4k-qd2-j1.json",
            "randread-4k-qd2-j1.json.nvcmp.toml"
        ]
    );
}
