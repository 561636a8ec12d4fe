#include "protocol/json_reader.h"

#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <utility>

using nlohmann::json;
using toold::protocol::parseJsonFast;

namespace {

// nlohmann's own parse, or nothing where it refuses.
std::optional<json> nlohmannParse(std::string_view text) {
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

// Equal as JSON and of the same types throughout (1 and 1.0 compare equal in nlohmann).
bool same(const json& a, const json& b) { return a == b && a.dump() == b.dump(); }

std::string randomString(std::mt19937& random) {
  static const std::vector<std::string> pieces = {"a", "key", " ", "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\u0041",
                                                  "\\u00e9", "\\ud83d\\ude00", "\xc3\xa9", "\xe2\x82\xac",
                                                  "\xf0\x9f\x98\x80", "{", "]", ",", ":"};
  std::string text = "\"";
  for (int i = std::uniform_int_distribution<int>(0, 6)(random); i > 0; --i)
    text += pieces[std::uniform_int_distribution<std::size_t>(0, pieces.size() - 1)(random)];
  return text + "\"";
}

std::string randomNumber(std::mt19937& random) {
  static const std::vector<std::string> numbers = {
      "0", "-0", "1", "-1", "42", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
      "18446744073709551615", "18446744073709551616", "-9223372036854775809", "1.5", "-0.0", "1e10", "1E-7",
      "2.5e+3", "0.1", "123456789012345678901234567890", "1e308", "4.9e-324"};
  return numbers[std::uniform_int_distribution<std::size_t>(0, numbers.size() - 1)(random)];
}

std::string randomText(std::mt19937& random, int depth) {
  const auto space = [&random] {
    static const char* spaces[] = {"", "", " ", "\n", "\t ", "\r\n"};
    return std::string(spaces[std::uniform_int_distribution<int>(0, 5)(random)]);
  };
  switch (std::uniform_int_distribution<int>(0, depth > 4 ? 3 : 5)(random)) {
  case 0: return randomNumber(random);
  case 1: return randomString(random);
  case 2: return std::vector<std::string>{"true", "false", "null"}[std::uniform_int_distribution<int>(0, 2)(random)];
  case 3: return randomNumber(random);
  case 4: {
    std::string text = "[" + space();
    for (int i = std::uniform_int_distribution<int>(0, 4)(random); i > 0; --i)
      text += randomText(random, depth + 1) + space() + (i > 1 ? "," : "") + space();
    return text + "]";
  }
  default: {
    std::string text = "{" + space();
    for (int i = std::uniform_int_distribution<int>(0, 4)(random); i > 0; --i)
      text += randomString(random) + space() + ":" + space() + randomText(random, depth + 1) + (i > 1 ? "," : "") + space();
    return text + "}";
  }
  }
}

} // namespace

TEST_CASE("parseJsonFast reads valid JSON as nlohmann does, types included", "[protocol]") {
  std::mt19937 random(1201);
  for (int i = 0; i < 20000; ++i) {
    const std::string text = randomText(random, 0);
    const auto expected = nlohmannParse(text);
    const auto fast = parseJsonFast(text, 512);
    INFO(text);
    REQUIRE(expected); // the generator writes valid JSON only
    REQUIRE(fast);
    REQUIRE(same(*fast, *expected));
  }
}

TEST_CASE("parseJsonFast never takes what nlohmann refuses, nor reads it differently", "[protocol]") {
  std::mt19937 random(20261201);
  const std::string alphabet = "{}[]\":,\\ \n0123456789-+.eEtrufalsn\x01\x80\xc3\xa9u";
  int refused = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text = randomText(random, 0);
    // One to three edits: a byte deleted, replaced or inserted.
    for (int edits = std::uniform_int_distribution<int>(1, 3)(random); edits > 0 && !text.empty(); --edits) {
      const std::size_t at = std::uniform_int_distribution<std::size_t>(0, text.size() - 1)(random);
      const char c = alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(random)];
      switch (std::uniform_int_distribution<int>(0, 2)(random)) {
      case 0: text.erase(at, 1); break;
      case 1: text[at] = c; break;
      default: text.insert(at, 1, c);
      }
    }
    const auto expected = nlohmannParse(text);
    const auto fast = parseJsonFast(text, 512);
    INFO(text);
    if (!expected) {
      ++refused;
      CHECK_FALSE(fast);
    } else if (fast) {
      CHECK(same(*fast, *expected));
    }
  }
  CHECK(refused > 5000); // the edits do break most texts
}

