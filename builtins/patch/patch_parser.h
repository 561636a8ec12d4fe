// The apply_patch envelope (`*** Begin Patch` … `*** End Patch`), parsed whole before anything is
// touched. Lenient where the intent is clear (whitespace around markers, a heredoc wrapper, a
// missing first `@@`, an empty line inside a chunk read as an empty context line), strict where it
// is not: an unknown header or a stray line is an error that names its line.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace toold::builtins {

/// One `@@` chunk of an Update: the context lines that narrow the search (`@@ class A` then
/// `@@ def f`), then the old and new lines (context lines are in both).
struct PatchChunk {
  std::vector<std::string> contexts; ///< the text after each `@@` (trimmed), in order; may be empty
  std::vector<std::string> oldLines; ///< ' ' and '-' lines, without the marker
  std::vector<std::string> newLines; ///< ' ' and '+' lines, without the marker
  /// Per new line: the index in `oldLines` of the same context line, or -1 for an added line. A
  /// context line that matched loosely is written as the file has it, not as the patch spells it.
  std::vector<int> contextOf;
  bool endOfFile = false;            ///< closed by `*** End of File`: anchored at the end of the file
  int line = 0;                      ///< 1-based patch line of its first `@@`, else of its first line
};

struct PatchFileOp {
  enum class Kind { Add, Delete, Update } kind = Kind::Add;
  std::string path;                    ///< as written (trimmed)
  std::optional<std::string> movePath; ///< Update with `*** Move to:`
  std::string contents;                ///< Add: the `+` lines, each followed by "\n"
  std::vector<PatchChunk> chunks;      ///< Update
  int line = 0;                        ///< 1-based line of the header
};

struct ParsedPatch {
  std::vector<PatchFileOp> operations;
};

/// Why a patch cannot be parsed, for the model: what is wrong and on which line, e.g.
/// "line 7: unknown header '*** Frobnicate File: a'; expected '*** Add File: <path>', '*** Delete
/// File: <path>' or '*** Update File: <path>'". `line` is 0 when no line applies (missing markers,
/// "empty patch"). Line numbers are those of the text as given: leading blank lines and a heredoc's
/// opening line count.
struct PatchParseError {
  std::string message;
  int line = 0;
};

/// Parses the whole text. Accepts: surrounding whitespace; a heredoc wrapper (`cat <<'EOF'` /
/// `<<EOF` / `apply_patch <<'EOF'` … `EOF`, both ends required); CRLF line ends; markers with
/// surrounding whitespace or a trailing ` ***` (`*** Begin Patch ***`); headers with any spacing
/// and header words in any case (`*** add file:a`); a unified-diff range after `@@`
/// (`@@ -3,4 +3,5 @@ def f():` gives the context `def f():`). The End marker is the last
/// `*** End Patch` line. A patch with Begin and End and nothing between is an error "empty patch".
/// An Update without changes, an Add line not starting with '+', and non-blank text before Begin
/// or after End are errors. Empty (or whitespace-only, other than ' ') lines inside an Add or a
/// chunk are empty lines, except trailing ones before the next header, `@@` or End.
std::variant<ParsedPatch, PatchParseError> parsePatch(std::string_view text);

} // namespace toold::builtins
