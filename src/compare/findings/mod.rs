//! Findings: plain sentences built from a comparison, what each says, what
//! it rests on, and how much it tells a reader, so reports can lead with
//! the few that matter. One file per rule family, each rule a function
//! over the [`Comparison`]:
//!
//! 1. and 2. [`wins`]: per direction and metric, the config(s) and the OS
//!    family with the most wins;
//! 3. [`ties`]: workloads where every config is within 0.5 %;
//! 4. and 5. [`gaps`]: the largest gap per metric; each OS family's
//!    largest lead over the other's best config;
//! 6. and 9. [`sweeps`]: peaks, knees, falls, the latency target, the load
//!    each config needs to saturate;
//! 7. [`outliers`]: a value far off the others' median, on the worse side;
//! 8. [`winners`]: per workload at one load point, who is best at its
//!    headline metric and at p99 latency;
//! 10. [`blocksize`]: block-size sweeps.
//!
//! [`entries`] holds what every rule reads off a result, [`words`] how
//! they put figures in words. OS-family sentences (2, 5) only when every
//! config's OS is known and there are two families to compare. A lead that
//! rounding, noise or `--equivalence` cannot separate is never claimed
//! without saying so.
//!
//! A finding's score is the product of three factors, each in 0..=1:
//!
//! - **effect**: how large the difference is against what can separate it.
//!   [`magnitude`] maps a relative difference to 0..1 (5 % scores one
//!   half, 20 % four fifths: a 0.1 % lead is a footnote, a 2x gap is not);
//!   [`clarity`] scales it down when the difference is within three times
//!   its resolution (rounding, run-to-run noise, `--equivalence`).
//! - **reach**: the share of workloads it covers ("3 of 4" is 0.75); a
//!   claim about one workload has reach [`ONE_WORKLOAD`].
//! - **weight**: what kind of claim it is ([`FindingKind::weight`]) and about
//!   which metric ([`metric_weight`]): throughput first, then latency,
//!   then CPU; a claim that names a winner across OS families rather than
//!   within one weighs more.
//!
//! [`key`] then picks the strongest findings, skipping those implied by a
//! stronger one (a family's win count equal to one of its configs'; IOPS
//! saying what bandwidth already said) and lowering the ones that repeat
//! the metric and kind of a finding already picked, so six findings make
//! six points.

pub mod blocksize;
mod entries;
pub use entries::CPU_SATURATED_PCT;
mod gaps;
mod outliers;
mod sweeps;
mod ties;
mod winners;
pub(crate) use winners::headline;
mod wins;
mod words;

use super::comparison::Comparison;
use super::comparison::Metric;
use super::rules::Judge;
// The types live in the model (a comparison carries its key findings);
// their scoring and selection live here.
pub use super::comparison::{Finding, FindingKind};

/// Key findings reports lead with unless `--findings N` says otherwise.
pub const DEFAULT_COUNT: usize = 6;
/// Reach of a claim about one workload.
pub const ONE_WORKLOAD: f64 = 0.5;
/// Relative difference that scores an effect of one half.
const HALF_EFFECT: f64 = 0.05;
/// A second pick of the same kind and metric counts this much of its score.
pub const REPEAT_FACTOR: f64 = 0.6;

impl FindingKind {
    /// How much a claim of this kind tells a reader, before its effect.
    pub fn weight(self) -> f64 {
        match self {
            FindingKind::FamilyWins => 1.1,
            FindingKind::Wins
            | FindingKind::Lead
            | FindingKind::Gap
            | FindingKind::SweepPeak
            | FindingKind::Slo
            | FindingKind::Winner
            | FindingKind::Saturation => 1.0,
            FindingKind::Outlier | FindingKind::DeviceOutlier => 0.9,
            FindingKind::Tie => 0.8,
            FindingKind::Knee => 0.6,
            FindingKind::Fall => 0.9,
        }
    }
}

/// Throughput is what storage reviews lead with. Tail latency says what
/// throughput cannot; mean latency at a fixed load point largely restates
/// it (Little's law: outstanding I/O = IOPS x mean latency), and CPU is a
/// cost beside the result.
pub fn metric_weight(m: Metric) -> f64 {
    match m {
        Metric::BwBytesPerS | Metric::Iops => 1.0,
        Metric::ClatP99Ns => 0.9,
        Metric::LatMeanNs | Metric::CpuPct => 0.8,
        Metric::IopsPerCpuPct | Metric::BwPerCpuPct => 0.7,
    }
}

