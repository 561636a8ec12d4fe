// A built-in asking the client something on the call's behalf (question/ask, elicitation/create,
// task/run): sent over the client channel like a permission ask, withdrawn when the call is
// cancelled, and given up after the permission timeout when one is set, so a call never hangs
// on a client that does not answer.
#pragma once

#include "core/base/cancellation.h"
#include "core/base/client_channel.h"

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace toold::builtins {

struct ClientRequestEnd {
  enum class Kind { Answered, TimedOut, Cancelled };
  Kind kind = Kind::Answered;
  core::ClientReply reply; ///< when answered
};

struct ClientRequester {
  boost::asio::io_context& io;
  std::shared_ptr<core::ClientChannel> client;
  /// How long a request may wait for its answer; none: as long as the call lives.
  std::optional<std::chrono::milliseconds> timeout;

  /// Sends `method` with `params`; `ended` runs exactly once: with the answer, when the timeout
  /// passed (the request is then withdrawn), or when `cancellation` fired (likewise).
  void send(std::string method, core::json params, core::CancellationToken cancellation,
            std::function<void(ClientRequestEnd)> ended) const;
};

/// "12 s", "1.5 s": a timeout as the messages show it.
std::string secondsText(std::chrono::milliseconds duration);

} // namespace toold::builtins
