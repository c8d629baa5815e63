//! How a study was read: each config and what defines it, the workload and
//! load axes, what was pooled as repeats and on what evidence, what was
//! kept apart and why, roles and variants, and every file's place. Ingest
//! works it out (`ingest::identity::study`); `analyze --explain` prints it
//! ([`Study::lines`]), the JSON carries it (`study`) and the report says
//! it ("How the runs were grouped").

use serde::{Deserialize, Serialize};

/// Runs pooled as repeats whose IOPS differ by more than this (the higher
/// over the lower, less one) disagree beyond run-to-run noise: ingest
/// warns, and the comparison draws no tie from their spread.
pub const REPEATS_APART: f64 = 0.25;

/// Pooled repeats whose spread (highest less lowest) is wider than the
/// gap from their mean to the next config's value disagree beyond
/// run-to-run noise where that gap is more than this share of the lower
/// of the two: their spread would otherwise tie figures more than 10 %
/// apart.
pub const REPEATS_GAP_FLOOR: f64 = 0.10;

/// How runs pooled as repeats disagree beyond run-to-run noise.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Disagreement {
    /// The highest more than [`REPEATS_APART`] above the lowest.
    Apart,
    /// Their spread wider than the gap to the next config (`other`, its
    /// index in the others given), a gap over [`REPEATS_GAP_FLOOR`].
    WiderThanGap { other: usize, gap: f64 },
}

/// Whether the values of runs pooled as repeats (`vals`, IOPS or
/// bandwidth) disagree beyond run-to-run noise, the other configs' values
/// at the same point being `others`: one rule for the warning (ingest)
/// and the comparison (no tie from their spread).
pub fn repeats_disagree(vals: &[f64], others: &[f64]) -> Option<Disagreement> {
    if vals.len() < 2 {
        return None;
    }
    let lo = vals.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = vals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(lo > 0.0 && hi.is_finite()) {
        return None;
    }
    if hi / lo - 1.0 > REPEATS_APART {
        return Some(Disagreement::Apart);
    }
    let mean = vals.iter().sum::<f64>() / vals.len() as f64;
    let (other, gap) = others
        .iter()
        .enumerate()
        .filter(|(_, o)| o.is_finite() && **o > 0.0)
        .map(|(i, o)| (i, (o - mean).abs()))
        .min_by(|a, b| a.1.total_cmp(&b.1))?;
    let floor = REPEATS_GAP_FLOOR * mean.min(others[other]);
    (hi - lo > gap && gap > floor).then_some(Disagreement::WiderThanGap { other, gap })
}

/// The configs' values at one point (finite, above zero) sorted, to find
/// the value nearest a pool of repeats' mean among the other configs at
/// once: what [`repeats_disagree`] looks for in all of them. Built once
/// per point (ingest's warning) or metric (compare's no-tie rule), only
/// where some config pools runs; each lookup a binary search: a scan of
/// every config per config made a study of 10,000 configs of three
/// repeats quadratic.
pub struct Nearest {
    /// (value, the config's place in the values' order), sorted.
    sorted: Vec<(f64, usize)>,
    /// Where the run of equal values each entry is in starts.
    run_start: Vec<usize>,
}

impl Nearest {
    pub fn new(values: impl Iterator<Item = (usize, f64)>) -> Nearest {
        let mut sorted: Vec<(f64, usize)> = values
            .filter(|(_, v)| v.is_finite() && *v > 0.0)
            .map(|(i, v)| (v, i))
            .collect();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut run_start = Vec::with_capacity(sorted.len());
        for (i, (v, _)) in sorted.iter().enumerate() {
            let same = i > 0 && sorted[i - 1].0 == *v;
            run_start.push(if same { run_start[i - 1] } else { i });
        }
        Nearest { sorted, run_start }
    }

