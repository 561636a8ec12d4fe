// One JSON-RPC conversation with an MCP server, as its client: requests with ids, their answers,
// deadlines (restarted by progress when asked), progress tokens, cancellation, and the server's own
// requests and notifications. Every member is called on the owner's strand, which is also where
// the timers run — except requestNow(), which any thread may call: the table of pending requests
// is under a mutex (never held while a callback runs). Frames go out through `send` (which must be
// thread-safe for requestNow); the transport feeds what arrives to receive().
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
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

class McpConnection : public std::enable_shared_from_this<McpConnection> {
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
  /// request() from any thread (the connection held by a shared_ptr): the request is tracked and
  /// its frame written by the calling thread — a tool call then costs no thread wake-up on its
  /// way out (the strand is posted to only when its deadline is the earliest). On a closed
  /// connection, `onAnswer` gets the close's reason at once, on the calling thread.
  std::int64_t requestNow(const std::string& method, json params, McpRequestOptions options,
                          std::function<void(McpAnswer)> onAnswer);
  /// Tells the server (notifications/cancelled) and ends the request with `reason` at once.
  void cancel(std::int64_t id, const std::string& reason);
  void notify(const std::string& method, json params);
  /// A message the transport read. Anything not JSON-RPC is logged and dropped. Taken whole: an
  /// answer's result moves on to its request's handler rather than being copied (a file's text
  /// twice over, for a server with an output schema).
  void receive(json message);
  /// The transport dropped a frame over the cap: its call (when its id is known) fails alone.
  void oversized(const std::optional<json>& id, std::size_t bytes);
  /// The connection is gone: every request still waiting ends with `reason`. Nothing more is sent.
  void close(const std::string& reason);

  std::size_t pendingCount() const;

private:
  using Clock = std::chrono::steady_clock;
  struct Pending {
    std::string method;
    std::function<void(McpAnswer)> onAnswer;
    std::function<void(const json&)> onProgress;
    std::chrono::milliseconds timeout{0};
    Clock::time_point dueAt = Clock::time_point::max(); ///< max: no deadline
  };

  /// Enters a request in the table (taking `onAnswer`), before its frame leaves. Returns when the
  /// timer must be set for its deadline (max: not at all); nullopt when the connection is closed
  /// (then `onAnswer` is left to the caller).
  std::optional<Clock::time_point> track(std::int64_t id, const std::string& method, McpRequestOptions options,
                                         std::function<void(McpAnswer)>& onAnswer);
  json frameFor(std::int64_t id, const std::string& method, json params, bool withProgress);
  /// Starts the request's deadline (again), with the lock held; returns as track() does.
  Clock::time_point arm(Pending& pending);
  bool isPending(std::int64_t id);
  std::string closeReasonNow();
  /// One timer serves every deadline: it is set for the earliest, and only moved when an earlier
  /// one comes. A timer per request would be set and cancelled on every call, and each
  /// cancellation is a handler posted to the loop — a thread woken per call.
  void scheduleTimer(Clock::time_point at);
  void deadlinesPassed();
  /// notifications/progress: restarts the request's deadline and passes the update on.
  void progress(const json& params);
  void finish(std::int64_t id, McpAnswer answer);
  void sendJson(const json& message);
  /// The message as one line of JSON, newline included.
  static std::string line(const json& message);

  McpStrand strand_;
  Send send_;
  RequestHandler onRequest_;
  NotificationHandler onNotification_;
  mutable std::mutex mutex_; ///< guards pending_, closeReason_ and timerAt_
  std::map<std::int64_t, Pending> pending_;
  std::string closeReason_ = "the connection is closed";
  boost::asio::steady_timer deadlineTimer_;
  Clock::time_point timerAt_ = Clock::time_point::max(); ///< when the timer fires; max: not set
  std::atomic<std::int64_t> nextId_{1};
  std::atomic<bool> closed_{false};
  /// Guards timer handlers against a connection destroyed before they ran.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

} // namespace toold::core
