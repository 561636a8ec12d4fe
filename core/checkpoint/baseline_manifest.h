// Keeping a workspace's baseline (the recorded version of every kept path) across restarts, so a
// later start reads again only the files whose stamp changed. The records' text (encodeRecords,
// in path order) is cut into content-defined chunks and kept in the checkpoints' store like any
// file, so rewriting the manifest after a few changes writes a few new chunks, not the whole list;
// a small file beside the store names the chunks in order, and is replaced atomically.
#pragma once

#include "core/checkpoint/chunk_store.h"
#include "core/checkpoint/file_record.h"

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace toold::core {

/// Stores `records` and points `file` at them. Returns what failed, or an empty string.
std::string saveBaseline(ChunkStore& store, const std::filesystem::path& file, const std::vector<FileRecord>& records,
                         std::set<ChunkId>* manifestChunks = nullptr);

struct LoadedBaseline {
  std::vector<FileRecord> records;
  std::set<ChunkId> manifestChunks;
  /// When `file` was last written: a record whose file was modified within a second or two of it may
  /// have been changed again in the same clock tick after it was recorded, so it is not trusted by
  /// its stamp ("racy" as git calls it).
  std::int64_t writtenNanoseconds = 0;
};

/// The records `file` names; nullopt when there is none, or it or a chunk it names cannot be read.
std::optional<LoadedBaseline> loadBaseline(const ChunkStore& store, const std::filesystem::path& file);

} // namespace toold::core
