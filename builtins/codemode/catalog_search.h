// `search({query, namespace, limit, offset})` inside Code Mode programs: finds tools of the
// catalog by words. A query that names a path exactly answers that tool alone; otherwise each
// word scores per tool (+20 the path is or ends with it, +8 the path contains it, +4 the
// description does, +2 the searchable text does; a plural `s`/`es` is also tried without it) and
// tools are ranked by score, then path. An empty query browses everything.
#pragma once

#include "builtins/codemode/catalog_entry.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace toold::codemode {

struct SearchRequest {
  std::string query;
  std::optional<std::string> ns; ///< only paths equal to it or under it
  std::size_t limit = 10;
  std::size_t offset = 0;
};

/// A search input a program cannot be given an answer for; the message says what is wrong.
struct SearchInputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Reads `{query?, namespace?, limit?, offset?}` (null or absent: all defaults). Throws SearchInputError.
SearchRequest parseSearchRequest(const nlohmann::json& input);

/// The words of a query: camelCase split, lowercased, split at every non-alphanumeric.
std::vector<std::string> searchTerms(const std::string& query);

/// `{items: [{path, description, signature}], remaining, next: {offset} | null}`.
nlohmann::json searchCatalog(const std::vector<CatalogEntry>& entries, const SearchRequest& request);

} // namespace toold::codemode
