// The engine in this process (the worker process adds only its address-space limit and the pipe).
#include "builtins/codemode/js_engine.h"
#include "builtins/codemode/type_blanker.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>
#include <thread>

using namespace toold::codemode;
using json = nlohmann::json;

namespace {

// One engine for the whole test binary: JS_Init is once per process.
JsEngine& engine() {
  // Registered before the engine exists, so that it runs after the engine's destructor.
  static const bool started = JsEngine::initializeProcess() && std::atexit(JsEngine::shutdownProcess) == 0;
  static JsEngine instance{EngineOptions{64u << 20}};
  REQUIRE(started);
  return instance;
}

// Answers each call at once with {tool, input}; "fail.*" fails; "slow.*" is answered from another thread.
class FakeHost final : public ProgramHost {
public:
  explicit FakeHost(CompletionQueue& queue) : queue_(queue) {}
  void startCall(std::uint64_t id, const std::string& path, const std::string& input) override {
    ++started;
    const json value{{"tool", path}, {"input", json::parse(input)}};
    if (path.rfind("fail", 0) == 0) {
      ++finished;
      return queue_.post({id, false, json{{"kind", "ToolFailure"}, {"message", "it broke"}}.dump()});
    }
    if (path.rfind("slow", 0) == 0) {
      threads.emplace_back([this, id, value] {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        queue_.post({id, true, value.dump()});
      });
      ++finished;  // counted when answered below would race; concurrency is checked by the engine's cap
      return;
    }
    ++finished;
    // "text.*": the answer is the text itself, as toold sends a tool's UTF-8 text (raw, no JSON).
    if (path == "text.ascii") return queue_.post({id, true, "1: a \"quoted\" \\ line\n2: {\"x\": 1}\n", true});
    if (path == "text.utf8") return queue_.post({id, true, "\xC3\xA9 \xE2\x9C\x93 \xF0\x9F\x98\x80", true});
    queue_.post({id, true, value.dump()});
  }
  std::string search(const std::string& input) override { return json{{"result", {{"asked", json::parse(input)}}}}.dump(); }
  ~FakeHost() override {
    for (auto& t : threads) t.join();
  }
  std::size_t started = 0, finished = 0;
  std::vector<std::thread> threads;

private:
  CompletionQueue& queue_;
};

const std::vector<ToolPath> kTools = {{"a", "echo"}, {"a", "other"}, {"fail", "x"}, {"slow", "y"}, {"2d"}};

ProgramResult runProgram(const std::string& code, ProgramLimits limits = {}, const std::vector<ToolPath>& tools = kTools) {
  CompletionQueue queue;
  FakeHost host(queue);
  return engine().run(code, tools, limits, host, queue);
}

} // namespace

TEST_CASE("engine: a program's value, tools in parallel, modern syntax", "[codemode]") {
  auto result = runProgram(R"(
    const [x, y] = await Promise.all([tools.a.echo({n: 1}), tools.a.other({n: 2})]);
    const z = await tools["2d"]();
    return {x: x.input.n, y: y?.input?.n, z: z.tool, s: `${x.tool}!`, spread: [...[1, 2]]};
  )");
  REQUIRE(result.ok);
  CHECK(result.value == json{{"x", 1}, {"y", 2}, {"z", "2d"}, {"s", "a.echo!"}, {"spread", {1, 2}}});
}

TEST_CASE("engine: TypeScript annotations are erased, enum is refused", "[codemode]") {
  auto result = runProgram("const r: {tool: string} = await tools.a.echo({}) as any;\nconst n: number = 2;\nreturn r!.tool + n;");
  REQUIRE(result.ok);
  CHECK(result.value == "a.echo2");
  result = runProgram("enum Color { Red }\nreturn 1;");
  REQUIRE_FALSE(result.ok);
  CHECK(result.error->kind == "UnsupportedSyntax");
}

