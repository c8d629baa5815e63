//! CSV: one line per workload, metric and config, values in base units
//! (for spreadsheets and scripts; tables are for people). When workloads
//! ran at several load points, `iodepth,numjobs,hosts` end each line, so
//! every line names its workload. [`SweepCsv`] is the sweep table: one line
//! per sweep shape, load point and config.

use std::io::Write;

use super::Renderer;
use super::sweeps::{self, SweepTable};
use crate::compare::{Comparison, Metric, MetricResult, Sweep, SweepPoint, Workload};

pub struct Csv;

const HEADER: &str = "rw,bs_bytes,direction,rwmixread,metric,better,config,value,precision,winner,tied,rule,delta_pct,delta_abs";
const LOAD_HEADER: &str = ",iodepth,numjobs,hosts";

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

/// `rw,bs_bytes,direction,rwmixread` of a workload.
fn shape_fields(w: &Workload) -> String {
    format!(
        "{},{},{},{}",
        field(&w.key.shape.rw),
        w.key.shape.bs_bytes,
        w.key.shape.direction,
        w.key
            .shape
            .rwmixread
            .map_or(String::new(), |m| m.to_string())
    )
}

impl Renderer for Csv {
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()> {
        let loads = cmp.has_load_points();
        writeln!(out, "{HEADER}{}", if loads { LOAD_HEADER } else { "" })?;
        for w in &cmp.workloads {
            let load = format!(
                ",{},{},{}",
                w.key.load.iodepth, w.key.load.numjobs, w.key.load.hosts
            );
            for m in &w.metrics {
                for c in &cmp.configs {
                    let line = metric_line(w, m, c);
                    writeln!(out, "{line}{}", if loads { load.as_str() } else { "" })?;
                }
            }
        }
        Ok(())
    }
}

fn metric_line(w: &Workload, m: &MetricResult, c: &str) -> String {
    format!(
        "{},{},{},{},{},{},{},{},{},{},{}",
        shape_fields(w),
        m.metric.key(),
        json_name(&m.better),
        field(c),
        num(m.values.get(c).copied().flatten()),
        num(m.precision.get(c).copied()),
        m.winner.as_deref() == Some(c),
        m.tied.iter().any(|t| t == c),
        json_name(&m.rule),
        num(m.delta_pct.get(c).copied().flatten()),
        num(m.delta_abs.get(c).copied().flatten()),
    )
}

/// The sweep tables as CSV: per sweep shape, load point and config with a
/// value there, IOPS, bandwidth, mean and p99 latency with the
/// comparison's winner/tied marks at that load point; `peak` and `knee`
/// mark the config's peak and knee points; `slo_iops` is the config's IOPS
/// under `--slo` (the same on each of its lines, empty without a target or
/// when no point meets it).
pub struct SweepCsv;

const SWEEP_HEADER: &str = "rw,bs_bytes,direction,rwmixread,iodepth,numjobs,hosts,config,effective_iodepth,iops,iops_winner,iops_tied,bw_bytes_per_s,bw_winner,bw_tied,lat_mean_ns,lat_mean_winner,lat_mean_tied,clat_p99_ns,clat_p99_winner,clat_p99_tied,peak,knee,slo_iops,slo_interpolated";

const SWEEP_METRICS: [Metric; 4] = [
    Metric::Iops,
    Metric::BwBytesPerS,
    Metric::LatMeanNs,
    Metric::ClatP99Ns,
];

impl Renderer for SweepCsv {
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()> {
        writeln!(out, "{SWEEP_HEADER}")?;
        for t in sweeps::tables(cmp) {
            for w in &t.workloads {
                for c in t.configs.iter().filter(|c| sweeps::iops(w, c).is_some()) {
                    writeln!(out, "{}", sweep_line(&t, w, c))?;
                }
            }
        }
        Ok(())
    }
}

fn sweep_line(t: &SweepTable, w: &Workload, c: &str) -> String {
    let mut f = vec![
        shape_fields(w),
        format!(
            "{},{},{}",
            w.key.load.iodepth, w.key.load.numjobs, w.key.load.hosts
        ),
        field(c),
        w.effective_iodepth
            .get(c)
            .map_or(String::new(), u32::to_string),
    ];
    for m in SWEEP_METRICS {
        f.push(match w.metric(m) {
            Some(r) => format!(
                "{},{},{}",
                num(r.values.get(c).copied().flatten()),
                r.winner.as_deref() == Some(c),
                r.tied.iter().any(|t| t == c)
            ),
            None => ",,".into(),
        });
    }
    f.push(sweep_marks(t.sweep_of(c), w));
    f.join(",")
}

/// `peak,knee,slo_iops,slo_interpolated` of the config's sweep at `w`.
fn sweep_marks(s: Option<&Sweep>, w: &Workload) -> String {
    let Some(s) = s else {
        return ",,,".into();
    };
    let here = |p: &SweepPoint| {
        p.load.iodepth == w.key.load.iodepth && p.load.numjobs == w.key.load.numjobs
    };
    let is = |iodepth: u32, numjobs: u32| {
        s.points
            .iter()
            .any(|p| here(p) && p.load.iodepth == iodepth && p.load.numjobs == numjobs)
    };
    let knee = s.knee.is_some_and(|k| is(k.load.iodepth, k.load.numjobs));
    let slo = s
        .at_slo
        .map_or(",".into(), |a| format!("{},{}", a.iops, a.interpolated));
    format!(
        "{},{knee},{slo}",
        is(s.peak.load.iodepth, s.peak.load.numjobs)
    )
}
