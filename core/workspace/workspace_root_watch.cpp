#include "core/workspace/workspace_root_watch.h"

#include <boost/asio/posix/stream_descriptor.hpp>

#include <sys/inotify.h>

namespace toold::core {

namespace {

// What makes the name lead elsewhere: the watched folder itself renamed (or exchanged) or removed.
// IN_IGNORED (a watch gone: removed, or its file system unmounted) and IN_Q_OVERFLOW come
// whatever the mask.
constexpr std::uint32_t kMask = IN_MOVE_SELF | IN_DELETE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW;

struct Watch {
  Watch(boost::asio::io_context& io, int fd, std::shared_ptr<const WorkspaceRoot> watched)
      : descriptor(io, fd), root(std::move(watched)) {}
  boost::asio::posix::stream_descriptor descriptor;
  std::shared_ptr<const WorkspaceRoot> root;
};

} // namespace

std::shared_ptr<void> watchWorkspaceRoot(boost::asio::io_context& io, std::shared_ptr<const WorkspaceRoot> root) {
  if (!root) return nullptr;
  UniqueFd fd(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
  if (!fd) return nullptr;
  // The root and each folder above it, up to `/` (which cannot be moved).
  for (std::filesystem::path folder = root->directory; folder.has_relative_path(); folder = folder.parent_path())
    if (::inotify_add_watch(fd.get(), folder.c_str(), kMask) < 0) return nullptr;
  // Watched from here on: the name must lead to the held folder now, or nothing is promised.
  if (workspaceRootMoved(*root)) return nullptr;
  auto watch = std::make_shared<Watch>(io, fd.release(), root);
  root->watchedInPlace.store(true, std::memory_order_release);
  // One wait: whatever the first event says, the flag is cleared for good and the checks stat the
  // name again, so nothing is read and the watch ends. Cancelled (the handle dropped, the loop
  // stopped), it clears the flag too: nothing watches any more.
  watch->descriptor.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                               [weak = std::weak_ptr<Watch>(watch), root](const boost::system::error_code&) {
                                 root->watchedInPlace.store(false, std::memory_order_release);
                                 if (auto self = weak.lock()) self->descriptor.close();
                               });
  return watch;
}

} // namespace toold::core
