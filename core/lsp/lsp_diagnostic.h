// A language server's diagnostic as toold keeps it, and the rule that tells the errors an edit
// caused from those that were in the file before it: the model is sent to fix what it broke, not
// on a detour through errors it found there.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace toold::core {

/// One diagnostic, positions 0-based as LSP gives them (columns in UTF-16 units).
struct LspDiagnostic {
  int severity = 1; ///< 1 error, 2 warning, 3 information, 4 hint (a missing severity counts as an error)
  int line = 0;
  int character = 0;
  int endLine = 0;
  int endCharacter = 0;
  std::string message;
  std::string source; ///< "clang", "pyflakes", …; may be empty
  std::string code;   ///< the server's code as text; may be empty
  bool operator==(const LspDiagnostic&) const = default;
};

/// Reads one diagnostic of a publishDiagnostics; nullopt when it lacks a range or a message.
/// Messages are cut at 2,000 bytes (a server's template error can run to pages).
std::optional<LspDiagnostic> parseLspDiagnostic(const nlohmann::json& value);

/// `{"severity": "error", "line": 12, "column": 5, "message": …}` with 1-based positions, for
/// metadata and the runner's `lsp/diagnostics`.
nlohmann::json diagnosticToJson(const LspDiagnostic& diagnostic);

/// `ERROR [12:5] message` (1-based), as opencode prints it.
std::string formatDiagnosticLine(const LspDiagnostic& diagnostic);

/// A change of lines between two versions of a file: `oldCount` lines at `oldStart` became
/// `newCount` lines at `newStart` (0-based).
struct LineChange {
  int oldStart = 0;
  int oldCount = 0;
  int newStart = 0;
  int newCount = 0;
};

/// The one region where `before` and `after` differ, found by their common leading and trailing
/// lines; empty when they are equal. One region is coarse for an edit that touched two far
/// places, but exact enough for moving the diagnostics outside it.
std::vector<LineChange> changedLines(std::string_view before, std::string_view after);

/// For each of `after`, whether the edit caused it (true) or it was already there (false). A
/// diagnostic was already there when `before` holds one with the same severity, code and
/// message, paired one to one: first those whose line, moved by the lines the edit added or
/// removed above it, is the same; then any left of the same text (the code around it moved).
/// Counting keeps a second copy of an old error new: two "too many arguments" where there was one
/// is one new error.
std::vector<bool> causedByChange(const std::vector<LspDiagnostic>& after, const std::vector<LspDiagnostic>& before,
                                 const std::vector<LineChange>& changes);

} // namespace toold::core
