//! A file as the fio invocations it holds. A wrapper script's captured
//! output (`./bench.sh | tee results.txt`) is many runs one after another,
//! each in any of fio's formats, with the script's own lines between
//! them; each run is read alone, so separate invocations never become one
//! group_reporting run and each keeps its own numjobs.
//!
//! fio begins an invocation's output with its banner when it writes normal
//! text: the job header lines (`name: (g=0): rw=...`, init.c), its version
//! (`fio-3.33`) and `Starting N processes` (backend.c); client/server
//! output with `hostname=..., fio=...`. Then come the reports, in the
//! order `__show_run_stats` (stat.c) flushes its buffers: terse lines, the
//! JSON document, normal text. So a run starts at a banner, or at a terse
//! line or JSON document once the run before has reported, and ends where
//! the next starts. Lines before the first run are the script's: its
//! `KEY=value` lines are the file's setup facts (`Row::setup_facts`),
//! read by `identity::header_line`.
//!
//! The same run reported twice (`--append-terse`, `terse,normal`) is read
//! once: the normal text's rows (which name rw, bs, engine, depth and
//! numjobs) with the terse line's figures, which fio prints unrounded.

use std::collections::BTreeMap;

use super::{FileRead, Segment, SegmentKind, read_documents, read_text};
use crate::ingest::normal::NormalReader;
use crate::ingest::terse::{TerseReader, terse_version};
use crate::ingest::{Parsed, ReadError, Reader};
use crate::model::Row;
use crate::model::figures::DirectionFigures;

/// One fio invocation of a file: its parts, in order.
struct Invocation<'a> {
    segments: Vec<Segment<'a>>,
    /// Its JSON documents: their places among the file's.
    docs: Vec<usize>,
    /// What it holds so far.
    seen: Shown,
}

/// What a run has shown, which decides where the next one starts.
#[derive(Debug, Default, Clone, Copy)]
struct Shown {
    banner: bool,
    terse: bool,
    json: bool,
    normal: bool,
    /// A line that is neither terse nor blank after the last terse line:
    /// the next terse line is another invocation's (`--minimal` runs
    /// with a script's line between them).
    after_terse: bool,
}

impl Shown {
    fn reported(self) -> bool {
        self.terse || self.json || self.normal
    }

    /// Only JSON documents: what `--status-interval` snapshots are.
    fn json_only(self) -> bool {
        self.json && !self.banner && !self.terse && !self.normal
    }
}

/// What a line of text is to the split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineKind {
    Banner,
    Terse,
    /// A job's report (`name: (groupid=0, jobs=1): err= 0: ...`).
    Report,
    Blank,
    Other,
}

fn classify(line: &str) -> LineKind {
    // Client/server output puts the server's name before its lines.
    let t = match line.strip_prefix('<').and_then(|r| r.split_once("> ")) {
        Some((_, rest)) => rest,
        None => line,
    }
    .trim();
    if t.is_empty() {
        return LineKind::Blank;
    }
    let first = t.as_bytes()[0];
    if first.is_ascii_digit() && terse_version(t).is_some() {
        return LineKind::Terse;
    }
    if t.contains(": (groupid=") {
        return LineKind::Report;
    }
    let version = t.starts_with("fio-")
        && !t.contains(' ')
        && t[4..].starts_with(|c: char| c.is_ascii_digit());
    let starting = t.starts_with("Starting ") && (t.contains(" process") || t.contains(" thread"));
    let header = t.contains(": (g=") && t.contains("rw=");
    let client = t.starts_with("hostname=") && t.contains(", fio=");
    if version || starting || header || client {
        return LineKind::Banner;
    }
    LineKind::Other
}

/// The runs of a file and the facts its script printed before them.
struct Split<'a> {
    runs: Vec<Invocation<'a>>,
    facts: BTreeMap<String, String>,
}

fn split<'a>(segments: &[Segment<'a>]) -> Split<'a> {
    let mut out = Split {
        runs: Vec::new(),
        facts: BTreeMap::new(),
    };
    let mut doc = 0;
    for seg in segments {
        if seg.kind == SegmentKind::Json {
            let starts = out.runs.last().is_none_or(|r| r.seen.json || r.seen.normal);
            if starts {
                out.runs.push(Invocation::new());
            }
            if let Some(run) = out.runs.last_mut() {
                run.segments.push(*seg);
                run.docs.push(doc);
                run.seen.json = true;
            }
            doc += 1;
            continue;
        }
        split_text(seg, &mut out);
    }
    out
}

impl Invocation<'_> {
    fn new() -> Self {
        Invocation {
            segments: Vec::new(),
            docs: Vec::new(),
            seen: Shown::default(),
        }
    }
}

