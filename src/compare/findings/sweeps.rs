//! Rules 6 and 9, load sweeps: each config's peak against the others', its
//! knee, the IOPS it sustains under the latency target (`--slo`), and
//! which config needs the least load to reach `saturation_pct` of its
//! peak.

use super::entries::{effect, entry, tie_words};
use super::words::{growth_words, iops_short, join_and};
use crate::compare::comparison::{Comparison, Metric, Slo, SloMetric, Sweep};
use crate::compare::findings::{Finding, FindingKind, ONE_WORKLOAD, magnitude};
use crate::compare::report_units::ReportUnits;
use crate::compare::rules::{Entry, Judge, tie_rule};
use crate::compare::workload::LoadPoint;
use crate::numbers;

/// The IOPS entry of a sweep's config at one load point, with the
/// precision and spread its workload knows.
pub(super) fn point_entry<'a>(
    cmp: &'a Comparison,
    s: &'a Sweep,
    load: LoadPoint,
    iops: f64,
) -> Entry<'a> {
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
pub(super) fn sweep_sentences(cmp: &Comparison, judge: Judge) -> Vec<Finding> {
    let mut out = Vec::new();
    for (shape, sweeps) in crate::compare::sweep::by_shape(cmp) {
        let title = crate::compare::sweep::title(&shape, &sweeps);
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
        }
        out.extend(knee_findings(cmp, &title, &sweeps));
        if let Some(slo) = cmp.sweep_rules.slo {
            out.push(slo_finding(&title, &sweeps, slo, &cmp.units));
        }
    }
    out
}

pub(super) fn peak_finding(
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

/// Knees, one sentence per pattern: configs whose curves bend at one load
/// point are named together ("bfq, kyber and none bend at QD32"), and so
/// are those with no knee up to one load. A knee is worth knowing; no knee
/// up to the last point, less so.
pub(super) fn knee_findings(cmp: &Comparison, title: &str, sweeps: &[&Sweep]) -> Vec<Finding> {
    let mut groups: Vec<(Option<LoadPoint>, String, Vec<&Sweep>)> = Vec::new();
    for s in sweeps {
        let (load, what) = knee_key(cmp, title, s);
        match groups.iter_mut().find(|g| g.0 == load && g.1 == what) {
            Some(g) => g.2.push(s),
            None => groups.push((load, what, vec![s])),
        }
    }
    groups
        .into_iter()
        .map(|(load, what, group)| {
            let names: Vec<String> = group.iter().map(|s| s.config.clone()).collect();
            let (text, strength) = match load {
                Some(_) => (knee_text(title, &group), 0.5),
                None => (no_knee_text(&names, &what), 0.25),
            };
            Finding::new(FindingKind::Knee, text)
                .on(vec![format!("{title} sweep")], vec![Metric::Iops], names)
                .scored(strength, ONE_WORKLOAD)
        })
        .collect()
}

/// Where a curve bends, or the sentence of a curve with no knee (with
/// `{}` where the config names go).
fn knee_key(cmp: &Comparison, title: &str, s: &Sweep) -> (Option<LoadPoint>, String) {
    if let Some(k) = &s.knee {
        return (Some(k.load), String::new());
    }
    let rules = &cmp.sweep_rules;
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
            "{{is}} at {} % of {{its}} peak from the lightest load in {title} ({}): no knee within the sweep",
            numbers::trimmed(rules.saturation_pct, 1),
            lightest.map_or(String::new(), |p| p.load.label())
        )
    } else {
        format!(
            "{{shows}} no knee in {title} up to {}: {{its}} IOPS {{curve does}} not flatten",
            last.map_or(String::new(), |p| p.load.label())
        )
    };
    (None, text)
}

/// The sentence of curves with no knee: `what` with its verbs agreeing
/// with the names before it.
fn no_knee_text(names: &[String], what: &str) -> String {
    let words: [(&str, &str, &str); 4] = [
        ("{is}", "is", "are"),
        ("{its}", "its", "their"),
        ("{shows}", "shows", "show"),
        ("{curve does}", "curve does", "curves do"),
    ];
    let mut text = what.to_string();
    for (slot, one, many) in words {
        text = text.replace(slot, if names.len() == 1 { one } else { many });
    }
    format!("{} {text}", join_and(names))
}

/// "none's randread 4k curve bends at QD32 (343k IOPS, its knee): past it
/// at most 4.3 % more IOPS for 7.7x the mean latency"; several configs
/// bending at one load point in one sentence, their figures as ranges.
fn knee_text(title: &str, group: &[&Sweep]) -> String {
    let knees: Vec<&crate::compare::comparison::Knee> =
        group.iter().filter_map(|s| s.knee.as_ref()).collect();
    let load = knees[0].load.label();
    let gains: Vec<f64> = knees.iter().map(|k| k.iops_gain_pct).collect();
    let growths: Vec<f64> = knees.iter().map(|k| k.lat_growth_pct).collect();
    let gain = gain_words(&gains);
    let growth = growth_range(&growths);
    // "no further IOPS gain for 146 % more latency" reads as if the
    // latency bought nothing; it did not, and the sentence says so.
    let growth = if gain.starts_with("no further") {
        format!("only {growth}")
    } else {
        growth
    };
    let gain = if gain.starts_with("no further") {
        format!("{gain},")
    } else {
        format!("{gain} for")
    };
    match group {
        [one] => format!(
            "{}'s {title} curve bends at {load} ({} IOPS, its knee): past it {gain} {growth}",
            one.config,
            iops_short(knees[0].iops),
        ),
        many => {
            let names: Vec<String> = many.iter().map(|s| s.config.clone()).collect();
            let all = if names.len() == 2 { "both" } else { "all" };
            format!(
                "The {title} curves of {} {all} bend at {load} (their knees): past it {gain} {growth}",
                join_and(&names)
            )
        }
    }
}

