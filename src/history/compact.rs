//! Merging the history's parts, so 100,000 runs are a few dozen parquet
//! files instead of 100,000 (opening a file costs more than reading a
//! run's 50 rows).
//!
//! Size-tiered, as log-structured stores merge their files: a part's tier
//! is log_fanin of the runs it spans (a lone run: tier 0). Whenever the
//! newest `fanin` parts share a tier, they become one part of the next
//! tier, up to `max_tier`. With the defaults (16, 3) a history is at most
//! 15 parts of each tier below 3 plus one part per 4,096 runs, and each
//! row is rewritten at most 3 times over its life.
//!
//! A merge creates the merged part (whole, only if its name is free) and
//! only then removes the parts it replaces. A reader takes a merged part
//! alone as soon as it exists ([`store::layout`]), so it sees either the
//! old parts or the merged one, never both; parts an interrupted merge
//! left behind are removed by the next merge. A merge takes only parts
//! whose run numbers follow one another with no gap: a number missing
//! from the listing may be an add's still to come, which a merge must not
//! cover (docs/architecture.md). A part found damaged on the way is set
//! aside in `.quarantine/` and the merge goes on without it. Two merges
//! racing make the same merged part; the second finds its name taken and
//! takes the first's.

use std::ops::Range;
use std::path::PathBuf;

use super::objects::Created;
use super::store::{self, Damaged, Fault, Part, Store, StoreError};

/// When parts merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Parts of one tier merged at once.
    pub fanin: u64,
    /// No merge makes a part of a higher tier than this.
    pub max_tier: u32,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            fanin: 16,
            max_tier: 3,
        }
    }
}

impl Policy {
    fn tier(&self, span: u64) -> u32 {
        span.max(1).ilog(self.fanin.max(2))
    }

    /// The parts at the end of `spans` (runs spanned by each part, in
    /// order) that merge now: the last `fanin` of those sharing the
    /// newest part's tier, when there are that many.
    fn tail_merge(&self, spans: &[u64]) -> Option<Range<usize>> {
        let tier = self.tier(*spans.last()?);
        if tier >= self.max_tier {
            return None;
        }
        let same = spans
            .iter()
            .rev()
            .take_while(|s| self.tier(**s) == tier)
            .count() as u64;
        let fanin = self.fanin.max(2);
        (same >= fanin).then(|| spans.len() - fanin as usize..spans.len())
    }

    /// The parts (first run, last run) that `runs` adds, one after the
    /// other, leave: what a benchmark writes to make a history at once.
    pub fn layout(&self, runs: u64) -> Vec<(u64, u64)> {
        let mut parts: Vec<(u64, u64)> = Vec::new();
        for seq in 1..=runs {
            parts.push((seq, seq));
            loop {
                let spans: Vec<u64> = parts.iter().map(|(a, b)| b - a + 1).collect();
                let Some(r) = self.tail_merge(&spans) else {
                    break;
                };
                let merged = (parts[r.start].0, parts[r.end - 1].1);
                parts.splice(r, [merged]);
            }
        }
        parts
    }
}

/// What a compaction did: the parts left, in order, and the damaged
/// parts it set aside (each with where it went).
#[derive(Debug, Default)]
pub struct Compacted {
    pub parts: Vec<Part>,
    pub set_aside: Vec<(Damaged, PathBuf)>,
}

/// Checks every part of the history (its checksum, then every row
/// decoded) and sets the damaged ones aside in `.quarantine/`; then
/// merges the parts as `policy` says, as if each part had just been added
/// in turn (so a history of lone parts made before merging existed is
/// merged too), and removes parts an interrupted merge left.
pub fn compact(history: impl Into<Store>, policy: &Policy) -> Result<Compacted, StoreError> {
    let store = history.into();
    store.objects().check()?;
    let _lock = store::lock(&store)?;
    let mut set_aside = Vec::new();
    for part in store::layout(&store)?.live {
        match store::part_runs(&store, &part) {
            // Gone: another writer's merge retired it, its runs safe.
            Ok(_) | Err(Fault::Store(StoreError::Gone(_))) => {}
            Err(Fault::Damaged(d)) => {
                let to = store::quarantine(&store, &d.part)?;
                set_aside.push((d, to));
            }
            Err(Fault::Store(e)) => return Err(e),
        }
    }
    let mut out = compact_locked(&store, policy)?;
    set_aside.append(&mut out.set_aside);
    out.set_aside = set_aside;
    Ok(out)
}

/// [`compact`]'s merges, for an add that has just placed its run: only
/// the parts a merge reads are checked, and one found damaged is set
/// aside, so no add waits on a damaged part being fixed.
pub(crate) fn compact_locked(store: &Store, policy: &Policy) -> Result<Compacted, StoreError> {
    let layout = store::layout(store)?;
    retire(store, &layout.stale)?;
    let mut out = Compacted::default();
    let mut parts: Vec<Part> = Vec::new();
    for part in layout.live {
        parts.push(part);
        loop {
            let spans: Vec<u64> = parts.iter().map(Part::span).collect();
            let Some(r) = policy.tail_merge(&spans) else {
                break;
            };
            if !parts[r.clone()].windows(2).all(|w| w[0].followed_by(&w[1])) {
                break;
            }
            match place_merged(store, &parts[r.clone()]) {
                Ok(merged) => {
                    retire(store, &parts[r.clone()])?;
                    parts.splice(r, [merged]);
                }
                Err(Fault::Damaged(d)) => {
                    let to = store::quarantine(store, &d.part)?;
                    parts.retain(|p| p.path != d.part.path);
                    out.set_aside.push((d, to));
                }
                // A part gone under this merge: another writer is merging
                // the same parts; its merge stands, this one stops.
                Err(Fault::Store(StoreError::Gone(_))) => {
                    out.parts = store::layout(store)?.live;
                    return Ok(out);
                }
                Err(Fault::Store(e)) => return Err(e),
            }
        }
    }
    out.parts = parts;
    Ok(out)
}

/// Creates the part holding the runs of `parts` (consecutive), a run id
/// seen twice kept once (the first: two adds of one id that raced); the
/// parts themselves stay until [`retire`]d. A merged part of the same
/// runs already there (a merge racing this one) is taken as it is.
pub(crate) fn place_merged(store: &Store, parts: &[Part]) -> Result<Part, Fault> {
    let (Some(a), Some(b)) = (parts.first(), parts.last()) else {
        return Err(Fault::Store(StoreError::Missing(PathBuf::from(
            store.shown(),
        ))));
    };
    let (first, last) = (a.first, b.last);
    let mut runs = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for p in parts {
        let mut these = store::part_runs(store, p)?;
        these.retain(|r| seen.insert(r.meta.id.clone()));
        runs.extend(these);
    }
    let name = Part::file_name(first, last);
    let path = store.objects().locate(&name);
    let (bytes, crc) = store::encode(&path, runs).map_err(Fault::Store)?;
    let sums = match store.objects().create(&name, &bytes, crc) {
        Ok(Created::Ours) => vec![crc],
        Ok(Created::Taken) => Vec::new(),
        Err(e) => return Err(Fault::Store(e)),
    };
    Ok(Part {
        first,
        last,
        path,
        sums,
        bad_sums: Vec::new(),
    })
}

/// Removes parts a merged part stands for.
fn retire(store: &Store, parts: &[Part]) -> Result<(), StoreError> {
    for p in parts {
        store.objects().delete(&p.name(), &p.sums)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
