#include "core/base/heap_trim.h"

#include <malloc.h>

namespace toold::core {

namespace {
// Long enough for a client sending change after change (the next request comes within a few
// milliseconds), short next to the pause before a model's next turn.
constexpr std::chrono::milliseconds kProcessQuiet{50};
} // namespace

DeferredHeapTrim::DeferredHeapTrim(std::chrono::milliseconds quiet, std::function<void()> trim)
    : quiet_(quiet), trim_(std::move(trim)) {}

DeferredHeapTrim::~DeferredHeapTrim() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

DeferredHeapTrim::Hold& DeferredHeapTrim::Hold::operator=(Hold&& other) noexcept {
  if (this != &other) {
    release();
    owner_ = other.owner_;
    large_ = other.large_;
    other.owner_ = nullptr;
  }
  return *this;
}

void DeferredHeapTrim::Hold::release() {
  if (owner_ == nullptr) return;
  owner_->released(large_);
  owner_ = nullptr;
}

DeferredHeapTrim::Hold DeferredHeapTrim::hold() {
  std::lock_guard lock(mutex_);
  ++holds_;
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  return Hold(this);
}

void DeferredHeapTrim::released(bool large) {
  {
    std::lock_guard lock(mutex_);
    --holds_;
    if (large) due_ = true;
    // The pause is counted from the end of the last change, large or not: a small one right
    // after a large one is still part of the same run.
    after_ = std::chrono::steady_clock::now() + quiet_;
  }
  wake_.notify_all();
}

void DeferredHeapTrim::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (!due_ || holds_ > 0) {
      wake_.wait(lock);
      continue;
    }
    const auto at = after_;
    if (wake_.wait_until(lock, at) != std::cv_status::timeout) continue;
    if (stopping_ || !due_ || holds_ > 0 || after_ != at) continue;
    due_ = false;
    lock.unlock();
    trim_();
    lock.lock();
  }
}

DeferredHeapTrim& processHeapTrim() {
  static DeferredHeapTrim trim(kProcessQuiet, [] { ::malloc_trim(0); });
  return trim;
}

} // namespace toold::core
