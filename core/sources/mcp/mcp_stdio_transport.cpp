#include "core/sources/mcp/mcp_stdio_transport.h"

#include "protocol/bounded_json.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

namespace toold::core {

namespace asio = boost::asio;

namespace {

constexpr unsigned kStderrLinesPerSecond = 20;

} // namespace

McpStdioTransport::McpStdioTransport(ProcessRunner& runner, McpStrand strand, std::string serverName, ProcessSpec spec)
    : runner_(runner), strand_(std::move(strand)), name_(std::move(serverName)), spec_(std::move(spec)),
      graceTimer_(strand_) {}

McpStdioTransport::~McpStdioTransport() {
  // A transport dropped without stop() still ends its server: the runner's cancellation kills it.
  terminate_.cancel("the MCP server's transport is gone");
}

void McpStdioTransport::start(Events events) {
  events_ = std::move(events);
  std::weak_ptr<McpStdioTransport> weak = weak_from_this();
  // The child runs on the server's strand, so what the reader finds is handled where it is read,
  // in order, without a hop to another strand (and often another thread) per message. The
  // transport outlives each call: onOutput holds it.
  reader_ = std::make_unique<McpLineReader>(
      [weak](std::string_view line) {
        auto parsed = protocol::parseBounded(line);
        if (!parsed) {
          // Opencode's transport (and the SDK's) skips a line that is not JSON: servers print banners.
          spdlog::debug("MCP server: a stdout line that is not JSON was skipped: {}", line.substr(0, 200));
          return;
        }
        if (auto self = weak.lock(); self && !self->exited_) self->events_.message(std::move(parsed.value));
      },
      [weak](std::optional<nlohmann::json> id, std::size_t bytes) {
        if (auto self = weak.lock(); self && !self->exited_) self->events_.oversized(id, bytes);
      });
  ProcessSpec spec = spec_;
  spec.killGrace = kMcpCloseGrace;
  input_ = runner_.startWithInput(
      std::move(spec), terminate_.token(),
      [weak](OutputStream stream, std::string_view bytes) {
        if (auto self = weak.lock()) self->onOutput(stream, bytes);
      },
      [weak](ProcessOutcome outcome) {
        if (auto self = weak.lock()) self->exited(outcome);
      },
      strand_);
}

void McpStdioTransport::send(std::string frame) {
  if (input_) input_->write(std::move(frame));
}

int McpStdioTransport::pid() const { return input_ ? input_->pid() : 0; }

void McpStdioTransport::onOutput(OutputStream stream, std::string_view bytes) {
  if (stream == OutputStream::Stdout) return reader_->feed(bytes);
  stderr_.feed(bytes, [this](std::string_view line) { logStderrLine(line); });
}

void McpStdioTransport::logStderrLine(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.find_first_not_of(" \t") == std::string_view::npos) return;
  // A chatty server must not flood toold's log: a window of one second, and a count of the rest.
  const auto now = std::chrono::steady_clock::now();
  if (now - logWindow_ >= std::chrono::seconds(1)) {
    if (droppedInWindow_ > 0) spdlog::info("mcp {}: ({} stderr lines not logged)", name_, droppedInWindow_);
    logWindow_ = now;
    loggedInWindow_ = 0;
    droppedInWindow_ = 0;
  }
  if (loggedInWindow_ >= kStderrLinesPerSecond) {
    ++droppedInWindow_;
    return;
  }
  ++loggedInWindow_;
  spdlog::info("mcp {}: {}", name_, line);
}

void McpStdioTransport::exited(const ProcessOutcome& outcome) {
  // On the server's strand, after the last output.
  stderr_.flush([this](std::string_view line) { logStderrLine(line); });
  if (droppedInWindow_ > 0) spdlog::info("mcp {}: ({} stderr lines not logged)", name_, droppedInWindow_);
  const std::string tail = stderr_.tail();
  std::string reason = outcome.spawnError.empty() ? "the server exited (" + outcome.describe() + ")" : outcome.spawnError;
  if (!tail.empty()) reason += "; its stderr ended with: " + tail;
  asio::post(strand_, [self = shared_from_this(), reason = std::move(reason)] {
    self->exited_ = true;
    self->graceTimer_.cancel();
    if (self->stopping_) {
      if (auto stopped = std::move(self->stopped_)) stopped();
      return;
    }
    self->events_.closed(reason);
  });
}

void McpStdioTransport::stop(std::function<void()> done) {
  if (exited_ || !input_) {
    asio::post(strand_, std::move(done));
    return;
  }
  stopping_ = true;
  stopped_ = std::move(done);
  input_->close();
  graceTimer_.expires_after(kMcpCloseGrace);
  graceTimer_.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
    // SIGTERM to the group now, SIGKILL after the runner's grace (kMcpCloseGrace).
    if (!error && !self->exited_) self->terminate_.cancel("stopping the MCP server");
  });
}

void McpStdioTransport::afterSent(std::function<void()> then) {
  // The pipe keeps the order of the frames: what is sent next arrives after them.
  asio::post(strand_, std::move(then));
}

} // namespace toold::core
