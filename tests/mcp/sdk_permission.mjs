// The official MCP TypeScript SDK client as the person's channel: a client that declared the
// elicitation capability is asked for permission through elicitation/create, and its answers
// (accept once, a person's decline, reject with feedback) decide the call. The SDK checks the form
// toold sends against MCP's schema (titled oneOf choices), and the answers against the form. Last,
// the client plays a headless host: a cancel at once is no one's answer, and the unattended policy
// decides that ask and every later one, without a form.
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
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  asked.push(request.params);
  const { answer, after } = answers.shift();
  if (after) await sleep(after); // a person reads the form before answering
  return answer;
});
await client.connect(transport).catch((e) => fail(`initialize failed: ${e.message}`));

const push = {
  name: "test_permission",
  arguments: { action: "bash", resources: ["git push"], save: ["git push *"], metadata: { command: "git push" } },
};

answers.push({ answer: { action: "accept", content: { decision: "once" } } });
const granted = await client.callTool(push).catch((e) => fail(`the allowed call failed: ${e.message}`));
check(granted.isError === false && granted.content?.[0]?.text === "granted", `once gave ${JSON.stringify(granted)}`);
check(asked.length === 1 && asked[0].message.startsWith("Allow test_permission to run `git push`?"),
  `the form said ${asked[0]?.message}`);
check(asked[0].message.includes('"Allow always" allows the shell command `git push` with any arguments'),
  `the form did not say what always grants: ${asked[0]?.message}`);
check(JSON.stringify(asked[0].requestedSchema.properties.decision.oneOf.map((c) => c.const)) === '["once","always","reject"]',
  `the choices were ${JSON.stringify(asked[0].requestedSchema)}`);

answers.push({ answer: { action: "decline" }, after: 500 });
const declined = await client.callTool(push).then((r) => ({ result: r }), (e) => ({ error: e }));
check(declined.result?.isError === true &&
  declined.result?.content?.[0]?.text === "The user rejected permission to use this specific tool call.",
  `a decline gave ${JSON.stringify(declined.result ?? declined.error?.message)}`);

answers.push({ answer: { action: "accept", content: { decision: "reject", message: "push later" } } });
const corrected = await client.callTool(push).catch((e) => fail(`the corrected call failed: ${e.message}`));
check(corrected.isError === true && corrected.content?.[0]?.text.endsWith("following feedback: push later"),
  `a reject with a message gave ${JSON.stringify(corrected)}`);
check(asked.length === 3, `${asked.length} forms were shown, not 3`);

// A headless host: the form is cancelled at once. No one answered, so the unattended policy
// (deny) decides, and says so; the next ask gets no form at all.
answers.push({ answer: { action: "cancel" } });
const headless = await client.callTool(push).catch((e) => fail(`the headless call failed: ${e.message}`));
check(headless.isError === true && headless.content?.[0]?.text.includes("no one could answer the permission request") &&
  !headless.content?.[0]?.text.includes("rejected"), `a headless cancel gave ${JSON.stringify(headless)}`);
const unasked = await client.callTool(push).catch((e) => fail(`the call after it failed: ${e.message}`));
check(unasked.isError === true && unasked.content?.[0]?.text.includes("without showing them to anyone"),
  `the call after a headless cancel gave ${JSON.stringify(unasked)}`);
check(asked.length === 4, `${asked.length} forms were shown, not 4`);

await client.close();
console.log(`mcp-sdk permission: ${passed} checks on elicitation/create`);
console.log("1 passed, 0 failed");
