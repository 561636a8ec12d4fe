// Compiling: braces are expanded first, on the raw text, into at most kMaxAlternatives plain
// globs (escapes and classes kept as written); each is then cut at its '/' into components, a
// component being either `**` (any number of path components) or a list of tokens (literal runs,
// `?`, classes, `*`) that matches exactly one path component. Matching is two nested instances of
// the classic greedy-star algorithm — components against path components with `**` as the star,
// characters within a component with `*` as the star — so it is linear for typical globs and
// needs no memory.
#include "core/walk/glob_pattern.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <vector>

namespace toold::core {
namespace {

constexpr std::size_t kMaxAlternatives = 256;
constexpr std::size_t npos = std::string_view::npos;

enum class Named : std::uint8_t { Alnum, Alpha, Blank, Cntrl, Digit, Graph, Lower, Print, Punct, Space, Upper, Xdigit };

struct CharClass {
  bool negated = false;
  std::vector<std::pair<char32_t, char32_t>> ranges;
  std::vector<Named> named;
};

enum class TokenKind : std::uint8_t { Literal, Any, Class, Star };

struct Token {
  TokenKind kind = TokenKind::Literal;
  std::string literal;       ///< Literal: the bytes, ASCII-folded to lower case when matching ignores case
  std::size_t classIndex = 0; ///< Class: into Program::classes
};

/// How a component can be matched without the general loop.
enum class Shape : std::uint8_t { General, Empty, Literal, AnyName, Suffix, Prefix };

struct Component {
  bool globstar = false;
  std::vector<Token> tokens;
  Shape shape = Shape::General;
  std::string fixed; ///< the literal of the Literal, Suffix and Prefix shapes
};

struct Alternative {
  std::vector<Component> components;
  bool hasGlobstar = false;
};

struct Program {
  std::vector<Alternative> alternatives;
  std::vector<CharClass> classes;
  bool caseInsensitive = false;
};

char foldAscii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

/// The code point at `text[i]`, advancing `i` past it; a byte that does not start a valid UTF-8
/// sequence counts as one character (its byte value).
char32_t decode(std::string_view text, std::size_t& i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  if (lead < 0x80) {
    ++i;
    return lead;
  }
  std::size_t length = lead >= 0xF0 && lead < 0xF8 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  if (length == 1 || i + length > text.size()) {
    ++i;
    return lead;
  }
  char32_t value = lead & (0x7F >> length);
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[i + k]);
    if ((next & 0xC0) != 0x80) {
      ++i;
      return lead;
    }
    value = (value << 6) | (next & 0x3F);
  }
  i += length;
  return value;
}

std::size_t nextCharacter(std::string_view text, std::size_t i) {
  decode(text, i);
  return i;
}

bool namedFromString(std::string_view name, Named& out) {
  static constexpr std::pair<std::string_view, Named> kNames[] = {
      {"alnum", Named::Alnum}, {"alpha", Named::Alpha}, {"blank", Named::Blank}, {"cntrl", Named::Cntrl},
      {"digit", Named::Digit}, {"graph", Named::Graph}, {"lower", Named::Lower}, {"print", Named::Print},
      {"punct", Named::Punct}, {"space", Named::Space}, {"upper", Named::Upper}, {"xdigit", Named::Xdigit}};
  for (const auto& [text, named] : kNames)
    if (text == name) {
      out = named;
      return true;
    }
  return false;
}

bool isNamed(Named named, char32_t c) {
  if (c >= 0x80) return false;
  const int ch = static_cast<int>(c);
  switch (named) {
  case Named::Alnum: return std::isalnum(ch) != 0;
  case Named::Alpha: return std::isalpha(ch) != 0;
  case Named::Blank: return ch == ' ' || ch == '\t';
  case Named::Cntrl: return std::iscntrl(ch) != 0;
  case Named::Digit: return std::isdigit(ch) != 0;
  case Named::Graph: return std::isgraph(ch) != 0;
  case Named::Lower: return std::islower(ch) != 0;
  case Named::Print: return std::isprint(ch) != 0;
  case Named::Punct: return std::ispunct(ch) != 0;
  case Named::Space: return std::isspace(ch) != 0;
  case Named::Upper: return std::isupper(ch) != 0;
  case Named::Xdigit: return std::isxdigit(ch) != 0;
  }
  return false;
}

