#include "core/permission/doom_loop.h"

#include <catch2/catch.hpp>

using toold::core::DoomLoopDetector;
using json = nlohmann::json;

TEST_CASE("doom loop: the third consecutive identical call trips it, and every one after", "[doom_loop]") {
  DoomLoopDetector detector;
  const json input{{"filePath", "a.txt"}, {"offset", 1}};
  CHECK_FALSE(detector.record("read", input));
  CHECK_FALSE(detector.record("read", json{{"offset", 1}, {"filePath", "a.txt"}})); // key order is not identity
  CHECK(detector.record("read", input));
  CHECK(detector.record("read", input));
}

TEST_CASE("doom loop: another tool or another input starts counting again", "[doom_loop]") {
  DoomLoopDetector detector;
  const json input{{"pattern", "x"}};
  CHECK_FALSE(detector.record("grep", input));
  CHECK_FALSE(detector.record("grep", input));
  CHECK_FALSE(detector.record("glob", input));
  CHECK_FALSE(detector.record("grep", input));
  CHECK_FALSE(detector.record("grep", input));
  CHECK_FALSE(detector.record("grep", json{{"pattern", "y"}}));
  CHECK_FALSE(detector.record("grep", json{{"pattern", "y"}}));
  CHECK(detector.record("grep", json{{"pattern", "y"}}));
}
