// Cooperative cancellation: a source that cancels once, tokens that observe it, and callbacks
// that run when it happens. Boost 1.74's Asio has no per-operation cancellation slots, so toold
// carries its own token through every call.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace toold::core {

namespace detail {
struct CancellationState;
}

/// Removes its callback when destroyed, so a finished operation is never called back.
class CancellationRegistration {
public:
  CancellationRegistration() = default;
  CancellationRegistration(std::weak_ptr<detail::CancellationState> state, std::uint64_t id);
  CancellationRegistration(CancellationRegistration&& other) noexcept;
  CancellationRegistration& operator=(CancellationRegistration&& other) noexcept;
  CancellationRegistration(const CancellationRegistration&) = delete;
  CancellationRegistration& operator=(const CancellationRegistration&) = delete;
  ~CancellationRegistration();

  void reset();

private:
  std::weak_ptr<detail::CancellationState> state_;
  std::uint64_t id_ = 0;
};

/// What an operation holds to learn that it should stop. Cheap to copy; a default token never cancels.
class CancellationToken {
public:
  CancellationToken() = default;
  explicit CancellationToken(std::shared_ptr<detail::CancellationState> state) : state_(std::move(state)) {}

  bool isCancelled() const;
  /// Why it was cancelled ("cancelled by the client", "toold is exiting", ...); empty while not cancelled.
  std::string reason() const;
  /// Runs `callback` once on cancellation, on the cancelling thread; at once if already cancelled.
  [[nodiscard]] CancellationRegistration onCancel(std::function<void()> callback) const;

private:
  std::shared_ptr<detail::CancellationState> state_;
};

/// Owned by whoever may cancel: the request table, a parent operation, a session.
class CancellationSource {
public:
  CancellationSource();

  CancellationToken token() const { return CancellationToken(state_); }
  /// Cancels once; later calls do nothing. Callbacks run before this returns.
  void cancel(std::string reason = "cancelled");
  bool isCancelled() const;

private:
  std::shared_ptr<detail::CancellationState> state_;
};

} // namespace toold::core
