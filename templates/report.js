// report.html's script: config switches, sortable tables, clickable chart
// legends. The page reads fully without it; it only adds. URL fragment
// hooks (`#sort=iops`, `#sort=iops:asc`, `#hide=a,b`) set the view on load.
(function () {
  "use strict";
  var doc = document;
  function all(sel, root) { return Array.prototype.slice.call((root || doc).querySelectorAll(sel)); }
  var hash = {};
  location.hash.slice(1).split("&").forEach(function (kv) {
    var i = kv.indexOf("=");
    try { if (i > 0) { hash[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1)); } } catch (e) { /* a malformed fragment sets nothing */ }
  });

  // Configs: a switch each hides its table rows and columns and masks its
  // bars and points in the charts (SVG targets get class "off").
  var boxes = {};
  function show(config, on) {
    if (boxes[config]) { boxes[config].checked = on; }
    all("[data-config]").forEach(function (el) {
      if (el.getAttribute("data-config") !== config) { return; }
      if (el instanceof SVGElement) { el.classList.toggle("off", !on); } else { el.hidden = !on; }
    });
  }
  // The switches come from an inert <template>: without the script they
  // would switch nothing, so the page shows them only with it.
  var switches = doc.getElementById("switches");
  if (switches) { doc.querySelector("h1").insertAdjacentElement("afterend", switches.content.firstElementChild.cloneNode(true)); }
  all("#toolbar input").forEach(function (box) {
    boxes[box.value] = box;
    box.addEventListener("change", function () { show(box.value, box.checked); });
  });
  all(".chart .hs.legend").forEach(function (el) {
    el.addEventListener("click", function () {
      var c = el.getAttribute("data-config");
      if (boxes[c]) { show(c, !boxes[c].checked); }
    });
  });
  (hash.hide || "").split(",").forEach(function (c) { if (boxes[c]) { show(c, false); } });

  // Sorting: a row header column sorts as text (numbers inside compare as
  // numbers: QD2 before QD16); a value column by its first number,
  // thousands separators and units ignored, the delta and latency lines
  // under it left out; cells without a number go last either way.
  function number(cell) {
    var text = "";
    cell.childNodes.forEach(function (n) {
      if (!(n.classList && (n.classList.contains("delta") || n.classList.contains("lat")))) { text += n.textContent; }
    });
    var m = text.replace(/[,\u00a0\u2009\u202f']/g, "").replace(/\u2212/g, "-").match(/[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?/i);
    return m ? parseFloat(m[0]) : null;
  }
  function sort(table, col, dir) {
    var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
    var asText = rows.length > 0 && rows[0].cells[col] && rows[0].cells[col].tagName === "TH";
    var keyed = rows.map(function (r, i) {
      var cell = r.cells[col];
      return { row: r, i: i, k: !cell ? null : asText ? cell.textContent.trim() : number(cell) };
    });
    keyed.sort(function (a, b) {
      if (a.k === null || b.k === null) { return (a.k === null) - (b.k === null) || a.i - b.i; }
      var d = asText ? a.k.localeCompare(b.k, undefined, { numeric: true }) : a.k - b.k;
      return d * dir || a.i - b.i;
    });
    keyed.forEach(function (x) { body.appendChild(x.row); });
    all("thead th", table).forEach(function (th, i) {
      if (i === col) { th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending"); } else { th.removeAttribute("aria-sort"); }
    });
  }
  // First click puts the best first where the column says which way is
  // better; a second click reverses.
  function firstDir(th) { return th.getAttribute("data-better") === "higher" ? -1 : 1; }
  all("table.sortable").forEach(function (table) {
    all("thead th", table).forEach(function (th, col) {
      var button = doc.createElement("button");
      button.type = "button";
      while (th.firstChild) { button.appendChild(th.firstChild); }
      th.appendChild(button);
      button.addEventListener("click", function () {
        var now = th.getAttribute("aria-sort");
        sort(table, col, now === "descending" ? 1 : now === "ascending" ? -1 : firstDir(th));
      });
    });
  });
  if (hash.sort) {
    var parts = hash.sort.split(":");
    all("table.sortable").forEach(function (table) {
      all("thead th", table).forEach(function (th, col) {
        if (th.getAttribute("data-key") !== parts[0]) { return; }
        sort(table, col, parts[1] === "asc" ? 1 : parts[1] === "desc" ? -1 : firstDir(th));
      });
    });
  }
  doc.documentElement.setAttribute("data-ready", "");
})();
