#include "core/lsp/lsp_transport.h"

#include "protocol/bounded_json.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

namespace toold::core {

namespace asio = boost::asio;

LspTransport::LspTransport(ProcessRunner& runner, LspStrand strand, std::string serverName, ProcessSpec spec)
    : runner_(runner), strand_(std::move(strand)), name_(std::move(serverName)), spec_(std::move(spec)),
      graceTimer_(strand_), decoder_(protocol::Framing::ContentLength, kLspMaxFrameBytes) {}

LspTransport::~LspTransport() { terminate_.cancel("the language server's transport is gone"); }

void LspTransport::start(Events events) {
  events_ = std::move(events);
  std::weak_ptr<LspTransport> weak = weak_from_this();
  ProcessSpec spec = spec_;
  spec.killGrace = kLspExitGrace;
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

void LspTransport::send(const nlohmann::json& message) {
  if (input_ && !exited_) input_->write(protocol::encodeFrame(message, protocol::Framing::ContentLength));
}

int LspTransport::pid() const { return input_ ? input_->pid() : 0; }

void LspTransport::onOutput(OutputStream stream, std::string_view bytes) {
  if (stream == OutputStream::Stdout) {
    decoder_.feed(bytes, [this](protocol::DecodedFrame&& frame) {
      if (exited_) return;
      if (frame.error) return events_.dropped(frame.error->message);
      auto parsed = protocol::parseBounded(frame.body);
      if (!parsed) return events_.dropped("a frame that is not usable JSON: " + parsed.refusal->message);
      events_.message(std::move(parsed.value));
    });
    return;
  }
  // Servers are chatty on stderr (clangd logs every request): debug only.
  stderr_.feed(bytes, [this](std::string_view line) {
    if (!line.empty()) spdlog::debug("lsp {}: {}", name_, line);
  });
}

void LspTransport::exited(const ProcessOutcome& outcome) {
  // The last few lines say why; the whole tail would bury it.
  const std::string tail = stderr_.tail(4);
  std::string reason = outcome.spawnError.empty() ? "exited (" + outcome.describe() + ")" : outcome.spawnError;
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

void LspTransport::stop(std::function<void()> done) {
  if (exited_ || !input_) {
    asio::post(strand_, std::move(done));
    return;
  }
  stopping_ = true;
  stopped_ = std::move(done);
  input_->close();
  graceTimer_.expires_after(kLspExitGrace);
  graceTimer_.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
    if (!error && !self->exited_) self->terminate_.cancel("stopping the language server");
  });
}

} // namespace toold::core
