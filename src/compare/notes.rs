//! Notes on one workload that a reader needs before trusting its table: a
//! config missing at this load point (and where it ran instead), a config
//! that ran at another depth than the one asked for, engines mixed under
//! one label, a config that never reached steady state, configs measured
//! by different benchmarks (fio, DiskSpd) and what that leaves comparable.

use std::collections::BTreeSet;

use indexmap::IndexMap;

use super::cell::ConfigCell;
use super::comparison::{SteadySource, SteadyState};
use super::workload::WorkloadKey;
use crate::model::is_sync_engine;

/// "no result from X" for a config that never ran this workload's shape.
/// One that ran it at other load points (a sweep it took part in only
/// partly) is said once for the whole sweep, in the comparison's notes
/// (`sanity::check_comparison`), not at every load point it missed.
pub(super) fn missing<V>(
    key: &WorkloadKey,
    grouped: &IndexMap<String, IndexMap<WorkloadKey, V>>,
    configs: &[String],
    cells: &IndexMap<&str, ConfigCell>,
) -> Vec<String> {
    let plain: Vec<&str> = configs
        .iter()
        .filter(|c| !cells.contains_key(c.as_str()))
        .filter(|c| !grouped[*c].keys().any(|k| k.shape == key.shape))
        .map(String::as_str)
        .collect();
    match plain.len() {
        0 => Vec::new(),
        n if n > MISSING_LISTED => vec![format!(
            "no result from {} and {} more configs",
            plain[..MISSING_LISTED].join(", "),
            crate::numbers::whole((n - MISSING_LISTED) as u64)
        )],
        _ => vec![format!("no result from {}", plain.join(", "))],
    }
}

/// The most configs the "no result from" note names (128,904 names made
/// it a line of a megabyte per workload, issue #55); the rest counted.
const MISSING_LISTED: usize = 12;

/// A config that ran at another depth than requested: a synchronous engine
/// (fio caps it at 1), or a queue that never filled.
pub(super) fn effective_depth(
    key: &WorkloadKey,
    cells: &IndexMap<&str, ConfigCell>,
    depths: &IndexMap<String, u32>,
) -> Vec<String> {
    let asked = key.load.iodepth;
    depths
        .iter()
        .filter(|(_, d)| **d != asked)
        .map(|(c, d)| {
            let sync = cells
                .get(c.as_str())
                .and_then(|cell| cell.runs.iter().find(|r| is_sync_engine(&r.engine)))
                .map(|r| r.engine.clone());
            match sync {
                Some(engine) if *d == 1 => format!(
                    "{c} ran at queue depth 1, not {asked}: {engine} is synchronous (one I/O at a \
                     time, in fio and in nvcmp's harness); its latency is not comparable with \
                     queued runs at QD{asked}"
                ),
                _ => format!(
                    "{c} ran mostly at queue depth {d}{}, not {asked} (fio's I/O depth distribution)",
                    if *d >= 64 { " or more" } else { "" }
                ),
            }
        })
        .collect()
}

/// Runs of one config that came from different engines.
pub(super) fn mixed_engines(cells: &IndexMap<&str, ConfigCell>) -> Vec<String> {
    cells
        .iter()
        .filter_map(|(c, cell)| {
            let engines: BTreeSet<&str> = cell
                .runs
                .iter()
                .map(|r| r.engine.as_str())
                .filter(|e| !e.is_empty() && *e != "unknown")
                .collect();
            (engines.len() > 1).then(|| {
                format!(
                    "{c} mixes engines ({}) in one result: `--label-by engine` compares them",
                    engines.into_iter().collect::<Vec<_>>().join(", ")
                )
            })
        })
        .collect()
}

/// "X did not reach steady state": its average may still be moving (an SSD
/// filling its cache, garbage collection starting), so a lead over a config
/// that settled may be the run's length talking.
pub(super) fn not_steady(steady: &IndexMap<String, SteadyState>) -> Vec<String> {
    steady
        .iter()
        .filter(|(_, s)| !s.attained)
        .map(|(c, s)| {
            let mut how = s.criterion.clone();
            if let Some(m) = &s.measured {
                how.push_str(&format!(", measured {m}"));
            }
            if let Some(d) = s.duration {
                how.push_str(&format!(" over {d} s"));
            }
            let by = match s.source {
                SteadySource::Fio => "fio's verdict",
                SteadySource::Snia => "judged from its logs by the SNIA rule",
            };
            format!("{c} did not reach steady state ({how}; {by}); its figures may still be moving")
        })
        .collect()
}

