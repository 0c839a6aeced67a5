// judge site: offline search. A port of `judge search` (src/search/engine.rs,
// src/search/query.rs, src/text.rs) over window.JUDGE_SEARCH, which
// `judge site` emits from the same index (src/site/search.rs). Keep the two in
// step: tests/browser.rs checks that both put the same clause first.
(function () {
  "use strict";
  var K1 = 1.2, B = 0.75, TITLE_WEIGHT = 2.0, MAX_KEY_WORDS = 4;
  // Rank (engine.rs `Rank`), lowest first.
  var SECONDARY = 0, MENTION = 1, STATEMENT = 2, HEADING_PART = 3, HEADING = 4;
  var GAP = "\u0000";
  var NOT_A_DEFINITION = "別異限出であな独無言関";
  var IGNORED_BRACKETS = "【】《》「」『』〔〕";
  var DASHES = "ー―‐‑‒–—−-－～〜";

  // --- text.rs: fold_char, search_units, fold_for_search -------------------
  function foldChar(c) {
    var u = c.codePointAt(0);
    if (u >= 0x30A1 && u <= 0x30F6) return String.fromCodePoint(u - 0x60);
    if (DASHES.indexOf(c) >= 0) return "ー";
    if (c >= "A" && c <= "Z") return c.toLowerCase();
    return c;
  }
  function isPunctuation(c) {
    var u = c.codePointAt(0);
    if (u < 0x80) return /[!-\/:-@\[-`{-~]/.test(c);
    return (u >= 0x2000 && u <= 0x206F) || (u >= 0x3000 && u <= 0x303F) ||
      (u >= 0xFF00 && u <= 0xFF0F) || (u >= 0xFF1A && u <= 0xFF20) ||
      (u >= 0xFF3B && u <= 0xFF40) || (u >= 0xFF5B && u <= 0xFF65) || u === 0x30FB;
  }
  var ALNUM = /^[\p{Alphabetic}\p{N}]$/u, SPACE = /^\s$/u, ASCII_ALNUM = /^[a-z0-9]$/;
  // Units of `s`: [{w: word} | {c: char}, pos] from position 0.
  function searchUnits(s) {
    var units = [], pos = 0, word = null, gap = false;
    function flush() { if (word !== null) { units.push({ w: word, pos: pos }); pos++; word = null; } }
    var chars = Array.from(s.normalize("NFKC"));
    for (var i = 0; i < chars.length; i++) {
      var c = foldChar(chars[i]);
      if (SPACE.test(c) || IGNORED_BRACKETS.indexOf(c) >= 0) { flush(); continue; }
      if (ASCII_ALNUM.test(c)) {
        if (gap) { pos++; gap = false; }
        word = word === null ? c : word + c;
        continue;
      }
      flush();
      if (ALNUM.test(c) || (c.codePointAt(0) >= 0x80 && !isPunctuation(c))) {
        if (gap) { pos++; gap = false; }
        var last = units[units.length - 1];
        if (c === "ー" && last && last.c === "ー" && last.pos + 1 === pos) continue;
        units.push({ c: c, pos: pos });
        pos++;
      } else {
        gap = true;
      }
    }
    flush();
    return units;
  }
  function foldForSearch(s) {
    var out = "", lastWord = false;
    searchUnits(s).forEach(function (u) {
      if (u.c !== undefined) { out += u.c; lastWord = false; }
      else { if (lastWord) out += " "; out += u.w; lastWord = true; }
    });
    return out;
  }

  // --- query.rs: parse ------------------------------------------------------
  function isQuote(c) { return c === "\"" || c === "“" || c === "”" || c === "＂"; }
  function parse(input) {
    var chars = Array.from(input), i = 0, toks = [];
    while (true) {
      while (i < chars.length && SPACE.test(chars[i])) i++;
      if (i >= chars.length) break;
      var negated = false;
      if (chars[i] === "-" || chars[i] === "－") { i++; negated = true; }
      if (i < chars.length && isQuote(chars[i])) {
        i++;
        var text = "", closed = false;
        while (i < chars.length) { var q = chars[i++]; if (isQuote(q)) { closed = true; break; } text += q; }
        if (!closed) throw new Error("unclosed quote: close the phrase with a second \"");
        toks.push({ word: { text: text, quoted: true }, negated: negated });
        continue;
      }
      var t = "";
      while (i < chars.length && !SPACE.test(chars[i])) t += chars[i++];
      if (t === "") throw new Error("`-` must be followed by a word to exclude");
      if (t === "OR" && !negated) toks.push({ or: true });
      else toks.push({ word: { text: t, quoted: false }, negated: negated });
    }
    var groups = [], excludes = [], pendingOr = false, lastWasWord = false;
    toks.forEach(function (tk) {
      if (tk.or) {
        if (!lastWasWord || pendingOr) throw new Error("`OR` needs a word on each side");
        pendingOr = true;
        return;
      }
      if (tk.negated) {
        if (pendingOr) throw new Error("an exclusion cannot be an `OR` alternative");
        excludes.push(tk.word); lastWasWord = false; return;
      }
      if (pendingOr && groups.length) groups[groups.length - 1].push(tk.word);
      else groups.push([tk.word]);
      pendingOr = false; lastWasWord = true;
    });
    if (pendingOr) throw new Error("the query ends with `OR`");
    if (!groups.length) throw new Error(excludes.length ? "a query of only exclusions matches nothing" : "empty query");
    return { groups: groups, excludes: excludes };
  }

  // --- engine.rs ------------------------------------------------------------
  function Engine(data) {
    this.data = data;
    this.cache = {};
    this.ranges = data.games.map(function () { return [Infinity, -1]; });
    for (var d = 0; d < data.docs.length; d++) {
      var r = this.ranges[data.docs[d].g];
      if (d < r[0]) r[0] = d;
      if (d > r[1]) r[1] = d;
    }
  }
  function cellOf(dict, u) {
    if (u.w !== undefined) return dict["w" + u.w];
    var cp = u.c.codePointAt(0);
    if (cp > 0xFFFF || (cp >= 0xE000 && cp <= 0xF8FF) || cp === 0) return dict["c" + u.c];
    return u.c;
  }
  function escapeRe(c) { return c.replace(/[\\^$.*+?()[\]{}|\/-]/g, "\\$&"); }
  // Every match of a phrase over the whole index: {byDoc: {doc: [starts]}, df, span}.
  Engine.prototype.matches = function (term) {
    var key = foldForSearch(term);
    if (this.cache[key]) return this.cache[key];
    var m = this.evalPhrase(term);
    this.cache[key] = m;
    return m;
  };
  Engine.prototype.evalPhrase = function (term) {
    var units = searchUnits(term), none = { byDoc: {}, df: 0, span: 1 };
    if (!units.length) return none;
    var span = units[units.length - 1].pos + 1, pat = [];
    for (var p = 0, k = 0; p < span; p++) {
      if (units[k].pos === p) {
        var cell = cellOf(this.data.dict, units[k]);
        if (cell === undefined) return none; // a word the rulebooks never use
        pat.push(escapeRe(cell)); k++;
      } else {
        pat.push("[^]");
      }
    }
    var re = new RegExp("(?=" + pat.join("") + ")", "g"), byDoc = {}, df = 0;
    var docs = this.data.docs;
    for (var d = 0; d < docs.length; d++) {
      var s = docs[d].c, starts = null, hit;
      re.lastIndex = 0;
      while ((hit = re.exec(s)) !== null) {
        (starts || (starts = [])).push(hit.index);
        re.lastIndex = hit.index + 1;
      }
      if (starts) { byDoc[d] = starts; df++; }
    }
    return { byDoc: byDoc, df: df, span: span };
  };
  Engine.prototype.isAnyKey = function (folded) {
    return this.data.synonyms.some(function (t) { return Object.prototype.hasOwnProperty.call(t, folded); });
  };
  Engine.prototype.alternatives = function (g, w) {
    var alts = [{ typed: w.text, term: w.text, expansion: false }];
    if (!w.quoted) {
      var exp = this.data.synonyms[g][foldForSearch(w.text)] || [];
      exp.forEach(function (t) { alts.push({ typed: w.text, term: t, expansion: true }); });
    }
    return alts;
  };
  Engine.prototype.plan = function (query, g) {
    var out = [], groups = query.groups, i = 0, self = this;
    function plain(k) { return groups[k].length === 1 && !groups[k][0].quoted; }
    while (i < groups.length) {
      var taken = 0;
      if (plain(i)) {
        for (var n = Math.min(MAX_KEY_WORDS, groups.length - i); n >= 2; n--) {
          var all = true, words = [];
          for (var k = i; k < i + n; k++) { if (!plain(k)) { all = false; break; } words.push(groups[k][0].text); }
          if (all && this.isAnyKey(foldForSearch(words.join(" ")))) {
            out.push(this.alternatives(g, { text: words.join(" "), quoted: false }));
            taken = n;
            break;
          }
        }
      }
      if (!taken) {
        var alts = [];
        groups[i].forEach(function (w) { alts = alts.concat(self.alternatives(g, w)); });
        out.push(alts);
        taken = 1;
      }
      i += taken;
    }
    return out;
  };
  function isSecondary(doc) { return doc.k === 1; }
  Engine.prototype.prepare = function (query, g) {
    var self = this, range = this.ranges[g], docs = this.data.docs;
    function inGame(d) { return d >= range[0] && d <= range[1]; }
    var plan = this.plan(query, g);
    var typed = plan.map(function (alts) {
      var t = [];
      alts.forEach(function (a) { if (t.indexOf(a.typed) < 0) t.push(a.typed); });
      return t.join(" OR ");
    });
    var groups = plan.map(function (alts) {
      return alts.map(function (a) { return { alt: a, m: self.matches(a.term) }; });
    });
    var sets = groups.map(function (alts) {
      var set = {};
      alts.forEach(function (x) { Object.keys(x.m.byDoc).forEach(function (d) { if (inGame(+d)) set[d] = true; }); });
      return set;
    });
    var excluded = {};
    query.excludes.forEach(function (w) {
      self.alternatives(g, w).forEach(function (a) {
        Object.keys(self.matches(a.term).byDoc).forEach(function (d) { if (inGame(+d)) excluded[d] = true; });
      });
    });
    var namesSecondary = sets.some(function (set) {
      var keys = Object.keys(set), inside = keys.filter(function (d) { return isSecondary(docs[d]); }).length;
      return inside * 2 > keys.length;
    });
    return { typed: typed, groups: groups, sets: sets, excluded: excluded, namesSecondary: namesSecondary };
  };
  // engine.rs heading_match: the whole heading, one part of it, or neither.
  function headingMatch(doc, s, e) {
    var hp = doc.hp, hc = doc.hc, n = hp.length;
    if (!n || s < hp[0] || s > hp[n - 1]) return -1;
    var parts = [], start = 0;
    for (var k = 1; k <= n; k++) {
      if (k === n || hp[k] !== hp[k - 1] + 1) { parts.push([start, k]); start = k; }
    }
    function covers(a, b) {
      var end = hp[b - 1] + 1;
      var suru = b - a > 2 && hc[b - 2] === "す" && hc[b - 1] === "る";
      return s === hp[a] && (e === end || (suru && e === end - 2));
    }
    if (covers(0, n) && (parts.length === 1 || e === hp[n - 1] + 1)) return HEADING;
    if (parts.length > 1 && parts.some(function (p) { return covers(p[0], p[1]); })) return HEADING_PART;
    return -1;
  }
  Engine.prototype.idf = function (df) {
    var n = this.data.n_docs;
    return Math.log(1.0 + (n - df + 0.5) / (df + 0.5));
  };
  Engine.prototype.score = function (no, run) {
    var data = this.data, d = data.docs[no], c = d.c, dict = data.dict;
    var avg = Math.max(data.avg_len, 1.0), bodyStart = d.t + 1;
    var norm = K1 * (1.0 - B + B * d.l / avg);
    var params = [dict.wx, dict.wa, dict.wn];
    function tohaAt(p) { return c[p] === "と" && c[p + 1] === "は" && !(p + 2 < c.length && NOT_A_DEFINITION.indexOf(c[p + 2]) >= 0); }
    function paramAt(p) { return p < c.length && c[p] !== GAP && params.indexOf(c[p]) >= 0; }
    var total = 0, matched = [], titleExact = false, opens = false, defines = false, opensWithHa = false;
    var heading = -1, startsTitle = false, self = this;
    run.groups.forEach(function (alts) {
      var best = 0;
      alts.forEach(function (x) {
        var starts = x.m.byDoc[no];
        if (!starts) return;
        var inTitle = starts.filter(function (s) { return s < d.t; }).length;
        var tf = starts.length + (TITLE_WEIGHT - 1.0) * inTitle;
        var sc = self.idf(x.m.df) * tf * (K1 + 1.0) / (tf + norm);
        best = Math.max(best, sc);
        starts.forEach(function (s) {
          var e = s + x.m.span;
          titleExact = titleExact || (s === 0 && x.m.span === d.t);
          heading = Math.max(heading, headingMatch(d, s, e));
          startsTitle = startsTitle || (s === 0 && d.hp.length > 0);
          opens = opens || s === bodyStart;
          defines = defines || tohaAt(e) || (paramAt(e) && tohaAt(e + 1));
          opensWithHa = opensWithHa || (s === bodyStart && c[e] === "は");
        });
        matched.push(x.alt);
      });
      total += best;
    });
    var boost = 1.0;
    if (titleExact || heading === HEADING) boost += 1.0;
    if (startsTitle && !titleExact && heading !== HEADING) boost += 0.5;
    if (opens) boost += 0.5;
    if (defines) boost += 1.0;
    if (opensWithHa) boost += 0.3;
    if (d.k === 2) boost += 0.3;
    var rank;
    if (isSecondary(d) && !run.namesSecondary) rank = SECONDARY;
    else if (run.groups.length !== 1) rank = MENTION;
    else if (heading >= 0) rank = heading;
    else if (defines) rank = STATEMENT;
    else rank = MENTION;
    return { doc: no, rank: rank, score: total * boost, matched: matched };
  };
  function byRank(a, b) { return (b.rank - a.rank) || (b.score - a.score) || (a.doc - b.doc); }
  function gamesOf(engine, games) {
    return games && games.length ? games : engine.data.games.map(function (_, g) { return g; });
  }
  // Every full match, best first (engine.rs `search`). `games`: indices, or all.
  Engine.prototype.search = function (query, games) {
    var hits = [], self = this;
    gamesOf(this, games).forEach(function (g) {
      var run = self.prepare(query, g), smallest = null;
      run.sets.forEach(function (s) { if (!smallest || Object.keys(s).length < Object.keys(smallest).length) smallest = s; });
      if (!smallest) return;
      Object.keys(smallest).forEach(function (d) {
        if (run.excluded[d] || !run.sets.every(function (s) { return s[d]; })) return;
        hits.push(self.score(+d, run));
      });
    });
    return hits.sort(byRank);
  };
  // Clauses holding some of the words, most first (engine.rs `search_partial`).
  Engine.prototype.searchPartial = function (query, games) {
    var out = [], self = this;
    gamesOf(this, games).forEach(function (g) {
      var run = self.prepare(query, g), n = run.sets.length;
      if (n < 2) return;
      var union = {};
      run.sets.forEach(function (s) { Object.keys(s).forEach(function (d) { union[d] = true; }); });
      Object.keys(union).forEach(function (d) {
        if (run.excluded[d]) return;
        var missing = [];
        for (var k = 0; k < n; k++) if (!run.sets[k][d]) missing.push(run.typed[k]);
        if (!missing.length) return;
        out.push({ held: n - missing.length, hit: self.score(+d, run), missing: missing });
      });
    });
    return out.sort(function (a, b) { return (b.held - a.held) || byRank(a.hit, b.hit); });
  };

  // --- the page ---------------------------------------------------------------
  var engine = null;
  function getEngine() { return engine || (engine = new Engine(window.JUDGE_SEARCH)); }
  function gameIndex(name) { return getEngine().data.games.indexOf(name); }
  function spellingKey(s) { return s.normalize("NFKC").replace(/\s+/g, ""); }
  var idCache = null;
  // Canonical and display ids → documents.
  function idMap() {
    if (idCache) return idCache;
    var ids = idCache = {};
    getEngine().data.docs.forEach(function (d, no) {
      [d.cid, d.id].forEach(function (s) {
        var k = spellingKey(s), l = ids[k] || (ids[k] = []);
        if (l.indexOf(no) < 0) l.push(no);
      });
    });
    return ids;
  }
  // The API tests and the page use: hits as {game, id, title, href}.
  function run(q, game) {
    var e = getEngine(), g = game ? gameIndex(game) : -1;
    var games = g >= 0 ? [g] : [];
    var query = parse(q);
    var view = function (h) {
      var d = e.data.docs[h.doc];
      return { game: e.data.games[d.g], cid: d.cid, id: d.id, title: d.title, bc: d.bc, href: d.href, ex: d.ex, rank: h.rank };
    };
    // As in `judge search`, a clause id goes to that clause.
    var ids = (idMap()[spellingKey(q)] || []).filter(function (d) {
      return g < 0 || e.data.docs[d].g === g;
    }).map(function (d) { return view({ doc: d, rank: HEADING }); });
    var hits = e.search(query, games);
    if (hits.length) return { ids: ids, hits: hits.map(view), partial: [] };
    return {
      ids: ids,
      hits: [],
      partial: e.searchPartial(query, games).map(function (p) { var v = view(p.hit); v.missing = p.missing; return v; })
    };
  }
  window.JudgeSearch = { run: run, parse: parse, foldForSearch: foldForSearch };

  var LIMIT = 50;
  function el(tag, cls, text) {
    var x = document.createElement(tag);
    if (cls) x.className = cls;
    if (text !== undefined) x.textContent = text;
    return x;
  }
  function render(list, msg, q, game) {
    list.textContent = "";
    var res;
    try { res = run(q, game); } catch (err) { msg.textContent = err.message; return; }
    var rows = res.ids.concat(res.hits.length ? res.hits : res.partial);
    msg.textContent = res.hits.length || res.ids.length
      ? rows.length + " clause" + (rows.length === 1 ? "" : "s") + (rows.length > LIMIT ? " (first " + LIMIT + " shown)" : "")
      : rows.length ? "No clause holds every word; clauses holding some of them:" : "No clause matches " + q + ".";
    if (rows.length && !rows[0].missing) list.setAttribute("data-top", rows[0].game + ":" + rows[0].cid);
    rows.slice(0, LIMIT).forEach(function (r) {
      var li = el("li", "hit"), a = el("a", null, r.game + " " + r.id + (r.title ? " " + r.title : ""));
      a.href = r.href;
      li.setAttribute("data-id", r.id);
      li.appendChild(a);
      if (r.bc) li.appendChild(el("div", "bc", r.bc));
      if (r.ex) li.appendChild(el("div", "ex", r.ex));
      if (r.missing) li.appendChild(el("div", "missing", "lacks: " + r.missing.join(", ")));
      list.appendChild(li);
    });
  }
  function init() {
    var form = document.getElementById("search");
    var list = document.getElementById("results");
    if (!form || !list || !window.JUDGE_SEARCH) return;
    var params = new URLSearchParams(location.search);
    var qBox = document.getElementById("search-q"), gBox = document.getElementById("search-game");
    var msg = document.getElementById("search-msg");
    qBox.value = params.get("q") || "";
    if (params.get("game")) gBox.value = params.get("game");
    if (qBox.value.trim()) render(list, msg, qBox.value, gBox.value);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var q = qBox.value.trim();
      if (!q) return;
      history.replaceState(null, "", "?q=" + encodeURIComponent(q) + (gBox.value ? "&game=" + encodeURIComponent(gBox.value) : ""));
      render(list, msg, q, gBox.value);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
