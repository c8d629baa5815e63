//! What a study says repeats (`--repeats`, the manifest's `repeats`): words
//! of its names (`attempt` of `attempt1`, `attempt2`; `monday`, `tuesday`)
//! and folder levels (`folder`, the folder holding the files; `folder:N`,
//! the Nth level below a PATH). Runs told apart by nothing else are pooled
//! as repeats, whatever the class table says of those words.

use super::{Class, class, tokens};

/// Declared repeat marks: words and folder levels.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Repeats {
    /// Words, lower case: a word of a name is a repeat mark where it is
    /// one of these, alone or followed by a number (`attempt2`).
    pub words: Vec<String>,
    /// Folder levels below a PATH, from 1; `LAST` the folder holding
    /// the files.
    pub levels: Vec<usize>,
}

/// The level of `folder`: the last one, the folder holding the files.
pub const LAST: usize = usize::MAX;

impl Repeats {
    /// `WORD[,WORD]`, each a word of the names (letters and digits) or
    /// `folder` / `folder:N`.
    pub fn parse(s: &str) -> Result<Repeats, String> {
        let mut out = Repeats::default();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            out.add(part)?;
        }
        if out.is_empty() {
            return Err("expected words of the names that mark repeats (attempt, monday) or folder levels (folder, folder:2)".into());
        }
        Ok(out)
    }

    /// Adds one word or folder level.
    pub fn add(&mut self, part: &str) -> Result<(), String> {
        let lower = part.to_ascii_lowercase();
        if let Some(level) = lower.strip_prefix("folder") {
            let level = match level.strip_prefix(':') {
                None if level.is_empty() => LAST,
                Some(n) => n.parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(|| {
                    format!("`{part}`: a folder level is a number from 1 (folder:1 is the first folder below PATH)")
                })?,
                None => return self.add_word(part, lower),
            };
            if !self.levels.contains(&level) {
                self.levels.push(level);
            }
            return Ok(());
        }
        self.add_word(part, lower)
    }

    fn add_word(&mut self, part: &str, lower: String) -> Result<(), String> {
        if tokens(&lower) != [lower.as_str()] {
            return Err(format!(
                "`{part}` is not one word of a name (letters and digits): nvcmp cuts names at every other character"
            ));
        }
        if !self.words.contains(&lower) {
            self.words.push(lower);
        }
        Ok(())
    }

    /// Adds every word and level of `other`.
    pub fn merge(&mut self, other: &Repeats) {
        for w in &other.words {
            if !self.words.contains(w) {
                self.words.push(w.clone());
            }
        }
        for l in &other.levels {
            if !self.levels.contains(l) {
                self.levels.push(*l);
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty() && self.levels.is_empty()
    }

    /// Whether a word of a name is a declared repeat mark: one of the
    /// words, alone or followed by a number.
    pub fn marks(&self, token: &str) -> bool {
        self.words.iter().any(|w| {
            token.len() >= w.len()
                && token.is_char_boundary(w.len())
                && token[..w.len()].eq_ignore_ascii_case(w)
                && token[w.len()..].bytes().all(|b| b.is_ascii_digit())
        })
    }

    /// Whether a token tells nothing but a repeat: the class table's
    /// repeat marks, numbers, dates and times, and the declared words.
    pub fn repeats(&self, token: &str) -> bool {
        class(token).repeats() || self.marks(token)
    }

    /// The class a token is read as, a declared word a repeat mark.
    pub(crate) fn class(&self, token: &str) -> Class {
        match self.marks(token) {
            true => Class::Repeat,
            false => class(token),
        }
    }

    /// Whether the folder level `level` (from 1) of a label of `parts`
    /// levels is declared.
    pub fn level(&self, level: usize, parts: usize) -> bool {
        self.levels
            .iter()
            .any(|&l| l == level || (l == LAST && level == parts))
    }

    /// What was declared, as given (`attempt`, `folder:2`).
    pub fn said(&self) -> Vec<String> {
        let levels = self.levels.iter().map(|&l| match l {
            LAST => "folder".to_string(),
            n => format!("folder:{n}"),
        });
        self.words.iter().cloned().chain(levels).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_levels() {
        let r = Repeats::parse("Attempt, monday,folder:2 ,folder").unwrap();
        assert_eq!(r.words, ["attempt", "monday"]);
        assert_eq!(r.levels, [2, LAST]);
        assert_eq!(r.said(), ["attempt", "monday", "folder:2", "folder"]);
        for t in ["attempt", "attempt1", "ATTEMPT12", "Monday"] {
            assert!(r.marks(t) && r.repeats(t), "{t}");
            assert_eq!(r.class(t), Class::Repeat);
        }
        for t in ["attempts", "attempt1x", "tuesday", "ext4"] {
            assert!(!r.marks(t), "{t}");
        }
        // The table's own marks still are.
        assert!(r.repeats("run2") && !r.marks("run2"));
        assert!(r.level(2, 3) && r.level(3, 3) && !r.level(1, 3));
        // A word alone, not cut: `run-a` is two words.
        assert!(Repeats::parse("run-a").is_err());
        assert!(Repeats::parse("folder:0").is_err());
        assert!(Repeats::parse(" , ").is_err());
        // `folders2` is a word, not a level.
        assert_eq!(Repeats::parse("folders2").unwrap().words, ["folders2"]);
    }
}
