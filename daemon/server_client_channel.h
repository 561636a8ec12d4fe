// core's way back to the client, over the server's stdio: requests get ids "toold-N" and their
// cancellation is forwarded with `$/cancelRequest`, or `notifications/cancelled` for MCP's own
// requests (an MCP client knows only that one).
#pragma once

#include "core/base/client_channel.h"

namespace toold::daemon {

class Server;

class ServerClientChannel final : public core::ClientChannel {
public:
  explicit ServerClientChannel(Server& server) : server_(server) {}

  void request(std::string method, core::json params, core::CancellationToken cancellation,
               std::function<void(core::ClientReply)> onReply) override;
  void notify(std::string method, core::json params) override;
  core::json capabilities() const override;

private:
  Server& server_;
};

} // namespace toold::daemon
