// Dispatch, lifecycle and cancellation. Everything that touches the lifecycle runs on the serial
// queue `dispatch` (inline on the reader thread when idle); the request tables are also touched by
// replies on other threads, so they have their own lock.
#include "daemon/server.h"

#include "core/base/serial_queue.h"
#include "protocol/bounded_json.h"
#include "protocol/json_writer.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <atomic>
#include <map>
#include <utility>
#include <mutex>

namespace toold::daemon {

namespace asio = boost::asio;
using protocol::ErrorCode;
using protocol::RpcError;

namespace {

// The MCP revisions whose handshake toold speaks; the client's choice is echoed when listed.
constexpr std::array<std::string_view, 4> kProtocolVersions = {"2025-11-25", "2025-06-18", "2025-03-26",
                                                               "2024-11-05"};

// Ids and other client values in log lines and error texts: short, and safe at any depth.
std::string shown(const json& value) { return protocol::dumpBounded(value, protocol::kLogRender); }

// spdlog formats only what it logs, but the arguments are made before it is asked: a debug line
// that shows an id renders it for every request unless this is checked first.
bool debugLogged() { return spdlog::should_log(spdlog::level::debug); }

// A frame that was not parsed: not JSON (or a number beyond double range) is a parse error; JSON
// nested deeper than the limit is an invalid request, as a frame over the size limit is.
RpcError frameRefusalError(const protocol::JsonRefusal& refusal) {
  if (refusal.kind == protocol::JsonRefusal::Kind::TooDeep)
    return RpcError{ErrorCode::InvalidRequest, "Invalid Request: the frame is " + refusal.message,
                    json{{"maxDepth", protocol::kMaxJsonDepth}}};
  return RpcError{ErrorCode::ParseError, "Parse error: " + refusal.message, {}};
}

} // namespace

struct Server::Impl : std::enable_shared_from_this<Server::Impl> {
  struct InFlight {
    core::CancellationSource cancellation;
    WeakReply reply;
  };

  asio::io_context& io;
  core::SerialQueue dispatch;
  Send send;
  AnswerSend answerSend; // `send` for answers: a withdrawn request's answer is nothing
  PiecesSend sendPieces; // answers written as pieces; unset: joined for `send`
  ExitHandler onExit;
  MethodTable methods;

  // Lifecycle; touched inside `dispatch` only.
  bool initialized = false;
  bool shutdownRequested = false;
  std::atomic<bool> exiting{false}; // also read by callClient on any thread
  // The input ended: requests in flight run on, within drainTimeout; set under tablesMutex.
  std::atomic<bool> draining{false};
  std::chrono::milliseconds drainTimeout{std::chrono::seconds(30)};
  std::unique_ptr<asio::steady_timer> drainTimer;
  json clientCapabilities = json::object(); // under tablesMutex: read from any thread
  json clientInfo = json::object();         // under tablesMutex
  std::function<std::string()> instructions; // set before the first frame
  std::function<void()> loopWanted;           // set before the first frame; cleared once run
  std::vector<std::string> loopFree;          // the methods that do not run it
  std::function<std::shared_ptr<void>()> outputHolder; // set before the first frame
  json serverCapabilities = json::object(); // set before the first frame

  std::mutex tablesMutex;
  std::map<std::string, InFlight> inFlight;                                   // by idKey
  std::map<std::string, std::function<void(protocol::Response&&)>> outgoing;  // by idKey
  std::uint64_t nextOutgoingId = 1;

  Impl(asio::io_context& ioContext, Send sendFn, ExitHandler exitFn)
      : io(ioContext), send(std::move(sendFn)),
        // Holds only `this` (stored in place, copied for free into every reply): it is called
        // while the server is alive, by dispatch or by a reply that found the server still there.
        answerSend([this](std::string&& message) {
          if (!message.empty()) send(std::move(message));
        }),
        onExit(std::move(exitFn)) {}

