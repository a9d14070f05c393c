package kcheck.trace;

/**
 * Renders a trace as one self-contained HTML file (no network, no CDN): the property and verdict
 * at the top, per-actor lanes with one row per step (kernel function on each), the full state at
 * the current step with the fields that step changed highlighted, and buttons and keys (left,
 * right, Home, End) to step through it. The URL fragment {@code #step=N} opens the page at step
 * N (and follows the current step, so a link can be pasted into a review). If the model
 * describes its locks, a lock lane chart shows per lock, over the steps, who holds it and who
 * waits for it in serving order; clicking a column selects that step. The model's legend is at
 * the bottom.
 */
public final class HtmlRenderer {
    private HtmlRenderer() {
    }

    public static String render(Trace t) {
        String json = TraceIO.toJson(t).replace("</", "<\\/").replace("<!--", "<\\!--");
        String title = esc(t.model() + " / " + t.variant() + " / " + t.property());
        return TEMPLATE.replace("@TITLE@", title).replace("@TRACE@", json);
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static final String TEMPLATE = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>kcheck: @TITLE@</title>
            <style>
              body { font: 14px/1.35 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #fafafa; }
              header { padding: 12px 20px; background: #fff; border-bottom: 1px solid #ddd; }
              h1 { font-size: 18px; margin: 0 0 4px 0; }
              .verdict { display: inline-block; padding: 2px 8px; border-radius: 4px; font-weight: 600; color: #fff; }
              .verdict.VIOLATED { background: #c62828; } .verdict.HOLDS { background: #2e7d32; }
              .verdict.WITNESS { background: #1565c0; } .verdict.INCOMPLETE { background: #8d6e00; }
              #message { margin: 6px 0 0 0; } #params { color: #555; font-family: monospace; }
              nav { position: sticky; top: 0; padding: 8px 20px; background: #eef2f7; border-bottom: 1px solid #ccd;
                    display: flex; gap: 8px; align-items: center; z-index: 2; }
              nav button { font-size: 14px; padding: 3px 10px; } #pos { min-width: 120px; font-weight: 600; }
              main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(260px, 2fr); gap: 16px; padding: 12px 20px; }
              table { border-collapse: collapse; width: 100%; background: #fff; }
              th, td { border: 1px solid #ddd; padding: 3px 6px; vertical-align: top; text-align: left; }
              th { background: #f3f3f3; position: sticky; top: 41px; }
              td.n { color: #777; width: 3em; text-align: right; font-family: monospace; }
              td.act { font-family: monospace; } .fn { display: block; color: #777; font-size: 11px; font-family: system-ui; }
              tr.step { cursor: pointer; } tr.current { outline: 2px solid #1565c0; background: #e3f0ff; }
              tr.violating td.act { background: #ffebee; } tr.violating td.n::before { content: "\\2717 "; color: #c62828; }
              tr.future { opacity: 0.45; } tr.cycle td.n { border-left: 4px solid #c62828; }
              #state td.v { font-family: monospace; } #state tr.changed { background: #fff3b0; font-weight: 600; }
              #state td.owner { color: #777; white-space: nowrap; }
              .note { color: #555; margin: 6px 0; }
              #lockchart { padding: 0 20px 8px 20px; } #lockchart h2, #legend h2 { font-size: 15px; margin: 10px 0 4px 0; }
              #lockchart svg { background: #fff; border: 1px solid #ddd; font-family: monospace; font-size: 11px; }
              #lockchart .col { cursor: pointer; } #lockchart .col:hover { fill: #eef2f7; }
              #legend { padding: 0 20px 16px 20px; } #legend li { font-family: monospace; white-space: pre-wrap; }
            </style>
            </head>
            <body>
            <header>
              <h1 id="title"></h1>
              <span id="verdict" class="verdict"></span> <span id="kind"></span>
              <p id="message"></p>
              <div id="params"></div>
            </header>
            <nav>
              <button id="first" title="Home">&laquo; first</button>
              <button id="prev" title="left arrow">&#x25C0; prev</button>
              <span id="pos"></span>
              <button id="next" title="right arrow">next &#x25B6;</button>
              <button id="last" title="End">last &raquo;</button>
              <span class="note">keys: &larr; &rarr; Home End; click a row to jump</span>
            </nav>
            <section id="lockchart" hidden><h2>Locks: who holds each one (solid) and who waits for it (outlined, in serving order)</h2>
              <div id="lockchartbody"></div></section>
            <main>
              <section><table id="lanes"><thead></thead><tbody></tbody></table><p id="loopnote" class="note"></p></section>
              <section><table id="state"><thead><tr><th>field</th><th>owner</th><th>value</th></tr></thead><tbody></tbody></table></section>
            </main>
            <section id="legend" hidden><h2>Legend</h2><ul></ul></section>
            <script id="trace" type="application/json">@TRACE@</script>
            <script>
            (function () {
              "use strict";
              var t = JSON.parse(document.getElementById("trace").textContent);
              var n = t.steps.length, cur = 0;
              function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
              document.getElementById("title").textContent = t.model + " \\u00b7 " + t.variant + " \\u00b7 " + t.property;
              var v = document.getElementById("verdict"); v.textContent = t.verdict; v.classList.add(t.verdict);
              document.getElementById("kind").textContent = "(" + t.kind + ")";
              document.getElementById("message").textContent = t.message;
              var p = []; for (var k in (t.params || {})) p.push(k + "=" + t.params[k]);
              document.getElementById("params").textContent = p.join(" ") + (t.seed != null ? "  seed=" + t.seed : "")
                + (t.minimisedFrom != null ? "  minimised from " + t.minimisedFrom + " steps" : "");
              var head = document.querySelector("#lanes thead"), hr = el("tr");
              hr.appendChild(el("th", null, "step"));
              t.actors.forEach(function (a) { hr.appendChild(el("th", null, a)); });
              head.appendChild(hr);
              var body = document.querySelector("#lanes tbody"), rows = [];
              var r0 = el("tr", "step"); r0.dataset.step = 0; r0.appendChild(el("td", "n", "0"));
              var c0 = el("td", "act", "initial state"); c0.colSpan = t.actors.length; r0.appendChild(c0);
              body.appendChild(r0); rows.push(r0);
              t.steps.forEach(function (s) {
                var r = el("tr", "step"); r.dataset.step = s.index;
                if (s.index === t.violationStep && t.verdict === "VIOLATED" && t.loopStart == null) r.classList.add("violating");
                if (t.loopStart != null && s.index > t.loopStart) r.classList.add("cycle");
                r.appendChild(el("td", "n", String(s.index)));
                t.actors.forEach(function (a, i) {
                  var td = el("td", "act");
                  if (i === s.actor) { td.textContent = s.action; if (s.function) td.appendChild(el("span", "fn", s.function)); }
                  r.appendChild(td);
                });
                body.appendChild(r); rows.push(r);
              });
              if (t.loopStart != null) document.getElementById("loopnote").textContent =
                "Steps " + (t.loopStart + 1) + ".." + n + " form a cycle: after step " + n + " the run is back in a state equivalent to the one after step " + t.loopStart + ", and repeats forever.";
              rows.forEach(function (r) { r.addEventListener("click", function () { show(+r.dataset.step); }); });
              function stateAt(i) {
                var m = new Map();
                t.initial.forEach(function (f) { m.set(f.name, f); });
                for (var j = 0; j < i; j++) t.steps[j].changes.forEach(function (f) { m.set(f.name, f); });
                return m;
              }
              var SVG = "http://www.w3.org/2000/svg", marker = null;
              function sv(tag, attrs, text) {
                var e = document.createElementNS(SVG, tag);
                for (var k in attrs) e.setAttribute(k, attrs[k]);
                if (text !== undefined) e.textContent = text;
                return e;
              }
              var COLORS = ["#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#ad1457"];
              function color(a) { return COLORS[a % COLORS.length]; }
              function shortName(a) {
                var m = /^(\\w)\\w*\\s+(\\d+)$/.exec(t.actors[a]);
                return m ? m[1].toUpperCase() + m[2] : t.actors[a].slice(0, 3);
              }
              function lockChart() {
                if (!t.initialLocks || !t.initialLocks.length) return;
                var states = [t.initialLocks].concat(t.steps.map(function (s) { return s.locks || []; }));
                var names = t.initialLocks.map(function (l) { return l.name; });
                var depth = names.map(function (name) {
                  var d = 0;
                  states.forEach(function (st) { st.forEach(function (l) { if (l.name === name) d = Math.max(d, l.waiters.length); }); });
                  return d;
                });
                var cw = Math.max(22, Math.min(44, Math.floor(1100 / (n + 1)))), left = 52, top = 18, rh = 16;
                var rows = [], y = top;
                names.forEach(function (name, i) { rows.push({ name: name, y: y, h: rh * (1 + depth[i]) + 6 }); y += rh * (1 + depth[i]) + 6; });
                var svg = sv("svg", { width: left + cw * (n + 1) + 4, height: y + 4, id: "lockchartsvg" });
                for (var j = 0; j <= n; j++) {
                  var col = sv("rect", { x: left + j * cw, y: 0, width: cw, height: y, fill: "transparent", "class": "col" });
                  col.dataset.step = j;
                  svg.appendChild(col);
                  svg.appendChild(sv("text", { x: left + j * cw + cw / 2, y: 12, "text-anchor": "middle", fill: "#777" }, String(j)));
                }
                rows.forEach(function (r) {
                  svg.appendChild(sv("line", { x1: 0, x2: left + cw * (n + 1), y1: r.y + r.h - 3, y2: r.y + r.h - 3, stroke: "#e3e3e3" }));
                  svg.appendChild(sv("text", { x: 4, y: r.y + 12, "font-weight": "bold" }, r.name));
                  states.forEach(function (st, j) {
                    st.forEach(function (l) {
                      if (l.name !== r.name) return;
                      var x = left + j * cw + 1;
                      l.holders.forEach(function (a, k) {
                        var g = sv("g", { "class": "holder", "data-step": j, "data-lock": l.name, "data-actor": a });
                        g.appendChild(sv("rect", { x: x + k * 3, y: r.y, width: cw - 2, height: rh - 2, fill: color(a), rx: 2 }));
                        g.appendChild(sv("text", { x: x + cw / 2 - 1, y: r.y + 11, "text-anchor": "middle", fill: "#fff" }, shortName(a)));
                        g.appendChild(sv("title", {}, t.actors[a] + " holds " + l.name + " after step " + j));
                        svg.appendChild(g);
                      });
                      l.waiters.forEach(function (a, k) {
                        var wy = r.y + rh * (k + 1);
                        var g = sv("g", { "class": "waiter", "data-step": j, "data-lock": l.name, "data-actor": a, "data-order": k + 1 });
                        g.appendChild(sv("rect", { x: x, y: wy, width: cw - 2, height: rh - 2, fill: "#fff", stroke: color(a), "stroke-width": 1.5,
                          "stroke-dasharray": l.ordered ? "" : "3,2", rx: 2 }));
                        g.appendChild(sv("text", { x: x + cw / 2 - 1, y: wy + 11, "text-anchor": "middle", fill: color(a) },
                          (l.ordered ? (k + 1) + ":" : "") + shortName(a)));
                        g.appendChild(sv("title", {}, t.actors[a] + " waits for " + l.name + (l.ordered ? " (served " + ordinal(k + 1) + ")" : "") + " after step " + j));
                        svg.appendChild(g);
                      });
                    });
                  });
                });
                svg.addEventListener("click", function (e) {
                  var j = Math.floor((e.clientX - svg.getBoundingClientRect().left - left) / cw);
                  if (j >= 0 && j <= n) show(j);
                });
                marker = sv("rect", { x: left, y: 1, width: cw, height: y - 2, fill: "none", stroke: "#1565c0", "stroke-width": 2,
                  id: "lockcursor", "pointer-events": "none" });
                svg.appendChild(marker);
                marker.dataset.left = left; marker.dataset.cw = cw;
                var key = document.createElement("p"); key.className = "note";
                key.textContent = "Columns are the states after each step (0: initially); a lane's solid box is the holder, outlined boxes below it "
                  + "are the waiters (n: the n-th to be served; dashed: a lock with no serving order). Click a column to select that step.";
                var body = document.getElementById("lockchartbody"); body.appendChild(svg); body.appendChild(key);
                document.getElementById("lockchart").hidden = false;
              }
              function ordinal(k) { return k + (k === 1 ? "st" : k === 2 ? "nd" : k === 3 ? "rd" : "th"); }
              lockChart();
              if (t.legend && t.legend.length) {
                var ul = document.querySelector("#legend ul");
                t.legend.forEach(function (l) { ul.appendChild(el("li", null, l)); });
                document.getElementById("legend").hidden = false;
              }
              function show(i) {
                cur = Math.max(0, Math.min(n, i));
                if (marker) marker.setAttribute("x", +marker.dataset.left + cur * +marker.dataset.cw);
                if (location.hash !== "#step=" + cur) {
                  try { history.replaceState(null, "", "#step=" + cur); } catch (e) { /* some file: URLs refuse: the page still works */ }
                }
                rows.forEach(function (r, j) { r.classList.toggle("current", j === cur); r.classList.toggle("future", j > cur); });
                document.getElementById("pos").textContent = "step " + cur + " / " + n;
                var changed = new Set(cur > 0 ? t.steps[cur - 1].changes.map(function (f) { return f.name; }) : []);
                var sb = document.querySelector("#state tbody"); sb.textContent = "";
                stateAt(cur).forEach(function (f) {
                  if (f.value === "-") return;
                  var r = el("tr", changed.has(f.name) ? "changed" : null);
                  r.dataset.field = f.name;
                  r.appendChild(el("td", null, f.name));
                  r.appendChild(el("td", "owner", f.actor == null ? "shared" : t.actors[f.actor]));
                  r.appendChild(el("td", "v", f.value));
                  sb.appendChild(r);
                });
                document.body.dataset.step = String(cur);
              }
              document.getElementById("first").onclick = function () { show(0); };
              document.getElementById("prev").onclick = function () { show(cur - 1); };
              document.getElementById("next").onclick = function () { show(cur + 1); };
              document.getElementById("last").onclick = function () { show(n); };
              document.addEventListener("keydown", function (e) {
                if (e.key === "ArrowRight") show(cur + 1); else if (e.key === "ArrowLeft") show(cur - 1);
                else if (e.key === "Home") show(0); else if (e.key === "End") show(n); else return;
                e.preventDefault();
              });
              function fromHash() {
                var m = /(?:^#|&)step=(\\d+)/.exec(location.hash);
                return m ? parseInt(m[1], 10) : 0;
              }
              window.addEventListener("hashchange", function () { show(fromHash()); });
              show(fromHash());
              if (cur > 0) rows[cur].scrollIntoView({ block: "center" });
            })();
            </script>
            </body>
            </html>
            """;
}
