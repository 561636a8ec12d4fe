// toold as an MCP client: every configured server (McpServer), reconciled with the config,
// connected and disconnected at run time, its statuses, the wait of a snapshot for servers still
// starting, and the resource tools while some connected server offers resources.
#pragma once

#include "core/sources/mcp/mcp_config.h"
#include "core/sources/mcp/mcp_server.h"

#include <map>
#include <memory>
#include <mutex>
#include <set>

namespace toold::core {

/// The scope of the resource tools (list_mcp_resources, list_mcp_resource_templates, read_mcp_resource).
inline constexpr std::string_view kMcpResourceScope = "mcp:resources";

class McpClient {
public:
  explicit McpClient(McpHost host);
  ~McpClient();
  McpClient(const McpClient&) = delete;
  McpClient& operator=(const McpClient&) = delete;

  /// Called with one server's status whenever it changes (from any thread).
  void setStatusListener(std::function<void(const McpServerStatus&)> listener);

  /// Makes the servers those of `config`: new ones start, removed ones stop, changed ones restart,
  /// unchanged ones are left as they are (their processes keep running). A server added at run
  /// time (connect() with a config) and not named by `config` is kept; one `config` names is the
  /// file's again, with the file's config.
  void configure(const McpConfig& config);
  /// Adds or replaces `name` (`config`: then it is a run-time server, which configure() keeps),
  /// or starts it again with its config (none given); false when there is no such server and no
  /// config.
  bool connect(const std::string& name, std::optional<McpServerConfig> config);
  /// Stops `name` (`disabled` until mcp/connect); false when there is none.
  bool disconnect(const std::string& name);

  /// Every server's status, sorted by name.
  std::vector<McpServerStatus> status() const;
  /// Runs `ready` once no server is pending, or when the longest start-up timeout of those that
  /// are has passed (whichever is first); at once when none is. From any thread.
  void whenSettled(std::function<void()> ready);
  /// Stops every server, gently (close stdin, 2 s, SIGTERM, 2 s, SIGKILL), waiting at most `patience`.
  void stopAll(std::chrono::milliseconds patience);

  /// The connected server `name` that offers resources (for the resource tools).
  std::shared_ptr<McpServer> resourceServer(const std::string& name) const;
  std::vector<std::shared_ptr<McpServer>> resourceServers() const;

private:
  std::shared_ptr<McpServer> makeServer(const std::string& name, McpServerConfig config);
  void statusChanged(const McpServerStatus& status);
  bool nameTakenByOthers(const std::string& server, const std::string& name) const;

  McpHost host_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<McpServer>> servers_;
  /// The servers whose config came from connect(), not from the file.
  std::set<std::string> runtime_;
  std::function<void(const McpServerStatus&)> listener_;
  bool resourceToolsShown_ = false;
  std::mutex resourceMutex_;
};

/// The three resource tools, reading through `client`.
std::vector<std::pair<std::string, Tool>> makeMcpResourceTools(McpClient& client);

} // namespace toold::core
