// The serial queue: the submitting thread becomes the runner and drains what others queued.
#include "core/base/serial_queue.h"

namespace toold::core {

void SerialQueue::run(Task task) {
  {
    std::lock_guard lock(mutex_);
    if (running_) {
      pending_.push_back(std::move(task));
      return;
    }
    running_ = true;
  }
  drain(std::move(task));
}

bool SerialQueue::runElsewhere(Task task, const std::function<void(Task)>& post) {
  {
    std::lock_guard lock(mutex_);
    if (running_) {
      pending_.push_back(std::move(task));
      return false;
    }
    running_ = true;
  }
  post([this, task = std::move(task)]() mutable { drain(std::move(task)); });
  return true;
}

bool SerialQueue::busy() {
  std::lock_guard lock(mutex_);
  return running_;
}

void SerialQueue::runHere(Task task) {
  {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return !running_; });
    running_ = true;
  }
  drain(std::move(task));
}

void SerialQueue::drain(Task task) {
  for (;;) {
    task();
    std::lock_guard lock(mutex_);
    if (pending_.empty()) {
      running_ = false;
      idle_.notify_all(); // no system call while nobody waits
      return;
    }
    task = std::move(pending_.front());
    pending_.pop_front();
  }
}

} // namespace toold::core
