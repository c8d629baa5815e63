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
    let mut g = Guard::new(d, consumed, max, codec.ratio());
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
    // 64 MiB of zeros: ~1030:1, refused past the floor, long before its end.
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

/// fio's histogram log of a job that did no I/O for `lines` intervals:
/// each line its time, direction, block size and 1,216 zero counts.
fn idle_histogram_log(lines: u64) -> Vec<u8> {
    let zeros = ", 0".repeat(1216);
    let mut out = Vec::new();
    for i in 1..=lines {
        out.extend_from_slice(format!("{}, 0, 4096{zeros}\n", i * 1000).as_bytes());
    }
    out
}

#[test]
fn the_most_compressible_real_output_reads_whole() {
    // ~17.5 MiB (past the floor): ~460:1 by `gzip -9` (flate2's encoder
    // reaches less), ~1,050:1 by zstd -3 (which the one 1000:1 rule
    // before refused).
    let log = idle_histogram_log(7000);
    assert!(log.len() as u64 > RATIO_FLOOR);
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(&log).unwrap();
    let gz = e.finish().unwrap();
    let ratio = log.len() / gz.len();
    assert!((150..DEFLATE_RATIO as usize).contains(&ratio), "{ratio}");
    let (r, out) = guarded(gz, 1 << 30);
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(out.len(), log.len());
    let zst = zstd::encode_all(&log[..], 3).unwrap();
    let ratio = log.len() / zst.len();
    assert!((1000..LONG_RATIO as usize).contains(&ratio), "{ratio}");
    let (r, out) = guarded(zst, 1 << 30);
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(out.len(), log.len());
}

#[test]
fn each_codec_says_its_own_limit() {
    // A zstd bomb (RLE blocks, ~32,000:1) refused at zstd's limit.
    let zeros = vec![0u8; 64 << 20];
    let (r, out) = guarded(zstd::encode_all(&zeros[..], 3).unwrap(), u64::MAX);
    let e = r.unwrap_err();
    assert!(
        matches!(
            refused(&e),
            Some(Refused::Ratio {
                limit: LONG_RATIO,
                ..
            })
        ),
        "{e}"
    );
    assert!(e.to_string().contains("more than 5000:1"), "{e}");
    assert!(out.len() < (RATIO_FLOOR as usize) + (1 << 20));
    let (r, _) = guarded(gzip(&zeros), u64::MAX);
    let e = r.unwrap_err();
    assert!(e.to_string().contains("more than 700:1"), "{e}");
}

#[test]
fn sizes_for_people() {
    assert_eq!(size_text(1 << 30), "1 GiB");
    assert_eq!(size_text(4096), "4 KiB");
    assert_eq!(size_text(1536), "1.5 KiB");
    assert_eq!(size_text(900), "900 B");
}
