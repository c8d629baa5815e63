//! One value cell of a table (a metric of one config), how a row of them
//! prints, and the notes its marked cells need: shared by the workload
//! tables ([`super::view`]), the sweep tables ([`super::sweep_view`]) and
//! the charts' footnotes.

use serde::Serialize;

use super::table::Tone;
use crate::compare::MetricResult;
use crate::compare::metric::RowStyle;
use crate::compare::report_units::ReportUnits;
use crate::numbers;

#[derive(Debug, Clone, Serialize)]
pub struct CellView {
    pub config: String,
    /// The value as printed ("10.058", "2,411,000"); "–" when missing.
    pub text: String,
    /// Winner or tied for best.
    pub best: bool,
    pub winner: bool,
    pub tied: bool,
    /// Against the baseline: "+17.3 %" (past +1000 % a ratio, "x12.3");
    /// empty for the baseline itself, an excluded value, or when unknown.
    pub delta: String,
    /// `text` carries its unit ("17.11 s ⚠", "13.04 ms"): the value is too
    /// far from its row's median to share the row's unit, or the row
    /// prints a unit in every cell.
    pub own_unit: bool,
}

impl CellView {
    /// How the cell stands out: the winner as the best, the configs tied
    /// for best as tied.
    pub fn tone(&self) -> Tone {
        if self.winner {
            Tone::Best
        } else if self.tied {
            Tone::Tied
        } else {
            Tone::Plain
        }
    }
}

/// "a", "a and b", "a, b and c".
pub fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// How one row (a metric across configs) prints: its style (the report's
/// unit, one count of decimals) and the decimals of its deltas.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RowFormat {
    pub style: RowStyle,
    pub delta_decimals: usize,
}

impl RowFormat {
    /// The format of `m`'s row from its compared values, in the report's
    /// units.
    pub fn of(m: &MetricResult, units: &ReportUnits) -> RowFormat {
        RowFormat::with_style(m, m.row_style(units))
    }

    /// `m`'s deltas with a style fixed elsewhere (a sweep table's column).
    pub fn with_style(m: &MetricResult, style: RowStyle) -> RowFormat {
        let deltas: Vec<f64> = m.delta_pct.values().flatten().copied().collect();
        RowFormat {
            style,
            delta_decimals: numbers::change_decimals(&deltas),
        }
    }
}

/// Marks a cell's text: `†` a value left out of the comparison, `⚠` one
/// too far from its row's median to share its unit.
pub const EXCLUDED_MARK: &str = "†";
pub const FAR_MARK: &str = "⚠";

fn delta_text(m: &MetricResult, config: &str, is_base: bool, decimals: usize) -> String {
    if is_base || m.exclusion(config).is_some() {
        return String::new();
    }
    match m.delta_pct.get(config).copied().flatten() {
        Some(p) => numbers::change(p, decimals),
        None => String::new(),
    }
}

/// One config's value of a metric, marked as the comparison decided; an
/// excluded value is shown marked and never best, a far one in its own
/// unit and flagged.
pub(crate) fn cell(m: &MetricResult, config: &str, row: &RowFormat, is_base: bool) -> CellView {
    let v = m.values.get(config).copied().flatten();
    let excluded = m.exclusion(config).is_some();
    let contest = m.contested() && !excluded;
    let winner = contest && m.winner.as_deref() == Some(config);
    let tied = contest && m.tied.iter().any(|t| t == config);
    let text = match v {
        // Fio measured nothing it can be trusted with (gtod_reduce): the
        // footnote says why the cell is empty.
        None if excluded => format!("{} {EXCLUDED_MARK}", numbers::MISSING),
        None => numbers::MISSING.into(),
        Some(v) if excluded => format!("{} {EXCLUDED_MARK}", row.style.text(v)),
        Some(v) if row.style.is_far(v) => format!("{} {FAR_MARK}", row.style.text(v)),
        Some(v) => row.style.text(v),
    };
    CellView {
        config: config.to_string(),
        text,
        best: winner || tied,
        winner,
        tied,
        delta: delta_text(m, config, is_base, row.delta_decimals),
        own_unit: v.is_some_and(|v| row.style.prints_unit(v)),
    }
}

/// Notes that say the same of several metrics, said once: "† mean
/// latency of X at QD1: why" and "† p99 latency of X at QD1: why" become
/// "† mean latency and p99 latency of X at QD1: why". A note is split at
/// its first " of " (metric names have none); order is kept.
pub(crate) fn merge_metrics(lines: Vec<String>) -> Vec<String> {
    let mut merged: Vec<(Vec<String>, String)> = Vec::new();
    for line in lines {
        let Some((head, rest)) = line.split_once(" of ") else {
            merged.push((vec![line], String::new()));
            continue;
        };
        match merged.iter_mut().find(|(_, r)| !r.is_empty() && r == rest) {
            Some((heads, _)) => {
                let bare = head
                    .trim_start_matches([EXCLUDED_MARK.chars().next().unwrap(), ' '])
                    .to_string();
                heads.push(bare);
            }
            None => merged.push((vec![head.to_string()], rest.to_string())),
        }
    }
    merged
        .into_iter()
        .map(|(heads, rest)| {
            if rest.is_empty() {
                heads.concat()
            } else {
                format!("{} of {rest}", join_and(&heads))
            }
        })
        .collect()
}

/// The footnotes a row's marked cells need, `at` naming the load point
/// when the table spans several ("" otherwise) and `median_of` what the
/// median is taken over ("its row"): why a value is excluded, and that a
/// value is far (shown in its own unit where the metric has no
/// report-wide one).
pub(crate) fn cell_notes(
    m: &MetricResult,
    configs: &[String],
    style: &RowStyle,
    (at, median_of): (&str, &str),
) -> Vec<String> {
    let mut out = Vec::new();
    for c in configs {
        let v = m.values.get(c).copied().flatten();
        if let Some(why) = m.exclusion(c) {
            out.push(format!(
                "{EXCLUDED_MARK} {} of {c}{at}: {why}; not compared.",
                m.human()
            ));
        } else if let Some(v) = v.filter(|v| style.is_far(*v)) {
            // Said in its own readable unit even where the cell keeps the
            // report's one unit (#54).
            let shown = if style.in_own_unit(v) {
                ": shown in its own unit"
            } else {
                ""
            };
            out.push(format!(
                "{FAR_MARK} {} of {c}{at} ({}) is over {} times the median of {median_of} ({}){shown}; check the run.",
                m.human(),
                style.own_text(v),
                numbers::fixed(numbers::FAR_FROM_MEDIAN, 0),
                style.scale.with_unit_decimals(style.median, numbers::significant_decimals(style.median / style.scale.div)),
            ));
        }
    }
    out
}
