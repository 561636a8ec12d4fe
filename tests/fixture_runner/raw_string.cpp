// A small hand-written decoder: the escapes are few and the errors should point at a column.
#include "raw_string.h"

namespace toold::fixture {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

} // namespace

std::string decodeRawString(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && isBlank(text[i])) ++i;
  if (i == text.size() || text[i] != '"') throw RawStringError(i, "expected a double-quoted string");
  ++i;
  std::string bytes;
  for (;;) {
    if (i == text.size()) throw RawStringError(i, "missing closing double quote");
    const char c = text[i];
    if (c == '"') break;
    if (c != '\\') {
      bytes.push_back(c);
      ++i;
      continue;
    }
    const std::size_t escapeAt = i;
    if (++i == text.size()) throw RawStringError(escapeAt, "a backslash ends the string");
    switch (text[i]) {
    case 'r': bytes.push_back('\r'); break;
    case 'n': bytes.push_back('\n'); break;
    case 't': bytes.push_back('\t'); break;
    case '\\': bytes.push_back('\\'); break;
    case '"': bytes.push_back('"'); break;
    case 'x': {
      const int high = i + 1 < text.size() ? hexValue(text[i + 1]) : -1;
      const int low = i + 2 < text.size() ? hexValue(text[i + 2]) : -1;
      if (high < 0 || low < 0) throw RawStringError(escapeAt, "\\x needs two hex digits");
      bytes.push_back(static_cast<char>(static_cast<unsigned char>(high * 16 + low)));
      i += 2;
      break;
    }
    default:
      throw RawStringError(escapeAt,
                           std::string("unknown escape \\") + text[i] + " (known: \\r \\n \\t \\\\ \\\" \\xHH)");
    }
    ++i;
  }
  for (std::size_t rest = i + 1; rest < text.size(); ++rest) {
    if (!isBlank(text[rest])) throw RawStringError(rest, "unexpected text after the closing double quote");
  }
  return bytes;
}

std::string encodeRawString(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
    case '\r': out += "\\r"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\\': out += "\\\\"; break;
    case '"': out += "\\\""; break;
    default:
      if (byte >= 0x20 && byte < 0x7f) {
        out.push_back(c);
      } else {
        out += "\\x";
        out.push_back(kHex[byte >> 4]);
        out.push_back(kHex[byte & 0xf]);
      }
    }
  }
  out.push_back('"');
  return out;
}

} // namespace toold::fixture
