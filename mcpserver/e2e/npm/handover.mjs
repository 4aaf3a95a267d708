// Two editors on one runtime directory, both through the official MCP
// TypeScript SDK: client 1 starts m1nd-mcp (the owner), client 2 starts a
// second m1nd-mcp that attaches to it. Client 1 then close()s with the
// SDK's real sequence (end stdin, wait 2 s, SIGTERM, wait 2 s, SIGKILL)
// while client 2 keeps calling tools; client 2 must go on working — its
// process takes the graph over — and finally closes too. Prints one JSON
// summary line on stdout; exits non-zero on any failure.
//
// usage: node handover.mjs /path/to/m1nd-mcp /path/to/repo /path/to/runtime-dir
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [server, repo, rt] = process.argv.slice(2);
if (!server || !repo || !rt) {
  console.error("usage: node handover.mjs M1ND_MCP REPO RUNTIME_DIR");
  process.exit(2);
}

const text = (res) => {
  if (res.isError) throw new Error("tool error: " + res.content[0].text);
  return JSON.parse(res.content[0].text);
};
const args = ["--runtime-dir", rt, "--ingest", repo];
const open = async (name) => {
  const transport = new StdioClientTransport({ command: server, args, stderr: "inherit" });
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(transport);
  // The child process, kept to read how it ended (the SDK forgets it on close).
  return { client, transport, proc: transport._process, pid: transport.pid };
};
const howEnded = (p) => ({ exit_code: p.exitCode, signal: p.signalCode });

const one = await open("editor-1");
const h1 = text(await one.client.callTool({ name: "health", arguments: { agent_id: "one" } }));
const two = await open("editor-2");
const h2 = text(await two.client.callTool({ name: "health", arguments: { agent_id: "two" } }));

// Client 2 calls tools back to back while client 1 closes: every call
// must end, with an answer or a retryable error.
let calling = true;
const during = { ok: 0, errors: [] };
const loop = (async () => {
  while (calling) {
    try {
      const r = await two.client.callTool({ name: "seek", arguments: { agent_id: "two", query: "session expiry", top_k: 3 } });
      if (r.isError) during.errors.push(r.content[0].text);
      else during.ok++;
    } catch (e) {
      during.errors.push(String(e.message || e));
    }
  }
})();

const closing = Date.now();
await one.client.close();
const closeOneMs = Date.now() - closing;
const oneEnded = howEnded(one.proc);
// Keep calling a little after the owner is gone.
await new Promise((r) => setTimeout(r, 1000));
calling = false;
await loop;

// Client 2's session goes on: health, seek, learn, and a query that sees
// the learning.
const after = text(await two.client.callTool({ name: "health", arguments: { agent_id: "two" } }));
const seek = text(await two.client.callTool({ name: "seek", arguments: { agent_id: "two", query: "validate user credentials", top_k: 5 } }));
const q = { agent_id: "two", query: "session expiry", top_k: 10 };
const before = text(await two.client.callTool({ name: "activate", arguments: q })).activated.map((n) => n.node_id);
for (let i = 0; i < 3; i++) {
  text(await two.client.callTool({ name: "learn", arguments: { agent_id: "two", query: q.query, feedback: "wrong", node_ids: [before[0]], strength: 1 } }));
}
const afterLearn = text(await two.client.callTool({ name: "activate", arguments: q })).activated.map((n) => n.node_id);
const learned = text(await two.client.callTool({ name: "health", arguments: { agent_id: "two" } }));

const closingTwo = Date.now();
await two.client.close();
const closeTwoMs = Date.now() - closingTwo;

console.log(JSON.stringify({
  pids: [one.pid, two.pid],
  nodes: [h1.node_count, h2.node_count, after.node_count],
  close_one_ms: closeOneMs,
  one_ended: oneEnded,
  during_ok: during.ok,
  during_errors: during.errors,
  seek_results: (seek.results || []).length,
  learned_top: before[0],
  learned_rank_after: afterLearn.indexOf(before[0]),
  learned_edges: learned.plasticity?.learned_edges,
  close_two_ms: closeTwoMs,
  two_ended: howEnded(two.proc),
}));