/// Cuts a text segment where runs start; its lines before the first run
/// are the script's, read for facts.
fn split_text<'a>(seg: &Segment<'a>, out: &mut Split<'a>) {
    let text = seg.text;
    let (mut piece, mut piece_line) = (0, seg.line);
    let mut at = 0;
    let mut line_no = seg.line;
    while at < text.len() {
        let end = memchr::memchr(b'\n', &text.as_bytes()[at..]).map_or(text.len(), |i| at + i + 1);
        let line = text[at..end].trim_end_matches('\n');
        let kind = classify(line);
        let seen = out.runs.last().map(|r| r.seen);
        let starts = match (kind, seen) {
            (LineKind::Banner | LineKind::Terse | LineKind::Report, None) => true,
            (LineKind::Banner, Some(s)) => s.reported(),
            (LineKind::Terse, Some(s)) => s.json || (s.terse && s.after_terse),
            _ => false,
        };
        if starts {
            close(out, &text[piece..at], piece_line);
            out.runs.push(Invocation::new());
            (piece, piece_line) = (at, line_no);
        }
        match out.runs.last_mut() {
            None => crate::ingest::identity::header_line(line, &mut out.facts),
            Some(run) => {
                let s = &mut run.seen;
                match kind {
                    LineKind::Banner => s.banner = true,
                    LineKind::Terse => (s.terse, s.after_terse) = (true, false),
                    LineKind::Report => (s.normal, s.after_terse) = (true, s.terse),
                    LineKind::Other => s.after_terse = s.terse,
                    LineKind::Blank => {}
                }
            }
        }
        at = end;
        line_no += 1;
    }
    close(out, &text[piece..], piece_line);
}

/// Hands a piece of text to the run it belongs to (none: the script's).
fn close<'a>(out: &mut Split<'a>, text: &'a str, line: usize) {
    if text.trim().is_empty() {
        return;
    }
    if let Some(run) = out.runs.last_mut() {
        run.segments.push(Segment {
            kind: SegmentKind::Text,
            text,
            line,
        });
    }
}

