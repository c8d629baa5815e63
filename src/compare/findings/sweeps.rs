//! Rules 6 and 9, load sweeps: each config's peak against the others', its
//! knee, the IOPS it sustains under the latency target (`--slo`), and
//! which config needs the least load to reach `saturation_pct` of its
//! peak.

use super::entries::{effect, entry, tie_words};
use super::words::{iops_short, join_and};
use crate::compare::findings::{Finding, FindingKind, ONE_WORKLOAD, magnitude};
use crate::compare::model::{Comparison, Metric, Slo, SloMetric, Sweep};
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

/// A knee is worth knowing; no knee up to the last point, less so.
pub(super) fn knee_sentence(cmp: &Comparison, title: &str, s: &Sweep) -> (String, f64) {
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
pub(super) fn slo_finding(title: &str, sweeps: &[&Sweep], slo: Slo) -> Finding {
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

pub(super) fn slo_sentence(title: &str, sweeps: &[&Sweep], slo: Slo) -> String {
    let target = Metric::LatMeanNs
        .scale(slo.target_ns)
        .with_unit(slo.target_ns);
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
