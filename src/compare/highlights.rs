//! Plain sentences built from a comparison, each a [`Finding`] scored by
//! what it tells a reader (see [`super::findings`]), rule by rule:
//!
//! 1. per direction and metric, the config(s) with the most wins
//!    ("windows-native has the best read bandwidth in 3 of 4 read workloads");
//!    a config that leads both directions gets one sentence for both;
//! 2. the same per OS family;
//! 3. workloads where every config is within 0.5 % ("effectively a tie");
//! 4. the largest gap per metric, between the best and the worst config;
//! 5. per OS family, its largest lead over the other family's best config;
//! 6. sweeps: each config's peak against the others', its knee, the IOPS
//!    it sustains under the latency target (`--slo`);
//! 7. outliers: among four or more configs, a value whose modified z-score
//!    (0.6745 x its distance to the median / the median absolute
//!    deviation) exceeds 3.5 and which is at least 1.5x off the others'
//!    median (Iglewicz and Hoaglin's rule:
//!    <https://www.itl.nist.gov/div898/handbook/eda/section3/eda35h.htm>;
//!    the ratio floor keeps near-equal rows, whose deviation is tiny, from
//!    flagging ordinary differences). Only on the worse side (high latency
//!    or CPU, low bandwidth or IOPS): a value far better than the others
//!    is a result, the leader's, and the winner sentences say it;
//! 8. per workload measured at one load point, who is best at its headline
//!    metric (IOPS up to 16 KiB blocks, bandwidth above) and at p99
//!    latency, by how much over the next config and the baseline;
//! 9. sweeps: which config needs the least load to reach
//!    `saturation_pct` of its peak, ranked;
//! 10. block-size sweeps: which config is bandwidth-bound from the
//!     smallest block size, ranked, and where a bandwidth curve falls.
//!
//! OS-family sentences (2, 5) only when every config's OS is known and
//! there are two families to compare.
//!
//! A lead that rounding, noise or `--equivalence` cannot separate is never
//! claimed without saying so.

use super::comparison::{
    Better, BsSweep, Comparison, Metric, MetricResult, Rule, RwLoad, Slo, SloMetric, Sweep,
    Workload,
};
use super::findings::{Finding, FindingKind, ONE_WORKLOAD, clarity, magnitude};
use super::metric::Scales;
use super::rules::{Entry, Judge, tie_rule};
use super::workload::{LoadPoint, Shape};
use crate::model::{Direction, Os};
use crate::numbers;

/// Spread under which all configs are called "within X % of each other".
pub const NEAR_EQUAL_PCT: f64 = 0.5;
/// Modified z-score above which a value is an outlier (Iglewicz-Hoaglin).
pub const OUTLIER_Z: f64 = 3.5;
/// ...and the least ratio to the others' median it must also reach.
pub const OUTLIER_RATIO: f64 = 1.5;
/// What an outlier far behind on bandwidth or IOPS counts, against one far
/// above its peers on latency or CPU.
const LOW_SIDE: f64 = 0.7;
/// A gap between two configs of one OS family counts this much when the
/// comparison is across families: the reader came for the cross-family one.
const WITHIN_FAMILY: f64 = 0.7;

/// Metrics that get sentences (derived efficiency metrics do not).
const METRICS: [Metric; 5] = [
    Metric::BwBytesPerS,
    Metric::Iops,
    Metric::LatMeanNs,
    Metric::ClatP99Ns,
    Metric::CpuPct,
];

fn count_word(n: usize) -> String {
    match n {
        2 => "both".into(),
        3 => "all three".into(),
        4 => "all four".into(),
        5 => "all five".into(),
        6 => "all six".into(),
        n => format!("all {n}"),
    }
}

/// "the best read bandwidth", "the lowest CPU usage"; without a direction
/// when the sentence covers both.
fn best_word(m: Metric, dir: Option<Direction>, tail: f64) -> String {
    let name = m.human_at(tail);
    match (m.better(), dir) {
        (Better::Higher, Some(dir)) => format!("the best {dir} {name}"),
        (Better::Higher, None) => format!("the best {name}"),
        (Better::Lower, _) => format!("the lowest {name}"),
    }
}

fn family_title(f: &str) -> String {
    Os::parse(f).title()
}

/// Who won: the winner, or every tied config.
fn winners(m: &MetricResult) -> Vec<&str> {
    match &m.winner {
        Some(w) => vec![w.as_str()],
        None => m.tied.iter().map(|s| s.as_str()).collect(),
    }
}

/// The values that are compared: present and not excluded as invalid.
fn present(m: &MetricResult) -> Vec<(&str, f64)> {
    m.compared().collect()
}

/// Builds every finding of `cmp`, rule by rule (unranked).
pub fn build(cmp: &Comparison, judge: Judge) -> Vec<Finding> {
    let scales = Scales::of(cmp, &METRICS);
    let mut out = most_wins(cmp, judge);
    out.extend(near_equal(cmp));
    out.extend(largest_gaps(cmp, &scales, judge));
    out.extend(family_leads(cmp, judge));
    out.extend(sweep_sentences(cmp, judge));
    out.extend(outliers(cmp, &scales));
    out.extend(winners_of_workloads(cmp, &scales, judge));
    out.extend(saturation_findings(cmp));
    out.extend(block_size_findings(cmp));
    out
}

/// Families are compared only when every config has a known OS and there
/// are two or more of them: "Linux wins" against a config of unknown OS
/// counts the unknown one as not-Linux.
fn families_comparable(cmp: &Comparison) -> bool {
    cmp.families.len() >= 2 && cmp.families.iter().all(|f| f.name != Os::Unknown)
}

/// One metric's entry for `config` in `r`, as the tie rule sees it.
fn entry<'a>(r: &'a MetricResult, config: &'a str) -> Option<Entry<'a>> {
    Some(Entry {
        config,
        value: r.value(config)?,
        precision: r.precision.get(config).copied().unwrap_or(0.0),
        spread: r.spread.get(config).copied(),
    })
}

