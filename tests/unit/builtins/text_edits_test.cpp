#include "builtins/edit/text_edits.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using toold::builtins::AppliedEdits;
using toold::builtins::applyTextEdits;
using toold::builtins::TextEdit;

TEST_CASE("text edits: no edit may leave more than the limit, counted in the bytes written", "[edit]") {
  constexpr std::size_t limit = 1000;
  // 200 "x" on LF lines (400 bytes), each replaced by "y\nzzz": 1,200 bytes, over the limit.
  std::string lf;
  for (int i = 0; i < 200; ++i) lf += "x\n";
  const auto grown = applyTextEdits(lf, {TextEdit{"x", "y\nzzz", true}}, "/w/a.txt", limit);
  REQUIRE(std::holds_alternative<std::string>(grown));
  CHECK(std::get<std::string>(grown).rfind("The edit would make /w/a.txt larger than 1000 bytes (at least 1001 bytes), "
                                           "the limit for an edit's result; nothing was changed.",
                                           0) == 0);

  // In CRLF, "x" replaced by "y\nz" on 200 lines is 800 bytes as LF text but 1,200 as written.
  std::string crlf;
  for (int i = 0; i < 200; ++i) crlf += "x\r\n";
  const auto small = applyTextEdits(crlf.substr(0, 3 * 100), {TextEdit{"x", "y\nz", true}}, "/w/b.txt", limit);
  REQUIRE(std::holds_alternative<AppliedEdits>(small));
  CHECK(std::get<AppliedEdits>(small).bytes.size() == 100 * 6);
  const auto raw = applyTextEdits(crlf, {TextEdit{"x", "y\nz", true}}, "/w/b.txt", limit);
  REQUIRE(std::holds_alternative<std::string>(raw));
  CHECK(std::get<std::string>(raw).find("(at least 1200 bytes)") != std::string::npos);

  // Several edits: the one that passes the limit is named, and none is applied.
  const auto second = applyTextEdits(lf, {TextEdit{"x", "w", true}, TextEdit{"w", "vvvvv", true}}, "/w/a.txt", limit);
  REQUIRE(std::holds_alternative<std::string>(second));
  CHECK(std::get<std::string>(second).rfind("Edit 2 of 2: The edit would make /w/a.txt larger than", 0) == 0);
  CHECK(std::get<std::string>(second).find("No edit was applied.") != std::string::npos);
}