  void bindLifecycle();
  /// `moreFollow`: more frames of the same read wait behind this one (see RequestContext).
  void handleFrame(protocol::DecodedFrame&& frame, bool moreFollow);
  void handleBatch(json&& batch);
  /// `paramsText`: a request's params left as text (protocol::DeferredParams), else empty.
  void handleMessage(protocol::Message&& message, const AnswerSend& reply, bool moreFollow = false,
                     std::string_view paramsText = {});
  void handleRequest(protocol::Request&& request, const AnswerSend& reply, bool moreFollow,
                     std::string_view paramsText);
  /// Enters the request in the in-flight table; nothing when its id is already in flight.
  std::optional<Reply> enterInFlight(const protocol::Request& request, const AnswerSend& replySend,
                                     RequestContext& context);
  void handleNotification(protocol::Notification&& notification);
  void handleResponse(protocol::Response&& response);
  /// Cancels a request in flight; `answer` says whether it is still answered (-32800, LSP's
  /// rule) or settled with no answer at all (MCP's).
  void cancelRequest(const json& id, const std::string& reason, bool answer = true);
  void drain(std::string why);
  /// After each answer while draining: the last one in flight lets toold exit.
  void answered();
  /// Fails every request toold sent the client: after the end of input none can be answered.
  void failOutgoing(const std::string& why);
  void finish(int status, const std::string& why);
};

Server::Server(asio::io_context& io, Send send, ExitHandler onExit)
    : impl_(std::make_shared<Impl>(io, std::move(send), std::move(onExit))) {
  impl_->bindLifecycle();
}

Server::~Server() = default;

MethodTable& Server::methods() { return impl_->methods; }
void Server::declareCapability(const std::string& name, json value) { impl_->serverCapabilities[name] = std::move(value); }
asio::io_context& Server::io() { return impl_->io; }

void Server::post(std::vector<protocol::DecodedFrame>&& frames, std::function<void(std::size_t)> consumed) {
  impl_->dispatch.run([impl = impl_, frames = std::move(frames), consumed = std::move(consumed)]() mutable {
    for (std::size_t i = 0; i < frames.size(); ++i) impl->handleFrame(std::move(frames[i]), i + 1 < frames.size());
    consumed(frames.size());
  });
}

void Server::inputEnded(int error) {
  impl_->dispatch.run([impl = impl_, error] {
    if (error != 0) spdlog::error("reading stdin failed: {}", std::strerror(error));
    impl->drain(error != 0 ? "stdin failed" : "end of input");
  });
}

void Server::setDrainTimeout(std::chrono::milliseconds timeout) { impl_->drainTimeout = timeout; }

void Server::terminate(int status, std::string reason) {
  impl_->dispatch.run([impl = impl_, status, reason = std::move(reason)] { impl->finish(status, reason); });
}

json Server::callClient(std::string method, json params, std::function<void(protocol::Response&&)> onResponse) {
  json id;
  {
    std::unique_lock lock(impl_->tablesMutex);
    if (impl_->exiting.load() || impl_->draining.load()) {
      lock.unlock();
      onResponse(protocol::Response{nullptr, std::nullopt,
                                    RpcError{ErrorCode::RequestCancelled, "toold is exiting (end of input)", {}}});
      return nullptr;
    }
    id = "toold-" + std::to_string(impl_->nextOutgoingId++);
    impl_->outgoing.emplace(protocol::idKey(id), std::move(onResponse));
  }
  if (debugLogged()) spdlog::debug("--> {}({})", method, shown(id));
  impl_->send(protocol::writeJson(protocol::makeRequest(id, method, std::move(params))));
  return id;
}

void Server::notify(std::string_view method, json params) {
  if (impl_->exiting.load()) return;
  impl_->send(protocol::writeJson(protocol::makeNotification(method, std::move(params))));
}

Server::Hold Server::holdOutput() const { return impl_->outputHolder ? impl_->outputHolder() : nullptr; }

void Server::setOutputHolder(std::function<Hold()> holder) { impl_->outputHolder = std::move(holder); }

void Server::setPiecesSend(PiecesSend sendPieces) { impl_->sendPieces = std::move(sendPieces); }

json Server::clientCapabilities() const {
  std::lock_guard lock(impl_->tablesMutex);
  return impl_->clientCapabilities;
}

json Server::clientInfo() const {
  std::lock_guard lock(impl_->tablesMutex);
  return impl_->clientInfo;
}

void Server::setInstructions(std::function<std::string()> instructions) {
  impl_->instructions = std::move(instructions);
}

void Server::setLoopWanted(std::function<void()> wanted, std::vector<std::string> loopFree) {
  impl_->loopWanted = std::move(wanted);
  impl_->loopFree = std::move(loopFree);
}

void Server::Impl::bindLifecycle() {
  methods.request("initialize", [this](json&& params, const RequestContext&, Reply reply) {
    if (initialized) return reply.error(ErrorCode::InvalidRequest, "Invalid Request: initialize was already received");
    if (!params.is_null() && !params.is_object()) throw InvalidParams("params must be an object");
    std::string version(kProtocolVersions.front());
    if (auto it = params.find("protocolVersion"); params.is_object() && it != params.end() && it->is_string()) {
      for (auto known : kProtocolVersions)
        if (*it == known) version = known;
    }
    if (params.is_object()) {
      if (auto caps = params.find("capabilities"); caps != params.end() && caps->is_object()) {
        std::lock_guard lock(tablesMutex);
        clientCapabilities = *caps;
      }
      if (auto info = params.find("clientInfo"); info != params.end() && info->is_object()) {
        spdlog::info("client: {} {}", info->value("name", "?"), info->value("version", ""));
        std::lock_guard lock(tablesMutex);
        clientInfo = *info;
      }
    }
    initialized = true;
    json result{{"protocolVersion", version},
                {"serverInfo", {{"name", "toold"}, {"title", "toold: the workspace's tools"}, {"version", TOOLD_VERSION}}},
                {"capabilities", serverCapabilities}};
    if (instructions)
      if (std::string text = instructions(); !text.empty()) result["instructions"] = std::move(text);
    reply(std::move(result));
  });
  methods.notification("notifications/initialized", [](json&&) {});
  // The empty object written as text: a ping is the cheapest request there is, and building a
  // json object for its answer was an allocation and a walk of its own.
  methods.request("ping", [](json&&, const RequestContext&, Reply reply) {
    reply.writeResult([](std::string& out) { out += "{}"; });
  });
  methods.request("shutdown", [this](json&&, const RequestContext&, Reply reply) {
    shutdownRequested = true;
    reply(nullptr);
  });
  methods.notification("exit", [this](json&&) { finish(shutdownRequested ? 0 : 1, "exit"); });
  methods.notification("$/cancelRequest", [this](json&& params) {
    if (!params.is_object() || !params.contains("id") || !protocol::isValidId(params["id"]))
      return spdlog::warn("$/cancelRequest needs params with an integer or string id; ignored");
    cancelRequest(params["id"], "cancelled by the client");
  });
  methods.notification("notifications/cancelled", [this](json&& params) {
    if (!params.is_object() || !params.contains("requestId") || !protocol::isValidId(params["requestId"]))
      return spdlog::warn("notifications/cancelled needs params with an integer or string requestId; ignored");
    std::string reason = "cancelled by the client";
    if (auto it = params.find("reason"); it != params.end() && it->is_string()) reason += ": " + it->get<std::string>();
    // MCP: "the receiver SHOULD NOT send a response for the cancelled request"; the official SDK
    // reports one that comes anyway as an error.
    cancelRequest(params["requestId"], reason, /*answer=*/false);
  });
}

void Server::Impl::handleFrame(protocol::DecodedFrame&& frame, bool moreFollow) {
  if (exiting) return;
  if (frame.error) {
    spdlog::warn("{}", frame.error->message);
    send(protocol::encodeError(nullptr, *frame.error));
    return;
  }
  // Bounded: nothing below may meet a value deeper than kMaxJsonDepth, since copies, comparisons
  // and dumps of a value recurse once per level. A frame that is one object (nearly all) is read
  // as its members, its envelope never built; anything else, a refusal included, the long way.
  // The params of a method that reads them as text (`register`) are only checked here, not built.
  protocol::DeferredParams deferred{[this](std::string_view method) { return methods.takesParamsText(method); }, {}};
  if (auto members = protocol::parseObjectMembersFast(frame.body, protocol::kMaxJsonDepth, &deferred))
    return handleMessage(protocol::classify(std::move(*members)), answerSend, moreFollow, deferred.text);
  auto parsed = protocol::parseBounded(frame.body);
  if (!parsed) {
    const RpcError error = frameRefusalError(*parsed.refusal);
    spdlog::warn("{}", error.message);
    send(protocol::encodeError(nullptr, error));
    return;
  }
  json value = std::move(parsed.value);
  if (value.is_array()) return handleBatch(std::move(value));
  handleMessage(protocol::classify(std::move(value)), answerSend, moreFollow);
}

void Server::Impl::handleBatch(json&& batch) {
  if (batch.empty()) {
    send(protocol::encodeError(nullptr, {ErrorCode::InvalidRequest, "Invalid Request: an empty batch", {}}));
    return;
  }
  std::vector<protocol::Message> messages;
  messages.reserve(batch.size());
  std::size_t answers = 0;
  for (auto& element : batch) {
    messages.push_back(protocol::classify(std::move(element)));
    const auto& m = messages.back();
    if (std::holds_alternative<protocol::Request>(m)) ++answers;
    if (auto* invalid = std::get_if<protocol::InvalidMessage>(&m); invalid && invalid->replyable) ++answers;
  }
  AnswerSend reply = [](std::string&&) {};
  if (answers > 0) {
    BatchReply collector(answers, answerSend);
    reply = [collector](std::string&& response) mutable { collector.add(std::move(response)); };
  }
  for (auto& message : messages) handleMessage(std::move(message), reply);
}

void Server::Impl::handleMessage(protocol::Message&& message, const AnswerSend& reply, bool moreFollow,
                                 std::string_view paramsText) {
  std::visit(
      [&](auto&& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, protocol::Request>) {
          handleRequest(std::move(m), reply, moreFollow, paramsText);
        } else if constexpr (std::is_same_v<T, protocol::Notification>) {
          // A notification of a method that reads its params as text has them read as usual.
          if (!paramsText.empty())
            m.params = protocol::parseJsonFast(paramsText, protocol::kMaxJsonDepth - 1).value_or(json::object());
          handleNotification(std::move(m));
        } else if constexpr (std::is_same_v<T, protocol::Response>) {
          handleResponse(std::move(m));
        } else {
          spdlog::warn("{}", m.error.message);
          if (m.replyable) reply(protocol::encodeError(m.id, m.error));
        }
      },
      std::move(message));
}

