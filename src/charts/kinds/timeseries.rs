//! Timeseries charts, drawn from fio's logs rather than the comparison's
//! averages: per workload and metric, a line per config over time (jobs
//! summed for bandwidth and IOPS, averaged for latency, as fio's group
//! reporting does), completion-latency percentiles from histogram logs,
//! and for writes the bandwidth against data written, where an SSD's
//! write cache running out shows as a cliff at a fixed amount of data.
//! A steady-state window the comparison knows of is shaded.
//!
//! Logs are bucketed ([`crate::timeseries::bucket`]) to about
//! [`TARGET_POINTS`] points, so a million-line per-I/O log draws as fast
//! as an averaged one.

use plotters::prelude::*;

use crate::charts::Plot;
use crate::charts::axis::linear_ticks;
use crate::charts::figure::Figure;
use crate::charts::frame::Frame;
use crate::charts::lines::{Band, ConfigLine, LinePlot, PointLabel, Range, Stroke};
use crate::charts::scale::ChartScale;
use crate::charts::{footer, load, palette};
use crate::compare::stats::Summary;
use crate::compare::{Comparison, Metric, Workload};
use crate::numbers;
use crate::steady_state::RunLogs;
use crate::timeseries::Kind;
use crate::timeseries::bucket::{self, BucketPoint};

/// About this many buckets across a run.
pub const TARGET_POINTS: u64 = 300;

/// Dots on a line only while they stay apart.
const MAX_DOTS: usize = 60;

/// How the logs are drawn (`analyze --smooth`, `--per-job`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TimeseriesOptions {
    /// Trailing moving average over this many ms; None: off.
    pub smooth_ms: Option<u64>,
    /// A line per job clone instead of the jobs merged.
    pub per_job: bool,
}

/// What a chart's y axis (and x axis) show.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Measure {
    /// bw, IOPS, lat or clat over time.
    Over(Kind),
    /// Completion-latency percentiles from histogram logs over time.
    Percentiles,
    /// Bandwidth against GiB written.
    ByData,
}

impl Measure {
    fn slug(self) -> &'static str {
        match self {
            Measure::Over(k) => k.as_str(),
            Measure::Percentiles => "clat_percentiles",
            Measure::ByData => "bw_by_data",
        }
    }

    /// The comparison metric whose units the y axis takes.
    fn metric(self) -> Metric {
        match self {
            Measure::Over(Kind::Iops) => Metric::Iops,
            Measure::Over(Kind::Bw) | Measure::ByData => Metric::BwBytesPerS,
            _ => Metric::LatMeanNs,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Measure::Over(Kind::Bw) | Measure::ByData => "Bandwidth",
            Measure::Over(Kind::Iops) => "IOPS",
            Measure::Over(Kind::Lat) => "Total latency (mean)",
            Measure::Over(Kind::Clat) => "Completion latency (mean)",
            Measure::Over(_) => "Latency",
            Measure::Percentiles => "Completion latency percentiles",
        }
    }
}

/// One chart: a workload, a measure and the runs with logs for it.
pub(crate) struct TsChart<'a> {
    workload: usize,
    measure: Measure,
    /// (config index, run) in config order.
    runs: Vec<(usize, &'a RunLogs)>,
    opts: TimeseriesOptions,
}

/// Whether `run` measured workload `w`: its shape, at its queue depth
/// and numjobs (a run's hosts are one row's, not the workload's count).
fn same_workload(run: &RunLogs, w: &Workload) -> bool {
    let (a, b) = (&run.load, &w.key.load);
    run.shape == w.key.shape && (a.iodepth, a.numjobs) == (b.iodepth, b.numjobs)
}

