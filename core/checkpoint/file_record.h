// What a checkpoint knows of one path at one moment: its kind (file, symlink, folder), permission
// bits, size, modification stamp, and its content — a file's chunks in the store, a symlink's
// target — or only its hash when the file is over the size limit (such a version is seen in a diff
// but cannot be restored). The stamp (size, mtime, inode) lets a later scan skip reading a file
// that has not changed; the content hash is what decides whether two versions are the same.
#pragma once

#include "core/checkpoint/chunk_store.h"
#include "core/checkpoint/content_chunker.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <variant>
#include <vector>

namespace toold::core {

enum class EntryKind : char { File = 'f', Symlink = 'l', Folder = 'd' };

struct FileRecord {
  std::string path; ///< workspace-relative, '/'-separated
  EntryKind kind = EntryKind::File;
  mode_t mode = 0;  ///< permission bits (07777)
  std::uint64_t size = 0;
  std::int64_t mtimeNanoseconds = 0;
  std::uint64_t inode = 0;
  ChunkId content;             ///< XXH3-128 of a file's bytes or a symlink's target; zero for a folder
  std::vector<ChunkId> chunks; ///< a file's chunks in order (none when empty or hash-only)
  std::string linkTarget;      ///< a symlink's target, byte for byte
  bool hashOnly = false;       ///< over the size limit: content known by hash alone, not restorable
  bool operator==(const FileRecord&) const = default;

  /// The same content and kind (what a person's edit would change), whatever the stamps.
  bool sameContent(const FileRecord& other) const;
  /// The same content, kind and mode.
  bool sameState(const FileRecord& other) const { return sameContent(other) && mode == other.mode; }
};

struct RecordingLimits {
  std::uint64_t hashOnlyOver = 16 * 1024 * 1024; ///< files larger than this are recorded by hash alone
  ChunkingLimits chunking;
};

/// Records `path` below the folder `root` as it is now; its content goes into `store` (nothing
/// when `store` is null: a check of what the path holds). nullopt when nothing is there; an error
/// when it cannot be read or is of another kind (a socket, a device).
std::variant<std::optional<FileRecord>, std::string> recordPath(int root, std::string_view path, ChunkStore* store,
                                                                const RecordingLimits& limits = {});

/// Records a regular file's `bytes` as `path` with the permission bits `mode`, from memory (a file
/// tool that holds the version it read or wrote): chunked into `store`, or by hash alone when over
/// the limit. The stamps are left zero for the caller who knows them. An error when the store
/// cannot take a chunk.
std::variant<FileRecord, std::string> recordBytes(std::string_view path, std::string_view bytes, mode_t mode,
                                                  ChunkStore& store, const RecordingLimits& limits = {});

/// A recorded file's bytes, put together from the store; an error when a chunk is missing (evicted),
/// damaged, or the record is hash-only.
std::variant<std::string, std::string> recordedContent(const FileRecord& record, const ChunkStore& store);

/// Records as text, one line each (paths and link targets escaped: '%', tab, newline), and back;
/// nullopt when the text is not such a list.
std::string encodeRecords(const std::vector<FileRecord>& records);
std::optional<std::vector<FileRecord>> decodeRecords(std::string_view text);

} // namespace toold::core
