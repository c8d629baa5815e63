//! One history in a bucket, many writers (issue #43): a real
//! S3-compatible server (`moto_server`, pip `moto[server]`) started on a
//! free port for each test and stopped after, `nvcmp history add` run as
//! separate processes, some killed. Without moto_server the tests say so
//! and pass, unless NVCMP_CI=1 (CI; or the older NVCMP_REQUIRE_S3=1) makes
//! that a failure.
//! NVCMP_S3_ROUNDS sets the rounds of the concurrency test (default 3;
//! CI runs 20).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{fixture, stderr};

/// A moto server on a free loopback port, killed when dropped.
struct Moto {
    child: Child,
    port: u16,
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The moto_server program: NVCMP_MOTO_SERVER, else on PATH. A
/// NVCMP_MOTO_SERVER naming no file (a failed install) fails at once,
/// rather than after each test's minute of waiting for a server.
fn moto_program() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("NVCMP_MOTO_SERVER") {
        let p = PathBuf::from(p);
        assert!(
            p.is_file(),
            "NVCMP_MOTO_SERVER={} is no file (pip install 'moto[server]' into that venv, or unset it)",
            p.display()
        );
        return Some(p);
    }
    crate::common::on_path("moto_server")
}

/// Starts moto (with `env`), or None (after saying why) when the test may
/// be skipped: outside CI ([`crate::common::require_that`]).
fn moto_with(env: &[(&str, &str)]) -> Option<Moto> {
    let program = moto_program();
    crate::common::require_that(
        "moto_server",
        program.is_some(),
        "no moto_server (pip install 'moto[server]', or set NVCMP_MOTO_SERVER)",
    );
    let program = program?;
    let port = free_port();
    // moto answering one request at a time (tests/cli/moto_serial.py, with
    // the python of moto's own venv): its conditional create is then
    // atomic, as S3's is.
    let python = program.with_file_name("python");
    let python = if python.is_file() {
        python
    } else {
        PathBuf::from("python3")
    };
    let serial = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/moto_serial.py");
    let child = Command::new(python)
        .arg(serial)
        .args(["127.0.0.1", &port.to_string()])
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("moto_server starts");
    let moto = Moto { child, port };
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "moto_server did not listen on {port} within a minute"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    Some(moto)
}

fn moto() -> Option<Moto> {
    moto_with(&[])
}

/// One plain HTTP request to 127.0.0.1:`port`; the status code.
fn http(port: u16, method: &str, path: &str) -> u16 {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    answer
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

fn make_bucket(port: u16, bucket: &str) {
    assert_eq!(http(port, "PUT", &format!("/{bucket}")), 200);
}

/// `nvcmp` pointed at the server on `port` with test credentials.
fn nvcmp_at(port: u16) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("nvcmp"));
    cmd.env("NO_COLOR", "1")
        .env("AWS_ENDPOINT_URL", format!("http://127.0.0.1:{port}"))
        .env("AWS_ACCESS_KEY_ID", "testing")
        .env("AWS_SECRET_ACCESS_KEY", "testing")
        .env("AWS_REGION", "us-east-1")
        .env_remove("AWS_PROFILE")
        .env_remove("AWS_SESSION_TOKEN")
        .env_remove("GITHUB_STEP_SUMMARY");
    cmd
}

fn add(port: u16, url: &str, run: &str) -> Command {
    let mut cmd = nvcmp_at(port);
    cmd.args(["-q", "history", "add"])
        .arg(fixture("check/run1"))
        .args(["--history", url, "--run", run]);
    cmd
}

