//! Compressed results and archives, known by their first bytes, never by
//! their names: gzip (every member of a concatenated file), zstd (every
//! frame), xz and bzip2 streams are read in place, and what they hold is
//! sniffed as any file's bytes are; tar and zip archives are read member
//! by member ([`super::archive`]).
//!
//! Reading is bounded: a file or member that expands past the cap
//! (`--max-expanded`, 1 GiB by default), or more than its codec's
//! [`Codec::ratio`] times the compressed bytes it was read from once past
//! [`RATIO_FLOOR`], is refused with its reason, and reading stops there:
//! a gzip bomb costs a few milliseconds and [`RATIO_FLOOR`] bytes of
//! memory, never its size.

use std::cell::Cell;
use std::io::{BufRead, Read};
use std::rc::Rc;

/// A compressed stream's format, by its magic bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    Gzip,
    Zstd,
    Xz,
    Bzip2,
}

impl Codec {
    /// Its name as people say it (`gzip`), for messages.
    pub fn name(self) -> &'static str {
        match self {
            Codec::Gzip => "gzip",
            Codec::Zstd => "zstd",
            Codec::Xz => "xz",
            Codec::Bzip2 => "bzip2",
        }
    }

    /// Expanded bytes per compressed byte past which a stream of this
    /// codec is refused (past [`RATIO_FLOOR`]): [`DEFLATE_RATIO`] for
    /// gzip, [`LONG_RATIO`] for the others.
    pub fn ratio(self) -> u64 {
        match self {
            Codec::Gzip => DEFLATE_RATIO,
            Codec::Zstd | Codec::Xz | Codec::Bzip2 => LONG_RATIO,
        }
    }

    /// The stream's format from its first bytes, if compressed.
    pub fn of(head: &[u8]) -> Option<Codec> {
        match head {
            // RFC 1952: ID1 ID2 and CM 8 (deflate), the only method.
            [0x1f, 0x8b, 0x08, ..] => Some(Codec::Gzip),
            // RFC 8878: a frame's magic number, little-endian 0xFD2FB528.
            [0x28, 0xb5, 0x2f, 0xfd, ..] => Some(Codec::Zstd),
            [0xfd, b'7', b'z', b'X', b'Z', 0x00, ..] => Some(Codec::Xz),
            // "BZh", the block size '1'..'9', then a block's magic (pi) or
            // the end of stream's (sqrt(pi)): text starting "BZh9" is not.
            [b'B', b'Z', b'h', b'1'..=b'9', rest @ ..]
                if rest.starts_with(&[0x31, 0x41, 0x59, 0x26, 0x53, 0x59])
                    || rest.starts_with(&[0x17, 0x72, 0x45, 0x38, 0x50, 0x90]) =>
            {
                Some(Codec::Bzip2)
            }
            _ => None,
        }
    }
}

/// An archive's format, by its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveKind {
    Tar,
    Zip,
}

impl ArchiveKind {
    /// `tar` or `zip`, for messages.
    pub fn name(self) -> &'static str {
        match self {
            ArchiveKind::Tar => "tar",
            ArchiveKind::Zip => "zip",
        }
    }

    /// A tar (POSIX `ustar` or GNU: the magic at offset 257) or a zip
    /// (a local file header, or an empty archive's end record).
    pub fn of(head: &[u8]) -> Option<ArchiveKind> {
        if head.len() >= 262 && &head[257..262] == b"ustar" {
            return Some(ArchiveKind::Tar);
        }
        if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
            return Some(ArchiveKind::Zip);
        }
        None
    }
}

/// What a file's first bytes say it is, when it is not plain bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Packing {
    Compressed(Codec),
    Archive(ArchiveKind),
}

