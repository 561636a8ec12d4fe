#include "builtins/text/punctuation.h"

#include <cstdint>

namespace toold::builtins {

namespace {

// The ASCII a code point folds to ("" for the invisible ones), or nullptr when it is kept.
const char* folded(std::uint32_t cp) {
  if ((cp >= 0x2018 && cp <= 0x201B) || cp == 0x2032) return "'";
  if ((cp >= 0x201C && cp <= 0x201F) || cp == 0x2033) return "\"";
  if ((cp >= 0x2010 && cp <= 0x2015) || cp == 0x2212) return "-";
  if (cp == 0x2026) return "...";
  if (cp == 0x00A0 || (cp >= 0x2002 && cp <= 0x200A) || cp == 0x202F || cp == 0x205F || cp == 0x3000) return " ";
  if ((cp >= 0x200B && cp <= 0x200D) || cp == 0x2060 || cp == 0xFEFF) return "";
  switch (cp) {
  case 0x2192: return "->";
  case 0x2190: return "<-";
  case 0x2194: return "<->";
  case 0x21D2: return "=>";
  case 0x2264: return "<=";
  case 0x2265: return ">=";
  case 0x2260: return "!=";
  default: return nullptr;
  }
}

// Appends `ascii`, keeping a run of dashes as one: `—`, `–` and `--` all stand for a dash.
void appendFolded(std::string& out, std::string_view ascii) {
  for (const char c : ascii) {
    if (c == '-' && !out.empty() && out.back() == '-') continue;
    out.push_back(c);
  }
}

} // namespace

std::string foldPunctuation(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    // Every folded code point is two (U+00A0) or three bytes long; anything else is copied as is.
    std::size_t length = byte >= 0xE0 && byte < 0xF0 ? 3 : (byte >= 0xC0 && byte < 0xE0 ? 2 : 1);
    if (length > 1 && i + length <= text.size()) {
      std::uint32_t cp = length == 2 ? (byte & 0x1Fu) : (byte & 0x0Fu);
      bool wellFormed = true;
      for (std::size_t k = 1; k < length; ++k) {
        const auto next = static_cast<unsigned char>(text[i + k]);
        if ((next & 0xC0u) != 0x80u) wellFormed = false;
        cp = (cp << 6) | (next & 0x3Fu);
      }
      // An overlong form (NBSP spelled E0 82 A0 rather than C2 A0) is not that character: copy it.
      if (cp < (length == 2 ? 0x80u : 0x800u)) wellFormed = false;
      if (wellFormed) {
        if (const char* ascii = folded(cp)) {
          appendFolded(out, ascii);
          i += length;
          continue;
        }
      }
      out.append(text.substr(i, wellFormed ? length : 1));
      i += wellFormed ? length : 1;
      continue;
    }
    appendFolded(out, text.substr(i, 1));
    ++i;
  }
  return out;
}

} // namespace toold::builtins
