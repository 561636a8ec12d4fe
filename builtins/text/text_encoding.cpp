#include "builtins/text/text_encoding.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace toold::builtins {

namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
constexpr std::string_view kNotUtf8Suffix = "; toold edits UTF-8 text only, so it was left unchanged";

bool startsWith(std::string_view bytes, std::string_view prefix) {
  return bytes.size() >= prefix.size() && bytes.compare(0, prefix.size(), prefix) == 0;
}

unsigned char byteAt(std::string_view bytes, std::size_t i) { return static_cast<unsigned char>(bytes[i]); }

bool isContinuation(unsigned char byte) { return (byte & 0xC0u) == 0x80u; }

// The length of the well-formed UTF-8 sequence starting at `i`, or 0 when the bytes there are
// not one (ASCII is handled by the caller).
std::size_t sequenceLength(std::string_view bytes, std::size_t i) {
  const unsigned char lead = byteAt(bytes, i);
  const std::size_t expected = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
  return lead >= 0xC2 && utf8CharacterPrefix(bytes.substr(i)) == expected ? expected : 0;
}

// Appends `text` to `out` with every "\n" written as "\r\n" (an existing "\r\n" kept as is).
void appendCrlf(std::string& out, std::string_view text) {
  std::size_t start = 0;
  while (start < text.size()) {
    const void* found = std::memchr(text.data() + start, '\n', text.size() - start);
    if (found == nullptr) break;
    const auto newline = static_cast<std::size_t>(static_cast<const char*>(found) - text.data());
    out.append(text.substr(start, newline - start));
    if (newline == 0 || text[newline - 1] != '\r') out.push_back('\r');
    out.push_back('\n');
    start = newline + 1;
  }
  out.append(text.substr(start));
}

void appendWithLineEnding(std::string& out, std::string_view lfText, LineEnding ending) {
  if (ending == LineEnding::Crlf) {
    appendCrlf(out, lfText);
  } else {
    out.append(lfText);
  }
}

TextDecodeError wrongEncoding(std::string_view name) {
  return TextDecodeError{0, "is " + std::string(name) + " (it starts with a " + std::string(name) + " BOM)" +
                                std::string(kNotUtf8Suffix)};
}

} // namespace

std::size_t utf8CharacterPrefix(std::string_view bytes) {
  if (bytes.empty()) return 0;
  const unsigned char lead = byteAt(bytes, 0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char secondMin = 0x80;
  unsigned char secondMax = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) secondMin = 0xA0;  // overlong below U+0800
    if (lead == 0xED) secondMax = 0x9F;  // surrogates U+D800–DFFF
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) secondMin = 0x90;  // overlong below U+10000
    if (lead == 0xF4) secondMax = 0x8F;  // above U+10FFFF
  } else {
    return 0;  // 80–C1 and F5–FF never start a character
  }
  std::size_t count = 1;
  while (count < length && count < bytes.size()) {
    const unsigned char byte = byteAt(bytes, count);
    const bool fits = count == 1 ? byte >= secondMin && byte <= secondMax : isContinuation(byte);
    if (!fits) break;
    ++count;
  }
  return count;
}

