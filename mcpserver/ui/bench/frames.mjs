// Where a frame's time goes when the UI's graph view moves: draws N nodes
// of a running server's graph (GET /api/graph/snapshot) in Debian's
// chromium, then moves the camera (sigma's animation, a mouse drag, wheel
// zooms) and hovers, under a Chrome trace. For each scenario it prints the
// page's own main-thread work per frame (wall and CPU ms, p50/p95: sigma's
// render, label drawing, event handlers, garbage collection), the time
// inside sigma's render alone, the frames per second achieved, and the CPU
// the GPU process spent (SwiftShader rasterises there when there is no
// GPU), read from /proc so its worker threads count too.
//
// usage: node frames.mjs URL [NODES,...] [GL]
//   GL names a set of chromium flags (see GL below); default "swiftshader".
//   SCENARIOS=animate,drag,wheel,hover picks some; TRACE_DIR keeps traces.
// puppeteer-core comes from ../../e2e/npm (npm ci there); CHROMIUM names
// the browser. Prints one JSON line per (nodes, scenario).
import { createRequire } from "node:module";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

let traces = 0; // traces written to TRACE_DIR
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "../../e2e/npm/package.json"));
const { default: puppeteer } = await import(require.resolve("puppeteer-core"));

// Chromium flag sets tried on a GPU-less VM.
const GL = {
  swiftshader: ["--use-angle=swiftshader", "--enable-unsafe-swiftshader"],
  "swiftshader-swcomp": ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-gpu-compositing"],
  "swiftshader-inproc": ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--in-process-gpu"],
  "swiftshader-swcomp-2d": ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-gpu-compositing", "--disable-accelerated-2d-canvas"],
  "angle-vulkan-swiftshader": ["--use-gl=angle", "--use-angle=vulkan", "--use-vulkan=swiftshader", "--enable-unsafe-swiftshader"],
  "disable-gpu": ["--disable-gpu", "--enable-unsafe-swiftshader"],
  default: [],
};

const [url, nodesArg = "60,500,2000", gl = "swiftshader"] = process.argv.slice(2);
if (!url || !GL[gl]) {
  console.error(`usage: node frames.mjs URL [NODES,...] [${Object.keys(GL).join("|")}]`);
  process.exit(2);
}
const executablePath = process.env.CHROMIUM || ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find(existsSync);
const browser = await puppeteer.launch({
  executablePath, headless: true, protocolTimeout: 60000, defaultViewport: { width: 1280, height: 800 },
  args: ["--no-sandbox", "--window-size=1280,800", ...GL[gl]],
});
const page = await browser.newPage();
const errors = [];
page.on("pageerror", (e) => errors.push(String(e)));
await page.goto(url, { waitUntil: "load" });
await page.waitForFunction(() => /nodes/.test(document.getElementById("health").textContent));
const renderer = await page.evaluate(() => {
  const c = document.createElement("canvas").getContext("webgl2");
  const d = c && c.getExtension("WEBGL_debug_renderer_info");
  return d ? c.getParameter(d.UNMASKED_RENDERER_WEBGL) : String(c);
});

for (const n of nodesArg.split(",").map(Number)) {
  await drawGraph(n);
  const only = process.env.SCENARIOS ? process.env.SCENARIOS.split(",") : null;
  for (const [name, act] of Object.entries(SCENARIOS())) {
    if (only && !only.includes(name)) continue;
    const r = await measure(act);
    console.log(JSON.stringify({ gl, renderer, nodes: n, scenario: name, ...r }));
  }
}
if (errors.length) console.error("page errors:", errors);
await browser.close();

async function drawGraph(n) {
  await page.evaluate(() => { window.m1nd.ready = false; });
  await page.evaluate(async (n) => window.m1ndDraw(await (await fetch(`/api/graph/snapshot?limit=${n}`)).json()), n);
  await page.waitForFunction(() => window.m1nd.ready);
  await page.evaluate(() => {
    const r = window.m1ndRenderer();
    window.m1ndBench = { renders: [], moving: 0 };
    let t0 = 0;
    r.on("beforeRender", () => { t0 = performance.now(); console.timeStamp("m1nd-render"); });
    r.on("afterRender", () => window.m1ndBench.renders.push(performance.now() - t0));
  });
  await new Promise((r) => setTimeout(r, 500));
}

// SCENARIOS: each moves the view for about two seconds.
function SCENARIOS() {
  const box = { x: 460, y: 300 }; // inside #graph at 1280×800
  return {
    // Promises, not callbacks: a callback that starts the next animation
    // loses that animation's own callback (sigma clears it afterwards).
    animate: () => page.evaluate(async () => {
      const cam = window.m1ndRenderer().getCamera();
      await cam.animate({ x: 0.7, y: 0.4, ratio: 0.6 }, { duration: 1000 });
      await cam.animate({ x: 0.5, y: 0.5, ratio: 1 }, { duration: 1000 });
    }),
    drag: async () => {
      await page.mouse.move(box.x, box.y);
      await page.mouse.down();
      for (let i = 1; i <= 60; i++) await page.mouse.move(box.x + 150 * Math.sin(i / 10), box.y + 100 * Math.sin(i / 15));
      await page.mouse.up();
      await new Promise((r) => setTimeout(r, 300));
    },
    wheel: async () => {
      await page.mouse.move(box.x, box.y);
      for (let i = 0; i < 12; i++) {
        await page.mouse.wheel({ deltaY: i < 6 ? -120 : 120 });
        await new Promise((r) => setTimeout(r, 120));
      }
      await new Promise((r) => setTimeout(r, 400));
    },
    hover: async () => {
      for (let i = 0; i < 120; i++) await page.mouse.move(200 + (i * 7) % 520, 150 + (i * 13) % 380);
      await new Promise((r) => setTimeout(r, 200));
    },
  };
}