/// Parses the class opening at `glob[start]` == '['. Returns the offset of its closing ']', or
/// npos with `error` set. `out` may be null (only the extent is wanted).
std::size_t parseClass(std::string_view glob, std::size_t start, CharClass* out, std::string& error) {
  std::size_t i = start + 1;
  if (i < glob.size() && (glob[i] == '!' || glob[i] == '^')) {
    if (out) out->negated = true;
    ++i;
  }
  bool first = true;
  const auto member = [&](char32_t& c) {
    if (glob[i] == '\\') {
      if (++i >= glob.size()) return false;
    }
    c = decode(glob, i);
    return true;
  };
  while (i < glob.size()) {
    if (glob[i] == ']' && !first) return i;
    first = false;
    if (glob[i] == '[' && i + 1 < glob.size() && glob[i + 1] == ':') {
      // `[:name:]`, as git's wildmatch reads it: up to the next ']', which must follow a ':'.
      const std::size_t close = glob.find(']', i + 2);
      if (close != npos && close >= i + 3 && glob[close - 1] == ':') {
        Named named{};
        const std::string_view name = glob.substr(i + 2, close - 1 - (i + 2));
        if (!namedFromString(name, named)) {
          error = "unknown character class '[:" + std::string(name) + ":]' at offset " + std::to_string(i);
          return npos;
        }
        if (out) out->named.push_back(named);
        i = close + 1;
        continue;
      }
    }
    char32_t low = 0;
    if (!member(low)) break;
    char32_t high = low;
    if (i + 1 < glob.size() && glob[i] == '-' && glob[i + 1] != ']') {
      ++i;
      if (!member(high)) break;
    }
    if (out) out->ranges.emplace_back(low, high);
  }
  error = "unclosed '[' at offset " + std::to_string(start);
  return npos;
}

// ---- brace expansion -------------------------------------------------------------------------

struct BraceExpander {
  std::string_view glob;
  std::string error;

  /// Expands the sequence starting at `i` up to the end, or (inside braces) up to an unnested
  /// ',' or '}', into `out` (the alternatives so far, each extended). False on an error.
  bool sequence(std::size_t& i, int depth, std::vector<std::string>& out) {
    out.assign(1, std::string());
    while (i < glob.size()) {
      const char c = glob[i];
      if (depth > 0 && (c == ',' || c == '}')) return true;
      if (c == '\\') {
        if (i + 1 >= glob.size()) {
          error = "a trailing '\\' escapes nothing";
          return false;
        }
        const std::size_t end = nextCharacter(glob, i + 1);
        append(out, glob.substr(i, end - i));
        i = end;
      } else if (c == '[') {
        const std::size_t close = parseClass(glob, i, nullptr, error);
        if (close == npos) return false;
        append(out, glob.substr(i, close + 1 - i));
        i = close + 1;
      } else if (c == '{') {
        if (!group(i, depth, out)) return false;
      } else {
        append(out, glob.substr(i, 1));
        ++i;
      }
    }
    return true;
  }

  /// The group opening at `glob[i]` == '{': its alternatives, each appended to each of `out`.
  bool group(std::size_t& i, int depth, std::vector<std::string>& out) {
    const std::size_t open = i++;
    std::vector<std::string> choices;
    std::size_t parts = 0;
    for (;;) {
      std::vector<std::string> part;
      if (!sequence(i, depth + 1, part)) return false;
      ++parts;
      if (choices.size() + part.size() > kMaxAlternatives) return tooMany();
      choices.insert(choices.end(), part.begin(), part.end());
      if (i >= glob.size()) {
        error = "unclosed '{' at offset " + std::to_string(open);
        return false;
      }
      if (glob[i++] == '}') break;
    }
    if (parts == 1) { // no comma: the braces are literal
      for (auto& choice : choices) choice = "\\{" + choice + "\\}";
    }
    if (out.size() * choices.size() > kMaxAlternatives) return tooMany();
    std::vector<std::string> product;
    product.reserve(out.size() * choices.size());
    for (const auto& prefix : out)
      for (const auto& choice : choices) product.push_back(prefix + choice);
    out = std::move(product);
    return true;
  }

  static void append(std::vector<std::string>& out, std::string_view text) {
    for (auto& alternative : out) alternative += text;
  }

  bool tooMany() {
    error = "the braces expand to more than " + std::to_string(kMaxAlternatives) + " alternatives";
    return false;
  }
};

// ---- components ------------------------------------------------------------------------------

