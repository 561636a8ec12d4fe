// The official MCP TypeScript SDK client uses toold as a tool server: tools/list (the SDK checks
// the shapes, and structured results against each tool's outputSchema), tools/call with
// structured output, progress (with totals, and a command's newest output lines as messages), a
// tool failure, invalid arguments, an unknown tool, and a cancelled call (answered with nothing, so
// the SDK reports no stray response).
//   node sdk_tools.mjs TOOLD WORKSPACE DATA_DIR
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const [toold, workspace, dataDir] = process.argv.slice(2);
let passed = 0;
const fail = (why) => {
  console.error(`mcp-sdk tools: ${why}`);
  process.exit(1);
};
const check = (condition, what) => {
  if (!condition) fail(what);
  passed++;
};

const transport = new StdioClientTransport({
  command: toold,
  args: ["--directory", workspace, "--data-dir", dataDir, "--test-methods", "--log-level", "warn"],
  stderr: "inherit",
});
const client = new Client({ name: "toold-sdk-tools", version: "1.0.0" });
await client.connect(transport).catch((e) => fail(`initialize failed: ${e.message}`));
check(client.getServerCapabilities()?.tools?.listChanged === true, "capabilities.tools.listChanged is not true");

const { tools } = await client.listTools().catch((e) => fail(`tools/list failed: ${e.message}`));
const names = tools.map((t) => t.name);
check(["test_echo", "test_progress", "test_sleep"].every((n) => names.includes(n)), `tools/list gave ${names}`);
check(JSON.stringify(names) === JSON.stringify([...names].sort()), "tools are not sorted by name");
const read = tools.find((t) => t.name === "read");
check(read?.title === "Read file" && read?.annotations?.readOnlyHint === true, `read is listed as ${JSON.stringify(read?.annotations)}`);
const bash = tools.find((t) => t.name === "bash");
check(bash?.annotations?.destructiveHint === true && bash?.annotations?.openWorldHint === true,
  `bash is listed as ${JSON.stringify(bash?.annotations)}`);
const caps = client.getServerCapabilities();
check(caps?.logging && caps?.resources?.listChanged === true && caps?.prompts === undefined,
  `the capabilities are ${JSON.stringify(caps)}`);
const logLines = [];
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logLines.push(n.params));
await client.setLoggingLevel("info").catch((e) => fail(`logging/setLevel failed: ${e.message}`));

const echoed = await client.callTool({ name: "test_echo", arguments: { text: "hello", n: 3 } })
  .catch((e) => fail(`tools/call test_echo failed: ${e.message}`));
check(echoed.isError === false, `test_echo isError ${echoed.isError}`);
check(echoed.structuredContent?.text === "hello" && echoed.structuredContent?.n === 3,
  `structuredContent is ${JSON.stringify(echoed.structuredContent)}`);
check(echoed.content?.[0]?.type === "text" && JSON.parse(echoed.content[0].text).text === "hello",
  `content is ${JSON.stringify(echoed.content)}`);

const progress = [];
// The SDK handles notifications a tick after responses, so the updates are spaced out.
const done = await client.callTool({ name: "test_progress", arguments: { steps: 3, intervalMs: 20 } }, undefined,
  { onprogress: (p) => progress.push(p) }).catch((e) => fail(`tools/call test_progress failed: ${e.message}`));
check(done.content?.[0]?.text === "done", `test_progress answered ${JSON.stringify(done)}`);
check(JSON.stringify(progress.map((p) => p.progress)) === "[1,2,3]", `progress was ${JSON.stringify(progress)}`);
check(progress[0]?.message === "step 1", `the first progress message is ${progress[0]?.message}`);
check(progress.every((p) => p.total === 3), `the totals were ${JSON.stringify(progress)}`);

const shellProgress = [];
const shell = await client.callTool({ name: "bash", arguments: {
  command: "echo compiling; sleep 0.3; echo linking; sleep 0.3", description: "builds" } }, undefined,
  { onprogress: (p) => shellProgress.push(p) }).catch((e) => fail(`tools/call bash failed: ${e.message}`));
check(shell.isError === false, `bash answered ${JSON.stringify(shell)}`);
check(shellProgress.some((p) => p.message === "compiling") && shellProgress.at(-1)?.message === "compiling\nlinking",
  `bash progress was ${JSON.stringify(shellProgress)}`);

const failed = await client.callTool({ name: "test_progress", arguments: { steps: 0, fail: "it broke" } });
check(failed.isError === true && failed.content?.[0]?.text === "it broke", `a failure gave ${JSON.stringify(failed)}`);

const invalid = await client.callTool({ name: "test_sleep", arguments: { ms: "soon" } });
check(invalid.isError === true && invalid.content?.[0]?.text.startsWith('Invalid arguments for tool "test_sleep":'),
  `invalid arguments gave ${JSON.stringify(invalid)}`);

const unknown = await client.callTool({ name: "no_such_tool", arguments: {} }).then(
  (r) => ({ result: r }), (e) => ({ error: e }));
check(unknown.error?.code === -32602, `an unknown tool gave ${JSON.stringify(unknown.result ?? unknown.error?.message)}`);

// A background job followed with bash_output's wait: the call answers when the job prints.
const started = await client.callTool({ name: "bash", arguments: {
  command: "sleep 0.5; echo ready", background: true, description: "prints later" } });
const shellId = started.content?.[0]?.text.match(/shell ID: (shell-\d+)/)?.[1];
check(shellId !== undefined && started.content[0].text.includes('"wait": 30'), `bash said ${JSON.stringify(started)}`);
const before = Date.now();
const followed = await client.callTool({ name: "bash_output", arguments: { shellId, wait: 30 } });
check(followed.content?.[0]?.text.startsWith("ready\n") && Date.now() - before < 10000,
  `bash_output with wait gave ${JSON.stringify(followed)} after ${Date.now() - before} ms`);
await new Promise((resolve) => setTimeout(resolve, 300));
check(logLines.some((l) => l.level === "info" && l.logger === "toold" && /background job shell-\d+ of session mcp: exited/.test(l.data)),
  `the log notifications were ${JSON.stringify(logLines)}`);
// The job's log is a retained output: listed and readable as a resource.
const { resources } = await client.listResources().catch((e) => fail(`resources/list failed: ${e.message}`));
const texts = await Promise.all(resources.map((r) => client.readResource({ uri: r.uri })));
check(texts.some((t) => t.contents?.[0]?.text === "ready\n"), `the resources were ${JSON.stringify(resources)}`);
const { resourceTemplates } = await client.listResourceTemplates();
check(resourceTemplates?.[0]?.uriTemplate === "toold://tool-output/{id}", `the templates were ${JSON.stringify(resourceTemplates)}`);

const errors = [];
client.onerror = (e) => errors.push(e.message);
const controller = new AbortController();
const sleeping = client.callTool({ name: "test_sleep", arguments: { ms: 30000 } }, undefined,
  { signal: controller.signal }).then((r) => ({ result: r }), (e) => ({ error: e }));
await new Promise((resolve) => setTimeout(resolve, 200));
controller.abort("the user pressed stop");
const aborted = await sleeping;
check(aborted.error !== undefined, `the aborted call gave ${JSON.stringify(aborted.result)}`);
await client.ping().catch((e) => fail(`ping after the cancel failed: ${e.message}`));
await new Promise((resolve) => setTimeout(resolve, 300));
check(errors.length === 0, `the SDK reported ${JSON.stringify(errors)} after the cancel`);

await client.close();
console.log(`mcp-sdk tools: ${passed} checks on tools/list and tools/call`);
console.log("1 passed, 0 failed");
