//! `judge site DIR`: a static, offline, hyperlinked copy of every bundled
//! document (issue 14).
//!
//! - One flat directory: `index.html`, one page per document, or a table of
//!   contents page plus one page per top-level clause (chapter or part) when
//!   the document is too long for one page ([`SPLIT_BYTES`]).
//! - Every clause has an anchor by its canonical id; `spellings-<doc>.js`
//!   maps every spelling the rulebook module accepts
//!   ([`Format::spellings`](crate::rulebook::Format::spellings)) to its page
//!   and anchor, so `#第4部第9章` or `#４.９.２-１` lands on the clause.
//! - Cross-references are links both ways ("See" and "Referenced by"), and
//!   clauses of the PMV web edition link to their twins in the 総合ルール.
//! - Nothing leaves the page: CSS and JS are local files, no fonts, no CDN;
//!   every link is relative, so the site works from `file://`.

mod assets;
mod html;
pub mod report;
pub mod search;

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;

use unicode_normalization::UnicodeNormalization;

use crate::rulebook::{Clause, ClauseIdx, DOCUMENTS, DocumentSpec, Rulebook};
use html::{attr, esc, href_fragment};

/// A document whose clause texts exceed this many bytes is split into one
/// page per top-level clause: a phone should not load megabytes at once.
pub const SPLIT_BYTES: usize = 150_000;

/// One generated file: its name in the site directory and its contents.
#[derive(Debug, Clone)]
pub struct File {
    pub name: String,
    pub contents: String,
}

/// Where each clause of a document is published.
struct Layout<'a> {
    spec: &'a DocumentSpec,
    book: &'a Rulebook,
    /// Page file name of every clause, by clause index.
    page_of: Vec<String>,
    /// Whether the document is split into per-chapter pages.
    split: bool,
}

impl<'a> Layout<'a> {
    fn new(spec: &'a DocumentSpec, book: &'a Rulebook) -> Self {
        let size: usize = book.clauses.iter().map(|c| c.text.len()).sum();
        let split = size > SPLIT_BYTES && book.roots.len() > 1;
        let mut page_of = vec![format!("{}.html", spec.document); book.clauses.len()];
        if split {
            for (k, &root) in book.roots.iter().enumerate() {
                let page = chapter_page(spec.document, k);
                for i in book.subtree(root) {
                    page_of[i as usize] = page.clone();
                }
            }
        }
        Layout {
            spec,
            book,
            page_of,
            split,
        }
    }

    /// The relative link to clause `id` of this document, if it exists.
    fn link(&self, id: &str) -> Option<String> {
        let i = self.book.index_of(id)?;
        Some(self.link_idx(i))
    }

    fn link_idx(&self, i: ClauseIdx) -> String {
        let c = self.book.clause(i);
        format!(
            "{}#{}",
            self.page_of[i as usize],
            href_fragment(&anchor(&c.id))
        )
    }
}

fn chapter_page(document: &str, k: usize) -> String {
    format!("{document}-{}.html", k + 1)
}

/// The HTML id of a clause: its canonical id, with any whitespace (not
/// allowed in an id) replaced by `_`.
pub fn anchor(id: &str) -> String {
    id.chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect()
}

/// The key a spelling is looked up by, in Rust and in `site.js` alike:
/// NFKC (full-width digits and letters become ASCII), whitespace removed.
pub fn spelling_key(s: &str) -> String {
    s.nfkc().filter(|c| !c.is_whitespace()).collect()
}

