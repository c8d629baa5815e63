//! `nvcmp run` on a test bed of real block devices: loop devices over
//! files (`losetup -f --show`), detached by a guard on every way out.
//! Tests that need root and loop devices skip with a message without them,
//! outside CI only: in CI (`NVCMP_CI=1`, as root) a missing one fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::common::{analyze_json, assert_ok, nvcmp, require, require_that, stderr, words};

/// A loop device over a file; detached (and its file removed with the
/// folder) when dropped, also when the test fails.
struct LoopDev {
    dev: PathBuf,
}

impl LoopDev {
    /// A `mib` MiB loop device over a new file in `dir`; None (said on
    /// stderr) where loop devices cannot be made (not root, no loop module),
    /// outside CI: in CI that fails the test.
    fn new(dir: &Path, name: &str, mib: u64) -> Option<LoopDev> {
        let file = dir.join(name);
        std::fs::File::create(&file)
            .and_then(|f| f.set_len(mib << 20))
            .unwrap();
        if !require("losetup") {
            return None;
        }
        let out = Command::new("losetup")
            .args(["-f", "--show"])
            .arg(&file)
            .output()
            .unwrap();
        let why = String::from_utf8_lossy(&out.stderr);
        if !require_that("loop devices", out.status.success(), why.trim()) {
            return None;
        }
        let dev = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        Some(LoopDev { dev })
    }

    fn path(&self) -> &str {
        self.dev.to_str().unwrap()
    }

    /// Fills the device with a pattern and returns its bytes.
    fn fill(&self, seed: u8) -> Vec<u8> {
        let size = device_size(&self.dev);
        let data: Vec<u8> = (0..size)
            .map(|i| (i as u8).wrapping_mul(31) ^ seed)
            .collect();
        std::fs::write(&self.dev, &data).unwrap();
        data
    }
}

impl Drop for LoopDev {
    fn drop(&mut self) {
        let _ = Command::new("losetup").arg("-d").arg(&self.dev).status();
    }
}

fn device_size(dev: &Path) -> usize {
    use std::io::{Seek, SeekFrom};
    let mut f = std::fs::File::open(dev).unwrap();
    f.seek(SeekFrom::End(0)).unwrap() as usize
}

/// `n` loop devices of `mib` MiB, or None when the machine cannot make them.
fn bed(dir: &Path, n: usize, mib: u64) -> Option<Vec<LoopDev>> {
    (0..n)
        .map(|i| LoopDev::new(dir, &format!("d{i}.img"), mib))
        .collect()
}

fn run(args: &str, targets: &[&str], out: &Path) -> Output {
    let mut cmd = nvcmp();
    cmd.arg("run").args(words(args));
    for t in targets {
        cmd.arg("--target").arg(t);
    }
    cmd.arg("--out").arg(out).output().unwrap()
}

