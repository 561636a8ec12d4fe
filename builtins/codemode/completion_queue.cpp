#include "builtins/codemode/completion_queue.h"

namespace toold::codemode {

void CompletionQueue::post(ToolCompletion completion) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(completion));
  }
  ready_.notify_one();
}

void CompletionQueue::wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
  ready_.notify_one();
}

void CompletionQueue::wait(std::chrono::steady_clock::time_point deadline, std::vector<ToolCompletion>& out) {
  std::unique_lock lock(mutex_);
  ready_.wait_until(lock, deadline, [this] { return woken_ || !queue_.empty(); });
  woken_ = false;
  while (!queue_.empty()) {
    out.push_back(std::move(queue_.front()));
    queue_.pop_front();
  }
}

} // namespace toold::codemode