    /// The values nearest `mean` of the configs but the one at `own`, each
    /// with its config's place, in the configs' order: [`repeats_disagree`]
    /// picks the first of them, as it would from every config's value.
    pub fn others(&self, own: usize, mean: f64) -> Vec<(usize, f64)> {
        let pos = self.sorted.partition_point(|(v, _)| *v < mean);
        let below = pos.checked_sub(1).and_then(|p| {
            self.first_other(p, own).or_else(|| {
                let before = self.run_start[p].checked_sub(1)?;
                self.first_other(before, own)
            })
        });
        let above = (pos < self.sorted.len()).then_some(pos).and_then(|p| {
            self.first_other(p, own).or_else(|| {
                let after =
                    (p..self.sorted.len()).find(|&q| self.run_start[q] != self.run_start[p])?;
                self.first_other(after, own)
            })
        });
        let gap = |e: &(f64, usize)| (e.0 - mean).abs();
        let mut near: Vec<(f64, usize)> = match (below, above) {
            (Some(b), Some(a)) => match gap(&b).total_cmp(&gap(&a)) {
                std::cmp::Ordering::Less => vec![b],
                std::cmp::Ordering::Greater => vec![a],
                std::cmp::Ordering::Equal => vec![b, a],
            },
            (b, a) => b.or(a).into_iter().collect(),
        };
        near.sort_by_key(|e| e.1);
        near.into_iter().map(|(v, i)| (i, v)).collect()
    }

    /// The first config (in the configs' order) of the run of equal
    /// values holding position `p`, other than `own`.
    fn first_other(&self, p: usize, own: usize) -> Option<(f64, usize)> {
        let start = self.run_start[p];
        let first = self.sorted[start];
        if first.1 != own {
            return Some(first);
        }
        self.sorted
            .get(start + 1)
            .copied()
            .filter(|next| next.0 == first.0)
    }
}

/// How the runs were grouped: `study` in `analyze`'s JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Study {
    /// The config rule (`--label-by`) that named the configs.
    pub rule: String,
    /// Result files read.
    pub files: usize,
    /// Each config, in the order first met.
    pub configs: Vec<StudyConfig>,
    /// What tells the configs apart: options (`ioscheduler`) and `file
    /// name` where names do, each with its number of values.
    pub set_apart_by: Vec<AxisValues>,
    /// The workloads measured (`randread 4k`), each with its runs.
    pub workloads: Vec<AxisValues>,
    /// The load axes: `iodepth` and `numjobs` with their values.
    pub loads: Vec<AxisValues>,
    /// Runs pooled as repeats, per config and evidence.
    pub repeats: Vec<RepeatPool>,
    /// Runs kept apart and why (the config rule's notes).
    pub kept_apart: Vec<String>,
    /// Words some files carry that never tell two runs apart at one
    /// workload (`cpu`, `benchmark`): a file's role, not its config.
    pub roles: Vec<String>,
    /// Variants of a workload kept apart (`overwrite-seq`).
    pub variants: Vec<String>,
    /// Pooled repeats that disagree beyond run-to-run noise: no tie is
    /// drawn from their spread.
    pub disagreeing: Vec<String>,
    /// Every file's place: its config and role.
    pub placed: Vec<PlacedFile>,
    /// What `--repeats` or the manifest's `repeats` declared repeats:
    /// words of the names (`attempt`) and folder levels (`folder`,
    /// `folder:2`). Left out where nothing was declared.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub declared_repeats: Vec<String>,
}

/// One config of a [`Study`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StudyConfig {
    pub name: String,
    /// What defines it: `key=value` of the rule's keys (`file name=ext4`,
    /// `ioscheduler=bfq`), else its folder.
    pub defined_by: Vec<String>,
    pub files: usize,
    /// The folders its files sit in.
    pub folders: Vec<String>,
}

/// A named axis and its values (`iodepth`: `1, 4, 64`), with a count
/// where one is said (runs of a workload, values of a key).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AxisValues {
    pub name: String,
    pub values: Vec<String>,
    pub count: usize,
}

/// Runs of one config pooled as repeats on one kind of evidence.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RepeatPool {
    pub config: String,
    /// Workload and load points with two or more runs pooled.
    pub points: usize,
    /// The most runs pooled at one point.
    pub runs: usize,
    /// Why they are repeats: what alone tells them apart.
    pub evidence: String,
}

/// Where one file went.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PlacedFile {
    pub source: String,
    /// Its configs (one, or several where its jobs are configs).
    pub configs: Vec<String>,
    /// Its role word, where it has one (`cpu`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
}

/// Most lines of one list before the rest is counted: a study of
/// thousands of files reads on one screen.
const SHOWN: usize = 12;

