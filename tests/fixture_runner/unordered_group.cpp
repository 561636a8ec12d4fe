// Backtracking search: groups are a handful of messages, so trying assignments is cheap and keeps
// the captures of a failed branch from leaking into the next one.
#include "unordered_group.h"

#include "json_pattern.h"

#include <stdexcept>

namespace toold::fixture {
namespace {

bool assign(const std::vector<nlohmann::json>& patterns, const std::vector<nlohmann::json>& messages, std::size_t next,
            std::vector<bool>& used, std::vector<std::size_t>& messageFor, Captures& captures) {
  if (next == patterns.size()) return true;
  for (std::size_t m = 0; m < messages.size(); ++m) {
    if (used[m]) continue;
    Captures branch = captures;
    if (!matchPattern(patterns[next], messages[m], branch)) continue;
    used[m] = true;
    messageFor[next] = m;
    if (assign(patterns, messages, next + 1, used, messageFor, branch)) {
      captures = std::move(branch);
      return true;
    }
    used[m] = false;
  }
  return false;
}

} // namespace

GroupMatch matchUnordered(const std::vector<nlohmann::json>& patterns, const std::vector<nlohmann::json>& messages,
                          Captures& captures) {
  if (patterns.size() != messages.size())
    throw std::logic_error("matchUnordered: as many messages as patterns are needed");
  GroupMatch result;
  std::vector<bool> used(messages.size(), false);
  result.messageFor.assign(patterns.size(), 0);
  Captures branch = captures;
  if (assign(patterns, messages, 0, used, result.messageFor, branch)) {
    captures = std::move(branch);
    result.matched = true;
    return result;
  }
  result.messageFor.clear();
  for (std::size_t p = 0; p < patterns.size(); ++p) {
    bool any = false;
    for (const auto& message : messages) {
      Captures scratch = captures;
      if (matchPattern(patterns[p], message, scratch)) {
        any = true;
        break;
      }
    }
    if (!any) result.unmatchedPatterns.push_back(p);
  }
  return result;
}

} // namespace toold::fixture
