//! Notes on one workload that a reader needs before trusting its table: a
//! config missing at this load point (and where it ran instead), a config
//! that ran at another depth than the one asked for, engines mixed under
//! one label, a config that never reached steady state.

use std::collections::BTreeSet;

use indexmap::IndexMap;

use super::Cell;
use super::model::{SteadySource, SteadyState};
use super::workload::{Grouped, WorkloadKey};
use crate::model::is_sync_engine;

/// "no result from X" for a config that never ran this workload's shape.
/// One that ran it at other load points (a sweep it took part in only
/// partly) is said once for the whole sweep, in the comparison's notes
/// (`sanity::check_comparison`), not at every load point it missed.
pub(super) fn missing(
    key: &WorkloadKey,
    grouped: &Grouped,
    configs: &[String],
    cells: &IndexMap<&str, Cell>,
) -> Vec<String> {
    let plain: Vec<&str> = configs
        .iter()
        .filter(|c| !cells.contains_key(c.as_str()))
        .filter(|c| !grouped[*c].keys().any(|k| k.shape == key.shape))
        .map(String::as_str)
        .collect();
    if plain.is_empty() {
        Vec::new()
    } else {
        vec![format!("no result from {}", plain.join(", "))]
    }
}

/// A config that ran at another depth than requested: a synchronous engine
/// (fio caps it at 1), or a queue that never filled.
pub(super) fn effective_depth(
    key: &WorkloadKey,
    cells: &IndexMap<&str, Cell>,
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
pub(super) fn mixed_engines(cells: &IndexMap<&str, Cell>) -> Vec<String> {
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
