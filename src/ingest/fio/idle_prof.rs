//! fio's `--idle-prof=system|percpu` figures: how idle the whole machine
//! was during the run, measured by fio's calibrated idle threads
//! (`idletime.c`). The JSON reader and the normal-text reader both hand
//! what they found here, and rows take it as whole-system CPU.
//!
//! fio prints them once per report (`stat.c`, `show_idle_prof_stats`):
//! JSON `"cpu_idleness": {"system": 26.65, "cpu-0": 31.2, ..., "unit_mean":
//! ..., "unit_stddev": ...}` and in normal text
//!
//! ```text
//! CPU idleness:
//!   system: 26.65%
//!   percpu: 50.61%, 9.79%
//!   unit work: mean=11.62us, stddev=0.84
//! ```

use crate::model::Row;

/// What `--idle-prof` measured, percent idle.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct IdleProf {
    /// The whole machine's idleness (`system`).
    pub system: Option<f64>,
    /// Each CPU's idleness, in CPU order (`percpu` only).
    pub percpu: Vec<f64>,
}

impl IdleProf {
    /// From JSON `cpu_idleness` pairs. A value that is not a percentage
    /// costs a warning and is not used.
    pub fn from_pairs<'k>(
        pairs: impl Iterator<Item = (&'k str, Option<f64>)>,
        warnings: &mut Vec<String>,
    ) -> IdleProf {
        let mut out = IdleProf::default();
        let mut cpus: Vec<(u32, f64)> = Vec::new();
        for (key, value) in pairs {
            let cpu = key.strip_prefix("cpu-").and_then(|n| n.parse::<u32>().ok());
            if key != "system" && cpu.is_none() {
                continue; // unit_mean, unit_stddev: the calibration
            }
            let Some(v) = value.filter(|v| (0.0..=100.0).contains(v)) else {
                warnings.push(format!(
                    "cpu_idleness `{key}` is not a percentage; not used for system CPU"
                ));
                continue;
            };
            match cpu {
                Some(n) => cpus.push((n, v)),
                None => out.system = Some(v),
            }
        }
        cpus.sort_by_key(|c| c.0);
        out.percpu = cpus.into_iter().map(|c| c.1).collect();
        out
    }

    /// Reads one line of the text block after `CPU idleness:`; false when
    /// the line is not one of its figures.
    pub fn text_line(&mut self, t: &str) -> bool {
        if let Some(v) = t.strip_prefix("system:") {
            self.system = percent(v);
            return true;
        }
        if let Some(list) = t.strip_prefix("percpu:") {
            self.percpu = list.split(',').filter_map(percent).collect();
            return true;
        }
        t.starts_with("unit work:")
    }

    pub fn is_empty(&self) -> bool {
        self.system.is_none() && self.percpu.is_empty()
    }

    /// Whole-system CPU % (100 - idleness) where the row has none of its
    /// own (the harness writes its own), and the busiest CPU's busy %.
    pub fn apply(&self, row: &mut Row) {
        if row.system_cpu_pct.is_none() {
            row.system_cpu_pct = self.system.map(|idle| 100.0 - idle);
        }
        let least_idle = self.percpu.iter().copied().reduce(f64::min);
        row.busiest_cpu_pct = least_idle.map(|idle| 100.0 - idle);
    }
}

/// `26.65%` -> 26.65, when it is a percentage.
fn percent(s: &str) -> Option<f64> {
    let v: f64 = s.trim().strip_suffix('%')?.trim().parse().ok()?;
    (0.0..=100.0).contains(&v).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Direction;

    #[test]
    fn json_pairs_in_cpu_order_and_calibration_ignored() {
        let mut w = Vec::new();
        let p = IdleProf::from_pairs(
            [
                ("system", Some(43.448124)),
                ("cpu-10", Some(80.0)),
                ("cpu-2", Some(55.699495)),
                ("unit_mean", Some(22.205)),
                ("cpu-1", Some(-3.0)),
            ]
            .into_iter(),
            &mut w,
        );
        assert_eq!(p.system, Some(43.448124));
        assert_eq!(p.percpu, [55.699495, 80.0]);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("cpu-1"));
    }

    #[test]
    fn text_lines_and_what_rows_take() {
        let mut p = IdleProf::default();
        assert!(p.text_line("system: 30.20%"));
        assert!(p.text_line("percpu: 50.61%, 9.79%"));
        assert!(p.text_line("unit work: mean=10.31us, stddev=2.91"));
        assert!(!p.text_line("vda: ios=1/2"));
        let mut row = Row::empty("", Direction::Read);
        p.apply(&mut row);
        assert!((row.system_cpu_pct.unwrap() - 69.80).abs() < 1e-9);
        assert!((row.busiest_cpu_pct.unwrap() - 90.21).abs() < 1e-9);
        // The harness's own figure is kept.
        let mut own = Row::empty("", Direction::Read);
        own.system_cpu_pct = Some(12.0);
        p.apply(&mut own);
        assert_eq!(own.system_cpu_pct, Some(12.0));
    }

    /// The real `--idle-prof` runs in fixtures/wild/idle-prof (fio 3.33):
    /// system CPU is 100 - `system` idleness, the busiest CPU 100 - the
    /// lowest per-CPU idleness; text and JSON read alike.
    #[test]
    fn real_idle_prof_runs() {
        let cases = [
            ("system.json", 100.0 - 33.519735, None),
            ("percpu.json", 100.0 - 43.448124, Some(100.0 - 31.196753)),
            ("system.txt", 100.0 - 26.65, None),
            ("percpu.txt", 100.0 - 30.20, Some(100.0 - 9.79)),
        ];
        for (file, system, busiest) in cases {
            let path = format!(
                "{}/fixtures/wild/idle-prof/{file}",
                env!("CARGO_MANIFEST_DIR")
            );
            let bytes = std::fs::read(&path).unwrap();
            let rows = crate::ingest::pipeline::read_bytes(&bytes, &mut Vec::new()).unwrap();
            assert_eq!(rows.len(), 1, "{file}");
            let r = &rows[0];
            assert!(
                (r.system_cpu_pct.unwrap() - system).abs() < 0.05,
                "{file}: {r:?}"
            );
            match (r.busiest_cpu_pct, busiest) {
                (Some(got), Some(want)) => assert!((got - want).abs() < 0.05, "{file}"),
                (got, want) => assert_eq!(got, want, "{file}"),
            }
            // fio's own per-job figures stay as they were.
            assert!(
                r.usr_cpu_pct + r.sys_cpu_pct < r.system_cpu_pct.unwrap(),
                "{file}"
            );
        }
    }
}