impl Packing {
    /// Compressed or an archive, from the file's first bytes (a few byte
    /// comparisons: every plain result pays this and nothing more).
    #[inline]
    pub fn of(head: &[u8]) -> Option<Packing> {
        Codec::of(head)
            .map(Packing::Compressed)
            .or_else(|| ArchiveKind::of(head).map(Packing::Archive))
    }
}

/// The default cap on one file's or member's expanded bytes.
pub const DEFAULT_MAX_EXPANDED: u64 = 1 << 30;

/// Expanded bytes per compressed byte past which a deflate stream (gzip,
/// a zip's deflated member) is refused. Measured (benches/compressed.md):
/// real fio output compresses 4-50:1 with `gzip -9` (JSON and json+ ~8:1,
/// per-I/O logs ~4:1, a busy histogram log ~45:1), at most ~460:1 (a
/// histogram log of an idle job: lines of 1,216 zeros); deflate cannot
/// pass ~1032:1, which a bomb of one repeated byte reaches (~1030:1,
/// ~997:1 cut into gzip members of 1 MiB). 700 sits between the two.
pub const DEFLATE_RATIO: u64 = 700;

/// The same for zstd, xz and bzip2, whose long matches take real output
/// further: the idle histogram log ~1,470:1 (`zstd -19`), ~1,670:1
/// (`xz -9`), ~2,350:1 (`bzip2 -9`); a tar of 10,000 copied results
/// ~770:1 (`xz -9`). Their bombs: ~6,800:1 (xz), ~32,000:1 (zstd),
/// ~1,000,000:1 (bzip2).
pub const LONG_RATIO: u64 = 5000;

/// Expanded bytes below which the ratio is not asked: a small file of
/// one repeated line may compress 2000:1 and harm nothing. Past it a bomb
/// is refused having cost this much memory (a few times it, with the
/// buffer's growth) and a few milliseconds; real output's ratio is
/// already near its whole file's here.
pub const RATIO_FLOOR: u64 = 4 << 20;

/// A byte count as people read it: `1 GiB`, `16 MiB`, `12.3 KiB`, `900 B`.
pub fn size_text(bytes: u64) -> String {
    const UNITS: [(u64, &str); 4] = [
        (1 << 40, "TiB"),
        (1 << 30, "GiB"),
        (1 << 20, "MiB"),
        (1 << 10, "KiB"),
    ];
    for (unit, name) in UNITS {
        if bytes >= unit {
            let v = bytes as f64 / unit as f64;
            return match bytes.is_multiple_of(unit) || v >= 100.0 {
                true => format!("{v:.0} {name}"),
                false => format!("{v:.1} {name}"),
            };
        }
    }
    format!("{bytes} B")
}

/// Why a stream was not read to its end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("expands past {} (--max-expanded); not read", size_text(*.0))]
    Cap(u64),
    #[error(
        "expands more than {limit}:1 ({} from {} read: a decompression bomb?); not read",
        size_text(*.expanded),
        size_text(*.compressed)
    )]
    Ratio {
        expanded: u64,
        compressed: u64,
        limit: u64,
    },
}

/// Bytes read from the compressed source so far, shared between the
/// counting reader under the decoder and the guard over it.
#[derive(Debug, Clone, Default)]
pub struct Consumed(Rc<Cell<u64>>);

impl Consumed {
    /// A count fixed from the start: a zip member's compressed size.
    pub fn fixed(n: u64) -> Consumed {
        Consumed(Rc::new(Cell::new(n)))
    }

    pub fn get(&self) -> u64 {
        self.0.get()
    }
}

/// Counts the bytes `inner` gives (the compressed side).
pub struct Counting<R> {
    inner: R,
    consumed: Consumed,
}

impl<R> Counting<R> {
    pub fn new(inner: R) -> (Counting<R>, Consumed) {
        let consumed = Consumed::default();
        (
            Counting {
                inner,
                consumed: consumed.clone(),
            },
            consumed,
        )
    }
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.0.set(self.consumed.0.get() + n as u64);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        self.consumed.0.set(self.consumed.0.get() + amt as u64);
        self.inner.consume(amt);
    }
}

