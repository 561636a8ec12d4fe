#include "core/permission/doom_loop.h"

#include <catch2/catch.hpp>

using toold::core::DoomLoopDetector;
using json = nlohmann::json;

namespace {

// Starts a call and answers it at once with `answer`; true when the start was suspect.
bool callAnswered(DoomLoopDetector& detector, std::string_view tool, const json& input, std::uint64_t answer) {
  auto started = detector.start(tool, input);
  detector.answered(started.ticket, answer);
  return started.suspect;
}

} // namespace

TEST_CASE("doom loop: the same call after two identical answers is suspect, and every one after", "[doom_loop]") {
  DoomLoopDetector detector;
  const json input{{"filePath", "a.txt"}, {"offset", 1}};
  CHECK_FALSE(callAnswered(detector, "read", input, 7));
  CHECK_FALSE(callAnswered(detector, "read", json{{"offset", 1}, {"filePath", "a.txt"}}, 7)); // key order is not identity
  CHECK(callAnswered(detector, "read", input, 7));
  CHECK(callAnswered(detector, "read", input, 7));
}

TEST_CASE("doom loop: calls whose answers change are no loop", "[doom_loop]") {
  DoomLoopDetector detector;
  const json status{{"command", "git status"}};
  CHECK_FALSE(callAnswered(detector, "bash", status, 1));
  CHECK_FALSE(callAnswered(detector, "bash", status, 2));
  CHECK_FALSE(callAnswered(detector, "bash", status, 3));
  // Once the answer settles, the third identical one in a row is.
  CHECK_FALSE(callAnswered(detector, "bash", status, 3));
  CHECK(callAnswered(detector, "bash", status, 3));
  CHECK(callAnswered(detector, "bash", status, 4)); // held, approved, and its answer changed
  CHECK_FALSE(callAnswered(detector, "bash", status, 4));
}

TEST_CASE("doom loop: another tool or another input starts counting again", "[doom_loop]") {
  DoomLoopDetector detector;
  const json input{{"pattern", "x"}};
  CHECK_FALSE(callAnswered(detector, "grep", input, 1));
  CHECK_FALSE(callAnswered(detector, "grep", input, 1));
  CHECK_FALSE(callAnswered(detector, "glob", input, 1));
  CHECK_FALSE(callAnswered(detector, "grep", input, 1));
  CHECK_FALSE(callAnswered(detector, "grep", input, 1));
  CHECK(callAnswered(detector, "grep", input, 1));
}

TEST_CASE("doom loop: calls still running are no evidence, a refused call is forgotten", "[doom_loop]") {
  DoomLoopDetector detector;
  const json input{{"q", 1}};
  auto first = detector.start("t", input);
  auto second = detector.start("t", input);
  CHECK_FALSE(detector.start("t", input).suspect); // neither has answered yet
  detector.answered(first.ticket, 5);
  detector.answered(second.ticket, 5);
  // The third (unanswered) sits between: the newest two are the third and nothing.
  auto fourth = detector.start("t", input);
  CHECK_FALSE(fourth.suspect);
  detector.answered(fourth.ticket, 5);

  DoomLoopDetector fresh;
  CHECK_FALSE(callAnswered(fresh, "t", input, 5));
  CHECK_FALSE(callAnswered(fresh, "t", input, 5));
  auto held = fresh.start("t", input);
  REQUIRE(held.suspect);
  fresh.forget(held.ticket); // refused: it never ran
  CHECK(fresh.start("t", input).suspect);
}

TEST_CASE("doom loop: the fingerprint of an answer is what the model was shown", "[doom_loop]") {
  const auto print = [](bool completed, const json& content, std::string_view error = "") {
    return DoomLoopDetector::fingerprint(completed, content, error);
  };
  const json content = json::array({json{{"type", "text"}, {"text", "1: alpha\n2: beta \"quoted\"\t\u00e9"}}});
  CHECK(print(true, content) == print(true, json::parse(content.dump())));
  CHECK(print(true, "a text") == print(true, json("a text")));

  // Anything the model would see differently is another answer.
  CHECK(print(true, content) != print(false, content));
  CHECK(print(false, content, "file not found") != print(false, content, "file not founds"));
  json changed = content;
  changed[0]["text"] = "1: alpha\n2: beta \"quoted\"\t\u00e8";
  CHECK(print(true, content) != print(true, changed));
  CHECK(print(true, json{{"n", 1}}) != print(true, json{{"n", 1.0}}));
  CHECK(print(true, json{{"n", 1}}) != print(true, json{{"n", "1"}}));
  CHECK(print(true, json::array({1, 2})) != print(true, json::array({2, 1})));
  // The same values at other levels, or split otherwise between keys and values.
  CHECK(print(true, json::array({json::array({1}), 2})) != print(true, json::array({1, json::array({2})})));
  CHECK(print(true, json{{"ab", "c"}}) != print(true, json{{"a", "bc"}}));
  CHECK(print(true, json::object()) != print(true, json::array()));
  CHECK(print(true, nullptr) != print(true, json::array()));
}