impl Study {
    /// Nothing was read (a dataset file holds no study).
    pub fn is_empty(&self) -> bool {
        self.files == 0 && self.configs.is_empty()
    }

    /// The study with its configs under their display names.
    pub fn renamed(&self, name_of: impl Fn(&str) -> String) -> Study {
        self.clone().into_renamed(name_of)
    }

    /// [`Study::renamed`] in place: the study is not copied.
    pub fn into_renamed(self, name_of: impl Fn(&str) -> String) -> Study {
        let mut out = self;
        for c in &mut out.configs {
            c.name = name_of(&c.name);
        }
        for r in &mut out.repeats {
            r.config = name_of(&r.config);
        }
        for f in &mut out.placed {
            for c in &mut f.configs {
                *c = name_of(c);
            }
        }
        out
    }

    /// The reading as lines of text, grouped and counted: each config with
    /// what defines it and its files, the axes, repeats and their
    /// evidence, what was kept apart, roles and variants.
    pub fn lines(&self) -> Vec<String> {
        let mut out = self.heading_lines();
        out.extend(self.config_lines());
        out.extend(self.axis_lines());
        out.extend(self.repeat_lines());
        out.extend(self.listed_lines());
        out
    }

    /// The count of files and configs, and the axes that set configs apart.
    fn heading_lines(&self) -> Vec<String> {
        let mut out = vec![format!(
            "{} files read as {} config{} (--label-by {}).",
            self.files,
            self.configs.len(),
            if self.configs.len() == 1 { "" } else { "s" },
            self.rule
        )];
        if !self.set_apart_by.is_empty() {
            let by: Vec<String> = self
                .set_apart_by
                .iter()
                .map(|a| format!("{} ({} values: {})", a.name, a.count, shorten(&a.values, 6)))
                .collect();
            out.push(format!("Set apart by: {}.", by.join("; ")));
        }
        out
    }

    /// Each config with its file count and what defines it, aligned.
    fn config_lines(&self) -> Vec<String> {
        let mut out = vec!["Configs:".to_string()];
        let width = self
            .configs
            .iter()
            .take(SHOWN)
            .map(|c| c.name.chars().count())
            .max()
            .unwrap_or(0);
        for c in self.configs.iter().take(SHOWN) {
            let pad = width - c.name.chars().count();
            out.push(format!(
                "  {}{}  {:>5} file{}  {}",
                c.name,
                " ".repeat(pad),
                c.files,
                if c.files == 1 { " " } else { "s" },
                c.defined_by.join(", ")
            ));
        }
        if self.configs.len() > SHOWN {
            out.push(format!(
                "  ... and {} more configs (--format json lists all)",
                self.configs.len() - SHOWN
            ));
        }
        out
    }

    /// The workloads and the load axes.
    fn axis_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        let axis = |a: &AxisValues| format!("{} {}", a.name, shorten(&a.values, 10));
        if !self.workloads.is_empty() {
            let names: Vec<String> = self.workloads.iter().map(|w| w.name.clone()).collect();
            out.push(format!(
                "Workloads ({}): {}.",
                names.len(),
                shorten(&names, 8)
            ));
        }
        if !self.loads.is_empty() {
            let loads: Vec<String> = self.loads.iter().map(axis).collect();
            out.push(format!("Load axes: {}.", loads.join("; ")));
        }
        out
    }

    /// The configs whose runs were pooled as repeats, with the evidence.
    fn repeat_lines(&self) -> Vec<String> {
        if self.repeats.is_empty() {
            return vec![
                "Pooled as repeats: none (no two runs of one config at one workload and load point).".into(),
            ];
        }
        let mut out = vec!["Pooled as repeats:".to_string()];
        if !self.declared_repeats.is_empty() {
            out[0] = format!(
                "Pooled as repeats (declared: {}):",
                self.declared_repeats.join(", ")
            );
        }
        for r in self.repeats.iter().take(SHOWN) {
            out.push(format!(
                "  {}: up to {} runs at {} point{}, {}",
                r.config,
                r.runs,
                r.points,
                if r.points == 1 { "" } else { "s" },
                r.evidence
            ));
        }
        if self.repeats.len() > SHOWN {
            out.push(format!("  ... and {} more", self.repeats.len() - SHOWN));
        }
        out
    }

    /// What was kept apart, the disagreeing repeats, roles and variants.
    fn listed_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (title, list) in [
            ("Kept apart", &self.kept_apart),
            (
                "Disagreeing repeats (no tie drawn from their spread)",
                &self.disagreeing,
            ),
        ] {
            if list.is_empty() {
                continue;
            }
            out.push(format!("{title}:"));
            for l in list.iter().take(SHOWN / 2) {
                out.push(format!("  {l}"));
            }
            if list.len() > SHOWN / 2 {
                out.push(format!(
                    "  ... and {} more (--format json lists all)",
                    list.len() - SHOWN / 2
                ));
            }
        }
        if !self.roles.is_empty() {
            out.push(format!(
                "Roles (files differing only by these are one config): {}.",
                shorten(&self.roles, 8)
            ));
        }
        if !self.variants.is_empty() {
            out.push(format!(
                "Variants of a workload: {}.",
                shorten(&self.variants, 8)
            ));
        }
        out
    }
}

