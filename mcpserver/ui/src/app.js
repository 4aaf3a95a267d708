// m1nd's serve-mode UI: search (seek), a node's neighbourhood or an
// activation drawn with sigma (WebGL) over graphology, an impact's blast
// radius as rings, the file, the server's health and every agent's calls
// as they happen (/api/events), and each agent's trail through the files.
// It talks only to the server that serves it.
import Graph from "graphology";
import Sigma from "sigma";
import forceAtlas2 from "graphology-layout-forceatlas2";

const $ = (id) => document.getElementById(id);
const state = { results: [], selected: -1, node: null, renderer: null, graph: null };
// For tests and the curious: what is drawn and how long it took.
window.m1nd = { drawn: 0, edges: 0, lastDrawMs: 0, ready: false };

const TYPE_COLORS = {
  file: "#6cb6ff", function: "#7ee787", class: "#d2a8ff", struct: "#d2a8ff", module: "#ffa657",
  directory: "#8b949e", package: "#ffa657", type: "#f778ba", method: "#56d364", reference: "#a5d6ff",
};
const RELATION_COLORS = { imports: "#3b6ea8", calls: "#2f7d4a", contains: "#3a3f4b", inherits: "#7a4fa8", references: "#5a6270" };
const color = (type) => TYPE_COLORS[String(type).toLowerCase()] || "#c9d1d9";

async function api(tool, args = {}) {
  const res = await fetch(`/api/tools/${tool}`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ agent_id: "ui", ...args }),
  });
  const body = await res.json();
  if (!res.ok) throw Object.assign(new Error(body.error || res.statusText), { status: res.status, body });
  return body;
}

async function getJSON(path) {
  const res = await fetch(path);
  const body = await res.json();
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}

function status(msg) { $("status").textContent = msg; }

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const k of kids) e.append(k);
  return e;
}

// --- health -------------------------------------------------------------

async function refreshHealth() {
  try {
    const h = await getJSON("/api/health");
    const root = (h.ingest_roots || [])[0];
    const head = root && root.git_head ? ` @ ${root.git_head.slice(0, 7)}` : "";
    const stale = root && root.stale ? " · stale" : "";
    const mb = Math.round((h.memory_usage_bytes || 0) / 1e6);
    $("health").textContent = `${h.node_count} nodes · ${h.edge_count} edges${root ? " · " + root.path.split("/").pop() + head : ""}${stale} · ${mb} MB`;
  } catch (e) {
    $("health").textContent = "server unreachable";
  }
}

// --- search -------------------------------------------------------------

async function search(query) {
  if (!query.trim()) return;
  status("searching…");
  const t0 = performance.now();
  if ($("mode").value === "activate") {
    const sg = await getJSON(`/api/graph/subgraph?query=${encodeURIComponent(query)}&top_k=200`);
    showResults(sg.nodes.slice(0, 50).map((n) => ({ node_id: n.id, label: n.label, type: n.type, file_path: n.file, line_start: n.line })));
    draw(sg, "activation");
  } else {
    const r = await api("seek", { query, top_k: 20 });
    showResults(r.results);
  }
  status(`${state.results.length} results in ${Math.round(performance.now() - t0)} ms · ↑ ↓ Enter to open`);
  $("results").focus();
}

function showResults(results) {
  state.results = results;
  state.selected = -1;
  const ol = $("results");
  ol.replaceChildren(...results.map((r, i) => {
    const li = el("li", { role: "option", "data-i": i },
      el("span", { class: "label" }, r.label || r.node_id),
      el("span", { class: "where" }, `${r.type || ""} ${r.file_path || ""}${r.line_start ? ":" + r.line_start : ""}`));
    li.addEventListener("click", () => select(i));
    return li;
  }));
  if (results.length) select(0, false);
}

function select(i, open = true) {
  state.selected = i;
  for (const li of $("results").children) li.setAttribute("aria-selected", String(li.dataset.i == i));
  const r = state.results[i];
  $("results").children[i]?.scrollIntoView({ block: "nearest" });
  if (open && r) openNode(r);
}

// --- a node -------------------------------------------------------------

async function openNode(r) {
  state.node = r;
  const dl = el("dl");
  for (const [k, v] of [["id", r.node_id], ["type", r.type], ["file", r.file_path], ["lines", r.line_start ? `${r.line_start}–${r.line_end || ""}` : ""], ["summary", r.intent_summary]]) {
    if (v) dl.append(el("dt", {}, k), el("dd", {}, String(v)));
  }
  $("node").replaceChildren(dl);
  partners(r);
  await showTab(currentTab());
}