TEST_CASE("engine: without a return, the last top-level expression is the value", "[codemode]") {
  auto value = [](const std::string& code) {
    auto result = runProgram(code);
    INFO(code);
    REQUIRE(result.ok);
    return result.value;
  };
  CHECK(value("const a = await tools.a.echo({n: 1});\na.input.n") == 1);
  CHECK(value("const x = 1; x + 1") == 2);
  CHECK(value("await tools.a.echo({n: 3})") == json{{"tool", "a.echo"}, {"input", {{"n", 3}}}});
  CHECK(value("[1, 2, 3]\n  .map((x) => x * 2)\n  .filter((x) => x > 2);") == json{4, 6});
  CHECK(value("const n: number = 2;\nn * 3") == 6);
  // Columns count the source's characters as the engine does, astral ones included.
  CHECK(value("const s = '\xF0\x9F\x98\x80\xC3\xA9'; s.length") == 3);
  CHECK(value("/* a comment */ ({ok: true})") == json{{"ok", true}});
  CHECK(value("const x = 2;\n(\n  (x * 3)\n)") == 6);
  CHECK(value("const s = `(${1})`; s") == "(1)");
  // Not an expression, or an explicit return: unchanged.
  CHECK(value("if (true) { 5 }") == nullptr);
  CHECK(value("const unused = 1;") == nullptr);
  CHECK(value("if (false) return 1;\nreturn 7;") == 7);
  CHECK(value("console.log('x')") == nullptr);
  // A `return` that is not the last statement, or not the program's: the last expression still is.
  CHECK(value("if (false) return 0\n5") == 5);
  CHECK(value("if (false) return 0\r6") == 6);
  CHECK(value("const o = {return: 4};\no.return") == 4);
  CHECK(value("const f = () => { return 8 };\nf()") == 8);
  // A syntax error keeps its place in the program.
  auto broken = runProgram("const a = 1;\na +");
  REQUIRE_FALSE(broken.ok);
  CHECK(broken.error->kind == "ParseError");
}

TEST_CASE("engine: syntax errors are ParseErrors with the line of the program", "[codemode]") {
  auto result = runProgram("const a = 1;\nconst b = ;\nreturn a;");
  REQUIRE_FALSE(result.ok);
  CHECK(result.error->kind == "ParseError");
  CHECK(result.error->location == json{{"line", 2}, {"column", 11}});
}

TEST_CASE("engine: tool failures are catchable, and uncaught become ToolFailure", "[codemode]") {
  auto result = runProgram("try { await tools.fail.x({}); } catch (e) { return 'caught: ' + e.message; }");
  REQUIRE(result.ok);
  CHECK(result.value == "caught: it broke");
  result = runProgram("await tools.fail.x({}); return 1;");
  REQUIRE_FALSE(result.ok);
  CHECK(result.error->kind == "ToolFailure");
  CHECK(result.error->message == "it broke");
}

TEST_CASE("engine: unknown tools and extra arguments", "[codemode]") {
  auto result = runProgram("return await tools.a.nope({});");
  REQUIRE_FALSE(result.ok);
  CHECK(result.error->kind == "UnknownTool");
  CHECK(result.error->message == "Unknown tool 'tools.a.nope'.");
  CHECK_FALSE(result.error->suggestions.empty());
  result = runProgram("return await tools.a({});");
  CHECK(result.error->message == "Tool 'tools.a' is not callable.");
  result = runProgram("return await tools.a.echo({}, 2);");
  CHECK(result.error->kind == "InvalidToolInput");
  CHECK(result.error->message == "Tool 'tools.a.echo' expects at most one input object.");
  result = runProgram("return [Object.keys(tools), Object.keys(tools.a)];");
  CHECK(result.value == json::parse(R"([["a","fail","slow","2d"],["echo","other"]])"));
}

