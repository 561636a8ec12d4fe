// The text checkpoint/diff answers: a unified diff of what a run of checkpoints changed, file by
// file, its contents read back from the checkpoint store. Binary files, symlinks, mode changes
// and files kept by hash only are said in a line each, as git says them.
#pragma once

#include "core/checkpoint/checkpoint_range.h"
#include "core/checkpoint/chunk_store.h"

#include <nlohmann/json.hpp>

#include <string>

namespace toold::builtins {

struct CheckpointDiff {
  std::string text;
  nlohmann::json files = nlohmann::json::array(); ///< [{path, change, from?, additions, deletions}]
};

CheckpointDiff diffOfChange(const core::RangeChange& change, const core::ChunkStore& store);

} // namespace toold::builtins
