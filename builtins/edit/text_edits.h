// Applying a list of edits (oldString → newString) to a file's bytes: what `edit` does with one
// edit and `multiedit` with several, in order, on the running result. Each edit is matched on the
// decoded LF text and spliced into the raw bytes, so the BOM, each line's own ending and the
// final newline survive, and edits sent with CRLF or LF match either way.
#pragma once

#include "builtins/edit/edit_matcher.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace toold::builtins {

struct TextEdit {
  std::string oldString;
  std::string newString;
  bool replaceAll = false;
};

struct AppliedEdits {
  std::string bytes;
  /// Per edit: {"match": step name, "replacements": n, "note"?: what was tolerated}
  nlohmann::json results = nlohmann::json::array();
  /// Model-facing notes for edits that needed a tolerant match ("edit 2: indentation shifted …").
  std::vector<std::string> notes;
};

/// Applies `edits` to `bytes` (the file `displayPath`), all or nothing. An empty oldString is not
/// handled here (the tools treat it as "create"). The error is for the model; with more than one
/// edit it names the edit that failed and says that none was applied. No edit may leave more than
/// `maxResultBytes`: the size is known before the result is built, so an amplifying replaceAll
/// fails without taking the memory it asks for.
std::variant<AppliedEdits, std::string> applyTextEdits(const std::string& bytes, const std::vector<TextEdit>& edits,
                                                       std::string_view displayPath, std::size_t maxResultBytes);

} // namespace toold::builtins