/// Every file of the site, in a fixed order (deterministic output).
pub fn build() -> Vec<File> {
    let books: Vec<(&DocumentSpec, &Rulebook)> = DOCUMENTS
        .iter()
        .map(|d| (d, crate::bundle::document(d)))
        .collect();
    let layouts: Vec<Layout> = books.iter().map(|(s, b)| Layout::new(s, b)).collect();
    let mut files = vec![
        File {
            name: "site.css".into(),
            contents: assets::CSS.into(),
        },
        File {
            name: "site.js".into(),
            contents: assets::JS.into(),
        },
        File {
            name: "index.html".into(),
            contents: index_page(&layouts),
        },
        File {
            name: "search.html".into(),
            contents: search_page(&layouts),
        },
        File {
            name: "search.js".into(),
            contents: assets::SEARCH_JS.into(),
        },
        File {
            name: "search-index.js".into(),
            contents: search_index_js(&layouts),
        },
    ];
    let games = games_of(&layouts);
    for (k, l) in layouts.iter().enumerate() {
        files.push(File {
            name: format!("spellings-{}.js", l.spec.document),
            contents: spellings_js(l),
        });
        let twin = twin_of(&layouts, k);
        let referrers = referrers(l.book);
        let ctx = PageCtx {
            layout: l,
            games: &games,
            twin,
            referrers: &referrers,
        };
        if l.split {
            files.push(File {
                name: format!("{}.html", l.spec.document),
                contents: page(&ctx, None),
            });
            for k in 0..l.book.roots.len() {
                files.push(File {
                    name: chapter_page(l.spec.document, k),
                    contents: page(&ctx, Some(k)),
                });
            }
        } else {
            files.push(File {
                name: format!("{}.html", l.spec.document),
                contents: page(&ctx, None),
            });
        }
    }
    files
}

/// Writes the site into `dir` (created if missing). Returns the files written.
pub fn write(dir: &Path) -> std::io::Result<Vec<File>> {
    std::fs::create_dir_all(dir)?;
    let files = build();
    for f in &files {
        std::fs::write(dir.join(&f.name), &f.contents)?;
    }
    Ok(files)
}

/// The other document of the same game (the PMV web edition and the 総合ルール).
fn twin_of<'a>(layouts: &'a [Layout<'a>], k: usize) -> Option<&'a Layout<'a>> {
    let me = &layouts[k];
    layouts
        .iter()
        .enumerate()
        .find(|(j, l)| *j != k && l.spec.game == me.spec.game)
        .map(|(_, l)| l)
}

/// Canonical id → clauses referring to it (the reverse of `refs`).
fn referrers(book: &Rulebook) -> HashMap<&str, Vec<ClauseIdx>> {
    let mut map: HashMap<&str, Vec<ClauseIdx>> = HashMap::new();
    for (i, c) in book.clauses.iter().enumerate() {
        for r in &c.refs {
            for t in [&r.target, &r.target_end].into_iter().flatten() {
                let v = map.entry(t.as_str()).or_default();
                if v.last() != Some(&(i as ClauseIdx)) {
                    v.push(i as ClauseIdx);
                }
            }
        }
    }
    map
}

/// `window.JUDGE_SPELLINGS`: spelling key → `page#anchor` for every clause
/// of the document. A spelling that two clauses share is left out (the
/// canonical id always wins).
fn spellings_js(l: &Layout) -> String {
    let mut map: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut canonical: BTreeMap<String, String> = BTreeMap::new();
    for (i, c) in l.book.clauses.iter().enumerate() {
        let target = l.link_idx(i as ClauseIdx);
        canonical.insert(spelling_key(&c.id), target.clone());
        let mut all = l.spec.format.spellings(&c.id);
        all.extend(c.display.clone());
        for s in all {
            let key = spelling_key(&s);
            if key.is_empty() {
                continue;
            }
            match map.get(&key) {
                Some(Some(t)) if *t != target => {
                    map.insert(key, None);
                }
                Some(_) => {}
                None => {
                    map.insert(key, Some(target.clone()));
                }
            }
        }
    }
    for (k, t) in canonical {
        map.insert(k, Some(t));
    }
    // `4.9.` needs no entry of its own when `4.9` leads to the same place:
    // site.js retries a key without its trailing dots.
    let entries: BTreeMap<String, String> = map
        .iter()
        .filter_map(|(k, v)| {
            let v = v.as_ref()?;
            let dup = k
                .strip_suffix('.')
                .is_some_and(|s| map.get(s).is_some_and(|t| t.as_ref() == Some(v)));
            (!dup).then(|| (k.clone(), v.clone()))
        })
        .collect();
    let json = serde_json::to_string(&entries).unwrap_or_else(|_| "{}".into());
    format!(
        "// Generated by `judge site`: spelling → page#anchor for {}.\nwindow.JUDGE_SPELLINGS = {json};\n",
        l.spec.document
    )
}

struct PageCtx<'a> {
    layout: &'a Layout<'a>,
    /// Every game, for the search box.
    games: &'a [(&'a str, &'a str)],
    twin: Option<&'a Layout<'a>>,
    referrers: &'a HashMap<&'a str, Vec<ClauseIdx>>,
}

