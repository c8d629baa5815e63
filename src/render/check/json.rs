//! `--format json`: the report as one JSON document.
//!
//! ```text
//! { "status": "pass" | "fail" | "error", "errors": [str, ...],
//!   "regressions": n, "improvements": n,
//!   "missing_workloads": ["randwrite 4k write", ...], "caution": str|null,
//!   "findings": [ { "workload": "randread 4k read", "rw", "bs_bytes",
//!     "direction", "metric", "better", "baseline", "candidate",
//!     "change_pct", "threshold_pct", "verdict", "rule", "reason",
//!     "p_value", "spread_source", "fails" } ],
//!   "skipped": [ { "source", "reason" } ], "warnings": [ ... ] }
//! ```

use std::io::Write;

use serde_json::{Value, json};

use super::CheckRenderer;
use crate::check::{CheckReport, Verdict};

pub struct CheckJson;

impl CheckRenderer for CheckJson {
    fn render(&self, report: &CheckReport, out: &mut dyn Write) -> anyhow::Result<()> {
        let findings: Vec<Value> = report
            .findings
            .iter()
            .map(|f| {
                let mut v = serde_json::to_value(f)?;
                if let Value::Object(map) = &mut v {
                    map.insert("reason".into(), f.reason().into());
                    map.shift_insert(0, "workload".into(), f.workload().into());
                }
                Ok(v)
            })
            .collect::<Result<_, serde_json::Error>>()?;
        let doc = json!({
            "status": report.status().as_str(),
            "errors": report.errors,
            "regressions": report.count(Verdict::Regression),
            "improvements": report.count(Verdict::Improvement),
            "missing_workloads": report.missing_workloads(),
            "caution": report.caution(),
            "findings": findings,
            "skipped": report.skipped,
            "warnings": report.warnings,
        });
        serde_json::to_writer_pretty(&mut *out, &doc)?;
        writeln!(out)?;
        Ok(())
    }
}
