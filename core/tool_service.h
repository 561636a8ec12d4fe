// The tool system of one Location, as one service: the registry with its scopes, the snapshots,
// the hooks, the sessions, the call pipeline, managed output storage and the child processes of
// command tools. The daemon binds wire methods to it; it knows nothing of stdio.
#pragma once

#include "core/tools/call_pipeline.h"
#include "core/checkpoint/checkpoint_book.h"
#include "core/files/path_locks.h"
#include "core/base/client_channel.h"
#include "core/lsp/formatter_config.h"
#include "core/lsp/lsp_config.h"
#include "core/output/output_bounding.h"
#include "core/output/output_store.h"
#include "core/permission/permission_config.h"
#include "core/permission/permission_service.h"
#include "core/sandbox/command_sandbox.h"
#include "core/tools/snapshot_store.h"
#include "core/tools/tool.h"
#include "core/tools/tool_hooks.h"
#include "core/tools/tool_registry.h"
#include "protocol/tool_messages.h"

#include <boost/asio/io_context.hpp>

#include <functional>
#include <memory>

namespace toold::core {

class ProcessRunner;
class LspService; // core/lsp/lsp_service.h

/// Scopes named "toold:…" are toold's own (its test tools, and the built-ins to come).
inline constexpr std::string_view kReservedScopePrefix = "toold:";

struct ToolServiceOptions {
  Location location;
  BoundingLimits limits;
  /// How much `<dataDir>/tool-output` keeps (toold.json's output.budgetBytes and fileBytes).
  RetentionLimits retention;
  std::size_t workerThreads = 2;
  std::size_t snapshotCapacity = kDefaultSnapshotCapacity;
  PermissionConfig permissionConfig; ///< toold.json as read at start-up; config() is the one in effect
  PermissionOptions permissionOptions;
  /// --mcp-model: the model of the MCP face's implicit snapshot, over the config's `mcp.model`.
  std::optional<std::string> mcpModel;
  /// The OS sandbox of the commands the service starts; null: none.
  std::shared_ptr<const CommandSandbox> sandbox;
  /// The `lsp` section: the language servers the file tools and the `lsp` tool use.
  LspSettings lsp;
  /// The `formatter` section: what runs on files the file tools wrote (off by default).
  FormatterSettings formatter;
  /// The checkpoints of what calls change (docs/checkpoints.md): on by default; nullopt turns
  /// them off (--checkpoints off, toold.json's checkpoints.enabled).
  std::optional<CheckpointOptions> checkpoints = CheckpointOptions{};
};

class ToolService {
public:
  ToolService(boost::asio::io_context& io, ToolServiceOptions options, std::shared_ptr<ClientChannel> client);
  ~ToolService();
  ToolService(const ToolService&) = delete;
  ToolService& operator=(const ToolService&) = delete;

  /// Registers a client's record (client-hosted or command tools) in its scope, or a new one;
  /// with `replaceScope`, in place of the scope's earlier tools, in one step (config/reload).
  /// Throws RegistrationError (the caller answers -32602).
  protocol::RegisterResult registerTools(protocol::RegisterParams params, bool replaceScope = false);
  /// Hands each tool of a record (authored name, spec) to the function given to it, in any order.
  using ToolSpecSource = std::function<void(const std::function<void(std::string&&, protocol::ToolSpec&&)>&)>;
  /// registerTools(params) for a record read a tool at a time: each spec becomes its registration
  /// as it comes, so the record's specs never exist all at once. The tools count as the record's
  /// object does: by authored name, the last of a duplicate name. The same result when it
  /// succeeds; on a problem it throws, but not always the error registerTools would give (a later
  /// tool's may come first): the caller that wants those words registers the record the long way.
  protocol::RegisterResult registerToolsOneByOne(const std::optional<std::string>& scope,
                                                 const protocol::RegisterOptions& options,
                                                 const ToolSpecSource& source);
  /// Registers in-process tools (built-ins, test tools) in `scope`.
  void registerTools(const std::string& scope, std::vector<std::pair<std::string, Tool>> tools);
  /// Code Mode's `execute`, added by snapshots that use Code Mode (its name is reserved, so it is
  /// no registration). Throws RegistrationError for a schema that cannot be compiled.
  void setCodemodeTool(Tool tool);
  /// Replaces every registration of `scope` with `tools` in one step (MCP servers' tool sets).
  void replaceTools(const std::string& scope, std::vector<std::pair<std::string, Tool>> tools);
  /// Closes `scope`; false when it held nothing.
  bool unregister(const std::string& scope);

