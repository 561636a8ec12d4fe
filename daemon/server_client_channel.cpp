#include "daemon/server_client_channel.h"

#include "daemon/server.h"

#include <memory>
#include <mutex>

namespace toold::daemon {

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
  auto registration = cancellation.onCancel([this, id] { server_.notify("$/cancelRequest", json{{"id", id}}); });
  std::lock_guard lock(pending->mutex);
  if (!pending->answered) pending->registration = std::move(registration);
}

} // namespace toold::daemon
