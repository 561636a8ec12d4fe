#include "core/files/tab_fields.h"

#include <catch2/catch.hpp>

using namespace toold::core;

TEST_CASE("tab fields: any bytes are one field and come back the same") {
  const std::string odd = std::string("a\tb\nc%25d%") + '\0' + "\xff end";
  const std::string line = escapeField(odd) + "\t" + escapeField("") + "\t" + escapeField("plain");
  CHECK(line.find('\n') == std::string::npos);
  const auto fields = splitTabFields(line);
  REQUIRE(fields.size() == 3);
  CHECK(unescapeField(fields[0]) == odd);
  CHECK(unescapeField(fields[1]) == std::string());
  CHECK(unescapeField(fields[2]) == std::string("plain"));
}

TEST_CASE("tab fields: an unknown or cut escape is refused") {
  CHECK_FALSE(unescapeField("%41").has_value());
  CHECK_FALSE(unescapeField("abc%2").has_value());
  CHECK_FALSE(unescapeField("%").has_value());
  CHECK(splitTabFields("") == std::vector<std::string_view>{""});
  CHECK(splitTabFields("a\t") == std::vector<std::string_view>{"a", ""});
}
