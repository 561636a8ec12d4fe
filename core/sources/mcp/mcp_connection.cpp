#include "core/sources/mcp/mcp_connection.h"

#include "protocol/bounded_json.h"

#include <spdlog/spdlog.h>

namespace toold::core {

McpConnection::McpConnection(McpStrand strand, Send send, RequestHandler onRequest, NotificationHandler onNotification)
    : strand_(std::move(strand)), send_(std::move(send)), onRequest_(std::move(onRequest)),
      onNotification_(std::move(onNotification)) {}

McpConnection::~McpConnection() { *alive_ = false; }

void McpConnection::sendJson(const json& message) {
  if (closed_) return;
  send_(message.dump(-1, ' ', false, json::error_handler_t::replace) + "\n");
}

std::int64_t McpConnection::request(const std::string& method, json params, McpRequestOptions options,
                                    std::function<void(McpAnswer)> onAnswer) {
  const std::int64_t id = nextId_++;
  if (closed_) {
    onAnswer(McpAnswer{std::nullopt, McpError{kMcpClosedCode, "the connection is closed"}});
    return id;
  }
  Pending& pending = pending_[id];
  pending.method = method;
  pending.onAnswer = std::move(onAnswer);
  pending.onProgress = std::move(options.onProgress);
  pending.timeout = options.timeout;
  if (pending.onProgress) {
    if (!params.is_object()) params = json::object();
    params["_meta"]["progressToken"] = id;
  }
  arm(id, pending);
  json message{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) message["params"] = std::move(params);
  sendJson(message);
  return id;
}

void McpConnection::arm(std::int64_t id, Pending& pending) {
  if (pending.timeout.count() <= 0) return;
  if (!pending.deadline) pending.deadline = std::make_unique<boost::asio::steady_timer>(strand_);
  pending.deadline->expires_after(pending.timeout);
  pending.deadline->async_wait([this, id, alive = alive_](const boost::system::error_code& error) {
    if (error || !*alive) return;
    const auto it = pending_.find(id);
    if (it == pending_.end()) return;
    const auto seconds = std::chrono::duration<double>(it->second.timeout).count();
    sendJson(json{{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"},
                  {"params", {{"requestId", id}, {"reason", "timeout"}}}});
    char text[64];
    std::snprintf(text, sizeof text, "%g", seconds);
    finish(id, McpAnswer{std::nullopt, McpError{kMcpTimeoutCode, it->second.method + " timed out after " + text + " s"}});
  });
}

void McpConnection::finish(std::int64_t id, McpAnswer answer) {
  const auto it = pending_.find(id);
  if (it == pending_.end()) return;
  auto onAnswer = std::move(it->second.onAnswer);
  if (it->second.deadline) it->second.deadline->cancel();
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
  arm(it->first, it->second);
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
  auto pending = std::move(pending_);
  pending_.clear();
  for (auto& [id, request] : pending) {
    if (request.deadline) request.deadline->cancel();
    request.onAnswer(McpAnswer{std::nullopt, McpError{kMcpClosedCode, reason}});
  }
}

} // namespace toold::core
