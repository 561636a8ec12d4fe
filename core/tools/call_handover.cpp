// The handover's count of calls waiting to start, and its threads.
#include "core/tools/call_handover.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

namespace toold::core {

CallHandover::CallHandover(std::size_t threads, std::size_t maxWaiting)
    : threadCount_(threads), maxWaiting_(maxWaiting) {}

CallHandover::~CallHandover() {
  if (threads_) threads_->join();
}

void CallHandover::admit() {
  std::unique_lock lock(mutex_);
  if (waiting_ >= maxWaiting_) {
    // Woken only once half of them have started: one wake-up for many calls, not one for each.
    ++sleepers_;
    room_.wait(lock, [this] { return waiting_ <= maxWaiting_ / 2; });
    --sleepers_;
  }
  ++waiting_;
}

bool CallHandover::tryAdmit() {
  std::lock_guard lock(mutex_);
  if (waiting_ >= maxWaiting_) return false;
  ++waiting_;
  return true;
}

void CallHandover::started() {
  std::lock_guard lock(mutex_);
  --waiting_;
  if (sleepers_ > 0 && waiting_ == maxWaiting_ / 2) room_.notify_all();
}

void CallHandover::post(std::function<void()> task) {
  // Started by the first call handed over: most sessions' first requests (initialize, a listing)
  // never are, and a thread started before the first answer is start-up time.
  std::call_once(started_, [this] { threads_.emplace(threadCount_); });
  boost::asio::post(*threads_, [task = std::move(task)] {
    // A step that throws would end the thread, and with it toold; on the reader the request's
    // handler catches it. Here it is logged; the call, dropped, is answered -32603 (reply.h).
    try {
      task();
    } catch (const std::exception& e) {
      spdlog::error("a call's step failed on the handover thread: {}", e.what());
    }
  });
}

} // namespace toold::core