fn read_json(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

/// The one result of `label` under `out`.
fn result(out: &Path, label: &str) -> Value {
    let dir = out.join(label);
    let files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    read_json(&files[0])
}

fn filenames(v: &Value) -> Vec<String> {
    v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["job options"]["filename"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn three_devices_run_at_once_and_analyze_sums_them() {
    let dir = tempfile::tempdir().unwrap();
    let Some(devs) = bed(dir.path(), 3, 64) else {
        return;
    };
    let names: Vec<&str> = devs.iter().map(LoopDev::path).collect();
    let out = dir.path().join("out");
    // Two --target flags, one a comma list.
    let list = format!("{},{}", names[0], names[1]);
    let o = run(
        "--engine psync --rw randread --bs 4k --runtime 1 --numjobs 2 --label bed",
        &[&list, names[2]],
        &out,
    );
    assert_ok(&o);
    let v = result(&out, "bed");
    assert_eq!(filenames(&v), names);
    let jobs = v["jobs"].as_array().unwrap();
    let per_device: Vec<f64> = jobs
        .iter()
        .map(|j| j["read"]["iops"].as_f64().unwrap())
        .collect();
    assert!(per_device.iter().all(|&x| x > 0.0), "{per_device:?}");
    let a = analyze_json(&out, &[]);
    let iops = crate::common::metric_of(&a["workloads"][0], "iops")["values"]["bed"]
        .as_f64()
        .unwrap();
    let sum: f64 = per_device.iter().sum();
    assert!((iops - sum).abs() < 1e-6 * sum, "{iops} vs {sum}");
    let d = &a["devices"][0];
    let targets: Vec<&str> = d["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["target"].as_str().unwrap())
        .collect();
    assert_eq!(targets, names);
    assert!((d["total_iops"].as_f64().unwrap() - sum).abs() < 1e-6 * sum);
    // Ingest keeps each row's target.
    let rows = nvcmp()
        .args(["ingest", "--format", "ndjson"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&rows.stdout);
    for n in &names {
        assert!(
            text.contains(&format!("\"target\":\"{n}\"")),
            "{n} in {text}"
        );
    }
}

#[test]
fn one_refused_target_stops_the_run_before_any_write() {
    let dir = tempfile::tempdir().unwrap();
    let Some(devs) = bed(dir.path(), 3, 8) else {
        return;
    };
    let before: Vec<Vec<u8>> = devs
        .iter()
        .enumerate()
        .map(|(i, d)| d.fill(i as u8))
        .collect();
    let unchanged = |why: &str| {
        for (d, b) in devs.iter().zip(&before) {
            assert!(
                std::fs::read(&d.dev).unwrap() == *b,
                "{} was written ({why})",
                d.path()
            );
        }
    };
    let out = dir.path().join("out");
    let ok = [devs[0].path(), devs[1].path()];
    let args = "--engine psync --rw write --bs 4k --runtime 1 --destroy-data";
    // A missing device among good ones.
    let o = run(args, &[ok[0], "/dev/nvcmp-missing-disk", ok[1]], &out);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("/dev/nvcmp-missing-disk") && err.contains("--target"),
        "{err}"
    );
    unchanged("missing device");
    // A filesystem on the third: refused without --destroy-data, which it names.
    let mut fs = before[2].clone();
    fs[0x438..0x43a].copy_from_slice(&[0x53, 0xef]);
    std::fs::write(&devs[2].dev, &fs).unwrap();
    let read = "--engine psync --rw read --bs 4k --runtime 1";
    let o = run(read, &[ok[0], ok[1], devs[2].path()], &out);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains(devs[2].path()) && err.contains("ext2/3/4"),
        "{err}"
    );
    assert!(err.contains("--destroy-data"), "{err}");
    // The disk holding / is mounted: no flag lets a job write to it.
    if let Some(root) = root_disk() {
        let o = run(args, &[ok[0], ok[1], &root], &out);
        assert_eq!(o.status.code(), Some(2));
        let err = stderr(&o);
        assert!(
            err.contains(&root) && (err.contains("mounted") || err.contains("held")),
            "{err}"
        );
    }
    std::fs::write(&devs[2].dev, &before[2]).unwrap();
    unchanged("mounted or formatted device");
    // Not even a result folder was made.
    assert!(!out.join("linux-psync").exists());
}

/// `/dev/<disk>` holding `/`, when it is a block device here.
#[cfg(unix)]
fn root_disk() -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let dev = std::fs::metadata("/").unwrap().dev();
    let sys = format!("/sys/dev/block/{}:{}", libc::major(dev), libc::minor(dev));
    let name = std::fs::canonicalize(sys)
        .ok()?
        .file_name()?
        .to_string_lossy()
        .into_owned();
    let p = format!("/dev/{name}");
    Path::new(&p).exists().then_some(p)
}

/// No `/dev` here (Windows): no root disk to try.
#[cfg(not(unix))]
fn root_disk() -> Option<String> {
    None
}

#[test]
fn precondition_writes_every_device_to_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let Some(devs) = bed(dir.path(), 2, 16) else {
        return;
    };
    let names: Vec<&str> = devs.iter().map(LoopDev::path).collect();
    let out = dir.path().join("out");
    let args = "--engine psync --rw randread --bs 4k --runtime 1 --precondition --label pre";
    // Writing devices needs --destroy-data, also for preconditioning.
    let o = run(args, &names, &out);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--destroy-data"), "{}", stderr(&o));
    let o = run(&format!("{args} --destroy-data"), &names, &out);
    assert_ok(&o);
    let err = stderr(&o);
    assert!(
        err.contains("preconditioned 2 targets (2 passes of sequential 128k writes"),
        "{err}"
    );
    for d in &devs {
        let data = std::fs::read(&d.dev).unwrap();
        let tail = &data[data.len() - (1 << 20)..];
        assert!(
            tail.iter().any(|&b| b != 0),
            "{}: last MiB still zero",
            d.path()
        );
    }
    let v = result(&out, "pre");
    for j in v["jobs"].as_array().unwrap() {
        let p = &j["nvcmp"]["precondition"];
        assert_eq!(
            (p["passes"].as_u64(), p["bs"].as_u64()),
            (Some(2), Some(128 << 10))
        );
        assert_eq!(p["bytes"].as_u64(), Some(2 * 2 * (16 << 20)));
    }
    let a = analyze_json(&out, &[]);
    let item = a["setup"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["key"] == "precondition")
        .cloned()
        .expect("a Preconditioning item in Setup");
    assert_eq!(item["values"]["pre"], "2 passes of sequential 128k writes");
}

#[test]
fn a_device_failing_mid_run_keeps_the_others_results() {
    let dir = tempfile::tempdir().unwrap();
    let Some(good) = LoopDev::new(dir.path(), "good.img", 32) else {
        return;
    };
    // A 32 MiB device over a sparse file on a 2 MiB tmpfs: writes fail
    // once the tmpfs is full.
    let small = dir.path().join("small");
    std::fs::create_dir(&small).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=2m", "tmpfs"])
        .arg(&small)
        .status()
        .is_ok_and(|s| s.success());
    if !require_that("mount", mounted, "cannot mount a small tmpfs (not root?)") {
        return;
    }
    let _umount = Unmount(small.clone());
    let Some(bad) = LoopDev::new(&small, "bad.img", 32) else {
        return;
    };
    let out = dir.path().join("out");
    let o = run(
        "--engine psync --rw write --bs 128k --size 16m --size-based --destroy-data --label f",
        &[good.path(), bad.path()],
        &out,
    );
    // A failed job is a warning naming the device, and exit 2.
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(bad.path()), "{}", stderr(&o));
    let v = result(&out, "f");
    let jobs = v["jobs"].as_array().unwrap();
    assert_eq!(jobs[0]["error"], 0);
    assert_eq!(jobs[0]["write"]["io_bytes"].as_u64(), Some(16 << 20));
    assert_ne!(jobs[1]["error"], 0);
    assert!(jobs[1]["write"]["io_bytes"].as_u64().unwrap() < 16 << 20);
    drop(bad);
}

