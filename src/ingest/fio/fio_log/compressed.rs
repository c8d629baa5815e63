//! fio's compressed logs (`log_store_compressed=1`, `NAME.log.fz`): zlib
//! streams, one after another, of fio's in-memory `struct io_sample`s
//! (iolog.h), which `fio --inflate-log` turns into the text lines of an
//! ordinary log (iolog.c `iolog_file_inflate` and `flush_samples`). This
//! does the same, a block at a time, and hands the text to the line
//! parser, so a `.fz` log gives the rows its inflated text gives.
//!
//! A sample, native byte order (little-endian on the machines fio runs
//! on), fio 3.0 to 3.36:
//!
//! | bytes | field |
//! | --- | --- |
//! | 0-7 | time, ms |
//! | 8-15 | value (signed) |
//! | 16-19 | ddir, with bit 31 = the sample has an offset, bit 30 = `log_prio` |
//! | 20-21 | priority (u16 from 3.30; a u8 0/1 in 3.18-3.29; none before) |
//! | 24-31 | bs |
//! | 32-39 | offset, when bit 31 is set |
//!
//! fio 3.37 widened the value (a mean and a max) and 3.38 made the tail
//! variable; those files are refused with the `--inflate-log` hint.

use std::io::{BufRead, BufReader, Read};

use flate2::{Decompress, FlushDecompress, Status};

const OFFSET_BIT: u32 = 0x8000_0000;
const PRIO_BIT: u32 = 0x4000_0000;
const SAMPLE: usize = 32;
const SAMPLE_OFFSET: usize = 40;
/// Decompressed bytes per step.
const OUT_BLOCK: usize = 1 << 20;

/// Why a compressed log cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum FzError {
    #[error(
        "compressed log of fio {0}.{1}: its sample layout is not read; \
         inflate it with `fio --inflate-log=FILE > FILE.log` and read that"
    )]
    Version(u32, u32),
    #[error("not fio's compressed log: {0}")]
    Zlib(String),
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
}

/// What inflating left to say besides the lines.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Inflated {
    /// Bytes of compressed file read.
    pub bytes_in: u64,
    /// A problem after some samples were read (the rest is left out).
    pub warning: Option<String>,
}

/// How fio of `version` printed a sample's priority.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PrioField {
    None,
    Bit,
    Value,
}

fn prio_field(version: Option<(u32, u32)>) -> Result<PrioField, FzError> {
    match version {
        Some((3, m)) if m >= 37 => Err(FzError::Version(3, m)),
        Some((v, m)) if v > 3 => Err(FzError::Version(v, m)),
        Some(v) if v < (3, 18) => Ok(PrioField::None),
        Some(v) if v < (3, 30) => Ok(PrioField::Bit),
        _ => Ok(PrioField::Value),
    }
}

/// Inflates the `.fz` log `file` written by fio `version` (when known),
/// handing its text to `lines` a block of whole lines at a time, with the
/// compressed bytes that block took.
pub fn inflate(
    file: impl Read,
    version: Option<(u32, u32)>,
    lines: &mut dyn FnMut(&[u8], u64) -> anyhow::Result<()>,
) -> Result<Result<Inflated, anyhow::Error>, FzError> {
    let prio = prio_field(version)?;
    let mut input = BufReader::with_capacity(1 << 20, file);
    let mut z = Decompress::new(true);
    let mut out = vec![0u8; OUT_BLOCK];
    let mut samples: Vec<u8> = Vec::new();
    let mut text: Vec<u8> = Vec::new();
    let mut done = Inflated::default();
    let mut in_stream = false;
    loop {
        let block = input.fill_buf()?;
        if block.is_empty() {
            break;
        }
        let (in0, out0) = (z.total_in(), z.total_out());
        let status = match z.decompress(block, &mut out, FlushDecompress::None) {
            Ok(s) => s,
            Err(e) if done.bytes_in == 0 && !in_stream => return Err(FzError::Zlib(e.to_string())),
            Err(e) => {
                done.warning = Some(format!(
                    "compressed data broken at byte {}: {e}; the rest of the log left out",
                    done.bytes_in
                ));
                break;
            }
        };
        let used = (z.total_in() - in0) as usize;
        let made = (z.total_out() - out0) as usize;
        input.consume(used);
        done.bytes_in += used as u64;
        in_stream = true;
        samples.extend_from_slice(&out[..made]);
        let ended = status == Status::StreamEnd;
        let rest = format_samples(&samples, prio, ended, &mut text);
        samples.drain(..samples.len() - rest);
        if !text.is_empty() || used > 0 {
            if let Err(e) = lines(&text, used as u64) {
                return Ok(Err(e));
            }
            text.clear();
        }
        if ended {
            // fio's chunks are separate zlib streams, one after another.
            if !samples.is_empty() {
                done.warning = Some(format!(
                    "{} bytes of a sample cut off at the end of a stream",
                    samples.len()
                ));
                samples.clear();
            }
            z.reset(true);
            in_stream = false;
        } else if used == 0 && made == 0 {
            break;
        }
    }
    if in_stream && done.warning.is_none() {
        done.warning = Some(
            "the log ends inside a compressed stream (cut short?); the samples before are read"
                .into(),
        );
    }
    Ok(Ok(done))
}

