#include "builtins/files/local_disk.h"

#include <linux/magic.h>
#include <sys/vfs.h>

namespace toold::builtins {
namespace {

// The disk and memory file systems a developer's workspace is usually on. Anything else (NFS,
// SMB, FUSE, 9p, ...) counts as possibly slow. ZFS and bcachefs have no constant in <linux/magic.h>.
constexpr unsigned long kLocalFileSystems[] = {
    EXT4_SUPER_MAGIC, XFS_SUPER_MAGIC, BTRFS_SUPER_MAGIC, TMPFS_MAGIC, RAMFS_MAGIC,
    OVERLAYFS_SUPER_MAGIC, F2FS_SUPER_MAGIC, 0x2fc12fc1UL /* zfs */, 0xca451a4eUL /* bcachefs */,
};

bool isLocalFileSystem(const std::filesystem::path& folder) {
  struct statfs fileSystem {};
  if (::statfs(folder.c_str(), &fileSystem) != 0) return false;
  for (const unsigned long magic : kLocalFileSystems)
    if (static_cast<unsigned long>(fileSystem.f_type) == magic) return true;
  return false;
}

} // namespace

bool LocalDiskCheck::onLocalDisk(const std::filesystem::path& folder) {
  std::lock_guard lock(mutex_);
  if (auto it = verdicts_.find(folder.native()); it != verdicts_.end()) return it->second;
  const bool local = isLocalFileSystem(folder);
  verdicts_.emplace(folder.native(), local);
  return local;
}

} // namespace toold::builtins
