//! DiskSpd's text output (`-Rtext`, the default) as [`Timespan`]s: Windows
//! DiskSpd 2.0.x to 2.2 (microsoft/diskspd `ResultParser.cpp`) and the
//! Linux port (microsoft/diskspd-for-linux `result_formatter.cc`).
//!
//! The layout moves between versions: columns come and go with `-L` and
//! `-D`, the port puts `IopsStdDev` before `AvgLat(ms)` and adds an
//! `IO Wait` CPU column, 2.2 adds `Socket`/`Node`/`Core` CPU columns. So
//! every table is read by its header names, never by position. A capture
//! may hold several runs (a script appending to one log) and text before
//! them (a console's preamble, warnings); each `Command Line:` (or,
//! without one, each `Input parameters:`) starts a run.
//!
//! Text output never prints DiskSpd's version: the family is inferred from
//! the layout (`MB/s` headers before 2.0.18, the 2.2 CPU table) and the
//! version column says so.

use super::{Count, DirCount, Percentiles, TargetSpec, Timespan, parse_size, rows};
use crate::ingest::{Parsed, ReadError, Reader};
use crate::model::Os;

/// Reads DiskSpd's text output.
pub struct TextReader;

const FORMAT: &str = "diskspd-text";

impl Reader for TextReader {
    fn name(&self) -> &'static str {
        FORMAT
    }

    fn sniff(&self, text: &str) -> bool {
        (text.contains("Results for timespan") || text.contains("Results for job"))
            && (text.contains("Input parameters:") || text.contains("I/O per s"))
    }

    fn read_segment(&self, text: &str) -> Result<Parsed, ReadError> {
        let mut parsed = Parsed::default();
        let mut first_error = None;
        for (n, chunk) in captures(text).into_iter().enumerate() {
            match read_capture(chunk) {
                Ok(runs) => {
                    for run in runs {
                        parsed.rows.extend(rows(&run, &mut parsed.warnings));
                        parsed.warnings.extend(run.warnings);
                    }
                }
                Err(reason) if first_error.is_none() => first_error = Some(reason),
                Err(reason) => parsed
                    .warnings
                    .push(format!("DiskSpd run {}: {reason}; not read", n + 1)),
            }
        }
        match first_error {
            Some(reason) if parsed.rows.is_empty() => Err(ReadError::Malformed {
                format: "DiskSpd text",
                reason,
            }),
            Some(reason) => {
                parsed
                    .warnings
                    .insert(0, format!("a DiskSpd run: {reason}; not read"));
                Ok(parsed)
            }
            None => Ok(parsed),
        }
    }
}

/// The runs of a capture, each from its `Command Line:` (or its `Input
/// parameters:` when the command line was not captured) to the next.
fn captures(text: &str) -> Vec<&str> {
    let mut starts = Vec::new();
    let mut seen_params = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if t.starts_with("Command Line:") {
            starts.push(offset);
            seen_params = false;
        } else if t == "Input parameters:" {
            if seen_params || starts.is_empty() {
                starts.push(offset);
            }
            seen_params = true;
        }
        offset += line.len();
    }
    if starts.is_empty() {
        // Neither a command line nor parameters were captured: the results alone.
        starts.push(0);
    }
    let mut out = Vec::new();
    for (i, &s) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        out.push(&text[s..end]);
    }
    out
}

/// One run's timespans (DiskSpd `-X` profiles can hold several).
fn read_capture(chunk: &str) -> Result<Vec<Timespan>, String> {
    let lines: Vec<&str> = chunk.lines().collect();
    let results: Vec<usize> = positions(&lines, |t| {
        t.starts_with("Results for timespan") || t.starts_with("Results for job")
    });
    let Some(&first_result) = results.first() else {
        return Err("no \"Results for timespan\" section (the run was cut short?)".into());
    };
    let mut specs = read_params(&lines[..first_result]);
    if specs.iter().all(|s| s.targets.is_empty()) {
        // Parameters not captured (or cut by whoever shared the output):
        // the command line says the same for the common flags.
        let cmd = lines
            .iter()
            .find_map(|l| l.trim().strip_prefix("Command Line:"));
        specs = vec![Spec {
            targets: cmd.map(command_line_targets).unwrap_or_default(),
            interval_ms: cmd.and_then(command_line_interval),
            ..Spec::default()
        }];
    }
    let linux =
        lines.iter().any(|l| l.trim() == "System info:") || lines[first_result].contains("job");
    let unknown = specs.iter().all(|s| s.targets.is_empty());
    let family = family(&lines, linux);
    let engine = engine(chunk, linux);
    let mut runs = Vec::new();
    for (i, &start) in results.iter().enumerate() {
        let end = results.get(i + 1).copied().unwrap_or(lines.len());
        let spec = specs.get(i).or(specs.last()).cloned().unwrap_or_default();
        let mut run = read_results(&lines[start..end], spec)?;
        run.version = Some(family.clone());
        run.os = if linux { Os::Linux } else { Os::Windows };
        run.engine = engine.clone();
        if unknown {
            run.warnings.push(format!(
                "{}: neither the input parameters nor the command line were captured, so -b, -o, \
                 -t, -w and random or sequential are unknown (block size from bytes per I/O)",
                run.name
            ));
        }
        runs.push(run);
    }
    Ok(runs)
}