/// What cannot separate `a` from `b`: their rounding, twice the standard
/// error of their difference where spreads are known, the equivalence
/// margin.
fn resolution(a: &Entry, b: &Entry, judge: Judge) -> f64 {
    let rounding = (a.precision.max(0.0) + b.precision.max(0.0)) / 2.0;
    let noise = match (a.spread, b.spread) {
        (Some(x), Some(y)) if x.n > 0 && y.n > 0 => {
            2.0 * (x.stddev.powi(2) / x.n as f64 + y.stddev.powi(2) / y.n as f64).sqrt()
        }
        _ => 0.0,
    };
    let margin = judge
        .equivalence_pct
        .map_or(0.0, |p| a.value.abs().max(b.value.abs()) * p / 100.0);
    rounding.max(noise).max(margin)
}

/// 0..1: the effect of `best` over `other` (relative size, clarity).
fn effect(best: &Entry, other: &Entry, judge: Judge) -> f64 {
    let diff = (best.value - other.value).abs();
    let base = best.value.abs().min(other.value.abs());
    let rel = if base > 0.0 { diff / base } else { 1.0 };
    magnitude(rel) * clarity(diff, resolution(best, other, judge))
}

/// How a tie was decided, in words, for sentences that must say so.
fn tie_words(rule: Rule, judge: Judge) -> String {
    match rule {
        Rule::NotSignificant => "within run-to-run noise".into(),
        Rule::Equivalent => format!(
            "within the {} % equivalence margin",
            numbers::trimmed(judge.equivalence_pct.unwrap_or(0.0), 2)
        ),
        _ => "within rounding".into(),
    }
}

/// The most wins of one metric in one direction.
struct Tally<'a> {
    dir: Direction,
    /// Workloads where the metric was decided among two or more configs.
    n: usize,
    /// Configs (or one family) with the top count, in display order.
    leaders: Vec<String>,
    /// Configs the leaders stand for (a family's members).
    members: Vec<String>,
    top: usize,
    won: Vec<&'a Workload>,
    /// Effect of each win over the best of the rest.
    effects: Vec<f64>,
}

/// False for a latency of a workload some config ran at another queue
/// depth than asked (a sync engine at QD1 among QD32 runs): its latency is
/// not comparable, and the workload's notes say so.
fn comparable(w: &Workload, m: Metric) -> bool {
    let latency = matches!(m, Metric::LatMeanNs | Metric::ClatP99Ns);
    !latency
        || w.effective_iodepth
            .values()
            .all(|d| *d == w.key.load.iodepth)
}

/// Each workload's result of each metric in [`METRICS`] whose values
/// compare ([`comparable`]): what the per-result rules (near-equal,
/// outliers) look at.
fn comparable_results(
    cmp: &Comparison,
) -> impl Iterator<Item = (&Workload, Metric, &MetricResult)> {
    cmp.workloads.iter().flat_map(|w| {
        METRICS
            .into_iter()
            .filter_map(move |m| Some((w, m, w.metric(m).filter(|_| comparable(w, m))?)))
    })
}

/// Workloads of `dir` where `m` has two or more comparable values.
fn decided(cmp: &Comparison, dir: Direction, m: Metric) -> Vec<(&Workload, &MetricResult)> {
    let ws: Vec<&Workload> = cmp
        .workloads
        .iter()
        .filter(|w| w.key.shape.direction == dir)
        .collect();
    if ws.len() < 2 {
        return Vec::new();
    }
    ws.into_iter()
        .filter(|w| comparable(w, m))
        .filter_map(|w| w.metric(m).map(|r| (w, r)))
        .filter(|(_, r)| present(r).len() >= 2)
        .collect()
}

/// The best entry of `r` among `configs` (by the metric's direction).
fn best_among<'a>(r: &'a MetricResult, configs: &[&'a str]) -> Option<Entry<'a>> {
    configs
        .iter()
        .filter_map(|c| entry(r, c))
        .reduce(|a, b| match r.better {
            Better::Higher if b.value > a.value => b,
            Better::Lower if b.value < a.value => b,
            _ => a,
        })
}

/// Effect of `inside`'s best over the best of everyone else in `r`.
fn win_effect(r: &MetricResult, inside: &[&str], judge: Judge) -> f64 {
    let outside: Vec<&str> = r
        .values
        .keys()
        .map(|c| c.as_str())
        .filter(|c| !inside.contains(c))
        .collect();
    match (best_among(r, inside), best_among(r, &outside)) {
        (Some(a), Some(b)) => effect(&a, &b, judge),
        _ => 0.0,
    }
}

/// At one load point mean latency is outstanding I/O over IOPS (Little's
/// law), so a latency win by whoever also wins bandwidth restates that win:
/// it counts half.
fn restated(w: &Workload, m: Metric, inside: &[&str]) -> f64 {
    let same = m == Metric::LatMeanNs
        && w.metric(Metric::BwBytesPerS).is_some_and(|bw| {
            let ws = winners(bw);
            !ws.is_empty() && ws.iter().all(|c| inside.contains(c))
        });
    if same { 0.5 } else { 1.0 }
}

/// Tally of `subjects`, each a name and the configs it stands for; a
/// workload is a subject's win when every winner of it is one of them.
fn tally<'a>(
    rows: &[(&'a Workload, &'a MetricResult)],
    dir: Direction,
    subjects: &[(String, Vec<String>)],
    judge: Judge,
) -> Option<Tally<'a>> {
    let won_by = |configs: &[String]| -> Vec<(&'a Workload, &'a MetricResult)> {
        rows.iter()
            .copied()
            .filter(|(_, r)| {
                let ws = winners(r);
                !ws.is_empty() && ws.iter().all(|w| configs.iter().any(|c| c == w))
            })
            .collect()
    };
    let counts: Vec<usize> = subjects.iter().map(|(_, c)| won_by(c).len()).collect();
    let top = counts.iter().copied().max().filter(|t| *t > 0)?;
    let mut t = Tally {
        dir,
        n: rows.len(),
        leaders: Vec::new(),
        members: Vec::new(),
        top,
        won: Vec::new(),
        effects: Vec::new(),
    };
    for ((name, configs), _) in subjects.iter().zip(&counts).filter(|(_, n)| **n == top) {
        let inside: Vec<&str> = configs.iter().map(|c| c.as_str()).collect();
        for (w, r) in won_by(configs) {
            t.won.push(w);
            t.effects
                .push(win_effect(r, &inside, judge) * restated(w, r.metric, &inside));
        }
        t.leaders.push(name.clone());
        t.members.extend(configs.iter().cloned());
    }
    Some(t)
}

