// What the lsp tool shows of each operation's answer: the layouts, the workspace boundary, malformed
// pieces, unexpected shapes and the cap on items.
#include "builtins/lsp/lsp_render.h"

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <utility>

using toold::builtins::LspRenderContext;
using toold::builtins::LspRendered;
using toold::builtins::renderLspResult;
using json = nlohmann::json;

namespace {

/// A workspace at /ws whose files' lines the test lists, remembering which files were read.
struct FakeWorkspace {
  std::map<std::pair<std::string, int>, std::string> lines;
  std::set<std::string> read;
  std::size_t maxItems = 200;

  LspRenderContext context() {
    LspRenderContext context;
    context.workspace = "/ws";
    context.inside = [](const std::filesystem::path& path) { return path.string().rfind("/ws/", 0) == 0; };
    context.lineText = [this](const std::filesystem::path& path, int line0) -> std::optional<std::string> {
      read.insert(path.string());
      auto found = lines.find({path.string(), line0});
      if (found == lines.end()) return std::nullopt;
      return found->second;
    };
    context.maxItems = maxItems;
    return context;
  }

  LspRendered render(std::string_view operation, const std::string& result) {
    return renderLspResult(operation, json::parse(result), context());
  }
};

json meta(std::size_t count, std::size_t outside, bool truncated, std::size_t skipped = 0) {
  return {{"count", count}, {"outside", outside}, {"truncated", truncated}, {"skipped", skipped}};
}

} // namespace

TEST_CASE("lsp render: a definition is one line with the path, the 1-based position and the line", "[lsp]") {
  FakeWorkspace ws;
  ws.lines[{"/ws/src/a.py", 4}] = "    def hello():   ";
  auto out = ws.render("goToDefinition",
                       R"({"uri":"file:///ws/src/a.py","range":{"start":{"line":4,"character":8},"end":{"line":4,"character":13}}})");
  CHECK(out.text == "src/a.py:5:9: def hello():");
  CHECK(out.metadata == meta(1, 0, false));
}

TEST_CASE("lsp render: locations and location links are sorted by path then position", "[lsp]") {
  FakeWorkspace ws;
  ws.lines[{"/ws/b.py", 0}] = "def b():";
  ws.lines[{"/ws/a.py", 9}] = "x = 1";
  auto out = ws.render("goToImplementation", R"([
    {"uri":"file:///ws/b.py","range":{"start":{"line":0,"character":4},"end":{"line":0,"character":5}}},
    {"uri":"file:///ws/a.py","range":{"start":{"line":9,"character":0},"end":{"line":9,"character":1}}},
    {"targetUri":"file:///ws/a.py","targetRange":{"start":{"line":2,"character":0},"end":{"line":8,"character":0}},
     "targetSelectionRange":{"start":{"line":2,"character":6},"end":{"line":2,"character":9}}},
    {"targetUri":"file:///ws/c.py","targetRange":{"start":{"line":0,"character":0},"end":{"line":1,"character":0}}}])");
  // a.py:3 has no line to show: no snippet, no trailing colon.
  CHECK(out.text == "a.py:3:7\na.py:10:1: x = 1\nb.py:1:5: def b():\nc.py:1:1");
  CHECK(out.metadata == meta(4, 0, false));
}

TEST_CASE("lsp render: nothing found, for each operation", "[lsp]") {
  FakeWorkspace ws;
  CHECK(ws.render("goToDefinition", "null").text == "No definition found.");
  CHECK(ws.render("goToDefinition", "[]").text == "No definition found.");
  CHECK(ws.render("goToImplementation", "[]").text == "No implementation found.");
  CHECK(ws.render("findReferences", "null").text == "No references found.");
  CHECK(ws.render("hover", "null").text == "No hover information.");
  CHECK(ws.render("hover", R"({"contents":""})").text == "No hover information.");
  CHECK(ws.render("hover", R"({"contents":[]})").text == "No hover information.");
  CHECK(ws.render("documentSymbol", "[]").text == "No symbols found.");
  CHECK(ws.render("workspaceSymbol", "null").text == "No symbols found.");
  CHECK(ws.render("prepareCallHierarchy", "null").text == "No call hierarchy item found.");
  CHECK(ws.render("incomingCalls", "[]").text == "No incoming calls found.");
  CHECK(ws.render("outgoingCalls", "null").text == "No outgoing calls found.");
  CHECK(ws.render("outgoingCalls", "null").metadata == meta(0, 0, false));
}

