// The REPL's pure parts: the line grammar, multi-line detection, key=value input built from a
// schema, answers rendered as text, long output cut, completion candidates, and the fixture a
// recording becomes.
#include "daemon/repl/repl_catalog.h"
#include "daemon/repl/repl_checkpoints.h"
#include "daemon/repl/repl_command.h"
#include "daemon/repl/repl_complete.h"
#include "daemon/repl/repl_fixture.h"
#include "daemon/repl/repl_permission_prompt.h"
#include "daemon/repl/repl_question.h"
#include "daemon/repl/repl_render.h"
#include "daemon/repl/repl_touched_files.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <unistd.h>

using namespace toold::repl;
using nlohmann::json;

namespace {

const json kReadSchema = json::parse(R"({"type": "object", "required": ["filePath"], "properties": {
  "filePath": {"type": "string", "description": "The path of the file"},
  "offset": {"type": "integer", "default": 1},
  "ratio": {"type": "number"},
  "exact": {"type": "boolean"},
  "ignore": {"type": "array", "items": {"type": "string"}},
  "options": {"type": "object"}}})");

json inputOf(std::string_view words) {
  auto built = buildInput(kReadSchema, words);
  if (auto* error = std::get_if<ArgumentError>(&built)) FAIL(error->message);
  return std::get<json>(built);
}

std::string errorOf(std::string_view words) {
  auto built = buildInput(kReadSchema, words);
  REQUIRE(std::holds_alternative<ArgumentError>(built));
  return std::get<ArgumentError>(built).message;
}

void fillWithRead(ToolCatalog& catalog) {
  catalog.setTools(json::array({{{"name", "read"}, {"description", "Reads a file.\nMore."}, {"inputSchema", kReadSchema}},
                                {{"name", "ready"}, {"description", "Another"}, {"inputSchema", json::object()}}}));
}

} // namespace

TEST_CASE("key=value words become the input the schema describes") {
  CHECK(inputOf("filePath=README.md offset=10") == json{{"filePath", "README.md"}, {"offset", 10}});
  CHECK(inputOf("filePath=42") == json{{"filePath", "42"}}); // a string stays a string
  CHECK(inputOf("filePath=a ratio=0.5 exact=true") == json{{"filePath", "a"}, {"ratio", 0.5}, {"exact", true}});
  CHECK(inputOf("filePath=a exact=no") == json{{"filePath", "a"}, {"exact", false}});
  CHECK(inputOf(R"(filePath=a ignore=["x y", "z"] options={"k": [1, 2]})") ==
        json{{"filePath", "a"}, {"ignore", {"x y", "z"}}, {"options", {{"k", {1, 2}}}}});
  CHECK(inputOf(R"(filePath="two words" )") == json{{"filePath", "two words"}});
  CHECK(inputOf("'filePath=it is'") == json{{"filePath", "it is"}});
  CHECK(inputOf("filePath=it's") == json{{"filePath", "it's"}}); // a quote inside a value is kept
  CHECK(inputOf(R"(filePath=\@literal)") == json{{"filePath", "@literal"}});
}

TEST_CASE("a trailing JSON object is the base the pairs are laid over") {
  CHECK(inputOf(R"(offset=2 {"filePath": "x", "offset": 1})") == json{{"filePath", "x"}, {"offset", 2}});
  CHECK(inputOf(R"({"filePath": "only"})") == json{{"filePath", "only"}});
}

TEST_CASE("values the schema refuses are refused before sending, naming the parameter") {
  CHECK(errorOf("filePath=a offset=ten") == "offset expects an integer, not 'ten'");
  CHECK(errorOf("filePath=a exact=maybe") == "exact expects true or false, not 'maybe'");
  CHECK(errorOf("filePath=a ignore=[1,") == "a [ is not closed");
  CHECK(errorOf("filePth=a").starts_with("the tool has no parameter filePth (it takes: filePath, "));
  CHECK(errorOf("README.md").starts_with("'README.md' is not key=value"));
  CHECK(errorOf(R"(filePath="open)") == "a \" is not closed");
  CHECK(errorOf("filePath=@/no/such/file") == "filePath: cannot read the file /no/such/file");
}

