/**
 * The page `pulumi-xcat view` serves: static HTML, a small script of our own and the SVG the server
 * draws (render-svg.ts). No framework, no fonts, scripts or images from anywhere else, so the page
 * works on a management network without internet access and leaks nothing (docs/view.md).
 *
 * The script polls `/api/view` (the server's last tick; the page never reaches the management
 * node itself), swaps the drawing in, and on a click or Enter on a node fetches `/api/node?name=`
 * from the same tick and shows its facts and attributes.
 */

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>pulumi-xcat view</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:">
<style>
  body { font-family: monospace; margin: 0; display: flex; min-height: 100vh; }
  main { flex: 1; overflow: auto; padding: 8px; }
  aside { width: 420px; border-left: 1px solid #999; padding: 8px; overflow: auto; background: #fafafa; }
  #problem { color: #b71c1c; font-weight: bold; white-space: pre-wrap; }
  #problem:empty { display: none; }
  #status { color: #37474f; }
  .node { cursor: pointer; }
  .node:focus rect { stroke: #1565c0; stroke-width: 4; }
  table { border-collapse: collapse; }
  td { border-bottom: 1px solid #ddd; padding: 2px 6px; vertical-align: top; }
</style>
</head>
<body>
<main>
  <p id="problem" role="alert"></p>
  <p id="status">Reading the cluster…</p>
  <div id="drawing"></div>
</main>
<aside id="detail" aria-live="polite"><p>Click a node to see its attributes and the resource that owns it.</p></aside>
<script src="/view.js"></script>
</body>
</html>
`;

export const PAGE_SCRIPT = `"use strict";
(function () {
  var selected = null;
  function text(tag, content) { var e = document.createElement(tag); e.textContent = content; return e; }
  function show(name, server) {
    selected = { name: name, server: server };
    fetch("/api/node?name=" + encodeURIComponent(name) + (server ? "&server=" + encodeURIComponent(server) : "")).then(function (r) { return r.json(); }).then(function (d) {
      var aside = document.getElementById("detail");
      aside.replaceChildren();
      if (d.error) { aside.appendChild(text("p", d.error)); return; }
      aside.appendChild(text("h2", d.name));
      aside.appendChild(text("p", d.label));
      var facts = document.createElement("ul");
      facts.id = "facts";
      d.facts.forEach(function (f) { facts.appendChild(text("li", f)); });
      aside.appendChild(facts);
      aside.appendChild(text("h3", "Attributes (as " + (d.backend === "confluent" ? "Confluent" : "xCAT") + " gives them)"));
      var table = document.createElement("table");
      table.id = "attributes";
      d.attributes.forEach(function (a) {
        var row = document.createElement("tr");
        row.appendChild(text("td", a.name));
        row.appendChild(text("td", a.value));
        row.appendChild(text("td", a.from ? "from group " + a.from : "the node's own"));
        table.appendChild(row);
      });
      aside.appendChild(table);
    });
  }
  function refresh() {
    fetch("/api/view").then(function (r) { return r.json(); }).then(function (v) {
      document.getElementById("problem").textContent = v.problem || "";
      document.getElementById("status").textContent = v.status;
      if (v.svg) document.getElementById("drawing").innerHTML = v.svg;
      if (selected) show(selected.name, selected.server);
    }, function () {
      document.getElementById("problem").textContent =
        "The pulumi-xcat view process does not answer: it was stopped, or its shell closed. Start it again with pulumi-xcat view.";
    }).finally(function () { setTimeout(refresh, window.VIEW_POLL_MS || 2000); });
  }
  document.getElementById("drawing").addEventListener("click", function (e) {
    var g = e.target.closest("[data-node]");
    if (g) show(g.getAttribute("data-node"), g.getAttribute("data-server"));
  });
  document.getElementById("drawing").addEventListener("keydown", function (e) {
    var g = e.target.closest("[data-node]");
    if (g && e.key === "Enter") show(g.getAttribute("data-node"), g.getAttribute("data-server"));
  });
  refresh();
})();
`;
