//! Where a history's parts live: a local folder ([`folder`]) or an object
//! store bucket (`s3://`, `gs://`, `az://`: [`bucket`]). Both give the
//! store the same few operations ([`Objects`]): list the parts, fetch
//! some, create one only if its name is free, overwrite, delete, set
//! aside. Creating only if absent is all the store's lock-free rules need
//! (docs/architecture.md, "A history shared by many writers"): the
//! folder does it with a hard link, a bucket with `If-None-Match: *`.

pub(crate) mod aws_profile;
pub(crate) mod bucket;
pub(crate) mod folder;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::StoreError;

/// The folder damaged parts are set aside in, inside the history: hidden,
/// so no `*.parquet` glob reads them; kept, so nothing is lost.
pub const QUARANTINE: &str = ".quarantine";

/// An object directly under the history, as listed.
#[derive(Debug, Clone)]
pub(crate) struct Listed {
    pub name: String,
    /// CRC-32s recorded for it that the listing gives (the folder's
    /// checksum files); a bucket gives them with the bytes instead.
    pub sums: Vec<u32>,
    /// Checksum records for it that hold no CRC-32 (a checksum file
    /// named `.part-1.parquet.crc32-ZZZZZZZZ`), as found.
    pub bad_sums: Vec<String>,
}

/// An object's bytes and the CRC-32s recorded with them.
#[derive(Debug)]
pub(crate) struct Fetched {
    pub bytes: Vec<u8>,
    pub sums: Vec<u32>,
    /// Checksum records fetched with it that hold no CRC-32 (a bucket's
    /// metadata value that is not 8 hex digits), as found.
    pub bad_sums: Vec<String>,
}

/// What a create-if-absent did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Created {
    /// The name was free and now holds our bytes (a bucket: or held
    /// them already, put by this writer: a retried request whose first
    /// try had landed).
    Ours,
    /// Another writer's object has the name.
    Taken,
}

/// The operations a history needs of where it is kept. Every write is
/// of a whole object, visible whole or not at all.
pub(crate) trait Objects: Send + Sync {
    /// The objects directly under the history (not in `.quarantine/`).
    fn list(&self) -> Result<Vec<Listed>, StoreError>;
    /// The bytes of `names`, in their order (a bucket fetches a few at a
    /// time); each its own result.
    fn fetch(&self, names: &[String]) -> Vec<Result<Fetched, StoreError>>;
    /// Creates `name` with `bytes` (CRC-32 `crc`) unless the name is taken.
    fn create(&self, name: &str, bytes: &[u8], crc: u32) -> Result<Created, StoreError>;
    /// Replaces `name`'s bytes (a `--replace`); `old` are the CRC-32s
    /// recorded for what was there.
    fn overwrite(&self, name: &str, bytes: &[u8], crc: u32, old: &[u32]) -> Result<(), StoreError>;
    /// Removes `name` (and what records its checksums); gone already is fine.
    fn delete(&self, name: &str, sums: &[u32]) -> Result<(), StoreError>;
    /// Moves `name` into `.quarantine/`; returns where it went.
    fn quarantine(&self, name: &str, sums: &[u32]) -> Result<PathBuf, StoreError>;
    /// Names of the parts in `.quarantine/`.
    fn quarantined(&self) -> Vec<String>;
    /// Where `name` is, for messages (a path, or the object's URL).
    fn locate(&self, name: &str) -> PathBuf;
    /// Fails when there is no history here (or it is not a folder).
    fn check(&self) -> Result<(), StoreError>;
    /// Whether a history exists here at all (for `check`'s first run).
    fn exists(&self) -> Result<bool, StoreError>;
    /// Makes the history's place (a folder; a bucket's prefix needs none).
    fn prepare(&self) -> Result<(), StoreError>;
    /// The local folder, when the history is one: its lock, temporaries
    /// and checksum files are the folder's own.
    fn folder(&self) -> Option<&folder::Folder> {
        None
    }
}

/// A history, wherever it is kept: what `--history` names.
#[derive(Clone)]
pub struct Store {
    objects: Arc<dyn Objects>,
    shown: String,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Store({})", self.shown)
    }
}

