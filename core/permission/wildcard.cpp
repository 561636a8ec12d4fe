#include "core/permission/wildcard.h"

namespace toold::core {

namespace {

// The length of the UTF-8 character starting at `c`, so that `?` takes a whole character.
std::size_t characterLength(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c >> 5) == 0x6) return 2;
  if ((c >> 4) == 0xE) return 3;
  if ((c >> 3) == 0x1E) return 4;
  return 1; // a stray continuation or invalid byte counts alone
}

// Greedy matching with one backtrack point: the classic linear-space algorithm, O(n·m) worst case,
// never recursive (patterns come from config files and clients).
bool matchAnchored(std::string_view pattern, std::string_view text) {
  std::size_t p = 0, t = 0;
  std::size_t starP = std::string_view::npos, starT = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      starP = p++;
      starT = t;
    } else if (p < pattern.size() && pattern[p] == '?') {
      ++p;
      t += characterLength(static_cast<unsigned char>(text[t]));
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (starP != std::string_view::npos) {
      p = starP + 1;
      starT += characterLength(static_cast<unsigned char>(text[starT]));
      t = starT;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

} // namespace

bool wildcardMatch(std::string_view pattern, std::string_view text) {
  if (matchAnchored(pattern, text)) return true;
  if (pattern.size() >= 2 && pattern.ends_with(" *")) return text == pattern.substr(0, pattern.size() - 2);
  return false;
}

} // namespace toold::core