TEST_CASE("lsp render: files outside the workspace are listed by absolute path and never read", "[lsp]") {
  FakeWorkspace ws;
  ws.lines[{"/ws/a.py", 0}] = "hello()";
  auto out = ws.render("goToDefinition", R"([
    {"uri":"file:///etc/hosts","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}},
    {"uri":"file:///ws/../etc/passwd","range":{"start":{"line":1,"character":0},"end":{"line":1,"character":1}}},
    {"uri":"file:///ws/a.py","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":5}}}])");
  CHECK(out.text == "a.py:1:1: hello()\n/etc/hosts:1:1 (outside the workspace)\n/etc/passwd:2:1 (outside the workspace)");
  CHECK(out.metadata == meta(3, 2, false));
  CHECK(ws.read == std::set<std::string>{"/ws/a.py"});
}

TEST_CASE("lsp render: a location that is not a file is shown as the server named it, unread", "[lsp]") {
  FakeWorkspace ws;
  auto out = ws.render("goToDefinition",
                       R"({"uri":"jdt://contents/String.class","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}})");
  CHECK(out.text == "jdt://contents/String.class:1:1");
  CHECK(ws.read.empty());
}

TEST_CASE("lsp render: references are grouped per file after a summary", "[lsp]") {
  FakeWorkspace ws;
  ws.lines[{"/ws/src/a.py", 2}] = "  return hello()";
  ws.lines[{"/ws/src/a.py", 4}] = "def hello():";
  ws.lines[{"/ws/b.py", 0}] = "from a import hello";
  auto out = ws.render("findReferences", R"([
    {"uri":"file:///ws/src/a.py","range":{"start":{"line":4,"character":4},"end":{"line":4,"character":9}}},
    {"uri":"file:///etc/hosts","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}},
    {"uri":"file:///ws/b.py","range":{"start":{"line":0,"character":14},"end":{"line":0,"character":19}}},
    {"uri":"file:///ws/src/a.py","range":{"start":{"line":2,"character":9},"end":{"line":2,"character":14}}}])");
  CHECK(out.text ==
        "4 references in 3 files\n"
        "b.py (1)\n"
        "  1:15: from a import hello\n"
        "src/a.py (2)\n"
        "  3:10: return hello()\n"
        "  5:5: def hello():\n"
        "/etc/hosts (1) (outside the workspace)\n"
        "  1:1");
  CHECK(out.metadata == meta(4, 1, false));
  CHECK(ws.render("findReferences", R"([{"uri":"file:///ws/b.py","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}}])")
            .text == "1 reference in 1 file\nb.py (1)\n  1:1: from a import hello");
}

TEST_CASE("lsp render: hover contents of each form", "[lsp]") {
  FakeWorkspace ws;
  CHECK(ws.render("hover", R"({"contents":{"kind":"markdown","value":"```\nhello\n```\nfake hover"}})").text ==
        "```\nhello\n```\nfake hover");
  CHECK(ws.render("hover", R"({"contents":"plain"})").text == "plain");
  CHECK(ws.render("hover", R"j({"contents":{"language":"python","value":"def hello()"}})j").text ==
        "```python\ndef hello()\n```");
  auto out = ws.render("hover", R"({"contents":[{"language":"cpp","value":"int x"},"", "The x.\n"],
                                   "range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}})");
  CHECK(out.text == "```cpp\nint x\n```\n\nThe x.");
  CHECK(out.metadata == meta(1, 0, false));
}

TEST_CASE("lsp render: a file's DocumentSymbols as an indented outline", "[lsp]") {
  FakeWorkspace ws;
  auto out = ws.render("documentSymbol", R"j([
    {"name":"hello","kind":12,"range":{"start":{"line":9,"character":0},"end":{"line":11,"character":0}},
     "selectionRange":{"start":{"line":9,"character":4},"end":{"line":9,"character":9}}},
    {"name":"Greeter","kind":5,"range":{"start":{"line":0,"character":0},"end":{"line":7,"character":0}},
     "selectionRange":{"start":{"line":0,"character":6},"end":{"line":0,"character":13}},
     "children":[
       {"name":"greet","kind":6,"detail":"(self)","range":{"start":{"line":4,"character":4},"end":{"line":7,"character":0}},
        "selectionRange":{"start":{"line":4,"character":8},"end":{"line":4,"character":13}},
        "children":[{"name":"x","kind":13,"range":{"start":{"line":5,"character":8},"end":{"line":5,"character":9}},
                     "selectionRange":{"start":{"line":5,"character":8},"end":{"line":5,"character":9}}}]},
       {"name":"__init__","kind":9,"range":{"start":{"line":1,"character":4},"end":{"line":3,"character":0}},
        "selectionRange":{"start":{"line":1,"character":8},"end":{"line":1,"character":16}}}]}])j");
  CHECK(out.text ==
        "Class Greeter  1-8\n"
        "  Constructor __init__  2-4\n"
        "  Method greet (self)  5-8\n"
        "    Variable x  6-6\n"
        "Function hello  10-12");
  CHECK(out.metadata == meta(5, 0, false));
}

TEST_CASE("lsp render: SymbolInformation as a flat list with containers", "[lsp]") {
  FakeWorkspace ws;
  auto out = ws.render("documentSymbol", R"([
    {"name":"greet","kind":6,"containerName":"Greeter",
     "location":{"uri":"file:///ws/a.py","range":{"start":{"line":4,"character":8},"end":{"line":4,"character":13}}}},
    {"name":"Greeter","kind":5,
     "location":{"uri":"file:///ws/a.py","range":{"start":{"line":0,"character":6},"end":{"line":0,"character":13}}}},
    {"name":"odd","kind":99,"containerName":"",
     "location":{"uri":"file:///ws/a.py","range":{"start":{"line":7,"character":0},"end":{"line":7,"character":3}}}}])");
  CHECK(out.text == "Class Greeter  1\nMethod greet  5 (in Greeter)\nSymbol odd  8");
}

