// Applying an Update's chunks to a file's lines: each chunk's old lines are located after the
// previous chunk (narrowed by its `@@` contexts) in five passes of decreasing strictness — exact,
// trailing whitespace ignored, surrounding whitespace ignored, whitespace runs inside lines
// collapsed, typographic punctuation folded — then in the same five passes with blank lines
// anywhere ignored. A chunk that fits in more than one place within the pass that found it is
// refused, never guessed, unless it follows an `@@` context: that is the patch's own choice of
// place, and the first fit at or after it wins.
#pragma once

#include "builtins/patch/patch_parser.h"

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace toold::builtins {

/// Why the chunks do not apply, for the model. Names the chunk (its patch line), the context or
/// lines that were not found, and where it did match when ambiguous, e.g.
/// "chunk at patch line 12: could not find these lines in src/a.py:\n  def f():\n  return 1\n"
/// + "The nearest lines are 40-41:\n40: def f(x):\n41:     return 1" when something is close.
struct ChunkError {
  std::string message;
};

/// `lines` is the file split on "\n" (decoded, LF) without the empty element after a final
/// newline. Returns the new lines. Each `@@` context moves the search past the first line at or
/// after it that equals the context trimmed (then whitespace-collapsed, then punctuation-folded).
/// Old lines not found that end with an empty line are looked for again without it (and a final
/// empty new line is dropped too). When blank lines were skipped to match, the file's blank lines
/// stay as they are: the patch's blank context lines are dropped, and the file's blank lines
/// between two context lines stay on their side of the lines the chunk changes. Pure addition chunks (no old lines) insert after the last `@@` context line when there is
/// one, else at the end of the file. `endOfFile` chunks must match at the end (additions go
/// there). New lines are the patch's, verbatim, also where a looser pass matched. `path` is only
/// for messages.
std::variant<std::vector<std::string>, ChunkError> applyChunks(const std::vector<std::string>& lines,
                                                               const std::vector<PatchChunk>& chunks,
                                                               std::string_view path);

} // namespace toold::builtins
