// How toold reaches one MCP server: a child over stdio, or (later) Streamable HTTP. The transport
// carries messages both ways and says when the server is gone; the conversation is McpConnection's.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>

namespace toold::core {

class McpTransport {
public:
  /// Called on the server's strand, in the order things happened.
  struct Events {
    std::function<void(nlohmann::json message)> message;
    /// A frame over the cap was dropped; the id found at its start, its size.
    std::function<void(std::optional<nlohmann::json> id, std::size_t bytes)> oversized;
    /// The server is gone (exited, its pipe broke, the connection failed), and why. Once; never
    /// after stop().
    std::function<void(std::string reason)> closed;
    /// The server refused toold's credentials (HTTP 401): `needs_auth`, not restarted. Once,
    /// instead of `closed`.
    std::function<void(std::string reason)> unauthorized{};
    /// The listening stream (Streamable HTTP) opened, again or for the first time: what the server
    /// announced while there was none (tools/list_changed) was lost, so the lists are read again.
    std::function<void()> listening{};
  };

  virtual ~McpTransport() = default;
  virtual void start(Events events) = 0;
  /// One frame, newline included.
  virtual void send(std::string frame) = 0;
  /// Ends the server for good, gently first; `done` runs on the strand once it is gone.
  virtual void stop(std::function<void()> done) = 0;
  /// The local server's pid; 0 for none (remote, or not started).
  virtual int pid() const { return 0; }
  /// Runs `then` on the strand once every frame sent so far has been taken by the server: at once
  /// over stdio (a pipe keeps the order); over HTTP once their POSTs were answered, so that
  /// `tools/list` never overtakes `notifications/initialized`.
  virtual void afterSent(std::function<void()> then) = 0;
  /// The protocol version initialize agreed on (HTTP sends it with every later request).
  virtual void setProtocolVersion(std::string) {}
};

} // namespace toold::core