/// 1 and 2: most wins per metric, per config and per OS family; one
/// sentence when the same leaders top both directions.
fn most_wins(cmp: &Comparison, judge: Judge) -> Vec<Finding> {
    if cmp.configs.len() < 2 {
        return Vec::new();
    }
    let configs: Vec<(String, Vec<String>)> = cmp
        .configs
        .iter()
        .map(|c| (c.clone(), vec![c.clone()]))
        .collect();
    let families: Vec<(String, Vec<String>)> = cmp
        .families
        .iter()
        .map(|f| (f.name.to_string(), f.configs.clone()))
        .collect();
    let mut out = Vec::new();
    for m in METRICS {
        for (kind, subjects) in [
            (FindingKind::Wins, &configs),
            (FindingKind::FamilyWins, &families),
        ] {
            if kind == FindingKind::FamilyWins && !families_comparable(cmp) {
                continue;
            }
            let tallies: Vec<Tally> = Direction::ALL
                .into_iter()
                .filter_map(|dir| {
                    let rows = decided(cmp, dir, m);
                    (rows.len() >= 2).then(|| tally(&rows, dir, subjects, judge))?
                })
                .collect();
            out.extend(win_findings(cmp, kind, m, &tallies));
        }
    }
    out
}

/// Findings of the tallies of one metric: merged when both directions
/// have the same leaders.
fn win_findings(cmp: &Comparison, kind: FindingKind, m: Metric, tallies: &[Tally]) -> Vec<Finding> {
    match tallies {
        [a, b] if a.leaders == b.leaders => vec![win_finding(cmp, kind, m, &[a, b])],
        _ => tallies
            .iter()
            .map(|t| win_finding(cmp, kind, m, &[t]))
            .collect(),
    }
}

fn win_finding(cmp: &Comparison, kind: FindingKind, m: Metric, parts: &[&Tally]) -> Finding {
    // An OS family is named as people write it: "Windows", not the key.
    let leaders: Vec<String> = match kind {
        FindingKind::FamilyWins => parts[0].leaders.iter().map(|f| family_title(f)).collect(),
        _ => parts[0].leaders.clone(),
    };
    let subject = match leaders.as_slice() {
        [one] => format!("{one} has"),
        many => format!("{} each have", join_and(many)),
    };
    let counts: Vec<String> = parts
        .iter()
        .map(|t| format!("{} of {} {}", t.top, t.n, t.dir))
        .collect();
    let dir = (parts.len() == 1).then(|| parts[0].dir);
    let text = format!(
        "{subject} {} in {} workloads",
        best_word(m, dir, cmp.tail_percentile),
        counts.join(" and ")
    );
    let won: usize = parts.iter().map(|t| t.top).sum();
    let of: usize = parts.iter().map(|t| t.n).sum();
    let effects: Vec<f64> = parts
        .iter()
        .flat_map(|t| t.effects.iter().copied())
        .collect();
    let mut f = Finding::new(kind, text).on(
        parts
            .iter()
            .flat_map(|t| t.won.iter().map(|w| cmp.title_of(w)))
            .collect(),
        vec![m],
        parts[0].members.clone(),
    );
    f.directions = parts.iter().map(|t| t.dir.to_string()).collect();
    f.count = Some((won, of));
    // Split leadership is no one's lead: each leader's share counts. The
    // median win, not the mean, so one landslide does not carry a claim
    // whose other wins are slivers.
    let reach = won as f64 / of as f64 / leaders.len() as f64;
    f.scored(numbers::median(effects).unwrap_or(0.0), reach)
}

fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// 3: workloads where every config is within NEAR_EQUAL_PCT. A tie is
/// news when it is tight and among three or more configs.
fn near_equal(cmp: &Comparison) -> Vec<Finding> {
    let mut out = Vec::new();
    for (w, m, r) in comparable_results(cmp) {
        let vals = present(r);
        if vals.len() < 2 || vals.len() < cmp.configs.len() {
            continue;
        }
        let min = vals.iter().map(|v| v.1).fold(f64::INFINITY, f64::min);
        let max = vals.iter().map(|v| v.1).fold(0.0, f64::max);
        if min <= 0.0 {
            continue;
        }
        let pct = (max - min) / min * 100.0;
        if pct <= NEAR_EQUAL_PCT {
            let text = format!(
                "In {} {} configs are within {} % of each other ({})",
                cmp.title_of(w),
                count_word(vals.len()),
                numbers::fixed(pct.max(0.01), 2),
                m.human_at(cmp.tail_percentile)
            );
            let tight = 1.0 - pct / NEAR_EQUAL_PCT * 0.5;
            let many = if vals.len() >= 3 { 1.0 } else { 0.6 };
            let f = Finding::new(FindingKind::Tie, text).on(
                vec![cmp.title_of(w)],
                vec![m],
                vals.iter().map(|v| v.0.to_string()).collect(),
            );
            out.push(f.scored(tight * many, ONE_WORKLOAD));
        }
    }
    out
}

/// The lowest and the highest value of `r`.
fn extremes<'a>(r: &'a MetricResult) -> Option<(Entry<'a>, Entry<'a>)> {
    let all: Vec<Entry> = r.values.keys().filter_map(|c| entry(r, c)).collect();
    if all.len() < 2 {
        return None;
    }
    let lo = all
        .iter()
        .cloned()
        .reduce(|a, b| if b.value < a.value { b } else { a })?;
    let hi = all
        .iter()
        .cloned()
        .reduce(|a, b| if b.value > a.value { b } else { a })?;
    Some((lo, hi))
}

