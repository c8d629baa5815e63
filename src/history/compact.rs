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
//! A merge writes the merged part aside, renames it into place and only
//! then removes the parts it replaces. A reader takes a merged part alone
//! as soon as it exists ([`store::layout`]), so it sees either the old
//! parts or the merged one, never both; parts an interrupted merge left
//! behind are removed by the next merge. A part found damaged on the way
//! is set aside in `.quarantine/` and the merge goes on without it.

use std::ops::Range;
use std::path::{Path, PathBuf};

use super::store::{self, Damaged, Fault, Part, StoreError};

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

/// Checks every part of the history in `dir` (its checksum, then every
/// row decoded) and sets the damaged ones aside in `.quarantine/`; then
/// merges the parts as `policy` says, as if each part had just been added
/// in turn (so a history of lone parts made before merging existed is
/// merged too), and removes parts an interrupted merge left.
pub fn compact(dir: &Path, policy: &Policy) -> Result<Compacted, StoreError> {
    store::check_dir(dir)?;
    let _lock = store::Lock::take_and_clean(dir)?;
    let mut set_aside = Vec::new();
    for part in store::layout(dir)?.live {
        match store::part_runs(&part) {
            Ok(_) => {}
            Err(Fault::Damaged(d)) => {
                let to = store::quarantine(dir, &d.part)?;
                set_aside.push((d, to));
            }
            Err(Fault::Store(e)) => return Err(e),
        }
    }
    let mut out = compact_locked(dir, policy)?;
    set_aside.append(&mut out.set_aside);
    out.set_aside = set_aside;
    Ok(out)
}

/// [`compact`]'s merges, for a caller that holds the history's lock (an
/// add): only the parts a merge reads are checked, and one found damaged
/// is set aside, so no add waits on a damaged part being fixed.
pub(crate) fn compact_locked(dir: &Path, policy: &Policy) -> Result<Compacted, StoreError> {
    let layout = store::layout(dir)?;
    retire(&layout.stale)?;
    let mut out = Compacted::default();
    let mut parts: Vec<Part> = Vec::new();
    for part in layout.live {
        parts.push(part);
        loop {
            let spans: Vec<u64> = parts.iter().map(Part::span).collect();
            let Some(r) = policy.tail_merge(&spans) else {
                break;
            };
            match place_merged(dir, &parts[r.clone()]) {
                Ok(merged) => {
                    retire(&parts[r.clone()])?;
                    parts.splice(r, [merged]);
                }
                Err(Fault::Damaged(d)) => {
                    let to = store::quarantine(dir, &d.part)?;
                    parts.retain(|p| p.path != d.part.path);
                    out.set_aside.push((d, to));
                }
                Err(Fault::Store(e)) => return Err(e),
            }
        }
    }
    out.parts = parts;
    Ok(out)
}

/// Writes the runs of `parts` (consecutive) as one part and renames it
/// into place, its checksum recorded first; the parts themselves stay
/// until [`retire`]d.
pub(crate) fn place_merged(dir: &Path, parts: &[Part]) -> Result<Part, Fault> {
    let (Some(a), Some(b)) = (parts.first(), parts.last()) else {
        return Err(Fault::Store(StoreError::Missing(dir.to_path_buf())));
    };
    let (first, last) = (a.first, b.last);
    let mut runs = Vec::new();
    for p in parts {
        runs.extend(store::part_runs(p)?);
    }
    let tmp = store::aside(dir, first, last);
    let path = dir.join(Part::file_name(first, last));
    let merged = Part {
        first,
        last,
        path,
        sums: Vec::new(),
    };
    let placed = store::write_runs(&tmp, runs)
        .and_then(|crc| store::place_over(&tmp, &merged, crc).map(|()| crc));
    let _ = std::fs::remove_file(&tmp);
    let crc = placed.map_err(Fault::Store)?;
    store::sync_dir(dir);
    Ok(Part {
        sums: vec![crc],
        ..merged
    })
}

/// Removes parts a merged part stands for, each before its checksum
/// files: a kill between leaves a record without a part (removed by the
/// next writer), never a part without its record.
fn retire(parts: &[Part]) -> Result<(), StoreError> {
    for p in parts {
        match std::fs::remove_file(&p.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(StoreError::Io {
                    path: p.path.clone(),
                    source: e,
                });
            }
            _ => {}
        }
        for sum in p.sums_paths() {
            let _ = std::fs::remove_file(sum);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
