// Drives m1nd-mcp's serve mode with the official MCP TypeScript SDK's
// StreamableHTTPClientTransport: connect by URL, list tools, call seek and
// learn. Prints one JSON summary line on stdout; exits non-zero on any
// failure.
//
// usage: node http.mjs http://127.0.0.1:PORT/mcp
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url] = process.argv.slice(2);
if (!url) {
  console.error("usage: node http.mjs URL");
  process.exit(2);
}
const client = new Client({ name: "m1nd-e2e-ts-http", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const { tools } = await client.listTools();
const text = (res) => JSON.parse(res.content[0].text);
const seek = text(await client.callTool({ name: "seek", arguments: { agent_id: "ts-http", query: "where are passwords hashed", top_k: 3 } }));
const bad = await client.callTool({ name: "impact", arguments: { agent_id: "ts-http" } });
await client.close();
console.log(JSON.stringify({
  server: client.getServerVersion(),
  tool_count: tools.length,
  seek_top: seek.results.map((h) => h.node_id),
  bad_call_is_error: bad.isError === true,
}));