/// 4: the largest absolute gap per metric, best against worst.
fn largest_gaps(cmp: &Comparison, scales: &Scales, judge: Judge) -> Vec<Finding> {
    let mut out = Vec::new();
    for m in METRICS {
        let mut best: Option<(f64, &Workload, Entry, Entry)> = None;
        for w in &cmp.workloads {
            let Some((lo, hi)) = w.metric(m).filter(|_| comparable(w, m)).and_then(extremes) else {
                continue;
            };
            let gap = hi.value - lo.value;
            let (first, second) = match m.better() {
                Better::Higher => (hi, lo),
                Better::Lower => (lo, hi),
            };
            if gap > 0.0 && best.as_ref().is_none_or(|b| gap > b.0) {
                best = Some((gap, w, first, second));
            }
        }
        if let Some((gap, w, a, b)) = best {
            out.push(gap_finding(cmp, scales, m, (gap, w, &a, &b), judge));
        }
    }
    out
}

fn gap_finding(
    cmp: &Comparison,
    scales: &Scales,
    m: Metric,
    (gap, w, a, b): (f64, &Workload, &Entry, &Entry),
    judge: Judge,
) -> Finding {
    let s = scales.get(m);
    let gap_text = if m == Metric::CpuPct {
        format!("{} pp", s.format(gap))
    } else {
        s.with_unit(gap)
    };
    let text = format!(
        "Largest {} gap: {}, {gap_text} between {} ({}) and {} ({})",
        m.human_at(cmp.tail_percentile).replace(' ', "-"),
        cmp.title_of(w),
        a.config,
        s.with_unit(a.value),
        b.config,
        s.with_unit(b.value)
    );
    let os = |c: &str| cmp.config_os.get(c).cloned();
    let within_family = cmp.families.len() >= 2 && os(a.config) == os(b.config);
    let factor = if within_family { WITHIN_FAMILY } else { 1.0 };
    Finding::new(FindingKind::Gap, text)
        .on(
            vec![cmp.title_of(w)],
            vec![m],
            vec![a.config.to_string(), b.config.to_string()],
        )
        .scored(effect(a, b, judge) * factor, ONE_WORKLOAD)
}

/// 5: each OS family's largest lead over the other family's best config.
/// Rounding ties are no lead; a lead that noise or the equivalence margin
/// cannot separate is said to be one.
fn family_leads(cmp: &Comparison, judge: Judge) -> Vec<Finding> {
    let mut out = Vec::new();
    let fam = |os: Os| cmp.families.iter().find(|f| f.name == os);
    let (Some(win), Some(lin)) = (fam(Os::Windows), fam(Os::Linux)) else {
        return out;
    };
    if !families_comparable(cmp) {
        return out;
    }
    for m in [Metric::BwBytesPerS, Metric::Iops] {
        for (mine, theirs) in [(win, lin), (lin, win)] {
            let mut best: Option<(f64, &Workload, Entry, Entry)> = None;
            for w in &cmp.workloads {
                let Some(r) = w.metric(m) else { continue };
                let (Some(a), Some(b)) = (top_of(r, &mine.configs), top_of(r, &theirs.configs))
                else {
                    continue;
                };
                if b.value <= 0.0 || tie_rule(&a, &b, judge).1 == Rule::WithinPrecision {
                    continue;
                }
                let lead = (a.value / b.value - 1.0) * 100.0;
                if lead > 0.0 && best.as_ref().is_none_or(|x| lead > x.0) {
                    best = Some((lead, w, a, b));
                }
            }
            if let Some((lead, w, a, b)) = best {
                let (tied, rule) = tie_rule(&a, &b, judge);
                let qualifier = if tied {
                    format!(", {}", tie_words(rule, judge))
                } else {
                    String::new()
                };
                // Past +1000 % a lead reads as a ratio, as the tables print it.
                let by = if lead > 1000.0 {
                    format!("{}x its figure", numbers::fixed(a.value / b.value, 1))
                } else {
                    format!("by {} %", numbers::fixed(lead, 1))
                };
                let text = format!(
                    "{} leads the best {} config ({}) in {} {} {by}{qualifier}",
                    a.config,
                    theirs.name.title(),
                    b.config,
                    cmp.title_of(w),
                    m.human_at(cmp.tail_percentile),
                );
                let f = Finding::new(FindingKind::Lead, text).on(
                    vec![cmp.title_of(w)],
                    vec![m],
                    vec![a.config.to_string(), b.config.to_string()],
                );
                out.push(f.scored(effect(&a, &b, judge), ONE_WORKLOAD));
            }
        }
    }
    out
}

/// 7: outliers by the median absolute deviation (module docs). Needs four
/// values at least: among three, "far from the median" is just "different".
fn outliers(cmp: &Comparison, scales: &Scales) -> Vec<Finding> {
    let mut out = Vec::new();
    for (w, m, r) in comparable_results(cmp) {
        let vals = present(r);
        if vals.len() < 4 {
            continue;
        }
        let all: Vec<f64> = vals.iter().map(|v| v.1).collect();
        let med = numbers::median(all.iter().copied()).unwrap_or(0.0);
        let mad = numbers::median(all.iter().map(|v| (v - med).abs())).unwrap_or(0.0);
        // The worse side only: above the others for latency and CPU,
        // below them for bandwidth and IOPS.
        let worse = |v: f64, than: f64| match m.better() {
            Better::Lower => v > than,
            Better::Higher => v < than,
        };
        for (c, v) in &vals {
            let others: Vec<f64> = vals.iter().filter(|(o, _)| o != c).map(|x| x.1).collect();
            let others_med = numbers::median(others.iter().copied()).unwrap_or(0.0);
            if others_med <= 0.0 || *v <= 0.0 || !worse(*v, med) {
                continue;
            }
            let z = if mad > 0.0 {
                0.6745 * (v - med).abs() / mad
            } else {
                f64::INFINITY
            };
            // How many times worse: v over the median, or the median over v.
            let ratio = (v / others_med).max(others_med / v);
            if z > OUTLIER_Z && ratio >= OUTLIER_RATIO {
                out.push(outlier_finding(
                    cmp,
                    scales,
                    (w, m),
                    (c, *v),
                    &others,
                    ratio,
                ));
            }
        }
    }
    out
}

