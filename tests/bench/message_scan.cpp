// A single pass over the top-level object: keys are compared raw, nested values skipped by
// bracket depth with string awareness.
#include "tests/bench/message_scan.h"

#include <charconv>
#include <cstring>

namespace toold::bench {
namespace {

class Cursor {
public:
  explicit Cursor(std::string_view text) : text_(text) {}

  bool atEnd() const { return pos_ >= text_.size(); }
  char peek() const { return atEnd() ? '\0' : text_[pos_]; }
  void skipSpace() {
    while (!atEnd() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool consume(char c) {
    skipSpace();
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  /// At a '"': returns the raw text between the quotes (escapes left as they are).
  std::optional<std::string_view> string() {
    if (peek() != '"') return std::nullopt;
    const std::size_t begin = ++pos_;
    // From quote to quote by memchr, a quote after an odd run of backslashes being escaped: a
    // byte at a time, the client spent longer on a 10 KB answer than the server did.
    for (;;) {
      const void* found = std::memchr(text_.data() + pos_, '"', text_.size() - pos_);
      if (found == nullptr) {
        pos_ = text_.size();
        return std::nullopt;
      }
      const auto quote = static_cast<std::size_t>(static_cast<const char*>(found) - text_.data());
      std::size_t backslashes = 0;
      while (quote - backslashes > begin && text_[quote - backslashes - 1] == '\\') ++backslashes;
      pos_ = quote + 1;
      if (backslashes % 2 == 0) return text_.substr(begin, quote - begin);
    }
  }
  /// Skips one value of any kind; false when the text ends inside it.
  bool skipValue() {
    skipSpace();
    if (peek() == '"') return string().has_value();
    if (peek() == '{' || peek() == '[') {
      int depth = 0;
      while (!atEnd()) {
        const char c = text_[pos_];
        if (c == '"') {
          if (!string()) return false;
          continue;
        }
        ++pos_;
        if (c == '{' || c == '[') ++depth;
        if ((c == '}' || c == ']') && --depth == 0) return true;
      }
      return false;
    }
    const std::size_t begin = pos_;
    while (!atEnd() && peek() != ',' && peek() != '}' && peek() != ']' && peek() != ' ' && peek() != '\n') ++pos_;
    return pos_ > begin;
  }
  std::optional<std::int64_t> integer() {
    skipSpace();
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), value);
    if (ec != std::errc{}) return std::nullopt;
    const char* next = end;
    if (next != text_.data() + text_.size() && (*next == '.' || *next == 'e' || *next == 'E')) return std::nullopt;
    return value;
  }

  std::size_t position() const { return pos_; }
  std::string_view text() const { return text_; }

private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

} // namespace

MessageShape scanMessage(std::string_view body) {
  MessageShape shape;
  Cursor cursor(body);
  if (!cursor.consume('{')) return shape;
  if (cursor.consume('}')) {
    shape.valid = true;
    return shape;
  }
  for (;;) {
    cursor.skipSpace();
    auto key = cursor.string();
    if (!key || !cursor.consume(':')) return shape;
    cursor.skipSpace();
    if (*key == "id") {
      shape.hasId = true;
      shape.id = cursor.integer();
    } else if (*key == "method") {
      shape.hasMethod = true;
    } else if (*key == "error") {
      shape.hasError = true;
    }
    const std::size_t valueAt = cursor.position();
    if (!cursor.skipValue()) return shape;
    if (*key == "result") {
      shape.hasResult = true;
      shape.result = cursor.text().substr(valueAt, cursor.position() - valueAt);
    }
    if (cursor.consume('}')) break;
    if (!cursor.consume(',')) return shape;
  }
  shape.valid = true;
  return shape;
}

std::optional<std::string_view> memberText(std::string_view object, std::string_view key) {
  Cursor cursor(object);
  if (!cursor.consume('{') || cursor.consume('}')) return std::nullopt;
  for (;;) {
    cursor.skipSpace();
    auto name = cursor.string();
    if (!name || !cursor.consume(':')) return std::nullopt;
    cursor.skipSpace();
    const std::size_t valueAt = cursor.position();
    if (!cursor.skipValue()) return std::nullopt;
    if (*name == key) return object.substr(valueAt, cursor.position() - valueAt);
    if (!cursor.consume(',')) return std::nullopt;
  }
}

} // namespace toold::bench
