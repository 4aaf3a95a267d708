// Drives m1nd-mcp with the official MCP TypeScript SDK: initialize, list
// tools, ingest a repository, call health and activate, then what a new
// user tries first: impact on a file, why between two files, and
// activate → learn wrong → activate. Prints one JSON summary line on
// stdout; exits non-zero on any failure.
//
// usage: node client.mjs /path/to/m1nd-mcp /path/to/repo
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [server, repo] = process.argv.slice(2);
if (!server || !repo) {
  console.error("usage: node client.mjs M1ND_MCP REPO");
  process.exit(2);
}

// The SDK starts the server with a minimal environment: allow the fixture's
// directory by flag.
const transport = new StdioClientTransport({ command: server, args: ["--allow-root", repo], stderr: "inherit" });
const client = new Client({ name: "m1nd-e2e-ts", version: "1.0.0" });
await client.connect(transport);

const info = client.getServerVersion();
const { tools } = await client.listTools();
const text = (res) => JSON.parse(res.content[0].text);

const progress = [];
const ingest = await client.callTool(
  { name: "ingest", arguments: { agent_id: "ts-sdk", path: repo } },
  undefined,
  { onprogress: (p) => progress.push(p) },
);
if (ingest.isError) throw new Error("ingest failed: " + ingest.content[0].text);
const health = text(await client.callTool({ name: "health", arguments: { agent_id: "ts-sdk" } }));
const act = text(await client.callTool({ name: "m1nd.activate", arguments: { agent_id: "ts-sdk", query: "authentication", top_k: 3 } }));
const bad = await client.callTool({ name: "activate", arguments: { agent_id: "ts-sdk" } });

const impact = text(await client.callTool({ name: "impact", arguments: { agent_id: "ts-sdk", node_id: "backend/session.py" } }));
const why = text(await client.callTool({ name: "why", arguments: { agent_id: "ts-sdk", source: "backend/payments.py", target: "backend/session.py" } }));
const q = { agent_id: "ts-sdk", query: "session expiry", top_k: 10 };
const before = text(await client.callTool({ name: "activate", arguments: q })).activated.map((n) => n.node_id);
for (let i = 0; i < 3; i++) {
  const l = await client.callTool({ name: "learn", arguments: { agent_id: "ts-sdk", query: q.query, feedback: "wrong", node_ids: [before[0]], strength: 1 } });
  if (l.isError) throw new Error("learn failed: " + l.content[0].text);
}
const after = text(await client.callTool({ name: "activate", arguments: q })).activated.map((n) => n.node_id);

console.log(JSON.stringify({
  server: info,
  tool_count: tools.length,
  tools_without_object_schema: tools.filter((t) => t.inputSchema?.type !== "object").map((t) => t.name),
  ingest_nodes: text(ingest).nodes_created,
  progress_notifications: progress.length,
  health_nodes: health.node_count,
  activated: act.activated.length,
  bad_call_is_error: bad.isError === true,
  bad_call_has_hint: typeof JSON.parse(bad.content[0].text).hint === "string",
  impact_direction: impact.direction,
  impact_direct: impact.blast_radius.filter((b) => b.hop_distance === 1).map((b) => b.node_id),
  impact_listed: impact.blast_radius.map((b) => b.node_id),
  why_first: why.paths.length ? why.paths[0].relations : [],
  learned_top: before[0],
  learned_rank_after: after.indexOf(before[0]),
}));
await client.close();
