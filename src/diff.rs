//! Clause-by-clause comparison of two versions of one game's rulebook
//! (`judge diff`, issue 2 §6).
//!
//! Both sides are normalised with [`fold_noise`] first (NFKC width folding,
//! whitespace removed), so a web copy that folds `（）` to `()` or drops a
//! stray space does not count as a change; such clauses are listed
//! separately as *cosmetic*. Kana are deliberately *not* folded here (unlike
//! search): カード → かーど is a real wording change a judge must see.
//!
//! Pairing, in this order:
//! 1. same id and same folded text: unchanged (or cosmetic);
//! 2. different ids with the same folded text, among the clauses not paired
//!    by step 1: *moved* (renumbered). Ids are not stable across versions
//!    (PMV renumbered 2.16 → 2.17 when 2.7 was inserted in v1.78), so this
//!    runs before any id-keyed "changed" verdict;
//! 3. same id, different text: *changed*, with a word-level diff;
//! 4. the rest: *added* or *removed*.
//!
//! When one side covers only part of the book (the PMV web edition is one
//! chapter per page), only the chapters it covers are compared, and the
//! report says so.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use similar::{Algorithm, DiffTag, capture_diff_slices};

use crate::rulebook::{Clause, ClauseIdx, Rulebook};
use unicode_normalization::UnicodeNormalization;

/// Removes the noise that extraction and web layout add: width variants
/// (NFKC) and whitespace. Nothing else: every other difference is wording.
pub fn fold_noise(s: &str) -> String {
    s.nfkc().filter(|c| !c.is_whitespace()).collect()
}

/// One side of a comparison, as shown in the report.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Side {
    /// Document id of the parsed text (`pmv`, `pmv-web`).
    pub document: String,
    /// Version as printed (or as stated in the source note).
    pub version: String,
    /// `bundled` or the path of the user's file.
    pub origin: String,
}

/// Which part of the book was compared.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Scope {
    /// True when only part of the book was compared.
    pub partial: bool,
    /// Top-level ids compared (all top-level ids of both sides when not partial).
    pub top_level: Vec<String>,
    /// Human-readable explanation when partial.
    pub note: Option<String>,
}

/// A clause present on one side only.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Entry {
    pub id: String,
    pub kind: String,
    pub title: Option<String>,
    pub text: String,
}

/// One segment of a word-level diff.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Segment {
    /// `equal`, `delete` or `insert`.
    pub op: &'static str,
    pub text: String,
}

/// A clause whose text differs between the two sides.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Changed {
    pub id: String,
    pub old: Entry,
    pub new: Entry,
    /// Word-level diff of `title` + `text` (old → new).
    pub words: Vec<Segment>,
}

/// A clause whose text is unchanged but whose id changed.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Moved {
    pub from: String,
    pub to: String,
    pub text: String,
}

/// Counts of each kind of difference.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, Default)]
pub struct Summary {
    pub added: usize,
    pub removed: usize,
    pub changed: usize,
    pub moved: usize,
    /// Clauses equal only after width/spacing normalisation (not a change).
    pub cosmetic: usize,
    /// Clauses compared on the old side.
    pub compared: usize,
}

/// The result of comparing two rulebooks.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct DiffReport {
    pub game: String,
    pub old: Side,
    pub new: Side,
    pub scope: Scope,
    /// True when nothing was added, removed, changed or moved.
    pub agree: bool,
    pub summary: Summary,
    pub added: Vec<Entry>,
    pub removed: Vec<Entry>,
    pub changed: Vec<Changed>,
    pub moved: Vec<Moved>,
    /// Ids whose text differs only in width or spacing.
    pub cosmetic: Vec<String>,
}

/// What a clause reads like, for comparison: the heading and the text.
fn full_text(c: &Clause) -> String {
    match &c.title {
        Some(t) if !c.text.is_empty() => format!("{t}\n{}", c.text),
        Some(t) => t.clone(),
        None => c.text.clone(),
    }
}

fn entry(c: &Clause) -> Entry {
    Entry {
        id: c.id.clone(),
        kind: c.kind.as_str().to_string(),
        title: c.title.clone(),
        text: c.text.clone(),
    }
}

/// The top-level ids of a book, in document order.
fn top_level(b: &Rulebook) -> Vec<String> {
    b.roots.iter().map(|&r| b.clause(r).id.clone()).collect()
}

