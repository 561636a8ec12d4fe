// Writing a file that has no name until it is whole: an O_TMPFILE file in the target's folder,
// given its name by linkat once every byte is written. A kill in the middle leaves nothing behind —
// no staging file for anyone to clean — and a name that is already taken is never replaced, which
// is what the checkpoints' files want: a chunk's name is its content (taken means already stored),
// and a manifest's number is claimed by whichever toold links it first.
#pragma once

#include <string>
#include <string_view>
#include <sys/types.h>

namespace toold::core {

enum class UnnamedWriteResult { Written, NameTaken, Unsupported, Failed };

struct UnnamedWrite {
  UnnamedWriteResult result = UnnamedWriteResult::Failed;
  std::string error; ///< when Failed: what failed
};

/// Writes `bytes` (unflushed) as `name` in the folder `folderFd`, with `mode`. Unsupported: the
/// file system has no O_TMPFILE (the caller stages under a temporary name instead).
UnnamedWrite writeUnnamedThenLink(int folderFd, const std::string& name, std::string_view bytes, mode_t mode);

} // namespace toold::core