/// `spec` shown without its credentials when it is a URL that holds some
/// (`s3://KEY:SECRET@bucket/prefix`); None when it holds none. No bucket,
/// container or host name has a `:` or an `@`, so either in the part
/// before the first `/` (or an `@` anywhere: a secret may hold a `/`) is
/// credentials.
fn with_credentials(spec: &str) -> Option<String> {
    let (scheme, rest) = spec.split_once("://")?;
    let authority = rest.split('/').next().unwrap_or(rest);
    if scheme == "file" || !(rest.contains('@') || authority.contains(':')) {
        return None;
    }
    let after = match rest.rfind('@') {
        Some(at) => &rest[at + 1..],
        None => rest.split_once('/').map_or("", |(_, p)| p),
    };
    Some(format!("{scheme}://***@{after}"))
}

/// `text` (an error naming URLs, an endpoint) with each URL's user and
/// password replaced by `***`: `https://user:pass@host/x` reads
/// `https://***@host/x`. A URL runs to the next space or quote; all of it
/// up to its last `@` is hidden (a password may hold a `/`).
pub fn redacted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("://") {
        let (head, tail) = rest.split_at(i + 3);
        out.push_str(head);
        let end = tail
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '`'))
            .unwrap_or(tail.len());
        let url = &tail[..end];
        match url.rfind('@') {
            Some(at) => {
                out.push_str("***");
                out.push_str(&url[at..]);
            }
            None => out.push_str(url),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// URL schemes of object stores `--history` takes.
pub const SCHEMES: [&str; 3] = ["s3://", "gs://", "az://"];

impl Store {
    /// The history `--history` names: `s3://bucket/prefix` (and `gs://`,
    /// `az://`), `file:///path`, or a plain path.
    pub fn open(spec: &str) -> Result<Store, StoreError> {
        if let Some(shown) = with_credentials(spec) {
            return Err(StoreError::Url {
                url: shown,
                reason: "a URL must not hold credentials (they would be shown in every \
                         message naming it); put credentials in the environment or a profile \
                         (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE)"
                    .into(),
            });
        }
        if SCHEMES.iter().any(|s| spec.starts_with(s)) {
            let b = bucket::Bucket::open(spec)?;
            return Ok(Store {
                shown: spec.trim_end_matches('/').to_string(),
                objects: Arc::new(b),
            });
        }
        if let Some(path) = spec.strip_prefix("file://") {
            return Ok(Store::folder(Path::new(path)));
        }
        if spec.contains("://") {
            return Err(StoreError::Url {
                url: spec.to_string(),
                reason: "not a scheme nvcmp keeps histories in (s3://, gs://, az://, file://, or a path)".into(),
            });
        }
        Ok(Store::folder(Path::new(spec)))
    }

    /// The history in the local folder `dir`.
    pub fn folder(dir: &Path) -> Store {
        Store {
            shown: dir.display().to_string(),
            objects: Arc::new(folder::Folder::new(dir)),
        }
    }

    /// A history in an object store already built (tests: object_store's
    /// in-memory store), under `prefix`, shown as `shown`.
    #[doc(hidden)]
    pub fn bucket(store: Arc<dyn object_store::ObjectStore>, prefix: &str, shown: &str) -> Store {
        Store {
            shown: shown.to_string(),
            objects: Arc::new(bucket::Bucket::new(store, prefix, shown)),
        }
    }

    /// The history as the user named it, for messages.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    pub(crate) fn objects(&self) -> &dyn Objects {
        &*self.objects
    }

    /// The local folder, when the history is one.
    pub fn dir(&self) -> Option<&Path> {
        self.objects.folder().map(folder::Folder::dir)
    }
}

impl From<&Path> for Store {
    fn from(dir: &Path) -> Store {
        Store::folder(dir)
    }
}

impl From<&PathBuf> for Store {
    fn from(dir: &PathBuf) -> Store {
        Store::folder(dir)
    }
}

impl From<&Store> for Store {
    fn from(s: &Store) -> Store {
        s.clone()
    }
}
