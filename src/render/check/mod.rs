//! Reports of a gate, one file per format: `check`'s terminal table and
//! JSON, and the CI reports (JUnit, Markdown, the GitHub step summary) of
//! both gates, `check` and `check --history` (through [`Outcome`]). Each
//! writes to a `Write` and never prints; none decides anything (the
//! verdicts are in the [`CheckReport`] and the history's `GateReport`).

mod json;
mod junit;
mod markdown;
mod term;

use std::io::Write;

use crate::check::{CheckFinding, CheckReport, Status, Verdict};
use crate::model::{Skipped, Warning};
use crate::numbers;

pub use json::CheckJson;
pub use junit::Junit;
pub use markdown::CheckMarkdown;
pub use term::CheckTerm;

/// One report format.
pub trait CheckRenderer {
    fn render(&self, report: &CheckReport, out: &mut dyn Write) -> anyhow::Result<()>;
}

/// The formats of `check`'s stdout, for both gates: `check`'s
/// [`CheckReport`] (through [`CheckFormat::renderer`]) and `check
/// --history`'s gate report ([`super::history::gate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckFormat {
    Term,
    Json,
}

impl CheckFormat {
    /// The renderer of `check`'s report; `only_failures` and `color` are
    /// the terminal table's.
    pub fn renderer(self, only_failures: bool, color: bool) -> Box<dyn CheckRenderer> {
        match self {
            CheckFormat::Term => Box::new(CheckTerm {
                only_failures,
                color,
            }),
            CheckFormat::Json => Box::new(CheckJson),
        }
    }
}

/// A CI report file of a gate (`--junit`, `--markdown`; the GitHub step
/// summary is Markdown): the one place its format is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CiFormat {
    Junit,
    Markdown,
}

impl CiFormat {
    /// Writes `outcome` in this format.
    pub fn write(self, outcome: &dyn Outcome, out: &mut dyn Write) -> anyhow::Result<()> {
        match self {
            CiFormat::Junit => Junit.write(outcome, out),
            CiFormat::Markdown => CheckMarkdown.write(outcome, out),
        }
    }
}

/// One judged value as the CI reports print it, every number already text.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportLine {
    pub workload: String,
    pub metric: String,
    pub baseline: String,
    pub candidate: String,
    pub change: String,
    pub verdict: Verdict,
    pub fails: bool,
    pub reason: String,
}

/// A gate's outcome as the CI reports ([`Junit`], [`CheckMarkdown`], the GitHub
/// step summary) show it: `check`'s [`CheckReport`] and `check --history`'s
/// gate report both, so the two gates write the same files.
pub trait Outcome {
    fn status(&self) -> Status;
    fn summary_line(&self) -> String;
    fn lines(&self) -> Vec<ReportLine>;
    /// Why the input cannot be trusted; empty when it can.
    fn errors(&self) -> &[String];
    fn caution(&self) -> Option<String> {
        None
    }
    fn skipped(&self) -> &[Skipped] {
        &[]
    }
    fn warnings(&self) -> &[Warning] {
        &[]
    }
}

impl Outcome for CheckReport {
    fn status(&self) -> Status {
        CheckReport::status(self)
    }
    fn summary_line(&self) -> String {
        CheckReport::summary_line(self)
    }
    fn lines(&self) -> Vec<ReportLine> {
        self.findings
            .iter()
            .map(|f| {
                let [baseline, candidate] = format_values(f);
                ReportLine {
                    workload: f.workload(),
                    metric: f.key.to_string(),
                    baseline,
                    candidate,
                    change: format_change(f),
                    verdict: f.verdict,
                    fails: f.fails,
                    reason: f.reason(),
                }
            })
            .collect()
    }
    fn errors(&self) -> &[String] {
        &self.errors
    }
    fn caution(&self) -> Option<String> {
        CheckReport::caution(self)
    }
    fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }
    fn warnings(&self) -> &[Warning] {
        &self.warnings
    }
}

