//! DiskSpd's XML output (`-Rxml`, microsoft/diskspd `XmlResultParser.cpp`
//! and the profile's own XML in `Common.cpp`) as [`Timespan`]s.
//!
//! A document is `<Results>` with `<System>` (the tool's version), the
//! `<Profile>` that ran (per timespan, its targets' block size, write
//! ratio, `-o`, `-t`, random or sequential) and one results `<TimeSpan>`
//! per profile timespan: per-thread, per-target counts, `<CpuUtilization>`,
//! the whole run's `<Latency>` (means and percentile buckets, `-L`) and
//! `<Iops>` (per-interval I/O rates, `-D`). Elements a version lacks are
//! optional; unknown ones are ignored. Several documents in one file (runs
//! appended to one log) are each read.
//!
//! The XML is parsed by quick-xml into a small element tree: the documents
//! are a few hundred kilobytes, and a tree keeps the mapping readable.

use quick_xml::events::Event;

use super::{Count, DirCount, TargetSpec, Timespan, rows};
use crate::ingest::{Parsed, ReadError, Reader};

/// Reads DiskSpd's XML output.
pub struct XmlReader;

const FORMAT: &str = "diskspd-xml";

impl Reader for XmlReader {
    fn name(&self) -> &'static str {
        FORMAT
    }

    fn sniff(&self, text: &str) -> bool {
        text.contains("<Results>") && (text.contains("<TimeSpan>") || text.contains("<Profile>"))
    }

    fn read_segment(&self, text: &str) -> Result<Parsed, ReadError> {
        let malformed = |reason: String| ReadError::Malformed {
            format: "DiskSpd XML",
            reason,
        };
        let (docs, error) = parse(text);
        let results: Vec<&Node> = docs.iter().filter(|n| n.name == "Results").collect();
        let mut parsed = Parsed::default();
        for doc in &results {
            let runs = read_results(doc).map_err(malformed)?;
            for run in runs {
                parsed.rows.extend(rows(&run, &mut parsed.warnings));
                parsed.warnings.extend(run.warnings);
            }
        }
        match error {
            Some(e) if parsed.rows.is_empty() => Err(malformed(e)),
            Some(e) => {
                parsed.warnings.push(format!(
                    "DiskSpd XML after the last complete <Results>: {e}; not read"
                ));
                Ok(parsed)
            }
            None if results.is_empty() => Err(malformed("no <Results> element".into())),
            None => Ok(parsed),
        }
    }
}

/// One results document's timespans, each with its profile.
fn read_results(doc: &Node) -> Result<Vec<Timespan>, String> {
    let version = doc
        .text_at(&["System", "Tool", "Version"])
        .map(str::to_string);
    let profiles: Vec<&Node> = doc
        .child("Profile")
        .and_then(|p| p.child("TimeSpans"))
        .map(|t| t.children("TimeSpan").collect())
        .unwrap_or_default();
    let spans: Vec<&Node> = doc.children("TimeSpan").collect();
    if spans.is_empty() {
        return Err("no results <TimeSpan> (the run was cut short?)".into());
    }
    spans
        .iter()
        .enumerate()
        .map(|(i, span)| {
            let profile = profiles.get(i).or(profiles.last()).copied();
            let mut run = read_span(span, profile, i)?;
            run.version.clone_from(&version);
            Ok(run)
        })
        .collect()
}

fn read_span(span: &Node, profile: Option<&Node>, index: usize) -> Result<Timespan, String> {
    let time_s = span.num("TestTimeSeconds").ok_or("no <TestTimeSeconds>")?;
    if !(time_s.is_finite() && time_s > 0.0) {
        return Err(format!("<TestTimeSeconds> {time_s} is not a positive time"));
    }
    let mut run = Timespan {
        format: FORMAT,
        os: crate::model::Os::Windows,
        engine: "iocp".into(),
        name: format!("timespan {}", index + 1),
        time_s,
        time_step_s: 0.01,
        ..Timespan::default()
    };
    if let Some(p) = profile {
        run.targets = p
            .child("Targets")
            .map(|t| t.children("Target").map(target_spec).collect())
            .unwrap_or_default();
        run.interval_ms = p.num("IoBucketDuration").map(|v| v as u32);
        // `-F`: a pool of threads, each on every target; `<ThreadsPerFile>`
        // keeps its default of 1 then.
        if let Some(pool) = p.num("ThreadCount").filter(|n| *n > 0.0) {
            for t in &mut run.targets {
                t.threads_per_file = Some(pool as u32);
            }
        }
        if p.text("CompletionRoutines") == Some("true") {
            run.engine = "completion routines".into();
        }
    }
    run.cpu_usage_pct = span
        .child("CpuUtilization")
        .and_then(|c| c.child("Average"))
        .and_then(|a| a.num("UsagePercent"));
    for thread in span.children("Thread") {
        let id = thread.num("Id").map_or(0, |v| v as u32);
        for target in thread.children("Target") {
            run.counts.push(count(id, target));
        }
    }
    whole_run(span, &mut run);
    Ok(run)
}

