//! How findings put numbers and names in words: counts, "the best read
//! bandwidth", IOPS and bandwidth as sentences print them, leads.

use crate::compare::model::{Better, Metric};
use crate::model::{Direction, Os};
use crate::numbers;

pub(super) fn count_word(n: usize) -> String {
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
        Better::Higher if a >= 1.5 * b => format!("{}x", numbers::fixed(a / b, 2)),
        Better::Higher => format!("{} % more than", pct((a / b - 1.0) * 100.0)),
        Better::Lower => format!("{} % below", pct((1.0 - a / b) * 100.0)),
    }
}

/// `2.91 GiB/s`: bandwidth as sentences print it.
pub(super) fn bw_text(v: f64) -> String {
    Metric::BwBytesPerS.scale(v).with_unit(v)
}