/// A finding's baseline and candidate as every report prints them: the
/// two are one row, so one unit and one count of decimals, as in
/// `analyze`'s tables; [`numbers::MISSING`] where a side has no value.
pub fn format_values(f: &CheckFinding) -> [String; 2] {
    let row: Vec<(f64, f64)> = [
        (f.baseline, f.baseline_precision),
        (f.candidate, f.candidate_precision),
    ]
    .into_iter()
    .filter_map(|(v, p)| Some((v?, p)))
    .collect();
    let largest = row.iter().map(|(v, _)| v.abs()).fold(0.0, f64::max);
    let scale = f.metric.scale(largest);
    let decimals = f.metric.row_decimals(&scale, row);
    [f.baseline, f.candidate].map(|v| match v {
        Some(v) => scale.unit_after(scale.fixed(v, decimals)),
        None => numbers::MISSING.into(),
    })
}

/// `-15.0 %`, `+2.3 %`, `-0.40 %` ([`numbers::lone_change`]), or
/// [`numbers::MISSING`] when undefined.
pub fn format_change(f: &CheckFinding) -> String {
    match f.change_pct {
        // Past +1000 % a ratio, as the tables print it.
        Some(c) => numbers::lone_change(c),
        None if f.baseline.is_some() && f.candidate.is_some() => "from 0".into(),
        None => numbers::MISSING.into(),
    }
}

/// The findings a report shows: all, or only those that fail.
fn shown(report: &CheckReport, only_failures: bool) -> impl Iterator<Item = &CheckFinding> {
    report
        .findings
        .iter()
        .filter(move |f| !only_failures || f.fails)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::check::{CheckRule, Verdict};
    use crate::compare::workload::{LoadPoint, Shape};
    use crate::compare::{Better, Metric};
    use crate::model::Direction;

    fn finding(metric: Metric, baseline: Option<f64>, candidate: Option<f64>) -> CheckFinding {
        CheckFinding {
            shape: Shape::new("randread", 4096, Direction::Read, None),
            load: Some(LoadPoint::of(1, 1)),
            sweep: None,
            load_in_name: false,
            metric,
            key: metric.key().into(),
            better: Better::Higher,
            baseline,
            candidate,
            baseline_precision: 1.0,
            candidate_precision: 1.0,
            change_pct: None,
            threshold_pct: 5.0,
            verdict: Verdict::Unchanged,
            rule: CheckRule::WithinThreshold,
            p_value: None,
            spread_source: None,
            fails: false,
            invalid_reason: None,
        }
    }

    fn values(metric: Metric, b: Option<f64>, c: Option<f64>) -> [String; 2] {
        format_values(&finding(metric, b, c))
    }

    #[test]
    fn a_finding_is_a_row_of_two() {
        assert_eq!(
            values(Metric::Iops, Some(320_457.04), Some(999.0)),
            ["320,457", "999"]
        );
        // fio's exact floats: four significant digits of the larger, the
        // same decimals for the other.
        assert_eq!(
            values(Metric::LatMeanNs, Some(2_510.345_678), Some(12_781.234_5)),
            ["2.51 µs", "12.78 µs"]
        );
        assert_eq!(
            values(Metric::LatMeanNs, Some(1_500_000.0), Some(1_498_765.432_1)),
            ["1.500 ms", "1.499 ms"]
        );
        let mib = 1_048_576.0;
        assert_eq!(
            values(Metric::BwBytesPerS, Some(1354.9 * mib), Some(1064.0 * mib)),
            ["1.323 GiB/s", "1.039 GiB/s"]
        );
        assert_eq!(
            values(Metric::LatMeanNs, None, Some(2_000.0)),
            ["–", "2 µs"]
        );
    }

    #[test]
    fn changes_are_signed() {
        let mut f = finding(Metric::Iops, Some(100.0), Some(85.0));
        f.change_pct = Some(-15.0);
        assert_eq!(format_change(&f), "-15.0 %");
        f.change_pct = Some(0.4);
        assert_eq!(format_change(&f), "+0.40 %");
        // Past +1000 % the ratio, as analyze's tables print it.
        f.change_pct = Some(156_366_496.5);
        assert_eq!(format_change(&f), "x1,563,666");
        f.change_pct = Some(1000.0);
        assert_eq!(format_change(&f), "+1,000.0 %");
        f.change_pct = None;
        assert_eq!(format_change(&f), "from 0");
        f.baseline = None;
        assert_eq!(format_change(&f), "–");
    }
}
