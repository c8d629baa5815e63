use std::io::{Read, Write};

use super::*;

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

#[test]
fn formats_by_their_first_bytes_never_by_text() {
    assert_eq!(Codec::of(&gzip(b"x")), Some(Codec::Gzip));
    assert_eq!(
        Codec::of(&zstd::encode_all(&b"x"[..], 1).unwrap()),
        Some(Codec::Zstd)
    );
    assert_eq!(Codec::of(b"\xfd7zXZ\x00\x00"), Some(Codec::Xz));
    assert_eq!(Codec::of(b"BZh91AY&SY"), Some(Codec::Bzip2));
    // Text that starts like bzip2's name is text.
    assert_eq!(Codec::of(b"BZh9 is not a stream"), None);
    assert_eq!(Codec::of(b"{\"fio version\""), None);
    assert_eq!(Codec::of(b""), None);
    let mut tar = vec![0u8; 512];
    tar[257..262].copy_from_slice(b"ustar");
    assert_eq!(ArchiveKind::of(&tar), Some(ArchiveKind::Tar));
    assert_eq!(ArchiveKind::of(b"PK\x03\x04rest"), Some(ArchiveKind::Zip));
    assert_eq!(ArchiveKind::of(b"PK is a name"), None);
}

/// The stream of `bytes` compressed by `codec`, through the guard.
fn guarded(compressed: Vec<u8>, max: u64) -> (std::io::Result<usize>, Vec<u8>) {
    let codec = Codec::of(&compressed).unwrap();
    let (counted, consumed) = Counting::new(std::io::Cursor::new(compressed));
    let d = decoder(codec, counted).unwrap();
    let mut g = Guard::new(d, consumed, max);
    let mut out = Vec::new();
    (g.read_to_end(&mut out), out)
}

#[test]
fn the_cap_and_the_ratio_stop_a_stream() {
    // Text compresses ~10:1 and reads whole.
    let text: Vec<u8> = (0..200_000)
        .flat_map(|i: u32| format!("{i} fio\n").into_bytes())
        .collect();
    let (r, out) = guarded(gzip(&text), 1 << 30);
    assert!(r.is_ok());
    assert_eq!(out, text);
    // Past the cap.
    let (r, _) = guarded(gzip(&text), 1000);
    let e = r.unwrap_err();
    assert_eq!(refused(&e), Some(&Refused::Cap(1000)));
    // 64 MiB of zeros: ~1000:1, refused past the floor, long before its end.
    let zeros = vec![0u8; 64 << 20];
    let (r, out) = guarded(gzip(&zeros), u64::MAX);
    let e = r.unwrap_err();
    assert!(matches!(refused(&e), Some(Refused::Ratio { .. })), "{e}");
    assert!(
        out.len() < (RATIO_FLOOR as usize) + (1 << 20),
        "{}",
        out.len()
    );
    // Below the floor, any ratio reads.
    let (r, _) = guarded(gzip(&vec![0u8; 1 << 20]), u64::MAX);
    assert!(r.is_ok());
}

#[test]
fn sizes_for_people() {
    assert_eq!(size_text(1 << 30), "1 GiB");
    assert_eq!(size_text(4096), "4 KiB");
    assert_eq!(size_text(1536), "1.5 KiB");
    assert_eq!(size_text(900), "900 B");
}
