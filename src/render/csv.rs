//! CSV: one line per workload, metric and config, values in base units
//! (for spreadsheets and scripts; tables are for people). When workloads
//! ran at several load points, `iodepth,numjobs,hosts,devices,instances`
//! end each line, so every line names its workload. [`SweepCsv`] is the sweep table: one line
//! per sweep shape, load point and config.

use std::io::Write;

use super::Renderer;
use super::sweeps;
use crate::compare::sweep::blocksize;
use crate::compare::workload::WorkloadKey;
use crate::compare::{BsSweep, Comparison, Metric, MetricResult, Sweep, Workload};
use crate::dataset::CsvCells;

pub struct Csv {
    /// Text cells a spreadsheet would run are guarded, unless `--csv-raw`.
    pub cells: CsvCells,
}

const HEADER: &str = "rw,bs_bytes,direction,rwmixread,metric,better,config,value,precision,winner,tied,rule,delta_pct,delta_abs";
const LOAD_HEADER: &str = ",iodepth,numjobs,hosts,devices,instances";

/// A text cell: guarded against formulas ([`CsvCells`]), quoted when
/// it holds a comma, a quote or a line break.
fn field(s: &str, cells: CsvCells) -> String {
    let s = crate::dataset::csv_cell(s, cells);
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
fn shape_fields(w: &Workload, cells: CsvCells) -> String {
    format!(
        "{},{},{},{}",
        field(&w.key.shape.rw, cells),
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
            let l = &w.key.load;
            let load = format!(
                ",{},{},{},{},{}",
                l.iodepth, l.numjobs, l.hosts, l.devices, l.instances
            );
            for m in &w.metrics {
                for c in &cmp.configs {
                    let line = metric_line(w, m, c, self.cells);
                    writeln!(out, "{line}{}", if loads { load.as_str() } else { "" })?;
                }
            }
        }
        Ok(())
    }
}

fn metric_line(w: &Workload, m: &MetricResult, c: &str, cells: CsvCells) -> String {
    format!(
        "{},{},{},{},{},{},{},{},{},{},{}",
        shape_fields(w, cells),
        m.metric.key_at(m.tail_pct),
        json_name(&m.better),
        field(c, cells),
        num(m.values.get(c).copied().flatten()),
        num(m.precision.get(c).copied()),
        m.winner.as_deref() == Some(c),
        m.tied.iter().any(|t| t == c),
        json_name(&m.rule),
        num(m.delta_pct.get(c).copied().flatten()),
        num(m.delta_abs.get(c).copied().flatten()),
    )
}

/// The sweep tables as CSV: per sweep, load point (or block size) and
/// config with a value there, IOPS, bandwidth, mean and p99 latency with
/// the comparison's winner/tied marks at that workload. `axis` names what
/// the line's sweep varies (`iodepth`, `numjobs`, `hosts`, `devices`,
/// `instances`, several joined by `+`, or `bs` for a block-size sweep:
/// a workload in a load sweep and in a block-size sweep has a line in
/// each). `peak`, `knee` and `saturation` mark the config's points of that
/// sweep (a load sweep's peak is its most IOPS, a block-size sweep's its
/// most bandwidth); `slo_iops` (load sweeps) and `slo_bw_bytes_per_s`
/// (block-size sweeps) are the most the config does under `--slo`, the
/// same on each of its lines, empty without a target or when no point
/// meets it. Columns added after the first release are at the end.
pub struct SweepCsv {
    /// As [`Csv::cells`].
    pub cells: CsvCells,
}

const SWEEP_HEADER: &str = "rw,bs_bytes,direction,rwmixread,iodepth,numjobs,hosts,config,effective_iodepth,iops,iops_winner,iops_tied,bw_bytes_per_s,bw_winner,bw_tied,lat_mean_ns,lat_mean_winner,lat_mean_tied,clat_p99_ns,clat_p99_winner,clat_p99_tied,peak,knee,slo_iops,slo_interpolated,devices,instances,axis,saturation,slo_bw_bytes_per_s";

const SWEEP_METRICS: [Metric; 4] = [
    Metric::Iops,
    Metric::BwBytesPerS,
    Metric::LatMeanNs,
    Metric::ClatP99Ns,
];

