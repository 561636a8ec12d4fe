// The outputs kept last, by their content's hash: a cut output whose text is the same as one of
// them names that file again instead of writing the same text to a new one (a tool called again
// with the same answer, an MCP server's page read twice). The hash only finds the candidate; the
// store makes sure the file still holds the text before it names the file (OutputStore::retain).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

namespace toold::core {

/// A 128-bit hash of a text, seeded at random per process: an output a tool or server shaped to
/// collide with an earlier one cannot be aimed at this process's seed.
struct TextHash {
  std::uint64_t low = 0;
  std::uint64_t high = 0;
  friend bool operator==(const TextHash&, const TextHash&) = default;
};

/// What the store last saw of a kept file when it found the file holding its text. A later stat
/// showing the same file, size and change time proves the file unchanged since, without reading
/// it, once `settled`: its change time lay far enough before that look that any later write
/// (which sets the change time from a clock of a few milliseconds' granularity) changes it.
struct KeptFileSeen {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::int64_t changedSeconds = 0;
  std::int64_t changedNanoseconds = 0;
  bool settled = false;
};

class RecentOutputs {
public:
  /// Enough for the outputs one conversation turns over while a page is read again; few enough
  /// that a look-up is a short scan.
  static constexpr std::size_t kRemembered = 32;

  struct Entry {
    std::string name;
    TextHash hash;
    std::uint64_t size = 0;
    KeptFileSeen seen;
  };

  static TextHash hashOf(std::string_view text);

  /// The file last kept for a text of this hash and size, if it is remembered.
  std::optional<Entry> find(const TextHash& hash, std::uint64_t size) const;
  /// A file kept whole for a text of this hash and size; the oldest remembered one is forgotten
  /// past kRemembered.
  void remember(std::string name, const TextHash& hash, std::uint64_t size, const KeptFileSeen& seen);
  /// The file was found holding its text again; nothing happens if it was forgotten meanwhile.
  void saw(std::string_view name, const KeptFileSeen& seen);
  /// The file is gone or no longer holds its text.
  void forget(std::string_view name);

private:
  std::deque<Entry> entries_; // newest last
};

} // namespace toold::core
