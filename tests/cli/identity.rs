//! A study's configurations wherever it keeps them (issue #53), on real
//! fio runs made here (fixtures/identity/, `make-identity-fixtures.sh`):
//! configs told by file names, job names, folders and versioned words;
//! repeats pooled only on evidence (run marks, dated folders); roles
//! (`-cpu` beside `-bench`) in their config; and the reading said.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common::{
    analyze_json, analyze_json_and_stderr, assert_ok, fixture, metric_of, nvcmp, stderr,
};

fn analyze(rel: &str) -> Value {
    analyze_json(&fixture(&format!("identity/{rel}")), &[])
}

/// `nvcmp analyze PATH --explain EXTRA...`'s stdout, the run succeeded.
fn explain(path: &std::path::Path, extra: &[&str]) -> String {
    let out = nvcmp()
        .arg("analyze")
        .arg(path)
        .args(extra)
        .arg("--explain")
        .output()
        .unwrap();
    assert_ok(&out);
    String::from_utf8(out.stdout).unwrap()
}

fn configs(j: &Value) -> BTreeSet<String> {
    j["configs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// Each file's configs in `study.placed`.
fn placed(j: &Value) -> Vec<(String, Vec<String>)> {
    j["study"]["placed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let configs = f["configs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect();
            (f["source"].as_str().unwrap().to_string(), configs)
        })
        .collect()
}

/// The workload of `rw`, block size and depth.
fn workload<'a>(j: &'a Value, rw: &str, bs: u64, depth: u64) -> &'a Value {
    j["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["rw"] == rw && w["bs_bytes"] == bs && w["iodepth"] == depth)
        .unwrap_or_else(|| panic!("no {rw} {bs} QD{depth}"))
}

/// fio's own IOPS of `job`'s `dir` in a fixture file.
fn fio_iops(rel: &str, job: &str, dir: &str) -> f64 {
    let text = std::fs::read_to_string(fixture(&format!("identity/{rel}"))).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let job = v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["jobname"] == job)
        .unwrap();
    job[dir]["iops"].as_f64().unwrap()
}

#[test]
fn file_names_tell_three_configs_where_two_share_every_option_and_a_path() {
    let j = analyze("fs");
    assert_eq!(configs(&j), set(&["raw-block", "ext4", "xfs"]));
    // fio's own figure per config, nothing averaged across file systems.
    let w = workload(&j, "randread", 4096, 64);
    let iops = &metric_of(w, "iops")["values"];
    for (config, file) in [
        ("ext4", "fs/kernel-5.4.0-ext4-default-benchmark.json"),
        ("xfs", "fs/kernel-5.4.0-xfs-default-benchmark.json"),
        ("raw-block", "fs/raw-block-benchmark.json"),
    ] {
        let want = fio_iops(file, "read-rand-iops", "read");
        let got = iops[config].as_f64().unwrap();
        assert!(
            (got - want).abs() <= want * 1e-9,
            "{config}: {got} against fio's {want}"
        );
    }
    // The idle-profiling run of each config is in that config: whole-system
    // CPU from fio's cpu_idleness, not a config of its own.
    let cpu = workload(&j, "randrw", 512, 256);
    let cpu_iops = &metric_of(cpu, "iops")["values"];
    for c in ["raw-block", "ext4", "xfs"] {
        assert!(cpu_iops[c].as_f64().is_some(), "{c}: {cpu_iops}");
    }
    // Nothing pooled as repeats; the note says what was kept apart and the
    // role.
    assert_eq!(j["study"]["repeats"], serde_json::json!([]));
    let notes = j["config_rule"]["notes"].to_string();
    assert!(notes.contains("kept apart as configs"), "{notes}");
    assert!(
        notes.contains("ext4 / ") && notes.contains("xfs"),
        "{notes}"
    );
    assert_eq!(j["study"]["roles"], serde_json::json!(["benchmark", "cpu"]));
    for (source, configs) in placed(&j) {
        let config = &configs[0];
        assert_eq!(configs.len(), 1, "{source}");
        assert!(source.contains(config.as_str()), "{source} in {config}");
    }
}

