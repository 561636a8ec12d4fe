// Mutating file tools serialize per canonical path, not per session: two sessions editing one file
// must not interleave, while edits of different files run side by side. A holder gets a Lease;
// the next waiter for that path starts when the lease is dropped.
//
// A request for several paths (apply_patch) is entered in the queue of every one of its paths in one
// step, under one mutex: any two requests then stand in the same order in every queue they share,
// so no two can wait on each other (no deadlock), and a patch of 10,000 files costs one call, not a
// chain of 10,000 nested callbacks.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace toold::core {

class PathLocks {
public:
  /// Releases every path of the request when the last copy goes.
  using Lease = std::shared_ptr<void>;

  /// Runs `start` with the lease at once when nobody holds `path`, else when the holders before it
  /// have released it, in request order; it runs on the thread that released the path.
  void acquire(const std::string& path, std::function<void(Lease)> start);

  /// Like acquire, for all of `paths` at once (duplicates count once): `start` runs when the
  /// request is first in the queue of every one of them. An empty list starts at once.
  void acquireAll(std::vector<std::string> paths, std::function<void(Lease)> start);

  std::size_t heldCount() const;

private:
  struct Request;
  using Ready = std::vector<std::shared_ptr<Request>>;

  Lease leaseFor(const std::shared_ptr<Request>& request);
  void release(const std::shared_ptr<Request>& request);
  /// Starts the requests in `ready`, and those their releases make ready, one after another on
  /// this thread rather than nested in each other's releases.
  void startAll(Ready ready);

  mutable std::mutex mutex_;
  std::map<std::string, std::deque<std::shared_ptr<Request>>> queues_; ///< front holds; held while present
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

} // namespace toold::core
