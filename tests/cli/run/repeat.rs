//! `nvcmp run --repeat N` and `--until-stddev PCT --max-repeats N`: one
//! result per repetition, run in rounds, kept on a rerun, read back by
//! `analyze` as repeated runs with their spread; the stopping rule's
//! report and warnings; flags that do not go together.

use super::*;
use crate::common::{analyze_json, metric_of};

/// IOPS of one result file (read and write).
fn iops(p: &Path) -> f64 {
    let job = &read_json(p)["jobs"][0];
    f(job, "/read/iops") + f(job, "/write/iops")
}

#[test]
fn repeat_writes_a_file_per_repetition_in_rounds_and_analyze_sees_the_spread() {
    let t = tmp();
    // 64 MiB through the null engine: some ms per run, so runs differ.
    let args = words("--iodepth 1,4 --size 64m --size-based --repeat 3 --label rep");
    let o = run_engine("null", &args, &t.out).unwrap();
    let err = stderr(&o);
    // Rounds: every point once, then every point again.
    let order = [
        "qd1-j1-r01",
        "qd4-j1-r01",
        "qd1-j1-r02",
        "qd4-j1-r02",
        "qd1-j1-r03",
        "qd4-j1-r03",
    ];
    let wrote = lines_with(&err, "wrote");
    assert_eq!(wrote.len(), 6, "{err}");
    for (line, rep) in wrote.iter().zip(order) {
        assert!(line.ends_with(&format!("randread-4k-{rep}.json")), "{err}");
    }
    let dir = t.out.join("rep");
    assert_eq!(json_names(&dir).len(), 6);
    assert!(
        err.contains("randread-4k-qd4-j1: 3 repetitions, IOPS relative stddev"),
        "{err}"
    );

    // analyze: three runs of one config per point, their spread from the files.
    let v = analyze_json(&t.out, &[]);
    for qd in [1, 4] {
        let w = v["workloads"]
            .as_array()
            .unwrap()
            .iter()
            .find(|w| w["iodepth"] == qd)
            .unwrap_or_else(|| panic!("no qd{qd} workload in {v}"));
        let s = &metric_of(w, "iops")["spread"]["rep"];
        assert_eq!(s["n"], 3, "{s}");
        assert_eq!(s["source"], "runs");
        let vals: Vec<f64> = (1..=3)
            .map(|k| iops(&dir.join(format!("randread-4k-qd{qd}-j1-r0{k}.json"))))
            .collect();
        let mean = vals.iter().sum::<f64>() / 3.0;
        let sd = (vals.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 2.0).sqrt();
        assert!(
            (f(s, "/mean") - mean).abs() <= 1e-6 * mean,
            "{s} vs {vals:?}"
        );
        assert!(
            (f(s, "/stddev") - sd).abs() <= 1e-6 * mean,
            "{s} vs {vals:?}"
        );
    }

    // The same run again keeps all six; --force measures them again.
    let first = std::fs::read(dir.join("randread-4k-qd1-j1-r02.json")).unwrap();
    let o = run_engine("null", &args, &t.out).unwrap();
    let err = stderr(&o);
    assert_eq!(lines_with(&err, "kept").len(), 6, "{err}");
    assert!(lines_with(&err, "wrote").is_empty(), "{err}");
    assert_eq!(
        std::fs::read(dir.join("randread-4k-qd1-j1-r02.json")).unwrap(),
        first
    );
    let forced = [&args[..], &["--force"]].concat();
    let err = stderr(&run_engine("null", &forced, &t.out).unwrap()).into_owned();
    assert_eq!(lines_with(&err, "wrote").len(), 6, "{err}");

    // Fewer repetitions keep the first two and name the third, which
    // analyze would still count.
    let two = words("--iodepth 1,4 --size 64m --size-based --repeat 2 --label rep");
    let err = stderr(&run_engine("null", &two, &t.out).unwrap()).into_owned();
    assert_eq!(lines_with(&err, "kept").len(), 4, "{err}");
    let strays: Vec<&str> = err.lines().filter(|l| l.contains("earlier run")).collect();
    assert_eq!(strays.len(), 2, "{err}");
    assert!(strays.iter().all(|l| l.contains("-r03.json")), "{err}");
}

