// Where calls start when the thread that received them has more to do: the reader, with more
// frames of the same read waiting. Handed over, the calls of different sessions run on a second
// CPU while the reader goes on parsing. While too many wait to start, the reader starts calls
// itself again (and so reads no faster than toold serves), or waits for room where a call could
// only queue. A thread of its own rather than the worker pool: the pool runs long tool bodies (a
// shell command, a search), and a call handed over must start soon, as the reader may wait for it.
#pragma once

#include <boost/asio/thread_pool.hpp>

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>

namespace toold::core {

class CallHandover {
public:
  /// `threads` run the calls handed over; at most `maxWaiting` may wait to start at once.
  CallHandover(std::size_t threads, std::size_t maxWaiting);
  ~CallHandover();
  CallHandover(const CallHandover&) = delete;
  CallHandover& operator=(const CallHandover&) = delete;

  /// Counts one more call waiting to start, unless `maxWaiting` already do; says whether it did.
  bool tryAdmit();
  /// Counts one more call waiting to start; while `maxWaiting` already do, first waits until
  /// half of them have started.
  void admit();
  /// An admitted call's first step begins (wherever it runs).
  void started();
  /// Runs `task` on the handover's threads.
  void post(std::function<void()> task);

private:
  const std::size_t threadCount_;
  std::once_flag started_;
  std::optional<boost::asio::thread_pool> threads_; // made by the first post()
  const std::size_t maxWaiting_;
  std::mutex mutex_;
  std::condition_variable room_;
  std::size_t waiting_ = 0;
  std::size_t sleepers_ = 0; ///< callers waiting in admit()
};

} // namespace toold::core
