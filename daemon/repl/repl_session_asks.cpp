// The REPL's side of the requests toold sends the person: permission asks, questions, and any
// other request, shown with what they are about, answered at a prompt, and declined when the
// person's input ends.
#include "daemon/repl/repl_session.h"

#include "daemon/repl/repl_permission_prompt.h"
#include "daemon/repl/repl_question.h"
#include "protocol/bounded_json.h"
#include "protocol/message.h"

namespace toold::repl {

bool ReplSession::hasAsk() {
  std::lock_guard lock(mutex_);
  return !asks_.empty();
}

std::string ReplSession::askPrompt() {
  std::lock_guard lock(mutex_);
  if (asks_.empty()) return {};
  const Ask& ask = asks_.front();
  if (ask.method == "permission/ask" && ask.params.is_object()) return permissionPrompt(ask.params);
  if (ask.method == "question/ask") return questionPrompt(ask.params);
  return "toold asks " + ask.method + " (" + idText(ask.id) + "); JSON result> ";
}

bool ReplSession::answerAsk(const std::string& line, std::string& why) {
  Ask ask;
  {
    std::lock_guard lock(mutex_);
    if (asks_.empty()) {
      why = "toold is no longer asking";
      return false;
    }
    ask = asks_.front();
  }
  json result;
  std::string said;
  if (ask.method == "permission/ask") {
    auto answer = permissionAnswer(line, said, why);
    if (!answer) return false;
    result = std::move(*answer);
  } else if (ask.method == "question/ask") {
    auto answer = questionAnswer(line, ask.params, why);
    if (!answer) return false;
    result = std::move(*answer);
    said = dumpJson(result);
  } else {
    auto parsed = protocol::parseBounded(line);
    if (!parsed) {
      why = "the answer must be JSON (" + parsed.refusal->message + ")";
      return false;
    }
    result = std::move(parsed.value);
    said = dumpJson(result);
  }
  {
    std::lock_guard lock(mutex_);
    std::erase_if(asks_, [&](const Ask& a) { return a.id == ask.id; });
  }
  if (!options_.quiet) console_.print("--> " + said + " to " + idText(ask.id) + "\n");
  if (!send(protocol::makeResult(ask.id, result))) {
    why = "toold is gone";
    return false;
  }
  return true;
}

std::vector<std::string> ReplSession::declineAsks() {
  std::deque<Ask> asks;
  {
    std::lock_guard lock(mutex_);
    asks.swap(asks_);
  }
  std::vector<std::string> declined;
  for (const auto& ask : asks) {
    std::string what = idText(ask.id) + " (" + ask.method;
    json answer;
    if (ask.method == "permission/ask") {
      const json& params = ask.params.is_object() ? ask.params : json::object();
      what += ": " + permissionSubject(params);
      answer = protocol::makeResult(ask.id, json{{"reply", "reject"}});
    } else if (ask.method == "question/ask") {
      answer = protocol::makeResult(ask.id, json{{"dismissed", true}});
    } else {
      answer = protocol::makeError(ask.id, protocol::RpcError{protocol::ErrorCode::InternalError,
                                                              "toold-repl's input ended: nothing answers this request", {}});
    }
    declined.push_back(what + ")");
    send(answer);
  }
  if (!declined.empty()) console_.wake();
  return declined;
}

// Takes mutex_ (to name the call that asks): called without it.
std::string ReplSession::askDetails(const json& message) {
  const json& params = message.value("params", json::object());
  std::string text = "? toold asks (" + idText(message["id"]) + ")";
  if (message.value("method", std::string()) == "question/ask") return text + ":\n" + questionDetails(params);
  if (message.value("method", std::string()) != "permission/ask" || !params.is_object())
    return text + ": " + message.value("method", std::string()) + " " + dumpJson(params) + "\n";
  const json& source = params.value("source", json::object());
  std::string call;
  if (source.is_object() && source.contains("callID")) {
    // Named as the call was shown when it was sent ("bash (id 3)"), not by the call id the REPL
    // gave toold: one numbering on screen.
    call = dumpJson(source["callID"]);
    std::lock_guard lock(mutex_);
    for (const auto& [key, pending] : pending_)
      if (!pending.callID.empty() && source["callID"] == pending.callID) call = pending.tool + " (id " + key + ")";
  }
  return text + permissionDetails(params, call);
}

} // namespace toold::repl
