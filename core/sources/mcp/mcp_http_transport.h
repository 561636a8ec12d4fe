// A remote MCP server over Streamable HTTP: each message toold sends is one POST (headers from
// the config, `Mcp-Session-Id` once the server gave one); the answer is JSON, or server-sent
// events parsed as they stream, or 202 with nothing. Each POST runs on a thread of its own, since
// core/net's exchange blocks and a tool call's stream may last as long as the call. A 401 means
// the server wants OAuth, which toold does not do: `needs_auth`. Once the initialized notification
// is accepted, a GET opens the listening stream, on which the server sends requests and
// notifications outside any answer (`list_changed` between calls, `ping`, `roots/list`); toold
// answers those with POSTs. A stream that ends or breaks is opened again (after the server's
// `retry:` or a growing delay, with Last-Event-ID); a server without one (405) is fine. Stopping
// cancels the exchanges and ends the session with a DELETE.
#pragma once

#include "core/base/cancellation.h"
#include "core/sources/mcp/mcp_connection.h"
#include "core/sources/mcp/mcp_sse_reader.h"
#include "core/sources/mcp/mcp_transport.h"

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>
#include <string>

namespace toold::core {

class McpHttpTransport final : public McpTransport, public std::enable_shared_from_this<McpHttpTransport> {
public:
  McpHttpTransport(McpStrand strand, std::string serverName, std::string url, std::map<std::string, std::string> headers);
  ~McpHttpTransport() override;

  void start(Events events) override;
  void send(std::string frame) override;
  void stop(std::function<void()> done) override;
  void afterSent(std::function<void()> then) override;
  void setProtocolVersion(std::string version) override;

private:
  /// On a thread of its own: one POST and what it answers.
  void exchange(std::string body);
  /// The POST of a frame was answered (or failed): the waiters of afterSent() whose frames are
  /// all answered go on.
  void answered(std::uint64_t sequence);
  /// On a thread of its own: the listening stream, opened again while it is worth it.
  void listen();
  enum class StreamEnd { Unsupported, Ended, Failed, SessionGone };
  /// One GET; what it delivered is counted into `events`, the server's `retry:` kept in `retry`.
  StreamEnd listenOnce(std::string& lastEventId, std::optional<std::chrono::milliseconds>& retry, std::size_t& events,
                       std::string& problem);
  /// Sleeps unless the transport stops first; false when it stopped.
  bool pause(std::chrono::milliseconds delay);
  void deliver(std::string_view text);
  /// A message over the frame cap was dropped: said on the strand.
  void reportOversized(std::optional<nlohmann::json> id, std::size_t bytes);
  /// Server-sent events whose messages are delivered as they complete.
  McpSseReader eventReader();
  void lost(std::string reason, bool unauthorized);

  McpStrand strand_;
  std::string name_;
  std::string url_;
  std::map<std::string, std::string> headers_;
  Events events_;
  CancellationSource stopping_;
  std::mutex mutex_;
  std::string sessionId_;
  std::condition_variable wake_; ///< with mutex_: stop() ends a pause()
  bool listening_ = false;       ///< under mutex_: the listener thread was started
  std::string protocolVersion_;  ///< under mutex_: sent as MCP-Protocol-Version once agreed
  // Under mutex_: the POSTs not answered yet (by the order they were sent in), and who waits for
  // those sent before them.
  std::uint64_t sent_ = 0;
  std::set<std::uint64_t> unanswered_;
  std::vector<std::pair<std::uint64_t, std::function<void()>>> afterSent_;
  bool closed_ = false; ///< on the strand: `closed` was reported, or stop() was called
};

} // namespace toold::core