  /// Takes and keeps a snapshot; its id is in the result.
  std::shared_ptr<const Snapshot> snapshot(const protocol::SnapshotParams& params);
  std::shared_ptr<const Snapshot> findSnapshot(const std::string& id);
  bool release(const std::string& id);
  /// A snapshot of everything for the MCP face's default session, taken again only when the
  /// effective set changed. It does not start the checkpoints' tracker: `initialize` takes one for
  /// its instructions, and a toold asked only that needs no tracker.
  std::shared_ptr<const Snapshot> implicitSnapshot();
  /// Starts finding what calls change (the checkpoints' tracker: watches and a baseline of the
  /// tree, on a thread of its own), once. A session's start does it — `snapshot` itself, the MCP
  /// face's `tools/list` and `tools/call` — not toold's: the first answers do not wait behind it.
  void startTracking();

  void call(std::shared_ptr<const Snapshot> snapshot, protocol::CallParams params, CallIo io,
            std::function<void(CallAnswer)> answer);

  ToolHooks& hooks();
  PermissionService& permissions();
  /// The loop everything runs on (timers of built-in tools).
  boost::asio::io_context& io();
  /// The runner of every child process toold starts: command tools, the shell tool's commands.
  ProcessRunner& processes();
  /// The Location's language servers (never null; serving nothing when the config turns them off).
  std::shared_ptr<LspService> lsp();
  /// The Location the tools act in, with its stores (tool output, checkpoints).
  std::shared_ptr<const Location> location() const;
  /// The Location's checkpoints; null when they are off (or their folder could not be made).
  std::shared_ptr<CheckpointBook> checkpoints() const;
  /// The locks every change of a workspace file takes, per canonical path: the file tools' and
  /// a checkpoint restore's, so neither runs into the other.
  std::shared_ptr<PathLocks> pathLocks() const;
  /// The OS sandbox of commands (a sandbox that does nothing when none was given).
  std::shared_ptr<const CommandSandbox> sandbox() const;
  /// The way back to the client, for tools that notify it outside a call (`shell/exited`).
  std::shared_ptr<ClientChannel> client();
  /// What the service was made with (the Location, the permission options that built-ins asking
  /// the client follow too).
  const ToolServiceOptions& options() const;

  /// The toold.json in effect: the start-up one, then each one applyConfig put in its place.
  std::shared_ptr<const PermissionConfig> config() const;
  /// Puts `config` in effect (config/reload): the permission rules, `codemode.enabled` and
  /// `codemode.tools` and `mcp.model` for the snapshots taken from now on, and what the built-ins
  /// read from config() on every call (webfetch, skills). Snapshots already taken keep what they
  /// were taken with.
  void applyConfig(PermissionConfig config);

  /// Ends a session: every listener is told (the shell tool kills the session's background
  /// jobs). The session may be used again later; it then starts afresh.
  void endSession(const std::string& sessionID);
  /// Adds a listener for endSession; listeners run on the caller's thread, in the order added.
  void addSessionEndListener(std::function<void(const std::string& sessionID)> listener);
  /// Called after every change of the effective tool set (for notifications/tools/list_changed).
  void setToolsChangedListener(std::function<void()> listener);

  /// Deletes retained outputs older than 7 days a few seconds from now, and then every hour.
  void startOutputCleanup();
  /// Adds what shutdown() does first, in the order added, while the rest of the service still
  /// works: tools with threads of their own (Code Mode's workers) stop them there.
  void addShutdownStep(std::function<void()> step);
  /// Runs the shutdown steps once, then kills every child process and stops the timers; calls in
  /// flight have been cancelled.
  void shutdown();

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace toold::core
