// The type blanker: erases the TypeScript-only syntax models add to Code Mode programs
// (`: Type` annotations, `as T`, `satisfies T`, postfix `!`, generic arguments, `interface`,
// `type X = …`, `import type`, `declare`) by overwriting it with spaces. Newlines are kept, so
// every remaining token keeps its line and column and the engine's errors still point into the
// model's source. It is a tokenizer with rules, not a TypeScript parser: plain JavaScript must come
// out byte-identical, and what it cannot erase (`enum`, `namespace`) is reported, not guessed.
#pragma once

#include <string>
#include <vector>

namespace toold::codemode {

struct BlankedProgram {
  std::string text;                     ///< the program with its erasable type syntax blanked
  std::vector<std::string> unsupported; ///< non-erasable TypeScript found ("enum", "namespace")
};

/// Linear in the size of `source`.
BlankedProgram blankTypes(const std::string& source);

} // namespace toold::codemode