fn outlier_finding(
    cmp: &Comparison,
    scales: &Scales,
    (w, m): (&Workload, Metric),
    (c, v): (&str, f64),
    others: &[f64],
    ratio: f64,
) -> Finding {
    let s = scales.get(m);
    let lo = others.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = others.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let how = match m.better() {
        Better::Lower => format!("{}x the others' median", numbers::fixed(ratio, 1)),
        Better::Higher => format!(
            "{} % below the others' median",
            numbers::fixed((1.0 - 1.0 / ratio) * 100.0, 0)
        ),
    };
    let text = format!(
        "Outlier: {c} {} {} {} is {how} (others {}–{})",
        cmp.title_of(w),
        m.human_at(cmp.tail_percentile),
        s.with_unit(v),
        s.format(lo),
        s.with_unit(hi)
    );
    // Far behind on throughput is mostly what the win and gap sentences
    // already say; latency or CPU far above the peers more often points at
    // something wrong with the run, which is what an outlier is for.
    let factor = match m.better() {
        Better::Lower => 1.0,
        Better::Higher => LOW_SIDE,
    };
    Finding::new(FindingKind::Outlier, text)
        .on(vec![cmp.title_of(w)], vec![m], vec![c.to_string()])
        .scored(magnitude(ratio - 1.0) * factor, ONE_WORKLOAD)
}

/// The highest value among `configs`.
fn top_of<'a>(r: &'a MetricResult, configs: &'a [String]) -> Option<Entry<'a>> {
    configs
        .iter()
        .filter_map(|c| entry(r, c))
        .reduce(|a, b| if b.value > a.value { b } else { a })
}

/// `148k`, `1.23M`, `950`: IOPS the way reviews print them in sentences.
fn iops_short(v: f64) -> String {
    let sig3 = |x: f64| {
        let d = if x >= 100.0 {
            0
        } else if x >= 10.0 {
            1
        } else {
            2
        };
        numbers::trimmed(x, d)
    };
    if v >= 1e6 {
        format!("{}M", sig3(v / 1e6))
    } else if v >= 1e3 {
        format!("{}k", sig3(v / 1e3))
    } else {
        numbers::fixed(v, 0)
    }
}

/// The IOPS entry of a sweep's config at one load point, with the
/// precision and spread its workload knows.
fn point_entry<'a>(cmp: &'a Comparison, s: &'a Sweep, load: LoadPoint, iops: f64) -> Entry<'a> {
    let r = cmp
        .workloads
        .iter()
        .find(|w| w.key.shape == s.shape && w.key.load == load)
        .and_then(|w| w.metric(Metric::Iops));
    match r.and_then(|r| entry(r, &s.config)) {
        Some(e) => e,
        None => Entry {
            config: &s.config,
            value: iops,
            precision: 0.0,
            spread: None,
        },
    }
}

/// 6: sweeps. Per rw/bs: the highest peak against the next config's, each
/// config's knee (or that it never saturated), and the IOPS each sustains
/// under the latency target.
fn sweep_sentences(cmp: &Comparison, judge: Judge) -> Vec<Finding> {
    let mut out = Vec::new();
    for (shape, sweeps) in super::sweep::by_shape(cmp) {
        let title = super::sweep::title(&shape, &sweeps);
        let mut ranked = sweeps.clone();
        ranked.sort_by(|a, b| b.peak.iops.total_cmp(&a.peak.iops));
        let on =
            |configs: Vec<String>| (vec![format!("{title} sweep")], vec![Metric::Iops], configs);
        match ranked.as_slice() {
            [first, second, ..] => out.push(peak_finding(cmp, &title, first, second, judge)),
            [only] => {
                let text = format!(
                    "In {title} sweeps, {} peaks at {} IOPS at {}",
                    only.config,
                    iops_short(only.peak.iops),
                    only.peak.load.label()
                );
                let (w, m, c) = on(vec![only.config.clone()]);
                out.push(
                    Finding::new(FindingKind::SweepPeak, text)
                        .on(w, m, c)
                        .scored(0.3, ONE_WORKLOAD),
                );
            }
            [] => {}
        }
        for s in &sweeps {
            let (w, m, c) = on(vec![s.config.clone()]);
            if let Some(f) = &s.fall {
                let text = format!(
                    "{} peaks at {} in {title} ({} IOPS), then falls {} % by {}",
                    s.config,
                    s.peak.load.label(),
                    iops_short(s.peak.iops),
                    numbers::fixed(f.pct_below_peak, 0),
                    f.load.label()
                );
                let (w, m, c) = on(vec![s.config.clone()]);
                out.push(
                    Finding::new(FindingKind::Fall, text)
                        .on(w, m, c)
                        // A whole curve, as saturation's ranking is.
                        .scored(magnitude(f.pct_below_peak / 100.0), 0.75),
                );
            }
            let (text, strength) = knee_sentence(cmp, &title, s);
            out.push(
                Finding::new(FindingKind::Knee, text)
                    .on(w, m, c)
                    .scored(strength, ONE_WORKLOAD),
            );
        }
        if let Some(slo) = cmp.sweep_rules.slo {
            out.push(slo_finding(&title, &sweeps, slo));
        }
    }
    out
}