fn target_spec(t: &Node) -> TargetSpec {
    TargetSpec {
        path: t.text("Path").unwrap_or_default().to_string(),
        block_size: t.num("BlockSize").map_or(0, |v| v as u64),
        write_ratio: t.num("WriteRatio").map_or(0, |v| v as u32),
        // `<Random>` (the alignment) marks random offsets; `<RandomAccess>`
        // is only a caching hint to Windows and says nothing of the pattern.
        random: t.child("Random").is_some(),
        outstanding: t.num("RequestCount").map_or(1, |v| v as u32),
        threads_per_file: t.num("ThreadsPerFile").map(|v| v as u32),
        direct: Some(t.text("DisableOSCache") == Some("true")),
    }
}

/// One thread's counts on one target.
fn count(thread: u32, t: &Node) -> Count {
    let dir = |bytes: &str, ios: &str, lat: &str, sd: &str, iops_sd: &str| DirCount {
        bytes: t.num(bytes).map_or(0, |v| v as u64),
        ios: t.num(ios).map_or(0, |v| v as u64),
        iops: None,
        lat_mean_ms: t.num(lat),
        lat_stddev_ms: t.num(sd),
        iops_stddev: t.child("Iops").and_then(|i| i.num(iops_sd)),
    };
    Count {
        thread,
        path: t.text("Path").unwrap_or_default().to_string(),
        dir: [
            dir(
                "ReadBytes",
                "ReadCount",
                "AverageReadLatencyMilliseconds",
                "ReadLatencyStdev",
                "ReadIopsStdDev",
            ),
            dir(
                "WriteBytes",
                "WriteCount",
                "AverageWriteLatencyMilliseconds",
                "WriteLatencyStdev",
                "WriteIopsStdDev",
            ),
        ],
        buckets: t.child("Iops").map(buckets).unwrap_or_default(),
    }
}

/// `<Iops><Bucket Read=".." Write=".."/>`: each interval's I/O rate.
fn buckets(iops: &Node) -> Vec<[f64; 2]> {
    iops.rates.iter().map(Rate::rates).collect()
}

/// The timespan's `<Latency>` (means, spread, percentiles over every
/// target) and `<Iops>` (per-interval rates over every target).
fn whole_run(span: &Node, run: &mut Timespan) {
    if let Some(lat) = span.child("Latency") {
        let names = [
            (
                "AverageReadMilliseconds",
                "ReadLatencyStdev",
                "ReadMilliseconds",
            ),
            (
                "AverageWriteMilliseconds",
                "WriteLatencyStdev",
                "WriteMilliseconds",
            ),
        ];
        for (d, (mean, sd, col)) in names.into_iter().enumerate() {
            let totals = &mut run.totals[d];
            totals.count.lat_mean_ms = lat.num(mean);
            totals.count.lat_stddev_ms = lat.num(sd);
            totals.percentiles = lat
                .children("Bucket")
                .filter_map(|b| Some((b.num("Percentile")?, b.num(col)?)))
                .collect();
        }
    }
    if let Some(iops) = span.child("Iops") {
        let series = buckets(iops);
        for (d, sd) in ["ReadIopsStdDev", "WriteIopsStdDev"]
            .into_iter()
            .enumerate()
        {
            run.totals[d].count.iops_stddev = iops.num(sd);
            run.totals[d].buckets = series.iter().map(|b| b[d]).collect();
        }
    }
}

/// One thread's `-D` intervals on one target: DiskSpd's per-interval I/O
/// rates, read and write, at the end of each interval.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Intervals {
    /// The results timespan, from 1 (the rows' `job` is `timespan N`).
    pub timespan: usize,
    pub thread: u32,
    pub path: String,
    /// `-D`'s interval, ms.
    pub interval_ms: Option<u64>,
    /// (ms since the measurement began, [read, write] I/Os per second).
    pub points: Vec<(u64, [f64; 2])>,
}

/// Every thread's and target's `-D` intervals in an XML result (none
/// without `-D`, or in text output, which prints only their spread).
pub(crate) fn intervals(text: &str) -> Vec<Intervals> {
    let (docs, _) = parse(text);
    let mut out = Vec::new();
    for doc in docs.iter().filter(|n| n.name == "Results") {
        let profiles: Vec<&Node> = doc
            .child("Profile")
            .and_then(|p| p.child("TimeSpans"))
            .map(|t| t.children("TimeSpan").collect())
            .unwrap_or_default();
        for (i, span) in doc.children("TimeSpan").enumerate() {
            let interval_ms = profiles
                .get(i)
                .and_then(|p| p.num("IoBucketDuration"))
                .map(|v| v as u64);
            for thread in span.children("Thread") {
                for target in thread.children("Target") {
                    let Some(iops) = target.child("Iops") else {
                        continue;
                    };
                    let points: Vec<(u64, [f64; 2])> = iops
                        .rates
                        .iter()
                        .filter(|b| !b.ms.is_nan())
                        .map(|b| (b.ms as u64, b.rates()))
                        .collect();
                    if !points.is_empty() {
                        out.push(Intervals {
                            timespan: i + 1,
                            thread: thread.num("Id").map_or(0, |v| v as u32),
                            path: target.text("Path").unwrap_or_default().to_string(),
                            interval_ms,
                            points,
                        });
                    }
                }
            }
        }
    }
    out
}

