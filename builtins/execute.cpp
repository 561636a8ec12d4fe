#include "builtins/execute.h"

#include "builtins/codemode/worker_pool.h"
#include "builtins/program_run.h"
#include "core/tool_service.h"

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
  auto pool = std::make_shared<codemode::WorkerPool>(std::move(executable), workerSettings);
  ProgramRunLimits limits;
  if (settings.timeoutMs) limits.timeout = std::chrono::milliseconds(*settings.timeoutMs);
  if (settings.maxToolCalls) limits.maxToolCalls = *settings.maxToolCalls;

  core::Tool tool;
  tool.description = kExecuteDescription;
  tool.inputSchema = inputSchema();
  tool.codemode = false;
  tool.permission = "execute";
  tool.title = "Run a Code Mode program";
  tool.annotations = json{{"openWorldHint", true}};
  // Acquiring a worker may start a process: not on the session's queue.
  tool.threading = core::ToolThreading::Workers;
  tool.execute = [&service, pool, limits](json input, core::ToolContext context, core::ToolDone done) {
    startProgramRun(service, pool, limits, input.value("code", ""), std::move(context), std::move(done));
  };
  service.setCodemodeTool(std::move(tool));
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
