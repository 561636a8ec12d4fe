#include "core/process/stderr_tail.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using toold::core::StderrTail;

TEST_CASE("StderrTail hands on lines split anywhere, and cuts long ones", "[process]") {
  StderrTail stderrTail(64, 8);
  std::vector<std::string> lines;
  auto collect = [&](std::string_view line) { lines.emplace_back(line); };
  stderrTail.feed("fir", collect);
  stderrTail.feed("st\nsecond line is long\nth", collect);
  CHECK(lines == std::vector<std::string>{"first", "second l"});
  stderrTail.flush(collect);
  CHECK(lines.back() == "th");
  stderrTail.flush(collect); // nothing left: nothing handed on
  CHECK(lines.size() == 3);
}

TEST_CASE("StderrTail keeps the end, and its last lines", "[process]") {
  StderrTail stderrTail(16);
  auto ignore = [](std::string_view) {};
  stderrTail.feed("one\ntwo\nthree\nfour\n\n", ignore);
  CHECK(stderrTail.tail() == "two\nthree\nfour");
  CHECK(stderrTail.tail(2) == "three\nfour");
  CHECK(stderrTail.tail(1) == "four");
  CHECK(stderrTail.tail(10) == "two\nthree\nfour");
  std::string many;
  for (int i = 0; i < 100; ++i) many += "line " + std::to_string(i) + "\n";
  stderrTail.feed(many, ignore);
  CHECK(stderrTail.tail(1) == "line 99");
  CHECK(stderrTail.tail().size() <= 16);
}
