//! Bytes to text: UTF-8 with or without BOM, UTF-16LE/BE with BOM (Windows
//! PowerShell `>`), CRLF line ends; then splitting into JSON documents and
//! the text around them.
//!
//! fio's JSON writer puts each document's opening `{` at the start of a
//! line, and everything else fio prints (warnings, notes, the normal output
//! of `--output-format=json,normal`) is plain text around it. So a document
//! starts at a line-start `{` and ends where its braces balance (strings
//! respected); the readers then parse each document exactly once.

use std::borrow::Cow;

/// Why bytes are not text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("empty file")]
    Empty,
    #[error("binary data (NUL byte at offset {0})")]
    Nul(usize),
    #[error("binary data (invalid UTF-8 at offset {0})")]
    InvalidUtf8(usize),
    #[error("binary data (invalid UTF-16 at code unit {0})")]
    InvalidUtf16(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Utf8,
    Utf16Le,
    Utf16Be,
}

/// Decodes a result file to text with `\n` line ends. Borrows when the
/// bytes already are BOM-less UTF-8 without `\r` (the common case).
pub fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, DecodeError> {
    let (encoding, body) = detect(bytes);
    let text: Cow<'_, str> = match encoding {
        // The vector check first; std's only on a file that fails it, for
        // where the bad byte is.
        Encoding::Utf8 => {
            match simdutf8::basic::from_utf8(body).or_else(|_| std::str::from_utf8(body)) {
                Ok(s) => Cow::Borrowed(s),
                // A console capture in a legacy code page (1251, 1252, 866):
                // its bytes above 0x7F are not UTF-8, yet it is text, and the
                // results in it are ASCII. Unknown characters become U+FFFD.
                Err(_) if looks_like_text(body) => String::from_utf8_lossy(body),
                Err(e) => {
                    return Err(DecodeError::InvalidUtf8(
                        e.valid_up_to() + (bytes.len() - body.len()),
                    ));
                }
            }
        }
        Encoding::Utf16Le | Encoding::Utf16Be => Cow::Owned(decode_utf16(body, encoding)?),
    };
    if text.trim().is_empty() {
        return Err(DecodeError::Empty);
    }
    // One pass for both: most files have neither a NUL nor a CR.
    if memchr::memchr2(0, b'\r', text.as_bytes()).is_none() {
        return Ok(text);
    }
    if let Some(pos) = memchr::memchr(0, text.as_bytes()) {
        return Err(DecodeError::Nul(pos));
    }
    Ok(normalize_newlines(text))
}

/// Text in some 8-bit code page: no NUL, and control characters other
/// than tab, line ends, form feed and escape are rare (under 1 %), where
/// binary data has one byte in eight of them.
fn looks_like_text(bytes: &[u8]) -> bool {
    let control = |b: &&u8| **b < 0x20 && !matches!(**b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b);
    !bytes.contains(&0) && bytes.iter().filter(control).count() * 100 <= bytes.len()
}

/// Picks the encoding from the BOM or, without one, from the NUL pattern
/// of UTF-16 ASCII text (every other byte NUL), and strips the BOM.
fn detect(bytes: &[u8]) -> (Encoding, &[u8]) {
    if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return (Encoding::Utf8, rest);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        return (Encoding::Utf16Le, rest);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        return (Encoding::Utf16Be, rest);
    }
    // BOM-less UTF-16: fio output is ASCII, so one byte of each pair is NUL.
    // Look at a prefix only; a binary file that passes this test still
    // fails later on NULs or invalid code units.
    let probe = &bytes[..bytes.len().min(256) & !1];
    if probe.len() >= 4 {
        let pairs = probe.len() / 2;
        let even_nul = probe.iter().step_by(2).filter(|&&b| b == 0).count();
        let odd_nul = probe.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
        if odd_nul * 10 >= pairs * 9 && even_nul == 0 {
            return (Encoding::Utf16Le, bytes);
        }
        if even_nul * 10 >= pairs * 9 && odd_nul == 0 {
            return (Encoding::Utf16Be, bytes);
        }
    }
    (Encoding::Utf8, bytes)
}

fn decode_utf16(body: &[u8], encoding: Encoding) -> Result<String, DecodeError> {
    let units = body.chunks_exact(2).map(|c| match encoding {
        Encoding::Utf16Be => u16::from_be_bytes([c[0], c[1]]),
        _ => u16::from_le_bytes([c[0], c[1]]),
    });
    let mut out = String::with_capacity(body.len() / 2);
    for (i, ch) in char::decode_utf16(units).enumerate() {
        out.push(ch.map_err(|_| DecodeError::InvalidUtf16(i))?);
    }
    if body.len() % 2 == 1 {
        return Err(DecodeError::InvalidUtf16(body.len() / 2));
    }
    Ok(out)
}

