//! What every table renderer shows, computed once from a [`Comparison`]:
//! formatted cells (winner and ties as the comparison decided them),
//! row titles with units, precision footnotes. Templates receive this as
//! their context, so a user's `--template` sees the same fields:
//!
//! `title`, `description`, `setup` (see [`super::setup_view`]), `configs`,
//! `baseline`, `groups[].name`,
//! `groups[].workloads[].{title, rows[].{title, cells[].{config, text,
//! best, winner, tied, delta, own_unit}, metric, better}, ties, notes,
//! footnotes}`,
//! `highlights`, `footnotes`, `sanity`, `warnings`,
//! `skipped[].{source, reason}`, `charts`, `svgs`, `colors`.
//!
//! Each table (`setup.shared_table`, `setup.differing_table`, the
//! `table` of each workload, sweep, grid, block-size sweep and device
//! list) is also there written in the report's markup, by [`super::md`]
//! or [`super::html`]: a template inserts it or lays out its own.
//!
//! `charts` are image paths (Markdown) or `data:` URIs (HTML); `svgs` the
//! same charts as SVG markup for HTML to inline (drawn by nvcmp, every
//! text in them escaped, so a template may print them `|safe`); `colors`
//! each config's colour in the charts, `#RRGGBB`, in `configs` order.
//!
//! Shapes (rw, bs, direction, rwmixread) that a config measured at two or
//! more load points are sweeps: they get one table in `groups[].sweeps[]`
//! instead of a table per load point in `groups[].workloads[]`:
//!
//! `groups[].sweeps[].{title, axis, configs, lat_unit, rows[].{load,
//! cells[].{config, missing, iops, lat_mean, clat_p99, ran_at}},
//! summaries[].{config, peak, knee, at_slo, line}, grids[].{config,
//! numjobs, rows[].{iodepth, cells[].{text, peak}}}, notes}`.
//!
//! `iops`, `lat_mean` and `clat_p99` are cells as above (`clat_p99` is
//! null where no config reported it), marked as the comparison decided at
//! that load point; latencies are in `lat_unit`, or carry their unit
//! where it is empty. `ran_at` is the queue depth a config really ran at
//! where it differs from the row's ("QD1");
//! `grids` exist for sweeps over both iodepth and numjobs.
//!
//! An rw that a config measured at two or more block sizes at one load
//! point is a block-size sweep, in `bs_sweeps[].{title, configs, bw_unit,
//! rows[].{bs, cells[].{config, bw, iops, peak}}, summaries}` (see
//! [`super::bs_sweep_view`]); its workloads keep their own tables.

use serde::Serialize;

pub use super::cell::CellView;
use super::cell::{RowFormat, cell, cell_notes, join_and, merge_metrics};
use super::setup_view::SetupView;
use super::sweep_view::SweepView;
use super::sweeps;
use crate::compare::metric::{Scales, coarse_precisions};
use crate::compare::{Comparison, Metric, MetricResult, Rule, Workload};
use crate::model::{Direction, Skipped};
use crate::numbers;

#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// The manifest's title, else one built from what the configs share
    /// ([`generated_title`]).
    pub title: String,
    /// The manifest's description paragraph.
    pub description: Option<String>,
    /// What was run: shared and per-config setup items.
    pub setup: SetupView,
    pub configs: Vec<String>,
    pub baseline: Option<String>,
    /// Why the baseline was chosen, where no flag or manifest chose it.
    pub baseline_why: Option<String>,
    pub groups: Vec<GroupView>,
    /// Every finding, key ones first (the comparison's `highlights`).
    pub highlights: Vec<String>,
    /// What reports lead with.
    pub key_findings: Vec<String>,
    /// The findings that are not key ones, in ranked order.
    pub more_findings: Vec<String>,
    pub footnotes: Vec<String>,
    pub sanity: Vec<String>,
    pub warnings: Vec<String>,
    pub skipped: Vec<Skipped>,
    /// Chart image paths (relative to the report), when the caller has any.
    pub charts: Vec<String>,
    /// The charts as SVG markup, for HTML to inline; empty elsewhere.
    pub svgs: Vec<String>,
    /// `@font-face` CSS for the inline SVGs (HTML only).
    pub font_css: String,
    /// Each config's colour in the charts, `#RRGGBB`.
    pub colors: Vec<String>,
    /// Per-device tables of test beds (several targets in one result).
    pub devices: Vec<super::devices_view::DeviceTableView>,
    /// Per rw and load point measured at several block sizes: bandwidth
    /// and IOPS by block size, each config's peak, saturation and knee.
    pub bs_sweeps: Vec<super::bs_sweep_view::BsSweepView>,
    /// How the runs were grouped ([`crate::model::Study::lines`]), one
    /// line each; empty where nothing was ingested.
    pub grouped: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct GroupView {
    /// "Read", "Write", "Trim".
    pub name: String,
    /// Tables of the shapes measured at one load point.
    pub workloads: Vec<WorkloadView>,
    /// Tables of the shapes some config swept over load points.
    pub sweeps: Vec<SweepView>,
}

