// One configured MCP server, supervised: started (in parallel with the others, never delaying
// toold), initialized, its tools listed (every page) and registered in the scope `mcp:<name>`;
// re-listed on notifications/tools/list_changed (at most once per 100 ms, swapped in one step);
// restarted when it dies (1 s doubling to 60 s, the count reset after 5 minutes of health,
// `restarting` meanwhile, with the calls that come waiting for it; `failed` for good after 5
// failures in a row); `failed` without a restart when it runs but does
// not finish initialize and tools/list within the start-up timeout; stopped gently. Its tools call through it, so a
// call through an older snapshot still reaches the live server.
//
// Everything runs on the server's strand; status() may be read from any thread.
#pragma once

#include "core/base/client_channel.h"
#include "core/base/location.h"
#include "core/process/process_runner.h"
#include "core/sandbox/command_sandbox.h"
#include "core/base/rate_limit.h"
#include "core/sources/mcp/mcp_config.h"
#include "core/sources/mcp/mcp_connection.h"
#include "core/sources/mcp/mcp_transport.h"
#include "core/tools/tool.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace toold::core {

/// What the MCP client needs of its host: the loop, the process runner, the Location, the tool
/// registry's scopes and the way back to toold's own client.
struct McpHost {
  boost::asio::io_context& io;
  ProcessRunner& processes;
  Location location;
  /// Replaces every registration of the scope with `tools` in one step (none: closes it).
  std::function<void(const std::string& scope, std::vector<std::pair<std::string, Tool>> tools)> replaceScope;
  std::shared_ptr<ClientChannel> client;
  std::string version; ///< toold's, for clientInfo
  /// The first restart's delay; it doubles up to 60 s.
  std::chrono::milliseconds restartDelay{1000};
  /// How long a server must stay connected for its failures in a row to be forgotten.
  std::chrono::milliseconds healthyReset{std::chrono::minutes(5)};
  /// The OS sandbox; stdio servers run in it when its settings say so (`sandbox.mcpServers`).
  std::shared_ptr<const CommandSandbox> sandbox;
  /// Called before each server is made: `io` must run from then on (its thread starts with the
  /// first server, since most sessions have none). None: `io` runs anyway.
  std::function<void()> loopNeeded;
};

/// `restarting`: it failed and its next start is scheduled (calls wait for it); `failed`: for good
/// until mcp/connect (or it runs but does not speak MCP in time, which a restart would repeat).
enum class McpState { Pending, Connected, Disabled, Failed, NeedsAuth, Restarting };
std::string_view mcpStateName(McpState state);
/// `0.2`, `30`: a duration in seconds as toold's messages give it.
std::string mcpSeconds(std::chrono::milliseconds duration);

struct McpServerStatus {
  std::string name;
  McpState state = McpState::Pending;
  std::string error;
  std::size_t toolCount = 0;
  int pid = 0;
  unsigned restarts = 0;
  bool resources = false; ///< connected and offering resources
  /// While `restarting`: which start comes next (1 for the first restart after a run of good
  /// health) and when, by the wall clock.
  unsigned attempt = 0;
  std::optional<std::chrono::system_clock::time_point> nextAttemptAt;
  std::map<std::string, std::string> renamed; ///< effective → raw, for tools given a hash suffix
  std::string protocolVersion; ///< the one initialize agreed on, once connected
  json toJson() const;
};

/// The MCP versions toold speaks as a client, newest first: it offers the first, and takes a
/// server's answer of any of them.
inline constexpr std::string_view kMcpClientVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

inline constexpr unsigned kMcpMaxFailuresInARow = 5;
inline constexpr std::chrono::milliseconds kMcpMaxRestartDelay{60000};
inline constexpr std::chrono::milliseconds kMcpRelistInterval{100};

class McpServer : public std::enable_shared_from_this<McpServer> {
public:
  using StatusListener = std::function<void(const McpServerStatus&)>;
  /// `takenElsewhere` says whether another server's tool has an effective name already.
  McpServer(McpHost& host, std::string name, McpServerConfig config, StatusListener onStatus,
            std::function<bool(const std::string&)> takenElsewhere);
  ~McpServer();

  const std::string& name() const { return name_; }
  const McpServerConfig& config() const { return config_; }
  std::string scope() const { return "mcp:" + name_; }

  /// Starts (again, with the failure count reset), unless it is disabled in its config.
  void start();
  /// Stops it for good (`disabled`); `done` runs once the process is gone.
  void stop(std::function<void()> done);

