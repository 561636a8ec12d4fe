// The worker's stdin, read by the engine's own thread: programs to run, and the answers of a
// running program's inner calls. A reader thread handing answers over to the engine's thread cost
// a thread wake-up on every inner call (on top of the two pipes every call crosses); toold never
// writes to a worker except to start a program or answer its calls (it cancels by ending the
// process), so the thread that waits for answers can read them itself. The engine's watchdog and
// cancel() end a wait through an eventfd polled beside stdin.
#pragma once

#include "builtins/codemode/js_engine.h"

#include <nlohmann/json.hpp>

#include <deque>
#include <optional>
#include <string>

namespace toold::codemode {

class WorkerInput final : public CompletionSource {
public:
  /// Reads `fd` (the worker's stdin). Throws std::runtime_error when the eventfd cannot be made.
  explicit WorkerInput(int fd);
  ~WorkerInput() override;
  WorkerInput(const WorkerInput&) = delete;
  WorkerInput& operator=(const WorkerInput&) = delete;

  /// Blocks until the next program's run message; nullopt at the end of input. Answers that
  /// arrive between programs belong to no program and are dropped.
  std::optional<nlohmann::json> nextRun();

  /// True when no program arrives within `quiet` (nor the input ends): the moment for work that
  /// should not delay toold, which is still handling the last program's result.
  bool quietFor(std::chrono::microseconds quiet);

  void wait(std::chrono::steady_clock::time_point deadline, std::vector<ToolCompletion>& out) override;
  void wake() override;

  bool ended() const { return ended_; }

private:
  /// Takes the complete lines read so far: runs are queued, answers added to `out` (dropped when
  /// null).
  void takeLines(std::vector<ToolCompletion>* out);
  /// One poll of the input and the wake (until `deadline`; none: no limit) and one read. False
  /// when woken, at the deadline, or at the end of input.
  bool readMore(std::optional<std::chrono::steady_clock::time_point> deadline);
  void drainWake();

  int fd_;
  int wakeFd_ = -1;
  std::string buffer_;
  std::deque<nlohmann::json> runs_;
  bool ended_ = false;
};

} // namespace toold::codemode
