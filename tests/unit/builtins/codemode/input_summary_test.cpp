// What progress shows of an inner call's input: small ones whole, large ones by a bounded stand-in.
#include "builtins/codemode/input_summary.h"

#include <catch2/catch.hpp>

using namespace toold::codemode;
using json = nlohmann::json;

TEST_CASE("input summary: a small input is shown whole", "[codemode]") {
  const json small = {{"path", "a.txt"}, {"lines", {1, 2, 3}}, {"deep", {{"x", {{"y", true}}}}}};
  CHECK(inputSummary(small) == small);
  CHECK(jsonSizeUpTo(small, 10000) >= small.dump().size() - 8);
}

TEST_CASE("input summary: a large input keeps its shape within about a kilobyte", "[codemode]") {
  json big = {{"content", std::string(5000, 'a') + "é"}, {"items", json::array()}, {"more", json::object()}};
  for (int i = 0; i < 1000; ++i) big["items"].push_back(i);
  for (int i = 0; i < 100; ++i) big["more"]["k" + std::to_string(i)] = i;
  const json shown = inputSummary(big);
  CHECK(shown["content"] == std::string(120, 'a') + "… (5002 bytes)");
  CHECK(shown["items"].size() == 9);
  CHECK(shown["items"].back() == "… (992 more items)");
  CHECK(shown["more"].size() == 17);
  CHECK(shown["more"]["…"] == "84 more keys");
  CHECK(shown.dump().size() < 2 * kInputShownBytes);

  json deep = std::string(2000, 'z');
  for (int i = 0; i < 20; ++i) deep = json::array({deep});
  CHECK(inputSummary(deep).dump().find("\"…\"") != std::string::npos); // past depth 6
  CHECK(jsonSizeUpTo(json(std::string(1u << 20, 'q')), 100) > 100);
}
