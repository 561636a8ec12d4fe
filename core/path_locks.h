// Mutating file tools serialize per canonical path, not per session: two sessions editing one file
// must not interleave, while edits of different files run side by side. A holder gets a Lease;
// the next waiter for that path starts when the lease is dropped.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace toold::core {

class PathLocks {
public:
  /// Releases the path when the last copy goes.
  using Lease = std::shared_ptr<void>;

  /// Runs `start` with the lease at once when nobody holds `path`, else when the holders before it
  /// have released it, in request order; it runs on the thread that released the path.
  void acquire(const std::string& path, std::function<void(Lease)> start);
  std::size_t heldCount() const;

private:
  void release(const std::string& path);

  struct Waiters {
    std::deque<std::function<void(Lease)>> queue;
  };
  mutable std::mutex mutex_;
  std::map<std::string, Waiters> held_; ///< a path is held while it has an entry
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

} // namespace toold::core
