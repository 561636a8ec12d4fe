// What each session has read, so that no mutation overwrites a change it never saw (the lost
// update). `read` stamps a file with its identity and content hash; every mutating tool checks
// the stamp right before writing, and refreshes it after its own write so the next edit in a row
// is not taken for someone else's.
//
// Staleness is decided by content, with the identity only as a fast path: a `touch`, a checkout
// that rewrote the same bytes, or a clock step changes the mtime but not the text, and refusing
// then would only make the model read the file again for nothing.
#pragma once

#include "builtins/files/line_window.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <sys/stat.h>

namespace toold::builtins {

struct ReadStamp {
  FileIdentity identity;
  std::uint64_t contentHash = 0;
  std::chrono::system_clock::time_point readAt;
};

class ReadStamps {
public:
  /// Sessions keep at most this many stamps; the oldest is forgotten first (forgetting a stamp
  /// only relaxes the check to "no stamp").
  static constexpr std::size_t kMaxStampsPerSession = 4096;

  void record(const std::string& sessionID, const std::filesystem::path& path, ReadStamp stamp);
  void forget(const std::string& sessionID, const std::filesystem::path& path);
  std::optional<ReadStamp> find(const std::string& sessionID, const std::filesystem::path& path) const;

private:
  mutable std::mutex mutex_;
  struct SessionStamps {
    std::map<std::filesystem::path, ReadStamp> byPath;
    /// The same stamps, oldest first: evicting by a scan of byPath made every record past the cap
    /// cost 4,096 steps (a patch of 10,000 files spent a quarter of its user time there).
    std::set<std::pair<std::chrono::system_clock::time_point, std::filesystem::path>> byAge;
  };
  std::map<std::string, SessionStamps> sessions_;
};

/// A stamp for the version of a file whose bytes are `content` and whose status is `status`.
ReadStamp stampFor(const FileIdentity& identity, std::string_view content);

/// The identity `stat` describes.
FileIdentity identityOf(const struct stat& status);

enum class StampRule {
  IfStamped, ///< a stamp, when the session has one, must be current
  Required,  ///< the session must have a current stamp (overwriting an existing file whole)
};

/// Empty when `session` may change the file at `path` whose current bytes are `content` and
/// identity `identity`; else the refusal for the model, naming `displayPath`: "You must read file
/// <path> before overwriting it. …" or "File <path> has been modified since it was last read. …".
std::string checkStamp(const ReadStamps& stamps, const std::string& sessionID, const std::filesystem::path& path,
                       std::string_view displayPath, const FileIdentity& identity, std::string_view content,
                       StampRule rule);

} // namespace toold::builtins