impl Finding {
    /// Sets the score from its effect and reach; weight comes from the kind
    /// and the first metric.
    pub fn scored(mut self, effect: f64, reach: f64) -> Finding {
        let metric = self.metrics.first().map_or(1.0, |m| metric_weight(*m));
        let s = self.kind.weight() * metric * effect.clamp(0.0, 1.0) * reach.clamp(0.0, 1.0);
        self.score = (s * 1000.0).round() / 1000.0;
        self
    }
}

/// 0..1 for a relative difference (0.05 is 5 %): r / (r + 5 %).
pub fn magnitude(rel: f64) -> f64 {
    let r = rel.abs();
    if !r.is_finite() {
        return 1.0;
    }
    r / (r + HALF_EFFECT)
}

/// 0..1: how clearly `diff` stands above `resolution` (what rounding,
/// noise or an equivalence margin cannot separate). Full at three times.
pub fn clarity(diff: f64, resolution: f64) -> f64 {
    if resolution <= 0.0 {
        return 1.0;
    }
    (diff.abs() / (3.0 * resolution)).min(1.0)
}

/// Every finding, strongest first; equal scores keep the rules' order.
pub fn rank(mut all: Vec<Finding>) -> Vec<Finding> {
    all.sort_by(|a, b| b.score.total_cmp(&a.score));
    all
}

/// The key findings (at most `n`) and every finding in reading order: the
/// key ones first, then the others by score, then those implied by another.
/// `headline` gives the headline metric of the workload family a finding
/// is about ([`headline_of`]): each family's strongest difference on it
/// leads the key findings.
pub fn select(
    all: Vec<Finding>,
    n: usize,
    headline: &dyn Fn(&Finding) -> Option<Metric>,
) -> (Vec<Finding>, Vec<Finding>) {
    let ranked = rank(all);
    let key = key(&ranked, n, headline);
    let (mut rest, mut weak): (Vec<&Finding>, Vec<&Finding>) = ranked
        .iter()
        .filter(|f| !key.contains(f))
        .partition(|f| !implied_in(f, &ranked));
    let mut ordered: Vec<Finding> = key.clone();
    ordered.extend(rest.drain(..).cloned());
    ordered.extend(weak.drain(..).cloned());
    (key, ordered)
}

/// True when another finding of `all` already says what `f` says.
fn implied_in(f: &Finding, all: &[Finding]) -> bool {
    all.iter().any(|s| !std::ptr::eq(f, s) && implied(f, s))
}

/// True when `weak` says nothing `strong` does not already say. "Stronger"
/// is logical, not the score: a family that wins exactly where its config
/// wins adds nothing, whatever the arithmetic of its score.
fn implied(weak: &Finding, strong: &Finding) -> bool {
    family_by_config(weak, strong) || iops_by_bw(weak, strong)
}

/// A family winning exactly as often as one of its configs.
fn family_by_config(weak: &Finding, strong: &Finding) -> bool {
    weak.kind == FindingKind::FamilyWins
        && strong.kind == FindingKind::Wins
        && weak.metrics == strong.metrics
        && weak.directions == strong.directions
        && weak.count == strong.count
}

/// IOPS and bandwidth of one workload differ by the block size only, so an
/// IOPS claim of the same kind about the same configs repeats the bandwidth
/// one. The largest gaps are both "best against worst" in absolute units,
/// which favour small blocks for IOPS and large ones for bandwidth: one is
/// enough.
fn iops_by_bw(weak: &Finding, strong: &Finding) -> bool {
    if weak.metrics != [Metric::Iops] || strong.metrics != [Metric::BwBytesPerS] {
        return false;
    }
    if weak.kind != strong.kind {
        return false;
    }
    // Looked up in a set: a tie finding names every config (10,000).
    let covered = || {
        let strong: std::collections::HashSet<&String> = strong.configs.iter().collect();
        weak.configs.iter().all(|c| strong.contains(c))
    };
    match weak.kind {
        FindingKind::Gap => true,
        FindingKind::Wins | FindingKind::FamilyWins => {
            weak.directions == strong.directions && covered()
        }
        _ => weak.workloads == strong.workloads && covered(),
    }
}

