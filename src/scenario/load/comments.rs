//! `//` comments anywhere an object is allowed: every `"//": value` member
//! is blanked out of the text before it is parsed. Blanking replaces bytes
//! with spaces (newlines kept), so every byte offset, line and column of
//! the rest of the file is unchanged and diagnostics still point into the
//! file as written.

use std::borrow::Cow;

/// `src` with every `"//"` member (and the comma that separates it) turned
/// into spaces. Text that is not well-formed JSON is returned unchanged
/// from the first point of confusion on; the parser then reports it.
pub fn blank(src: &str) -> Cow<'_, str> {
    if !src.contains("\"//\"") {
        return Cow::Borrowed(src);
    }
    let b = src.as_bytes();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    // Per open container: is it an object, are we before a key, and where
    // its last separating comma is.
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' | b'[' => {
                stack.push(Frame {
                    object: b[i] == b'{',
                    want_key: b[i] == b'{',
                    comma: None,
                });
                i += 1;
            }
            b'}' | b']' => {
                stack.pop();
                i += 1;
            }
            b',' => {
                if let Some(f) = stack.last_mut() {
                    f.comma = Some(i);
                    f.want_key = f.object;
                }
                i += 1;
            }
            b':' => {
                if let Some(f) = stack.last_mut() {
                    f.want_key = false;
                }
                i += 1;
            }
            b'"' => {
                let Some(end) = string_end(b, i) else { break };
                let is_key = stack.last().is_some_and(|f| f.object && f.want_key);
                if is_key && &b[i..end] == b"\"//\"" {
                    let Some(span) = member(b, i, end) else { break };
                    let (mut from, mut to) = span;
                    let after = skip_ws(b, to);
                    if b.get(after) == Some(&b',') {
                        to = after + 1;
                    } else if let Some(c) = stack.last().and_then(|f| f.comma) {
                        // The last member: blank the comma before it.
                        spans.push((c, c + 1));
                    }
                    from = from.min(i);
                    spans.push((from, to));
                    i = to;
                    // The object is again before a key (or at its end).
                    if let Some(f) = stack.last_mut() {
                        f.want_key = true;
                    }
                } else {
                    i = end;
                }
            }
            _ => i += 1,
        }
    }
    if spans.is_empty() {
        return Cow::Borrowed(src);
    }
    let mut out = b.to_vec();
    for (from, to) in spans {
        for c in &mut out[from..to] {
            if *c != b'\n' && *c != b'\r' {
                *c = b' ';
            }
        }
    }
    // Only ASCII bytes were replaced by spaces, and whole UTF-8 sequences
    // inside strings: the result is valid UTF-8.
    match String::from_utf8(out) {
        Ok(s) => Cow::Owned(s),
        Err(_) => Cow::Borrowed(src),
    }
}

struct Frame {
    object: bool,
    want_key: bool,
    comma: Option<usize>,
}

/// The end (exclusive) of the string starting at `start` (a `"`).
fn string_end(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// The span of the member whose key is `[key, key_end)`: from the key to
/// the end of its value.
fn member(b: &[u8], key: usize, key_end: usize) -> Option<(usize, usize)> {
    let colon = skip_ws(b, key_end);
    if b.get(colon) != Some(&b':') {
        return None;
    }
    let v = skip_ws(b, colon + 1);
    Some((key, value_end(b, v)?))
}

/// The end (exclusive) of the JSON value starting at `i`.
fn value_end(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => string_end(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b'"' => {
                        j = string_end(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
            {
                j += 1;
            }
            Some(j)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> serde_json::Value {
        serde_json::from_str(&blank(s)).unwrap()
    }

    #[test]
    fn comments_vanish_wherever_they_are_and_offsets_stay() {
        let src = r#"{"a": 1, "//": {"x": [1, "}"]}, "b": {"//": "only"}, "c": [{"d": 2, "//": "last"}]}"#;
        let out = blank(src);
        assert_eq!(out.len(), src.len());
        assert_eq!(
            parse(src),
            serde_json::json!({"a": 1, "b": {}, "c": [{"d": 2}]})
        );
        // A `"//"` string that is a value, not a key, stays.
        assert_eq!(parse(r#"{"k": "//"}"#), serde_json::json!({"k": "//"}));
        assert_eq!(parse(r#"["//", 1]"#), serde_json::json!(["//", 1]));
        // Newlines survive, so line numbers after a comment stay.
        let multi = "{\"//\": \"x\",\n \"a\": 1}";
        assert_eq!(blank(multi).lines().count(), 2);
        // Japanese inside a comment is blanked byte for byte.
        assert_eq!(
            parse(r#"{"//": "日本語", "a": 1}"#),
            serde_json::json!({"a": 1})
        );
    }

    #[test]
    fn malformed_text_is_left_for_the_parser() {
        for s in [
            r#"{"//": "#,
            r#"{"//" 1}"#,
            r#"{"//": "unterminated}"#,
            "{\"//\"",
        ] {
            let _ = blank(s); // no panic
        }
    }
}
