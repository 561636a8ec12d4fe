// The MCP client's pure parts: cutting stdout into lines with the frame cap, naming tools,
// mapping results.
#include "core/sources/mcp/mcp_line_reader.h"
#include "core/sources/mcp/mcp_result.h"
#include "core/sources/mcp/mcp_sse_reader.h"
#include "core/sources/mcp/mcp_tool_names.h"

#include <catch2/catch.hpp>

using namespace toold::core;

TEST_CASE("mcp lines: split on newlines, CR stripped, blanks skipped, pieces joined", "[mcp_client]") {
  std::vector<std::string> lines;
  McpLineReader reader([&](std::string_view line) { lines.emplace_back(line); }, [](auto, auto) {});
  reader.feed("{\"a\":1}\r\n\n  \n{\"b\"");
  reader.feed(":2}\n");
  CHECK(lines == std::vector<std::string>{"{\"a\":1}", "{\"b\":2}"});
}

TEST_CASE("mcp lines: a line over the cap reports its id once and is skipped to its end", "[mcp_client]") {
  std::vector<std::string> lines;
  std::vector<nlohmann::json> ids;
  McpLineReader reader([&](std::string_view line) { lines.emplace_back(line); },
                       [&](std::optional<nlohmann::json> id, std::size_t) { ids.push_back(id.value_or(nullptr)); }, 32);
  reader.feed("{\"jsonrpc\":\"2.0\",\"id\": 42,\"result\":\"");
  reader.feed(std::string(100, 'x'));
  reader.feed("\"}\n{\"ok\":1}\n");
  CHECK(ids == std::vector<nlohmann::json>{42});
  CHECK(lines == std::vector<std::string>{"{\"ok\":1}"});
  CHECK(recoverJsonRpcId(R"({"id" : "abc", "x": 1})") == nlohmann::json("abc"));
  CHECK_FALSE(recoverJsonRpcId(R"({"result": 1})").has_value());
}

TEST_CASE("mcp lines: the same lines whatever the split, whole lines in a chunk and lines at the cap",
          "[mcp_client]") {
  const std::string stream = "{\"a\":1}\r\n\n{\"bb\":22}\n   \n{\"c\":\"" + std::string(20, 'x') + "\"}\n{\"d\":4}\n";
  const std::vector<std::string> expected{"{\"a\":1}", "{\"bb\":22}", "{\"c\":\"" + std::string(20, 'x') + "\"}", "{\"d\":4}"};
  for (std::size_t first = 0; first <= stream.size(); ++first)
    for (std::size_t second = first; second <= stream.size(); second += 3) {
      std::vector<std::string> lines;
      std::size_t oversized = 0;
      McpLineReader reader([&](std::string_view line) { lines.emplace_back(line); }, [&](auto, auto) { ++oversized; }, 30);
      reader.feed(std::string_view(stream).substr(0, first));
      reader.feed(std::string_view(stream).substr(first, second - first));
      reader.feed(std::string_view(stream).substr(second));
      CHECK(lines == expected);
      CHECK(oversized == 0);
    }
  // A whole line in one chunk over the cap is refused as one that arrives in pieces is.
  std::vector<std::string> lines;
  std::size_t oversized = 0;
  McpLineReader reader([&](std::string_view line) { lines.emplace_back(line); }, [&](auto, auto) { ++oversized; }, 8);
  reader.feed("{\"id\":7,\"r\":1}\n{\"a\":1}\n12345678\n");
  CHECK(oversized == 1);
  CHECK(lines == std::vector<std::string>{"{\"a\":1}", "12345678"});
}

TEST_CASE("mcp names: sanitized, and hashed only when too long or clashing", "[mcp_client]") {
  auto none = [](const std::string&) { return false; };
  CHECK(mcpPlainToolName("my.server", "read-file") == "my_server_read-file");
  const auto names = nameMcpTools("s", {"read.file", "read_file", "ok", std::string(70, 'a')}, none);
  CHECK(names[1].effective == "s_read_file"); // the exact one keeps the plain name
  CHECK_FALSE(names[1].renamed);
  CHECK(names[0].renamed);
  CHECK(names[0].effective == mcpHashedToolName("s", "read.file"));
  CHECK(names[0].effective.size() == std::string("s_read_file_").size() + 8);
  CHECK(names[0].effective.starts_with("s_read_file_"));
  CHECK(names[2].effective == "s_ok");
  CHECK(names[3].effective.size() == 64);
  // Stable: the same raw names give the same effective ones, whatever the order.
  const auto again = nameMcpTools("s", {std::string(70, 'a'), "read_file", "read.file"}, none);
  CHECK(again[0].effective == names[3].effective);
  CHECK(again[2].effective == names[0].effective);
  // A name another server holds is not taken.
  const auto taken = nameMcpTools("s", {"ok"}, [](const std::string& name) { return name == "s_ok"; });
  CHECK(taken[0].renamed);
  CHECK(taken[0].effective != "s_ok");
}

