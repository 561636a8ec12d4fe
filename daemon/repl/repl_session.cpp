// Only the main thread writes to toold; only the reader thread reads. The tables between them are
// guarded by one mutex, and a condition variable lets the main thread wait for replies at exit.
#include "daemon/repl/repl_session.h"

#include "protocol/bounded_json.h"
#include "protocol/framing.h"
#include "protocol/message.h"

#include <system_error>

namespace toold::repl {
namespace {

constexpr std::size_t kReadChunk = 64 * 1024;
// toold's own default; a larger frame is shown as an error rather than buffered without end.
constexpr std::size_t kMaxFrameBytes = 64u << 20;
// toold refuses frames nested deeper than kMaxJsonDepth; its answers wrap such values in a few
// more levels (an envelope, a result, an output).
constexpr std::size_t kMaxAnswerDepth = protocol::kMaxJsonDepth + 64;

std::string show(const json& message) { return "\n<-- " + message.dump(2, ' ', false, json::error_handler_t::replace) + "\n"; }

} // namespace

ReplSession::ReplSession(client::ChildProcess& child, Console& console)
    : child_(child), console_(console), reader_([this] { readLoop(); }) {}

ReplSession::~ReplSession() { finish(); }

bool ReplSession::send(const json& message) {
  return child_.writeAll(protocol::encodeFrame(message, protocol::Framing::Ndjson)) ==
         client::ChildProcess::WriteResult::Done;
}

std::optional<std::int64_t> ReplSession::request(const std::string& method, const std::optional<json>& params) {
  std::int64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    if (gone_) return std::nullopt;
    id = nextId_++;
    awaiting_.insert(id);
  }
  // Shown before sending, so that it always comes before the reply.
  console_.print("--> " + method + " (id " + std::to_string(id) + ")\n");
  if (send(protocol::makeRequest(id, method, params.value_or(json())))) return id;
  std::lock_guard lock(mutex_);
  awaiting_.erase(id);
  return std::nullopt;
}

bool ReplSession::notify(const std::string& method, const std::optional<json>& params) {
  if (serverGone()) return false;
  console_.print("--> " + method + " (notification)\n");
  return send(protocol::makeNotification(method, params.value_or(json())));
}

bool ReplSession::reply(const json& id, const json& result, std::chrono::milliseconds wait, std::string& why) {
  {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, wait, [&] { return gone_ || serverRequests_.count(id.dump()) > 0; });
    if (serverRequests_.erase(id.dump()) == 0) {
      why = "toold asked nothing with id " + id.dump();
      if (!serverRequests_.empty()) {
        why += "; waiting for an answer:";
        for (const auto& pending : serverRequests_) why += " " + pending;
      }
      return false;
    }
  }
  console_.print("--> reply to " + id.dump() + "\n");
  if (!send(protocol::makeResult(id, result))) {
    why = "toold is gone";
    return false;
  }
  return true;
}

bool ReplSession::waitForReply(std::int64_t id, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, timeout, [&] { return gone_ || awaiting_.count(id) == 0; });
  return awaiting_.count(id) == 0;
}

bool ReplSession::waitForAllReplies(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, timeout, [&] { return gone_ || awaiting_.empty(); });
  return awaiting_.empty();
}

std::size_t ReplSession::unanswered() {
  std::lock_guard lock(mutex_);
  return awaiting_.size();
}

bool ReplSession::serverGone() {
  std::lock_guard lock(mutex_);
  return gone_;
}

void ReplSession::finish() {
  child_.closeStdin();
  if (reader_.joinable()) reader_.join();
}

void ReplSession::readLoop() {
  protocol::FrameDecoder decoder(protocol::Framing::Ndjson, kMaxFrameBytes);
  const protocol::FrameDecoder::Sink onFrame = [this](protocol::DecodedFrame&& frame) {
    if (frame.error) {
      console_.print("\n<-- (unreadable output from toold: " + frame.error->message + ")\n");
      return;
    }
    handleFrame(frame.body);
  };
  std::string chunk(kReadChunk, '\0');
  try {
    // No deadline: toold may stay silent for as long as the user does.
    while (const std::size_t n = child_.readSome(chunk).value_or(0))
      decoder.feed(std::string_view(chunk.data(), n), onFrame);
  } catch (const std::system_error& e) {
    console_.print("\n<-- (cannot read toold's output: " + std::string(e.what()) + ")\n");
  }
  decoder.finish(onFrame);
  {
    std::lock_guard lock(mutex_);
    gone_ = true;
  }
  changed_.notify_all();
  console_.wake();
}

void ReplSession::handleFrame(const std::string& body) {
  // toold's answers nest the client's values (bounded by the frame limit) a few levels deeper.
  auto parsed = protocol::parseBounded(body, kMaxAnswerDepth);
  json message = std::move(parsed.value);
  if (!parsed) {
    console_.print("\n<-- (not JSON: " + parsed.refusal->message + ") " + body + "\n");
    return;
  }
  // Batches arrive as arrays: each element is a message of its own.
  const json single = json::array({message});
  const json& messages = message.is_array() ? message : single;
  std::string text = show(message);
  bool changed = false;
  {
    std::lock_guard lock(mutex_);
    for (const auto& m : messages) {
      if (!m.is_object() || !m.contains("id")) continue;
      const json& id = m["id"];
      if (m.contains("method")) {
        changed = serverRequests_.insert(id.dump()).second || changed;
        text += "(toold asks; answer with  :reply " + (id.is_string() ? id.get<std::string>() : id.dump()) + " {result})\n";
      } else if (id.is_number_integer()) {
        changed = awaiting_.erase(id.get<std::int64_t>()) > 0 || changed;
      }
    }
  }
  // Print before waking a waiter, so the reply is on screen before the REPL moves on.
  console_.print(std::move(text));
  if (changed) changed_.notify_all();
}

} // namespace toold::repl