// partners lists the files that usually change with the node's file
// (predict): what else an edit here will likely touch.
async function partners(r) {
  const file = r.file_path ? "file::" + r.file_path : r.node_id;
  try {
    const p = await api("predict", { changed_node: file, top_k: 5 });
    $("partners").replaceChildren(...(p.predictions || []).map((x) => {
      const li = el("li", {}, `${x.node_id.replace(/^file::/, "")} · ${Math.round(x.confidence * 100)}% · ${x.reason}`);
      li.addEventListener("click", () => openNode({ node_id: x.node_id, label: x.node_id.split("/").pop(), type: "file", file_path: x.node_id.replace(/^file::/, "") }));
      return li;
    }));
    if (!(p.predictions || []).length) $("partners").replaceChildren(el("li", {}, "no history of changing with others"));
  } catch (e) {
    $("partners").replaceChildren(el("li", {}, e.message));
  }
}

// showLayers draws the repository's layers, bottom (what everything
// uses) last, each with its size and how cleanly it depends downward,
// and the violations.
async function showLayers() {
  const l = await api("layers", {});
  const most = Math.max(1, ...l.layers.map((x) => x.units));
  const rows = [...l.layers].reverse().map((x) => {
    const bar = el("div", { class: "bar" });
    bar.style.width = `${Math.max(2, (100 * x.units) / most)}%`;
    return el("div", { class: "layer" }, el("span", { class: "label" }, `L${x.level} · ${x.name}`),
      el("span", { class: "where" }, `${x.units} units · separation ${Number(x.health.layer_separation_score).toFixed(2)} · ${x.health.up} upward`), bar);
  });
  const viol = (l.violations || []).map((v) => el("div", { class: "violation" }, `${v.severity} ${v.kind}: ${v.from} → ${v.to}`));
  $("layers").replaceChildren(el("p", { class: "where" }, `${l.layers.length} layers over ${l.units} units, separation ${Number(l.layer_separation_score).toFixed(2)}, ${l.cycles} cycles`), ...rows, ...viol);
  status(`layers: ${l.layers.length}`);
}

function currentTab() { return document.querySelector('#tabs [aria-selected="true"]').dataset.view; }

// showPane selects a tab and shows its pane, drawing nothing.
function showPane(view) {
  for (const b of document.querySelectorAll("#tabs button")) b.setAttribute("aria-selected", String(b.dataset.view === view));
  $("graph").hidden = view === "file" || view === "layers";
  $("legend").hidden = view === "file" || view === "layers";
  $("file").hidden = view !== "file";
  $("layers").hidden = view !== "layers";
}

async function showTab(view) {
  showPane(view);
  const r = state.node;
  try {
    if (view === "layers") return await showLayers();
    if (!r) return;
    if (view === "graph") {
      const sg = await getJSON(`/api/graph/subgraph?node=${encodeURIComponent(r.node_id)}&hops=2&top_k=300`);
      draw(sg, "neighbourhood");
    } else if (view === "impact") {
      const imp = await api("impact", { node_id: r.node_id, top_k: 200 });
      drawRings(r, imp.blast_radius || []);
    } else if (view === "file" && r.file_path) {
      const v = await api("view", { file_path: r.file_path, offset: Math.max(1, (r.line_start || 1) - 3), limit: 400 });
      $("file").textContent = v.content;
    }
  } catch (e) {
    status(`${view}: ${e.message}`);
  }
}

// --- drawing ------------------------------------------------------------

function renderer(graph) {
  if (state.renderer) state.renderer.kill();
  state.graph = graph;
  // Large drawings stay smooth while moving: edges and labels are drawn
  // again once the camera rests.
  const large = graph.order > 500;
  state.renderer = new Sigma(graph, $("graph"), {
    renderEdgeLabels: false, labelRenderedSizeThreshold: large ? 12 : 9, defaultEdgeType: "line", allowInvalidContainer: true,
    labelColor: { color: "#e6e6e6" }, labelFont: "system-ui, sans-serif", hideEdgesOnMove: large, hideLabelsOnMove: large,
  });
  state.renderer.on("clickNode", ({ node }) => expand(node));
  skipPickingWhileMoving(state.renderer);
  return state.renderer;
}

// skipPickingWhileMoving: sigma finds the node under the mouse by reading a
// pixel back from the GPU on every mouse move and wheel tick, which waits
// for all queued drawing. On a software rasteriser that wait blocked each
// move of a 2,000-node drag for 124–148 ms (benchmarks/results/ui.md).
// The page has no use for the node under a wheel tick, and nothing is
// hovered while the stage is dragged or a zoom runs, so the read is skipped
// then; a press, or a click once at rest, still picks.
function skipPickingWhileMoving(r) {
  const captor = r.getMouseCaptor();
  const pick = r.getNodeAtPosition.bind(r);
  const skip = (pos) => pos.original?.type === "wheel" || (captor.isMouseDown && captor.draggedEvents > 0) || captor.currentWheelDirection !== 0;
  r.getNodeAtPosition = (pos) => (skip(pos) ? null : pick(pos));
}