TEST_CASE("words with no pair are refused with the pair they meant, for the first required parameter") {
  CHECK(errorOf("README.md") == "'README.md' is not key=value (did you mean filePath=README.md? see :describe for the parameters)");
  CHECK(errorOf("echo hi > b.txt") ==
        "'echo' is not key=value (did you mean filePath='echo hi > b.txt'? see :describe for the parameters)");
  // With a pair among them, or a quote that the hint could not quote, only the plain refusal.
  CHECK(errorOf("a.txt offset=2") == "'a.txt' is not key=value (see :describe for the parameters)");
  CHECK(errorOf("it's here") == "'it's' is not key=value (see :describe for the parameters)");
  // A tool with no required parameter gets no guess.
  auto built = buildInput(json{{"type", "object"}, {"properties", {{"pattern", {{"type", "string"}}}}}}, "x");
  REQUIRE(std::holds_alternative<ArgumentError>(built));
  CHECK(std::get<ArgumentError>(built).message == "'x' is not key=value (see :describe for the parameters)");
}

TEST_CASE("a tool offered only inside Code Mode is refused with the program that calls it") {
  ToolCatalog catalog;
  catalog.setTools(json::parse(R"([{"name": "execute", "inputSchema": {"type": "object"}}])"));
  catalog.setCodemodePaths(json::parse(R"({"summary": {"namespaces": [
      {"name": "fs", "entries": [{"path": "fs_read_text_file"}, {"path": "2d_scene"}, {"path": "ctx.resolve-id"}]},
      {"name": "odd", "entries": [{"line": "no path"}]}]}})"));
  CHECK(catalog.codemodeOnly("fs_read_text_file"));
  CHECK_FALSE(catalog.codemodeOnly("execute"));
  CHECK_FALSE(catalog.codemodeOnly("ping"));
  const auto isTool = [&](const std::string& name) { return catalog.contains(name); };
  const auto isCodemodeTool = [&](const std::string& name) { return catalog.codemodeOnly(name); };
  auto refused = parseLine("fs_read_text_file path=a.txt", isTool, isCodemodeTool);
  REQUIRE(std::holds_alternative<LineError>(refused));
  CHECK_THAT(std::get<LineError>(refused).message,
             Catch::Contains("Code Mode tool") && Catch::Contains("execute code=\"return await tools.fs_read_text_file({...})\""));
  // Quotes inside the program are escaped, as a typed code="..." needs them.
  CHECK_THAT(std::get<LineError>(parseLine("2d_scene", isTool, isCodemodeTool)).message,
             Catch::Contains(R"(return await tools[\"2d_scene\"]({...}))"));
  CHECK_THAT(std::get<LineError>(parseLine("ctx.resolve-id", isTool, isCodemodeTool)).message,
             Catch::Contains(R"(return await tools.ctx[\"resolve-id\"]({...}))"));
  // JSON params still send the method as typed, and the tools offered directly are called.
  CHECK(std::holds_alternative<SendRequest>(parseLine(R"(fs_read_text_file {"a": 1})", isTool, isCodemodeTool)));
  CHECK(std::holds_alternative<CallTool>(parseLine("execute code=1", isTool, isCodemodeTool)));
  // A snapshot without Code Mode forgets the paths.
  catalog.setCodemodePaths(json());
  CHECK_FALSE(catalog.codemodeOnly("fs_read_text_file"));
}

TEST_CASE("lines parse into commands, and a tool's name calls it") {
  const auto isTool = [](const std::string& name) { return name == "read"; };
  auto call = parseLine("read filePath=a", isTool);
  REQUIRE(std::holds_alternative<CallTool>(call));
  CHECK(std::get<CallTool>(call).tool == "read");
  CHECK(std::get<CallTool>(call).arguments == "filePath=a");
  CHECK(std::holds_alternative<SendRequest>(parseLine("ping", isTool)));
  CHECK(std::holds_alternative<CallTool>(parseLine(":call other x=1", isTool)));
  auto raw = parseLine(R"({"jsonrpc": "2.0", "id": 1, "method": "ping"})", isTool);
  REQUIRE(std::holds_alternative<SendRaw>(raw));
  CHECK(std::get<SendRaw>(raw).message["method"] == "ping");
  CHECK(std::holds_alternative<LineError>(parseLine(R"({"jsonrpc": )", isTool)));
  CHECK(std::get<CancelRequest>(parseLine(":cancel 3")).id == json(3));
  CHECK_FALSE(std::get<CancelRequest>(parseLine(":cancel")).id.has_value());
  CHECK(std::get<SetMode>(parseLine(":raw")).mode == OutputMode::Raw);
  CHECK(std::get<SetLimit>(parseLine(":limit 0")).lines == 0);
  CHECK(std::holds_alternative<LineError>(parseLine(":limit many")));
  CHECK(std::get<KillJob>(parseLine(":kill shell-2")).id == "shell-2");
  CHECK(std::holds_alternative<LineError>(parseLine(":frobnicate")));
}

