//! Workload hints where the job options are missing: a job name's words
//! (`randread-4k-qd32`, `seqwrite-128k-nj4`, `random_write_test`) and the
//! block size a mean I/O size stands for.
//!
//! The last resort of readers whose input does not carry the job options:
//! fio 2.x JSON (no `job options`) and terse output (no options at all).
//! Callers say in a warning that they used it.

use crate::ingest::identity;

/// What a job name says about its workload; `None` where it says nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct NameGuess {
    /// fio's `rw` value.
    pub rw: Option<&'static str>,
    /// Block size as written (`4k`, `1m`).
    pub bs: Option<String>,
    pub iodepth: Option<u32>,
    pub numjobs: Option<u32>,
}

/// Reads `randread`, `4k`, `qd32` and `nj4` words out of a job name (its
/// words as [`identity::tokens`] cuts them, case ignored).
pub(crate) fn guess_from_name(name: &str) -> NameGuess {
    let mut g = NameGuess::default();
    let mut words = Words::default();
    for tok in identity::tokens(name)
        .into_iter()
        .map(|t| t.to_ascii_lowercase())
    {
        if g.rw.is_none() {
            g.rw = identity::rw_of(&tok);
        }
        words.add(&tok);
        if g.bs.is_none()
            && tok.len() > 1
            && tok[..tok.len() - 1].bytes().all(|b| b.is_ascii_digit())
            && matches!(tok.as_bytes()[tok.len() - 1], b'k' | b'm')
        {
            g.bs = Some(tok.clone());
        }
        if g.iodepth.is_none() {
            g.iodepth = identity::number_after(&tok, &["qd", "iodepth"]);
        }
        if g.numjobs.is_none() {
            g.numjobs = identity::number_after(&tok, &["nj", "numjobs"]);
        }
    }
    // `random_write`: the `write` token alone would say sequential.
    g.rw = match g.rw {
        Some(rw) if !words.random || rw.starts_with("rand") => Some(rw),
        _ => words.rw().or(g.rw),
    };
    g
}

/// Separate words of a name that together say rw (`random_write_test`,
/// `sequential-read`): a direction, and random or sequential.
#[derive(Default)]
struct Words {
    random: bool,
    read: bool,
    write: bool,
}

impl Words {
    fn add(&mut self, tok: &str) {
        match tok {
            "random" | "rand" | "rnd" => self.random = true,
            "read" | "reads" | "rd" => self.read = true,
            "write" | "writes" | "wr" => self.write = true,
            _ => {}
        }
    }

    /// fio's rw value; sequential unless a word says random (fio's default).
    fn rw(&self) -> Option<&'static str> {
        Some(match (self.random, self.read, self.write) {
            (true, true, true) => "randrw",
            (true, true, false) => "randread",
            (true, false, true) => "randwrite",
            (false, true, true) => "rw",
            (false, true, false) => "read",
            (false, false, true) => "write",
            (_, false, false) => return None,
        })
    }
}

/// The block size a mean I/O size (bytes) stands for, and whether it was
/// rounded to a common size: 512 or a power-of-two KiB within 10% of the
/// mean (fio 2.x prints IOPS and KiB/s as integers, so 512 KiB I/Os come
/// out as 512.2 KiB), else the mean to the sector (a 12k job stays 12k).
pub(crate) fn block_size_from_mean(mean: f64) -> Option<(u64, bool)> {
    if !(mean.is_finite() && mean >= 256.0) {
        return None;
    }
    let common = std::iter::once(512u64).chain((0..20).map(|p| 1024u64 << p));
    let nearest = common
        .min_by(|a, b| {
            let d = |x: u64| (x as f64 / mean).ln().abs();
            d(*a).total_cmp(&d(*b))
        })
        .expect("non-empty");
    if (nearest as f64 - mean).abs() <= 0.1 * nearest as f64 {
        return Some((nearest, true));
    }
    Some((((mean / 512.0).round() as u64).max(1) * 512, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_of_common_names() {
        let g = guess_from_name("randread-4k-qd32");
        assert_eq!(
            (g.rw, g.bs.as_deref(), g.iodepth, g.numjobs),
            (Some("randread"), Some("4k"), Some(32), None)
        );
        let g = guess_from_name("SeqWrite_128K_nj4");
        assert_eq!(
            (g.rw, g.bs.as_deref(), g.iodepth, g.numjobs),
            (Some("write"), Some("128k"), None, Some(4))
        );
        // Separate words (PerfKitBenchmarker's fio job names).
        assert_eq!(guess_from_name("random_write_test").rw, Some("randwrite"));
        assert_eq!(
            guess_from_name("random_read_test_parallel").rw,
            Some("randread")
        );
        assert_eq!(guess_from_name("sequential_write").rw, Some("write"));
        assert_eq!(guess_from_name("Rand-Read-Write").rw, Some("randrw"));
        assert_eq!(guess_from_name("random-4k").rw, None);
        // A word that only starts like a token is not one.
        let g = guess_from_name("reader-qdx-4kb-nj0");
        assert_eq!(g, NameGuess::default());
    }

    #[test]
    fn block_size_from_the_mean_io_size() {
        // PerfKitBenchmarker's sequential_write: 68,118 KiB/s at 133 IOPS.
        assert_eq!(
            block_size_from_mean(68118.0 / 133.0 * 1024.0),
            Some((512 << 10, true))
        );
        assert_eq!(
            block_size_from_mean(6443.0 / 1610.0 * 1024.0),
            Some((4096, true))
        );
        assert_eq!(block_size_from_mean(530.0), Some((512, true)));
        assert_eq!(block_size_from_mean(12288.0), Some((12288, false)));
        assert_eq!(block_size_from_mean(100.0), None);
        assert_eq!(block_size_from_mean(f64::NAN), None);
    }
}
