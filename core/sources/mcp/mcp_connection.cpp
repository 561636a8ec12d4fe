#include "core/sources/mcp/mcp_connection.h"

#include "protocol/bounded_json.h"

#include <boost/asio/post.hpp>

#include <spdlog/spdlog.h>

namespace toold::core {

McpConnection::McpConnection(McpStrand strand, Send send, RequestHandler onRequest, NotificationHandler onNotification)
    : strand_(std::move(strand)), send_(std::move(send)), onRequest_(std::move(onRequest)),
      onNotification_(std::move(onNotification)), deadlineTimer_(strand_) {}

McpConnection::~McpConnection() { *alive_ = false; }

void McpConnection::sendJson(const json& message) {
  if (closed_) return;
  send_(message.dump(-1, ' ', false, json::error_handler_t::replace) + "\n");
}

json McpConnection::frameFor(std::int64_t id, const std::string& method, json params, bool withProgress) {
  if (withProgress) {
    if (!params.is_object()) params = json::object();
    params["_meta"]["progressToken"] = id;
  }
  json message{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) message["params"] = std::move(params);
  return message;
}

std::int64_t McpConnection::request(const std::string& method, json params, McpRequestOptions options,
                                    std::function<void(McpAnswer)> onAnswer) {
  const std::int64_t id = nextId_++;
  if (closed_) {
    onAnswer(McpAnswer{std::nullopt, McpError{kMcpClosedCode, closeReason_}});
    return id;
  }
  const json message = frameFor(id, method, std::move(params), static_cast<bool>(options.onProgress));
  track(id, method, std::move(options), std::move(onAnswer));
  sendJson(message);
  return id;
}

std::int64_t McpConnection::requestNow(const std::string& method, json params, McpRequestOptions options,
                                       std::function<void(McpAnswer)> onAnswer) {
  const std::int64_t id = nextId_++;
  const json message = frameFor(id, method, std::move(params), static_cast<bool>(options.onProgress));
  {
    std::lock_guard lock(untrackedMutex_);
    untracked_.insert(id);
  }
  // Posted before the frame is written, so it runs before the strand can read the answer.
  boost::asio::post(strand_, [self = shared_from_this(), id, method, options = std::move(options),
                              onAnswer = std::move(onAnswer)]() mutable {
    self->track(id, method, std::move(options), std::move(onAnswer));
  });
  // Written even if the strand closed the connection meanwhile: the transport then drops it.
  send_(message.dump(-1, ' ', false, json::error_handler_t::replace) + "\n");
  return id;
}

void McpConnection::track(std::int64_t id, const std::string& method, McpRequestOptions options,
                          std::function<void(McpAnswer)> onAnswer) {
  std::optional<json> early;
  {
    std::lock_guard lock(untrackedMutex_);
    untracked_.erase(id);
    if (auto it = early_.find(id); it != early_.end()) {
      early = std::move(it->second);
      early_.erase(it);
    }
  }
  if (closed_) return onAnswer(McpAnswer{std::nullopt, McpError{kMcpClosedCode, closeReason_}});
  Pending& pending = pending_[id];
  pending.method = method;
  pending.onAnswer = std::move(onAnswer);
  pending.onProgress = std::move(options.onProgress);
  pending.timeout = options.timeout;
  arm(pending);
  if (early) receive(*early);
}

bool McpConnection::keepEarly(std::int64_t id, const json& message) {
  std::lock_guard lock(untrackedMutex_);
  if (!untracked_.contains(id)) return false;
  early_[id] = message;
  return true;
}

void McpConnection::arm(Pending& pending) {
  if (pending.timeout.count() <= 0) return;
  pending.dueAt = Clock::now() + pending.timeout;
  if (pending.dueAt < timerAt_) scheduleTimer(pending.dueAt);
}

void McpConnection::scheduleTimer(Clock::time_point at) {
  timerAt_ = at;
  deadlineTimer_.expires_at(at); // a wait set for later ends as aborted, and does nothing
  deadlineTimer_.async_wait([this, alive = alive_](const boost::system::error_code& error) {
    if (error || !*alive) return;
    timerAt_ = Clock::time_point::max();
    deadlinesPassed();
  });
}

void McpConnection::deadlinesPassed() {
  const auto now = Clock::now();
  std::vector<std::int64_t> passed;
  auto next = Clock::time_point::max();
  for (const auto& [id, pending] : pending_) {
    if (pending.dueAt <= now) passed.push_back(id);
    else next = std::min(next, pending.dueAt);
  }
  for (const std::int64_t id : passed) {
    const auto it = pending_.find(id);
    if (it == pending_.end()) continue; // ended by an earlier one's answer
    const auto seconds = std::chrono::duration<double>(it->second.timeout).count();
    sendJson(json{{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"},
                  {"params", {{"requestId", id}, {"reason", "timeout"}}}});
    char text[64];
    std::snprintf(text, sizeof text, "%g", seconds);
    finish(id, McpAnswer{std::nullopt, McpError{kMcpTimeoutCode, it->second.method + " timed out after " + text + " s"}});
  }
  // Answers may have started new requests meanwhile, which set the timer if they came first.
  if (next != Clock::time_point::max() && next < timerAt_) scheduleTimer(next);
}

void McpConnection::finish(std::int64_t id, McpAnswer answer) {
  const auto it = pending_.find(id);
  if (it == pending_.end()) return;
  auto onAnswer = std::move(it->second.onAnswer);
  pending_.erase(it);
  onAnswer(std::move(answer));
}

void McpConnection::cancel(std::int64_t id, const std::string& reason) {
  if (!pending_.contains(id)) return;
  sendJson(json{{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"},
                {"params", {{"requestId", id}, {"reason", reason}}}});
  finish(id, McpAnswer{std::nullopt, McpError{kMcpClosedCode, reason}});
}

void McpConnection::notify(const std::string& method, json params) {
  json message{{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) message["params"] = std::move(params);
  sendJson(message);
}

void McpConnection::receive(const json& message) {
  if (!message.is_object()) return spdlog::debug("MCP: a message that is not an object was dropped");
  const auto method = message.find("method");
  const auto id = message.find("id");
  if (method != message.end() && method->is_string()) {
    const json params = message.value("params", json::object());
    if (id == message.end()) {
      if (*method == "notifications/progress") return progress(params);
      return onNotification_(*method, params);
    }
    // A request of the server's: answered once, unless the connection closed meanwhile.
    onRequest_(*method, params, [this, id = *id, alive = alive_](McpAnswer answer) {
      if (!*alive || closed_) return;
      json reply{{"jsonrpc", "2.0"}, {"id", id}};
      if (answer.error)
        reply["error"] = json{{"code", answer.error->code}, {"message", answer.error->message}};
      else
        reply["result"] = answer.result.value_or(json::object());
      sendJson(reply);
    });
    return;
  }
  if (id == message.end() || !id->is_number_integer()) {
    spdlog::debug("MCP: an answer to no request of toold's was dropped: {}", protocol::dumpBounded(message));
    return;
  }
  const std::int64_t key = id->get<std::int64_t>();
  if (!pending_.contains(key) && keepEarly(key, message)) return;
  if (const auto error = message.find("error"); error != message.end()) {
    McpError failure{error->is_object() ? error->value("code", 0) : 0,
                     error->is_object() ? error->value("message", std::string("error")) : std::string("error")};
    return finish(key, McpAnswer{std::nullopt, std::move(failure)});
  }
  finish(key, McpAnswer{message.value("result", json::object()), std::nullopt});
}

void McpConnection::progress(const json& params) {
  const auto token = params.find("progressToken");
  if (token == params.end() || !token->is_number_integer()) return;
  const auto it = pending_.find(token->get<std::int64_t>());
  if (it == pending_.end() || !it->second.onProgress) return; // late, or for a request that asked none
  arm(it->second);
  it->second.onProgress(params);
}

void McpConnection::oversized(const std::optional<json>& id, std::size_t bytes) {
  const std::string text = "MCP stdio message of " + std::to_string(bytes) + " bytes exceeded the " +
                           std::to_string(16u * 1024 * 1024) + " byte limit and was discarded";
  if (!id || !id->is_number_integer() || !pending_.contains(id->get<std::int64_t>())) {
    spdlog::warn("MCP: {} (it answered no request toold knows)", text);
    return;
  }
  finish(id->get<std::int64_t>(), McpAnswer{std::nullopt, McpError{kMcpClosedCode, text}});
}

void McpConnection::close(const std::string& reason) {
  closed_ = true;
  closeReason_ = reason;
  auto pending = std::move(pending_);
  pending_.clear();
  deadlineTimer_.cancel();
  timerAt_ = Clock::time_point::max();
  for (auto& [id, request] : pending) {
    request.onAnswer(McpAnswer{std::nullopt, McpError{kMcpClosedCode, reason}});
  }
}

} // namespace toold::core