void classify(Component& component) {
  const auto& t = component.tokens;
  const auto is = [&](std::size_t k, TokenKind kind) { return t[k].kind == kind; };
  if (t.empty()) {
    component.shape = Shape::Empty;
  } else if (t.size() == 1 && is(0, TokenKind::Literal)) {
    component.shape = Shape::Literal;
    component.fixed = t[0].literal;
  } else if (t.size() == 1 && is(0, TokenKind::Star)) {
    component.shape = Shape::AnyName;
  } else if (t.size() == 2 && is(0, TokenKind::Star) && is(1, TokenKind::Literal)) {
    component.shape = Shape::Suffix;
    component.fixed = t[1].literal;
  } else if (t.size() == 2 && is(0, TokenKind::Literal) && is(1, TokenKind::Star)) {
    component.shape = Shape::Prefix;
    component.fixed = t[0].literal;
  }
}

/// Cuts one brace-free alternative into components.
bool parseAlternative(std::string_view glob, Program& program, Alternative& out, std::string& error) {
  Component current;
  bool onlyStars = true; // the component so far is unescaped '*'s only
  std::size_t stars = 0;
  const auto literal = [&](std::string_view bytes) {
    if (current.tokens.empty() || current.tokens.back().kind != TokenKind::Literal)
      current.tokens.push_back(Token{TokenKind::Literal, {}, 0});
    auto& text = current.tokens.back().literal;
    for (const char c : bytes) text += program.caseInsensitive ? foldAscii(c) : c;
    onlyStars = false;
  };
  const auto finish = [&] {
    if (onlyStars && stars == 2) {
      current.tokens.clear();
      current.globstar = true;
      out.hasGlobstar = true;
    }
    classify(current);
    out.components.push_back(std::move(current));
    current = Component{};
    onlyStars = true;
    stars = 0;
  };
  std::size_t i = 0;
  while (i < glob.size()) {
    const char c = glob[i];
    if (c == '/') {
      finish();
      ++i;
    } else if (c == '\\') {
      if (i + 1 >= glob.size()) {
        error = "a trailing '\\' escapes nothing";
        return false;
      }
      const std::size_t end = nextCharacter(glob, i + 1);
      if (glob[i + 1] == '/') finish();
      else literal(glob.substr(i + 1, end - i - 1));
      i = end;
    } else if (c == '*') {
      ++stars;
      if (current.tokens.empty() || current.tokens.back().kind != TokenKind::Star)
        current.tokens.push_back(Token{TokenKind::Star, {}, 0});
      ++i;
    } else if (c == '?') {
      current.tokens.push_back(Token{TokenKind::Any, {}, 0});
      onlyStars = false;
      ++i;
    } else if (c == '[') {
      CharClass charClass;
      const std::size_t close = parseClass(glob, i, &charClass, error);
      if (close == npos) return false;
      current.tokens.push_back(Token{TokenKind::Class, {}, program.classes.size()});
      program.classes.push_back(std::move(charClass));
      onlyStars = false;
      i = close + 1;
    } else {
      literal(glob.substr(i, 1));
      ++i;
    }
  }
  finish();
  return true;
}

// ---- matching --------------------------------------------------------------------------------

bool equalFolded(std::string_view text, std::string_view pattern, bool fold) {
  if (text.size() != pattern.size()) return false;
  if (!fold) return text == pattern;
  for (std::size_t k = 0; k < text.size(); ++k)
    if (foldAscii(text[k]) != pattern[k]) return false;
  return true;
}

bool classMatches(const CharClass& charClass, char32_t c, bool fold) {
  const auto contains = [&](char32_t ch) {
    for (const auto& [low, high] : charClass.ranges)
      if (ch >= low && ch <= high) return true;
    for (const Named named : charClass.named)
      if (isNamed(named, ch)) return true;
    return false;
  };
  bool found = contains(c);
  if (!found && fold && c < 0x80 && std::isalpha(static_cast<int>(c))) {
    const char32_t other = std::islower(static_cast<int>(c)) ? c - 'a' + 'A' : c - 'A' + 'a';
    found = contains(other);
  }
  return found != charClass.negated;
}