/// Charts only where logs exist: per workload, each measure some run has.
pub(crate) fn plan<'a>(
    cmp: &Comparison,
    runs: &'a [RunLogs],
    opts: TimeseriesOptions,
) -> Vec<TsChart<'a>> {
    let mut charts = Vec::new();
    for (wi, w) in cmp.workloads.iter().enumerate() {
        let mut mine: Vec<(usize, &RunLogs)> = runs
            .iter()
            .filter(|r| same_workload(r, w))
            .filter_map(|r| Some((cmp.configs.iter().position(|c| *c == r.label)?, r)))
            .collect();
        mine.sort_by_key(|(c, _)| *c);
        let has = |k: Kind| {
            mine.iter()
                .any(|(_, r)| r.logs.keys().any(|(kk, _)| *kk == k))
        };
        let mut measures: Vec<Measure> = [Kind::Bw, Kind::Iops, Kind::Lat, Kind::Clat]
            .into_iter()
            .filter(|k| mine.iter().any(|(_, r)| r.of(*k).is_some()))
            .map(Measure::Over)
            .collect();
        if has(Kind::Hist) {
            measures.push(Measure::Percentiles);
        }
        if w.key.shape.direction == crate::model::Direction::Write
            && measures.contains(&Measure::Over(Kind::Bw))
        {
            measures.push(Measure::ByData);
        }
        for measure in measures {
            // Only runs with this measure's logs: they set the bucket width
            // and the legend.
            let kind = match measure {
                Measure::Over(k) => k,
                Measure::Percentiles => Kind::Hist,
                Measure::ByData => Kind::Bw,
            };
            let runs = mine
                .iter()
                .filter(|(_, r)| r.logs.keys().any(|(k, _)| *k == kind))
                .copied()
                .collect();
            charts.push(TsChart {
                workload: wi,
                measure,
                runs,
                opts,
            });
        }
    }
    charts
}

/// A line before it is scaled: config, stroke, end label, (x, y base).
struct UnscaledTrace {
    config: usize,
    stroke: Stroke,
    tag: Option<String>,
    points: Vec<(f64, f64)>,
}

impl Plot for TsChart<'_> {
    type Source = Comparison;

    /// `timeseries_randwrite_4k_write_bw`.
    fn stem(&self, cmp: &Comparison) -> String {
        let w = &cmp.workloads[self.workload];
        format!(
            "timeseries_{}_{}",
            crate::charts::names::workload_point_slug(cmp, w),
            self.measure.slug()
        )
    }

    fn footer(&self, cmp: &Comparison) -> Option<String> {
        footer::of_workload(cmp, self.workload)
    }

    fn figure(&self, cmp: &Comparison) -> Figure {
        let w = &cmp.workloads[self.workload];
        let width = self.width_ms();
        let traces = self.traces(width);
        let max_y = traces.iter().flat_map(|t| t.points.iter().map(|p| p.1));
        let (scale, y, y_ticks, _) = load::value_axis(
            self.measure.metric(),
            max_y.fold(0.0, f64::max),
            Some(&cmp.units),
        );
        let max_x = traces.iter().flat_map(|t| t.points.iter().map(|p| p.0));
        let max_x = max_x.fold(0.0, f64::max).max(f64::MIN_POSITIVE);
        let mut plot = LinePlot::new(Range::Linear(0.0, max_x * 1.02), y, Vec::new());
        let (ticks, decimals) = linear_ticks(0.0, max_x, 8);
        plot.x_ticks = ticks
            .into_iter()
            .map(|t| (t, numbers::fixed(t, decimals)))
            .collect();
        plot.x_title = match self.measure {
            Measure::ByData => "Data written (GiB)".into(),
            _ => "Time since the job started (s)".into(),
        };
        plot.y_ticks = y_ticks;
        plot.y_title = match scale.unit {
            "" => self.measure.name().to_string(),
            u => format!("{} ({u})", self.measure.name()),
        };
        for t in &traces {
            let color = palette::color(t.config);
            let points: Vec<(f64, f64)> = t
                .points
                .iter()
                .map(|(x, y)| (*x, scale.to_display(*y)))
                .collect();
            if let (Some(tag), Some(last)) = (&t.tag, points.last()) {
                plot.labels.push(PointLabel {
                    at: *last,
                    text: tag.clone(),
                    color,
                    strong: false,
                });
            }
            let dots = points.len() <= MAX_DOTS;
            plot.lines.push(ConfigLine {
                color,
                points,
                dots,
                stroke: t.stroke,
            });
        }
        let shaded = self.shade(cmp, &mut plot);
        let footnotes = self.spread_note(cmp, &traces, scale);
        let mut legend: Vec<(String, RGBColor)> = Vec::new();
        for (c, _) in &self.runs {
            let entry = (cmp.configs[*c].clone(), palette::color(*c));
            if !legend.contains(&entry) {
                legend.push(entry);
            }
        }
        let frame = Frame {
            title: format!(
                "{}: {}",
                crate::charts::labels::workload_point_label_of_direction(cmp, w),
                self.title()
            ),
            subtitle: Some(self.subtitle(cmp, width, shaded)),
            legend,
            footnotes,
            ..Default::default()
        };
        Figure::lines(frame, plot)
    }
}

