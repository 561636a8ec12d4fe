#include "protocol/json_reader.h"

#include <catch2/catch.hpp>

#include <algorithm>
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

namespace {

// The texts the deferral tests read: random values, and the same with one to three bytes edited
// (most of which breaks them).
std::string editedText(std::mt19937& random, std::string text) {
  const std::string alphabet = "{}[]\":,\\ \n0123456789-+.eEtrufalsn\x01\x80\xc3\xa9u";
  for (int edits = std::uniform_int_distribution<int>(0, 3)(random); edits > 0 && !text.empty(); --edits) {
    const std::size_t at = std::uniform_int_distribution<std::size_t>(0, text.size() - 1)(random);
    const char c = alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(random)];
    switch (std::uniform_int_distribution<int>(0, 2)(random)) {
    case 0: text.erase(at, 1); break;
    case 1: text[at] = c; break;
    default: text.insert(at, 1, c);
    }
  }
  return text;
}

// The frame read with its params left as text for `method`, then the text read: what the server
// hands a method that reads its params as text, put back together.
std::optional<toold::protocol::JsonMembers> readDeferred(std::string_view frame, std::size_t maxDepth,
                                                         bool& deferred) {
  toold::protocol::DeferredParams defer{[](std::string_view method) { return method == "register"; }, {}};
  auto members = toold::protocol::parseObjectMembersFast(frame, maxDepth, &defer);
  deferred = !defer.text.empty();
  if (!members || defer.text.empty()) return members;
  for (auto& [key, value] : *members)
    if (key == "params") {
      REQUIRE(value == json::object());
      auto params = parseJsonFast(defer.text, maxDepth - 1);
      REQUIRE(params.has_value()); // checked as the parse checks: it reads
      value = std::move(*params);
    }
  return members;
}

} // namespace

TEST_CASE("deferred params are checked as they would be read: the same frames taken, the same values", "[protocol]") {
  std::mt19937 random(20261207);
  int deferredCount = 0;
  int refused = 0;
  for (int i = 0; i < 6000; ++i) {
    const std::string method = i % 4 == 0 ? "ping" : "register";
    // Half of them objects for sure, whose members are random.
    const std::string value = i % 2 == 0 ? R"({"a":)" + randomText(random, 2) + "}" : randomText(random, 1);
    const std::string params = editedText(random, value);
    const std::string frame = i % 7 == 0 ? R"({"params":)" + params + R"(,"method":")" + method + R"(","id":1})"
                                         : R"({"id":1,"method":")" + method + R"(","params":)" + params + "}";
    INFO(frame);
    const auto plain = toold::protocol::parseObjectMembersFast(frame, 512);
    bool deferred = false;
    const auto read = readDeferred(frame, 512, deferred);
    REQUIRE(plain.has_value() == read.has_value());
    if (!plain) {
      ++refused;
      continue;
    }
    CHECK(*plain == *read);
    // Only an object after the method asked for it is left as text.
    const auto member = std::find_if(plain->begin(), plain->end(), [](const auto& m) { return m.first == "params"; });
    const bool wanted = method == "register" && i % 7 != 0 && member != plain->end() && member->second.is_object();
    CHECK(deferred == wanted);
    if (deferred) ++deferredCount;
  }
  CHECK(deferredCount > 300);
  CHECK(refused > 1000);
}

TEST_CASE("deferred params: every split point of a frame is refused, and the depth is the parse's", "[protocol]") {
  const std::string frame =
      R"({"jsonrpc":"2.0","id":7,"method":"register","params":{"tools":{"a\u00e9\"":{"d":"x\\y\ud83d\ude00",)"
      R"("n":[1,-2.5e3,true,false,null,{}],"e":[]}},"scope":"s"}})";
  bool deferred = false;
  const auto whole = readDeferred(frame, 512, deferred);
  REQUIRE(whole.has_value());
  CHECK(deferred);
  CHECK(*whole == *toold::protocol::parseObjectMembersFast(frame, 512));
  for (std::size_t cut = 0; cut < frame.size(); ++cut) {
    INFO(cut);
    CHECK_FALSE(readDeferred(frame.substr(0, cut), 512, deferred).has_value());
    CHECK_FALSE(deferred); // nothing left behind by a refused frame
  }
  // params nested 3 deep ({"a":[{}]}) inside the frame's object: 4 levels.
  const std::string nested = R"({"method":"register","params":{"a":[{}]}})";
  CHECK(readDeferred(nested, 4, deferred).has_value());
  CHECK(deferred);
  CHECK_FALSE(readDeferred(nested, 3, deferred).has_value());
  CHECK_FALSE(toold::protocol::parseObjectMembersFast(nested, 3).has_value());
  // Beyond double range, as the parse refuses it.
  CHECK_FALSE(readDeferred(R"({"method":"register","params":{"n":1e999}})", 512, deferred).has_value());
  // A later "params" read as usual replaces the deferred one; a later "method" is the caller's to see.
  toold::protocol::DeferredParams defer{[](std::string_view method) { return method == "register"; }, {}};
  auto members = toold::protocol::parseObjectMembersFast(R"({"method":"register","params":{"a":1},"params":[2]})",
                                                         512, &defer);
  REQUIRE(members.has_value());
  CHECK(defer.text.empty());
  CHECK(members->back().second == json::array({2}));
  members = toold::protocol::parseObjectMembersFast(R"({"method":"register","params":{"a":1},"method":"ping"})", 512,
                                                    &defer);
  REQUIRE(members.has_value());
  CHECK(defer.text == R"({"a":1})");
}

TEST_CASE("forEachMemberText hands on each member's text as the object parse reads it", "[protocol]") {
  using toold::protocol::forEachMemberText;
  std::mt19937 random(11);
  int objects = 0;
  for (int i = 0; i < 4000; ++i) {
    const std::string made = i % 2 == 0 ? R"({"k":)" + randomText(random, 1) + R"(,"j" : )" + randomText(random, 1) + "}"
                                        : randomText(random, 0);
    const std::string text = editedText(random, made);
    INFO(text);
    const auto whole = parseJsonFast(text, 512);
    json rebuilt = json::object();
    const bool read = forEachMemberText(text, 512, [&](std::string&& key, std::string_view value) {
      auto parsed = parseJsonFast(value, 511);
      REQUIRE(parsed.has_value());
      rebuilt[key] = std::move(*parsed); // the last of duplicates, as the object keeps
    });
    REQUIRE(read == (whole && whole->is_object()));
    if (read) {
      ++objects;
      CHECK(same(rebuilt, *whole));
    }
  }
  CHECK(objects > 500);
  const std::string text = R"( {"a" : [1, {"b":"\u0041"}] , "c":"x"} )";
  std::vector<std::pair<std::string, std::string>> seen;
  CHECK(forEachMemberText(text, 512, [&](std::string&& key, std::string_view value) {
    seen.emplace_back(std::move(key), std::string(value));
  }));
  CHECK(seen == std::vector<std::pair<std::string, std::string>>{{"a", R"([1, {"b":"\u0041"}])"}, {"c", R"("x")"}});
  for (std::size_t cut = 0; cut < text.size() - 1; ++cut) {
    INFO(cut);
    CHECK_FALSE(forEachMemberText(text.substr(0, cut), 512, [](std::string&&, std::string_view) {}));
  }
  CHECK_FALSE(forEachMemberText(R"({"a":[[1]]})", 2, [](std::string&&, std::string_view) {}));
  CHECK(forEachMemberText(R"({"a":[[1]]})", 3, [](std::string&&, std::string_view) {}));
}
