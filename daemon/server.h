// The JSON-RPC server: dispatches frames to the method table one at a time, owns the lifecycle,
// the table of requests in flight (for cancellation) and the table of requests sent to the client.
#pragma once

#include "daemon/method_table.h"
#include "protocol/framing.h"
#include "protocol/message.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace boost::asio {
class io_context;
}

namespace toold::daemon {

class Server {
public:
  /// Hands one message, written out (JSON text without framing), to the writer.
  using Send = std::function<void(std::string&&)>;
  using ExitHandler = std::function<void(int status)>;

  /// `send` hands a message to the writer (any thread); `onExit` runs once, when the
  /// server has finished (exit, end of input, a signal) and every request in flight was answered.
  Server(boost::asio::io_context& io, Send send, ExitHandler onExit);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Frames from the reader, in order; `consumed(n)` is called once they were dispatched.
  /// Dispatch runs on the calling thread when no other dispatch is running, else right after it:
  /// handlers must not block (slow work goes to the loop or a worker pool).
  void post(std::vector<protocol::DecodedFrame>&& frames, std::function<void(std::size_t)> consumed);
  /// The input ended (error 0) or failed (errno): nothing more is read, the client can answer
  /// nothing more, and the requests in flight may finish within the drain timeout; what is left
  /// then is cancelled, and toold exits.
  void inputEnded(int error);
  /// How long requests in flight may run on after the end of input (default 30 s; zero: cancel
  /// them at once). Set before the first frame.
  void setDrainTimeout(std::chrono::milliseconds timeout);
  /// A signal or a broken output: cancel everything and exit with `status`.
  void terminate(int status, std::string reason);

  /// Sends a request to the client; `onResponse` runs once with its answer (or a -32800 error
  /// when toold exits first). Returns the id toold gave it (null when exiting).
  json callClient(std::string method, json params, std::function<void(protocol::Response&&)> onResponse);
  /// Sends a notification to the client.
  void notify(std::string_view method, json params);
  /// While the returned handle lives, what is sent is held and then written together, in one
  /// write: a notification and the answer it comes with reach the client in one read (one
  /// wake-up of the client, not two). Nothing is held when no holder was set.
  using Hold = std::shared_ptr<void>;
  Hold holdOutput() const;
  /// How holdOutput() holds the output (the stdout writer's cork). Set before the first frame.
  void setOutputHolder(std::function<Hold()> holder);
  /// Hands an answer written as pieces (protocol/pieced_text.h) to the writer, as they are; set
  /// before the first frame. Unset: such answers are joined and handed to `send`.
  void setPiecesSend(PiecesSend sendPieces);
  /// What the client declared in `initialize` (an empty object before).
  json clientCapabilities() const;
  /// The client's `clientInfo` from `initialize` (an empty object before, or when it sent none).
  json clientInfo() const;

  /// Adds a capability to `initialize`'s result (before the first frame): what is served and
  /// nothing else is declared.
  void declareCapability(const std::string& name, json value);
  /// `initialize`'s `instructions` (MCP): asked once the client's capabilities and info are known;
  /// an empty text is left out.
  void setInstructions(std::function<std::string()> instructions);
  /// `wanted` runs once, before the first request whose method is not among `loopFree` is
  /// handled: what a start needs (initialize, ping, exit) leaves the loop to one thread, and the
  /// first request that may put work on the loop starts its second. Set before the first frame.
  void setLoopWanted(std::function<void()> wanted, std::vector<std::string> loopFree);

  MethodTable& methods();
  boost::asio::io_context& io();

private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

} // namespace toold::daemon