/// Run ids of `history show --format json`, in order, with how often
/// each appears in the first series (every run measures every series).
fn shown_runs(port: u16, url: &str) -> Vec<String> {
    let o = nvcmp_at(port)
        .args(["history", "show", "--format", "json", "--history", url])
        .output()
        .unwrap();
    assert!(o.status.success(), "show: {}", stderr(&o));
    // Warnings (a damaged part left out, a run in two parts) say why a
    // count is off.
    if !o.stderr.is_empty() {
        eprintln!("show {url}: {}", stderr(&o));
    }
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    doc["series"][0]["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["run"].as_str().unwrap().to_string())
        .collect()
}

/// A small deterministic generator: which adds to kill, and when.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

#[derive(Debug, Default)]
struct Counts {
    tried: usize,
    killed: usize,
    exited_0: usize,
    present_once: usize,
    lost: usize,
    duplicated: usize,
    reader_errors: usize,
}

/// 16 adds at once of distinct run ids, a random few killed, a reader and
/// a compaction running beside them; repeated NVCMP_S3_ROUNDS times.
/// Every add that exited 0 is read exactly once, no run twice, and no
/// reader fails.
#[test]
fn sixteen_adds_at_once_some_killed_each_finished_add_read_once() {
    let Some(moto) = moto() else { return };
    make_bucket(moto.port, "fleet");
    let rounds: u64 = std::env::var("NVCMP_S3_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let mut total = Counts::default();
    let started = Instant::now();
    for round in 0..rounds {
        let url = format!("s3://fleet/round-{round}");
        // One run first: readers beside the adds then always find a history.
        let o = add(moto.port, &url, "first").output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let mut rng = Lcg(round * 7919 + 1);
        let mut adds: Vec<(String, Child)> = (0..16)
            .map(|i| {
                let run = format!("r{round}-{i}");
                let child = add(moto.port, &url, &run)
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap();
                (run, child)
            })
            .collect();
        let reader = {
            let url = url.clone();
            let port = moto.port;
            std::thread::spawn(move || {
                let mut errors = 0;
                for _ in 0..3 {
                    let o = nvcmp_at(port)
                        .args(["-q", "history", "show", "--history", &url])
                        .output()
                        .unwrap();
                    if !o.status.success() {
                        eprintln!("reader failed: {}", stderr(&o));
                        errors += 1;
                    }
                }
                errors
            })
        };
        let compact = nvcmp_at(moto.port)
            .args(["-q", "history", "compact", "--history", &url])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Kill 2 to 4 of them, 0 to 1.5 s in: before, during or after
        // their part is written.
        let kills = 2 + rng.next(3) as usize;
        let mut killed = Vec::new();
        for _ in 0..kills {
            std::thread::sleep(Duration::from_millis(rng.next(500)));
            let i = rng.next(16) as usize;
            if !killed.contains(&i) {
                let _ = adds[i].1.kill();
                killed.push(i);
            }
        }
        let mut ok = Vec::new();
        for (i, (run, child)) in adds.iter_mut().enumerate() {
            let out = child.wait().unwrap();
            if out.success() {
                ok.push(run.clone());
            } else if !killed.contains(&i) {
                let mut err = String::new();
                child
                    .stderr
                    .take()
                    .unwrap()
                    .read_to_string(&mut err)
                    .unwrap();
                panic!("add {run} failed (exit {:?}): {err}", out.code());
            }
        }
        let c = compact.wait_with_output().unwrap();
        assert!(c.status.success(), "compact: {}", stderr(&c));
        total.reader_errors += reader.join().unwrap();
        let shown = shown_runs(moto.port, &url);
        let count = |run: &str| shown.iter().filter(|r| *r == run).count();
        total.tried += 16;
        total.killed += killed.len();
        total.exited_0 += ok.len();
        total.present_once += ok.iter().filter(|r| count(r) == 1).count();
        total.lost += ok.iter().filter(|r| count(r) == 0).count();
        let mut ids = shown.clone();
        ids.sort();
        ids.dedup();
        total.duplicated += shown.len() - ids.len();
        assert_eq!(count("first"), 1);
    }
    eprintln!(
        "s3 concurrency: {rounds} rounds in {:.0} s: {total:?}",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(total.present_once, total.exited_0, "{total:?}");
    assert_eq!(
        (total.lost, total.duplicated, total.reader_errors),
        (0, 0, 0),
        "{total:?}"
    );
    assert!(total.exited_0 >= total.tried - total.killed, "{total:?}");
}

/// Two adds of one run id at once: one wins, the other exits 2 naming the
/// run, and the run is read once.
#[test]
fn two_adds_of_one_run_id_one_wins_the_other_names_it() {
    let Some(moto) = moto() else { return };
    make_bucket(moto.port, "twins");
    for round in 0..3 {
        let url = format!("s3://twins/h{round}");
        let kids: Vec<Child> = (0..2)
            .map(|_| {
                add(moto.port, &url, "same")
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let outs: Vec<_> = kids
            .into_iter()
            .map(|k| k.wait_with_output().unwrap())
            .collect();
        let codes: Vec<Option<i32>> = outs.iter().map(|o| o.status.code()).collect();
        assert!(
            codes.contains(&Some(0)) && codes.contains(&Some(2)),
            "{codes:?}"
        );
        let loser = outs.iter().find(|o| o.status.code() == Some(2)).unwrap();
        assert!(
            stderr(loser).contains("run `same` is already in the history"),
            "{}",
            stderr(loser)
        );
        assert_eq!(shown_runs(moto.port, &url), ["same"]);
    }
}

/// A proxy in front of the server that answers `status` with `body` to
/// the first `fail` requests, then passes every request on.
fn proxy(upstream: u16, fail: usize, status: &'static str, body: &'static str) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(AtomicUsize::new(0));
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(conn) = conn else { continue };
            let seen = seen.clone();
            std::thread::spawn(move || serve(conn, upstream, &seen, fail, status, body));
        }
    });
    port
}

/// One request on `client`: failed as told, or passed to `upstream` with
/// `Connection: close` and its answer copied back.
fn serve(
    mut client: TcpStream,
    upstream: u16,
    seen: &AtomicUsize,
    fail: usize,
    status: &str,
    body: &str,
) {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if client.read(&mut byte).unwrap_or(0) == 0 {
            return;
        }
        head.push(byte[0]);
    }
    let text = String::from_utf8_lossy(&head).into_owned();
    let length: usize = text
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse().ok())?
        })
        .unwrap_or(0);
    let mut payload = vec![0u8; length];
    if client.read_exact(&mut payload).is_err() {
        return;
    }
    if seen.fetch_add(1, Ordering::SeqCst) < fail {
        let _ = write!(
            client,
            "HTTP/1.1 {status}\r\nContent-Type: application/xml\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        return;
    }
    let head: String = text
        .split("\r\n")
        .filter(|l| !l.to_ascii_lowercase().starts_with("connection:"))
        .take_while(|l| !l.is_empty())
        .map(|l| format!("{l}\r\n"))
        .collect();
    let Ok(mut up) = TcpStream::connect(("127.0.0.1", upstream)) else {
        return;
    };
    let _ = up.write_all(format!("{head}Connection: close\r\n\r\n").as_bytes());
    let _ = up.write_all(&payload);
    let _ = std::io::copy(&mut up, &mut client);
}