fn positions(lines: &[&str], pred: impl Fn(&str) -> bool) -> Vec<usize> {
    (0..lines.len())
        .filter(|&i| pred(lines[i].trim()))
        .collect()
}

/// The version family the layout shows (text output never prints the version).
fn family(lines: &[&str], linux: bool) -> String {
    let family = if linux {
        "Linux port"
    } else if lines
        .iter()
        .any(|l| l.contains("| Kernel |") || l.trim() == "Total latency distribution:")
    {
        "2.2 or later"
    } else if lines
        .iter()
        .any(|l| l.trim_start().starts_with("thread |") && l.contains(" MB/s "))
    {
        "2.0.17 or earlier"
    } else {
        "2.0.18 to 2.1"
    };
    format!("{family} (from the text layout)")
}

/// The I/O interface: I/O completion ports on Windows (completion
/// routines with `-x`), kernel AIO in the port (POSIX AIO with `-xp`).
fn engine(chunk: &str, linux: bool) -> String {
    let cmd = chunk
        .lines()
        .find(|l| l.trim().starts_with("Command Line:"))
        .unwrap_or("");
    let flag = |f: &str| cmd.split_whitespace().any(|w| w == f);
    let name = match linux {
        true if flag("-xp") => "posixaio",
        true => "libaio",
        false if chunk.contains("using completion routines") => "completion routines",
        false => "iocp",
    };
    name.into()
}

/// The settings of each timespan (`timespan:   1` on Windows, `job:   1`
/// in the port) from the `Input parameters:` section.
#[derive(Debug, Clone, Default)]
struct Spec {
    interval_ms: Option<u32>,
    /// `-F`: threads shared by every target.
    pool_threads: Option<u32>,
    targets: Vec<TargetSpec>,
}

fn read_params(lines: &[&str]) -> Vec<Spec> {
    let mut specs: Vec<Spec> = Vec::new();
    let mut depth: Option<u32> = None;
    for line in lines {
        let t = line.trim();
        if t.starts_with("timespan:") || t.starts_with("job:") {
            specs.push(Spec::default());
            depth = None;
            continue;
        }
        if specs.is_empty() && t.starts_with("path:") {
            specs.push(Spec::default());
        }
        let Some(spec) = specs.last_mut() else {
            continue;
        };
        if let Some(rest) = t.strip_prefix("path:") {
            let path = rest.trim().trim_start_matches("template target").trim();
            spec.targets.push(TargetSpec {
                path: path
                    .trim_matches(|c| c == '\'' || c == '‘' || c == '’')
                    .to_string(),
                outstanding: depth.unwrap_or(0),
                ..TargetSpec::default()
            });
        } else if let Some(ms) = t
            .strip_prefix("gathering IOPS at intervals of")
            .or(t.strip_prefix("gathering IOPs at intervals of"))
        {
            spec.interval_ms = ms.trim().trim_end_matches("ms").trim().parse().ok();
        } else if let Some(target) = spec.targets.last_mut() {
            target_line(target, t);
        } else if t.starts_with("number of outstanding I/O operations") {
            depth = number_after_colon(t);
        } else if let Some(n) = pool_threads(t) {
            spec.pool_threads = Some(n);
        }
    }
    for spec in &mut specs {
        // `-F`: every thread of the pool works on every target.
        for t in &mut spec.targets {
            t.threads_per_file = t.threads_per_file.or(spec.pool_threads);
        }
    }
    specs
}

/// `thread pool with 8 threads` (Windows `-F`) or the port's `total threads: 8`.
fn pool_threads(t: &str) -> Option<u32> {
    if let Some(rest) = t.strip_prefix("thread pool with") {
        return rest.trim().trim_end_matches("threads").trim().parse().ok();
    }
    t.strip_prefix("total threads:")?.trim().parse().ok()
}

