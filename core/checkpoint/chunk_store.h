// The checkpoints' content-addressed store: chunks of file contents (and the checkpoints' own
// records) kept once each under their ChunkId, in <data-dir>/checkpoints/<workspace>/chunks/.
// A chunk is written to a temporary file and renamed into place (core/files/atomic_file), unflushed:
// a checkpoint is a convenience, not the workspace's own data, and a flush per chunk would cost
// milliseconds per call. What a crash can leave is a missing or torn chunk, and every read checks
// the bytes against their id, so a torn chunk is reported, never restored.
//
// Chunks are compressed with zlib when that makes them smaller (source-like text to about 41 %;
// docs/checkpoints.md has the measurements), and kept raw otherwise.
#pragma once

#include "core/checkpoint/content_chunker.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>

namespace toold::core {

class ChunkStore {
public:
  struct Options {
    bool compress = true;
    int level = 1; ///< zlib's fastest; level 6 saves another 11 % on source-like text, which the budget does not need
  };

  /// The store in `directory` (created when missing). Throws std::runtime_error when it cannot be made.
  explicit ChunkStore(std::filesystem::path directory);
  ChunkStore(std::filesystem::path directory, Options options);
  ~ChunkStore();
  ChunkStore(const ChunkStore&) = delete;
  ChunkStore& operator=(const ChunkStore&) = delete;

  const std::filesystem::path& directory() const { return directory_; }

  /// Stores `bytes` unless a chunk of that id is already there. Returns its id, or what failed.
  std::variant<ChunkId, std::string> put(std::string_view bytes);
  bool contains(const ChunkId& id) const;
  /// The chunk's bytes; an error when it is missing (evicted), unreadable or not what its id says.
  std::variant<std::string, std::string> get(const ChunkId& id) const;
  /// Removes one chunk; true when it was there.
  bool remove(const ChunkId& id);

  /// A recording in progress: while held, no sweep runs, so a chunk a recording found already
  /// stored (and did not write again) is still there when its checkpoint names it. Shared: any
  /// number of recordings, in any toold on the workspace, hold at once.
  class Hold {
  public:
    explicit Hold(const ChunkStore& store);
    ~Hold();
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;

  private:
    int fd_ = -1;
  };

  struct Sweep {
    std::uint64_t chunksRemoved = 0, bytesFreed = 0;
    std::string error; ///< set when nothing was swept (a recording holds the store, or it cannot be read)
  };
  /// Eviction's second half: removes every chunk not in `live` (the chunks the remaining
  /// checkpoints and the baseline name). Refused while a Hold is held, never waiting for one.
  Sweep sweepExcept(const std::set<ChunkId>& live);

  /// Bytes the stored chunk files hold (their sizes, not their blocks).
  std::uint64_t storedBytes() const;

private:
  std::filesystem::path pathOf(const ChunkId& id) const;

  std::filesystem::path directory_;
  Options options_;
  int directoryFd_ = -1;
};

} // namespace toold::core