TEST_CASE(":changes, :diff, :undo and :redo parse, and ask for the REPL's session") {
  CHECK(std::holds_alternative<ShowChanges>(parseLine(":changes")));
  CHECK(std::holds_alternative<LineError>(parseLine(":changes call-1")));
  CHECK_FALSE(std::get<ShowDiff>(parseLine(":diff")).callID.has_value());
  CHECK(std::get<ShowDiff>(parseLine(":diff  call-2 ")).callID == "call-2");
  CHECK_FALSE(std::get<UndoChanges>(parseLine(":undo")).callID.has_value());
  CHECK(std::get<UndoChanges>(parseLine(":undo call-3")).callID == "call-3");
  CHECK(std::get<LineError>(parseLine(":undo call-3 call-4")).message == "usage: :undo [CALL]");
  CHECK(std::holds_alternative<LineError>(parseLine(":diff a b")));
  CHECK(std::holds_alternative<RedoChanges>(parseLine(":redo")));
  CHECK(std::holds_alternative<LineError>(parseLine(":redo call-1")));
  for (const char* command : {":changes", ":diff", ":undo", ":redo"})
    CHECK(std::find(metaCommands().begin(), metaCommands().end(), command) != metaCommands().end());
  CHECK(helpText().find(":undo [CALL]") != std::string_view::npos);

  const auto list = changesRequest("repl");
  CHECK(list.method == "checkpoint/list");
  CHECK(list.params == json{{"sessionID", "repl"}});
  CHECK(diffRequest("repl", "call-2").params == json{{"sessionID", "repl"}, {"callID", "call-2"}});
  const auto all = diffRequest("repl", std::nullopt).params;
  CHECK(all["range"]["from"] == 0);
  CHECK(all["range"]["to"].get<std::uint64_t>() == std::numeric_limits<std::uint64_t>::max());
  CHECK(undoRequest("repl", "call-3").method == "checkpoint/restore");
  CHECK(undoRequest("repl", "call-3").params == json{{"sessionID", "repl"}, {"callID", "call-3"}});
  CHECK(undoRequest("repl", std::nullopt).params == json{{"sessionID", "repl"}}); // toold picks the newest
  CHECK(redoRequest("other").method == "checkpoint/redo");
  CHECK(redoRequest("other").params == json{{"sessionID", "other"}});
}

