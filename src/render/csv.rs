//! CSV: one line per workload, metric and config, values in base units
//! (for spreadsheets and scripts; tables are for people).

use std::io::Write;

use super::Renderer;
use crate::compare::Comparison;

pub struct Csv;

const HEADER: &str = "rw,bs_bytes,direction,rwmixread,metric,better,config,value,precision,winner,tied,rule,delta_pct,delta_abs";

fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn num(v: Option<f64>) -> String {
    v.map_or(String::new(), |v| v.to_string())
}

fn json_name<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

impl Renderer for Csv {
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()> {
        writeln!(out, "{HEADER}")?;
        for w in &cmp.workloads {
            for m in &w.metrics {
                for c in &cmp.configs {
                    writeln!(
                        out,
                        "{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                        field(&w.rw),
                        w.bs_bytes,
                        w.direction,
                        w.rwmixread.map_or(String::new(), |m| m.to_string()),
                        m.metric.key(),
                        json_name(&m.better),
                        field(c),
                        num(m.values.get(c).copied().flatten()),
                        num(m.precision.get(c).copied()),
                        m.winner.as_deref() == Some(c.as_str()),
                        m.tied.contains(c),
                        json_name(&m.rule),
                        num(m.delta_pct.get(c).copied().flatten()),
                        num(m.delta_abs.get(c).copied().flatten()),
                    )?;
                }
            }
        }
        Ok(())
    }
}
