//! What a job's name says about its workload where fio's options are
//! missing (fio 2.x JSON, terse output): `randread-4k-qd32`,
//! `seqwrite-128k-nj4`, `random_write_test`, its words cut by [`tokens`]
//! and read by the class table's rw words.

use super::{number_after, rw_of, tokens};

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
/// words as [`tokens`] cuts them, case ignored).
pub(crate) fn guess_from_name(name: &str) -> NameGuess {
    let mut g = NameGuess::default();
    let mut words = Words::default();
    for tok in tokens(name).into_iter().map(|t| t.to_ascii_lowercase()) {
        if g.rw.is_none() {
            g.rw = rw_of(&tok);
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
            g.iodepth = number_after(&tok, &["qd", "iodepth"]);
        }
        if g.numjobs.is_none() {
            g.numjobs = number_after(&tok, &["nj", "numjobs"]);
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
}