const INTERNAL: &str = "<Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>";

/// A server that answers 500 to its first requests and then recovers:
/// the add and the show go through on retries. One that keeps failing:
/// exit 2 within the retries' minute, one line naming the URL and cause.
#[test]
fn a_failing_server_is_retried_then_said_in_one_line() {
    let Some(moto) = moto() else { return };
    make_bucket(moto.port, "flaky");
    let flaky = proxy(moto.port, 3, "500 Internal Server Error", INTERNAL);
    let o = add(flaky, "s3://flaky/h", "r1").output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(shown_runs(flaky, "s3://flaky/h"), ["r1"]);

    let dead = proxy(moto.port, usize::MAX, "500 Internal Server Error", INTERNAL);
    let start = Instant::now();
    let o = nvcmp_at(dead)
        .args(["history", "show", "--history", "s3://flaky/h"])
        .output()
        .unwrap();
    let took = start.elapsed();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("s3://flaky/h"), "{err}");
    assert!(err.contains("kept failing after retries"), "{err}");
    assert!(err.contains("500"), "{err}");
    assert!(took < Duration::from_secs(70), "{took:?}");
}

/// Wrong credentials (a server that checks them), a missing bucket, and
/// a 403 each say so in one line, exit 2.
#[test]
fn wrong_credentials_a_missing_bucket_and_403_each_say_so() {
    // moto checks credentials once INITIAL_NO_AUTH_ACTION_COUNT requests
    // have been let through: none here, so ours are unknown to it.
    let Some(strict) = moto_with(&[("INITIAL_NO_AUTH_ACTION_COUNT", "0")]) else {
        return;
    };
    let o = add(strict.port, "s3://any/h", "r1").output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("wrong credentials"), "{err}");
    assert!(err.contains("InvalidAccessKeyId"), "{err}");
    assert!(err.contains("s3://any/h"), "{err}");
    drop(strict);

    let Some(moto) = moto() else { return };
    let o = nvcmp_at(moto.port)
        .args(["history", "show", "--history", "s3://no-such-bucket/h"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("the bucket does not exist"), "{err}");
    assert!(err.contains("s3://no-such-bucket/h"), "{err}");

    make_bucket(moto.port, "closed");
    let denied = proxy(
        moto.port,
        usize::MAX,
        "403 Forbidden",
        "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>",
    );
    let o = add(denied, "s3://closed/h", "r1").output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("access denied (403 Forbidden, AccessDenied)"),
        "{err}"
    );
    // check --history on it: the same, not "no history yet".
    let o = nvcmp_at(denied)
        .args(["check", "--history", "s3://closed/h", "--candidate"])
        .arg(fixture("check/run1"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("access denied"), "{}", stderr(&o));
}

