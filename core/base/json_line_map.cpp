#include "core/base/json_line_map.h"

#include <cstdint>
#include <utility>

namespace toold::core {

namespace {

enum class TokenKind { BeginObject, EndObject, BeginArray, EndArray, Comma, Colon, String, Scalar, End, Invalid };

struct Token {
  TokenKind kind = TokenKind::End;
  std::size_t line = 1; ///< where the token starts
  std::string text;     ///< the decoded content of a string; empty for everything else
};

bool startsValue(const Token& token) {
  return token.kind == TokenKind::BeginObject || token.kind == TokenKind::BeginArray ||
         token.kind == TokenKind::String || token.kind == TokenKind::Scalar;
}

/// Numbers and the literals true, false and null: the lexer needs only their extent, not their value.
bool isScalarChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '+' ||
         c == '.';
}

void appendUtf8(std::string& out, std::uint32_t codePoint) {
  const auto byte = [](std::uint32_t bits) { return static_cast<char>(static_cast<unsigned char>(bits)); };
  if (codePoint < 0x80) {
    out.push_back(byte(codePoint));
  } else if (codePoint < 0x800) {
    out.push_back(byte(0xC0 | (codePoint >> 6)));
    out.push_back(byte(0x80 | (codePoint & 0x3F)));
  } else if (codePoint < 0x10000) {
    out.push_back(byte(0xE0 | (codePoint >> 12)));
    out.push_back(byte(0x80 | ((codePoint >> 6) & 0x3F)));
    out.push_back(byte(0x80 | (codePoint & 0x3F)));
  } else {
    out.push_back(byte(0xF0 | (codePoint >> 18)));
    out.push_back(byte(0x80 | ((codePoint >> 12) & 0x3F)));
    out.push_back(byte(0x80 | ((codePoint >> 6) & 0x3F)));
    out.push_back(byte(0x80 | (codePoint & 0x3F)));
  }
}

/// Splits JSON text into tokens, counting lines as it goes. Strings are decoded, because a key's
/// pointer is made of its decoded form (`"a\"b"` is the key a"b, `"\u00e9"` is é).
class Lexer {
public:
  explicit Lexer(std::string_view text) : text_(text) {
    // nlohmann skips a UTF-8 byte order mark; so must the positions.
    if (text_.starts_with("\xEF\xBB\xBF")) pos_ = 3;
  }

  Token next() {
    skipWhitespace();
    Token token{TokenKind::End, line_, {}};
    if (pos_ >= text_.size()) return token;
    const char c = text_[pos_];
    switch (c) {
      case '{': token.kind = TokenKind::BeginObject; break;
      case '}': token.kind = TokenKind::EndObject; break;
      case '[': token.kind = TokenKind::BeginArray; break;
      case ']': token.kind = TokenKind::EndArray; break;
      case ',': token.kind = TokenKind::Comma; break;
      case ':': token.kind = TokenKind::Colon; break;
      case '"':
        token.kind = readString(token.text) ? TokenKind::String : TokenKind::Invalid;
        return token;
      default:
        if (!isScalarChar(c)) {
          token.kind = TokenKind::Invalid;
          return token;
        }
        while (pos_ < text_.size() && isScalarChar(text_[pos_])) ++pos_;
        token.kind = TokenKind::Scalar;
        return token;
    }
    ++pos_;
    return token;
  }

private:
  void skipWhitespace() {
    // A CR of a CRLF line end is whitespace like any other; only the LF ends the line.
    for (; pos_ < text_.size(); ++pos_) {
      const char c = text_[pos_];
      if (c == '\n')
        ++line_;
      else if (c != ' ' && c != '\t' && c != '\r')
        break;
    }
  }

