use super::*;

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

/// An I/O completed, with no histogram log to feed.
fn log_completed(log: &mut ThreadLog, t_ms: u64, dir: Dir, bytes: u64, clat: u64, lat: u64) {
    log.completed(t_ms, (dir, bytes), clat, lat, &Histogram::default());
}

fn opts(avg_msec: u64) -> LogOptions {
    LogOptions {
        avg_msec,
        hist_msec: None,
    }
}

#[test]
fn per_io_lines_are_fios() {
    let d = tempfile::tempdir().unwrap();
    let mut log = ThreadLog::create(d.path(), "j", 2, opts(0)).unwrap();
    log.submitted(3, Dir::Write, 4096, 1500);
    log_completed(&mut log, 3, Dir::Read, 4096, 134_362, 140_000);
    log_completed(&mut log, 4, Dir::Write, 8192, 0, 10);
    log.counters(10_000, [4096, 8192], [1, 1]);
    log.finish(5).unwrap();
    // bw per I/O: bytes * 1e6 / clat_ns, as in fio's per-I/O fixture
    // (4096 B in 134362 ns -> 30484); 0 when the clat is 0.
    assert_eq!(
        read(d.path(), "j_bw.2.log"),
        "3, 30484, 0, 4096, 0\n4, 0, 1, 8192, 0\n"
    );
    assert_eq!(
        read(d.path(), "j_iops.2.log"),
        "3, 1, 0, 4096, 0\n4, 1, 1, 8192, 0\n"
    );
    assert_eq!(
        read(d.path(), "j_clat.2.log"),
        "3, 134362, 0, 4096, 0\n4, 0, 1, 8192, 0\n"
    );
    assert_eq!(
        read(d.path(), "j_lat.2.log"),
        "3, 140000, 0, 4096, 0\n4, 10, 1, 8192, 0\n"
    );
    assert_eq!(read(d.path(), "j_slat.2.log"), "3, 1500, 1, 4096, 0\n");
}

#[test]
fn latency_windows_average_like_fio() {
    let d = tempfile::tempdir().unwrap();
    let mut log = ThreadLog::create(d.path(), "j", 1, opts(200)).unwrap();
    // LogWindow [0, 200): closed by the first sample at or past 200 ms, which
    // counts in it (fio adds the sample before it checks the window).
    log_completed(&mut log, 10, Dir::Read, 4096, 100, 101);
    log_completed(&mut log, 150, Dir::Read, 4096, 200, 202);
    log_completed(&mut log, 205, Dir::Read, 4096, 301, 303);
    // The next window starts at 200 (205 - 205 % 200), not at 205.
    log_completed(&mut log, 399, Dir::Read, 4096, 7, 7);
    log_completed(&mut log, 400, Dir::Read, 4096, 8, 8);
    // Left over at the end: written at the job's end.
    log_completed(&mut log, 150, Dir::Write, 4096, 5, 6);
    log.finish(480).unwrap();
    // (100 + 200 + 301) / 3 = 200.33 -> 200; (7 + 8) / 2 = 7.5 -> 8.
    assert_eq!(
        read(d.path(), "j_clat.1.log"),
        "205, 200, 0, 0, 0\n400, 8, 0, 0, 0\n480, 5, 1, 0, 0\n"
    );
    assert_eq!(
        read(d.path(), "j_lat.1.log"),
        "205, 202, 0, 0, 0\n400, 8, 0, 0, 0\n480, 6, 1, 0, 0\n"
    );
    // Averaged bw/iops come from the counters, never from single I/Os.
    assert_eq!(read(d.path(), "j_bw.1.log"), "");
}

#[test]
fn rates_are_kib_per_s_and_ios_per_s_over_each_window() {
    let d = tempfile::tempdir().unwrap();
    let mut log = ThreadLog::create(d.path(), "j", 1, opts(200)).unwrap();
    // Too early (more than fio's 1 ms of slack before the window's end).
    log.counters(198, [1 << 20, 0], [256, 0]);
    // 199 ms is within the slack: 2 MiB and 512 I/Os in 199 ms.
    log.counters(199, [2 << 20, 0], [512, 0]);
    // Nothing read since, 1 MiB written in 201 ms.
    log.counters(400, [2 << 20, 1 << 20], [512, 256]);
    log.finish(400).unwrap();
    let kib = |bytes: u64, ms: u64| bytes * 1000 / ms / 1024;
    assert_eq!(
        read(d.path(), "j_bw.1.log"),
        format!(
            "199, {}, 0, 0, 0\n400, {}, 1, 0, 0\n",
            kib(2 << 20, 199),
            kib(1 << 20, 201)
        )
    );
    assert_eq!(
        read(d.path(), "j_iops.1.log"),
        format!(
            "199, {}, 0, 0, 0\n400, {}, 1, 0, 0\n",
            512_000 / 199,
            256_000 / 201
        )
    );
}

#[test]
fn job_logs_are_told_apart_from_other_files() {
    for yes in [
        "randread-4k_bw.1.log",
        "randread-4k_clat.12.log",
        "randread-4k_slat.2.log.10.0.0.1",
        "randread-4k_clat_hist.1.log",
    ] {
        assert!(is_job_log(yes, "randread-4k"), "{yes}");
    }
    for no in [
        "randread-4k.json",
        "randread-4k-qd8_bw.1.log",
        "randread-4k_bw.log",
        "randread-4k_bw.x.log",
        "randread-4k_bw.1.log.",
        "randread-4k_bw.1.txt",
        "randread-4k_foo.1.log",
        "other_bw.1.log",
    ] {
        assert!(!is_job_log(no, "randread-4k"), "{no}");
    }
}