impl TsChart<'_> {
    /// One bucket width for the whole chart, so lines share their steps.
    fn width_ms(&self) -> u64 {
        let span = self.runs.iter().map(|(_, r)| r.span_ms()).max();
        let window = self.runs.iter().map(|(_, r)| r.window_ms).max();
        bucket::adaptive_width(span.unwrap_or(0), TARGET_POINTS, window.unwrap_or(0))
    }

    /// Buckets of `kind` (and percentile) of one run: one series per job
    /// with `--per-job`, else the jobs merged; smoothed when asked.
    fn series(
        &self,
        run: &RunLogs,
        kind: Kind,
        pct: Option<u64>,
        width: u64,
    ) -> Vec<Vec<BucketPoint>> {
        let Some(logs) = run.logs.get(&(kind, pct)) else {
            return Vec::new();
        };
        let jobs: Vec<Vec<BucketPoint>> = logs.iter().map(|fold| fold.points(width)).collect();
        let mut all = if self.opts.per_job {
            jobs
        } else {
            vec![bucket::merge(&jobs, kind)]
        };
        if bucket::is_rate(kind) {
            all = all.iter().map(|p| bucket::fill_gaps(p, width)).collect();
        }
        match self.opts.smooth_ms {
            Some(span) => all.iter().map(|p| bucket::smooth(p, span)).collect(),
            None => all,
        }
    }

    /// Every line of the chart, in base units.
    fn traces(&self, width: u64) -> Vec<UnscaledTrace> {
        let secs = |p: &BucketPoint| p.t_ms as f64 / 1000.0;
        let mut out = Vec::new();
        for (n, (config, run)) in self.runs.iter().enumerate() {
            let config = *config;
            let rep = self.repetition(n);
            // Job `i` of this run: dashed unless it is the first job of the
            // first run, named by its run and job where either is one of many.
            let line = |i: usize, points| UnscaledTrace {
                config,
                stroke: job_stroke(i + rep.unwrap_or(0)),
                tag: tags([rep.map(run_tag), self.job_tag(i)]),
                points,
            };
            match self.measure {
                Measure::Over(kind) => {
                    for (i, s) in self.series(run, kind, None, width).iter().enumerate() {
                        out.push(line(i, s.iter().map(|p| (secs(p), p.value)).collect()));
                    }
                }
                Measure::ByData => {
                    for (i, s) in self.series(run, Kind::Bw, None, width).iter().enumerate() {
                        let gib = bucket::cumulative_bytes(s, width);
                        let points = gib
                            .iter()
                            .zip(s)
                            .map(|(b, p)| (b / (1u64 << 30) as f64, p.value))
                            .collect();
                        out.push(line(i, points));
                    }
                }
                Measure::Percentiles => {
                    let mut traces = self.percentile_traces(config, run, width);
                    for t in &mut traces {
                        t.tag = tags([rep.map(run_tag), t.tag.take()]);
                    }
                    out.extend(traces);
                }
            }
        }
        out
    }

    /// Which repetition of its config the `n`th run is (0 for the first),
    /// when the config has more than one run with logs here (`run
    /// --repeat`, or several result files of one workload): they share the
    /// config's colour, so each is named at its end and all but the first
    /// are dashed.
    fn repetition(&self, n: usize) -> Option<usize> {
        let config = self.runs[n].0;
        let same = |c: &&(usize, &RunLogs)| c.0 == config;
        (self.runs.iter().filter(same).count() > 1)
            .then(|| self.runs[..n].iter().filter(same).count())
    }

    /// With `--per-job`, lines of one config share its colour: each is
    /// named at its end (`job 2`: the job's clone in log order).
    fn job_tag(&self, i: usize) -> Option<String> {
        self.opts.per_job.then(|| format!("job {}", i + 1))
    }

    /// p50 solid, higher percentiles dashed, each named at its end.
    fn percentile_traces(&self, config: usize, run: &RunLogs, width: u64) -> Vec<UnscaledTrace> {
        let pcts = run
            .logs
            .keys()
            .filter(|(k, p)| *k == Kind::Hist && p.is_some());
        let mut out = Vec::new();
        for (_, pct) in pcts {
            let p = f64::from_bits(pct.unwrap_or(0));
            for s in self.series(run, Kind::Hist, *pct, width) {
                out.push(UnscaledTrace {
                    config,
                    stroke: if p <= 50.0 {
                        Stroke::Solid
                    } else {
                        Stroke::Dashed
                    },
                    tag: Some(format!(
                        "p{}",
                        numbers::fixed(p, if p.fract() == 0.0 { 0 } else { 1 })
                    )),
                    points: s
                        .iter()
                        .map(|q| (q.t_ms as f64 / 1000.0, q.value))
                        .collect(),
                });
            }
        }
        out
    }
}

