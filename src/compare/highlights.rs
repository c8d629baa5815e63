//! Plain sentences built from a comparison, in a fixed order so the same
//! results always read the same:
//!
//! 1. per direction and metric, the config(s) with the most wins
//!    ("windows-native has the best read bandwidth in 3 of 4 read workloads");
//! 2. the same per OS family;
//! 3. workloads where every config is within 0.5 % ("effectively a tie");
//! 4. the largest gap per metric, between the best and the worst config;
//! 5. per OS family, its largest lead over the other family's best config;
//! 6. sweeps: each config's peak against the others', its knee, the IOPS
//!    it sustains under the latency target (`--slo`);
//! 7. outliers: a value at least 1.75x the median of three or more other
//!    configs (only the high side: a value far below the others is a
//!    result, such as a faster stack's latency, and the win/gap sentences
//!    cover it).

use super::metric::Scales;
use super::model::{
    Better, Comparison, LoadPoint, Metric, MetricResult, Slo, SloMetric, Sweep, Workload,
};
use super::stats::precision_tie;
use crate::format;
use crate::model::Direction;

/// Spread under which all configs are called "within X % of each other".
pub const NEAR_EQUAL_PCT: f64 = 0.5;
/// Ratio to the others' median that makes a value an outlier.
pub const OUTLIER_RATIO: f64 = 1.75;

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

fn best_word(m: Metric, dir: Direction) -> String {
    match m.better() {
        Better::Higher => format!("the best {dir} {}", m.human()),
        Better::Lower => format!("the lowest {}", m.human()),
    }
}

fn family_title(f: &str) -> String {
    match f {
        "windows" => "Windows".into(),
        "linux" => "Linux".into(),
        other => other.to_string(),
    }
}

/// A gap: size, workload, best (config, value), worst (config, value).
type Gap<'a> = (f64, &'a Workload, (&'a str, f64), (&'a str, f64));

/// Who won: the winner, or every tied config.
fn winners(m: &MetricResult) -> Vec<&str> {
    match &m.winner {
        Some(w) => vec![w.as_str()],
        None => m.tied.iter().map(|s| s.as_str()).collect(),
    }
}

fn present(m: &MetricResult) -> Vec<(&str, f64)> {
    m.values
        .iter()
        .filter_map(|(c, v)| v.map(|v| (c.as_str(), v)))
        .collect()
}

/// Builds every highlight of `cmp`, rule by rule.
pub fn build(cmp: &Comparison) -> Vec<String> {
    let scales = Scales::of(cmp, &METRICS);
    let mut out = most_wins(cmp);
    out.extend(near_equal(cmp));
    out.extend(largest_gaps(cmp, &scales));
    out.extend(family_leads(cmp));
    out.extend(sweep_sentences(cmp));
    out.extend(outliers(cmp, &scales));
    out
}

/// 1 and 2: most wins per direction and metric, per config and OS family.
fn most_wins(cmp: &Comparison) -> Vec<String> {
    let mut out = Vec::new();
    for dir in Direction::ALL {
        let ws: Vec<&Workload> = cmp
            .workloads
            .iter()
            .filter(|w| w.direction == dir)
            .collect();
        if ws.len() < 2 || cmp.configs.len() < 2 {
            continue;
        }
        for m in METRICS {
            let results: Vec<&MetricResult> = ws.iter().filter_map(|w| w.metric(m)).collect();
            let decided: Vec<&MetricResult> = results
                .iter()
                .copied()
                .filter(|r| present(r).len() >= 2)
                .collect();
            let n = decided.len();
            if n < 2 {
                continue;
            }
            let wins = |c: &str| {
                decided
                    .iter()
                    .filter(|r| r.winner.as_deref() == Some(c))
                    .count()
            };
            let top = cmp.configs.iter().map(|c| wins(c)).max().unwrap_or(0);
            if top > 0 {
                for c in cmp.configs.iter().filter(|c| wins(c) == top) {
                    out.push(format!(
                        "{c} has {} in {top} of {n} {dir} workloads",
                        best_word(m, dir)
                    ));
                }
            }
            if cmp.families.len() >= 2 {
                let fam_wins = |f: &str| {
                    decided
                        .iter()
                        .filter(|r| {
                            let ws = winners(r);
                            !ws.is_empty()
                                && ws
                                    .iter()
                                    .all(|c| cmp.config_os.get(*c).map(|s| s.as_str()) == Some(f))
                        })
                        .count()
                };
                let top = cmp
                    .families
                    .iter()
                    .map(|f| fam_wins(&f.name))
                    .max()
                    .unwrap_or(0);
                if top > 0 {
                    for f in cmp.families.iter().filter(|f| fam_wins(&f.name) == top) {
                        out.push(format!(
                            "{} has {} in {top} of {n} {dir} workloads",
                            f.name,
                            best_word(m, dir)
                        ));
                    }
                }
            }
        }
    }

    out
}

