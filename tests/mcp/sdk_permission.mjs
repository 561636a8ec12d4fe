// The official MCP TypeScript SDK client as the person's channel: a client that declared the
// elicitation capability is asked for permission through elicitation/create, and its answers
// (accept once, decline, reject with feedback) decide the call. The SDK checks the form toold
// sends against MCP's schema, and the answers against the form.
//   node sdk_permission.mjs TOOLD WORKSPACE DATA_DIR
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const [toold, workspace, dataDir] = process.argv.slice(2);
let passed = 0;
const fail = (why) => {
  console.error(`mcp-sdk permission: ${why}`);
  process.exit(1);
};
const check = (condition, what) => {
  if (!condition) fail(what);
  passed++;
};

writeFileSync(join(workspace, "toold.json"), JSON.stringify({ permission: { bash: "ask" } }));
const transport = new StdioClientTransport({
  command: toold,
  args: ["--directory", workspace, "--data-dir", dataDir, "--test-methods", "--log-level", "warn"],
  stderr: "inherit",
});
const client = new Client({ name: "toold-sdk-permission", version: "1.0.0" }, { capabilities: { elicitation: {} } });
const asked = [];
const answers = [];
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  asked.push(request.params);
  return answers.shift();
});
await client.connect(transport).catch((e) => fail(`initialize failed: ${e.message}`));

const push = { name: "test_permission", arguments: { action: "bash", resources: ["git push"] } };

answers.push({ action: "accept", content: { decision: "once" } });
const granted = await client.callTool(push).catch((e) => fail(`the allowed call failed: ${e.message}`));
check(granted.isError === false && granted.content?.[0]?.text === "granted", `once gave ${JSON.stringify(granted)}`);
check(asked.length === 1 && asked[0].message.startsWith('Allow bash on git push?'), `the form said ${asked[0]?.message}`);
check(JSON.stringify(asked[0].requestedSchema.properties.decision.enum) === '["once","always","reject"]',
  `the choices were ${JSON.stringify(asked[0].requestedSchema)}`);

answers.push({ action: "decline" });
const declined = await client.callTool(push).then((r) => ({ result: r }), (e) => ({ error: e }));
check(declined.result?.isError === true &&
  declined.result?.content?.[0]?.text === "The user rejected permission to use this specific tool call.",
  `a decline gave ${JSON.stringify(declined.result ?? declined.error?.message)}`);

answers.push({ action: "accept", content: { decision: "reject", message: "push later" } });
const corrected = await client.callTool(push).catch((e) => fail(`the corrected call failed: ${e.message}`));
check(corrected.isError === true && corrected.content?.[0]?.text.endsWith("following feedback: push later"),
  `a reject with a message gave ${JSON.stringify(corrected)}`);
check(asked.length === 3, `${asked.length} forms were shown, not 3`);

await client.close();
console.log(`mcp-sdk permission: ${passed} checks on elicitation/create`);
console.log("1 passed, 0 failed");
