#include "protocol/json_reader.h"

#include "protocol/json_string_scan.h"
#include "protocol/utf8_sequence.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace toold::protocol {
namespace {

using json = nlohmann::json;

// Thrown to leave the parse at the first thing it does not take; caught once, at the top.
struct GiveUp {};

// The most members parseObjectMembersFast reads (an envelope has four, five with a stray one).
constexpr std::size_t kMaxTopMembers = 16;

class FastReader {
public:
  FastReader(std::string_view text, std::size_t maxDepth)
      : at_(text.data()), end_(text.data() + text.size()), maxDepth_(maxDepth) {}

  json document() {
    skipSpace();
    json value = readValue(0);
    skipSpace();
    if (at_ != end_) throw GiveUp{};
    return value;
  }

  /// The text as one object, its members read one by one into `members` (the object itself is
  /// not built): a later duplicate replaces the earlier one, as in readObject.
  void topMembers(JsonMembers& members, DeferredParams* deferred) {
    skipSpace();
    if (peek() != '{' || maxDepth_ < 1) throw GiveUp{};
    readMembers([&](std::string&& key) {
      // Each key is looked for among those before it: past a JSON-RPC envelope's few members
      // that would grow with the square of their number, so a frame with more takes the long
      // way, whose object finds a key in logarithmic time.
      if (members.size() == kMaxTopMembers) throw GiveUp{};
      json value;
      if (key == "params" && deferred != nullptr) {
        deferred->text = {};
        if (peek() == '{' && deferred->wanted && deferred->wanted(methodAmong(members))) {
          const char* start = at_;
          skipValue(1);
          deferred->text = std::string_view(start, static_cast<std::size_t>(at_ - start));
          value = json(json::value_t::object);
        } else {
          value = readValue(1);
        }
      } else {
        value = readValue(1);
      }
      auto same = std::find_if(members.begin(), members.end(), [&](const auto& member) { return member.first == key; });
      if (same != members.end()) same->second = std::move(value);
      else members.emplace_back(std::move(key), std::move(value));
    });
    skipSpace();
    if (at_ != end_) throw GiveUp{};
  }

  /// The text as one object, each member's key and value text handed to `each` in order (the
  /// value checked as readValue would read it, nested below the object, but not built).
  void memberTexts(const std::function<void(std::string&& key, std::string_view value)>& each) {
    skipSpace();
    if (peek() != '{' || maxDepth_ < 1) throw GiveUp{};
    readMembers([&](std::string&& key) {
      const char* start = at_;
      skipValue(1);
      each(std::move(key), std::string_view(start, static_cast<std::size_t>(at_ - start)));
    });
    skipSpace();
    if (at_ != end_) throw GiveUp{};
  }

private:
  // The method read so far, when it is a string; empty otherwise (no method has an empty name).
  static std::string_view methodAmong(const JsonMembers& members) {
    for (const auto& [key, value] : members)
      if (key == "method" && value.is_string()) return value.get_ref<const std::string&>();
    return {};
  }

  // Checks the value that starts at `at_` exactly as readValue would read it (readValue would give
  // up on the same texts) and moves past it, building nothing.
  void skipValue(std::size_t depth) {
    switch (peek()) {
    case '{': {
      if (depth + 1 > maxDepth_) throw GiveUp{};
      ++at_;
      skipSpace();
      if (peek() == '}') {
        ++at_;
        return;
      }
      for (;;) {
        skipSpace();
        if (peek() != '"') throw GiveUp{};
        scanString(nullptr);
        skipSpace();
        if (peek() != ':') throw GiveUp{};
        ++at_;
        skipSpace();
        skipValue(depth + 1);
        skipSpace();
        const char next = peek();
        ++at_;
        if (next == '}') return;
        if (next != ',') throw GiveUp{};
      }
    }
    case '[': {
      if (depth + 1 > maxDepth_) throw GiveUp{};
      ++at_;
      skipSpace();
      if (peek() == ']') {
        ++at_;
        return;
      }
      for (;;) {
        skipSpace();
        skipValue(depth + 1);
        skipSpace();
        const char next = peek();
        ++at_;
        if (next == ']') return;
        if (next != ',') throw GiveUp{};
      }
    }
    case '"': scanString(nullptr); return;
    case 't': expectWord("true"); return;
    case 'f': expectWord("false"); return;
    case 'n': expectWord("null"); return;
    default: readNumber(); return;
    }
  }