#[test]
fn publish_replaces_only_the_jobs_own_logs() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let keep = ["a.json", "a-qd8_bw.1.log", "b_bw.1.log", "notes.txt"];
    for f in keep
        .iter()
        .chain(&["a_bw.1.log", "a_bw.2.log", "a_lat.3.log.h1"])
    {
        std::fs::write(dir.join(f), "old").unwrap();
    }
    let logs = JobLogs::create(dir, "a", Some(opts(0))).unwrap();
    let staging = logs.staging().unwrap().to_path_buf();
    std::fs::write(staging.join("a_bw.1.log"), "new").unwrap();
    logs.publish().unwrap();
    // The staging folder is gone, the old run's .2 and .3 logs too.
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut want: Vec<String> = keep.iter().map(|s| s.to_string()).collect();
    want.push("a_bw.1.log".into());
    want.sort();
    assert_eq!(names, want);
    assert_eq!(read(dir, "a_bw.1.log"), "new");
    for f in keep {
        assert_eq!(read(dir, f), "old", "{f}");
    }
    // Without --log a rerun removes the previous run's logs.
    JobLogs::create(dir, "a", None).unwrap().publish().unwrap();
    assert!(!dir.join("a_bw.1.log").exists());
    assert!(dir.join("a.json").exists());
}

#[test]
fn a_job_that_fails_leaves_the_old_logs_and_no_staging() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("a_bw.1.log"), "old").unwrap();
    let logs = JobLogs::create(d.path(), "a", Some(opts(500))).unwrap();
    let staging = logs.staging().unwrap().to_path_buf();
    std::fs::write(staging.join("a_bw.1.log"), "new").unwrap();
    drop(logs);
    assert!(!staging.exists());
    assert_eq!(read(d.path(), "a_bw.1.log"), "old");
}

#[test]
fn histogram_lines_hold_the_counts_since_the_last_line() {
    let d = tempfile::tempdir().unwrap();
    let o = LogOptions {
        avg_msec: 500,
        hist_msec: Some(100),
    };
    let mut log = ThreadLog::create(d.path(), "j", 1, o).unwrap();
    let mut h = Histogram::default();
    let mut io = |log: &mut ThreadLog, t: u64, ns: u64| {
        h.add(ns);
        log.completed(t, (Dir::Read, 4096), ns, ns, &h);
    };
    // The first window starts at the first I/O (7 ms), as in fio.
    io(&mut log, 7, 50);
    io(&mut log, 90, 50);
    io(&mut log, 107, 2000);
    // Late by 20 ms: the next window still starts at 207, not 227.
    io(&mut log, 227, 2000);
    io(&mut log, 300, 50);
    io(&mut log, 307, 50);
    // Ends inside a window: not written, as fio 3.33 does not.
    io(&mut log, 350, 50);
    log.finish(360).unwrap();
    let text = read(d.path(), "j_clat_hist.1.log");
    let lines: Vec<Vec<u64>> = text
        .lines()
        .map(|l| l.split(", ").map(|f| f.parse().unwrap()).collect())
        .collect();
    assert_eq!(lines.len(), 3, "{text}");
    for l in &lines {
        assert_eq!(l.len(), 3 + super::super::stats::PLAT_NR);
    }
    let heads: Vec<&[u64]> = lines.iter().map(|l| &l[..3]).collect();
    assert_eq!(heads, [[107, 0, 4096], [227, 0, 4096], [307, 0, 4096]]);
    let count = |l: &Vec<u64>, ns: u64| l[3 + super::super::stats::val_to_idx(ns)];
    // 50 ns twice and 2000 ns once, then 2000 once, then 50 twice.
    assert_eq!((count(&lines[0], 50), count(&lines[0], 2000)), (2, 1));
    assert_eq!((count(&lines[1], 50), count(&lines[1], 2000)), (0, 1));
    assert_eq!((count(&lines[2], 50), count(&lines[2], 2000)), (2, 0));
    assert_eq!(lines[2][3..].iter().sum::<u64>(), 2);
}

// Linux's /dev/full, and its errno.
#[cfg(unix)]
#[test]
fn a_log_that_cannot_be_written_is_an_error_naming_it() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        return;
    }
    let file = writer::LogFile::create(full.to_path_buf()).unwrap();
    let mut lines = writer::Lines::start(vec![file]).unwrap();
    // More than a batch and more than the file's buffer: the printer fails
    // while the worker goes on filling batches, and it is told at the end.
    for t in 0..100_000 {
        lines.push(writer::Sample {
            kind: LogKind::Bw,
            dir: Dir::Read,
            t_ms: t,
            value: 1,
            bs: 4096,
        });
    }
    let e = lines.finish().unwrap_err();
    assert_eq!(e.path, full);
    assert_eq!(e.source.raw_os_error(), Some(libc::ENOSPC));
    assert!(
        e.to_string().starts_with("/dev/full: cannot write the log"),
        "{e}"
    );
}
