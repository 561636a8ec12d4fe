#include "core/files/atomic_file.h"

#include "core/files/change_journal.h"
#include "core/base/unique_fd.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace toold::core {

namespace {

std::string systemError(const std::string& what, const std::filesystem::path& path, int error = errno) {
  return what + " " + path.string() + ": " + std::strerror(error);
}

std::filesystem::path directoryOf(const std::filesystem::path& target) {
  return target.parent_path().empty() ? std::filesystem::path(".") : target.parent_path();
}

} // namespace

std::variant<StagedWrite, std::string> stageFileWrite(int directory, const std::filesystem::path& target,
                                                      std::string_view content, mode_t mode) {
  return stageFileWrite(directory, target, content, mode, StagingOptions{});
}

std::variant<StagedWrite, std::string> stageFileWrite(int directory, const std::filesystem::path& target,
                                                      std::string_view content, mode_t mode,
                                                      const StagingOptions& options) {
  StagedWrite staged;
  staged.target = target;
  staged.temporary = options.temporary.empty() ? stagingPathFor(target) : options.temporary;
  const std::string leaf = target.filename().string();
  const std::string temporary = staged.temporary.filename().string();
  struct stat existing {};
  const bool replacing = ::fstatat(directory, leaf.c_str(), &existing, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(existing.st_mode);
  int fd = ::openat(directory, temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    replacing ? 0600 : mode);
  if (fd < 0) return systemError("cannot create", staged.temporary);
  auto fail = [&](const std::string& what) {
    std::string error = systemError(what, staged.temporary);
    ::close(fd);
    ::unlinkat(directory, temporary.c_str(), 0);
    return error;
  };
  if (replacing) {
    // The owner first: changing it may clear set-id bits, which the mode then restores. Only a
    // privileged process may give a file away; anyone else keeps owning what it writes.
    if (existing.st_uid != ::geteuid() || existing.st_gid != ::getegid())
      if (::fchown(fd, existing.st_uid, existing.st_gid) != 0 && errno != EPERM) return fail("cannot set the owner of");
    if (::fchmod(fd, existing.st_mode & 07777) != 0) return fail("cannot set the mode of");
  }
  for (std::size_t written = 0; written < content.size();) {
    ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail("cannot write");
    written += static_cast<std::size_t>(n);
  }
  if (options.flush && ::fsync(fd) != 0) return fail("cannot flush");
  if (::fstat(fd, &staged.status) != 0) return fail("cannot stat");
  if (::close(fd) != 0) {
    std::string error = systemError("cannot close", staged.temporary);
    ::unlinkat(directory, temporary.c_str(), 0);
    return error;
  }
  return staged;
}

std::string commitStagedWrite(int directory, const StagedWrite& staged, bool flushDirectory) {
  const std::string temporary = staged.temporary.filename().string();
  if (::renameat(directory, temporary.c_str(), directory, staged.target.filename().c_str()) != 0) {
    std::string error = systemError("cannot rename onto " + staged.target.string() + " from", staged.temporary);
    ::unlinkat(directory, temporary.c_str(), 0);
    return error;
  }
  // Flushing the directory makes the rename itself durable, not only the file's bytes. A folder
  // held with O_PATH (searchable, not readable) cannot be flushed; the rename stands regardless.
  if (flushDirectory) ::fsync(directory);
  return {};
}

void discardStagedWrite(int directory, const StagedWrite& staged) {
  ::unlinkat(directory, staged.temporary.filename().c_str(), 0);
}

std::string writeFileAtomically(int directory, const std::filesystem::path& target, std::string_view content,
                                mode_t mode, struct stat* written) {
  StagingOptions options{stagingPathFor(target), true};
  // Journal hook: the staging name is recorded before the file exists, so a start after a kill
  // removes it (core/files/journal_replay). Unflushed: a power loss may still leave one behind.
  std::unique_ptr<ChangeJournal::Transaction> intent;
  // A journal that cannot be written (a full data disk) does not stop the write itself.
  if (auto* journal = processJournal()) {
    auto begun = journal->begin({}, {{target, options.temporary}}, false);
    if (auto* begunIntent = std::get_if<std::unique_ptr<ChangeJournal::Transaction>>(&begun))
      intent = std::move(*begunIntent);
  }
  auto staged = stageFileWrite(directory, target, content, mode, options);
  if (auto* error = std::get_if<std::string>(&staged)) return *error;
  const auto& write = std::get<StagedWrite>(staged);
  if (auto error = commitStagedWrite(directory, write); !error.empty()) return error;
  if (written) *written = write.status;
  return {};
}

std::string writeFileAtomically(const std::filesystem::path& target, std::string_view content, mode_t mode,
                                struct stat* written) {
  UniqueFd directory(::open(directoryOf(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!directory) return systemError("cannot open the folder", directoryOf(target));
  return writeFileAtomically(directory.get(), target, content, mode, written);
}

} // namespace toold::core
