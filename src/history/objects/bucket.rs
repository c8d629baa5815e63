//! A history in an object store: `s3://bucket/prefix` (AWS S3 and
//! S3-compatible servers), `gs://` and `az://`, through the `object_store`
//! crate. Its calls are async; each runs to its end on a current-thread
//! runtime this backend alone owns, so nothing above it knows.
//!
//! A part is created with `If-None-Match: *` (only if the name is free),
//! its CRC-32 in the object's own metadata (`x-amz-meta-nvcmp-crc32`),
//! written in the same request as its bytes: no second object to keep in
//! step. Requests that fail for the server's sake (5xx, 429, a timeout,
//! a refused connection) are retried with backoff; what still fails is
//! one line naming the URL and the cause.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use object_store::path::Path as Key;
use object_store::{
    Attribute, Attributes, BackoffConfig, ClientOptions, ObjectStore, ObjectStoreExt, PutMode,
    PutOptions, PutPayload, RetryConfig,
};

use super::{Created, Fetched, Listed, Objects, QUARANTINE, aws_profile};
use crate::history::error::StoreError;

/// The metadata key of a part's CRC-32 (`x-amz-meta-nvcmp-crc32` on S3).
const CRC_KEY: &str = "nvcmp-crc32";

/// The metadata key of the writer that created a part: a number drawn
/// once per process. Two adds of one run in the same second can write the
/// same bytes; only this tells whose put landed.
const WRITER_KEY: &str = "nvcmp-writer";

/// Parts fetched at once: enough to hide a request's latency behind the
/// others', few enough that memory holds only a handful of parts.
const FETCH_AT_ONCE: usize = 8;

/// A history under a prefix of a bucket.
pub struct Bucket {
    store: Arc<dyn ObjectStore>,
    prefix: Key,
    shown: String,
    rt: tokio::runtime::Runtime,
    /// This writer's number ([`WRITER_KEY`]).
    writer: String,
    /// Where the credentials came from, for the message when the server
    /// refuses them.
    credentials_from: String,
}

/// Credentials from the environment, as the message names them.
const ENV_CREDENTIALS: &str = "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY";

/// Retries of a request the server failed: 100 ms doubling to 4 s, at
/// most 6 times and 60 s in all, so a dead endpoint is said in well
/// under a minute and a hiccup never fails a CI job.
fn retry() -> RetryConfig {
    RetryConfig {
        backoff: BackoffConfig {
            init_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(4),
            base: 2.0,
        },
        max_retries: 6,
        retry_timeout: Duration::from_secs(60),
    }
}

