#include "daemon/testing/test_tools.h"

#include "core/tool_service.h"
#include "core/workspace/workspace_paths.h"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace toold::daemon {

namespace {

using core::json;

core::Tool echoTool() {
  core::Tool tool;
  tool.description = "Returns its input as its output (a test tool).";
  tool.inputSchema = json{{"type", "object"}};
  tool.outputSchema = json{{"type", "object"}};
  // It does nothing that blocks, so the whole pipeline runs on the dispatching thread: the
  // benchmark of `call` against `ping` measures the pipeline, not a thread hand-off.
  tool.threading = core::ToolThreading::Inline;
  tool.execute = [](json input, core::ToolContext, core::ToolDone done) {
    done(core::ToolResult{std::move(input), std::nullopt, std::nullopt});
  };
  return tool;
}

core::Tool progressTool() {
  core::Tool tool;
  tool.description = "Reports `steps` progress updates {step: i}, waiting `intervalMs` after each, then "
                     "completes with \"done\", or fails with `fail` as the message (a test tool).";
  tool.inputSchema = json{{"type", "object"},
                          {"properties",
                           {{"steps", {{"type", "integer"}, {"minimum", 0}, {"maximum", 1000}, {"default", 3}}},
                            {"intervalMs", {{"type", "integer"}, {"minimum", 0}, {"maximum", 10000}, {"default", 0}}},
                            {"fail", {{"type", "string"}}}}},
                          {"additionalProperties", false}};
  // It may sleep between steps, so it runs on the worker pool. Clients such as the MCP SDK handle
  // notifications a tick later than responses, so a test that wants to see every update spaces them.
  tool.threading = core::ToolThreading::Workers;
  tool.execute = [](json input, core::ToolContext context, core::ToolDone done) {
    const int steps = input.value("steps", 3);
    const auto interval = std::chrono::milliseconds(input.value("intervalMs", 0));
    for (int i = 1; i <= steps; ++i) {
      context.progress(json{{"step", i}, {"total", steps}, {"message", "step " + std::to_string(i)}});
      if (interval.count() > 0 && !context.cancellation.isCancelled()) std::this_thread::sleep_for(interval);
    }
    if (input.contains("fail")) return done(core::ToolFailure{input["fail"].get<std::string>(), std::nullopt});
    done(core::ToolResult{std::nullopt, json("done"), std::nullopt});
  };
  return tool;
}

core::Tool sleepTool() {
  core::Tool tool;
  tool.description = "Waits `ms` milliseconds on the worker pool, then completes; cancellable (a test tool).";
  tool.inputSchema = json{{"type", "object"},
                          {"properties", {{"ms", {{"type", "integer"}, {"minimum", 0}, {"maximum", 600000}}}}},
                          {"required", {"ms"}}};
  tool.threading = core::ToolThreading::Workers;
  tool.execute = [](json input, core::ToolContext context, core::ToolDone done) {
    struct Wake {
      std::mutex mutex;
      std::condition_variable cv;
      bool cancelled = false;
    };
    auto wake = std::make_shared<Wake>();
    auto registration = context.cancellation.onCancel([wake] {
      std::lock_guard lock(wake->mutex);
      wake->cancelled = true;
      wake->cv.notify_all();
    });
    const auto ms = input["ms"].get<std::int64_t>();
    std::unique_lock lock(wake->mutex);
    wake->cv.wait_for(lock, std::chrono::milliseconds(ms), [&] { return wake->cancelled; });
    if (wake->cancelled) return done(core::ToolFailure{"cancelled", std::nullopt});
    done(core::ToolResult{std::nullopt, json("slept " + std::to_string(ms) + " ms"), std::nullopt});
  };
  return tool;
}

core::Tool permissionTool() {
  core::Tool tool;
  tool.description = "Asserts the permission `action` over `resources` (with `save` patterns and `metadata`), then "
                     "completes with \"granted\" (a test tool).";
  tool.inputSchema = json{
      {"type", "object"},
      {"properties",
       {{"action", {{"type", "string"}}},
        {"resources", {{"type", "array"}, {"items", {{"type", "string"}}}, {"default", json::array({"*"})}}},
        {"save", {{"type", "array"}, {"items", {{"type", "string"}}}, {"default", json::array()}}},
        {"metadata", {{"type", "object"}, {"default", json::object()}}}}},
      {"required", {"action"}},
      {"additionalProperties", false}};
  tool.threading = core::ToolThreading::Inline;
  tool.execute = [](json input, core::ToolContext context, core::ToolDone done) {
    core::PermissionAsk ask{input["action"], input["resources"], input["save"], input["metadata"]};
    context.assertPermission(std::move(ask), [done](std::optional<core::ToolCompletion> refusal) {
      if (refusal) return done(std::move(*refusal));
      done(core::ToolResult{std::nullopt, json("granted"), std::nullopt});
    });
  };
  return tool;
}

core::Tool pathTool() {
  core::Tool tool;
  tool.description = "Resolves `path` with the workspace path service; outside the workspace it asserts "
                     "external_directory. Completes with the canonical path and whether it is inside (a test tool).";
  tool.inputSchema = json{{"type", "object"},
                          {"properties",
                           {{"path", {{"type", "string"}}},
                            {"kind", {{"type", "string"}, {"enum", {"file", "directory"}}, {"default", "file"}}}}},
                          {"required", {"path"}},
                          {"additionalProperties", false}};
  tool.threading = core::ToolThreading::Workers;
  tool.execute = [](json input, core::ToolContext context, core::ToolDone done) {
    core::ResolvedPath resolved;
    try {
      resolved = core::resolveToolPath(input["path"].get<std::string>(), *context.location);
    } catch (const core::PathError& e) {
      return done(core::ToolFailure{e.what(), std::nullopt});
    }
    const auto kind = input["kind"] == "directory" ? core::PathKind::Directory : core::PathKind::File;
    json result{{"path", resolved.canonical.string()}, {"inside", resolved.inside}};
    auto finish = [done, result](std::optional<core::ToolCompletion> refusal) {
      if (refusal) return done(std::move(*refusal));
      done(core::ToolResult{std::nullopt, json(result.dump()), std::nullopt});
    };
    auto ask = core::externalDirectoryAsk(resolved, kind);
    if (!ask) return finish(std::nullopt);
    context.assertPermission(std::move(*ask), std::move(finish));
  };
  return tool;
}

} // namespace

void registerTestTools(core::ToolService& tools) {
  std::vector<std::pair<std::string, core::Tool>> list;
  list.emplace_back("test_echo", echoTool());
  list.emplace_back("test_progress", progressTool());
  list.emplace_back("test_sleep", sleepTool());
  list.emplace_back("test_permission", permissionTool());
  list.emplace_back("test_path", pathTool());
  tools.registerTools("toold:test", std::move(list));
}

} // namespace toold::daemon