/// `nvcmp` with no AWS_* settings in its environment but the profile
/// files under `dir` and the profile `name`.
fn nvcmp_with_profile(dir: &std::path::Path, name: &str) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("nvcmp"));
    for (k, _) in std::env::vars() {
        if k.starts_with("AWS_") {
            cmd.env_remove(k);
        }
    }
    cmd.env("NO_COLOR", "1")
        .env("HOME", dir)
        .env("AWS_PROFILE", name)
        .env("AWS_CONFIG_FILE", dir.join("config"))
        .env("AWS_SHARED_CREDENTIALS_FILE", dir.join("credentials"))
        .env_remove("GITHUB_STEP_SUMMARY");
    cmd
}

/// An s3:// history set up by an AWS profile alone (endpoint, region and
/// keys in ~/.aws/config and ~/.aws/credentials, no AWS_* variables), as
/// a developer's machine has it; keys the server refuses are said with
/// the profile and file they came from.
#[test]
fn an_aws_profile_alone_sets_up_the_bucket() {
    let Some(moto) = moto() else { return };
    make_bucket(moto.port, "prof");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config"),
        format!(
            "[default]\nregion = eu-north-1\n\n[profile bench]\nregion = us-east-1\nendpoint_url = http://127.0.0.1:{}\ns3 =\n  addressing_style = path\n",
            moto.port
        ),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("credentials"),
        "[bench]\naws_access_key_id = testing\naws_secret_access_key = testing\n",
    )
    .unwrap();
    let o = nvcmp_with_profile(dir.path(), "bench")
        .args(["-q", "history", "add"])
        .arg(fixture("check/run1"))
        .args(["--history", "s3://prof/h", "--run", "p1"])
        .output()
        .unwrap();
    assert!(o.status.success(), "add: {}", stderr(&o));
    assert_eq!(shown_runs(moto.port, "s3://prof/h"), ["p1"]);
    drop(moto);

    // The same profile against a server that checks keys: refused, and
    // the message names the profile and its file.
    let Some(strict) = moto_with(&[("INITIAL_NO_AUTH_ACTION_COUNT", "0")]) else {
        return;
    };
    let config = std::fs::read_to_string(dir.path().join("config")).unwrap();
    let config = config.replace(
        &format!(":{}\n", moto_port_of(&config)),
        &format!(":{}\n", strict.port),
    );
    std::fs::write(dir.path().join("config"), config).unwrap();
    let o = nvcmp_with_profile(dir.path(), "bench")
        .args(["history", "show", "--history", "s3://prof/h"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("wrong credentials"), "{err}");
    assert!(err.contains("profile `bench`"), "{err}");
    assert!(err.contains("credentials"), "{err}");

    // A profile asked for and absent: said, exit 2, nothing tried.
    let o = nvcmp_with_profile(dir.path(), "nope")
        .args(["history", "show", "--history", "s3://prof/h"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("`nope`"), "{}", stderr(&o));
}

/// The port in a config file's `endpoint_url = http://127.0.0.1:PORT`.
fn moto_port_of(config: &str) -> String {
    let at = config.find("127.0.0.1:").unwrap() + "127.0.0.1:".len();
    config[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect()
}

/// `history verify` and `compact` work on a bucket, and a flipped bit in
/// a part there is found by its CRC (kept in the object's metadata) and
/// set aside.
#[test]
fn a_damaged_part_in_a_bucket_is_found_and_set_aside() {
    let Some(moto) = moto() else { return };
    make_bucket(moto.port, "damage");
    let url = "s3://damage/h";
    for run in ["a", "b"] {
        let o = add(moto.port, url, run).output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let verify = |port| {
        nvcmp_at(port)
            .args(["history", "verify", "--history", url])
            .output()
            .unwrap()
    };
    let o = verify(moto.port);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("sound: 2 runs in 2 parts"));
    // Overwrite part 2 with flipped bytes, its CRC metadata kept as it was
    // written: a raw PUT through moto with the old metadata header (moto
    // checks no signature, but wants to know whose request it is).
    let key = "/damage/h/part-00000002.parquet";
    let auth = "Authorization: AWS4-HMAC-SHA256 Credential=testing/20261205/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=00";
    let mut s = TcpStream::connect(("127.0.0.1", moto.port)).unwrap();
    write!(
        s,
        "GET {key} HTTP/1.1\r\nHost: x\r\n{auth}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).unwrap();
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let head = String::from_utf8_lossy(&answer[..split]).to_ascii_lowercase();
    let crc = head
        .lines()
        .find_map(|l| l.strip_prefix("x-amz-meta-nvcmp-crc32:"))
        .expect("the crc travels in the object's metadata")
        .trim()
        .to_string();
    let mut body = answer[split..].to_vec();
    let mid = body.len() / 2;
    body[mid] ^= 0x10;
    let mut s = TcpStream::connect(("127.0.0.1", moto.port)).unwrap();
    write!(
        s,
        "PUT {key} HTTP/1.1\r\nHost: x\r\n{auth}\r\nx-amz-meta-nvcmp-crc32: {crc}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    s.write_all(&body).unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    // HTTP/1.0 from the one-request-at-a-time server (werkzeug speaks
    // 1.1 only when threaded).
    assert_eq!(answer.split(' ').nth(1), Some("200"), "{answer}");
    let o = verify(moto.port);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("part-00000002.parquet: its bytes have CRC-32"),
        "{out}"
    );
    let o = nvcmp_at(moto.port)
        .args(["history", "compact", "--history", url])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(".quarantine/part-00000002.parquet"),
        "{}",
        stderr(&o)
    );
    assert_eq!(verify(moto.port).status.code(), Some(0));
    assert_eq!(shown_runs(moto.port, url), ["a"]);
}
