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
  std::thread([self = shared_from_this(), body = std::move(frame)]() mutable { self->exchange(std::move(body)); }).detach();
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
  auto oversized = [this](std::optional<nlohmann::json> id, std::size_t bytes) {
    asio::post(strand_, [self = shared_from_this(), id = std::move(id), bytes] {
      if (!self->closed_) self->events_.oversized(id, bytes);
    });
  };
  McpSseReader events([this](std::string_view data) { deliver(data); }, oversized, kMcpFrameCap);
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
          oversized(recoverJsonRpcId(std::string_view(answer).substr(0, 4096)), answer.size());
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
