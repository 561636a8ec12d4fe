#include "builtins/codemode/catalog_search.h"

#include <algorithm>

namespace toold::codemode {

using json = nlohmann::json;

namespace {

bool isAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool isUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool isLower(char c) { return c >= 'a' && c <= 'z'; }

std::string lowercase(std::string text) {
  for (char& c : text)
    if (isUpper(c)) c = static_cast<char>(c - 'A' + 'a');
  return text;
}

std::string trimmed(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

bool endsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

int termScore(const std::string& form, const std::string& path, const std::string& description,
              const std::string& searchText) {
  int score = 0;
  if (path == form || endsWith(path, "." + form)) score += 20;
  if (path.find(form) != std::string::npos) score += 8;
  if (description.find(form) != std::string::npos) score += 4;
  if (searchText.find(form) != std::string::npos) score += 2;
  return score;
}

std::size_t readCount(const json& input, const char* key, std::size_t fallback, bool positive) {
  auto it = input.find(key);
  if (it == input.end() || it->is_null()) return fallback;
  const bool integral = it->is_number_unsigned() || (it->is_number_integer() && it->get<std::int64_t>() >= 0) ||
                        (it->is_number_float() && it->get<double>() >= 0 &&
                         it->get<double>() == static_cast<double>(static_cast<std::uint64_t>(it->get<double>())));
  if (!integral) throw SearchInputError(std::string("search: `") + key + "` must be a " +
                                        (positive ? "positive" : "non-negative") + " integer");
  const auto value = it->is_number_float() ? static_cast<std::size_t>(it->get<double>()) : it->get<std::size_t>();
  if (positive && value == 0) throw SearchInputError(std::string("search: `") + key + "` must be a positive integer");
  return value;
}

} // namespace

SearchRequest parseSearchRequest(const json& input) {
  SearchRequest request;
  if (input.is_null()) return request;
  if (!input.is_object()) throw SearchInputError("search: expects one input object {query?, namespace?, limit?, offset?}");
  for (const auto& [key, value] : input.items())
    if (key != "query" && key != "namespace" && key != "limit" && key != "offset")
      throw SearchInputError("search: unknown key `" + key + "` (expected query, namespace, limit or offset)");
  if (auto it = input.find("query"); it != input.end() && !it->is_null()) {
    if (!it->is_string()) throw SearchInputError("search: `query` must be a string");
    request.query = it->get<std::string>();
  }
  if (auto it = input.find("namespace"); it != input.end() && !it->is_null()) {
    if (!it->is_string()) throw SearchInputError("search: `namespace` must be a string");
    request.ns = it->get<std::string>();
  }
  request.limit = readCount(input, "limit", 10, true);
  request.offset = readCount(input, "offset", 0, false);
  return request;
}

std::vector<std::string> searchTerms(const std::string& query) {
  std::vector<std::string> terms;
  std::string current;
  auto flush = [&] {
    if (!current.empty()) terms.push_back(lowercase(std::move(current)));
    current.clear();
  };
  for (std::size_t i = 0; i < query.size(); ++i) {
    const char c = query[i];
    if (!isAlnum(c)) {
      flush();
      continue;
    }
    if (isUpper(c) && i > 0 && isLower(query[i - 1])) flush();
    current += c;
  }
  flush();
  return terms;
}

json searchCatalog(const std::vector<CatalogEntry>& entries, const SearchRequest& request) {
  std::vector<const CatalogEntry*> scope;
  for (const auto& entry : entries)
    if (!request.ns || entry.key == *request.ns || entry.key.rfind(*request.ns + ".", 0) == 0) scope.push_back(&entry);

  std::vector<std::pair<int, const CatalogEntry*>> ranked;
  std::string query = trimmed(request.query);
  // An exact path (dotted, or as a path expression) answers that tool alone.
  const ToolPath exact = parsePathExpression(query);
  for (const auto* entry : scope)
    if (!query.empty() && (entry->key == query || (!exact.empty() && entry->path == exact))) ranked.emplace_back(0, entry);
  if (ranked.size() != 1) {
    ranked.clear();
    if (query.rfind("tools.", 0) == 0) query = query.substr(6);
    const auto terms = searchTerms(query);
    for (const auto* entry : scope) {
      const std::string path = lowercase(entry->key);
      const std::string description = lowercase(entry->description);
      int score = 0;
      for (const auto& term : terms) {
        int best = termScore(term, path, description, entry->searchText);
        if (term.size() > 3 && endsWith(term, "es"))
          best = std::max(best, termScore(term.substr(0, term.size() - 2), path, description, entry->searchText));
        if (term.size() > 2 && endsWith(term, "s"))
          best = std::max(best, termScore(term.substr(0, term.size() - 1), path, description, entry->searchText));
        score += best;
      }
      if (terms.empty() || score > 0) ranked.emplace_back(score, entry);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second->key < b.second->key;
    });
  }

  json items = json::array();
  const std::size_t start = std::min(request.offset, ranked.size());
  const std::size_t end = std::min(ranked.size(), start + std::min(request.limit, ranked.size()));
  for (std::size_t i = start; i < end; ++i)
    items.push_back({{"path", ranked[i].second->expression},
                     {"description", ranked[i].second->description},
                     {"signature", ranked[i].second->signature}});
  const std::size_t remaining = ranked.size() - end;
  return json{{"items", std::move(items)},
              {"remaining", remaining},
              {"next", remaining > 0 ? json{{"offset", end}} : json(nullptr)}};
}

} // namespace toold::codemode
