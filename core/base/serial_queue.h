// A serial queue that runs its tasks on whichever thread submits them: one at a time, in
// submission order, inline when idle. Unlike an Asio strand it needs no loop thread, so the
// stdin reader can dispatch a frame without waking another thread — on a small VM each wake-up
// costs about as much as the whole request.
#pragma once

#include <condition_variable>
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

  /// As run(), but an idle queue hands `task` to `post` (a worker pool, say) rather than running
  /// it on this thread; the tasks submitted meanwhile run after it on the thread it ran on. Order
  /// is kept as run() keeps it: by submission. Returns whether `task` was handed to `post` (false:
  /// it waits behind a running task). `post` must run what it is given exactly once.
  bool runElsewhere(Task task, const std::function<void(Task)>& post);

  /// Whether a task is running (on any thread): a task submitted now would wait for it.
  bool busy();

  /// As run(), but a queue running on another thread is first waited for until it is idle, and
  /// `task` then runs here. Must not be called from inside one of this queue's tasks.
  void runHere(Task task);

private:
  /// Runs `task`, then whatever was queued meanwhile, until the queue is empty.
  void drain(Task task);

  std::mutex mutex_;
  std::condition_variable idle_; ///< signalled whenever the queue becomes idle
  std::deque<Task> pending_;
  bool running_ = false;
};

} // namespace toold::core
