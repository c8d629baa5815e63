//! The hostile campaign of issue #38 as tests: what a hostile or damaged
//! file does to nvcmp. A figure that is no measurement, a damaged history,
//! a check with nothing to compare, names that carry control characters or
//! HTML. Nothing may panic (exit 101), abort (134), hang, or pass silently.

use std::path::Path;

use crate::common::{fixture, nvcmp, stderr};

/// Two configs `a` and `b` of the libaio randread fixture under `dir`,
/// `b`'s clat p50 replaced by `p50`.
fn with_p50(dir: &Path, p50: &str) {
    let text = std::fs::read_to_string(fixture("fio/linux-libaio/randread-4k.json")).unwrap();
    let (head, tail) = text.split_once("\"50.000000\" : ").unwrap();
    let digits = tail.find(|c: char| !c.is_ascii_digit()).unwrap();
    let hostile = format!("{head}\"50.000000\" : {p50}{}", &tail[digits..]);
    for (config, body) in [("a", &text), ("b", &hostile)] {
        std::fs::create_dir_all(dir.join(config)).unwrap();
        std::fs::write(dir.join(config).join("r.json"), body).unwrap();
    }
}

/// A denormal clat percentile once made `analyze --out` allocate without
/// bound (exit 134 after 4 GB): a log axis down to 1e-320. It is no
/// latency: not drawn, and said so under the chart.
#[test]
fn a_denormal_percentile_is_not_drawn_and_said() {
    let dir = tempfile::tempdir().unwrap();
    with_p50(dir.path(), "1e-320");
    let out = dir.path().join("out");
    let o = nvcmp()
        .current_dir(dir.path())
        .args(["analyze", "a", "b", "--chart-format", "svg", "--out"])
        .arg(&out)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let svg = std::fs::read_to_string(out.join("charts/percentiles_randread_4k_read.svg")).unwrap();
    assert!(
        svg.contains("Not drawn, no latency: p50 of b (1e-320 ns)."),
        "the chart does not say what it left out"
    );
}
