//! The comparison rules, in one place: workloads, metrics and their
//! direction, winners, ties (precision and significance), deltas against a
//! baseline, OS families, highlights and sanity checks. Works on the
//! dataset's rows only, never on raw files.
//!
//! - [`workload`]: which rows make one measurement (aggregates, jobs, runs).
//! - [`metric`]: each metric's direction, precision, name and scale.
//! - [`rules`]: winner and ties of one metric.
//! - [`highlights`]: plain sentences from the result.
//! - [`sanity`]: checks a careful reviewer makes.

pub mod highlights;
pub mod metric;
pub mod model;
pub mod rules;
pub mod sanity;
pub mod stats;
pub mod workload;

#[cfg(test)]
pub(crate) mod golden;

use std::collections::BTreeSet;

use indexmap::IndexMap;

pub use model::*;

use crate::model::{Row, Warning};
use workload::{Run, WorkloadKey};

/// What `compare` needs to know besides the rows.
#[derive(Debug, Clone)]
pub struct CompareOptions {
    /// Display order of configs (labels); configs not listed follow in the
    /// order they were first seen.
    pub order: Vec<String>,
    /// Config the deltas are against; the first config when None.
    pub baseline: Option<String>,
    /// Label -> name to show instead.
    pub display_names: IndexMap<String, String>,
    /// Significance level of Welch's t-test.
    pub alpha: f64,
    /// `--round METRIC=STEP`: present every config of that metric rounded
    /// to STEP (base units), as an article that rounds some figures would.
    pub round: Vec<(Metric, f64)>,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            order: Vec::new(),
            baseline: None,
            display_names: IndexMap::new(),
            alpha: stats::DEFAULT_ALPHA,
            round: Vec::new(),
        }
    }
}

/// One config's runs of one workload, reduced per metric.
struct Cell {
    runs: Vec<Run>,
    /// True when every run reported an error: shown, never a winner.
    errored: bool,
}

impl Cell {
    fn new(runs: &[Run]) -> Cell {
        let clean: Vec<Run> = runs.iter().filter(|r| r.error == 0).cloned().collect();
        if clean.is_empty() {
            Cell {
                runs: runs.to_vec(),
                errored: true,
            }
        } else {
            Cell {
                runs: clean,
                errored: false,
            }
        }
    }

    /// Value, precision and spread of one metric.
    fn metric(&self, m: Metric) -> Option<(f64, f64, Option<Spread>)> {
        let vals: Vec<f64> = self.runs.iter().filter_map(|r| m.of_run(r)).collect();
        let summary = stats::Summary::of(&vals)?;
        let precision = self
            .runs
            .iter()
            .map(|r| m.precision_of_run(r))
            .fold(0.0, f64::max);
        let spread = if summary.n >= 2 {
            Some(Spread {
                n: summary.n,
                mean: summary.mean,
                stddev: summary.stddev,
                source: SpreadSource::Runs,
            })
        } else {
            let samples = match m {
                Metric::Iops => self.runs[0].iops_samples,
                Metric::BwBytesPerS => self.runs[0].bw_samples,
                _ => None,
            };
            samples.map(|s| Spread {
                n: s.n,
                mean: s.mean,
                stddev: s.stddev,
                source: SpreadSource::Samples,
            })
        };
        Some((summary.mean, precision, spread))
    }
}

fn family_of(os: &str) -> &'static str {
    match os {
        "windows" => "windows",
        "linux" => "linux",
        _ => "unknown",
    }
}