// measure runs act under a trace and /proc CPU accounting.
async function measure(act) {
  await page.evaluate(() => { window.m1ndBench.renders = []; });
  const procs = chromeProcs(browser.process().pid);
  const cpu0 = procs.map(cpuMs);
  await page.tracing.start({ categories: ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "blink.user_timing"] });
  const t0 = Date.now();
  await act();
  const wallMs = Date.now() - t0;
  const raw = Buffer.from(await page.tracing.stop()).toString();
  if (process.env.TRACE_DIR) writeFileSync(path.join(process.env.TRACE_DIR, `trace-${++traces}.json`), raw);
  const trace = JSON.parse(raw);
  const cpu = procs.map((p, i) => ({ type: p.type, ms: cpuMs(p) - cpu0[i] }));
  const renders = await page.evaluate(() => window.m1ndBench.renders);
  const main = mainThreadPerFrame(trace.traceEvents);
  const byType = (t) => cpu.filter((c) => c.type === t).reduce((s, c) => s + c.ms, 0);
  const gpuMs = byType("gpu-process"), rendMs = byType("renderer");
  const frames = Math.max(1, main.frames || main.mousemove.length); // hovering draws no full frames
  return {
    wall_ms: wallMs, frames: main.frames, fps: +(main.frames / (main.spanMs / 1000 || 1)).toFixed(1),
    render_js_ms: pct(renders),
    main_wall_ms: pct(main.wall), main_cpu_ms: pct(main.cpu), mousemove_ms: pct(main.mousemove),
    cpu_per_frame_ms: { renderer: +(rendMs / frames).toFixed(1), gpu_process: +(gpuMs / frames).toFixed(1), browser: +(byType("browser") / frames).toFixed(1) },
    raster_share: +(gpuMs / Math.max(1, gpuMs + rendMs)).toFixed(2),
  };
}

// mainThreadPerFrame sums the page's main-thread tasks between consecutive
// sigma renders (the console.timeStamp marks).
function mainThreadPerFrame(events) {
  const js = events.find((e) => e.name === "FunctionCall" || e.name === "EventDispatch");
  const main = js && events.find((e) => e.ph === "M" && e.name === "thread_name" && e.pid === js.pid && e.tid === js.tid);
  if (!main) return { frames: 0, spanMs: 0, wall: [], cpu: [], mousemove: [] };
  const on = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const marks = on.filter((e) => e.name === "TimeStamp").map((e) => e.ts).sort((a, b) => a - b);
  const tasks = on.filter((e) => e.ph === "X" && e.name === "ThreadControllerImpl::RunTask");
  const wall = [], cpu = [];
  for (let i = 0; i + 1 < marks.length; i++) {
    const inFrame = tasks.filter((t) => t.ts + t.dur > marks[i] && t.ts < marks[i + 1]);
    wall.push(inFrame.reduce((s, t) => s + t.dur, 0) / 1000);
    cpu.push(inFrame.reduce((s, t) => s + (t.tdur ?? t.dur), 0) / 1000);
  }
  const mousemove = on.filter((e) => e.name === "EventDispatch" && e.args?.data?.type === "mousemove").map((e) => e.dur / 1000);
  return { frames: marks.length, spanMs: marks.length > 1 ? (marks.at(-1) - marks[0]) / 1000 : 0, wall, cpu, mousemove };
}

function pct(xs) {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => +s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(1);
  return { n: s.length, p50: q(0.5), p95: q(0.95), max: +s.at(-1).toFixed(1) };
}

// chromeProcs lists the browser and its children with their --type.
function chromeProcs(root) {
  const out = [{ pid: root, type: "browser" }];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      // Chromium rewrites its children's command lines (NULs become spaces).
      const cmd = readFileSync(`/proc/${d}/cmdline`, "utf8");
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const type = (cmd.match(/--type=([\w-]+)/) || [])[1];
      if (type && isDescendant(Number(d), ppid, root)) out.push({ pid: Number(d), type });
    } catch { /* gone */ }
  }
  return out;
}

function isDescendant(pid, ppid, root) {
  for (let p = ppid, i = 0; p > 1 && i < 10; i++) {
    if (p === root) return true;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      p = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch { return false; }
  }
  return false;
}

// cpuMs: user+system CPU of a process, all threads, in ms.
function cpuMs(p) {
  try {
    const stat = readFileSync(`/proc/${p.pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // f[11], f[12]: utime, stime in ticks
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch { return 0; }
}
