#include "core/lsp/lsp_diagnostic.h"

#include <catch2/catch.hpp>

using toold::core::causedByChange;
using toold::core::changedLines;
using toold::core::LineChange;
using toold::core::LspDiagnostic;
using toold::core::parseLspDiagnostic;

namespace {

LspDiagnostic error(int line, std::string message) {
  LspDiagnostic d;
  d.line = line;
  d.endLine = line;
  d.message = std::move(message);
  return d;
}

} // namespace

TEST_CASE("parseLspDiagnostic reads a diagnostic and refuses one without a range or a message", "[lsp]") {
  auto d = parseLspDiagnostic(nlohmann::json::parse(
      R"({"range": {"start": {"line": 3, "character": 4}, "end": {"line": 3, "character": 9}}, "severity": 2,
          "message": "unused", "source": "clang", "code": 42})"));
  REQUIRE(d);
  CHECK(d->line == 3);
  CHECK(d->character == 4);
  CHECK(d->endCharacter == 9);
  CHECK(d->severity == 2);
  CHECK(d->code == "42");
  CHECK(toold::core::formatDiagnosticLine(*d) == "WARN [4:5] unused");
  CHECK_FALSE(parseLspDiagnostic(nlohmann::json::parse(R"({"message": "x"})")));
  CHECK_FALSE(parseLspDiagnostic(nlohmann::json::parse(R"({"range": {"start": {"line": 1}}})")));
  CHECK_FALSE(parseLspDiagnostic(nlohmann::json::parse("[1]")));
  // A severity out of range, or negative positions, are taken as an error at 0.
  auto odd = parseLspDiagnostic(nlohmann::json::parse(
      R"({"range": {"start": {"line": -5, "character": "x"}}, "severity": 9, "message": "m"})"));
  REQUIRE(odd);
  CHECK(odd->severity == 1);
  CHECK(odd->line == 0);
  CHECK(odd->character == 0);
}

TEST_CASE("parseLspDiagnostic cuts a giant message at a UTF-8 boundary", "[lsp]") {
  std::string message(1999, 'a');
  message += "\xC3\xA9\xC3\xA9";
  nlohmann::json value{{"range", {{"start", {{"line", 0}, {"character", 0}}}}}, {"message", message}};
  auto d = parseLspDiagnostic(value);
  REQUIRE(d);
  CHECK(d->message.size() < 2010);
  CHECK(d->message.substr(0, 1999) == std::string(1999, 'a'));
  CHECK(nlohmann::json(d->message).dump().size() > 0); // valid UTF-8: dump would throw otherwise
}

TEST_CASE("changedLines finds the one region between the common head and tail", "[lsp]") {
  CHECK(changedLines("a\nb\nc\n", "a\nb\nc\n").empty());
  auto inserted = changedLines("a\nb\nc\n", "a\nx\ny\nb\nc\n");
  REQUIRE(inserted.size() == 1);
  CHECK(inserted[0].oldStart == 1);
  CHECK(inserted[0].oldCount == 0);
  CHECK(inserted[0].newCount == 2);
  auto replaced = changedLines("a\nb\nc\n", "a\nB\nc\n");
  REQUIRE(replaced.size() == 1);
  CHECK(replaced[0].oldStart == 1);
  CHECK(replaced[0].oldCount == 1);
  CHECK(replaced[0].newCount == 1);
  auto fromNothing = changedLines("", "x\n");
  REQUIRE(fromNothing.size() == 1);
  CHECK(fromNothing[0].newCount == 1);
}

TEST_CASE("causedByChange tells the errors an edit caused from those it found", "[lsp]") {
  const std::vector<LineChange> twoAdded{{1, 0, 1, 2}};
  SECTION("an old error moved down by the lines added above it is old") {
    auto caused = causedByChange({error(5, "old")}, {error(3, "old")}, twoAdded);
    CHECK(caused == std::vector<bool>{false});
  }
  SECTION("a new message is new") {
    auto caused = causedByChange({error(1, "new"), error(5, "old")}, {error(3, "old")}, twoAdded);
    CHECK(caused == std::vector<bool>{true, false});
  }
  SECTION("two copies where there was one: one of them is new, the one not on the moved line") {
    auto caused = causedByChange({error(2, "too many arguments"), error(5, "too many arguments")},
                                 {error(3, "too many arguments")}, twoAdded);
    CHECK(caused == std::vector<bool>{true, false});
  }
  SECTION("an error that moved further than the line shift (code reordered) is still old") {
    auto caused = causedByChange({error(40, "old")}, {error(3, "old")}, twoAdded);
    CHECK(caused == std::vector<bool>{false});
  }
  SECTION("a fixed error leaves nothing; nothing known before means every error is new") {
    CHECK(causedByChange({}, {error(3, "old")}, twoAdded).empty());
    CHECK(causedByChange({error(3, "old")}, {}, {}) == std::vector<bool>{true});
  }
  SECTION("severity and code are part of the identity") {
    LspDiagnostic warning = error(3, "old");
    warning.severity = 2;
    CHECK(causedByChange({error(3, "old")}, {warning}, {}) == std::vector<bool>{true});
  }
}