fn head(title: &str, document: Option<&str>) -> String {
    let doc_attr = document
        .map(|d| format!(" data-doc=\"{}\"", attr(d)))
        .unwrap_or_default();
    format!(
        "<!doctype html>\n<html lang=\"ja\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light dark\">\n\
         <title>{}</title>\n<link rel=\"stylesheet\" href=\"site.css\">\n</head>\n<body{doc_attr}>\n",
        esc(title)
    )
}

fn goto_form() -> &'static str {
    "<form id=\"goto\" class=\"goto\" role=\"search\"><label for=\"goto-q\">Go to clause</label> \
     <input id=\"goto-q\" name=\"q\" autocomplete=\"off\" placeholder=\"4.9.2-1, 第4部第9章, ４．９\"> \
     <button type=\"submit\">Go</button> <span id=\"goto-msg\" class=\"msg\"></span></form>\n"
}

/// The search box every page carries: it opens `search.html`, scoped to the
/// page's game (a judge reading the SVE rules searches the SVE rules).
fn search_form(games: &[(&str, &str)], game: Option<&str>) -> String {
    let mut s = String::from(
        "<form id=\"search\" class=\"goto\" role=\"search\" action=\"search.html\">\
         <label for=\"search-q\">Search</label> \
         <input id=\"search-q\" name=\"q\" autocomplete=\"off\" placeholder=\"投了, ward, check timing\"> \
         <select id=\"search-game\" name=\"game\" aria-label=\"game\"><option value=\"\">all games</option>",
    );
    for &(id, name) in games {
        let selected = if game == Some(id) { " selected" } else { "" };
        let _ = write!(
            s,
            "<option value=\"{}\"{selected}>{}</option>",
            attr(id),
            esc(name)
        );
    }
    s.push_str("</select> <button type=\"submit\">Search</button> <span id=\"search-msg\" class=\"msg\"></span></form>\n");
    s
}

/// (game id, game name) of every game, in document order.
fn games_of<'a>(layouts: &'a [Layout]) -> Vec<(&'a str, &'a str)> {
    layouts
        .iter()
        .filter(|l| l.spec.primary)
        .map(|l| (l.spec.game, l.book.meta.game_name.as_str()))
        .collect()
}

/// `search.html`: the offline search over every game's primary document.
fn search_page(layouts: &[Layout]) -> String {
    let mut s = head("Search the rules", None);
    s.push_str("<nav class=\"crumbs\" aria-label=\"breadcrumb\"><a href=\"index.html\">Rules</a> › <span>Search</span></nav>\n");
    s.push_str(&search_form(&games_of(layouts), None));
    s.push_str("<main>\n<p class=\"meta\">The same search as <code>judge search</code>: width, kana and dash variants fold together, English terms find their Japanese clauses, <code>OR</code>, <code>-word</code> and <code>\"a phrase\"</code> work. Nothing leaves this page.</p>\n<ol id=\"results\" class=\"results\"></ol>\n</main>\n<script src=\"search-index.js\"></script>\n<script src=\"search.js\"></script>\n</body>\n</html>\n");
    s
}

/// `search-index.js`: the embedded search index, with each clause's link.
fn search_index_js(layouts: &[Layout]) -> String {
    let Ok(index) = crate::search::embedded() else {
        return "window.JUDGE_SEARCH = null;\n".into();
    };
    search::index_js(index, |game, clause| {
        layouts
            .iter()
            .find(|l| l.spec.primary && l.spec.game == game)
            .filter(|l| (clause as usize) < l.page_of.len())
            .map(|l| l.link_idx(clause as ClauseIdx))
    })
}

fn index_page(layouts: &[Layout]) -> String {
    let mut s = head(
        "Rules of Phantom Magic Vision, PSO2 TCG, Shadowverse Evolve, Dimension Zero",
        None,
    );
    s.push_str("<nav class=\"crumbs\" aria-label=\"breadcrumb\"><span>Rules</span></nav>\n");
    s.push_str(&search_form(&games_of(layouts), None));
    s.push_str("<main>\n<h1>Rules</h1>\n");
    s.push_str("<p>Every document bundled with <code>judge</code>, offline. Clause anchors accept any spelling a judge types: <code>#4.9.2-1</code>, <code>#第4部第9章</code>, full-width digits.</p>\n<ul class=\"docs\">\n");
    for l in layouts {
        let m = &l.book.meta;
        let _ = writeln!(
            s,
            "<li><a href=\"{}.html\">{}</a> <span class=\"meta\">{} · {} {}{}</span></li>",
            attr(l.spec.document),
            esc(&m.title),
            esc(&m.game_name),
            esc(l.spec.document),
            esc(&m.version),
            m.effective
                .as_deref()
                .map(|e| format!(" · {}", esc(e)))
                .unwrap_or_default()
        );
    }
    s.push_str("</ul>\n</main>\n</body>\n</html>\n");
    s
}