/// A decoder of `codec` over `source` (buffered for the decoders that
/// read byte by byte).
pub fn decoder<'a, R: BufRead + 'a>(
    codec: Codec,
    source: R,
) -> std::io::Result<Box<dyn Read + 'a>> {
    Ok(match codec {
        Codec::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(source)),
        Codec::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(source)?),
        // Several streams, as `xz` writes when files are concatenated.
        Codec::Xz => Box::new(lzma_rust2::XzReader::new(source, true)),
        Codec::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(source)),
    })
}

/// The expanded side of a stream, refusing past the cap or the ratio.
/// Its errors are [`Refused`] (in an `io::Error`) or the decoder's.
pub struct Guard<R> {
    inner: R,
    /// Bytes given since the last [`Guard::restart`].
    expanded: u64,
    /// Bytes given in all, and the compressed bytes they came from.
    total: u64,
    consumed: Consumed,
    max: u64,
    /// The codec's [`Codec::ratio`].
    ratio: u64,
}

impl<R: Read> Guard<R> {
    /// `max`: the cap; `ratio`: the codec's [`Codec::ratio`].
    pub fn new(inner: R, consumed: Consumed, max: u64, ratio: u64) -> Guard<R> {
        Guard {
            inner,
            expanded: 0,
            total: 0,
            consumed,
            max,
            ratio,
        }
    }

    /// The cap counts from here (the next member of an archive); the
    /// ratio goes on over the whole stream.
    pub fn restart(&mut self) {
        self.expanded = 0;
    }

    fn check(&self) -> Result<(), Refused> {
        if self.expanded > self.max {
            return Err(Refused::Cap(self.max));
        }
        let compressed = self.consumed.get();
        if self.total > RATIO_FLOOR && self.total > compressed.saturating_mul(self.ratio) {
            return Err(Refused::Ratio {
                expanded: self.total,
                compressed,
                limit: self.ratio,
            });
        }
        Ok(())
    }
}

impl<R: Read> Read for Guard<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.expanded += n as u64;
        self.total += n as u64;
        self.check().map_err(std::io::Error::other)?;
        Ok(n)
    }
}

/// The [`Refused`] inside an I/O error, if that is what it is.
pub fn refused(e: &std::io::Error) -> Option<&Refused> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<Refused>())
}

/// Reads `from` to its end into `to`, from its start, in blocks, so a
/// refusal stops it after one block past the bound, never after a
/// doubling of the buffer; gives the bytes read, `to[..n]`. `to` is only
/// ever grown (its bytes past `n` are left as they were): a buffer kept
/// from file to file is zeroed once, not once per file (a quarter of the
/// time of a small gzip'd result was the zeroing of its first block).
/// `head` is called once with the first `first` bytes (or fewer, at the
/// end) and may stop the read.
pub fn read_all<E>(
    from: &mut dyn Read,
    to: &mut Vec<u8>,
    first: usize,
    head: &mut dyn FnMut(&[u8]) -> Result<(), E>,
) -> Result<usize, ReadAllError<E>> {
    const BLOCK: usize = 256 << 10;
    let mut filled = 0;
    let mut asked = false;
    loop {
        if to.len() < filled + BLOCK {
            to.resize(filled + BLOCK, 0);
        }
        let got = loop {
            match from.read(&mut to[filled..filled + BLOCK]) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ReadAllError::Io(e)),
            }
        };
        filled += got;
        if !asked && (filled >= first || got == 0) {
            asked = true;
            head(&to[..filled.min(first)]).map_err(ReadAllError::Head)?;
        }
        if got == 0 {
            return Ok(filled);
        }
    }
}

/// Why [`read_all`] stopped.
pub enum ReadAllError<E> {
    Io(std::io::Error),
    Head(E),
}

#[cfg(test)]
mod tests;