function nodeAttrs(n, x, y) {
  return { x, y, label: n.label, size: 3 + Math.min(14, Math.sqrt((n.pagerank || 0) * 2000)), color: color(n.type), type: "circle", m1ndType: n.type, file: n.file, line: n.line };
}

function addEdges(graph, edges) {
  for (const e of edges) {
    if (!graph.hasNode(e.source) || !graph.hasNode(e.target) || graph.hasEdge(e.source, e.target)) continue;
    graph.addEdge(e.source, e.target, { size: 0.5 + Math.min(3, e.weight * 2), color: RELATION_COLORS[e.relation] || "#444c56", relation: e.relation });
  }
}

// draw lays out a subgraph with ForceAtlas2 (fewer iterations for larger
// graphs) and renders it.
function draw(sg, what) {
  const t0 = performance.now();
  const graph = new Graph({ multi: false, type: "directed" });
  sg.nodes.forEach((n, i) => {
    const a = (2 * Math.PI * i) / sg.nodes.length;
    graph.addNode(n.id, nodeAttrs(n, Math.cos(a) * (1 + (i % 7)), Math.sin(a) * (1 + (i % 7))));
  });
  addEdges(graph, sg.edges);
  if (graph.order > 1) {
    forceAtlas2.assign(graph, { iterations: graph.order > 1000 ? 40 : 120, settings: forceAtlas2.inferSettings(graph) });
  }
  renderer(graph);
  legend(graph);
  finishDraw(t0, graph, `${what}: ${graph.order} nodes, ${graph.size} edges${sg.truncated ? " (bounded)" : ""}`);
}

// drawRings places the impacted nodes on rings by hop distance around the
// changed node: the blast radius at a glance.
function drawRings(center, blast) {
  const t0 = performance.now();
  const graph = new Graph({ type: "directed" });
  graph.addNode(center.node_id, nodeAttrs({ label: center.label || center.node_id, type: center.type, pagerank: 0.02 }, 0, 0));
  const byHop = {};
  for (const b of blast) (byHop[b.hop_distance] ||= []).push(b);
  graph.setNodeAttribute(center.node_id, "forceLabel", true);
  for (const [hop, nodes] of Object.entries(byHop)) {
    nodes.forEach((b, i) => {
      const a = (2 * Math.PI * i) / nodes.length + Number(hop) * 0.6; // rings turned apart: no straight lines through the centre
      const label = b.label || b.node_id.replace(/^file::/, "").split("/").pop();
      if (!graph.hasNode(b.node_id)) graph.addNode(b.node_id, { ...nodeAttrs({ label, type: b.type, pagerank: b.signal_strength / 200 }, Math.cos(a) * hop * 10, Math.sin(a) * hop * 10), forceLabel: true });
      if (hop === "1") graph.addEdge(b.node_id, center.node_id, { size: 1, color: "#5a6270" });
    });
  }
  renderer(graph);
  legend(graph);
  finishDraw(t0, graph, `impact: ${blast.length} affected, ${Object.keys(byHop).length} rings`);
}

function finishDraw(t0, graph, msg) {
  requestAnimationFrame(() => {
    window.m1nd = { drawn: graph.order, edges: graph.size, lastDrawMs: Math.round(performance.now() - t0), ready: true };
    status(`${msg} · drawn in ${window.m1nd.lastDrawMs} ms · click a node to expand`);
  });
}

function swatch(c) {
  const i = el("i");
  i.style.background = c; // a property, not an attribute: the page's CSP allows no inline styles
  return i;
}

function legend(graph) {
  const types = new Set();
  graph.forEachNode((_, a) => types.add(a.m1ndType));
  $("legend").replaceChildren(...[...types].sort().map((t) => el("span", {}, swatch(color(t)), t || "?")));
}

// expand adds a clicked node's neighbours to the drawing.
async function expand(id) {
  const sg = await getJSON(`/api/graph/subgraph?node=${encodeURIComponent(id)}&hops=1&top_k=60`);
  const graph = state.graph;
  const base = graph.getNodeAttributes(id);
  sg.nodes.forEach((n, i) => {
    if (!graph.hasNode(n.id)) graph.addNode(n.id, nodeAttrs(n, base.x + Math.cos(i) * 2, base.y + Math.sin(i) * 2));
  });
  addEdges(graph, sg.edges);
  const n = sg.nodes[0];
  state.node = { node_id: n.id, label: n.label, type: n.type, file_path: n.file, line_start: n.line };
  openNodeInfo(state.node);
  status(`expanded ${n.label}: ${graph.order} nodes`);
  window.m1nd.drawn = graph.order;
}