/// A document page (`chapter` None: the whole document, or its table of
/// contents when split) or one chapter page of a split document.
fn page(ctx: &PageCtx, chapter: Option<usize>) -> String {
    let l = ctx.layout;
    let m = &l.book.meta;
    let doc_page = format!("{}.html", l.spec.document);
    let root = chapter.map(|k| l.book.roots[k]);
    let title = match root {
        Some(r) => format!("{} — {}", clause_label(l.book.clause(r)), m.title),
        None => m.title.clone(),
    };
    let mut s = head(&title, Some(l.spec.document));
    s.push_str(
        "<nav class=\"crumbs\" aria-label=\"breadcrumb\"><a href=\"index.html\">Rules</a> › ",
    );
    match root {
        Some(r) => {
            let _ = write!(
                s,
                "<a href=\"{}\">{}</a> › <span>{}</span>",
                attr(&doc_page),
                esc(&m.title),
                esc(&clause_label(l.book.clause(r)))
            );
        }
        None => {
            let _ = write!(s, "<span>{}</span>", esc(&m.title));
        }
    }
    s.push_str("</nav>\n");
    s.push_str(goto_form());
    s.push_str(&search_form(ctx.games, Some(l.spec.game)));
    s.push_str("<main>\n");
    if root.is_none() {
        let _ = writeln!(
            s,
            "<h1>{}</h1>\n<p class=\"meta\">{} · version {}{} · source: {}</p>",
            esc(&m.title),
            esc(&m.game_name),
            esc(&m.version),
            m.effective
                .as_deref()
                .map(|e| format!(" · effective {}", esc(e)))
                .unwrap_or_default(),
            esc(&m.source)
        );
        if let Some(t) = ctx.twin {
            let _ = writeln!(
                s,
                "<p class=\"twin\">Also bundled: <a href=\"{}.html\">{}</a> ({})</p>",
                attr(t.spec.document),
                esc(&t.book.meta.title),
                esc(t.spec.document)
            );
        }
        s.push_str(&toc(l));
    }
    let clauses: Vec<ClauseIdx> = match root {
        Some(r) => l.book.subtree(r),
        None if l.split => Vec::new(),
        None => l
            .book
            .roots
            .iter()
            .flat_map(|&r| l.book.subtree(r))
            .collect(),
    };
    for i in clauses {
        clause_html(&mut s, ctx, i);
    }
    if let Some(k) = chapter {
        s.push_str("<nav class=\"pager\">");
        if k > 0 {
            let _ = write!(
                s,
                "<a rel=\"prev\" href=\"{}\">← {}</a> ",
                attr(&chapter_page(l.spec.document, k - 1)),
                esc(&clause_label(l.book.clause(l.book.roots[k - 1])))
            );
        }
        if k + 1 < l.book.roots.len() {
            let _ = write!(
                s,
                "<a rel=\"next\" href=\"{}\">{} →</a>",
                attr(&chapter_page(l.spec.document, k + 1)),
                esc(&clause_label(l.book.clause(l.book.roots[k + 1])))
            );
        }
        s.push_str("</nav>\n");
    }
    let _ = write!(
        s,
        "</main>\n<script src=\"spellings-{}.js\"></script>\n<script src=\"site.js\"></script>\n</body>\n</html>\n",
        attr(l.spec.document)
    );
    s
}

/// `display title` of a heading, for breadcrumbs and the table of contents.
fn clause_label(c: &Clause) -> String {
    let id = c.display.as_deref().unwrap_or(&c.id);
    match &c.title {
        Some(t) => format!("{id} {t}"),
        None => id.to_string(),
    }
}