TEST_CASE("parseJsonFast gives up where nlohmann's words are wanted", "[protocol]") {
  CHECK_FALSE(parseJsonFast("\xEF\xBB\xBF{}", 512));          // a byte-order mark nlohmann skips
  CHECK_FALSE(parseJsonFast("1e999", 512));                   // beyond double range
  CHECK_FALSE(parseJsonFast(std::string("1\0", 2), 512));     // a NUL after the value
  CHECK_FALSE(parseJsonFast("[[[]]]", 2));                    // deeper than the limit
  CHECK(parseJsonFast("[[]]", 2));
  CHECK_FALSE(parseJsonFast("\"\\ud800\"", 512));             // a lone surrogate
  CHECK_FALSE(parseJsonFast("\"\xed\xa0\x80\"", 512));        // a surrogate in UTF-8
  CHECK_FALSE(parseJsonFast("", 512));
  CHECK_FALSE(parseJsonFast("01", 512));
  CHECK((*parseJsonFast(R"({"a":1,"a":2})", 512))["a"] == 2); // the last duplicate, as nlohmann
  CHECK(parseJsonFast("18446744073709551615", 512)->is_number_unsigned());
  CHECK(parseJsonFast("-5", 512)->is_number_integer());
  CHECK(parseJsonFast("18446744073709551616", 512)->is_number_float());
}

TEST_CASE("parseJsonFast reads long strings as nlohmann does, whatever falls where in a 16-byte step", "[protocol]") {
  // The plain runs of a string are scanned sixteen bytes at a time: each kind of byte that ends a
  // run, at every offset across three steps, in strings long enough to take the fast path.
  const std::vector<std::string> specials = {"\\n", "\\\"", "\\\\", "\\u00e9", "\\ud83d\\ude00", "\xc3\xa9",
                                             "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\x7f", "~", " ",
                                             // refused: a raw control byte, a stray continuation
                                             // byte, a sequence cut short, a raw newline
                                             "\x01", "\x80", "\xc3", "\n"};
  for (const auto& special : specials)
    for (std::size_t before = 0; before < 48; ++before)
      for (const std::size_t after : {0, 1, 15, 16, 17, 40}) {
        const std::string text = "[\"" + std::string(before, 'a') + special + std::string(after, 'b') + "\"]";
        const auto expected = nlohmannParse(text);
        const auto fast = parseJsonFast(text, 512);
        INFO(text);
        REQUIRE(expected.has_value() == fast.has_value());
        if (expected) CHECK(same(*fast, *expected));
      }
}

TEST_CASE("parseObjectMembersFast reads an object's members as parseJsonFast reads the object", "[protocol]") {
  using toold::protocol::parseObjectMembersFast;
  auto asObject = [](const toold::protocol::JsonMembers& members) {
    json object = json::object();
    for (const auto& [key, value] : members) object[key] = value;
    return object;
  };
  std::mt19937 random(7);
  int objects = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string text = (i % 3 == 0 ? " " : "") + randomText(random, 0) + (i % 5 == 0 ? "\n" : "");
    INFO(text);
    const auto whole = parseJsonFast(text, 512);
    const auto members = parseObjectMembersFast(text, 512);
    if (whole && whole->is_object()) {
      ++objects;
      REQUIRE(members.has_value());
      CHECK(same(asObject(*members), *whole));
      CHECK(members->size() == whole->size()); // duplicates replaced in place, not repeated
    } else {
      CHECK_FALSE(members.has_value());
    }
  }
  CHECK(objects > 300);
  // The last of duplicate keys, in the place of the first; nesting counts the object itself.
  const auto duplicates = parseObjectMembersFast(R"({"a":1,"b":2,"a":3})", 512);
  REQUIRE(duplicates.has_value());
  REQUIRE(duplicates->size() == 2);
  CHECK((*duplicates)[0] == std::pair<std::string, json>{"a", 3});
  CHECK(parseObjectMembersFast(R"({"a":{"b":[]}})", 3).has_value());
  CHECK_FALSE(parseObjectMembersFast(R"({"a":{"b":[]}})", 2).has_value());
  CHECK_FALSE(parseObjectMembersFast(R"({"a":1} x)", 512).has_value());
  CHECK_FALSE(parseObjectMembersFast(R"([{"a":1}])", 512).has_value());
  CHECK_FALSE(parseObjectMembersFast("\xEF\xBB\xBF{}", 512).has_value());
}

TEST_CASE("parseObjectMembersFast leaves an object of many members to the object parse", "[protocol]") {
  using toold::protocol::parseObjectMembersFast;
  // Each member is compared with those before it: 100,000 of them would take billions of steps.
  auto objectOf = [](int members) {
    std::string text = "{";
    for (int i = 0; i < members; ++i) text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
    return text + "}";
  };
  CHECK(parseObjectMembersFast(objectOf(16), 512).has_value());
  CHECK_FALSE(parseObjectMembersFast(objectOf(17), 512).has_value());
  const std::string large = objectOf(100'000);
  CHECK_FALSE(parseObjectMembersFast(large, 512).has_value());
  const auto whole = parseJsonFast(large, 512);
  REQUIRE(whole.has_value());
  CHECK(whole->size() == 100'000);
}
