// Drives m1nd's serve-mode UI in a real browser (Debian's chromium through
// puppeteer-core): load the page, search, open a result's graph view,
// check the canvas draws nodes, open the impact and file views, draw another
// agent's trail; drag a 2,000-node drawing and report what each frame drew; with
// DRAW=N, also draw N nodes of the graph (GET /api/graph/snapshot) and
// time it. Saves screenshots in OUTDIR; prints one JSON summary line.
//
// usage: node ui.mjs URL OUTDIR [QUERY]
import puppeteer from "puppeteer-core";
import { existsSync } from "node:fs";

const [url, outdir, query = "password hashing"] = process.argv.slice(2);
if (!url || !outdir) {
  console.error("usage: node ui.mjs URL OUTDIR [QUERY]");
  process.exit(2);
}
const executablePath = process.env.CHROMIUM || ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find(existsSync);
const browser = await puppeteer.launch({
  executablePath,
  headless: true,
  args: ["--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--window-size=1280,800"],
  defaultViewport: { width: 1280, height: 800 },
});
const page = await browser.newPage();
const errors = [];
page.on("pageerror", (e) => errors.push(String(e)));
page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });

const t0 = Date.now();
await page.goto(url, { waitUntil: "load" });
await page.waitForFunction(() => /nodes/.test(document.getElementById("health").textContent));
const loadMs = Date.now() - t0;

// Pixels of the graph area that are not the background: the canvas drew.
async function drawnPixels() {
  const box = await (await page.$("#graph")).boundingBox();
  const png = await page.screenshot({ clip: box, encoding: "base64" });
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = "data:image/png;base64," + b64;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width; c.height = img.height;
    const ctx = c.getContext("2d");
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const [r0, g0, b0] = [d[0], d[1], d[2]];
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - r0) + Math.abs(d[i + 1] - g0) + Math.abs(d[i + 2] - b0) > 60) n++;
    return n;
  }, png);
}

await page.keyboard.press("/");
await page.keyboard.type(query);
await page.keyboard.press("Enter");
await page.waitForSelector("#results li");
const results = await page.$$eval("#results li .label", (ls) => ls.map((l) => l.textContent));
await page.keyboard.press("Enter"); // the focused results list opens the first
await page.waitForFunction(() => window.m1nd.ready && window.m1nd.drawn > 0);
await new Promise((r) => setTimeout(r, 300));
const graph = { nodes: await page.evaluate(() => window.m1nd.drawn), edges: await page.evaluate(() => window.m1nd.edges), pixels: await drawnPixels() };
await page.screenshot({ path: `${outdir}/graph.png` });

await page.evaluate(() => { window.m1nd.ready = false; });
await page.keyboard.press("i");
await page.waitForFunction(() => window.m1nd.ready);
const impact = await page.$eval("#status", (s) => s.textContent);
await page.screenshot({ path: `${outdir}/impact.png` });

await page.keyboard.press("f");
await page.waitForFunction(() => document.getElementById("file").textContent.length > 0);
const file = await page.$eval("#file", (f) => f.textContent.slice(0, 200));
const partners = await page.$$eval("#partners li", (ls) => ls.map((l) => l.textContent));
await page.keyboard.press("l");
await page.waitForFunction(() => document.querySelectorAll("#layers .layer").length > 0);
const layers = await page.$$eval("#layers .layer .label", (ls) => ls.map((l) => l.textContent));
await page.screenshot({ path: `${outdir}/layers.png` });
const live = await page.$$eval("#live li", (ls) => ls.map((l) => l.textContent));

// Another agent reads two files over REST; the page lists it and draws
// its trail.
async function asAgent(tool, args) {
  const res = await fetch(new URL(`/api/tools/${tool}`, url), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ agent_id: "claude", ...args }) });
  return res.json();
}
const found = await asAgent("seek", { query, top_k: 5 });
const files = [...new Set((found.results || []).map((r) => r.file_path).filter(Boolean))].slice(0, 2);
for (const f of files) await asAgent("view", { file_path: f, limit: 20 });
await page.waitForFunction(() => [...document.querySelectorAll("#agents li")].some((l) => l.textContent === "claude"));
await page.evaluate(() => { window.m1nd.ready = false; });
await page.evaluate(() => [...document.querySelectorAll("#agents li")].find((l) => l.textContent === "claude").click());
await page.waitForFunction(() => window.m1nd.ready);
const trail = { files_read: files, nodes: await page.evaluate(() => window.m1nd.drawn), edges: await page.evaluate(() => window.m1nd.edges), status: await page.$eval("#status", (s) => s.textContent) };
await page.screenshot({ path: `${outdir}/trail.png` });

const large = await largeDrag();

