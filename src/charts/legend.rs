//! The legend of a chart: an entry per config in its colour, and the
//! keys of what marks on the plot mean (hatched ties, error bars).

use plotters::style::RGBColor;

use super::marks::{Glyph, Key};
use super::palette;

use crate::compare::{Comparison, MetricResult, Rule, Spread, SpreadSource};

/// Every config with its colour, for the legend.
pub(crate) fn all(cmp: &Comparison) -> Vec<(String, RGBColor)> {
    of(cmp, 0..cmp.configs.len())
}

/// The configs at `indices` (display order) with their colours, for the
/// legend of a chart that shows only some of them.
pub(crate) fn of(
    cmp: &Comparison,
    indices: impl IntoIterator<Item = usize>,
) -> Vec<(String, RGBColor)> {
    indices
        .into_iter()
        .map(|i| (cmp.configs[i].clone(), palette::color(i)))
        .collect()
}

/// The keys of a bar chart of `results`: its error bars, then its ties
/// for best.
pub(crate) fn bar_keys(results: &[&MetricResult]) -> Vec<Key> {
    spread_key(results)
        .into_iter()
        .chain(tie_key(results))
        .collect()
}

/// The hatched key of a bar chart whose results have ties for best.
fn tie_key(results: &[&MetricResult]) -> Option<Key> {
    let rules = results
        .iter()
        .filter(|r| !r.tied.is_empty())
        .map(|r| r.rule);
    tie_reason(rules).map(|why| Key {
        glyph: Glyph::Hatched,
        text: format!("☆ tied for best: {why} of each other"),
    })
}

/// The hatched key of a delta chart whose results have deltas that are no
/// real change.
pub(crate) fn baseline_tie_key(results: &[&MetricResult]) -> Option<Key> {
    let rules = results
        .iter()
        .flat_map(|r| r.baseline_ties.values().copied());
    tie_reason(rules).map(|why| Key {
        glyph: Glyph::Hatched,
        text: format!("≈ {why} of the baseline: no real change"),
    })
}

/// Why values tie, from the rules that tied them: "within rounding",
/// "within noise (not significant)", "within the equivalence margin", or
/// several joined.
fn tie_reason(rules: impl IntoIterator<Item = Rule>) -> Option<String> {
    let rules: Vec<Rule> = rules.into_iter().collect();
    let reasons: Vec<&str> = [
        (Rule::WithinPrecision, "rounding"),
        (Rule::NotSignificant, "noise (not significant)"),
        (Rule::Equivalent, "the --equivalence margin"),
    ]
    .into_iter()
    .filter(|(rule, _)| rules.contains(rule))
    .map(|(_, why)| why)
    .collect();
    (!reasons.is_empty()).then(|| format!("within {}", reasons.join(" or ")))
}

/// The error-bar key: "error bars: ±1 sd of 3 runs", or of fio's
/// per-interval samples, from the spreads the chart draws; None when it
/// draws none.
fn spread_key(results: &[&MetricResult]) -> Option<Key> {
    let spreads: Vec<Spread> = results
        .iter()
        .flat_map(|r| {
            r.spread
                .iter()
                .filter(|(c, s)| r.value(c).is_some() && s.stddev > 0.0)
                .map(|(_, s)| *s)
        })
        .collect();
    spreads_key(&spreads)
}

/// [`spread_key`] of the spreads a chart draws error bars for.
pub(crate) fn spreads_key(spreads: &[Spread]) -> Option<Key> {
    let count = |source: SpreadSource, what: &str| -> Option<String> {
        let ns = spreads.iter().filter(|s| s.source == source).map(|s| s.n);
        let (lo, hi) = ns.fold(None, |acc: Option<(u64, u64)>, n| {
            Some(acc.map_or((n, n), |(lo, hi)| (lo.min(n), hi.max(n))))
        })?;
        Some(if lo == hi {
            format!("{lo} {what}")
        } else {
            format!("{lo}–{hi} {what}")
        })
    };
    let runs = count(SpreadSource::Runs, "runs");
    let samples = count(SpreadSource::Samples, "per run");
    let text = match (runs, samples) {
        (Some(r), None) => format!("error bars: ±1 sd of {r}"),
        (None, Some(s)) => format!("error bars: ±1 sd of fio's per-interval samples ({s})"),
        // The samples stand in only where a config ran once.
        (Some(r), Some(s)) => format!(
            "error bars: ±1 sd of {r}; of fio's per-interval samples ({s}) where a config ran once"
        ),
        (None, None) => return None,
    };
    Some(Key {
        glyph: Glyph::Whisker,
        text,
    })
}