TEST_CASE("checkpoint answers read as lines in text mode, and a refused undo names the paths") {
  const json list{{"id", 7}, {"result", {{"sessionID", "repl"}, {"checkpoints", json::parse(R"([
    {"id": 3, "kind": "call", "messageID": "m", "callID": "call-1", "tool": "edit", "started": 1, "finished": 2,
     "changes": [{"path": "a.txt", "change": "modified", "sizeBefore": 6, "sizeAfter": 5, "restorable": true}]},
    {"id": 4, "kind": "call", "messageID": "m", "callID": "call-2", "tool": "apply_patch", "started": 1, "finished": 2,
     "changes": [{"path": "new/n.py", "change": "renamed", "from": "old/n.py", "restorable": true},
                 {"path": "big.bin", "change": "created", "restorable": false}], "concurrent": true},
    {"id": 5, "kind": "restore", "messageID": "", "callID": "", "tool": "checkpoint/restore", "started": 1,
     "finished": 2, "changes": [], "of": 4}])")}}}};
  CHECK(renderAnswer(list, {"checkpoint/list", "", "7", 1}, OutputMode::Text) ==
        "#3 edit call-1: modified a.txt\n"
        "#4 apply_patch call-2 (concurrent): renamed old/n.py → new/n.py · created big.bin (not restorable)\n"
        "#5 restore to before #4: nothing\n"
        "── checkpoint/list (id 7) · ok · 1.0 ms\n");
  CHECK(renderAnswer(list, {"checkpoint/list", "", "7", 1}, OutputMode::Raw) == list.dump() + "\n");
  const json none{{"id", 1}, {"result", {{"sessionID", "repl"}, {"checkpoints", json::array()}, {"evicted", "evicted on x"}}}};
  CHECK(renderAnswer(none, {"checkpoint/list", "", "1", 1}, OutputMode::Text).starts_with("older checkpoints were evicted on x\n"));

  const json diff{{"id", 8}, {"result", {{"diff", "--- a.txt\n+++ a.txt\n"}, {"files", json::array()}, {"truncated", true},
                                         {"outputPath", "/out/1"}}}};
  CHECK(renderAnswer(diff, {"checkpoint/diff", "", "8", 1}, OutputMode::Text) ==
        "--- a.txt\n+++ a.txt\n(the diff was cut; all of it is in /out/1)\n── checkpoint/diff (id 8) · ok · 1.0 ms\n");

  const json restored{{"id", 9}, {"result", {{"checkpoint", 6}, {"restored", {"a.txt", "b.txt"}}}}};
  CHECK(renderAnswer(restored, {"checkpoint/restore", "", "9", 1}, OutputMode::Text) ==
        "restored 2 paths (checkpoint #6; :redo takes it back):\n  a.txt\n  b.txt\n── checkpoint/restore (id 9) · ok · 1.0 ms\n");
  CHECK(renderAnswer(restored, {"checkpoint/redo", "", "9", 1}, OutputMode::Text).starts_with("put back 2 paths (checkpoint #6):\n"));

  const json conflict{{"id", 10}, {"error", {{"code", -32010}, {"message", "changed outside the session: a.txt"},
                                             {"data", {{"conflicts", {"a.txt"}}}}}}};
  const std::string text = renderAnswer(conflict, {"checkpoint/restore", "", "10", 1}, OutputMode::Text);
  CHECK(text.find("changed outside the session since, so nothing was restored:\n  a.txt\n") != std::string::npos);
  CHECK(answerFailed(conflict));
}

TEST_CASE("an open brace or bracket, or a trailing backslash, asks for more lines") {
  CHECK(needsMoreInput("$/test/echo {"));
  CHECK(needsMoreInput(R"(x {"a": [1,)"));
  CHECK(needsMoreInput("read filePath=a \\"));
  CHECK_FALSE(needsMoreInput(R"(x {"a": "}{"})"));
  CHECK_FALSE(needsMoreInput(R"(x {"a": "{"})"));
  CHECK_FALSE(needsMoreInput("ping"));
  CHECK_FALSE(needsMoreInput(""));
}

TEST_CASE("a call's outcome is shown as the model sees it, metadata on one line") {
  const json answer{{"jsonrpc", "2.0"}, {"id", 3},
                    {"result", {{"status", "completed"}, {"content", {{{"type", "text"}, {"text", "line 1\nline 2"}}}},
                                {"metadata", {{"truncated", false}, {"lines", 2}}}, {"sessionID", "s"}}}};
  const SentRequest sent{"call", "read", "3", 1.25};
  CHECK(renderAnswer(answer, sent, OutputMode::Text) == "line 1\nline 2\n── read (id 3) · completed · 1.2 ms · lines=2 · truncated=false\n");
  CHECK(renderAnswer(answer, sent, OutputMode::Raw) == answer.dump() + "\n");
  CHECK_FALSE(answerFailed(answer));

  const json failed{{"id", 4}, {"result", {{"status", "error"}, {"sessionID", "s"},
                                            {"error", {{"type", "tool.unknown"}, {"message", "Unknown tool: x."}}}}}};
  CHECK(renderAnswer(failed, {"call", "x", "4", 0.5}, OutputMode::Text) == "Unknown tool: x.\n── x (id 4) · error tool.unknown · 0.5 ms\n");
  CHECK(answerFailed(failed));

  const json rpcError{{"id", 5}, {"error", {{"code", -32601}, {"message", "Method not found: nope"}}}};
  CHECK(renderAnswer(rpcError, {"nope", "", "5", 0.1}, OutputMode::Text) == "error -32601: Method not found: nope\n── nope (id 5) · failed · 0.1 ms\n");
  CHECK(answerFailed(rpcError));
  CHECK(answerFailed(json{{"id", 6}, {"result", {{"content", json::array()}, {"isError", true}}}}));
}

TEST_CASE("long answers are cut with a note, keeping the summary line") {
  std::string text;
  for (int i = 1; i <= 10; ++i) text += "line " + std::to_string(i) + "\n";
  text += "── read (id 1) · completed · 1 ms\n";
  CHECK(cutLines(text, 3) == "line 1\nline 2\nline 3\n… 7 more line(s) not shown (:limit 0 shows all)\n── read (id 1) · completed · 1 ms\n");
  CHECK(cutLines(text, 0) == text);
  CHECK(cutLines(text, 11) == text);
}

TEST_CASE(":tools and :describe read the snapshot") {
  ToolCatalog catalog;
  fillWithRead(catalog);
  CHECK(catalog.listText() == "  read   Reads a file.\n  ready  Another\n");
  // A description's first sentence, without a list's bullet.
  catalog.setTools(json::array({{{"name", "webfetch"}, {"description", "- Fetches content from a URL\n- Takes a URL"}},
                                {{"name", "question"}, {"description", "Use this tool to ask. This allows you to:\n1. x"}}}));
  CHECK(catalog.listText() == "  webfetch  Fetches content from a URL\n  question  Use this tool to ask.\n");
  CHECK(firstSentence("\n  * Runs `a.b` (see x.y).  More.") == "Runs `a.b` (see x.y).");
  CHECK(firstSentence("") == "");
  fillWithRead(catalog);
  const std::string described = catalog.describeText("read");
  CHECK(described.starts_with("read(filePath: string, exact?: boolean, ignore?: array, offset?: integer = 1, "));
  CHECK(described.find("  filePath  string   required  The path of the file\n") != std::string::npos);
  CHECK(catalog.describeText("nothing").empty());
  CHECK(catalog.isPathParameter("read", "filePath"));
  CHECK_FALSE(catalog.isPathParameter("read", "offset"));
}

TEST_CASE("completion offers what fits where the word is") {
  ToolCatalog catalog;
  fillWithRead(catalog);
  CHECK(completionsFor(catalog, "", ":des") == std::vector<std::string>{":describe"});
  CHECK(completionsFor(catalog, "", "rea") == std::vector<std::string>{"read", "ready"});
  CHECK(completionsFor(catalog, "", "tools/") == std::vector<std::string>{"tools/list", "tools/call"});
  CHECK(completionsFor(catalog, ":describe ", "rea") == std::vector<std::string>{"read", "ready"});
  CHECK(completionsFor(catalog, "read ", "o") == std::vector<std::string>{"offset=", "options="});
  // A parameter already given is not offered again.
  CHECK(completionsFor(catalog, "read offset=1 ", "o") == std::vector<std::string>{"options="});
  CHECK(completionsFor(catalog, ":call read ", "fi") == std::vector<std::string>{"filePath="});
}

TEST_CASE("a recording becomes a fixture with captures for what varies") {
  const std::vector<RecordedMessage> transcript{
      {true, {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "snapshot"}, {"params", {{"sessionID", "repl"}}}}},
      {false, {{"jsonrpc", "2.0"}, {"id", 1}, {"result", {{"snapshot", "snapshot-7"}, {"tools", {{{"name", "read"}, {"description", "long"}}}}, {"toolsHash", "0f1e2d3c4b5a69780f1e2d3c4b5a6978"}}}}},
      {true, {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "call"}, {"params", {{"snapshot", "snapshot-7"}, {"input", {{"filePath", "/w/a.txt"}}}}}}},
      {false, {{"jsonrpc", "2.0"}, {"id", "toold-1"}, {"method", "permission/ask"}, {"params", {{"id", "per_1"}}}}},
      {true, {{"jsonrpc", "2.0"}, {"id", "toold-1"}, {"result", {{"reply", "once"}}}}},
      {false, {{"jsonrpc", "2.0"}, {"id", 2}, {"result", {{"status", "completed"}, {"metadata", {{"ms", 3}}}}}}},
      {false, {{"jsonrpc", "2.0"}, {"method", "notifications/message"}, {"params", {{"text", "$weird"}}}}}};
  FixtureSetting setting;
  setting.tooldArgs = {"--test-methods"};
  setting.workspace = "/w";
  setting.dataDir = "/d";
  setting.files = {{"toold.json", "{\"permission\": {}}\n"}};
  const std::string fixture = writeFixture(transcript, setting);
  CHECK(fixture.find("%args --test-methods\n%modes pipe\n") != std::string::npos);
  CHECK(fixture.find("%file toold.json <<END\n{\"permission\": {}}\nEND\n") != std::string::npos);
  CHECK(fixture.find(R"(< {"id":1,"jsonrpc":"2.0","result":{"snapshot":"$capture:snapshot1","tools":[{"name":"read"}],"toolsHash":"$re:^[0-9a-f]{32}$"}})") != std::string::npos);
  CHECK(fixture.find(R"(> {"id":2,"jsonrpc":"2.0","method":"call","params":{"input":{"filePath":"${workspace}/a.txt"},"snapshot":"${snapshot1}"}})") != std::string::npos);
  CHECK(fixture.find(R"(< {"id":"$capture:ask1","jsonrpc":"2.0","method":"permission/ask"})") != std::string::npos);
  CHECK(fixture.find(R"(> {"id":"${ask1}","jsonrpc":"2.0","result":{"reply":"once"}})") != std::string::npos);
  // Consecutive messages from toold form an unordered group; a string that looks like a pattern is escaped.
  CHECK(fixture.find(R"(<* {"id":2,"jsonrpc":"2.0","result":{"metadata":"$any","status":"completed"}})") != std::string::npos);
  CHECK(fixture.find(R"("text":"$re:^\\$weird$")") != std::string::npos);
}

TEST_CASE("a progress update is summarised by what it says, not by its JSON") {
  using toold::repl::progressSummary;
  CHECK(progressSummary(json("compiling")) == "compiling");
  CHECK(progressSummary(json{{"message", "3 of 10 files"}}) == "3 of 10 files");
  // bash's updates: the newest non-blank line of the output that arrived.
  CHECK(progressSummary(json{{"offset", 14}, {"output", "line 2\nline 3\n\n"}}) == "line 3");
  // Anything else: the JSON, as a last resort.
  CHECK(progressSummary(json{{"step", 2}}) == R"({"step":2})");
}

TEST_CASE("a typed line answers question/ask: numbers pick choices, words are the person's own") {
  const json params = json::parse(R"({"questions": [
    {"question": "Which?", "header": "DB", "options": [{"label": "pg", "description": "big"}, {"label": "lite", "description": ""}]},
    {"question": "Also?", "header": "More", "multiple": true, "options": [{"label": "a"}, {"label": "b"}, {"label": "c"}]},
    {"question": "Name?", "header": "N", "options": []}]})");
  std::string why;
  CHECK(questionAnswer("2; 1,3; my app", params, why) == json::parse(R"({"answers": [["lite"], ["a", "c"], ["my app"]]})"));
  CHECK(questionAnswer("1", params, why) == json::parse(R"({"answers": [["pg"], [], []]})"));
  CHECK(questionAnswer("  ", params, why) == json::parse(R"({"dismissed": true})"));
  CHECK_FALSE(questionAnswer("3", params, why));
  CHECK(why == "question 1 has no choice 3");
  const std::string details = questionDetails(params);
  CHECK(details.find("1. DB: Which?\n   1) pg — big\n   2) lite\n") == 0);
  CHECK(details.find("2. More: Also? (several: 1,3)") != std::string::npos);
}

