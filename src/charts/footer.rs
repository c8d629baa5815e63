//! The footer line of a chart: how the runs it draws were made (fio
//! version, engines, block sizes, load, runtime, hosts), so a chart lifted
//! out of the report still says what it measured. Taken from the
//! comparison's [`RunParams`], never from the files.

use std::collections::BTreeSet;

use crate::compare::{Comparison, RunParams, Workload};
use crate::model::Direction;
use crate::units::format_bs;

/// [`line`](fn@line) of a per-group chart: every workload of `direction`.
pub(crate) fn of_group(cmp: &Comparison, direction: Direction) -> Option<String> {
    line(
        cmp.workloads
            .iter()
            .filter(|w| w.key.shape.direction == direction),
        None,
    )
}

/// [`line`](fn@line) of a per-workload chart: the workload at `index`.
pub(crate) fn of_workload(cmp: &Comparison, index: usize) -> Option<String> {
    line([&cmp.workloads[index]], None)
}

/// `fio-3.36, fio-3.38 · io_uring, libaio · bs 4k–128k · QD32 × 16 jobs ·
/// 60 s runs · 1 host` for the runs of `configs` (all when None) in
/// `workloads`; None when there are none.
pub(crate) fn line<'a>(
    workloads: impl IntoIterator<Item = &'a Workload>,
    configs: Option<&[&str]>,
) -> Option<String> {
    let workloads: Vec<&Workload> = workloads.into_iter().collect();
    let params: Vec<&RunParams> = workloads
        .iter()
        .flat_map(|w| &w.params)
        .filter(|(c, _)| configs.is_none_or(|cs| cs.contains(&c.as_str())))
        .map(|(_, p)| p)
        .collect();
    if params.is_empty() {
        return None;
    }
    let names = |f: fn(&RunParams) -> &Vec<String>| -> Option<String> {
        let set: BTreeSet<&str> = params
            .iter()
            .flat_map(|p| f(p))
            .map(String::as_str)
            .collect();
        (!set.is_empty()).then(|| set.into_iter().collect::<Vec<_>>().join(", "))
    };
    let bs = range(workloads.iter().map(|w| w.key.shape.bs_bytes), format_bs);
    let qd = range(workloads.iter().map(|w| w.key.load.iodepth), |d| {
        d.to_string()
    });
    let jobs = range(workloads.iter().map(|w| w.key.load.numjobs), |n| {
        n.to_string()
    });
    let hosts = workloads
        .iter()
        .map(|w| w.key.load.hosts)
        .max()
        .unwrap_or(1);
    let parts = [
        names(|p| &p.fio_versions),
        names(|p| &p.engines),
        Some(format!("bs {bs}")),
        Some(format!("QD{qd} × {jobs} {}", plural(&jobs, "job"))),
        runtime(&params),
        Some(format!("{hosts} {}", plural(&hosts.to_string(), "host"))),
    ];
    Some(parts.into_iter().flatten().collect::<Vec<_>>().join(" · "))
}

/// `4k` for one value, `4k, 64k` for two, `4k–1m` for more (sorted).
fn range<T: Ord + Copy>(values: impl Iterator<Item = T>, show: impl Fn(T) -> String) -> String {
    let set: BTreeSet<T> = values.collect();
    let v: Vec<T> = set.into_iter().collect();
    match v.as_slice() {
        [] => String::new(),
        [one] => show(*one),
        [a, b] => format!("{}, {}", show(*a), show(*b)),
        [first, .., last] => format!("{}–{}", show(*first), show(*last)),
    }
}

/// "job" after "1", "jobs" after anything else ("2", "1–4").
fn plural(count: &str, word: &str) -> String {
    if count == "1" {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

/// `60 s runs`, `1–2 s runs`, `500 ms runs`: shortest to longest.
fn runtime(params: &[&RunParams]) -> Option<String> {
    let lo = params
        .iter()
        .map(|p| p.runtime_ms[0])
        .fold(f64::INFINITY, f64::min);
    let hi = params.iter().map(|p| p.runtime_ms[1]).fold(0.0, f64::max);
    if !(lo.is_finite() && hi > 0.0) {
        return None;
    }
    // fio's runtime is the requested one plus a few ms of ramp: whole
    // seconds say what was asked for.
    let show = |ms: f64| {
        if hi >= 1000.0 {
            format!("{:.0}", ms / 1000.0)
        } else {
            format!("{ms:.0}")
        }
    };
    let unit = if hi >= 1000.0 { "s" } else { "ms" };
    let (a, b) = (show(lo), show(hi));
    let span = if a == b { a } else { format!("{a}–{b}") };
    Some(format!("{span} {unit} runs"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_short() {
        assert_eq!(range([4096u64].into_iter(), format_bs), "4k");
        assert_eq!(range([65536u64, 4096].into_iter(), format_bs), "4k, 64k");
        assert_eq!(
            range([1u32, 32, 4, 4].into_iter(), |d| d.to_string()),
            "1–32"
        );
        assert_eq!(plural("1", "job"), "job");
        assert_eq!(plural("1–4", "job"), "jobs");
    }

    #[test]
    fn runtimes_in_whole_seconds() {
        let p = |lo, hi| RunParams {
            runs: 1,
            engines: vec![],
            fio_versions: vec![],
            runtime_ms: [lo, hi],
        };
        assert_eq!(runtime(&[&p(2002.0, 2003.0)]).unwrap(), "2 s runs");
        assert_eq!(
            runtime(&[&p(1001.0, 1001.0), &p(60000.0, 60000.0)]).unwrap(),
            "1–60 s runs"
        );
        assert_eq!(runtime(&[&p(500.0, 500.0)]).unwrap(), "500 ms runs");
        assert_eq!(runtime(&[&p(0.0, 0.0)]), None);
    }
}
