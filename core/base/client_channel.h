// The way back to the client, as core sees it: send a request and get its answer, or a notification. The daemon implements it over stdio; core never learns how frames travel.
#pragma once

#include "core/base/cancellation.h"
#include "protocol/error_code.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>

namespace toold::core {

using json = nlohmann::json;

/// The client's answer: exactly one of result and error.
struct ClientReply {
  std::optional<json> result;
  std::optional<protocol::RpcError> error;
};

class ClientChannel {
public:
  virtual ~ClientChannel() = default;
  /// Sends `method` to the client; `onReply` runs once with its answer, or with a -32800 error
  /// when toold exits first. Cancelling `cancellation` tells the client (`$/cancelRequest`).
  virtual void request(std::string method, json params, CancellationToken cancellation,
                       std::function<void(ClientReply)> onReply) = 0;
  /// Sends a notification to the client (no answer): `shell/exited` when a background job ends.
  virtual void notify(std::string method, json params) = 0;
  /// The capabilities the client declared in `initialize` (an object; empty before it).
  virtual json capabilities() const = 0;
};

} // namespace toold::core