/// Configs measured by different tools (fio and DiskSpd): which tool
/// measured which, what the two share, and what they do not.
///
/// DiskSpd times each I/O from issue to completion, fio's total latency,
/// so mean latency compares; it has no completion latency (`clat`), so
/// that row shows fio alone (its rows are null: no winner). Its CPU is the
/// whole system's, fio's own is its threads' only: where one side has the
/// whole system's figure and the other fio's own, CPU is not compared
/// (the fio side's is blanked here, the one place that knows both).
pub(super) fn tools(key: &WorkloadKey, cells: &mut IndexMap<&str, ConfigCell>) -> Vec<String> {
    let tool_of = |cell: &ConfigCell| cell.runs.first().map(tool_name).unwrap_or_default();
    let by_config: Vec<(String, String)> = cells
        .iter()
        .map(|(c, cell)| (c.to_string(), tool_of(cell)))
        .collect();
    let kinds: BTreeSet<&str> = cells
        .values()
        .flat_map(|cell| cell.runs.iter().map(|r| r.tool.as_str()))
        .collect();
    let mut notes = diskspd_qd_baseline(key, cells);
    if kinds.len() < 2 {
        return notes;
    }
    let who: Vec<String> = by_config
        .iter()
        .map(|(c, t)| format!("{c} by {t}"))
        .collect();
    notes.insert(
        0,
        format!(
            "measured by different tools: {}. DiskSpd times each I/O from issue to completion, \
             fio's total latency: mean latency is compared; p99 completion latency (clat) is \
             fio's alone, DiskSpd has none",
            who.join(", ")
        ),
    );
    let whole_system = |cell: &ConfigCell| cell.runs.iter().all(|r| r.system_cpu);
    if cells.values().any(whole_system) && !cells.values().all(whole_system) {
        let own: Vec<&str> = cells
            .iter()
            .filter(|(_, cell)| !whole_system(cell))
            .map(|(c, _)| *c)
            .collect();
        for cell in cells.values_mut().filter(|cell| !whole_system(cell)) {
            for r in cell.runs.to_mut() {
                r.cpu = f64::NAN;
            }
        }
        notes.push(format!(
            "CPU not compared for {}: fio measured only its own threads there, DiskSpd the \
             whole system (a sidecar or manifest `system_cpu_pct` makes them comparable)",
            own.join(", ")
        ));
    }
    notes
}

/// Configs measured by different tools: a metric only one side has (fio's
/// completion latency, CPU blanked by [`tools`]) shows that side's value
/// alone, and wins nothing: the other tool did not lose, it never measured.
pub(super) fn unshared_metrics(
    cells: &IndexMap<&str, ConfigCell>,
    metrics: &mut [super::MetricResult],
) {
    let tools: BTreeSet<&str> = cells
        .values()
        .flat_map(|cell| cell.runs.iter().map(|r| r.tool.as_str()))
        .collect();
    if tools.len() < 2 {
        return;
    }
    for m in metrics.iter_mut().filter(|m| m.rule == super::Rule::Single) {
        m.winner = None;
    }
}

/// `DiskSpd 2.2.0`, `DiskSpd 2.0.18 to 2.1 (from the text layout)`, `fio-3.33`.
fn tool_name(r: &super::Run) -> String {
    match (r.tool.as_str(), &r.tool_version) {
        ("diskspd", Some(v)) => format!("DiskSpd {v}"),
        ("diskspd", None) => "DiskSpd".into(),
        _ if !r.fio_version.is_empty() => r.fio_version.clone(),
        (tool, _) => tool.to_string(),
    }
}

/// DiskSpd 2.2 batches completions, which changed what it measures at
/// more than one outstanding I/O; its release notes say results at QD > 1
/// need a new baseline. Noted where a QD > 1 workload sets 2.2 or later
/// beside an earlier DiskSpd.
fn diskspd_qd_baseline(key: &WorkloadKey, cells: &IndexMap<&str, ConfigCell>) -> Vec<String> {
    if key.load.iodepth <= 1 {
        return Vec::new();
    }
    let generation = |cell: &ConfigCell| -> Option<bool> {
        let r = cell.runs.iter().find(|r| r.tool == "diskspd")?;
        Some(
            r.tool_version
                .as_deref()
                .is_some_and(|v| v.starts_with("2.2") || v.starts_with("2.3")),
        )
    };
    let newer: Vec<&str> = cells
        .iter()
        .filter(|(_, c)| generation(c) == Some(true))
        .map(|(c, _)| *c)
        .collect();
    let older: Vec<&str> = cells
        .iter()
        .filter(|(_, c)| generation(c) == Some(false))
        .map(|(c, _)| *c)
        .collect();
    if newer.is_empty() || older.is_empty() {
        return Vec::new();
    }
    vec![format!(
        "{} ran DiskSpd 2.2 or later, {} an earlier DiskSpd: 2.2 changed how it measures at \
         more than one outstanding I/O (batched completions), and its release notes say results \
         at QD > 1 need a new baseline",
        newer.join(", "),
        older.join(", ")
    )]
}

/// Configs whose p99 latency is the worst job's (several jobs, no json+
/// histograms to pool): said once per workload, naming them.
pub(super) fn approximate_p99(metrics: &[super::MetricResult]) -> Option<String> {
    let m = metrics
        .iter()
        .find(|m| m.metric == super::Metric::ClatP99Ns)?;
    if m.approximate.is_empty() {
        return None;
    }
    Some(format!(
        "p99 latency of {}: the worst job's p99, an upper bound (several jobs or fio instances and no json+ histograms to pool; run fio with --output-format=json+ for the exact figure)",
        m.approximate.join(", ")
    ))
}
