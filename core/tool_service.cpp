#include "core/tool_service.h"

#include "core/lsp/lsp_service.h"

#include "core/base/unique_fd.h"
#include "core/checkpoint/checkpoint_eviction.h"
#include "core/checkpoint/workspace_tracker.h"

#include "core/sources/client_tool.h"
#include "core/sources/command_tool.h"
#include "core/output/output_store.h"
#include "core/tools/permission_guard.h"
#include "core/base/worker_threads.h"
#include "core/process/process_runner.h"
#include "core/schema/schema_cache.h"
#include "core/tools/session_table.h"
#include "core/tools/tool_name.h"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <mutex>

namespace toold::core {

namespace asio = boost::asio;

namespace {

constexpr auto kCleanupInterval = std::chrono::hours(1);
// The first cleanup waits a little: at start-up it would start the worker threads (and touch the
// disk) before the first answer, which every client waits for.
constexpr auto kFirstCleanupDelay = std::chrono::seconds(5);
// The implicit (MCP) snapshot's identity: MCP clients have no sessions or agents of their own.
constexpr std::string_view kImplicitSession = "mcp";
constexpr std::string_view kImplicitAgent = "mcp";

/// The Location with the store of its tool-output folder, which every writer to the folder shares,
/// and its checkpoints' book (when on, and the Location has a data folder).
std::shared_ptr<const Location> withStores(Location location, const RetentionLimits& limits,
                                           const std::optional<CheckpointOptions>& checkpoints) {
  if (!location.outputs) location.outputs = std::make_shared<OutputStore>(location.dataDir, limits);
  if (!location.checkpoints && checkpoints && !location.dataDir.empty() && !location.directory.empty()) {
    try {
      location.checkpoints = std::make_shared<CheckpointBook>(
          CheckpointBook::folderFor(location.dataDir, location.directory), location.directory, *checkpoints);
    } catch (const std::exception& e) {
      spdlog::warn("checkpoints are off: {}", e.what());
    }
  }
  return std::make_shared<const Location>(std::move(location));
}

} // namespace

struct ToolService::Impl {
  asio::io_context& io;
  ToolServiceOptions options;
  std::shared_ptr<const Location> location;
  std::shared_ptr<ClientChannel> client;
  SchemaCache schemas;
  ToolRegistry registry{schemas};
  SnapshotStore snapshots;
  ToolHooks hooks;
  SessionTable sessions;
  std::shared_ptr<PathLocks> pathLocks = std::make_shared<PathLocks>();
  OutputStore& outputs; ///< location->outputs
  // Started by the first tool body, and grown while blocked bodies hold all of its threads.
  WorkerThreads workers;
  ProcessRunner processes;
  std::shared_ptr<LspService> lsp;
  PermissionService permissions;
  CallPipeline pipeline;
  asio::steady_timer cleanupTimer;
  std::atomic<std::uint64_t> nextScope{1};
  std::atomic<bool> emptyCodemodeTold{false};

  std::shared_ptr<const RegisteredTool> codemodeTool; ///< set once at start-up, before any snapshot

  // What `bash`, command, MCP tools and programs changed, for their checkpoints. Made with the
  // book, started by the first snapshot rather than at start-up: its thread lists and watches the
  // whole tree and reads every file once for the baseline, which the first answers must not wait
  // behind, and a toold asked only for its version or its tools needs none of it.
  UniqueFd trackedRoot;
  std::unique_ptr<WorkspaceTracker> tracker;
  std::once_flag trackerStarted;

  mutable std::mutex configMutex;
  std::shared_ptr<const PermissionConfig> config; ///< under configMutex

  std::mutex implicitMutex;
  std::shared_ptr<const Snapshot> implicit;
  std::shared_ptr<const CommandSandbox> sandbox;
  std::uint64_t implicitRevision = 0;

  std::mutex listenerMutex;
  std::function<void()> toolsChanged;
  std::vector<std::function<void(const std::string&)>> sessionEndListeners;
  std::vector<std::function<void()>> shutdownSteps; // under listenerMutex

  Impl(asio::io_context& ioContext, ToolServiceOptions opts, std::shared_ptr<ClientChannel> channel)
      : io(ioContext), options(std::move(opts)), location(withStores(options.location, options.retention, options.checkpoints)),
        client(std::move(channel)), snapshots(options.snapshotCapacity), outputs(*location->outputs),
        workers(options.workerThreads), processes(ioContext),
        lsp(std::make_shared<LspService>(ioContext, processes,
                                         LspServiceOptions{options.location.directory, options.lsp, {}})),
        permissions(ioContext, options.location, options.permissionConfig, options.permissionOptions,
                    makeClientPermissionPrompter(client, options.permissionOptions.asks)),
        pipeline(CallPipeline::Services{sessions, hooks, outputs, permissions, workers, location, options.limits}),
        cleanupTimer(ioContext), config(std::make_shared<const PermissionConfig>(options.permissionConfig)),
        sandbox(options.sandbox ? options.sandbox : std::make_shared<const CommandSandbox>(CommandSandbox::off())) {
    if (location->checkpoints) makeTracker(*location->checkpoints);
  }

