// JSON-RPC frames over a child's pipes, in either framing toold speaks.
#pragma once

#include "protocol/framing.h"
#include "core/process/child_process.h"

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace toold::bench {

class RpcConnection {
public:
  RpcConnection(client::ChildProcess& child, protocol::Framing framing, std::chrono::milliseconds timeout);

  /// Appends the bytes of one frame around `body` to `out`; callers build batches of these and
  /// send them at once. Appending into a reused buffer keeps the timed loops free of allocations.
  void appendFrame(std::string& out, std::string_view body) const;
  /// Throws when the server no longer reads its input, or not within the timeout.
  void sendFramed(std::string_view bytes);
  void send(std::string_view body) {
    std::string bytes;
    appendFrame(bytes, body);
    sendFramed(bytes);
  }
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