void Server::Impl::handleRequest(protocol::Request&& request, const AnswerSend& replySend, bool moreFollow,
                                 std::string_view paramsText) {
  if (debugLogged()) spdlog::debug("<-- {}({})", request.method, shown(request.id));
  // Left as text for a method that had changed by the frame's end (a duplicate "method"): read
  // now, as they would have been; they were checked already, so they read.
  if (!paramsText.empty() && !methods.takesParamsText(request.method)) {
    request.params = protocol::parseJsonFast(paramsText, protocol::kMaxJsonDepth - 1).value_or(json::object());
    paramsText = {};
  }
  auto fail = [&](ErrorCode code, std::string message) {
    Reply(request.id, request.method, replySend).error(code, std::move(message));
  };
  const RequestHandler* handler = methods.findRequest(request.method);
  if (handler == nullptr) return fail(ErrorCode::MethodNotFound, "Method not found: " + request.method);
  if (!initialized && request.method != "initialize" && request.method != "ping")
    return fail(ErrorCode::ServerNotInitialized, "Server not initialized: send initialize first");
  if (shutdownRequested)
    return fail(ErrorCode::InvalidRequest, "Invalid Request: toold is shutting down; only exit is accepted");

  // Requests are handled one at a time (the dispatch queue), so the hook needs no lock.
  if (loopWanted && std::find(loopFree.begin(), loopFree.end(), request.method) == loopFree.end())
    std::exchange(loopWanted, nullptr)();

  RequestContext context{request.id, request.method, {}, moreFollow, paramsText};
  std::optional<Reply> reply = enterInFlight(request, replySend, context);
  if (!reply)
    return fail(ErrorCode::InvalidRequest,
                "Invalid Request: id " + shown(request.id) + " is already used by a request in flight");

  try {
    (*handler)(std::move(request.params), context, *reply);
  } catch (const InvalidParams& e) {
    reply->error(ErrorCode::InvalidParams, std::string("Invalid params: ") + e.what());
  } catch (const std::exception& e) {
    spdlog::error("{}({}) failed: {}", context.method, shown(context.id), e.what());
    reply->error(ErrorCode::InternalError, std::string("Internal error: ") + e.what());
  }
}