  void skipSpace() {
    while (at_ < end_ && (*at_ == ' ' || *at_ == '\n' || *at_ == '\r' || *at_ == '\t')) ++at_;
  }

  char peek() const {
    if (at_ == end_) throw GiveUp{};
    return *at_;
  }

  void expectWord(std::string_view word) {
    if (static_cast<std::size_t>(end_ - at_) < word.size() || std::string_view(at_, word.size()) != word) throw GiveUp{};
    at_ += word.size();
  }

  json readValue(std::size_t depth) {
    switch (peek()) {
    case '{': return readObject(depth + 1);
    case '[': return readArray(depth + 1);
    case '"': return json(readString());
    case 't': expectWord("true"); return json(true);
    case 'f': expectWord("false"); return json(false);
    case 'n': expectWord("null"); return json(nullptr);
    default: return readNumber();
    }
  }

  /// The members of the object that starts at `at_`, each key handed to `take`, which reads its value.
  template <class Take>
  void readMembers(Take&& take) {
    ++at_; // '{'
    skipSpace();
    if (peek() == '}') {
      ++at_;
      return;
    }
    for (;;) {
      skipSpace();
      if (peek() != '"') throw GiveUp{};
      std::string key = readString();
      skipSpace();
      if (peek() != ':') throw GiveUp{};
      ++at_;
      skipSpace();
      take(std::move(key));
      skipSpace();
      const char next = peek();
      ++at_;
      if (next == '}') return;
      if (next != ',') throw GiveUp{};
    }
  }

  json readObject(std::size_t depth) {
    if (depth > maxDepth_) throw GiveUp{};
    json object(json::value_t::object);
    auto& members = object.get_ref<json::object_t&>();
    // The last duplicate wins, as in nlohmann.
    readMembers([&](std::string&& key) { members.insert_or_assign(std::move(key), readValue(depth)); });
    return object;
  }

  json readArray(std::size_t depth) {
    if (depth > maxDepth_) throw GiveUp{};
    ++at_; // '['
    json array(json::value_t::array);
    auto& elements = array.get_ref<json::array_t&>();
    skipSpace();
    if (peek() == ']') {
      ++at_;
      return array;
    }
    for (;;) {
      skipSpace();
      elements.push_back(readValue(depth));
      skipSpace();
      const char next = peek();
      ++at_;
      if (next == ']') return array;
      if (next != ',') throw GiveUp{};
    }
  }

