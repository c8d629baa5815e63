//! Metrics most configs have no value of: a p99 where four of five configs
//! ran with fio's `clat_percentiles=0`, a CPU figure a tool does not
//! report. A chart of one would be mostly "n/a", so charts draw none and
//! the report's checks say why (one rule for both, here).

use super::comparison::{Comparison, Metric};
use crate::model::Direction;

/// A metric of one group (reads, writes) that most configs lack.
#[derive(Debug, Clone, PartialEq)]
pub struct Sparse {
    pub direction: Direction,
    pub metric: Metric,
    /// Values (workload x config) the group's workloads have of it.
    pub total: usize,
    /// Of them, missing.
    pub missing: usize,
    /// Configs with no value of it in any of the group's workloads.
    pub without: Vec<String>,
}

/// Whether `metric` of `direction`'s workloads is mostly missing: more
/// than half of its values (workload x config) are none, though some
/// config has one. A metric no config has is simply absent.
pub fn sparse(cmp: &Comparison, direction: Direction, metric: Metric) -> Option<Sparse> {
    let results: Vec<_> = cmp
        .workloads
        .iter()
        .filter(|w| w.key.shape.direction == direction)
        .filter_map(|w| w.metrics.iter().find(|m| m.metric == metric))
        .collect();
    // Every config counts at every workload: one with no run there has no
    // entry in its maps, and is as missing as a null.
    let total = results.len() * cmp.configs.len();
    let present: usize = results
        .iter()
        .map(|r| r.values.values().filter(|v| v.is_some()).count())
        .sum();
    let missing = total.saturating_sub(present);
    if missing == total || missing * 2 <= total {
        return None;
    }
    let without = cmp
        .configs
        .iter()
        .filter(|c| {
            results
                .iter()
                .all(|r| r.values.get(c.as_str()).copied().flatten().is_none())
        })
        .cloned()
        .collect();
    Some(Sparse {
        direction,
        metric,
        total,
        missing,
        without,
    })
}

/// Every mostly-missing metric of the comparison, group by group.
pub fn all(cmp: &Comparison) -> Vec<Sparse> {
    let mut out = Vec::new();
    for direction in Direction::ALL {
        for metric in Metric::ALL {
            out.extend(sparse(cmp, direction, metric));
        }
    }
    out
}

/// The report's notes on every mostly-missing metric ([`all`], [`note`]).
pub fn notes(cmp: &Comparison) -> Vec<String> {
    all(cmp).iter().map(|s| note(cmp, s)).collect()
}

/// The report's note on `s`: which chart is not drawn and why.
pub fn note(cmp: &Comparison, s: &Sparse) -> String {
    let name = s.metric.human_at(cmp.tail_percentile);
    let why = match s.without.len() {
        0 => format!("{} of its {} values are missing", s.missing, s.total),
        n => format!(
            "{n} of {} configs have none ({})",
            cmp.configs.len(),
            s.without.join(", ")
        ),
    };
    format!(
        "No {} {name} charts: {why}. The tables show the values there are.",
        s.direction.to_string().to_lowercase(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published comparison with `n` configs' values of `metric`
    /// made missing.
    fn without(n: usize, metric: Metric) -> Comparison {
        let mut cmp = crate::compare::testdata::published();
        let gone: Vec<String> = cmp.configs[..n].to_vec();
        for w in &mut cmp.workloads {
            for r in w.metrics.iter_mut().filter(|r| r.metric == metric) {
                for c in &gone {
                    r.values.insert(c.clone(), None);
                }
            }
        }
        cmp
    }

    #[test]
    fn a_metric_is_sparse_past_half_its_values_missing() {
        let m = Metric::ClatP99Ns;
        let d = Direction::Read;
        let full = crate::compare::testdata::published();
        assert!(full.configs.len() == 4);
        assert_eq!(sparse(&full, d, Metric::Iops), None, "all present");
        // Two of four configs missing is half: still drawn.
        assert_eq!(sparse(&without(2, Metric::Iops), d, Metric::Iops), None);
        let s = sparse(&without(3, Metric::Iops), d, Metric::Iops).unwrap();
        assert_eq!(s.without, full.configs[..3]);
        assert!(s.missing * 2 > s.total);
        assert!(
            note(&full, &s).starts_with("No read IOPS charts: "),
            "{}",
            note(&full, &s)
        );
        // None at all is no chart and no note either.
        assert_eq!(sparse(&without(4, m), d, m), None);
    }

    /// A config with no run at a workload has no entry in its maps: it
    /// is as missing there as a null (what `--format json` of a
    /// comparison whose configs ran different workloads holds).
    #[test]
    fn a_config_absent_from_the_maps_counts_as_missing() {
        let d = Direction::Read;
        let m = Metric::Iops;
        let nulls = without(3, m);
        let mut absent = crate::compare::testdata::published();
        let gone: Vec<String> = absent.configs[..3].to_vec();
        for w in &mut absent.workloads {
            for r in &mut w.metrics {
                for c in &gone {
                    r.values.shift_remove(c);
                }
            }
        }
        let s = sparse(&absent, d, m).expect("three of four configs missing");
        assert_eq!(Some(&s), sparse(&nulls, d, m).as_ref());
        assert_eq!(s.without, gone);
        // Four read workloads of four configs: 16 values, 12 missing.
        assert_eq!((s.total, s.missing), (16, 12));
        // Two absent of four is half: still drawn, as with nulls.
        let mut half = crate::compare::testdata::published();
        for w in &mut half.workloads {
            for r in &mut w.metrics {
                r.values.truncate(2);
            }
        }
        assert_eq!(sparse(&half, d, m), None);
    }
}