  McpServerStatus status() const;
  /// The effective names of its registered tools (any thread).
  std::vector<std::string> toolNames() const;
  /// Runs `ready` on the strand once the server is not pending (at once when it is not).
  void whenSettled(std::function<void()> ready);

  /// A tool call (from any thread).
  void callTool(const std::string& raw, bool hasOutputSchema, json input, ToolContext context, ToolDone done);
  /// Any request to the server (resources/list, resources/read, …), with the execution timeout;
  /// `done` gets the result or an error text, on the strand.
  void request(const std::string& method, json params, CancellationToken cancellation,
               std::function<void(std::optional<json> result, std::string error)> done);

private:
  void connect();
  void initialized(std::uint64_t generation, const McpAnswer& answer);
  void listTools(std::uint64_t generation, std::chrono::milliseconds pageTimeout,
                 std::function<void(std::optional<json> tools, std::string error)> done);
  void listPage(std::uint64_t generation, std::chrono::milliseconds pageTimeout, json cursor,
                std::shared_ptr<json> tools, std::shared_ptr<std::vector<std::string>> cursors,
                std::function<void(std::optional<json>, std::string)> done);
  void install(const json& tools);
  void scheduleRelist();
  /// The server is gone or unusable: its calls fail, its tools leave, and it is restarted after
  /// the backoff when `restart` (it exited) unless that was the 5th failure in a row.
  /// Without a restart the server ends in `state` (`failed`, or `needs_auth`).
  void failed(std::uint64_t generation, const std::string& reason, bool restart, McpState state = McpState::Failed);
  void onServerRequest(const std::string& method, const json& params, std::function<void(McpAnswer)> respond);
  /// The roots this server is offered (nullopt: the capability is not declared), by its config.
  std::optional<std::vector<std::filesystem::path>> resolveRoots() const;
  /// The listening stream opened: the tools are listed again (now, or once connected).
  void streamOpened(std::uint64_t generation);
  /// Logs how many of the server's log messages were dropped since the last report, if any.
  void reportDroppedLogs();
  void onNotification(std::uint64_t generation, const std::string& method, const json& params);
  void setState(McpState state, std::string error = {});
  /// A tool call on `connection` (from any thread).
  void sendCall(const std::shared_ptr<McpConnection>& connection, std::uint64_t generation, const std::string& raw,
                bool hasOutputSchema, json input, ToolContext context, ToolDone done);
  void settle();
  /// The calls waiting go on (the state is neither pending nor restarting any more).
  void resumeWaitingCalls();
  void waitForStart(const std::string& raw, bool hasOutputSchema, json input, ToolContext context, ToolDone done);
  std::shared_ptr<McpTransport> makeTransport();

  McpHost& host_;
  const std::string name_;
  const McpServerConfig config_;
  StatusListener onStatus_;
  std::function<bool(const std::string&)> takenElsewhere_;
  McpStrand strand_;

  // On the strand.
  std::uint64_t generation_ = 0; ///< one per start: late events of a dead process are dropped
  std::shared_ptr<McpTransport> transport_;
  std::shared_ptr<McpConnection> connection_;
  json serverCapabilities_;
  std::optional<std::vector<std::filesystem::path>> roots_; ///< what this start offers
  bool relistWhenConnected_ = false;
  boost::asio::steady_timer startupDeadline_;
  boost::asio::steady_timer restartTimer_;
  boost::asio::steady_timer healthyTimer_;
  boost::asio::steady_timer relistTimer_;
  bool relistScheduled_ = false;
  std::chrono::steady_clock::time_point lastRelist_{};
  unsigned failuresInARow_ = 0;
  bool stopped_ = false;
  std::vector<std::function<void()>> settledWaiters_;
  /// Calls that came while the server was starting or restarting, by a number of their own: each
  /// goes on once the server is connected or out of reach, or fails when its execution timeout
  /// passes or it is cancelled first.
  struct WaitingCall;
  std::map<std::uint64_t, std::shared_ptr<WaitingCall>> waitingCalls_;
  std::uint64_t nextWaitingCall_ = 0;

  mutable std::mutex statusMutex_;
  McpServerStatus status_;
  /// The connection while connected, for calls from any thread; cleared by every other state.
  std::shared_ptr<McpConnection> liveConnection_;
  std::uint64_t liveGeneration_ = 0;
  std::vector<std::string> toolNames_;
  /// The server's log messages (notifications/message) that reach toold's log: at most
  /// kLogMessagesPerSecond a second, 100 at once; the rest are counted (reportDroppedLogs).
  static constexpr int kLogMessagesPerSecond = 20;
  RateLimit logLimit_{kLogMessagesPerSecond, 100};
};

} // namespace toold::core