std::optional<Reply> Server::Impl::enterInFlight(const protocol::Request& request, const AnswerSend& replySend,
                                                 RequestContext& context) {
  const std::string key = protocol::idKey(request.id);
  std::lock_guard lock(tablesMutex);
  auto [it, inserted] = inFlight.try_emplace(key);
  if (!inserted) return std::nullopt;
  // The reply leaves the table when it is sent, before the client can see the answer (and reuse
  // the id); the table holds it weakly so that a handler dropping its last copy is still detected.
  // After the end of input, the answer that empties the table lets toold exit; it is checked once
  // the answer is handed to the writer, so that the exit's flush includes it. One callback does
  // all three: each std::function of a reply is an allocation per request. An answer that comes
  // after the server is gone (toold has exited) has no one to go to.
  // An answer of pieces goes to the writer as pieces only from outside a batch (whose array
  // gathers its answers' texts).
  PiecesSend piecesSend;
  if (sendPieces && &replySend == &answerSend)
    piecesSend = [weak = weak_from_this(), key](protocol::PiecedText&& message) {
      const auto self = weak.lock();
      if (!self) return;
      {
        std::lock_guard relock(self->tablesMutex);
        self->inFlight.erase(key);
      }
      self->sendPieces(std::move(message));
      if (self->draining.load()) self->answered();
    };
  Reply reply(request.id, request.method,
              [weak = weak_from_this(), key, replySend](std::string&& message) {
                const auto self = weak.lock();
                if (!self) return;
                {
                  std::lock_guard relock(self->tablesMutex);
                  self->inFlight.erase(key);
                }
                replySend(std::move(message));
                if (self->draining.load()) self->answered();
              },
              {}, std::move(piecesSend));
  it->second.reply = WeakReply(reply);
  context.cancellation = it->second.cancellation.token();
  return reply;
}

