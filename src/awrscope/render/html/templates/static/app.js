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
  // Paper shows everything: open every collapsible before printing.
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details").forEach(function (d) { d.setAttribute("data-was-open", d.open ? "1" : "0"); d.open = true; });
  });
  window.addEventListener("afterprint", function () {
    document.querySelectorAll("details[data-was-open]").forEach(function (d) { d.open = d.getAttribute("data-was-open") === "1"; });
  });
})();
