// The Code Mode catalog the runner puts in the system prompt: which tools are listed within a
// token budget, the text listing them, and — between two requests of a session — the shorter
// "catalog has changed" text.
//
// Budget: every namespace (first path segment) gets its header line; pinned tools are always
// listed; then, round by round, each namespace still active offers its next cheapest listing
// (estimated tokens = round(characters / 4); ties by path) and drops out when it does not fit.
// So a large namespace cannot crowd out the small ones. A catalog that shows fewer tools than it
// has is "partial" and tells the model to `search`.
#pragma once

#include "builtins/codemode/catalog_entry.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace toold::codemode {

inline constexpr std::size_t kDefaultCatalogBudget = 2000;

struct CatalogListing {
  std::string path; ///< the dotted path
  std::string line; ///< "  - <signature> // <description>", continuation lines indented
  bool operator==(const CatalogListing&) const = default;
};

struct CatalogNamespace {
  std::string name;
  std::size_t count = 0;
  std::vector<CatalogListing> entries; ///< the listed ones; hidden entries are not kept
  bool operator==(const CatalogNamespace&) const = default;
};

struct CatalogSummary {
  std::size_t total = 0;
  std::size_t shown = 0;
  std::vector<CatalogNamespace> namespaces; ///< by name, code-unit order
  bool complete() const { return shown == total; }
  bool operator==(const CatalogSummary&) const = default;
};

/// Estimated tokens of a text: round(characters / 4).
std::size_t estimatedTokens(const std::string& text);

/// The listing line of one entry.
std::string listingLine(const CatalogEntry& entry);

CatalogSummary summarizeCatalog(const std::vector<CatalogEntry>& entries, std::size_t budget = kDefaultCatalogBudget);

/// The instructions: a notice when there is no tool, else the preamble (complete or partial, the
/// `search` hint when partial) and every namespace with its listed tools.
std::string renderCatalog(const CatalogSummary& summary);

/// What to tell a model that was shown `previous` (null: none) now that the catalog is `current`
/// (null: Code Mode is gone): nothing when nothing changed, else a delta when shorter than the full
/// replacement, else the replacement.
std::optional<std::string> catalogChange(const CatalogSummary* previous, const CatalogSummary* current);

nlohmann::json summaryToJson(const CatalogSummary& summary);

/// The `search` function's signature, as the partial catalog shows it.
extern const char* const kSearchSignature;

} // namespace toold::codemode
