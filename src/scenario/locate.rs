//! Finding the byte span of the value at a JSON path in the source text, so
//! that semantic errors (unknown card, value out of range) can point at the
//! offending value. A minimal scanner: the text has already been parsed
//! successfully by serde_json, so it is valid JSON.

/// One path segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// Renders a path as `state.players.p1.zones.field[0]`.
pub fn render(path: &[Seg]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Seg::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// Byte range of the value at `path`, or of the nearest ancestor found.
pub fn span(src: &str, path: &[Seg]) -> Option<(usize, usize)> {
    let b = src.as_bytes();
    let start = skip_ws(b, 0);
    match nearest(src, path)? {
        Some(found) => Some(found),
        // The whole document: its end costs a pass over the text, so it is
        // found only when no key of the path was (every scenario load
        // locates its `expect`).
        None => value_end(b, start).map(|e| (start, e)),
    }
}

/// The byte range of the value at `path` or of its nearest ancestor below
/// the document (`Some(None)`: not even the path's first key); `None` when
/// the text is not well-formed on the way.
fn nearest(src: &str, path: &[Seg]) -> Option<Option<(usize, usize)>> {
    let b = src.as_bytes();
    let mut pos = skip_ws(b, 0);
    let mut best = None;
    for seg in path {
        pos = skip_ws(b, pos);
        match (seg, b.get(pos)) {
            (Seg::Key(k), Some(b'{')) => {
                let mut p = skip_ws(b, pos + 1);
                let mut found = None;
                while b.get(p) == Some(&b'"') {
                    let kend = string_end(b, p)?;
                    let key: String = serde_json::from_str(&src[p..kend]).ok()?;
                    p = skip_ws(b, kend);
                    if b.get(p) != Some(&b':') {
                        return Some(best);
                    }
                    p = skip_ws(b, p + 1);
                    let vend = value_end(b, p)?;
                    if &key == k {
                        found = Some((p, vend));
                        break;
                    }
                    p = skip_ws(b, vend);
                    if b.get(p) == Some(&b',') {
                        p = skip_ws(b, p + 1);
                    }
                }
                match found {
                    Some(f) => {
                        pos = f.0;
                        best = Some(f);
                    }
                    None => return Some(best),
                }
            }
            (Seg::Index(i), Some(b'[')) => {
                let mut p = skip_ws(b, pos + 1);
                let mut n = 0;
                let mut found = None;
                while p < b.len() && b[p] != b']' {
                    let vend = value_end(b, p)?;
                    if n == *i {
                        found = Some((p, vend));
                        break;
                    }
                    n += 1;
                    p = skip_ws(b, vend);
                    if b.get(p) == Some(&b',') {
                        p = skip_ws(b, p + 1);
                    }
                }
                match found {
                    Some(f) => {
                        pos = f.0;
                        best = Some(f);
                    }
                    None => return Some(best),
                }
            }
            _ => return Some(best),
        }
    }
    Some(best)
}

fn skip_ws(b: &[u8], mut p: usize) -> usize {
    while p < b.len() && b[p].is_ascii_whitespace() {
        p += 1;
    }
    p
}

fn string_end(b: &[u8], p: usize) -> Option<usize> {
    let mut q = p + 1;
    while q < b.len() {
        match b[q] {
            b'\\' => q += 2,
            b'"' => return Some(q + 1),
            _ => q += 1,
        }
    }
    None
}

fn value_end(b: &[u8], p: usize) -> Option<usize> {
    match b.get(p)? {
        b'"' => string_end(b, p),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut q = p;
            while q < b.len() {
                match b[q] {
                    b'"' => {
                        q = string_end(b, q)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(q + 1);
                        }
                    }
                    _ => {}
                }
                q += 1;
            }
            None
        }
        _ => {
            let mut q = p;
            while q < b.len() && !matches!(b[q], b',' | b'}' | b']') && !b[q].is_ascii_whitespace()
            {
                q += 1;
            }
            Some(q)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nested_values_after_japanese_text() {
        let src = r#"{"name": "攻撃テスト", "a": {"b": [1, {"c": "値"}, 3]}}"#;
        let p = [
            Seg::Key("a".into()),
            Seg::Key("b".into()),
            Seg::Index(1),
            Seg::Key("c".into()),
        ];
        let (s, e) = span(src, &p).unwrap();
        assert_eq!(&src[s..e], "\"値\"");
        assert_eq!(render(&p), "a.b[1].c");
        // A missing key falls back to the nearest ancestor.
        let (s, e) = span(src, &[Seg::Key("a".into()), Seg::Key("zz".into())]).unwrap();
        assert_eq!(&src[s..e], r#"{"b": [1, {"c": "値"}, 3]}"#);
    }
}