#[test]
fn the_study_measured_twice_in_dated_folders_pools_each_config_never_two() {
    let j = analyze("twice");
    assert_eq!(configs(&j), set(&["raw-block", "ext4", "xfs"]));
    let repeats = j["study"]["repeats"].as_array().unwrap();
    assert_eq!(repeats.len(), 3, "{repeats:?}");
    for r in repeats {
        assert_eq!(r["runs"], 2, "{r}");
        // Four benchmark jobs and the idle-profiling one (read and write), each twice.
        assert_eq!(r["points"], 6, "{r}");
        // The folders' dates (2024-01-05, 2024-01-07) differ in their numbers.
        assert!(
            r["evidence"]
                .as_str()
                .unwrap()
                .contains("numbers (05 / 07)"),
            "{r}"
        );
    }
    let notes = j["config_rule"]["notes"].to_string();
    assert!(notes.contains("pooled as repeats"), "{notes}");
    // Every file in the config its name says, none in two.
    for (source, configs) in placed(&j) {
        assert_eq!(configs.len(), 1, "{source}");
        assert!(
            source.contains(configs[0].as_str()),
            "{source} in {configs:?}"
        );
    }
}

#[test]
fn job_names_within_one_file_tell_configs() {
    let j = analyze("jobs");
    assert_eq!(configs(&j), set(&["ext4", "xfs"]));
    assert_eq!(j["workloads"].as_array().unwrap().len(), 2);
    assert_eq!(j["study"]["repeats"], serde_json::json!([]));
    let w = workload(&j, "write", 131072, 8);
    let iops = &metric_of(w, "iops")["values"];
    assert_eq!(
        iops["xfs"].as_f64().unwrap(),
        fio_iops("jobs/all.json", "xfs-write", "write")
    );
}

#[test]
fn folders_tell_configs() {
    let j = analyze("folders");
    assert_eq!(configs(&j), set(&["none", "mq-deadline"]));
    assert_eq!(j["study"]["repeats"], serde_json::json!([]));
}

#[test]
fn files_named_alike_but_for_run_marks_are_repeats() {
    let j = analyze("repeats");
    assert_eq!(j["configs"].as_array().unwrap().len(), 1);
    let repeats = j["study"]["repeats"].as_array().unwrap();
    assert_eq!(repeats.len(), 1);
    assert_eq!(repeats[0]["runs"], 2);
    let evidence = repeats[0]["evidence"].as_str().unwrap();
    assert!(
        evidence.contains("repeat marks") && evidence.contains("run1"),
        "{evidence}"
    );
}

#[test]
fn a_role_word_keeps_each_cpu_file_in_its_config() {
    let j = analyze("roles");
    assert_eq!(configs(&j), set(&["sata", "nvme"]));
    assert_eq!(j["study"]["roles"], serde_json::json!(["bench", "cpu"]));
    let cpu = workload(&j, "randrw", 512, 256);
    let iops = &metric_of(cpu, "iops")["values"];
    assert!(
        iops["sata"].as_f64().is_some() && iops["nvme"].as_f64().is_some(),
        "{iops}"
    );
}

#[test]
fn versioned_words_are_words_not_numbers_to_strip() {
    let j = analyze("kernel");
    assert_eq!(configs(&j), set(&["kernel-5.4", "kernel-6.8"]));
    assert_eq!(j["study"]["repeats"], serde_json::json!([]));
}

/// `--explain` on the ICPE'24 scheduler study fits a screen and names the
/// scheduler; on the file-system study it names the configs by their
/// words and the roles.
#[test]
fn explain_says_how_the_study_was_read_on_one_screen() {
    let text = explain(&fixture("studies/icpe24-schedulers-1ssd"), &[]);
    assert!(text.lines().count() <= 24, "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 260), "{text}");
    assert!(
        text.contains("Set apart by: ioengine") && text.contains("ioscheduler (5 values"),
        "{text}"
    );
    let text = explain(&fixture("identity/fs"), &[]);
    assert!(text.lines().count() <= 24, "{text}");
    assert!(text.starts_with("6 files read as 3 configs"), "{text}");
    for word in [
        "raw-block",
        "ext4",
        "xfs",
        "file name=ext4",
        "Roles",
        "cpu",
        "kept apart as configs",
    ] {
        assert!(text.contains(word), "{word}: {text}");
    }
}

/// Repeats that disagree beyond noise: ssd-run1.json as fio wrote it and
/// a copy with its IOPS and bandwidth doubled (made by this test).
#[test]
fn pooled_repeats_that_disagree_are_warned_of_by_file() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("identity/repeats/ssd-run1.json")).unwrap();
    std::fs::write(dir.path().join("ssd-run1.json"), &text).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    let read = &mut v["jobs"][0]["read"];
    for k in ["iops", "bw", "bw_bytes", "iops_mean"] {
        if let Some(x) = read[k].as_f64() {
            read[k] = serde_json::json!(x * 2.0);
        }
    }
    std::fs::write(dir.path().join("ssd-run2.json"), v.to_string()).unwrap();
    let out = nvcmp()
        .arg("analyze")
        .arg(dir.path())
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_ok(&out);
    let err = stderr(&out);
    assert!(
        err.contains("pooled as repeats")
            && err.contains("ssd-run1.json")
            && err.contains("ssd-run2.json")
            && err.contains("100 % apart"),
        "{err}"
    );
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["study"]["disagreeing"].as_array().unwrap().len(), 1);
    // Their spread is shown (no tie is drawn from it: compare's
    // repeats_that_disagree_show_their_spread_but_draw_no_tie).
    let w = &j["workloads"][0];
    let config = j["configs"][0].as_str().unwrap();
    assert_eq!(metric_of(w, "iops")["spread"][config]["n"], 2, "{w}");
}

