// Keeping a workspace's checkpoints under their budget: past it, the sessions whose last checkpoint
// is oldest go first, whole. Their manifests are removed, their index is rewritten to one line
// saying when and why ("evicted\t<ms>\t<budget>", which CheckpointBook::history reads), and the
// chunks no remaining manifest names are swept. Run off the call path (the ToolService's hourly
// cleanup, and a few seconds after start): it lists the whole store.
#pragma once

#include "core/checkpoint/checkpoint_book.h"

#include <cstdint>
#include <string>
#include <vector>

namespace toold::core {

struct Eviction {
  std::uint64_t bytesBefore = 0, bytesAfter = 0;
  std::vector<std::string> sessions; ///< the keys of the evicted sessions' indexes, oldest first
  std::string error;                 ///< set when the sweep was put off or failed
};

/// Evicts until the book's bytes (chunks and manifests) are within options().budgetBytes, or no
/// session is left to evict. `nowMs` is recorded in each evicted session's index.
Eviction evictOverBudget(CheckpointBook& book, std::int64_t nowMs);

} // namespace toold::core