fn peak_finding(
    cmp: &Comparison,
    title: &str,
    first: &Sweep,
    second: &Sweep,
    judge: Judge,
) -> Finding {
    let a = point_entry(cmp, first, first.peak.load, first.peak.iops);
    let b = point_entry(cmp, second, second.peak.load, second.peak.iops);
    let (tied, rule) = tie_rule(&a, &b, judge);
    let qualifier = if tied {
        format!(", {}", tie_words(rule, judge))
    } else {
        String::new()
    };
    let lead = (first.peak.iops / second.peak.iops - 1.0) * 100.0;
    let text = format!(
        "In {title} sweeps, {} peaks at {} IOPS at {}, {} % above {}'s peak ({} at {}){qualifier}",
        first.config,
        iops_short(first.peak.iops),
        first.peak.load.label(),
        numbers::fixed(lead, 1),
        second.config,
        iops_short(second.peak.iops),
        second.peak.load.label()
    );
    Finding::new(FindingKind::SweepPeak, text)
        .on(
            vec![format!("{title} sweep")],
            vec![Metric::Iops],
            vec![first.config.clone(), second.config.clone()],
        )
        .scored(effect(&a, &b, judge), ONE_WORKLOAD)
}

/// A knee is worth knowing; no knee up to the last point, less so.
fn knee_sentence(cmp: &Comparison, title: &str, s: &Sweep) -> (String, f64) {
    let rules = &cmp.sweep_rules;
    match &s.knee {
        Some(k) => (
            format!(
                "{}'s {title} curve bends at {} ({} IOPS, its knee): past it at most {} % more IOPS for {} % more mean latency",
                s.config,
                k.load.label(),
                iops_short(k.iops),
                numbers::fixed(k.iops_gain_pct, 1),
                numbers::fixed(k.lat_growth_pct, 0)
            ),
            0.5,
        ),
        None => {
            let lightest = s
                .points
                .iter()
                .min_by_key(|p| (p.load.outstanding(), p.load));
            let last = s
                .points
                .iter()
                .max_by_key(|p| (p.load.outstanding(), p.load));
            let flat_from_start = s
                .saturation
                .zip(lightest)
                .is_some_and(|(sat, p)| sat.load == p.load);
            let text = if flat_from_start {
                format!(
                    "{} is at {} % of its peak from the lightest load in {title} ({}): no knee within the sweep",
                    s.config,
                    numbers::trimmed(rules.saturation_pct, 1),
                    lightest.map_or(String::new(), |p| p.load.label())
                )
            } else {
                format!(
                    "{} shows no knee in {title} up to {}: its IOPS curve does not flatten",
                    s.config,
                    last.map_or(String::new(), |p| p.load.label())
                )
            };
            (text, 0.25)
        }
    }
}

/// The SLO sentence; its effect is the first config's lead over the
/// second under the target (every config when only one meets it).
fn slo_finding(title: &str, sweeps: &[&Sweep], slo: Slo) -> Finding {
    let text = slo_sentence(title, sweeps, slo);
    let mut at: Vec<f64> = sweeps
        .iter()
        .filter_map(|s| s.at_slo.as_ref().map(|a| a.iops))
        .collect();
    at.sort_by(|a, b| b.total_cmp(a));
    let strength = match at.as_slice() {
        [a, b, ..] if *b > 0.0 => magnitude(a / b - 1.0),
        [_] if sweeps.len() > 1 => 1.0,
        _ => 0.3,
    };
    Finding::new(FindingKind::Slo, text)
        .on(
            vec![format!("{title} sweep")],
            vec![Metric::Iops],
            sweeps.iter().map(|s| s.config.clone()).collect(),
        )
        .scored(strength, ONE_WORKLOAD)
}

fn slo_sentence(title: &str, sweeps: &[&Sweep], slo: Slo) -> String {
    let target = Metric::LatMeanNs
        .scale(slo.target_ns)
        .with_unit(slo.target_ns);
    let name = match slo.metric {
        SloMetric::ClatP99 => format!(
            "{} completion latency",
            super::workload::tail_name(slo.percentile)
        ),
        SloMetric::LatMean => "mean latency".into(),
    };
    let mut parts: Vec<(f64, String)> = Vec::new();
    let mut none = Vec::new();
    for s in sweeps {
        match &s.at_slo {
            Some(a) if a.interpolated => parts.push((
                a.iops,
                format!(
                    "{} {} IOPS (interpolated between {} and {})",
                    s.config,
                    iops_short(a.iops),
                    a.load.label(),
                    a.upper().unwrap_or(a.load).label()
                ),
            )),
            Some(a) => parts.push((
                a.iops,
                format!(
                    "{} {} IOPS (at {})",
                    s.config,
                    iops_short(a.iops),
                    a.load.label()
                ),
            )),
            None => none.push(s.config.as_str()),
        }
    }
    parts.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut text = format!("In {title} with {name} at most {target}: ");
    let listed: Vec<String> = parts.into_iter().map(|p| p.1).collect();
    text.push_str(&listed.join(", "));
    if !none.is_empty() {
        if !listed.is_empty() {
            text.push_str("; ");
        }
        let meet = if none.len() == 1 { "meets" } else { "meet" };
        text.push_str(&format!("{} {meet} it at no load point", none.join(", ")));
    }
    text
}

/// The headline metric of a workload: IOPS for small blocks, bandwidth for
/// large ones, as reviews quote them.
fn headline(w: &Workload) -> Metric {
    if w.key.shape.bs_bytes <= 16 * 1024 {
        Metric::Iops
    } else {
        Metric::BwBytesPerS
    }
}

/// "12.3 % more than", "1.71x", "63.0 % below": how far `a` is ahead of
/// `b` for a metric of direction `better` (a ratio from 1.5x up, as
/// reviews write a large lead; lower-is-better leads in percent, which
/// cannot pass 100).
fn lead_words(better: Better, a: f64, b: f64) -> String {
    // Two significant digits for a lead under 0.1 %: "0.01 %", not "0.0 %".
    let pct = |p: f64| numbers::fixed(p, if p < 0.1 { 2 } else { 1 });
    match better {
        Better::Higher if a >= 1.5 * b => format!("{}x", numbers::fixed(a / b, 2)),
        Better::Higher => format!("{} % more than", pct((a / b - 1.0) * 100.0)),
        Better::Lower => format!("{} % below", pct((1.0 - a / b) * 100.0)),
    }
}

