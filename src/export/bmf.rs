//! Bencher Metric Format (<https://bencher.dev/docs/reference/bencher-metric-format/>):
//! `{ "<benchmark>": { "<measure>": { "value", "lower_value", "upper_value" } } }`.
//! Measures are nvcmp's metric keys (`iops`, `lat_mean_ns`, ...) so a
//! value's unit is in its name; the bounds are ±1 standard deviation.

use std::io::Write;

use indexmap::IndexMap;
use serde::Serialize;

use super::{Exporter, benchmark_name, spread};
use crate::history::trend::Measured;

pub struct Bmf;

#[derive(Serialize)]
struct BmfMeasure {
    value: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    lower_value: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    upper_value: Option<f64>,
}

impl Exporter for Bmf {
    fn write(&self, measured: &[Measured], w: &mut dyn Write) -> anyhow::Result<()> {
        let mut doc: IndexMap<String, IndexMap<&str, BmfMeasure>> = IndexMap::new();
        for m in measured {
            let v = m.values.mean;
            let sd = spread(m);
            doc.entry(benchmark_name(m)).or_default().insert(
                m.key.metric.key(),
                BmfMeasure {
                    value: v,
                    // A throughput or latency is never below zero.
                    lower_value: sd.map(|s| (v - s).max(0.0)),
                    upper_value: sd.map(|s| v + s),
                },
            );
        }
        serde_json::to_writer_pretty(&mut *w, &doc)?;
        writeln!(w)?;
        Ok(())
    }
}
