// ReplyOnce semantics and batch collection.
#include "daemon/reply.h"

#include "protocol/bounded_json.h"
#include "protocol/message.h"

#include <spdlog/spdlog.h>

#include <atomic>
#include <mutex>

namespace toold::daemon {
namespace detail {

struct ReplyState {
  json id;
  std::string method;
  AnswerSend send;
  PiecesSend sendPieces;
  std::function<void()> onDone;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::atomic<bool> answered{false};
  std::atomic<bool> cancelled{false}; // a -32800 answer was attempted: a race of answers is expected

  // A string id may be megabytes long; a log line shows its head.
  std::string shownId() const { return protocol::dumpBounded(id, protocol::kLogRender); }

  void answer(std::string&& message, std::string_view outcome, bool isCancellation = false) {
    if (!settle(outcome, isCancellation)) return;
    send(std::move(message));
  }

  void answer(protocol::PiecedText&& message, std::string_view outcome) {
    if (!settle(outcome, false)) return;
    if (sendPieces) sendPieces(std::move(message));
    else send(message.joined());
  }

  // Marks the request answered, unless it was; true when this answer is the one to send.
  bool settle(std::string_view outcome, bool isCancellation) {
    if (isCancellation) cancelled.store(true);
    if (answered.exchange(true)) {
      // After a cancellation the handler's own answer arrives late by design; anything else
      // answering twice is a defect worth seeing.
      if (cancelled.load()) spdlog::debug("late answer to cancelled {}({}) dropped", method, shownId());
      else spdlog::warn("second answer to {}({}) dropped", method, shownId());
      return false;
    }
    if (spdlog::should_log(spdlog::level::debug)) {
      const auto micros =
          std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
      spdlog::debug("--> reply:{}({}) {} {:.3f}ms", method, shownId(), outcome, static_cast<double>(micros) / 1000.0);
    }
    // Leave the request table before the answer can reach the client: a client may reuse the id
    // as soon as it has the answer.
    if (onDone) onDone();
    return true;
  }

  ~ReplyState() {
    if (answered.load()) return;
    spdlog::error("no answer to {}({}); replying with an internal error", method, shownId());
    answer(protocol::encodeError(id, {protocol::ErrorCode::InternalError,
                                    "Internal error: toold failed to answer " + method, {}}),
           "dropped");
  }
};

} // namespace detail

Reply::Reply(json id, std::string method, AnswerSend send, std::function<void()> onDone, PiecesSend sendPieces)
    : state_(std::make_shared<detail::ReplyState>()) {
  state_->id = std::move(id);
  state_->method = std::move(method);
  state_->send = std::move(send);
  state_->sendPieces = std::move(sendPieces);
  state_->onDone = std::move(onDone);
}

void Reply::operator()(json result) const { state_->answer(protocol::encodeResult(state_->id, result), "ok"); }

void Reply::writeResult(const std::function<void(std::string&)>& write) const {
  state_->answer(protocol::encodeResultWith(state_->id, write), "ok");
}

void Reply::writeResultPieces(protocol::PiecedText result) const {
  std::string head = protocol::encodeResultWith(state_->id, [](std::string&) {});
  head.pop_back(); // the envelope's closing brace: it goes after the result
  result.head.insert(0, head);
  result.tail += '}';
  state_->answer(std::move(result), "ok");
}

void Reply::error(protocol::RpcError error) const {
  const std::string outcome = "error " + std::to_string(static_cast<int>(error.code));
  state_->answer(protocol::encodeError(state_->id, error), outcome, error.code == protocol::ErrorCode::RequestCancelled);
}

void Reply::error(protocol::ErrorCode code, std::string message) const {
  error(protocol::RpcError{code, std::move(message), {}});
}

void Reply::withdraw() const {
  state_->cancelled.store(true);
  state_->answer(std::string(), "withdrawn");
}

bool Reply::answered() const { return state_->answered.load(); }

const json& Reply::id() const { return state_->id; }

struct BatchReply::State {
  std::mutex mutex;
  std::size_t expected;
  std::size_t settled = 0;
  std::string responses = "["; ///< the answers so far, each followed by ','
  AnswerSend send;
};

BatchReply::BatchReply(std::size_t expected, AnswerSend send) : state_(std::make_shared<State>()) {
  state_->expected = expected;
  state_->send = std::move(send);
}

void BatchReply::add(std::string&& response) {
  std::string complete;
  {
    std::lock_guard lock(state_->mutex);
    ++state_->settled;
    if (!response.empty()) {
      state_->responses += response;
      state_->responses += ',';
    }
    if (state_->settled != state_->expected) return;
    if (state_->responses.size() == 1) return; // every request was withdrawn: nothing to send
    complete = std::move(state_->responses);
  }
  complete.back() = ']';
  state_->send(std::move(complete));
}

} // namespace toold::daemon
