#include "builtins/lsp/diagnostics_metadata.h"

#include <algorithm>
#include <tuple>

namespace toold::builtins {

using json = nlohmann::json;

int diagnosticRank(int severity, bool caused) {
  if (severity <= 1) return caused ? 0 : 1;
  return severity == 2 ? 2 : 3;
}

std::vector<json> keepWithinBudget(std::vector<std::vector<RankedItem>> entries, std::vector<std::size_t>& omitted,
                                   std::size_t budgetBytes) {
  struct Candidate {
    int rank;
    std::size_t entry;
    std::size_t index;
  };
  std::vector<Candidate> candidates;
  for (std::size_t e = 0; e < entries.size(); ++e)
    for (std::size_t i = 0; i < entries[e].size(); ++i) candidates.push_back({entries[e][i].rank, e, i});
  // Stable by importance, then by file and position: the first files' first errors win ties.
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.rank, a.entry, a.index) < std::tie(b.rank, b.entry, b.index);
  });
  std::vector<std::vector<bool>> kept(entries.size());
  for (std::size_t e = 0; e < entries.size(); ++e) kept[e].assign(entries[e].size(), false);
  std::size_t used = 0;
  for (const auto& candidate : candidates) {
    // The encoded item and its separating comma.
    const std::size_t bytes = entries[candidate.entry][candidate.index].item.dump().size() + 1;
    if (used + bytes > budgetBytes) continue; // a smaller, less important item may still fit
    used += bytes;
    kept[candidate.entry][candidate.index] = true;
  }
  std::vector<json> out(entries.size(), json::array());
  omitted.assign(entries.size(), 0);
  for (std::size_t e = 0; e < entries.size(); ++e) {
    for (std::size_t i = 0; i < entries[e].size(); ++i) {
      if (kept[e][i]) out[e].push_back(std::move(entries[e][i].item));
      else ++omitted[e];
    }
  }
  return out;
}

} // namespace toold::builtins
