//! The query language (issue 3, "Query language"):
//! - words separated by spaces are ANDed, as the PMV web edition's own search
//!   box does (スペースで区切って複数の単語で検索);
//! - `"quoted phrases"` are matched literally (no synonym expansion);
//! - `-word` excludes clauses that match `word`;
//! - `a OR b` matches either (binds tighter than the implicit AND).
//!
//! Every word is itself a phrase: its characters must stand together.

/// One word or phrase of a query, as typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    /// Written in quotes: matched literally, never expanded.
    pub quoted: bool,
}

/// Alternatives of which a clause must match at least one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub alts: Vec<Word>,
}

/// A parsed query: every group must match; no exclusion may match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    pub groups: Vec<Group>,
    pub excludes: Vec<Word>,
}

/// Why a query cannot be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryError {
    pub message: String,
    pub help: String,
}

#[derive(Debug, PartialEq)]
enum Tok {
    Word { word: Word, negated: bool },
    Or,
}

fn is_quote(c: char) -> bool {
    matches!(c, '"' | '“' | '”' | '＂')
}

fn lex(input: &str) -> Result<Vec<Tok>, QueryError> {
    let mut toks = Vec::new();
    let mut chars = input.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let Some(&c) = chars.peek() else { break };
        let mut negated = false;
        if c == '-' || c == '－' {
            chars.next();
            negated = true;
        }
        if chars.peek().is_some_and(|&c| is_quote(c)) {
            chars.next();
            let mut text = String::new();
            let mut closed = false;
            for c in chars.by_ref() {
                if is_quote(c) {
                    closed = true;
                    break;
                }
                text.push(c);
            }
            if !closed {
                return Err(QueryError {
                    message: format!("unclosed quote in `{input}`"),
                    help: "close the phrase with a second `\"`, e.g. \"check timing\"".into(),
                });
            }
            toks.push(Tok::Word {
                word: Word { text, quoted: true },
                negated,
            });
            continue;
        }
        let mut text = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() {
                break;
            }
            text.push(c);
            chars.next();
        }
        if text.is_empty() {
            // A lone `-`: nothing to exclude.
            return Err(QueryError {
                message: "`-` must be followed by a word to exclude".into(),
                help: "write -word (no space), e.g. 守護 -アクト".into(),
            });
        }
        if text == "OR" && !negated {
            toks.push(Tok::Or);
        } else {
            toks.push(Tok::Word {
                word: Word {
                    text,
                    quoted: false,
                },
                negated,
            });
        }
    }
    Ok(toks)
}

/// Parses a query.
pub fn parse(input: &str) -> Result<Query, QueryError> {
    let toks = lex(input)?;
    let mut groups: Vec<Group> = Vec::new();
    let mut excludes = Vec::new();
    let mut pending_or = false;
    let mut last_was_word = false;
    for t in toks {
        match t {
            Tok::Or => {
                if !last_was_word || pending_or {
                    return Err(QueryError {
                        message: "`OR` needs a word on each side".into(),
                        help: "e.g. 投了 OR concede".into(),
                    });
                }
                pending_or = true;
            }
            Tok::Word { word, negated } => {
                if negated {
                    if pending_or {
                        return Err(QueryError {
                            message: "an exclusion cannot be an `OR` alternative".into(),
                            help: "write the exclusion separately: a OR b -c".into(),
                        });
                    }
                    excludes.push(word);
                    last_was_word = false;
                    continue;
                }
                match (pending_or, groups.last_mut()) {
                    (true, Some(g)) => g.alts.push(word),
                    _ => groups.push(Group { alts: vec![word] }),
                }
                pending_or = false;
                last_was_word = true;
            }
        }
    }
    if pending_or {
        return Err(QueryError {
            message: "the query ends with `OR`".into(),
            help: "add the alternative after OR, e.g. 投了 OR concede".into(),
        });
    }
    if groups.is_empty() {
        return Err(QueryError {
            message: if excludes.is_empty() {
                "empty query".into()
            } else {
                "a query of only exclusions matches nothing".into()
            },
            help: "give at least one word to search for, e.g. judge search 守護".into(),
        });
    }
    Ok(Query { groups, excludes })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(t: &str) -> Word {
        Word {
            text: t.into(),
            quoted: false,
        }
    }

    #[test]
    fn words_and_or_and_exclusion() {
        let q = parse("投了 OR concede 敗北 -ルールエフェクト").unwrap();
        assert_eq!(q.groups.len(), 2);
        assert_eq!(q.groups[0].alts, vec![w("投了"), w("concede")]);
        assert_eq!(q.groups[1].alts, vec![w("敗北")]);
        assert_eq!(q.excludes, vec![w("ルールエフェクト")]);
    }

    #[test]
    fn quoted_phrases_keep_spaces_and_are_literal() {
        let q = parse("\"check timing\" -\"last words\"").unwrap();
        assert_eq!(
            q.groups[0].alts,
            vec![Word {
                text: "check timing".into(),
                quoted: true
            }]
        );
        assert!(q.excludes[0].quoted);
    }

    #[test]
    fn bad_queries_are_rejected() {
        for bad in [
            "",
            "   ",
            "OR",
            "a OR",
            "OR a",
            "a OR OR b",
            "-a",
            "\"open",
            "- a",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} should be rejected");
        }
        // Lower-case `or` is an ordinary word.
        assert_eq!(parse("a or b").unwrap().groups.len(), 3);
    }
}