  /// Reads the string at pos_ (its opening quote) into `out`; false when it is unterminated or
  /// holds a bad escape.
  bool readString(std::string& out) {
    ++pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (c == '\n') ++line_; // invalid in JSON, but the count of lines after it should stay right
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (pos_ >= text_.size()) return false;
      const char escaped = text_[pos_++];
      switch (escaped) {
        case '"':
        case '\\':
        case '/': out.push_back(escaped); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
          const std::optional<std::uint32_t> unit = readHex4();
          if (!unit) return false;
          appendUtf8(out, combineSurrogates(*unit));
          break;
        }
        default: return false;
      }
    }
    return false;
  }

  /// A high surrogate followed by `\u` and a low one is one code point beyond the BMP.
  std::uint32_t combineSurrogates(std::uint32_t high) {
    if (high < 0xD800 || high > 0xDBFF || text_.substr(pos_, 2) != "\\u") return high;
    const std::size_t before = pos_;
    pos_ += 2;
    const std::optional<std::uint32_t> low = readHex4();
    if (low && *low >= 0xDC00 && *low <= 0xDFFF) return 0x10000 + ((high - 0xD800) << 10) + (*low - 0xDC00);
    pos_ = before; // not a pair: leave the next escape to be read on its own
    return high;
  }

  std::optional<std::uint32_t> readHex4() {
    if (text_.size() - pos_ < 4) return std::nullopt;
    std::uint32_t value = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      const char c = text_[pos_ + i];
      std::uint32_t digit = 0;
      if (c >= '0' && c <= '9')
        digit = static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f')
        digit = static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        digit = static_cast<std::uint32_t>(c - 'A' + 10);
      else
        return std::nullopt;
      value = value * 16 + digit;
    }
    pos_ += 4;
    return value;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
};

/// One reference token of a JSON Pointer: `~` as ~0, `/` as ~1 (RFC 6901).
std::string escapePointerToken(std::string_view token) {
  std::string escaped;
  escaped.reserve(token.size());
  for (char c : token) {
    if (c == '~')
      escaped += "~0";
    else if (c == '/')
      escaped += "~1";
    else
      escaped.push_back(c);
  }
  return escaped;
}

/// An object or array whose closing token has not been read yet.
struct OpenContainer {
  bool isObject = false;
  std::string pointer;
  std::size_t nextIndex = 0; ///< of an array: the index of its next element
};

} // namespace

TextPosition textPositionAt(std::string_view text, std::size_t offset) {
  if (offset > text.size()) offset = text.size();
  TextPosition position;
  std::size_t lineStart = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++position.line;
      lineStart = i + 1;
    }
  }
  position.column = offset - lineStart + 1;
  return position;
}

JsonLineMap::JsonLineMap(std::string_view text) {
  // An explicit stack rather than recursion: deeply nested text must not exhaust the call stack.
  Lexer lexer(text);
  std::vector<OpenContainer> open;
  const auto enter = [&open](const Token& value, std::string pointer) {
    if (value.kind == TokenKind::BeginObject || value.kind == TokenKind::BeginArray)
      open.push_back({value.kind == TokenKind::BeginObject, std::move(pointer), 0});
  };

  const Token first = lexer.next();
  if (!startsValue(first)) return;
  record("", first.line);
  enter(first, "");

  while (!open.empty()) {
    Token token = lexer.next();
    if (token.kind == TokenKind::Comma) continue;
    OpenContainer& container = open.back();
    if (token.kind == (container.isObject ? TokenKind::EndObject : TokenKind::EndArray)) {
      open.pop_back();
      continue;
    }
    std::string pointer = container.pointer + '/';
    if (container.isObject) {
      if (token.kind != TokenKind::String) return;
      pointer += escapePointerToken(token.text);
      record(pointer, token.line);
      if (lexer.next().kind != TokenKind::Colon) return;
      token = lexer.next();
      if (!startsValue(token)) return;
    } else {
      if (!startsValue(token)) return;
      pointer += std::to_string(container.nextIndex++);
      record(pointer, token.line);
    }
    enter(token, std::move(pointer)); // invalidates `container`
  }
}

std::optional<std::size_t> JsonLineMap::line(const nlohmann::json::json_pointer& pointer) const {
  const auto found = lines_.find(pointer.to_string());
  if (found == lines_.end()) return std::nullopt;
  return found->second;
}

void JsonLineMap::record(const std::string& pointer, std::size_t line) {
  const auto previous = lines_.find(pointer);
  if (previous != lines_.end()) {
    // Only a repeated key can meet its own pointer again: the subtree of the earlier value goes,
    // as nlohmann's parse lets the later value replace it whole.
    duplicates_.push_back({nlohmann::json::json_pointer(pointer), previous->second, line});
    // Descendants are exactly the pointers from "<pointer>/" up to, not including, "<pointer>0"
    // ('0' follows '/' in ASCII).
    lines_.erase(lines_.lower_bound(pointer + '/'), lines_.lower_bound(pointer + '0'));
  }
  lines_[pointer] = line;
}

} // namespace toold::core
