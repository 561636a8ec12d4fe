// The Code Mode workers toold keeps: one per program running, started on demand, and a few kept
// idle so that the next program skips the engine's start-up. A worker whose program was
// interrupted (time, memory, cancellation) is never reused.
#pragma once

#include "builtins/codemode/worker_process.h"
#include "builtins/codemode/worker_protocol.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace toold::codemode {

class WorkerPool {
public:
  /// `executable` is the worker's (toold-codemode, beside toold: defaultWorkerExecutable()).
  WorkerPool(std::string executable, WorkerSettings settings, std::size_t maxIdle = 2);
  ~WorkerPool();

  /// An idle worker, or a new one. Throws std::runtime_error when none can start.
  std::shared_ptr<WorkerProcess> acquire();
  /// An idle worker, or null: never starts one.
  std::shared_ptr<WorkerProcess> acquireIdle();
  /// Gives a worker back after its program ended normally; a dead one is dropped.
  void release(std::shared_ptr<WorkerProcess> worker);
  /// Starts one idle worker ahead of the first program.
  void prestart();
  /// The same, only when no worker is idle (after a program took the last one).
  void prestartIfNoneIdle();
  /// Kills every idle worker.
  void clear();
  /// At exit: kills every worker, idle or running a program, and returns once each reader thread
  /// is done — a run its listener held may end there, and must, while the loop it uses still
  /// exists. Afterwards acquire() throws and release() kills.
  void shutdown();

private:
  std::shared_ptr<WorkerProcess> start();

  std::string executable_;
  WorkerSettings settings_;
  std::size_t maxIdle_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<WorkerProcess>> idle_;
  std::vector<std::weak_ptr<WorkerProcess>> started_; ///< every worker not yet gone
  bool closed_ = false;
};

} // namespace toold::codemode