/// `ssd-run1.json` of fixtures/identity/repeats with its read IOPS and
/// bandwidth scaled by `factor` (1.0: as fio wrote it).
fn scaled_run(name: &str, factor: f64) -> String {
    let text = std::fs::read_to_string(fixture(&format!("identity/repeats/{name}"))).unwrap();
    if factor == 1.0 {
        return text;
    }
    let mut v: Value = serde_json::from_str(&text).unwrap();
    let read = &mut v["jobs"][0]["read"];
    for k in ["iops", "bw", "bw_bytes", "iops_mean", "bw_mean"] {
        if let Some(x) = read[k].as_f64() {
            read[k] = serde_json::json!(x * factor);
        }
    }
    v.to_string()
}

/// A word nvcmp does not know as a repeat mark (`attempt1`, `attempt2`)
/// keeps runs apart as configs; `--repeats attempt` (or the manifest's
/// `repeats`) says it marks repeats, and they are pooled, on that
/// evidence.
#[test]
fn repeats_names_the_word_that_marks_repeats() {
    let dir = tempfile::tempdir().unwrap();
    for (name, from) in [
        ("ssd-attempt1.json", "ssd-run1.json"),
        ("ssd-attempt2.json", "ssd-run2.json"),
    ] {
        std::fs::write(dir.path().join(name), scaled_run(from, 1.0)).unwrap();
    }
    let (j, _) = analyze_json_and_stderr(dir.path(), &[]);
    assert_eq!(configs(&j), set(&["attempt1", "attempt2"]));
    assert_eq!(j["study"]["repeats"], serde_json::json!([]));
    let (j, _) = analyze_json_and_stderr(dir.path(), &["--repeats", "attempt"]);
    assert_eq!(
        j["configs"].as_array().unwrap().len(),
        1,
        "{}",
        j["configs"]
    );
    let repeats = j["study"]["repeats"].as_array().unwrap();
    assert_eq!(repeats.len(), 1, "{repeats:?}");
    assert_eq!(repeats[0]["runs"], 2);
    let evidence = repeats[0]["evidence"].as_str().unwrap();
    assert!(
        evidence.contains("what --repeats declares") && evidence.contains("attempt1"),
        "{evidence}"
    );
    assert_eq!(
        j["study"]["declared_repeats"],
        serde_json::json!(["attempt"])
    );
    // The manifest says the same.
    std::fs::write(dir.path().join("nvcmp.toml"), "repeats = [\"attempt\"]\n").unwrap();
    let (j, _) = analyze_json_and_stderr(dir.path(), &[]);
    assert_eq!(
        j["configs"].as_array().unwrap().len(),
        1,
        "{}",
        j["configs"]
    );
    // A value that is not one word is refused, naming it.
    std::fs::write(dir.path().join("nvcmp.toml"), "repeats = [\"at-tempt\"]\n").unwrap();
    let out = nvcmp().arg("analyze").arg(dir.path()).output().unwrap();
    assert!(
        !out.status.success() && stderr(&out).contains("at-tempt"),
        "{}",
        stderr(&out)
    );
    let out = nvcmp()
        .args(["analyze", "--repeats", "folder:0"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// Folders that are days of one study (`monday/`, `tuesday/`) are configs
/// until `--repeats folder` says that level repeats; then each config's
/// runs of both days are pooled, and `--explain` says what was declared.
#[test]
fn repeats_names_the_folder_level_that_repeats() {
    let dir = tempfile::tempdir().unwrap();
    for (day, from) in [("monday", "ssd-run1.json"), ("tuesday", "ssd-run2.json")] {
        std::fs::create_dir(dir.path().join(day)).unwrap();
        std::fs::write(dir.path().join(day).join("ssd.json"), scaled_run(from, 1.0)).unwrap();
    }
    let (j, _) = analyze_json_and_stderr(dir.path(), &[]);
    assert_eq!(configs(&j), set(&["monday", "tuesday"]));
    for flag in ["folder", "folder:1"] {
        let (j, _) = analyze_json_and_stderr(dir.path(), &["--repeats", flag]);
        assert_eq!(
            j["configs"].as_array().unwrap().len(),
            1,
            "{flag}: {}",
            j["configs"]
        );
        let repeats = j["study"]["repeats"].as_array().unwrap();
        assert_eq!(repeats.len(), 1, "{flag}: {repeats:?}");
        assert_eq!(repeats[0]["runs"], 2, "{flag}");
        assert!(
            repeats[0]["evidence"]
                .as_str()
                .unwrap()
                .contains("--repeats"),
            "{flag}: {}",
            repeats[0]
        );
    }
    let text = explain(dir.path(), &["--repeats", "folder"]);
    assert!(
        text.contains("2 files read as 1 config")
            && text.contains("Pooled as repeats (declared: folder)"),
        "{text}"
    );
}

/// Repeats 20 % apart (under the 25 % rule) whose spread is wider than
/// the 14 % gap to the next config: warned of by file, and no tie drawn
/// from their spread.
#[test]
fn pooled_repeats_wider_than_the_gap_to_the_next_config_are_warned_of() {
    let dir = tempfile::tempdir().unwrap();
    for d in ["a", "b"] {
        std::fs::create_dir(dir.path().join(d)).unwrap();
    }
    std::fs::write(
        dir.path().join("a/ssd-run1.json"),
        scaled_run("ssd-run1.json", 1.0),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("a/ssd-run2.json"),
        scaled_run("ssd-run1.json", 1.2),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("b/ssd-run1.json"),
        scaled_run("ssd-run1.json", 1.25),
    )
    .unwrap();
    let (j, err) = analyze_json_and_stderr(dir.path(), &[]);
    let err = err.replace('\\', "/");
    assert_eq!(configs(&j), set(&["a", "b"]));
    assert!(
        err.contains("wider than the gap")
            && err.contains("to b")
            && err.contains("a/ssd-run1.json")
            && err.contains("a/ssd-run2.json"),
        "{err}"
    );
    assert_eq!(j["study"]["disagreeing"].as_array().unwrap().len(), 1);
    let w = &j["workloads"][0];
    let iops = metric_of(w, "iops");
    assert_eq!(iops["winner"], "b", "{iops}");
    assert_ne!(iops["rule"], "not_significant", "{iops}");
}

/// A study of 3,000 files (60 configs by folder, each run 50 times,
/// `run1` .. `run50`; each file fixtures/identity/repeats/ssd-run1.json
/// with its IOPS moved a little, so that none is a copy) reads on one
/// screen under `--explain`: configs and pools counted past the first
/// twelve, every file still placed in the JSON.
#[test]
fn explain_of_a_3000_file_study_fits_one_screen() {
    let dir = tempfile::tempdir().unwrap();
    let letters: Vec<char> = ('a'..='z').collect();
    let mut n = 0;
    for c in 0..60 {
        let folder = format!("ssd{}{}", letters[c / 26], letters[c % 26]);
        std::fs::create_dir(dir.path().join(&folder)).unwrap();
        for r in 1..=50 {
            n += 1;
            let text = scaled_run("ssd-run1.json", 1.0 + n as f64 * 1e-5);
            std::fs::write(
                dir.path()
                    .join(&folder)
                    .join(format!("randread-run{r}.json")),
                text,
            )
            .unwrap();
        }
    }
    let text = explain(dir.path(), &[]);
    assert!(
        text.lines().count() <= 40,
        "{} lines:\n{text}",
        text.lines().count()
    );
    assert!(text.starts_with("3000 files read as 60 configs"), "{text}");
    assert!(text.contains("... and 48 more configs"), "{text}");
    assert!(text.contains("up to 50 runs"), "{text}");
    let (j, _) = analyze_json_and_stderr(dir.path(), &[]);
    assert_eq!(j["study"]["placed"].as_array().unwrap().len(), 3000);
}

/// `--explain` on the whole of fixtures/studies (the two ICPE'24 studies)
/// fits one screen and says the scheduler sets the configs apart.
#[test]
fn explain_of_the_published_studies_names_the_scheduler() {
    let text = explain(&fixture("studies"), &[]);
    assert!(
        text.lines().count() <= 40,
        "{} lines:\n{text}",
        text.lines().count()
    );
    let apart = text
        .lines()
        .find(|l| l.starts_with("Set apart by:"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(apart.contains("ioscheduler"), "{apart}");
}

/// `identity/headers/`: a script printed `DEVICE=`, `SCHEDULER=`,
/// `# kernel=`, `DATE=` and `RUN=` lines before fio's output (JSON in
/// json/, normal text in normal/); fio-1 and fio-2 ran identical options
/// and differ in SCHEDULER (and DATE, RUN). Copies with the SCHEDULER
/// line dropped (made by this test) pool as repeats: the header, not the
/// date or the run number, is what made the configs.
#[test]
fn captured_output_headers_name_configs_and_are_never_pooled() {
    for folder in ["json", "normal"] {
        let j = analyze(&format!("headers/{folder}"));
        // One key in one folder: named by its values, as `ioscheduler`'s
        // are (`bfq`); the rule keeps `scheduler=none`.
        assert_eq!(configs(&j), set(&["none", "mq-deadline"]), "{folder}");
        assert_eq!(j["config_rule"]["keys"], serde_json::json!(["scheduler"]));
        assert_eq!(
            j["config_rule"]["values"]["none"],
            serde_json::json!({"scheduler": "none"})
        );
        assert_eq!(j["study"]["repeats"], serde_json::json!([]), "{folder}");
        let notes = j["config_rule"]["notes"].to_string();
        assert!(
            notes.contains("captured-output headers differ (scheduler: mq-deadline / none)")
                && notes.contains("not pooled as repeats"),
            "{notes}"
        );
        let placed = placed(&j);
        assert!(
            placed.iter().any(
                |(s, c)| (s.ends_with("fio-1.json") || s.ends_with("fio-1.txt"))
                    && c == &["none".to_string()]
            ),
            "{placed:?}"
        );
    }
    let text = explain(&fixture("identity/headers"), &[]);
    assert!(
        text.starts_with("4 files read as 4 configs")
            && text.contains("Set apart by: scheduler (2 values: mq-deadline, none)")
            && text.contains("json scheduler=none"),
        "{text}"
    );
    // The same files without their SCHEDULER line: DATE and RUN differ,
    // DEVICE and kernel do not; one config, its two runs pooled.
    let dir = tempfile::tempdir().unwrap();
    for n in 1..=2 {
        let text = std::fs::read_to_string(fixture(&format!("identity/headers/json/fio-{n}.json")))
            .unwrap();
        assert!(text.starts_with("DEVICE=nvme0n1\nSCHEDULER="));
        let kept: String = text
            .split_inclusive('\n')
            .filter(|l| !l.starts_with("SCHEDULER="))
            .collect();
        std::fs::write(dir.path().join(format!("fio-{n}.json")), kept).unwrap();
    }
    let j = analyze_json(dir.path(), &[]);
    assert_eq!(
        j["configs"].as_array().unwrap().len(),
        1,
        "{}",
        j["configs"]
    );
    assert_eq!(j["study"]["repeats"][0]["runs"], 2, "{}", j["study"]);
}

/// One job's results in two output formats (issue #53, fourth item):
/// fixtures/fio/linux-libaio's `percentiles.json` and `percentiles.txt`
/// are two fio runs (make-fio-fixtures.sh's `both`: 63.8 MB against
/// 277.4 MB read), pooled and warned of as runs one per format, never as
/// "files of the same name"; fio2-handmade's `randread-4k.json` and
/// `.txt` hold the same figures: one run written twice, said so.
#[test]
fn one_job_in_two_formats_is_said_as_such() {
    let (j, err) = analyze_json_and_stderr(&fixture("fio/linux-libaio"), &[]);
    let pools = j["study"]["repeats"].as_array().unwrap();
    let pool = pools
        .iter()
        .find(|p| p["config"] == "percentiles")
        .unwrap_or_else(|| panic!("{pools:?}"));
    assert_eq!(
        pool["evidence"],
        "the same name in several output formats (percentiles.json / percentiles.txt)"
    );
    let warning = err
        .lines()
        .find(|l| l.contains("percentiles.txt") && l.contains("pooled as repeats"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        warning.contains("separate runs of one job, one per format"),
        "{warning}"
    );
    let j = analyze_json(&fixture("fio/fio2-handmade"), &[]);
    let evidence = j["study"]["repeats"][0]["evidence"].as_str().unwrap();
    assert!(
        evidence.starts_with("one fio run written in several formats, the same figures in each"),
        "{evidence}"
    );
    assert_eq!(j["study"]["disagreeing"], serde_json::json!([]));
}