TEST_CASE("a recording waits for what was settled, skips progress and loosens what differs per run") {
  const json read{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "call"}, {"params", {{"name", "read"}}}};
  const json edit{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "call"}, {"params", {{"name", "edit"}}}};
  const std::vector<RecordedMessage> transcript{
      {true, read},
      {false, {{"jsonrpc", "2.0"}, {"method", "tool/progress"}, {"params", {{"callID", "call-1"}}}}},
      {false, {{"jsonrpc", "2.0"}, {"id", 2}, {"result", {{"content", "took 2.5 ms, saved in /w/.d/tool-output/x at 2026-01-02T03:04:05Z"}}}}},
      {true, edit},
      {false, {{"jsonrpc", "2.0"}, {"id", 3}, {"result", {{"content", "kept in /w/.d/journal"}, {"startedAt", 17}}}}}};
  FixtureSetting setting;
  setting.workspace = "/w";
  setting.dataDir = "/w/.d"; // inside the workspace, as with a HOME there
  setting.files = {{"a.txt", "one\ntwo\n"}, {"b.txt", "no newline"}, {"dos.txt", "x\r\n"}};
  const std::string fixture = writeFixture(transcript, setting);
  // Every request answered before the edit was sent: the read's answer is expected before it.
  const auto readAnswer = fixture.find("< {\"id\":2");
  const auto editSend = fixture.find("> {\"id\":3");
  REQUIRE(readAnswer != std::string::npos);
  REQUIRE(editSend != std::string::npos);
  CHECK(readAnswer < editSend);
  CHECK(fixture.find("tool/progress\",\"params\"") == std::string::npos);
  CHECK(fixture.find("%skip tool/progress\n") != std::string::npos);
  CHECK(fixture.find(R"("content":"$re:^took [\\d.]+ ?(?:µs|ms|s|min), saved in /.+?/tool-output/x at \\d{4}-\\d{2}-\\d{2}[T ][\\d:.]+(?:Z|[+-][\\d:]+)?$")") !=
        std::string::npos);
  CHECK(fixture.find(R"("content":"kept in ${data}/journal")") != std::string::npos);
  CHECK(fixture.find(R"("startedAt":"$any")") != std::string::npos);
  // Files: whole lines as %file; anything else as a put that says every byte.
  CHECK(fixture.find("%file a.txt <<END\none\ntwo\nEND\n") != std::string::npos);
  CHECK(fixture.find("put b.txt \"no newline\"\n") != std::string::npos);
  CHECK(fixture.find("put dos.txt \"x\\r\\n\"\n") != std::string::npos);
  CHECK(fixture.find("put b.txt") < fixture.find("> {"));
}

