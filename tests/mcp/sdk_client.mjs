// Connects the official MCP TypeScript SDK client to toold over stdio: the initialize handshake
// in the SDK's own framing and version negotiation, ping, and a clean close (the SDK ends
// toold's stdin and escalates to signals only if toold lingers).
//   node sdk_client.mjs TOOLD [WORKSPACE]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [toold, workspace = process.cwd()] = process.argv.slice(2);
const fail = (why) => {
  console.error(`mcp-sdk: ${why}`);
  process.exit(1);
};

const transport = new StdioClientTransport({
  command: toold,
  args: ["--directory", workspace, "--log-level", "warn"],
  stderr: "inherit",
});
const client = new Client({ name: "toold-sdk-check", version: "1.0.0" });
await client.connect(transport).catch((e) => fail(`initialize failed: ${e.message}`));

const info = client.getServerVersion();
if (info?.name !== "toold") fail(`serverInfo.name is ${JSON.stringify(info?.name)}, not "toold"`);
const started = performance.now();
await client.ping().catch((e) => fail(`ping failed: ${e.message}`));
const pingMs = performance.now() - started;

// close() ends toold's stdin and resolves once the child is gone (or after the SDK's own
// SIGTERM/SIGKILL escalation, which a prompt exit never reaches).
const pid = transport.pid;
const closing = performance.now();
await client.close();
const closeMs = performance.now() - closing;
let running = true;
try {
  process.kill(pid, 0);
} catch {
  running = false;
}
if (running) fail("toold was still running after the SDK closed the transport");
if (closeMs > 1500) fail(`closing took ${closeMs.toFixed(0)} ms; toold should exit at end of input`);
console.log(`mcp-sdk: initialized ${info.name} ${info.version}, ping ${pingMs.toFixed(2)} ms, closed in ${closeMs.toFixed(1)} ms`);
console.log("1 passed, 0 failed");
