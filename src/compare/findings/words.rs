//! How findings put numbers and names in words: counts, "the best read
//! bandwidth", IOPS and bandwidth as sentences print them, leads.

use crate::compare::comparison::{Better, Metric};
use crate::compare::report_units::ReportUnits;
use crate::model::{Direction, Os};
use crate::numbers;

pub(super) fn count_word(n: usize) -> String {
    match n {
        2 => "both".into(),
        3 => "all three".into(),
        4 => "all four".into(),
        5 => "all five".into(),
        6 => "all six".into(),
        n => format!("all {}", numbers::whole(n as u64)),
    }
}

/// "the best read bandwidth", "the lowest CPU usage"; without a direction
/// when the sentence covers both.
pub(super) fn best_word(m: Metric, dir: Option<Direction>, tail: f64) -> String {
    let name = m.human_at(tail);
    match (m.better(), dir) {
        (Better::Higher, Some(dir)) => format!("the best {dir} {name}"),
        (Better::Higher, None) => format!("the best {name}"),
        (Better::Lower, _) => format!("the lowest {name}"),
    }
}

pub(super) fn family_title(f: &str) -> String {
    Os::parse(f).title()
}

pub(super) fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `148k`, `1.23M`, `950`: IOPS the way reviews print them in sentences.
pub(super) fn iops_short(v: f64) -> String {
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

/// "12.3 % more than", "1.71x", "63.0 % below": how far `a` is ahead of
/// `b` for a metric of direction `better` (a ratio from 1.5x up, as
/// reviews write a large lead; lower-is-better leads in percent, which
/// cannot pass 100).
pub(super) fn lead_words(better: Better, a: f64, b: f64) -> String {
    // Two significant digits for a lead under 0.1 %: "0.01 %", not "0.0 %".
    let pct = |p: f64| numbers::fixed(p, if p < 0.1 { 2 } else { 1 });
    match better {
        Better::Higher if a >= 10.0 * b => format!("{}x", significant_up_to(a / b, 3)),
        Better::Higher if a >= 1.5 * b => format!("{}x", numbers::fixed(a / b, 2)),
        Better::Higher => format!("{} % more than", pct((a / b - 1.0) * 100.0)),
        Better::Lower => format!("{} % below", pct((1.0 - a / b) * 100.0)),
    }
}

/// `2.91 GiB/s`: bandwidth as sentences print it, in the report's unit.
pub(super) fn bw_text(units: &ReportUnits, v: f64) -> String {
    figure(units, Metric::BwBytesPerS, v)
}

/// Most significant digits a figure in a sentence prints: a reader says
/// "91.17 GiB/s" aloud, not "91.165 GiB/s".
const PROSE_DIGITS: i32 = 4;

/// `v` with at most [`PROSE_DIGITS`] significant digits, trailing zeros
/// dropped: `91.17`, `207`, `0.0452`.
pub(super) fn significant(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return numbers::trimmed(v, 0);
    }
    let magnitude = v.abs().log10().floor() as i32;
    let decimals = (PROSE_DIGITS - 1 - magnitude).max(0) as usize;
    numbers::trimmed(v, decimals)
}

/// A figure as a sentence prints it, in the report's unit of its metric
/// (the unit of the report's tables, [`ReportUnits`]), at most four
/// significant digits: `0.207 ms`, `3.2 ms`, `91.17 GiB/s`, `2.64M` IOPS,
/// `45.76 %`.
pub(super) fn figure(units: &ReportUnits, m: Metric, v: f64) -> String {
    match m {
        Metric::Iops | Metric::IopsPerCpuPct => iops_short(v),
        Metric::CpuPct => format!("{} %", numbers::fixed(v, 2)),
        _ => {
            let s = m.scale_in(units);
            s.unit_after(significant(v / s.div))
        }
    }
}

/// "9.198–10.06 GiB/s": a range with one unit.
pub(super) fn figure_range(units: &ReportUnits, m: Metric, lo: f64, hi: f64) -> String {
    let (a, b) = (figure(units, m, lo), figure(units, m, hi));
    let unit = |t: &str| t.rsplit_once(' ').map(|(_, u)| u.to_string());
    match (unit(&a), unit(&b)) {
        (Some(ua), Some(ub)) if ua == ub => {
            format!("{}–{b}", a.trim_end_matches(ua.as_str()).trim_end())
        }
        _ => format!("{a}–{b}"),
    }
}

/// How many times `to` is `from`, or the change in percent below 10x:
/// "grows 526x", "grows 685 %". `growth_pct` is (to / from - 1) x 100.
pub(super) fn growth_words(growth_pct: f64) -> String {
    let factor = 1.0 + growth_pct / 100.0;
    if factor >= 10.0 {
        format!("{}x", significant_up_to(factor, 3))
    } else {
        format!("{} %", numbers::fixed(growth_pct, 0))
    }
}

/// `v` to at most `digits` significant digits, never fewer than its
/// integer part: `526`, `12.4`.
fn significant_up_to(v: f64, digits: i32) -> String {
    let magnitude = v.abs().log10().floor() as i32;
    numbers::trimmed(v, (digits - 1 - magnitude).max(0) as usize)
}

#[cfg(test)]
mod tests {
    use super::count_word;

    #[test]
    fn counts_in_words_below_seven_and_with_thousands_separators_above() {
        assert_eq!(count_word(2), "both");
        assert_eq!(count_word(6), "all six");
        assert_eq!(count_word(7), "all 7");
        // A study of 10,000 configs reads as the rest of the report does.
        assert_eq!(count_word(10_000), "all 10,000");
        assert_eq!(count_word(128_901), "all 128,901");
    }
}