/// Kinds that say how far configs stand apart on a metric: what a reader
/// decides by.
fn is_difference(k: FindingKind) -> bool {
    matches!(
        k,
        FindingKind::Gap
            | FindingKind::Lead
            | FindingKind::Wins
            | FindingKind::Winner
            | FindingKind::SweepPeak
    )
}

/// The headline metric (IOPS for small blocks, bandwidth for large) of
/// the one workload family `f` is about, read off the titles it names
/// against `cmp`'s workloads; None where it names several families or
/// none (a block-size sweep spans both).
pub fn headline_of(cmp: &Comparison, f: &Finding) -> Option<Metric> {
    let of = |name: &str| {
        cmp.workloads
            .iter()
            .find(|w| {
                let t = w.title();
                name == t
                    || name
                        .strip_prefix(t.as_str())
                        .is_some_and(|r| r.starts_with(' '))
            })
            .map(winners::headline)
    };
    let mut metrics = f.workloads.iter().map(|w| of(w));
    let first = metrics.next()??;
    metrics.all(|m| m == Some(first)).then_some(first)
}

/// Whether every workload of `cmp` has one headline metric (all small
/// blocks or all large): only then does a family's headline difference
/// lead the key findings ([`key`]); a study of 4k and 128k leads with what
/// spans both, as the published article does.
pub fn one_family(cmp: &Comparison) -> bool {
    let mut heads = cmp.workloads.iter().map(winners::headline);
    heads.next().is_none_or(|first| heads.all(|m| m == first))
}

/// The `n` strongest findings of `ranked`, none implied by another finding
/// of the list, a repeated kind and metric counting [`REPEAT_FACTOR`] of
/// its score. Of those picked, each workload family's strongest
/// difference on its headline metric (`headline`, [`headline_of`]) comes
/// first, strongest family first: the largest IOPS gap of 4k reads
/// changes a reader's choice before a CPU count does.
pub fn key(
    ranked: &[Finding],
    n: usize,
    headline: &dyn Fn(&Finding) -> Option<Metric>,
) -> Vec<Finding> {
    let candidates: Vec<&Finding> = ranked
        .iter()
        .filter(|f| f.score > 0.0)
        .filter(|f| !implied_in(f, ranked))
        .collect();
    let mut picked: Vec<&Finding> = Vec::new();
    while picked.len() < n {
        let next = candidates
            .iter()
            .filter(|c| !picked.iter().any(|p| std::ptr::eq(*p, **c)))
            .map(|c| (adjusted(c, &picked), *c))
            .max_by(|a, b| a.0.total_cmp(&b.0));
        match next {
            Some((_, f)) => picked.push(f),
            None => break,
        }
    }
    headlines_first(picked, headline)
        .into_iter()
        .cloned()
        .collect()
}

/// `picked` with each family's strongest headline difference moved to the
/// front (strongest family first), the rest in pick order.
fn headlines_first<'a>(
    picked: Vec<&'a Finding>,
    headline: &dyn Fn(&Finding) -> Option<Metric>,
) -> Vec<&'a Finding> {
    let mut heads: Vec<&Finding> = Vec::new();
    for f in &picked {
        let Some(m) = headline(f) else { continue };
        let first_of_family = !heads.iter().any(|h| headline(h) == Some(m));
        if first_of_family && is_difference(f.kind) && f.metrics == [m] {
            heads.push(f);
        }
    }
    heads.sort_by(|a, b| b.score.total_cmp(&a.score));
    let rest = picked
        .into_iter()
        .filter(|f| !heads.iter().any(|h| std::ptr::eq(*h, *f)));
    heads.iter().copied().chain(rest).collect()
}

/// A candidate's score given what is already picked.
fn adjusted(f: &Finding, picked: &[&Finding]) -> f64 {
    let repeats = picked.iter().filter(|p| repeats(p, f)).count();
    f.score * REPEAT_FACTOR.powi(repeats as i32)
}

/// Same kind of point about the same metric, and for win counts the same
/// direction: read and write wins are two points, as an article makes them.
fn repeats(a: &Finding, b: &Finding) -> bool {
    let overlap = a.directions.is_empty()
        || b.directions.is_empty()
        || a.directions.iter().any(|d| b.directions.contains(d));
    family(a.kind) == family(b.kind) && a.metrics == b.metrics && overlap
}

