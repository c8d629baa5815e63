//! `run_matrix` with the null engine: the rounds of repetitions, what the
//! progress bar is told, and the resume rule per repetition.

use std::cell::RefCell;

use super::repeat::{StopRule, StopVerdict};
use super::*;

/// A progress sink that writes down what it is told.
#[derive(Default)]
struct Recorder {
    plans: RefCell<Vec<(usize, Duration)>>,
    starts: RefCell<Vec<String>>,
    grown: RefCell<Vec<(usize, Duration)>>,
}

impl Progress for Recorder {
    fn plan(&self, points: usize, total: Duration) {
        self.plans.borrow_mut().push((points, total));
    }
    fn start(&self, job: &str, _: Duration) {
        self.starts.borrow_mut().push(job.to_string());
    }
    fn tick(&self, _: Duration, _: Option<f64>) {}
    fn finish(&self) {}
    fn grow(&self, points: usize, more: Duration) {
        self.grown.borrow_mut().push((points, more));
    }
}

/// Null-engine options for `names`: 256 KiB size-based jobs that plan
/// `runtime_s` seconds each.
fn options(out: &Path, names: &[&str], runtime_s: u64, time_based: bool) -> RunOptions {
    let jobs = names
        .iter()
        .map(|n| JobSpec {
            name: n.to_string(),
            size: 256 << 10,
            runtime_s,
            time_based,
            ..spec::tests::job()
        })
        .collect();
    RunOptions {
        jobs,
        engine: EngineChoice::Native(EngineKind::Null),
        engine_opts: EngineOptions::default(),
        targets: Vec::new(),
        placement: placement::PlacementRule::None,
        precondition: None,
        out_dir: out.to_path_buf(),
        label: "t".into(),
        force: false,
        destroy_data: false,
        repeat: Repeat::default(),
        log: None,
    }
}

#[test]
fn repetitions_run_in_rounds_and_the_bar_plans_them_all() {
    let dir = tempfile::tempdir().unwrap();
    let mut opts = options(dir.path(), &["a", "b"], 10, false);
    opts.repeat = Repeat::Times(3);
    let rec = Recorder::default();
    let s = run_matrix(&opts, &rec).unwrap();
    assert_eq!(*rec.plans.borrow(), [(6, Duration::from_secs(60))]);
    assert_eq!(
        *rec.starts.borrow(),
        ["a-r01", "b-r01", "a-r02", "b-r02", "a-r03", "b-r03"]
    );
    assert!(rec.grown.borrow().is_empty());
    let files: Vec<String> = s
        .results
        .iter()
        .map(|(_, p, _)| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        files,
        [
            "a-r01.json",
            "b-r01.json",
            "a-r02.json",
            "b-r02.json",
            "a-r03.json",
            "b-r03.json"
        ]
    );
    assert_eq!(s.repeats.iter().map(|r| r.ran).collect::<Vec<_>>(), [3, 3]);
    assert!(s.strays.is_empty());

    // A lost repetition is the only one measured again, and planned alone.
    std::fs::remove_file(dir.path().join("t/b-r02.json")).unwrap();
    let rec = Recorder::default();
    let s = run_matrix(&opts, &rec).unwrap();
    assert_eq!(*rec.plans.borrow(), [(1, Duration::from_secs(10))]);
    assert_eq!(*rec.starts.borrow(), ["b-r02"]);
    let kept = s.results.iter().filter(|r| r.2 == Outcome::Kept).count();
    assert_eq!(kept, 5);
}

#[test]
fn a_single_run_keeps_its_plain_name_and_label() {
    let dir = tempfile::tempdir().unwrap();
    let opts = options(dir.path(), &["a"], 10, false);
    let rec = Recorder::default();
    let s = run_matrix(&opts, &rec).unwrap();
    assert_eq!(*rec.starts.borrow(), ["a"]);
    assert_eq!(s.results[0].1, dir.path().join("t/a.json"));
    assert!(s.repeats.is_empty());
}

#[test]
fn until_stddev_plans_three_and_grows_the_bar_per_extra_repetition() {
    let dir = tempfile::tempdir().unwrap();
    // 1 s time-based runs never agree to 1e-9 %: all four run.
    let mut opts = options(dir.path(), &["a"], 1, true);
    opts.repeat = Repeat::UntilStddev(StopRule {
        target_pct: 1e-9,
        max: 4,
    });
    let rec = Recorder::default();
    let s = run_matrix(&opts, &rec).unwrap();
    assert_eq!(*rec.plans.borrow(), [(3, Duration::from_secs(3))]);
    assert_eq!(*rec.grown.borrow(), [(1, Duration::from_secs(1))]);
    assert_eq!(rec.starts.borrow().len(), 4);
    assert_eq!(s.repeats[0].ran, 4);
    assert_eq!(s.repeats[0].verdict, Some(StopVerdict::MaxReached));

    // Kept results count: a rerun with a target they meet measures nothing.
    opts.repeat = Repeat::UntilStddev(StopRule {
        target_pct: 1000.0,
        max: 4,
    });
    let rec = Recorder::default();
    let s = run_matrix(&opts, &rec).unwrap();
    assert_eq!(rec.plans.borrow()[0].0, 0);
    assert!(rec.starts.borrow().is_empty());
    assert_eq!(s.repeats[0].verdict, Some(StopVerdict::Met));
    assert_eq!(s.repeats[0].ran, 3);
    // The fourth is named: analyze would count it.
    assert_eq!(s.strays, [dir.path().join("t/a-r04.json")]);
}

#[test]
fn every_target_gets_its_own_job_in_one_result() {
    let dir = tempfile::tempdir().unwrap();
    let mut opts = options(dir.path(), &["a"], 1, false);
    opts.targets = ["t1", "t2", "t3"].iter().map(PathBuf::from).collect();
    opts.jobs[0].numjobs = 2;
    let allowed = affinity::allowed_cpus().unwrap();
    let first = placement::CpuList::parse(&allowed.cpus()[0].to_string()).unwrap();
    opts.placement = placement::PlacementRule::CpusAllowed(first.clone());
    let s = run_matrix(&opts, &NoProgress).unwrap();
    assert_eq!(s.results.len(), 1);
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&s.results[0].1).unwrap()).unwrap();
    let jobs = v["jobs"].as_array().unwrap();
    let files: Vec<&str> = jobs
        .iter()
        .map(|j| j["job options"]["filename"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["t1", "t2", "t3"]);
    for (g, j) in jobs.iter().enumerate() {
        assert_eq!(j["groupid"], g);
        assert_eq!(j["job options"]["numjobs"], "2");
        assert_eq!(j["job options"]["cpus_allowed"], first.to_string());
        // Each target's two threads did the job's 256 KiB each.
        assert_eq!(j["read"]["io_bytes"], 2 * (256 << 10));
    }
    // Other targets are another measurement: not kept on a rerun.
    opts.targets.pop();
    let again = run_matrix(&opts, &NoProgress).unwrap();
    assert_eq!(again.results[0].2, Outcome::Written);
}