/// Reads a file's segments (`leading`: its JSON documents already read,
/// one entry each) run by run, and sets every row's `file_run` (when
/// there are several) and `setup_facts`.
pub(super) fn read(
    segments: &[Segment<'_>],
    leading: Vec<Option<Parsed>>,
    warnings: &mut Vec<String>,
) -> FileRead {
    let split = split(segments);
    let mut file = if split.runs.len() <= 1 {
        let mut file = read_documents(segments, leading, warnings);
        if file.parsed.rows.is_empty() {
            read_text(segments, &mut file);
        }
        file
    } else {
        read_each(split.runs, leading, warnings)
    };
    if !split.facts.is_empty() {
        let facts = serde_json::to_string(&split.facts).ok();
        for r in &mut file.parsed.rows {
            r.setup_facts.clone_from(&facts);
        }
    }
    file
}

/// Each run read alone; `--status-interval` snapshots (JSON documents of
/// the same jobs, one after another, whose runtime grows with the clock)
/// count once, the last.
fn read_each(
    runs: Vec<Invocation<'_>>,
    leading: Vec<Option<Parsed>>,
    warnings: &mut Vec<String>,
) -> FileRead {
    let mut leading: Vec<Option<Parsed>> = leading;
    let mut read: Vec<(Invocation<'_>, FileRead)> = Vec::with_capacity(runs.len());
    for run in runs {
        let lead = run
            .docs
            .iter()
            .map(|&i| leading.get_mut(i).and_then(Option::take))
            .collect();
        let mut file = read_documents(&run.segments, lead, warnings);
        if file.parsed.rows.is_empty() {
            read_text(&run.segments, &mut file);
        }
        match read.last_mut() {
            Some((prev, before))
                if prev.seen.json_only()
                    && run.seen.json_only()
                    && before.parsed.run.is_some()
                    && before.parsed.run == file.parsed.run
                    && is_snapshot(&before.parsed.rows, &file.parsed.rows) =>
            {
                *before = file;
            }
            _ => read.push((run, file)),
        }
    }
    let several = read
        .iter()
        .filter(|(_, f)| !f.parsed.rows.is_empty())
        .count()
        > 1;
    let mut out = FileRead::default();
    let any_rows = read.iter().any(|(_, f)| !f.parsed.rows.is_empty());
    for (n, (run, mut file)) in read.into_iter().enumerate() {
        let n = n as u32 + 1;
        out.documents += file.documents;
        out.parsed.warnings.append(&mut file.parsed.warnings);
        if file.parsed.rows.is_empty() {
            let line = run.segments.first().map_or(0, |s| s.line);
            match file.first_error {
                Some(e) if any_rows => warnings.push(format!("run {n} (line {line}): {e}; not read")),
                Some(e) => {
                    out.first_error.get_or_insert(e);
                }
                None if any_rows => warnings.push(format!(
                    "run {n} (line {line}): fio's banner without any report after it (the run stopped before it reported); not read"
                )),
                None => {}
            }
            continue;
        }
        if let Some(e) = file.first_error {
            warnings.push(format!("run {n}: {e}; not read"));
        }
        for r in &mut file.parsed.rows {
            r.file_run = several.then_some(n);
        }
        super::join_rows(&mut out.parsed.rows, std::mem::take(&mut file.parsed.rows));
    }
    out
}

/// Whether `next` is a later snapshot of the run `prev` reported: its
/// runtime grew by at least half the time that passed between the two
/// (a new run of the same jobs starts its runtime again). Without
/// timestamps, a snapshot, as before files held several runs.
fn is_snapshot(prev: &[Row], next: &[Row]) -> bool {
    let clock = |rows: &[Row]| {
        rows.iter()
            .filter_map(|r| r.timestamp_ms.or(r.timestamp.map(|s| s * 1000)))
            .max()
    };
    let runtime = |rows: &[Row]| rows.iter().map(|r| r.runtime_ms).fold(0.0, f64::max);
    match (clock(prev), clock(next)) {
        (Some(a), Some(b)) => {
            let passed = (b - a) as f64;
            runtime(next) - runtime(prev) >= passed / 2.0
        }
        _ => true,
    }
}

/// One text segment holding both normal text and terse lines (fio's
/// `--append-terse`, `--output-format=terse,normal`): one run reported
/// twice, read once. `None` when it holds only one of them.
pub(super) fn normal_and_terse(text: &str) -> Option<Result<Parsed, ReadError>> {
    if !(NormalReader.sniff(text) && TerseReader.sniff(text)) {
        return None;
    }
    Some(match (NormalReader.read(text), TerseReader.read(text)) {
        (Ok(normal), Ok(terse)) => Ok(merge(normal, terse)),
        (Ok(one), Err(_)) | (Err(_), Ok(one)) => Ok(one),
        (Err(e), Err(_)) => Err(e),
    })
}

/// The format of a row read from both outputs.
const BOTH: &str = "terse+normal";

/// Normal text's rows with the terse line's figures, each matched by job
/// name and direction and recognised by its I/O and runtime; terse rows
/// of jobs the normal text lacks (a report cut short) are kept.
fn merge(mut normal: Parsed, terse: Parsed) -> Parsed {
    let mut used = vec![false; terse.rows.len()];
    let mut merged: Vec<(String, crate::model::Direction)> = Vec::new();
    for n in normal.rows.iter_mut().filter(|r| !r.aggregate) {
        let found = terse.rows.iter().enumerate().position(|(i, t)| {
            !used[i] && t.job == n.job && t.direction == n.direction && same_run(n, t)
        });
        let Some(i) = found else { continue };
        used[i] = true;
        DirectionFigures::copy(&terse.rows[i], n);
        n.usr_cpu_pct = terse.rows[i].usr_cpu_pct;
        n.sys_cpu_pct = terse.rows[i].sys_cpu_pct;
        n.format = BOTH.into();
        merged.push((n.job.clone(), n.direction));
    }
    // Notes of figures normal text printed wrong are moot where terse's
    // replaced them.
    normal.warnings.retain(|w| {
        !merged.iter().any(|(job, dir)| {
            w.starts_with(&format!("job {job}: {dir} ")) && w.contains(" printed as ")
        })
    });
    let named: Vec<&str> = normal.rows.iter().map(|r| r.job.as_str()).collect();
    let extra: Vec<Row> = terse
        .rows
        .iter()
        .zip(&used)
        .filter(|(t, used)| !**used && !named.contains(&t.job.as_str()))
        .map(|(t, _)| t.clone())
        .collect();
    if !extra.is_empty() {
        normal.warnings.extend(
            terse
                .warnings
                .iter()
                .filter(|w| extra.iter().any(|t| w.contains(&format!("`{}`", t.job))))
                .cloned(),
        );
        normal.rows.extend(extra);
    }
    normal
}

/// Whether a terse row reports the same run as a normal-text one: the
/// same runtime (both whole msec) and I/O (terse's truncated to KiB,
/// normal text's perhaps rounded to three digits).
fn same_run(normal: &Row, terse: &Row) -> bool {
    let io = (normal.io_bytes as f64 - terse.io_bytes as f64).abs();
    (normal.runtime_ms - terse.runtime_ms).abs() <= 1.0
        && io <= 1024.0 + normal.io_bytes as f64 * 0.005
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::decode;

    fn runs(text: &str) -> Vec<Vec<String>> {
        let segs = decode::segments(text);
        split(&segs)
            .runs
            .iter()
            .map(|r| {
                r.segments
                    .iter()
                    .map(|s| s.text.trim().to_string())
                    .collect()
            })
            .collect()
    }

    const TERSE: &str = "3;fio-3.33;j;0;0;47996;47948;11987;1001;0;0;0.000000;0.000000;35;20350;82.615655;266.861994;1.000000%=44;5.000000%=46;10.000000%=48;20.000000%=51;30.000000%=55;40.000000%=59;50.000000%=62;60.000000%=64;70.000000%=69;80.000000%=76;90.000000%=103;95.000000%=134;99.000000%=272;99.500000%=391;99.900000%=4046;99.950000%=4112;99.990000%=6979;0%=0;0%=0;0%=0;35;20350;82.676145;266.865361;43472;43472;90.664887%;43472.000000;0.000000;0;0;0;0;0;0;0.000000;0.000000;0;0;0.000000;0.000000;1.000000%=0;5.000000%=0;10.000000%=0;20.000000%=0;30.000000%=0;40.000000%=0;50.000000%=0;60.000000%=0;70.000000%=0;80.000000%=0;90.000000%=0;95.000000%=0;99.000000%=0;99.500000%=0;99.900000%=0;99.950000%=0;99.990000%=0;0%=0;0%=0;0%=0;0;0;0.000000;0.000000;0;0;0.000000%;0.000000;0.000000;0.300000%;35.500000%;11967;0;11;100.0%;0.0%;0.0%;0.0%;0.0%;0.0%;0.0%;0.00%;0.00%;0.00%;0.00%;13.98%;75.39%;9.56%;0.66%;0.08%;0.03%;0.06%;0.12%;0.13%;0.00%;0.01%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;0.00%;vda;11889;17;0;51;794;271;1066;70.07%";

    #[test]
    fn a_script_log_splits_at_each_banner_and_keeps_its_facts() {
        let run = format!(
            "Running: fio a.fio\nj: (g=0): rw=randread, bs=(R) 4096B-4096B, ioengine=psync, iodepth=1\nfio-3.33\nStarting 1 process\n{TERSE}\n\nj: (groupid=0, jobs=1): err= 0: pid=1\n  read: IOPS=12.0k\n"
        );
        let text = format!(
            "TEST_NAME=9p-none\nRUNTIME=20 LOOPS=3\nSYSTEMINFO=Linux h 5.10.0-rc1+ #1 SMP\n{run}{run}"
        );
        let segs = decode::segments(&text);
        let s = split(&segs);
        assert_eq!(s.runs.len(), 2);
        // The `Running:` line before the second banner ends the first run.
        assert!(s.runs[0].segments[0].text.starts_with("j: (g=0)"));
        assert!(s.runs[0].segments[0].text.ends_with("Running: fio a.fio\n"));
        assert_eq!(s.runs[1].segments[0].line, 13);
        let facts: Vec<(&str, &str)> = s
            .facts
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            facts,
            [
                ("LOOPS", "3"),
                ("RUNTIME", "20"),
                ("SYSTEMINFO", "Linux h 5.10.0-rc1+ #1 SMP"),
                ("TEST_NAME", "9p-none")
            ]
        );
    }

    #[test]
    fn terse_lines_json_and_reports_start_runs_only_after_a_report() {
        // `--minimal` runs with a script's line between: two runs; terse
        // lines of one run's jobs one after another: one.
        assert_eq!(
            runs(&format!("{TERSE}\n{TERSE}\necho next\n{TERSE}\n")).len(),
            2
        );
        // `json,normal`: banner, document, text: one run; then another.
        let one = "j: (g=0): rw=read, bs=4k\nfio-3.33\nStarting 1 process\n{\n\"jobs\": []\n}\nj: (groupid=0, jobs=1): err= 0: pid=1\n";
        assert_eq!(runs(&format!("{one}{one}")).len(), 2);
        // Documents one after another: each a run (snapshots are told
        // apart when read).
        assert_eq!(runs("{\"a\": 1}\n{\"a\": 1}\n").len(), 2);
        // A report with nothing before it is a run; status-interval
        // reports after it are the same run.
        let r = "j: (groupid=0, jobs=1): err= 0: pid=1\n  read: IOPS=1\n";
        assert_eq!(runs(&format!("{r}{r}")).len(), 1);
    }
}
