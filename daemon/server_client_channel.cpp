#include "daemon/server_client_channel.h"

#include "daemon/server.h"

#include <memory>
#include <mutex>

namespace toold::daemon {

namespace {

bool isMcpMethod(const std::string& method) {
  return method.starts_with("elicitation/") || method.starts_with("sampling/") || method.starts_with("roots/");
}

} // namespace

void ServerClientChannel::request(std::string method, json params, core::CancellationToken cancellation,
                                  std::function<void(core::ClientReply)> onReply) {
  // The registration must outlive the request, and go when the answer comes: the reply callback
  // owns it. It is filled in after the request is sent, hence the lock.
  struct Pending {
    std::mutex mutex;
    core::CancellationRegistration registration;
    bool answered = false;
  };
  auto pending = std::make_shared<Pending>();
  const bool mcp = isMcpMethod(method);
  json id = server_.callClient(std::move(method), std::move(params),
                               [pending, onReply = std::move(onReply)](protocol::Response&& response) {
                                 {
                                   std::lock_guard lock(pending->mutex);
                                   pending->answered = true;
                                   pending->registration.reset();
                                 }
                                 onReply(core::ClientReply{std::move(response.result), std::move(response.error)});
                               });
  if (id.is_null()) return;
  // The answer may have come already (on the reader thread, while this one was still here): then
  // nothing is left to withdraw, and a cancellation that follows the answer must not reach the
  // client. So the registration is made under the lock that the answer takes first.
  std::lock_guard lock(pending->mutex);
  if (pending->answered) return;
  pending->registration = cancellation.onCancel([this, id, mcp] {
    if (mcp) {
      server_.notify("notifications/cancelled", json{{"requestId", id}, {"reason", "no longer needed"}});
    } else {
      server_.notify("$/cancelRequest", json{{"id", id}});
    }
  });
}

void ServerClientChannel::notify(std::string method, core::json params) { server_.notify(method, std::move(params)); }

core::json ServerClientChannel::capabilities() const { return server_.clientCapabilities(); }

} // namespace toold::daemon