#[test]
fn no_repeat_flag_and_repeat_one_keep_the_plain_name() {
    let t = tmp();
    let args = words("--size 256k --size-based --label one --repeat 1");
    let o = run_engine("null", &args, &t.out).unwrap();
    assert_eq!(json_names(&t.out.join("one")), ["randread-4k-qd32-j1.json"]);
    assert!(!stderr(&o).contains("repetitions"), "{}", stderr(&o));
    // A plain run afterwards finds it current.
    let plain = words("--size 256k --size-based --label one");
    let o = run_engine("null", &plain, &t.out).unwrap();
    assert_eq!(lines_with(&stderr(&o), "kept").len(), 1);
}

#[test]
fn until_stddev_stops_at_three_when_met_and_warns_at_max_repeats() {
    let t = tmp();
    // Any three runs are within 1000 %: exactly three files.
    let met = words("--size 64m --size-based --until-stddev 1000 --max-repeats 6 --label met");
    let o = run_engine("null", &met, &t.out).unwrap();
    let err = stderr(&o);
    assert_eq!(json_names(&t.out.join("met")).len(), 3, "{err}");
    assert!(
        err.contains("3 repetitions") && err.contains("(target 1000 %: met)"),
        "{err}"
    );
    assert!(
        err.contains("until-stddev 1000 %: 1 of 1 job met it; 0 reached"),
        "{err}"
    );
    assert!(!err.contains("warning"), "{err}");

    // 1 s time-based runs never agree to 1e-6 %: all four run, a warning
    // says so, and the exit is still 0.
    let loose = words("--runtime 1 --size 1m --until-stddev 0.000001 --max-repeats 4 --label max");
    let o = run_engine("null", &loose, &t.out).unwrap();
    let err = stderr(&o);
    assert_eq!(json_names(&t.out.join("max")).len(), 4, "{err}");
    let warn = err
        .lines()
        .find(|l| l.starts_with("nvcmp: warning: randread-4k-qd32-j1: --max-repeats 4 reached"))
        .unwrap_or_else(|| panic!("no max-repeats warning: {err}"));
    // The warning's figure is the spread of the four files.
    let vals: Vec<f64> = (1..=4)
        .map(|k| iops(&t.out.join(format!("max/randread-4k-qd32-j1-r0{k}.json"))))
        .collect();
    let mean = vals.iter().sum::<f64>() / 4.0;
    let sd = (vals.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 3.0).sqrt();
    assert!(
        warn.contains(&format!("{:.2} %", 100.0 * sd / mean)),
        "{warn} vs {vals:?}"
    );
    assert!(
        err.contains("0 of 1 job met it; 1 reached --max-repeats 4"),
        "{err}"
    );
}

#[test]
fn repeat_flags_that_do_not_go_together_name_the_fix() {
    for (args, needle) in [
        (
            vec!["--repeat", "3", "--until-stddev", "3.5"],
            "cannot be combined",
        ),
        (vec!["--max-repeats", "5"], "needs --until-stddev"),
        (
            vec!["--until-stddev", "3.5", "--max-repeats", "2"],
            "--repeat 2",
        ),
        (vec!["--until-stddev", "zero"], "expected a percentage"),
        (vec!["--until-stddev=-1"], "expected a percentage"),
        (vec!["--repeat", "0"], "--repeat 0"),
    ] {
        let t = tmp();
        let args = [
            &["--engine", "null", "--size", "256k", "--size-based"],
            &args[..],
        ]
        .concat();
        let o = nvcmp_run(&args, None, &t.out);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains(needle) && err.lines().count() == 1,
            "{args:?}: {err}"
        );
        assert!(!t.out.exists(), "{args:?} wrote results");
    }
}

#[test]
fn each_repetition_keeps_its_own_logs() {
    let t = tmp();
    let args = words("--runtime 1 --size 1m --repeat 2 --log --label lg");
    run_engine("null", &args, &t.out).unwrap();
    let dir = t.out.join("lg");
    for k in 1..=2 {
        let stem = format!("randread-4k-qd32-j1-r0{k}");
        let job = &read_json(&dir.join(format!("{stem}.json")))["jobs"][0];
        // The result names its repetition, and its logs by the same name.
        assert_eq!(job["jobname"], stem.as_str());
        assert_eq!(job["job options"]["write_bw_log"], stem.as_str());
        let log = dir.join(format!("{stem}_bw.1.log"));
        let lines =
            std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{}: {e}", log.display()));
        assert!(lines.lines().count() >= 1, "{} is empty", log.display());
    }
}
