// A serial queue that runs its tasks on whichever thread submits them: one at a time, in
// submission order, inline when idle. Unlike an Asio strand it needs no loop thread, so the
// stdin reader can dispatch a frame without waking another thread — on a small VM each wake-up
// costs about as much as the whole request.
#pragma once

#include <deque>
#include <functional>
#include <mutex>

namespace toold::core {

class SerialQueue {
public:
  using Task = std::function<void()>;

  /// Runs `task` now if no task is running, else queues it for the thread that is running one.
  /// Tasks never overlap, and each sees the effects of those submitted before it. A task may
  /// submit more tasks; they run after it returns, on the same thread.
  void run(Task task);

private:
  std::mutex mutex_;
  std::deque<Task> pending_;
  bool running_ = false;
};

} // namespace toold::core