/// Unmounts a folder on drop.
struct Unmount(PathBuf);

impl Drop for Unmount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn cpus_and_numa_placement_are_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    // The null engine opens nothing: targets are names, each its threads.
    let o = run(
        "--engine null --runtime 1 --cpus-allowed 0 --label pin",
        &["a,b"],
        &out,
    );
    assert_ok(&o);
    let v = result(&out, "pin");
    assert_eq!(filenames(&v), ["a", "b"]);
    for j in v["jobs"].as_array().unwrap() {
        assert_eq!(j["job options"]["cpus_allowed"], "0");
    }
    let a = analyze_json(&out, &[]);
    let cpus = a["setup"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["key"] == "cpus_allowed")
        .cloned()
        .expect("a CPUs item in Setup");
    assert_eq!(cpus["values"]["pin"], "0");
    // A CPU nvcmp may not use is refused, naming the flag.
    let o = run("--engine null --runtime 1 --cpus-allowed 1000", &[], &out);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--cpus-allowed 1000"), "{}", stderr(&o));
    // --numa auto on a loop device: no node in sysfs, a note, no pinning.
    let Some(dev) = LoopDev::new(dir.path(), "n.img", 8) else {
        return;
    };
    let o = run(
        "--engine psync --rw read --runtime 1 --numa auto --label numa",
        &[dev.path()],
        &out,
    );
    assert_ok(&o);
    assert!(stderr(&o).contains("no NUMA node"), "{}", stderr(&o));
    let v = result(&out, "numa");
    let note = v["jobs"][0]["nvcmp"]["placement"]["note"].as_str().unwrap();
    assert!(note.contains(dev.path()), "{note}");
}

#[test]
fn fio_engine_runs_a_section_per_device() {
    if !require("fio") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let Some(devs) = bed(dir.path(), 2, 16) else {
        return;
    };
    let names: Vec<&str> = devs.iter().map(LoopDev::path).collect();
    let out = dir.path().join("out");
    let o = run(
        "--engine fio --fio-ioengine psync --rw randread --runtime 1 --numjobs 2 --cpus-allowed 0 --label fio",
        &names,
        &out,
    );
    assert_ok(&o);
    let v = result(&out, "fio");
    assert_eq!(filenames(&v), names);
    let jobs = v["jobs"].as_array().unwrap();
    for (g, j) in jobs.iter().enumerate() {
        // Each device its own group: group_reporting merged its 2 threads.
        assert_eq!(j["groupid"], g);
        assert_eq!(j["job options"]["cpus_allowed"], "0");
        assert!(j["read"]["iops"].as_f64().unwrap() > 0.0);
    }
    let a = analyze_json(&out, &[]);
    assert_eq!(a["devices"][0]["targets"].as_array().unwrap().len(), 2);
}

