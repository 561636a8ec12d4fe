// A stdio-to-HTTP bridge for the MCP conformance suite, which speaks Streamable HTTP: each HTTP
// session gets its own toold (one connection is one session), and messages pass through
// unchanged in both directions, by the official SDK's transports. Bound to 127.0.0.1 only.
//   node stdio_http_bridge.mjs PORT TOOLD [TOOLD ARGS...]
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [port, toold, ...args] = process.argv.slice(2);
const sessions = new Map();

async function newSession() {
  const child = new StdioClientTransport({ command: toold, args, stderr: "ignore" });
  const http = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => sessions.set(id, http),
    // A local server must refuse requests naming another host (DNS rebinding).
    enableDnsRebindingProtection: true,
    allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`],
  });
  // toold's answers and its own requests go back on the stream of the request they relate to.
  child.onmessage = (message) => {
    const related = "id" in message && !("method" in message) ? message.id : undefined;
    http.send(message, related !== undefined ? { relatedRequestId: related } : undefined).catch(() => {});
  };
  http.onmessage = (message) => child.send(message).catch(() => {});
  http.onclose = () => {
    if (http.sessionId) sessions.delete(http.sessionId);
    child.close();
  };
  await child.start();
  return http;
}

createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
  let transport = sessions.get(req.headers["mcp-session-id"]);
  if (!transport) transport = await newSession();
  await transport.handleRequest(req, res, body);
}).listen(Number(port), "127.0.0.1", () => console.error(`bridge: http://127.0.0.1:${port}/mcp -> ${toold}`));
