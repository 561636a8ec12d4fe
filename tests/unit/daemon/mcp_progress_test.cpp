// MCP progress: counts, totals, and the newest lines of a command's output as the message.
#include "daemon/mcp_progress.h"

#include <catch2/catch.hpp>

using toold::daemon::McpProgress;
using toold::daemon::newestLines;
using nlohmann::json;

TEST_CASE("mcp progress: the newest non-blank lines, bounded", "[mcp_progress]") {
  CHECK(newestLines("one\ntwo\nthree\nfour\n", 3, 400) == "two\nthree\nfour");
  CHECK(newestLines("one\n\n  \ntwo", 3, 400) == "one\ntwo");
  // A line rewritten with '\r' (a progress bar) shows its newest state.
  CHECK(newestLines("10%\r50%\r90%", 1, 400) == "90%");
  CHECK(newestLines("\n\n", 3, 400).empty());
  // Over the byte bound the front is cut, at a character boundary.
  CHECK(newestLines("aaaa\nbbbbbbbbbb", 3, 6) == "…bbbbbb");
  CHECK(newestLines("é😀é😀", 1, 5) == "…😀");
}

TEST_CASE("mcp progress: counts rise, totals and messages are passed on", "[mcp_progress]") {
  McpProgress progress(json("tok"));
  CHECK(progress.next(json("plain")) == json{{"progressToken", "tok"}, {"progress", 1}, {"message", "plain"}});
  CHECK(progress.next(json{{"step", 2}, {"total", 5}, {"message", "two"}}) ==
        json{{"progressToken", "tok"}, {"progress", 2}, {"total", 5}, {"message", "two"}});
  // A total below the count would break MCP's rule that progress never exceeds it: left out.
  CHECK_FALSE(progress.next(json{{"total", 1}}).contains("total"));
  CHECK(progress.next(json::array()) == json{{"progressToken", "tok"}, {"progress", 4}});
}

TEST_CASE("mcp progress: output chunks are joined across updates", "[mcp_progress]") {
  McpProgress progress(json(7));
  CHECK(progress.next(json{{"output", "compiling a"}, {"offset", 0}})["message"] == "compiling a");
  // The chunk ended mid-line: the next one completes it.
  CHECK(progress.next(json{{"output", ".c\nlinking\n"}, {"offset", 11}})["message"] == "compiling a.c\nlinking");
  CHECK(progress.next(json{{"output", "\n\n"}})["message"] == "compiling a.c\nlinking");
  // Long output keeps only a bounded tail.
  const auto big = progress.next(json{{"output", std::string(100000, 'x') + "\ndone\n"}});
  CHECK(big["message"].get<std::string>().size() <= toold::daemon::kProgressMessageBytes + 3);
  CHECK(big["message"].get<std::string>().ends_with("\ndone"));
}