/// Formats the whole samples of `bytes` as fio's text lines into `text`;
/// returns how many bytes at the end were left (part of a sample). The
/// sample size is read from the first sample, as fio does per stream.
fn format_samples(bytes: &[u8], prio: PrioField, _ended: bool, text: &mut Vec<u8>) -> usize {
    use std::io::Write;
    let mut at = 0;
    while bytes.len() - at >= SAMPLE {
        let s = &bytes[at..];
        let ddir = u32::from_le_bytes(s[16..20].try_into().unwrap_or_default());
        let size = if ddir & OFFSET_BIT != 0 {
            SAMPLE_OFFSET
        } else {
            SAMPLE
        };
        if s.len() < size {
            break;
        }
        let u64_at = |i: usize| u64::from_le_bytes(s[i..i + 8].try_into().unwrap_or_default());
        let time = u64_at(0);
        let value = u64_at(8) as i64;
        let dir = ddir & !(OFFSET_BIT | PRIO_BIT);
        let bs = u64_at(24);
        let _ = write!(text, "{time}, {value}, {dir}, {bs}");
        if size == SAMPLE_OFFSET {
            let _ = write!(text, ", {}", u64_at(32));
        }
        let raw = u16::from_le_bytes([s[20], s[21]]);
        let _ = match prio {
            PrioField::None => Ok(()),
            PrioField::Bit => write!(text, ", {}", s[20]),
            PrioField::Value if ddir & PRIO_BIT != 0 => write!(text, ", 0x{raw:04x}"),
            // ioprio_value_is_class_rt: class (bits 13-15) 1.
            PrioField::Value => write!(text, ", {}", u8::from(raw >> 13 == 1)),
        };
        text.push(b'\n');
        at += size;
    }
    bytes.len() - at
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn sample(t: u64, v: i64, ddir: u32, prio: u16, bs: u64, offset: Option<u64>) -> Vec<u8> {
        let mut s = Vec::new();
        s.extend(t.to_le_bytes());
        s.extend(v.to_le_bytes());
        s.extend((ddir | if offset.is_some() { OFFSET_BIT } else { 0 }).to_le_bytes());
        s.extend(prio.to_le_bytes());
        s.extend([0, 0]);
        s.extend(bs.to_le_bytes());
        if let Some(o) = offset {
            s.extend(o.to_le_bytes());
        }
        s
    }

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn text(file: &[u8], version: Option<(u32, u32)>) -> (String, Inflated) {
        let mut out = Vec::new();
        let done = inflate(file, version, &mut |t, _| {
            out.extend_from_slice(t);
            Ok(())
        })
        .unwrap()
        .unwrap();
        (String::from_utf8(out).unwrap(), done)
    }

    #[test]
    fn streams_one_after_another_become_fios_lines() {
        let mut file = zlib(
            &[
                sample(1, 25888, 0, 0, 4096, None),
                sample(5, 6212, 1, 0x2004, 4096, None),
            ]
            .concat(),
        );
        file.extend(zlib(&sample(10, 7, 2, 0x6003, 512, Some(8192))));
        let (t, done) = text(&file, Some((3, 33)));
        assert_eq!(
            t,
            "1, 25888, 0, 4096, 0\n5, 6212, 1, 4096, 1\n10, 7, 2, 512, 8192, 0\n"
        );
        assert_eq!(
            done,
            Inflated {
                bytes_in: file.len() as u64,
                warning: None
            }
        );
        // log_prio=1 prints the raw value; fio 3.18-3.29 a 0/1 byte.
        let prio = zlib(&sample(3, 9, PRIO_BIT, 0x6003, 4096, None));
        assert_eq!(text(&prio, None).0, "3, 9, 0, 4096, 0x6003\n");
        let bit = zlib(&sample(3, 9, 0, 1, 4096, None));
        assert_eq!(text(&bit, Some((3, 20))).0, "3, 9, 0, 4096, 1\n");
        assert_eq!(text(&bit, Some((3, 10))).0, "3, 9, 0, 4096\n");
    }

    #[test]
    fn cut_short_or_not_zlib_is_said() {
        let file = zlib(
            &[
                sample(1, 2, 0, 0, 4096, None),
                sample(2, 3, 0, 0, 4096, None),
            ]
            .concat(),
        );
        let (t, done) = text(&file[..file.len() - 6], None);
        assert!(t.len() < 40, "{t}");
        assert!(done.warning.unwrap().contains("cut short"));
        let err = inflate(&b"2, 3, 0, 4096, 0\n"[..], None, &mut |_, _| Ok(())).unwrap_err();
        assert!(matches!(err, FzError::Zlib(_)), "{err}");
        assert!(matches!(
            prio_field(Some((3, 38))),
            Err(FzError::Version(3, 38))
        ));
    }
}
