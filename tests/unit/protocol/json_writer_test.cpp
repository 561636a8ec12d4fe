#include "protocol/json_writer.h"

#include <catch2/catch.hpp>

#include <random>

using nlohmann::json;
using toold::protocol::jsonSize;
using toold::protocol::writeJson;

namespace {

std::string nlohmannDump(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

// Strings that stress the escaping: every control byte, quotes, DEL, and UTF-8 both well-formed
// (2-4 bytes, the edges of each range) and ill-formed (lone continuations, overlongs, surrogates,
// past U+10FFFF, cut short mid-sequence, at the end or before ASCII).
std::string randomBytes(std::mt19937& random) {
  static const std::vector<std::string> pieces = {
      "a", "plain text ", "\"", "\\", "\x7f", "/", "\n", "\r", "\t", "\b", "\f", std::string(1, '\0'), "\x01", "\x1f",
      "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xef\xbf\xbf",
      "\xf4\x8f\xbf\xbf", "\xed\x9f\xbf", "\xee\x80\x80", "\x80", "\xbf", "\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf",
      "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf5\x80", "\xff", "\xfe", "\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xf0\x9f"};
  std::string text;
  const int count = std::uniform_int_distribution<int>(0, 12)(random);
  for (int i = 0; i < count; ++i) text += pieces[std::uniform_int_distribution<std::size_t>(0, pieces.size() - 1)(random)];
  return text;
}

json randomValue(std::mt19937& random, int depth) {
  switch (std::uniform_int_distribution<int>(0, depth > 3 ? 5 : 8)(random)) {
  case 0: return nullptr;
  case 1: return std::uniform_int_distribution<int>(0, 1)(random) == 1;
  case 2: return std::uniform_int_distribution<std::int64_t>(INT64_MIN, INT64_MAX)(random);
  case 3: return std::uniform_int_distribution<std::uint64_t>(0, UINT64_MAX)(random);
  case 4: return std::uniform_real_distribution<double>(-1e6, 1e6)(random);
  case 5: return randomBytes(random);
  case 6: {
    json array = json::array();
    for (int i = std::uniform_int_distribution<int>(0, 4)(random); i > 0; --i) array.push_back(randomValue(random, depth + 1));
    return array;
  }
  default: {
    json object = json::object();
    for (int i = std::uniform_int_distribution<int>(0, 4)(random); i > 0; --i)
      object[randomBytes(random)] = randomValue(random, depth + 1);
    return object;
  }
  }
}

} // namespace

TEST_CASE("writeJson writes what nlohmann's dump writes, byte for byte", "[protocol]") {
  std::mt19937 random(20261201);
  for (int i = 0; i < 20000; ++i) {
    const json value = randomValue(random, 0);
    const std::string expected = nlohmannDump(value);
    const std::string written = writeJson(value);
    if (written != expected) FAIL("differs for " << json(expected).dump() << " written as " << json(written).dump());
    if (jsonSize(value) != written.size()) FAIL("measured " << jsonSize(value) << " bytes for " << json(expected).dump());
  }
}

TEST_CASE("jsonSize with a limit: exact at or below it, over it once the text is", "[protocol]") {
  std::mt19937 random(20261207);
  for (int i = 0; i < 5000; ++i) {
    const json value = randomValue(random, 0);
    const std::size_t size = writeJson(value).size();
    for (const std::size_t limit : {std::size_t{0}, size / 2, size - 1, size, size + 1, 10 * size}) {
      const std::size_t measured = jsonSize(value, limit);
      if (size <= limit) CHECK(measured == size);
      else CHECK(measured > limit);
    }
  }
}

TEST_CASE("writeJson on the cases worth naming", "[protocol]") {
  CHECK(writeJson(json::parse(R"({"b":[1,-2,3.5,true,null],"a":"x"})")) == R"({"a":"x","b":[1,-2,3.5,true,null]})");
  CHECK(writeJson(json("tab\there \"quoted\" back\\slash \x01")) == R"("tab\there \"quoted\" back\\slash \u0001")");
  CHECK(writeJson(json("caf\xc3\xa9")) == "\"caf\xc3\xa9\"");
  CHECK(writeJson(json("cut \xe2\x82")) == "\"cut \xef\xbf\xbd\"");
  CHECK(writeJson(json("\xed\xa0\x80")) == "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""); // a surrogate: three subparts
  CHECK(writeJson(json("\xc3(")) == "\"\xef\xbf\xbd(\"");
  CHECK(writeJson(json::object()) == "{}");
  CHECK(writeJson(json::array()) == "[]");
  CHECK(writeJson(json(std::nan(""))) == "null");
  CHECK(writeJson(json(1e300)) == nlohmannDump(json(1e300)));
}

TEST_CASE("writeJson on long strings: a special byte at every offset of the blocks, and escapes that outgrow the room",
          "[protocol]") {
  const std::vector<std::string> specials = {"\"", "\\", "\n", std::string(1, '\0'), "\x1f", "\x7f", "\xc3\xa9",
                                             "\xe2\x82\xac", "\xe2\x82", "\xff"};
  for (std::size_t length = 1; length <= 70; ++length)
    for (std::size_t position = 0; position < length; ++position)
      for (const auto& special : specials) {
        std::string text(length, 'x');
        text.replace(position, 1, special);
        const json value{{"key", text}, {"list", {text, 1}}};
        if (writeJson(value) != nlohmannDump(value)) FAIL("differs for " << json(nlohmannDump(value)).dump());
        if (jsonSize(value) != nlohmannDump(value).size()) FAIL("measured wrong for " << json(nlohmannDump(value)).dump());
      }
  // Every byte an escape: the output is two to six times the text, far past the room first made.
  for (const std::string& unit : {std::string("\n"), std::string("\x01"), std::string("\"x"), std::string("\xc3")}) {
    std::string text;
    for (int i = 0; i < 3000; ++i) text += unit;
    CHECK(writeJson(json(text)) == nlohmannDump(json(text)));
    CHECK(jsonSize(json(text)) == nlohmannDump(json(text)).size());
  }
}

TEST_CASE("writeJson on runs of bytes to escape: every such byte, runs of every length at every offset", "[protocol]") {
  std::string escaped; // every byte JSON escapes: the controls, the quote, the backslash
  for (int c = 0; c < 0x20; ++c) escaped += static_cast<char>(c);
  escaped += "\"\\";
  for (std::size_t length = 1; length <= 40; ++length)
    for (std::size_t offset = 0; offset <= 20; offset += 5)
      for (std::size_t first = 0; first < escaped.size(); first += 7) {
        std::string run;
        for (std::size_t i = 0; i < length; ++i) run += escaped[(first + i) % escaped.size()];
        const std::string text = std::string(offset, 'a') + run + "tail \xc3\xa9" + run;
        if (writeJson(json(text)) != nlohmannDump(json(text))) FAIL("differs for " << json(nlohmannDump(json(text))).dump());
      }
}

TEST_CASE("appendJsonStrings writes the array nlohmann writes for the same strings", "[protocol]") {
  for (const std::vector<std::string>& strings :
       {std::vector<std::string>{}, std::vector<std::string>{""}, std::vector<std::string>{"one"},
        std::vector<std::string>{"a \"quoted\" notice", "tab\there", "\xc3\xa9\xff"}}) {
    std::string out = "x";
    toold::protocol::appendJsonStrings(out, strings);
    CHECK(out == "x" + nlohmannDump(json(strings)));
  }
}
