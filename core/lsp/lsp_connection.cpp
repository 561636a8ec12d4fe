#include "core/lsp/lsp_connection.h"

#include "protocol/bounded_json.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

namespace toold::core {

using json = nlohmann::json;

LspConnection::LspConnection(LspStrand strand, Send send, RequestHandler onRequest, NotificationHandler onNotification)
    : strand_(std::move(strand)), send_(std::move(send)), onRequest_(std::move(onRequest)),
      onNotification_(std::move(onNotification)) {}

LspConnection::~LspConnection() { *alive_ = false; }

std::int64_t LspConnection::request(const std::string& method, json params, std::chrono::milliseconds timeout,
                                    std::function<void(LspAnswer)> onAnswer) {
  const std::int64_t id = nextId_++;
  if (closed_) {
    boost::asio::post(strand_, [onAnswer = std::move(onAnswer), reason = closeReason_] {
      onAnswer(LspAnswer{std::nullopt, LspError{kLspClosedCode, reason}});
    });
    return id;
  }
  Pending pending{method, std::move(onAnswer), nullptr};
  if (timeout.count() > 0) {
    pending.timer = std::make_unique<boost::asio::steady_timer>(strand_, timeout);
    pending.timer->async_wait([this, id, method, timeout, alive = alive_](const boost::system::error_code& error) {
      if (error || !*alive || !pending_.contains(id)) return;
      notify("$/cancelRequest", json{{"id", id}});
      finish(id, LspAnswer{std::nullopt, LspError{kLspTimeoutCode, method + " got no answer within " +
                                                                       std::to_string(timeout.count()) + " ms"}});
    });
  }
  pending_.emplace(id, std::move(pending));
  json message{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) message["params"] = std::move(params);
  send_(message);
  return id;
}

void LspConnection::cancel(std::int64_t id, const std::string& reason) {
  if (!pending_.contains(id)) return;
  notify("$/cancelRequest", json{{"id", id}});
  finish(id, LspAnswer{std::nullopt, LspError{kLspCancelledCode, reason}});
}

void LspConnection::notify(const std::string& method, json params) {
  if (closed_) return;
  json message{{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) message["params"] = std::move(params);
  send_(message);
}

void LspConnection::receive(json message) {
  if (!message.is_object()) {
    spdlog::debug("lsp: a message that is not an object was dropped: {}", protocol::dumpBounded(message, protocol::kLogRender));
    return;
  }
  const auto method = message.find("method");
  const auto id = message.find("id");
  json params = message.contains("params") ? std::move(message["params"]) : json(nullptr);
  if (method != message.end() && method->is_string()) {
    const std::string name = method->get<std::string>();
    if (id == message.end() || id->is_null()) return onNotification_(name, params);
    if (!id->is_string() && !id->is_number_integer()) {
      spdlog::debug("lsp: a request with an unusable id was dropped: {}", protocol::dumpBounded(*id, protocol::kLogRender));
      return;
    }
    // Answered exactly once, even by a handler that forgets: an unanswered request would hold
    // the server (clangd waits for workspace/configuration before it builds).
    auto answered = std::make_shared<bool>(false);
    onRequest_(name, params, [this, requestId = *id, answered, alive = alive_](LspAnswer answer) {
      if (*answered || !*alive) return;
      *answered = true;
      answerServer(requestId, std::move(answer));
    });
    return;
  }
  // An answer: ours only if the id is one we sent and still wait for.
  if (id == message.end() || !id->is_number_integer() || !pending_.contains(id->get<std::int64_t>())) {
    spdlog::debug("lsp: an answer to no pending request was dropped (id {})",
                  id == message.end() ? "missing" : protocol::dumpBounded(*id, protocol::kLogRender));
    return;
  }
  LspAnswer answer;
  if (const auto error = message.find("error"); error != message.end()) {
    LspError failure{-32603, "the server answered with an error"};
    if (error->is_object()) {
      if (const auto code = error->find("code"); code != error->end() && code->is_number_integer())
        failure.code = code->get<int>();
      if (const auto text = error->find("message"); text != error->end() && text->is_string())
        failure.message = text->get<std::string>().substr(0, 2000);
    }
    answer.error = std::move(failure);
  } else if (const auto result = message.find("result"); result != message.end()) {
    answer.result = std::move(*result);
  } else {
    answer.error = LspError{-32603, "the server's answer had neither a result nor an error"};
  }
  finish(id->get<std::int64_t>(), std::move(answer));
}

void LspConnection::close(const std::string& reason) {
  if (closed_) return;
  closed_ = true;
  closeReason_ = reason;
  auto pending = std::move(pending_);
  pending_.clear();
  for (auto& [id, entry] : pending) {
    if (entry.timer) entry.timer->cancel();
    entry.onAnswer(LspAnswer{std::nullopt, LspError{kLspClosedCode, reason}});
  }
}

void LspConnection::finish(std::int64_t id, LspAnswer answer) {
  auto found = pending_.find(id);
  if (found == pending_.end()) return;
  auto entry = std::move(found->second);
  pending_.erase(found);
  if (entry.timer) entry.timer->cancel();
  entry.onAnswer(std::move(answer));
}

void LspConnection::answerServer(const json& id, LspAnswer answer) {
  if (closed_) return;
  json message{{"jsonrpc", "2.0"}, {"id", id}};
  if (answer.error) message["error"] = json{{"code", answer.error->code}, {"message", answer.error->message}};
  else message["result"] = answer.result ? std::move(*answer.result) : json(nullptr);
  send_(message);
}

} // namespace toold::core
