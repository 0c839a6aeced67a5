//! HTML escaping and URL fragments for the generated site.

/// Escapes text content.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes an attribute value (always written in double quotes).
pub fn attr(s: &str) -> String {
    esc(s).replace('"', "&quot;")
}

/// Percent-encodes a URL fragment: every byte outside the unreserved set and
/// `.`, `:`, `-`, `_`, `~`, so links work the same on every host and browser.
pub fn href_fragment(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'~' | b':') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragments_are_percent_encoded() {
        assert_eq!(href_fragment("4.9.2-1"), "4.9.2-1");
        assert_eq!(href_fragment("1#ex1"), "1%23ex1");
        assert_eq!(href_fragment("第"), "%E7%AC%AC");
    }

    #[test]
    fn escapes() {
        assert_eq!(attr("a<\"&"), "a&lt;&quot;&amp;");
    }
}
