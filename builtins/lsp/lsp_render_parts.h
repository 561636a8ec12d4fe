// The pieces the lsp tool's renderers share: reading positions and locations out of a server's
// JSON without trusting it, naming files the way the model sees them, and the listing that counts,
// sorts and truncates. Private to builtins/lsp.
#pragma once

#include "builtins/lsp/lsp_render.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::builtins::lsp_render {

/// An LSP position. The character is in UTF-16 code units as the server gave it; it is shown
/// 1-based as is, not re-mapped to bytes or code points (the two agree on ASCII lines, and the
/// model reads columns as a hint).
struct Position {
  std::int64_t line = 0;
  std::int64_t character = 0;
  std::string text() const; ///< "12:5", 1-based
  bool operator<(const Position& other) const {
    return line != other.line ? line < other.line : character < other.character;
  }
};

struct Range {
  Position start;
  Position end;
};

std::optional<Position> readPosition(const nlohmann::json& value);
std::optional<Range> readRange(const nlohmann::json& value);
/// The string at `key`, when the value is an object holding one there.
std::optional<std::string> stringAt(const nlohmann::json& value, std::string_view key);

/// A file as the model sees it.
struct FileName {
  std::string shown;   ///< relative to the workspace when inside, else absolute; a non-file URI as given
  bool outside = false;
  std::optional<std::filesystem::path> readable; ///< set when inside: snippets may be read from it
  /// For sorting: inside files first, then by the name shown.
  bool operator<(const FileName& other) const {
    return outside != other.outside ? !outside : shown < other.shown;
  }
};

FileName nameFile(std::string_view uri, const LspRenderContext& context);

/// A place in a file: where a location, symbol or call item points.
struct Place {
  FileName file;
  Position position;
  bool operator<(const Place& other) const {
    if (file < other.file) return true;
    if (other.file < file) return false;
    return position < other.position;
  }
  /// "src/a.cpp:12:5", or "/etc/hosts:1:1 (outside the workspace)"; `withColumn` false: "src/a.cpp:12".
  std::string text(bool withColumn = true) const;
};

/// A Location ({uri, range}) or LocationLink ({targetUri, targetSelectionRange|targetRange}).
std::optional<Place> readLocation(const nlohmann::json& value, const LspRenderContext& context);

/// The trimmed line at a place inside the workspace, cut to a few hundred bytes; empty when there
/// is none (outside, no reader, unreadable).
std::string snippet(const Place& place, const LspRenderContext& context);

/// The LSP SymbolKind's name (1 File … 26 TypeParameter); "Symbol" for a number beyond the table.
std::string kindName(std::int64_t kind);
/// The kind of a symbol or call item: an integer, else nullopt (malformed).
std::optional<std::int64_t> readKind(const nlohmann::json& value);

/// Counts while a renderer reads the result, and assembles the text.
struct Tally {
  std::size_t count = 0;
  std::size_t outside = 0;
  std::size_t skipped = 0;
  bool truncated = false;
};

/// Lines first, then "... and N more" when some were held back, then the skipped note.
LspRendered finish(std::vector<std::string> lines, const Tally& tally);
/// The answer for a result that is none of the shapes the operation may return.
LspRendered unexpectedShape(std::string_view operation, const nlohmann::json& result);
/// The answer when there is nothing to show: `message`, and the skipped note if any.
LspRendered nothingFound(std::string_view message, const Tally& tally);

/// The note appended to a listing whose length was capped.
std::string moreLine(std::size_t hidden);

LspRendered renderDocumentSymbols(const nlohmann::json& result, const LspRenderContext& context);
LspRendered renderWorkspaceSymbols(const nlohmann::json& result, const LspRenderContext& context);
LspRendered renderCallItems(const nlohmann::json& result, const LspRenderContext& context);
/// incomingCalls (`incoming` true) and outgoingCalls.
LspRendered renderCalls(const nlohmann::json& result, bool incoming, const LspRenderContext& context);

} // namespace toold::builtins::lsp_render
