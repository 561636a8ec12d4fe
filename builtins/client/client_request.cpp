#include "builtins/client/client_request.h"

#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <cstdio>
#include <mutex>

namespace toold::builtins {

namespace {

struct PendingRequest {
  explicit PendingRequest(boost::asio::io_context& io) : timer(io) {}
  core::CancellationSource withdraw;
  core::CancellationRegistration callCancelled;
  boost::asio::steady_timer timer;
  std::atomic<bool> ended{false};
  std::function<void(ClientRequestEnd)> onEnd;

  // The first ending wins; the others find `ended` set.
  void end(ClientRequestEnd how) {
    if (ended.exchange(true)) return;
    timer.cancel();
    auto callback = std::move(onEnd);
    if (how.kind != ClientRequestEnd::Kind::Answered)
      withdraw.cancel(how.kind == ClientRequestEnd::Kind::TimedOut ? "no answer in time" : "the call was cancelled");
    callback(std::move(how));
  }
};

} // namespace

void ClientRequester::send(std::string method, core::json params, core::CancellationToken cancellation,
                           std::function<void(ClientRequestEnd)> ended) const {
  auto pending = std::make_shared<PendingRequest>(io);
  pending->onEnd = std::move(ended);
  std::weak_ptr<PendingRequest> weak = pending;
  pending->callCancelled = cancellation.onCancel([weak] {
    if (auto p = weak.lock()) p->end(ClientRequestEnd{ClientRequestEnd::Kind::Cancelled, {}});
  });
  if (pending->ended) return; // cancelled before it was sent
  if (timeout) {
    pending->timer.expires_after(*timeout);
    pending->timer.async_wait([pending](const boost::system::error_code& ec) {
      if (!ec) pending->end(ClientRequestEnd{ClientRequestEnd::Kind::TimedOut, {}});
    });
  }
  client->request(std::move(method), std::move(params), pending->withdraw.token(), [pending](core::ClientReply reply) {
    pending->end(ClientRequestEnd{ClientRequestEnd::Kind::Answered, std::move(reply)});
  });
}

std::string secondsText(std::chrono::milliseconds duration) {
  const auto ms = duration.count();
  char text[32];
  if (ms % 1000 == 0) std::snprintf(text, sizeof text, "%lld s", static_cast<long long>(ms / 1000));
  else std::snprintf(text, sizeof text, "%.1f s", static_cast<double>(ms) / 1000.0);
  return text;
}

} // namespace toold::builtins
