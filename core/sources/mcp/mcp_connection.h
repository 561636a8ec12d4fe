// One JSON-RPC conversation with an MCP server, as its client: requests with ids, their answers,
// deadlines (restarted by progress when asked), progress tokens, cancellation, and the server's own
// requests and notifications. Not thread-safe: every member is called on the owner's strand,
// which is also where the timers run. Frames go out through `send`; the transport feeds what
// arrives to receive().
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace toold::core {

using json = nlohmann::json;
using McpStrand = boost::asio::strand<boost::asio::io_context::executor_type>;

/// A request that ended without a result: the server's JSON-RPC error, a timeout, the connection
/// closing, a cancellation.
struct McpError {
  int code = 0;
  std::string message;
};

struct McpAnswer {
  std::optional<json> result;
  std::optional<McpError> error;
};

struct McpRequestOptions {
  std::chrono::milliseconds timeout{0}; ///< 0: none
  /// Each notifications/progress for the request starts the deadline again (long tools that
  /// report progress never time out while working), and is passed here.
  std::function<void(const json& params)> onProgress{};
};

/// JSON-RPC error code of a request toold ended itself by its deadline (the SDK's -32001).
inline constexpr int kMcpTimeoutCode = -32001;
/// Of requests ended because the connection closed or the call was cancelled.
inline constexpr int kMcpClosedCode = -32000;

class McpConnection {
public:
  using Send = std::function<void(std::string frame)>;
  /// The server's requests: answer through `respond` (result or error) exactly once.
  using RequestHandler = std::function<void(const std::string& method, const json& params,
                                            std::function<void(McpAnswer)> respond)>;
  using NotificationHandler = std::function<void(const std::string& method, const json& params)>;

  McpConnection(McpStrand strand, Send send, RequestHandler onRequest, NotificationHandler onNotification);
  ~McpConnection();
  McpConnection(const McpConnection&) = delete;
  McpConnection& operator=(const McpConnection&) = delete;

  /// Sends a request; `onAnswer` runs once, on the strand. Returns its id.
  std::int64_t request(const std::string& method, json params, McpRequestOptions options,
                       std::function<void(McpAnswer)> onAnswer);
  /// Tells the server (notifications/cancelled) and ends the request with `reason` at once.
  void cancel(std::int64_t id, const std::string& reason);
  void notify(const std::string& method, json params);
  /// A message the transport read. Anything not JSON-RPC is logged and dropped.
  void receive(const json& message);
  /// The transport dropped a frame over the cap: its call (when its id is known) fails alone.
  void oversized(const std::optional<json>& id, std::size_t bytes);
  /// The connection is gone: every request still waiting ends with `reason`. Nothing more is sent.
  void close(const std::string& reason);

  std::size_t pendingCount() const { return pending_.size(); }

private:
  struct Pending {
    std::string method;
    std::function<void(McpAnswer)> onAnswer;
    std::function<void(const json&)> onProgress;
    std::chrono::milliseconds timeout{0};
    std::unique_ptr<boost::asio::steady_timer> deadline;
  };

  void arm(std::int64_t id, Pending& pending);
  /// notifications/progress: restarts the request's deadline and passes the update on.
  void progress(const json& params);
  void finish(std::int64_t id, McpAnswer answer);
  void sendJson(const json& message);

  McpStrand strand_;
  Send send_;
  RequestHandler onRequest_;
  NotificationHandler onNotification_;
  std::map<std::int64_t, Pending> pending_;
  std::int64_t nextId_ = 1;
  bool closed_ = false;
  /// Guards timer handlers against a connection destroyed before they ran.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

} // namespace toold::core
