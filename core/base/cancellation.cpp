// Thread-safe callback list behind cancellation tokens; every callback fires at most once.
#include "core/base/cancellation.h"

#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

namespace toold::core {
namespace detail {

struct CancellationState {
  std::atomic<bool> cancelled{false};
  std::mutex mutex;
  std::string reason;
  std::uint64_t nextId = 1;
  std::vector<std::pair<std::uint64_t, std::function<void()>>> callbacks;
};

} // namespace detail

CancellationRegistration::CancellationRegistration(std::weak_ptr<detail::CancellationState> state, std::uint64_t id)
    : state_(std::move(state)), id_(id) {}

CancellationRegistration::CancellationRegistration(CancellationRegistration&& other) noexcept
    : state_(std::move(other.state_)), id_(std::exchange(other.id_, 0)) {}

CancellationRegistration& CancellationRegistration::operator=(CancellationRegistration&& other) noexcept {
  if (this != &other) {
    reset();
    state_ = std::move(other.state_);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

CancellationRegistration::~CancellationRegistration() { reset(); }

void CancellationRegistration::reset() {
  if (id_ == 0) return;
  if (auto state = state_.lock()) {
    std::lock_guard lock(state->mutex);
    std::erase_if(state->callbacks, [this](const auto& entry) { return entry.first == id_; });
  }
  id_ = 0;
  state_.reset();
}

bool CancellationToken::isCancelled() const { return state_ && state_->cancelled.load(std::memory_order_acquire); }

std::string CancellationToken::reason() const {
  if (!state_) return {};
  std::lock_guard lock(state_->mutex);
  return state_->reason;
}

CancellationRegistration CancellationToken::onCancel(std::function<void()> callback) const {
  if (!state_) return {};
  {
    std::lock_guard lock(state_->mutex);
    if (!state_->cancelled.load(std::memory_order_relaxed)) {
      const std::uint64_t id = state_->nextId++;
      state_->callbacks.emplace_back(id, std::move(callback));
      return CancellationRegistration(state_, id);
    }
  }
  callback(); // already cancelled: run now, outside the lock
  return {};
}

CancellationSource::CancellationSource() : state_(std::make_shared<detail::CancellationState>()) {}

bool CancellationSource::isCancelled() const { return state_->cancelled.load(std::memory_order_acquire); }

void CancellationSource::cancel(std::string reason) {
  std::vector<std::pair<std::uint64_t, std::function<void()>>> callbacks;
  {
    std::lock_guard lock(state_->mutex);
    if (state_->cancelled.load(std::memory_order_relaxed)) return;
    state_->reason = std::move(reason);
    state_->cancelled.store(true, std::memory_order_release);
    callbacks.swap(state_->callbacks);
  }
  for (auto& entry : callbacks) entry.second();
}

} // namespace toold::core