/// Decides the compared scope. A side is *partial* when its top-level ids
/// are a strict subset of the other side's and it has at most half as many:
/// the PMV web edition holds one chapter of 13. (A new version that drops
/// one chapter is not partial: its missing chapter is reported as removed.)
fn scope(old: &Rulebook, new: &Rulebook) -> Scope {
    let (o, n) = (top_level(old), top_level(new));
    let (os, ns): (BTreeSet<&String>, BTreeSet<&String>) = (o.iter().collect(), n.iter().collect());
    let partial_side = if ns.is_subset(&os) && ns.len() < os.len() && ns.len() * 2 <= os.len() {
        Some((new, &n))
    } else if os.is_subset(&ns) && os.len() < ns.len() && os.len() * 2 <= ns.len() {
        Some((old, &o))
    } else {
        None
    };
    match partial_side {
        Some((b, ids)) => Scope {
            partial: true,
            top_level: ids.clone(),
            note: Some(format!(
                "{} covers only {} {}; only {} compared",
                b.meta.document,
                if ids.len() == 1 {
                    "chapter"
                } else {
                    "chapters"
                },
                ids.join(", "),
                if ids.len() == 1 {
                    "that chapter is"
                } else {
                    "those chapters are"
                },
            )),
        },
        None => {
            let mut all = o.clone();
            all.extend(n.into_iter().filter(|x| !os.contains(x)));
            Scope {
                partial: false,
                top_level: all,
                note: None,
            }
        }
    }
}

/// Clauses of `b` inside the compared top-level subtrees, in document order.
fn in_scope(b: &Rulebook, scope: &Scope) -> Vec<ClauseIdx> {
    let wanted: BTreeSet<&str> = scope.top_level.iter().map(String::as_str).collect();
    let mut out: Vec<ClauseIdx> = b
        .roots
        .iter()
        .filter(|&&r| wanted.contains(b.clause(r).id.as_str()))
        .flat_map(|&r| b.subtree(r))
        .collect();
    out.sort_unstable();
    out
}

/// Compares `old` with `new` (both of `game`).
pub fn compare(game: &str, old: (&Rulebook, &str), new: (&Rulebook, &str)) -> DiffReport {
    let (ob, nb) = (old.0, new.0);
    let scope = scope(ob, nb);
    let oi = in_scope(ob, &scope);
    let ni = in_scope(nb, &scope);
    let ofold: Vec<String> = oi
        .iter()
        .map(|&i| fold_noise(&full_text(ob.clause(i))))
        .collect();
    let nfold: Vec<String> = ni
        .iter()
        .map(|&i| fold_noise(&full_text(nb.clause(i))))
        .collect();
    let npos: BTreeMap<&str, usize> = ni
        .iter()
        .enumerate()
        .map(|(k, &i)| (nb.clause(i).id.as_str(), k))
        .collect();

    let mut omatched = vec![false; oi.len()];
    let mut nmatched = vec![false; ni.len()];
    let mut cosmetic = Vec::new();
    // 1. Same id, same folded text.
    for (k, &i) in oi.iter().enumerate() {
        let c = ob.clause(i);
        if let Some(&m) = npos.get(c.id.as_str())
            && ofold[k] == nfold[m]
        {
            omatched[k] = true;
            nmatched[m] = true;
            if full_text(c) != full_text(nb.clause(ni[m])) {
                cosmetic.push(c.id.clone());
            }
        }
    }
    // 2. Same folded text, different id: moved. Equal texts pair in
    // document order.
    let mut by_text: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (m, f) in nfold.iter().enumerate() {
        if !nmatched[m] && !f.is_empty() {
            by_text.entry(f.as_str()).or_default().push(m);
        }
    }
    let mut moved = Vec::new();
    for (k, f) in ofold.iter().enumerate() {
        if omatched[k] {
            continue;
        }
        let Some(cands) = by_text.get_mut(f.as_str()) else {
            continue;
        };
        if cands.is_empty() {
            continue;
        }
        let m = cands.remove(0);
        omatched[k] = true;
        nmatched[m] = true;
        let (oc, nc) = (ob.clause(oi[k]), nb.clause(ni[m]));
        moved.push(Moved {
            from: oc.id.clone(),
            to: nc.id.clone(),
            text: full_text(nc),
        });
    }
    // 3. Same id, different text: changed.
    let mut changed = Vec::new();
    for (k, &i) in oi.iter().enumerate() {
        if omatched[k] {
            continue;
        }
        let c = ob.clause(i);
        if let Some(&m) = npos.get(c.id.as_str())
            && !nmatched[m]
        {
            omatched[k] = true;
            nmatched[m] = true;
            let nc = nb.clause(ni[m]);
            changed.push(Changed {
                id: c.id.clone(),
                old: entry(c),
                new: entry(nc),
                words: word_diff(&full_text(c), &full_text(nc)),
            });
        }
    }
    // 4. The rest.
    let removed: Vec<Entry> = oi
        .iter()
        .enumerate()
        .filter(|(k, _)| !omatched[*k])
        .map(|(_, &i)| entry(ob.clause(i)))
        .collect();
    let added: Vec<Entry> = ni
        .iter()
        .enumerate()
        .filter(|(m, _)| !nmatched[*m])
        .map(|(_, &i)| entry(nb.clause(i)))
        .collect();

    let summary = Summary {
        added: added.len(),
        removed: removed.len(),
        changed: changed.len(),
        moved: moved.len(),
        cosmetic: cosmetic.len(),
        compared: oi.len(),
    };
    let side = |b: &Rulebook, origin: &str| Side {
        document: b.meta.document.clone(),
        version: b.meta.version.clone(),
        origin: origin.to_string(),
    };
    DiffReport {
        game: game.to_string(),
        old: side(ob, old.1),
        new: side(nb, new.1),
        scope,
        agree: added.is_empty() && removed.is_empty() && changed.is_empty() && moved.is_empty(),
        summary,
        added,
        removed,
        changed,
        moved,
        cosmetic,
    }
}