/// 8: per workload measured at one load point (its shape is no sweep),
/// who is best at its headline metric and at p99 latency, and by how much
/// over the next config and the baseline. Reach is the workload's share of
/// such workloads: on a one-workload comparison this is the headline.
fn winners_of_workloads(cmp: &Comparison, scales: &Scales, judge: Judge) -> Vec<Finding> {
    let swept: Vec<&Shape> = cmp.sweeps.iter().map(|s| &s.shape).collect();
    let single: Vec<&Workload> = cmp
        .workloads
        .iter()
        .filter(|w| !swept.contains(&&w.key.shape))
        .collect();
    let mut out = Vec::new();
    for w in &single {
        for m in [headline(w), Metric::ClatP99Ns] {
            let Some(r) = w.metric(m).filter(|_| comparable(w, m)) else {
                continue;
            };
            if let Some((f, effect)) = winner_finding(cmp, scales, w, r, judge) {
                out.push(f.scored(effect, 1.0 / single.len() as f64));
            }
        }
    }
    out
}

fn winner_finding(
    cmp: &Comparison,
    scales: &Scales,
    w: &Workload,
    r: &MetricResult,
    judge: Judge,
) -> Option<(Finding, f64)> {
    // The winner, or the configs tied for best (the one with the best
    // value first): a tie at the top still leads the rest.
    let top: Vec<&str> = winners(r);
    let best = best_among(r, &top)?;
    let winner = best.config;
    let rest: Vec<&str> = r
        .compared()
        .map(|(c, _)| c)
        .filter(|c| !top.contains(c))
        .collect();
    let second = best_among(r, &rest)?;
    // Every config within half a percent: the tie sentence (3) says it.
    let vals: Vec<f64> = r.compared().map(|(_, v)| v).collect();
    let lo = vals.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = vals.iter().copied().fold(0.0, f64::max);
    if lo > 0.0 && (hi - lo) / lo * 100.0 <= NEAR_EQUAL_PCT {
        return None;
    }
    let s = scales.get(r.metric);
    let most = match r.better {
        Better::Higher => format!("the most {}", r.human()),
        Better::Lower => format!("the lowest {}", r.human()),
    };
    let who = match top.as_slice() {
        [_] => format!("{winner} has {most} in {}", cmp.title_of(w)),
        many => {
            let names: Vec<String> = many.iter().map(|c| c.to_string()).collect();
            format!(
                "{} tie for {most} in {} ({})",
                join_and(&names),
                cmp.title_of(w),
                tie_words(r.rule, judge)
            )
        }
    };
    let mut text = format!(
        "{who}: {}, {} {} ({})",
        s.with_unit(best.value),
        lead_words(r.better, best.value, second.value),
        second.config,
        s.with_unit(second.value)
    );
    if let Some(base) = cmp
        .baseline
        .as_deref()
        .filter(|b| *b != winner && *b != second.config)
        && let Some(b) = entry(r, base)
    {
        text.push_str(&format!(
            " and {} the baseline, {base} ({})",
            lead_words(r.better, best.value, b.value),
            s.with_unit(b.value)
        ));
    }
    let f = Finding::new(FindingKind::Winner, text).on(
        vec![cmp.title_of(w)],
        vec![r.metric],
        vec![winner.to_string(), second.config.to_string()],
    );
    Some((f, effect(&best, &second, judge)))
}

/// 9: per sweep shape, the configs ranked by the load they need to reach
/// `saturation_pct` of their peak; one still climbing at its heaviest load
/// point (saturated only there, no knee) has not saturated and comes last.
fn saturation_findings(cmp: &Comparison) -> Vec<Finding> {
    let pct = numbers::trimmed(cmp.sweep_rules.saturation_pct, 1);
    let mut out = Vec::new();
    for (shape, sweeps) in super::sweep::by_shape(cmp) {
        let title = super::sweep::title(&shape, &sweeps);
        let mut ranked: Vec<(&Sweep, LoadPoint, bool)> = sweeps
            .iter()
            .filter_map(|s| {
                let sat = s.saturation?;
                let heaviest = s
                    .points
                    .iter()
                    .map(|p| p.load)
                    .max_by_key(|l| (l.outstanding(), *l))?;
                let climbing = sat.load == heaviest && s.knee.is_none();
                Some((*s, sat.load, climbing))
            })
            .collect();
        ranked.sort_by_key(|(_, l, climbing)| (*climbing, l.outstanding(), *l));
        let Some(&(first, load, false)) = ranked.first() else {
            continue;
        };
        let Some(sat) = first.saturation else {
            continue;
        };
        let mut text = format!(
            "In {title} sweeps, {} needs the least load to reach {pct} % of its peak: {} ({} IOPS)",
            first.config,
            load.label(),
            iops_short(sat.iops)
        );
        let others: Vec<String> = ranked[1..]
            .iter()
            .map(|(s, l, climbing)| match climbing {
                true => format!("{} still climbing at {}", s.config, l.label()),
                false => format!("{} for {}", l.label(), s.config),
            })
            .collect();
        if !others.is_empty() {
            text.push_str(&format!(", against {}", join_and(&others)));
        }
        let (effect, reach) = match ranked.get(1) {
            Some((_, _, true)) => (1.0, 0.75),
            Some((_, l, false)) => {
                let ratio = l.outstanding() as f64 / load.outstanding().max(1) as f64;
                (magnitude(ratio - 1.0), 0.75)
            }
            None => (0.3, ONE_WORKLOAD),
        };
        out.push(
            Finding::new(FindingKind::Saturation, text)
                .on(
                    vec![format!("{title} sweep")],
                    vec![Metric::Iops],
                    ranked.iter().map(|(s, _, _)| s.config.clone()).collect(),
                )
                .scored(effect, reach),
        );
    }
    out
}

/// `2.91 GiB/s`: bandwidth as sentences print it.
fn bw_text(v: f64) -> String {
    Metric::BwBytesPerS.scale(v).with_unit(v)
}

