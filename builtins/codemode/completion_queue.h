// How the answers of a program's inner calls reach the engine's thread, which waits for them
// between the program's steps: a queue any thread posts to (in-process hosts, tests), or the
// worker's own stdin (worker_input.h).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace toold::codemode {

/// An inner call's answer: the value's JSON text when ok, else a diagnostic's ({kind, message});
/// or, with `text`, an ok answer whose value is the string `json` holds, as it is (UTF-8).
struct ToolCompletion {
  std::uint64_t id = 0;
  bool ok = false;
  std::string json;
  bool text = false;
};

/// Where the engine's thread takes the answers of a program's inner calls from.
class CompletionSource {
public:
  virtual ~CompletionSource() = default;
  /// Waits until answers arrived, wake() was called (since the last wait), or `deadline`; adds
  /// what arrived to `out`.
  virtual void wait(std::chrono::steady_clock::time_point deadline, std::vector<ToolCompletion>& out) = 0;
  /// From any thread: ends a wait without an answer (a timeout, cancellation).
  virtual void wake() = 0;
};

/// Completions posted from any thread, taken by the engine's thread.
class CompletionQueue final : public CompletionSource {
public:
  void post(ToolCompletion completion);
  void wake() override;
  void wait(std::chrono::steady_clock::time_point deadline, std::vector<ToolCompletion>& out) override;

private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<ToolCompletion> queue_;
  bool woken_ = false;
};

} // namespace toold::codemode
