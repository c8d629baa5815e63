//! A multiply-and-rotate hash for nvcmp's own maps and sets: the keys of
//! one run that the history checks for every run, the options texts and
//! facts that ingest tells apart per row. SipHash's guard against chosen
//! keys costs more there than the rest of the work, and nothing hashed
//! here comes from an adversary who could pick colliding keys to slow a
//! map (the worst a crafted result folder could do is make one ingest
//! slower, never wrong: equal hashes are still compared).

use std::hash::{BuildHasherDefault, Hasher};

/// The hasher of [`QuickHash`] maps and sets.
#[derive(Default)]
pub struct QuickHasher(u64);

/// `HashMap<K, V, QuickHash>`, `HashSet<T, QuickHash>`.
pub type QuickHash = BuildHasherDefault<QuickHasher>;

impl QuickHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl Hasher for QuickHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.add(u64::from_le_bytes(word.try_into().unwrap_or_default()));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use std::hash::BuildHasher;

    use super::*;

    #[test]
    fn texts_that_differ_in_one_byte_hash_apart() {
        let h = QuickHash::default();
        let a = "x".repeat(2500);
        let mut b = a.clone().into_bytes();
        b[1234] = b'y';
        let b = String::from_utf8(b).unwrap_or_default();
        assert_ne!(h.hash_one(&a), h.hash_one(&b));
        // A tail shorter than a word counts too.
        assert_ne!(h.hash_one("abcdefghi"), h.hash_one("abcdefghj"));
        assert_eq!(h.hash_one(&a), h.hash_one(a.clone()));
    }
}