TEST_CASE("lsp render: workspace symbols with their places", "[lsp]") {
  FakeWorkspace ws;
  auto out = ws.render("workspaceSymbol", R"([
    {"name":"greet","kind":6,"containerName":"Greeter",
     "location":{"uri":"file:///ws/src/a.py","range":{"start":{"line":4,"character":8},"end":{"line":4,"character":13}}}},
    {"name":"Greeting","kind":10,"location":{"uri":"file:///ws/src/b%20c.py"}},
    {"name":"greetAll","kind":12,
     "location":{"uri":"file:///usr/lib/x.py","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":3}}}}])");
  CHECK(out.text ==
        "Method greet  src/a.py:5 (in Greeter)\n"
        "Enum Greeting  src/b c.py\n"
        "Function greetAll  /usr/lib/x.py:1 (outside the workspace)");
  CHECK(out.metadata == meta(3, 1, false));
  CHECK(ws.read.empty());
}

TEST_CASE("lsp render: the call hierarchy", "[lsp]") {
  FakeWorkspace ws;
  const std::string item = R"("kind":12,"uri":"file:///ws/a.py",
    "range":{"start":{"line":4,"character":0},"end":{"line":6,"character":0}},
    "selectionRange":{"start":{"line":4,"character":4},"end":{"line":4,"character":9}})";
  CHECK(ws.render("prepareCallHierarchy", R"j([{"name":"hello","detail":"a.hello()",)j" + item + "}]").text ==
        "Function hello a.hello()  a.py:5");
  CHECK(ws.render("incomingCalls", R"([{"from":{"name":"main",)" + item + R"(},"fromRanges":[
          {"start":{"line":13,"character":1},"end":{"line":13,"character":6}},
          {"start":{"line":11,"character":4},"end":{"line":11,"character":9}}]}])")
            .text == "Function main  a.py:5 — calls at 12:5, 14:2");
  auto out = ws.render("outgoingCalls", R"([{"to":{"name":"print",)" + item + R"(},"fromRanges":[
          {"start":{"line":11,"character":4},"end":{"line":11,"character":9}}]},
        {"to":{"name":"later","kind":12,"uri":"file:///ws/z.py","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}},
         "fromRanges":[]}])");
  CHECK(out.text == "Function print  a.py:5 — called at 12:5\nFunction later  z.py:1");
  CHECK(out.metadata == meta(2, 0, false));
}