/// "at most 4.3 % more IOPS", "at most 0.6–4.3 % more IOPS", "no further
/// IOPS gain" (a gain that rounds to 0.0 % is none).
fn gain_words(gains: &[f64]) -> String {
    let lo = gains.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = gains.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let shown = |v: f64| numbers::fixed(v, 1);
    if shown(hi.max(0.0)) == "0.0" {
        "no further IOPS gain".into()
    } else if shown(lo) == shown(hi) || shown(lo.max(0.0)) == "0.0" {
        format!("at most {} % more IOPS", shown(hi))
    } else {
        format!("at most {}–{} % more IOPS", shown(lo.max(0.0)), shown(hi))
    }
}

/// "685 % more mean latency", "526x the mean latency", a range for
/// several knees.
fn growth_range(growths: &[f64]) -> String {
    let lo = growths.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = growths.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let tail = |v: f64| {
        if v >= 900.0 {
            "the mean latency"
        } else {
            "more mean latency"
        }
    };
    let (a, b) = (growth_words(lo), growth_words(hi));
    if a == b {
        format!("{b} {}", tail(hi))
    } else if tail(lo) == tail(hi) {
        let unit = |t: &str| t.trim_end_matches(['x', '%', ' ']).to_string();
        let suffix = if hi >= 900.0 { "x" } else { " %" };
        format!("{}–{}{suffix} {}", unit(&a), unit(&b), tail(hi))
    } else {
        format!("{a} {} to {b} {}", tail(lo), tail(hi))
    }
}
/// The SLO sentence; its effect is the first config's lead over the
/// second under the target (every config when only one meets it).
pub(super) fn slo_finding(
    title: &str,
    sweeps: &[&Sweep],
    slo: Slo,
    units: &ReportUnits,
) -> Finding {
    let text = slo_sentence(title, sweeps, slo, units);
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

pub(super) fn slo_sentence(
    title: &str,
    sweeps: &[&Sweep],
    slo: Slo,
    units: &ReportUnits,
) -> String {
    let target = Metric::LatMeanNs.scale_in(units).with_unit(slo.target_ns);
    let name = match slo.metric {
        SloMetric::ClatP99 => format!(
            "{} completion latency",
            crate::compare::workload::tail_name(slo.percentile)
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

/// 9: per sweep shape, the configs ranked by the load they need to reach
/// `saturation_pct` of their peak; one still climbing at its heaviest load
/// point (saturated only there, no knee) has not saturated and comes last.
pub(super) fn saturation_findings(cmp: &Comparison) -> Vec<Finding> {
    let pct = numbers::trimmed(cmp.sweep_rules.saturation_pct, 1);
    let mut out = Vec::new();
    for (shape, sweeps) in crate::compare::sweep::by_shape(cmp) {
        let title = crate::compare::sweep::title(&shape, &sweeps);
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
        // One config needs no ranking; it is compared with nothing.
        if ranked.len() < 2 {
            continue;
        }
        let Some(&(first, load, false)) = ranked.first() else {
            continue;
        };
        let level: Vec<&Sweep> = ranked
            .iter()
            .filter(|(_, l, climbing)| !climbing && *l == load)
            .map(|(s, _, _)| *s)
            .collect();
        if level.len() >= 2 {
            out.extend(saturation_tie(&title, &pct, load, &level, ranked.len()));
            continue;
        }
        let Some(sat) = first.saturation else {
            continue;
        };
        let mut text = format!(
            "In {title} sweeps, {} needs the least load to reach {pct} % of its peak: {} ({} IOPS)",
            first.config,
            load.label(),
            iops_short(sat.iops)
        );
        let others = ranked_others(&ranked[1..]);
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

/// Configs that reach their saturation at one load: no "least load" among
/// them. Said only when others reach it later or not at all; when every
/// config saturates at one load the knee sentences say it.
fn saturation_tie(
    title: &str,
    pct: &str,
    load: LoadPoint,
    level: &[&Sweep],
    of: usize,
) -> Option<Finding> {
    if level.len() == of {
        return None;
    }
    let names: Vec<String> = level.iter().map(|s| s.config.clone()).collect();
    let text = format!(
        "In {title} sweeps, {} reach {pct} % of their peak at the same load, {}; the others need more",
        join_and(&names),
        load.label()
    );
    Some(
        Finding::new(FindingKind::Saturation, text)
            .on(vec![format!("{title} sweep")], vec![Metric::Iops], names)
            .scored(0.4, ONE_WORKLOAD),
    )
}

/// "QD64 for bfq and kyber", "none still climbing at QD256": the configs
/// after the first of a saturation ranking, those that need one load
/// named together after it.
fn ranked_others(rest: &[(&Sweep, LoadPoint, bool)]) -> Vec<String> {
    let mut grouped: Vec<(LoadPoint, bool, Vec<String>)> = Vec::new();
    for (s, l, climbing) in rest {
        match grouped.last_mut() {
            Some((gl, gc, names)) if gl == l && gc == climbing => names.push(s.config.clone()),
            _ => grouped.push((*l, *climbing, vec![s.config.clone()])),
        }
    }
    grouped
        .iter()
        .map(|(l, climbing, names)| match climbing {
            true => format!("{} still climbing at {}", join_and(names), l.label()),
            false => format!("{} for {}", l.label(), join_and(names)),
        })
        .collect()
}