/// `a, b, c` or `a, b, ... (12 in all)`.
fn shorten(values: &[String], most: usize) -> String {
    if values.len() <= most {
        return values.join(", ");
    }
    format!(
        "{}, ... ({} in all)",
        values[..most].join(", "),
        values.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_disagree_when_far_apart_or_wider_than_the_gap_to_the_next_config() {
        // More than 25 % apart, whatever the others.
        assert_eq!(
            repeats_disagree(&[100.0, 130.0], &[]),
            Some(Disagreement::Apart)
        );
        // 20 % apart (mean 110), the next config 14 % away at 125: the
        // spread (20) is wider than the gap (15), which is over 10 %.
        assert_eq!(
            repeats_disagree(&[100.0, 120.0], &[125.0, 300.0]),
            Some(Disagreement::WiderThanGap {
                other: 0,
                gap: 15.0
            })
        );
        // The same spread with the next config 5 % away: a gap noise may
        // well close, so the spread may tie them.
        assert_eq!(repeats_disagree(&[100.0, 120.0], &[115.0]), None);
        // A gap wider than the spread: no question.
        assert_eq!(repeats_disagree(&[100.0, 110.0], &[140.0]), None);
        // One run is no pool; nothing to compare with is the first rule only.
        assert_eq!(repeats_disagree(&[100.0], &[125.0]), None);
        assert_eq!(repeats_disagree(&[100.0, 120.0], &[]), None);
        assert_eq!(repeats_disagree(&[0.0, 120.0], &[125.0]), None);
    }

    /// The nearest other values give [`repeats_disagree`] the verdict, gap
    /// and other config that every other config's value gives, ties and
    /// non-positive values included: the one rule, in a binary search.
    #[test]
    fn the_nearest_others_decide_as_all_the_others_do() {
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let mut checked = 0;
        for _ in 0..300 {
            // Few distinct values, so that equal ones and ties of gaps occur.
            let values: Vec<f64> = (0..1 + next(12))
                .map(|_| [0.0, 80.0, 95.0, 100.0, 110.0, 120.0, 125.0, 150.0][next(8) as usize])
                .collect();
            let nearest = Nearest::new(values.iter().copied().enumerate());
            for own in 0..values.len() {
                let spread = 5.0 * (1 + next(8)) as f64;
                let pool = [values[own].max(1.0), values[own].max(1.0) + spread];
                let mean = (pool[0] + pool[1]) / 2.0;
                let all: Vec<(usize, f64)> = values
                    .iter()
                    .copied()
                    .enumerate()
                    .filter(|(i, _)| *i != own)
                    .collect();
                let near = nearest.others(own, mean);
                let judge = |others: &[(usize, f64)]| {
                    let vals: Vec<f64> = others.iter().map(|o| o.1).collect();
                    repeats_disagree(&pool, &vals).map(|d| match d {
                        Disagreement::WiderThanGap { other, gap } => (Some(others[other].0), gap),
                        Disagreement::Apart => (None, 0.0),
                    })
                };
                assert_eq!(
                    judge(&near),
                    judge(&all),
                    "{values:?}, own {own}, pool {pool:?}"
                );
                checked += usize::from(matches!(judge(&all), Some((Some(_), _))));
            }
        }
        assert!(
            checked > 20,
            "only {checked} spreads wider than the gap met"
        );
    }
}