/// 3: workloads where every config is within NEAR_EQUAL_PCT.
fn near_equal(cmp: &Comparison) -> Vec<String> {
    let mut out = Vec::new();
    for w in &cmp.workloads {
        for m in METRICS {
            let Some(r) = w.metric(m) else { continue };
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
                out.push(format!(
                    "In {} {} configs are within {} % of each other ({})",
                    cmp.title_of(w),
                    count_word(vals.len()),
                    format::fixed(pct.max(0.01), 2),
                    m.human()
                ));
            }
        }
    }

    out
}

/// 4: the largest absolute gap per metric.
fn largest_gaps(cmp: &Comparison, scales: &Scales) -> Vec<String> {
    let mut out = Vec::new();
    for m in METRICS {
        let mut best: Option<Gap> = None;
        for w in &cmp.workloads {
            let Some(r) = w.metric(m) else { continue };
            let vals = present(r);
            if vals.len() < 2 {
                continue;
            }
            let lo = vals
                .iter()
                .copied()
                .reduce(|a, b| if b.1 < a.1 { b } else { a })
                .unwrap();
            let hi = vals
                .iter()
                .copied()
                .reduce(|a, b| if b.1 > a.1 { b } else { a })
                .unwrap();
            let gap = hi.1 - lo.1;
            let (first, second) = match m.better() {
                Better::Higher => (hi, lo),
                Better::Lower => (lo, hi),
            };
            if gap > 0.0 && best.is_none_or(|b| gap > b.0) {
                best = Some((gap, w, first, second));
            }
        }
        if let Some((gap, w, a, b)) = best {
            let s = scales.get(m);
            let gap_text = if m == Metric::CpuPct {
                format!("{} pp", s.format(gap))
            } else {
                s.with_unit(gap)
            };
            out.push(format!(
                "largest {} gap: {}, {gap_text} between {} ({}) and {} ({})",
                m.human().replace(' ', "-"),
                cmp.title_of(w),
                a.0,
                s.with_unit(a.1),
                b.0,
                s.with_unit(b.1)
            ));
        }
    }

    out
}

/// 5: each OS family's largest lead over the other family's best config.
fn family_leads(cmp: &Comparison) -> Vec<String> {
    let mut out = Vec::new();
    let fam = |name: &str| cmp.families.iter().find(|f| f.name == name);
    if let (Some(win), Some(lin)) = (fam("windows"), fam("linux")) {
        for m in [Metric::BwBytesPerS, Metric::Iops] {
            for (mine, theirs) in [(win, lin), (lin, win)] {
                let mut best: Option<(f64, &Workload, &str, &str)> = None;
                for w in &cmp.workloads {
                    let Some(r) = w.metric(m) else { continue };
                    let (Some(a), Some(b)) = (top_of(r, &mine.configs), top_of(r, &theirs.configs))
                    else {
                        continue;
                    };
                    if b.1 <= 0.0 || precision_tie(a.1, a.2, b.1, b.2) {
                        continue;
                    }
                    let lead = (a.1 / b.1 - 1.0) * 100.0;
                    if lead > 0.0 && best.is_none_or(|x| lead > x.0) {
                        best = Some((lead, w, a.0, b.0));
                    }
                }
                if let Some((lead, w, a, b)) = best {
                    out.push(format!(
                        "{a} leads the best {} config ({b}) in {} {} by {} %",
                        family_title(&theirs.name),
                        cmp.title_of(w),
                        m.human(),
                        format::fixed(lead, 1)
                    ));
                }
            }
        }
    }

    out
}

/// 6: outliers against the others' median. Needs three others at least:
/// against one or two, "far from the median" is just "different".
fn outliers(cmp: &Comparison, scales: &Scales) -> Vec<String> {
    let mut out = Vec::new();
    for w in &cmp.workloads {
        for m in METRICS {
            let Some(r) = w.metric(m) else { continue };
            let vals = present(r);
            if vals.len() < 4 {
                continue;
            }
            for (c, v) in &vals {
                let mut others: Vec<f64> =
                    vals.iter().filter(|(o, _)| o != c).map(|x| x.1).collect();
                others.sort_by(f64::total_cmp);
                let median = if others.len() % 2 == 1 {
                    others[others.len() / 2]
                } else {
                    (others[others.len() / 2 - 1] + others[others.len() / 2]) / 2.0
                };
                if median <= 0.0 || *v <= 0.0 {
                    continue;
                }
                let ratio = v / median;
                if ratio >= OUTLIER_RATIO {
                    let s = scales.get(m);
                    out.push(format!(
                        "outlier: {c} {} {} {} is {}x the others' median (others {}–{})",
                        cmp.title_of(w),
                        m.human(),
                        s.with_unit(*v),
                        format::fixed(ratio, 1),
                        s.format(others[0]),
                        s.with_unit(others[others.len() - 1])
                    ));
                }
            }
        }
    }
    out
}

