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
        match store::part_runs_checked(&store, &part) {
            Ok((runs, summed)) => {
                out.runs += runs.len();
                if !summed {
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use object_store::path::Path as Key;
    use object_store::{Attribute, Attributes, ObjectStore, ObjectStoreExt, PutOptions};

    use super::*;
    use crate::history::store::RunMeta;
    use crate::history::store::tests::rows;

    /// A bucket part carries its CRC-32 in its metadata, not in the
    /// listing: it was once listed as "no checksum" though it matched.
    /// A metadata record that is no CRC-32 is damage, never unchecked.
    #[test]
    fn a_bucket_part_is_verified_by_its_metadata_checksum() {
        let mem: Arc<dyn ObjectStore> = Arc::new(object_store::memory::InMemory::new());
        let store = Store::bucket(mem.clone(), "h", "mem://h");
        let meta = RunMeta {
            id: "r1".into(),
            commit: None,
            time: "2026-12-01T08:30:00Z".into(),
            seq: 0,
        };
        crate::history::add(&store, &meta, &rows(), false).unwrap();
        let v = verify(&store).unwrap();
        assert_eq!((v.sound.len(), v.unchecked.len()), (1, 0), "{v:?}");
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let key = Key::from("h/part-00000001.parquet");
        let bytes = rt
            .block_on(async { mem.get(&key).await.unwrap().bytes().await })
            .unwrap();
        let mut attributes = Attributes::new();
        attributes.insert(
            Attribute::Metadata("nvcmp-crc32".into()),
            "zz\"; rm -rf /".into(),
        );
        let opts = PutOptions {
            attributes,
            ..PutOptions::default()
        };
        rt.block_on(mem.put_opts(&key, bytes.into(), opts)).unwrap();
        let v = verify(&store).unwrap();
        assert_eq!(v.damaged.len(), 1, "{v:?}");
        assert!(v.damaged[0].reason.contains("no CRC-32"), "{v:?}");
    }
}
