//! `history verify`: the state of a history, part by part. Each part's
//! bytes against the checksum recorded when it was written, then every
//! row decoded; what a killed writer left (temporaries, checksum records
//! without a part); what `compact` set aside. Nothing is changed.

use std::path::PathBuf;

use super::store::{self, Damaged, Fault, Part, Store, StoreError};

/// What `history verify` found.
#[derive(Debug, Default)]
pub struct Verified {
    /// Parts read whole, in order.
    pub sound: Vec<Part>,
    /// Runs in them.
    pub runs: usize,
    /// Of the sound parts, those written before checksums were recorded:
    /// read, but a flipped bit in them could not be told.
    pub unchecked: Vec<Part>,
    /// Parts whose bytes are not what was written, or do not decode.
    pub damaged: Vec<Damaged>,
    /// Parts an interrupted merge left, which a merged part stands for.
    pub stale: Vec<Part>,
    /// Temporaries a killed add or compaction left.
    pub temporaries: Vec<PathBuf>,
    /// Checksum records whose part is gone.
    pub orphan_sums: Vec<PathBuf>,
    /// Parts set aside in `.quarantine/` by an earlier compaction.
    pub quarantined: Vec<Part>,
}

impl Verified {
    /// Damage in the history itself: what `verify` exits 1 on.
    pub fn damaged(&self) -> bool {
        !self.damaged.is_empty()
    }
}

/// Checks the history; changes nothing.
pub fn verify(history: impl Into<Store>) -> Result<Verified, StoreError> {
    let store = history.into();
    store.objects().check()?;
    let layout = store::layout(&store)?;
    let mut out = Verified {
        stale: layout.stale,
        temporaries: store::temporaries(&store),
        orphan_sums: store::orphan_sums(&store),
        quarantined: store::quarantined(&store),
        ..Verified::default()
    };
    for part in layout.live {
        match store::part_runs(&store, &part) {
            Ok(runs) => {
                out.runs += runs.len();
                if part.sums.is_empty() {
                    out.unchecked.push(part.clone());
                }
                out.sound.push(part);
            }
            Err(Fault::Damaged(d)) => out.damaged.push(d),
            // Retired by a merge since the listing: its runs are elsewhere.
            Err(Fault::Store(StoreError::Gone(_))) => {}
            Err(Fault::Store(e)) => return Err(e),
        }
    }
    Ok(out)
}