impl Renderer for SweepCsv {
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()> {
        // The tail's columns say its percentile (`clat_p95_ns`).
        let key = crate::compare::workload::tail_key(cmp.tail_percentile);
        let stem = key.trim_end_matches("_ns");
        let header = SWEEP_HEADER.replace(
            "clat_p99_ns,clat_p99_winner,clat_p99_tied",
            &format!("{key},{stem}_winner,{stem}_tied"),
        );
        writeln!(out, "{header}")?;
        for t in sweeps::tables(cmp) {
            for w in &t.workloads {
                for c in t.configs.iter().filter(|c| sweeps::iops(w, c).is_some()) {
                    let marks = t.sweep_of(c).map(|s| load_marks(s, w));
                    writeln!(out, "{}", sweep_line(w, c, marks, self.cells))?;
                }
            }
        }
        for (at, bs_sweeps) in blocksize::by_rw(&cmp.bs_sweeps) {
            for bs in blocksize::sizes(&bs_sweeps) {
                let key = WorkloadKey {
                    shape: at.shape(bs),
                    load: at.load,
                };
                let Some(w) = cmp.workloads.iter().find(|w| w.key == key) else {
                    continue;
                };
                for s in bs_sweeps
                    .iter()
                    .filter(|s| s.points.iter().any(|p| p.bs_bytes == bs))
                {
                    let marks = Some(bs_marks(s, bs));
                    writeln!(out, "{}", sweep_line(w, &s.config, marks, self.cells))?;
                }
            }
        }
        Ok(())
    }
}

/// Where a point stands in its config's sweep.
struct Marks {
    axis: String,
    peak: bool,
    knee: bool,
    saturation: bool,
    slo_iops: Option<f64>,
    slo_bw: Option<f64>,
    slo_interpolated: Option<bool>,
}

/// Workload `w`'s marks in the load sweep `s`, matched on its whole load
/// point (hosts, devices and instances as well as iodepth and numjobs).
fn load_marks(s: &Sweep, w: &Workload) -> Marks {
    let here = w.key.load;
    Marks {
        axis: s.axis.clone(),
        peak: s.peak.load == here,
        knee: s.knee.is_some_and(|k| k.load == here),
        saturation: s.saturation.is_some_and(|x| x.load == here),
        slo_iops: s.at_slo.map(|a| a.iops),
        slo_bw: None,
        slo_interpolated: s.at_slo.map(|a| a.interpolated),
    }
}

/// Block size `bs`'s marks in the block-size sweep `s`.
fn bs_marks(s: &BsSweep, bs: u64) -> Marks {
    Marks {
        axis: s.axis.clone(),
        peak: s.peak.bs_bytes == bs,
        knee: s.knee.is_some_and(|k| k.bs_bytes == bs),
        saturation: s.saturation.is_some_and(|x| x.bs_bytes == bs),
        slo_iops: None,
        slo_bw: s.at_slo.map(|a| a.bw_bytes_per_s),
        slo_interpolated: s.at_slo.map(|a| a.interpolated),
    }
}

fn sweep_line(w: &Workload, c: &str, marks: Option<Marks>, cells: CsvCells) -> String {
    let load = &w.key.load;
    let mut f = vec![
        shape_fields(w, cells),
        format!("{},{},{}", load.iodepth, load.numjobs, load.hosts),
        field(c, cells),
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
    let flag = |b: Option<bool>| b.map_or(String::new(), |b| b.to_string());
    let m = marks.as_ref();
    f.extend([
        flag(m.map(|m| m.peak)),
        flag(m.map(|m| m.knee)),
        num(m.and_then(|m| m.slo_iops)),
        flag(m.and_then(|m| m.slo_interpolated)),
        load.devices.to_string(),
        load.instances.to_string(),
        m.map_or(String::new(), |m| field(&m.axis, cells)),
        flag(m.map(|m| m.saturation)),
        num(m.and_then(|m| m.slo_bw)),
    ]);
    f.join(",")
}

/// `checks.csv`: every note of a report, one a line, as the report's
/// sections group and cut them ([`super::check_lines`]): `kind` is
/// `note` (under a workload's table), `run` (a run's check: `rule`,
/// `value` in % for `bw_vs_iops`, a ratio for `in_flight`), `check`
/// (the Checks section), `warning` or `skipped`.
pub struct Checks {
    /// Text cells guarded against formulas, or raw (`--csv-raw`).
    pub cells: CsvCells,
}

const CHECKS_HEADER: &str = "kind,workload,config,rule,value,source,text";

impl Renderer for Checks {
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()> {
        let field = |s: &str| field(s, self.cells);
        writeln!(out, "{CHECKS_HEADER}")?;
        for w in &cmp.workloads {
            let title = field(&cmp.title_of(w));
            for n in &w.notes {
                writeln!(out, "note,{title},,,,,{}", field(n))?;
            }
            for c in &w.checks {
                writeln!(
                    out,
                    "run,{title},{},{},{},{},{}",
                    field(&c.config),
                    field(&c.rule),
                    c.value,
                    field(&c.source),
                    field(&c.text)
                )?;
            }
        }
        for s in &cmp.sanity {
            writeln!(out, "check,,,,,,{}", field(s))?;
        }
        for w in &cmp.warnings {
            writeln!(
                out,
                "warning,,,,,{},{}",
                field(&w.source),
                field(&w.message)
            )?;
        }
        for s in &cmp.skipped {
            writeln!(out, "skipped,,,,,{},{}", field(&s.source), field(&s.reason))?;
        }
        Ok(())
    }
}