  void makeTracker(CheckpointBook& book) {
    // A data folder inside the workspace would be watched too: every chunk the tracker stores
    // would be an event it records, and so on. The file tools' changes are recorded all the same.
    const auto data = std::filesystem::weakly_canonical(location->dataDir);
    const auto [end, _] = std::mismatch(location->directory.begin(), location->directory.end(), data.begin(), data.end());
    if (end == location->directory.end()) {
      spdlog::warn("checkpoints: the data folder {} is inside the workspace; what commands change is not tracked",
                   data.string());
      return;
    }
    trackedRoot = UniqueFd(::open(location->directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!trackedRoot) {
      spdlog::warn("checkpoints: {} cannot be opened to watch ({}); only the file tools' changes are recorded",
                   location->directory.string(), std::strerror(errno));
      return;
    }
    tracker = std::make_unique<WorkspaceTracker>(trackedRoot.get(), location->directory, book.store());
    book.setTracker(tracker.get());
  }

  void startTracking() {
    if (tracker) std::call_once(trackerStarted, [this] { tracker->start(); });
  }

  std::shared_ptr<const PermissionConfig> currentConfig() const {
    std::lock_guard lock(configMutex);
    return config;
  }

  Tool toolFromSpec(protocol::ToolSpec spec, const std::string& name) {
    Tool tool;
    tool.description = std::move(spec.description);
    tool.inputSchema = std::move(spec.inputSchema);
    tool.outputSchema = std::move(spec.outputSchema);
    tool.codemode = spec.codemode.value_or(true);
    tool.permission = spec.permission.value_or("");
    tool.mutates = spec.mutates;
    if (spec.title) tool.title = *spec.title;
    if (spec.annotations) tool.annotations = std::move(*spec.annotations);
    // Both handlers only start asynchronous work, so they run inline on the session's queue.
    tool.threading = ToolThreading::Inline;
    if (spec.handler.type == protocol::HandlerSpec::Type::Client) {
      tool.execute = makeClientToolExecute(client, name, tool.permission);
    } else {
      tool.execute = guardedByPermission(tool.permission.empty() ? name : tool.permission, name,
                                         makeCommandToolExecute(processes, spec.handler, name, sandbox));
    }
    return tool;
  }

  SnapshotEnvironment environment() const { return SnapshotEnvironment{client->capabilities(), location}; }

  void scheduleCleanup(std::chrono::steady_clock::duration delay) {
    cleanupTimer.expires_after(delay);
    cleanupTimer.async_wait([this](const boost::system::error_code& ec) {
      if (ec) return;
      asio::post(workers.pool(), [this] {
        auto report = outputs.cleanup(std::filesystem::file_time_type::clock::now());
        if (report.deleted > 0 || report.failed > 0)
          spdlog::info("tool-output cleanup: {} deleted, {} kept, {} failed", report.deleted, report.kept,
                       report.failed);
        if (location->checkpoints) {
          auto eviction = evictOverBudget(*location->checkpoints, checkpointClockMs());
          if (!eviction.sessions.empty() || !eviction.error.empty())
            spdlog::info("checkpoints: {} sessions evicted, {} bytes → {}{}", eviction.sessions.size(),
                         eviction.bytesBefore, eviction.bytesAfter, eviction.error.empty() ? "" : "; " + eviction.error);
        }
      });
      scheduleCleanup(kCleanupInterval);
    });
  }
};

ToolService::ToolService(asio::io_context& io, ToolServiceOptions options, std::shared_ptr<ClientChannel> client)
    : impl_(std::make_unique<Impl>(io, std::move(options), std::move(client))) {
  impl_->registry.setChangeListener([impl = impl_.get()] {
    std::function<void()> listener;
    {
      std::lock_guard lock(impl->listenerMutex);
      listener = impl->toolsChanged;
    }
    if (listener) listener();
  });
}

ToolService::~ToolService() { shutdown(); }

protocol::RegisterResult ToolService::registerTools(protocol::RegisterParams params, bool replaceScope) {
  protocol::RegisterResult result;
  result.scope = params.scope.value_or("scope-" + std::to_string(impl_->nextScope++));
  const std::string ns = params.options.ns.value_or("");
  // A namespace given explicitly must be valid, even an empty one (it would silently mean none).
  if (params.options.ns) validateNamespace(*params.options.ns);
  std::vector<std::pair<std::string, Tool>> tools;
  for (auto& [authored, spec] : params.tools) {
    std::string name;
    try {
      name = effectiveToolName(authored, ns);
    } catch (const RegistrationError& e) {
      throw RegistrationError(std::string(e.what()) + " (tool \"" + authored + "\")");
    }
    tools.emplace_back(authored, impl_->toolFromSpec(std::move(spec), name));
  }
  const RegistrationOptions options{ns, params.options.codemode};
  auto names = replaceScope ? impl_->registry.replace(result.scope, std::move(tools), options)
                            : impl_->registry.add(result.scope, std::move(tools), options);
  for (auto& [authored, name] : names) result.tools.push_back({std::move(authored), std::move(name)});
  spdlog::info("registered {} tool(s) in scope {}", result.tools.size(), result.scope);
  return result;
}

protocol::RegisterResult ToolService::registerToolsOneByOne(const std::optional<std::string>& scope,
                                                            const protocol::RegisterOptions& wireOptions,
                                                            const ToolSpecSource& source) {
  const std::string ns = wireOptions.ns.value_or("");
  if (wireOptions.ns) validateNamespace(*wireOptions.ns);
  const RegistrationOptions options{ns, wireOptions.codemode};
  std::vector<std::shared_ptr<RegisteredTool>> prepared;
  source([&](std::string&& authored, protocol::ToolSpec&& spec) {
    std::string name;
    try {
      name = effectiveToolName(authored, ns);
    } catch (const RegistrationError& e) {
      throw RegistrationError(std::string(e.what()) + " (tool \"" + authored + "\")");
    }
    Tool tool = impl_->toolFromSpec(std::move(spec), name);
    prepared.push_back(impl_->registry.prepareOne(std::move(authored), std::move(tool), options));
  });
  // As the record's object holds them: sorted by authored name, the last of duplicates kept.
  std::stable_sort(prepared.begin(), prepared.end(),
                   [](const auto& a, const auto& b) { return a->authoredName() < b->authoredName(); });
  std::vector<std::shared_ptr<RegisteredTool>> record;
  record.reserve(prepared.size());
  for (std::size_t i = 0; i < prepared.size(); ++i)
    if (i + 1 == prepared.size() || prepared[i + 1]->authoredName() != prepared[i]->authoredName())
      record.push_back(std::move(prepared[i]));
  protocol::RegisterResult result;
  result.scope = scope.value_or("scope-" + std::to_string(impl_->nextScope++));
  auto names = impl_->registry.installPrepared(result.scope, std::move(record));
  result.tools.reserve(names.size());
  for (auto& [authored, name] : names) result.tools.push_back({std::move(authored), std::move(name)});
  spdlog::info("registered {} tool(s) in scope {}", result.tools.size(), result.scope);
  return result;
}

void ToolService::registerTools(const std::string& scope, std::vector<std::pair<std::string, Tool>> tools) {
  impl_->registry.add(scope, std::move(tools), RegistrationOptions{});
}

void ToolService::setCodemodeTool(Tool tool) {
  impl_->codemodeTool = impl_->registry.prepareReserved(std::string(kReservedToolName), std::move(tool));
}

void ToolService::replaceTools(const std::string& scope, std::vector<std::pair<std::string, Tool>> tools) {
  impl_->registry.replace(scope, std::move(tools), RegistrationOptions{});
}

bool ToolService::unregister(const std::string& scope) { return impl_->registry.close(scope); }

std::shared_ptr<const Snapshot> ToolService::snapshot(const protocol::SnapshotParams& params) {
  impl_->startTracking();
  const auto config = impl_->currentConfig(); // holds the settings while the snapshot is taken
  auto snapshot = takeSnapshot(impl_->snapshots.newId(), *impl_->registry.effectiveSet(), params,
                               impl_->permissions.configuredLayers(params.agent), impl_->environment(),
                               SnapshotCodemode{&config->codemode, impl_->codemodeTool});
  // `"codemode": true` with only the built-ins, all direct, shows nothing: say why, once.
  if (snapshot->codemode && snapshot->inventory && snapshot->inventory->tools.empty() &&
      !impl_->emptyCodemodeTold.exchange(true))
    spdlog::warn("codemode: Code Mode is on, but no tool runs inside it, so no `execute` is offered: name tools in "
                 "toold.json's codemode.tools (e.g. {{\"bash\": true}}); MCP servers' and registered tools run inside "
                 "by default");
  impl_->snapshots.put(snapshot);
  return snapshot;
}

std::shared_ptr<const Snapshot> ToolService::findSnapshot(const std::string& id) { return impl_->snapshots.find(id); }

bool ToolService::release(const std::string& id) { return impl_->snapshots.release(id); }

void ToolService::startTracking() { impl_->startTracking(); }

std::shared_ptr<const Snapshot> ToolService::implicitSnapshot() {
  std::lock_guard lock(impl_->implicitMutex);
  const std::uint64_t revision = impl_->registry.revision();
  if (!impl_->implicit || impl_->implicitRevision != revision) {
    const auto config = impl_->currentConfig();
    protocol::SnapshotParams params;
    params.sessionID = kImplicitSession;
    params.agent = kImplicitAgent;
    params.model = impl_->options.mcpModel ? impl_->options.mcpModel : config->mcpModel;
    impl_->implicit = takeSnapshot("mcp-" + std::to_string(revision), *impl_->registry.effectiveSet(), params,
                                   impl_->permissions.configuredLayers(params.agent), impl_->environment(),
                                   SnapshotCodemode{&config->codemode, impl_->codemodeTool});
    impl_->implicitRevision = revision;
  }
  return impl_->implicit;
}

void ToolService::call(std::shared_ptr<const Snapshot> snapshot, protocol::CallParams params, CallIo io,
                       std::function<void(CallAnswer)> answer) {
  impl_->pipeline.call(std::move(snapshot), std::move(params), std::move(io), std::move(answer));
}

ToolHooks& ToolService::hooks() { return impl_->hooks; }

boost::asio::io_context& ToolService::io() { return impl_->io; }

ProcessRunner& ToolService::processes() { return impl_->processes; }
std::shared_ptr<const Location> ToolService::location() const { return impl_->location; }

std::shared_ptr<CheckpointBook> ToolService::checkpoints() const { return impl_->location->checkpoints; }

std::shared_ptr<PathLocks> ToolService::pathLocks() const { return impl_->pathLocks; }

std::shared_ptr<const CommandSandbox> ToolService::sandbox() const { return impl_->sandbox; }

std::shared_ptr<ClientChannel> ToolService::client() { return impl_->client; }

const ToolServiceOptions& ToolService::options() const { return impl_->options; }

std::shared_ptr<const PermissionConfig> ToolService::config() const { return impl_->currentConfig(); }

void ToolService::applyConfig(PermissionConfig config) {
  auto replacement = std::make_shared<const PermissionConfig>(std::move(config));
  impl_->permissions.setConfig(*replacement);
  {
    std::lock_guard lock(impl_->configMutex);
    impl_->config = replacement;
  }
  std::function<void()> toolsChanged;
  {
    std::lock_guard lock(impl_->listenerMutex);
    toolsChanged = impl_->toolsChanged;
  }
  // The rules, Code Mode and the model decide what the MCP face lists: its snapshot is taken
  // again, and its client told.
  {
    std::lock_guard lock(impl_->implicitMutex);
    impl_->implicit.reset();
  }
  if (toolsChanged) toolsChanged();
}

void ToolService::endSession(const std::string& sessionID) {
  std::vector<std::function<void(const std::string&)>> listeners;
  {
    std::lock_guard lock(impl_->listenerMutex);
    listeners = impl_->sessionEndListeners;
  }
  spdlog::info("session {} ended", sessionID);
  for (const auto& listener : listeners) listener(sessionID);
}

void ToolService::addSessionEndListener(std::function<void(const std::string& sessionID)> listener) {
  std::lock_guard lock(impl_->listenerMutex);
  impl_->sessionEndListeners.push_back(std::move(listener));
}

PermissionService& ToolService::permissions() { return impl_->permissions; }

void ToolService::setToolsChangedListener(std::function<void()> listener) {
  std::lock_guard lock(impl_->listenerMutex);
  impl_->toolsChanged = std::move(listener);
}

void ToolService::startOutputCleanup() { impl_->scheduleCleanup(kFirstCleanupDelay); }

void ToolService::addShutdownStep(std::function<void()> step) {
  std::lock_guard lock(impl_->listenerMutex);
  impl_->shutdownSteps.push_back(std::move(step));
}

std::shared_ptr<LspService> ToolService::lsp() { return impl_->lsp; }

void ToolService::shutdown() {
  std::vector<std::function<void()>> steps;
  {
    std::lock_guard lock(impl_->listenerMutex);
    steps.swap(impl_->shutdownSteps);
  }
  for (auto& step : steps) step();
  impl_->permissions.shutdown();
  impl_->cleanupTimer.cancel();
  impl_->processes.killAll();
  // Its baseline is written to the store, so the next start reads only what changed meanwhile.
  if (impl_->tracker) {
    // A background job killed above may finish its call's checkpoint later, on another thread:
    // it finds no tracker rather than one being destroyed.
    impl_->location->checkpoints->setTracker(nullptr);
    impl_->tracker->stop();
  }
  impl_->workers.stop();
  impl_->workers.join();
}

} // namespace toold::core