impl Bucket {
    /// The bucket and prefix of `url`, configured from the environment
    /// (`AWS_*`, `GOOGLE_*`, `AZURE_*` as each SDK reads them) and, for
    /// `s3://`, the AWS profile files ([`aws_profile`]).
    pub fn open(url: &str) -> Result<Bucket, StoreError> {
        let bad = |reason: String| StoreError::Url {
            url: url.to_string(),
            reason,
        };
        let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            return Err(bad("no bucket named (s3://BUCKET/PREFIX)".into()));
        }
        let root = format!("{scheme}://{bucket}");
        let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        // An s3:// history also reads the AWS profile files; the
        // environment wins over them, key by key.
        let profile = match scheme {
            "s3" => aws_profile::load(&env).map_err(bad)?,
            _ => None,
        };
        let profile = profile.unwrap_or_default();
        let endpoint = env("AWS_ENDPOINT_URL")
            .or_else(|| env("AWS_ENDPOINT"))
            .or_else(|| profile.endpoint_url.clone())
            .unwrap_or_default();
        // An endpoint named with http:// is a local or test server the
        // user chose: plain HTTP is what they asked for.
        let options = ClientOptions::new()
            .with_allow_http(endpoint.starts_with("http://"))
            .with_connect_timeout(Duration::from_secs(5))
            .with_timeout(Duration::from_secs(30));
        let mut credentials_from = ENV_CREDENTIALS.to_string();
        let store: Arc<dyn ObjectStore> = match scheme {
            "s3" => {
                let (s3, from) = s3_builder(&root, &endpoint, &profile, &env);
                credentials_from = from;
                let s3 = s3.with_client_options(options).with_retry(retry());
                Arc::new(
                    s3.build()
                        .map_err(|e| bad(super::redacted(&e.to_string())))?,
                )
            }
            "gs" => Arc::new(
                object_store::gcp::GoogleCloudStorageBuilder::from_env()
                    .with_url(&root)
                    .with_client_options(options)
                    .with_retry(retry())
                    .build()
                    .map_err(|e| bad(super::redacted(&e.to_string())))?,
            ),
            "az" => Arc::new(
                object_store::azure::MicrosoftAzureBuilder::from_env()
                    .with_url(&root)
                    .with_client_options(options)
                    .with_retry(retry())
                    .build()
                    .map_err(|e| bad(super::redacted(&e.to_string())))?,
            ),
            other => return Err(bad(format!("unknown scheme `{other}`"))),
        };
        let mut opened = Bucket::new(store, prefix, url.trim_end_matches('/'));
        opened.credentials_from = credentials_from;
        Ok(opened)
    }

    /// A history under `prefix` of `store`, shown as `shown` in messages.
    pub fn new(store: Arc<dyn ObjectStore>, prefix: &str, shown: &str) -> Bucket {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a current-thread runtime needs no OS resource that can fail");
        // std's hasher keys are random per process (and per call): a
        // writer number with no extra crate.
        use std::hash::{BuildHasher, Hasher};
        let writer = std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish();
        Bucket {
            store,
            prefix: Key::from(prefix.trim_matches('/')),
            shown: shown.to_string(),
            rt,
            writer: format!("{writer:016x}-{}", std::process::id()),
            credentials_from: ENV_CREDENTIALS.to_string(),
        }
    }

    fn key(&self, name: &str) -> Key {
        self.prefix.clone().join(name)
    }

    fn aside_key(&self, name: &str) -> Key {
        self.prefix.clone().join(QUARANTINE).join(name)
    }

    /// The error of a request for `name` (None: the history itself).
    fn fail(&self, name: Option<&str>, e: &object_store::Error) -> StoreError {
        StoreError::Remote {
            url: match name {
                Some(n) => format!("{}/{n}", self.shown),
                None => self.shown.clone(),
            },
            reason: cause(e, &self.credentials_from),
        }
    }

    /// Names directly under `prefix`.
    fn names(&self, prefix: &Key) -> Result<Vec<String>, StoreError> {
        let listed = self
            .rt
            .block_on(self.store.list_with_delimiter(Some(prefix)))
            .map_err(|e| self.fail(None, &e))?;
        Ok(listed
            .objects
            .into_iter()
            .filter_map(|o| o.location.filename().map(str::to_string))
            .collect())
    }

    async fn get(&self, name: &str) -> Result<Fetched, StoreError> {
        self.get_with_writer(name).await.map(|(f, _)| f)
    }

    /// The object's bytes and checksum, and the writer that created it.
    async fn get_with_writer(&self, name: &str) -> Result<(Fetched, Option<String>), StoreError> {
        let got = match self.store.get(&self.key(name)).await {
            Ok(got) => got,
            Err(e @ object_store::Error::NotFound { .. })
                if !e.to_string().contains("NoSuchBucket") =>
            {
                return Err(StoreError::Gone(self.locate(name)));
            }
            Err(e) => return Err(self.fail(Some(name), &e)),
        };
        let record = got
            .attributes
            .get(&Attribute::Metadata(CRC_KEY.into()))
            .map(|v| v.to_string());
        let (mut sums, mut bad_sums) = (Vec::new(), Vec::new());
        match record.as_deref().map(|r| (r, super::folder::parse_crc(r))) {
            Some((_, Some(crc))) => sums.push(crc),
            Some((r, None)) => bad_sums.push(r.to_string()),
            None => {}
        }
        let writer = got
            .attributes
            .get(&Attribute::Metadata(WRITER_KEY.into()))
            .map(|v| v.to_string());
        let bytes = got.bytes().await.map_err(|e| self.fail(Some(name), &e))?;
        let fetched = Fetched {
            bytes: bytes.to_vec(),
            sums,
            bad_sums,
        };
        Ok((fetched, writer))
    }

    fn put(&self, name: &str, bytes: &[u8], crc: u32, mode: PutMode) -> object_store::Result<()> {
        let mut attributes = Attributes::new();
        attributes.insert(
            Attribute::Metadata(CRC_KEY.into()),
            format!("{crc:08x}").into(),
        );
        attributes.insert(
            Attribute::Metadata(WRITER_KEY.into()),
            self.writer.clone().into(),
        );
        let opts = PutOptions {
            mode,
            attributes,
            ..PutOptions::default()
        };
        let payload = PutPayload::from(bytes.to_vec());
        self.rt
            .block_on(self.store.put_opts(&self.key(name), payload, opts))
            .map(|_| ())
    }
}

impl Objects for Bucket {
    fn list(&self) -> Result<Vec<Listed>, StoreError> {
        Ok(self
            .names(&self.prefix)?
            .into_iter()
            .map(|name| Listed {
                name,
                sums: Vec::new(),
                bad_sums: Vec::new(),
            })
            .collect())
    }

