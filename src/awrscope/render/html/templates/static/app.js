(function () {
  "use strict";
  function cellValue(td, num) {
    var v = td.getAttribute("data-v");
    if (v === null) { v = td.textContent; }
    if (num) { var f = parseFloat(v); return isNaN(f) ? -Infinity : f; }
    return v.toLowerCase();
  }
  function sortBy(th) {
    var table = th.closest("table"), tbody = table.tBodies[0];
    if (!tbody) { return; }
    var idx = Array.prototype.indexOf.call(th.parentNode.children, th);
    var num = th.getAttribute("data-num") === "1";
    var dir = th.getAttribute("aria-sort") === "descending" ? 1 : -1;
    if (!num && !th.hasAttribute("aria-sort")) { dir = 1; }
    Array.prototype.forEach.call(th.parentNode.children, function (x) { x.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
    var rows = Array.prototype.slice.call(tbody.rows);
    rows.sort(function (a, b) {
      var x = cellValue(a.cells[idx], num), y = cellValue(b.cells[idx], num);
      return x < y ? -dir : x > y ? dir : 0;
    });
    rows.forEach(function (r) { tbody.appendChild(r); });
  }
  document.querySelectorAll("table.sortable thead th").forEach(function (th) {
    th.addEventListener("click", function () { sortBy(th); });
  });
  document.querySelectorAll("button.toggle-all").forEach(function (b) {
    b.addEventListener("click", function () {
      var scope = b.closest("section"), open = b.textContent === "open all";
      scope.querySelectorAll("details").forEach(function (d) { d.open = open; });
      b.textContent = open ? "close all" : "open all";
    });
  });
  // A line reference links to its row in a section table: open the collapsibles around the row first, so the
  // browser can scroll to it (on click, on a changed #hash, and for a #hash the page is opened with).
  function reveal(hash) {
    var id = hash && hash.charAt(0) === "#" ? hash.slice(1) : "";
    try { id = decodeURIComponent(id); } catch (e) { /* keep it as written */ }
    var t = id ? document.getElementById(id) : null;
    for (var d = t ? t.parentElement : null; d; d = d.parentElement) {
      if (d.tagName === "DETAILS") { d.open = true; }
    }
    return t;
  }
  document.addEventListener("click", function (e) {
    var a = e.target.closest ? e.target.closest('a[href^="#"]') : null;
    if (a) { reveal(a.getAttribute("href")); }
  });
  window.addEventListener("hashchange", function () { reveal(location.hash); });
  if (location.hash) {
    var target = reveal(location.hash);
    if (target) { target.scrollIntoView(); }
  }
  // Paper shows everything: open every collapsible before printing.
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details").forEach(function (d) { d.setAttribute("data-was-open", d.open ? "1" : "0"); d.open = true; });
  });
  window.addEventListener("afterprint", function () {
    document.querySelectorAll("details[data-was-open]").forEach(function (d) { d.open = d.getAttribute("data-was-open") === "1"; });
  });
})();
