// Which diagnostics `metadata.diagnostics` keeps. A tool's metadata must stay under 16 KiB once
// encoded or the whole of it is dropped (core/tools/tool_content.h) — the diff the runner's UI
// shows included — and a file with hundreds of warnings would take it over alone. So the items
// share a byte budget: the errors the change caused first, then the other errors, then warnings,
// then the rest; each entry keeps its items in the server's order and says how many it left out.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <vector>

namespace toold::builtins {

/// What the items of all entries may take together, encoded: room beside the 8 KiB of diff an
/// edit's metadata shows, under the 16 KiB limit.
inline constexpr std::size_t kDiagnosticsMetadataBytes = 6 * 1024;

/// One item and how much it matters: 0 an error the change caused, 1 another error, 2 a warning,
/// 3 information or a hint.
struct RankedItem {
  nlohmann::json item;
  int rank = 0;
};

/// Keeps, across `entries` (each one file's ranked items, in the server's order), the most
/// important items that fit in `budgetBytes`, and returns each entry's kept items in their order,
/// with how many were left out in `omitted[i]`.
std::vector<nlohmann::json> keepWithinBudget(std::vector<std::vector<RankedItem>> entries, std::vector<std::size_t>& omitted,
                                             std::size_t budgetBytes = kDiagnosticsMetadataBytes);

/// The rank of a diagnostic of `severity` (LSP: 1 error … 4 hint), `caused` by the change or not.
int diagnosticRank(int severity, bool caused);

} // namespace toold::builtins
