//! What a file's first bytes say before the rest is read: a file that is
//! not text (random bytes, an image, an archive named `.json`) is refused
//! from its first block, so a 300 MB binary costs one block of memory, not
//! its size.
//!
//! Text here is what fio writes on any system: UTF-8 or a legacy code
//! page (bytes above 0x7F are left to the decoder), UTF-16 with or without
//! a BOM, with few control characters. A NUL outside UTF-16, or many
//! control bytes, is not text.

use super::decode::DecodeError;

/// How much of a file is looked at before the rest is read.
pub const HEAD: usize = 64 << 10;

/// Why the file's first bytes cannot begin fio's output, if they cannot.
pub fn refuse(head: &[u8]) -> Option<DecodeError> {
    if utf16(head) {
        return None;
    }
    if let Some(pos) = memchr::memchr(0, head) {
        return Some(DecodeError::Nul(pos));
    }
    // Controls other than tab, newlines, form feed and ESC (colour codes):
    // none in fio's text, ~12% of random bytes.
    let controls = head
        .iter()
        .filter(|&&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b)) || b == 0x7f)
        .count();
    if controls * 100 > head.len() {
        let first = head
            .iter()
            .position(|&b| {
                b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b) || b == 0x7f
            })
            .unwrap_or(0);
        return Some(DecodeError::InvalidUtf8(first));
    }
    None
}

/// Whether a file's first [`HEAD`] bytes hold anything of fio's output:
/// its version (`fio-3.33`, `"fio version"`), a job's status or header line,
/// JSON `jobs`/`client_stats`, or a terse line (`3;fio-3.33;...`, fio 2.x
/// `2;name;...`). Asked of files larger than the head only: a large text
/// file of something else is refused without reading the rest.
pub fn fio_shaped(head: &[u8]) -> bool {
    use memchr::memmem::find;
    if utf16(head) {
        return true; // the decoder judges UTF-16 whole
    }
    // DiskSpd's too: its XML root and text headings (a 24 MB `-Rxml` of a
    // long `-D` run is larger than the head).
    const MARKS: [&[u8]; 10] = [
        b"fio",
        b"groupid=",
        b"(g=",
        b"\"jobs\"",
        b"\"client_stats\"",
        b"<Results>",
        b"Command Line:",
        b"Input parameters:",
        b"diskspd",
        b"DiskSpd",
    ];
    MARKS.iter().any(|m| find(head, m).is_some())
        || head
            .split(|&b| b == b'\n')
            .any(|l| l.len() > 2 && matches!(l[0], b'2'..=b'5') && l[1] == b';')
}

/// A UTF-16 BOM, or ASCII as UTF-16 (every other byte NUL) without one.
fn utf16(head: &[u8]) -> bool {
    if head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) {
        return true;
    }
    let probe = &head[..head.len().min(256) & !1];
    if probe.len() < 4 {
        return false;
    }
    let pairs = probe.len() / 2;
    let even = probe.iter().step_by(2).filter(|&&b| b == 0).count();
    let odd = probe.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
    (odd * 10 >= pairs * 9 && even == 0) || (even * 10 >= pairs * 9 && odd == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_passes_and_binary_is_refused() {
        let json = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/fio/linux-libaio/randread-4k.json"
        ))
        .unwrap();
        assert_eq!(refuse(&json), None);
        // UTF-16 (NULs by design) and a legacy code page (bytes > 0x7F).
        let utf16: Vec<u8> = "{\"jobs\": []}\r\n"
            .encode_utf16()
            .flat_map(|u| u.to_le_bytes())
            .collect();
        assert_eq!(refuse(&utf16), None);
        assert_eq!(refuse(b"fio: caf\xe9 \xb5s\n"), None);
        // A NUL in UTF-8 text, and random bytes without any NUL.
        assert_eq!(refuse(b"{\"a\"\0}"), Some(DecodeError::Nul(4)));
        let mut x: u32 = 2463534242;
        let random: Vec<u8> = (0..4096)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                (x >> 24) as u8
            })
            .map(|b| if b == 0 { 1 } else { b })
            .collect();
        assert!(matches!(refuse(&random), Some(DecodeError::InvalidUtf8(_))));
    }

    #[test]
    fn fio_shape_in_the_head() {
        for f in [
            "fio/linux-libaio/randread-4k.json",
            "fio/linux-libaio/randread-4k.txt",
            "fio/linux-terse/randread-4k-nj2.terse.txt",
            "wild/status-interval/normal.txt",
        ] {
            let path = format!("{}/fixtures/{f}", env!("CARGO_MANIFEST_DIR"));
            let bytes = std::fs::read(&path).unwrap();
            assert!(fio_shaped(&bytes[..bytes.len().min(HEAD)]), "{f}");
        }
        assert!(fio_shaped(b"2;randread;0;0;1024;...\n"));
        assert!(!fio_shaped("lorem ipsum\n".repeat(1000).as_bytes()));
    }
}