/// The highest value among `configs`: (config, value, precision).
fn top_of<'a>(r: &MetricResult, configs: &'a [String]) -> Option<(&'a str, f64, f64)> {
    configs
        .iter()
        .filter_map(|c| {
            let v = r.values.get(c).copied().flatten()?;
            Some((c.as_str(), v, r.precision.get(c).copied().unwrap_or(0.0)))
        })
        .reduce(|a, b| if b.1 > a.1 { b } else { a })
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
        format::trimmed(x, d)
    };
    if v >= 1e6 {
        format!("{}M", sig3(v / 1e6))
    } else if v >= 1e3 {
        format!("{}k", sig3(v / 1e3))
    } else {
        format::fixed(v, 0)
    }
}

fn at(iodepth: u32, numjobs: u32) -> String {
    LoadPoint::of(iodepth, numjobs).label()
}

/// 6: sweeps. Per rw/bs: the highest peak against the next config's, each
/// config's knee (or that it never saturated), and the IOPS each sustains
/// under the latency target.
fn sweep_sentences(cmp: &Comparison) -> Vec<String> {
    let mut out = Vec::new();
    let rules = &cmp.sweep_rules;
    for (shape, sweeps) in super::sweep::by_shape(cmp) {
        let title = shape.title();
        let mut ranked = sweeps.clone();
        ranked.sort_by(|a, b| b.peak.iops.total_cmp(&a.peak.iops));
        if let [first, second, ..] = ranked.as_slice() {
            let lead = (first.peak.iops / second.peak.iops - 1.0) * 100.0;
            out.push(format!(
                "In {title} sweeps, {} peaks at {} IOPS at {}, {} % above {}'s peak ({} at {})",
                first.config,
                iops_short(first.peak.iops),
                at(first.peak.iodepth, first.peak.numjobs),
                format::fixed(lead, 1),
                second.config,
                iops_short(second.peak.iops),
                at(second.peak.iodepth, second.peak.numjobs)
            ));
        } else if let [only] = ranked.as_slice() {
            out.push(format!(
                "In {title} sweeps, {} peaks at {} IOPS at {}",
                only.config,
                iops_short(only.peak.iops),
                at(only.peak.iodepth, only.peak.numjobs)
            ));
        }
        for s in &sweeps {
            out.push(match &s.knee {
                Some(k) => format!(
                    "{} saturates at {} in {title}: {} adds {} % IOPS for {} % more mean latency",
                    s.config,
                    at(k.iodepth, k.numjobs),
                    at(k.next_iodepth, k.next_numjobs),
                    format::fixed(k.iops_gain_pct, 1),
                    format::fixed(k.lat_growth_pct, 0)
                ),
                None => {
                    let last = s.points.iter().max_by_key(|p| p.load().outstanding());
                    format!(
                        "{} shows no knee in {title} up to {} (no step buys < {} % IOPS for > {} % latency)",
                        s.config,
                        last.map_or(String::new(), |p| p.load().label()),
                        format::fixed(rules.knee_min_gain_pct, 0),
                        format::fixed(rules.knee_lat_growth_pct, 0)
                    )
                }
            });
        }
        if let Some(slo) = rules.slo {
            out.push(slo_sentence(&title, &sweeps, slo));
        }
    }
    out
}

fn slo_sentence(title: &str, sweeps: &[&Sweep], slo: Slo) -> String {
    let target = Metric::LatMeanNs
        .scale(slo.target_ns)
        .with_unit(slo.target_ns);
    let name = match slo.metric {
        SloMetric::ClatP99 => "p99 completion latency",
        SloMetric::LatMean => "mean latency",
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
                    at(a.iodepth, a.numjobs),
                    at(
                        a.upper_iodepth.unwrap_or(a.iodepth),
                        a.upper_numjobs.unwrap_or(a.numjobs)
                    )
                ),
            )),
            Some(a) => parts.push((
                a.iops,
                format!(
                    "{} {} IOPS (at {})",
                    s.config,
                    iops_short(a.iops),
                    at(a.iodepth, a.numjobs)
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
        text.push_str(&format!("{} meet(s) it at no load point", none.join(", ")));
    }
    text
}