let draw = null;
if (process.env.DRAW) {
  const n = Number(process.env.DRAW);
  await page.evaluate(() => { window.m1nd.ready = false; });
  await page.keyboard.press("g"); // back to the graph view
  await page.waitForFunction(() => window.m1nd.ready);
  await page.evaluate(() => { window.m1nd.ready = false; });
  const t = Date.now();
  await page.evaluate(async (n) => {
    const sg = await (await fetch(`/api/graph/snapshot?limit=${n}`)).json();
    window.m1ndDraw(sg);
  }, n);
  await page.waitForFunction(() => window.m1nd.ready);
  const total = Date.now() - t;
  // Frames per second while the camera moves: is it smooth?
  const fps = await page.evaluate(() => new Promise((resolve) => {
    let frames = 0;
    const start = performance.now();
    const cam = window.m1ndRenderer().getCamera();
    const tick = () => {
      frames++;
      cam.setState({ x: 0.5 + 0.2 * Math.sin(frames / 10), ratio: 1 + 0.3 * Math.cos(frames / 15) });
      if (performance.now() - start < 2000) requestAnimationFrame(tick);
      else resolve(frames / ((performance.now() - start) / 1000));
    };
    requestAnimationFrame(tick);
  }));
  draw = { nodes: await page.evaluate(() => window.m1nd.drawn), layout_and_draw_ms: await page.evaluate(() => window.m1nd.lastDrawMs), total_ms: total, fps: Math.round(fps), pixels: await drawnPixels() };
  await page.screenshot({ path: `${outdir}/draw.png` });
}

await browser.close();
console.log(JSON.stringify({ load_ms: loadMs, results, graph, impact, file, partners, layers, live, trail, large, draw, errors }));

// largeDrag draws 2,000 made-up nodes the way the page draws a graph, then
// drags the stage with the mouse and reports what sigma drew on each frame:
// draw calls on the edge layer, pixels on the label layer, pixels read back
// from the GPU (hover picking, which waits for all queued drawing); then
// zooms with the wheel. What a
// large drawing costs per frame depends on these, not on a clock.
async function largeDrag() { // the graph pane shows the trail drawn last
  await page.evaluate(() => {
    const n = 2000, nodes = [], edges = [];
    const types = ["Function", "Class", "File", "Module"];
    for (let i = 0; i < n; i++) nodes.push({ id: `n${i}`, label: `node_${i}`, type: types[i % 4], pagerank: ((i * 37) % 101) / 2000 });
    for (let i = 0; i < n; i++) {
      edges.push({ source: `n${i}`, target: `n${(i + 1) % n}`, relation: "calls", weight: 0.5 });
      edges.push({ source: `n${i}`, target: `n${(i * 7 + 3) % n}`, relation: "imports", weight: 0.3 });
    }
    window.m1nd.ready = false;
    window.m1ndDraw({ nodes, edges });
  });
  await page.waitForFunction(() => window.m1nd.ready);
  await page.evaluate(() => {
    const r = window.m1ndRenderer();
    const cv = r.getCanvases();
    const spy = (window.m1ndSpy = { edgeDraws: 0, reads: 0, frames: [] });
    const gl = (c) => c.getContext("webgl2") || c.getContext("webgl");
    const edges = gl(cv.edges);
    for (const f of ["drawArrays", "drawElements", "drawArraysInstanced", "drawElementsInstanced"]) {
      const orig = edges[f].bind(edges);
      edges[f] = (...a) => { spy.edgeDraws++; return orig(...a); };
    }
    const nodesGL = gl(cv.nodes);
    const read = nodesGL.readPixels.bind(nodesGL);
    nodesGL.readPixels = (...a) => { spy.reads++; return read(...a); };
    const labels = cv.labels.getContext("2d");
    let before = 0;
    r.on("beforeRender", () => { before = spy.edgeDraws; });
    r.on("afterRender", () => {
      const d = labels.getImageData(0, 0, cv.labels.width, cv.labels.height).data;
      let px = 0;
      for (let i = 3; i < d.length; i += 16) if (d[i]) px++;
      const c = r.getMouseCaptor();
      spy.frames.push({ moving: Boolean(c.draggedEvents || r.getCamera().isAnimated()), edgeDraws: spy.edgeDraws - before, labelPixels: px, labels: r.displayedNodeLabels.size });
    });
  });
  const box = await (await page.$("#graph")).boundingBox();
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 5, y + 3);
  await page.mouse.move(x + 10, y + 6); // past sigma's drag tolerance: a drag, no click
  const readsBefore = await page.evaluate(() => window.m1ndSpy.reads);
  for (let i = 1; i <= 20; i++) await page.mouse.move(x + 10 + 8 * i, y + 6 + 4 * Math.sin(i / 3));
  const dragReads = (await page.evaluate(() => window.m1ndSpy.reads)) - readsBefore;
  await page.screenshot({ path: `${outdir}/drag.png` });
  await page.mouse.up();
  await page.waitForFunction(() => { const f = window.m1ndSpy.frames; return f.length && !f.at(-1).moving; });
  await new Promise((r) => setTimeout(r, 300));
  await page.screenshot({ path: `${outdir}/large.png` });
  const frames = await page.evaluate(() => window.m1ndSpy.frames);
  const moving = frames.filter((f) => f.moving), rest = frames.at(-1);
  const readsAtRest = await page.evaluate(() => window.m1ndSpy.reads);
  for (const dy of [-120, -120, 120]) await page.mouse.wheel({ deltaY: dy }); // zoom in, in, out
  await page.waitForFunction(() => !window.m1ndRenderer().getCamera().isAnimated());
  const wheelReads = (await page.evaluate(() => window.m1ndSpy.reads)) - readsAtRest;
  return {
    nodes: await page.evaluate(() => window.m1nd.drawn), drag_reads: dragReads, wheel_reads: wheelReads, moving_frames: moving.length,
    moving_edge_draws: moving.reduce((s, f) => s + f.edgeDraws, 0), moving_label_pixels: Math.max(0, ...moving.map((f) => f.labelPixels)),
    rest_edge_draws: rest.edgeDraws, rest_label_pixels: rest.labelPixels, rest_labels: rest.labels,
  };
}