#[derive(Debug, Clone, Serialize)]
pub struct WorkloadView {
    pub title: String,
    pub rows: Vec<RowView>,
    /// "IOPS: windows-native, linux-libaio, linux-io_uring tie (within rounding)".
    pub ties: Vec<String>,
    pub notes: Vec<String>,
    /// What the marked cells (`†` excluded, `⚠` far from the row's
    /// median) mean, one line per marked cell.
    pub footnotes: Vec<String>,
    /// The table in the report's markup, written by the Markdown or HTML
    /// renderer ([`super::md`], [`super::html`]); empty in the others.
    pub table: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct RowView {
    /// With unit: "Bandwidth (GiB/s)".
    pub title: String,
    /// CONTRACT key: "bw_bytes_per_s".
    pub metric: String,
    /// Which way is better: "higher" or "lower".
    pub better: crate::compare::Better,
    pub cells: Vec<CellView>,
}

/// Metrics shown in tables, in row order. Efficiency metrics stay in the
/// JSON and CSV output; tables keep to what articles print.
pub const TABLE_METRICS: [Metric; 5] = [
    Metric::BwBytesPerS,
    Metric::Iops,
    Metric::LatMeanNs,
    Metric::ClatP99Ns,
    Metric::CpuPct,
];

fn group_name(d: Direction) -> &'static str {
    match d {
        Direction::Read => "Read",
        Direction::Write => "Write",
        Direction::Trim => "Trim",
    }
}

/// Why configs tie, in words; `margin_pct` is the comparison's
/// equivalence margin.
fn rule_text(rule: Rule, margin_pct: Option<f64>) -> String {
    match rule {
        Rule::NotSignificant => "not significantly different".into(),
        Rule::Equivalent => match margin_pct {
            Some(pct) => format!(
                "within the {} % equivalence margin",
                numbers::trimmed(pct, 2)
            ),
            None => "within the --equivalence margin".into(),
        },
        _ => "within rounding".into(),
    }
}

/// "judged on bandwidth, the same measurement known more precisely": where a metric carries
/// the verdict of the other figure of its measurement
/// ([`MetricResult::decided_by`]).
fn judged_on(m: &MetricResult) -> Option<String> {
    m.decided_by.map(|by| {
        format!(
            "judged on {}, the same measurement known more precisely",
            by.human()
        )
    })
}

/// A line for a metric whose winner is another figure's verdict that its
/// own figures cannot show (two configs print the same rounded IOPS, one
/// best by its bandwidth): why one of equal-looking cells is marked.
fn carried_winner(m: &MetricResult, title: &str) -> Option<String> {
    let winner = m.winner.as_deref()?;
    let why = judged_on(m)?;
    let w = m.value(winner)?;
    let pw = m.precision.get(winner).copied().unwrap_or(0.0);
    let hidden = m.compared().any(|(c, v)| {
        let p = m.precision.get(c).copied().unwrap_or(0.0);
        c != winner && crate::compare::stats::precision_tie(w, pw, v, p)
    });
    hidden
        .then(|| format!("{title}: {winner} is best, {why} (these figures as rounded cannot tell)"))
}