/// Script class of a character, for tokenising Japanese (no spaces between
/// words): a token is a run of one class; punctuation is one token per char.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Kanji,
    Hiragana,
    Katakana,
    /// ASCII or full-width letters and digits (`Ｘ`, `１０`, `Nullity`).
    Word,
    Space,
    Punct,
}

fn class(c: char) -> Class {
    match c {
        c if c.is_whitespace() => Class::Space,
        '\u{3041}'..='\u{309F}' => Class::Hiragana,
        '\u{30A0}'..='\u{30FF}' | '\u{FF66}'..='\u{FF9F}' => Class::Katakana,
        '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '々' | '〆' => Class::Kanji,
        c if c.is_alphanumeric() => Class::Word,
        _ => Class::Punct,
    }
}

/// Splits text into runs of one script class; punctuation chars stand alone.
pub fn tokenize(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev: Option<Class> = None;
    for (i, ch) in s.char_indices() {
        let k = class(ch);
        let split = match prev {
            None => false,
            Some(p) => p != k || k == Class::Punct,
        };
        if split {
            out.push(&s[start..i]);
            start = i;
        }
        prev = Some(k);
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// Word-level diff of two texts. Tokens are compared folded (width, case,
/// kana), whitespace tokens are ignored, and the printed (new or old) form
/// of each token is shown. Adjacent segments of one op are merged.
pub fn word_diff(old: &str, new: &str) -> Vec<Segment> {
    let ot: Vec<&str> = tokenize(old)
        .into_iter()
        .filter(|t| !t.trim().is_empty())
        .collect();
    let nt: Vec<&str> = tokenize(new)
        .into_iter()
        .filter(|t| !t.trim().is_empty())
        .collect();
    let ok: Vec<String> = ot.iter().map(|t| fold_noise(t)).collect();
    let nk: Vec<String> = nt.iter().map(|t| fold_noise(t)).collect();
    let mut out: Vec<Segment> = Vec::new();
    let mut push = |op: &'static str, toks: &[&str]| {
        if toks.is_empty() {
            return;
        }
        let text: String = toks.concat();
        match out.last_mut() {
            Some(last) if last.op == op => last.text.push_str(&text),
            _ => out.push(Segment { op, text }),
        }
    };
    for op in capture_diff_slices(Algorithm::Myers, &ok, &nk) {
        let (tag, o, n) = op.as_tag_tuple();
        match tag {
            DiffTag::Equal => push("equal", &nt[n]),
            DiffTag::Delete => push("delete", &ot[o]),
            DiffTag::Insert => push("insert", &nt[n]),
            DiffTag::Replace => {
                push("delete", &ot[o]);
                push("insert", &nt[n]);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_folding_keeps_kana_and_wording() {
        assert_eq!(fold_noise("（Ｘ） d 項"), fold_noise("(X)d項"));
        assert_ne!(fold_noise("カード"), fold_noise("かーど"));
    }

    #[test]
    fn tokenizer_splits_by_script() {
        assert_eq!(
            tokenize("場にあるカードをＸ枚、Nullity。"),
            [
                "場",
                "にある",
                "カード",
                "を",
                "Ｘ",
                "枚",
                "、",
                "Nullity",
                "。"
            ]
        );
        assert_eq!(tokenize(""), Vec::<&str>::new());
    }

    #[test]
    fn word_diff_shows_only_the_changed_words() {
        let d = word_diff("カードを１枚引く。", "カードを２枚引く。");
        assert_eq!(
            d,
            [
                Segment {
                    op: "equal",
                    text: "カードを".into()
                },
                Segment {
                    op: "delete",
                    text: "１".into()
                },
                Segment {
                    op: "insert",
                    text: "２".into()
                },
                Segment {
                    op: "equal",
                    text: "枚引く。".into()
                },
            ]
        );
        // Width and spacing are not changes.
        let d = word_diff("（Ｘ） d 項", "(X)d項");
        assert!(d.iter().all(|s| s.op == "equal"), "{d:?}");
    }
}
