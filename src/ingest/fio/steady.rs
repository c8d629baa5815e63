//! fio's steady-state verdict (`--steadystate`, `ss_dur`, `ss_ramp`), as
//! its writer in `stat.c` prints it:
//!
//! - JSON, per job: `"steadystate": {"ss": "iops:30.000000%", "duration": 3,
//!   "attained": 1, "criterion": "16.055323%", "max_deviation": 2136.0,
//!   "slope": 0.0, "data": {"bw_mean": 54494050, "iops_mean": 13304,
//!   "iops": [...], "bw": [...]}}`. `ss` is the rule asked for (metric,
//!   `_slope` or a mean-deviation limit, `%` when relative); `criterion` is
//!   what was measured over the last window; `duration` is the window in
//!   seconds; `data` holds the window's per-second samples (bw in bytes/s)
//!   and their means.
//! - Normal text: `steadystate  : attained=yes, bw=46.5MiB/s (47.6MB/s),
//!   iops=11.9k, bw mean dev=1.994%` (the limit asked for is not printed).

use serde_json::Value;

use crate::model::Row;

/// What fio said about one job's steady state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SteadyVerdict {
    pub attained: bool,
    /// The rule: `iops:30%`, `bw_slope:0.1%`; from text only the metric and
    /// kind (`bw mean dev`), fio does not print the limit there.
    pub rule: String,
    /// The measured criterion over the window, as fio prints it (`16.06%`).
    pub measured: Option<String>,
    /// Window length, ms (JSON only).
    pub duration_ms: Option<f64>,
    /// Window means: IOPS and bytes/s (JSON only).
    pub iops: Option<f64>,
    pub bw_bytes_per_s: Option<f64>,
}

impl SteadyVerdict {
    /// Copies the verdict into a row of the job.
    pub fn apply(&self, row: &mut Row) {
        row.steady_state_attained = Some(self.attained);
        row.steady_state_rule = Some(self.rule.clone());
        row.steady_state_measured = self.measured.clone();
        row.steady_state_duration_ms = self.duration_ms;
        row.steady_state_iops = self.iops;
        row.steady_state_bw_bytes_per_s = self.bw_bytes_per_s;
    }
}

/// `30.000000%` -> `30%`, `0.100000` -> `0.1`: fio prints floats with six
/// decimals; people write them short.
fn short_number(s: &str) -> String {
    let (num, pct) = match s.strip_suffix('%') {
        Some(n) => (n, "%"),
        None => (s, ""),
    };
    let Ok(v) = num.trim().parse::<f64>() else {
        return s.to_string();
    };
    let mut t = format!("{v:.4}");
    while t.contains('.') && (t.ends_with('0') || t.ends_with('.')) {
        t.pop();
    }
    format!("{t}{pct}")
}

/// From a job's JSON `steadystate` object. None when absent or not an
/// object; a field of the wrong type is left unknown.
pub fn from_json(v: &Value) -> Option<SteadyVerdict> {
    let o = v.as_object()?;
    let attained = match o.get("attained")? {
        Value::Bool(b) => *b,
        n => n.as_f64()? != 0.0,
    };
    let rule = o
        .get("ss")
        .and_then(Value::as_str)
        .map(|ss| match ss.split_once(':') {
            Some((metric, limit)) => format!("{metric}:{}", short_number(limit)),
            None => ss.to_string(),
        })?;
    let data = o.get("data");
    let mean = |k: &str| {
        data.and_then(|d| d.get(k))
            .and_then(Value::as_f64)
            .filter(|x| x.is_finite())
    };
    Some(SteadyVerdict {
        attained,
        rule,
        measured: o.get("criterion").and_then(Value::as_str).map(short_number),
        duration_ms: o
            .get("duration")
            .and_then(Value::as_f64)
            .filter(|d| d.is_finite() && *d > 0.0)
            .map(|d| d * 1000.0),
        iops: mean("iops_mean"),
        bw_bytes_per_s: mean("bw_mean"),
    })
}

/// From the text line after `steadystate  :`.
pub fn from_text(rest: &str) -> Option<SteadyVerdict> {
    let rest = rest.trim_start().strip_prefix(':').unwrap_or(rest).trim();
    let attained = match rest.strip_prefix("attained=")?.split(',').next()?.trim() {
        "yes" => true,
        "no" => false,
        _ => return None,
    };
    // The last field is `<metric> mean dev=<x>` or `<metric> slope=<x>`.
    let last = rest.rsplit(", ").next()?;
    let (rule, measured) = last.split_once('=')?;
    Some(SteadyVerdict {
        attained,
        rule: rule.trim().to_string(),
        measured: Some(short_number(measured.trim())),
        ..SteadyVerdict::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fio_3_33_json_verdicts() {
        // From fixtures/steady (fio 3.33, --steadystate=iops:30% --ss_dur=3).
        let v: Value = serde_json::from_str(
            r#"{"ss":"iops:30.000000%","duration":3,"attained":1,"criterion":"16.055323%",
            "max_deviation":2136.0,"slope":0.0,"data":{"bw_mean":54494050,"iops_mean":13304,
            "iops":[11168,14634,14110],"bw":[45744128,59943463,57794560]}}"#,
        )
        .unwrap();
        let s = from_json(&v).unwrap();
        assert!(s.attained);
        assert_eq!(s.rule, "iops:30%");
        assert_eq!(s.measured.as_deref(), Some("16.0553%"));
        assert_eq!(s.duration_ms, Some(3000.0));
        assert_eq!(
            (s.iops, s.bw_bytes_per_s),
            (Some(13304.0), Some(54494050.0))
        );
        let v: Value = serde_json::from_str(
            r#"{"ss":"iops_slope:0.000100%","duration":3,"attained":0,"criterion":"8.015582%"}"#,
        )
        .unwrap();
        let s = from_json(&v).unwrap();
        assert!(!s.attained);
        assert_eq!(s.rule, "iops_slope:0.0001%");
        assert_eq!(s.iops, None);
        assert!(from_json(&serde_json::json!({"ss": "iops:1%"})).is_none());
        assert!(from_json(&serde_json::json!([1])).is_none());
    }

    #[test]
    fn text_line() {
        let s =
            from_text(": attained=yes, bw=46.5MiB/s (47.6MB/s), iops=11.9k, bw mean dev=1.994%")
                .unwrap();
        assert!(s.attained);
        assert_eq!(s.rule, "bw mean dev");
        assert_eq!(s.measured.as_deref(), Some("1.994%"));
        let s = from_text(": attained=no, bw=1MiB/s (1MB/s), iops=256, iops slope=12.5").unwrap();
        assert!(!s.attained);
        assert_eq!(
            (s.rule.as_str(), s.measured.as_deref()),
            ("iops slope", Some("12.5"))
        );
        assert!(from_text(": attained=maybe, x=1").is_none());
    }
}
