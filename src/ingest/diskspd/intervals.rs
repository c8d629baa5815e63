//! DiskSpd's `-D` intervals as the series dataset: each thread's I/O rate
//! per interval on each target, from the XML results ingest read, as
//! `iops` rows tied to their result and timespan like fio's iops logs are
//! to their job. `ingest --series` writes them and `analyze` draws them
//! (`timeseries_*`), jobs summed per bucket as for fio's clones.
//!
//! Only XML has them: DiskSpd's text prints the intervals' standard
//! deviation, not the intervals.

use std::path::Path;

use crate::ingest::Ingested;
use crate::model::{Direction, Warning};
use crate::timeseries::{Kind, LogInfo, SeriesRow};

/// One thread's intervals on one target: what it is, and its rows (their
/// `log` index still to be set by whoever places the info).
pub(crate) type Trace = (LogInfo, Vec<SeriesRow>);

/// The intervals of every DiskSpd XML result `ingested` read.
pub(crate) fn traces(ingested: &Ingested) -> (Vec<Trace>, Vec<Warning>) {
    let mut sources: Vec<(&str, &str)> = Vec::new();
    for r in ingested.rows.iter().filter(|r| r.format == "diskspd-xml") {
        if !sources.iter().any(|(s, _)| *s == r.source) {
            sources.push((&r.source, &r.config));
        }
    }
    let mut traces = Vec::new();
    let mut warnings = Vec::new();
    for (source, label) in sources {
        let text = std::fs::read(Path::new(source))
            .map_err(|e| e.to_string())
            .and_then(|b| {
                crate::ingest::decode::decode(&b)
                    .map(|t| t.into_owned())
                    .map_err(|e| e.to_string())
            });
        match text {
            Ok(text) => traces.extend(of_file(source, label, &text)),
            Err(e) => warnings.push(Warning {
                source: source.to_string(),
                message: format!("DiskSpd intervals not read: {e}"),
            }),
        }
    }
    (traces, warnings)
}

fn of_file(source: &str, label: &str, text: &str) -> Vec<Trace> {
    super::xml::intervals(text)
        .into_iter()
        .map(|iv| {
            let info = LogInfo {
                source: source.to_string(),
                result: Some(source.to_string()),
                label: label.to_string(),
                job: format!("timespan {}", iv.timespan),
                job_index: Some(iv.thread),
                host: None,
                kind: Kind::Iops,
                window_ms: iv.interval_ms,
            };
            let did = |d: usize| iv.points.iter().any(|(_, v)| v[d] > 0.0);
            let mut rows = Vec::new();
            for (d, dir) in [Direction::Read, Direction::Write]
                .into_iter()
                .enumerate()
                .filter(|(d, _)| did(*d))
            {
                rows.extend(
                    iv.points
                        .iter()
                        .map(|(t, v)| SeriesRow::new(0, dir, *t, v[d])),
                );
            }
            (info, rows)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_thread_and_target_is_a_trace_of_its_intervals() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/diskspd/windows/v2.0.21a-randrw70-4k-o1-t1-L-D.xml");
        let text = std::fs::read_to_string(&path).unwrap();
        let traces = of_file("f.xml", "cfg", &text);
        let [(info, rows)] = traces.as_slice() else {
            panic!("{traces:?}")
        };
        assert_eq!(
            (info.job.as_str(), info.job_index, info.kind, info.window_ms),
            ("timespan 1", Some(0), Kind::Iops, Some(1000))
        );
        let reads: Vec<&SeriesRow> = rows
            .iter()
            .filter(|r| r.direction == Direction::Read)
            .collect();
        assert_eq!(reads.len(), 120);
        assert_eq!((reads[0].t_ms, reads[0].value), (1000, 332.0));
        // The whole intervals add up to the run's reads (rates of 1 s
        // intervals), but for the few in the last 10 ms of its 120.01 s.
        let total: f64 = reads.iter().map(|r| r.value).sum();
        let count = super::super::tests::xml_num(&text, "ReadCount", 0).unwrap();
        assert!(
            total <= count && count - total < 332.0 * 0.01 + 1.0,
            "{total} vs {count}"
        );
        // Text output has no intervals.
        assert!(super::super::xml::intervals("Input parameters:\n").is_empty());
    }
}
