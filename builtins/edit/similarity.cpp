#include "builtins/edit/similarity.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <string>
#include <vector>

namespace toold::builtins::edit {

namespace {

std::vector<char32_t> codePoints(std::string_view text) {
  std::vector<char32_t> out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = 1;
    char32_t cp = lead;
    if (lead >= 0xC0 && lead < 0xE0) {
      length = 2;
      cp = lead & 0x1Fu;
    } else if (lead >= 0xE0 && lead < 0xF0) {
      length = 3;
      cp = lead & 0x0Fu;
    } else if (lead >= 0xF0 && lead < 0xF8) {
      length = 4;
      cp = lead & 0x07u;
    }
    bool wellFormed = i + length <= text.size();
    for (std::size_t k = 1; wellFormed && k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0u) != 0x80u) wellFormed = false;
      cp = (cp << 6) | (next & 0x3Fu);
    }
    if (!wellFormed) {
      length = 1;
      cp = lead;
    }
    out.push_back(cp);
    i += length;
  }
  return out;
}

template <class It>
std::size_t levenshtein(It aBegin, It aEnd, It bBegin, It bEnd) {
  const auto bSize = static_cast<std::size_t>(bEnd - bBegin);
  std::vector<std::size_t> previous(bSize + 1);
  std::vector<std::size_t> current(bSize + 1);
  std::iota(previous.begin(), previous.end(), std::size_t{0});
  std::size_t i = 0;
  for (It a = aBegin; a != aEnd; ++a) {
    current[0] = ++i;
    std::size_t j = 0;
    for (It b = bBegin; b != bEnd; ++b, ++j) {
      const std::size_t substitution = previous[j] + (*a == *b ? 0 : 1);
      current[j + 1] = std::min({previous[j + 1] + 1, current[j] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[bSize];
}

bool isAsciiWordChar(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

} // namespace

std::optional<double> lineSimilarity(std::string_view a, std::string_view b, std::size_t& budget) {
  if (a == b) return 1.0;
  const std::vector<char32_t> left = codePoints(a);
  const std::vector<char32_t> right = codePoints(b);
  const std::size_t longest = std::max(left.size(), right.size());
  if (longest == 0) return 1.0;
  if (longest > kMaxSimilarityLength) return 0.0;
  // A common prefix and suffix never change the distance: only the differing middles are compared.
  const auto [leftEnd, rightEnd] = std::mismatch(left.begin(), left.end(), right.begin(), right.end());
  const auto prefix = static_cast<std::ptrdiff_t>(leftEnd - left.begin());
  auto leftBack = left.rbegin();
  auto rightBack = right.rbegin();
  while (leftBack != left.rend() - prefix && rightBack != right.rend() - prefix && *leftBack == *rightBack) {
    ++leftBack;
    ++rightBack;
  }
  const auto leftCore = static_cast<std::size_t>(left.rend() - prefix - leftBack);
  const auto rightCore = static_cast<std::size_t>(right.rend() - prefix - rightBack);
  const std::size_t cells = leftCore * rightCore;
  if (cells > budget) return std::nullopt;
  budget -= cells;
  const std::size_t distance = levenshtein(left.begin() + prefix, left.end() - (leftBack - left.rbegin()),
                                           right.begin() + prefix, right.end() - (rightBack - right.rbegin()));
  return 1.0 - static_cast<double>(distance) / static_cast<double>(longest);
}

bool isTrivialAnchor(std::string_view trimmedLine) {
  // A lone closing tag such as `</div>` closes many blocks.
  if (trimmedLine.starts_with("</") && trimmedLine.ends_with(">") && trimmedLine.find(' ') == std::string_view::npos) {
    return true;
  }
  std::string word;
  for (const char c : trimmedLine) {
    const auto u = static_cast<unsigned char>(c);
    if (!isAsciiWordChar(u)) continue;
    word.push_back(u >= 'A' && u <= 'Z' ? static_cast<char>(u - 'A' + 'a') : c);
  }
  static constexpr std::array<std::string_view, 20> kKeywords = {
      "end",   "fi",   "done",   "esac",     "else",  "elif",  "begin",  "then",     "do",          "try",
      "catch", "pass", "return", "continue", "break", "endif", "endfor", "endwhile", "endfunction", "finally"};
  return word.empty() || std::find(kKeywords.begin(), kKeywords.end(), word) != kKeywords.end();
}

} // namespace toold::builtins::edit
