// A tool call through an MCP server: sent at once while it is connected, waiting while it starts
// or restarts, its cancellation and progress; and the server's other requests (resources).
#include "core/sources/mcp/mcp_server.h"

#include "core/sources/mcp/mcp_result.h"

#include <boost/asio/post.hpp>

namespace toold::core {

namespace asio = boost::asio;

namespace {

/// The text of a failed call as the model reads it.
std::string callFailure(const std::string& server, const std::string& tool, const McpError& error,
                        std::chrono::milliseconds execution) {
  if (error.code == kMcpTimeoutCode)
    return "MCP tool \"" + tool + "\" of server \"" + server + "\" sent no answer or progress for " + mcpSeconds(execution) +
           " s and was cancelled (raise the server's timeout.execution in toold.json)";
  if (error.code == kMcpClosedCode) return "MCP server \"" + server + "\": " + error.message;
  return "MCP server \"" + server + "\" answered an error: " + error.message;
}

} // namespace

void McpServer::callTool(const std::string& raw, bool hasOutputSchema, json input, ToolContext context, ToolDone done) {
  // Connected: the request leaves from this thread at once (McpConnection::requestNow).
  std::shared_ptr<McpConnection> connection;
  std::uint64_t generation = 0;
  {
    std::lock_guard lock(statusMutex_);
    connection = liveConnection_;
    generation = liveGeneration_;
  }
  if (connection)
    return sendCall(connection, generation, raw, hasOutputSchema, std::move(input), std::move(context), std::move(done));
  asio::post(strand_, [self = shared_from_this(), raw, hasOutputSchema, input = std::move(input),
                       context = std::move(context), done = std::move(done)]() mutable {
    const McpServerStatus now = self->status();
    if (now.state == McpState::Pending || now.state == McpState::Restarting)
      return self->waitForStart(raw, hasOutputSchema, std::move(input), std::move(context), std::move(done));
    if (now.state != McpState::Connected || !self->connection_)
      return done(ToolFailure{"MCP server \"" + self->name_ + "\" is not available (" + std::string(mcpStateName(now.state)) +
                                  (now.error.empty() ? "" : ": " + now.error) + ")",
                              std::nullopt});
    self->sendCall(self->connection_, self->generation_, raw, hasOutputSchema, std::move(input), std::move(context),
                   std::move(done));
  });
}

struct McpServer::WaitingCall {
  std::function<void()> resume;
  std::function<void(std::string reason)> fail;
  std::unique_ptr<asio::steady_timer> deadline;
  CancellationRegistration cancellation;
};

void McpServer::waitForStart(const std::string& raw, bool hasOutputSchema, json input, ToolContext context, ToolDone done) {
  // The call waits for the start under way, as long as its execution timeout allows (the start
  // itself is bounded: its start-up timeout, the backoff, 5 failures in a row at most).
  const std::uint64_t key = ++nextWaitingCall_;
  auto waiting = std::make_shared<WaitingCall>();
  auto sharedDone = std::make_shared<ToolDone>(std::move(done));
  waiting->resume = [self = shared_from_this(), raw, hasOutputSchema, input = std::move(input), context, sharedDone]() mutable {
    self->callTool(raw, hasOutputSchema, std::move(input), std::move(context), std::move(*sharedDone));
  };
  waiting->fail = [sharedDone](std::string reason) { (*sharedDone)(ToolFailure{std::move(reason), std::nullopt}); };
  waiting->deadline = std::make_unique<asio::steady_timer>(strand_, config_.timeout.execution);
  waiting->deadline->async_wait([weak = weak_from_this(), key](const boost::system::error_code& error) {
    auto self = weak.lock();
    if (error || !self) return;
    const auto it = self->waitingCalls_.find(key);
    if (it == self->waitingCalls_.end()) return;
    auto call = std::move(it->second);
    self->waitingCalls_.erase(it);
    call->fail("MCP server \"" + self->name_ + "\" did not come back within " + mcpSeconds(self->config_.timeout.execution) +
               " s (" + std::string(mcpStateName(self->status().state)) + "; raise the server's timeout.execution in toold.json)");
  });
  waitingCalls_[key] = waiting;
  waiting->cancellation = context.cancellation.onCancel([weak = weak_from_this(), key, strand = strand_] {
    asio::post(strand, [weak, key] {
      auto self = weak.lock();
      if (!self) return;
      const auto it = self->waitingCalls_.find(key);
      if (it == self->waitingCalls_.end()) return;
      auto call = std::move(it->second);
      self->waitingCalls_.erase(it);
      call->deadline->cancel();
      call->fail("cancelled while the MCP server was starting"); // dropped: the call ended as interrupted
    });
  });
}

void McpServer::resumeWaitingCalls() {
  auto calls = std::move(waitingCalls_);
  waitingCalls_.clear();
  for (auto& [key, call] : calls) {
    call->deadline->cancel();
    call->cancellation.reset();
    call->resume();
  }
}

void McpServer::sendCall(const std::shared_ptr<McpConnection>& connection, std::uint64_t generation, const std::string& raw,
                         bool hasOutputSchema, json input, ToolContext context, ToolDone done) {
  // Cancellation is registered before the request exists (the answer, on the strand, ends the
  // registration); it cancels the request once its id is known.
  auto requestId = std::make_shared<std::atomic<std::int64_t>>(0);
  auto cancelled = std::make_shared<CancellationRegistration>();
  auto cancel = [weak = weak_from_this(), requestId, generation, strand = strand_] {
    asio::post(strand, [weak, requestId, generation] {
      auto live = weak.lock();
      const std::int64_t id = requestId->load();
      if (id != 0 && live && live->generation_ == generation && live->connection_)
        live->connection_->cancel(id, "cancelled by toold's client");
    });
  };
  *cancelled = context.cancellation.onCancel(cancel);
  McpRequestOptions options;
  options.timeout = config_.timeout.execution;
  options.onProgress = [progress = context.progress](const json& params) {
    if (!progress) return;
    json update = json::object();
    for (const char* key : {"progress", "total", "message"})
      if (params.contains(key)) update[key] = params[key];
    progress(std::move(update));
  };
  requestId->store(connection->requestNow(
      "tools/call", json{{"name", raw}, {"arguments", input.is_object() ? std::move(input) : json::object()}}, std::move(options),
      [self = shared_from_this(), raw, hasOutputSchema, cancelled, done = std::move(done)](McpAnswer answer) {
        cancelled->reset();
        if (answer.error) return done(ToolFailure{callFailure(self->name_, raw, *answer.error, self->config_.timeout.execution), std::nullopt});
        done(mcpResultToCompletion(std::move(*answer.result), hasOutputSchema, raw));
      }));
  // Cancelled before the id was known: the cancellation above found none.
  if (context.cancellation.isCancelled()) cancel();
}

void McpServer::request(const std::string& method, json params, CancellationToken cancellation,
                        std::function<void(std::optional<json>, std::string)> done) {
  asio::post(strand_, [self = shared_from_this(), method, params = std::move(params), cancellation = std::move(cancellation),
                       done = std::move(done)]() mutable {
    if (self->status().state != McpState::Connected || !self->connection_)
      return done(std::nullopt, "MCP server \"" + self->name_ + "\" is not connected");
    auto registration = std::make_shared<CancellationRegistration>();
    const std::int64_t id = self->connection_->request(
        method, std::move(params), McpRequestOptions{self->config_.timeout.execution, {}},
        [registration, done](McpAnswer answer) {
          registration->reset();
          if (answer.error) return done(std::nullopt, answer.error->message);
          done(std::move(answer.result), "");
        });
    *registration = cancellation.onCancel([weak = self->weak_from_this(), id, generation = self->generation_, strand = self->strand_] {
      asio::post(strand, [weak, id, generation] {
        auto live = weak.lock();
        if (live && live->generation_ == generation && live->connection_) live->connection_->cancel(id, "cancelled by toold's client");
      });
    });
  });
}

} // namespace toold::core
