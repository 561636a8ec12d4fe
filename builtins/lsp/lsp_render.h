// What the lsp tool shows the model of a language server's answer. Models work far better with
// compact, symbol-centred text and paths relative to the workspace than with raw LSP JSON, so each
// operation's result becomes a few lines: `src/a.cpp:12:5: <the line>` for locations, references
// grouped per file, an indented outline for a file's symbols. Pure functions: the only access to
// files is the injected line reader, and only for files inside the workspace.
#pragma once

#include "core/lsp/lsp_uri.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace toold::builtins {

struct LspRenderContext {
  std::filesystem::path workspace; ///< canonical; inside paths are shown relative to it
  /// Whether a file may be shown (inside the workspace boundary); outside files are listed by
  /// absolute path, marked "(outside the workspace)", and never read. Unset: every file is outside.
  std::function<bool(const std::filesystem::path&)> inside;
  /// The text of line `line0` (0-based) of an inside file, for a one-line snippet; nullopt when
  /// unreadable. May be empty (then no snippets).
  std::function<std::optional<std::string>(const std::filesystem::path&, int line0)> lineText;
  std::size_t maxItems = 200; ///< items shown; beyond: "... and N more"
};

struct LspRendered {
  std::string text;
  /// {"count": items found, "outside": those outside the workspace, "truncated": more than
  /// maxItems, "skipped": malformed pieces left out}
  nlohmann::json metadata;
};

/// Renders the result of one of the lsp tool's operations (goToDefinition, goToImplementation,
/// findReferences, hover, documentSymbol, workspaceSymbol, prepareCallHierarchy, incomingCalls,
/// outgoingCalls). Never throws on the result's content: malformed pieces are skipped and counted,
/// and a result of an unexpected shape is shown, bounded, after a line saying so.
LspRendered renderLspResult(std::string_view operation, const nlohmann::json& result, const LspRenderContext& context);

} // namespace toold::builtins