/// Stops a `fio --server` on drop.
struct FioServer(PathBuf);

impl Drop for FioServer {
    fn drop(&mut self) {
        if let Ok(pid) = std::fs::read_to_string(&self.0) {
            let _ = Command::new("kill").arg(pid.trim()).status();
        }
    }
}

#[test]
fn fio_client_server_runs_every_target_on_the_server() {
    if !require("fio") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("server.pid");
    let st = Command::new("fio")
        .arg("--server=ip:127.0.0.1,18811")
        .arg(format!("--daemonize={}", pidfile.display()))
        .status()
        .unwrap();
    assert!(st.success());
    let _server = FioServer(pidfile);
    std::thread::sleep(std::time::Duration::from_millis(500));
    let (a, b) = (dir.path().join("a.dat"), dir.path().join("b.dat"));
    let out = dir.path().join("out");
    let o = run(
        "--engine fio --fio-ioengine psync --rw read --bs 64k --size 1m --size-based \
         --cpus-allowed 0 --label cs --clients 127.0.0.1:18811",
        &[a.to_str().unwrap(), b.to_str().unwrap()],
        &out,
    );
    assert_ok(&o);
    let v = result(&out, "cs");
    let stats = v["client_stats"].as_array().expect("client_stats");
    let mut files: Vec<&str> = stats
        .iter()
        .filter(|s| s["jobname"] != "All clients")
        .map(|s| s["job options"]["filename"].as_str().unwrap())
        .collect();
    files.sort();
    assert_eq!(files, [a.to_str().unwrap(), b.to_str().unwrap()]);
    for s in stats.iter().filter(|s| s["jobname"] != "All clients") {
        assert_eq!(s["job options"]["cpus_allowed"], "0");
        assert_eq!(s["read"]["io_bytes"].as_u64(), Some(1 << 20));
    }
}

/// The committed test bed (fixtures/testbed, real runs on four loop
/// devices, the last one disk-backed and slow): no root needed.
#[test]
fn the_fixture_test_bed_names_the_slow_device() {
    let dir = crate::common::fixture("testbed");
    let a = analyze_json(&dir, &[]);
    let devices = a["devices"].as_array().unwrap();
    assert_eq!(devices.len(), 2);
    for d in devices {
        let config = d["config"].as_str().unwrap();
        let targets = d["targets"].as_array().unwrap();
        assert_eq!(targets.len(), 4, "{config}");
        let sum: f64 = targets.iter().map(|t| t["iops"].as_f64().unwrap()).sum();
        let iops = crate::common::metric_of(&a["workloads"][0], "iops")["values"][config]
            .as_f64()
            .unwrap();
        assert!((iops - sum).abs() < 1e-6 * sum, "{config}: {iops} vs {sum}");
        let slow = targets[3]["target"].as_str().unwrap();
        // A device called slower than the others is the disk-backed one.
        for t in &targets[..3] {
            assert!(
                t["off_pct"].as_f64().is_none_or(|p| p > 0.0),
                "{config}: {t}"
            );
        }
        if config != "fio-psync" {
            // The harness' run on the loaded build machine was too noisy
            // (interval samples) for the rule to call any device off.
            continue;
        }
        assert_eq!(d["slowest"], slow, "{config}");
        assert!(
            targets[3]["off_pct"].as_f64().unwrap() < -50.0,
            "{config}: {d}"
        );
        let named = a["key_findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["kind"] == "device_outlier")
            .any(|f| {
                f["text"]
                    .as_str()
                    .unwrap()
                    .starts_with(&format!("{slow} gives"))
            });
        assert!(named, "{config}: no device_outlier finding for {slow}");
    }
    let md = nvcmp()
        .args(["analyze", "--format", "md"])
        .arg(&dir)
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(md.contains("\n## Devices\n"), "{md}");
    assert!(md.contains("| target | IOPS | bandwidth (MiB/s) |"), "{md}");
    assert!(md.contains("Targets"), "Setup lists the targets: {md}");
}