TEST_CASE("volatile texts become anchored regexes, stable ones stay as they are") {
  CHECK_FALSE(volatilePattern("shell-1 has exited (exit code 0). Read bytes 0–10 of 10.", "/w", "/d"));
  CHECK(volatilePattern("shell-1 is running · 4.0 s · 12 B of output", "/w", "/d") ==
        std::optional<std::string>(R"(^shell-1 is running · [\d.]+ ?(?:µs|ms|s|min) · 12 B of output$)"));
  CHECK(volatilePattern("at 12:30:05 in /w/a (x)", "/w", "") == std::optional<std::string>(R"(^at [\d:.]+ in /.+?/a \(x\)$)"));
  CHECK(volatilePattern("saved in /w/.data/tool-output/tool_1a24b027aeb000eK91zUAUZJH9qh.", "/w", "/w/.data") ==
        std::optional<std::string>(R"(^saved in /.+?/tool-output/[a-z]+_[0-9A-Za-z]{28}\.$)"));
}

TEST_CASE("the files a call names are kept as they were before it, once") {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("repl-touched-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "src" / "deep");
  const auto put = [&](const std::string& path, const std::string& text) { std::ofstream(root / path) << text; };
  put("notes.txt", "before\n");
  put("src/a.c", "int a;\n");
  put("src/deep/b.c", "int b;\n");
  put("other.txt", "other\n");
  TouchedFiles touched(root);
  touched.touchInput("read", json{{"filePath", "notes.txt"}});
  put("notes.txt", "after\n"); // the call changed it: the first content counts
  touched.touchInput("read", json{{"filePath", (root / "notes.txt").string()}});
  touched.touchInput("write", json{{"filePath", "new.txt"}, {"content", "x"}});
  put("new.txt", "made by the session\n");
  touched.touchInput("read", json{{"filePath", "new.txt"}}); // made by the session: not kept
  touched.touchInput("bash", json{{"command", "cat other.txt | wc -l"}});
  touched.touchInput("list", json{{"path", "src"}});
  touched.touchInput("read", json{{"filePath", "/etc/hostname"}}); // outside the workspace
  std::vector<std::pair<std::string, std::string>> kept;
  for (const auto& file : touched.files()) kept.emplace_back(file.path, file.content);
  std::sort(kept.begin() + 2, kept.end());
  CHECK(kept == std::vector<std::pair<std::string, std::string>>{
                    {"notes.txt", "before\n"}, {"other.txt", "other\n"}, {"src/a.c", "int a;\n"}, {"src/deep/b.c", "int b;\n"}});
  // glob without a path searches the whole workspace: what was not kept yet comes along.
  touched.touchInput("glob", json{{"pattern", "*.md"}});
  CHECK(touched.files().size() == 4); // new.txt was the session's own; the rest was kept already
  fs::remove_all(root);
}

TEST_CASE("file names complete with a '/' after a folder and a blank after a file") {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("repl-complete-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "sub_dir");
  std::ofstream(root / "sub_file.txt") << "x";
  std::ofstream(root / ".hidden") << "x";
  const std::string base = root.string() + "/";
  CHECK(fileCompletions(base + "sub") == std::vector<std::string>{base + "sub_dir/", base + "sub_file.txt"});
  CHECK(fileCompletions(base + "sub_d") == std::vector<std::string>{base + "sub_dir/"});
  CHECK(fileCompletions(base) == std::vector<std::string>{base + "sub_dir/", base + "sub_file.txt"});
  CHECK(fileCompletions(base + ".h") == std::vector<std::string>{base + ".hidden"});
  CHECK(appendedAfter({base + "sub_dir/"}) == '\0');
  CHECK(appendedAfter({base + "sub_file.txt"}) == ' ');
  CHECK(appendedAfter({"read"}) == ' ');
  CHECK(appendedAfter({"filePath="}) == '\0');
  fs::remove_all(root);
}

TEST_CASE("a typed line answers permission/ask: a word, then the message for the model") {
  std::string said;
  std::string why;
  CHECK(permissionAnswer("o", said, why) == json{{"reply", "once"}});
  CHECK(said == "once");
  CHECK(permissionAnswer("  Always", said, why) == json{{"reply", "always"}});
  CHECK(permissionAnswer("r use make clean", said, why) == json{{"reply", "reject"}, {"message", "use make clean"}});
  CHECK(said == "reject (use make clean)");
  CHECK_FALSE(permissionAnswer("x", said, why));
  CHECK(why.starts_with("answer o (once), a (always) or r (reject)"));
  const json params{{"action", "bash"}, {"resources", {"make"}}, {"save", {"make *"}}, {"metadata", {{"command", "make"}}}};
  CHECK(permissionPrompt(params) == "allow bash \"make\"? [o]nce [a]lways [r]eject (+ message) ");
  CHECK(permissionDetails(params, "bash (id 3)") == " for bash (id 3): bash on \"make\"; \"always\" saves \"make *\"\n  command: make\n");
}

TEST_CASE("a language server's diagnostics show as one line in text mode, and only with errors") {
  const json withErrors = json::parse(R"({"jsonrpc": "2.0", "method": "lsp/diagnostics", "params": {"path": "src/a.cpp",
    "diagnostics": [{"severity": "warning", "line": 1, "column": 1, "message": "unused"},
                    {"severity": "error", "line": 4, "column": 10, "message": "No matching function\n\nnote: candidate"},
                    {"severity": "error", "line": 9, "column": 2, "message": "second"}]}})");
  CHECK(renderMessage(withErrors, OutputMode::Text) ==
        "(lsp: src/a.cpp: 2 errors, the first: 4:10 No matching function)\n");
  const json clean = json::parse(R"({"jsonrpc": "2.0", "method": "lsp/diagnostics",
    "params": {"path": "src/a.cpp", "diagnostics": [{"severity": "warning", "line": 1, "column": 1, "message": "unused"}]}})");
  CHECK(renderMessage(clean, OutputMode::Text).empty());
  // Other modes show the message as it is.
  CHECK(renderMessage(clean, OutputMode::Raw).find("\"lsp/diagnostics\"") != std::string::npos);
}
