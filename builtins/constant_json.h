// JSON text written in a built-in's source, readable, and made compact while compiling.
//
// The built-ins' input schemas are constants: built as nlohmann trees at every start, written out
// as the tools' definitions and freed, they took half the instructions of a start. As text they
// are handed to the registry as they are (core::Tool::inputSchemaText), with nothing built. The
// registry keeps definitions as nlohmann writes them, so the text must be canonical once compact
// (keys sorted, no escapes nlohmann would not write); tests/unit/builtins/builtin_definitions_test
// checks every built-in's, and that its schema is one toold enforces.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace toold::builtins {

template <std::size_t N>
struct ConstantJson {
  std::array<char, N> text{};
  std::size_t size = 0;
  constexpr std::string_view view() const { return {text.data(), size}; }
};

/// `pretty` without the blanks between its tokens; strings are kept as written, escapes and all.
/// A newline inside a string, or a string left open, does not compile.
template <std::size_t N>
consteval ConstantJson<N> compactJson(const char (&pretty)[N]) {
  ConstantJson<N> out;
  bool inString = false;
  bool escaped = false;
  for (std::size_t i = 0; i + 1 < N; ++i) {
    const char c = pretty[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') inString = false;
      else if (c == '\n') throw "compactJson: a newline inside a JSON string";
    } else if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      continue;
    } else if (c == '"') {
      inString = true;
    }
    out.text[out.size++] = c;
  }
  if (inString) throw "compactJson: a string is left open";
  return out;
}

} // namespace toold::builtins