void Server::Impl::handleNotification(protocol::Notification&& notification) {
  spdlog::debug("<-- {}", notification.method);
  const NotificationHandler* handler = methods.findNotification(notification.method);
  if (handler == nullptr) {
    spdlog::debug("notification {} is not handled; ignored", notification.method);
    return;
  }
  try {
    (*handler)(std::move(notification.params));
  } catch (const std::exception& e) {
    spdlog::error("notification {} failed: {}", notification.method, e.what());
  }
}

void Server::Impl::handleResponse(protocol::Response&& response) {
  // toold's own ids are strings; any other id (null after a parse error, an object) answers
  // nothing toold sent.
  if (!protocol::isValidId(response.id)) {
    spdlog::warn("a response with id {} answers no request toold sent; ignored", shown(response.id));
    return;
  }
  std::function<void(protocol::Response&&)> callback;
  {
    std::lock_guard lock(tablesMutex);
    auto it = outgoing.find(protocol::idKey(response.id));
    if (it != outgoing.end()) {
      callback = std::move(it->second);
      outgoing.erase(it);
    }
  }
  if (!callback) {
    spdlog::warn("a response with id {} answers no request toold sent; ignored", shown(response.id));
    return;
  }
  if (debugLogged()) spdlog::debug("<-- reply({})", shown(response.id));
  callback(std::move(response));
}

