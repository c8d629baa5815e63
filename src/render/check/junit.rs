//! `--junit FILE`: one testcase per workload and metric, a failure for
//! each finding that fails the check; the JUnit XML that GitLab, Jenkins
//! and GitHub test reporters read.

use std::io::Write;

use super::{CheckRenderer, Outcome};
use crate::check::{CheckReport, Verdict};
use crate::render::table::xml_escape;

pub struct Junit;

impl CheckRenderer for Junit {
    fn render(&self, report: &CheckReport, out: &mut dyn Write) -> anyhow::Result<()> {
        self.write(report, out)
    }
}

impl Junit {
    /// Any gate's outcome (`check`, `check --history`) as JUnit XML.
    pub fn write(&self, report: &dyn Outcome, out: &mut dyn Write) -> anyhow::Result<()> {
        let lines = report.lines();
        let failures = lines.iter().filter(|f| f.fails).count();
        let skipped = lines
            .iter()
            .filter(|f| matches!(f.verdict, Verdict::Missing | Verdict::New) && !f.fails)
            .count();
        // Unusable input is one test case in error: the gate could not judge.
        let errors = usize::from(!report.errors().is_empty());
        let n = lines.len() + errors;
        writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
        writeln!(
            out,
            r#"<testsuites name="nvcmp check" tests="{n}" failures="{failures}" errors="{errors}">"#
        )?;
        writeln!(
            out,
            r#"  <testsuite name="nvcmp check" tests="{n}" failures="{failures}" errors="{errors}" skipped="{skipped}">"#
        )?;
        if errors > 0 {
            let detail = xml_escape(&report.errors().join("; "));
            writeln!(
                out,
                r#"    <testcase classname="nvcmp check" name="input">"#
            )?;
            writeln!(
                out,
                r#"      <error type="unusable input" message="{detail}">{detail}</error>"#
            )?;
            writeln!(out, "    </testcase>")?;
        }
        for f in &lines {
            let name = xml_escape(&f.metric);
            let class = xml_escape(&f.workload);
            let detail = xml_escape(&format!(
                "{} {}: {} -> {} ({}), {}",
                f.workload, f.metric, f.baseline, f.candidate, f.change, f.reason
            ));
            if f.fails {
                writeln!(out, r#"    <testcase classname="{class}" name="{name}">"#)?;
                writeln!(
                    out,
                    r#"      <failure type="{}" message="{detail}">{detail}</failure>"#,
                    f.verdict.as_str()
                )?;
                writeln!(out, "    </testcase>")?;
            } else if matches!(f.verdict, Verdict::Missing | Verdict::New) {
                writeln!(out, r#"    <testcase classname="{class}" name="{name}">"#)?;
                writeln!(out, r#"      <skipped message="{detail}"/>"#)?;
                writeln!(out, "    </testcase>")?;
            } else {
                writeln!(
                    out,
                    r#"    <testcase classname="{class}" name="{name}"><system-out>{detail}</system-out></testcase>"#
                )?;
            }
        }
        writeln!(out, "  </testsuite>")?;
        writeln!(out, "</testsuites>")?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_markup() {
        assert_eq!(
            super::xml_escape(r#"a<b & "c""#),
            "a&lt;b &amp; &quot;c&quot;"
        );
        // XML 1.0 holds no ESC: a terminal colour code in a config name
        // is dropped, tabs and line breaks stay.
        assert_eq!(super::xml_escape("\u{1b}[31mred\tx\n"), "[31mred\tx\n");
    }
}
