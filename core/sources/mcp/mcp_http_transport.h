// A remote MCP server over Streamable HTTP: each message toold sends is one POST (headers from
// the config, `Mcp-Session-Id` once the server gave one); the answer is JSON, or server-sent
// events parsed as they stream, or 202 with nothing. Each POST runs on a thread of its own, since
// core/net's exchange blocks and a tool call's stream may last as long as the call. A 401 means
// the server wants OAuth, which toold does not do: `needs_auth`. Stopping cancels the exchanges
// and ends the session with a DELETE. toold opens no GET stream: requests and notifications the
// server sends outside an answer are not received.
#pragma once

#include "core/base/cancellation.h"
#include "core/sources/mcp/mcp_connection.h"
#include "core/sources/mcp/mcp_transport.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace toold::core {

class McpHttpTransport final : public McpTransport, public std::enable_shared_from_this<McpHttpTransport> {
public:
  McpHttpTransport(McpStrand strand, std::string serverName, std::string url, std::map<std::string, std::string> headers);
  ~McpHttpTransport() override;

  void start(Events events) override;
  void send(std::string frame) override;
  void stop(std::function<void()> done) override;

private:
  /// On a thread of its own: one POST and what it answers.
  void exchange(std::string body);
  void deliver(std::string_view text);
  void lost(std::string reason, bool unauthorized);

  McpStrand strand_;
  std::string name_;
  std::string url_;
  std::map<std::string, std::string> headers_;
  Events events_;
  CancellationSource stopping_;
  std::mutex mutex_;
  std::string sessionId_;
  bool closed_ = false; ///< on the strand: `closed` was reported, or stop() was called
};

} // namespace toold::core
