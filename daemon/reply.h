// Every request is answered exactly once: Reply is the handle a handler holds; dropping the last
// copy unanswered sends -32603 and logs it; a second answer is logged and dropped.
#pragma once

#include "protocol/error_code.h"
#include "protocol/pieced_text.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace toold::daemon {

using nlohmann::json;

namespace detail {
struct ReplyState;
}

/// Receives one answer, already written out as a JSON-RPC message. Written at once from the
/// result, without an envelope tree to build and walk: an answer is what every request costs. An
/// empty body is a withdrawn request (no answer; a batch's collector still counts it).
using AnswerSend = std::function<void(std::string&& body)>;
/// Receives an answer written as pieces (protocol/pieced_text.h), to be written as they are.
using PiecesSend = std::function<void(protocol::PiecedText&& body)>;

/// Copyable handle to one request's single answer. Safe to call from any thread.
class Reply {
public:
  /// `send` receives the complete response message; `onDone` runs once, just before it is sent.
  /// `sendPieces`, when given, receives the answers written as pieces; else they are joined
  /// into one text for `send` (a batch's answers, which its array gathers).
  Reply(json id, std::string method, AnswerSend send, std::function<void()> onDone = {}, PiecesSend sendPieces = {});

  void operator()(json result) const;
  /// Answers with a result that `write` appends to the message as JSON text (taken as it is: it
  /// must write one valid value), with no tree built for it first.
  void writeResult(const std::function<void(std::string&)>& write) const;
  /// Answers with a result written as pieces (one valid value's text, head, pieces and tail
  /// together), which the output writes as they are rather than copied into one message.
  void writeResultPieces(protocol::PiecedText result) const;
  void error(protocol::RpcError error) const;
  void error(protocol::ErrorCode code, std::string message) const;
  /// Settles the request without an answer: MCP's `notifications/cancelled` asks the receiver not
  /// to respond. A batch's collector counts it as settled and leaves it out of the array.
  void withdraw() const;
  /// True once an answer was sent (by this handle, a copy, or a cancellation).
  bool answered() const;
  const json& id() const;

private:
  friend class WeakReply;
  explicit Reply(std::shared_ptr<detail::ReplyState> state) : state_(std::move(state)) {}
  std::shared_ptr<detail::ReplyState> state_;
};

/// A reference to a Reply that does not keep it alive: the request table holds these, so that a
/// handler dropping its last copy is still detected.
class WeakReply {
public:
  WeakReply() = default;
  explicit WeakReply(const Reply& reply) : state_(reply.state_) {}
  std::optional<Reply> lock() const {
    if (auto state = state_.lock()) return Reply(std::move(state));
    return std::nullopt;
  }

private:
  std::weak_ptr<detail::ReplyState> state_;
};

/// Collects the responses to the requests of one JSON-RPC batch and sends them as one array.
class BatchReply {
public:
  BatchReply(std::size_t expected, AnswerSend send);
  /// Adds one response; the array is sent when the last expected one arrives. An empty body (a
  /// withdrawn request) settles its place without joining the array; a batch whose requests were
  /// all withdrawn sends nothing.
  void add(std::string&& response);

private:
  struct State;
  std::shared_ptr<State> state_;
};

} // namespace toold::daemon