/// `-D` (per-interval IOPS, every 1000 ms) or `-D500`.
fn command_line_interval(cmd: &str) -> Option<u32> {
    let flag = cmd.split_whitespace().find_map(|w| w.strip_prefix("-D"))?;
    if flag.is_empty() {
        Some(1000)
    } else {
        flag.parse().ok()
    }
}

/// Targets as the command line gives them, for captures without their
/// parameters: `-b` block size, `-o`, `-t` (or `-F`), `-w`, `-r`/`-s`,
/// `-Sh`/`-Su` (no OS cache); every argument that is not a flag after the
/// program is a target.
fn command_line_targets(cmd: &str) -> Vec<TargetSpec> {
    let mut spec = TargetSpec {
        outstanding: 2,
        write_ratio: 0,
        ..TargetSpec::default()
    };
    let mut paths = Vec::new();
    let mut b_given = false;
    for word in cmd.split_whitespace().skip(1) {
        let Some(flag) = word.strip_prefix('-').or(word.strip_prefix('/')) else {
            paths.push(word.trim_matches('"').to_string());
            continue;
        };
        let (name, value) = flag.split_at(flag.chars().next().map_or(0, char::len_utf8));
        match name {
            // An unreadable -b is unknown (0): the bytes per I/O stand in.
            "b" => {
                b_given = true;
                spec.block_size = parse_size(value).unwrap_or(0);
            }
            "o" => spec.outstanding = value.parse().unwrap_or(spec.outstanding),
            "t" | "F" => spec.threads_per_file = value.parse().ok(),
            "w" => spec.write_ratio = value.parse().unwrap_or(0),
            "r" => spec.random = true,
            "s" => spec.random = false,
            "S" if value.starts_with('h') || value.starts_with('u') => spec.direct = Some(true),
            "h" if value.is_empty() => spec.direct = Some(true),
            _ => {}
        }
    }
    if !b_given {
        spec.block_size = 64 << 10; // DiskSpd's default -b64K
    }
    paths
        .into_iter()
        .map(|path| TargetSpec {
            path,
            ..spec.clone()
        })
        .collect()
}

/// One line under a target's `path:`.
fn target_line(target: &mut TargetSpec, t: &str) {
    if t == "performing read test" {
        target.write_ratio = 0;
    } else if t == "performing write test" {
        target.write_ratio = 100;
    } else if let Some(rest) = t.strip_prefix("performing mix test (read/write ratio:") {
        let ratio = rest.trim().trim_end_matches(')');
        if let Some((_, w)) = ratio.split_once('/') {
            target.write_ratio = w.trim().parse().unwrap_or(0);
        }
    } else if let Some(size) = t.strip_prefix("block size:") {
        target.block_size = parse_size(size).unwrap_or(0);
    } else if t.starts_with("using random I/O")
        || t.starts_with("using mixed random/sequential I/O")
    {
        target.random = true;
    } else if t.starts_with("using sequential I/O")
        || t.starts_with("using interlocked sequential I/O")
    {
        target.random = false;
    } else if t.starts_with("number of outstanding I/O operations") {
        target.outstanding = number_after_colon(t).unwrap_or(target.outstanding);
    } else if let Some(n) = t.strip_prefix("threads per file:") {
        target.threads_per_file = n.trim().parse().ok();
    } else if t == "software cache disabled" || t == "using O_DIRECT" {
        target.direct = Some(true);
    } else if t == "using software cache" {
        target.direct = target.direct.or(Some(false));
    }
}

/// `... operations per thread: 16` or the port's `... operations: 4)`.
fn number_after_colon(t: &str) -> Option<u32> {
    let (_, n) = t.rsplit_once(':')?;
    n.trim().trim_end_matches(')').trim().parse().ok()
}