/// Compares configs per workload. `skipped` of the result is left empty:
/// the caller knows what ingest skipped.
pub fn compare(rows: &[Row], opts: &CompareOptions) -> Comparison {
    let mut warnings = Vec::new();
    let name = |label: &str| {
        opts.display_names
            .get(label)
            .cloned()
            .unwrap_or_else(|| label.to_string())
    };
    let mut kept = Vec::with_capacity(rows.len());
    for r in rows {
        let finite = [r.bw_bytes_per_s, r.iops, r.runtime_ms, r.cpu_pct()]
            .iter()
            .all(|v| v.is_finite() && *v >= 0.0);
        if !finite {
            warnings.push(Warning {
                source: r.source.clone(),
                message: format!(
                    "job {:?} ({} {}) has a value that is not a finite, non-negative number; left out",
                    r.job, r.rw, r.direction
                ),
            });
            continue;
        }
        if r.error != 0 {
            warnings.push(Warning {
                source: r.source.clone(),
                message: format!(
                    "job {:?} reported error {}; left out of winners",
                    r.job, r.error
                ),
            });
        }
        let mut r = r.clone();
        r.label = name(&r.label);
        kept.push(r);
    }
    let grouped = workload::group(&kept);

    let mut configs: Vec<String> = opts
        .order
        .iter()
        .map(|l| name(l))
        .filter(|c| grouped.contains_key(c))
        .collect();
    configs.dedup();
    for c in grouped.keys() {
        if !configs.contains(c) {
            configs.push(c.clone());
        }
    }
    let config_os: IndexMap<String, String> = configs
        .iter()
        .map(|c| {
            let os = grouped[c]
                .values()
                .flatten()
                .map(|r| r.os.as_str())
                .next()
                .unwrap_or("unknown");
            (c.clone(), family_of(os).to_string())
        })
        .collect();
    let families: Vec<Family> = ["windows", "linux", "unknown"]
        .iter()
        .map(|f| Family {
            name: f.to_string(),
            configs: configs
                .iter()
                .filter(|c| config_os[*c] == *f)
                .cloned()
                .collect(),
        })
        .filter(|f| !f.configs.is_empty())
        .collect();
    let baseline = match &opts.baseline {
        Some(b) if configs.contains(&name(b)) => Some(name(b)),
        Some(b) => {
            warnings.push(Warning {
                source: b.clone(),
                message: format!(
                    "baseline {b:?} is not one of the configs ({}); deltas are against {:?}",
                    configs.join(", "),
                    configs.first().map_or("", |c| c.as_str())
                ),
            });
            configs.first().cloned()
        }
        None => configs.first().cloned(),
    };

    let keys: BTreeSet<WorkloadKey> = grouped.values().flat_map(|m| m.keys().cloned()).collect();
    let mut workloads = Vec::new();
    for key in keys {
        let cells: IndexMap<&str, Cell> = configs
            .iter()
            .filter_map(|c| {
                grouped[c]
                    .get(&key)
                    .map(|runs| (c.as_str(), Cell::new(runs)))
            })
            .collect();
        let mut notes = Vec::new();
        let missing: Vec<&str> = configs
            .iter()
            .map(|c| c.as_str())
            .filter(|c| !cells.contains_key(c))
            .collect();
        if !missing.is_empty() {
            notes.push(format!("no result from {}", missing.join(", ")));
        }
        let shapes: IndexMap<&str, BTreeSet<(u32, u32)>> = cells
            .iter()
            .map(|(c, cell)| {
                (
                    *c,
                    cell.runs.iter().map(|r| (r.iodepth, r.numjobs)).collect(),
                )
            })
            .collect();
        let distinct: BTreeSet<_> = shapes.values().collect();
        if distinct.len() > 1 {
            let parts: Vec<String> = shapes
                .iter()
                .map(|(c, s)| {
                    let s: Vec<String> = s
                        .iter()
                        .map(|(d, j)| format!("iodepth={d} numjobs={j}"))
                        .collect();
                    format!("{c}: {}", s.join(" / "))
                })
                .collect();
            notes.push(format!(
                "configs ran with different queue shapes ({})",
                parts.join("; ")
            ));
        }
        for (c, cell) in &cells {
            if cell.errored {
                notes.push(format!("{c}: every run reported an error; not a winner"));
            }
        }

        let mut metrics = Vec::new();
        for m in Metric::ALL {
            let mut values = IndexMap::new();
            let mut precision = IndexMap::new();
            let mut spread = IndexMap::new();
            for c in &configs {
                let got = cells.get(c.as_str()).and_then(|cell| cell.metric(m));
                let (v, p) = match got {
                    Some((mut v, mut p, s)) => {
                        if let Some((_, step)) = opts.round.iter().find(|(rm, _)| *rm == m) {
                            if *step > 0.0 {
                                v = (v / step).round() * step;
                                p = p.max(*step);
                            }
                        }
                        if let Some(s) = s {
                            spread.insert(c.clone(), s);
                        }
                        (Some(v), p)
                    }
                    None => (None, 0.0),
                };
                values.insert(c.clone(), v);
                if v.is_some() {
                    precision.insert(c.clone(), p);
                }
            }
            if values.values().all(|v| v.is_none()) && m == Metric::ClatP99Ns {
                continue;
            }
            let entries: Vec<rules::Entry> = configs
                .iter()
                .filter(|c| cells.get(c.as_str()).is_some_and(|cell| !cell.errored))
                .filter_map(|c| {
                    Some(rules::Entry {
                        config: c.as_str(),
                        value: values[c]?,
                        precision: precision[c],
                        spread: spread.get(c).copied(),
                    })
                })
                .collect();
            let d = rules::decide(m.better(), &entries, opts.alpha);
            let base = baseline
                .as_ref()
                .and_then(|b| values.get(b).copied().flatten());
            let delta_abs: IndexMap<String, Option<f64>> = values
                .iter()
                .map(|(c, v)| (c.clone(), v.zip(base).map(|(v, b)| v - b)))
                .collect();
            let delta_pct = values
                .iter()
                .map(|(c, v)| {
                    let pct = v
                        .zip(base)
                        .filter(|(_, b)| *b != 0.0)
                        .map(|(v, b)| (v - b) / b * 100.0);
                    (c.clone(), pct)
                })
                .collect();
            metrics.push(MetricResult {
                metric: m,
                better: m.better(),
                values,
                precision,
                spread,
                winner: d.winner,
                tied: d.tied,
                delta_pct,
                delta_abs,
                rule: d.rule,
            });
        }
        let percentiles = cells
            .iter()
            .filter(|(_, cell)| cell.runs.len() == 1 && !cell.runs[0].percentiles.is_empty())
            .map(|(c, cell)| (c.to_string(), cell.runs[0].percentiles.clone()))
            .collect();
        let clat_bins = cells
            .iter()
            .filter_map(|(c, cell)| {
                let bins = cell.runs.first()?.clat_bins.clone()?;
                (cell.runs.len() == 1).then(|| (c.to_string(), bins))
            })
            .collect();
        notes.extend(sanity::check_workload(&key, &cells_runs(&cells)));
        workloads.push(Workload {
            rw: key.rw.clone(),
            bs_bytes: key.bs_bytes,
            direction: key.direction,
            rwmixread: key.rwmixread,
            metrics,
            percentiles,
            clat_bins,
            notes,
        });
    }

    let mut cmp = Comparison {
        configs,
        baseline,
        config_os,
        families,
        workloads,
        highlights: Vec::new(),
        skipped: Vec::new(),
        warnings,
        sanity: Vec::new(),
    };
    cmp.sanity = sanity::check_comparison(&cmp);
    cmp.highlights = highlights::build(&cmp);
    cmp
}

fn cells_runs<'a>(cells: &'a IndexMap<&'a str, Cell>) -> Vec<(&'a str, &'a [Run])> {
    cells
        .iter()
        .map(|(c, cell)| (*c, cell.runs.as_slice()))
        .collect()
}

impl Workload {
    /// `randread 4k`, `randrw 4k read (70 % reads)`.
    pub fn title(&self) -> String {
        let bs = crate::units::format_bs(self.bs_bytes);
        match self.rwmixread {
            Some(mix) => format!("{} {bs} {} ({mix} % reads)", self.rw, self.direction),
            None if is_mixed(&self.rw) => format!("{} {bs} {}", self.rw, self.direction),
            None => format!("{} {bs}", self.rw),
        }
    }

    pub fn metric(&self, m: Metric) -> Option<&MetricResult> {
        self.metrics.iter().find(|r| r.metric == m)
    }
}

fn is_mixed(rw: &str) -> bool {
    matches!(
        rw,
        "randrw" | "rw" | "readwrite" | "trimwrite" | "randtrimwrite"
    )
}
