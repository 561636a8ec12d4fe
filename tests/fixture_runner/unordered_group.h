// Matching of a `<*` group: N messages against N patterns, in whatever order toold sent them.
#pragma once

#include "captures.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <vector>

namespace toold::fixture {

struct GroupMatch {
  bool matched = false;
  /// When matched: messageFor[i] is the index of the message pattern i matched.
  std::vector<std::size_t> messageFor;
  /// When not matched: the patterns that match none of the messages on their own. Empty when each
  /// pattern matches some message but no one-to-one assignment satisfies all of them at once.
  std::vector<std::size_t> unmatchedPatterns;
};

/// Finds a one-to-one assignment of `messages` to `patterns` (same count) under which every
/// pattern matches, trying assignments in order so captures stay consistent across the group.
/// On success the captures of the chosen assignment are added to `captures`.
GroupMatch matchUnordered(const std::vector<nlohmann::json>& patterns, const std::vector<nlohmann::json>& messages,
                          Captures& captures);

} // namespace toold::fixture