/// One `Results for ...` section.
fn read_results(lines: &[&str], spec: Spec) -> Result<Timespan, String> {
    let mut run = Timespan {
        format: FORMAT,
        name: lines[0]
            .trim()
            .trim_start_matches("Results for")
            .trim()
            .trim_end_matches(':')
            .to_string(),
        interval_ms: spec.interval_ms,
        ..Timespan::default()
    };
    read_time(lines, &mut run)?;
    run.cpu_usage_pct = cpu_usage(lines);
    let mut specs = spec.targets;
    for (d, heading) in ["Read IO", "Write IO"].into_iter().enumerate() {
        let Some(at) = lines.iter().position(|l| l.trim() == heading) else {
            return Err(format!("no \"{heading}\" table"));
        };
        let table = lines[at + 1..]
            .iter()
            .position(|l| l.trim_start().starts_with("thread"));
        let table = table.and_then(|i| ThreadTable::read(&lines[at + 1 + i..]));
        let Some(table) = table else {
            return Err(format!("no column header under \"{heading}\""));
        };
        table.add_counts(&mut run.counts, d)?;
        run.totals[d].count = table
            .total
            .as_deref()
            .map(|t| table.dir_count(t))
            .unwrap_or_default();
        let rows: u64 = run.counts.iter().map(|c| c.dir[d].ios).sum();
        if table.total.is_some() && rows != run.totals[d].count.ios {
            run.warnings.push(format!(
                "{}: the {heading} thread rows add up to {rows} I/Os, its total line says {} \
                 (rows cut from the capture?); the total line is used for one target",
                run.name, run.totals[d].count.ios
            ));
        }
    }
    // One table for the whole run (`total:` or `Total latency
    // distribution:` above it, or nothing), and before 2.2 one per
    // target, named by its path, when there are several.
    for at in (1..lines.len()).filter(|&i| lines[i].contains("%-ile")) {
        let label = lines[at - 1].trim();
        let table = percentiles(&lines[at..]);
        if label.is_empty() || label == "total:" || label == "Total latency distribution:" {
            for (d, p) in table.into_iter().enumerate() {
                run.totals[d].percentiles = p;
            }
        } else {
            run.target_percentiles.push((label.to_string(), table));
        }
    }
    if specs.len() == 1 {
        // One target: its path as the results name it.
        if let Some(c) = run.counts.first() {
            specs[0].path.clone_from(&c.path);
        }
    }
    run.targets = specs;
    Ok(run)
}

/// `actual test time: 10.00s` (Windows, the measured time to 10 ms) or
/// the port's `test time:         2s` (the requested duration).
fn read_time(lines: &[&str], run: &mut Timespan) -> Result<(), String> {
    for line in lines {
        let t = line.trim();
        let (value, step) = if let Some(v) = t.strip_prefix("actual test time:") {
            (v, 0.01)
        } else if let Some(v) = t.strip_prefix("test time:") {
            (v, 1.0)
        } else {
            continue;
        };
        let secs: f64 = value
            .trim()
            .trim_end_matches('s')
            .trim()
            .parse()
            .map_err(|_| format!("test time {:?} is not a number", value.trim()))?;
        if !(secs.is_finite() && secs > 0.0) {
            return Err(format!("test time {secs} s is not a positive time"));
        }
        run.time_s = secs;
        run.time_step_s = step;
        return Ok(());
    }
    Err("no test time".into())
}

/// The `avg.` line of the CPU table, matched to its header from the right
/// (the label replaces the CPU-numbering columns).
fn cpu_usage(lines: &[&str]) -> Option<f64> {
    let at = lines
        .iter()
        .position(|l| l.contains("Usage") && l.contains("Idle") && l.contains('|'))?;
    let header = cells(lines[at]);
    let avg = lines[at + 1..]
        .iter()
        .map(|l| l.trim())
        .find(|l| l.starts_with("avg"))?;
    let mut values: Vec<&str> = avg.split('|').map(str::trim).collect();
    // `avg.|` (Windows) or the port's `avg:	 97.86% |`: drop the label.
    let first = values[0]
        .trim_start_matches("avg.")
        .trim_start_matches("avg:")
        .trim();
    if first.is_empty() {
        values.remove(0);
    } else {
        values[0] = first;
    }
    let skip = header.len().checked_sub(values.len())?;
    let usage = header.iter().skip(skip).position(|h| h == "usage")?;
    number(values[usage])
}

/// The latency percentile table: `min`, `25th`, ..., `3-nines`, ..., `max`
/// rows, a column per direction (`N/A` where it did no I/O).
fn percentiles(lines: &[&str]) -> [Percentiles; 2] {
    let mut out = [Vec::new(), Vec::new()];
    let header = cells(lines[0]);
    let col = |name: &str| header.iter().position(|h| h.starts_with(name));
    let cols = [col("read"), col("write")];
    for line in &lines[1..] {
        let t = line.trim();
        if t.is_empty() {
            break;
        }
        let row: Vec<&str> = t.split('|').map(str::trim).collect();
        let Some(p) = percentile_of(row[0]) else {
            continue;
        };
        for (d, c) in cols.iter().enumerate() {
            if let Some(v) = c.and_then(|c| row.get(c)).and_then(|v| number(v)) {
                out[d].push((p, v));
            }
        }
    }
    out
}