TEST_CASE("lsp render: malformed pieces are skipped and counted, never thrown", "[lsp]") {
  FakeWorkspace ws;
  auto out = ws.render("goToDefinition", R"([
    {"uri":"file:///ws/a.py","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}},
    {"uri":"file:///ws/a.py"},
    {"uri":5,"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}},
    {"uri":"file:///ws/a.py","range":{"start":{"line":"1","character":0},"end":{"line":0,"character":1}}},
    {"uri":"file:///ws/a.py","range":{"start":{"line":-1,"character":0},"end":{"line":0,"character":1}}},
    {"uri":"file:///ws/a.py","range":{"start":{"line":1.5,"character":0},"end":{"line":0,"character":1}}},
    {"uri":"file:///ws/a.py","range":{"start":{"line":18446744073709551615,"character":0},"end":{"line":0,"character":1}}},
    {"uri":"file:///ws/a.py","range":{"start":{"line":0,"character":2147483648},"end":{"line":0,"character":1}}},
    {"targetUri":"file:///ws/a.py"},
    null, 7, "x", []])");
  CHECK(out.text == "a.py:1:1\n(12 malformed items in the server's answer skipped)");
  CHECK(out.metadata == meta(1, 0, false, 12));

  CHECK(ws.render("findReferences", R"([{"uri":null}])").text ==
        "No references found.\n(1 malformed item in the server's answer skipped)");
  CHECK(ws.render("hover", R"({"contents":[{"value":"no kind nor language"},{"kind":"plaintext","value":"kept"},3]})").text ==
        "kept\n(2 malformed items in the server's answer skipped)");
  auto outline = ws.render("documentSymbol", R"([
    {"name":"A","kind":5,"range":{"start":{"line":0,"character":0},"end":{"line":2,"character":0}},"children":[{"name":"b"}, 3]},
    {"name":"B","kind":"Class","range":{"start":{"line":3,"character":0},"end":{"line":4,"character":0}}},
    {"name":"C","kind":5,"range":{"start":{"line":5,"character":0},"end":{"line":6,"character":0}},"children":"none"},
    {"name":"D","kind":5,"location":{"uri":"file:///ws/a.py"}}])");
  CHECK(outline.text == "Class A  1-3\nClass C  6-7\n(5 malformed items in the server's answer skipped)");
  CHECK(outline.metadata == meta(2, 0, false, 5));
  CHECK(ws.render("workspaceSymbol", R"([{"name":"x","kind":1,"location":{"uri":"file:///ws/a.py","range":{}}},
                                         {"name":"y","kind":1},{"name":"z","kind":1,"location":"file:///ws/a.py"}])")
            .metadata == meta(0, 0, false, 3));
  CHECK(ws.render("incomingCalls", R"([{"from":{"name":"f","kind":12,"uri":"file:///ws/a.py",
          "range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}},"fromRanges":[{"start":{}},
          {"start":{"line":2,"character":0},"end":{"line":2,"character":1}}]},
          {"from":{"name":"g"}},{"to":{}}])")
            .text == "Function f  a.py:1 — calls at 3:1\n(3 malformed items in the server's answer skipped)");
}