    fn fetch(&self, names: &[String]) -> Vec<Result<Fetched, StoreError>> {
        self.rt.block_on(
            futures::stream::iter(names)
                .map(|n| self.get(n))
                .buffered(FETCH_AT_ONCE)
                .collect(),
        )
    }

    fn create(&self, name: &str, bytes: &[u8], crc: u32) -> Result<Created, StoreError> {
        match self.put(name, bytes, crc, PutMode::Create) {
            Ok(()) => Ok(Created::Ours),
            // Taken, or our own put whose answer was lost and retried:
            // ours only if this writer put it.
            Err(object_store::Error::AlreadyExists { .. }) => {
                let (_, writer) = self.rt.block_on(self.get_with_writer(name))?;
                Ok(match writer.as_deref() == Some(self.writer.as_str()) {
                    true => Created::Ours,
                    false => Created::Taken,
                })
            }
            Err(e) => Err(self.fail(Some(name), &e)),
        }
    }

    fn overwrite(
        &self,
        name: &str,
        bytes: &[u8],
        crc: u32,
        _old: &[u32],
    ) -> Result<(), StoreError> {
        self.put(name, bytes, crc, PutMode::Overwrite)
            .map_err(|e| self.fail(Some(name), &e))
    }

    fn delete(&self, name: &str, _sums: &[u32]) -> Result<(), StoreError> {
        match self.rt.block_on(self.store.delete(&self.key(name))) {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(self.fail(Some(name), &e)),
        }
    }

    fn quarantine(&self, name: &str, _sums: &[u32]) -> Result<PathBuf, StoreError> {
        let taken = self.quarantined();
        let mut to = name.to_string();
        let mut k = 0;
        while taken.contains(&to) {
            k += 1;
            to = format!("{name}.{k}");
        }
        self.rt
            .block_on(self.store.copy(&self.key(name), &self.aside_key(&to)))
            .map_err(|e| self.fail(Some(name), &e))?;
        self.delete(name, &[])?;
        Ok(PathBuf::from(format!("{}/{QUARANTINE}/{to}", self.shown)))
    }

    fn quarantined(&self) -> Vec<String> {
        self.names(&self.prefix.clone().join(QUARANTINE))
            .unwrap_or_default()
    }

    fn locate(&self, name: &str) -> PathBuf {
        PathBuf::from(format!("{}/{name}", self.shown))
    }

    fn check(&self) -> Result<(), StoreError> {
        match self.exists()? {
            true => Ok(()),
            false => Err(StoreError::Missing(PathBuf::from(&self.shown))),
        }
    }

    fn exists(&self) -> Result<bool, StoreError> {
        Ok(!self.names(&self.prefix)?.is_empty())
    }

    fn prepare(&self) -> Result<(), StoreError> {
        Ok(())
    }
}

/// S3's settings: the environment's (`from_env`), then each key the
/// environment leaves unset from the AWS profile; `endpoint` is already
/// resolved so (empty: none). Also where the credentials came from, for
/// messages.
fn s3_builder(
    root: &str,
    endpoint: &str,
    profile: &aws_profile::Profile,
    env: &dyn Fn(&str) -> Option<String>,
) -> (object_store::aws::AmazonS3Builder, String) {
    let mut s3 = object_store::aws::AmazonS3Builder::from_env().with_url(root);
    let unset = |keys: &[&str]| keys.iter().all(|k| env(k).is_none());
    if !endpoint.is_empty() {
        s3 = s3.with_endpoint(endpoint);
    }
    if unset(&["AWS_REGION", "AWS_DEFAULT_REGION"])
        && let Some(r) = &profile.region
    {
        s3 = s3.with_region(r);
    }
    if unset(&["AWS_VIRTUAL_HOSTED_STYLE_REQUEST"])
        && let Some(v) = profile.virtual_hosted
    {
        s3 = s3.with_virtual_hosted_style_request(v);
    }
    // Credentials as a set: the environment's when it has a key id, else
    // the profile's.
    match (unset(&["AWS_ACCESS_KEY_ID"]), &profile.credentials) {
        (true, Some(c)) => {
            s3 = s3
                .with_access_key_id(&c.access_key_id)
                .with_secret_access_key(&c.secret_access_key);
            if let Some(t) = &c.session_token {
                s3 = s3.with_token(t);
            }
            (s3, format!("aws_access_key_id of {}", c.from))
        }
        _ => (s3, ENV_CREDENTIALS.to_string()),
    }
}