TEST_CASE("engine: the tools tree is read-only, lists its children, and has room for any name", "[codemode]") {
  const std::vector<ToolPath> tools = {{"fn", "name"}, {"fn", "length"}, {"fn", "call"}, {"fn", "__proto__"},
                                       {"fn", "constructor"}, {"b", "c", "d"}, {"b", "e"}};
  auto result = runProgram(R"(
    const called = [];
    for (const key of Object.keys(tools.fn)) called.push((await tools.fn[key]({})).tool);
    return {
      top: Object.keys(tools), fn: Object.keys(tools.fn), b: Object.keys(tools.b), called,
      has: ["fn" in tools, "c" in tools.b, "zz" in tools.b, "call" in tools.b],
      same: tools.b.c === tools.b.c,
      writes: [Reflect.set(tools, "x", 1), Reflect.deleteProperty(tools, "fn"), Reflect.defineProperty(tools.b, "q", {value: 1}),
               Reflect.setPrototypeOf(tools, null), Reflect.preventExtensions(tools)],
      nested: (await tools.b.c.d({n: 1})).tool,
    };
  )", {}, tools);
  REQUIRE(result.ok);
  CHECK(result.value == json::parse(R"({
    "top": ["fn", "b"], "fn": ["name", "length", "call", "__proto__", "constructor"], "b": ["c", "e"],
    "called": ["fn.name", "fn.length", "fn.call", "fn.__proto__", "fn.constructor"],
    "has": [true, true, false, true], "same": true, "writes": [false, false, false, false, false], "nested": "b.c.d"})"));
  // An unknown name anywhere in the tree, however deep, is UnknownTool with its whole path.
  result = runProgram("return tools.b.c.zz;", {}, tools);
  REQUIRE_FALSE(result.ok);
  CHECK(result.error->message == "Unknown tool 'tools.b.c.zz'.");
  result = runProgram("Object.freeze(tools); return 1;", {}, tools);
  REQUIRE_FALSE(result.ok);
}

TEST_CASE("engine: values cross as JSON data", "[codemode]") {
  auto result = runProgram(R"(
    const r = await tools.a.echo({d: new Date(0), m: new Map([[1, 2]]), u: undefined, f() {}, inf: Infinity});
    return r.input;
  )");
  REQUIRE(result.ok);
  CHECK(result.value == json::parse(R"({"d": "1970-01-01T00:00:00.000Z", "m": {}, "inf": null})"));
  result = runProgram("const a = {}; a.self = a; return a;");
  REQUIRE_FALSE(result.ok);
  CHECK(result.error->kind == "InvalidDataValue");
  result = runProgram("return undefined;");
  CHECK(result.ok);
  CHECK(result.value.is_null());
}

TEST_CASE("engine: a raw text answer is the string itself, ASCII or not", "[codemode]") {
  const std::vector<ToolPath> tools = {{"text", "ascii"}, {"text", "utf8"}};
  auto result = runProgram(R"(
    const a = await tools.text.ascii(), u = await tools.text.utf8();
    return {a, u, aLength: a.length, uLength: u.length, codes: [...u].map(c => c.codePointAt(0))};
  )", {}, tools);
  REQUIRE(result.ok);
  CHECK(result.value == json{{"a", "1: a \"quoted\" \\ line\n2: {\"x\": 1}\n"},
                             {"u", "\xC3\xA9 \xE2\x9C\x93 \xF0\x9F\x98\x80"},
                             {"aLength", 33},
                             {"uLength", 6},
                             {"codes", {0xE9, 0x20, 0x2713, 0x20, 0x1F600}}});
}

TEST_CASE("engine: eval, Function and constructor escapes are refused", "[codemode]") {
  for (const char* code : {"return eval('1+1');", "return (0, eval)('2');", "return new Function('return 1')();",
                           "return (() => {}).constructor('return 1')();",
                           "return (async () => {}).constructor('return 4')();",
                           "return tools.a.echo.constructor.constructor('return 5')();"}) {
    INFO(code);
    auto result = runProgram(code);
    REQUIRE_FALSE(result.ok);
    CHECK(result.error->kind == "ExecutionFailure");
    CHECK(result.error->message.find("EvalError") != std::string::npos);
  }
  auto result = runProgram("return [typeof WebAssembly, typeof setTimeout, typeof fetch, typeof require, typeof print];");
  CHECK(result.value == json::parse(R"(["undefined","undefined","undefined","undefined","undefined"])"));
}

TEST_CASE("engine: each program has a fresh global", "[codemode]") {
  REQUIRE(runProgram("Object.prototype.polluted = 1; globalThis.leak = 2; return 0;").ok);
  auto result = runProgram("return [({}).polluted ?? null, typeof leak];");
  CHECK(result.value == json::parse(R"([null, "undefined"])"));
}