impl TsChart<'_> {
    fn title(&self) -> String {
        match self.measure {
            Measure::ByData => "bandwidth against data written".into(),
            m => format!("{} over time", m.name().to_lowercase()),
        }
    }

    /// Each config's mean over the chart's buckets and their spread, as
    /// fio-plot tables them under its `-g` charts: a line that swings (a
    /// cache cliff, stalls) reads as such without the eye averaging it.
    /// Buckets where a stalled job logged nothing count as zero, so the
    /// mean is the run's, not the mean of the rows fio happened to write.
    /// Only for merged, unsmoothed lines of one value per time.
    fn spread_note(
        &self,
        cmp: &Comparison,
        traces: &[UnscaledTrace],
        scale: ChartScale,
    ) -> Vec<String> {
        if self.opts.per_job || self.opts.smooth_ms.is_some() {
            return Vec::new();
        }
        if !matches!(self.measure, Measure::Over(_)) {
            return Vec::new();
        }
        let parts: Vec<String> = traces
            .iter()
            .filter_map(|t| {
                let values: Vec<f64> = t.points.iter().map(|p| p.1).collect();
                let sum = Summary::of(&values).filter(|s| s.n >= 2 && s.mean > 0.0)?;
                let (mean, cv) = (scale.to_display(sum.mean), sum.stddev / sum.mean);
                let unit = match scale.unit {
                    "" => String::new(),
                    u => format!(" {u}"),
                };
                let who = match &t.tag {
                    Some(tag) => format!("{} {tag}", cmp.configs[t.config]),
                    None => cmp.configs[t.config].clone(),
                };
                Some(format!(
                    "{who} mean {}{unit}, sd {} %",
                    numbers::fixed(mean, numbers::significant_decimals(mean)),
                    numbers::fixed(cv * 100.0, 1),
                ))
            })
            .collect();
        if parts.is_empty() {
            return Vec::new();
        }
        vec![format!("Over the buckets: {}", parts.join(" · "))]
    }

    /// How the lines were made from the logs, in one line (DiskSpd's `-D`
    /// intervals count as logs).
    fn subtitle(&self, cmp: &Comparison, width_ms: u64, shaded: bool) -> String {
        let how = match (self.opts.per_job, self.measure) {
            (true, _) => "a line per job (the first solid, others dashed)",
            (false, Measure::Over(Kind::Bw | Kind::Iops) | Measure::ByData) => "jobs summed",
            (false, _) => "jobs averaged",
        };
        let mut s = format!(
            "From {}, {how}, per {} bucket",
            sources(cmp),
            seconds(width_ms)
        );
        if let Some(span) = self.opts.smooth_ms {
            s.push_str(&format!("; moving average over {}", seconds(span)));
        }
        if (0..self.runs.len()).any(|n| self.repetition(n).is_some()) {
            s.push_str("; a line per run of a config (the first solid)");
        }
        if self.measure == Measure::Percentiles {
            s.push_str("; p50 solid, higher percentiles dashed");
        }
        if shaded {
            s.push_str(&self.steady_note(cmp));
        }
        s
    }

    /// Whose steady-state window is shaded, and who never got there: with
    /// one band on the chart a reader must not take it for every config's.
    fn steady_note(&self, cmp: &Comparison) -> String {
        let w = &cmp.workloads[self.workload];
        let mut configs: Vec<usize> = self.runs.iter().map(|(c, _)| *c).collect();
        configs.dedup();
        let state = |c: &usize| w.steady_state.get(&cmp.configs[*c]);
        let shaded: Vec<&str> = configs
            .iter()
            .filter(|c| state(c).is_some_and(|s| s.window_start_s.is_some()))
            .map(|c| cmp.configs[*c].as_str())
            .collect();
        let never: Vec<&str> = configs
            .iter()
            .filter(|c| state(c).is_some_and(|s| !s.attained))
            .map(|c| cmp.configs[*c].as_str())
            .collect();
        let whose = if shaded.len() == configs.len() && configs.len() > 1 {
            "each config's steady-state window, in its colour".to_string()
        } else {
            let plural = if shaded.len() > 1 { "s" } else { "" };
            format!("{}'s steady-state window{plural}", shaded.join("'s and "))
        };
        let mut s = format!("; shaded: {whose} (SNIA rule)");
        if !never.is_empty() {
            s.push_str(&format!("; {} never steady", never.join(", ")));
        }
        s
    }

    /// Shades each config's steady-state window where one is known (on a
    /// time axis only); true when any was.
    fn shade(&self, cmp: &Comparison, plot: &mut LinePlot) -> bool {
        if self.measure == Measure::ByData {
            return false;
        }
        let w = &cmp.workloads[self.workload];
        for (c, _) in &self.runs {
            let Some(s) = w.steady_state.get(&cmp.configs[*c]) else {
                continue;
            };
            if let (Some(from), Some(to)) = (s.window_start_s, s.window_end_s) {
                let band = Band {
                    from,
                    to,
                    color: palette::color(*c),
                };
                if !plot.bands.iter().any(|b| b.from == from && b.to == to) {
                    plot.bands.push(band);
                }
            }
        }
        !plot.bands.is_empty()
    }
}