/// An XML element with what DiskSpd's documents use: attributes, text,
/// children.
#[derive(Debug, Default)]
struct Node {
    name: String,
    attrs: Vec<(String, String)>,
    text: String,
    children: Vec<Node>,
    /// An `<Iops>`'s `<Bucket>`s, kept as numbers, not elements: `-D`
    /// writes one per interval, thread and target, each with a dozen
    /// attributes; as elements a 215 MB result took 1.1 to 1.5 GB, as
    /// numbers its buckets take a few MB (benches/diskspd-xml.md).
    rates: Vec<Rate>,
}

/// One `<Iops><Bucket SampleMillisecond=".." Read=".." Write=".."/>`;
/// NaN where an attribute is missing or no number (24 bytes a bucket,
/// where `Option`s would take 48).
#[derive(Debug, Clone, Copy)]
struct Rate {
    ms: f64,
    read: f64,
    write: f64,
}

impl Rate {
    fn of(bucket: &Node) -> Rate {
        let v = |k: &str| {
            bucket
                .attr(k)
                .and_then(|v| v.parse::<f64>().ok())
                .unwrap_or(f64::NAN)
        };
        Rate {
            ms: v("SampleMillisecond"),
            read: v("Read"),
            write: v("Write"),
        }
    }

    /// Its rates, [read, write], 0 where missing.
    fn rates(&self) -> [f64; 2] {
        let or_0 = |v: f64| if v.is_nan() { 0.0 } else { v };
        [or_0(self.read), or_0(self.write)]
    }
}

impl Node {
    fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    fn children<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Node> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    fn text(&self, name: &str) -> Option<&str> {
        self.child(name).map(|c| c.text.trim())
    }

    fn text_at(&self, path: &[&str]) -> Option<&str> {
        let mut node = self;
        for name in path {
            node = node.child(name)?;
        }
        Some(node.text.trim())
    }

    fn num(&self, name: &str) -> Option<f64> {
        self.text(name)?
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
    }

    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The top-level elements of `text`, and the error that stopped the parse
/// (a truncated file keeps the documents before it).
fn parse(text: &str) -> (Vec<Node>, Option<String>) {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut stack: Vec<Node> = Vec::new();
    let mut done: Vec<Node> = Vec::new();
    loop {
        let event = match reader.read_event() {
            Ok(e) => e,
            Err(e) => {
                let at = reader.error_position() as usize;
                let cut = !text.get(at..).unwrap_or_default().contains('>');
                let hint = if cut { " (a truncated file?)" } else { "" };
                return (done, Some(format!("at byte {at}: {e}{hint}")));
            }
        };
        match event {
            Event::Start(e) => stack.push(element(&e)),
            Event::Empty(e) => close(element(&e), &mut stack, &mut done),
            Event::End(_) => match stack.pop() {
                Some(node) => close(node, &mut stack, &mut done),
                None => return (done, Some("a closing tag without its opening tag".into())),
            },
            Event::Text(t) => {
                // Leading whitespace is no element's text (it was megabytes
                // between `-D` buckets); text() trims it anyway.
                if let (Some(top), Ok(s)) = (stack.last_mut(), t.xml_content())
                    && !(top.text.is_empty() && s.trim().is_empty())
                {
                    top.text.push_str(&s);
                }
            }
            Event::GeneralRef(r) => {
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&entity(&r));
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let error = stack
        .last()
        .map(|n| format!("<{}> is never closed (a truncated file?)", n.name));
    (done, error)
}

fn close(node: Node, stack: &mut [Node], done: &mut Vec<Node>) {
    match stack.last_mut() {
        Some(parent) if parent.name == "Iops" && node.name == "Bucket" => {
            parent.rates.push(Rate::of(&node));
        }
        Some(parent) => parent.children.push(node),
        None => done.push(node),
    }
}

fn element(e: &quick_xml::events::BytesStart<'_>) -> Node {
    let attrs = e
        .attributes()
        .flatten()
        .map(|a| {
            let key = String::from_utf8_lossy(a.key.as_ref()).into_owned();
            let value = a
                .unescape_value()
                .map(|v| v.into_owned())
                .unwrap_or_default();
            (key, value)
        })
        .collect();
    Node {
        name: String::from_utf8_lossy(e.name().as_ref()).into_owned(),
        attrs,
        ..Node::default()
    }
}

/// `&amp;` and friends, and character references, in element text.
fn entity(r: &quick_xml::events::BytesRef<'_>) -> String {
    if let Ok(Some(c)) = r.resolve_char_ref() {
        return c.to_string();
    }
    let name = r.decode().unwrap_or_default();
    match name.as_ref() {
        "amp" => "&",
        "lt" => "<",
        "gt" => ">",
        "quot" => "\"",
        "apos" => "'",
        _ => "",
    }
    .to_string()
}

#[cfg(test)]
mod tests;
