//! JSON: the Comparison as serde writes it, the shape of docs/CONTRACT.md.
//! The tail metric's key says its percentile (issue #54): where the runs'
//! tail is p95, every `clat_p99_ns` key and metric name is `clat_p95_ns`,
//! and `tail_metric` names the key the report's tail is under.

use std::io::Write;

use serde_json::Value;

use super::Renderer;
use crate::compare::Comparison;
use crate::compare::workload::tail_key;

pub struct Json;

/// The key the comparison's types are written with for the tail.
const P99_KEY: &str = "clat_p99_ns";

impl Renderer for Json {
    fn render(&self, cmp: &Comparison, out: &mut dyn Write) -> anyhow::Result<()> {
        let mut v = serde_json::to_value(cmp)?;
        let key = tail_key(cmp.tail_percentile);
        if key != P99_KEY {
            rename_tail(&mut v, &key);
        }
        if let Value::Object(top) = &mut v {
            top.insert("tail_metric".into(), Value::String(key));
        }
        serde_json::to_writer_pretty(&mut *out, &v)?;
        out.write_all(b"\n")?;
        Ok(())
    }
}

/// Every `clat_p99_ns` in `v`, as a key or as a metric's name, renamed
/// `key`, order kept.
fn rename_tail(v: &mut Value, key: &str) {
    match v {
        Value::Object(map) => {
            if map.contains_key(P99_KEY) {
                let old = std::mem::take(map);
                for (k, mut inner) in old {
                    rename_tail(&mut inner, key);
                    let k = if k == P99_KEY { key.to_string() } else { k };
                    map.insert(k, inner);
                }
            } else {
                map.values_mut().for_each(|inner| rename_tail(inner, key));
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|inner| rename_tail(inner, key)),
        Value::String(s) if s == P99_KEY => *s = key.to_string(),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_key_says_its_percentile() {
        let mut v = serde_json::json!({
            "a": {"clat_p99_ns": 5, "z": 1},
            "metrics": [{"metric": "clat_p99_ns"}, {"metric": "iops"}],
            "decided_by": "clat_p99_ns"
        });
        rename_tail(&mut v, "clat_p95_ns");
        assert_eq!(
            v,
            serde_json::json!({
                "a": {"clat_p95_ns": 5, "z": 1},
                "metrics": [{"metric": "clat_p95_ns"}, {"metric": "iops"}],
                "decided_by": "clat_p95_ns"
            })
        );
        assert_eq!(v.to_string().find("p99"), None);
    }
}