TEST_CASE("lsp render: a result of an unexpected shape is named and shown within 4 KB", "[lsp]") {
  FakeWorkspace ws;
  auto out = ws.render("goToDefinition", R"("somewhere")");
  CHECK(out.text == "The language server answered goToDefinition with a result of an unexpected shape:\n\"somewhere\"");
  CHECK(out.metadata == meta(0, 0, false));
  CHECK(ws.render("hover", "[1,2]").text ==
        "The language server answered hover with a result of an unexpected shape:\n[1,2]");
  CHECK(ws.render("goToDefinition", R"({"file":"a.py"})").text.rfind("The language server answered goToDefinition", 0) == 0);
  CHECK(ws.render("documentSymbol", R"({"symbols":[]})").text.rfind("The language server answered documentSymbol", 0) == 0);
  CHECK(ws.render("rename", "{}").text == "No rendering for the operation rename; the server's answer:\n{}");

  json big = json::array();
  for (int i = 0; i < 2000; ++i) big.push_back(std::string(100, 'x'));
  auto bounded = renderLspResult("hover", big, ws.context());
  CHECK(bounded.text.size() < 4 * 1024 + 200);
  json deep = json::array();
  for (int i = 0; i < 1000; ++i) deep = json::array({std::move(deep)});
  CHECK(renderLspResult("incomingCalls", json{{"x", deep}}, ws.context()).text.size() < 4 * 1024 + 200);
}

TEST_CASE("lsp render: beyond maxItems, the rest is counted", "[lsp]") {
  FakeWorkspace ws;
  ws.maxItems = 3;
  json locations = json::array();
  for (int i = 9; i >= 0; --i)
    locations.push_back({{"uri", i < 6 ? "file:///ws/a.py" : "file:///ws/b.py"},
                         {"range", {{"start", {{"line", i}, {"character", 0}}}, {"end", {{"line", i}, {"character", 1}}}}}});
  auto definitions = renderLspResult("goToDefinition", locations, ws.context());
  CHECK(definitions.text == "a.py:1:1\na.py:2:1\na.py:3:1\n... and 7 more");
  CHECK(definitions.metadata == meta(10, 0, true));

  auto references = renderLspResult("findReferences", locations, ws.context());
  CHECK(references.text == "10 references in 2 files\na.py (6)\n  1:1\n  2:1\n  3:1\n... and 7 more");
  CHECK(references.metadata == meta(10, 0, true));

  json symbols = json::array();
  for (int i = 0; i < 5; ++i)
    symbols.push_back({{"name", "s" + std::to_string(i)}, {"kind", 12},
                       {"range", {{"start", {{"line", i}, {"character", 0}}}, {"end", {{"line", i}, {"character", 1}}}}}});
  symbols[0]["children"] = json::array({symbols[1]});
  auto outline = renderLspResult("documentSymbol", symbols, ws.context());
  CHECK(outline.text == "Function s0  1-1\n  Function s1  2-2\nFunction s1  2-2\n... and 3 more");
  CHECK(outline.metadata == meta(6, 0, true));

  ws.maxItems = 10;
  CHECK(renderLspResult("goToDefinition", locations, ws.context()).metadata == meta(10, 0, false));
}

TEST_CASE("lsp render: a deep outline is walked without recursion", "[lsp]") {
  FakeWorkspace ws;
  ws.maxItems = 100000;
  const json range = {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 1}}}};
  json symbol = {{"name", "leaf"}, {"kind", 12}, {"range", range}};
  for (int i = 0; i < 200; ++i) symbol = {{"name", "n"}, {"kind", 12}, {"range", range}, {"children", json::array({symbol})}};
  auto out = renderLspResult("documentSymbol", json::array({symbol}), ws.context());
  CHECK(out.metadata == meta(201, 0, false));
  CHECK(out.text.substr(out.text.rfind('\n') + 1) == std::string(400, ' ') + "Function leaf  1-1");
}

TEST_CASE("lsp render: long lines are cut in snippets at a UTF-8 boundary", "[lsp]") {
  FakeWorkspace ws;
  std::string line = "x";
  for (int i = 0; i < 150; ++i) line += "\xc3\xa9"; // 301 bytes
  ws.lines[{"/ws/a.py", 0}] = line;
  auto out = ws.render("goToDefinition", R"({"uri":"file:///ws/a.py","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}})");
  CHECK(out.text == "a.py:1:1: " + line.substr(0, 199) + "...");
}
