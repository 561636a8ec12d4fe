#include "core/sources/mcp/mcp_http_transport.h"

#include "core/net/http_exchange.h"
#include "core/net/url.h"
#include "core/sources/mcp/mcp_line_reader.h"
#include "core/sources/mcp/mcp_sse_reader.h"
#include "protocol/bounded_json.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <thread>

namespace toold::core {

namespace asio = boost::asio;

namespace {

/// A POST's whole exchange may last as long as the tool call it carries; the call's own deadline
/// (McpConnection) is what bounds it.
constexpr std::chrono::hours kExchangeLimit{24};

/// The listening stream: reopened after the server's `retry:`, else after a delay that starts at
/// 1 s and grows by half up to 30 s while attempts fail (the official SDK's schedule); a stream
/// that did not open, or ended at once with nothing, is a failure, and after this many in a row
/// toold stops trying (the server stays connected; its answers still arrive on the POSTs).
constexpr std::chrono::milliseconds kFirstReconnect{1000};
constexpr std::chrono::milliseconds kLongestReconnect{30000};
constexpr int kListenAttempts = 5;
constexpr std::chrono::seconds kHealthyStream{1};

bool isInitializedNotification(std::string_view body) {
  if (body.size() > 4096 || body.find("notifications/initialized") == std::string_view::npos) return false;
  const auto message = nlohmann::json::parse(body, nullptr, false);
  return message.is_object() && !message.contains("id") && message.value("method", "") == "notifications/initialized";
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

} // namespace

McpHttpTransport::McpHttpTransport(McpStrand strand, std::string serverName, std::string url,
                                   std::map<std::string, std::string> headers)
    : strand_(std::move(strand)), name_(std::move(serverName)), url_(std::move(url)), headers_(std::move(headers)) {}

McpHttpTransport::~McpHttpTransport() { stopping_.cancel("the MCP server's transport is gone"); }

void McpHttpTransport::start(Events events) { events_ = std::move(events); }

void McpHttpTransport::send(std::string frame) {
  while (!frame.empty() && frame.back() == '\n') frame.pop_back();
  std::uint64_t sequence = 0;
  {
    std::lock_guard lock(mutex_);
    sequence = ++sent_;
    unanswered_.insert(sequence);
  }
  std::thread([self = shared_from_this(), body = std::move(frame), sequence]() mutable {
    self->exchange(std::move(body));
    self->answered(sequence);
  }).detach();
}

void McpHttpTransport::answered(std::uint64_t sequence) {
  std::vector<std::function<void()>> ready;
  {
    std::lock_guard lock(mutex_);
    unanswered_.erase(sequence);
    const std::uint64_t oldest = unanswered_.empty() ? sent_ + 1 : *unanswered_.begin();
    for (auto it = afterSent_.begin(); it != afterSent_.end();) {
      if (it->first <= oldest) {
        ready.push_back(std::move(it->second));
        it = afterSent_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& then : ready) asio::post(strand_, std::move(then));
}

void McpHttpTransport::afterSent(std::function<void()> then) {
  std::lock_guard lock(mutex_);
  // Waits for every POST sent so far: the ones with a number up to sent_.
  if (unanswered_.empty()) return asio::post(strand_, std::move(then));
  afterSent_.emplace_back(sent_ + 1, std::move(then));
}

void McpHttpTransport::setProtocolVersion(std::string version) {
  std::lock_guard lock(mutex_);
  protocolVersion_ = std::move(version);
}

void McpHttpTransport::deliver(std::string_view text) {
  auto parsed = protocol::parseBounded(text);
  if (!parsed) {
    spdlog::debug("MCP server {}: an answer that is not JSON was skipped", name_);
    return;
  }
  auto post = [this](nlohmann::json message) {
    asio::post(strand_, [self = shared_from_this(), message = std::move(message)]() mutable {
      if (!self->closed_) self->events_.message(std::move(message));
    });
  };
  if (parsed.value.is_array())
    for (auto& message : parsed.value) post(std::move(message));
  else
    post(std::move(parsed.value));
}

void McpHttpTransport::reportOversized(std::optional<nlohmann::json> id, std::size_t bytes) {
  asio::post(strand_, [self = shared_from_this(), id = std::move(id), bytes] {
    if (!self->closed_) self->events_.oversized(id, bytes);
  });
}

McpSseReader McpHttpTransport::eventReader() {
  return McpSseReader([this](std::string_view data) { deliver(data); },
                      [this](std::optional<nlohmann::json> id, std::size_t bytes) { reportOversized(std::move(id), bytes); },
                      kMcpFrameCap);
}

void McpHttpTransport::lost(std::string reason, bool unauthorized) {
  asio::post(strand_, [self = shared_from_this(), reason = std::move(reason), unauthorized] {
    if (self->closed_) return;
    self->closed_ = true;
    if (unauthorized && self->events_.unauthorized) return self->events_.unauthorized(reason);
    self->events_.closed(reason);
  });
}

void McpHttpTransport::exchange(std::string body) {
  std::string error;
  const auto url = parseUrl(url_, &error);
  if (!url) return lost("Invalid MCP URL for \"" + name_ + "\": " + error, false);
  HttpRequest request;
  request.method = "POST";
  request.url = *url;
  request.headers.push_back({"Content-Type", "application/json"});
  request.headers.push_back({"Accept", "application/json, text/event-stream"});
  bool inSession = false;
  {
    std::lock_guard lock(mutex_);
    inSession = !sessionId_.empty();
    if (inSession) request.headers.push_back({"Mcp-Session-Id", sessionId_});
    if (!protocolVersion_.empty()) request.headers.push_back({"MCP-Protocol-Version", protocolVersion_});
  }
  for (const auto& [key, value] : headers_) request.headers.push_back({key, value});
  request.body = body;
  const std::optional<nlohmann::json> requestId = recoverJsonRpcId(std::string_view(body).substr(0, 4096));

  HttpOptions options;
  options.timeout = kExchangeLimit;
  options.max_body_bytes = 0; // no cap on the stream: each message in it is bounded here
  int status = 0;
  bool eventStream = false;
  std::string answer;
  bool tooLarge = false;
  McpSseReader events = eventReader();
  const HttpOutcome outcome = httpExchange(
      request, options, stopping_.token(),
      [&](const HttpResponseHead& head) {
        status = head.status;
        if (auto session = head.header("Mcp-Session-Id")) {
          std::lock_guard lock(mutex_);
          sessionId_ = *session;
        }
        eventStream = lower(head.header("Content-Type").value_or("")).starts_with("text/event-stream");
      },
      [&](std::string_view chunk) {
        if (status < 200 || status >= 300) {
          if (answer.size() < 4096) answer.append(chunk.substr(0, 4096 - answer.size()));
          return true;
        }
        if (eventStream) {
          events.feed(chunk);
          return true;
        }
        if (tooLarge) return false;
        answer.append(chunk);
        if (answer.size() > kMcpFrameCap) {
          tooLarge = true;
          reportOversized(recoverJsonRpcId(std::string_view(answer).substr(0, 4096)), answer.size());
          answer = std::string();
          return false;
        }
        return true;
      });
  if (stopping_.isCancelled()) return;
  if (!outcome.ok()) return lost("cannot reach " + url_ + ": " + outcome.error, false);
  if (status == 401)
    return lost("the server at " + url_ + " answered 401 Unauthorized; toold does not do OAuth: give a token in the "
                "server's \"headers\" (Authorization) in toold.json",
                true);
  if (status == 404 && inSession)
    return lost("the server at " + url_ + " ended the session (404)", false);
  if (status < 200 || status >= 300) {
    // A refused request fails that request only; a refused notification is logged.
    std::string text = "the server at " + url_ + " answered HTTP " + std::to_string(status);
    if (!answer.empty()) text += ": " + answer.substr(0, 300);
    if (requestId && !tooLarge) {
      nlohmann::json reply{{"jsonrpc", "2.0"}, {"id", *requestId}, {"error", {{"code", -32000}, {"message", text}}}};
      deliver(reply.dump());
    } else {
      spdlog::warn("MCP server {}: {}", name_, text);
    }
    return;
  }
  if (eventStream)
    events.finish();
  else if (!tooLarge && answer.find_first_not_of(" \t\r\n") != std::string::npos)
    deliver(answer);
  // As the official SDK does: the listening stream opens once the server accepted `initialized`.
  if (!requestId && isInitializedNotification(body)) {
    std::lock_guard lock(mutex_);
    if (listening_) return;
    listening_ = true;
    std::thread([self = shared_from_this()] { self->listen(); }).detach();
  }
}

void McpHttpTransport::listen() {
  std::string lastEventId;
  std::optional<std::chrono::milliseconds> retry;
  std::chrono::milliseconds backoff = kFirstReconnect;
  int failures = 0;
  while (!stopping_.isCancelled()) {
    std::size_t events = 0;
    std::string problem;
    const auto opened = std::chrono::steady_clock::now();
    const StreamEnd end = listenOnce(lastEventId, retry, events, problem);
    if (stopping_.isCancelled()) return;
    switch (end) {
    case StreamEnd::Unsupported:
      spdlog::debug("MCP server {}: no listening stream ({}); messages outside answers are not received", name_, problem);
      return;
    case StreamEnd::SessionGone:
      return lost("the server at " + url_ + " ended the session (404)", false);
    case StreamEnd::Ended:
    case StreamEnd::Failed:
      break;
    }
    const bool healthy =
        end == StreamEnd::Ended && (events > 0 || std::chrono::steady_clock::now() - opened >= kHealthyStream);
    if (healthy) {
      failures = 0;
      backoff = kFirstReconnect;
    } else if (++failures >= kListenAttempts) {
      spdlog::warn("MCP server {}: the listening stream failed {} times in a row ({}); messages the server sends "
                   "outside answers (such as tools/list_changed) are no longer received",
                   name_, failures, problem);
      return;
    }
    // The server's `retry:` is followed, but no further than the longest delay of toold's own.
    const std::chrono::milliseconds delay = std::min(retry.value_or(backoff), kLongestReconnect);
    if (!healthy) backoff = std::min(backoff * 3 / 2, kLongestReconnect);
    spdlog::debug("MCP server {}: the listening stream {} ({}); opening it again in {} ms", name_,
                  end == StreamEnd::Ended ? "ended" : "failed", problem, delay.count());
    if (!pause(delay)) return;
  }
}

McpHttpTransport::StreamEnd McpHttpTransport::listenOnce(std::string& lastEventId,
                                                          std::optional<std::chrono::milliseconds>& retry,
                                                          std::size_t& events, std::string& problem) {
  std::string error;
  const auto url = parseUrl(url_, &error);
  if (!url) {
    problem = error;
    return StreamEnd::Unsupported;
  }
  HttpRequest request;
  request.method = "GET";
  request.url = *url;
  request.headers.push_back({"Accept", "text/event-stream"});
  bool inSession = false;
  {
    std::lock_guard lock(mutex_);
    inSession = !sessionId_.empty();
    if (inSession) request.headers.push_back({"Mcp-Session-Id", sessionId_});
    if (!protocolVersion_.empty()) request.headers.push_back({"MCP-Protocol-Version", protocolVersion_});
  }
  if (!lastEventId.empty()) request.headers.push_back({"Last-Event-ID", lastEventId});
  for (const auto& [key, value] : headers_) request.headers.push_back({key, value});

  HttpOptions options;
  options.timeout = kExchangeLimit;
  options.max_body_bytes = 0; // each message in the stream is bounded by the reader
  int status = 0;
  bool eventStream = false;
  McpSseReader reader = eventReader();
  const HttpOutcome outcome = httpExchange(
      request, options, stopping_.token(),
      [&](const HttpResponseHead& head) {
        status = head.status;
        eventStream = lower(head.header("Content-Type").value_or("")).starts_with("text/event-stream");
        if (status >= 200 && status < 300 && eventStream)
          asio::post(strand_, [self = shared_from_this()] {
            if (!self->closed_ && self->events_.listening) self->events_.listening();
          });
      },
      [&](std::string_view chunk) {
        if (status < 200 || status >= 300 || !eventStream) return false;
        reader.feed(chunk);
        return true;
      });
  // No finish(): an event the stream's end cut off was not received (the SSE standard drops it),
  // and the server sends it again after the last whole event's id.
  events = reader.events();
  if (!reader.lastEventId().empty()) lastEventId = reader.lastEventId();
  if (reader.retry()) retry = reader.retry();
  if (!outcome.ok()) {
    problem = outcome.error;
    return StreamEnd::Failed;
  }
  problem = "HTTP " + std::to_string(status);
  if (status == 404 && inSession) return StreamEnd::SessionGone;
  if (status >= 500) return StreamEnd::Failed;
  if (status < 200 || status >= 300) return StreamEnd::Unsupported; // 405 above all: the server has none
  if (!eventStream) {
    problem = "the answer to GET is not text/event-stream";
    return StreamEnd::Unsupported;
  }
  problem = "the server closed it";
  return StreamEnd::Ended;
}

bool McpHttpTransport::pause(std::chrono::milliseconds delay) {
  auto wakeUp = stopping_.token().onCancel([this] {
    std::lock_guard lock(mutex_);
    wake_.notify_all();
  });
  std::unique_lock lock(mutex_);
  return !wake_.wait_for(lock, delay, [this] { return stopping_.isCancelled(); });
}

void McpHttpTransport::stop(std::function<void()> done) {
  closed_ = true;
  stopping_.cancel("stopping the MCP server");
  std::string session;
  {
    std::lock_guard lock(mutex_);
    session = sessionId_;
  }
  if (session.empty()) return asio::post(strand_, std::move(done));
  // The session ends with a DELETE, best effort and briefly.
  std::thread([self = shared_from_this(), session, done = std::move(done)]() mutable {
    std::string error;
    if (const auto url = parseUrl(self->url_, &error)) {
      HttpRequest request;
      request.method = "DELETE";
      request.url = *url;
      request.headers.push_back({"Mcp-Session-Id", session});
      for (const auto& [key, value] : self->headers_) request.headers.push_back({key, value});
      HttpOptions options;
      options.timeout = std::chrono::seconds(2);
      httpExchange(request, options, CancellationToken(), [](const HttpResponseHead&) {}, [](std::string_view) { return true; });
    }
    asio::post(self->strand_, std::move(done));
  }).detach();
}

} // namespace toold::core