fn normalize_newlines(text: Cow<'_, str>) -> Cow<'_, str> {
    if memchr::memchr(b'\r', text.as_bytes()).is_none() {
        return text;
    }
    // CRLF -> LF; a lone CR (old Mac, or a progress line) becomes LF too.
    Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
}

/// What a part of a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegmentKind {
    /// One JSON document (possibly truncated: then its braces never close).
    Json,
    /// Text between documents, never whitespace only.
    Text,
}

/// A part of a decoded file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment<'a> {
    pub kind: SegmentKind,
    pub text: &'a str,
    /// 1-based line the segment starts on, for messages.
    pub line: usize,
}

/// Splits decoded text into JSON documents and the text around them.
pub fn segments(text: &str) -> Vec<Segment<'_>> {
    segments_with(text, |_| None)
}

/// [`segments`], with a parser that may find where each document ends:
/// `doc_len` gets the text from a document's `{` to the end of the file
/// and returns the document's length when it could read it. Where it
/// cannot (truncated, `nan`, not JSON), the braces are counted instead.
/// Both agree on every well-formed document; the parser saves a scan of
/// every byte of the common file.
pub fn segments_with<'a>(
    text: &'a str,
    mut doc_len: impl FnMut(&'a str) -> Option<usize>,
) -> Vec<Segment<'a>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut text_start = 0;
    let mut pos = 0;
    while let Some(start) = next_line_start_brace(bytes, pos) {
        push_text(&mut out, text, text_start, start);
        let end = doc_len(&text[start..])
            .map(|len| start + len)
            .or_else(|| json_end(bytes, start))
            .unwrap_or(bytes.len());
        out.push(Segment {
            kind: SegmentKind::Json,
            text: &text[start..end],
            line: line_of(bytes, start),
        });
        pos = end;
        text_start = end;
    }
    push_text(&mut out, text, text_start, bytes.len());
    out
}

fn push_text<'a>(out: &mut Vec<Segment<'a>>, text: &'a str, start: usize, end: usize) {
    let s = &text[start..end];
    if !s.trim().is_empty() {
        out.push(Segment {
            kind: SegmentKind::Text,
            text: s,
            line: line_of(text.as_bytes(), start),
        });
    }
}

fn line_of(bytes: &[u8], pos: usize) -> usize {
    1 + bytes[..pos].iter().filter(|&&b| b == b'\n').count()
}

/// Position of the next `{` that starts a line (leading blanks allowed)
/// and opens a JSON object: a key's `"`, or `}`, comes next. A script's
/// log that prints a Python dict (`{'run': True}`) is text around the
/// results, not a broken document.
fn next_line_start_brace(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    let mut at_line_start = from == 0 || bytes.get(from.wrapping_sub(1)) == Some(&b'\n');
    while i < bytes.len() {
        match bytes[i] {
            b'{' if at_line_start && opens_object(&bytes[i + 1..]) => return Some(i),
            b'\n' => at_line_start = true,
            b' ' | b'\t' => {}
            _ => at_line_start = false,
        }
        i += 1;
    }
    None
}

/// Whether what follows a `{` can be a JSON object's inside: blanks, then
/// a key's quote, the closing brace, or the end of a truncated file.
fn opens_object(after: &[u8]) -> bool {
    match after.iter().find(|b| !b.is_ascii_whitespace()) {
        None | Some(b'"') | Some(b'}') => true,
        Some(_) => false,
    }
}

/// End (exclusive) of the JSON value opening at `start`, or None when the
/// braces never balance (a truncated document). This scan reads every
/// byte of every file, so it jumps with `memchr` from one byte that matters
/// to the next: quotes and braces, and brackets, which are rare in fio's
/// JSON and so are looked up ahead once and again only when passed.
fn json_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = start;
    let mut bracket = next_bracket(bytes, i);
    loop {
        if bracket.is_some_and(|b| b < i) {
            bracket = next_bracket(bytes, i);
        }
        let other = memchr::memchr3(b'"', b'{', b'}', bytes.get(i..)?).map(|k| i + k);
        let at = match (other, bracket) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        match bytes[at] {
            b'"' => {
                i = string_end(bytes, at + 1)? + 1;
                continue;
            }
            b'{' | b'[' => depth += 1,
            _ => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(at + 1);
                }
            }
        }
        i = at + 1;
    }
}

fn next_bracket(bytes: &[u8], from: usize) -> Option<usize> {
    memchr::memchr2(b'[', b']', bytes.get(from..)?).map(|k| from + k)
}

