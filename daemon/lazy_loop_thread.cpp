#include "daemon/lazy_loop_thread.h"

namespace toold::daemon {

void LazyLoopThread::want() {
  std::lock_guard lock(mutex_);
  wanted_ = true;
  startLocked();
}

void LazyLoopThread::allow() {
  std::lock_guard lock(mutex_);
  allowed_ = true;
  startLocked();
}

bool LazyLoopThread::started() const {
  std::lock_guard lock(mutex_);
  return thread_.joinable();
}

void LazyLoopThread::join() {
  std::thread thread;
  {
    std::lock_guard lock(mutex_);
    allowed_ = false; // stopping: nothing starts it again
    thread.swap(thread_);
  }
  if (thread.joinable()) thread.join();
}

void LazyLoopThread::startLocked() {
  if (wanted_ && allowed_ && !thread_.joinable()) thread_ = std::thread([&io = io_] { io.run(); });
}

} // namespace toold::daemon