impl View {
    pub fn new(cmp: &Comparison, charts: &[String]) -> View {
        let scales = Scales::of(cmp, &TABLE_METRICS);
        let tables = sweeps::tables(cmp);
        let mut groups: Vec<GroupView> = Vec::new();
        for w in &cmp.workloads {
            let name = group_name(w.key.shape.direction);
            if groups.last().is_none_or(|g| g.name != name) {
                groups.push(GroupView {
                    name: name.into(),
                    workloads: Vec::new(),
                    sweeps: Vec::new(),
                });
            }
            let group = groups.last_mut().expect("pushed above");
            match tables.iter().find(|t| t.holds(w)) {
                // A sweep shape is one table, placed where its first load
                // point is; its load points get no tables of their own.
                Some(t) if t.workloads[0].key.load == w.key.load => {
                    group.sweeps.push(SweepView::new(cmp, t))
                }
                Some(_) => {}
                None => group.workloads.push(workload_view(cmp, w)),
            }
        }
        View {
            title: (cmp.setup.title.clone()).unwrap_or_else(|| generated_title(cmp)),
            description: cmp.setup.description.clone(),
            setup: SetupView {
                rule: cmp.config_rule.sentence(),
                ..SetupView::new(&cmp.setup, &cmp.configs)
            },
            configs: cmp.configs.clone(),
            baseline: cmp.baseline.clone(),
            baseline_why: cmp.baseline_why.clone(),
            groups,
            highlights: cmp.highlights.clone(),
            key_findings: cmp.key_findings.iter().map(|k| k.text.clone()).collect(),
            more_findings: cmp
                .highlights
                .iter()
                .filter(|h| !cmp.key_findings.iter().any(|k| &k.text == *h))
                .cloned()
                .collect(),
            footnotes: footnotes(cmp, &scales),
            sanity: super::check_lines::checks(&cmp.sanity),
            warnings: super::check_lines::warnings(&cmp.warnings),
            skipped: super::check_lines::skipped(&cmp.skipped),
            charts: charts.to_vec(),
            svgs: Vec::new(),
            font_css: String::new(),
            colors: (0..cmp.configs.len())
                .map(crate::palette::config_color)
                .collect(),
            devices: super::devices_view::tables(cmp),
            bs_sweeps: super::bs_sweep_view::tables(cmp),
            grouped: match cmp.study.is_empty() {
                true => Vec::new(),
                false => cmp.study.lines(),
            },
        }
    }
}

/// One workload's table: a row per metric, a cell per config, latency
/// and bandwidth in the report's one unit of each.
fn workload_view(cmp: &Comparison, w: &Workload) -> WorkloadView {
    let base = cmp.baseline.as_deref();
    let mut rows = Vec::new();
    let mut ties = Vec::new();
    let mut footnotes = Vec::new();
    for m in w
        .metrics
        .iter()
        .filter(|m| TABLE_METRICS.contains(&m.metric))
    {
        let row = RowFormat::of(m, &cmp.units);
        let cells = cmp
            .configs
            .iter()
            .map(|c| cell(m, c, &row, base == Some(c.as_str())))
            .collect();
        let title = row.style.title_at(m.tail_pct);
        if !m.tied.is_empty() {
            let why = match judged_on(m) {
                Some(on) => format!("{}; {on}", rule_text(m.rule, cmp.equivalence_pct)),
                None => rule_text(m.rule, cmp.equivalence_pct),
            };
            ties.push(format!("{title}: {} tie ({why})", join_and(&m.tied)));
        }
        footnotes.extend(carried_winner(m, &title));
        footnotes.extend(cell_notes(m, &cmp.configs, &row.style, ("", "its row")));
        rows.push(RowView {
            title,
            metric: m.metric.key_at(m.tail_pct).into(),
            better: m.better,
            cells,
        });
    }
    WorkloadView {
        title: cmp.title_of(w),
        rows,
        ties,
        notes: w.note_lines(),
        footnotes: merge_metrics(footnotes),
        table: String::new(),
    }
}