  unsigned readHex4() {
    if (end_ - at_ < 4) throw GiveUp{};
    unsigned value = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = *at_++;
      value <<= 4;
      if (c >= '0' && c <= '9') value |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') value |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') value |= static_cast<unsigned>(c - 'A' + 10);
      else throw GiveUp{};
    }
    return value;
  }

  static void appendUtf8(std::string& out, unsigned code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  std::string readString() {
    std::string out;
    scanString(&out);
    return out;
  }

  // Reads the string that starts at `at_` into `out`, or only checks it when `out` is null.
  void scanString(std::string* out) {
    ++at_; // '"'
    for (;;) {
      const char* run = at_;
      at_ = reinterpret_cast<const char*>(plainStringRunEnd(reinterpret_cast<const unsigned char*>(at_),
                                                            reinterpret_cast<const unsigned char*>(end_)));
      if (out != nullptr) out->append(run, static_cast<std::size_t>(at_ - run));
      const auto c = static_cast<unsigned char>(peek());
      if (c == '"') {
        ++at_;
        return;
      }
      if (c < 0x20) throw GiveUp{}; // a raw control character
      if (c >= 0x80) {
        const int length = utf8SequenceAt(reinterpret_cast<const unsigned char*>(at_),
                                          reinterpret_cast<const unsigned char*>(end_));
        if (length <= 0) throw GiveUp{};
        if (out != nullptr) out->append(at_, static_cast<std::size_t>(length));
        at_ += length;
        continue;
      }
      ++at_; // '\\'
      const char escape = peek();
      ++at_;
      char plain = 0;
      switch (escape) {
      case '"': plain = '"'; break;
      case '\\': plain = '\\'; break;
      case '/': plain = '/'; break;
      case 'b': plain = '\b'; break;
      case 'f': plain = '\f'; break;
      case 'n': plain = '\n'; break;
      case 'r': plain = '\r'; break;
      case 't': plain = '\t'; break;
      case 'u': {
        unsigned code = readHex4();
        if (code >= 0xD800 && code <= 0xDBFF) { // a high surrogate must be followed by a low one
          if (end_ - at_ < 2 || at_[0] != '\\' || at_[1] != 'u') throw GiveUp{};
          at_ += 2;
          const unsigned low = readHex4();
          if (low < 0xDC00 || low > 0xDFFF) throw GiveUp{};
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        } else if (code >= 0xDC00 && code <= 0xDFFF) {
          throw GiveUp{};
        }
        if (out != nullptr) appendUtf8(*out, code);
        continue;
      }
      default: throw GiveUp{};
      }
      if (out != nullptr) *out += plain;
    }
  }

  json readNumber() {
    const char* start = at_;
    bool negative = false;
    if (at_ < end_ && *at_ == '-') {
      negative = true;
      ++at_;
    }
    if (at_ == end_ || *at_ < '0' || *at_ > '9') throw GiveUp{};
    if (*at_ == '0') {
      ++at_;
    } else {
      while (at_ < end_ && *at_ >= '0' && *at_ <= '9') ++at_;
    }
    bool integer = true;
    if (at_ < end_ && *at_ == '.') {
      integer = false;
      ++at_;
      if (at_ == end_ || *at_ < '0' || *at_ > '9') throw GiveUp{};
      while (at_ < end_ && *at_ >= '0' && *at_ <= '9') ++at_;
    }
    if (at_ < end_ && (*at_ == 'e' || *at_ == 'E')) {
      integer = false;
      ++at_;
      if (at_ < end_ && (*at_ == '+' || *at_ == '-')) ++at_;
      if (at_ == end_ || *at_ < '0' || *at_ > '9') throw GiveUp{};
      while (at_ < end_ && *at_ >= '0' && *at_ <= '9') ++at_;
    }
    if (integer) { // typed as nlohmann types them: unsigned when not negative; too large, a double
      if (negative) {
        std::int64_t value = 0;
        const auto [end, ec] = std::from_chars(start, at_, value);
        if (ec == std::errc() && end == at_) return json(value);
      } else {
        std::uint64_t value = 0;
        const auto [end, ec] = std::from_chars(start, at_, value);
        if (ec == std::errc() && end == at_) return json(value);
      }
    }
    // strtod, as nlohmann uses, on a copy that ends where the number does.
    const std::string token(start, at_);
    char* parsedEnd = nullptr;
    errno = 0;
    const double value = std::strtod(token.c_str(), &parsedEnd);
    if (parsedEnd != token.c_str() + token.size() || !std::isfinite(value)) throw GiveUp{};
    return json(value);
  }

  const char* at_;
  const char* end_;
  std::size_t maxDepth_;
};

} // namespace

std::optional<nlohmann::json> parseJsonFast(std::string_view text, std::size_t maxDepth) {
  try {
    return FastReader(text, maxDepth).document();
  } catch (const GiveUp&) {
    return std::nullopt;
  }
}

std::optional<JsonMembers> parseObjectMembersFast(std::string_view text, std::size_t maxDepth,
                                                  DeferredParams* deferred) {
  if (deferred != nullptr) deferred->text = {};
  try {
    JsonMembers members;
    members.reserve(4); // a JSON-RPC envelope's
    FastReader(text, maxDepth).topMembers(members, deferred);
    return members;
  } catch (const GiveUp&) {
    if (deferred != nullptr) deferred->text = {};
    return std::nullopt;
  }
}

bool forEachMemberText(std::string_view text, std::size_t maxDepth,
                       const std::function<void(std::string&& key, std::string_view value)>& each) {
  try {
    FastReader(text, maxDepth).memberTexts(each);
    return true;
  } catch (const GiveUp&) {
    return false;
  }
}

} // namespace toold::protocol
