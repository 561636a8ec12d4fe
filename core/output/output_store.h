// The managed folder `<data-dir>/tool-output/`: one file per truncated tool result, holding the
// full text the model was shown only a preview of, so it can read the rest later. Files are
// named `tool_<id>` with time-sortable ids and are removed by age.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace toold::core {

/// The full text could not be kept. The message names the path and the system's reason.
struct StorageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class OutputStore {
public:
  /// The folder is `dataDir / "tool-output"`, made absolute now so every path handed out names
  /// the same file whatever the working directory is later. Nothing is created until retain().
  explicit OutputStore(std::filesystem::path dataDir);

  const std::filesystem::path& folder() const { return folder_; }

  /// Writes `text` to a new file `tool_<id>` (created exclusively, mode 0600; the folder and any
  /// missing parent are created 0700) and returns its absolute path. Thread-safe.
  /// Throws StorageError when the text cannot be written whole; no partial file is left behind.
  std::filesystem::path retain(std::string_view text);

  struct CleanupReport {
    std::size_t deleted = 0;
    std::size_t kept = 0;   ///< younger `tool_` files and every entry not named `tool_...`
    std::size_t failed = 0; ///< entries whose age could not be read or that could not be removed
  };
  /// Deletes the regular files named `tool_...` last modified more than `maxAge` before `now`.
  /// Never throws: a missing folder is an empty one, and errors are counted, not raised.
  CleanupReport cleanup(std::filesystem::file_time_type now,
                        std::chrono::hours maxAge = std::chrono::hours(24 * 7));

private:
  std::filesystem::path folder_;
};

/// A new id: 14 lowercase hex digits of (milliseconds since the epoch * 0x1000 + a per-process
/// counter, kept increasing even when the clock steps back), then 14 random base62 characters.
/// Within a process ids never repeat and sort in creation order. 14 digits hold the whole value
/// until the year 2527; 12 (opencode's width) would wrap every 795 days and break the order.
std::string newOutputId();

} // namespace toold::core