/// `min` 0, `25th` 25, `3-nines` 99.9, `max` 100.
fn percentile_of(label: &str) -> Option<f64> {
    match label {
        "min" => Some(0.0),
        "max" => Some(100.0),
        _ => {
            if let Some(n) = label.strip_suffix("-nines") {
                let n: i32 = n.parse().ok()?;
                return Some(100.0 - crate::units::pow10(2 - n));
            }
            label
                .strip_suffix("th")
                .or(label.strip_suffix("st"))
                .or(label.strip_suffix("nd"))
                .or(label.strip_suffix("rd"))?
                .parse()
                .ok()
        }
    }
}

/// Header cells by name: lower case, without blanks or a `(ms)` unit.
fn cells(line: &str) -> Vec<String> {
    line.split('|')
        .map(|c| {
            let c: String = c.chars().filter(|ch| !ch.is_whitespace()).collect();
            c.to_lowercase().replace("(ms)", "")
        })
        .collect()
}

/// A number cell: `126.45`, `1.56%`; `N/A` is none.
fn number(cell: &str) -> Option<f64> {
    let v: f64 = cell.trim().trim_end_matches('%').trim().parse().ok()?;
    v.is_finite().then_some(v)
}

/// A per-thread table (`Read IO`, `Write IO`): its header, thread rows
/// and `total:` line.
struct ThreadTable<'a> {
    header: Vec<String>,
    rows: Vec<Vec<&'a str>>,
    /// The `total:` line's cells, aligned with the header (the label
    /// stands where the thread number does).
    total: Option<Vec<&'a str>>,
}

impl<'a> ThreadTable<'a> {
    fn read(lines: &[&'a str]) -> Option<ThreadTable<'a>> {
        let header = cells(lines.first()?);
        let mut table = ThreadTable {
            header,
            rows: Vec::new(),
            total: None,
        };
        for line in &lines[1..] {
            let t = line.trim();
            if t.is_empty() {
                break;
            }
            if t.starts_with('-') {
                continue;
            }
            if let Some(rest) = t.strip_prefix("total:") {
                let mut cells = vec![""];
                cells.extend(rest.split('|').map(str::trim));
                table.total = Some(cells);
                break;
            }
            table.rows.push(t.split('|').map(str::trim).collect());
        }
        Some(table)
    }

    fn col(&self, names: &[&str]) -> Option<usize> {
        self.header.iter().position(|h| names.contains(&h.as_str()))
    }

    fn get(&self, row: &[&str], names: &[&str]) -> Option<f64> {
        self.col(names)
            .and_then(|c| row.get(c))
            .and_then(|v| number(v))
    }

    fn dir_count(&self, row: &[&str]) -> DirCount {
        DirCount {
            bytes: self.get(row, &["bytes"]).unwrap_or(0.0) as u64,
            ios: self.get(row, &["i/os"]).unwrap_or(0.0) as u64,
            iops: self.get(row, &["i/opers"]),
            lat_mean_ms: self.get(row, &["avglat"]),
            lat_stddev_ms: self.get(row, &["latstddev"]),
            iops_stddev: self.get(row, &["iopsstddev"]),
        }
    }

    /// Adds this table's direction `d` to the thread x target counts.
    fn add_counts(&self, counts: &mut Vec<Count>, d: usize) -> Result<(), String> {
        let (Some(thread), Some(file)) = (self.col(&["thread"]), self.col(&["file"])) else {
            return Err(format!(
                "per-thread table without thread and file columns ({})",
                self.header.join("|")
            ));
        };
        for row in &self.rows {
            let Some(t) = row.get(thread).and_then(|v| v.parse::<u32>().ok()) else {
                return Err(format!(
                    "thread row {:?} has no thread number",
                    row.join("|")
                ));
            };
            // A path may hold `|` on Linux: the file column runs to the end.
            let path = target_path(&row.get(file..).unwrap_or_default().join("|"));
            let count = self.dir_count(row);
            match counts.iter_mut().find(|c| c.thread == t && c.path == path) {
                Some(c) => c.dir[d] = count,
                None => {
                    let mut c = Count {
                        thread: t,
                        path,
                        ..Count::default()
                    };
                    c.dir[d] = count;
                    counts.push(c);
                }
            }
        }
        Ok(())
    }
}

/// `C:\diskspd-test.dat (1GiB)` -> `C:\diskspd-test.dat`.
fn target_path(cell: &str) -> String {
    let cell = cell.trim();
    match cell.rfind(" (") {
        Some(i) if cell.ends_with(')') => cell[..i].to_string(),
        _ => cell.to_string(),
    }
}

#[cfg(test)]
mod tests;