TEST_CASE("engine: limits — time, calls, recursion, in-flight", "[codemode]") {
  ProgramLimits limits;
  limits.timeout = std::chrono::milliseconds(200);
  auto result = runProgram("for (;;) {}", limits);
  REQUIRE_FALSE(result.ok);
  CHECK(result.error->kind == "TimeoutExceeded");
  CHECK(result.interrupted);
  result = runProgram("await new Promise(() => {}); return 1;");
  CHECK(result.error->kind == "ExecutionFailure");
  CHECK(result.error->message == "The program is waiting for a promise that nothing will settle.");
  limits = {};
  limits.maxToolCalls = 5;
  result = runProgram("for (let i = 0; i < 10; i++) await tools.a.echo({i}); return 1;", limits);
  CHECK(result.error->kind == "ToolCallLimitExceeded");
  result = runProgram("function f(n) { return f(n + 1) + 1; } return f(0);");
  CHECK(result.error->kind == "ExecutionFailure");
  CHECK(result.error->message.find("too much recursion") != std::string::npos);
  result = runProgram("const all = []; for (let i = 0; i < 30; i++) all.push(tools.slow.y({i})); return (await Promise.all(all)).length;");
  CHECK(result.value == 30);
}

TEST_CASE("engine: console is captured, unhandled rejections and abandoned calls are warnings", "[codemode]") {
  auto result = runProgram(R"(console.log("hello", {a: 1}); console.warn("careful"); tools.fail.x({}); tools.slow.y({}); return "ok";)");
  REQUIRE(result.ok);
  CHECK(result.logs == std::vector<std::string>{"hello {\"a\":1}", "warn: careful"});
  bool abandoned = false;
  for (const auto& w : result.warnings) abandoned = abandoned || w.message.find("still running") != std::string::npos;
  CHECK(abandoned);
}

TEST_CASE("engine: search is synchronous and counts as a call", "[codemode]") {
  auto result = runProgram(R"(return search({query: "x"}).asked.query;)");
  REQUIRE(result.ok);
  CHECK(result.value == "x");
}

TEST_CASE("engine: the TypeScript lines models write compile once blanked", "[codemode]") {
  // Each behind an early return: compiling is what is checked, the names need not exist.
  const std::vector<std::string> typed = {
      R"(const files: string[] = await tools.glob({ pattern: "**/*.ts" });)",
      R"(let count: number = 0;)",
      R"(async function read(path: string): Promise<string> { return await tools.read({ path }); })",
      R"(const res = (await tools.grep({ pattern: "TODO" })) as { matches: string[] };)",
      R"(const first = items[0]!.name;)",
      R"(interface Hit { file: string; line: number })",
      R"(type Row = { a: string; b?: number };)",
      R"(const m = new Map<string, number>();)",
      R"(const xs = files.map((f: string): number => f.length);)",
      R"(const { data }: { data: string[] } = await tools.fetch({ url: "x" });)",
      R"(for (const f of files as string[]) { count++; })",
      R"(const cfg = { mode: "fast" } as const;)",
      R"(function pick<T>(arr: T[]): T { return arr[0]; })",
      R"(const out = results.filter((r): r is string => typeof r === "string");)",
      R"(const n = (x?: number) => x ?? 0;)",
      R"(import type { Foo } from "./foo";)",
      R"(const v = obj satisfies Record<string, unknown>;)",
      R"(let maybe: string | null = null;)",
      R"(const arr: Array<{ path: string }> = [];)",
      R"(const pairs: [string, number][] = Object.entries(counts) as [string, number][];)",
      R"(const byId: Record<string, { id: string; n?: number }> = {};)",
  };
  for (const auto& line : typed) {
    INFO(line);
    const auto result = runProgram("return 'compiled';\n" + line);
    CHECK(result.ok);
  }
}

TEST_CASE("engine: a global prepared ahead is fresh, and used by one program only", "[codemode]") {
  engine().prepare();
  auto result = runProgram("Object.prototype.polluted = 1; Array.prototype.map = null; globalThis.left = 2; return 'done';");
  REQUIRE(result.ok);
  engine().prepare();
  engine().prepare(); // a second prepare keeps the one made
  result = runProgram("return [({}).polluted ?? 'clean', typeof [].map, typeof globalThis.left, [1, 2].map((x) => x * 2)];");
  REQUIRE(result.ok);
  CHECK(result.value == json{"clean", "function", "undefined", {2, 4}});
  // Without a prepared global, one is made for the program.
  result = runProgram("return typeof globalThis.left;");
  REQUIRE(result.ok);
  CHECK(result.value == "undefined");
}