/// "IOPS of linux-libaio and linux-io_uring are known to the nearest
/// 1,000": one line per metric and precision coarser than a lone value of
/// its scale prints, when configs differ in it.
fn footnotes(cmp: &Comparison, scales: &Scales) -> Vec<String> {
    let mut out = Vec::new();
    for (m, s) in scales.iter() {
        let results: Vec<&MetricResult> =
            cmp.workloads.iter().filter_map(|w| w.metric(*m)).collect();
        let coarse = coarse_precisions(&cmp.configs, &results, s.step());
        // Every config as coarse as the others: nothing to tell apart.
        let all_alike = coarse.len() == 1 && coarse[0].1.len() == cmp.configs.len();
        if all_alike {
            continue;
        }
        for (p, who) in coarse {
            let who: Vec<String> = who.into_iter().map(String::from).collect();
            let verb = if who.len() == 1 { "is" } else { "are" };
            out.push(format!(
                "{} of {} {verb} known to {}",
                m.human_title(),
                join_and(&who),
                s.unit_after(numbers::step_text(p / s.div))
            ));
        }
    }
    out
}

/// Longest list of config names a title holds ("a, b and c compared");
/// past it the title says what the configs are and what they share.
const TITLE_LIST_CHARS: usize = 48;

/// "X results" for one config; "X, Y and Z compared" for a few short
/// names; else what the configs differ by and share: "5 I/O schedulers
/// compared on 8 devices, fio 3.35".
fn generated_title(cmp: &Comparison) -> String {
    let configs = &cmp.configs;
    if let Some(all) = cmp.all_configs {
        // A bounded view (compare::shown): the study's count, and how many
        // the report shows.
        return format!(
            "{} configs compared ({} shown)",
            crate::numbers::whole(all as u64),
            configs.len()
        );
    }
    let list = join_and(configs);
    match configs.as_slice() {
        [one] => return format!("{one} results"),
        c if c.len() <= 3 && list.chars().count() <= TITLE_LIST_CHARS => {
            return format!("{list} compared");
        }
        _ => {}
    }
    let (what, key) = subject(cmp);
    // Configs that the subject's option does not name (an SPDK run among
    // I/O schedulers) are named beside it, not counted as one.
    let others: Vec<String> = match key {
        Some(key) => cmp
            .config_rule
            .values
            .iter()
            .filter(|(_, v)| v.get(key).and_then(|x| x.as_ref()).is_none())
            .map(|(c, _)| c.clone())
            .filter(|c| configs.contains(c))
            .collect(),
        None => Vec::new(),
    };
    let named = configs.len() - others.len();
    let mut title = match others.len() {
        0 => format!("{} {what} compared", configs.len()),
        1 | 2 if named >= 2 => format!("{named} {what} and {} compared", join_and(&others)),
        _ => format!("{} configs compared", configs.len()),
    };
    let devices: std::collections::BTreeSet<u32> =
        cmp.workloads.iter().map(|w| w.key.load.devices).collect();
    if let [d] = devices.into_iter().collect::<Vec<_>>().as_slice()
        && *d > 1
    {
        title.push_str(&format!(" on {d} devices"));
    }
    let shared = |key: &str| {
        cmp.setup
            .items
            .iter()
            .find(|i| i.key == key)
            .and_then(|i| i.value.clone())
    };
    if let Some(v) = shared("fio_version") {
        // fio names itself `fio-3.35`; a title says it as a reader would.
        let said = v
            .strip_prefix("fio-")
            .map_or(v.clone(), |n| format!("fio {n}"));
        title.push_str(&format!(", {said}"));
    }
    title
}

/// What the configs are, from the option that tells most of them apart
/// ("I/O schedulers"), else "configs"; with that option where it names
/// them.
fn subject(cmp: &Comparison) -> (&'static str, Option<&str>) {
    let rule = &cmp.config_rule;
    let distinct = |key: &str| {
        let vals: std::collections::BTreeSet<Option<&String>> = rule
            .values
            .values()
            .map(|v| v.get(key).and_then(|x| x.as_ref()))
            .collect();
        vals.len()
    };
    let key = rule
        .keys
        .iter()
        .max_by_key(|k| distinct(k))
        .map(String::as_str);
    let what = match key.unwrap_or(rule.rule.as_str()) {
        "ioscheduler" => "I/O schedulers",
        "ioengine" | "engine" => "I/O engines",
        "os" => "operating systems",
        "filename" | "file" => "devices",
        "host" => "hosts",
        _ => "configs",
    };
    (what, key.filter(|_| what != "configs"))
}