std::size_t firstInvalidUtf8(std::string_view bytes) {
  const std::size_t size = bytes.size();
  std::size_t i = 0;
  while (i < size) {
    // Fast path: eight ASCII bytes at a time.
    while (size - i >= 8) {
      std::uint64_t chunk = 0;
      std::memcpy(&chunk, bytes.data() + i, sizeof chunk);
      if ((chunk & 0x8080808080808080ull) != 0) break;
      i += 8;
    }
    if (i >= size) break;
    if (byteAt(bytes, i) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t length = sequenceLength(bytes, i);
    if (length == 0) return i;
    i += length;
  }
  return std::string_view::npos;
}

std::variant<DecodedText, TextDecodeError> decodeText(std::string_view raw) {
  // UTF-32 LE's BOM starts with UTF-16 LE's, so it is checked first.
  if (startsWith(raw, std::string_view("\xFF\xFE\0\0", 4)) || startsWith(raw, std::string_view("\0\0\xFE\xFF", 4))) {
    return wrongEncoding("UTF-32");
  }
  if (startsWith(raw, "\xFF\xFE") || startsWith(raw, "\xFE\xFF")) return wrongEncoding("UTF-16");

  DecodedText decoded;
  decoded.bom = startsWith(raw, kUtf8Bom);
  const std::size_t bomSize = decoded.bom ? kUtf8Bom.size() : 0;
  const std::string_view body = raw.substr(bomSize);

  if (const std::size_t bad = firstInvalidUtf8(body); bad != std::string_view::npos) {
    const std::size_t offset = bad + bomSize;
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(byteAt(body, bad)));
    return TextDecodeError{offset, "is not valid UTF-8 (byte " + std::string(hex) + " at offset " + std::to_string(offset) +
                                       " is not part of a UTF-8 character)" + std::string(kNotUtf8Suffix) +
                                       ". Convert it to UTF-8 first, or edit it with the shell."};
  }

  // One scan from line end to line end: copy each line, dropping the '\r' of a "\r\n".
  decoded.text.reserve(body.size());
  std::size_t bareLf = 0;
  std::size_t start = 0;
  while (start < body.size()) {
    const void* found = std::memchr(body.data() + start, '\n', body.size() - start);
    if (found == nullptr) break;
    const auto newline = static_cast<std::size_t>(static_cast<const char*>(found) - body.data());
    // `newline > start` also guarantees body[newline - 1] belongs to this line.
    if (newline > start && body[newline - 1] == '\r') {
      decoded.text.append(body.substr(start, newline - 1 - start));
      decoded.crlfAt.push_back(decoded.text.size());
      decoded.text.push_back('\n');
    } else {
      decoded.text.append(body.substr(start, newline + 1 - start));
      ++bareLf;
    }
    start = newline + 1;
  }
  decoded.text.append(body.substr(start));

  const std::size_t crlf = decoded.crlfAt.size();
  decoded.lineEnding = crlf > 0 && crlf >= bareLf ? LineEnding::Crlf : LineEnding::Lf;
  return decoded;
}

std::string toLf(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t crlf = text.find("\r\n", start);
    if (crlf == std::string_view::npos) break;
    out.append(text.substr(start, crlf - start));
    out.push_back('\n');
    start = crlf + 2;
  }
  out.append(text.substr(start));
  return out;
}

std::string withLineEnding(std::string_view lfText, LineEnding ending) {
  std::string out;
  out.reserve(lfText.size() + (ending == LineEnding::Crlf ? lfText.size() / 16 : 0));
  appendWithLineEnding(out, lfText, ending);
  return out;
}

std::size_t rawOffset(const DecodedText& decoded, std::size_t position) {
  // Every "\r\n" strictly before `position` added one byte; one at `position` did not yet.
  const auto crlfBefore = std::lower_bound(decoded.crlfAt.begin(), decoded.crlfAt.end(), position) - decoded.crlfAt.begin();
  return (decoded.bom ? kUtf8Bom.size() : 0) + position + static_cast<std::size_t>(crlfBefore);
}

std::string spliceRaw(std::string_view raw, const DecodedText& decoded, const std::vector<TextReplacement>& replacements) {
  std::string out;
  std::size_t insertedBytes = 0;
  for (const TextReplacement& replacement : replacements) insertedBytes += replacement.text.size();
  out.reserve(raw.size() + insertedBytes + insertedBytes / 16);

  std::size_t cursor = 0;  // raw bytes before it are already in `out`
  for (const TextReplacement& replacement : replacements) {
    const std::size_t begin = std::clamp(rawOffset(decoded, replacement.begin), cursor, raw.size());
    const std::size_t end = std::clamp(rawOffset(decoded, replacement.end), begin, raw.size());
    out.append(raw.substr(cursor, begin - cursor));
    appendWithLineEnding(out, replacement.text, decoded.lineEnding);
    cursor = end;
  }
  out.append(raw.substr(cursor));
  return out;
}

std::string encodeLike(const DecodedText& decoded, std::string_view lfText) {
  std::string out;
  out.reserve(lfText.size() + kUtf8Bom.size() + (decoded.lineEnding == LineEnding::Crlf ? lfText.size() / 16 : 0));
  if (decoded.bom) out.append(kUtf8Bom);
  appendWithLineEnding(out, lfText, decoded.lineEnding);
  return out;
}

} // namespace toold::builtins