/// Table of contents: the headings (parts, chapters, sections, appendices).
fn toc(l: &Layout) -> String {
    let mut s =
        String::from("<nav class=\"toc\" aria-label=\"contents\"><h2>Contents</h2>\n<ul>\n");
    for &r in &l.book.roots {
        for i in l.book.subtree(r) {
            let c = l.book.clause(i);
            if !(c.kind.is_heading() || i == r) {
                continue;
            }
            let _ = writeln!(
                s,
                "<li class=\"d{}\"><a href=\"{}\">{}</a></li>",
                c.depth,
                attr(&l.link_idx(i)),
                esc(&clause_label(c))
            );
        }
    }
    s.push_str("</ul>\n</nav>\n");
    s
}

fn clause_html(s: &mut String, ctx: &PageCtx, i: ClauseIdx) {
    let l = ctx.layout;
    let c = l.book.clause(i);
    let a = anchor(&c.id);
    let shown = c.display.as_deref().unwrap_or(&c.id);
    let _ = write!(
        s,
        "<section class=\"clause k-{} d{}\" id=\"{}\">",
        c.kind.as_str(),
        c.depth.min(8),
        attr(&a)
    );
    let tag = if c.kind.is_heading() {
        format!("h{}", (c.depth as usize + 1).clamp(2, 6))
    } else {
        "div".to_string()
    };
    let _ = write!(
        s,
        "<{tag} class=\"head\"><a class=\"cid\" href=\"#{}\">{}</a>",
        attr(&href_fragment(&a)),
        esc(shown)
    );
    if let Some(t) = &c.title {
        let _ = write!(s, " <span class=\"title\">{}</span>", esc(t));
    }
    if let Some(p) = c.parent
        && !c.kind.is_heading()
    {
        let _ = write!(
            s,
            " <a class=\"up\" href=\"{}\" title=\"parent clause\">↑ {}</a>",
            attr(&l.link_idx(p)),
            esc(l
                .book
                .clause(p)
                .display
                .as_deref()
                .unwrap_or(&l.book.clause(p).id))
        );
    }
    let _ = write!(s, "</{tag}>");
    if !c.text.is_empty() && c.title.as_deref() != Some(c.text.as_str()) {
        let _ = write!(s, "<p class=\"text\">{}</p>", esc(&c.text));
    }
    for e in &c.examples {
        let _ = write!(
            s,
            "<div class=\"example\" id=\"{}\"><a class=\"cid\" href=\"#{}\">例</a> {}</div>",
            attr(&anchor(&e.id)),
            attr(&href_fragment(&anchor(&e.id))),
            esc(&e.text)
        );
    }
    let refs: Vec<String> = c
        .refs
        .iter()
        .filter_map(|r| {
            let t = r.target.as_deref()?;
            let link = l.link(t)?;
            let mut out = format!("<a href=\"{}\">{}</a>", attr(&link), esc(&r.raw));
            if let Some(end) = r.target_end.as_deref()
                && let Some(el) = l.link(end)
            {
                let _ = write!(out, "–<a href=\"{}\">{}</a>", attr(&el), esc(end));
            }
            Some(out)
        })
        .collect();
    if !refs.is_empty() {
        let _ = write!(s, "<p class=\"refs\">See: {}</p>", refs.join(", "));
    }
    if let Some(by) = ctx.referrers.get(c.id.as_str()) {
        let links: Vec<String> = by
            .iter()
            .map(|&j| {
                let rc = l.book.clause(j);
                format!(
                    "<a href=\"{}\">{}</a>",
                    attr(&l.link_idx(j)),
                    esc(rc.display.as_deref().unwrap_or(&rc.id))
                )
            })
            .collect();
        let _ = write!(
            s,
            "<p class=\"refby\">Referenced by: {}</p>",
            links.join(", ")
        );
    }
    if let Some(t) = ctx.twin
        && let Some(link) = t.link(&c.id)
    {
        let _ = write!(
            s,
            "<p class=\"twin\">Same clause in <a href=\"{}\">{}</a></p>",
            attr(&link),
            esc(&t.book.meta.title)
        );
    }
    s.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spelling_keys_fold_width_and_spaces() {
        assert_eq!(spelling_key("第４部 第９章"), "第4部第9章");
        assert_eq!(spelling_key("４．９．２－１"), "4.9.2-1");
    }

    #[test]
    fn anchors_have_no_whitespace() {
        assert_eq!(anchor("GL:a b"), "GL:a_b");
    }
}
