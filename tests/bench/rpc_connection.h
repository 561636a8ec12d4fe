// JSON-RPC frames over a child's pipes, in either framing toold speaks.
#pragma once

#include "protocol/framing.h"
#include "daemon/child_process.h"

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace toold::bench {

class RpcConnection {
public:
  RpcConnection(client::ChildProcess& child, protocol::Framing framing, std::chrono::milliseconds timeout);

  /// The bytes of one frame around `body`; callers build batches of these and send them at once.
  std::string frame(std::string_view body) const;
  /// Throws when the server no longer reads its input, or not within the timeout.
  void sendFramed(std::string_view bytes);
  void send(std::string_view body) { sendFramed(frame(body)); }
  /// Waits for output and appends the body of every frame it completes (at least one) to `frames`.
  /// Throws when the server closes its output, sends a broken frame, or is silent past the timeout.
  void receive(std::vector<std::string>& frames);

private:
  client::ChildProcess& child_;
  protocol::Framing framing_;
  std::chrono::milliseconds timeout_;
  protocol::FrameDecoder decoder_;
  std::string chunk_;
};

} // namespace toold::bench
