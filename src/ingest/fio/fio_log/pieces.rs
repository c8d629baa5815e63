//! A block of a per-I/O log cut at line boundaries into pieces parsed on
//! several threads: per-I/O logs are the long ones (a line per I/O), and
//! their lines stand alone, so each piece gets a copy of the parser's
//! decisions and its own counts, added up in file order afterwards. Rows
//! come out in file order, as from one thread.

use rayon::prelude::*;

use super::parse::LogParser;
use crate::timeseries::{SeriesBatch, SeriesRow};

/// Smallest piece worth a thread, bytes.
pub(super) const PIECE: usize = 256 << 10;

/// The rows of a block in file order, in parts (one per piece): handed on
/// part by part, never copied together, and the parts' buffers kept for
/// the next block (allocating and copying a block's rows again each block
/// was a fifth of `ingest --series`).
#[derive(Debug, Default)]
pub(super) struct Parts {
    parts: Vec<SeriesBatch>,
    used: usize,
}

impl Parts {
    /// The parts filled since the last [`Parts::clear`], in file order.
    pub(super) fn iter(&self) -> impl Iterator<Item = &SeriesBatch> {
        self.parts[..self.used].iter()
    }

    /// Empties the parts, keeping their buffers.
    pub(super) fn clear(&mut self) {
        self.parts[..self.used]
            .iter_mut()
            .for_each(SeriesBatch::clear);
        self.used = 0;
    }

    /// `n` more parts, empty.
    fn more(&mut self, n: usize) -> &mut [SeriesBatch] {
        let from = self.used;
        self.used += n;
        if self.parts.len() < self.used {
            self.parts.resize_with(self.used, SeriesBatch::default);
        }
        &mut self.parts[from..self.used]
    }

    /// All rows in one vector (a log read whole, from memory).
    pub(super) fn into_rows(self) -> Vec<SeriesRow> {
        self.iter().flat_map(SeriesBatch::rows).collect()
    }
}

/// Parses whole lines of `text` into more `parts`: a large block of per-I/O
/// lines in pieces on all threads, anything else line by line.
pub(super) fn feed(
    parser: &mut LogParser,
    text: &[u8],
    parts: &mut Parts,
) -> Result<(), super::LogError> {
    let text = text.strip_suffix(b"\n").unwrap_or(text);
    if text.is_empty() {
        return Ok(());
    }
    parser.decide_once(text)?;
    if parser.per_io() && text.len() >= 2 * PIECE {
        in_pieces(parser, text, parts);
    } else {
        parser.feed_lines(text, &mut parts.more(1)[0]);
    }
    Ok(())
}

/// Parses `text` (whole lines, no final newline) into `parts`, a piece each.
fn in_pieces(parser: &mut LogParser, text: &[u8], parts: &mut Parts) {
    let pieces = cut(text, rayon::current_num_threads().max(1) * 2);
    // Where each piece starts: lines before it (its first line is +1).
    let mut starts = Vec::with_capacity(pieces.len());
    let mut line = parser.line();
    for p in &pieces {
        starts.push(line);
        line += memchr::memchr_iter(b'\n', p).count() + 1;
    }
    let parsers: Vec<LogParser> = parts
        .more(pieces.len())
        .par_iter_mut()
        .zip(pieces.par_iter().zip(&starts))
        .map(|(out, (p, &start))| {
            let mut piece = parser.piece(start);
            out.reserve(p.len() / 24);
            piece.feed_lines(p, out);
            piece
        })
        .collect();
    for piece in parsers {
        parser.absorb(piece);
    }
}

/// `text` in about `n` pieces of whole lines (each piece without its
/// final newline), none under [`PIECE`] bytes but the last.
fn cut(text: &[u8], n: usize) -> Vec<&[u8]> {
    let size = (text.len() / n).max(PIECE);
    let mut pieces = Vec::with_capacity(n);
    let mut rest = text;
    while rest.len() > size {
        match memchr::memchr(b'\n', &rest[size..]) {
            Some(i) => {
                pieces.push(&rest[..size + i]);
                rest = &rest[size + i + 1..];
            }
            None => break,
        }
    }
    pieces.push(rest);
    pieces
}

#[cfg(test)]
mod tests {
    use super::super::{LogContext, read_bytes};
    use super::*;
    use crate::timeseries::Kind;

    #[test]
    fn pieces_are_whole_lines_and_cover_the_text() {
        let text: Vec<u8> = (0..100_000)
            .flat_map(|i| format!("{i}, 5, 0, 4096, 0\n").into_bytes())
            .collect();
        let text = &text[..text.len() - 1];
        let pieces = cut(text, 4);
        assert!(pieces.len() >= 4, "{}", pieces.len());
        let joined = pieces.join(&b'\n');
        assert_eq!(joined, text);
        assert!(
            pieces
                .iter()
                .all(|p| p.first() != Some(&b'\n') && p.last() != Some(&b'\n'))
        );
    }

    #[test]
    fn a_block_read_in_pieces_gives_what_one_thread_gives() {
        // Past two pieces: lines with a bad value, a time going back at a
        // piece boundary or inside, and a time past 2^53, spread out.
        let mut text = String::new();
        for i in 0..120_000u64 {
            let t = match i {
                50_000 => 3,
                90_001 => 1 << 60,
                _ => i / 10,
            };
            let v = if i % 20_000 == 7 {
                "x".to_string()
            } else {
                (1000 + i % 97).to_string()
            };
            text.push_str(&format!("{t}, {v}, {}, 4096, 0\n", i % 2));
        }
        let ctx = LogContext::new(0, Kind::Clat);
        let (rows, stats) = read_bytes(text.as_bytes(), &ctx).unwrap();
        // The same lines fed a few at a time never reach the piece size.
        let mut parser = LogParser::new(ctx);
        let mut one = Vec::new();
        let mut parts = Parts::default();
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        for group in lines.chunks(3000) {
            let chunk = group.concat();
            assert!(chunk.len() < 2 * PIECE);
            feed(&mut parser, chunk.as_bytes(), &mut parts).unwrap();
            assert_eq!(parts.iter().count(), 1);
            parts.iter().for_each(|p| one.extend(p.rows()));
            parts.clear();
        }
        assert_eq!(rows, one);
        assert_eq!(stats, parser.finish());
        assert_eq!(stats.rows, 120_000 - 6 - 1);
        assert!(
            stats
                .warnings
                .iter()
                .any(|w| w.starts_with("line 50001: time goes back")),
            "{:?}",
            stats.warnings
        );
    }
}
