// What toold writes to stdout, decoded into messages with the fixture's framing. A frame that is
// not JSON, or bytes that are not a frame, are reported as such: toold must never write them.
#pragma once

#include "daemon_process.h"
#include "protocol/framing.h"

#include <nlohmann/json.hpp>

#include <deque>
#include <string>

namespace toold::fixture {

struct Received {
  nlohmann::json message;
  std::string garbage; ///< non-empty: what was wrong with the frame (message is then null)
};

class DaemonOutput {
public:
  DaemonOutput(DaemonProcess& process, protocol::Framing framing);

  enum class Status { Received, Timeout, Eof };
  /// The next frame toold wrote, waiting for it until `deadline`. Eof once stdout is closed and
  /// every frame before it was handed out.
  Status next(Received& out, Clock::time_point deadline);

private:
  DaemonProcess& process_;
  protocol::FrameDecoder decoder_;
  std::deque<Received> queue_;
  bool eof_ = false;
};

} // namespace toold::fixture
