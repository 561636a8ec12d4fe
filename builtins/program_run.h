// One `execute` call: its program sent to a worker process, each inner call the program makes run
// through toold's whole pipeline with the outer call's context (session, message and call ids;
// a permission ask reaches the client with that source), the toolCalls list published as
// progress on every start and end, and the result assembled from what the worker reports.
// Cancelling the call kills the worker and cancels the inner calls still running.
#pragma once

#include "builtins/codemode/worker_pool.h"
#include "builtins/program_catalog.h"
#include "core/tools/tool.h"

#include <chrono>
#include <memory>

namespace toold::core {
class ToolService;
}

namespace toold::builtins {

struct ProgramRunLimits {
  std::chrono::milliseconds timeout{120'000};
  std::size_t maxToolCalls = 1'000;
};

/// What every `execute` call shares.
struct ProgramRunSetup {
  std::shared_ptr<codemode::WorkerPool> pool;
  ProgramCatalogs catalogs;
  ProgramRunLimits limits;
};

/// Starts the program on `worker`, or on one acquired from the pool when it is null; `done` is
/// called once, from any thread.
void startProgramRun(core::ToolService& service, std::shared_ptr<ProgramRunSetup> setup,
                     std::shared_ptr<codemode::WorkerProcess> worker, std::string code, core::ToolContext context,
                     core::ToolDone done);

} // namespace toold::builtins