/// Wins of a config and of a family are one kind of point for variety.
fn family(k: FindingKind) -> FindingKind {
    match k {
        FindingKind::FamilyWins => FindingKind::Wins,
        k => k,
    }
}

/// Builds every finding of `cmp`, rule by rule (unranked).
pub fn build(cmp: &Comparison, judge: Judge) -> Vec<Finding> {
    let mut out = wins::most_wins(cmp, judge);
    out.extend(ties::near_equal(cmp));
    out.extend(gaps::largest_gaps(cmp, judge));
    out.extend(gaps::family_leads(cmp, judge));
    out.extend(sweeps::sweep_sentences(cmp, judge));
    out.extend(outliers::outliers(cmp));
    out.extend(winners::winners_of_workloads(cmp, judge));
    out.extend(sweeps::saturation_findings(cmp));
    out.extend(blocksize::block_size_findings(cmp));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(kind: FindingKind, metric: Metric, score: f64) -> Finding {
        let mut x = Finding::new(kind, format!("{kind:?} {metric:?} {score}"));
        x.metrics = vec![metric];
        x.score = score;
        x
    }

    #[test]
    fn magnitude_and_clarity_scale_as_documented() {
        assert!((magnitude(0.05) - 0.5).abs() < 1e-12);
        assert!((magnitude(0.20) - 0.8).abs() < 1e-12);
        assert!(magnitude(0.001) < 0.02);
        assert_eq!(clarity(3.0, 1.0), 1.0);
        assert!((clarity(1.5, 1.0) - 0.5).abs() < 1e-12);
        assert_eq!(clarity(1.0, 0.0), 1.0);
    }

    #[test]
    fn a_family_winning_as_often_as_its_config_is_implied() {
        let mut config = f(FindingKind::Wins, Metric::BwBytesPerS, 0.4);
        config.count = Some((3, 4));
        config.directions = vec!["read".into()];
        let mut fam = f(FindingKind::FamilyWins, Metric::BwBytesPerS, 0.45);
        fam.count = Some((3, 4));
        fam.directions = vec!["read".into()];
        let mut wider = fam.clone();
        wider.count = Some((4, 4));
        wider.text = "wider".into();
        let keys = key(
            &rank(vec![config.clone(), fam.clone(), wider.clone()]),
            6,
            &|_| None,
        );
        let texts: Vec<&str> = keys.iter().map(|k| k.text.as_str()).collect();
        assert!(!texts.contains(&fam.text.as_str()), "{texts:?}");
        assert!(texts.contains(&config.text.as_str()) && texts.contains(&"wider"));
    }

    #[test]
    fn iops_repeating_bandwidth_is_implied_and_kinds_vary() {
        let mut bw = f(FindingKind::Lead, Metric::BwBytesPerS, 0.5);
        bw.workloads = vec!["randread 64k".into()];
        bw.configs = vec!["a".into(), "b".into()];
        let mut iops = f(FindingKind::Lead, Metric::Iops, 0.5);
        iops.workloads = bw.workloads.clone();
        iops.configs = bw.configs.clone();
        let gap_a = f(FindingKind::Gap, Metric::CpuPct, 0.45);
        let gap_b = f(FindingKind::Gap, Metric::CpuPct, 0.44);
        let tie = f(FindingKind::Tie, Metric::BwBytesPerS, 0.3);
        let keys = key(&rank(vec![bw.clone(), iops, gap_a, gap_b, tie]), 3, &|_| {
            None
        });
        let kinds: Vec<FindingKind> = keys.iter().map(|k| k.kind).collect();
        // 0.44 * 0.6 < 0.3: the second CPU gap yields to the tie.
        assert_eq!(
            kinds,
            [FindingKind::Lead, FindingKind::Gap, FindingKind::Tie]
        );
        assert_eq!(keys[0].metrics, [Metric::BwBytesPerS]);
    }

    #[test]
    fn key_never_returns_more_than_asked_or_zero_scores() {
        let all = vec![
            f(FindingKind::Wins, Metric::Iops, 0.0),
            f(FindingKind::Gap, Metric::Iops, 0.2),
        ];
        assert_eq!(key(&all, 6, &|_| None).len(), 1);
        assert_eq!(key(&all, 0, &|_| None).len(), 0);
    }
}
