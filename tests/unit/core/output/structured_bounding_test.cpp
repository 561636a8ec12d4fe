// Bounding a structured output: a value within the budget is left alone (not even copied); over it, the long strings
// are cut to one width with the note between head and tail, the rest of the value kept, the whole
// JSON text within the budget; a value whose frame alone is over the budget says it cannot fit.
#include "core/output/structured_bounding.h"

#include <catch2/catch.hpp>

#include <string>

using toold::core::boundStructure;
using toold::core::BoundingLimits;
using toold::core::json;
using toold::core::structureCutMarker;

namespace {

std::string lines(int count, const std::string& word) {
  std::string text;
  for (int i = 1; i <= count; ++i) text += word + " line " + std::to_string(i) + " long enough to look like code\n";
  return text;
}

std::size_t jsonBytes(const json& value) { return value.dump().size(); }

} // namespace

TEST_CASE("a structured value within the budget is left whole", "[structured_bounding]") {
  const json value{{"content", lines(3, "a")}, {"count", 3}};
  const auto bounded = boundStructure(value, BoundingLimits{250, 10000}, "NOTE");
  CHECK_FALSE(bounded.cut);
  CHECK(bounded.fits);
  CHECK(bounded.value.is_null()); // nothing copied
}

TEST_CASE("a long string is cut to a head and a tail around the note, the rest kept", "[structured_bounding]") {
  const std::string text = lines(300, "a");
  const json value{{"content", text}, {"count", 300}, {"name", "short"}};
  const std::string note = structureCutMarker("/data/tool-output/tool_1");
  const auto bounded = boundStructure(value, BoundingLimits{250, 10000}, note);
  REQUIRE(bounded.cut);
  REQUIRE(bounded.fits);
  CHECK(jsonBytes(bounded.value) <= 10000);
  CHECK(bounded.value["count"] == 300);
  CHECK(bounded.value["name"] == "short");
  const auto& cut = bounded.value["content"].get_ref<const std::string&>();
  CHECK(cut.starts_with("a line 1 long"));
  CHECK(cut.find("\n\n" + note + "\n\n") != std::string::npos);
  CHECK(cut.ends_with("a line 300 long enough to look like code"));
  // The width is the widest that fits: most of the budget is used.
  CHECK(jsonBytes(bounded.value) > 9000);
}

TEST_CASE("several long strings share the room, short ones and escapes counted", "[structured_bounding]") {
  json value{{"a", lines(200, "a")}, {"b", lines(200, "b\"q\"")}, {"items", json::array({"x", "y", lines(2, "c")})}};
  const auto bounded = boundStructure(value, BoundingLimits{2000, 4000}, structureCutMarker(""));
  REQUIRE(bounded.fits);
  CHECK(jsonBytes(bounded.value) <= 4000);
  CHECK(bounded.value["items"][0] == "x");
  CHECK(bounded.value["items"][2] == lines(2, "c"));
  CHECK(bounded.value["a"].get<std::string>().find("... cut to fit the output budget ...") != std::string::npos);
  CHECK(bounded.value["b"].get<std::string>().find("... cut to fit the output budget ...") != std::string::npos);
}

TEST_CASE("a value whose keys and numbers alone are over the budget cannot fit", "[structured_bounding]") {
  json value = json::object();
  for (int i = 0; i < 2000; ++i) value["key" + std::to_string(i)] = i;
  const auto bounded = boundStructure(value, BoundingLimits{250, 10000}, "NOTE");
  CHECK_FALSE(bounded.fits);
  CHECK_FALSE(bounded.cut);
}

TEST_CASE("a cut string never breaks a UTF-8 character", "[structured_bounding]") {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "é€";
  const auto bounded = boundStructure(json{{"t", text}}, BoundingLimits{250, 1000}, "NOTE");
  REQUIRE(bounded.fits);
  // dump() throws on invalid UTF-8 with the strict handler.
  CHECK_NOTHROW(bounded.value.dump());
}
