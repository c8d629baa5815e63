//! JSON: the Comparison as serde writes it, the shape of docs/CONTRACT.md.
//! The tail metric's key says its percentile (issue #54): where the runs'
//! tail is p95, every `clat_p99_ns` key and metric name is `clat_p95_ns`,
//! and `tail_metric` names the key the report's tail is under.

use std::io::Write;

use serde::Serialize;
use serde_json::ser::{CharEscape, Formatter, PrettyFormatter};

use super::Renderer;
use crate::compare::Comparison;
use crate::compare::workload::tail_key;

pub struct Json;

/// The key the comparison's types are written with for the tail.
const P99_KEY: &str = "clat_p99_ns";

/// The comparison with `tail_metric` last, as one object.
#[derive(Serialize)]
struct WithTail<'a> {
    #[serde(flatten)]
    cmp: &'a Comparison,
    tail_metric: &'a str,
}

impl Renderer for Json {
    /// Written as serde walks the comparison, the tail's key renamed on
    /// the way: not built as a `serde_json::Value` first (a tree of maps
    /// several times the text's size, a third of `analyze --format json`'s
    /// memory at 100,000 files).
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()> {
        let key = tail_key(cmp.tail_percentile);
        let doc = WithTail {
            cmp,
            tail_metric: &key,
        };
        let format = TailNamed::new(&key);
        doc.serialize(&mut serde_json::Serializer::with_formatter(
            &mut *out, format,
        ))?;
        out.write_all(b"\n")?;
        Ok(())
    }
}

/// serde_json's pretty layout, with every string that is exactly
/// `clat_p99_ns` (a key, or a metric's name) written as the tail's key.
/// serde_json writes a string without escapes as one fragment, so a held
/// first fragment that stays the only one is the whole string.
struct TailNamed<'k> {
    pretty: PrettyFormatter<'static>,
    key: &'k str,
    /// The current string's fragments written so far.
    fragments: usize,
    /// Its first fragment was `clat_p99_ns`, not written yet.
    held: bool,
}

impl<'k> TailNamed<'k> {
    fn new(key: &'k str) -> TailNamed<'k> {
        TailNamed {
            pretty: PrettyFormatter::new(),
            key,
            fragments: 0,
            held: false,
        }
    }

    /// The held fragment as it was: the string goes on.
    fn release<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        if std::mem::take(&mut self.held) {
            w.write_all(P99_KEY.as_bytes())?;
        }
        Ok(())
    }
}

impl Formatter for TailNamed<'_> {
    fn begin_string<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.fragments = 0;
        self.held = false;
        w.write_all(b"\"")
    }

    fn end_string<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        if std::mem::take(&mut self.held) {
            w.write_all(self.key.as_bytes())?;
        }
        w.write_all(b"\"")
    }

    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        self.fragments += 1;
        if self.fragments == 1 && fragment == P99_KEY {
            self.held = true;
            return Ok(());
        }
        self.release(w)?;
        w.write_all(fragment.as_bytes())
    }

    fn write_char_escape<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        escape: CharEscape,
    ) -> std::io::Result<()> {
        self.fragments += 1;
        self.release(w)?;
        self.pretty.write_char_escape(w, escape)
    }

    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.pretty.begin_array(w)
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.pretty.end_array(w)
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.pretty.begin_array_value(w, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.pretty.end_array_value(w)
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.pretty.begin_object(w)
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.pretty.end_object(w)
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.pretty.begin_object_key(w, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.pretty.begin_object_value(w)
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.pretty.end_object_value(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `value` written as the renderer writes, the tail's key `key`.
    fn written(value: &serde_json::Value, key: &str) -> String {
        let mut out = Vec::new();
        value
            .serialize(&mut serde_json::Serializer::with_formatter(
                &mut out,
                TailNamed::new(key),
            ))
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_tail_key_says_its_percentile() {
        let v = serde_json::json!({
            "a": {"clat_p99_ns": 5, "z": 1},
            "metrics": [{"metric": "clat_p99_ns"}, {"metric": "iops"}],
            "decided_by": "clat_p99_ns",
            "near": ["clat_p99_ns_x", "x_clat_p99_ns", "clat_p99_ns\"", "\"clat_p99_ns"]
        });
        let got = written(&v, "clat_p95_ns");
        let back: serde_json::Value = serde_json::from_str(&got).unwrap();
        assert_eq!(
            back,
            serde_json::json!({
                "a": {"clat_p95_ns": 5, "z": 1},
                "metrics": [{"metric": "clat_p95_ns"}, {"metric": "iops"}],
                "decided_by": "clat_p95_ns",
                "near": ["clat_p99_ns_x", "x_clat_p99_ns", "clat_p99_ns\"", "\"clat_p99_ns"]
            })
        );
        assert_eq!(got.matches("p99").count(), 4, "{got}");
        // The layout is serde_json's pretty one, byte for byte.
        let same = written(&v, P99_KEY);
        assert_eq!(same, serde_json::to_string_pretty(&v).unwrap());
    }
}