/// 10: per rw and load point swept over block sizes, the configs ranked by
/// the block size from which they are bandwidth-bound (one still climbing
/// at its largest block size, with no knee, comes last), and each curve
/// that falls at its largest block size.
fn block_size_findings(cmp: &Comparison) -> Vec<Finding> {
    let mut out = Vec::new();
    for (at, sweeps) in super::sweep::blocksize::by_rw(&cmp.bs_sweeps) {
        out.extend(bandwidth_bound(at, &sweeps));
        out.extend(sweeps.iter().filter_map(|s| bs_fall(at, s)));
    }
    out
}

/// "In randread at QD8, libaio is bandwidth-bound from 64k (1.9 GiB/s);
/// psync needs 256k (1.7 GiB/s)": configs that saturate at one block size
/// are named together, one still climbing at its largest comes last.
fn bandwidth_bound(at: &RwLoad, sweeps: &[&BsSweep]) -> Option<Finding> {
    let groups = saturation_groups(sweeps);
    let (first, rest) = groups.split_first()?;
    if first.climbing {
        return None;
    }
    let title = at.title();
    let mut text = format!(
        "In {title}, {} bandwidth-bound from {}",
        first.names("is", "are"),
        first.bs_text()
    );
    let others: Vec<String> = rest
        .iter()
        .map(|g| match g.climbing {
            true => format!("{} still climbing at {}", g.names("is", "are"), g.bs_text()),
            false => format!("{} {}", g.names("needs", "need"), g.bs_text()),
        })
        .collect();
    if !others.is_empty() {
        text.push_str(&format!("; {}", join_and(&others)));
    }
    // A curve (three block sizes or more) reaches as a load sweep's
    // ranking does; two block sizes are one comparison, a workload's worth.
    let curve = sweeps.iter().any(|s| s.points.len() >= 3);
    let (effect, reach) = match rest.first() {
        Some(g) if curve => (magnitude(g.gain_past(first.bs)), 0.75),
        Some(g) => (magnitude(g.gain_past(first.bs)), ONE_WORKLOAD),
        None => (0.3, ONE_WORKLOAD),
    };
    Some(
        Finding::new(FindingKind::Saturation, text)
            .on(
                vec![format!("{title} block-size sweep")],
                vec![Metric::BwBytesPerS],
                groups
                    .iter()
                    .flat_map(|g| g.configs.iter().map(|s| s.config.clone()))
                    .collect(),
            )
            .scored(effect, reach),
    )
}

/// Configs of one rw and load point that saturate at one block size (or
/// are still climbing there: saturated only at their largest, no knee).
struct SaturationGroup<'a> {
    bs: u64,
    climbing: bool,
    configs: Vec<&'a BsSweep>,
}

impl SaturationGroup<'_> {
    /// "libaio is", "libaio and psync are": the configs with a verb.
    fn names(&self, one: &str, many: &str) -> String {
        let names: Vec<String> = self.configs.iter().map(|s| s.config.clone()).collect();
        let verb = if names.len() == 1 { one } else { many };
        format!("{} {verb}", join_and(&names))
    }

    /// What the group's first config still gains past `bs` (where a
    /// config ahead is already bound), up to its saturation point: the
    /// bandwidth a reader leaves if they took `bs` for it too. Block sizes
    /// step by 2x or more, so their ratio would make every rank look
    /// large; a config not measured at `bs` falls back to it.
    fn gain_past(&self, bs: u64) -> f64 {
        let s = self.configs[0];
        let at = s.points.iter().find(|p| p.bs_bytes == bs);
        match (at, s.saturation) {
            (Some(p), Some(x)) if p.bw_bytes_per_s > 0.0 => {
                x.bw_bytes_per_s / p.bw_bytes_per_s - 1.0
            }
            _ => self.bs as f64 / bs.max(1) as f64 - 1.0,
        }
    }

    /// "64k (1.9 GiB/s)"; the bandwidth only for a lone config.
    fn bs_text(&self) -> String {
        let bs = crate::units::format_bs(self.bs);
        match (self.configs.as_slice(), self.climbing) {
            ([one], false) => match one.saturation {
                Some(x) => format!("{bs} ({})", bw_text(x.bw_bytes_per_s)),
                None => bs,
            },
            _ => bs,
        }
    }
}

/// The sweeps' saturation points grouped, those that saturate first
/// first, configs in display order within a group.
fn saturation_groups<'a>(sweeps: &[&'a BsSweep]) -> Vec<SaturationGroup<'a>> {
    let mut groups: Vec<SaturationGroup> = Vec::new();
    for s in sweeps {
        let Some(sat) = s.saturation else { continue };
        let climbing =
            s.knee.is_none() && s.points.last().is_some_and(|p| p.bs_bytes == sat.bs_bytes);
        match groups
            .iter_mut()
            .find(|g| (g.bs, g.climbing) == (sat.bs_bytes, climbing))
        {
            Some(g) => g.configs.push(s),
            None => groups.push(SaturationGroup {
                bs: sat.bs_bytes,
                climbing,
                configs: vec![s],
            }),
        }
    }
    groups.sort_by_key(|g| (g.climbing, g.bs));
    groups
}

/// "psync's bandwidth in randread at QD8 peaks at 256k (2.1 GiB/s), then
/// falls 29 % by 1m".
fn bs_fall(at: &RwLoad, s: &BsSweep) -> Option<Finding> {
    let f = s.fall?;
    let title = at.title();
    let text = format!(
        "{}'s bandwidth in {title} peaks at {} ({}), then falls {} % by {}",
        s.config,
        crate::units::format_bs(s.peak.bs_bytes),
        bw_text(s.peak.bw_bytes_per_s),
        numbers::fixed(f.pct_below_peak, 0),
        crate::units::format_bs(f.bs_bytes)
    );
    Some(
        Finding::new(FindingKind::Fall, text)
            .on(
                vec![format!("{title} block-size sweep")],
                vec![Metric::BwBytesPerS],
                vec![s.config.clone()],
            )
            // A whole curve, as a load sweep's fall is.
            .scored(magnitude(f.pct_below_peak / 100.0), 0.75),
    )
}
