// Code Mode's catalog as a snapshot shows it: the inventory's tools as catalog entries (their
// paths in the `tools` tree, their signatures), and the snapshot result's `codemode` field —
// {instructions, summary, delta?} — where the delta is told relative to the previous Code Mode
// snapshot of the same session.
#pragma once

#include "builtins/codemode/catalog_summary.h"
#include "core/tools/snapshot.h"

#include <nlohmann/json.hpp>

#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace toold::builtins {

/// The catalog entries of a snapshot's Code Mode inventory, sorted by path.
std::vector<codemode::CatalogEntry> catalogEntries(const core::Snapshot& inventory);

class CodemodeCatalogs {
public:
  explicit CodemodeCatalogs(std::size_t budget = codemode::kDefaultCatalogBudget, std::size_t sessions = 4096);

  /// The `codemode` field of a snapshot's result, or nothing: Code Mode is off and the session
  /// never had it. Remembers what the session was shown.
  std::optional<nlohmann::json> snapshotField(const core::Snapshot& snapshot);

private:
  std::size_t budget_;
  std::size_t capacity_;
  std::mutex mutex_;
  std::list<std::string> order_; ///< sessions, most recently shown first
  std::map<std::string, std::pair<codemode::CatalogSummary, std::list<std::string>::iterator>> shown_;
};

} // namespace toold::builtins
