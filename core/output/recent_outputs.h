// The outputs kept last, by their content's hash: a cut output whose text is the same as one of
// them names that file again instead of writing the same text to a new one (a tool called again
// with the same answer, an MCP server's page read twice). The hash only finds the candidate; the
// store compares the file's bytes with the text before it names the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

namespace toold::core {

class RecentOutputs {
public:
  /// Enough for the outputs one conversation turns over while a page is read again; few enough
  /// that a look-up is a short scan.
  static constexpr std::size_t kRemembered = 32;

  /// The 64-bit hash a text is remembered by.
  static std::uint64_t hashOf(std::string_view text);

  /// The name of the file last kept for a text of this hash and size, if it is remembered.
  std::optional<std::string> find(std::uint64_t hash, std::uint64_t size) const;
  /// A file kept whole for a text of this hash and size; the oldest remembered one is forgotten
  /// past kRemembered.
  void remember(std::string name, std::uint64_t hash, std::uint64_t size);
  /// The file is gone or no longer holds its text.
  void forget(std::string_view name);

private:
  struct Entry {
    std::string name;
    std::uint64_t hash;
    std::uint64_t size;
  };
  std::deque<Entry> entries_; // newest last
};

} // namespace toold::core
