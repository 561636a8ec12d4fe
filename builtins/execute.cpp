#include "builtins/execute.h"

#include "builtins/codemode/worker_executable.h"
#include "builtins/codemode/worker_pool.h"
#include "builtins/program_run.h"
#include "core/tool_service.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>

namespace toold::builtins {

using json = nlohmann::json;

const char* const kExecuteDescription =
    "Run a JavaScript program in a confined Code Mode runtime to orchestrate tools. "
    "The program has no imports, filesystem, timers or `fetch`: it reaches the outside world only through `tools`. "
    "Only the tools listed in the Code Mode catalog instructions or returned by `search` are callable; ignore tools "
    "shown outside that catalog. "
    "Use their exact paths and signatures: never normalize names, and keep bracket notation such as "
    "tools[\"2d_get_scene\"]. "
    "Prefer an explicit `return` of the value you need. "
    "Await every call that matters, and use `Promise.all` for independent calls.";

namespace {

json inputSchema() {
  return json::parse(R"({
    "type": "object",
    "properties": {
      "code": {
        "type": "string",
        "description": "The program: the body of an async function. `await` tool calls and `return` the result."
      }
    },
    "required": ["code"],
    "additionalProperties": false
  })");
}

} // namespace

std::function<void()> installExecuteTool(core::ToolService& service, const core::CodemodeSettings& settings,
                                         const codemode::WorkerSettings& worker, std::string executable) {
  codemode::WorkerSettings workerSettings = worker;
  if (settings.memoryMb) {
    // The address-space wall stays well above the resident limit: the engine reserves more than it touches.
    workerSettings.residentMegabytes = static_cast<std::size_t>(*settings.memoryMb);
    workerSettings.memoryMegabytes = std::max<std::size_t>(workerSettings.memoryMegabytes, workerSettings.residentMegabytes * 2 + 256);
    workerSettings.heapMegabytes = std::max<std::size_t>(workerSettings.heapMegabytes, workerSettings.residentMegabytes);
  }
  auto pool = std::make_shared<codemode::WorkerPool>(
      executable.empty() ? codemode::defaultWorkerExecutable() : std::move(executable), workerSettings);
  auto setup = std::make_shared<ProgramRunSetup>();
  setup->pool = pool;
  if (settings.timeoutMs) setup->limits.timeout = std::chrono::milliseconds(*settings.timeoutMs);
  if (settings.maxToolCalls) setup->limits.maxToolCalls = *settings.maxToolCalls;

  core::Tool tool;
  tool.description = kExecuteDescription;
  tool.inputSchema = inputSchema();
  tool.codemode = false;
  tool.permission = "execute";
  tool.title = "Run a Code Mode program";
  tool.annotations = json{{"openWorldHint", true}};
  // With a worker idle, as one usually is, starting a program only sends it: done on the session's
  // queue, which saves a hand-off to the worker threads (a wake-up, ~0.1 ms of a trivial program).
  // Starting a worker process takes longer: that goes to the loop.
  tool.threading = core::ToolThreading::Inline;
  tool.execute = [&service, setup](json input, core::ToolContext context, core::ToolDone done) {
    std::string code = input.value("code", "");
    if (auto idle = setup->pool->acquireIdle())
      return startProgramRun(service, setup, std::move(idle), std::move(code), std::move(context), std::move(done));
    boost::asio::post(service.io(), [&service, setup, code = std::move(code), context = std::move(context),
                                     done = std::move(done)]() mutable {
      startProgramRun(service, setup, nullptr, std::move(code), std::move(context), std::move(done));
    });
  };
  service.setCodemodeTool(std::move(tool));
  // A program's run can end on its worker's reader thread; at exit that must happen before the
  // loop its timers belong to is destroyed.
  service.addShutdownStep([weak = std::weak_ptr<codemode::WorkerPool>(pool)] {
    if (auto workers = weak.lock()) workers->shutdown();
  });
  if (settings.enabled) {
    try {
      pool->prestart();
    } catch (const std::exception& e) {
      spdlog::warn("codemode: cannot start a worker ahead of time: {}", e.what());
    }
  }
  return [weak = std::weak_ptr<codemode::WorkerPool>(pool)] {
    auto workers = weak.lock();
    if (!workers) return;
    try {
      workers->prestartIfNoneIdle();
    } catch (const std::exception& e) {
      spdlog::warn("codemode: cannot start a worker ahead of time: {}", e.what());
    }
  };
}

} // namespace toold::builtins