void Server::Impl::cancelRequest(const json& id, const std::string& reason, bool answer) {
  std::optional<core::CancellationSource> source;
  std::optional<Reply> reply;
  {
    std::lock_guard lock(tablesMutex);
    auto it = inFlight.find(protocol::idKey(id));
    if (it == inFlight.end()) {
      if (debugLogged()) spdlog::debug("cancel of {}: no such request in flight (already answered?)", shown(id));
      return;
    }
    source = it->second.cancellation;
    reply = it->second.reply.lock();
  }
  if (debugLogged()) spdlog::debug("cancelling {}: {}", shown(id), reason);
  source->cancel(reason);
  if (!reply) return;
  if (answer) reply->error(ErrorCode::RequestCancelled, "Request cancelled: " + reason);
  else reply->withdraw();
}

void Server::Impl::drain(std::string why) {
  if (exiting) return;
  std::size_t running = 0;
  {
    std::lock_guard lock(tablesMutex);
    draining = true;
    running = inFlight.size();
  }
  failOutgoing(why);
  if (running == 0 || drainTimeout.count() == 0) return finish(0, why);
  spdlog::info("{}: waiting up to {} ms for {} request(s) in flight", why, drainTimeout.count(), running);
  drainTimer = std::make_unique<asio::steady_timer>(io, drainTimeout);
  drainTimer->async_wait([weak = weak_from_this(), why](const boost::system::error_code& ec) {
    if (ec) return;
    if (auto self = weak.lock())
      self->dispatch.run([self, why] { self->finish(0, why + "; the drain timeout passed"); });
  });
  answered(); // every request may have ended meanwhile
}

void Server::Impl::answered() {
  {
    std::lock_guard lock(tablesMutex);
    if (!inFlight.empty()) return;
  }
  dispatch.run([self = shared_from_this()] {
    if (self->drainTimer) self->drainTimer->cancel();
    self->finish(0, "end of input; every request was answered");
  });
}

void Server::Impl::failOutgoing(const std::string& why) {
  std::vector<std::function<void(protocol::Response&&)>> pendingCalls;
  {
    std::lock_guard lock(tablesMutex);
    for (auto& [key, callback] : outgoing) pendingCalls.push_back(std::move(callback));
    outgoing.clear();
  }
  for (auto& callback : pendingCalls)
    callback(protocol::Response{nullptr, std::nullopt,
                                RpcError{ErrorCode::RequestCancelled, "toold is exiting (" + why + ")", {}}});
}

void Server::Impl::finish(int status, const std::string& why) {
  {
    std::lock_guard lock(tablesMutex); // callClient checks the flag under this lock
    if (exiting.exchange(true)) return;
  }
  spdlog::info("exiting ({}), status {}", why, status);
  std::vector<json> ids;
  std::vector<std::function<void(protocol::Response&&)>> pendingCalls;
  {
    std::lock_guard lock(tablesMutex);
    for (auto& [key, entry] : inFlight) {
      if (auto reply = entry.reply.lock()) ids.push_back(reply->id());
    }
    for (auto& [key, callback] : outgoing) pendingCalls.push_back(std::move(callback));
    outgoing.clear();
  }
  for (const auto& id : ids) cancelRequest(id, "toold is exiting");
  for (auto& callback : pendingCalls) {
    protocol::Response cancelled{nullptr, std::nullopt,
                                 RpcError{ErrorCode::RequestCancelled, "toold is exiting", {}}};
    callback(std::move(cancelled));
  }
  onExit(status);
}

} // namespace toold::daemon