/// What went wrong, in words: the server's own error code where it sent
/// one (S3's `<Code>`), and what fixes it.
fn cause(e: &object_store::Error, credentials_from: &str) -> String {
    use object_store::Error as E;
    // The request's URL may carry an endpoint's user and password.
    let text = one_line(&super::redacted(&e.to_string()));
    let code = xml_field(&text, "Code");
    let said = xml_field(&text, "Message")
        .map(|m| format!(" ({m})"))
        .unwrap_or_default();
    // A list's error comes as a generic one: its status says what it is.
    let forbidden = matches!(e, E::PermissionDenied { .. }) || text.contains("403 Forbidden");
    let unauthenticated =
        matches!(e, E::Unauthenticated { .. }) || text.contains("401 Unauthorized");
    match (e, code.as_deref()) {
        (_, Some("NoSuchBucket")) => {
            format!("the bucket does not exist{said}; create it, or fix the URL")
        }
        (_, Some(c @ ("InvalidAccessKeyId" | "SignatureDoesNotMatch"))) => format!(
            "wrong credentials: the server refused them ({c}{said}); check {credentials_from}"
        ),
        (_, c) if forbidden => format!(
            "access denied (403 Forbidden{}){said}: these credentials may not read or write here; check the bucket's policy",
            c.map(|c| format!(", {c}")).unwrap_or_default()
        ),
        _ if unauthenticated => format!(
            "not authenticated (401){said}: set credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or the provider's own)"
        ),
        (E::NotFound { .. }, _) => format!("not found{said}"),
        _ if text.contains("retries") || text.contains("retry") => {
            format!("the server kept failing after retries: {text}")
        }
        _ => text,
    }
}

/// `text` on one line, the server's XML body kept.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of `<tag>` in an S3 error body within `text`.
fn xml_field(text: &str, tag: &str) -> Option<String> {
    let open = format!("<{tag}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find(&format!("</{tag}>"))? + start;
    Some(text[start..end].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn memory() -> Bucket {
        Bucket::new(
            Arc::new(object_store::memory::InMemory::new()),
            "team/history",
            "mem://team/history",
        )
    }

    #[test]
    fn create_if_absent_and_the_crc_travels_with_the_bytes() {
        let b = memory();
        let crc = crc32fast::hash(b"one");
        assert_eq!(
            b.create("part-00000001.parquet", b"one", crc).unwrap(),
            Created::Ours
        );
        // A retried put is ours; another writer's, even of the same
        // bytes, loses.
        assert_eq!(
            b.create("part-00000001.parquet", b"one", crc).unwrap(),
            Created::Ours
        );
        let other = Bucket::new(b.store.clone(), "team/history", "mem://team/history");
        assert_eq!(
            other.create("part-00000001.parquet", b"one", crc).unwrap(),
            Created::Taken
        );
        let got = b
            .fetch(&["part-00000001.parquet".into()])
            .pop()
            .unwrap()
            .unwrap();
        assert_eq!(
            (got.bytes.as_slice(), got.sums.as_slice()),
            (&b"one"[..], &[crc][..])
        );
        let names: Vec<String> = b.list().unwrap().into_iter().map(|l| l.name).collect();
        assert_eq!(names, ["part-00000001.parquet"]);
        let to = b.quarantine("part-00000001.parquet", &[]).unwrap();
        assert_eq!(
            to,
            PathBuf::from("mem://team/history/.quarantine/part-00000001.parquet")
        );
        assert!(b.list().unwrap().is_empty());
        assert_eq!(b.quarantined(), ["part-00000001.parquet"]);
    }

    #[test]
    fn server_errors_are_said_with_their_cause() {
        let e = object_store::Error::PermissionDenied {
            path: "p".into(),
            source: "Server returned non-2xx status code: 403 Forbidden: <Error><Code>InvalidAccessKeyId</Code><Message>The AWS Access Key Id you provided does not exist in our records.</Message></Error>".into(),
        };
        let said = cause(&e, ENV_CREDENTIALS);
        assert!(said.starts_with("wrong credentials"), "{said}");
        assert!(said.contains("AWS_ACCESS_KEY_ID"), "{said}");
        let e = object_store::Error::NotFound {
            path: "p".into(),
            source: "<Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message></Error>".into(),
        };
        assert!(
            cause(&e, ENV_CREDENTIALS).starts_with("the bucket does not exist"),
            "{}",
            cause(&e, ENV_CREDENTIALS)
        );
        let e = object_store::Error::PermissionDenied {
            path: "p".into(),
            source: "<Error><Code>AccessDenied</Code></Error>".into(),
        };
        assert!(
            cause(&e, ENV_CREDENTIALS).starts_with("access denied (403 Forbidden, AccessDenied)")
        );
    }
}