/// `run 2`: the repetition's name at the end of its line.
fn run_tag(rep: usize) -> String {
    format!("run {}", rep + 1)
}

/// The names a line carries, joined (`run 2 job 1`); None when it has none.
fn tags<const N: usize>(parts: [Option<String>; N]) -> Option<String> {
    let parts: Vec<String> = parts.into_iter().flatten().collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// Clones of one config share its colour: the first solid, the others
/// dashed, so two that run close stay told apart where labels would clash.
fn job_stroke(i: usize) -> Stroke {
    if i == 0 {
        Stroke::Solid
    } else {
        Stroke::Dashed
    }
}

/// `1 s`, `200 ms`.
fn seconds(ms: u64) -> String {
    if ms >= 1000 && ms.is_multiple_of(100) {
        format!(
            "{} s",
            numbers::fixed(
                ms as f64 / 1000.0,
                if ms.is_multiple_of(1000) { 0 } else { 1 }
            )
        )
    } else {
        format!("{ms} ms")
    }
}

/// What the time series come from: fio's logs, and DiskSpd's `-D`
/// intervals when a config was measured by DiskSpd (the setup says so).
fn sources(cmp: &Comparison) -> &'static str {
    let diskspd = cmp.setup.items.iter().any(|i| {
        i.key == "tool"
            && i.values
                .values()
                .flatten()
                .any(|v| v.starts_with("DiskSpd"))
    });
    if diskspd {
        "fio's logs and DiskSpd's -D intervals"
    } else {
        "fio's logs"
    }
}