/// One path component (no '/') against one pattern component.
bool matchComponent(const Component& component, std::string_view text, const Program& program) {
  const bool fold = program.caseInsensitive;
  switch (component.shape) {
  case Shape::Empty: return text.empty();
  case Shape::Literal: return equalFolded(text, component.fixed, fold);
  case Shape::AnyName: return true;
  case Shape::Suffix:
    return text.size() >= component.fixed.size() &&
           equalFolded(text.substr(text.size() - component.fixed.size()), component.fixed, fold);
  case Shape::Prefix:
    return text.size() >= component.fixed.size() &&
           equalFolded(text.substr(0, component.fixed.size()), component.fixed, fold);
  case Shape::General: break;
  }
  const auto& tokens = component.tokens;
  std::size_t p = 0, t = 0;
  std::size_t starP = npos, starT = 0;
  for (;;) {
    if (p < tokens.size()) {
      const Token& token = tokens[p];
      if (token.kind == TokenKind::Star) {
        starP = ++p;
        starT = t;
        continue;
      }
      if (token.kind == TokenKind::Literal) {
        const std::size_t length = token.literal.size();
        if (t + length <= text.size() && equalFolded(text.substr(t, length), token.literal, fold)) {
          ++p;
          t += length;
          continue;
        }
      } else if (t < text.size()) {
        std::size_t next = t;
        const char32_t c = decode(text, next);
        if (token.kind == TokenKind::Any || classMatches(program.classes[token.classIndex], c, fold)) {
          ++p;
          t = next;
          continue;
        }
      }
    } else if (t == text.size()) {
      return true;
    }
    // A mismatch: the last '*' takes one more character, if there is one to take.
    if (starP == npos || starT >= text.size()) return false;
    starT = nextCharacter(text, starT);
    t = starT;
    p = starP;
  }
}

bool matchAlternative(const Alternative& alternative, std::string_view path, const Program& program) {
  const auto& components = alternative.components;
  // `pos` is where the next path component starts; `done` once all have been taken.
  std::size_t p = 0, pos = 0;
  bool done = false;
  const auto take = [&](std::size_t& from, bool& finished) {
    const std::size_t slash = path.find('/', from);
    const std::string_view piece = path.substr(from, slash == npos ? npos : slash - from);
    if (slash == npos) finished = true;
    else from = slash + 1;
    return piece;
  };
  if (!alternative.hasGlobstar) {
    for (const auto& component : components) {
      if (done) return false;
      if (!matchComponent(component, take(pos, done), program)) return false;
    }
    return done;
  }
  if (components.size() == 2 && components[0].globstar && !components[1].globstar) { // `**/x`: x is the name
    const std::size_t slash = path.rfind('/');
    return matchComponent(components[1], slash == npos ? path : path.substr(slash + 1), program);
  }
  std::size_t starP = npos, starPos = 0;
  bool starDone = false;
  for (;;) {
    if (p < components.size()) {
      const Component& component = components[p];
      if (component.globstar) {
        // A trailing `**` takes everything left, which must be at least one component: `x/**`
        // matches what is inside x, not x itself.
        if (p + 1 == components.size()) return !done;
        starP = ++p;
        starPos = pos;
        starDone = done;
        continue;
      }
      if (!done) {
        std::size_t next = pos;
        bool nextDone = done;
        if (matchComponent(component, take(next, nextDone), program)) {
          ++p;
          pos = next;
          done = nextDone;
          continue;
        }
      }
    } else if (done) {
      return true;
    }
    // A mismatch: the last `**` takes one more path component, if there is one to take.
    if (starP == npos || starDone) return false;
    take(starPos, starDone);
    pos = starPos;
    done = starDone;
    p = starP;
  }
}

} // namespace

struct GlobPattern::Compiled {
  Program program;
};

std::variant<GlobPattern, std::string> GlobPattern::compile(std::string_view glob, bool caseInsensitive) {
  BraceExpander expander{glob, {}};
  std::vector<std::string> alternatives;
  std::size_t i = 0;
  if (!expander.sequence(i, 0, alternatives)) return expander.error;
  auto compiled = std::make_shared<Compiled>();
  Program& program = compiled->program;
  program.caseInsensitive = caseInsensitive;
  std::vector<std::string> seen;
  for (const auto& text : alternatives) {
    if (std::find(seen.begin(), seen.end(), text) != seen.end()) continue;
    seen.push_back(text);
    Alternative alternative;
    std::string error;
    if (!parseAlternative(text, program, alternative, error)) return error;
    program.alternatives.push_back(std::move(alternative));
  }
  return GlobPattern(std::string(glob), std::move(compiled));
}

bool GlobPattern::matches(std::string_view path) const {
  if (!compiled_) return false;
  const Program& program = compiled_->program;
  for (const auto& alternative : program.alternatives)
    if (matchAlternative(alternative, path, program)) return true;
  return false;
}

} // namespace toold::core
