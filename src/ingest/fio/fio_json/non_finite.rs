//! fio's JSON with bare non-finite numbers in it.
//!
//! fio prints every float with C's `%f` (`json_print_value` in json.c),
//! so a NaN or an infinity comes out as glibc's `nan`, `-nan`, `inf`,
//! `-inf` (MSVCRT builds: `1.#QNAN0`, `-1.#IND00`, `1.#INF00`), which is
//! not JSON. A standard deviation of a handful of samples is the usual
//! culprit. [`replace`] rewrites such tokens outside strings to `null` and
//! says where each one was, so the rest of the document can be read. It is
//! only called after a parse failed with a syntax error: the common path
//! never pays for it.

/// One bare non-finite token that was read as `null`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NonFinite {
    /// Where in the document, e.g. `jobs[0].read.clat_ns.stddev`.
    pub path: String,
    /// 1-based line of the token.
    pub line: usize,
    /// The token as fio printed it (`-nan`).
    pub token: String,
}

/// An object or array being scanned.
struct Container {
    /// How its parent names it: a key, or `[i]`.
    name: String,
    array: bool,
    /// Index of the current element (arrays).
    index: usize,
    /// Key of the current member (objects).
    key: Option<String>,
}

impl Container {
    /// The object or array opening inside `parent`, named by the key or
    /// index it is the value of.
    fn open(parent: Option<&Container>, array: bool) -> Container {
        let name = match parent {
            None => String::new(),
            Some(p) if p.array => format!("[{}]", p.index),
            Some(p) => p.key.clone().unwrap_or_default(),
        };
        Container {
            name,
            array,
            index: 0,
            key: None,
        }
    }
}

/// `text` with every bare non-finite number replaced by `null`, and where
/// they were; `None` when there is none.
pub fn replace(text: &str) -> Option<(String, Vec<NonFinite>)> {
    let b = text.as_bytes();
    let mut out = String::new();
    let mut found = Vec::new();
    let mut stack: Vec<Container> = Vec::new();
    let mut copied = 0;
    let mut line = 1;
    // Last byte outside strings that was not blank: a value starts after
    // `:`, `,` or `[`.
    let mut last = 0u8;
    let mut last_string = (0, 0);
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'"' => {
                let end = string_end(b, i);
                last_string = (i + 1, end.saturating_sub(1).max(i + 1));
                last = b'"';
                i = end;
                continue;
            }
            b'\n' => line += 1,
            b':' => {
                if let Some(f) = stack.last_mut() {
                    f.key = text.get(last_string.0..last_string.1).map(str::to_string);
                }
            }
            b'{' | b'[' => stack.push(Container::open(stack.last(), c == b'[')),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(f) = stack.last_mut() {
                    if f.array {
                        f.index += 1;
                    } else {
                        f.key = None;
                    }
                }
            }
            _ if matches!(last, b':' | b',' | b'[') => {
                if let Some(len) = token_len(&b[i..]) {
                    out.push_str(&text[copied..i]);
                    out.push_str("null");
                    found.push(NonFinite {
                        path: path(&stack),
                        line,
                        token: text[i..i + len].to_string(),
                    });
                    i += len;
                    copied = i;
                    last = b'l';
                    continue;
                }
            }
            _ => {}
        }
        if !c.is_ascii_whitespace() {
            last = c;
        }
        i += 1;
    }
    if found.is_empty() {
        return None;
    }
    out.push_str(&text[copied..]);
    Some((out, found))
}

/// Index after the string opening at `start` (or the end of the text).
fn string_end(b: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// Length of a non-finite token at the start of `b`, when it is one and
/// ends where a JSON value may end.
fn token_len(b: &[u8]) -> Option<usize> {
    let sign = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let rest = &b[sign..];
    let lower = |n: usize| rest.get(..n).map(|s| s.to_ascii_lowercase());
    let body = if lower(8).as_deref() == Some(b"infinity".as_slice()) {
        8
    } else if matches!(lower(3).as_deref(), Some(b"nan" | b"inf")) {
        3
    } else if rest.len() > 3 && rest[0].is_ascii_digit() && &rest[1..3] == b".#" {
        // MSVCRT: `1.#QNAN0`, `-1.#IND00`, `1.#INF00`, `1.#SNAN0`.
        let word = rest[3..]
            .iter()
            .take_while(|c| c.is_ascii_alphabetic())
            .count();
        if !matches!(&rest[3..3 + word], b"QNAN" | b"SNAN" | b"IND" | b"INF") {
            return None;
        }
        let digits = rest[3 + word..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        3 + word + digits
    } else {
        return None;
    };
    let len = sign + body;
    match b.get(len) {
        None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') => Some(len),
        _ => None,
    }
}

fn path(stack: &[Container]) -> String {
    let mut p = String::new();
    for f in stack.iter().skip(1) {
        if !f.name.starts_with('[') && !p.is_empty() {
            p.push('.');
        }
        p.push_str(&f.name);
    }
    match stack.last() {
        Some(f) if f.array => p.push_str(&format!("[{}]", f.index)),
        Some(Container { key: Some(k), .. }) => {
            if !p.is_empty() {
                p.push('.');
            }
            p.push_str(k);
        }
        _ => {}
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_outside_strings_become_null() {
        let text = "{\n \"jobs\" : [\n  {\"name\" : \"nan inf\",\n   \"read\" : {\"iops\" : -nan, \"x\" : [1, inf, NaN]},\n   \"w\" : 1.#QNAN0, \"t\" : -1.#IND00,\n   \"ok\" : -1.5, \"n\" : null, \"s\" : \"-nan\"}\n ]\n}\n";
        let (clean, found) = replace(text).unwrap();
        let v: serde_json::Value = serde_json::from_str(&clean).unwrap();
        assert_eq!(v["jobs"][0]["name"], "nan inf");
        assert_eq!(v["jobs"][0]["s"], "-nan");
        assert_eq!(v["jobs"][0]["ok"], -1.5);
        assert!(v["jobs"][0]["read"]["iops"].is_null());
        assert_eq!(
            v["jobs"][0]["read"]["x"],
            serde_json::json!([1, null, null])
        );
        let got: Vec<(&str, usize, &str)> = found
            .iter()
            .map(|f| (f.path.as_str(), f.line, f.token.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("jobs[0].read.iops", 4, "-nan"),
                ("jobs[0].read.x[1]", 4, "inf"),
                ("jobs[0].read.x[2]", 4, "NaN"),
                ("jobs[0].w", 5, "1.#QNAN0"),
                ("jobs[0].t", 5, "-1.#IND00"),
            ]
        );
    }

    #[test]
    fn nothing_to_replace_is_none() {
        assert_eq!(replace("{\"a\" : \"nan\", \"b\" : [null, 1e5]}"), None);
        // Words that only start like a token are left to the parser.
        assert_eq!(replace("{\"a\" : nano}"), None);
        assert_eq!(replace("{\"a\" : 1.#QNANX}"), None);
    }
}
