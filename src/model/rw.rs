//! fio's `rw` option as a type: every reader, the comparison and the
//! harness agree on which values exist, which are mixed, which directions
//! each does I/O in and the order articles list them in.

use serde::{Deserialize, Serialize};

use super::Direction;

/// fio's I/O pattern (`rw=`; `readwrite` is an alias of `rw`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Rw {
    RandRead,
    RandWrite,
    RandTrim,
    Read,
    Write,
    Trim,
    RandRw,
    /// Sequential mixed (`rw`, `readwrite`).
    ReadWrite,
    /// Trims, each followed by a write of the same range.
    TrimWrite,
    RandTrimWrite,
}

impl Rw {
    pub const ALL: [Rw; 10] = [
        Rw::RandRead,
        Rw::RandWrite,
        Rw::RandTrim,
        Rw::Read,
        Rw::Write,
        Rw::Trim,
        Rw::RandRw,
        Rw::ReadWrite,
        Rw::TrimWrite,
        Rw::RandTrimWrite,
    ];

    /// fio's names, including the `readwrite` alias.
    pub fn parse(s: &str) -> Option<Rw> {
        let s = s.trim();
        if s == "readwrite" {
            return Some(Rw::ReadWrite);
        }
        Rw::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// fio's spelling (`rw` for the sequential mix).
    pub fn as_str(self) -> &'static str {
        match self {
            Rw::RandRead => "randread",
            Rw::RandWrite => "randwrite",
            Rw::RandTrim => "randtrim",
            Rw::Read => "read",
            Rw::Write => "write",
            Rw::Trim => "trim",
            Rw::RandRw => "randrw",
            Rw::ReadWrite => "rw",
            Rw::TrimWrite => "trimwrite",
            Rw::RandTrimWrite => "randtrimwrite",
        }
    }

    /// The directions it does I/O in.
    pub fn directions(self) -> &'static [Direction] {
        use Direction::*;
        match self {
            Rw::RandRead | Rw::Read => &[Read],
            Rw::RandWrite | Rw::Write => &[Write],
            Rw::RandTrim | Rw::Trim => &[Trim],
            Rw::RandRw | Rw::ReadWrite => &[Read, Write],
            Rw::TrimWrite | Rw::RandTrimWrite => &[Trim, Write],
        }
    }

    /// Does I/O in more than one direction.
    pub fn is_mixed(self) -> bool {
        self.directions().len() > 1
    }

    /// Random before sequential, pure before mixed: the order storage
    /// articles list workloads in (0 first).
    pub fn article_rank(self) -> u8 {
        match self {
            Rw::RandRead | Rw::RandWrite | Rw::RandTrim => 0,
            Rw::Read | Rw::Write | Rw::Trim => 1,
            Rw::RandRw => 2,
            Rw::ReadWrite => 3,
            Rw::TrimWrite | Rw::RandTrimWrite => 4,
        }
    }
}

impl std::fmt::Display for Rw {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// True for a mixed `rw` value as a string; false for unknown ones.
pub fn is_mixed(rw: &str) -> bool {
    Rw::parse(rw).is_some_and(Rw::is_mixed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_directions_agree_with_fio() {
        for r in Rw::ALL {
            assert_eq!(Rw::parse(r.as_str()), Some(r));
            assert_eq!(r.is_mixed(), r.directions().len() == 2, "{r}");
        }
        assert_eq!(Rw::parse("readwrite"), Some(Rw::ReadWrite));
        assert_eq!(
            Rw::parse("randtrimwrite").unwrap().directions(),
            [Direction::Trim, Direction::Write]
        );
        assert!(is_mixed("randtrimwrite") && is_mixed("rw") && !is_mixed("randread"));
        assert!(!is_mixed("bogus"));
        assert!(Rw::RandRead.article_rank() < Rw::Read.article_rank());
        assert!(Rw::Read.article_rank() < Rw::RandRw.article_rank());
    }
}
