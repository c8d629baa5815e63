//! Log file names as fio makes them (`gen_log_name` in fio's `init.c`,
//! the client's `.host` in `client.c`):
//! `PREFIX_KIND[.N].log[.fz][.HOST]`, where PREFIX is the job name or the
//! value of `write_*_log`, KIND is bw, iops, lat, clat, slat or clat_hist,
//! N the thread number (absent with `per_job_logs=0`), `.fz` marks
//! `log_store_compressed`, and HOST is the server a client wrote it for.

use crate::timeseries::Kind;

/// What a log's file name says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogName {
    /// Job name or `write_*_log` value.
    pub prefix: String,
    pub kind: Kind,
    pub index: Option<u32>,
    pub compressed: bool,
    pub host: Option<String>,
}

impl LogName {
    /// `None` when the name is not one fio gives a log.
    pub fn parse(file_name: &str) -> Option<LogName> {
        // A log compressed after the run (`x_bw.1.log.gz`): the name fio
        // gave it is what is left; its bytes say how it is compressed.
        let file_name = [".gz", ".zst", ".zstd", ".xz", ".bz2"]
            .iter()
            .find_map(|end| file_name.strip_suffix(end))
            .unwrap_or(file_name);
        // The last `.log` that ends the name or is followed by a dot: a
        // prefix may itself contain `.log` (`my.log_bw.1.log`).
        let (stem, rest) = split_at_log(file_name)?;
        let (compressed, host) = match rest.strip_prefix(".fz") {
            Some(r) if r.is_empty() || r.starts_with('.') => (true, r),
            _ => (false, rest),
        };
        let host = host.strip_prefix('.').filter(|h| !h.is_empty());
        if host.is_none() && !rest.is_empty() && !compressed {
            return None;
        }
        let (stem, index) = match stem.rsplit_once('.') {
            Some((s, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                (s, Some(n.parse().ok()?))
            }
            _ => (stem, None),
        };
        let (prefix, kind) = split_kind(stem)?;
        Some(LogName {
            prefix: prefix.to_string(),
            kind,
            index,
            compressed,
            host: host.map(str::to_string),
        })
    }
}

fn split_at_log(name: &str) -> Option<(&str, &str)> {
    let mut search = name.len();
    while let Some(pos) = name[..search].rfind(".log") {
        let rest = &name[pos + 4..];
        if rest.is_empty() || rest.starts_with('.') {
            return Some((&name[..pos], rest));
        }
        search = pos;
    }
    None
}

/// `job_clat_hist` -> (`job`, Hist). Longest suffix first: `_clat_hist`
/// before `_hist`-less `_clat`, `_clat`/`_slat` before `_lat`.
fn split_kind(stem: &str) -> Option<(&str, Kind)> {
    const SUFFIXES: [(&str, Kind); 6] = [
        ("_clat_hist", Kind::Hist),
        ("_clat", Kind::Clat),
        ("_slat", Kind::Slat),
        ("_lat", Kind::Lat),
        ("_iops", Kind::Iops),
        ("_bw", Kind::Bw),
    ];
    SUFFIXES.iter().find_map(|(suffix, kind)| {
        stem.strip_suffix(suffix)
            .filter(|p| !p.is_empty())
            .map(|p| (p, *kind))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    type Parts = (String, Kind, Option<u32>, bool, Option<String>);

    fn parse(n: &str) -> Option<Parts> {
        LogName::parse(n).map(|l| (l.prefix, l.kind, l.index, l.compressed, l.host))
    }

    #[test]
    fn names_fio_writes() {
        let s = |x: &str| x.to_string();
        // Compressed after the run: the name fio gave, not a host `gz`.
        assert_eq!(
            parse("randrw-4k_bw.1.log.gz"),
            Some((s("randrw-4k"), Kind::Bw, Some(1), false, None))
        );
        assert_eq!(
            parse("a_clat.log.fz.host-a.zst"),
            Some((s("a"), Kind::Clat, None, true, Some(s("host-a"))))
        );
        assert_eq!(
            parse("randrw-4k_bw.1.log"),
            Some((s("randrw-4k"), Kind::Bw, Some(1), false, None))
        );
        assert_eq!(
            parse("job_clat_hist.12.log"),
            Some((s("job"), Kind::Hist, Some(12), false, None))
        );
        assert_eq!(
            parse("custom_slat.log"),
            Some((s("custom"), Kind::Slat, None, false, None))
        );
        assert_eq!(
            parse("fz_clat.1.log.fz"),
            Some((s("fz"), Kind::Clat, Some(1), true, None))
        );
        assert_eq!(
            parse("randread-cs_iops.1.log.127.0.0.1"),
            Some((
                s("randread-cs"),
                Kind::Iops,
                Some(1),
                false,
                Some(s("127.0.0.1"))
            ))
        );
        assert_eq!(
            parse("a.log_lat.3.log.fz.host-a"),
            Some((s("a.log"), Kind::Lat, Some(3), true, Some(s("host-a"))))
        );
    }

    #[test]
    fn other_files_are_not_logs() {
        for n in [
            "fio.log",
            "result.json",
            "_bw.1.log",
            "job_bw.1.logs",
            "run.log.txt2",
            "bw.log",
        ] {
            assert_eq!(LogName::parse(n), None, "{n}");
        }
    }
}
