//! Workload hints in a job name (`randread-4k-qd32`, `seqwrite-128k-nj4`).
//!
//! The last resort of readers whose input does not carry the job options:
//! fio 2.x JSON (no `job options`) and terse output (no options at all).
//! Callers say in a warning that they used it.

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

/// Reads `randread`, `4k`, `qd32` and `nj4` tokens out of a job name
/// (split on anything not a letter or digit, case ignored).
pub(crate) fn guess_from_name(name: &str) -> NameGuess {
    // Token -> fio's rw value; `seq*` is how people name sequential jobs.
    const RW: [(&str, &str); 12] = [
        ("randread", "randread"),
        ("randwrite", "randwrite"),
        ("randrw", "randrw"),
        ("randtrim", "randtrim"),
        ("readwrite", "readwrite"),
        ("read", "read"),
        ("write", "write"),
        ("trim", "trim"),
        ("rw", "rw"),
        ("trimwrite", "trimwrite"),
        ("seqread", "read"),
        ("seqwrite", "write"),
    ];
    let mut g = NameGuess::default();
    for tok in name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .map(str::to_ascii_lowercase)
    {
        if g.rw.is_none() {
            g.rw = RW.iter().find(|(t, _)| *t == tok).map(|(_, rw)| *rw);
        }
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
    g
}

/// `32` from `qd32` when `tok` is one of `prefixes` followed by a number > 0.
fn number_after(tok: &str, prefixes: &[&str]) -> Option<u32> {
    prefixes
        .iter()
        .find_map(|p| tok.strip_prefix(p))
        .and_then(|n| n.parse().ok())
        .filter(|&n| n > 0)
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
        // A word that only starts like a token is not one.
        let g = guess_from_name("reader-qdx-4kb-nj0");
        assert_eq!(g, NameGuess::default());
    }
}
