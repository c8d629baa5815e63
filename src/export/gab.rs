//! github-action-benchmark's custom format
//! (<https://github.com/benchmark-action/github-action-benchmark>, tools
//! `customBiggerIsBetter` and `customSmallerIsBetter`): a JSON list of
//! `{ "name", "unit", "value", "range", "extra" }`. The action takes one
//! direction per file, so the bigger-is-better metrics (IOPS, bandwidth)
//! and the smaller-is-better ones (latency) are two formats.

use std::io::Write;

use serde::Serialize;

use super::{Exporter, benchmark_name, spread, unit};
use crate::compare::Better;
use crate::history::trend::Measured;

pub struct Gab {
    /// Which of the action's two tools the file is for.
    pub bigger_is_better: bool,
}

#[derive(Serialize)]
struct GabEntry {
    name: String,
    unit: &'static str,
    value: f64,
    /// `± 1234.5`: one standard deviation, as the action shows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    range: Option<String>,
    extra: String,
}

impl Exporter for Gab {
    fn write(&self, measured: &[Measured], w: &mut dyn Write) -> anyhow::Result<()> {
        let wanted = if self.bigger_is_better {
            Better::Higher
        } else {
            Better::Lower
        };
        let entries: Vec<GabEntry> = measured
            .iter()
            .filter(|m| m.key.metric.better() == wanted)
            .map(|m| {
                let sd = spread(m);
                let from = match (m.values.n, sd) {
                    (n, Some(_)) if n >= 2 => format!("mean of {n} runs; range: their stddev"),
                    (_, Some(_)) => "1 run; range: stddev of fio's per-interval samples".into(),
                    (1, None) => "1 run".into(),
                    (n, None) => format!("mean of {n} runs"),
                };
                GabEntry {
                    name: format!("{} {}", benchmark_name(m), m.key.metric.key()),
                    unit: unit(m.key.metric),
                    value: m.values.mean,
                    range: sd.map(|s| format!("± {}", super::plain(s))),
                    extra: from,
                }
            })
            .collect();
        serde_json::to_writer_pretty(&mut *w, &entries)?;
        writeln!(w)?;
        Ok(())
    }
}
