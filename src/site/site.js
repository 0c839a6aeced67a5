// judge site: runs offline, from file:// or any static host.
(function () {
  "use strict";
  var map = window.JUDGE_SPELLINGS || {};
  function key(s) { return s.normalize("NFKC").replace(/\s+/g, ""); }
  function here() { var p = location.pathname; return decodeURIComponent(p.substring(p.lastIndexOf("/") + 1)); }
  // "page#anchor" for a spelling, or null.
  function lookup(s) {
    var k = key(s);
    if (map[k]) return map[k];
    var bare = k.replace(/\.+$/, "");
    if (bare !== k && map[bare]) return map[bare];
    return null;
  }
  function mark(id) {
    var old = document.querySelectorAll(".resolved");
    for (var i = 0; i < old.length; i++) old[i].classList.remove("resolved");
    var el = document.getElementById(id);
    if (!el) return false;
    el.classList.add("resolved");
    document.body.setAttribute("data-resolved", id);
    el.scrollIntoView();
    return true;
  }
  // Goes to `s`; returns false when no clause has that spelling.
  function go(s) {
    if (!s) return true;
    if (document.getElementById(s)) { if (location.hash !== "#" + encodeURIComponent(s)) location.hash = encodeURIComponent(s); return mark(s); }
    var t = lookup(s);
    if (!t) return false;
    var cut = t.indexOf("#"), page = t.substring(0, cut), id = decodeURIComponent(t.substring(cut + 1));
    if (page === here()) { history.replaceState(null, "", "#" + t.substring(cut + 1)); return mark(id); }
    location.href = t;
    return true;
  }
  function fromHash() {
    var h = location.hash.substring(1);
    if (!h) return;
    var s; try { s = decodeURIComponent(h); } catch (e) { s = h; }
    if (!go(s)) { var m = document.getElementById("goto-msg"); if (m) m.textContent = "No clause " + s; }
  }
  window.addEventListener("hashchange", fromHash);
  var form = document.getElementById("goto");
  if (form) form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var q = document.getElementById("goto-q").value.trim();
    var m = document.getElementById("goto-msg");
    m.textContent = go(q) ? "" : "No clause " + q + " in this document";
  });
  fromHash();
})();