/// Index of the quote that closes the string whose body starts at `from`
/// (a backslash escapes the byte after it); None when it never closes.
fn string_end(bytes: &[u8], mut from: usize) -> Option<usize> {
    loop {
        let at = from + memchr::memchr2(b'"', b'\\', bytes.get(from..)?)?;
        if bytes[at] == b'"' {
            return Some(at);
        }
        from = at + 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(s: &str, be: bool, bom: bool) -> Vec<u8> {
        let mut out = Vec::new();
        let units = bom.then_some(0xFEFFu16).into_iter().chain(s.encode_utf16());
        for u in units {
            out.extend(if be { u.to_be_bytes() } else { u.to_le_bytes() });
        }
        out
    }

    #[test]
    fn a_python_dict_in_a_log_is_text_and_a_document_after_it_is_json() {
        let log = "{'run': True, 'print_only': False}\n/usr/bin/fio --rw=randread\n{\n  \"jobs\": []\n}\n{\n";
        let kinds: Vec<(SegmentKind, usize)> =
            segments(log).iter().map(|s| (s.kind, s.line)).collect();
        assert_eq!(
            kinds,
            [
                (SegmentKind::Text, 1),
                (SegmentKind::Json, 3),
                // A `{` at the end of a cut file still opens a document.
                (SegmentKind::Json, 6),
            ]
        );
    }

    #[test]
    fn plain_utf8_is_borrowed() {
        let t = decode(b"{\"a\": 1}\n").unwrap();
        assert!(matches!(t, Cow::Borrowed(_)));
    }

    #[test]
    fn bom_crlf_and_utf16_variants_decode_identically() {
        let plain = "note: x\n{\n  \"a\" : \"\\\\\\\\.\\\\PhysicalDrive1\"\n}\n";
        let crlf = plain.replace('\n', "\r\n");
        let mut bom8 = vec![0xEF, 0xBB, 0xBF];
        bom8.extend(crlf.as_bytes());
        for bytes in [
            bom8,
            crlf.as_bytes().to_vec(),
            utf16(&crlf, false, true),
            utf16(&crlf, true, true),
            utf16(&crlf, false, false),
            utf16(&crlf, true, false),
        ] {
            assert_eq!(decode(&bytes).unwrap(), plain);
        }
    }

    #[test]
    fn binary_and_empty_are_rejected() {
        assert_eq!(decode(b""), Err(DecodeError::Empty));
        assert_eq!(decode(b" \n\t"), Err(DecodeError::Empty));
        assert_eq!(decode(b"abc\0def"), Err(DecodeError::Nul(3)));
        assert_eq!(
            decode(b"ab\x01\xff\xfe\xfd"),
            Err(DecodeError::InvalidUtf8(3))
        );
        // PNG header
        assert!(decode(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").is_err());
        // UTF-16 with a lone surrogate
        assert!(decode(&[0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00]).is_err());
    }

    #[test]
    fn legacy_code_page_text_decodes_lossily() {
        // "Тест" in code page 1251, then ASCII results.
        let bytes = b"\xd2\xe5\xf1\xf2\r\nCommand Line: diskspd -b4K x.dat\r\n";
        let text = decode(bytes).unwrap();
        assert_eq!(
            text,
            "\u{fffd}\u{fffd}\u{fffd}\u{fffd}\nCommand Line: diskspd -b4K x.dat\n"
        );
    }

    #[test]
    fn segments_split_json_from_text() {
        let text = "fio: warning {not json}\nnote: x\n{\n \"s\": \"}{\\\"\",\n \"a\": [1, {\"b\": 2}]\n}\nnormal text\n{\"x\":1}\n{\"trunc\": [";
        let segs = segments(text);
        let kinds: Vec<_> = segs.iter().map(|s| s.kind).collect();
        use SegmentKind::*;
        assert_eq!(kinds, vec![Text, Json, Text, Json, Json]);
        assert_eq!(segs[0].text, "fio: warning {not json}\nnote: x\n");
        assert_eq!(
            segs[1].text,
            "{\n \"s\": \"}{\\\"\",\n \"a\": [1, {\"b\": 2}]\n}"
        );
        assert_eq!(segs[1].line, 3);
        assert_eq!(segs[2].text.trim(), "normal text");
        assert_eq!(segs[3].text, "{\"x\":1}");
        assert_eq!(segs[4].text, "{\"trunc\": [");
    }

    /// The byte-at-a-time scanner `json_end` replaced: the reference its
    /// faster string skipping must agree with.
    fn json_end_bytewise(bytes: &[u8], start: usize) -> Option<usize> {
        let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
        for (i, &b) in bytes.iter().enumerate().skip(start) {
            if in_string {
                match (escaped, b) {
                    (true, _) => escaped = false,
                    (false, b'\\') => escaped = true,
                    (false, b'"') => in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
        }
        None
    }

    proptest::proptest! {
        #[test]
        fn json_end_agrees_with_the_bytewise_scan(
            picks in proptest::collection::vec(0usize..8, 0..200),
            start in 0usize..8,
        ) {
            // Only the bytes the scan cares about, and one it does not.
            let bytes: Vec<u8> = picks.iter().map(|&k| b"{}[]\"\\ax"[k]).collect();
            let start = start.min(bytes.len());
            proptest::prop_assert_eq!(json_end(&bytes, start), json_end_bytewise(&bytes, start));
        }
    }

    #[test]
    fn text_only_is_one_segment() {
        let segs = segments("a: (g=0): rw=read\n  read: IOPS=1\n");
        assert_eq!(segs.len(), 1);
        assert_eq!(segs[0].kind, SegmentKind::Text);
    }
}