TEST_CASE("mcp results: content items, isError, structuredContent", "[mcp_client]") {
  const auto result = nlohmann::json::parse(R"({"content": [
    {"type": "text", "text": "hi"}, {"type": "image", "data": "AAA=", "mimeType": "image/png"},
    {"type": "resource_link", "uri": "test://x", "name": "x"},
    {"type": "resource", "resource": {"uri": "test://y", "text": "why"}}, {"type": "unknown"}]})");
  auto completion = mcpResultToCompletion(result, false, "t");
  REQUIRE(std::holds_alternative<ToolResult>(completion));
  const auto& content = *std::get<ToolResult>(completion).content;
  REQUIRE(content.size() == 4);
  CHECK(content[1] == nlohmann::json{{"type", "file"}, {"mime", "image/png"}, {"uri", "data:image/png;base64,AAA="}});
  CHECK(content[2]["text"] == "Resource x: test://x");
  CHECK(content[3]["text"] == "why");

  auto failure = mcpResultToCompletion(nlohmann::json::parse(R"({"isError": true, "content": [{"type": "text", "text": "bad\n"}]})"), false, "t");
  REQUIRE(std::holds_alternative<ToolFailure>(failure));
  CHECK(std::get<ToolFailure>(failure).message == "bad");
  auto bare = mcpResultToCompletion(nlohmann::json::parse(R"({"isError": true, "content": []})"), false, "t");
  CHECK(std::get<ToolFailure>(bare).message == "MCP tool returned an error");

  auto structured = mcpResultToCompletion(nlohmann::json::parse(R"({"content": [{"type": "text", "text": "3"}], "structuredContent": {"sum": 3}})"), true, "t");
  REQUIRE(std::holds_alternative<ToolResult>(structured));
  CHECK(*std::get<ToolResult>(structured).output == nlohmann::json{{"sum", 3}});
}

TEST_CASE("mcp sse: data lines make events at blank lines, across chunks, other fields ignored", "[mcp_client]") {
  std::vector<std::string> events;
  std::vector<nlohmann::json> oversized;
  McpSseReader reader([&](std::string_view data) { events.emplace_back(data); },
                      [&](std::optional<nlohmann::json> id, std::size_t) { oversized.push_back(id.value_or(nullptr)); }, 64);
  reader.feed("event: message\r\ndata: {\"a\":");
  reader.feed("1}\r\n\r\n: a comment\nid: 7\ndata: x\ndata: y\n\n");
  reader.feed("data: {\"id\": 5, \"result\": \"" + std::string(100, 'z') + "\"}\n\ndata: after\n");
  reader.finish();
  CHECK(events == std::vector<std::string>{"{\"a\":1}", "x\ny", "after"});
  CHECK(oversized == std::vector<nlohmann::json>{5});
}

TEST_CASE("mcp sse: the last event id and the server's retry delay are kept for reconnecting", "[mcp_client]") {
  std::vector<std::string> events;
  McpSseReader reader([&](std::string_view data) { events.emplace_back(data); }, [](std::optional<nlohmann::json>, std::size_t) {}, 1024);
  CHECK(reader.lastEventId().empty());
  CHECK_FALSE(reader.retry().has_value());
  reader.feed("retry: 250\nid: s1/1\ndata: a\n\n");
  CHECK(reader.lastEventId() == "s1/1");
  REQUIRE(reader.retry().has_value());
  CHECK(reader.retry()->count() == 250);
  // Not digits, or with a NUL: ignored; an event without an id keeps the last one.
  reader.feed("retry: 1s\nretry: -5\ndata: b\n\nid: bad");
  reader.feed(std::string_view("\0x\n", 3));
  reader.feed("data: c\n\nid: s1/3\n\n");
  CHECK(reader.retry()->count() == 250);
  CHECK(reader.lastEventId() == "s1/3");
  CHECK(events == std::vector<std::string>{"a", "b", "c"});
  CHECK(reader.events() == 3);
  // An event cut off by the end of the stream was not received: its id is not the last one, and
  // a listening stream (which does not call finish()) never dispatches it.
  reader.feed("id: s1/4\ndata: {\"jsonrpc\": ");
  CHECK(reader.lastEventId() == "s1/3");
  CHECK(events.size() == 3);
}
