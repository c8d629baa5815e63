//! Whether a config's runs of a workload settled: fio's own verdict or
//! the SNIA rule's ([`crate::steady_state::snia`]). Its own file, so that
//! [`super::workload`] (which reads a row's verdict) and
//! [`super::comparison`] (which carries the verdicts in the result) both
//! import it without importing each other.

use serde::{Deserialize, Serialize};

/// Whether a config's runs of a workload settled, and by which rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SteadyState {
    /// True only when every run of the config attained it.
    pub attained: bool,
    /// The rule: fio's (`iops:30%`, `iops_slope:0.1%`; from fio's text
    /// output only its kind, `bw mean dev`) or `snia` (PTS: data excursion
    /// within 20 %, slope excursion within 10 % over 5 rounds).
    pub criterion: String,
    /// What was measured over the window (`16.06%`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured: Option<String>,
    /// The window's length, seconds, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<f64>,
    pub source: SteadySource,
    /// The window's mean IOPS and bandwidth (bytes/s), when known: what
    /// `--steady-only` reports instead of the whole run's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iops: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bw_bytes_per_s: Option<f64>,
    /// Where the window lies, seconds since the job started, when known
    /// (the SNIA rule's window; fio does not say where its window was).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_start_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_end_s: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SteadySource {
    /// fio's own verdict from its output.
    Fio,
    /// Judged by nvcmp from the job's logs with SNIA's rule.
    Snia,
}

impl SteadyState {
    /// The verdict a row carries from fio, if it has one.
    pub fn of_row(r: &crate::model::Row) -> Option<SteadyState> {
        Some(SteadyState {
            attained: r.steady_state_attained?,
            criterion: r.steady_state_rule.clone().unwrap_or_default(),
            measured: r.steady_state_measured.clone(),
            duration: r.steady_state_duration_ms.map(|ms| ms / 1000.0),
            source: SteadySource::Fio,
            iops: r.steady_state_iops,
            bw_bytes_per_s: r.steady_state_bw_bytes_per_s,
            window_start_s: None,
            window_end_s: None,
        })
    }

    /// Several runs or jobs: attained only if each did; means of the
    /// windows where all have one.
    pub fn combine(all: &[&SteadyState]) -> Option<SteadyState> {
        let first = (*all.first()?).clone();
        let mean = |f: &dyn Fn(&SteadyState) -> Option<f64>| {
            let v: Option<Vec<f64>> = all.iter().map(|s| f(s)).collect();
            v.map(|v| v.iter().sum::<f64>() / v.len() as f64)
        };
        Some(SteadyState {
            attained: all.iter().all(|s| s.attained),
            measured: if all.len() == 1 {
                first.measured.clone()
            } else {
                None
            },
            iops: mean(&|s| s.iops),
            bw_bytes_per_s: mean(&|s| s.bw_bytes_per_s),
            // Runs' windows lie at different times: no one window is theirs.
            window_start_s: first.window_start_s.filter(|_| all.len() == 1),
            window_end_s: first.window_end_s.filter(|_| all.len() == 1),
            ..first
        })
    }
}
