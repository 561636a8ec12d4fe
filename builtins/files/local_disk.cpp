#include "builtins/files/local_disk.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>

namespace toold::builtins {
namespace {

// The disk and memory file systems a developer's workspace is usually on. Anything else (NFS,
// SMB, FUSE, 9p, ...) counts as possibly slow. ZFS and bcachefs have no constant in <linux/magic.h>.
constexpr unsigned long kLocalFileSystems[] = {
    EXT4_SUPER_MAGIC, XFS_SUPER_MAGIC, BTRFS_SUPER_MAGIC, TMPFS_MAGIC, RAMFS_MAGIC,
    OVERLAYFS_SUPER_MAGIC, F2FS_SUPER_MAGIC, 0x2fc12fc1UL /* zfs */, 0xca451a4eUL /* bcachefs */,
};

bool isLocalFileSystem(int folder) {
  struct statfs fileSystem {};
  if (::fstatfs(folder, &fileSystem) != 0) return false;
  for (const unsigned long magic : kLocalFileSystems)
    if (static_cast<unsigned long>(fileSystem.f_type) == magic) return true;
  return false;
}

} // namespace

std::optional<dev_t> LocalDiskCheck::localDevice(const std::filesystem::path& folder) {
  std::lock_guard lock(mutex_);
  if (auto it = verdicts_.find(folder.native()); it != verdicts_.end()) return it->second.device;
  Verdict verdict;
  core::UniqueFd opened(::open(folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  struct stat status {};
  if (opened && isLocalFileSystem(opened.get()) && ::fstat(opened.get(), &status) == 0) {
    verdict.device = status.st_dev;
    verdict.pin = std::move(opened);
  }
  const auto device = verdict.device;
  verdicts_.emplace(folder.native(), std::move(verdict));
  return device;
}

} // namespace toold::builtins
