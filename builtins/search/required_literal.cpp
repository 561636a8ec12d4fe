#include "builtins/search/required_literal.h"

namespace toold::builtins::search {

namespace {

bool isAsciiAlnum(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/// Escapes of one letter that take no argument and stand for no literal text: classes,
/// assertions, control characters. Any other letter or digit (\x, \p, \Q, \g, \1, ...) gives up.
bool isSimpleEscape(char c) {
  constexpr std::string_view kSimple = "dDsSwWhHvVNRXbBAzZGKaefnrt";
  return kSimple.find(c) != std::string_view::npos;
}

/// Whether the escape at `at` is \Q or \E (quoting, which may hide a "]" or a ")") or \cX (a
/// control character, where X may be one): read by the compiler differently from a pair of bytes.
bool quotesOrTakesAnyCharacter(std::string_view pattern, std::size_t at) {
  if (at + 1 >= pattern.size()) return false;
  const char escaped = pattern[at + 1];
  return escaped == 'Q' || escaped == 'E' || escaped == 'c';
}

/// Past the POSIX class ("[:alpha:]") at `at` if it is one, as PCRE2 decides (a ":]" before any
/// "]" or "[:"); else past its "[".
std::size_t skipPosixClass(std::string_view pattern, std::size_t at) {
  for (std::size_t i = at + 2; i < pattern.size(); ++i) {
    const char c = pattern[i];
    const char next = i + 1 < pattern.size() ? pattern[i + 1] : '\0';
    if (c == '\\' && (next == ']' || next == '\\')) ++i;
    else if (c == ']' || (c == '[' && next == ':')) break;
    else if (c == ':' && next == ']') return i + 2;
  }
  return at + 1;
}

/// The end of the class that starts at `at` ('['), just past its ']'; npos if it is unterminated.
std::size_t skipClass(std::string_view pattern, std::size_t at) {
  std::size_t i = at + 1;
  if (i < pattern.size() && pattern[i] == '^') ++i;
  if (i < pattern.size() && pattern[i] == ']') ++i; // a ']' first is a member
  while (i < pattern.size()) {
    const char c = pattern[i];
    if (c == '\\') {
      if (quotesOrTakesAnyCharacter(pattern, i)) return std::string_view::npos;
      i += 2;
    } else if (c == '[' && i + 1 < pattern.size() && pattern[i + 1] == ':') {
      i = skipPosixClass(pattern, i);
    } else if (c == ']') {
      return i + 1;
    } else {
      ++i;
    }
  }
  return std::string_view::npos;
}

/// The end of the counted repeat ("{2}", "{2,}", "{2,5}", and "{,5}" as newer PCRE2 reads it,
/// spaces allowed) that starts at `at` ('{'), just past its '}'; `at + 1` if it is a literal "{".
std::size_t skipRepeat(std::string_view pattern, std::size_t at) {
  bool digits = false;
  for (std::size_t i = at + 1; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '}') return digits ? i + 1 : at + 1;
    if (c >= '0' && c <= '9') digits = true;
    else if (c != ',' && c != ' ' && c != '\t') return at + 1;
  }
  return at + 1;
}

/// The end of the group that starts at `at` ('('), just past its ')'; npos if it is unbalanced.
std::size_t skipGroup(std::string_view pattern, std::size_t at) {
  int depth = 0;
  std::size_t i = at;
  while (i < pattern.size()) {
    const char c = pattern[i];
    if (c == '\\') {
      if (quotesOrTakesAnyCharacter(pattern, i)) return std::string_view::npos;
      i += 2;
    } else if (c == '[') {
      i = skipClass(pattern, i);
      if (i == std::string_view::npos) return i;
    } else {
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) return i + 1;
      ++i;
    }
  }
  return std::string_view::npos;
}

} // namespace

std::string requiredLiteral(std::string_view pattern) {
  // Inline options ((?i), (?x)), lookarounds and verbs ((*CR)) change what the text around them
  // means; \Q...\E quotes. Giving up on all of them is simpler than reading them.
  if (pattern.find("(?") != std::string_view::npos || pattern.find("(*") != std::string_view::npos) return {};
  std::string best;
  std::string run;    // the text being read, which every match contains
  bool runEndsWithChar = false; // whether run's last character is the item just read
  const auto endRun = [&] {
    if (run.size() > best.size()) best = run;
    run.clear();
    runEndsWithChar = false;
  };
  std::size_t i = 0;
  while (i < pattern.size()) {
    const char c = pattern[i];
    switch (c) {
    case '|':
      return {}; // an alternative at the top level: nothing is required by all of them
    case '?':
    case '*':
      if (runEndsWithChar) run.pop_back();
      endRun();
      ++i;
      break;
    case '{': // a counted repeat, which may allow zero, or a literal "{": left out either way
      if (runEndsWithChar) run.pop_back();
      endRun();
      i = skipRepeat(pattern, i);
      break;
    case '+':
      endRun(); // the character before stays required, once
      ++i;
      break;
    case '(':
      endRun();
      i = skipGroup(pattern, i);
      if (i == std::string_view::npos) return {};
      break;
    case ')':
      return {}; // unbalanced; the compiler refuses it anyway
    case '[':
      endRun();
      i = skipClass(pattern, i);
      if (i == std::string_view::npos) return {};
      break;
    case '\\': {
      if (i + 1 >= pattern.size()) return {};
      const char escaped = pattern[i + 1];
      if (static_cast<unsigned char>(escaped) < 0x80 && !isAsciiAlnum(escaped)) {
        run.push_back(escaped); // \. \( \\ ...: that character
        runEndsWithChar = true;
      } else if (isSimpleEscape(escaped) && !(escaped == 'N' && i + 2 < pattern.size() && pattern[i + 2] == '{')) {
        endRun();
      } else {
        return {};
      }
      i += 2;
      break;
    }
    case '.':
    case '^':
    case '$':
      endRun();
      ++i;
      break;
    default:
      if (static_cast<unsigned char>(c) >= 0x80) {
        endRun(); // a multi-byte character: left out, with a quantifier after it applying to it
        ++i;
        while (i < pattern.size() && (static_cast<unsigned char>(pattern[i]) & 0xC0) == 0x80) ++i;
      } else {
        run.push_back(c);
        runEndsWithChar = true;
        ++i;
      }
      break;
    }
  }
  endRun();
  return best;
}

} // namespace toold::builtins::search
