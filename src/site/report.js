// Opens the clauses named in the URL fragment (#c-10.5.2) and scrolls to
// the first; "Expand every clause" opens them all. No request leaves the page.
(function () {
  function open(id) {
    var found = null;
    document.querySelectorAll('details.clause').forEach(function (d) {
      if (d.getAttribute('data-id') === id) { d.open = true; found = found || d; }
    });
    if (found) { found.scrollIntoView(); }
  }
  function fromHash() {
    var h = decodeURIComponent(location.hash.slice(1));
    if (h.indexOf('c-') === 0) { open(h.slice(2)); }
  }
  window.addEventListener('hashchange', fromHash);
  fromHash();
  var all = document.getElementById('expand-all');
  if (all) {
    all.addEventListener('click', function () {
      document.querySelectorAll('details.clause').forEach(function (d) { d.open = true; });
    });
  }
})();