function openNodeInfo(r) {
  const dl = el("dl");
  for (const [k, v] of [["id", r.node_id], ["type", r.type], ["file", r.file_path], ["line", r.line_start]]) if (v) dl.append(el("dt", {}, k), el("dd", {}, String(v)));
  $("node").replaceChildren(dl);
}

// --- hot spots and live calls ---------------------------------------------

async function hotspots() {
  try {
    const p = await api("panoramic", { top_k: 10 });
    const mods = p.modules || [];
    $("hotspots").replaceChildren(...mods.slice(0, 10).map((m) => {
      const li = el("li", {}, el("span", { class: "label" }, (m.file || m.node_id || "").split("/").pop()), el("span", { class: "where" }, `risk ${Number(m.risk ?? m.combined_risk ?? 0).toFixed(2)}`));
      li.addEventListener("click", () => openNode({ node_id: m.node_id, label: m.label || m.node_id, type: "File", file_path: m.file || (m.node_id || "").replace(/^file::/, "") }));
      return li;
    }));
  } catch {
    $("hotspots").previousElementSibling.hidden = true;
  }
}

// agents lists the agents seen calling tools (not this page); picking one
// draws its trail.
const agentsSeen = new Set();
function noteAgent(id) {
  if (!id || id === "ui" || agentsSeen.has(id)) return;
  agentsSeen.add(id);
  const li = el("li", { tabindex: "0" }, id);
  li.addEventListener("click", () => drawTrail(id).catch((e) => status(`trail: ${e.message}`)));
  li.addEventListener("keydown", (e) => { if (e.key === "Enter") li.click(); });
  $("agents").append(li);
}

// drawTrail draws the files an agent has read this session, in the order
// it first read them (coverage_session, which does not count this call
// as the agent's), each linked to the next.
async function drawTrail(agent) {
  const t0 = performance.now();
  const cov = await api("coverage_session", { agent_id: agent, top_k: 1, limit: 200 });
  const read = [...(cov.read || [])].sort((a, b) => a.first_call - b.first_call);
  showPane("graph");
  const graph = new Graph({ type: "directed" });
  read.forEach((f, i) => {
    const a = i * 0.9; // a spiral: the walk's order reads outward
    graph.addNode("file::" + f.file, { ...nodeAttrs({ label: `${i + 1}. ${f.file.split("/").pop()}`, type: "file", pagerank: Math.min(0.02, f.reads / 500) }, Math.cos(a) * (2 + i), Math.sin(a) * (2 + i)), forceLabel: true, file: f.file });
    if (i > 0) graph.addEdge("file::" + read[i - 1].file, "file::" + f.file, { size: 1.5, color: "#e3b341" });
  });
  renderer(graph);
  legend(graph);
  finishDraw(t0, graph, `trail of ${agent}: ${read.length} files read in ${cov.calls} calls, ${Math.round(100 * (cov.coverage_ratio || 0))}% of the graph's files`);
}

function live() {
  const es = new EventSource("/api/events");
  es.addEventListener("tool_call", (m) => {
    const ev = JSON.parse(m.data);
    const d = ev.data;
    noteAgent(d.agent_id);
    const li = el("li", d.is_error ? { class: "err" } : {}, `${new Date(ev.timestamp_ms).toLocaleTimeString()} ${d.agent_id || "?"} → ${d.tool} (${d.transport}, ${d.elapsed_ms} ms, ${d.bytes} B)`);
    $("live").prepend(li);
    while ($("live").children.length > 60) $("live").lastChild.remove();
    if (d.tool === "ingest" || d.tool === "learn") refreshHealth();
  });
}

// --- keyboard -----------------------------------------------------------

document.addEventListener("keydown", (e) => {
  const typing = e.target.matches("input, select, textarea");
  if (e.key === "/" && !typing) { e.preventDefault(); $("q").focus(); return; }
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    if (!state.results.length) return;
    e.preventDefault();
    const n = state.results.length;
    select((state.selected + (e.key === "ArrowDown" ? 1 : n - 1)) % n, false);
  } else if (e.key === "Enter" && state.selected >= 0 && e.target.id !== "q") {
    openNode(state.results[state.selected]);
  } else if (!typing && ["g", "i", "f", "l"].includes(e.key)) {
    showTab({ g: "graph", i: "impact", f: "file", l: "layers" }[e.key]);
  }
});
$("search").addEventListener("submit", (e) => { e.preventDefault(); search($("q").value).catch((err) => status(err.message)); });
for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => showTab(b.dataset.view));

refreshHealth();
setInterval(refreshHealth, 10000);
hotspots();
live();

// Hooks for the browser tests and benchmarks: draw a subgraph as the page
// would, reach the renderer.
window.m1ndDraw = (sg) => draw(sg, "graph");
window.m1ndRenderer = () => state.renderer;
window.m1ndTrail = (agent) => drawTrail(agent);
